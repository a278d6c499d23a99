"""Rules fidelity: no empty hand while a round goes on, a wrong play never pays,
the 3-lives winner, one hint per Royal window, the seat counts the rules were written for."""

from __future__ import annotations

from dataclasses import replace

from tests.engine.helpers import cards, rig

from eleusis.game import (
    Bet,
    DeclareProphet,
    Guess,
    Hint,
    NoPlay,
    Play,
    ProphetCall,
    RequestHint,
    Role,
    State,
    apply,
    legal_actions,
    make_config,
    new_game,
)

ALT = "card.color != prev.color"


def ne(**kw: object) -> State:
    cfg = make_config("new_eleusis", ["A", "B", "C", "D"], ALT, 1, None, first_player="left", **kw)
    return rig(
        new_game(cfg),
        hands={0: "2H 3S 4H 5S 6H 7S", 1: "2C 3D 4C 5D 6C", 2: "4C 6C 8S 9H", 3: "5D 7D"},
        mainline="9S",
        turn=0,
    )


def with_prophet() -> State:
    """A (seat 0) is prophet after a right 2H; B is in turn."""
    s = apply(ne(), Play(0, cards("2H")))
    s = apply(s, DeclareProphet(0))
    assert s.prophet == 0 and s.turn == 1
    return s


# --------------------------------------------------------------------------- New Eleusis


def test_wrong_whole_hand_called_right_by_an_overthrown_prophet_ends_the_round() -> None:
    s = rig(with_prophet(), hands={1: "3H 5H"})  # after 2H both are wrong (red on red)
    s = apply(s, Play(1, cards("3H 5H")))
    s = apply(s, ProphetCall(0, True))  # wrong call: the prophet falls, B takes no penalty
    assert s.hand(1) == ()
    assert s.over and s.result is not None  # 002: "some player runs out of cards"
    assert "declare_prophet" not in legal_actions(s, 1).kinds


def test_one_card_no_play_wrongly_called_right_ends_the_round() -> None:
    s = rig(with_prophet(), hands={1: "3C"})  # 3C is right after 2H: the "no play" is wrong
    s = apply(s, NoPlay(1))
    s = apply(s, ProphetCall(0, True))  # the dealer plays 3C; no penalty (overthrow)
    assert s.mainline[-1] == cards("3C")[0] and s.hand(1) == ()
    assert s.over


def test_sudden_death_wrong_whole_hand_play_keeps_the_penalty_for_scoring() -> None:
    s = rig(replace(ne(), played=45), hands={0: "3S 5S"})  # black on black: wrong
    s = apply(s, Play(0, cards("3S 5S")))
    assert s.seats[0].role is Role.EXPELLED
    assert len(s.hand(0)) == 2 * 2 and not s.over


def test_sudden_death_wrong_one_card_no_play_keeps_the_penalty() -> None:
    s = rig(replace(ne(), played=45), hands={0: "2H"})  # 2H is right after 9S
    s = apply(s, NoPlay(0))
    assert s.seats[0].role is Role.EXPELLED and len(s.hand(0)) == 5


def test_an_expelled_player_never_gets_the_no_cards_bonus() -> None:
    s = rig(replace(ne(), played=45), hands={0: "3S", 1: "2H"})
    s = apply(s, Play(0, cards("3S")))  # wrong: expelled with 2 penalty cards
    s = apply(s, Play(1, cards("2H")))  # B goes out: the round ends
    assert s.over and s.result is not None
    assert len(s.hand(0)) == 2
    high = max(st.held for st in s.seats)
    assert s.result.scores[0] == high - 2
    assert s.result.scores[1] == high + 4
    assert s.result.scores[0] < s.result.scores[1]


def test_new_eleusis_hint_may_be_asked_until_ones_own_first_turn() -> None:
    s = apply(ne(), Play(0, cards("2H")))  # a computer scientist played first
    assert "request_hint" in legal_actions(s, 2).kinds  # C has not played yet
    assert "request_hint" not in legal_actions(s, 0).kinds
    s = apply(s, RequestHint(2))
    assert s.hints[-1].seat == 2


