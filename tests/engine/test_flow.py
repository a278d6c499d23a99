"""The engine owns the flow: whom the round waits for, optional windows, reasons, bets,
variant facts and the words of the log (issue 14)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from tests.engine.helpers import cards, random_action, rig

from eleusis import narrate
from eleusis.game import (
    Bet,
    DeclareProphet,
    Guess,
    IllegalAction,
    Judge,
    NoPlay,
    Play,
    ProphetCall,
    State,
    acting_order,
    apply,
    legal_actions,
    make_config,
    new_game,
    optional_seats,
    waiting_for,
)
from eleusis.rules.library import RULES
from eleusis.state import Event
from eleusis.variants import info
from eleusis.variants.royal import arrange_bet, bet_kind
from eleusis.views import view

ALT = "card.color != prev.color"


def ne(dealer: int | None = None, rule: str | None = ALT) -> State:
    names = ["A", "B", "C", "D"] + (["Dealer"] if dealer is not None else [])
    cfg = make_config("new_eleusis", names, rule, 1, dealer, first_player="left")
    return rig(
        new_game(cfg),
        hands={0: "2H 3S 4H 5S 6H 7S", 1: "2C 3D 4C 5D 6C", 2: "4C 6C 8S 9H", 3: "5D 7D"},
        mainline="9S",
        turn=0,
    )


def royal() -> State:
    cfg = make_config("royal", ["A", "B", "C", "D"], ALT, 1)
    return rig(
        new_game(cfg),
        hands={0: "2H 3S 4H 5S 6H", 1: "2C 3C 4C 5C 6C", 2: "4C 6C 8S 9H", 3: "5D 7D 9D JD"},
        mainline="9S",
        turn=0,
    )


# --------------------------------------------------------------------------- waiting_for


def test_waiting_for_follows_turn_prophet_and_dealer() -> None:
    s = ne()
    assert waiting_for(s) == (0,) and optional_seats(s) == ()
    s = apply(s, Play(0, cards("2H")))
    assert waiting_for(s) == (1,) and optional_seats(s) == (0,)  # A may declare prophet
    s = apply(s, DeclareProphet(0))
    s = apply(s, Play(1, cards("2C")))
    assert waiting_for(s) == (0,)  # the prophet calls
    by_hand = apply(ne(dealer=4, rule=None), Play(0, cards("2H")))
    assert waiting_for(by_hand) == (4,)  # the dealer judges
    over = apply(by_hand, Judge(4, True))
    assert waiting_for(over) == (1,)


def test_royal_optional_seats_in_inverse_turn_order() -> None:
    s = apply(royal(), Bet(0, cards("2H"), "A"))
    # 004: priority in inverse turn order from who just played; B (in turn) is waited for
    assert waiting_for(s) == (1,)
    assert optional_seats(s) == (0, 3, 2)
    assert acting_order(s)[:4] == (0, 3, 2, 1)


def test_express_guess_window_and_solo_last_guess() -> None:
    cfg = make_config("express", ["A", "B"], ALT, 3)
    s = rig(new_game(cfg), hands={0: "2H 3S", 1: "4C 6C"}, mainline="9S", turn=0)
    s = apply(s, Play(0, cards("2H")))
    assert waiting_for(s) == (1,) and optional_seats(s) == (0,)
    solo = new_game(make_config("solo", ["S"], "card is red", 5, max_turns=1))
    solo = apply(solo, Play(0, (solo.hand(0)[0],)))
    assert waiting_for(solo) == (0,) and optional_seats(solo) == ()
    assert set(legal_actions(solo, 0).kinds) == {"guess", "pass"}


def test_waiting_seats_can_always_act_in_random_play() -> None:
    r = random.Random(14)
    for variant in ("new_eleusis", "express", "royal", "solo"):
        for g in range(6):
            names = ["A"] if variant == "solo" else ["A", "B", "C", "D"]
            dealer = None if variant == "solo" or g % 2 else 3
            cfg = make_config(variant, names, RULES[g * 7 % len(RULES)].text, g, dealer)
            s = new_game(cfg)
            for _ in range(400):
                if s.over:
                    assert waiting_for(s) == () and optional_seats(s) == ()
                    break
                who = waiting_for(s)
                assert who, "a running round waits for someone"
                for seat in (*who, *optional_seats(s)):
                    assert legal_actions(s, seat).kinds
                v = view(s, who[0])
                assert v.waiting_for == who and v.optional == optional_seats(s)
                s = apply(s, random_action(s, r))


# --------------------------------------------------------------------------- reasons


def test_reasons_say_why_not_in_a_players_words() -> None:
    s = apply(ne(), Play(0, cards("2H")))
    s = apply(s, DeclareProphet(0))
    legal = legal_actions(s, 2)
    assert legal.reason("declare_prophet") == "A prophet is already in office: A."
    assert legal.reason("play") == "It is B's turn."
    assert legal.reason("prophet_call") == "Only the prophet calls the plays."
    assert "play" not in legal.kinds and "play" in dict(legal.reasons)
    again = apply(ne(), Play(0, cards("2H")))
    assert legal_actions(again, 0).reason("request_hint") == (
        "You may ask for a hint only before your first turn.")
    assert legal_actions(again, 1).reason("declare_prophet") == (
        "You may declare yourself prophet only just after your own play.")
    # an allowed kind has no reason; the reasons cover every other kind of the variant
    legal = legal_actions(again, 1)
    kinds = {"play", "no_play", "declare_prophet", "prophet_call", "judge", "hint",
             "request_hint"}
    assert set(legal.kinds) | {k for k, _ in legal.reasons} == kinds
    assert not set(legal.kinds) & {k for k, _ in legal.reasons}


def test_reasons_for_the_dealer_and_an_expelled_player() -> None:
    s = ne(dealer=4)
    assert legal_actions(s, 4).reason("play") == "The dealer does not play: the scientists do."
    assert legal_actions(s, 4).reason("judge") == (
        "The game judges every play with the rule you wrote.")
    s = rig(replace(ne(), played=45), hands={0: "3S"})
    s = apply(s, Play(0, cards("3S")))
    assert legal_actions(s, 0).reason("play") == "You are out of this round."


# --------------------------------------------------------------------------- bets


def test_bet_kind_from_marks() -> None:
    assert bet_kind([True]) == "A"
    assert bet_kind([True, False, False, False]) == "ARRR"
    for bad in ([False], [True, False], [], [True] * 5):
        with pytest.raises(IllegalAction):
            bet_kind(bad)
    moved, kinds = arrange_bet(cards("2H 3S 4H 5S"), [False, False, True, False])
    assert moved == cards("4H 2H 3S 5S") and kinds == "ARRR"
    s = apply(royal(), Bet(0, moved, kinds))
    assert s.turn == 1


# --------------------------------------------------------------------------- variant facts


def test_variant_info() -> None:
    ne_info = info("new_eleusis")
    assert ne_info.name == "New Eleusis" and ne_info.prophet and not ne_info.bets
    assert ne_info.scientists == (1, 8) and ne_info.scientists_written_for == (3, None)
    assert ne_info.players_written_for == (4, None) and ne_info.max_play == 4
    assert {o.name for o in ne_info.options} == {"sudden_death", "first_player", "hints"}
    ex = info("express")
    assert ex.guesses and not ex.prophet and ex.players_written_for == (3, 8)
    assert next(o for o in ex.options if o.name == "lives").allowed == (0, 3)
    ro = info("royal")
    assert ro.bets and ro.prophet and not ro.no_play and ro.players_written_for == (4, 8)
    so = info("solo")
    assert so.scientists == (1, 1) and so.stop and not so.person_dealer and not so.rotates
    assert "10 extra points" in ne_info.compensation


# --------------------------------------------------------------------------- narration


def test_narration_speaks_to_the_viewer() -> None:
    names = ("You", "Ada")  # a page may name its player "You"
    dealer_plays = Event("dealer_plays", 0, cards("4C"))
    assert narrate.describe(dealer_plays, names, viewer=0) == (
        "The dealer played 4 of clubs from your hand.")
    assert narrate.describe(dealer_plays, names, viewer=1) == (
        "The dealer played 4 of clubs from You's hand.")  # only without the viewer
    lines = narrate.describe_events(
        [Event("no_play", 1, cards("4C 5D")), Event("no_play", 1, cards("4C 5D"), right=True),
         Event("new_hand", 1, count=10)], names, viewer=0)
    assert lines == [
        "Ada declared \u201cno play\u201d and showed the hand: 4 of clubs, 5 of diamonds.",
        "Ada's \u201cno play\u201d was right: none of those cards could be played."
        " Ada gets a new hand of 10 cards.",
    ]


def test_narration_of_calls_bets_and_counts() -> None:
    names = ("You", "Ada", "Bo")
    call_no_play = [Event("no_play", 1, cards("4C")), Event("call", 2, cards("4C"), right=False)]
    assert narrate.describe_events(call_no_play, names, 0)[-1] == (
        "Bo, the prophet, judged the \u201cno play\u201d wrong: 4 of clubs could be played.")
    assert narrate.describe_events([Event("call", 2, right=True)], names, 2) == [
        "As prophet, you judged the play right."]
    verdict = Event("verdict", 0, cards("6S"), right=False, text="A")
    assert narrate.describe(verdict, names, 0) == (
        "Your bet that 6 of spades would be accepted was wrong.")
    assert narrate.describe(Event("bet", 1, count=1, text="A"), names, 0) == (
        "Ada makes 1 bet (accept).")
    assert narrate.describe(Event("penalty", 0, count=1), names, 0) == "You draw 1 card."
    assert narrate.describe(Event("lives", 0, count=1), names, 0) == "You have 1 life left."
    assert narrate.describe(Event("end", -1, text="right guess"), names, 0) == (
        "The round is over: the rule was guessed.")


def test_every_event_of_random_games_has_words() -> None:
    r = random.Random(9)
    for variant, names in (("new_eleusis", ["A", "B", "C", "D"]), ("royal", ["A", "B", "C"]),
                           ("express", ["A", "B"])):
        s = new_game(make_config(variant, names, ALT, 2))
        for _ in range(300):
            if s.over:
                break
            s = apply(s, random_action(s, r))
        lines = narrate.describe_events(s.events, names, viewer=0)
        assert lines and all((line[:1].isupper() and line.endswith((".", ":"))) or "Hint" in line
                             for line in lines)
        silent = {e.kind for e in s.events if not narrate.describe(e, names, 0)}
        assert silent <= {"deal", "starter"}, silent


def test_guess_and_no_play_through_the_engine_read_well() -> None:
    cfg = make_config("express", ["You", "Ada"], ALT, 3)
    s = rig(new_game(cfg), hands={0: "2H 3S", 1: "4C 6C"}, mainline="9S", turn=0)
    s = apply(s, Play(0, cards("2H")))
    s = apply(s, Guess(0, "card is red"))
    lines = narrate.describe_events(s.events[-3:], cfg.names, viewer=0)
    assert lines[0] == "You played 2 of hearts: right."
    assert lines[1].startswith("Your guess \u201ccard is red\u201d is wrong. After ")
    s = apply(s, NoPlay(1))  # 4C and 6C: black after 2H is right: a wrong "no play"
    text = " ".join(narrate.describe_events(s.events[-4:], cfg.names, viewer=0))
    assert "from Ada's hand" in text and "Ada draws 1 card." in text
    assert "You's" not in text


def test_prophet_call_in_a_real_round() -> None:
    s = apply(ne(), Play(0, cards("2H")))
    s = apply(s, DeclareProphet(0))
    s = apply(s, Play(1, cards("2C")))
    s = apply(s, ProphetCall(0, True))
    lines = narrate.describe_events(s.events, s.config.names, viewer=1)
    assert "A, the prophet, judged the play right." in lines
    assert "You played 2 of clubs: right." in lines
