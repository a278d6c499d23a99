"""The command line and the dealer's analysis."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from eleusis.cards import ALL_CARDS
from eleusis.rules import analyse, parse
from eleusis.rules.__main__ import main
from eleusis.rules.analyse import TOO_PERMISSIVE, TOO_RESTRICTIVE


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_check_prints_canonical_english_and_analysis(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", "CARD.color != Prev.Color")
    assert code == 0 and err == ""
    assert "canonical: card.color != prev.color" in out
    assert "english:   A card may be played when the card has a different color" in out
    assert "acceptance rate: 5" in out
    assert "dead ends: none within 60 plays" in out


def test_check_reports_a_dead_end(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "card.rank > prev.rank")
    assert code == 0
    assert "dead end: after K♠ no card is legal" in out


def test_bad_rule_exits_2_with_the_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", "card.color != 3")
    assert code == 2 and out == ""
    assert "error in the rule: cannot compare a color with a number" in err
    assert "^" in err
    code, _, err = run(capsys, "compare", "card is red", "card is")
    assert code == 2 and "error in the guess" in err
    code, _, err = run(capsys, "compare", "card is", "card is red")
    assert code == 2 and "error in the secret rule" in err


def test_bad_command_line_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "frobnicate")[0] == 2
    assert run(capsys)[0] == 2
    assert run(capsys, "compare", "card is red")[0] == 2
    code, _, err = run(capsys, "compare", "card is red", "card is red", "--after", "7S ZZ")
    assert code == 2 and "bad --after mainline" in err


def test_compare_prints_verdict_or_counterexample(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "card is red or pos > 30", "card is red")
    assert code == 0
    assert out.startswith("different: after 30 cards ending")
    assert "your rule rejects" in out
    code, out, _ = run(capsys, "compare", "card.color != prev.color",
                       "card is red and prev is black or card is black and prev is red")
    assert code == 0 and out.startswith("equivalent:")
    code, out, _ = run(capsys, "compare", "if pos == 1 then card is A else card.rank >= prev.rank",
                       "card.rank >= prev.rank", "--after", "AS 3H")
    assert out.startswith("equivalent:")


def test_module_runs_as_a_script() -> None:
    src = Path(__file__).resolve().parents[2] / "src"
    proc = subprocess.run(
        [sys.executable, "-m", "eleusis.rules", "check", "card is"],
        capture_output=True, text=True, env={"PYTHONPATH": str(src), "PYTHONIOENCODING": "utf-8"},
        check=False,
    )
    assert proc.returncode == 2
    assert "error in the rule" in proc.stderr


def test_acceptance_rates_are_exact_for_memoryless_rules() -> None:
    assert analyse(parse("card is red")).acceptance_rate == pytest.approx(0.5)
    assert analyse(parse("card is prime")).acceptance_rate == pytest.approx(24 / 52)
    alternate = analyse(parse("card.color != prev.color"))
    # first play: all 52; then 26 of 52 each time
    assert 0.5 < alternate.acceptance_rate < 0.52
    assert alternate.first_card_rate == 1.0


def test_thresholds_give_warnings() -> None:
    loose = analyse(parse("card.rank != prev.rank"))
    assert loose.acceptance_rate > TOO_PERMISSIVE
    assert any(w.startswith("too permissive") for w in loose.warnings)
    tight = analyse(parse("card is red and card.rank == 5"))
    assert tight.acceptance_rate < TOO_RESTRICTIVE
    assert any(w.startswith("too restrictive") for w in tight.warnings)
    # just over the line: the figure never reads as the threshold itself
    near = analyse(parse("card.suit != prev.suit"))
    assert 0.75 < near.acceptance_rate < 0.755
    assert any("75.4% of cards" in w and "(more than 75%)" in w for w in near.warnings)
    fine = analyse(parse("card.suit == next(prev.suit, [hearts, clubs, diamonds, spades])"))
    assert fine.warnings == []
    assert any("first card is unconstrained" in n for n in fine.notes)


def test_dead_ends_are_found_and_real() -> None:
    rule = parse("card.rank > prev.rank")
    result = analyse(rule)
    assert result.dead_end is not None and result.dead_end_exact
    assert [c.rank for c in result.dead_end] == [13]
    deep = parse("if pos < 4 then card.rank == pos + 10 else card.rank > prev.rank")
    found = analyse(deep).dead_end
    assert found is not None
    line = list(found)
    assert all(deep.accepts(line[:i], line[i]) for i in range(len(line)))
    assert not any(deep.accepts(line, c) for c in ALL_CARDS)
    assert len(line) == 3
    assert analyse(parse("card.color != prev.color")).dead_end is None
    never = analyse(parse("false"))
    assert never.dead_end == ()
    assert never.acceptance_rate == 0.0


def test_dead_end_only_reachable_late_is_found() -> None:
    rule = parse("card.rank >= prev.rank and (pos < 40 or card.rank < 13)")
    result = analyse(rule)
    assert result.dead_end is not None
    assert len(result.dead_end) == 39
    assert result.dead_end[-1].rank == 13


def test_analysis_is_deterministic_for_a_seed() -> None:
    rule = parse("card.rank >= prev.rank or card is face")
    a = analyse(rule, random.Random(5))
    b = analyse(rule, random.Random(5))
    assert a.acceptance_rate == b.acceptance_rate
    assert a.report() == b.report()
