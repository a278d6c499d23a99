"""Poisoned localStorage: each key in turn, then a reload; the page always boots usable.

A game is played and saved, then one stored value is replaced by something
hostile or unlucky (20,000 ``[``, seats and kinds that disagree, a creation
time of 1e300, NaN, an unknown computer strength, a round of 16,000 hints,
the calendar's last day in the streak history, ...). After a reload the page
must show no error panel and reach a usable screen: the "New game" screen
(heading by name) from which a game starts. A saved game that cannot be
continued is set aside with a note, never resumed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_support import assert_no_error
from playwright.sync_api import expect
from share_support import new_context, open_page, screen, url, wait_table
from tests.share.hostile_support import hint_flood

DEEP = "[" * 20000
DAY = {"solved": True, "score": 20, "turns": 8, "wrong": 1}


def _entry_with(entry: dict[str, Any], how: str) -> str:
    game = entry["game"]
    if how == "deep":
        return DEEP
    if how == "not-json":
        return "{\"format\": \"eleusis-save\""
    if how == "kinds":
        game["kinds"] = [*game["kinds"], "computer", "computer"]
    elif how == "created-1e300":
        game["created"] = 1e300
    elif how == "created-NaN":
        return json.dumps(entry).replace('"created":', '"created":NaN,"x":', 1)
    elif how == "strength":
        game["setup"]["seats"][0]["strength"] = "grandmaster"
    elif how == "hint-flood":
        game["rounds"] = [hint_flood(16000)]
    elif how == "setup-list":
        game["setup"] = [1, 2, 3]
    return json.dumps(entry, separators=(",", ":"))


SAVE_POISONS = ["deep", "not-json", "kinds", "created-1e300", "created-NaN", "strength",
                "hint-flood", "setup-list"]
OTHER_POISONS = {
    "current: a missing id": ("eleusis.current", "no-such-game"),
    "current: 200,000 characters": ("eleusis.current", "x" * 200_000),
    "daily: the calendar's last and first days": (
        "eleusis.daily", json.dumps({"version": 1, "days": {"9999-12-31": DAY,
                                                            "0001-01-01": DAY}})),
    "daily: not JSON": ("eleusis.daily", "{\"version\": 1, \"days\""),
    "daily: a day that is not one": ("eleusis.daily",
                                     json.dumps({"version": 1, "days": {"2026-02-30": DAY}})),
    "corrupt copy: 20,000 [": ("eleusis.corrupt.g1", DEEP),
    "daily: 20,000 [": ("eleusis.daily", DEEP),
}


def saved_game(page: Any) -> tuple[str, dict[str, Any]]:
    """Start a Solo game and play one card; its id and stored entry."""
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_selector("#game[data-screen='table']", state="attached")
    page.locator(".hand .card").first.click()
    page.get_by_role("button", name="Play", exact=True).click()
    page.wait_for_function("() => localStorage.getItem('eleusis.current') !== null && "
                           "localStorage.getItem('eleusis.save.' + "
                           "localStorage.getItem('eleusis.current')).includes('\"rounds\"')")
    sid = str(page.evaluate("localStorage.getItem('eleusis.current')"))
    return sid, json.loads(str(page.evaluate(f"localStorage.getItem('eleusis.save.{sid}')")))


def reload_usable(page: Any) -> None:
    """Reload: no error, then the "New game" screen is reached and a game starts from it."""
    page.reload()
    wait_table(page)
    assert_no_error(page)
    if screen(page) != "setup":
        page.get_by_role("button", name="New game", exact=True).click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_selector("#game[data-screen='table']", state="attached")
    assert_no_error(page)
    assert not [e for e in page.errors if "fatal" in e.lower()], page.errors


def _poison(page: Any, key: str, value: str) -> None:
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, value])


@pytest.mark.parametrize("how", SAVE_POISONS)
def test_a_poisoned_saved_game_is_set_aside_and_the_page_boots(chromium: Any, site: str,
                                                              how: str) -> None:
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, url(site, variant="solo", seed=8, pace="instant"))
        sid, entry = saved_game(page)
        value = _entry_with(entry, how)
        _poison(page, f"eleusis.save.{sid}", value)
        page.reload()
        wait_table(page)
        assert_no_error(page)
        assert screen(page) == "setup"  # the poisoned game was not resumed
        expect(page.get_by_text("was set aside")).to_be_visible()
        stored = page.evaluate("Object.keys(localStorage)")
        assert f"eleusis.save.{sid}" not in stored and f"eleusis.corrupt.{sid}" in stored
        assert page.evaluate(f"localStorage.getItem('eleusis.corrupt.{sid}')") == value
        assert page.evaluate("localStorage.getItem('eleusis.current')") is None
        reload_usable(page)
    finally:
        ctx.close()


@pytest.mark.parametrize("name", list(OTHER_POISONS))
def test_other_poisoned_keys_leave_the_page_usable(chromium: Any, site: str, name: str) -> None:
    key, value = OTHER_POISONS[name]
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, url(site, variant="solo", seed=8, pace="instant"))
        saved_game(page)
        _poison(page, key, value)
        reload_usable(page)
    finally:
        ctx.close()


@pytest.mark.parametrize("day", ["0001-01-01", "9999-12-31"])
def test_a_daily_link_on_the_calendars_edges_opens(chromium: Any, site: str, day: str) -> None:
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, url(site, date=day))
        expect(page.locator(".daily-entry")).to_contain_text("Streak 0")
        page.get_by_role("button", name="Daily puzzle", exact=True).click()
        page.wait_for_selector("#game[data-screen='table']", state="attached")
        assert_no_error(page)
        _poison(page, "eleusis.daily", json.dumps({"version": 1, "days": {day: DAY}}))
        page.reload()
        wait_table(page)
        assert_no_error(page)
        if screen(page) != "setup":
            page.get_by_role("button", name="New game", exact=True).click()
        expect(page.locator(".daily-entry")).to_contain_text("Streak 1")  # that day, solved
        assert_no_error(page)
    finally:
        ctx.close()


def test_a_saved_game_of_deep_guesses_is_decoded_in_slices_and_resumed(
    chromium: Any, site: str
) -> None:
    """Loading a save replays each recorded guess's exact comparison (seconds for a rule
    that reads four cards back): the page decodes the rounds in timer slices first,
    then resumes the game whole."""
    from tests.share.hostile_support import deep_guess_save

    items = deep_guess_save(6)
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, site)
        page.evaluate("items => { for (const [k, v] of Object.entries(items)) "
                      "localStorage.setItem(k, v); }", items)
        page.reload()
        page.wait_for_selector("body[data-ready='1']", state="attached")
        page.wait_for_selector("#game[data-screen='table']", state="attached",
                               timeout=600_000)
        expect(page.locator("#game")).to_contain_text("6 wrong guesses")
        expect(page.get_by_text("was set aside")).to_have_count(0)
        assert_no_error(page)
    finally:
        ctx.close()
