"""Hostile strings in links: names, hints, notebook entries and challenge authors are text.

The links are built with the engine (the rule must parse, so the hostile text
rides in seat names, a person dealer's hints, notebook entries and a challenge's
author): script tags, event-handler attributes, ``javascript:`` URLs, very long
strings, control characters and bidi overrides. Opening them must run no
script (``window.__pwned`` stays unset, no dialog opens), insert no element
from the text, show the text as text, and leave the page usable.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import assert_no_error
from playwright.sync_api import expect
from share_support import new_context, open_page, screen

from eleusis.challenge import make_challenge
from eleusis.game import Hint, Play, apply, legal_actions, make_config, new_game
from eleusis.notebook import Notebook
from eleusis.replay import encode

PWN = "window.__pwned=1"
NAMES = [
    f"<script>{PWN}</script>",
    f'<img src=x onerror="{PWN}">',
    f"javascript:{PWN}//"[:40],
    "\x00\x07\x1b[31m\u202e\u200b\ufeffctl",
]
HINTS = [
    f'<svg onload="{PWN}"></svg>',
    f'"><iframe src="javascript:{PWN}"></iframe>',
    "<b>bold?</b> " + "&lt;" * 40 + "&#x3C;script&#x3E;" + "L" * 400,
    "\x00\x1b[2J\u202e\r\nline two\ttab",
]
NOTES = [f"<script>{PWN}</script>", f"card is red and <img onerror={PWN}>", "x" * 600]


def hostile_replay() -> str:
    """A New Eleusis round with hostile names, hints, and one play."""
    cfg = make_config("new_eleusis", NAMES, "card is red", 11, dealer=0)
    state = new_game(cfg)
    for text in HINTS:
        state = apply(state, Hint(0, text=text))
    seat = state.turn
    if "play" in legal_actions(state, seat).kinds:
        card = next((c for c in state.hand(seat) if c.red), state.hand(seat)[0])
        state = apply(state, Play(seat, cards=(card,)))
    return encode(state)


def hostile_notebook() -> str:
    """A notebook token whose entries and notes are hostile."""
    nb = Notebook()
    for text in NOTES:
        nb = nb.add(text, note=f"<a href='javascript:{PWN}'>x</a>")
    return nb.to_token()


def assert_untouched(page: Any, dialogs: list[str]) -> None:
    """No script ran, no element came from a text, the page still answers."""
    assert page.evaluate("window.__pwned") is None
    assert dialogs == []
    injected = page.evaluate(
        "document.querySelectorAll('#game script, #game img, #game iframe, #game svg, "
        "#game b, #game a[href^=\"javascript\"]').length")
    assert injected == 0
    assert_no_error(page)
    assert not page.errors, page.errors


def open_hostile(chromium: Any, link: str) -> tuple[Any, Any, list[str]]:
    ctx = new_context(chromium)
    dialogs: list[str] = []
    ctx.on("page", lambda p: p.on("dialog", lambda d: (dialogs.append(d.message),
                                                       d.dismiss())))
    page = open_page(ctx, link)
    return ctx, page, dialogs


def test_hostile_replay_link_shows_text_only(chromium: Any, site: str) -> None:
    ctx, page, dialogs = open_hostile(
        chromium, f"{site}#r={hostile_replay()}&n={hostile_notebook()}")
    try:
        assert screen(page) == "replay"
        players = page.locator(".replay-players")
        expect(players).to_contain_text(NAMES[0])
        expect(players).to_contain_text(NAMES[1])
        # step to the last move (every hint given), then leave and play: the page is usable
        page.get_by_role("button", name="Last").click()
        expect(page.locator("#replay")).to_have_attribute(
            "data-step", str(page.locator("#replay").get_attribute("data-last")))
        text = str(page.locator("#replay").text_content())
        assert "<svg onload=" in text and "<iframe" in text and "L" * 400 in text
        assert NOTES[0] in text
        assert "\u202e" not in text and "\x00" not in text  # shown as "\ufffd"
        # very long words wrap: the page never scrolls sideways
        assert page.evaluate(
            "document.documentElement.scrollWidth <= window.innerWidth + 1"), \
            page.evaluate("document.documentElement.scrollWidth")
        assert_untouched(page, dialogs)
        page.get_by_role("button", name="Close the replay").click()
        page.get_by_role("button", name="Start", exact=True).click()
        page.wait_for_selector("#game[data-screen='table']", state="attached")
        assert_untouched(page, dialogs)
    finally:
        ctx.close()


@pytest.mark.parametrize("fragment", [
    f"#r=<script>{PWN}</script>",
    f"#r=javascript:{PWN}",
    "#r=" + "A" * 5000,
    "#c=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
    "#r=\u202e\u0000",
])
def test_hostile_fragments_are_refused_cleanly(chromium: Any, site: str,
                                                fragment: str) -> None:
    ctx, page, dialogs = open_hostile(chromium, site + fragment)
    try:
        expect(page.get_by_test_id("link-message")).to_be_visible()
        assert screen(page) == "setup"
        assert_untouched(page, dialogs)
    finally:
        ctx.close()


def test_hostile_challenge_author_is_text(chromium: Any, site: str) -> None:
    token = make_challenge("card is red", 99, f'<img src=x onerror="{PWN}">'[:40])
    ctx, page, dialogs = open_hostile(chromium, f"{site}#c={token}")
    try:
        assert screen(page) == "table"
        expect(page.locator("#status")).to_contain_text("<img src=x")
        assert_untouched(page, dialogs)
    finally:
        ctx.close()
