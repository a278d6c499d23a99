"""The page in the player's language: Polish from the browser, a switch that is remembered.

A browser whose preferred language is Polish gets the page in Polish before
Python is ready (the shell) and after (the screens Python draws). On every
screen walked (the new-game screen, the table, a card played, the guess box)
no text of the page is an English message of the catalogues that has a
different Polish translation: every text node, ``aria-label``, ``title`` and
option is compared with every message (its ``{placeholders}`` matching any
text). The switch changes ``<html lang>`` and the texts at once, and a reload
keeps the choice.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import BOOT_TIMEOUT_MS, assert_no_error, wait_game_started, wait_ready
from tests.i18n.catalogue_support import english_messages

from eleusis.challenge import make_challenge

ROOT = Path(__file__).resolve().parents[2]

#: Every text a page shows to a person: own text of elements, labels, titles.
TEXTS_JS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || el.closest('script, style, mpy-config, [hidden], .visually-hidden-none')) continue;
    const text = node.textContent.trim();
    if (text) out.push(text);
  }
  for (const el of document.querySelectorAll('[aria-label], [title]')) {
    if (el.closest('[hidden]')) continue;
    for (const name of ['aria-label', 'title']) {
      const v = el.getAttribute(name);
      if (v && v.trim()) out.push(v.trim());
    }
  }
  out.push(document.title);
  return out;
}"""


def english_left(page: Any, lang: str) -> list[str]:
    """Texts of the page that are an English message (not translated into ``lang``)."""
    messages = english_messages(lang)
    found = []
    for text in page.evaluate(TEXTS_JS):
        for pattern, msgid in messages:
            if pattern.match(text):
                found.append(f"{text!r} (message {msgid!r})")
    return found


@pytest.fixture
def polish(chromium: Any) -> Iterator[Any]:
    """A page whose browser prefers Polish, then English."""
    context = chromium.new_context(service_workers="block", locale="pl-PL")
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    page = context.new_page()
    try:
        yield page
        assert_no_error(page)
    finally:
        context.close()


def test_a_polish_browser_gets_every_screen_in_polish(polish: Any, site: str) -> None:
    page = polish
    page.goto(site)
    # the shell, whatever Python is doing
    assert page.evaluate("document.documentElement.lang") == "pl"
    assert page.locator(".tagline").inner_text().startswith("Zagrywaj karty")
    wait_ready(page)
    page.wait_for_selector("#game[data-screen='setup']")
    assert page.locator("#setup-title").inner_text() == "Nowa gra"
    assert english_left(page, "pl") == []
    page.locator("[data-key='start']").click()
    wait_game_started(page)
    assert english_left(page, "pl") == []
    assert page.locator(".log").count() == 1
    # a card played: the log speaks Polish too
    page.locator(".hand .card").first.click()
    page.locator("[data-key='ctl-Play']").click()
    page.wait_for_function("() => document.querySelector('.log li') !== null")
    log = page.locator(".log").inner_text()
    assert "Zagrywasz" in log or "zagrywa" in log, log
    assert english_left(page, "pl") == []
    assert page.evaluate("document.documentElement.lang") == "pl"


def test_the_switch_is_remembered_and_lang_follows(app_page: Any, site: str) -> None:
    page = app_page
    page.goto(site)
    wait_ready(page)
    page.wait_for_selector("#game[data-screen='setup']")
    assert page.evaluate("document.documentElement.lang") == "en"
    page.select_option("#language", "fr")
    page.wait_for_function("() => document.getElementById('setup-title')"
                           ".textContent === 'Nouvelle partie'")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.locator(".tagline").inner_text().startswith("Jouez des cartes")
    assert page.evaluate("localStorage.getItem('eleusis.language')") == "fr"
    assert english_left(page, "fr") == []
    page.reload()
    assert page.evaluate("document.documentElement.lang") == "fr"
    wait_ready(page)
    page.wait_for_selector("#game[data-screen='setup']")
    assert page.locator("#setup-title").inner_text() == "Nouvelle partie"
    assert page.locator("#language").input_value() == "fr"
    page.select_option("#language", "it")
    page.wait_for_function("() => document.getElementById('setup-title')"
                           ".textContent === 'Nuova partita'")
    assert page.evaluate("document.documentElement.lang") == "it"
    assert english_left(page, "it") == []


