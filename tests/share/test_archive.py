"""Export and import: round trip, strict checks with located errors, the merge plan."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eleusis.archive import (
    MAX_DOCUMENT,
    Archive,
    ArchivedGame,
    ArchiveError,
    export_archive,
    game_from_save,
    merge_daily,
    merge_plan,
    parse_archive,
    save_from_game,
)
from eleusis.daily import DailyResult, empty_history, record_result
from eleusis.game import Guess, Play, State, apply, make_config, new_game, state_hash
from eleusis.notebook import Notebook
from eleusis.replay import encode


def _solo(seed: int, plays: int, solve: bool) -> State:
    s = new_game(make_config("solo", ["You"], "card is red", seed))
    for _ in range(plays):
        s = apply(s, Play(0, (s.hand(0)[0],)))
    if solve:
        s = apply(s, Guess(0, "card is red"))
    return s


def _new_eleusis(seed: int) -> State:
    s = new_game(make_config("new_eleusis", ["Ada", "Bo", "Cy"], "card.color != prev.color",
                             seed))
    for _ in range(4):
        s = apply(s, Play(s.turn, (s.hand(s.turn)[0],)))
    return s


def _games() -> list[ArchivedGame]:
    nb = Notebook().add("card is red", "looks right").add("<script>alert(1)</script>").tick(1)
    return [
        ArchivedGame.from_states("g1", "Solo — You", [_solo(1, 5, True)], 1763700000.5, nb,
                                 {"setup": {"variant": "solo"}, "kinds": ["you"]}),
        ArchivedGame.from_states("g2", "<b>New Eleusis</b>", [_solo(2, 3, True), _new_eleusis(3)]),
        ArchivedGame("g3", "", (encode(_solo(4, 2, False)),), 12),
    ]


def _doc(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(export_archive(_games()[:1]))
    data.update(changes)
    return data


def _game(**changes: Any) -> dict[str, Any]:
    g: dict[str, Any] = _doc()["games"][0]
    g.update(changes)
    return g


def test_export_then_import_restores_every_game() -> None:
    games = _games()
    nb = Notebook().add("card.rank > prev.rank")
    daily = record_result(empty_history(), dt.date(2026, 11, 21), DailyResult(True, 14, 14, 1))
    text = export_archive(games, nb, daily, exported="2026-11-21T08:00:00Z")
    archive = parse_archive(text)
    assert isinstance(archive, Archive)
    assert archive.games == tuple(games)
    for mine, back in zip(games, archive.games, strict=True):
        assert len(back.states) == len(back.rounds)  # every round decoded and re-checked
        if mine.states:
            assert [state_hash(s) for s in back.states] == [state_hash(s) for s in mine.states]
    assert archive.notebook == nb and archive.daily == daily
    assert archive.exported == "2026-11-21T08:00:00Z"
    assert archive.game("g2").title == "<b>New Eleusis</b>"
    # into an empty profile: every game is new, nothing to ask
    plan = merge_plan([], archive)
    assert plan.new == archive.games and not plan.conflicts and plan.notebook == "import"
    assert plan.to_write() == archive.games
    # bytes with a BOM, as a file picked from disk may be
    assert parse_archive(("\ufeff" + text).encode()) == archive  # type: ignore[arg-type]


def test_an_empty_archive_is_valid() -> None:
    archive = parse_archive(export_archive([]))
    assert archive.games == () and archive.notebook is None and archive.daily is None


def test_the_merge_plan_never_overwrites_without_asking() -> None:
    archive = parse_archive(export_archive(_games(), Notebook().add("true")))
    saved = {
        "g1": archive.game("g1").rounds,  # the same game
        "g2": (encode(_solo(9, 1, False)),),  # same id, other content
        "g2-2": ("x",),
        "old": ("y",),
    }
    plan = merge_plan(saved, archive, Notebook().add("false"))
    assert [g.id for g in plan.new] == ["g3"]
    assert [g.id for g in plan.unchanged] == ["g1"]
    assert [g.id for g in plan.conflicts] == ["g2"]
    assert plan.notebook == "ask"
    assert plan.summary == "1 new game, 1 game already here, 1 game that differ from the saved ones"
    assert [g.id for g in plan.to_write()] == ["g3"]  # skipped unless chosen
    assert [g.id for g in plan.to_write(overwrite=["g2"])] == ["g3", "g2"]
    both = plan.to_write(keep_both=["g2"])
    assert [g.id for g in both] == ["g3", "g2-3"] and both[1].rounds == archive.game("g2").rounds
    with pytest.raises(ArchiveError, match="not one of the conflicting games"):
        plan.to_write(overwrite=["g1"])
    with pytest.raises(ArchiveError, match="both"):
        plan.to_write(overwrite=["g2"], keep_both=["g2"])
    # with ids only, every known id is a conflict to ask about
    assert [g.id for g in merge_plan(["g1", "g2"], archive).conflicts] == ["g1", "g2"]
    assert merge_plan([], archive, Notebook().add("true")).notebook == "same"
    assert merge_plan([], parse_archive(export_archive([]))).notebook == "none"


def test_daily_histories_merge_keeping_local_days() -> None:
    a = record_result(empty_history(), dt.date(2026, 1, 1), DailyResult(True, 10, 10, 0))
    b = record_result(empty_history(), dt.date(2026, 1, 1), DailyResult(False, 0, 30, 0))
    b = record_result(b, dt.date(2026, 1, 2), DailyResult(True, 5, 20, 1))
    merged = merge_daily(a, b)
    assert merged["days"]["2026-01-01"]["solved"] is True
    assert set(merged["days"]) == {"2026-01-01", "2026-01-02"}
    with pytest.raises(ArchiveError, match="daily"):
        merge_daily(a, {"version": 9})


def _text_of(data: Any) -> str:
    return data if isinstance(data, str) else json.dumps(data)


_REPLAY = encode(_solo(1, 5, True))


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not an Eleusis archive: it does not hold an object"),
        ('{"format": "x", "version": 1}', "not an Eleusis archive"),
        (_doc(version=2), "archive version 2 is not known"),
        (_doc(version="1"), "archive version '1' is not known"),
        (_doc(version=None), "archive version None is not known"),
        (_doc(surprise=1), "unknown field 'surprise'"),
        (_doc(games={}), "games: must be a list, found an object"),
        (_doc(games=[[]]), r"games\[0\]: a game must be an object, found a list"),
        (_doc(games=[_game(id="")]), r"games\[0\]\.id: must be"),
        (_doc(games=[_game(id="a b")]), r"games\[0\]\.id"),
        (_doc(games=[_game(id="x" * 65)]), r"games\[0\]\.id"),
        (_doc(games=[_game(), _game()]), r"games\[1\] \(id 'g1'\): this id is used by another"),
        (_doc(games=[_game(title=5)]), r"\.title: must be a text, found a number"),
        (_doc(games=[_game(title="t" * 100_000)]), r"\.title: too long"),
        (_doc(games=[_game(title="a\u0000b")]), r"\.title: holds a control character"),
        (_doc(games=[_game(updated=True)]), r"\.updated: must be a time"),
        (_doc(games=[_game(updated=-5)]), r"\.updated"),
        (_doc(games=[_game(rounds=[])]), r"\.rounds: must be a list of at least one"),
        (_doc(games=[_game(rounds="abc")]), r"\.rounds: must be a list"),
        (_doc(games=[_game(rounds=[5])]), r"\.rounds\[0\]: must be a text"),
        (_doc(games=[_game(rounds=["%%%"])]), r"\.rounds\[0\]: this is not a replay link"),
        (_doc(games=[_game(rounds=[_REPLAY[:-12]])]), r"\.rounds\[0\]: the replay is cut short"),
        (_doc(games=[_game(rounds=[_REPLAY, "AgA"])]), r"\.rounds\[1\]: replay format 2"),
        (_doc(games=[_game(rounds=["A" * 300_000])]), r"\.rounds\[0\]: too long"),
        (_doc(games=[_game(rounds=[_REPLAY] * 65)]), r"too many rounds"),
        (_doc(games=[_game(notebook={"version": 1, "entries": [{"id": 1}]})]),
         r"games\[0\] \(id 'g1'\)\.notebook: notebook entry 1: 'text' must be a text"),
        (_doc(games=[_game(extra=[1])]), r"\.extra: must be an object"),
        (_doc(games=[_game(extra={"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {}}}}}}}}})]),
         r"\.extra: nested too deeply"),
        (_doc(games=[_game(extra={"big": "x" * 70_000})]), r"\.extra: too large"),
        (_doc(games=[_game(secret=1)]), r"games\[0\]: unknown field 'secret'"),
        (_doc(notebook=[]), "notebook: a notebook must be an object"),
        (_doc(daily={"version": 1, "days": {"someday": {}}}), "daily: 'someday' is not a date"),
        (_doc(exported=7), "exported: must be a text"),
        ('{"format": "eleusis-archive", "format": "eleusis-archive", "version": 1}',
         "appears twice"),
        ('{"format": "eleusis-archive", "version": 1, "games": [], "x": NaN}',
         "NaN, which is not a number JSON allows"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply|not JSON"),
        (" " * (MAX_DOCUMENT + 1), "too large"),
    ],
)
def test_bad_documents_are_refused_with_what_and_where(doc: Any, message: str) -> None:
    with pytest.raises(ArchiveError, match=message):
        parse_archive(_text_of(doc))


def test_a_tampered_replay_is_refused() -> None:
    text = encode(_solo(1, 5, True))
    bad = [text[:i] + ("A" if text[i] != "A" else "B") + text[i + 1 :] for i in range(8, 40, 4)]
    refused = 0
    for t in bad:
        try:
            parse_archive(_text_of(_doc(games=[_game(rounds=[t])])))
        except ArchiveError as exc:
            assert "games[0] (id 'g1').rounds[0]: " in str(exc)
            refused += 1
    assert refused >= len(bad) - 1


def test_bad_inputs_to_export_are_refused() -> None:
    with pytest.raises(ArchiveError, match=r"games\[0\] \(id 'x y'\)|games\[0\]\.id"):
        export_archive([ArchivedGame("x y", "t", ("r",))])
    with pytest.raises(ArchiveError, match="not an ArchivedGame"):
        export_archive(["g1"])  # type: ignore[list-item]
    with pytest.raises(ArchiveError, match="daily"):
        export_archive([], daily={"version": 3})
    with pytest.raises(ArchiveError, match="notebook"):
        export_archive([], notebook={"version": 1})  # type: ignore[arg-type]


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False,
                                                               allow_infinity=False)
    | st.text(max_size=8) | st.just(_REPLAY),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["id", "title", "rounds", "games", "notebook", "extra", "x"]), inner,
        max_size=4),
    max_leaves=10,
)


@settings(max_examples=200, deadline=None)
@given(
    st.fixed_dictionaries(
        {"format": st.just("eleusis-archive"), "version": st.sampled_from([1, 1, 2]),
         "games": st.lists(st.fixed_dictionaries(
             {"id": st.sampled_from(["g1", "g2", "", 3]), "rounds": st.lists(
                 st.just(_REPLAY) | st.text(max_size=6), max_size=2) | _json},
             optional={"title": _json, "updated": _json, "notebook": _json, "extra": _json}),
             max_size=3)},
        optional={"notebook": _json, "daily": _json, "exported": _json},
    ).map(json.dumps)
    | _json.map(json.dumps)
    | st.text(max_size=60)
)
def test_any_document_is_read_or_refused_with_an_archive_error(text: str) -> None:
    try:
        archive = parse_archive(text)
    except ArchiveError as exc:
        assert str(exc)
        return
    assert parse_archive(export_archive(archive.games, archive.notebook, archive.daily,
                                        archive.exported)) == archive


def test_the_pages_saved_games_convert_both_ways() -> None:
    s = _solo(3, 4, True)
    entry = {
        "format": "eleusis-save", "version": 1, "id": "g1f00012345", "title": "Solo — You",
        "updated": 1763700000.25,
        "game": {"id": "g1f00012345", "setup": {"variant": "solo", "seed": 3}, "kinds": ["you"],
                 "rounds": [encode(s)], "created": 1763700000.0},
    }
    game = game_from_save(entry)
    assert game.rounds == (encode(s),) and game.extra["kinds"] == ["you"]
    assert save_from_game(game) == entry
    back = parse_archive(export_archive([game])).games[0]
    assert save_from_game(back) == entry and state_hash(back.states[0]) == state_hash(s)
    for bad, message in (
        ({}, "not a saved game"),
        ({**entry, "version": 2}, "version 2"),
        ({**entry, "game": None}, "no game data"),
        ({**entry, "game": {"rounds": []}}, "at least one replay"),
        ({**entry, "id": "../etc"}, "id"),
    ):
        with pytest.raises(ArchiveError, match=message):
            game_from_save(bad)
