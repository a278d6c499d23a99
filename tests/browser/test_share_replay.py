"""Replay links in the browser: share at the end of a round, open anywhere, step through.

* the end of a round offers "Share replay" (copies the link) and shows it in a
  read-only field labelled "Replay link";
* the link opened in a fresh context (no saved state) shows the viewer; stepping
  to the end gives the same final scores as the round's end;
* the same link opens with the network off after one visit (service worker);
* the engine's pinned replay decodes in Pyodide to the same state hash as in
  CPython (issue 4: the same seed and actions give the same final state);
* a truncated or tampered link shows a clear message and the normal page.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import assert_no_error
from playwright.sync_api import expect
from share_support import RED, new_context, open_page, play_solo_round, screen, url, wait_table
from tests.engine.test_replay import PINNED_HASH, PINNED_REPLAY


def scores_of(page: Any, table_name: str) -> list[tuple[str, str]]:
    """(player, score) rows of the named scores table."""
    rows = page.get_by_role("table", name=table_name).locator("tbody tr")
    return [(str(r.locator("th").text_content()), str(r.locator("td.num").first.text_content()))
            for r in rows.all()]


def finished_round_link(chromium: Any, site: str) -> tuple[str, list[tuple[str, str]]]:
    """Play a Solo round, press "Share replay"; the link (also on the clipboard) and scores."""
    ctx = new_context(chromium)
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.rstrip("/"))
    try:
        page = open_page(ctx, url(site, variant="solo", seed=42, rule=RED, pace="instant"))
        page.get_by_role("button", name="Start", exact=True).click()
        page.wait_for_selector("#game[data-screen='table']", state="attached")
        play_solo_round(page, RED)
        scores = scores_of(page, "Scores")
        page.get_by_role("button", name="Share replay").click()
        expect(page.locator(".share-note")).to_contain_text("copied")
        field = page.get_by_label("Replay link")
        expect(field).to_have_attribute("readonly", "")
        link = field.input_value()
        assert link.startswith(site) and "#r=" in link
        assert page.evaluate("navigator.clipboard.readText()") == link
        assert_no_error(page)
        return link, scores
    finally:
        ctx.close()


def test_share_replay_then_step_through_in_a_fresh_context(chromium: Any, site: str) -> None:
    link, scores = finished_round_link(chromium, site)
    assert [name for name, _ in scores] == ["You"]
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, link)
        assert screen(page) == "replay"
        viewer = page.locator("#replay")
        last = int(str(viewer.get_attribute("data-last")))
        assert last == 5  # 3 plays, 2 guesses
        expect(page.get_by_test_id("replay-step")).to_have_text(f"Move 0 of {last}")
        for k in range(1, last + 1):
            page.get_by_role("button", name="Step ▶").click()
            expect(viewer).to_have_attribute("data-step", str(k))
        expect(page.get_by_role("button", name="Step ▶")).to_have_attribute(
            "aria-disabled", "true")
        assert scores_of(page, "Final scores") == scores
        expect(page.get_by_test_id("replay-rule")).to_have_text(RED)
        # back, the scrubber, and play
        page.get_by_role("button", name="First").click()
        expect(viewer).to_have_attribute("data-step", "0")
        page.locator("#replay-scrubber").evaluate(
            "(el) => { el.value = '2'; el.dispatchEvent(new Event('change', {bubbles: true})); }")
        expect(viewer).to_have_attribute("data-step", "2")
        assert page.locator("#layout, .replay .layout .mainline-card").count() >= 1
        page.get_by_role("button", name="▶ Play").click()
        expect(viewer).to_have_attribute("data-step", str(last), timeout=30_000)
        # no saved state was needed, and none was written
        assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith("
                             "'eleusis.save.')).length") == 0
        page.get_by_role("button", name="Close the replay").click()
        expect(page.locator("#game")).to_have_attribute("data-screen", "setup")
        assert "#r=" not in page.url
        assert_no_error(page)
        assert not page.errors
    finally:
        ctx.close()


def test_pinned_replay_same_hash_in_pyodide(chromium: Any, site: str) -> None:
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, site + "#r=" + PINNED_REPLAY)
        viewer = page.locator("#replay")
        expect(viewer).to_have_attribute("data-state-hash", PINNED_HASH)
        expect(page.get_by_role("table", name="Final scores")).to_contain_text("Ada")
        assert_no_error(page)
    finally:
        ctx.close()


@pytest.mark.parametrize("damage", ["truncated", "tampered", "garbage"])
def test_bad_link_says_so_and_the_page_works(chromium: Any, site: str, damage: str) -> None:
    text = {
        "truncated": PINNED_REPLAY[: len(PINNED_REPLAY) - 7],
        "tampered": PINNED_REPLAY[:40] + ("A" if PINNED_REPLAY[40] != "A" else "B")
        + PINNED_REPLAY[41:],
        "garbage": "%%%not-base64!!",
    }[damage]
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, site + "#r=" + text)
        expect(page.get_by_test_id("link-message")).to_contain_text(
            "This replay link cannot be opened")
        assert screen(page) == "setup"
        page.get_by_role("button", name="Start", exact=True).click()
        page.wait_for_selector("#game[data-screen='table']", state="attached")
        assert_no_error(page)
        assert not page.errors
    finally:
        ctx.close()


def test_replay_link_opens_offline_after_a_first_visit(chromium: Any, site: str) -> None:
    ctx = new_context(chromium, service_workers="allow")
    try:
        page = open_page(ctx, site)
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        ctx.set_offline(True)
        offline = ctx.new_page()
        offline.goto(site + "#r=" + PINNED_REPLAY)
        wait_table(offline)
        assert offline.evaluate("navigator.onLine") is False
        expect(offline.locator("#replay")).to_have_attribute("data-state-hash", PINNED_HASH)
        offline.get_by_role("button", name="Last").click()
        expect(offline.locator("#replay")).to_have_attribute(
            "data-step", str(offline.locator("#replay").get_attribute("data-last")))
        assert_no_error(offline)
    finally:
        ctx.close()
