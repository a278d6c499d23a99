"""The shared breadth-first walk over reduced states (``abstract.Walk``)."""

from __future__ import annotations

import pytest

from eleusis.cards import ALL_CARDS, parse_cards
from eleusis.rules import parse
from eleusis.rules.abstract import OverBudget, Space, Walk


def test_paths_are_legal_shortest_mainlines_and_weights_count_cards() -> None:
    rule = parse("if prev.rank > prev2.rank then card is red else card.suit == prev.suit")
    space = Space((rule,))
    walk = Walk(space, (rule,), record=True)
    lengths = []
    for i, (_, moves, weights) in walk:
        path = walk.path(i)
        lengths.append(len(path))
        assert all(rule.accepts(path[:j], c) for j, c in enumerate(path))
        legal = sum(rule.accepts(path, c) for c in ALL_CARDS)
        assert sum(weights) == legal
        assert len(moves) == len(weights)
    assert lengths == sorted(lengths)  # breadth-first: never a longer path first
    assert walk.complete and len(walk.moves) == len(walk.states) > 10


def test_plays_limit_and_state_cap() -> None:
    rule = parse("card.rank == pos")  # one state per position, 13 positions playable
    space = Space((rule,), fold=False)
    walk = Walk(space, (rule,), plays=5)
    assert [len(walk.path(i)) for i, _ in walk] == [0, 1, 2, 3, 4, 5]
    capped = Walk(space, (rule,), max_states=3)
    assert [i for i, _ in capped] == [0, 1, 2] and not capped.complete


def test_start_from_a_mainline() -> None:
    rule = parse("card.rank > prev.rank")
    walk = Walk(Space((rule,)), (rule,), parse_cards("2S JH"))
    dead = next(i for i, (_, moves, _) in walk if not moves)
    assert [str(c) for c in walk.path(dead)] == ["KS"]  # after J, a king ends it


def test_budget_counts_judgements_and_moves() -> None:
    rule = parse("card.color != prev.color")
    space = Space((rule,))
    assert len(space.candidates) == 2
    # Three keys (start, after red, after black), two candidates each: 6 units.
    assert [i for i, _ in Walk(space, (rule,), budget=6)] == [0, 1, 2]
    with pytest.raises(OverBudget):
        list(Walk(space, (rule,), budget=5))
    # Following the moves costs too: 2 from the start, 1 from each colour.
    assert len(list(Walk(space, (rule,), budget=10, count_moves=True))) == 3
    with pytest.raises(OverBudget):
        list(Walk(space, (rule,), budget=9, count_moves=True))
