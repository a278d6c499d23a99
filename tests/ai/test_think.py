"""Decisions in time slices (``Scientist.think``) are exactly the decisions made in one go."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from eleusis.ai import Scientist
from eleusis.ai.inference import Deferred, Observation
from eleusis.cards import Card
from eleusis.game import Action, State, acting_order, apply, legal_actions, make_config, new_game
from eleusis.views import view

ALT = "if prev is odd then card is red else card is black"

Decide = Callable[[Scientist, State, int], Action | None]


def _one_go(sci: Scientist, state: State, seat: int) -> Action | None:
    return sci.maybe_action(view(state, seat))


def _sliced(budget_ms: float, drop: random.Random | None = None) -> Decide:
    """Decide through ``think``; with ``drop``, first abandon a try after a few slices."""

    def decide(sci: Scientist, state: State, seat: int) -> Action | None:
        seen = view(state, seat)
        if drop is not None and drop.random() < 0.5:
            steps = sci.think(seen, lambda s: s.maybe_action(seen), budget_ms)
            for _ in range(drop.randrange(1, 6)):
                try:
                    next(steps)
                except StopIteration as stop:  # decided before anyone acted: it stands
                    return stop.value  # type: ignore[no-any-return]
            steps.close()  # a person acted meanwhile: the decision is dropped
        steps = sci.think(seen, lambda s: s.maybe_action(seen), budget_ms)
        while True:
            try:
                next(steps)
            except StopIteration as stop:
                return stop.value  # type: ignore[no-any-return]
            decide.slices += 1  # type: ignore[attr-defined]

    decide.slices = 0  # type: ignore[attr-defined]
    return decide


def _table(variant: str, rule: str, seed: int, level: str, decide: Decide,
           limit: int = 40) -> list[Action]:
    """A table of computer scientists, each decision made by ``decide``."""
    players = 4
    state = new_game(make_config(variant, [f"c{i}" for i in range(players)], rule, seed))
    scientists = [Scientist(level, seed * 31 + i) for i in range(players)]
    while not state.over and len(state.actions) < limit:
        for s in acting_order(state):
            if not legal_actions(state, s).kinds:
                continue
            action = decide(scientists[s], state, s)
            if action is not None:
                state = apply(state, action)
                break
        else:
            break
    return list(state.actions)


@pytest.mark.parametrize(("variant", "rule", "seed", "level"), [
    ("new_eleusis", ALT, 5, "casual"),
    ("express", "card.suit != prev.suit", 5, "expert"),
    ("royal", ALT, 5, "expert"),
    ("royal", "card.rank >= prev.rank", 3, "strong"),
])
def test_sliced_decisions_are_the_decisions_made_in_one_go(
        variant: str, rule: str, seed: int, level: str) -> None:
    whole = _table(variant, rule, seed, level, _one_go)
    sliced = _sliced(1e-6)  # every check of the clock finds the slice used up
    assert _table(variant, rule, seed, level, sliced) == whole
    assert sliced.slices > len(whole)  # type: ignore[attr-defined]  # really sliced
    # decisions dropped half-way (a person acted) lose nothing: the reading goes on
    assert _table(variant, rule, seed, level, _sliced(1e-6, random.Random(seed))) == whole


def test_a_long_query_is_deferred_then_answered_from_memory() -> None:
    sci = Scientist("expert", 1)
    line = [Card.parse("7H")]
    b = sci.belief
    b.defer_after = 0.0  # the slice is used up: every query waits
    with pytest.raises(Deferred) as caught:
        sci.acceptance(line, [Card.parse("2S")])
    b.defer_after = None
    for _ in caught.value.work:
        pass
    b.defer_after = 0.0
    memoised = sci.acceptance(line, [Card.parse("2S")])  # answered at once now
    b.defer_after = None
    assert memoised == Scientist("expert", 1).acceptance(line, [Card.parse("2S")])
    # a new observation forgets the memoised answers
    sci.observe(line, Card.parse("2S"), False)
    b.defer_after = 0.0
    with pytest.raises(Deferred):
        sci.acceptance(line, [Card.parse("2S")])
    b.defer_after = None


def test_an_observation_in_chunks_is_the_observation_in_one_go() -> None:
    a = Scientist("expert", 2, dealer_noise=0.02).belief
    b = Scientist("expert", 2, dealer_noise=0.02).belief
    obs = Observation(2, Card.parse("7H"), Card.parse("8H"), True)
    a.observe(obs)
    assert len(list(b.observe_steps(obs))) > 1  # it paused between chunks of hypotheses
    assert b.live == a.live and b.mm == a.mm and b.z == a.z


def test_think_refuses_a_bad_budget() -> None:
    sci = Scientist("novice", 1)
    state = new_game(make_config("solo", ["c"], "card is red", 1))
    with pytest.raises(ValueError):
        sci.think(view(state, 0), lambda s: None, 0.0)
