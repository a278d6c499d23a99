"""The table as a new user meets it: Playwright in Debian's Chromium, our own server.

Each test opens a fresh browser context (an empty localStorage), starts a game
from the new-game screen with the defaults (the URL only presets them:
``?variant=&seed=&rule=&pace=``, the engine judges every move) and plays as a
person would, by role and name. The test knows the secret rule it chose, so it
picks right and wrong cards with :mod:`eleusis.rules` on CPython. Every test
ends by checking that no error panel and no ``.py-error`` banner appeared. The
``site`` and ``chromium`` fixtures are the shared ones of ``conftest.py``.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from share_support import hand, mainline, pick

from eleusis.cards import Card
from eleusis.rules import parse

BOOT_MS = 90_000

RED = "card is red"
ALT = "if prev is odd then card is red else card is black"


@pytest.fixture
def tpage(chromium: Browser) -> Iterator[Page]:
    """A fresh page (fresh localStorage) at desktop size; errors are collected."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    yield page
    context.close()


# --------------------------------------------------------------------------- helpers


def open_table(page: Page, site: str, **params: Any) -> None:
    """Load the page with new-game presets and wait for the table to install."""
    page.goto(site + "?" + urllib.parse.urlencode(params))
    wait_ready(page)


def wait_ready(page: Page) -> None:
    """Wait for Python and for the table's first screen."""
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=BOOT_MS)
    page.wait_for_selector("#game[data-screen]", state="attached", timeout=BOOT_MS)


def screen(page: Page) -> str:
    """The screen shown: setup, table, round-end, write-rule, help."""
    return str(page.locator("#game").get_attribute("data-screen"))


def no_errors(page: Page) -> None:
    """No error panel, no PyScript error banner, no uncaught page error."""
    expect(page.locator("#error-panel")).to_be_hidden()
    assert page.locator(".py-error").count() == 0
    assert not page.errors, page.errors  # type: ignore[attr-defined]


def my_turn(page: Page, timeout: float = 60_000) -> None:
    """Wait until the table waits for the person at the screen (or the round ends)."""
    page.wait_for_function(
        """() => {
            const g = document.getElementById('game');
            if (g.dataset.screen === 'round-end') return true;
            const t = document.querySelector('[data-testid=turn]');
            return g.dataset.busy !== '1' && t && (
                t.textContent.startsWith('Your turn') ||
                t.textContent.startsWith('You may') ||
                t.textContent.startsWith('As the'));
        }""",
        timeout=timeout,
    )


def play(page: Page, code: str) -> None:
    """Select a card by clicking it, then press Play."""
    page.locator(f".hand .card[data-code='{code}']").first.click()
    page.get_by_role("button", name="Play", exact=True).click()


def start_defaults(page: Page) -> None:
    """On the new-game screen, press Start."""
    assert screen(page) == "setup"
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_selector("#game[data-screen='table']", state="attached")


# --------------------------------------------------------------------------- tests