def test_a_polish_player_reads_rule_errors_and_a_wrong_guess_in_polish(polish: Any,
                                                                       site: str) -> None:
    """What is said about a rule is Polish too: a type error in a guess (with its
    column), and the counterexample that answers a wrong guess. On a phone, where the
    longer Polish words make the guess panel taller than the screen's bottom, nothing
    covers its buttons."""
    page = polish
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(site + "?variant=solo")
    wait_ready(page)
    page.locator("[data-key='start']").click()
    wait_game_started(page)
    page.locator("[data-key='ctl-Guess the rule']").click()
    page.locator("#guess-text").fill("card.suit == 3")
    guess = page.locator("section.guess")
    page.wait_for_function("() => document.querySelector('section.guess').innerText"
                           ".includes('kolumna')")
    said = guess.inner_text()
    assert "nie można porównać wartości typu „kolor” z wartością typu „liczba”" in said, said
    assert english_left(page, "pl") == []
    # a rule that accepts every card is never the secret one: the guess is wrong
    page.locator("#guess-text").fill("card is red or card is black")
    page.wait_for_function("() => document.querySelector('[data-key=ctl-guess-submit]')"
                           "?.disabled === false")
    page.locator("[data-key='ctl-guess-submit']").click(timeout=10_000)  # (not covered)
    verdict = page.get_by_test_id("verdict")
    verdict.wait_for()
    assert verdict.inner_text().startswith("Źle."), verdict.inner_text()
    assert "twoja reguła przyjmuje" in verdict.inner_text()
    assert "tajna reguła ją odrzuca" in verdict.inner_text()
    assert english_left(page, "pl") == []


@pytest.mark.parametrize(("lang", "width", "height"), [("fr", 360, 740), ("it", 1280, 800)])
def test_a_friends_challenge_played_to_the_end_in_french_and_italian(
        chromium: Any, site: str, lang: str, width: int, height: int) -> None:
    """A challenge link opened by a French (phone) or Italian (laptop) browser: the
    table, a card played, a guess with a syntax error, a wrong guess, the right one
    and the score sheet, with no English message of the catalogues anywhere."""
    token = make_challenge("card is red", 7, "Ada")
    context = chromium.new_context(service_workers="block", locale=lang,
                                   viewport={"width": width, "height": height})
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    page = context.new_page()
    try:
        page.goto(f"{site}#c={token}")
        wait_ready(page)
        wait_game_started(page)
        assert page.evaluate("document.documentElement.lang") == lang
        assert english_left(page, lang) == []
        page.locator(".hand .card").first.click()
        page.locator("[data-key='ctl-Play']").click()
        page.wait_for_function("() => document.querySelector('.log li') !== null")
        assert english_left(page, lang) == []
        page.locator("[data-key='ctl-Guess the rule']").click()
        page.locator("#guess-text").fill("card is rouge")
        page.wait_for_function("() => /colonn[ea] 9/.test(document.querySelector("
                               "'section.guess').innerText)")
        assert english_left(page, lang) == []
        for guess in ("card is red or card is black", "card is red"):
            page.locator("#guess-text").fill(guess)
            page.wait_for_function("() => document.querySelector('[data-key=ctl-guess-submit]')"
                                   "?.disabled === false")
            page.locator("[data-key='ctl-guess-submit']").click(timeout=10_000)
            if guess != "card is red":
                page.get_by_test_id("verdict").wait_for()
                assert english_left(page, lang) == []
        page.wait_for_selector("#game[data-screen='round-end']", state="attached")
        assert english_left(page, lang) == []
        reason = page.locator(".round-end .reason").inner_text().replace("\u00a0", " ")
        assert reason == {"fr": "Pourquoi elle s'est terminée : la règle a été trouvée.",
                          "it": "Perché è finita: la regola è stata trovata."}[lang], reason
        # the player's seat is named in the player's language, not "You"
        row = page.locator(".round-end table tbody tr").first.inner_text()
        assert row.split()[0] == {"fr": "Vous", "it": "Tu"}[lang], row
        assert_no_error(page)
    finally:
        context.close()
