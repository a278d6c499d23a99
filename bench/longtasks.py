"""Long main-thread tasks during play: a browser benchmark (not a test).

The issue's target: while a person plays against computer scientists, no
main-thread task of the page exceeds 100 ms. This boots the page in headless
Chromium (Debian's ``/usr/bin/chromium``) with a ``PerformanceObserver`` for
``longtask`` entries installed before any script runs, starts a game of each
table variant with three computer scientists at the "instant" pace, plays the
person's turns (the first card of the hand, in Royal bet as accepted, or
"No play"; never "Continue":
the moment to declare prophet or guess passes by itself), and prints,
separately for the boot and for the play, the number of tasks over 50 ms (the
browser's long-task threshold), over 100 ms, and the longest; then what the
computer ticks spent (the table's ``performance.measure`` entries): a slice
of a decision (``think``), a tick that applied a move (``computer``), the
save, the redraw, and a slice of the round-end explanations; the page's
answer to a person's intent (``intent``), and the drawing of a new game's
table, which follows a Start click in a task of its own (``draw``).

Run: ``.venv/bin/python bench/longtasks.py [--turns 12] [--variants new_eleusis,royal]
[--seed 5] [--rule "..."]``
after ``make setup``. Figures go to docs/performance.md ("Computer scientists").
"""

from __future__ import annotations

import argparse
import statistics
import sys
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import build  # noqa: E402
import serve  # noqa: E402
from browser_support import BOOT_TIMEOUT_MS, CHROMIUM, CHROMIUM_ARGS  # noqa: E402

OBSERVER = """
window.__longtasks = [];
window.__phase = 'boot';
new PerformanceObserver(list => {
  for (const e of list.getEntries())
    window.__longtasks.push({phase: window.__phase, ms: e.duration});
}).observe({type: 'longtask', buffered: true});
"""

WAIT_FOR_PERSON = """() => {
  const g = document.getElementById('game');
  if (!g || g.dataset.screen === 'round-end') return true;
  const t = document.querySelector('[data-testid=turn]');
  return g.dataset.busy !== '1' && t && /^(Your turn|As the)/.test(t.textContent);
}"""


def play_round(page: Any, site: str, variant: str, seed: int, turns: int,
               rule: str = "") -> tuple[int, int]:
    """Start ``variant`` with the default seats (you and three computers) and play.

    Returns how many turns the person played and how many moves the round had.
    """
    query: dict[str, str | int] = {"variant": variant, "seed": seed, "pace": "instant"}
    if rule:
        query["rule"] = rule  # (the table's test hook: the dealer's rule)
    page.goto(site + "?" + urllib.parse.urlencode(query))
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=BOOT_TIMEOUT_MS)
    page.wait_for_selector("#game[data-screen='setup']", state="attached",
                           timeout=BOOT_TIMEOUT_MS)
    page.wait_for_timeout(500)  # let the boot's own tasks settle before the phase switch
    page.evaluate("window.__phase = 'play'")
    page.get_by_role("button", name="Start", exact=True).click()
    played = 0
    for _ in range(turns):
        page.wait_for_function(WAIT_FOR_PERSON, timeout=120_000)
        if page.locator("#game").get_attribute("data-screen") == "round-end":
            break
        played += 1
        cards = page.locator(".hand .card")
        if cards.count():
            cards.first.click()
        for name in ("Play", "Bet", "No play", "Right"):
            button = page.get_by_role("button", name=name, exact=True)
            if button.count() and button.first.is_enabled():
                button.first.click()
                break
        page.wait_for_timeout(50)
    page.wait_for_timeout(1000)  # the last moves and the round-end explanations
    moves = int(page.locator("#game").get_attribute("data-turns") or 0)
    return played, moves


def main() -> None:
    """Measure and print the long tasks of boot and play per variant."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=12)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--variants", default="new_eleusis,express,royal")
    ap.add_argument("--rule", default="",
                    help="the dealer's rule (default: the library's, by the seed); a rule "
                         "the casual scientists cannot find keeps the round going")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    build.build(ROOT)
    server = serve.serve_in_thread(ROOT)
    rows = []
    breakdown: list[tuple[str, str, int, float, float]] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for variant in args.variants.split(","):
                context = browser.new_context(service_workers="block")
                context.add_init_script(OBSERVER)
                page = context.new_page()
                played, moves = play_round(page, str(server.url), variant, args.seed,
                                           args.turns, args.rule)
                print(f"{variant}: the person played {played} turns; {moves} moves in all",
                      flush=True)
                tasks = page.evaluate("window.__longtasks")
                parts = page.evaluate(
                    "performance.getEntriesByType('measure')"
                    ".filter(e => e.name.startsWith('eleusis:'))"
                    ".map(e => ({name: e.name, ms: e.duration}))")
                context.close()
                for name in ("eleusis:think", "eleusis:computer", "eleusis:save",
                             "eleusis:render", "eleusis:explain", "eleusis:intent",
                             "eleusis:draw"):
                    ms = [x["ms"] for x in parts if x["name"] == name]
                    if ms:
                        breakdown.append((variant, name.split(":")[1], len(ms),
                                          statistics.median(ms), max(ms)))
                for phase in ("boot", "play"):
                    ms = [t["ms"] for t in tasks if t["phase"] == phase]
                    rows.append((variant, phase, len(ms), sum(1 for x in ms if x > 100),
                                 max(ms, default=0.0),
                                 statistics.median(ms) if ms else 0.0))
            browser.close()
    finally:
        server.close()
    print(f"{'variant':<12} {'phase':<5} {'>50ms':>6} {'>100ms':>7} {'longest':>9} {'median':>8}")
    for variant, phase, n, over, longest, med in rows:
        print(f"{variant:<12} {phase:<5} {n:>6} {over:>7} {longest:>8.0f}ms {med:>7.0f}ms")
    print()
    print("what a computer's tick spends (performance.measure entries of the table)")
    print(f"{'variant':<12} {'part':<9} {'ticks':>6} {'median':>8} {'longest':>9}")
    for variant, part, n, med, longest in breakdown:
        print(f"{variant:<12} {part:<9} {n:>6} {med:>7.1f}ms {longest:>8.1f}ms")


if __name__ == "__main__":
    main()
