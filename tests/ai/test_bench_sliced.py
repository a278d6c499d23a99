"""The Solo harness in time slices (``SoloRun``, what the developer page drives)
plays exactly the games of the command line's ``run_solo``."""

from __future__ import annotations

import pytest

from eleusis.bench import SoloRun, read_rules, rule_line, run_solo, summary_text

TEXT = """\
# two rules and a bad line
red: card is red
card.suit != prev.suit
broken: card is purple
black: card is black
"""

#: The keys of a per-rule entry that do not depend on the clock.
GAME_KEYS = ("name", "rule", "line", "rounds", "solved_rate", "mean_score",
             "mean_wrong_guesses", "mean_turns", "decisions", "scores", "wrong_guesses",
             "turns")


def _games(report: dict[str, object]) -> list[dict[str, object]]:
    per_rule = report["per_rule"]
    assert isinstance(per_rule, list)
    return [{k: e[k] for k in GAME_KEYS} for e in per_rule]


def test_sliced_run_plays_the_same_games_as_the_command_line() -> None:
    run = SoloRun(TEXT, rounds=1, seed=3, level="strong", limit=2)
    steps = []
    while not run.done:
        steps.append(run.advance(budget_ms=1e-6))  # one step per slice
    assert len(steps) > 3  # really sliced: two rounds of play take several slices
    assert steps[-1]["done"] and "report" in steps[-1]
    # "prepare" slices come first, and only when this process has not built the
    # strong space yet (another test may have): the order is what is checked
    phases = [p["phase"] for p in steps]
    assert set(phases) <= {"prepare", "play"} and phases[-1] == "play"
    assert phases == sorted(phases, key=lambda ph: ph != "prepare")
    lines = [line for p in steps for line in p["lines"]]
    assert [line.split()[0] for line in lines] == ["red", "line3"]

    report = steps[-1]["report"]
    rules, skipped = read_rules(TEXT.splitlines())
    expected = run_solo(rules[:2], 1, 3, "strong", None)
    assert _games(report) == _games(expected)
    assert report["skipped"] == skipped and skipped[0].startswith("line 4:")
    assert report["rounds"] == 2 and report["mean_score"] == expected["mean_score"]
    assert steps[-1]["decisions"] == report["decisions"] == expected["decisions"]
    assert steps[-1]["summary"] == summary_text(report)
    assert "solved" in steps[-1]["summary"]
    # a finished run keeps answering with its report
    assert run.advance()["done"]


def test_rule_line_is_the_command_line_format() -> None:
    entry = {"name": "red", "solved": [True, False], "scores": [22, -2],
             "mean_score": 10.0, "mean_wrong_guesses": 1.0, "mean_turns": 19.0}
    line = rule_line(entry)
    assert line.startswith("red ") and "solved 1/2" in line and line.endswith("[+22 --2]")


@pytest.mark.parametrize("kwargs", [{"rounds": 0}, {"level": "godlike"}, {"limit": 0}])
def test_bad_options_are_refused_at_once(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        SoloRun("card is red", **kwargs)  # type: ignore[arg-type]
