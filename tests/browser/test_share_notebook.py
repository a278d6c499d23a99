"""The notebook while playing: live parse, checks, highlights, order, saved, replayed."""

from __future__ import annotations

from typing import Any

from browser_support import assert_no_error
from playwright.sync_api import expect
from share_support import RED, guess, mainline, new_context, open_page, pick, play, url, wait_table


def notes(page: Any) -> list[str]:
    """The candidate rules of the notebook, in order."""
    return [str(t) for t in page.locator("#notebook .note-text").all_text_contents()]


def test_notebook_checks_highlights_reorders_and_travels(chromium: Any, site: str) -> None:
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, url(site, variant="solo", seed=42, rule=RED, pace="instant"))
        page.get_by_role("button", name="Start", exact=True).click()
        page.wait_for_selector("#game[data-screen='table']", state="attached")
        right = pick(page, RED, True)
        assert right is not None
        play(page, right)
        wrong = pick(page, RED, False)
        assert wrong is not None
        play(page, wrong)

        box = page.get_by_label("Candidate rule, in the rule language")
        box.fill("card is")
        expect(page.locator("#notebook .rule-error")).to_be_visible()
        add = page.get_by_role("button", name="Add to notebook")
        expect(add).to_have_attribute("aria-disabled", "true")
        box.fill("card is black")
        expect(page.locator("#notebook .rule-english")).to_contain_text("black")
        add.click()
        first = page.get_by_test_id("note-0")
        # the starter (judged by the rule) and the right card are red, the wrong one black
        expect(first).to_contain_text("Contradicted by 3 verdicts")
        expect(first).to_contain_text("but the dealer rejected it")
        marked = page.locator(".card.contradicts")
        expect(marked).to_have_count(3)
        codes = sorted(str(c) for c in marked.evaluate_all("els => els.map(e => e.dataset.code)"))
        assert codes == sorted([mainline(page)[0].code, right, wrong])
        expect(page.locator(f"[data-testid='sideline-{right}'] .card.contradicts")).to_have_count(1)

        box.fill(RED)
        page.get_by_role("button", name="Add to notebook").click()
        expect(page.get_by_test_id("note-1")).to_contain_text("Fits all")
        assert notes(page) == ["card is black", RED]
        page.get_by_role("button", name="Move up rule 2").click()
        expect(page.locator("#notebook .note-text").first).to_have_text(RED)
        page.get_by_label("Tick off rule 2").check()
        # ticked off: its highlights go, until asked for again
        expect(page.get_by_test_id("note-1")).to_have_class("note ticked contradicted")
        expect(page.locator(".card.contradicts")).to_have_count(0)
        page.get_by_role("button", name="Show cards that contradict rule 2").click()
        expect(page.locator(".card.contradicts")).to_have_count(3)

        # saved with the game: a reload brings it back
        page.reload()
        wait_table(page)
        page.wait_for_selector("#game[data-screen='table']", state="attached")
        assert notes(page) == [RED, "card is black"]
        expect(page.get_by_label("Tick off rule 2")).to_be_checked()

        # and it travels in the replay link
        guess(page, RED)
        page.wait_for_selector("#game[data-screen='round-end']", state="attached")
        link = page.get_by_label("Replay link").input_value()
        assert "&n=" in link
        assert_no_error(page)
    finally:
        ctx.close()
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, link)
        nb = page.get_by_role("region", name="The player's notebook")
        expect(nb.locator(".note-text")).to_have_text([RED, "card is black"])
        page.get_by_role("button", name="Last").click()
        expect(nb.locator(".note").nth(1)).to_contain_text("contradicted by 3")
        assert_no_error(page)
    finally:
        ctx.close()
