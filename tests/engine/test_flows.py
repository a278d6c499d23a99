"""The rules of play, point by point, on prepared tables (see docs/rules.md)."""

from __future__ import annotations

import json
from dataclasses import replace

from tests.engine.helpers import cards, rig

from eleusis.game import (
    DeclareProphet,
    Guess,
    Hint,
    Judge,
    NoPlay,
    Pass,
    Phase,
    Play,
    ProphetCall,
    RequestHint,
    Role,
    State,
    apply,
    legal_actions,
    legal_plays,
    make_config,
    new_game,
)
from eleusis.views import view

ALT = "card.color != prev.color"


def ne(seed: int = 1, dealer: int | None = None, rule: str | None = ALT, **kw: object) -> State:
    names = ["A", "B", "C", "D"] + (["Dealer"] if dealer is not None else [])
    cfg = make_config("new_eleusis", names, rule, seed, dealer, first_player="left", **kw)
    return rig(
        new_game(cfg),
        hands={0: "2H 3S 4H 5S 6H 7S", 1: "2C 3D 4C 5D 6C", 2: "4C 6C 8S 9H", 3: "5D 7D"},
        mainline="9S",
        turn=0,
    )


# --------------------------------------------------------------------------- New Eleusis


def test_a_right_sequence_extends_the_mainline_in_order() -> None:
    s = apply(ne(), Play(0, cards("2H 3S 4H")))
    assert s.mainline == cards("9S 2H 3S 4H")
    assert s.hand(0) == cards("5S 6H 7S") and s.turn == 1


def test_a_wrong_sequence_goes_to_the_sideline_with_two_cards_each() -> None:
    s = apply(ne(), Play(0, cards("2H 4H 3S")))  # the second card is wrong: all wrong
    assert s.mainline == cards("9S")
    assert tuple(p.card for p in s.layout[-1].sideline) == cards("2H 4H 3S")
    assert len(s.hand(0)) == 6 - 3 + 2 * 3


def test_right_no_play_gives_a_hand_four_smaller() -> None:
    s = rig(ne(), hands={0: "2S 3S 4S 5S 6S 7S"})  # all black after 9S: nothing playable
    s = apply(s, NoPlay(0))
    assert len(s.hand(0)) == 2 and cards("2S 3S 4S 5S 6S 7S") == s.discard
    s2 = apply(rig(ne(), hands={0: "2S 3S 4S"}), NoPlay(0))
    assert s2.over and s2.result is not None and s2.result.reason == "a player ran out of cards"


def test_wrong_no_play_the_dealer_plays_a_card_and_five_penalty_cards() -> None:
    s = apply(ne(), NoPlay(0))
    assert s.mainline == cards("9S 2H")  # the first right card of the hand
    assert s.layout[-1].card.seat == -1
    assert len(s.hand(0)) == 6 - 1 + 5


def test_prophet_marker_calls_and_overthrow() -> None:
    s = apply(ne(), Play(0, cards("2H")))
    s = apply(s, DeclareProphet(0))
    assert s.prophet == 0 and s.eras[-1].start == s.played == 2
    assert s.hand(0) == () and s.seats[0].set_aside == cards("3S 4H 5S 6H 7S")
    assert s.turn == 1  # the prophet does not play
    s = apply(s, Play(1, cards("3D")))
    assert s.phase is Phase.PROPHET_CALL
    s = apply(s, ProphetCall(0, False))  # 3D after 2H is wrong: approved
    assert s.prophet == 0 and len(s.hand(1)) == 4 + 2
    s = apply(s, Play(2, cards("8S")))
    s = apply(s, ProphetCall(0, False))  # 8S after 2H is right: the prophet is overthrown
    assert s.prophet is None and s.eras[-1].end == s.played
    assert s.seats[0].role is Role.SCIENTIST and len(s.hand(0)) == 5 + 5
    assert len(s.hand(2)) == 3  # no penalty for the player
    assert s.mainline[-1] == cards("8S")[0]
    assert s.turn == 3 and s.seats[0].been_prophet


def test_prophet_wrong_call_on_a_no_play_returns_the_card() -> None:
    s = apply(ne(), Play(0, cards("2H")))
    s = apply(s, DeclareProphet(0))
    s = apply(rig(s, hands={1: "2D 3D"}), NoPlay(1))  # nothing red after 2H: right
    s = apply(s, ProphetCall(0, False, cards("2D")[0]))  # the prophet plays 2D: wrong call
    assert s.prophet is None
    assert s.mainline == cards("9S 2H")  # 2D was not played
    assert s.discard == cards("2D 3D")
    # the right "no play" still stands: 2 cards - 4 = no cards: the round is over
    assert s.over


def test_prophet_right_call_on_a_wrong_no_play() -> None:
    s = apply(ne(), Play(0, cards("2H")))
    s = apply(s, DeclareProphet(0))
    s = apply(s, NoPlay(1))  # 2C and 4C are playable after 2H
    s = apply(s, ProphetCall(0, False, cards("4C")[0]))
    assert s.prophet == 0 and s.mainline[-1] == cards("4C")[0]
    assert s.layout[-1].card.seat == 0  # played by the prophet
    assert len(s.hand(1)) == 5 - 1 + 5


