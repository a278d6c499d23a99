"""Helpers of the share tests (``test_share_*.py``): open the page, play a short Solo round."""

from __future__ import annotations

import urllib.parse
from typing import Any

from browser_support import BOOT_TIMEOUT_MS

from eleusis.cards import Card
from eleusis.rules import parse

RED = "card is red"
VIEWPORT = {"width": 1280, "height": 800}


def new_context(chromium: Any, **kw: Any) -> Any:
    """A fresh context (empty storage) at desktop size; service workers blocked unless asked."""
    kw.setdefault("service_workers", "block")
    kw.setdefault("viewport", VIEWPORT)
    ctx = chromium.new_context(**kw)
    ctx.set_default_timeout(BOOT_TIMEOUT_MS)
    return ctx


def open_page(ctx: Any, url: str) -> Any:
    """A new page of ``ctx`` at ``url``, waited until the table's first screen; errors kept."""
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(url)
    wait_table(page)
    return page


def wait_table(page: Any) -> None:
    """Python up and the table's first screen drawn."""
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=BOOT_TIMEOUT_MS)
    page.wait_for_selector("#game[data-screen]", state="attached", timeout=BOOT_TIMEOUT_MS)


def screen(page: Any) -> str:
    """The screen shown (setup, table, round-end, replay, ...)."""
    return str(page.locator("#game").get_attribute("data-screen"))


def url(site: str, **params: Any) -> str:
    """The site with new-game presets in its query."""
    return site + ("?" + urllib.parse.urlencode(params) if params else "")


def hand(page: Any) -> list[str]:
    """The codes of the hand shown, once it is drawn.

    A player waits for the cards to show, and so does this: once, on a busy
    machine, a challenge link just reopened was read as an empty hand (the
    table marked, no card found). A hand that never shows fails on the timeout.
    """
    cards = page.locator(".hand .card")
    cards.first.wait_for(state="attached")
    return [str(x) for x in cards.evaluate_all("els => els.map(e => e.dataset.code)")]


def mainline(page: Any) -> list[Card]:
    """The mainline cards, left to right."""
    codes = page.locator("#layout .mainline-card").evaluate_all(
        "els => els.map(e => e.dataset.code)")
    return [Card.parse(str(c)) for c in codes]


def pick(page: Any, rule_text: str, right: bool) -> str | None:
    """A card of the hand that ``rule_text`` accepts (``right``) or refuses next."""
    rule = parse(rule_text)
    line = mainline(page)
    for code in hand(page):
        if rule.accepts(line, Card.parse(code)) == right:
            return code
    return None


def play(page: Any, code: str) -> None:
    """Select a card, press Play, wait for the move to be recorded."""
    before = page.locator("#game").get_attribute("data-turns")
    page.locator(f".hand .card[data-code='{code}']").first.click()
    page.get_by_role("button", name="Play", exact=True).click()
    page.wait_for_function(
        f"document.getElementById('game').dataset.turns !== '{before}'")


def guess(page: Any, text: str) -> None:
    """Open the guess editor, write ``text``, submit."""
    page.get_by_role("button", name="Guess the rule").click()
    box = page.get_by_label("Your guess, in words or in the rule language")
    box.fill(text)
    page.get_by_role("button", name="Submit guess").click()


def play_solo_round(page: Any, rule_text: str, plays: int = 3, wrong: int = 1,
                    wrong_guess: str | None = "card is hearts") -> None:
    """Play a Solo round on the table: right and wrong cards, a wrong guess, the right one."""
    for i in range(plays):
        code = pick(page, rule_text, i >= plays - wrong)
        if code is None:
            code = pick(page, rule_text, True)
        assert code is not None
        play(page, code)
    if wrong_guess:
        guess(page, wrong_guess)
        page.wait_for_selector("[data-testid=verdict]")
    guess(page, rule_text)
    page.wait_for_selector("#game[data-screen='round-end']", state="attached")
