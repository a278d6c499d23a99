"""Worked examples of every scoring formula, computed by hand from the seeds' text.

Each example plays the last action through the engine on a prepared table and
compares with the figures worked out in the comments.
"""

from __future__ import annotations

import random
from dataclasses import replace

from tests.engine.helpers import cards, random_action, rig

from eleusis.game import (
    Column,
    Era,
    Guess,
    Placed,
    Play,
    ProphetCall,
    Role,
    Variant,
    apply,
    make_config,
    new_game,
)
from eleusis.match import Match
from eleusis.variants.express import express_score
from eleusis.variants.new_eleusis import dealer_score, high_count_scores, prophet_bonus
from eleusis.variants.solo import solo_score

ALTERNATE = "card.color != prev.color"


# --------------------------------------------------------------------------- Express (seed 000)


def test_express_formula() -> None:
    # "A player scores 12 points, minus 1 point for each card left in the hand."
    assert express_score(7, False) == 5
    # "If a player correctly guessed the rule, he or she is given a 6-point bonus."
    assert express_score(6, True) == 12
    # "If any players got rid of all their cards, they are given a 3-point bonus."
    assert express_score(0, False) == 15


def express_table() -> object:
    # Seats: Dee deals (seat 0); Ann, Bob, Cat play. The engine judges Dee's written rule.
    cfg = make_config("express", ["Dee", "Ann", "Bob", "Cat"], ALTERNATE, 1, dealer=0)
    return rig(
        new_game(cfg),
        hands={1: "2S 3S 4S 5S 6S 7S 8S", 2: "3H", 3: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"},
        mainline="7S",
    )


def test_express_round_ended_by_an_empty_hand() -> None:
    state = replace(express_table(), turn=2)  # type: ignore[type-var]
    state = apply(state, Play(2, cards("3H")))  # red after black: right, Bob's hand is empty
    assert state.over and state.result is not None
    # Ann 12 - 7 = 5; Bob 12 - 0 + 3 = 15; Cat 12 - 12 = 0; the dealer as the best player: 15
    assert state.result.scores == (15, 5, 15, 0)


def test_express_round_ended_by_a_right_guess() -> None:
    state = replace(express_table(), turn=1)  # type: ignore[type-var]
    state = apply(state, Play(1, cards("2S")))  # black after black: wrong, Ann draws one
    assert len(state.hand(1)) == 7
    state = apply(state, Play(2, cards("3H")))  # Bob empties his hand? no: right, and
    assert state.over  # ... the round ends there (Bob 15)
    state = replace(express_table(), turn=3)  # type: ignore[type-var]
    state = rig(state, hands={3: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KH"})
    state = apply(state, Play(3, cards("KH")))  # right: Cat may guess
    state = apply(state, Guess(3, "card.red != prev.red"))  # the same rule, other words
    assert state.over and state.result is not None
    # Ann 5; Bob 12 - 1 = 11; Cat 12 - 11 + 6 = 7; dealer 11
    assert state.result.scores == (11, 5, 11, 7)


# --------------------------------------------------------------------------- New Eleusis (002)


def test_new_eleusis_formulas() -> None:
    # "high count minus the number of cards in his/her hand"; "no cards at all gets a 4 point bonus"
    assert high_count_scores([0, 5, 9, 6]) == [13, 4, 0, 3]
    # "1 point for each right card and 2 points for each wrong card played after s/he
    # became prophet"
    assert prophet_bonus(8, 3) == 14
    # "the smaller of (a) the highest player's score, or (b) twice the number of cards
    # played before the True Prophet started"
    assert dealer_score(17, 6) == 12
    assert dealer_score(17, 20) == 17
    assert dealer_score(17, None) == 17


def test_new_eleusis_round_with_a_true_prophet() -> None:
    # Seats: Ann, Bob, Cat, Dan (prophet), Eve deals. Six cards were played when Dan
    # became prophet; after his marker: 7 right cards and 3 wrong ones so far.
    cfg = make_config("new_eleusis", ["Ann", "Bob", "Cat", "Dan", "Eve"], ALTERNATE, 2, dealer=4)
    line = cards("2S 3H 4S 5H 6S 7H 8S 9H 10S JH QS KH 2S")  # alternating colors
    cols = [Column(Placed(c, 0, n)) for c, n in zip(line[:6], range(1, 7), strict=True)]
    wrong = cards("AS 2C 3C")
    cols.append(Column(Placed(line[6], 1, 7), (Placed(wrong[0], 1, 8), Placed(wrong[1], 2, 9))))
    cols.append(Column(Placed(line[7], 1, 10)))
    cols.append(Column(Placed(line[8], 2, 11), (Placed(wrong[2], 1, 12),)))
    cols += [Column(Placed(c, 2, n)) for c, n in zip(line[9:], range(13, 17), strict=True)]
    state = rig(
        new_game(cfg),
        hands={0: "AH", 1: "2D 3D 4D 5D 6D", 2: "2C 3C 4C 5C 6C 7C 8C 9C 10C", 3: ""},
        layout=tuple(cols),
        played=16,
        turn=0,
        prophet=3,
        eras=(Era(3, 6),),
    )
    seats = list(state.seats)
    seats[3] = replace(seats[3], role=Role.PROPHET, set_aside=cards("AC 2C 3C 4C 5C 6C"),
                       been_prophet=True)
    state = replace(state, seats=tuple(seats))
    state = apply(state, Play(0, cards("AH")))  # red after black 2S: right, Ann's last card
    state = apply(state, ProphetCall(3, True))  # the dealer approves: Ann is out of cards
    assert state.over and state.result is not None
    # high count 9 (Cat). Ann 9 - 0 + 4 = 13; Bob 9 - 5 = 4; Cat 0;
    # Dan 9 - 6 + (8 right + 2 x 3 wrong) = 17; Eve min(17, 2 x 6) = 12
    assert state.result.scores == (13, 4, 0, 17, 12)


def test_new_eleusis_compensation_when_a_match_ends_early() -> None:
    # 002 scoring 5: "If you end the game early, anyone who has never been dealer gets
    # 10 extra points." Four seats, two rounds dealt by seats 0 and 1.
    match = Match(Variant.NEW_ELEUSIS, ("Ann", "Bob", "Cat", "Dan"), seed=7)
    r = random.Random(3)
    for _ in range(2):
        match = match.start_round(ALTERNATE)
        while match.current is not None and not match.current.over:
            match = match.apply(random_action(match.current, r))
    played = match.totals
    match = match.end_early()
    assert match.compensation == (0, 0, 10, 10)
    assert match.totals == tuple(p + c for p, c in zip(played, (0, 0, 10, 10), strict=True))
    assert [rd.config.dealer for rd in match.rounds] == [0, 1]
    assert match.complete


# --------------------------------------------------------------------------- Solo


def test_solo_formula() -> None:
    # solved after 12 turns with 2 wrong guesses: 30 - 12 - 2 x 2 = 14
    assert solo_score(True, 12, 2) == 14
    # solved late: 30 - 29 - 2 x 3 = -5 (shown floored as 0)
    assert solo_score(True, 29, 3) == -5
    # not solved, 3 wrong guesses: -6
    assert solo_score(False, 30, 3) == -6


def test_solo_game_scores() -> None:
    state = new_game(make_config("solo", ["Sol"], "card is red", 5))
    for _ in range(3):
        state = apply(state, Play(0, (state.hand(0)[0],)))
    state = apply(state, Guess(0, "card is black"))  # wrong: -2
    state = apply(state, Guess(0, "card.red"))  # right, after 3 turns
    assert state.over and state.result is not None
    assert state.result.scores == (30 - 3 - 2,)
    assert state.result.floored == (25,)
