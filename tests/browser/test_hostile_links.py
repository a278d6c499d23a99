"""Hostile links in the browser: the page survives them and the main thread is measured.

* the 107-character replay link whose notebook token inflates to 20,000 ``[``:
  in Pyodide the JSON parser's recursion would overflow the WebAssembly stack
  ("Pyodide has suffered a fatal error") long before Python's recursion limit,
  so only the browser shows that it is refused before parsing;
* short links of a flood of hints or guesses: refused before anything is
  applied, with the page's message;
* the worst link the bounds still let through (the most guesses a round may
  hold, each against a rule that reads four cards back): it opens, and the
  longest main-thread task is measured with ``PerformanceObserver`` and
  printed (``pytest -s``). The assertions are on behaviour; the figure is
  for the report.
"""

from __future__ import annotations

import re
import urllib.parse
from typing import Any

import pytest
from browser_support import assert_no_error
from playwright.sync_api import expect
from share_support import new_context, open_page, screen
from tests.share.hostile_support import (
    deep_notebook_link,
    guess_flood,
    hint_flood,
    replay_text,
    wrong_play_marathon,
)

from eleusis import replay
from eleusis.game import Play, apply, make_config, new_game
from eleusis.replay import encode

#: Installed once the page is up: the longest task since ``__longest`` was reset.
OBSERVE_JS = """() => {
  window.__longest = 0;
  window.__tasks = 0;
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) {
      window.__tasks += 1;
      window.__longest = Math.max(window.__longest, e.duration);
    }
  }).observe({type: 'longtask'});
}"""
#: Let the observer's callbacks run (they are delivered after the tasks they report).
SETTLE_JS = "() => new Promise(r => setTimeout(() => requestAnimationFrame(() => r(1)), 200))"


def short_replay() -> str:
    """A real Solo round of three plays (the replay the deep notebook rides on)."""
    state = new_game(make_config("solo", ["You"], "card is red", 3))
    for _ in range(3):
        state = apply(state, Play(0, (state.hand(0)[0],)))
    return encode(state)


def open_link(page: Any, fragment: str) -> float:
    """Go to ``fragment`` on the running page; the longest main-thread task (ms) it caused."""
    page.evaluate(OBSERVE_JS)
    page.evaluate(f"location.hash = {fragment!r}")
    page.wait_for_function(
        "() => document.querySelector('#game[data-screen=replay]') || "
        "document.querySelector('[data-testid=link-message]')", timeout=600_000)
    page.evaluate(SETTLE_JS)
    return float(page.evaluate("window.__longest"))


def usable(page: Any) -> None:
    """Python answers: the page reacts to a click (closing a replay or starting a game)."""
    if screen(page) == "replay":
        page.get_by_role("button", name="Close the replay").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_selector("#game[data-screen='table']", state="attached")
    assert_no_error(page)


def test_the_short_link_of_20000_brackets_leaves_the_page_alive(chromium: Any,
                                                                 site: str) -> None:
    _, token = deep_notebook_link()  # the notebook token of the 118-character link
    fragment = f"#r={short_replay()}&n={token}"
    assert len(fragment) < 160
    ctx = new_context(chromium)
    fatal: list[str] = []
    try:
        page = ctx.new_page()
        page.on("console", lambda m: fatal.append(m.text) if "fatal" in m.text.lower() else None)
        page.on("pageerror", lambda e: fatal.append(str(e)))
        page.goto(site + fragment)
        page.wait_for_selector("body[data-ready='1']", state="attached", timeout=120_000)
        page.wait_for_selector("#game[data-screen='replay']", state="attached")
        viewer = page.locator("#replay")
        expect(viewer).to_have_attribute("data-last", "3")
        page.get_by_role("button", name="Step ▶").click()  # Python still answers
        expect(viewer).to_have_attribute("data-step", "1")
        assert_no_error(page)
        usable(page)
        assert not fatal, fatal
    finally:
        ctx.close()


FLOODS = {
    "16000 hints (the issue's 37 s link)": (hint_flood(16000), "too many moves"),
    f"{replay.MAX_HINTS + 1} hints": (hint_flood(replay.MAX_HINTS + 1), "too many hints"),
    f"{replay.MAX_GUESSES + 1} deep guesses": (guess_flood(replay.MAX_GUESSES + 1),
                                               "too many guesses"),
    "a header claiming 99999 moves": (
        replay_text("solo", ["You"], "card is red", [], count=99_999), "too many moves"),
}


