"""Hostile and unlucky inputs to the decoders and the storage: one test per hole.

Deep JSON (refused before parsing, never a RecursionError), replay logs
bounded before anything is applied, archive games that the page could not
load, the calendar's first and last days, right-to-left overrides in names
and rules, card codes from outside, and storage entries poisoned one by one.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.share.hostile_support import (
    challenge_token,
    deep_notebook_link,
    guess_flood,
    hint_flood,
    notebook_token,
    replay_text,
    wrong_play_marathon,
)

from eleusis import archive, replay
from eleusis.archive import ArchivedGame, ArchiveError, export_archive, parse_archive
from eleusis.cards import Card, CardError, parse_cards
from eleusis.challenge import ChallengeError, make_challenge, open_challenge
from eleusis.daily import (
    DAMAGED_MESSAGE,
    DailyResult,
    best_streak,
    empty_history,
    load_history,
    record_result,
    streak,
    validate_history,
)
from eleusis.game import Hint, Play, apply
from eleusis.notebook import Notebook, NotebookError
from eleusis.replay import ReplayError, decode, decode_iter, decode_states, encode
from eleusis.safejson import JsonError, clean_text, depth, loads
from eleusis_web.controller import Controller
from eleusis_web.session import Setup
from eleusis_web.storage import (
    CORRUPT,
    CURRENT,
    DAILY,
    PREFIX,
    MemoryStorage,
    Saves,
    check_archived,
    check_game,
)

DEEP = "[" * 20000
RLO, PDF = "\u202e", "\u202c"


# --------------------------------------------------------------------------- 1: deep JSON


def test_deep_json_is_refused_before_parsing_whatever_the_recursion_limit() -> None:
    # The browser's stack overflows long before CPython's limit; a low limit here shows
    # that the parser is never reached (json.loads would raise RecursionError).
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    try:
        for text in (DEEP, "{\"a\":" * 20000, "[" * 100 + "]" * 100, '[' * 70 + '"x"' + ']' * 70):
            with pytest.raises(JsonError, match="nested too deeply"):
                loads(text)
    finally:
        sys.setrecursionlimit(old)
    assert issubclass(JsonError, ValueError)


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.integers() | st.text(max_size=5),
                    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=3), c,
                                                                         max_size=3),
                    max_leaves=30))
def test_depth_is_exact_for_json(value: Any) -> None:
    def nest(v: Any) -> int:
        if isinstance(v, list):
            return 1 + max(map(nest, v), default=0)
        if isinstance(v, dict):
            return 1 + max(map(nest, v.values()), default=0)
        return 0

    text = json.dumps(value)
    assert depth(text) == nest(value)
    assert loads(text, max_depth=nest(value)) == value
    if nest(value):
        with pytest.raises(JsonError):
            loads(text, max_depth=nest(value) - 1)


def test_unbalanced_brackets_are_never_under_counted() -> None:
    assert depth("]]]" + "[" * 100, limit=200) >= 100
    assert depth("[{]" * 5 + "[" * 100, limit=200) >= 100
    assert depth('["]]]]", ' + "[" * 90, limit=200) >= 90  # brackets inside strings do not count
    assert depth("]]]" + "[" * 100) > 64  # above the limit: some figure above it


def test_loads_refuses_nan_and_says_where_a_syntax_error_is() -> None:
    with pytest.raises(JsonError, match="NaN"):
        loads('{"created": NaN}')
    with pytest.raises(JsonError, match=r"line 2, column 1") as err:
        loads('[1,\n]', what="the file")
    assert err.value.line == 2 and str(err.value).startswith("the file is not JSON")


def test_the_short_notebook_link_of_20000_brackets_is_damaged_not_fatal() -> None:
    text, token = deep_notebook_link()
    assert len(text) + len(token) < 120
    assert decode(text).config.rule == "card is red"  # the replay itself is fine
    with pytest.raises(NotebookError, match="damaged"):
        Notebook.from_token(token)


def test_an_import_file_of_brackets_is_refused_with_a_message() -> None:
    with pytest.raises(ArchiveError, match="nested too deeply"):
        parse_archive("[" * 100_000)
    with pytest.raises(ArchiveError, match="nested too deeply"):
        parse_archive(b"[" * 100_000)


def test_a_deep_daily_history_starts_again_with_a_message() -> None:
    assert load_history(DEEP) == (empty_history(), DAMAGED_MESSAGE)
    assert load_history(None) == (empty_history(), "")
    store = MemoryStorage()
    store.setItem(DAILY, DEEP)
    saves = Saves(store)
    assert saves.read_daily() == (empty_history(), DAMAGED_MESSAGE)
    assert store.getItem(CORRUPT + "daily") == DEEP  # kept aside
    assert json.loads(store.data[DAILY]) == empty_history()


# --------------------------------------------------------------------------- 2: replay bounds


def test_too_many_moves_are_refused_from_the_header() -> None:
    # the header claims more actions than a round can hold: refused before reading them
    text = replay_text("solo", ["You"], "card is red", [], count=replay.MAX_ACTIONS + 1)
    with pytest.raises(ReplayError, match="too many moves"):
        decode(text)


def test_hint_and_guess_floods_are_refused_before_any_is_applied() -> None:
    with pytest.raises(ReplayError, match="too many moves"):
        decode(hint_flood(16000))
    with pytest.raises(ReplayError, match="too many hints"):
        decode(hint_flood(replay.MAX_HINTS + 1))
    with pytest.raises(ReplayError, match="too many guesses"):
        decode(guess_flood(replay.MAX_GUESSES + 1))
    # the first action is illegal (seat 3 plays in Solo), yet the count is what is refused:
    # the whole log was read and counted before anything was applied
    bad_first = [Play(3, (Card.parse("2H"),))] + [Hint(0, "x")] * (replay.MAX_HINTS + 1)
    with pytest.raises(ReplayError, match="too many hints"):
        decode(replay_text("new_eleusis", ["D", "A", "B", "C"], "card is red", bad_first,
                           dealer=0))


def test_a_round_of_endless_wrong_plays_stops_at_the_deck_bound() -> None:
    text = wrong_play_marathon(1000)  # legal move by move; about 20 decks by the end
    with pytest.raises(ReplayError, match=f"too many decks \\(at most {replay.MAX_DECKS}"):
        decode(text)
    shorter = decode(wrong_play_marathon(300))
    assert shorter.decks <= replay.MAX_DECKS and len(shorter.actions) == 300


def test_a_round_within_the_bounds_decodes_in_one_pass() -> None:
    text = hint_flood(replay.MAX_HINTS)
    states = decode_states(text)
    assert len(states) == replay.MAX_HINTS + 1
    state = states[0]
    for i, action in enumerate(states[-1].actions):
        state = apply(state, action)
        assert state == states[i + 1]
    it = decode_iter(text)
    assert next(it) == states[0]
    assert sum(1 for _ in it) == replay.MAX_HINTS


def test_log_size_reads_without_applying() -> None:
    size = replay.log_size(guess_flood(3))
    assert (size.moves, size.hints, size.guesses) == (3, 0, 3)
    assert replay.log_size(hint_flood(5)).hints == 5
    with pytest.raises(ReplayError, match="too many guesses"):
        replay.log_size(guess_flood(replay.MAX_GUESSES + 1))


def test_an_archive_asking_too_much_work_in_total_is_refused_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    games = [ArchivedGame(f"g{i}", "", (guess_flood(3),)) for i in range(3)]
    text = export_archive(games)
    monkeypatch.setattr(archive, "MAX_FILE_GUESSES", 8)
    with pytest.raises(ArchiveError, match=r"too many guesses \(9; at most 8\)"):
        parse_archive(text)
    monkeypatch.setattr(archive, "MAX_FILE_MOVES", 8)
    with pytest.raises(ArchiveError, match=r"too many moves \(9; at most 8\)"):
        parse_archive(text)


def test_the_log_is_read_before_the_first_state_is_given() -> None:
    it = decode_iter(guess_flood(replay.MAX_GUESSES + 1))
    with pytest.raises(ReplayError, match="too many guesses"):
        next(it)


# --------------------------------------------------------------------------- 4: archive games


def _page_game(**changes: Any) -> ArchivedGame:
    c = Controller(lambda: 3)
    c.ui.setup = Setup(variant="solo", seed=3, rule="card is red")
    c.dispatch({"type": "start", "seed": 3})
    assert c.session is not None
    data = c.session.to_data()
    extra = {k: v for k, v in data.items() if k not in ("id", "rounds")}
    for k, v in changes.items():
        if k == "strength":
            extra["setup"]["seats"][0]["strength"] = v
        elif k == "variant":
            extra["setup"]["variant"] = v
        else:
            extra[k] = v
    return ArchivedGame("g1", "Solo", tuple(data["rounds"]), 1.0, None, extra)


@pytest.mark.parametrize(("change", "message"), [
    ({"kinds": ["you", "computer"]}, r"games\[0\] \(id 'g1'\)\.extra\.kinds: names 2 seats"),
    ({"kinds": "you"}, r"extra\.kinds: must be a list"),
    ({"created": 1e300}, r"extra\.created: must be a number"),
    ({"created": "NaN"}, r"extra\.created: must be a number"),
    ({"strength": "grandmaster"}, r"extra\.setup\.seats\[0\]\.strength: 'grandmaster'"),
    ({"ended_early": "yes"}, r"extra\.ended_early"),
    ({"setup": []}, r"extra\.setup: must be an object"),
])
def test_an_archive_game_the_page_cannot_load_is_refused_where_it_is(
    change: dict[str, Any], message: str
) -> None:
    text = export_archive([_page_game(**change)])
    with pytest.raises(ArchiveError, match=message):
        parse_archive(text)


def test_the_pages_own_check_refuses_what_the_engine_cannot_know() -> None:
    good = export_archive([_page_game()])
    archive = parse_archive(good, check_archived)
    assert check_archived(archive.games[0]).setup.variant == "solo"
    bad = export_archive([_page_game(variant="chess")])
    parse_archive(bad)  # the engine does not know the page's variant keys
    with pytest.raises(ArchiveError, match=r"games\[0\] \(id 'g1'\): cannot be loaded: "
                                           r"unknown variant 'chess'"):
        parse_archive(bad, check_archived)


def test_nan_in_an_archive_is_refused() -> None:
    text = export_archive([_page_game()]).replace('"created": ', '"created": NaN, "x": ', 1)
    with pytest.raises(ArchiveError, match="NaN"):
        parse_archive(text)


# --------------------------------------------------------------------------- 5: calendar edges


@pytest.mark.parametrize("day", [dt.date.min, dt.date.max])
def test_the_first_and_last_days_of_the_calendar_count_in_streaks(day: dt.date) -> None:
    h = record_result(empty_history(), day, DailyResult(True, 20, 8, 1))
    for today in (dt.date.min, dt.date.max, dt.date(2026, 11, 23), day):
        assert streak(h, today) == (1 if today == day else 0)
    assert best_streak(h) == 1
    both = record_result(record_result(empty_history(), dt.date.min,
                                       DailyResult(True, 1, 1, 0)),
                         dt.date.max, DailyResult(True, 1, 1, 0))
    assert best_streak(both) == 1 and streak(both, dt.date.max) == 1
    stored = json.dumps(h)
    assert validate_history(load_history(stored)[0]) == h


# --------------------------------------------------------------------------- 7: bidi and rules


def test_names_hints_and_rules_from_a_replay_are_shown_clean() -> None:
    names = ["Dealer", f"{RLO}evil{PDF} name", "A\u2066b\u2069", "Zoë\u200d"]
    rule = "-- a secret\ncard.color   !=  prev.color  -- alternate"
    text = replay_text("new_eleusis", names, rule, [Hint(0, f"{RLO}drah\nline two")],
                       dealer=0)
    state = decode(text)
    assert state.config.names[1] == "\ufffdevil\ufffd name"
    assert state.config.names[2] == "A\ufffdb\ufffd"
    assert state.config.names[3] == "Zoë\u200d"  # a joiner is not a control
    assert state.config.rule == "card.color != prev.color"
    assert state.hints[0].text == "\ufffddrah\nline two"
    assert all(clean_text(n) == n for n in state.config.names)
    # what is shown plays the same: the canonical rule judges like the original
    assert decode(encode(state)) == state


def test_a_replay_rule_that_does_not_parse_is_refused() -> None:
    with pytest.raises(ReplayError, match="secret rule does not parse"):
        decode(replay_text("solo", ["You"], "card is", []))


def test_a_challenge_authors_name_is_cleaned() -> None:
    c = open_challenge(challenge_token(f"{RLO}evil{PDF} name", "card is red"))
    assert c.author == "\ufffdevil\ufffd name"
    c2 = open_challenge(challenge_token("Ann", "card is red -- comment\n"))
    assert c2.rule == "card is red"
    assert open_challenge(make_challenge("card is red", 3, f"{RLO}x")).author == "\ufffdx"
    with pytest.raises(ChallengeError):
        open_challenge(challenge_token("A\x00", "card is red"))


def test_notebook_entries_from_a_token_are_cleaned() -> None:
    data = {"version": 1, "next_id": 2,
            "entries": [{"id": 1, "text": f"card is red {RLO}", "note": f"{RLO}x\ny"}]}
    nb = Notebook.from_token(notebook_token(json.dumps(data)))
    assert nb.entries[0].text == "card is red \ufffd" and nb.entries[0].note == "\ufffdx\ny"


# --------------------------------------------------------------------------- 9: cards


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_card_codes_from_outside_raise_card_error_only(text: str) -> None:
    try:
        card = Card.parse(text)
    except CardError as exc:
        assert len(str(exc)) < 200
    else:
        assert Card.parse(card.code) == card
    with pytest.raises(CardError):
        Card.parse(1)  # type: ignore[arg-type]
    with pytest.raises(CardError):
        parse_cards(None)  # type: ignore[arg-type]


def test_a_huge_card_code_gives_a_short_message() -> None:
    with pytest.raises(CardError) as err:
        Card.parse("<img>" * 100_000)
    assert len(str(err.value)) < 200


# --------------------------------------------------------------------------- storage


def _saved(store: MemoryStorage) -> tuple[Saves, str]:
    saves = Saves(store, clock=lambda: 100.0)
    c = Controller(lambda: 4)
    c.ui.setup = Setup(variant="solo", seed=4, rule="card is red")
    c.dispatch({"type": "start", "seed": 4})
    assert c.session is not None
    assert saves.write(c.session.to_data(), "Solo")
    return saves, c.session.id


def _poison(entry: dict[str, Any], how: str) -> str:
    game = entry["game"]
    if how == "deep":
        return DEEP
    if how == "kinds":
        game["kinds"] = ["you", "computer", "computer"]
    elif how == "created":
        game["created"] = 1e300
    elif how == "nan":
        return json.dumps(entry).replace('"created": ', '"created": NaN, "x": ', 1)
    elif how == "strength":
        game["setup"]["seats"][0]["strength"] = "godlike"
    elif how == "variant":
        game["setup"]["variant"] = "poker"
    elif how == "rounds":
        game["rounds"] = [hint_flood(16000)]
    elif how == "types":
        game["setup"] = [1, 2]
    return json.dumps(entry)


@pytest.mark.parametrize("how", ["deep", "kinds", "created", "nan", "strength", "variant",
                                 "rounds", "types"])
def test_a_poisoned_save_is_set_aside_never_resumed(how: str) -> None:
    store = MemoryStorage()
    saves, sid = _saved(store)
    entry = json.loads(store.data[PREFIX + sid])
    poisoned = _poison(entry, how)
    store.setItem(PREFIX + sid, poisoned)
    assert saves.current() == sid
    assert saves.load(sid) is None
    assert saves.current() is None  # never the current game again
    assert PREFIX + sid not in store.data
    assert store.data[CORRUPT + sid] == poisoned
    assert saves.notes and sid in saves.notes[-1]
    assert saves.entries() == []
    listed = saves.corrupt_entries()
    assert [e["id"] for e in listed] == [sid] and listed[0]["size"] == len(poisoned)
    assert saves.delete_corrupt(sid) == 1
    assert saves.corrupt_entries() == [] and CORRUPT + sid not in store.data


def test_delete_every_copy_set_aside() -> None:
    store = MemoryStorage()
    saves, sid = _saved(store)
    for k in ("a", "b", f"{RLO}c"):
        store.setItem(CORRUPT + k, "x")
    assert [e["id"] for e in saves.corrupt_entries()] == ["a", "b", "\ufffdc"]
    assert saves.delete_corrupt() == 3
    assert saves.load(sid) is not None  # the good game is untouched


def test_a_good_save_loads_and_checks() -> None:
    store = MemoryStorage()
    saves, sid = _saved(store)
    session = saves.load(sid)
    assert session is not None and session.id == sid
    assert check_game(session.to_data()).state == session.state
    with pytest.raises(ValueError):
        check_game([1])


def test_imported_games_are_written_by_the_storage() -> None:
    store = MemoryStorage()
    saves = Saves(store)
    game = _page_game()
    assert saves.write_archived(game)
    assert saves.load("g1") is not None
    assert list(saves.saved_data()) == ["g1"]
    full = Saves(MemoryStorage(quota=10))
    assert not full.write_archived(game) and full.full


def test_random_poison_never_raises() -> None:
    r = random.Random(19)
    values = [DEEP, "null", "[]", '"x"', "1e999", "{}", '{"format":"eleusis-save"}',
              '{"format":"eleusis-save","version":1,"title":1,"game":{}}', "\ud800", "",
              '{"version":1,"days":{"0000-01-01":1}}', '{"version":1,"days":{"9999-12-31":'
              '{"solved":true,"score":1,"turns":1,"wrong":0}}}']
    for _ in range(200):
        store = MemoryStorage()
        saves, sid = _saved(store)
        key = r.choice([PREFIX + sid, CURRENT, DAILY, CORRUPT + sid, PREFIX + "x"])
        store.setItem(key, r.choice(values))
        saves.entries()
        saves.load(saves.current() or sid)
        history, _ = saves.read_daily()
        streak(history, dt.date.max)
        best_streak(history)
        saves.corrupt_entries()