def test_solo_right_wrong_guess_reload_and_score(tpage: Page, site: str) -> None:
    page = tpage
    open_table(page, site, variant="solo", seed=42, rule=RED, pace="instant")
    start_defaults(page)
    expect(page.get_by_role("button", name="Play", exact=True)).to_be_disabled()
    where = "() => document.querySelector('.dock').getBoundingClientRect().top + window.scrollY"
    dock_top = page.evaluate(where)
    right = pick(page, RED, True)
    assert right is not None
    play(page, right)
    expect(page.locator("#status")).to_contain_text("right")
    wrong = pick(page, RED, False)
    assert wrong is not None
    play(page, wrong)
    expect(page.locator("#status")).to_contain_text("wrong")
    # the cards landed (one in the mainline, one in a new sideline): the hand did not move
    assert page.evaluate(where) == dock_top
    # the wrong card lies under the card it tried to follow (the right one just played)
    side = page.get_by_test_id(f"sideline-{right}")
    expect(side.locator(f"[data-code='{wrong}']")).to_have_count(1)
    expect(side.get_by_role("img", name=Card.parse(wrong).name)).to_have_count(1)

    # guess: live syntax check, then a wrong guess with its counterexample
    page.get_by_role("button", name="Guess the rule").click()
    page.get_by_label("Your guess, in words or in the rule language").fill("card is hearts or")
    expect(page.locator(".rule-error")).to_contain_text("column")
    expect(page.get_by_role("button", name="Submit guess")).to_be_disabled()
    page.get_by_label("Your guess, in words or in the rule language").fill("card is hearts")
    expect(page.locator(".rule-english")).to_contain_text("heart")
    page.get_by_role("button", name="Submit guess").click()
    expect(page.get_by_test_id("verdict")).to_contain_text("Wrong")

    # reload in the middle: the same layout and hand come back
    before_line, before_hand = mainline(page), hand(page)
    page.reload()
    wait_ready(page)
    page.wait_for_selector("#game[data-screen='table']", state="attached")
    assert mainline(page) == before_line
    assert hand(page) == before_hand

    # the right guess ends the round: the rule and the scores with their breakdown
    page.get_by_role("button", name="Guess the rule").click()
    page.get_by_label("Your guess, in words or in the rule language").fill(RED)
    page.get_by_label("Your guess, in words or in the rule language").press("Enter")
    page.wait_for_selector("#game[data-screen='round-end']", state="attached")
    expect(page.get_by_test_id("rule")).to_have_text(RED)
    scores = page.get_by_role("table", name="Scores")
    expect(scores).to_contain_text("30 - 2 turns - 2 x 1 wrong guesses")
    expect(scores.locator("td.num").first).to_have_text("26")
    no_errors(page)


@pytest.mark.parametrize("variant", ["express", "express3"])
def test_express_play_no_play_guess_and_finish(tpage: Page, site: str, variant: str) -> None:
    page = tpage
    # (grace: the moment to guess stays offered until the test has written its guess)
    open_table(page, site, variant=variant, seed=7, rule=ALT, pace="instant", grace=600_000)
    start_defaults(page)
    my_turn(page)
    played_right = False
    wrong_done = False
    no_play_done = False
    for _ in range(30):
        my_turn(page)
        if screen(page) == "round-end":
            break
        if page.get_by_role("button", name="Go on").count():
            if not played_right:
                played_right = True
                # a wrong guess first: the verdict comes with a counterexample
                page.get_by_role("button", name="Guess the rule").click()
                page.get_by_label("Your guess, in words or in the rule language").fill(
                    "card is red")
                page.get_by_role("button", name="Submit guess").click()
                expect(page.get_by_test_id("verdict")).to_contain_text("Wrong")
                expect(page.get_by_test_id("verdict")).to_contain_text("secret rule")
                continue  # a guess uses the moment after the play: the table moves on
            page.get_by_role("button", name="Guess the rule").click()
            page.get_by_label("Your guess, in words or in the rule language").fill(ALT)
            page.get_by_role("button", name="Submit guess").click()
            break
        if not wrong_done:
            code = pick(page, ALT, False)
            if code is not None:
                play(page, code)
                wrong_done = True
                expect(page.locator(".sideline [data-code]")).not_to_have_count(0)
                if variant == "express3":
                    expect(page.locator(".scoreboard tr.viewer .seat-note")).to_have_text("♥♥")
                continue
        if not no_play_done and played_right:
            page.get_by_role("button", name="No play").click()
            no_play_done = True
            expect(page.get_by_role("list", name="Recent moves, newest first")).to_contain_text(
                "You declared \u201cno play\u201d")
            continue
        code = pick(page, ALT, True)
        if code is None:
            page.get_by_role("button", name="No play").click()
            continue
        play(page, code)
    page.wait_for_selector("#game[data-screen='round-end']", state="attached", timeout=60_000)
    assert played_right and wrong_done
    expect(page.get_by_test_id("rule")).to_have_text(ALT)
    expect(page.get_by_role("table", name="Scores")).to_contain_text("12 -")
    no_errors(page)


