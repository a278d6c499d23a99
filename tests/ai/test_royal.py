"""Computer scientists play Royal Eleusis: bets, prophets, sound evidence."""

from __future__ import annotations

import pytest

from eleusis.ai import Scientist
from eleusis.ai.space import build_space
from eleusis.bench import play_table
from eleusis.game import Bet
from eleusis.variants.royal import BET_KINDS


def _index_of(text: str) -> int:
    space = build_space(3)
    return next(i for i in range(len(space)) if space.text(i) == text)


@pytest.mark.parametrize(("rule", "seed"), [
    ("card.suit != prev.suit", 2),
    ("card is red", 1),
    ("if prev is red then card is black else card is odd", 4),
    ("card.rank == prev.rank", 5),  # many R bets: a right one refuses the whole hand
])
def test_royal_rounds_end_and_the_evidence_is_sound(rule: str, seed: int) -> None:
    scientists: list[Scientist] = []
    state, times = play_table(rule, seed=seed, players=4, variant="royal",
                              scientists=scientists)
    assert state.over
    assert times
    kinds = [e.kind for e in state.events]
    assert kinds.count("verdict") >= 10
    for e in state.events:
        if e.kind == "bet":
            assert e.text in BET_KINDS
    space = build_space(3)
    truth = _index_of(rule)
    bits = space.bits[truth]
    for sci in scientists:
        # every verdict read from the table agrees with the secret rule ...
        assert sci.belief.observations
        for obs in sci.belief.observations:
            assert bool((bits >> obs.bit) & 1) == obs.accepted, (rule, obs)
        # ... so the secret rule is still alive, and no contradiction was seen
        assert truth in sci.belief.live
        assert sci.belief.mm[0][truth] == 0
        assert sci.belief.kmax == 0


def test_royal_prophets_declare_and_call() -> None:
    state, _ = play_table("card is red", seed=1, players=4, variant="royal")
    kinds = [e.kind for e in state.events]
    assert "prophet" in kinds
    assert "call" in kinds
    # the prophet was right: never overthrown
    assert "overthrow" not in kinds
    assert all(era.end is None for era in state.eras)


def test_royal_bets_several_cards_when_sure() -> None:
    state, _ = play_table("card is red", seed=1, players=4, variant="royal")
    shapes = [e.text for e in state.events if e.kind == "bet"]
    assert any(len(s) > 1 for s in shapes), shapes


def test_royal_decisions_are_deterministic() -> None:
    a, _ = play_table("card.rank > prev.rank or card is face", seed=3, players=4,
                      variant="royal")
    b, _ = play_table("card.rank > prev.rank or card is face", seed=3, players=4,
                      variant="royal")
    assert a.events == b.events


def test_a_scientist_declines_to_bet_out_of_turn() -> None:
    from eleusis.game import make_config, new_game
    from eleusis.views import view

    state = new_game(make_config("royal", ["a", "b", "c"], "card is red", 7))
    sci = Scientist("strong", 0)
    acting = [s for s in range(3) if "bet" in view(state, s).legal.kinds]
    assert len(acting) == 1
    idle = next(s for s in range(3) if s not in acting)
    assert sci.maybe_action(view(state, idle)) is None
    action = Scientist("strong", 0).maybe_action(view(state, acting[0]))
    assert isinstance(action, Bet)
    assert action.kinds in view(state, acting[0]).legal.bet_kinds


@pytest.mark.parametrize("first_red", [True, False])
def test_wrong_r_bets_are_read_as_the_engine_shows_them(first_red: bool) -> None:
    """A wrong R bet: either its card was acceptable (it joins the mainline), or
    God plays another card of the hand; the face-down rest teaches nothing."""
    from eleusis.game import apply, make_config, new_game
    from eleusis.views import view

    state = None
    for seed in range(40):
        s = new_game(make_config("royal", ["a", "b", "c"], "card is red", seed))
        seat = next(i for i in range(3) if "bet" in view(s, i).legal.kinds)
        hand = list(view(s, seat).hand)
        reds = [c for c in hand if c.red]
        blacks = [c for c in hand if not c.red]
        if reds and len(blacks) >= 4:
            state = s
            break
    assert state is not None
    first = reds[0] if first_red else blacks[0]
    rest = [c for c in blacks if c != first][:3]
    state = apply(state, Bet(seat, (first, *rest), "RRRR"))
    watcher = Scientist("strong", 1)
    other = (seat + 1) % 3
    watcher.sync(view(state, other))
    line = view(state, other).mainline
    assert tuple(watcher._mainline) == line
    seen = {(o.card, o.accepted) for o in watcher.belief.observations}
    assert all(o.accepted == o.card.red for o in watcher.belief.observations)
    if first_red:
        assert (first, True) in seen and line[-1] == first
    else:
        assert (first, False) in seen and line[-1].red and (line[-1], True) in seen
    # the face-down cards of the move were never read
    assert not {o.card for o in watcher.belief.observations} & set(rest)
