"""axe-core over every screen a player meets, at phone (360x740) and desktop (1280x800) size.

axe-core comes from npm (``devDependencies`` in package.json, installed by
``make setup`` / ``npm ci``) and is injected from ``node_modules`` into the
page under test, never from a CDN. Each screen is reached as a person reaches
it (buttons by role and name, links opened as links) and audited at both
widths: the viewport is resized on the same page, so the page boots only a
few times. Every violation of WCAG 2.0/2.1 A and AA and of axe's best
practices fails the test, whatever its impact; the failure lists each
violation's screen, width, rule id, elements and help text.

The contexts ask for ``prefers-reduced-motion: reduce`` so that no card is
caught half-way through its landing animation (half transparent) when the
colours are measured; the still page is what is audited.
"""

from __future__ import annotations

import datetime as dt
import json
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import BOOT_TIMEOUT_MS, ROOT, assert_no_error
from playwright.sync_api import Browser, Page, expect
from share_support import guess, pick, play, wait_table
from test_table_polish import match_saved

from eleusis.challenge import open_challenge
from eleusis.daily import daily_puzzle

AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"

#: The rule sets audited: WCAG 2.0 and 2.1, levels A and AA, and best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]

WIDTHS = ({"width": 1280, "height": 800}, {"width": 360, "height": 740})

RED = "card is red"

#: The daily puzzle's date (the address's ``?date=``: the same puzzle on any day).
DAY = dt.date(2026, 11, 21)

#: Runs axe on the document and returns its violations, reduced to what a report needs.
#: ``label-content-name-mismatch`` (WCAG 2.5.3, an experimental axe rule) is run on
#: everything but the playing cards: a card's visible corner "A♥" is a drawing of the
#: card (aria-hidden), not a text label; its name is the card's words, "ace of hearts",
#: which is what a speech-input user says and a screen reader should read. The rule
#: would have it named "A ... of hearts". Every other element is held to the rule.
RUN_AXE = """async (tags) => {
  const slim = (vs) => vs.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: n.failureSummary})),
  }));
  const all = await axe.run(document, {
    runOnly: {type: 'tag', values: tags},
    rules: {'label-content-name-mismatch': {enabled: false}},
  });
  const named = await axe.run({include: [document], exclude: [['.card']]}, {
    runOnly: {type: 'rule', values: ['label-content-name-mismatch']},
  });
  return slim(all.violations).concat(slim(named.violations));
}"""

#: Two animation frames: the layout after a resize or a redraw has been computed.
SETTLE = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def _missing_axe() -> None:
    if not AXE_JS.exists():
        raise pytest.UsageError(
            f"{AXE_JS.relative_to(ROOT)} is missing: run make setup (npm ci installs axe-core)")