def test_new_eleusis_prophet_reload_and_finish(tpage: Page, site: str) -> None:
    page = tpage
    # (grace: each moment to declare stays offered until the test declares or continues)
    open_table(page, site, variant="new_eleusis", seed=11, rule=ALT, pace="instant",
               grace=600_000)
    start_defaults(page)
    prophet = False
    reloaded = False
    wrong_done = False
    no_play_done = False
    for _ in range(200):
        my_turn(page, 90_000)
        if screen(page) == "round-end":
            break
        if page.get_by_role("group", name="Your verdict").count():
            # as the prophet: call the pending play with the rule we know
            title = page.locator(".call-title").text_content() or ""
            cards = [Card.parse(str(c)) for c in page.locator(".pending-cards .card")
                     .evaluate_all("els => els.map(e => e.dataset.code)")]
            if "declared no play" in title:
                page.get_by_role("button", name="Right", exact=True).click()
                continue
            rule = parse(ALT)
            line = mainline(page)
            ok = all(rule.accepts(line + list(cards[:i]), c) for i, c in enumerate(cards))
            page.get_by_role("button", name="Right" if ok else "Wrong", exact=True).click()
            continue
        declare = page.get_by_role("button", name="Declare prophet")
        if not prophet and declare.count() and declare.get_attribute("aria-disabled") != "true":
            declare.click()
            prophet = True
            expect(page.locator(".scoreboard .badge-prophet")).to_have_count(1)
            expect(page.locator(".prophet-marker")).to_have_count(1)
            if not reloaded:
                page.reload()
                wait_ready(page)
                reloaded = True
                expect(page.locator(".scoreboard .badge-prophet")).to_have_count(1)
            continue
        if page.get_by_role("button", name="Go on").count():
            page.get_by_role("button", name="Go on").click()
            continue
        if not wrong_done:
            code = pick(page, ALT, False)
            if code:
                play(page, code)
                wrong_done = True
                continue
        if not no_play_done and pick(page, ALT, True) is None:
            page.get_by_role("button", name="No play").click()
            no_play_done = True
            continue
        code = pick(page, ALT, True)
        if code is None:
            page.get_by_role("button", name="No play").click()
        else:
            play(page, code)
    page.wait_for_selector("#game[data-screen='round-end']", state="attached", timeout=90_000)
    assert prophet and reloaded and wrong_done
    expect(page.get_by_role("table", name="Scores")).to_be_visible()
    no_errors(page)


STATUS_LOG = """() => {
    window.__said = [];
    new MutationObserver(() => window.__said.push(document.getElementById('status').textContent))
        .observe(document.getElementById('status'), {childList: true, characterData: true,
                                                     subtree: true});
}"""


def turns(page: Page) -> int:
    """How many actions the round has had."""
    return int(page.locator("#game").get_attribute("data-turns") or 0)


def your_turn(page: Page) -> None:
    """Wait until it is the person's own turn to play (not an optional step)."""
    page.wait_for_function(
        """() => {
            const g = document.getElementById('game');
            const t = document.querySelector('[data-testid=turn]');
            return g.dataset.screen === 'table' && g.dataset.busy !== '1' && t
                && t.textContent.startsWith('Your turn');
        }""", timeout=60_000)


