"""A match ended early: the "End match" intent, the compensation in the summary and totals.

The rounds are played out by a seeded random policy straight through the
engine (fast and deterministic); what is checked is what the view models say.
"""

from __future__ import annotations

import random

import pytest

from eleusis.game import Bet, Play, apply, legal_actions
from eleusis.variants.royal import royal_compensation
from eleusis_web.controller import Controller, first_waiting
from eleusis_web.session import SeatPlan, Session, Setup
from eleusis_web.viewmodel import match_model, round_end_model

RED = "card is red"


def match(variant: str, seed: int = 7, players: int = 3) -> Controller:
    """A match of ``players`` seats: you and computers (seat 1 deals round 1)."""
    c = Controller(lambda: seed)
    seats = [SeatPlan("You", "you")] + [
        SeatPlan(n, "computer", "novice") for n in ("Ada", "Kepler", "Curie")[:players - 1]]
    c.ui.setup = Setup(variant=variant, seed=seed, rule=RED, pace="instant", match=True,
                       seats=seats)
    c.dispatch({"type": "start", "seed": seed})
    assert c.session is not None and c.session.planned_rounds == players
    return c


def finish_round(c: Controller, seed: int = 1) -> None:
    """Play the current round to its end with random one-card plays (or A bets)."""
    rng = random.Random(seed)
    s = c.session
    assert s is not None
    st = s.state
    steps = 0
    while not st.over:
        seat = first_waiting(st)
        assert seat is not None
        legal = legal_actions(st, seat)
        hand = sorted(st.hand(seat), key=lambda x: x.sort_key)
        if "bet" in legal.kinds:
            st = apply(st, Bet(seat, (rng.choice(hand),), "A"))
        elif legal.max_cards:
            st = apply(st, Play(seat, (rng.choice(hand),)))
        else:
            st = apply(st, legal.actions[0])
        steps += 1
        assert steps < 5000
    s.update(st)
    c.dispatch({"type": "show_table"})
    assert c.ui.screen == "round-end"


def test_end_match_is_refused_before_any_round_has_finished() -> None:
    c = match("new_eleusis")
    reason = c.end_match_reason()
    assert reason is not None and "first round" in reason
    assert c.dispatch({"type": "end_match", "confirm": True}) is False
    assert c.session is not None and not c.session.ended_early
    assert c.ui.message.startswith("Finish the first round")


def test_end_match_asks_first_then_new_eleusis_gives_ten_to_who_never_dealt() -> None:
    c = match("new_eleusis")
    finish_round(c)
    s = c.session
    assert s is not None
    first = s.rounds[0].result
    assert first is not None and s.rounds[0].config.dealer == 1
    vm = round_end_model(c)
    assert vm.can_end_match and not vm.match_over and vm.match is None
    assert vm.end_question == ""

    # the first press only asks
    assert c.dispatch({"type": "end_match"}) is False
    assert c.ui.confirm_end and not s.ended_early
    vm = round_end_model(c)
    assert "The finished round counts" in vm.end_question
    assert "compensation" in vm.end_question
    c.dispatch({"type": "end_match_cancel"})
    assert not c.ui.confirm_end and round_end_model(c).end_question == ""

    assert c.dispatch({"type": "end_match", "confirm": True}) is True
    assert s.ended_early and c.ui.screen == "round-end" and len(s.rounds) == 1
    vm = round_end_model(c)
    assert vm.match_over and vm.next_label == "Play again" and not vm.can_end_match
    assert vm.title.endswith("the match is over")
    m = vm.match
    assert m is not None and m.ended_early and m.rounds_played == 1 and m.planned == 3
    assert "Everyone who has never dealt gets 10 extra points." in m.note
    you, ada, kepler = m.rows
    assert you.lines == (f"Round 1: {first.scores[0]}", "Compensation (never dealt): +10")
    assert ada.lines == (f"Round 1 (dealer): {first.scores[1]}",)  # Ada dealt: nothing more
    assert kepler.lines[-1] == "Compensation (never dealt): +10"
    assert [r.compensation for r in m.rows] == [10, 0, 10]
    assert [r.total for r in m.rows] == [first.scores[0] + 10, first.scores[1],
                                         first.scores[2] + 10]
    best = max(r.total for r in m.rows)
    leaders = [r.name for r in m.rows if r.total == best]
    assert m.winner.endswith(f"with {best} points.")
    assert m.winner.startswith(leaders[0])
    # the round's own score table carries the same totals
    assert [r.total for r in vm.scores] == [r.total for r in m.rows]
    # "Next round" after the end starts nothing
    c.dispatch({"type": "next_round"})
    assert len(s.rounds) == 1 and c.ui.screen == "setup"


