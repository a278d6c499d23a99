"""The controller and view models under CPython: intents in, engine actions out."""

from __future__ import annotations

import pytest

from eleusis import narrate
from eleusis.cards import Card
from eleusis.rules import parse
from eleusis_web.controller import Controller, SeatPlan, Session, Setup, first_waiting
from eleusis_web.viewmodel import (
    last_guess,
    round_end_model,
    rule_check,
    table_model,
    try_card,
)

RED = "card is red"
ALT = "if prev is odd then card is red else card is black"


def started(variant: str, rule: str = RED, seed: int = 5, **kw: object) -> Controller:
    c = Controller(lambda: seed)
    c.ui.setup = Setup(variant=variant, seed=seed, rule=rule, pace="instant", **kw)  # type: ignore[arg-type]
    c.dispatch({"type": "start", "seed": seed})
    return c


def pos_of(c: Controller, right: bool, rule: str = RED) -> int:
    r = parse(rule)
    assert c.ui.viewer is not None
    for i, card in enumerate(c.sorted_hand(c.ui.viewer)):
        if r.accepts(list(c.state.mainline), card) == right:  # type: ignore[union-attr]
            return i
    raise AssertionError("no such card in the hand")


def pick(c: Controller, pos: int) -> dict[str, object]:
    """The intent choosing the card at ``pos`` of the viewer's sorted hand."""
    assert c.ui.viewer is not None
    code, _, copy = c.hand_tokens(c.ui.viewer)[pos][1].partition("#")
    return {"type": "select", "card": code, **({"copy": int(copy)} if copy else {})}


def tokens(c: Controller, *positions: int) -> list[str]:
    assert c.ui.viewer is not None
    hand = c.hand_tokens(c.ui.viewer)
    return [hand[p][1] for p in positions]


def controls(c: Controller) -> dict[str, bool]:
    return {ctl.name: ctl.enabled for ctl in table_model(c).controls}


def test_defaults_start_at_once_for_every_variant() -> None:
    for variant in ("new_eleusis", "express", "express3", "solo"):
        c = Controller(lambda: 3)
        c.dispatch({"type": "new-game", "variant": variant.replace("_", "-")})
        assert c.session is not None and c.ui.screen == "table"
        assert c.session.setup.variant == variant


def test_solo_play_right_then_wrong_puts_the_wrong_card_under_the_right_one() -> None:
    c = started("solo")
    assert controls(c)["Play"] is False  # nothing selected yet
    c.dispatch(pick(c, pos_of(c, True)))
    assert controls(c)["Play"] is True
    assert [x.order for x in table_model(c).hand if x.token == c.ui.selection[0]] == [1]
    c.dispatch({"type": "play"})
    right = c.state.mainline[-1]  # type: ignore[union-attr]
    c.dispatch(pick(c, pos_of(c, False)))
    c.dispatch({"type": "play"})
    vm = table_model(c)
    assert vm.columns[-1].card.code == right.code
    assert len(vm.columns[-1].sideline) == 1
    assert vm.turns_label == "Turn 2 of 30"
    assert vm.log[0].startswith("You played") and vm.log[0].endswith("wrong.")


def test_refused_action_changes_nothing_and_says_why() -> None:
    c = started("solo")
    before = c.state
    assert c.dispatch({"type": "play"}) is False
    assert c.state is before
    assert c.ui.message == "Choose a card first."
    assert c.dispatch({"type": "guess", "value": "card is"}) is False
    assert c.state is before and "does not parse" in c.ui.message


def test_selection_keeps_order_and_limit() -> None:
    c = started("new_eleusis", ALT)
    while c.computer_due() is not None:
        c.computer_step()
    assert first_waiting(c.state) == c.ui.viewer  # type: ignore[arg-type]
    for pos in (3, 0, 5, 1):
        c.dispatch(pick(c, pos))
    assert c.ui.selection == tokens(c, 3, 0, 5, 1)
    assert [x.order for x in table_model(c).hand][:6] == [2, 4, 0, 1, 0, 3]
    c.dispatch(pick(c, 7))
    assert c.ui.selection == tokens(c, 3, 0, 5, 1) and "At most 4" in c.ui.message
    c.dispatch(pick(c, 0))
    assert c.ui.selection == tokens(c, 3, 5, 1)


def test_disabled_controls_carry_a_reason() -> None:
    c = started("express", ALT)
    vm = table_model(c)
    guess = next(x for x in vm.controls if x.name == "Guess the rule")
    assert guess.enabled is False and "right plays" in guess.reason
    assert all(x.reason for x in vm.controls if not x.enabled)
    assert all(not x.reason for x in vm.controls if x.enabled)


