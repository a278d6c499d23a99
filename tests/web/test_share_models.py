"""The share features' pure parts on CPython: fragments, links, the replay and notebook models,
the daily texts and history, challenge helpers, archive planning."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from eleusis.archive import ArchiveError, export_archive
from eleusis.challenge import computer_result, make_challenge, open_challenge
from eleusis.daily import daily_puzzle, load_history, record_result, result_of
from eleusis.game import Guess, Play, State, apply, make_config, new_game, state_hash
from eleusis.notebook import Notebook, evidence
from eleusis.replay import ReplayError, decode, encode
from eleusis_web import archive_view, challenge_view, daily_view
from eleusis_web.features import parse_fragment, replay_link
from eleusis_web.notebook_panel import apply_intent, notebook_model, session_notebook
from eleusis_web.replay_view import open_replay, replay_model, shown
from eleusis_web.session import Session, Setup

RED = "card is red"


def solo_round(seed: int = 42, finish: bool = True) -> State:
    """A Solo round: a right card, a wrong card, then (optionally) the right guess."""
    state = new_game(make_config("solo", ["You"], RED, seed))
    line = state.mainline
    right = next(c for c in state.hand(0) if c.red)
    state = apply(state, Play(0, cards=(right,)))
    wrong = next(c for c in state.hand(0) if not c.red)
    state = apply(state, Play(0, cards=(wrong,)))
    assert len(state.mainline) == len(line) + 1
    if finish:
        state = apply(state, Guess(0, text=RED))
    return state


# --------------------------------------------------------------------------- links


def test_parse_fragment_kinds_and_params() -> None:
    assert parse_fragment("#r=AbC_-9&n=xY") == ("r", {"r": "AbC_-9", "n": "xY"})
    assert parse_fragment("#c=tok") == ("c", {"c": "tok"})
    assert parse_fragment("") == ("", {})
    assert parse_fragment("#help-scoring") == ("", {})
    assert parse_fragment("#n=abc") == ("", {})  # a notebook alone is not a link
    assert parse_fragment("#r=a&r=b") == ("r", {"r": "a"})  # the first wins


def test_replay_link_round_trip_with_notebook() -> None:
    state = solo_round()
    nb = Notebook().add("card is black")
    link = replay_link("http://x/eleusis/?seed=1#old", state, nb)
    assert link.startswith("http://x/eleusis/?seed=1#r=")
    kind, params = parse_fragment(link[link.index("#"):])
    assert kind == "r" and decode(params["r"]) == state
    assert Notebook.from_token(params["n"]) == nb
    assert "&n=" not in replay_link("http://x/", state, Notebook())


def test_session_notebook_reads_extra_and_ignores_bad_data() -> None:
    setup = Setup(variant="solo")
    s = Session.of_round("g1", setup, solo_round(finish=False))
    assert session_notebook(s) is None
    s.extra["notebook"] = Notebook().add(RED).to_data()
    nb = session_notebook(s)
    assert nb is not None and nb.entries[0].text == RED
    s.extra["notebook"] = {"bad": True}
    assert session_notebook(s) is None
    # the extra data is saved with the session and read back
    s.extra["notebook"] = Notebook().add(RED).to_data()
    again = Session.from_data(json.loads(json.dumps(s.to_data())))
    assert again.extra == s.extra


# --------------------------------------------------------------------------- replay viewer


def test_replay_model_steps_and_final_scores() -> None:
    state = solo_round()
    r = open_replay(encode(state), Notebook().add("card is black").to_token())
    assert r.last == len(state.actions) == 3
    assert r.final_hash == state_hash(state)
    vm = replay_model(r)
    assert vm.step == 0 and len(vm.columns) == 1 and vm.rule == RED
    assert state.result is not None
    assert vm.scores[0].name == "You" and vm.scores[0].score == state.result.scores[0]
    assert vm.notes[0].consistent is False  # the red starter already contradicts it
    r.seek(2)
    vm = replay_model(r)
    assert len(vm.columns) == 2 and len(vm.columns[1].sideline) == 1
    assert vm.log[0].startswith("You")
    r.playing = True
    r.seek(99)
    assert r.step == r.last and not r.playing
    r.seek(-5)
    assert r.step == 0


def test_shown_neutralises_control_and_bidi_characters() -> None:
    assert shown("a\u202eb\x00c\u200b\nd\te") == "a\ufffdb\ufffdc\ufffd\nd\te"
    assert shown("<script>é ♥</script>") == "<script>é ♥</script>"  # text stays text


def test_open_replay_bad_texts_raise_replay_error_only() -> None:
    text = encode(solo_round())
    for bad in ("", text[:-3], "!!!", text[:20] + ("A" if text[20] != "A" else "B") + text[21:]):
        with pytest.raises(ReplayError):
            open_replay(bad)
    r = open_replay(text, "not-a-token")  # a bad notebook is dropped, the replay opens
    assert r.notebook is None


# --------------------------------------------------------------------------- notebook


def test_notebook_model_checks_and_highlights() -> None:
    state = solo_round(finish=False)
    ev = evidence(state)
    nb = Notebook().add(RED).add("card is black")
    vm = notebook_model(nb, ev, "card is", None)
    assert vm.draft_error and not vm.draft_english
    fits, bad = vm.entries
    assert not fits.sentences and fits.checked >= 3 and "Fits all" in fits.verdict
    assert len(bad.sentences) == 3 and bad.focused and not fits.focused
    assert set(vm.highlight) == set(bad.locations)
    assert any(loc.side == 0 for loc in vm.highlight)  # the wrong card in its sideline
    # ticking it off drops the highlight unless it is focused explicitly
    nb2 = nb.tick(1)
    assert notebook_model(nb2, ev).highlight == ()
    assert notebook_model(nb2, ev, focus=nb2.entries[1].id).highlight == vm.highlight


def test_notebook_intents_never_raise() -> None:
    nb = Notebook()
    nb, draft, msg = apply_intent(nb, {"type": "nb_add"}, "card is")
    assert len(nb) == 0 and draft == "card is" and msg.startswith("Not added")
    nb, draft, msg = apply_intent(nb, {"type": "nb_add"}, "  card is red ")
    assert [e.text for e in nb.entries] == [RED] and draft == "" and msg == ""
    nb, _, _ = apply_intent(nb, {"type": "nb_add"}, "card is black")
    nb, _, _ = apply_intent(nb, {"type": "nb_up", "index": 1}, "")
    assert [e.text for e in nb.entries] == ["card is black", RED]
    nb, _, _ = apply_intent(nb, {"type": "nb_tick", "index": 0, "value": "1"}, "")
    assert nb.entries[0].ticked
    same, _, msg = apply_intent(nb, {"type": "nb_remove", "index": 7}, "")
    assert same is nb and msg
    same, _, msg = apply_intent(nb, {"type": "nb_down", "index": "x"}, "")
    assert same is nb and msg


# --------------------------------------------------------------------------- daily


def test_daily_helpers() -> None:
    assert daily_view.parse_day("2026-11-21") == dt.date(2026, 11, 21)
    for bad in (None, "", "2026-13-01", "21/11/2026", "2026-11-21T00:00"):
        assert daily_view.parse_day(bad) is None
    history, msg = load_history(None)
    assert history["days"] == {} and msg == ""
    for broken in ("{broken", "[]", '{"version": 99, "days": {}}'):
        history, msg = load_history(broken)
        assert history["days"] == {} and "damaged" in msg
    day = dt.date(2026, 11, 21)
    puzzle = daily_puzzle(day)
    game = apply(puzzle.start(), Guess(0, text=puzzle.rule.text))
    hist = record_result(history, day, result_of(game))
    text, streaks = daily_view.result_texts(game, day, hist)
    assert text.startswith("Eleusis daily 2026-11-21") and puzzle.rule.text not in text
    assert streaks == "Streak: 1 day · best 1"
    again, msg = load_history(json.dumps(hist))
    assert again == hist and msg == ""


# --------------------------------------------------------------------------- challenge


def test_challenge_helpers() -> None:
    token = make_challenge(RED, 77, "Alice")
    sid = challenge_view.session_id(token)
    assert sid.startswith("ch-") and len(sid) == 19 and sid == challenge_view.session_id(token)
    assert challenge_view.writer_check("", "A") == ("", "")
    assert challenge_view.writer_check("card is", "A")[0]
    assert "name" in challenge_view.writer_check(RED, " ")[0]
    assert challenge_view.writer_check(RED, "Alice") == ("", challenge_view.writer_check(
        RED, "Bob")[1])


def test_computer_run_in_steps_matches_computer_result(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # tiny slices, so that even a prepared space and easy decisions take several
    monkeypatch.setattr(challenge_view, "SLICE_MS", 0.01)
    ch = open_challenge(make_challenge("card is black", 5, "Bo"))
    run = challenge_view.ComputerRun(ch)
    steps = 0
    while run.advance() is None:
        steps += 1
        assert 0.0 <= run.progress < 1.0
        assert steps < 20_000
    assert steps > 2 * run.decisions  # sliced: each decision took several ticks
    assert run.progress == 1.0
    expected = computer_result(ch)
    got = run.result
    assert got is not None
    assert (got.score, got.turns, got.solved, got.wrong_guesses) == (
        expected.score, expected.turns, expected.solved, expected.wrong_guesses)
    assert got.game == expected.game


# --------------------------------------------------------------------------- archive


def _entry(sid: str, state: State, updated: float = 1.0) -> dict[str, object]:
    setup = Setup(variant="solo")
    s = Session.of_round(sid, setup, state)
    return {"format": "eleusis-save", "version": 1, "id": sid, "title": f"Solo {sid}",
            "updated": updated, "game": s.to_data()}


def test_archive_collect_and_plan() -> None:
    a = _entry("g1", solo_round(1, False))
    b = _entry("g2", solo_round(2, False))
    a["game"]["extra"] = {"notebook": Notebook().add(RED).to_data()}  # type: ignore[index]
    games, skipped = archive_view.collect({"g1": a, "g2": b, "g3": {"format": "nope"}})
    assert [g.id for g in games] == ["g1", "g2"] and skipped == ["g3"]
    assert games[0].notebook is not None and games[0].notebook.entries[0].text == RED
    assert games[1].notebook is None
    text = export_archive(games)
    _, plan = archive_view.plan_for(text, {})
    assert len(plan.new) == 2 and not plan.conflicts
    _, plan = archive_view.plan_for(text, {"g1": a})
    assert [g.id for g in plan.new] == ["g2"] and [g.id for g in plan.unchanged] == ["g1"]
    other = _entry("g1", solo_round(3, False))
    _, plan = archive_view.plan_for(text, {"g1": other})
    assert [g.id for g in plan.conflicts] == ["g1"]
    with pytest.raises(ArchiveError):
        archive_view.plan_for('{"format": "x"}', {})
