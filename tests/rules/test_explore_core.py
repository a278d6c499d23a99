"""Characterisation of the abstract-state explorers: results pinned, not re-derived.

``explore`` (generate.py) and ``Space`` (abstract.py, behind ``compare`` and
``analyse``) walk the reachable reduced states of a rule. This test pins what
they computed when they were two hand-written explorers, so that building them
on one shared core (or any later change of the walk) cannot change a result:

* ``explore`` on every library rule (the default budget, and 5000 states
  where that is not enough) and on a few generated rules: the exact acceptance and late
  rates, the number of states, ``complete``, the dead end, and a digest of
  every state's mainline and mask (the order of the states included, since
  ``distinguishes`` returns the first mainline that separates two rules);
* ``distinguishes`` for each rule against its neighbours in the library;
* ``compare``: verdict, exactness, counterexample and explored-state count for
  neighbouring library pairs, the benchmark's pairs, generated rules against
  library rules, and comparisons from a non-empty mainline;
* ``analyse``: every field of the analysis of each rule;
* how the searches count their work: the least budget with which ``compare``
  and ``analyse``'s dead-end search stay exact, and their sampled fallbacks;
* the texts ``generate`` gives for fixed seeds (it relies on ``explore`` and
  ``distinguishes``).

The figures live in ``data/explore_pins.json``, written once by running this
file as a script (``python tests/rules/test_explore_core.py``) with the code
whose results are to be kept.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from eleusis.cards import Card
from eleusis.rules import Rule, parse
from eleusis.rules.analyse import DEAD_END_BUDGET, analyse
from eleusis.rules.compare import EXACT_BUDGET, compare
from eleusis.rules.generate import distinguishes, explore, generate
from eleusis.rules.library import RULES

PINS = Path(__file__).with_name("data") / "explore_pins.json"

#: (difficulty, seed) of the generated rules pinned.
GENERATED = [(d, seed) for d in range(1, 6) for seed in (11, 29)]

#: Pairs the rules benchmark times (equivalent and not), both ways round.
BENCH_PAIRS = [
    ("card.color != prev.color", "card is red and prev is black or card is black and prev is red"),
    ("card.rank == wrap(prev.rank + prev2.rank)",
     "card.rank == (prev.rank + prev2.rank - 1) % 13 + 1"),
    ("card.color != prev.color or card.color != prev2.color",
     "not (card.color == prev.color and prev.color == prev2.color)"),
    ("if prev.suit == prev2.suit then card.suit != prev.suit else card is red",
     "if prev.suit == prev2.suit then card.suit != prev.suit else card is red or card is K"),
    ("case (prev.rank * prev2.rank * prev3.rank) % 4 when 0 then card is red or "
     "card.rank > 6 when 1 then card is black or card is face when 2 then card is even or "
     "card.rank < 6 else card is odd or card.rank == 10",
     "case (prev3.rank * prev2.rank * prev.rank) % 4 when 0 then card.rank > 6 or card is red "
     "when 1 then card is face or card is black when 2 then card.rank < 6 or card is even "
     "else card.rank == 10 or card is odd"),
    ("card.color != prev3.color", "card.color == prev3.color or prev is K"),
    ("card is red or pos > 30", "card is red"),
    ("card.rank == pick(pos, [1, 3])", "if pos % 2 == 1 then card is A else card.rank == 3"),
    ("card.rank == wrap(pos)", "card.rank == (pos - 1) % 13 + 1"),
    ("if pos <= 10 then card.rank >= prev.rank else card.rank <= prev.rank",
     "if pos < 11 then card.rank >= prev.rank else card.rank <= prev.rank"),
    ("card.rank > prev.rank", "card.rank >= prev.rank"),
    ("pos <= 3 and card.rank == pos", "pos <= 4 and card.rank == pos"),
]

#: Comparisons from a mainline already played (secret, guess, mainline codes).
FROM_MAINLINE = [
    ("card.rank > prev.rank", "card.rank >= prev.rank", "2S 5H"),
    ("card is red or pos > 30", "card is red", "2H 3D 4H"),
    ("if pos <= 10 then card.rank >= prev.rank else card.rank <= prev.rank",
     "card.rank >= prev.rank", "AS 2S 3S 4S 5S 6S 7S 8S 9S"),
    ("card.color != prev.color", "card.red != prev.red", "KS"),
]


def _cards(cards: tuple[Card, ...] | None) -> str | None:
    return None if cards is None else " ".join(str(c) for c in cards)


def _exploration(rule: Rule, max_states: int | None = None) -> dict[str, Any]:
    space = explore(rule) if max_states is None else explore(rule, max_states=max_states)
    digest = hashlib.sha256()
    for mainline, mask in zip(space.mainlines, space.masks, strict=True):
        digest.update(f"{_cards(mainline)}:{mask:x};".encode())
    return {
        "rate": space.acceptance_rate,
        "late": space.late_rate,
        "states": len(space.masks),
        "complete": space.complete,
        "dead_end": _cards(space.dead_end),
        "digest": digest.hexdigest(),
    }


def _comparison(
    secret: Rule, guess: Rule, mainline: tuple[Card, ...] = (), budget: int = EXACT_BUDGET
) -> dict[str, Any]:
    verdict = compare(secret, guess, mainline, budget=budget)
    ce = verdict.counterexample
    return {
        "equivalent": verdict.equivalent,
        "exact": verdict.exact,
        "counterexample": None if ce is None else [
            _cards(ce.mainline), str(ce.card), ce.secret_accepts, ce.guess_accepts],
        "note": verdict.note,
        "explored": verdict.explored,
    }


def _analysis(rule: Rule, budget: int = DEAD_END_BUDGET) -> dict[str, Any]:
    a = analyse(rule, games=20, budget=budget)
    return {
        "rate": a.acceptance_rate,
        "first": a.first_card_rate,
        "dead_end": _cards(a.dead_end),
        "exact": a.dead_end_exact,
        "warnings": a.warnings,
        "notes": a.notes,
        "plays": a.plays,
    }


def _generated_texts() -> list[str]:
    return [generate(d, random.Random(seed)).text for d, seed in GENERATED]


def compute(generated: list[str]) -> dict[str, Any]:
    """Every pinned figure, from the code as it is (``generated``: the rule texts)."""
    library = [entry.rule for entry in RULES]
    gen_rules = [parse(t) for t in generated]
    rules = library + gen_rules
    out: dict[str, Any] = {"generated": generated}
    out["explore"] = {r.text: _exploration(r) for r in rules}
    # A larger budget where the default one stops short.
    out["explore_big"] = {r.text: _exploration(r, 5000) for r in library
                          if not out["explore"][r.text]["complete"]}
    distinct: dict[str, list[str | None]] = {}
    for i, secret in enumerate(rules):
        space = explore(secret)
        others = [rules[(i + step) % len(rules)] for step in (1, 2, 7)]
        distinct[secret.text] = [_cards(distinguishes(space, o)) for o in others]
    out["distinguishes"] = distinct
    pairs = list(itertools.pairwise(library))
    pairs += [(g, library[(7 * i) % len(library)]) for i, g in enumerate(gen_rules)]
    pairs += [(parse(a), parse(b)) for a, b in BENCH_PAIRS]
    pairs += [(parse(b), parse(a)) for a, b in BENCH_PAIRS]
    out["compare"] = [[s.text, g.text, _comparison(s, g)] for s, g in pairs]
    out["compare_from"] = [
        [s, g, line, _comparison(parse(s), parse(g), tuple(Card.parse(c) for c in line.split()))]
        for s, g, line in FROM_MAINLINE
    ]
    out["analyse"] = {r.text: _analysis(r) for r in rules}
    bench = [(parse(a), parse(b)) for a, b in BENCH_PAIRS]
    out["compare_budget"] = [[s.text, g.text, _threshold(_compare_exact(s, g))]
                             for s, g in bench if s.lookback < 3]
    out["compare_sampled"] = [[s.text, g.text, _comparison(s, g, budget=200)] for s, g in bench]
    small = [r for r in rules if r.lookback <= 2][::4]
    out["analyse_budget"] = {r.text: _threshold(_analyse_exact(r)) for r in small}
    out["analyse_sampled"] = {r.text: _analysis(r, budget=30) for r in small}
    return out


def _compare_exact(secret: Rule, guess: Rule) -> Callable[[int], bool]:
    return lambda budget: compare(secret, guess, budget=budget).exact


def _analyse_exact(rule: Rule) -> Callable[[int], bool]:
    return lambda budget: analyse(rule, games=1, budget=budget).dead_end_exact


def _threshold(exact: Callable[[int], bool], high: int = 1 << 20) -> int:
    """The least budget with which the search stays exact: pins how work is counted."""
    low = 0
    while low < high:
        mid = (low + high) // 2
        if exact(mid):
            high = mid
        else:
            low = mid + 1
    return low


def _load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PINS.read_text(encoding="utf-8"))
    return data


if __name__ == "__main__":
    if "--write" not in sys.argv:
        sys.exit("usage: python tests/rules/test_explore_core.py --write  (overwrites the pins)")
    PINS.parent.mkdir(exist_ok=True)
    figures = compute(_generated_texts())
    PINS.write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {PINS}")
    sys.exit(0)


PINNED = _load()


@functools.cache
def _now() -> dict[str, Any]:
    """The same figures from the current code (computed once, on first use,
    so that collecting the suite does not pay for it)."""
    return compute(PINNED["generated"])

SECTIONS = ["explore", "explore_big", "distinguishes", "compare", "compare_from", "analyse",
            "compare_budget", "compare_sampled", "analyse_budget", "analyse_sampled"]


def test_generated_texts_unchanged() -> None:
    assert _generated_texts() == PINNED["generated"]


@pytest.mark.parametrize("section", SECTIONS)
def test_section_unchanged(section: str) -> None:
    pinned, now = PINNED[section], _now()[section]
    assert len(now) == len(pinned)
    if isinstance(pinned, dict):
        assert set(now) == set(pinned)
        for key, value in pinned.items():
            assert now[key] == value, key
    else:
        for got, want in zip(now, pinned, strict=True):
            assert got == want


def test_pins_cover_the_interesting_cases() -> None:
    """The fixture is not vacuous: it holds incomplete explorations, dead ends,
    equivalent and different pairs, sampled comparisons and rules reading pos."""
    explored = PINNED["explore"].values()
    assert any(not e["complete"] for e in explored)
    assert any(e["dead_end"] is not None for e in explored)
    verdicts = [c[2] for c in PINNED["compare"]]
    assert any(v["equivalent"] for v in verdicts) and any(not v["equivalent"] for v in verdicts)
    assert not all(c[2]["exact"] for c in PINNED["compare_sampled"])
    assert not all(a["exact"] for a in PINNED["analyse_sampled"].values())
    assert min(c[2] for c in PINNED["compare_budget"]) > 0
    assert any(parse(t).uses_pos for t in PINNED["explore"])

