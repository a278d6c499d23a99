"""Export every saved game to one file, import it into an empty profile: every game is back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browser_support import assert_no_error
from playwright.sync_api import expect
from share_support import RED, new_context, open_page, pick, play, url

SAVES_JS = """() => Object.fromEntries(Object.keys(localStorage)
  .filter(k => k.startsWith('eleusis.save.'))
  .map(k => [k, JSON.parse(localStorage.getItem(k)).game.rounds]))"""


def play_a_game(page: Any, note: str | None = None) -> None:
    """From the new-game screen: a Solo game with one card played (and a notebook entry)."""
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_selector("#game[data-screen='table']", state="attached")
    code = pick(page, RED, True)
    assert code is not None
    play(page, code)
    if note:
        page.get_by_label("Candidate rule, in the rule language").fill(note)
        page.get_by_role("button", name="Add to notebook").click()
        expect(page.locator("#notebook .note-text")).to_have_text([note])
    page.get_by_role("button", name="New game").click()
    page.wait_for_selector("#game[data-screen='setup']", state="attached")


def test_export_then_import_into_an_empty_profile(chromium: Any, site: str,
                                                  tmp_path: Path) -> None:
    ctx = new_context(chromium, accept_downloads=True)
    try:
        page = open_page(ctx, url(site, variant="solo", seed=42, rule=RED, pace="instant"))
        play_a_game(page, note="card is hearts")
        page.goto(url(site, variant="solo", seed=43, rule=RED, pace="instant"))
        page.wait_for_selector("#game[data-screen]", state="attached")
        play_a_game(page)
        saved = page.evaluate(SAVES_JS)
        assert len(saved) == 2
        with page.expect_download() as info:
            page.get_by_role("button", name="Export all games").click()
        download = info.value
        assert download.suggested_filename == "eleusis-games.json"
        path = tmp_path / "eleusis-games.json"
        download.save_as(path)
        expect(page.get_by_test_id("archive-message")).to_contain_text("Exported 2 games")
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc["format"] == "eleusis-archive" and len(doc["games"]) == 2
        assert_no_error(page)
    finally:
        ctx.close()

    ctx = new_context(chromium)
    try:
        page = open_page(ctx, site)
        assert page.evaluate(SAVES_JS) == {}
        # a file that is not an archive: a clear message, nothing written
        bad = tmp_path / "bad.json"
        bad.write_text('{"format": "something else"}', encoding="utf-8")
        page.locator("#archive-file").set_input_files(str(bad))
        expect(page.get_by_test_id("archive-message")).to_contain_text("cannot be imported")
        assert page.evaluate(SAVES_JS) == {}
        # the real one: the plan first, nothing written until asked
        page.locator("#archive-file").set_input_files(str(path))
        expect(page.get_by_test_id("archive-plan")).to_contain_text("2 new games")
        assert page.evaluate(SAVES_JS) == {}
        page.get_by_role("button", name="Import 2 new games").click()
        expect(page.get_by_test_id("archive-message")).to_contain_text("Imported 2 games")
        assert page.evaluate(SAVES_JS) == saved
        expect(page.locator(".save")).to_have_count(2)
        # importing again changes nothing and says so
        page.locator("#archive-file").set_input_files(str(path))
        expect(page.get_by_test_id("archive-plan")).to_contain_text("2 games already here")
        page.get_by_role("button", name="Cancel").click()
        assert page.evaluate(SAVES_JS) == saved
        # the game with the notebook resumes with it
        page.locator(".save").last.get_by_role("button", name="Continue", exact=False).click()
        page.wait_for_selector("#game[data-screen='table']", state="attached")
        expect(page.locator("#notebook .note-text")).to_have_text(["card is hearts"])
        assert_no_error(page)
    finally:
        ctx.close()