# --------------------------------------------------------------------------- Royal


def royal(dealer: int | None = 4) -> State:
    cfg = make_config("royal", ["A", "B", "C", "D", "God"][: 5 if dealer is not None else 4],
                      ALT, 1, dealer)
    return rig(
        new_game(cfg),
        hands={0: "2H 3S 4H 5S 6H", 1: "2C 3C 4C 5C 6C", 2: "4C 6C 8S 9H", 3: "5D 7D 9D JD"},
        mainline="9S",
        turn=0,
    )


def test_royal_expelled_scientist_draws_each_wrong_bet() -> None:
    s = rig(replace(royal(), played=32, turn=1), hands={1: "2C 3C"})
    s = apply(s, Bet(1, cards("2C 3C"), "AA"))  # whole hand, both wrong after 9S
    assert s.seats[1].role is Role.EXPELLED
    assert len(s.hand(1)) == 2 * 2  # a replacement and a malus card per wrong bet
    assert not s.over


def test_royal_expelled_scientist_scores_below_one_who_went_out() -> None:
    s = rig(replace(royal(), played=32), hands={0: "3S", 1: "2H"})
    s = apply(s, Bet(0, cards("3S"), "A"))  # wrong: expelled, holding 2
    s = apply(s, Bet(1, cards("2H"), "A"))  # right: B is out of cards, the round ends
    assert s.over and s.result is not None
    assert s.result.scores[0] < s.result.scores[1]
    assert "no cards" not in s.result.details[0]


def test_royal_one_hint_before_the_game_and_one_before_sudden_death() -> None:
    s = royal(dealer=None)
    assert "request_hint" in legal_actions(s, 2).kinds
    s = apply(s, RequestHint(2))
    assert "request_hint" not in legal_actions(s, 0).kinds  # the first hint is given
    s = apply(s, Bet(0, cards("2H"), "A"))
    assert "request_hint" not in legal_actions(s, 1).kinds  # between the windows
    s = replace(s, played=30)
    assert "request_hint" in legal_actions(s, 1).kinds  # just before sudden death
    s = apply(s, RequestHint(1))
    assert "request_hint" not in legal_actions(s, 3).kinds  # the second hint is given
    assert len(s.hints) == 2


def test_royal_person_god_gives_one_hint_before_the_game() -> None:
    s = royal()
    s = apply(s, Hint(4, "colors"))
    assert "hint" not in legal_actions(s, 4).kinds


# --------------------------------------------------------------------------- Express 3 lives


def express(lives: int) -> State:
    cfg = make_config("express", ["A", "B", "C"], ALT, 3, None, lives=lives)
    return rig(new_game(cfg), hands={0: "2H 3D", 1: "2C 3D 4C", 2: "4C 6C"}, mainline="9S",
               turn=0)


def test_three_lives_the_first_right_guesser_wins() -> None:
    s = apply(express(3), Play(0, cards("2H")))
    s = apply(s, Guess(0, ALT))
    assert s.over and s.result is not None
    assert s.result.winner == 0


def test_three_lives_without_a_right_guess_nobody_wins() -> None:
    s = apply(express(3), Play(0, cards("2H")))
    s = apply(s, Play(1, cards("2C")))  # pass the window, then A goes out
    s = apply(s, Play(2, cards("4C")))  # wrong (black on black)
    s = apply(s, Play(0, cards("3D")))
    assert s.over and s.result is not None and s.result.reason == "empty hand"
    assert s.result.winner is None


def test_plain_express_names_no_winner() -> None:
    s = apply(express(0), Play(0, cards("2H")))
    s = apply(s, Guess(0, ALT))
    assert s.over and s.result is not None and s.result.winner is None


def test_an_expelled_player_may_not_ask_for_a_hint() -> None:
    s = rig(replace(ne(hints="anytime"), played=45), hands={0: "3S 5S"})
    s = apply(s, Play(0, cards("3S 5S")))  # wrong in sudden death: expelled
    assert s.seats[0].role is Role.EXPELLED
    assert "request_hint" not in legal_actions(s, 0).kinds
    assert "request_hint" in legal_actions(s, 1).kinds
