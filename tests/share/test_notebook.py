"""The scientist's notebook: evidence from layouts and games, contradictions, operations, saving."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eleusis.cards import Card, parse_cards
from eleusis.game import (
    ConfigError,
    Play,
    State,
    apply,
    legal_actions,
    legal_plays,
    make_config,
    new_game,
)
from eleusis.notebook import (
    MAX_ENTRIES,
    Location,
    Notebook,
    NotebookError,
    check,
    evidence,
    evidence_from_layout,
)
from eleusis.rules.library import RULES
from eleusis.views import view

ALT = "card.color != prev.color"


def cards(text: str) -> list[Card]:
    return parse_cards(text)


# --------------------------------------------------------------------------- hand-built layouts


def test_a_consistent_candidate_has_no_contradiction() -> None:
    ev = evidence_from_layout(cards("5H 7S 9H 2C"), {1: [cards("8S")], 2: [cards("3D")]})
    result = check(ALT, ev)
    assert result.parsed and result.consistent
    assert result.checked == 6
    assert result.canonical == ALT and result.english


def test_contradictions_are_located_and_said() -> None:
    ev = evidence_from_layout(cards("5H 7S 9H 2C"), {1: [cards("8S")], 2: [cards("3D")]})
    result = check("card is red", ev)
    assert not result.consistent
    assert result.locations == (Location(1), Location(3), Location(2, 0))
    sentences = [c.sentence for c in result.contradictions]
    assert sentences[0] == "your rule rejects 7♠ at position 2, but the dealer accepted it"
    assert sentences[1] == "your rule rejects 2♣ at position 4, but the dealer accepted it"
    assert sentences[2] == "your rule accepts 3♦ at position 4, but the dealer rejected it"


def test_a_wrong_multi_card_play_is_wrong_only_as_a_whole() -> None:
    # 9H 4H played together after 7S and rejected: 9H alone may well have been right.
    ev = evidence_from_layout(cards("5H 7S"), {1: [cards("9H 4H")]})
    (side,) = [o for o in ev.observations if not o.accepted]
    assert side.cards == tuple(cards("9H 4H")) and side.after == 2
    assert side.locations == (Location(1, 0), Location(1, 1))
    # the alternating rule accepts 9H, then rejects 4H: it agrees the play was wrong
    assert check(ALT, ev).consistent
    # a rule accepting both cards in turn is contradicted, by the play as a whole
    result = check("card.rank >= 4", ev)
    assert [c.locations for c in result.contradictions] == [(Location(1, 0), Location(1, 1))]
    assert result.contradictions[0].sentence == (
        "your rule accepts 9♥ 4♥ played together at positions 3 to 4,"
        " but the dealer rejected that play"
    )
    # a rule rejecting only the first card agrees too
    assert check("card.rank <= 5", evidence_from_layout(cards("5H 2S"), {1: [cards("9H 4H")]}))\
        .consistent


def test_the_starter_counts_only_when_the_rule_judged_it() -> None:
    line = cards("5H 7S")
    assert not check("card is black", evidence_from_layout(line)).consistent
    assert check("card is black", evidence_from_layout(line, starter_judged=False)).consistent


def test_bad_texts_are_reported_never_raised() -> None:
    ev = evidence_from_layout(cards("5H"))
    for text in ("card is", "", "x" * 700, "card is red and", "<script>alert(1)</script>"):
        result = check(text, ev)
        assert not result.parsed and not result.consistent and result.error
        assert result.checked == 0 and not result.contradictions
    assert check(42, ev).error  # type: ignore[arg-type]


def test_hand_built_layouts_are_checked() -> None:
    with pytest.raises(ValueError, match="no column 3"):
        evidence_from_layout(cards("5H"), {3: [cards("2S")]})
    with pytest.raises(ValueError, match="at least one card"):
        evidence_from_layout(cards("5H"), {0: [[]]})


# --------------------------------------------------------------------------- from the engine


def _one_scientist_game() -> State:
    for seed in range(50):
        try:
            return new_game(make_config("new_eleusis", ["Ada"], ALT, seed))
        except ConfigError:
            continue
    raise AssertionError("no game")


def test_evidence_from_a_new_eleusis_game_keeps_plays_together() -> None:
    s = _one_scientist_game()
    starter = s.mainline[0]
    hand = s.hand(0)
    c1 = next(c for c in hand if c.color != starter.color)
    c2 = next(c for c in hand if c != c1 and c.color == c1.color)
    s = apply(s, Play(0, (c1, c2)))  # c1 alone is right; the pair is wrong
    assert s.mainline == (starter,)
    c3 = next(c for c in s.hand(0) if c.color == starter.color)
    s = apply(s, Play(0, (c3,)))  # a second wrong play by the same seat, same column
    ev = evidence(s)
    assert not ev.approximate
    side = [o for o in ev.observations if o.kind == "sideline"]
    assert [o.cards for o in side] == [(c1, c2), (c3,)]
    assert side[0].locations == (Location(0, 0), Location(0, 1))
    assert side[1].locations == (Location(0, 2),)
    assert check(ALT, ev).consistent
    # a candidate accepting every card is contradicted by both plays, not by each card
    result = check("true", ev)
    assert [c.observation for c in result.contradictions] == side
    # what seat 0 sees gives the same evidence
    assert evidence(view(s, 0)) == ev


def test_refused_starters_are_evidence() -> None:
    for seed in range(40):
        s = new_game(make_config("solo", ["You"], "card is red", seed))
        refused = [o for o in evidence(s).observations if o.kind == "starter"]
        if refused:
            break
    else:
        raise AssertionError("no refused starter in 40 deals")
    assert all(not o.accepted and o.after == 0 and not o.locations for o in refused)
    assert all(o.cards[0].black for o in refused)
    result = check("true", evidence(s))
    assert "as the first card, but the dealer refused it as the starter" in (
        result.contradictions[0].sentence
    )


def _random_game(variant: str, r: random.Random, steps: int) -> tuple[State, str]:
    rules = [x.text for x in RULES if not x.extreme]
    while True:
        rule = r.choice(rules)
        n = 1 if variant == "solo" else r.randint(1, 4)
        names = [f"P{i}" for i in range(n)]
        try:
            s = new_game(make_config(variant, names, rule, r.getrandbits(32)))
            break
        except ConfigError:
            continue
    for _ in range(steps):
        if s.over:
            break
        options = []
        for seat in range(len(s.seats)):
            legal = legal_actions(s, seat)
            options.extend(a for a in legal.actions if a.kind not in ("request_hint", "pass"))
            if legal.max_cards and "play" in legal.kinds:
                plays = list(legal_plays(s, seat, 2))
                options.extend(r.sample(plays, min(6, len(plays))))
            if legal.bet_kinds:
                from eleusis.game import Bet

                kinds = r.choice(legal.bet_kinds)
                hand = list(s.hand(seat))
                r.shuffle(hand)
                options.append(Bet(seat, tuple(hand[: len(kinds)]), kinds))
        if not options:
            break
        s = apply(s, r.choice(options))
    return s, rule


@pytest.mark.parametrize("variant", ["solo", "express", "new_eleusis", "royal"])
def test_the_secret_rule_is_never_contradicted(variant: str) -> None:
    r = random.Random(f"notebook-{variant}")
    multi = earlier = 0
    for _ in range(6):
        s, rule = _random_game(variant, r, 120)
        ev = evidence(s)
        assert not ev.approximate
        assert len(ev.observations) >= len(s.mainline)
        result = check(rule, ev)
        assert result.consistent, [c.sentence for c in result.contradictions]
        assert evidence(view(s, None)) == ev
        side = [o for o in ev.observations if o.kind == "sideline"]
        multi += sum(len(o.cards) > 1 for o in side)
        earlier += sum(o.after == o.locations[0].column for o in side)
    # the games exercise what is special: multi-card plays, Royal's rule 3.2
    if variant == "new_eleusis":
        assert multi > 0
    if variant == "royal":
        assert earlier > 0
    else:
        assert earlier == 0


# --------------------------------------------------------------------------- the notebook


def test_operations_return_new_notebooks_with_stable_ids() -> None:
    nb = Notebook().add("card is red").add("card.color != prev.color", "colors?").add("true")
    assert [e.id for e in nb.entries] == [1, 2, 3]
    moved = nb.move(2, 0)
    assert [e.text for e in moved.entries] == ["true", "card is red", "card.color != prev.color"]
    assert [e.id for e in moved.move_down(0).entries] == [1, 3, 2]
    assert moved.move_up(0) == moved and moved.move_down(2) == moved
    ticked = moved.tick(1)
    assert ticked.entries[1].ticked and not moved.entries[1].ticked
    assert [e.id for e in ticked.active] == [3, 2]
    assert not ticked.tick(1, False).entries[1].ticked
    edited = ticked.edit(1, text="card is black", note="no: black")
    assert edited.entries[1].id == 1 and edited.entries[1].note == "no: black"
    removed = edited.remove(0)
    assert [e.id for e in removed.entries] == [1, 2]
    assert removed.add("false").entries[-1].id == 4  # ids are never reused
    assert removed.find(2) == 1
    assert len(nb) == 3 and nb.entries[0].text == "card is red"  # the original is unchanged


def test_bad_operations_raise_a_clear_error_and_change_nothing() -> None:
    nb = Notebook().add("card is red")
    with pytest.raises(NotebookError, match="no entry 1"):
        nb.remove(1)
    with pytest.raises(NotebookError, match="no entry -1"):
        nb.tick(-1)
    with pytest.raises(NotebookError, match="whole number"):
        nb.move(True, 0)
    with pytest.raises(NotebookError, match="empty"):
        nb.add("  ")
    with pytest.raises(NotebookError, match="too long"):
        nb.add("x" * 601)
    with pytest.raises(NotebookError, match="control character"):
        nb.edit(0, note="a\x00b")
    with pytest.raises(NotebookError, match="no entry has id"):
        nb.find(9)
    full = Notebook()
    for i in range(MAX_ENTRIES):
        full = full.add(f"card.rank == {i % 13 + 1}")
    with pytest.raises(NotebookError, match="full"):
        full.add("true")
    assert nb.entries[0].text == "card is red" and len(nb) == 1


def test_check_all_checks_every_entry() -> None:
    nb = Notebook().add("card is red").add("card is").add("true")
    ev = evidence_from_layout(cards("5H 7S"))
    results = nb.check_all(ev)
    assert [r.consistent for r in results] == [False, False, True]
    assert results[1].error


def test_saving_round_trips() -> None:
    nb = Notebook().add("card is red", "first idea").add("<img src=x onerror=alert(1)>")
    nb = nb.tick(0).move(1, 0).remove(1).add("card.rank > prev.rank")
    assert Notebook.from_data(nb.to_data()) == nb
    assert Notebook.from_token(nb.to_token()) == nb
    assert Notebook.from_data({"version": 1, "entries": []}) == Notebook()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "must be an object"),
        ({"version": 2, "entries": []}, "format 2 is not known"),
        ({"version": 1}, "'entries' must be a list"),
        ({"version": 1, "entries": [1]}, "entry 1: must be an object"),
        ({"version": 1, "entries": [{"id": 1}]}, "entry 1: 'text' must be a text"),
        ({"version": 1, "entries": [{"id": 0, "text": "true"}]}, "'id' must be"),
        ({"version": 1, "entries": [{"id": 1, "text": "a"}, {"id": 1, "text": "b"}]},
         "entry 2: id 1 is used twice"),
        ({"version": 1, "entries": [{"id": 1, "text": "a", "ticked": "yes"}]}, "'ticked'"),
        ({"version": 1, "entries": [{"id": 1, "text": "a", "x": 1}]}, "unknown field 'x'"),
        ({"version": 1, "entries": [{"id": 1, "text": "a" * 10_000}]}, "too long"),
        ({"version": 1, "entries": [{"id": 1, "text": "a"}] * 41}, "at most 40"),
        ({"version": 1, "next_id": 1, "entries": [{"id": 1, "text": "a"}]}, "'next_id'"),
    ],
)
def test_bad_data_gives_a_clear_error(data: object, message: str) -> None:
    with pytest.raises(NotebookError, match=message):
        Notebook.from_data(data)


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(
    st.fixed_dictionaries(
        {"version": st.sampled_from([1, 1, 2, "1"]), "entries": st.lists(
            st.fixed_dictionaries({"id": st.integers(-2, 5) | st.booleans()},
                                  optional={"text": _json, "note": _json, "ticked": _json}),
            max_size=4)},
        optional={"next_id": _json},
    )
    | _json
)
def test_any_data_loads_or_gives_a_notebook_error(data: object) -> None:
    try:
        nb = Notebook.from_data(data)
    except NotebookError:
        return
    assert Notebook.from_data(nb.to_data()) == nb


_TOKEN = Notebook().add("card is red", "note").add("true").to_token()


@settings(max_examples=200, deadline=None)
@given(
    st.text(max_size=80)
    | st.builds(lambda n: _TOKEN[:n], st.integers(0, len(_TOKEN)))
    | st.builds(
        lambda i, ch: _TOKEN[:i] + ch + _TOKEN[i + 1 :],
        st.integers(0, len(_TOKEN) - 1),
        st.sampled_from("AQZz09-_+/="),
    )
)
def test_any_token_loads_or_gives_a_notebook_error(token: str) -> None:
    try:
        nb = Notebook.from_token(token)
    except NotebookError:
        return
    assert Notebook.from_data(nb.to_data()) == nb