def test_express_window_holds_computers_until_continue() -> None:
    c = started("express", ALT, seed=8)
    for _ in range(40):
        while c.computer_due() is not None:
            c.computer_step()
        # seed 8 is chosen so that no computer finds the rule before the test is done
        assert not c.state.over  # type: ignore[union-attr]
        try:
            pos = pos_of(c, True, ALT)
        except AssertionError:
            c.dispatch({"type": "no_play"})
            continue
        c.dispatch(pick(c, pos))
        c.dispatch({"type": "play"})
        break
    assert c.window_open() == c.ui.viewer
    assert c.computer_due() is None
    assert controls(c)["Guess the rule"] is True and controls(c)["Go on"] is True
    c.dispatch({"type": "guess_open"})
    c.dispatch({"type": "guess_text", "value": RED})
    c.dispatch({"type": "guess"})
    verdict, right = last_guess(c.state.events, c.ui.viewer)  # type: ignore[union-attr]
    assert right is False and verdict.startswith("Wrong.") and "secret rule" in verdict
    assert c.window_open() is None  # the guess used the moment


def test_round_end_reveals_rule_and_scores() -> None:
    c = started("solo")
    c.dispatch({"type": "guess", "value": "card is hearts"})
    c.dispatch({"type": "guess", "value": RED})
    assert c.ui.screen == "round-end"
    vm = round_end_model(c, {-1: [("card is red", "A card may be played when the card is red.",
                                    0.9)]})
    assert vm.rule == RED and "red" in vm.english
    assert vm.scores[0].score == 28 and "wrong guess" in vm.scores[0].detail
    assert vm.thoughts[0][0] == "A computer scientist watching"
    assert vm.next_label == "Play again"


def test_hot_seat_needs_pass_between_people() -> None:
    setup_seats = [SeatPlan("You", "you"), SeatPlan("Ada", "computer"), SeatPlan("Bo", "person")]
    c = started("express", RED, seats=setup_seats)
    assert c.needs_pass() and table_model(c).hidden and table_model(c).hand == ()
    assert table_model(c).pass_to == "You"
    c.dispatch({"type": "reveal"})
    assert not c.needs_pass() and len(table_model(c).hand) == 12
    c.dispatch(pick(c, pos_of(c, False)))
    c.dispatch({"type": "play"})
    while c.computer_due() is not None:
        c.computer_step()
    assert c.ui.viewer == 2 and c.needs_pass()
    assert table_model(c).hand == () and table_model(c).pass_to == "Bo"


def test_hand_judging_dealer_right_wrong() -> None:
    c = started("express", RED, dealer="judge")
    assert c.session is not None and c.session.state.config.rule is None
    # the person dealing may give a hint first, then play starts
    assert c.ui.viewer == 0 and c.dealer_hint_pending() == 0
    c.dispatch({"type": "hint_give", "value": "Think of colours."})
    c.dispatch({"type": "dealer_ready"})
    c.dispatch({"type": "reveal"})
    assert c.ui.viewer == 1
    c.dispatch({"type": "reveal"})
    c.dispatch(pick(c, 0))
    c.dispatch({"type": "play"})
    assert c.ui.viewer == 0  # the dealer judges
    c.dispatch({"type": "reveal"})
    vm = table_model(c)
    assert [x.name for x in vm.calls] == ["Right", "Wrong"]
    c.dispatch(vm.calls[1].intent)
    assert c.state.layout[-1].sideline  # type: ignore[union-attr]
    assert "Think of colours." in table_model(c).hints


def test_writer_dealer_writes_the_rule_first() -> None:
    c = Controller(lambda: 4)
    c.ui.setup = Setup(variant="new_eleusis", dealer="writer", seed=4)
    c.dispatch({"type": "start"})
    assert c.ui.screen == "write-rule" and c.session is None
    # you and the dealer share the device: the editor waits behind a pass screen
    assert c.ui.writer_ready is False
    c.dispatch({"type": "writer_ready"})
    assert c.ui.writer_ready is True
    c.dispatch({"type": "rule_text", "value": "card is"})
    c.dispatch({"type": "rule_accept"})
    assert c.session is None and c.ui.message
    c.dispatch({"type": "rule_text", "value": RED})
    c.dispatch({"type": "rule_accept"})
    assert c.session is not None and c.session.state.config.rule == RED
    assert c.session.state.config.dealer == 0


def test_session_round_trip_through_data() -> None:
    c = started("solo")
    c.dispatch(pick(c, 0))
    c.dispatch({"type": "play"})
    assert c.session is not None
    back = Session.from_data(c.session.to_data())
    assert back.state == c.session.state and back.kinds == c.session.kinds
    with pytest.raises(ValueError):
        Session.from_data({"id": "x", "setup": {}, "rounds": [], "kinds": []})