def test_sudden_death_after_forty_cards_expels() -> None:
    s = replace(ne(), played=39)
    s = apply(s, Play(0, cards("3S 5S")))  # wrong, begun at card 39: penalty only
    assert s.seats[0].role is Role.SCIENTIST and len(s.hand(0)) == 8
    s = apply(s, Play(1, cards("2C")))  # wrong at card 41: the penalty, then expelled
    assert s.seats[1].role is Role.EXPELLED and len(s.hand(1)) == 4 + 2
    assert 1 not in (s.turn,)


def test_sudden_death_thirty_after_the_prophet_marker_or_forty_with_fourth_marker() -> None:
    for option, expelled in (("cards", True), ("fourth_marker", False)):
        s = apply(ne(sudden_death=option), Play(0, cards("2H")))
        s = apply(s, DeclareProphet(0))
        s = replace(s, played=s.played + 30)
        s = apply(s, Play(1, cards("3D")))
        s = apply(s, ProphetCall(0, False))
        assert (s.seats[1].role is Role.EXPELLED) is expelled


def test_all_expelled_ends_the_round() -> None:
    s = rig(replace(ne(), played=50), hands={3: "5D 7C"})
    for seat, card in ((0, "3S"), (1, "2C"), (2, "4C"), (3, "7C")):  # black after 9S: wrong
        assert not s.over
        s = apply(s, Play(seat, cards(card)))
        assert s.seats[seat].role is Role.EXPELLED
    assert s.over and s.result is not None and s.result.reason == "every player was expelled"


def test_first_player_counts_the_starter() -> None:
    cfg = make_config("new_eleusis", ["A", "B", "C", "D", "Dealer"], ALT, 5, dealer=4)
    s = new_game(cfg)
    rank = s.mainline[0].rank
    assert s.turn == (rank - 1) % 4  # counting from the dealer's left: A, B, C, D, A, ...


def test_a_person_judges_with_a_prophet() -> None:
    s = ne(dealer=4, rule=None)
    s = apply(s, Play(0, cards("2H")))
    assert s.phase is Phase.JUDGE
    assert [a.kind for a in legal_actions(s, 4).actions] == ["judge", "judge"]
    s = apply(s, Judge(4, True))
    s = apply(s, DeclareProphet(0))
    s = apply(s, Play(1, cards("2C")))
    s = apply(s, ProphetCall(0, True))
    assert s.phase is Phase.JUDGE
    s = apply(s, Judge(4, False))  # the dealer disapproves
    assert s.prophet is None and s.mainline[-1] == cards("2H")[0]


def test_the_stock_runs_out_another_deck() -> None:
    s = rig(ne(), stock="2C")
    s = apply(s, Play(0, cards("3S 5S")))  # 4 penalty cards, 1 in the stock
    assert s.decks == 3 and len(s.hand(0)) == 8


def test_legal_plays_enumerates_distinct_sequences() -> None:
    s = rig(ne(), hands={0: "2H 2H 3S"})
    listed = [p.cards for p in legal_plays(s, 0)]
    plays = set(listed)
    assert len(listed) == len(plays)  # no play listed twice
    assert cards("2H 2H") in plays and cards("2H 2H 2H") not in plays
    assert len(plays) == 2 + 3 + 3  # 1 card: 2H, 3S; 2 cards: 3; 3 cards: 3!/2! = 3
    assert all(len(p) <= 2 for p in (x.cards for x in legal_plays(s, 0, 2)))


# --------------------------------------------------------------------------- Express


def ex(rule: str | None = ALT, **kw: object) -> State:
    cfg = make_config("express", ["Dee", "A", "B"], rule, 3, dealer=0, **kw)
    return rig(new_game(cfg), hands={1: "2H 3S 4S", 2: "4C 5D"}, mainline="9S", turn=1)


def test_express_wrong_card_goes_under_and_the_player_draws_one() -> None:
    s = apply(ex(), Play(1, cards("3S")))
    assert tuple(p.card for p in s.layout[-1].sideline) == cards("3S")
    assert len(s.hand(1)) == 3 and s.turn == 2


def test_express_right_card_then_a_guess() -> None:
    s = apply(ex(), Play(1, cards("2H")))
    assert "guess" in legal_actions(s, 1).kinds
    s = apply(s, Guess(1, "card is red"))
    assert not s.over and s.seats[1].wrong_guesses == 1
    assert s.events[-1].kind == "counterexample" and s.events[-1].text
    assert "guess" not in legal_actions(s, 1).kinds  # one guess per right play


