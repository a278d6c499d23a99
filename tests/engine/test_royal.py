"""Royal Eleusis (seed 004): bets, the R-bet rules 2.2 and 3.1-3.3, eras, scoring."""

from __future__ import annotations

from dataclasses import replace

import pytest
from tests.engine.helpers import cards, rig

from eleusis.game import (
    Bet,
    DeclareProphet,
    IllegalAction,
    Judge,
    Phase,
    ProphetCall,
    Role,
    State,
    apply,
    legal_actions,
    make_config,
    new_game,
    state_hash,
)
from eleusis.variants.royal import prophet_bonus, prophet_priority, royal_compensation
from eleusis.views import view

ALT = "card.color != prev.color"


def royal(rule: str | None = ALT, dealer: int | None = 4) -> State:
    cfg = make_config("royal", ["A", "B", "C", "D", "God"][: 5 if dealer is not None else 4],
                      rule, 1, dealer)
    return rig(
        new_game(cfg),
        hands={0: "2H 3S 4H 5S 6H", 1: "2C 3C 4C 5C 6C", 2: "4C 6C 8S 9H", 3: "5D 7D 9D JD"},
        mainline="9S",
        turn=0,
    )


def side(state: State) -> list[tuple[str, bool, bool, str]]:
    return [(str(p.card), p.face_down, p.horizontal, p.flag) for p in state.layout[-1].sideline]


def test_a_bets_right_and_then_wrong() -> None:
    s = apply(royal(), Bet(0, cards("2H 3S 4H 6H"), "AAAA"))  # 2H 3S 4H right, 6H wrong
    assert s.mainline == cards("9S 2H 3S 4H")
    assert side(s) == [("6H", False, False, "")]
    assert len(s.hand(0)) == 5 - 4 + 2  # 3.1: a replacement card and a malus card
    s = apply(royal(), Bet(0, cards("3S 2H 4H 5S"), "AAAA"))  # the first bet is wrong
    assert s.mainline == cards("9S")
    assert side(s) == [("3S", False, False, ""), ("2H", True, False, ""),
                       ("4H", True, False, ""), ("5S", True, False, "")]
    assert len(s.hand(0)) == 5 - 4 + 8  # every wrong bet: one more card
    assert s.played == 1 + 4  # face-down cards are vertical: they count


def test_right_r_bets_and_horizontal_cards() -> None:
    s = rig(royal(), hands={0: "2S 3S 4C 5C 6S 7S"})  # nothing red: every R is right
    s = apply(s, Bet(0, cards("2S 3S 4C 5C"), "RRRR"))
    assert [x[3] for x in side(s)] == ["right_R"] * 4 + ["", ""]
    assert [x[2] for x in side(s)] == [False] * 4 + [True, True]  # 2.2: the rest, horizontal
    assert s.played == 1 + 4  # horizontal cards count neither for score nor sudden death
    assert len(s.hand(0)) == 2  # as many new cards as were laid horizontally


def test_first_wrong_r_bet_acceptable_goes_to_the_mainline() -> None:
    s = rig(royal(), hands={0: "2H 3S 4S 5S 6S"})
    s = apply(s, Bet(0, cards("2H 3S 4S 5S"), "RRRR"))  # 2H is acceptable: 3.1
    assert s.mainline == cards("9S 2H") and s.layout[-1].card.flag == "wrong_R"
    assert side(s) == [("3S", True, False, ""), ("4S", True, False, ""), ("5S", True, False, "")]
    assert len(s.hand(0)) == 5 - 4 + 2 * 4


def test_first_wrong_r_bet_when_an_acceptable_card_was_held() -> None:
    s = rig(royal(), hands={0: "2S 3S 4S 5S 6H"})
    s = apply(s, Bet(0, cards("2S 3S 4S 5S"), "ARRR"))  # 2S wrong (A): all wrong
    assert s.mainline == cards("9S")
    s = rig(royal(), hands={0: "2H 3S 4S 5S 6H"})
    s = apply(s, Bet(0, cards("2H 3S 4S 5S"), "ARRR"))  # 2H right; 3S: R, but 6H held
    # 3.2: God plays 6H? no: after 2H a black card is acceptable, and 3S is black:
    assert s.mainline == cards("9S 2H 3S") and s.layout[-1].card.flag == "wrong_R"
    s = rig(royal(), hands={0: "2S 3S 4S 6H 5S"})
    s = apply(s, Bet(0, cards("2S 3S 4S 5S"), "RRRR"))  # 2S not acceptable but 6H was: 3.2
    assert s.mainline == cards("9S 6H") and s.layout[-2].sideline == ()
    assert side(s)[0] == ("2S", False, False, "")  # the refused R card stays in the downline
    assert [x[1] for x in side(s)] == [False, True, True, True]
    # 6H and 2S replaced, 1 malus; then 3 more wrong bets
    assert len(s.hand(0)) == 5 - 5 + 3 + 2 * 3