class Auditor:
    """Audits the screens of one page at each width and keeps what axe found."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.found: list[str] = []
        self.audited: list[str] = []
        self.audit_only = False  # True: the error panel is the screen audited

    def __call__(self, name: str) -> None:
        page = self.page
        if not self.audit_only:
            assert_no_error(page)
        for size in WIDTHS:
            page.set_viewport_size(size)
            page.evaluate(SETTLE)
            if not page.evaluate("typeof window.axe === 'object'"):
                page.add_script_tag(path=str(AXE_JS))
            violations: list[dict[str, Any]] = page.evaluate(RUN_AXE, TAGS)
            where = f"{name} at {size['width']}x{size['height']}"
            self.audited.append(where)
            for v in violations:
                targets = "; ".join(n["target"] for n in v["nodes"][:8])
                more = f" (+{len(v['nodes']) - 8} more)" if len(v["nodes"]) > 8 else ""
                detail = (v["nodes"][0]["summary"] or "").replace("\n", " / ")
                self.found.append(f"{where}: {v['id']} [{v['impact']}] {v['help']}\n"
                                  f"    on: {targets}{more}\n    first: {detail}")
                print(self.found[-1])  # shown by pytest even if a later step fails
        page.set_viewport_size(WIDTHS[0])

    def check(self) -> None:
        assert not self.found, (f"axe-core found {len(self.found)} violation(s):\n"
                                + "\n".join(self.found))


@pytest.fixture
def audit(chromium: Browser) -> Iterator[Any]:
    """``audit(query="", items=None)`` -> (page, auditor): a fresh context (empty or
    seeded localStorage), the page booted at ``site + query``."""
    _missing_axe()
    contexts: list[Any] = []

    def open_page(url: str, items: dict[str, str] | None = None) -> tuple[Page, Auditor]:
        ctx = chromium.new_context(viewport=WIDTHS[0], service_workers="block",
                                   reduced_motion="reduce")
        ctx.set_default_timeout(BOOT_TIMEOUT_MS)
        contexts.append(ctx)
        if items:
            ctx.add_init_script(
                "(() => { if (sessionStorage.getItem('seeded')) return;"
                " sessionStorage.setItem('seeded', '1');"
                f" const d = {json.dumps(items)};"
                " for (const k in d) localStorage.setItem(k, d[k]); })()")
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors  # type: ignore[attr-defined]
        page.goto(url)
        wait_table(page)
        return page, Auditor(page)

    yield open_page
    for ctx in contexts:
        ctx.close()


def on(page: Page, screen: str) -> None:
    page.wait_for_selector(f"#game[data-screen='{screen}']", state="attached")


def reopen(page: Page, link: str) -> None:
    """Open a link whose only difference from the page's address is its fragment."""
    page.goto(link)
    page.reload()
    wait_table(page)


def my_turn(page: Page) -> None:
    """The table waits for the person at the screen (the computers have played)."""
    expect(page.get_by_test_id("turn")).to_contain_text("Your turn", timeout=90_000)


def query(site: str, **params: Any) -> str:
    return site + "?" + urllib.parse.urlencode(params)


def test_solo_round_guess_rule_guide_round_end_replay_and_links(audit: Any, site: str) -> None:
    page, check = audit(query(site, variant="solo", seed=42, rule=RED, pace="instant"))
    on(page, "setup")
    check("new-game screen")
    page.get_by_role("button", name="How to play").click()
    on(page, "help")
    check("How to play")
    page.get_by_role("button", name="Back").click()
    on(page, "setup")
    page.get_by_role("button", name="Start", exact=True).click()
    on(page, "table")
    for right in (True, False):
        code = pick(page, RED, right)
        assert code is not None
        play(page, code)
    check("Solo table")
    # the notebook, with a candidate that the plays contradict
    page.get_by_label("Candidate rule, in the rule language").fill("card is black")
    page.get_by_role("button", name="Add to notebook").click()
    expect(page.get_by_test_id("note-0")).to_contain_text("Contradicted")
    check("Solo table with the notebook")
    page.get_by_role("button", name="Guess the rule").click()
    box = page.get_by_label("Your guess, in words or in the rule language")
    expect(box).to_be_visible()
    check("guess dialog")
    box.fill("red cards only")
    expect(page.get_by_role("group", name="How your guess was read")).to_be_visible()
    check("guess dialog, an English guess read back")
    box.fill("card is")
    expect(page.locator(".guess .rule-error")).to_be_visible()
    check("guess dialog, a guess with an error")
    page.get_by_role("button", name="How to write a rule").click()
    on(page, "rule-help")
    check("the rule guide (from the guess)")
    page.get_by_role("button", name="Back").click()
    on(page, "table")
    guess(page, "card is hearts")
    page.wait_for_selector("[data-testid=verdict]")
    check("a wrong guess's verdict")
    guess(page, RED)
    on(page, "round-end")
    expect(page.get_by_role("table", name="Scores")).to_be_visible()
    check("round end")
    link = page.get_by_label("Replay link").input_value()
    reopen(page, link)
    on(page, "replay")
    check("replay viewer")
    page.get_by_role("button", name="Last").click()
    page.locator("summary", has_text="Show the secret rule").click()
    expect(page.get_by_test_id("replay-rule")).to_be_visible()
    check("replay viewer, at the end, the rule shown")
    reopen(page, site + "#c=AAAAthis-is-not-a-challenge")
    expect(page.get_by_test_id("link-message")).to_contain_text("cannot be opened")
    check("a damaged link's message")
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    check.check()


