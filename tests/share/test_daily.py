"""The daily rule: the same puzzle everywhere from the date, spoiler-free sharing, streaks."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eleusis.cards import ALL_CARDS
from eleusis.daily import (
    MAX_HISTORY_DAYS,
    POOLS,
    WEEKDAY_DIFFICULTY,
    DailyError,
    DailyResult,
    best_streak,
    daily_puzzle,
    daily_rule,
    daily_seed,
    empty_history,
    record_result,
    result_of,
    share_text,
    streak,
    validate_history,
)
from eleusis.game import Guess, Play, State, apply, make_config, new_game, state_hash
from eleusis.rules.library import get

DAY = dt.date(2026, 11, 21)  # a Saturday


def test_the_same_date_gives_the_same_rule_and_deal() -> None:
    a, b = daily_puzzle(DAY), daily_puzzle(dt.date.fromisoformat("2026-11-21"))
    assert a.rule == b.rule and a.config == b.config
    assert state_hash(a.start()) == state_hash(b.start())
    # a datetime on that day is that day; the player's name changes only the label
    c = daily_puzzle(dt.datetime(2026, 11, 21, 23, 59), name="Zoë")
    assert c.rule == a.rule and c.seed == a.seed
    assert c.start().stock == a.start().stock and c.start().mainline == a.start().mainline


def test_pinned_values_do_not_drift_across_pythons() -> None:
    # sha256 of the ISO date and the engine's own generator: the same in CPython and Pyodide
    assert daily_seed(DAY) == 7971541561368662613
    assert daily_rule(DAY).name == "position-red-red-black"
    assert daily_puzzle(DAY).difficulty == 4


def test_other_dates_give_other_puzzles() -> None:
    hashes = set()
    for k in range(30):
        p = daily_puzzle(DAY + dt.timedelta(days=k))
        hashes.add(state_hash(p.start()))
    assert len(hashes) == 30
    assert daily_puzzle(dt.date(2027, 11, 21)).seed != daily_puzzle(DAY).seed


def test_no_two_consecutive_days_share_a_rule_and_difficulty_follows_the_weekday() -> None:
    start = dt.date(2026, 1, 1)
    prev = None
    for k in range(2 * 366):
        day = start + dt.timedelta(days=k)
        rule = daily_rule(day)
        assert rule.name != prev
        assert rule.difficulty == WEEKDAY_DIFFICULTY[day.weekday()]
        assert not rule.extreme
        prev = rule.name
    assert WEEKDAY_DIFFICULTY[0] == 1 and WEEKDAY_DIFFICULTY[6] == 5


def test_each_pool_is_dealt_out_before_a_rule_comes_back() -> None:
    monday = dt.date(2026, 11, 16)
    pool = POOLS[1]
    # the 24 Mondays of one round of the pool (rounds start at a multiple of its size)
    week = (monday.toordinal() - 1) // 7
    first = monday - dt.timedelta(weeks=week % len(pool))
    names = [daily_rule(first + dt.timedelta(weeks=k)).name for k in range(len(pool))]
    assert sorted(names) == sorted(pool)


def test_the_pools_name_playable_library_rules() -> None:
    for difficulty, names in POOLS.items():
        assert len(names) == len(set(names)) >= 7
        for name in names:
            rule = get(name)
            assert rule.difficulty == difficulty and not rule.extreme


def test_every_day_of_a_year_can_be_played() -> None:
    for k in range(366):
        daily_puzzle(dt.date(2027, 1, 1) + dt.timedelta(days=k)).start()


def test_bad_days_are_refused() -> None:
    with pytest.raises(DailyError, match="a day is a date"):
        daily_puzzle("2026-11-21")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- sharing


def _play(day: dt.date, plays: int, wrong_guess: bool, solve: bool) -> State:
    p = daily_puzzle(day)
    s = p.start()
    for _ in range(plays):
        s = apply(s, Play(0, (s.hand(0)[0],)))
    if wrong_guess:
        s = apply(s, Guess(0, "true"))
    if solve:
        s = apply(s, Guess(0, p.rule.text))
    return s


def test_the_share_text_is_short_deterministic_and_spoiler_free() -> None:
    s = _play(DAY, 6, True, True)
    text = share_text(s, DAY)
    assert text == share_text(_play(DAY, 6, True, True), DAY)
    head, row = text.split("\n")
    assert head == (
        "Eleusis daily 2026-11-21 (difficulty 4/5) — solved in 6 turns, 1 wrong guess, score 22"
    )
    plays = [e for e in s.events if e.kind == "play"]
    assert row == "".join("🟩" if e.right else "🟥" for e in plays)
    assert len(text) < 200
    rule = daily_rule(DAY)
    for secret in (rule.text, rule.name, rule.title, rule.description, rule.rule.english()):
        assert secret.lower() not in text.lower()
    for card in ALL_CARDS:
        assert not re.search(rf"(?<![0-9A-Z]){re.escape(card.code)}(?![0-9A-Z])", text)
        assert card.symbol not in text
    assert not any(ch in text for ch in "♠♥♦♣")


def test_share_text_for_unsolved_and_running_games() -> None:
    running = _play(DAY, 12, False, False)
    text = share_text(running, DAY)
    assert "in progress, 12 turns, 0 wrong guesses" in text
    assert text.split("\n")[1:] and all(len(line) <= 10 for line in text.split("\n")[1:])
    day = dt.date(2026, 11, 23)
    s = _play(day, 29, True, False)
    s = apply(s, Play(0, (s.hand(0)[0],)))
    assert s.phase.value == "final_guess"
    s = apply(s, Guess(0, "false"))
    assert s.over
    assert "not solved after 30 turns, 2 wrong guesses, score -4" in share_text(s, day)


def test_share_text_refuses_another_game() -> None:
    other = new_game(make_config("solo", ["You"], "card is red", 5))
    with pytest.raises(DailyError, match="not the daily puzzle of 2026-11-21"):
        share_text(other, DAY)
    with pytest.raises(DailyError):
        share_text(_play(DAY, 1, False, True), DAY + dt.timedelta(days=1))


# --------------------------------------------------------------------------- streaks


def test_results_and_streaks() -> None:
    won = DailyResult(True, 20, 8, 1)
    lost = DailyResult(False, -2, 30, 1)
    h = empty_history()
    d = dt.date(2026, 11, 1)
    for k in range(5):
        h = record_result(h, d + dt.timedelta(days=k), won)  # 1..5 solved
    h = record_result(h, d + dt.timedelta(days=5), lost)  # 6 lost
    for k in (6, 7):
        h = record_result(h, d + dt.timedelta(days=k), won)  # 7, 8 solved
    assert streak(h, dt.date(2026, 11, 8)) == 2
    assert streak(h, dt.date(2026, 11, 9)) == 2  # today not played yet: the streak holds
    assert streak(h, dt.date(2026, 11, 10)) == 0  # a day missed
    assert streak(h, dt.date(2026, 11, 6)) == 0  # played and not solved
    assert streak(h, dt.date(2026, 11, 5)) == 5
    assert best_streak(h) == 5
    assert best_streak(empty_history()) == 0


def test_recording_does_not_change_the_input_and_keeps_the_first_result() -> None:
    h = empty_history()
    h1 = record_result(h, DAY, DailyResult(True, 20, 8, 1))
    assert h == empty_history() and h1["days"] == {
        "2026-11-21": {"solved": True, "score": 20, "turns": 8, "wrong": 1}
    }
    h2 = record_result(h1, DAY, DailyResult(False, 0, 30, 0))
    assert h2 == h1
    assert validate_history(h2) == h2


def test_result_of_a_finished_game() -> None:
    s = _play(DAY, 6, True, True)
    assert result_of(s) == DailyResult(True, 22, 6, 1)
    with pytest.raises(DailyError, match="not a finished Solo game"):
        result_of(_play(DAY, 2, False, False))


def test_old_days_are_dropped_beyond_the_limit() -> None:
    days = {
        (dt.date(2000, 1, 1) + dt.timedelta(days=k)).isoformat():
            {"solved": True, "score": 1, "turns": 1, "wrong": 0}
        for k in range(MAX_HISTORY_DAYS)
    }
    h = record_result({"version": 1, "days": days}, dt.date(2030, 1, 1), DailyResult(True, 1, 1, 0))
    assert len(h["days"]) == MAX_HISTORY_DAYS
    assert "2000-01-01" not in h["days"] and "2030-01-01" in h["days"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (None, "must be an object"),
        ({"version": 2, "days": {}}, "format 2 is not known"),
        ({"version": 1, "days": []}, "'days' must be an object"),
        ({"version": 1, "days": {"2026-13-01": {}}}, "is not a date"),
        ({"version": 1, "days": {"yesterday": {}}}, "is not a date"),
        ({"version": 1, "days": {"2026-W47-6": {}}}, "is not a date"),
        ({"version": 1, "days": {"２０２６-11-21": {}}}, "is not a date"),
        ({"version": 1, "days": {"2026-11-21": []}}, "day 2026-11-21: a result must be an object"),
        ({"version": 1, "days": {"2026-11-21": {"solved": True}}}, "exactly solved"),
        ({"version": 1, "days": {"2026-11-21": {"solved": 1, "score": 1, "turns": 1,
                                                "wrong": 0}}}, "'solved'"),
        ({"version": 1, "days": {"2026-11-21": {"solved": True, "score": 1e9, "turns": 1,
                                                "wrong": 0}}}, "'score'"),
        ({"version": 1, "days": {"2026-11-21": {"solved": True, "score": 1, "turns": -1,
                                                "wrong": 0}}}, "'turns'"),
    ],
)
def test_bad_histories_are_refused_clearly(data: object, message: str) -> None:
    with pytest.raises(DailyError, match=message):
        validate_history(data)
    with pytest.raises(DailyError):
        streak(data, DAY)


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner,
                                                                max_size=3),
    max_leaves=10,
)


@settings(max_examples=150, deadline=None)
@given(
    st.fixed_dictionaries({
        "version": st.sampled_from([1, 1, 0]),
        "days": st.dictionaries(
            st.dates(dt.date(2020, 1, 1), dt.date(2030, 1, 1)).map(dt.date.isoformat)
            | st.text(max_size=10),
            st.fixed_dictionaries({"solved": st.booleans() | _json, "score": st.integers(-40, 40),
                                   "turns": st.integers(-1, 40), "wrong": st.integers(-1, 5)})
            | _json,
            max_size=4,
        ),
    })
    | _json
)
def test_any_stored_history_is_read_or_refused_with_a_daily_error(data: object) -> None:
    try:
        h = validate_history(data)
    except DailyError:
        return
    assert validate_history(h) == h
    assert 0 <= streak(h, dt.date(2025, 1, 1)) <= best_streak(h)
