"""The Solo benchmark harness: rules files, bad lines, the JSON report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eleusis.bench import calibration, main, read_rules

RULES = """\
# a comment, then a blank line

red: card is red
card.suit != prev.suit
broken: card.rank >>> 3
also_broken: card is purple
"""


def test_read_rules_names_and_skips_bad_lines() -> None:
    rules, skipped = read_rules(RULES.splitlines())
    assert [(r.name, r.line) for r in rules] == [("red", 3), ("line4", 4)]
    assert len(skipped) == 2
    assert skipped[0].startswith("line 5:") and skipped[1].startswith("line 6:")


def test_json_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "rules.txt"
    f.write_text(RULES, encoding="utf-8")
    assert main(["solo", "--rules", str(f), "--rounds", "1", "--seed", "2", "--json"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    for key in ("rounds", "solved_rate", "mean_score", "mean_wrong_guesses", "mean_turns",
                "decision_ms_median", "decision_ms_p95", "per_rule"):
        assert key in report
    assert report["rounds"] == 2
    assert [r["name"] for r in report["per_rule"]] == ["red", "line4"]
    assert "line 5" in captured.err and "line 6" in captured.err
    assert 0.0 <= report["solved_rate"] <= 1.0


def test_text_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "rules.txt"
    f.write_text("d1-black: card is black\n", encoding="utf-8")
    assert main(["solo", "--rules", str(f), "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "d1-black" in out and "solved" in out and "median" in out
    assert "difficulty 1" in out


def test_bad_arguments_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solo", "--rules", str(tmp_path / "missing.txt")]) == 2
    f = tmp_path / "r.txt"
    f.write_text("card is red\n", encoding="utf-8")
    assert main(["solo", "--rules", str(f), "--strength", "godlike"]) == 2
    assert main(["solo", "--rules", str(f), "--rounds", "0"]) == 2
    assert "error" in capsys.readouterr().err


def test_calibration_bins() -> None:
    bins = calibration([(0.1, False), (0.15, True), (0.9, True), (1.0, True)], bins=5)
    assert [b["plays"] for b in bins] == [2, 2]
    assert bins[0]["observed"] == 0.5 and bins[1]["observed"] == 1.0


def test_table_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "rules.txt"
    f.write_text("card is black\n", encoding="utf-8")
    assert main(["table", "--rules", str(f), "--rounds", "1", "--players", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rounds"] == 1 and report["finished"] == 1
    assert report["prophets_overthrown"] <= report["prophets_declared"]
    assert main(["table", "--rules", str(f), "--players", "2"]) == 2


def test_without_counterexamples(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "rules.txt"
    f.write_text("card is red\n", encoding="utf-8")
    assert main(["solo", "--rules", str(f), "--rounds", "1", "--json",
                 "--no-counterexamples"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["counterexamples"] is False and report["rounds"] == 1


def test_ideas_judge_the_top_idea_without_changing_the_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--ideas`` reports how often the idea a player is shown first was the
    rule, against the probability shown; asking for it changes no game."""
    f = tmp_path / "rules.txt"
    f.write_text("card is red\ncard.rank + prev.rank >= 14\n", encoding="utf-8")
    args = ["solo", "--rules", str(f), "--rounds", "1", "--seed", "3", "--json",
            "--no-counterexamples"]
    assert main(args) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([*args, "--ideas"]) == 0
    judged = json.loads(capsys.readouterr().out)
    assert "idea_calibration" not in plain
    for key in ("scores", "wrong_guesses", "turns"):
        assert [r[key] for r in judged["per_rule"]] == [r[key] for r in plain["per_rule"]]
    bins = judged["idea_calibration"]
    assert sum(b["plays"] for b in bins) >= judged["decisions"] - 2 * judged["rounds"]
    assert all(0.0 <= b["observed"] <= 1.0 and b["from"] <= b["predicted"] <= b["to"]
               for b in bins)
    # both rules were solved: the last ideas were right, and sure
    assert judged["solved_rate"] == 1.0 and bins[-1]["observed"] > 0.5
    # so each round's top idea was the rule by the guess at the latest: a
    # guess the first time it was would have scored no less
    first = judged["first_right_idea"]
    assert "first_right_idea" not in plain and first["rounds_led"] == 1.0
    assert 0 < first["mean_plays"] <= judged["mean_turns"]
    assert first["score_then"] == 30 - first["mean_plays"] >= judged["mean_score"]
    # and the text report says the same
    assert main([a for a in args if a != "--json"] + ["--ideas"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines()
                if x.startswith("top idea first the rule"))
    assert f"in 100.0% of rounds, after {first['mean_plays']:.2f} plays" in line
    assert line.endswith(f"mean score {first['score_then']:.2f}")


def test_guesses_are_counted_by_why_they_were_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every guess of the report has a reason of the scientist's; the reasons'
    counts are the rounds' guesses, and their right ones the rounds solved."""
    from eleusis.ai.scientist import GUESS_REASONS

    f = tmp_path / "rules.txt"
    f.write_text("card is red\ncard.rank >= 7\nif prev is red then card.rank >= prev.rank"
                 " else card.rank <= prev.rank\n", encoding="utf-8")
    assert main(["solo", "--rules", str(f), "--rounds", "2", "--seed", "1", "--json",
                 "--no-counterexamples"]) == 0
    report = json.loads(capsys.readouterr().out)
    reasons = report["guesses_by_reason"]
    assert reasons and set(reasons) <= set(GUESS_REASONS)
    rounds = report["rounds"]
    solved = round(report["solved_rate"] * rounds)
    wrong = round(report["mean_wrong_guesses"] * rounds)
    assert sum(int(c["guesses"]) for c in reasons.values()) == solved + wrong
    assert sum(int(c["right"]) for c in reasons.values()) == solved
    assert all(0.0 < c["stated"] <= 1.0 for c in reasons.values())
    # by the turn they were made at: the same guesses, the same right ones
    by_turn = report["guesses_by_turn"]
    assert sum(c["guesses"] for c in by_turn.values()) == solved + wrong
    assert sum(c["right"] for c in by_turn.values()) == solved
    assert set(by_turn) <= {"1-10", "11-15", "16-20", "21-"}
    # and by the kind of idea: "card is red" and "card.rank >= 7" are single
    # blocks, the climb by colour an if-then-else (or a split)
    by_kind = report["guesses_by_kind"]
    assert sum(c["guesses"] for c in by_kind.values()) == solved + wrong
    assert sum(c["right"] for c in by_kind.values()) == solved
    assert by_kind["one block"]["right"] >= 3
    # and the text report says the same
    assert main(["solo", "--rules", str(f), "--rounds", "2", "--seed", "1",
                 "--no-counterexamples"]) == 0
    text = capsys.readouterr().out
    line = next(x for x in text.splitlines() if x.startswith("guesses by reason"))
    for reason, c in reasons.items():
        assert f"{reason} {int(c['right'])}/{int(c['guesses'])}" in line
    line = next(x for x in text.splitlines() if x.startswith("guesses by turn"))
    for b, c in by_turn.items():
        assert f"turns {b} {c['right']}/{c['guesses']}" in line
    line = next(x for x in text.splitlines() if x.startswith("guesses by kind"))
    for k, c in by_kind.items():
        assert f"{k} {c['right']}/{c['guesses']}" in line


def test_coverage_tells_a_rule_the_space_holds_from_one_it_cannot(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # an odd product or a red card is held (a block joined to arithmetic);
    # the suit two of every four cards back is held by no family
    f = tmp_path / "rules.txt"
    f.write_text("held: (card.rank * prev.rank) % 2 == 1 or card is red\n"
                 "not_held: card.suit == prev4.suit or card.rank == prev3.rank + 5\n"
                 "broken: card is purple\n", encoding="utf-8")
    assert main(["coverage", "--rules", str(f), "--verdicts", "70", "--json"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    rows = {r["name"]: r for r in report["per_rule"]}
    assert rows["held"]["inside"] and rows["held"]["verdicts"] == 70
    assert not rows["not_held"]["inside"]
    assert report["rules"] == 2 and report["inside"] == 1
    assert "line 3" in captured.err


def test_coverage_refuses_bad_arguments(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "r.txt"
    f.write_text("card is red\n", encoding="utf-8")
    assert main(["coverage", "--rules", str(f), "--verdicts", "0"]) == 2
    assert main(["coverage", "--rules", str(tmp_path / "missing.txt")]) == 2
    assert "error" in capsys.readouterr().err