def test_lesson_daily_puzzle_and_challenge(audit: Any, site: str) -> None:
    page, check = audit(query(site, date=DAY.isoformat()))
    on(page, "setup")
    page.get_by_role("button", name="Learn to play").click()
    lesson = page.get_by_role("region", name="Lesson")
    expect(lesson).to_contain_text("This is the mainline")
    check("Learn to play, first step")
    lesson.get_by_role("button", name="Next").click()
    expect(lesson).to_contain_text("This is your hand")
    check("Learn to play, the hand")
    lesson.get_by_role("button", name="Leave the lesson").click()
    page.get_by_role("button", name="New game", exact=True).click()
    on(page, "setup")
    page.get_by_role("button", name="Daily puzzle", exact=True).click()
    on(page, "table")
    page.wait_for_selector(".hand .card", state="attached")
    check("daily puzzle table")
    guess(page, daily_puzzle(DAY).rule.text)
    on(page, "round-end")
    expect(page.get_by_role("textbox", name="Daily result")).to_be_visible()
    check("daily puzzle round end, the result to share")
    page.get_by_role("button", name="New game", exact=True).click()
    on(page, "setup")
    page.get_by_role("button", name="Challenge a friend").click()
    on(page, "challenge-write")
    check("challenge editor")
    page.get_by_label("Your name").fill("Alice")
    page.get_by_label("The secret rule").fill("card is")
    expect(page.locator(".challenge-write .rule-error")).to_be_visible()
    check("challenge editor, a rule with an error")
    page.get_by_label("The secret rule").fill(RED)
    page.get_by_role("button", name="Make the link").click()
    link = page.get_by_label("Challenge link").input_value()
    check("challenge editor, the link made")
    reopen(page, link)
    on(page, "table")
    expect(page.locator("#status")).to_contain_text("Alice")
    check("challenge table")
    code = pick(page, open_challenge(link.split("#c=", 1)[1]).rule, True)
    assert code is not None
    play(page, code)
    guess(page, RED)
    on(page, "round-end")
    check("challenge round end")
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    check.check()


def test_new_eleusis_royal_bets_express_writer_and_match_summary(audit: Any,
                                                                   site: str) -> None:
    page, check = audit(query(site, variant="new-eleusis", pace="instant"))
    on(page, "setup")
    check("new-game screen, New Eleusis")
    page.get_by_role("button", name="Start", exact=True).click()
    on(page, "table")
    my_turn(page)
    check("New Eleusis table with computers")

    page.get_by_role("button", name="New game", exact=True).click()
    on(page, "setup")
    page.locator("#setup-variant").select_option("royal")
    check("new-game screen, Royal")
    page.get_by_role("button", name="Start", exact=True).click()
    on(page, "table")
    my_turn(page)
    # two cards of the hand, by place: Royal deals from three decks, so the first two
    # may be two copies of one card (by code, the same copy would be clicked twice)
    for k in range(2):
        page.locator(".hand .card").nth(k).click()
    plan = page.get_by_role("group", name="Your bet: mark each chosen card")
    expect(plan.locator(".bet-mark")).to_have_count(2)
    plan.locator(".bet-mark").last.click()
    expect(plan.locator(".bet-mark.refuse")).to_have_count(1)
    check("Royal table, a bet marked")

    page.get_by_role("button", name="New game", exact=True).click()
    on(page, "setup")
    page.locator("#setup-variant").select_option("express")
    page.locator("#setup-dealer").select_option("writer")
    check("new-game screen, Express with a person dealing")
    page.get_by_role("button", name="Start", exact=True).click()
    on(page, "write-rule")
    expect(page.get_by_role("dialog", name="Pass the device")).to_be_visible()
    check("write-rule screen, passing the device")
    page.get_by_role("button", name="I am Dealer: write the rule").click()
    rule = page.get_by_role("textbox", name="Secret rule")
    rule.fill(RED)
    expect(page.locator(".rule-english")).to_contain_text("red")
    check("write-rule screen")
    page.get_by_role("button", name="Deal with this rule").click()
    on(page, "table")
    expect(page.get_by_role("dialog", name="Pass the device")).to_be_visible()
    check("Express table, passing the device")
    page.get_by_role("button", name="I am Dealer: go on").click()
    expect(page.get_by_label("A hint for the players")).to_be_visible()
    check("Express table, the dealer's hint")
    page.get_by_role("button", name="Start play").click()
    page.get_by_role("button", name="I am You: show my hand").click()
    page.wait_for_selector(".hand .card", state="attached")
    check("Express table")

    # a person judging every play by hand
    page.get_by_role("button", name="New game", exact=True).click()
    on(page, "setup")
    page.locator("#setup-dealer").select_option("judge")
    page.get_by_role("button", name="Start", exact=True).click()
    on(page, "table")
    page.get_by_role("button", name="I am Dealer: go on").click()
    page.get_by_role("button", name="Start play").click()
    page.get_by_role("button", name="I am You: show my hand").click()
    page.locator(".hand .card").first.click()
    page.get_by_role("button", name="Play", exact=True).click()
    page.get_by_role("button", name="I am Dealer: go on").click()
    expect(page.get_by_role("group", name="Your verdict")).to_be_visible()
    check("Express table, the dealer's verdict by hand")
    assert not page.errors, page.errors  # type: ignore[attr-defined]

    page, check2 = audit(site, match_saved(1, running=False))
    on(page, "round-end")
    check2("a match's score sheet between rounds")
    page.get_by_role("button", name="End the match here").click()
    # the question's answer by the keyboard, as a keyboard player gives it: in CI a
    # click here twice waited 120 s for the button to hold still over two animation
    # frames (after the auditor's changes of viewport), the page otherwise answering
    confirm = page.get_by_role("button", name="End the match", exact=True)
    expect(confirm).to_be_visible()
    confirm.press("Enter")
    expect(page.get_by_test_id("match-summary")).to_be_visible()
    check2("match summary")
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    check2.found[:0] = check.found
    check2.check()


