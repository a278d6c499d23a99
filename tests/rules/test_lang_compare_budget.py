"""compare within a work budget: look-back-4 rules stay exact cheaply, the work
can be run in slices, and the symmetry the cheap check relies on is sound."""

from __future__ import annotations

import random

import pytest

from eleusis.cards import Suit
from eleusis.rules import Rule, compare, parse
from eleusis.rules.abstract import POS_MAX, Space, Walk, symmetry
from eleusis.rules.compare import SAMPLE_BUDGET, compare_steps

#: Equivalent pairs reading four cards back. Before the key check they needed
#: more than the whole default budget (or fell back to sampling).
LOOKBACK_FOUR = [
    ("card.rank not in {prev.rank, prev2.rank, prev3.rank, prev4.rank}",
     "card.rank != prev.rank and card.rank != prev2.rank and card.rank != prev3.rank "
     "and card.rank != prev4.rank"),
    ("card not in {prev, prev2, prev3, prev4}",
     "card != prev and card != prev2 and card != prev3 and card != prev4"),
    ("card.rank == prev4.rank or card.suit == prev4.suit",
     "card.suit == prev4.suit or card.rank == prev4.rank"),
    ("card.rank > prev4.rank", "prev4.rank < card.rank"),
    ("(card.rank + prev4.rank) % 2 == 0", "(card.rank + prev4.rank) is even"),
    ("card.suit in {prev.suit, prev2.suit, prev3.suit, prev4.suit} or card is face",
     "card is face or card.suit == prev.suit or card.suit in {prev2.suit, prev3.suit, "
     "prev4.suit}"),
]


@pytest.mark.parametrize(("secret", "guess"), LOOKBACK_FOUR)
def test_lookback_four_equivalences_are_exact_within_a_tenth_of_the_budget(
        secret: str, guess: str) -> None:
    result = compare(parse(secret), parse(guess), budget=60_000)
    assert result.equivalent and result.exact, result.note
    assert compare(parse(guess), parse(secret), budget=60_000).exact


def _replay(secret: Rule, guess: Rule, result: object) -> None:
    ce = getattr(result, "counterexample", None)
    assert ce is not None
    line = list(ce.mainline)
    for i in range(len(line)):
        assert secret.accepts(line[:i], line[i])
    assert secret.accepts(line, ce.card) == ce.secret_accepts
    assert guess.accepts(line, ce.card) == ce.guess_accepts != ce.secret_accepts


def test_lookback_four_differences_have_shortest_counterexamples() -> None:
    secret = parse("card.rank not in {prev.rank, prev2.rank, prev3.rank, prev4.rank}")
    guess = parse("card.rank not in {prev.rank, prev2.rank, prev3.rank}")
    result = compare(secret, guess, budget=60_000)
    assert not result.equivalent and result.exact
    _replay(secret, guess, result)
    assert result.counterexample is not None
    assert len(result.counterexample.mainline) == 4  # prev4 exists only from the fifth card
    other = parse("card.rank == prev4.rank or card.suit == prev4.suit or card == AS")
    result = compare(parse(LOOKBACK_FOUR[2][0]), other, budget=60_000)
    assert not result.equivalent and result.exact
    _replay(parse(LOOKBACK_FOUR[2][0]), other, result)


def test_the_sampled_fallback_keeps_to_its_budget_and_says_so() -> None:
    secret = parse("card.rank + prev.rank + prev2.rank + prev3.rank + prev4.rank > 30")
    guess = parse("card.rank + prev4.rank + prev3.rank + prev2.rank + prev.rank > 30")
    result = compare(secret, guess, budget=20_000)
    assert not result.exact
    assert "random games" in result.note
    assert result.explored * 2 * 13 <= SAMPLE_BUDGET  # 13 classes of card: the ranks


def test_compare_steps_runs_in_slices_and_remembers() -> None:
    secret = parse("card.rank >= prev.rank or card.rank >= prev2.rank or card.rank >= prev3.rank")
    guess = parse("card.rank >= min(prev.rank, prev2.rank, prev3.rank)")
    steps = list(compare_steps(secret, guess, slice_work=2_000))
    assert all(s is None for s in steps[:-1])
    assert len(steps) > 10
    final = steps[-1]
    assert final is not None and final.exact
    # the engine's call after the page ran the slices: the same result, no new work
    assert compare(secret, guess) is final
    assert list(compare_steps(secret, guess)) == [final]
    # in one go: the same verdict
    alone = list(compare_steps(guess, secret, slice_work=None))
    assert len(alone) == 1 and alone[0] is not None
    assert alone[0].equivalent == final.equivalent


