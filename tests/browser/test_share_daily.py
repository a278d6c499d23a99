"""The daily puzzle: the same rule and deal for everyone on a date, another on another date."""

from __future__ import annotations

import datetime as dt
from typing import Any

from browser_support import assert_no_error
from playwright.sync_api import expect
from share_support import guess, hand, mainline, new_context, open_page, url

from eleusis.daily import daily_puzzle

DAY = dt.date(2026, 11, 21)
OTHER = dt.date(2026, 11, 22)


def start_daily(page: Any) -> None:
    page.get_by_role("button", name="Daily puzzle", exact=True).click()
    page.wait_for_selector("#game[data-screen='table']", state="attached")


def deal_of(chromium: Any, site: str, day: dt.date) -> tuple[list[str], list[str]]:
    """The hand and mainline the page deals for ``day`` in a fresh context."""
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, url(site, date=day.isoformat()))
        start_daily(page)
        return sorted(hand(page)), [c.code for c in mainline(page)]
    finally:
        ctx.close()


def test_same_deal_in_two_contexts_other_deal_on_another_day(chromium: Any, site: str) -> None:
    first = deal_of(chromium, site, DAY)
    second = deal_of(chromium, site, DAY)
    assert first == second
    start = daily_puzzle(DAY).start()  # the engine in CPython agrees with the page
    assert first == (sorted(c.code for c in start.hand(0)), [c.code for c in start.mainline])
    assert deal_of(chromium, site, OTHER) != first


def test_daily_rule_result_text_and_streak(chromium: Any, site: str) -> None:
    puzzle = daily_puzzle(DAY)
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, url(site, date=DAY.isoformat()))
        expect(page.locator(".daily-entry")).to_contain_text("Streak 0")
        start_daily(page)
        guess(page, "card is red and card is black")  # a wrong guess first
        page.wait_for_selector("[data-testid=verdict]")
        guess(page, puzzle.rule.text)
        page.wait_for_selector("#game[data-screen='round-end']", state="attached")
        expect(page.get_by_test_id("rule")).to_have_text(puzzle.rule.text)
        text = page.get_by_role("textbox", name="Daily result").input_value()
        assert text.startswith(f"Eleusis daily {DAY.isoformat()}")
        assert "1 wrong guess" in text
        assert puzzle.rule.text not in text
        expect(page.get_by_test_id("streak")).to_have_text("Streak: 1 day · best 1")
        # the other day's puzzle is another rule
        assert daily_puzzle(OTHER).rule.text != puzzle.rule.text
        # a damaged streak record is reset with a message, never an error
        page.evaluate("localStorage.setItem('eleusis.daily', '{broken')")
        page.get_by_role("button", name="New game").click()
        expect(page.locator(".daily-entry .notice")).to_contain_text("damaged")
        assert_no_error(page)
    finally:
        ctx.close()