def test_new_eleusis_goes_on_without_continue_and_prophet_in_the_moment(
        tpage: Page, site: str) -> None:
    page = tpage
    open_table(page, site, variant="new_eleusis", seed=11, rule=RED, pace="instant")
    start_defaults(page)
    page.evaluate(STATUS_LOG)
    for _ in range(3):  # three plays of the person's own, and never a click on Go on
        your_turn(page)
        before = turns(page)
        play(page, pick(page, RED, True) or hand(page)[0])
        # the moment to declare passes by itself: the computers play on
        page.wait_for_function(
            f"() => +document.getElementById('game').dataset.turns > {before + 1}",
            timeout=60_000)
    said = " | ".join(page.evaluate("window.__said"))
    assert ("You may declare yourself prophet now: the table goes on by itself in 3 seconds"
            in said)
    assert "The moment has passed: the table goes on." in said
    assert page.locator(".scoreboard tr.viewer .badge-prophet").count() == 0  # not us

    # a new game with the moment held open (test hook): declaring within it works
    open_table(page, site, variant="new_eleusis", seed=11, rule=RED, pace="instant",
               grace=600_000)
    page.get_by_role("button", name="New game", exact=True).click()
    page.wait_for_selector("#game[data-screen='setup']", state="attached")
    start_defaults(page)
    your_turn(page)
    code = pick(page, RED, True)
    assert code is not None
    play(page, code)
    page.get_by_role("button", name="Declare prophet").click()
    expect(page.locator(".scoreboard .badge-prophet")).to_have_count(1)
    expect(page.locator("#status")).to_contain_text("prophet")
    # and the table goes on: the next scientist plays and you, the prophet, call it
    # (at the instant pace that play may already be on the table: wait for the call)
    expect(page.get_by_role("group", name="Your verdict")).to_be_visible(timeout=60_000)
    no_errors(page)


def test_hot_seat_hides_hands_between_turns(tpage: Page, site: str) -> None:
    page = tpage
    open_table(page, site, variant="express", seed=5, rule=RED, pace="instant")
    page.get_by_role("button", name="Add a person").click()
    start_defaults(page)
    # the device starts with "You": hidden until they say so
    passing = page.get_by_role("dialog", name="Pass the device")
    expect(passing).to_contain_text("Pass the device to You")
    expect(page.locator(".hand")).to_have_count(0)
    page.get_by_role("button", name="I am You: show my hand").click()
    expect(page.locator(".hand .card")).to_have_count(12)
    code = pick(page, RED, False)
    assert code is not None
    play(page, code)  # wrong: no optional step, the computers play, then Player 4
    expect(passing).to_contain_text("Pass the device to Player 4", timeout=30_000)
    expect(page.locator(".hand")).to_have_count(0)
    page.get_by_role("button", name="I am Player 4: show my hand").click()
    expect(page.locator(".hand .card")).to_have_count(12)
    expect(page.get_by_role("group", name="Player 4's hand")).to_be_visible()
    no_errors(page)


def test_corrupt_save_is_set_aside_others_survive(tpage: Page, site: str) -> None:
    page = tpage
    open_table(page, site, variant="solo", seed=3, rule=RED, pace="instant")
    start_defaults(page)
    code = pick(page, RED, True)
    assert code is not None
    play(page, code)
    good = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('eleusis.save.'))")
    assert len(good) == 1
    page.evaluate("""() => {
        localStorage.setItem('eleusis.save.broken', '{not json');
        localStorage.setItem('eleusis.save.future', JSON.stringify(
            {format: 'eleusis-save', version: 99, id: 'future', title: 'x', game: {}}));
        localStorage.setItem('other.app', 'keep me');
    }""")
    page.reload()
    wait_ready(page)
    page.wait_for_selector("#game[data-screen='table']", state="attached")
    page.get_by_role("button", name="New game").click()
    saves = page.get_by_role("region", name="Saved games")
    expect(saves.get_by_role("alert").first).to_contain_text("set aside")
    expect(saves.get_by_role("alert")).to_have_count(2)
    expect(saves.get_by_role("button", name="Continue")).to_have_count(1)
    keys = page.evaluate("Object.keys(localStorage)")
    assert good[0] in keys and "other.app" in keys
    assert "eleusis.corrupt.broken" in keys and "eleusis.corrupt.future" in keys
    assert "eleusis.save.broken" not in keys
    saves.get_by_role("button", name="Continue").click()
    page.wait_for_selector("#game[data-screen='table']", state="attached")
    assert len(mainline(page)) == 2
    no_errors(page)


