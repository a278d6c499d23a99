"""The table's last items in the browser: ending a match early, the "try a card" picker.

A match with finished rounds is prepared under CPython (random one-card plays
through the engine) and put in localStorage as the saved game to continue, as
a reload would find it; the page resumes it. The ``site`` and ``chromium``
fixtures are the shared ones of ``conftest.py``.
"""

from __future__ import annotations

import json
import random
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from eleusis.game import Play, apply, legal_actions
from eleusis_web.controller import Controller, first_waiting
from eleusis_web.session import SeatPlan, Setup
from eleusis_web.storage import MemoryStorage, Saves, title_of

BOOT_MS = 120_000
ALT = "if prev is odd then card is red else card is black"


def match_saved(rounds_done: int, running: bool) -> dict[str, str]:
    """localStorage items: a New Eleusis match of 3 (you, Ada, Kepler), ``rounds_done``
    rounds finished, and (``running``) the next one begun with a few moves."""
    c = Controller(lambda: 17)
    c.ui.setup = Setup(variant="new_eleusis", seed=17, rule=ALT, pace="slow", match=True,
                       seats=[SeatPlan("You", "you"), SeatPlan("Ada", "computer", "novice"),
                              SeatPlan("Kepler", "computer", "novice")])
    c.dispatch({"type": "start", "seed": 17})
    s = c.session
    assert s is not None
    rng = random.Random(4)

    def playing(stop: Any) -> None:
        st = s.state
        while not stop(st):
            seat = first_waiting(st)
            assert seat is not None
            legal = legal_actions(st, seat)
            hand = sorted(st.hand(seat), key=lambda x: x.sort_key)
            st = apply(st, Play(seat, (rng.choice(hand),)) if legal.max_cards
                       else legal.actions[0])
        s.update(st)
        c.dispatch({"type": "show_table"})

    for k in range(rounds_done):
        playing(lambda st: st.over)
        if k + 1 < rounds_done or running:
            c.dispatch({"type": "next_round"})
    if running:  # stop when it is your turn to play
        playing(lambda st: st.over or (len(st.actions) > 3 and first_waiting(st) == 0))
        assert not s.state.over
    store = MemoryStorage()
    Saves(store).write(s.to_data(), title_of(s))
    return dict(store.data)


@pytest.fixture
def narrow(chromium: Browser) -> Iterator[Any]:
    """Open pages at phone size (360 x 740) with given localStorage items; errors collected."""
    contexts: list[Any] = []

    def open_page(site: str, items: dict[str, str] | None = None, **params: Any) -> Page:
        context = chromium.new_context(viewport={"width": 360, "height": 740},
                                       service_workers="block", has_touch=True)
        contexts.append(context)
        if items:
            context.add_init_script(
                "(() => { if (sessionStorage.getItem('seeded')) return;"
                " sessionStorage.setItem('seeded', '1');"
                f" const d = {json.dumps(items)};"
                " for (const k in d) localStorage.setItem(k, d[k]); })()")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors  # type: ignore[attr-defined]
        page.goto(site + ("?" + urllib.parse.urlencode(params) if params else ""))
        page.wait_for_selector("body[data-ready='1']", state="attached", timeout=BOOT_MS)
        page.wait_for_selector("#game[data-screen]", state="attached", timeout=BOOT_MS)
        return page

    yield open_page
    for context in contexts:
        context.close()


def no_errors(page: Page) -> None:
    """No error panel, no PyScript error banner, no uncaught page error."""
    expect(page.locator("#error-panel")).to_be_hidden()
    assert page.locator(".py-error").count() == 0
    assert not page.errors, page.errors  # type: ignore[attr-defined]


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_end_match_during_a_round_asks_then_shows_the_compensation(narrow: Any,
                                                                   site: str) -> None:
    page = narrow(site, match_saved(1, running=True))
    expect(page.locator("#game")).to_have_attribute("data-screen", "table")
    end = page.get_by_role("button", name="End match", exact=True)
    expect(end).to_be_visible()
    end.click()
    ask = page.get_by_role("alertdialog")
    expect(ask).to_contain_text("round is not finished and will not count")
    # "Keep playing" takes the question away and changes nothing
    page.get_by_role("button", name="Keep playing").click()
    expect(page.get_by_role("alertdialog")).to_have_count(0)
    expect(page.locator("#game")).to_have_attribute("data-screen", "table")

    page.get_by_role("button", name="End match", exact=True).click()
    page.get_by_role("button", name="End the match", exact=True).click()
    expect(page.locator("#game")).to_have_attribute("data-screen", "round-end")
    summary = page.get_by_test_id("match-summary")
    expect(summary).to_contain_text("ended early, after 1 of 3 rounds")
    rows = summary.locator("tbody tr")
    expect(rows).to_have_count(3)
    # you and Kepler never dealt (Ada dealt round 1): +10 each, on a line of its own
    for i, comp in ((0, True), (1, False), (2, True)):
        lines = rows.nth(i).locator(".breakdown li")
        if comp:
            expect(lines.last).to_have_text("Compensation (never dealt): +10")
        else:
            expect(rows.nth(i).locator(".breakdown .compensation")).to_have_count(0)
    # the totals include it
    total = int(rows.nth(0).locator(".total").text_content() or "0")
    you_round = int((rows.nth(0).locator(".breakdown li").first.text_content() or "")
                    .rsplit(": ", 1)[1])
    assert total == you_round + 10
    expect(page.get_by_role("button", name="Play again")).to_be_visible()
    expect(page.get_by_role("button", name="End match", exact=True)).to_have_count(0)
    no_sideways_scroll(page)

    # a reload shows the same summary (the save remembers the match was ended)
    page.reload()
    page.wait_for_selector("#game[data-screen='round-end']", state="attached", timeout=BOOT_MS)
    expect(page.get_by_test_id("match-summary")).to_contain_text(
        "Compensation (never dealt): +10")
    no_errors(page)


