"""Hostile links and stored values in the page: a browser benchmark (not a test).

The target (issue 19): no main-thread task over 100 ms for any link, stored
value or intent the page accepts or refuses. This boots the page in headless
Chromium (Debian's ``/usr/bin/chromium``) with a ``PerformanceObserver`` for
``longtask`` entries, then

* **links**: on one running page, opens each link in turn (``location.hash``)
  and prints the longest main-thread task from the moment the link is set
  until its final screen (the replay viewer, or the page's message about the
  link), the most CPU time one main-thread task took meanwhile (from a
  Chromium trace: on a loaded machine a task's wall time also counts the
  time the thread waited for a core), the time to the first screen that
  answers (the "Opening the replay" progress screen, the viewer or the
  message) and the time to the final screen. The links: the largest valid
  ones within the engine's bounds (24 guesses each judged by an exact
  comparison with a rule that reads four cards back; 795 moves of wrong
  plays, up to the 16-deck bound; 100 hints)
  and refused ones (the 20,000-bracket notebook, 16,000 hints, a header
  claiming 99,999 moves, 25 guesses, a 400,001-character fragment, a text
  that inflates past 1 MiB, and a marathon whose last move was tampered
  with, refused only after the 794 moves before it);
* **stored values**: a fresh profile whose ``localStorage`` holds one poisoned
  value (20,000 ``[`` as the current game or the daily history, a round of
  16,000 hints, a saved game of 24 deep guesses), then a load: the time from
  navigation to the first screen and to a usable one (not "Opening your
  game"), the longest task before the first screen (the boot's own, Pyodide's
  start: compare with the clean profile's) and after it, and the most CPU
  time one task took once the table was installed (the ``eleusis:table``
  mark: the resumed game's decoding and drawing, Pyodide's start aside);
* **a live guess**: one deep guess typed at the table (Solo on the same rule).

Figures are printed, never asserted; compare figures within one run (the
machine's load changes between runs). Run ``make bench-hostile`` or
``.venv/bin/python bench/hostile.py [--only links,storage,guess]`` after
``make setup``. Figures go to docs/performance.md ("Hostile inputs").
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import time
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import build  # noqa: E402
import serve  # noqa: E402
from browser_support import BOOT_TIMEOUT_MS, CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.share.hostile_support import (  # noqa: E402
    DEEP_RULE,
    deep_guess_save,
    deep_notebook_link,
    guess_flood,
    hint_flood,
    replay_text,
    wrong_play_marathon,
)

from eleusis import replay  # noqa: E402
from eleusis.cards import ALL_CARDS  # noqa: E402
from eleusis.game import Play, apply, make_config, new_game  # noqa: E402

#: Installed before any script: every long task, with its start.
OBSERVER = """
window.__longtasks = [];
new PerformanceObserver(list => {
  for (const e of list.getEntries())
    window.__longtasks.push({start: e.startTime, ms: e.duration});
}).observe({type: 'longtask', buffered: true});
"""

#: Set the link and watch the screen: the first answer and the final screen, in ms.
OPEN_LINK = """async (fragment) => {
  const game = document.getElementById('game');
  const t0 = performance.now();
  let first = null;
  const state = () => {
    const s = game.dataset.screen;
    const msg = document.querySelector('[data-testid=link-message]');
    const answered = s === 'replay-loading' || s === 'replay' || msg;
    if (first === null && answered) first = performance.now();
    return (s === 'replay' || msg) ? performance.now() : null;
  };
  window.__seen = null;
  const mo = new MutationObserver(() => {
    const t = state();
    if (t !== null && window.__seen === null) window.__seen = t;
  });
  mo.observe(document.body, {subtree: true, childList: true, attributes: true,
                             attributeFilter: ['data-screen']});
  location.hash = fragment;
  await new Promise(resolve => {
    const poll = () => (window.__seen !== null) ? resolve() : setTimeout(poll, 20);
    poll();
  });
  mo.disconnect();
  await new Promise(r => setTimeout(() => requestAnimationFrame(() => setTimeout(r, 50)), 300));
  const done = window.__seen;
  const tasks = window.__longtasks.filter(e => e.start >= t0 && e.start <= done + 50);
  return {first: first - t0, done: done - t0, longest: Math.max(0, ...tasks.map(e => e.ms)),
          over100: tasks.filter(e => e.ms > 100).length,
          screen: game.dataset.screen,
          message: (document.querySelector('[data-testid=link-message]') || {}).textContent || ''};
}"""

BOOT_FIGURES = """() => {
  const g = document.getElementById('game');
  const first = window.__firstScreen;
  const all = window.__longtasks;
  const after = all.filter(e => e.start >= first);
  const before = all.filter(e => e.start < first);
  return {first: first, longestBefore: Math.max(0, ...before.map(e => e.ms)),
          longestAfter: Math.max(0, ...after.map(e => e.ms)),
          screen: g ? g.dataset.screen : '',
          notice: (document.querySelector('.notice') || {}).textContent || ''};
}"""

#: The first time ``#game`` carries a screen (from navigation start), watched from the start.
FIRST_SCREEN = """
window.__firstScreen = null;
new MutationObserver((_, mo) => {
  const g = document.getElementById('game');
  if (g && g.dataset.screen && window.__firstScreen === null) {
    window.__firstScreen = performance.now(); mo.disconnect();
  }
}).observe(document, {subtree: true, childList: true, attributes: true,
                      attributeFilter: ['data-screen']});