@pytest.mark.parametrize("name", list(FLOODS))
def test_a_flood_link_is_refused_with_a_message(chromium: Any, site: str, name: str) -> None:
    text, message = FLOODS[name]
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, site)
        # a link refused at its first character: the cost of the page's own answer (imports
        # on first use, drawing the message), to read the figure below against
        baseline = open_link(page, "#r=%%%")
        longest = open_link(page, "#r=" + text)
        print(f"\n{name}: {len('#r=' + text)} characters, refused; longest main-thread task "
              f"{longest:.0f} ms (a link refused at once: {baseline:.0f} ms)")
        expect(page.get_by_test_id("link-message")).to_contain_text(message)
        assert screen(page) == "setup"
        usable(page)
    finally:
        ctx.close()


#: The longest legal log within the deck bound: endless wrong plays (the engine's work per
#: move grows with the log, so this is the worst a link can ask of it without guesses).
MARATHON_MOVES = 795


def test_the_longest_legal_link_within_the_bounds_opens_and_is_measured(
    chromium: Any, site: str
) -> None:
    fragment = "#r=" + wrong_play_marathon(MARATHON_MOVES)
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, site)
        baseline = open_link(page, "#r=%%%")
        longest = open_link(page, fragment)
        print(f"\nlongest legal link ({MARATHON_MOVES} moves of wrong plays, "
              f"{len(fragment)} characters): longest main-thread task {longest:.0f} ms "
              f"(a link refused at once: {baseline:.0f} ms)")
        assert screen(page) == "replay"
        expect(page.locator("#replay")).to_have_attribute("data-last", str(MARATHON_MOVES))
        usable(page)
    finally:
        ctx.close()


def test_the_worst_link_within_the_bounds_opens_and_its_longest_task_is_measured(
    chromium: Any, site: str
) -> None:
    """The most guesses a round may hold, each judged by an exact comparison with a rule
    that reads four cards back: the worst work a link can still ask for."""
    text = guess_flood(replay.MAX_GUESSES)
    fragment = "#r=" + text
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, site)
        baseline = open_link(page, "#r=%%%")
        longest = open_link(page, fragment)
        print(f"\nworst link ({replay.MAX_GUESSES} guesses against a look-back-4 rule, "
              f"{len(fragment)} characters, {len(urllib.parse.quote(fragment))} escaped): "
              f"longest main-thread task {longest:.0f} ms (a link refused at once: "
              f"{baseline:.0f} ms)")
        assert screen(page) == "replay"
        expect(page.locator("#replay")).to_have_attribute("data-last", str(replay.MAX_GUESSES))
        usable(page)
    finally:
        ctx.close()


def test_a_long_link_shows_how_far_it_got_and_the_page_answers_meanwhile(
    chromium: Any, site: str
) -> None:
    """The worst link is decoded in time slices: the progress screen is drawn at once, and
    "Stop" (a click while the guesses' comparisons are being worked out) is answered."""
    fragment = "#r=" + guess_flood(replay.MAX_GUESSES)
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, site)
        page.evaluate(f"location.hash = {fragment!r}")
        page.wait_for_selector("#game[data-screen='replay-loading']", state="attached")
        expect(page.get_by_role("heading", name="Opening the replay")).to_be_visible()
        progress = page.get_by_test_id("replay-progress")
        expect(progress).to_have_attribute("max", str(replay.MAX_GUESSES))
        page.get_by_role("button", name="Stop").click()
        page.wait_for_selector("#game[data-screen='setup']", state="attached")
        assert page.evaluate("location.hash") == ""
        expect(page.get_by_test_id("link-message")).to_have_count(0)
        usable(page)
    finally:
        ctx.close()


def test_a_deep_guess_at_the_table_is_judged_in_slices_with_the_engine_s_verdict(
    chromium: Any, site: str
) -> None:
    """A guess against a rule that reads four cards back takes an exact comparison of
    seconds: the page says it is judging, then shows the verdict the engine gives."""
    from share_support import mainline, url
    from tests.share.hostile_support import DEEP_RULE

    from eleusis.variants.base import guess_verdict

    text = "card.rank + prev.rank + prev2.rank + prev3.rank + prev4.rank != 21"
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, url(site, variant="solo", seed=5, rule=DEEP_RULE))
        page.get_by_role("button", name="Start", exact=True).click()
        page.wait_for_selector("#game[data-screen='table']", state="attached")
        line = mainline(page)
        page.get_by_role("button", name="Guess the rule").click()
        page.get_by_label("Your guess, in words or in the rule language").fill(text)
        page.get_by_role("button", name="Submit guess").click()
        expect(page.locator("#game")).to_contain_text("Judging your guess")
        verdict = page.get_by_test_id("verdict")
        expect(verdict).to_be_visible(timeout=600_000)
        right, why = guess_verdict(DEEP_RULE, text, line)
        assert not right
        expect(verdict).to_contain_text(re.compile(re.escape(why), re.IGNORECASE))
        expect(page.locator("#game")).not_to_contain_text("Judging your guess")
        assert_no_error(page)
    finally:
        ctx.close()