def test_end_the_match_between_rounds_from_the_score_sheet(narrow: Any, site: str) -> None:
    page = narrow(site, match_saved(1, running=False))
    expect(page.locator("#game")).to_have_attribute("data-screen", "round-end")
    page.get_by_role("button", name="End the match here").click()
    expect(page.get_by_role("alertdialog")).to_contain_text("The finished round counts")
    # the focus moved to the safe answer
    assert page.evaluate("document.activeElement.textContent") == "Keep playing"
    page.get_by_role("button", name="End the match", exact=True).click()
    expect(page.get_by_test_id("match-summary")).to_contain_text(
        "Compensation (never dealt): +10")
    expect(page.get_by_role("heading", level=2)).to_contain_text("the match is over")
    no_errors(page)


def test_the_score_sheets_buttons_stay_put_when_the_computers_thoughts_arrive(
        narrow: Any, site: str) -> None:
    """The computers' thoughts are worked out after the score sheet is drawn; they
    arrive under its buttons, so a player aiming at one never clicks the thoughts."""
    page = narrow(site, match_saved(1, running=False))
    expect(page.locator("#game")).to_have_attribute("data-screen", "round-end")
    end = page.get_by_role("button", name="End the match here")
    before = end.bounding_box()
    thoughts = page.locator(".thoughts")
    thoughts.wait_for(state="attached")
    after, below = end.bounding_box(), thoughts.bounding_box()
    assert before is not None and after is not None and below is not None
    assert (after["x"], after["y"]) == (before["x"], before["y"])
    assert below["y"] >= after["y"] + after["height"]
    no_errors(page)


def test_try_a_card_is_finger_sized_and_keyboard_reachable(narrow: Any, site: str) -> None:
    page = narrow(site, dealer="writer", seed="3")
    page.get_by_role("button", name="Start", exact=True).click()
    page.locator("[data-key=writer-ready]").click()
    page.get_by_role("textbox", name="Secret rule").fill("card.suit != prev.suit")
    suits = page.locator(".try-suits button")
    expect(suits).to_have_count(4)
    cards = page.locator(".try-grid button")
    expect(cards).to_have_count(13)
    for loc in (suits, cards):
        for box in loc.evaluate_all(
                "els => els.map(e => { const r = e.getBoundingClientRect();"
                " return [r.width, r.height]; })"):
            assert box[0] >= 40 and box[1] >= 40, box
    no_sideways_scroll(page)

    # keyboard only: hearts, then the 7 of hearts
    page.locator("[data-key=trys-H]").focus()
    page.keyboard.press("Enter")
    expect(page.locator("[data-key=trys-H]")).to_have_attribute("aria-pressed", "true")
    expect(cards.first).to_have_attribute("aria-label", "ace of hearts: right next")
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.key") == "try-7H":
            break
    page.keyboard.press("Enter")
    expect(page.locator(".try-line .card")).to_have_count(1)
    expect(page.locator(".try-line .card")).to_have_attribute("aria-label", "7 of hearts")
    # after a heart, no heart is right; the suit button says so
    expect(page.locator("[data-key=trys-H]")).to_have_attribute("aria-label",
                                                               "Hearts: 0 of 13 right")
    expect(page.locator("[data-key=trys-S]")).to_have_attribute("aria-label",
                                                               "Spades: 13 of 13 right")
    assert page.evaluate("document.activeElement.dataset.key") == "try-7H"
    no_errors(page)
