"""The one match implementation: dealing, rounds, early end, plain-data saves."""

from __future__ import annotations

import json
import random

import pytest
from tests.engine.helpers import random_action

from eleusis.game import ActionNotAllowed, ConfigError, GameOver
from eleusis.match import Dealing, Match, MatchError
from eleusis.replay import encode

ALT = "card.color != prev.color"
NAMES = ("You", "Ada", "Kepler", "Curie")


def play_out(match: Match, r: random.Random) -> Match:
    while match.running:
        assert match.current is not None
        match = match.apply(random_action(match.current, r))
    return match


def test_rotation_from_a_chosen_first_dealer_lets_you_deal_last() -> None:
    m = Match.rotation("express", NAMES, seed=5, first_dealer=1)
    r = random.Random(1)
    for _ in range(4):
        m = play_out(m.start_round(ALT), r)
    assert [rd.config.dealer for rd in m.rounds] == [1, 2, 3, 0]
    assert m.complete and m.planned_rounds == 4
    with pytest.raises(GameOver):
        m.start_round(ALT)
    assert m.totals == tuple(map(sum, zip(*m.round_scores, strict=True)))


def test_single_round_with_a_person_dealing_as_an_extra_seat() -> None:
    m = Match.single("new_eleusis", ("Dealer", *NAMES), seed=3, dealer=0)
    m = m.start_round(None)  # the person judges by hand
    assert m.current is not None and m.current.config.dealer == 0
    assert m.current.config.rule is None and m.planned_rounds == 1
    assert not m.may_end_early


def test_computer_dealer_and_options() -> None:
    m = Match.single("express", NAMES, seed=4, lives=3)
    m = m.start_round(ALT)
    assert m.current is not None and m.current.config.dealer is None
    assert m.current.config.option("lives") == 3
    with pytest.raises(ActionNotAllowed):
        m.start_round(ALT)  # a round is running
    with pytest.raises(ConfigError):
        Match.single("express", NAMES, seed=4).start_round(None)  # a computer needs a rule


def test_early_end_drops_the_running_round_and_compensates() -> None:
    m = Match.rotation("new_eleusis", NAMES, seed=7, first_dealer=1)
    r = random.Random(2)
    assert not m.may_end_early  # nothing finished yet: nothing to count
    m = play_out(m.start_round(ALT), r)
    assert m.may_end_early
    m = m.start_round(ALT)  # round 2 is running
    assert m.may_end_early
    m = m.end_early()
    assert len(m.rounds) == 1 and m.complete
    assert m.compensation == (10, 0, 10, 10)  # seat 1 dealt round 1
    assert m.totals == tuple(s + c for s, c in zip(m.round_scores[0], m.compensation,
                                                    strict=True))


def test_plain_data_round_trip_and_refusals() -> None:
    m = Match.rotation("royal", NAMES, seed=9, first_dealer=2)
    r = random.Random(3)
    m = play_out(m.start_round(ALT), r)
    m = m.start_round("card.rank >= prev.rank")
    m = m.apply(random_action(m.current, r))  # type: ignore[arg-type]
    data = json.loads(json.dumps(m.to_data()))
    assert Match.from_data(data) == m
    assert Match.from_data(data).winners == m.winners
    bad = dict(data, rounds=[data["rounds"][0][:-5]])
    with pytest.raises(MatchError, match="cannot be replayed"):
        Match.from_data(bad)
    with pytest.raises(MatchError, match="another version"):
        Match.from_data(dict(data, format=99))
    with pytest.raises(MatchError, match="not in order"):
        Match.from_data(dict(data, first_dealer=0))
    with pytest.raises(MatchError):
        Match.from_data({"format": 1})


def test_older_page_saves_still_open() -> None:
    # the page's earlier save: a rotation where seat 1 dealt first ("you" deal last)
    m = Match.rotation("express", NAMES, seed=11, first_dealer=1)
    r = random.Random(4)
    m = play_out(m.start_round(ALT), r)
    m = m.start_round(ALT)
    old = {
        "id": "g1",
        "setup": {"variant": "express", "seats": [], "dealer": "computer",
                  "dealer_name": "Dealer", "difficulty": "2", "match": True, "seed": 11},
        "kinds": ["you", "computer", "computer", "computer"],
        "rounds": [encode(rd) for rd in m.rounds],
        "created": 0.0,
    }
    back = Match.from_session(old)
    assert back.dealing is Dealing.ROTATE and back.rounds == m.rounds
    assert back.next_dealer == 3
    # a single game with a person judging by hand (the dealer is an extra seat 0)
    one = Match.single("new_eleusis", ("Dee", *NAMES), seed=2, dealer=0).start_round(None)
    single = dict(old, setup=dict(old["setup"], match=False, dealer="judge"),
                  rounds=[encode(one.rounds[0])], kinds=["dealer", *old["kinds"]])
    back1 = Match.from_session(single)
    assert back1.dealing is Dealing.SEAT and back1.dealer_of(0) == 0 and back1.running
    with pytest.raises(MatchError):
        Match.from_session(dict(old, rounds="not a list"))