def test_symmetry_blocks() -> None:
    def blocks(text: str) -> tuple[int, int]:
        sym = symmetry([parse(text)])
        return len(sym.rank_blocks), len(sym.suit_blocks)

    assert blocks("card.rank != prev.rank and card.suit != prev2.suit") == (1, 1)
    assert blocks("card != prev and card != prev2") == (1, 1)
    assert blocks("card.rank == 7 or card.rank == prev.rank") == (2, 1)
    assert blocks("card.rank == prev.rank or prev is face") == (2, 1)
    assert blocks("card.rank in 3..9 and card.rank != prev.rank") == (2, 1)
    assert blocks("card.color != prev.color and card.suit != prev.suit") == (1, 2)
    assert blocks("card.suit == prev.suit or card is hearts") == (1, 2)
    assert blocks("card.rank > prev.rank") == (13, 1)
    assert blocks("card.rank == prev.rank + 1") == (13, 1)
    assert blocks("card.suit == next(prev.suit, [hearts, clubs, diamonds, spades])") == (1, 4)
    assert blocks("card == QS or card.rank == prev.rank") == (2, 2)
    assert blocks("card.rank == pos") == (13, 1)
    sym = symmetry([parse("card.color == prev.color")])
    assert {frozenset(b) for b in sym.suit_blocks} == {
        frozenset({Suit.HEARTS, Suit.DIAMONDS}), frozenset({Suit.SPADES, Suit.CLUBS})}


# ---------------------------------------------------------------- soundness

_SLOTS = ["card", "prev", "prev2", "prev3"]


def _atom(rng: random.Random, depth: int) -> str:
    a, b = rng.sample(_SLOTS[: depth + 1], 2)
    c = rng.choice(_SLOTS[: depth + 1])
    eq = rng.choice(["==", "!="])
    return rng.choice([
        f"{a}.rank {eq} {b}.rank", f"{a}.suit {eq} {b}.suit", f"{a} {eq} {b}",
        f"{a}.color {eq} {b}.color", f"{a}.rank {eq} {rng.randint(1, 13)}",
        f"{a} is {rng.choice(['face', 'red', 'K', 'hearts', 'even', 'prime', '7'])}",
        f"{a}.rank in {{{', '.join(map(str, rng.sample(range(1, 14), 3)))}}}",
        f"{a}.suit in {{{b}.suit, {c}.suit}}", f"{a}.rank in {rng.randint(1, 7)}..9",
        f"{a}.rank > {b}.rank", f"{a}.rank == {b}.rank + 1", f"{a} == {rng.choice(['QS', '7H'])}",
        f"(case {a}.suit when hearts then {b} is red else {c}.rank == {a}.rank)",
        f"{a}.suit == next({b}.suit, [hearts, clubs, spades, diamonds])",
    ])


def _rule(rng: random.Random, depth: int, d: int = 2) -> str:
    if d == 0 or rng.random() < 0.3:
        return _atom(rng, depth)
    a, b, c = (_rule(rng, depth, d - 1) for _ in range(3))
    return rng.choice([f"({a} and {b})", f"({a} or {b})", f"not ({a})",
                       f"(if {a} then {b} else {c})"])


def _search_only(secret: Rule, guess: Rule) -> int | bool | None:
    """The breadth-first search alone: True when equivalent, else the length of
    the shortest counterexample's mainline (None: too big to finish)."""
    space = Space((secret, guess), POS_MAX)
    walk = Walk(space, (secret, guess), (), plays=POS_MAX - 1, budget=100_000, count_moves=True)
    try:
        for i, ((sv, gv), _, _) in walk:
            if sv != gv:
                return len(walk.path(i))
    except Exception:  # OverBudget
        return None
    return True


def test_the_cheap_methods_agree_with_the_plain_search() -> None:
    """Random rules of equality tests, properties, constants and orders, against
    equivalent rewrites and near misses: compare (key check, search over orbits)
    gives the plain search's verdict, and a real counterexample just as short."""
    rng = random.Random(1913)
    checked = equivalent = 0
    for _ in range(100):
        depth = rng.randint(1, 3)
        secret = parse(_rule(rng, depth))
        roll = rng.random()
        if roll < 0.4:
            guess = parse(f"({secret.text}) and true")
        elif roll < 0.7:
            guess = parse(f"({secret.text}) or {_atom(rng, depth)}")
        else:
            guess = parse(f"({secret.text}) and not ({_atom(rng, depth)})")
        result = compare(secret, guess, budget=100_000)
        truth = _search_only(secret, guess)
        if truth is None or not result.exact:
            continue
        checked += 1
        assert result.equivalent == (truth is True), (secret.text, guess.text)
        if truth is True:
            equivalent += 1
            continue
        _replay(secret, guess, result)
        assert result.counterexample is not None
        assert len(result.counterexample.mainline) == truth, (secret.text, guess.text)
    assert checked > 60
    assert 0.3 * checked < equivalent < 0.9 * checked
