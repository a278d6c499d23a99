"""Every kind of illegal action is refused with its typed error, and the state is unchanged."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.engine.helpers import cards, rig

from eleusis.game import (
    ActionError,
    ActionNotAllowed,
    DeclareProphet,
    GameOver,
    Guess,
    Hint,
    IllegalAction,
    Judge,
    NoPlay,
    NotYourTurn,
    Pass,
    Play,
    ProphetCall,
    RequestHint,
    State,
    apply,
    make_config,
    new_game,
    state_hash,
)

ALT = "card.color != prev.color"


def refused(
    state: State, action: object, error: type[ActionError], code: str | None = None
) -> None:
    before = state_hash(state)
    with pytest.raises(error) as info:
        apply(state, action)  # type: ignore[arg-type]
    assert type(info.value) is error
    assert info.value.message and isinstance(info.value.code, str)
    if code is not None:
        assert info.value.code == code
    assert state_hash(state) == before


def ne(**kw: object) -> State:
    cfg = make_config("new_eleusis", ["A", "B", "C", "D"], ALT, 11, first_player="left", **kw)
    return rig(new_game(cfg), hands={0: "2H 3S 4H 5S 6H 7S", 1: "2C 3D", 2: "4C 6C 8S 9H",
                                     3: "5D"},
               mainline="9S")


def express(**kw: object) -> State:
    cfg = make_config("express", ["Dee", "A", "B"], kw.pop("rule", ALT), 3, dealer=0, **kw)
    return rig(new_game(cfg), hands={1: "2H 3S", 2: "4C 5D"}, mainline="9S")


CASES: list[tuple[str, Callable[[], State], object, type[ActionError], str | None]] = [
    # 1. not allowed: not part of the variant, or not in this phase
    ("guess in New Eleusis", ne, Guess(0, "card is red"), ActionNotAllowed, "not_in_variant"),
    ("prophet in Express", express, DeclareProphet(1), ActionNotAllowed, "not_in_variant"),
    ("prophet call without a prophet", ne, ProphetCall(1, True), ActionNotAllowed, "not_now"),
    ("verdict with nothing pending", lambda: express(rule=None), Judge(0, True),
     ActionNotAllowed, "not_now"),
    ("guess before a right play", express, Guess(1, "true"), ActionNotAllowed, "not_now"),
    ("pass in Solo before the last turn",
     lambda: new_game(make_config("solo", ["S"], ALT, 1)), Pass(0), ActionNotAllowed, "not_now"),
    # 3. not this seat
    ("play out of turn", ne, Play(1, cards("2C")), NotYourTurn, None),
    ("no play out of turn", ne, NoPlay(2), NotYourTurn, None),
    ("declare prophet without having played", ne, DeclareProphet(1), ActionNotAllowed, None),
    ("a scientist's dealer hint", express, Hint(1, "colors"), NotYourTurn, None),
    ("a scientist judging", lambda: apply(express(rule=None), Play(1, cards("2H"))),
     Judge(2, True), NotYourTurn, None),
    ("seat out of range", ne, Play(9, cards("2H")), NotYourTurn, None),
    ("hint request after one's own first play in New Eleusis",
     lambda: apply(ne(), Play(0, cards("2H"))), RequestHint(0), NotYourTurn, None),
    # 4. illegal parameters
    ("card not in hand", ne, Play(0, cards("KD")), IllegalAction, "card_not_in_hand"),
    ("a card twice", ne, Play(0, cards("2H 2H")), IllegalAction, "card_not_in_hand"),
    ("five cards", ne, Play(0, cards("2H 3S 4H 5S 6H")), IllegalAction, "too_many_cards"),
    ("two cards in Express", express, Play(1, cards("2H 3S")), IllegalAction, "too_many_cards"),
    ("no cards", ne, Play(0, ()), IllegalAction, "no_cards"),
    ("not cards", ne, Play(0, ("2H",)), IllegalAction, "bad_cards"),  # type: ignore[arg-type]
    ("not an action", ne, "play 2H", IllegalAction, "not_an_action"),
    ("empty hint", express, Hint(0, "  "), IllegalAction, "empty_text"),
    ("huge hint", express, Hint(0, "x" * 601), IllegalAction, "text_too_long"),
    ("guess that does not parse",
     lambda: apply(express(), Play(1, cards("2H"))), Guess(1, "card is purple"),
     IllegalAction, "bad_guess"),
    ("dealer calls a no play wrong without the card",
     lambda: apply(express(rule=None), NoPlay(1)), Judge(0, False), IllegalAction,
     "card_required"),
    ("dealer plays a card not in the hand",
     lambda: apply(express(rule=None), NoPlay(1)), Judge(0, False, cards("KD")[0]),
     IllegalAction, "card_not_in_hand"),
    ("a card with a verdict on a play",
     lambda: apply(express(rule=None), Play(1, cards("2H"))), Judge(0, False, cards("3S")[0]),
     IllegalAction, "card_not_expected"),
]


@pytest.mark.parametrize(("name", "make", "action", "error", "code"), CASES,
                         ids=[c[0] for c in CASES])
def test_refused(name: str, make: Callable[[], State], action: object,
                 error: type[ActionError], code: str | None) -> None:
    refused(make(), action, error, code)


def prophet_table() -> State:
    state = ne()
    state = apply(state, Play(0, cards("2H")))  # right
    state = apply(state, DeclareProphet(0))
    return apply(state, Play(1, cards("2C")))  # waits for the prophet's call


def test_prophet_errors() -> None:
    state = prophet_table()
    refused(state, Play(2, cards("4C")), ActionNotAllowed, "not_now")
    refused(state, ProphetCall(1, True), NotYourTurn)
    after_no_play = apply(apply(state, ProphetCall(0, True)), NoPlay(2))  # 9H was playable
    refused(after_no_play, ProphetCall(0, False), IllegalAction, "card_required")
    refused(after_no_play, ProphetCall(0, False, cards("KD")[0]), IllegalAction,
            "card_not_in_hand")
    refused(after_no_play, ProphetCall(0, True, cards("4C")[0]), IllegalAction,
            "card_not_expected")


def test_game_over_comes_after_not_allowed() -> None:
    state = express()
    state = rig(state, hands={1: "2H"})
    state = apply(state, Play(1, cards("2H")))  # right, empty hand: the round is over
    assert state.over
    refused(state, Play(2, cards("4C")), GameOver, "game_over")
    refused(state, Hint(0, "too late"), GameOver)
    refused(state, DeclareProphet(1), ActionNotAllowed, "not_in_variant")


def test_declaring_twice_and_the_three_conditions() -> None:
    state = ne()
    state = apply(state, Play(0, cards("2H")))
    state = apply(state, DeclareProphet(0))
    state = apply(state, Play(1, cards("2C")))
    state = apply(state, ProphetCall(0, True))  # 2C after 2H: right; approved
    # (1) there is already a prophet: B, who just played, may not declare
    refused(state, DeclareProphet(1), ActionNotAllowed, "not_now")
    # (3) two or more players besides the would-be prophet and the dealer
    three = make_config("new_eleusis", ["A", "B", "C"], ALT, 4, first_player="left")
    s3 = rig(new_game(three), hands={0: "2H 3S", 1: "2C 3C", 2: "4C 5C"}, mainline="9S")
    s3 = apply(s3, Play(0, cards("2H")))
    s3 = apply(s3, DeclareProphet(0))  # B and C remain: allowed
    s3 = apply(s3, Play(1, cards("2C")))
    s3 = apply(s3, ProphetCall(0, False))  # 2C after 2H is right: A is overthrown
    assert s3.prophet is None and s3.seats[0].been_prophet
    # B just played, but only A and C remain besides B... that is two: B may declare
    s3 = apply(s3, DeclareProphet(1))
    assert s3.prophet == 1
    s3 = apply(s3, Play(2, cards("4C")))
    s3 = apply(s3, ProphetCall(1, False))  # 4C after 2C: wrong; approved
    s3 = apply(s3, Play(0, cards("3S")))
    s3 = apply(s3, ProphetCall(1, True))  # 3S after 2C: wrong; B is overthrown
    # (2) A has been prophet this round: may not declare again after playing
    refused(s3, DeclareProphet(0), ActionNotAllowed, "not_now")