def test_words_for_editors_and_events() -> None:
    err, eng = rule_check("card is hearts or")
    assert "column" in err and eng == ""
    err, eng = rule_check(RED)
    assert err == "" and "red" in eng
    said = dict(try_card(RED, [Card.parse("7S")]))
    assert said["7H"] is True and said["7S"] is False and len(said) == 52
    c = started("solo")
    names = c.state.config.names  # type: ignore[union-attr]
    start = c.state.events[-1]  # type: ignore[union-attr]
    assert narrate.describe(start, names).startswith("The starter card is")


def test_computers_finish_a_new_eleusis_round() -> None:
    c = Controller(lambda: 21)
    c.ui.setup = Setup(variant="new_eleusis", seed=21, rule=ALT,
                       seats=[SeatPlan("A", "computer", "novice"),
                              SeatPlan("B", "computer", "novice"),
                              SeatPlan("C", "computer", "novice")])
    c.dispatch({"type": "start", "seed": 21})
    steps = 0
    while c.computer_step():
        steps += 1
        assert steps < 2000
    assert c.state.over and c.ui.screen == "round-end"  # type: ignore[union-attr]


def test_match_plays_one_round_per_player_and_adds_points() -> None:
    c = Controller(lambda: 31)
    c.ui.setup = Setup(variant="express", seed=31, match=True,
                       seats=[SeatPlan("A", "computer", "novice"),
                              SeatPlan("B", "computer", "novice")])
    c.dispatch({"type": "start", "seed": 31})
    assert c.session is not None and c.session.planned_rounds == 2
    for expected_round in (1, 2):
        steps = 0
        while c.computer_step():
            steps += 1
            assert steps < 3000
        assert c.ui.screen == "round-end" and len(c.session.rounds) == expected_round
        vm = round_end_model(c)
        assert vm.match_over is (expected_round == 2)
        if expected_round == 1:
            assert vm.next_label == "Next round"
            c.dispatch({"type": "next_round"})
            assert c.ui.screen == "table"
    first, second = (r.result for r in c.session.rounds)
    assert first is not None and second is not None
    totals = [a + b for a, b in zip(first.scores, second.scores, strict=True)]
    assert [row.total for row in round_end_model(c).scores] == totals
    assert round_end_model(c).title.endswith("the match is over")


def test_dealer_analysis_uses_the_rule_analyser() -> None:
    from eleusis_web.viewmodel import analysis

    assert analysis("card is") is None
    good = analysis("if prev is odd then card is red else card is black")
    assert good is not None and good.playable and "%" in good.rate
    loose = analysis("card.suit != prev.suit")
    assert loose is not None and not loose.playable
    assert any(x.startswith("Too permissive") for x in loose.lines)


def test_match_rotates_the_dealer_and_a_person_writes_their_rule() -> None:
    c = Controller(lambda: 41)
    c.ui.setup = Setup(variant="express", seed=41, match=True,
                       seats=[SeatPlan("You", "you"), SeatPlan("A", "computer", "novice"),
                              SeatPlan("B", "computer", "novice")])
    c.dispatch({"type": "start", "seed": 41})
    s = c.session
    assert s is not None and s.planned_rounds == 3
    assert s.state.config.dealer == 1 and s.state.config.rule is not None  # A deals first
    assert 1 not in s.computer_seats()
    for k in range(2):
        while c.computer_due() is not None or (c.ui.viewer is not None and not s.state.over):
            if c.computer_due() is not None:
                c.computer_step()
                continue
            if c.window_open() is not None:
                c.dispatch({"type": "continue"})
                continue
            c.dispatch({"type": "no_play"} if k else pick(c, 0))
            if not k:
                c.dispatch({"type": "play"})
        assert s.state.over and c.ui.screen == "round-end"
        c.dispatch({"type": "next_round"})
        if k == 0:
            assert s.state.config.dealer == 2 and len(s.rounds) == 2
    # round 3: you deal, and write the rule first (the only person here: no pass screen)
    assert c.ui.screen == "write-rule" and c.writer_name() == "You"
    assert c.ui.writer_ready is True
    c.dispatch({"type": "rule_text", "value": "card is red"})
    c.dispatch({"type": "rule_accept"})
    assert len(s.rounds) == 3 and s.state.config.dealer == 0
    assert s.state.config.rule == "card is red" and c.ui.screen == "table"
    assert table_model(c).controls == () or all(
        x.key in ("hint", "Continue", "Start play") for x in table_model(c).controls)
