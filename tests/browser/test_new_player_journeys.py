"""A newcomer's journeys through the page: what a player would check first.

No seed and no rule in the address: the page deals as it does for anyone.
Everything is done by visible names and roles, as a person does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import release_held
from playwright.sync_api import Browser, Page, expect
from share_support import hand, mainline, pick

BOOT_MS = 90_000


@pytest.fixture
def newcomer(chromium: Browser) -> Iterator[Page]:
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(60_000)
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.errors = errors  # type: ignore[attr-defined]
    yield p
    assert not errors, errors
    assert p.locator(".py-error").count() == 0
    context.close()


def boot(page: Page, site: str, query: str = "") -> None:
    page.goto(site + query)
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=BOOT_MS)
    page.wait_for_selector("#game[data-screen='setup']", state="attached", timeout=BOOT_MS)


def screen(page: Page) -> str:
    return str(page.locator("#game").get_attribute("data-screen"))


def deal(page: Page) -> tuple[str, ...]:
    """What a player sees of a new deal: the starter and their hand."""
    page.wait_for_selector("#game[data-screen='table']", state="attached")
    page.wait_for_selector(".hand .card", state="attached")
    return (*[c.code for c in mainline(page)][:1], *hand(page))


def test_two_new_games_in_a_row_are_different(newcomer: Page, site: str) -> None:
    page = newcomer
    boot(page, site, "?variant=solo")
    page.get_by_role("button", name="Start", exact=True).click()
    first = deal(page)
    page.get_by_role("button", name="New game", exact=True).click()
    page.get_by_role("button", name="Start", exact=True).click()
    second = deal(page)
    assert first != second
    page.reload()
    page.wait_for_selector("#game[data-screen='table']", state="attached", timeout=BOOT_MS)
    assert deal(page) == second  # a reload goes on with the same game
    page.get_by_role("button", name="New game", exact=True).click()
    page.get_by_role("button", name="Start", exact=True).click()
    assert deal(page) not in (first, second)


def test_the_first_start_after_typing_a_name_starts_the_game(newcomer: Page, site: str) -> None:
    page = newcomer
    boot(page, site, "?variant=solo")
    name = page.get_by_role("textbox", name="Name of player 1")
    name.fill("Zoë")
    page.get_by_role("button", name="Start", exact=True).click()  # one click, nothing else
    page.wait_for_selector("#game[data-screen='table']", state="attached")
    expect(page.get_by_role("group", name="Zoë's hand")).to_be_visible()


def test_a_card_clicked_during_the_computers_turns_stays_selected(newcomer: Page,
                                                                  site: str) -> None:
    page = newcomer
    boot(page, site, "?variant=new-eleusis&pace=slow")
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_selector(".hand .card", state="attached")
    turn = page.get_by_test_id("turn")
    # click a card at once, while the table is busy with the computers
    # (a double deck may deal two copies of a card: the one clicked is named by its key)
    first = page.locator(".hand .card").first
    key = first.get_attribute("data-key")
    first.click()
    clicked = page.locator(f".hand .card[data-key='{key}']")
    expect(clicked).to_have_attribute("aria-pressed", "true")
    expect(turn).to_contain_text("Your turn", timeout=60_000)
    expect(clicked).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".hand .card[aria-pressed='true']")).to_have_count(1)
    expect(page.get_by_role("button", name="Play", exact=True)).not_to_have_attribute(
        "aria-disabled", "true")


def test_a_new_screen_opens_at_its_top_with_the_focus_on_its_heading(newcomer: Page,
                                                                    site: str) -> None:
    page = newcomer
    page.set_viewport_size({"width": 360, "height": 740})
    boot(page, site, "?variant=solo")
    page.mouse.wheel(0, 2000)
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_selector("#game[data-screen='table']", state="attached")
    page.wait_for_function("window.scrollY === 0")
    focused: Any = page.evaluate("document.activeElement.tagName")
    assert focused in ("H1", "H2")


def test_delete_a_saved_game_then_undo(newcomer: Page, site: str) -> None:
    page = newcomer
    boot(page, site, "?variant=solo")
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_selector(".hand .card", state="attached")
    page.get_by_role("button", name="New game", exact=True).click()
    saved = page.locator(".save-list .save")
    expect(saved).to_have_count(1)
    title = saved.first.locator(".save-title").inner_text()
    page.get_by_role("button", name=f"Delete {title}").click()
    expect(saved).to_have_count(0)
    page.get_by_role("button", name=f"Undo: put back {title}").click()
    expect(saved).to_have_count(1)
    page.reload()
    page.wait_for_selector("#game[data-screen='setup']", state="attached", timeout=BOOT_MS)
    expect(page.locator(".save-list .save")).to_have_count(1)


def test_a_damaged_link_says_so_in_words_and_leaves_the_form_in_place(newcomer: Page,
                                                                     site: str) -> None:
    page = newcomer
    boot(page, site)
    form = page.locator("section.setup")
    box_before = form.bounding_box()
    page.goto(site + "#c=AAAAthis-is-not-a-challenge")
    page.reload()
    page.wait_for_selector("#game[data-screen='setup']", state="attached", timeout=BOOT_MS)
    note = page.get_by_test_id("link-message")
    expect(note).to_contain_text("cannot be opened")
    assert "format" not in note.locator("p").first.inner_text()
    box_after = form.bounding_box()
    assert box_before is not None and box_after is not None
    assert abs(box_after["x"] - box_before["x"]) < 2  # not pushed aside
    assert abs(box_after["width"] - box_before["width"]) < 2
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_selector("#game[data-screen='table']", state="attached")


def test_on_a_phone_the_hand_play_and_the_last_mainline_card_are_in_view(newcomer: Page,
                                                                        site: str) -> None:
    page = newcomer
    page.set_viewport_size({"width": 360, "height": 740})
    boot(page, site, "?variant=solo&pace=instant")
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_selector(".hand .card", state="attached")

    def in_view(locator: Any) -> bool:
        box = locator.bounding_box()
        return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740 + 1

    for _ in range(8):  # a few plays: the mainline grows, the page must not scroll away
        card = page.locator(".hand .card").first
        card.click()
        play = page.get_by_role("button", name="Play", exact=True)
        assert in_view(play) and in_view(card)
        assert in_view(page.locator("#layout .column.last .mainline-card"))
        before = page.locator("#game").get_attribute("data-turns")
        play.click()
        page.wait_for_function(
            f"document.getElementById('game').dataset.turns !== '{before}'")
    assert in_view(page.locator("#layout .column.last .mainline-card"))
    assert page.evaluate("document.scrollingElement.scrollTop") == 0


def test_at_the_normal_pace_the_moment_to_declare_waits_for_go_on(newcomer: Page,
                                                                  site: str) -> None:
    page = newcomer
    boot(page, site, "?variant=new-eleusis")  # the normal pace, as a newcomer has it
    page.get_by_role("button", name="Start", exact=True).click()
    turn = page.get_by_test_id("turn")
    expect(turn).to_contain_text("Your turn", timeout=90_000)
    page.locator(".hand .card").first.click()
    page.get_by_role("button", name="Play", exact=True).click()
    go_on = page.get_by_role("button", name="Go on")
    expect(go_on).to_be_visible()
    expect(turn).to_contain_text("or press Go on")
    moves = page.locator("#game").get_attribute("data-turns")
    page.wait_for_timeout(4000)  # longer than the old moment: nothing moved without us
    assert page.locator("#game").get_attribute("data-turns") == moves
    go_on.click()
    page.wait_for_function(
        f"document.getElementById('game').dataset.turns !== '{moves}'", timeout=60_000)


LESSON_RULE = "card.color != prev.color"


def _lesson_play(page: Page, right: bool, keyboard: bool) -> None:
    code = pick(page, LESSON_RULE, right) or hand(page)[0]
    before = page.locator("#game").get_attribute("data-turns")
    if keyboard:
        _focus(page, lambda: page.evaluate(
            "document.activeElement?.dataset.key?.startsWith('hand-') || false"))
        # the hand's one Tab stop is the card last moved to: after playing a card
        # whose twin (two decks) is still in the hand, the twin, not the first
        # card; so go to the first (Home), then along (the arrows do not wrap)
        page.keyboard.press("Home")
        for _ in range(30):
            if page.evaluate("document.activeElement?.dataset.code") == code:
                break
            page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement?.dataset.code") == code, code
        page.keyboard.press("Space")
        _focus(page, lambda: page.evaluate("document.activeElement?.dataset.key") == "ctl-Play")
        page.keyboard.press("Enter")
    else:
        page.locator(f".hand .card[data-code='{code}']").first.click()
        page.get_by_role("button", name="Play", exact=True).click()
    page.wait_for_function(f"document.getElementById('game').dataset.turns !== '{before}'")


def _focus(page: Page, there: Any, limit: int = 80) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if there():
            return
    raise AssertionError("Tab never got there")


@pytest.mark.parametrize("keyboard", [False, True], ids=["mouse", "keyboard"])
def test_learn_to_play_from_the_first_screen_to_the_found_rule(newcomer: Page, site: str,
                                                               keyboard: bool) -> None:
    page = newcomer
    boot(page, site)
    lesson = page.get_by_role("region", name="Lesson")
    if keyboard:
        _focus(page, lambda: page.evaluate("document.activeElement?.dataset.key") == "learn")
        page.keyboard.press("Enter")
    else:
        page.get_by_role("button", name="Learn to play").click()
    expect(lesson).to_contain_text("This is the mainline")
    expect(page.locator("#layout.coach-target")).to_have_count(1)
    if keyboard:
        _focus(page, lambda: page.evaluate("document.activeElement?.dataset.key")
               == "lesson-next")
        page.keyboard.press("Enter")
    else:
        lesson.get_by_role("button", name="Next").click()
    expect(lesson).to_contain_text("This is your hand")
    _lesson_play(page, True, keyboard)
    expect(lesson).to_contain_text("joined the mainline")
    _lesson_play(page, False, keyboard)
    expect(lesson).to_contain_text("lies under the card it tried to follow")
    for _ in range(3):
        _lesson_play(page, True, keyboard)
    expect(lesson).to_contain_text("Guess the rule")
    if keyboard:
        _focus(page, lambda: page.evaluate("document.activeElement?.dataset.key")
               == "ctl-Guess the rule")
        page.keyboard.press("Enter")
        # the panel opens with the focus in its field: the player came to type
        page.wait_for_function("() => document.activeElement?.id === 'guess-text'")
        page.keyboard.type("alternate colors")
        _focus(page, lambda: page.evaluate("document.activeElement?.dataset.key")
               == "guess-reading-0")
        page.keyboard.press("Enter")
    else:
        page.get_by_role("button", name="Guess the rule").click()
        page.get_by_label("Your guess, in words or in the rule language").fill(
            "alternate colors")
        page.get_by_role("button", name="Guess this rule", exact=False).first.click()
    page.wait_for_selector("#game[data-screen='round-end']", state="attached")
    expect(page.locator(".round-end")).to_contain_text("You found the secret rule")


def test_a_guess_in_words_shows_how_it_was_read_in_view_on_a_laptop(newcomer: Page,
                                                                     site: str) -> None:
    """At 1280x800 the guess panel opens under the hand: how the words were read and
    the button that sends the guess must come into view, not stay below the fold."""
    page = newcomer
    boot(page, site, "?variant=solo")
    page.get_by_role("button", name="Start", exact=True).click()
    page.get_by_role("button", name="Guess the rule").click()
    # words no secret rule can mean (a rule that accepts every card is never dealt), so
    # the guess is judged wrong whatever the deal: the verdict stays on the table
    page.get_by_label("Your guess, in words or in the rule language").fill(
        "any card may be played")
    confirm = page.get_by_role("button", name="Guess this rule", exact=False).first
    expect(confirm).to_be_in_viewport()
    # one way to send words read back: no second, disabled "Submit guess" beside it
    expect(page.get_by_role("button", name="Submit guess")).to_have_count(0)
    confirm.click()
    expect(page.get_by_test_id("verdict")).to_be_in_viewport()


def test_my_saved_games_are_listed_and_can_be_continued_while_the_engine_loads(
    chromium: Browser, site: str
) -> None:
    """Back on the page, the saved games show at once (before Python is up); the
    Continue I press then is kept, and the game goes on where I left it."""
    # (no service worker: it would serve the engine past the test's hold)
    context = chromium.new_context(viewport={"width": 1280, "height": 800},
                                   service_workers="block")
    context.set_default_timeout(60_000)
    try:
        _continue_a_saved_game_while_the_engine_loads(context.new_page(), site)
    finally:
        context.close()


def _continue_a_saved_game_while_the_engine_loads(page: Page, site: str) -> None:
    boot(page, site, "?variant=solo")
    page.get_by_role("button", name="Start", exact=True).click()
    first = deal(page)
    page.get_by_role("button", name="New game", exact=True).click()
    page.get_by_role("button", name="Start", exact=True).click()
    second = deal(page)
    page.get_by_role("button", name="New game", exact=True).click()
    held: list[Any] = []
    page.route("**/build/app.zip", lambda route: held.append(route))
    page.reload()
    saved = page.get_by_role("region", name="Saved games")
    expect(saved).to_be_visible()
    assert page.get_attribute("body", "data-ready") == "0"  # the engine is not up yet
    buttons = saved.get_by_role("button", name="Continue")
    expect(buttons).to_have_count(2)
    buttons.last.click()  # the older game: the first one
    expect(page.locator("#status")).to_contain_text("as soon as the engine is ready")
    release_held(page, held)  # once the page has asked for it
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=BOOT_MS)
    assert deal(page) == first != second
    expect(page.get_by_role("region", name="Saved games")).to_be_hidden()


def test_a_shelf_tampered_with_shows_text_and_runs_nothing(chromium: Browser, site: str) -> None:
    context = chromium.new_context()
    try:
        context.add_init_script(
            "localStorage.setItem('eleusis.shelf', JSON.stringify(["
            "['g1', '<img src=x onerror=\"window.pwned=1\">'], ['', 'no id'], [1, 2], 'x']))")
        page = context.new_page()
        page.route("**/build/app.zip", lambda route: None)  # the shell alone
        page.goto(site)
        saved = page.get_by_role("region", name="Saved games")
        expect(saved).to_contain_text('<img src=x onerror="window.pwned=1">')
        expect(saved.get_by_role("button", name="Continue")).to_have_count(1)
        assert saved.locator("img").count() == 0
        assert page.evaluate("window.pwned") is None
    finally:
        context.close()
