"""The computer scientists' Solo benchmark inside Pyodide in headless Chromium.

Serves the repository (``tools/serve.py``, after ``tools/build.py``), opens
the developer page ``bench/solo.html`` in Debian's Chromium through
Playwright and lets it run the harness of ``python -m eleusis.bench solo``
(the same code, :class:`eleusis.bench.SoloRun`) with the same options,
printing each rule's line as the page reports it, then the page's summary
and its JSON object. Then, unless ``--no-cpython``, it runs the same harness
on the same rules in this CPython process and says whether the games are the
same (they must be: same seed, same games) and how the decision times
compare. Browser and CPython run one after the other, not at once.

Run after ``make setup``::

    .venv/bin/python bench/ai_solo_browser.py [--rules others|library|FILE]
        [--rounds 3] [--seed 0] [--strength strong] [--limit N]
        [--no-counterexamples] [--no-cpython] [--json-out FILE]

Defaults: ``others`` (``bench/rules/others.txt``), 3 rounds, seed 0,
``strong``. ``--url`` uses a server already running (``make play``:
``--url http://127.0.0.1:8000/``). Figures go to docs/performance.md
("Computer scientists").
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import build  # noqa: E402
import serve  # noqa: E402
from browser_support import BOOT_TIMEOUT_MS, CHROMIUM, CHROMIUM_ARGS  # noqa: E402

from eleusis.bench import read_rules, run_solo, summary_text  # noqa: E402

#: The keys of a per-rule entry that depend on the games only (not the clock).
GAME_KEYS = ("name", "rule", "line", "rounds", "solved_rate", "mean_score",
             "mean_wrong_guesses", "mean_turns", "decisions", "scores", "wrong_guesses",
             "turns")

#: Installed before any page script: the page's long tasks (over 50 ms).
LONGTASKS = """
window.__longtasks = [];
new PerformanceObserver(list => {
  for (const e of list.getEntries())
    window.__longtasks.push({start: e.startTime, ms: e.duration});
}).observe({type: 'longtask', buffered: true});
"""

#: The long tasks between the page's marks solo:run and solo:done.
RUN_LONGTASKS = """() => {
  const run = performance.getEntriesByName('solo:run')[0];
  const done = performance.getEntriesByName('solo:done')[0];
  return window.__longtasks
    .filter(t => run && done && t.start >= run.startTime && t.start <= done.startTime)
    .map(t => t.ms);
}"""

#: Named rules files the page fetches itself.
NAMED = ("others", "library")


def page_query(rules: str, text: str, rounds: int, seed: int, strength: str,
               limit: int | None, counterexamples: bool) -> str:
    """The query string of bench/solo.html for these options (``run=1``)."""
    q: dict[str, Any] = {"rules": rules if rules in NAMED else "text", "rounds": rounds,
                         "seed": seed, "strength": strength, "run": 1}
    if rules not in NAMED:
        q["text"] = text
    if limit is not None:
        q["limit"] = limit
    if not counterexamples:
        q["cx"] = 0
    return urllib.parse.urlencode(q)


def games(report: dict[str, Any]) -> list[dict[str, Any]]:
    """What must be equal between two runs of the same games."""
    return [{k: e[k] for k in GAME_KEYS} for e in report["per_rule"]]


def run_page(page: Any, url: str, timeout_s: float) -> dict[str, Any]:
    """Open the page at ``url``, echo its per-rule lines, return its JSON report."""
    page.goto(url)
    page.wait_for_selector("body[data-ready='1'], body[data-state='error']",
                           state="attached", timeout=BOOT_TIMEOUT_MS)
    printed = 0
    deadline = time.monotonic() + timeout_s
    while True:
        state = page.evaluate("document.body.dataset.state")
        lines = (page.locator("#lines").text_content() or "").splitlines()
        for line in lines[printed:]:
            print(line, flush=True)
        printed = len(lines)
        if state == "error":
            raise SystemExit(f"the page failed: {page.locator('#status').text_content()}")
        if state == "done":
            break
        if time.monotonic() > deadline:
            raise SystemExit(f"no result after {timeout_s:.0f} s: "
                             f"{page.locator('#status').text_content()}")
        page.wait_for_timeout(1000)
    for message in page.locator("#skipped li").all_text_contents():
        if message != "none":
            print(message, file=sys.stderr)
    print(page.locator("#summary").text_content(), end="")
    report: dict[str, Any] = json.loads(page.locator("#json").text_content() or "{}")
    long = sorted(page.evaluate(RUN_LONGTASKS))
    report["run_longtasks"] = {"over_50ms": len(long), "over_100ms": sum(x > 100 for x in long),
                               "longest_ms": round(long[-1]) if long else 0}
    return report


def main(argv: list[str] | None = None) -> int:
    """Run the page, then (unless told not to) CPython; print and compare."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="others", help="others, library or a rules file")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--strength", default="strong")
    ap.add_argument("--limit", type=int, default=None, help="only the first N rules")
    ap.add_argument("--no-counterexamples", action="store_true")
    ap.add_argument("--no-cpython", action="store_true", help="skip the CPython run")
    ap.add_argument("--url", default=None, help="a running server's root URL")
    ap.add_argument("--timeout", type=float, default=3600.0, help="seconds for the run")
    ap.add_argument("--json-out", type=Path, default=None,
                    help="write {chromium, cpython} reports to this file")
    args = ap.parse_args(argv)
    path = ROOT / "bench" / "rules" / f"{args.rules}.txt" if args.rules in NAMED \
        else Path(args.rules)
    text = path.read_text(encoding="utf-8")
    counterexamples = not args.no_counterexamples
    query = page_query(args.rules, text, args.rounds, args.seed, args.strength, args.limit,
                       counterexamples)
    from playwright.sync_api import sync_playwright

    server = None
    if args.url is None:
        build.build(ROOT)
        server = serve.serve_in_thread(ROOT)
        base = str(server.url)
    else:
        base = args.url if args.url.endswith("/") else args.url + "/"
    load_before = os.getloadavg()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            version = browser.version
            context = browser.new_context(service_workers="block")
            context.add_init_script(LONGTASKS)
            page = context.new_page()
            print(f"# Chromium {version}: {base}bench/solo.html?{query[:120]}", flush=True)
            report = run_page(page, f"{base}bench/solo.html?{query}", args.timeout)
            context.close()
            browser.close()
    finally:
        if server is not None:
            server.close()
    load_after = os.getloadavg()
    report["chromium"] = version
    print(json.dumps(report))
    print(f"# {report.get('runtime')} in Chromium {version}; Pyodide boot "
          f"{report.get('pyodide_boot_ms')} ms, run {report.get('run_ms')} ms; load average "
          f"{load_before[0]:.1f} before, {load_after[0]:.1f} after")
    lt = report["run_longtasks"]
    print(f"# the page during the run: {lt['over_50ms']} tasks over 50 ms, "
          f"{lt['over_100ms']} over 100 ms, longest {lt['longest_ms']} ms "
          f"(slices of {report.get('slice_ms', '?')} ms plus one decision)")
    out: dict[str, Any] = {"chromium": report}
    if not args.no_cpython:
        rules, _ = read_rules(text.splitlines())
        if args.limit is not None:
            rules = rules[:args.limit]
        t0 = time.perf_counter()
        cpy = run_solo(rules, args.rounds, args.seed, args.strength, None, counterexamples)
        wall = time.perf_counter() - t0
        out["cpython"] = cpy
        same = games(cpy) == games(report)
        print(f"# CPython {sys.version.split()[0]}, same harness, same rules ({wall:.1f} s):")
        print(summary_text(cpy), end="")
        print(f"# same games as in Chromium: {'yes' if same else 'NO'}")
        if not same:
            for a, b in zip(games(report), games(cpy), strict=False):
                if a != b:
                    print(f"#   differs: {a['name']}: chromium {a['scores']} "
                          f"cpython {b['scores']}")
        for key in ("decision_ms_median", "decision_ms_p95"):
            c, p = cpy[key], report[key]
            print(f"# {key}: Chromium {p:.2f}, CPython {c:.2f} (wall), "
                  f"ratio {p / c:.2f}" if c else f"# {key}: Chromium {p:.2f}")
        print(f"# load average after CPython: {os.getloadavg()[0]:.1f}")
    if args.json_out is not None:
        args.json_out.write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