def test_keyboard_only_whole_turn(tpage: Page, site: str) -> None:
    page = tpage
    open_table(page, site, variant="solo", seed=9, rule=RED, pace="instant")

    def tab_to(key: str, limit: int = 60) -> None:
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement && document.activeElement.dataset.key") \
                    == key:
                return
        raise AssertionError(f"Tab never reached {key}")

    tab_to("start")
    page.keyboard.press("Enter")
    page.wait_for_selector("#game[data-screen='table']", state="attached")
    right = pick(page, RED, True)
    assert right is not None
    # the hand is one Tab stop; the arrow keys move along it
    active = "document.activeElement && document.activeElement.dataset.key"
    for _ in range(60):
        page.keyboard.press("Tab")
        if str(page.evaluate(active) or "").startswith("hand-"):
            break
    stops = page.locator(".hand .card[tabindex='0']")
    expect(stops).to_have_count(1)
    for _ in range(30):
        if page.evaluate(active) == f"hand-{right}":
            break
        page.keyboard.press("ArrowRight")
    assert page.evaluate(active) == f"hand-{right}"
    page.keyboard.press("Space")
    expect(page.locator(f".hand .card[data-key='hand-{right}']")).to_have_attribute(
        "aria-pressed", "true")
    tab_to("ctl-Play")
    page.keyboard.press("Enter")
    expect(page.locator("#status")).to_contain_text("right")
    assert [c.code for c in mainline(page)][-1] == right
    # a disabled control keeps focus and says why
    assert page.evaluate("document.activeElement.getAttribute('aria-disabled')") == "true"
    assert page.evaluate("document.activeElement.title")
    no_errors(page)


def test_royal_bets_prophet_reload_and_finish(tpage: Page, site: str) -> None:
    page = tpage
    open_table(page, site, variant="royal", seed=13, rule=ALT, pace="instant", grace=600_000)
    start_defaults(page)
    rule = parse(ALT)
    right_done = wrong_done = reloaded = prophet = False
    for _ in range(300):
        my_turn(page, 90_000)
        if screen(page) == "round-end":
            break
        if page.get_by_role("group", name="Your verdict").count():
            codes = page.locator(".pending-cards .card").evaluate_all(
                "els => els.map(e => e.dataset.code)")
            card, line = Card.parse(str(codes[0])), mainline(page)
            if "is refused" not in page.locator(".call-title").inner_text():
                ok = rule.accepts(line, card)  # an A bet
                page.get_by_role("button", name="Right" if ok else "Wrong", exact=True).click()
                continue
            # an R bet is right when neither the card nor any other of the hand fits (2.2);
            # called wrong, the prophet names the card that goes to the mainline (3.1/3.2)
            others = [Card.parse(str(x)[3:]) for x in page.locator(
                ".call-cards [data-key^='jc-']").evaluate_all("els => els.map(e => e.dataset.key)")]
            fits = [x for x in [card, *others] if rule.accepts(line, x)]
            if not fits:
                page.get_by_role("button", name="Right", exact=True).click()
                continue
            page.locator(f".call-cards [data-key='jc-{fits[0].code}']").first.click()
            page.get_by_role("button", name="Wrong", exact=True).click()
            continue
        declare = page.get_by_role("button", name="Declare prophet")
        if (right_done and wrong_done and not prophet and declare.count()
                and declare.get_attribute("aria-disabled") != "true"):
            declare.click()
            prophet = True
            expect(page.locator(".scoreboard .badge-prophet")).to_have_count(1)
            continue
        if page.get_by_role("button", name="Go on").count():
            page.get_by_role("button", name="Go on").click()
            continue
        bet_right = not right_done or wrong_done
        code = pick(page, ALT, bet_right)
        if code is None:
            code = hand(page)[0]
        page.locator(f".hand .card[data-code='{code}']").first.click()
        page.get_by_role("button", name="Bet", exact=True).click()
        if not right_done and bet_right:
            right_done = True
            assert [c.code for c in mainline(page)][-1] == code or screen(page) != "table"
        elif not wrong_done:
            wrong_done = True
            expect(page.locator(f".sideline [data-code='{code}']")).not_to_have_count(0)
            page.reload()
            wait_ready(page)
            reloaded = True
    page.wait_for_selector("#game[data-screen='round-end']", state="attached", timeout=90_000)
    assert right_done and wrong_done and reloaded
    expect(page.get_by_role("table", name="Scores")).to_be_visible()
    no_errors(page)