def test_the_error_panel(chromium: Browser, site: str) -> None:
    """The panel shown when the game cannot start (here: its code cannot be downloaded)."""
    _missing_axe()
    ctx = chromium.new_context(viewport=WIDTHS[0], service_workers="block",
                               reduced_motion="reduce")
    ctx.set_default_timeout(BOOT_TIMEOUT_MS)
    try:
        page = ctx.new_page()
        page.route("**/build/app.zip", lambda route: route.fulfill(status=404, body=b""))
        page.goto(site)
        page.wait_for_selector("#error-panel:not([hidden])")
        expect(page.get_by_role("button", name="Try again")).to_be_visible()
        check = Auditor(page)
        check.audit_only = True
        check("the error panel")
        check.check()
    finally:
        ctx.close()


def test_how_to_play_can_be_read_while_the_engine_loads(chromium: Browser, site: str) -> None:
    """Before Python is up, the shell's "How to play" opens the rules, written at
    build time, in the language picked on the shell; the page passes axe."""
    _missing_axe()
    ctx = chromium.new_context(viewport=WIDTHS[0], service_workers="block",
                               reduced_motion="reduce")
    ctx.set_default_timeout(BOOT_TIMEOUT_MS)
    try:
        page = ctx.new_page()
        page.route("**/build/app.zip", lambda route: None)  # the engine never arrives
        page.goto(site)
        page.get_by_label("Language").select_option("pl")
        with ctx.expect_page() as opened:
            page.get_by_role("link", name="Jak grać").click()
        rules = opened.value
        rules.wait_for_load_state()
        assert page.get_attribute("body", "data-ready") == "0"  # still loading
        assert rules.title() == "Jak grać — Eleusis"
        assert rules.evaluate("document.documentElement.lang") == "pl"
        assert rules.locator("script").count() == 0
        toc = rules.get_by_role("navigation")
        expect(toc.get_by_role("link").first).to_be_visible()
        first = toc.get_by_role("link").first.inner_text()
        expect(rules.get_by_role("heading", level=2, name=first)).to_be_visible()
        check = Auditor(rules)
        check.audit_only = True
        check("How to play, written at build time")
        check.check()
    finally:
        ctx.close()