def test_sudden_death_at_the_moment_of_the_bet() -> None:
    s = replace(royal(), played=28)
    s = apply(s, Bet(0, cards("3S 2H 4H 5S"), "AAAA"))  # begun at 28: not expelled
    assert s.seats[0].role is Role.SCIENTIST and s.played == 32
    s = apply(s, Bet(1, cards("2C"), "A"))  # at 32: a wrong bet expels
    assert s.seats[1].role is Role.EXPELLED


def test_prophet_era_priority_and_overthrow() -> None:
    s = apply(royal(), Bet(0, cards("2H"), "A"))
    assert prophet_priority(s)[:3] == (0, 4, 3)  # who just played, then backwards
    legal = {i: "declare_prophet" in legal_actions(s, i).kinds for i in range(5)}
    assert legal == {0: True, 1: True, 2: True, 3: True, 4: False}
    s = apply(s, DeclareProphet(1))  # B, next in turn, declares: the turn moves on
    assert s.turn == 2 and s.prophet == 1 and s.eras[-1].start == 2
    s = apply(s, Bet(2, cards("4C 9H"), "AA"))
    assert s.phase is Phase.PROPHET_CALL
    assert view(s, 3).pending is not None and view(s, 3).pending.cards == cards("4C")
    assert view(s, 2).pending is not None and view(s, 2).pending.cards == cards("4C 9H")
    s = apply(s, ProphetCall(1, True))  # 4C after 2H: right, approved
    s = apply(s, ProphetCall(1, False))  # 9H after 4C: right; God disapproves
    assert s.prophet is None and s.eras[-1].end == s.played - 1  # before the refused call
    assert len(s.hand(1)) == 5 + 5  # the false prophet's malus
    assert s.mainline[-2:] == cards("4C 9H")
    assert view(s, 0).markers[-1].kind == "prophet_end"


def test_overthrow_means_no_malus_in_that_move() -> None:
    s = apply(royal(), Bet(0, cards("2H"), "A"))
    s = apply(s, DeclareProphet(0))
    s = apply(s, Bet(1, cards("2C 3C"), "AA"))
    s = apply(s, ProphetCall(0, False))  # 2C after 2H is right: overthrown
    # God judges the rest: 3C after 2C is wrong, but no malus in this move
    assert s.prophet is None and len(s.hand(1)) == 5 - 2 + 1


def test_r_call_names_a_card() -> None:
    s = apply(royal(), Bet(0, cards("2H"), "A"))
    s = apply(s, DeclareProphet(0))
    s = rig(s, hands={1: "2H 3H 4H 5S"})
    s = apply(s, Bet(1, cards("2H 3H 4H 5S"), "RRRR"))  # 5S is acceptable after 2H
    before = state_hash(s)
    with pytest.raises(IllegalAction):
        apply(s, ProphetCall(0, False))
    assert state_hash(s) == before
    s = apply(s, ProphetCall(0, False, cards("5S")[0]))
    assert s.mainline[-1] == cards("5S")[0] and s.prophet == 0


def test_person_judging_bets() -> None:
    s = apply(royal(rule=None), Bet(0, cards("2H 3S"), "AA"))
    assert s.phase is Phase.JUDGE
    s = apply(s, Judge(4, True))
    s = apply(s, Judge(4, False))
    assert s.phase is Phase.PLAY and s.mainline == cards("9S 2H")


def test_bad_bets() -> None:
    s = royal()
    for bet, code in ((Bet(0, cards("2H 3S"), "AR"), "bad_bet_sequence"),
                      (Bet(0, cards("2H 3S"), "A"), "bet_count"),
                      (Bet(0, cards("KD"), "A"), "card_not_in_hand")):
        with pytest.raises(IllegalAction) as info:
            apply(s, bet)
        assert info.value.code == code
    assert legal_actions(rig(s, hands={0: "2H 3S"}), 0).bet_kinds == ("A", "AA")


def test_scoring() -> None:
    assert prophet_bonus(5, 3) == 11 and prophet_bonus(5, 3, false_prophet=True) == 5
    # Gods scored 10 and 6 (average 8); the scientists' scores average 5: compensation 3
    assert royal_compensation([10, 6], [4, 6, 5, 5, 3, 7]) == 3
    assert royal_compensation([7], [4, 5]) == 3  # 7 - 4.5 = 2.5, rounded half up