def test_hand_judging_dealer_hints_and_judges(tpage: Page, site: str) -> None:
    page = tpage
    open_table(page, site, variant="express", seed=5, dealer="judge", pace="instant")
    start_defaults(page)
    passing = page.get_by_role("dialog", name="Pass the device")
    expect(passing).to_contain_text("Pass the device to Dealer")
    page.get_by_role("button", name="I am Dealer: go on").click()
    page.get_by_label("A hint for the players").fill("Think about colours.")
    page.get_by_role("button", name="Give the hint").click()
    expect(page.get_by_role("list", name="Hints")).to_contain_text("Think about colours.")
    page.get_by_role("button", name="Start play").click()
    page.get_by_role("button", name="I am You: show my hand").click()
    code = hand(page)[0]
    play(page, code)
    expect(passing).to_contain_text("Pass the device to Dealer")
    page.get_by_role("button", name="I am Dealer: go on").click()
    verdict = page.get_by_role("group", name="Your verdict")
    expect(verdict).to_contain_text(f"You played {Card.parse(code).name}")
    verdict.get_by_role("button", name="Wrong", exact=True).click()
    expect(page.locator(f".sideline [data-code='{code}']")).to_have_count(1)
    no_errors(page)


def test_start_clicked_during_boot_plays_at_once(tpage: Page, site: str) -> None:
    page = tpage
    # hold the engine zip until the click has landed, so Python cannot win the race
    held: list[Any] = []
    page.route("**/build/app.zip", lambda route: held.append(route))
    page.goto(site + "?seed=4&pace=instant", wait_until="domcontentloaded")
    page.locator("#new-game #start").click()  # the boot shell's form, before Python is up
    assert page.evaluate("window.eleusisBoot.queue.length") == 1
    for route in held:
        route.continue_()
    page.unroute("**/build/app.zip")
    wait_ready(page)
    page.wait_for_selector("#game[data-screen='table']", state="attached", timeout=BOOT_MS)
    expect(page.get_by_role("navigation", name="Game")).to_contain_text("New Eleusis")
    expect(page.locator("#table")).to_have_attribute("data-variant", "new-eleusis")
    no_errors(page)


def test_hot_seat_rule_writer_gets_the_device_first(tpage: Page, site: str) -> None:
    page = tpage
    open_table(page, site, variant="express", seed=3, dealer="writer", pace="instant")
    start_defaults_to("write-rule", page)
    passing = page.get_by_role("dialog", name="Pass the device")
    expect(passing).to_contain_text("Pass the device to Dealer")
    expect(page.get_by_role("textbox", name="Secret rule")).to_have_count(0)  # still hidden
    page.get_by_role("button", name="I am Dealer: write the rule").click()
    page.get_by_role("textbox", name="Secret rule").fill(RED)
    expect(page.locator(".rule-english")).to_contain_text("red")
    page.get_by_role("button", name="Deal with this rule").click()
    page.wait_for_selector("#game[data-screen='table']", state="attached")
    # the next person must take the device before any hand shows
    expect(page.get_by_role("dialog", name="Pass the device")).to_contain_text("Pass the device")
    no_errors(page)


def start_defaults_to(screen_name: str, page: Page) -> None:
    """On the new-game screen, press Start and wait for ``screen_name``."""
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_selector(f"#game[data-screen='{screen_name}']", state="attached")