def test_express_no_play() -> None:
    # right, more than one card: under the stock, a new hand one smaller
    s = apply(rig(ex(), hands={1: "3S 4S 5C"}), NoPlay(1))
    assert len(s.hand(1)) == 2 and s.stock[:3] == cards("3S 4S 5C")
    # right with one card: the card goes to the stock and the round is over
    s = apply(rig(ex(), hands={1: "3S"}), NoPlay(1))
    assert s.over and s.result is not None and s.result.scores[1] == 12 + 3
    # wrong: the dealer plays a right card, the player draws one
    s = apply(ex(), NoPlay(1))
    assert s.mainline == cards("9S 2H") and len(s.hand(1)) == 3
    assert "guess" not in legal_actions(s, 1).kinds


def test_express_stock_out_options() -> None:
    s = apply(rig(ex(stock_out="end_round"), stock=""), Play(1, cards("3S")))
    assert s.over and s.result is not None and s.result.reason == "the stock ran out"
    s = apply(rig(ex(), stock=""), Play(1, cards("3S")))
    assert not s.over and s.decks == 3


def test_express_three_lives() -> None:
    s = ex(lives=3)
    assert s.seats[1].lives == 3
    for _ in range(3):
        s = replace(s, turn=1)
        s = apply(s, Play(1, (next(c for c in s.hand(1) if c.black),)))
    assert s.seats[1].lives == 0 and s.seats[1].role is Role.OUT


def test_express_by_hand() -> None:
    s = apply(ex(rule=None), NoPlay(1))
    s = apply(s, Judge(0, False, cards("4S")[0]))  # the dealer says 4S could be played
    assert s.mainline[-1] == cards("4S")[0]
    s = apply(replace(s, turn=1), Play(1, cards("2H")))
    s = apply(s, Judge(0, True))
    s = apply(s, Guess(1, "anything, a person judges"))
    s = apply(s, Judge(0, True))
    assert s.over and s.seats[1].right_guess


# --------------------------------------------------------------------------- Solo


def test_solo_protocol() -> None:
    rule = "if pos == 1 then card is A else card.color != prev.color"
    s = new_game(make_config("solo", ["S"], rule, 9))
    assert s.mainline[0].rank == 1 and len(s.hand(0)) == 12
    for _ in range(30):
        s = apply(s, Play(0, (s.hand(0)[0],)))
        assert len(s.hand(0)) == 12
    assert s.phase is Phase.FINAL_GUESS and s.turns == 30
    assert {a.kind for a in legal_actions(s, 0).actions} == {"pass"}
    done = apply(s, Pass(0))
    assert done.over and done.result is not None and done.result.scores == (0,)
    wrong = apply(s, Guess(0, "card is red"))
    assert wrong.over and wrong.result is not None and wrong.result.scores == (-2,)
    right = apply(s, Guess(0, rule))
    assert right.result is not None and right.result.scores == (0,)


# --------------------------------------------------------------------------- hints and views


def test_computer_hints_grow_more_specific() -> None:
    cfg = make_config("express", ["A", "B"], "if prev is red then card.rank > 6 else true", 2)
    s = new_game(cfg)
    texts = []
    for _ in range(4):
        s = apply(s, RequestHint(1))
        texts.append(s.hints[-1].text)
    assert "previous card" in texts[0] and "the card being played" in texts[0]
    assert "previous card's color" in texts[1] and "card's rank" in texts[1]
    assert "For example" in texts[2] and texts[3] != texts[2]
    assert [h.level for h in s.hints] == [1, 2, 3, 4]
    assert all(e.kind == "hint" for e in s.events[-4:])


def test_human_hint_before_play_in_new_eleusis() -> None:
    s = ne(dealer=4)
    s = apply(s, Hint(4, "colors matter"))
    assert s.hints[-1].text == "colors matter" and s.hints[-1].level == 0
    s = apply(s, Play(0, cards("2H")))
    assert "hint" not in legal_actions(s, 4).kinds


def test_views_strip_secrets() -> None:
    s = ne(dealer=4)
    v = view(s, 1)
    assert v.rule is None and v.hands is None and v.hand == s.hand(1)
    assert [x.cards for x in v.seats] == [6, 5, 4, 2, 0]
    d = view(s, 4)
    assert d.rule == ALT and d.hands is not None and d.hands[0] == s.hand(0)
    json.dumps(v.to_dict())
    assert "2H" not in json.dumps(v.to_dict()["hand"])
    spectator = view(s, None)
    assert spectator.hand == () and spectator.rule is None
    s = apply(rig(s, hands={0: "2H"}), Play(0, cards("2H")))
    assert s.over and view(s, 1).rule == ALT


def test_view_markers() -> None:
    s = replace(apply(ne(), Play(0, cards("2H"))), played=25)
    kinds = [m.kind for m in view(s, 0).markers]
    assert kinds == ["white", "white"]
    s = apply(s, DeclareProphet(0))
    s = replace(s, played=47)
    v = view(s, 1)
    assert [(m.kind, m.n) for m in v.markers] == [
        ("white", 10), ("white", 20), ("white", 30), ("white", 40), ("prophet", 25),
        ("black", 35), ("black", 45)]
    assert v.sudden_death is False