def test_ending_during_a_round_drops_it_and_the_save_remembers() -> None:
    c = match("new_eleusis", seed=11)
    finish_round(c, seed=3)
    c.dispatch({"type": "next_round"})
    s = c.session
    assert s is not None and c.ui.screen == "table" and len(s.rounds) == 2
    c.dispatch({"type": "end_match"})
    from eleusis_web.viewmodel import end_match_question

    assert "This round is not finished and will not count" in end_match_question(c)
    c.dispatch({"type": "end_match", "confirm": True})
    assert len(s.rounds) == 1 and s.ended_early and c.ui.screen == "round-end"
    m = match_model(c)
    assert m.rounds_played == 1
    assert [r.compensation for r in m.rows] == [10, 0, 10]

    again = Session.from_data(s.to_data())
    assert again.ended_early and again.match_over
    c2 = Controller()
    c2.resume(again)
    assert c2.ui.screen == "round-end"
    assert [r.total for r in match_model(c2).rows] == [r.total for r in m.rows]


def test_royal_compensation_is_the_dealers_average_minus_the_scientists() -> None:
    c = match("royal", seed=5)
    finish_round(c, seed=2)
    c.dispatch({"type": "next_round"})
    finish_round(c, seed=4)
    s = c.session
    assert s is not None and [r.config.dealer for r in s.rounds] == [1, 2]
    c.dispatch({"type": "end_match", "confirm": True})
    results = [r.result for r in s.rounds]
    assert all(r is not None for r in results)
    gods = [results[0].scores[1], results[1].scores[2]]  # type: ignore[union-attr]
    scientists = [x for k, r in enumerate(results) for i, x in enumerate(r.scores)  # type: ignore[union-attr]
                  if i != k + 1]
    bonus = royal_compensation(gods, scientists)
    m = match_model(c)
    you = m.rows[0]
    assert you.compensation == bonus
    sign = "+" if bonus > 0 else ("" if bonus == 0 else "\u2212")
    assert you.lines[-1] == f"Compensation (never dealt): {sign}{abs(bonus)}"
    assert [r.compensation for r in m.rows[1:]] == [0, 0]  # both dealt
    assert you.total == results[0].scores[0] + results[1].scores[0] + bonus  # type: ignore[union-attr]
    assert "the Gods' average score minus the scientists' average score" in m.note


def test_express_has_no_compensation() -> None:
    c = match("express", seed=9)
    finish_round(c, seed=5)
    c.dispatch({"type": "end_match", "confirm": True})
    m = match_model(c)
    assert "no compensation" in m.note
    assert all(not any(x.startswith("Compensation") for x in r.lines) for r in m.rows)
    first = c.session.rounds[0].result  # type: ignore[union-attr]
    assert first is not None
    assert [r.total for r in m.rows] == list(first.scores)


def test_a_completed_match_shows_the_summary_without_compensation() -> None:
    c = match("express", seed=13, players=2)
    finish_round(c, seed=1)
    c.dispatch({"type": "next_round"})
    assert c.ui.screen == "write-rule"  # you deal the last round: you write its rule
    c.dispatch({"type": "rule_text", "value": RED})
    c.dispatch({"type": "rule_accept"})
    assert c.ui.screen == "table"
    finish_round(c, seed=2)
    vm = round_end_model(c)
    assert vm.match_over and vm.match is not None and not vm.match.ended_early
    assert vm.match.note == "" and not vm.can_end_match
    assert [len(r.lines) for r in vm.match.rows] == [2, 2]
    assert c.end_match_reason() == "The match is over."


@pytest.mark.parametrize("variant", ["solo", "new_eleusis"])
def test_a_single_round_cannot_be_ended_as_a_match(variant: str) -> None:
    c = Controller(lambda: 3)
    c.dispatch({"type": "new-game", "variant": variant.replace("_", "-")})
    assert c.end_match_reason() == "Only a match can be ended early."
    c.dispatch({"type": "end_match"})
    assert not c.ui.confirm_end and c.ui.message == "Only a match can be ended early."


def test_round_end_of_a_single_round_explains_the_scores_and_trims_the_thoughts() -> None:
    c = Controller(lambda: 5)
    c.ui.setup = Setup(variant="solo", seed=5, rule=RED, pace="instant")
    c.dispatch({"type": "start", "seed": 5})
    c.dispatch({"type": "guess", "value": "card is hearts"})
    c.dispatch({"type": "guess", "value": RED})
    assert c.ui.screen == "round-end"
    vm = round_end_model(c, {-1: [("card is red", "the card is red", 0.98),
                                  ("card is hearts", "the card is a heart", 0.004),
                                  ("card is even", "the card is even", 0.02)]})
    assert not vm.in_match and vm.match is None and not vm.can_end_match
    assert vm.how_note.startswith("Found: 30 minus the turns used")
    # a runner-up under 1 % says nothing: it is left out
    assert [t for t, _, _ in vm.thoughts[0][1]] == ["card is red", "card is even"]


def test_round_end_keeps_a_scientist_with_no_fitting_rule() -> None:
    """A scientist whose every hypothesis was refuted is listed with nothing
    (the screen says no rule it could think of fits), not silently left out;
    no explanations yet (None) shows no section at all."""
    c = Controller(lambda: 5)
    c.ui.setup = Setup(variant="solo", seed=5, rule=RED, pace="instant")
    c.dispatch({"type": "start", "seed": 5})
    c.dispatch({"type": "guess", "value": RED})
    assert c.ui.screen == "round-end"
    vm = round_end_model(c, {-1: []})
    assert vm.thoughts == (("A computer scientist watching", ()),)
    assert round_end_model(c, None).thoughts == ()
