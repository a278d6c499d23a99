"""Challenge links: write a rule, send the link, a friend plays Solo and compares."""

from __future__ import annotations

from typing import Any

from browser_support import assert_no_error
from playwright.sync_api import expect
from share_support import guess, hand, new_context, open_page, pick, play, screen

from eleusis.challenge import computer_result, open_challenge

RULE = "if prev is red then card is black else card is red"


def test_challenge_round_trip(chromium: Any, site: str) -> None:
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, site)
        page.get_by_role("button", name="Challenge a friend").click()
        expect(page.locator("#game")).to_have_attribute("data-screen", "challenge-write")
        page.get_by_label("Your name").fill("Alice")
        rule = page.get_by_label("The secret rule")
        rule.fill("if prev is red then")
        expect(page.locator(".challenge-write .rule-error")).to_be_visible()
        expect(page.get_by_role("button", name="Make the link")).to_have_attribute(
            "aria-disabled", "true")
        rule.fill(RULE)
        expect(page.locator(".challenge-write .rule-english")).to_be_visible()
        page.get_by_role("button", name="Make the link").click()
        link = page.get_by_label("Challenge link").input_value()
        assert "#c=" in link
        token = link.split("#c=", 1)[1]
        assert "prev" not in token and "red" not in token  # not readable in the link
        assert_no_error(page)
    finally:
        ctx.close()

    challenge = open_challenge(token)
    ctx = new_context(chromium)
    try:
        page = open_page(ctx, link)
        assert screen(page) == "table"
        expect(page.locator("#status")).to_contain_text("Alice")
        start = challenge.start()
        assert sorted(hand(page)) == sorted(c.code for c in start.hand(0))
        code = pick(page, challenge.rule, True)
        assert code is not None
        play(page, code)
        guess(page, challenge.rule)
        page.wait_for_selector("#game[data-screen='round-end']", state="attached")
        expect(page.get_by_test_id("challenge-rule")).to_have_text(challenge.rule)
        computer = computer_result(challenge)
        compare = page.get_by_test_id("challenge-compare")
        expect(compare).to_contain_text(
            f"the computer ({computer.strength}) {computer.score}", timeout=120_000)
        assert_no_error(page)
        assert not page.errors
    finally:
        ctx.close()