"""


def b64(raw: bytes) -> str:
    """URL-safe base64 without padding."""
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def tampered_marathon(moves: int) -> str:
    """The marathon link with its last move's card replaced by one the player does not hold
    (the byte is changed in the link's body: the log is refused only at that move)."""
    for n in range(moves, moves - 20, -1):
        text = wrong_play_marathon(n)
        states = replay.decode_states(text)
        last = states[-1].actions[-1]
        if isinstance(last, Play) and len(last.cards) == 1:
            break
    else:
        raise AssertionError("no marathon ends with a one-card play")
    hand = set(states[-2].hand(last.seat))
    stranger = next(c for c in ALL_CARDS if c not in hand)
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    body = bytearray(zlib.decompress(raw[2:]) if raw[1] & 1 else raw[2:])
    assert body[-1] == last.cards[0].index
    body[-1] = stranger.index
    return b64(bytes((replay.VERSION, 1)) + zlib.compress(bytes(body), 9))


def short_replay() -> str:
    """A real Solo round of three plays."""
    state = new_game(make_config("solo", ["You"], "card is red", 3))
    for _ in range(3):
        state = apply(state, Play(0, (state.hand(0)[0],)))
    return replay.encode(state)


def links() -> list[tuple[str, str]]:
    """(name, fragment) of every link measured."""
    _, token = deep_notebook_link()
    oversize = b64(bytes((replay.VERSION, 1)) + zlib.compress(b"\0" * (2 << 20), 9))
    return [
        ("accepted: 24 deep guesses (the most work a link may ask)",
         "#r=" + guess_flood(replay.MAX_GUESSES)),
        ("accepted: 795 moves of wrong plays (16 decks)", "#r=" + wrong_play_marathon(795)),
        ("accepted: 100 hints", "#r=" + hint_flood(replay.MAX_HINTS)),
        ("accepted, notebook dropped: 20,000 [ in the notebook",
         "#r=" + short_replay() + "&n=" + token),
        ("refused: 16,000 hints", "#r=" + hint_flood(16000)),
        ("refused: a header claiming 99,999 moves",
         "#r=" + replay_text("solo", ["You"], "card is red", [], count=99_999)),
        ("refused: 25 deep guesses", "#r=" + guess_flood(replay.MAX_GUESSES + 1)),
        ("refused: a 400,001-character fragment", "#r=" + "A" * 399_999),
        ("refused: inflates past 1 MiB", "#r=" + oversize),
        ("refused: 795-move marathon, last move tampered", "#r=" + tampered_marathon(795)),
        ("refused at its first character", "#r=%%%"),
    ]


def traced(browser: Any, page: Any, fn: Any, after: str = "") -> tuple[Any, float, float]:
    """Run ``fn()`` under a Chromium trace: (its result, the longest main-thread task's
    wall time, the most CPU time one main-thread task took), in ms. CPU time (the trace's
    ``tdur``) is the work itself; wall time also counts the waits of a loaded machine.
    ``after``: only the tasks that start after the page's ``performance.mark`` of that
    name."""
    browser.start_tracing(page=page, categories=["toplevel", "blink.user_timing"])
    try:
        result = fn()
    finally:
        raw = browser.stop_tracing()
    events = json.loads(raw)["traceEvents"]
    main = {(e["pid"], e["tid"]) for e in events
            if e.get("ph") == "M" and e.get("name") == "thread_name"
            and e.get("args", {}).get("name") == "CrRendererMain"}
    tasks = [e for e in events if e.get("ph") == "X" and (e.get("pid"), e.get("tid")) in main
             and e.get("name") == "ThreadControllerImpl::RunTask"]
    if after:
        marks = [e["ts"] for e in events if e.get("name") == after]
        start = min(marks) if marks else float("inf")
        tasks = [e for e in tasks if e["ts"] >= start]
    wall = max((e.get("dur", 0) for e in tasks), default=0) / 1000
    cpu = max((e.get("tdur", 0) for e in tasks), default=0) / 1000
    return result, wall, cpu


def reset(page: Any) -> None:
    """Back to the new-game screen with no link message: open a short replay, close it."""
    page.evaluate(f"location.hash = '#r={short_replay()}'")
    page.wait_for_selector("#game[data-screen='replay']", state="attached")
    page.get_by_role("button", name="Close the replay").click()
    page.wait_for_selector("#game[data-screen='setup']", state="attached")
    assert page.locator("[data-testid=link-message]").count() == 0
    page.wait_for_timeout(300)


def bench_links(browser: Any, site: str) -> None:
    """Open each link on one running page; print the figures."""
    context = browser.new_context(service_workers="block")
    context.add_init_script(OBSERVER)
    page = context.new_page()
    page.goto(site)
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=BOOT_TIMEOUT_MS)
    page.wait_for_selector("#game[data-screen='setup']", state="attached",
                           timeout=BOOT_TIMEOUT_MS)
    page.wait_for_timeout(1000)
    reset(page)
    print("\n## Links (one running page; ms from setting the link)\n")
    print("| link | characters | first screen | final screen | longest task | tasks > 100 ms "
          "| most CPU in one task | outcome |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, fragment in links():
        r, _, cpu = traced(browser, page, lambda f=fragment: page.evaluate(OPEN_LINK, f))
        outcome = "opened" if r["screen"] == "replay" else "message"
        print(f"| {name} | {len(fragment):,} | {r['first']:.0f} | {r['done']:.0f} | "
              f"{r['longest']:.0f} | {r['over100']} | {cpu:.0f} | {outcome} |", flush=True)
        reset(page)
    context.close()


def storage_cases() -> list[tuple[str, dict[str, str]]]:
    """(name, localStorage items) of every stored value measured."""
    deep = "[" * 20000
    guesses = deep_guess_save(replay.MAX_GUESSES)
    sid = guesses["eleusis.current"]
    flood = json.loads(guesses["eleusis.save." + sid])
    flood["game"]["rounds"] = [hint_flood(16000)]
    return [
        ("clean profile", {}),
        ("current game: 20,000 [", {"eleusis.current": "g1", "eleusis.save.g1": deep}),
        ("daily history: 20,000 [", {"eleusis.daily": deep}),
        ("current game: a round of 16,000 hints",
         {"eleusis.current": sid, "eleusis.save." + sid: json.dumps(flood)}),
        ("current game: 24 deep guesses (a legal save)", guesses),
    ]


def bench_storage(browser: Any, site: str) -> None:
    """A fresh profile per poisoned value; print time to first screen and long tasks."""
    print("\n## Stored values (a fresh profile each; ms from navigation)\n")
    print("| localStorage | first screen | usable screen | longest task before the first "
          "screen (boot) | longest task after it | most CPU in one task once the table is "
          "installed | screen |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, items in storage_cases():
        context = browser.new_context(service_workers="block")
        context.add_init_script(OBSERVER + FIRST_SCREEN)
        page = context.new_page()
        page.goto(site)
        page.wait_for_selector("body[data-ready='1']", state="attached",
                               timeout=BOOT_TIMEOUT_MS)
        page.evaluate("items => { localStorage.clear(); for (const [k, v] of "
                      "Object.entries(items)) localStorage.setItem(k, v); }", items)

        def load(page: Any = page) -> float:
            page.reload()
            page.wait_for_selector("body[data-ready='1']", state="attached",
                                   timeout=BOOT_TIMEOUT_MS)
            page.wait_for_selector("#game[data-screen]:not([data-screen='opening'])",
                                   state="attached", timeout=BOOT_TIMEOUT_MS)
            usable = float(page.evaluate("performance.now()"))
            page.wait_for_timeout(1500)
            return usable

        usable, _, cpu = traced(browser, page, load, after="eleusis:table")
        r = page.evaluate(BOOT_FIGURES)
        print(f"| {name} | {r['first']:.0f} | {usable:.0f} | {r['longestBefore']:.0f} | "
              f"{r['longestAfter']:.0f} | {cpu:.0f} | {r['screen']} |", flush=True)
        context.close()


def bench_guess(browser: Any, site: str) -> None:
    """One deep guess typed at the table: the longest task from the click to the verdict."""
    import urllib.parse

    context = browser.new_context(service_workers="block")
    context.add_init_script(OBSERVER)
    page = context.new_page()
    page.goto(site + "?" + urllib.parse.urlencode({"variant": "solo", "seed": 5,
                                                   "rule": DEEP_RULE}))
    page.wait_for_selector("#game[data-screen='setup']", state="attached",
                           timeout=BOOT_TIMEOUT_MS)
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_selector("#game[data-screen='table']", state="attached")
    page.wait_for_timeout(1000)
    page.get_by_role("button", name="Guess the rule").click()
    page.get_by_label("Your guess, in words or in the rule language").fill(
        "card.rank + prev.rank + prev2.rank + prev3.rank + prev4.rank != 21")
    t0 = float(page.evaluate("performance.now()"))

    def guess() -> None:
        page.get_by_role("button", name="Submit guess").click()
        page.wait_for_selector("[data-testid=verdict]", timeout=600_000)
        page.wait_for_timeout(500)

    _, _, cpu = traced(browser, page, guess)
    tasks = [t for t in page.evaluate("window.__longtasks") if t["start"] >= t0 - 5]
    longest = max((t["ms"] for t in tasks), default=0.0)
    print(f"\n## A live guess\n\none deep guess at the table (Solo, the same rule): longest "
          f"task {longest:.0f} ms, {sum(t['ms'] > 100 for t in tasks)} tasks > 100 ms; the most "
          f"CPU time in one task {cpu:.0f} ms",
          flush=True)
    context.close()


def main() -> None:
    """Measure and print."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="links,storage,guess")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    build.build(ROOT)
    server = serve.serve_in_thread(ROOT)
    started = time.time()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            site = str(server.url)
            parts = args.only.split(",")
            if "links" in parts:
                bench_links(browser, site)
            if "storage" in parts:
                bench_storage(browser, site)
            if "guess" in parts:
                bench_guess(browser, site)
            browser.close()
    finally:
        server.close()
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    print(f"\n({time.time() - started:.0f} s; load average {' '.join(load)})")


if __name__ == "__main__":
    main()
