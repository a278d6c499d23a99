"""Learn to play, measured: clicks, keys and time from the first screen to the found rule.

``.venv/bin/python bench/lesson.py --runs 3`` builds and serves the site
(``tools/build.py``, ``tools/serve.py``) and drives Debian's Chromium through
Playwright as a newcomer does with the mouse: "Learn to play", "Next", a right
card, a wrong card, three right cards, "Guess the rule", the words "alternate
colors", "Guess this rule". The cards are chosen with the lesson's rule (a
person finds their own; the number of plays is the one the lesson asks for
before it offers the guess). Between two actions the script pauses as a person
reading the coach would (``--pause``); the pauses are not counted.

It prints, per run and as medians:

* **clicks** and **keys** a person needs (the typed guess counts one key per
  character);
* **page time**: the sum, over the actions, of the time from the action to
  the page's answer (the coach's next step, the move recorded, the round's
  end), the page's own share of the journey; the guess is typed by
  Playwright at machine speed, each key answered by the page (the reading is
  redrawn as you type), and its share is shown apart;
* **words** the coach shows on the way (what a person reads);
* an **estimate for a person**: page time + reading at ``--wpm`` words a
  minute + ``--think`` seconds to find and press each control + typing at
  ``--cps`` characters a second. It is a model of a reader, not a measured
  person: say so when quoting it.

The boot (to the first screen) is reported apart; the machine is shared, so
compare figures taken in one run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "src"))

import build  # noqa: E402
import serve  # noqa: E402
from browser_support import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from share_support import hand, pick  # noqa: E402

from eleusis_web.tutorial import LESSON_RULE  # noqa: E402

GUESS = "alternate colors"


class Journey:
    """One newcomer's run: counts the clicks and keys, times the page's answers."""

    def __init__(self, page: Any, pause_ms: int) -> None:
        self.page = page
        self.pause_ms = pause_ms
        self.clicks = 0
        self.keys = 0
        self.page_s = 0.0
        self.words = 0
        self.seen: set[str] = set()
        self.typing_s = 0.0

    def read_coach(self) -> None:
        """The coach's text, read once per step (its words are counted)."""
        box = self.page.locator(".coach .coach-text")
        if box.count():
            text = str(box.inner_text())
            if text not in self.seen:
                self.seen.add(text)
                self.words += len(text.split())
        self.page.wait_for_timeout(self.pause_ms)  # a person reads: not counted

    def act(self, do: Any, answered: str, *args: Any) -> None:
        """Do one action, then time until the page answers (``answered``: a JS condition)."""
        start = time.perf_counter()
        do()
        self.page.wait_for_function(answered, arg=list(args) if args else None,
                                    timeout=120_000)
        self.page_s += time.perf_counter() - start

    def click(self, locator: Any, answered: str, *args: Any) -> None:
        self.clicks += 1
        self.act(locator.click, answered, *args)

    def play(self, right: bool) -> None:
        page = self.page
        code = pick(page, LESSON_RULE, right) or hand(page)[0]
        turns = page.locator("#game").get_attribute("data-turns")
        card = page.locator(f".hand .card[data-code='{code}']").first
        self.click(card, "c => document.querySelector(`.hand .card[data-code='${c[0]}']`)"
                   "?.getAttribute('aria-pressed') === 'true'", code)
        self.page.wait_for_timeout(self.pause_ms // 4)
        self.click(page.get_by_role("button", name="Play", exact=True),
                   "t => document.getElementById('game').dataset.turns !== t[0]", turns)
        self.read_coach()


STEP_IS = "s => document.querySelector('.coach')?.dataset.step === s[0]"


def run(browser: Any, site: str, pause_ms: int) -> dict[str, float]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800},
                              service_workers="block")
    try:
        page = ctx.new_page()
        t0 = time.perf_counter()
        page.goto(site)
        page.wait_for_selector("#game[data-screen='setup']", state="attached",
                               timeout=180_000)
        boot_s = time.perf_counter() - t0
        j = Journey(page, pause_ms)
        page.wait_for_timeout(pause_ms)  # the first screen, read
        j.click(page.get_by_role("button", name="Learn to play"), STEP_IS, "intro")
        j.read_coach()
        j.click(page.locator(".coach").get_by_role("button", name="Next"), STEP_IS,
                "first-play")
        j.read_coach()
        for right in (True, False, True, True, True):
            j.play(right)
        assert page.locator(".coach").get_attribute("data-step") == "guess"
        j.click(page.get_by_role("button", name="Guess the rule"),
                "() => !!document.getElementById('guess-text')")
        box = page.get_by_label("Your guess, in words or in the rule language")
        box.click()
        j.clicks += 1
        j.keys += len(GUESS)
        before = j.page_s
        j.act(lambda: box.press_sequentially(GUESS),
              "() => !!document.querySelector('[data-key=guess-reading-0]')")
        j.typing_s = j.page_s - before
        page.wait_for_timeout(pause_ms)  # the reading shown back, read
        j.click(page.get_by_role("button", name="Guess this rule", exact=False).first,
                "() => document.getElementById('game').dataset.screen === 'round-end'")
        found = page.locator(".round-end").inner_text()
        assert "You found the secret rule" in found, found
        return {"boot_s": boot_s, "clicks": j.clicks, "keys": j.keys, "page_s": j.page_s,
                "typing_s": j.typing_s, "words": j.words}
    finally:
        ctx.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--pause", type=int, default=800, help="ms a person pauses to read")
    ap.add_argument("--wpm", type=float, default=200.0, help="reading speed, words a minute")
    ap.add_argument("--think", type=float, default=1.5, help="seconds to find each control")
    ap.add_argument("--cps", type=float, default=3.0, help="typing, characters a second")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    build.build(ROOT)
    server = serve.serve_in_thread(ROOT)
    results = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                for k in range(args.runs):
                    r = run(browser, server.url, args.pause)
                    results.append(r)
                    print(f"run {k + 1}: boot {r['boot_s']:.1f} s, {r['clicks']:.0f} clicks, "
                          f"{r['keys']:.0f} keys, page time {r['page_s']:.1f} s "
                          f"(typing the guess {r['typing_s']:.1f} s), "
                          f"{r['words']:.0f} words read")
            finally:
                browser.close()
    finally:
        server.close()
    med = {k: statistics.median(r[k] for r in results) for k in results[0]}
    reading = med["words"] / args.wpm * 60
    person = med["page_s"] + reading + med["clicks"] * args.think + med["keys"] / args.cps
    print(f"\nmedian of {len(results)}: {med['clicks']:.0f} clicks and {med['keys']:.0f} keys; "
          f"page time {med['page_s']:.1f} s; {med['words']:.0f} words of coaching "
          f"({reading:.0f} s at {args.wpm:.0f} words/min)")
    print(f"estimate for a person: {person:.0f} s (page {med['page_s']:.1f} + reading "
          f"{reading:.0f} + {args.think} s a click + typing at {args.cps} chars/s); "
          f"boot to the first screen {med['boot_s']:.1f} s (not included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
