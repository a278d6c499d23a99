"""Rule-language benchmark: evaluations per second, compare and analyse times.

``python3 bench/rules_bench.py`` measures under CPython; ``--pyodide`` runs
the very same measurements inside Pyodide under Node (the vendored npm
``pyodide`` package), and ``--browser`` inside Pyodide in headless Chromium
(Playwright, Debian's ``/usr/bin/chromium``, the repository served by
``tools/serve.py``). ``--markdown`` prints the tables for
``docs/performance.md``. ``--baseline REV`` also measures the code of the git
revision ``REV`` (its ``src`` exported to a temporary folder, run by this very
script in a subprocess) and prints, per compare pair, the time before and
after and their ratio, all in one run.

What is measured (the best of ``--repeat`` runs for each item, and the best of
3 rounds for rates: on a shared machine the fastest run is the least
disturbed one):

* **evaluations per second** of ``Rule.accepts`` on the design's example rules
  (random mainlines of 10 cards, random cards), and of ``Rule.judge_all`` (the
  batch path that compare and analyse use), per judged card;
* **compare** times for pairs of look-back 1, 2, 3 and 4 and for ``pos``
  rules, equivalent pairs (the whole reachable space is explored: the worst
  case) and different ones; target: two look-back-2 rules in <= 50 ms on
  CPython; and the longest slice when the same comparison runs in
  ``compare_steps`` slices (what a page's main thread would see);
* **analyse** and **parse** times.

This is a benchmark, not a test: it asserts nothing about time. The machines
are shared and noisy; compare ratios taken within one run.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

EVAL_RULES = [
    "card.color != prev.color",
    "if prev is face then card is numeral else card.rank > prev.rank",
    "card.rank in {2, 3, 5, 7, J, K}",
    "card.rank == prev.rank + 1 or card.rank == prev.rank - 2",
    "card.suit == next(prev.suit, [hearts, clubs, diamonds, spades])",
    "if prev is odd then card is red else card is black",
    "if prev is black then card.rank >= prev.rank else card.rank <= prev.rank",
    "card.suit == prev.suit or card.rank == prev.rank",
    "card.prime != prev.prime",
    "case (prev.rank * prev2.rank * prev3.rank) % 4 when 0 then card is red or card.rank > 6 "
    "when 1 then card is black or card is face when 2 then card is even or card.rank < 6 "
    "else card is odd or card.rank == 10",
    "card.rank == pick(pos, [1, 3])",
    "card is odd",
]

# (group, secret, guess): equivalent pairs explore every reachable state.
COMPARE_PAIRS = [
    ("look-back 1", "card.color != prev.color",
     "card is red and prev is black or card is black and prev is red"),
    ("look-back 1", "if prev is black then card.rank >= prev.rank else card.rank <= prev.rank",
     "prev is red and card.rank <= prev.rank or prev is black and card.rank >= prev.rank"),
    ("look-back 1", "card.suit == prev.suit or card.rank == prev.rank",
     "card.rank == prev.rank or card.suit == prev.suit"),
    ("look-back 1", "card.suit == next(prev.suit, [hearts, clubs, diamonds, spades])",
     "card.suit == next(prev.suit, [hearts, clubs, spades, diamonds])"),
    ("look-back 2", "card.rank == wrap(prev.rank + prev2.rank)",
     "card.rank == (prev.rank + prev2.rank - 1) % 13 + 1"),
    ("look-back 2", "card.color != prev.color or card.color != prev2.color",
     "not (card.color == prev.color and prev.color == prev2.color)"),
    ("look-back 2", "(card.rank + prev.rank + prev2.rank) % 2 == 0",
     "(card.rank + prev.rank + prev2.rank) is even"),
    ("look-back 2", "if prev.suit == prev2.suit then card.suit != prev.suit else card is red",
     "if prev.suit == prev2.suit then card.suit != prev.suit else card is red or card is K"),
    ("look-back 2", "card.suit == prev.suit or card.rank == prev2.rank",
     "card.rank == prev2.rank or prev.suit == card.suit"),
    ("look-back 3", "case (prev.rank * prev2.rank * prev3.rank) % 4 when 0 then card is red or "
     "card.rank > 6 when 1 then card is black or card is face when 2 then card is even or "
     "card.rank < 6 else card is odd or card.rank == 10",
     "case (prev3.rank * prev2.rank * prev.rank) % 4 when 0 then card.rank > 6 or card is red "
     "when 1 then card is face or card is black when 2 then card.rank < 6 or card is even "
     "else card.rank == 10 or card is odd"),
    ("look-back 3", "card.color != prev3.color", "card.color == prev3.color or prev is K"),
    ("pos", "card is red or pos > 30", "card is red"),
    ("pos", "card.rank == pick(pos, [1, 3])",
     "if pos % 2 == 1 then card is A else card.rank == 3"),
    ("pos", "card.rank == wrap(pos)", "card.rank == (pos - 1) % 13 + 1"),
    ("pos", "if pos <= 10 then card.rank >= prev.rank else card.rank <= prev.rank",
     "if pos < 11 then card.rank >= prev.rank else card.rank <= prev.rank"),
    # Written in the language of the oldest code compared (--baseline): no sets of
    # computed values.
    ("look-back 4", "card.rank != prev.rank and card.rank != prev2.rank and card.rank != "
     "prev3.rank and card.rank != prev4.rank", "not (card.rank == prev.rank or card.rank == "
     "prev2.rank or card.rank == prev3.rank or card.rank == prev4.rank)"),
    ("look-back 4", "card.rank != prev.rank and card.rank != prev2.rank and card.rank != "
     "prev3.rank and card.rank != prev4.rank", "card.rank != prev.rank and card.rank != "
     "prev2.rank and card.rank != prev3.rank"),
    ("look-back 4", "card != prev and card != prev2 and card != prev3 and card != prev4",
     "not (card == prev or card == prev2 or card == prev3 or card == prev4)"),
    ("look-back 4", "card.rank == prev4.rank or card.suit == prev4.suit",
     "card.suit == prev4.suit or card.rank == prev4.rank"),
    ("look-back 4", "card.rank > prev4.rank", "prev4.rank < card.rank"),
    ("look-back 4", "(card.rank + prev4.rank) % 2 == 0", "(card.rank + prev4.rank) is even"),
    ("look-back 4", "card.suit != prev.suit and card.suit != prev2.suit and card.suit != "
     "prev3.suit or card.rank == prev4.rank", "not (card.suit == prev.suit or card.suit == "
     "prev2.suit or card.suit == prev3.suit) or card.rank == prev4.rank"),
    ("look-back 4", "card.rank + prev.rank + prev2.rank + prev3.rank + prev4.rank > 30",
     "card.rank + prev.rank + prev2.rank + prev3.rank + prev4.rank >= 31"),
]

ANALYSE_RULES = [
    "card.color != prev.color",
    "card.rank > prev.rank",
    "card.rank == wrap(prev.rank + prev2.rank)",
    EVAL_RULES[9],
]


def _best_ms(fn: Callable[[], object], repeat: int) -> float:
    """The fastest of ``repeat`` runs: on a shared machine the least disturbed one."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return min(times)


def _slices(steps: Callable[..., Any], secret: Any, guess: Any,
            forget: Callable[[], None]) -> tuple[float, float]:
    """The median and the longest stretch (ms) between two yields of
    ``compare_steps`` (on a busy machine the longest is mostly the scheduler's)."""
    forget()
    times, last = [], time.perf_counter()
    for _ in steps(secret, guess):
        now = time.perf_counter()
        times.append((now - last) * 1000)
        last = now
    return statistics.median(times), max(times)


def measure(repeat: int = 5, evals: int = 20_000) -> dict[str, Any]:
    """Run every measurement; a JSON-able dict (used the same way under Pyodide)."""
    from eleusis.cards import ALL_CARDS
    from eleusis.rules import analyse, compare, parse

    compare_module = sys.modules["eleusis.rules.compare"]
    forget: Callable[[], None] = getattr(compare_module, "clear_cache", lambda: None)
    steps = getattr(compare_module, "compare_steps", None)

    rng = random.Random(1)
    out: dict[str, Any] = {"python": platform.python_version(),
                           "implementation": sys.platform}

    rules = [parse(t) for t in EVAL_RULES]
    cases = [([rng.choice(ALL_CARDS) for _ in range(10)], rng.choice(ALL_CARDS))
             for _ in range(200)]
    per_rule = []
    for rule in rules:
        best = 0.0
        for _ in range(3):
            calls = 0
            start = time.perf_counter()
            while calls < evals:
                for line, card in cases:
                    rule.accepts(line, card)
                calls += len(cases)
            best = max(best, calls / (time.perf_counter() - start))
        per_rule.append(best)
    out["accepts_per_s"] = {"median": statistics.median(per_rule), "min": min(per_rule),
                            "max": max(per_rule)}
    batch = []
    back = tuple(reversed(cases[0][0][-4:]))
    for rule in rules:
        best = 0.0
        for _ in range(3):
            n = 0
            start = time.perf_counter()
            while n < evals:
                rule.judge_all(ALL_CARDS, back, 11)
                n += 52
            best = max(best, n / (time.perf_counter() - start))
        batch.append(best)
    out["judge_all_per_s"] = {"median": statistics.median(batch), "min": min(batch)}

    rows = []
    for group, s_text, g_text in COMPARE_PAIRS:
        secret, guess = parse(s_text), parse(g_text)
        forget()
        result = compare(secret, guess)

        def once(s: Any = secret, g: Any = guess) -> None:
            forget()  # time the work, not the remembered result
            compare(s, g)

        ms = _best_ms(once, repeat)
        row = {"group": group, "secret": s_text, "guess": g_text, "ms": ms,
               "equivalent": result.equivalent, "exact": result.exact,
               "states": result.explored}
        if steps is not None:
            runs = [_slices(steps, secret, guess, forget) for _ in range(max(1, repeat // 3))]
            row["slice_median_ms"] = min(r[0] for r in runs)
            row["slice_ms"] = min(r[1] for r in runs)
        rows.append(row)
    out["compare"] = rows

    out["analyse"] = []
    for t in ANALYSE_RULES:
        rule = parse(t)
        ms = _best_ms(lambda r=rule: analyse(r, random.Random(0)), max(1, repeat // 2))
        out["analyse"].append({"rule": t, "ms": ms})
    parse_ms = [_best_ms(lambda t=t: parse(t), repeat) for t in EVAL_RULES]
    out["parse_ms"] = {"median": statistics.median(parse_ms), "max": max(parse_ms)}
    return out


def _groups(result: dict[str, Any]) -> dict[str, tuple[float, float]]:
    groups: dict[str, list[float]] = {}
    for row in result["compare"]:
        groups.setdefault(row["group"], []).append(row["ms"])
    return {g: (statistics.median(v), max(v)) for g, v in groups.items()}


def report(result: dict[str, Any], label: str) -> str:
    """Plain-text report of one run."""
    lines = [f"== {label} (Python {result['python']})"]
    a = result["accepts_per_s"]
    lines.append(f"Rule.accepts: {a['median']:,.0f} evaluations/s (median over "
                 f"{len(EVAL_RULES)} rules; min {a['min']:,.0f}, max {a['max']:,.0f})")
    b = result["judge_all_per_s"]
    lines.append(f"Rule.judge_all: {b['median']:,.0f} cards judged/s (min {b['min']:,.0f})")
    for row in result["compare"]:
        verdict = "equivalent" if row["equivalent"] else "different"
        exact = "" if row["exact"] else " SAMPLED"
        sliced = (f" (slices: median {row['slice_median_ms']:.1f}, longest "
                  f"{row['slice_ms']:.1f} ms)" if "slice_ms" in row else "")
        lines.append(f"compare [{row['group']}] {row['ms']:8.1f} ms{sliced}  {verdict}{exact}, "
                     f"{row['states']} states: {row['secret'][:60]}")
    for group, (med, worst) in _groups(result).items():
        lines.append(f"compare {group}: median {med:.1f} ms, worst {worst:.1f} ms")
    for row in result["analyse"]:
        lines.append(f"analyse {row['ms']:8.1f} ms: {row['rule'][:60]}")
    p = result["parse_ms"]
    lines.append(f"parse: median {p['median']:.2f} ms, max {p['max']:.2f} ms")
    return "\n".join(lines)


def markdown(results: dict[str, dict[str, Any]]) -> str:
    """A table with one column per runtime."""
    names = list(results)
    head = "| measure | " + " | ".join(names) + " |"
    sep = "| --- | " + " | ".join("---:" for _ in names) + " |"
    rows = [head, sep]

    def row(label: str, cell: Callable[[dict[str, Any]], str]) -> None:
        rows.append(f"| {label} | " + " | ".join(cell(results[n]) for n in names) + " |")

    row("`accepts` evaluations/s (median of 12 rules, best of 3 rounds)",
        lambda r: f"{r['accepts_per_s']['median']:,.0f}")
    row("`judge_all` cards/s (median)", lambda r: f"{r['judge_all_per_s']['median']:,.0f}")
    for group in _groups(next(iter(results.values()))):
        row(f"compare, {group}: median / worst pair (ms, best of runs)",
            lambda r, g=group: "{:.1f} / {:.1f}".format(*_groups(r)[g]))
    row("analyse (ms, median of 4 rules)",
        lambda r: f"{statistics.median(x['ms'] for x in r['analyse']):.0f}")
    row("parse (ms, median)", lambda r: f"{r['parse_ms']['median']:.2f}")
    return "\n".join(rows)


# ---------------------------------------------------------------- Pyodide runs

def _sources() -> dict[str, str]:
    src = ROOT / "src"
    files = {str(p.relative_to(src)): p.read_text(encoding="utf-8")
             for p in sorted((src / "eleusis").rglob("*.py"))}
    files["rules_bench.py"] = Path(__file__).read_text(encoding="utf-8")
    return files


def _driver(repeat: int) -> str:
    return (
        "import sys, json\n"
        "sys.path.insert(0, '/home/pyodide/benchsrc')\n"
        "import rules_bench\n"
        f"json.dumps(rules_bench.measure({repeat}))\n"
    )


NODE_SCRIPT = r"""
const fs = require("fs");
(async () => {
  const { loadPyodide } = await import(process.argv[2]);
  const py = await loadPyodide();
  const files = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
  for (const [rel, text] of Object.entries(files)) {
    const path = "/home/pyodide/benchsrc/" + rel;
    py.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    py.FS.writeFile(path, text);
  }
  const out = py.runPython(fs.readFileSync(process.argv[4], "utf8"));
  fs.writeFileSync(process.argv[5], out);
})().catch((e) => { console.error(e); process.exit(1); });
"""


def run_node(repeat: int) -> dict[str, Any]:
    """The measurements inside Pyodide under Node."""
    pyodide = ROOT / "node_modules" / "pyodide" / "pyodide.mjs"
    if not pyodide.exists():
        raise SystemExit("node_modules/pyodide is missing: run `npm ci`")
    with tempfile.TemporaryDirectory(prefix="rules-bench-") as tmp:
        t = Path(tmp)
        (t / "run.cjs").write_text(NODE_SCRIPT)
        (t / "files.json").write_text(json.dumps(_sources()))
        (t / "driver.py").write_text(_driver(repeat))
        subprocess.run(["node", str(t / "run.cjs"), pyodide.as_uri(), str(t / "files.json"),
                        str(t / "driver.py"), str(t / "out.json")], check=True)
        result: dict[str, Any] = json.loads((t / "out.json").read_text())
        return result


BROWSER_JS = """
async ([files, driver, base]) => {
  const { loadPyodide } = await import(base + "pyodide.mjs");
  const py = await loadPyodide({ indexURL: base });
  for (const [rel, text] of Object.entries(files)) {
    const path = "/home/pyodide/benchsrc/" + rel;
    py.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    py.FS.writeFile(path, text);
  }
  return py.runPython(driver);
}
"""


def run_browser(repeat: int) -> dict[str, Any]:
    """The measurements inside Pyodide in headless Chromium."""
    sys.path.insert(0, str(ROOT / "tools"))
    sys.path.insert(0, str(ROOT / "bench"))
    from boot import CHROMIUM, CHROMIUM_ARGS  # type: ignore[import-not-found]
    from playwright.sync_api import sync_playwright  # type: ignore[import-not-found]
    from serve import serve_in_thread  # type: ignore[import-not-found]

    vendor = sorted((ROOT / "static" / "vendor").glob("pyodide-*"))
    if not vendor:
        raise SystemExit("static/vendor/pyodide-* is missing: run tools/vendor.py")
    server = serve_in_thread(ROOT)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(server.url + "bench/rules/others.txt")
            base = f"{server.url}static/vendor/{vendor[-1].name}/"
            text = page.evaluate(BROWSER_JS, [_sources(), _driver(repeat), base])
            version = browser.version
            browser.close()
    finally:
        server.close()
    result: dict[str, Any] = json.loads(text)
    result["browser"] = f"Chromium {version}"
    return result


def run_baseline(rev: str, repeat: int) -> dict[str, Any]:
    """The measurements with the ``src`` of git revision ``rev``, in a subprocess."""
    with tempfile.TemporaryDirectory(prefix="rules-bench-base-") as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        code = (f"import sys, json; sys.path.insert(0, {str(Path(tmp) / 'src')!r}); "
                f"sys.path.insert(0, {str(ROOT / 'bench')!r}); import rules_bench; "
                f"print(json.dumps(rules_bench.measure({repeat})))")
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                             text=True).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def before_after(base: dict[str, Any], now: dict[str, Any], rev: str) -> str:
    """Per compare pair: the time before (``rev``) and now, and their ratio."""
    lines = [f"== compare before ({rev}) and after, same run"]
    for old, new in zip(base["compare"], now["compare"], strict=True):
        def tag(row: dict[str, Any]) -> str:
            return ("=" if row["equivalent"] else "!") + ("" if row["exact"] else "~")
        sliced = (f", slices {new['slice_median_ms']:.1f} / {new['slice_ms']:.1f} ms"
                  if "slice_ms" in new else "")
        lines.append(f"[{new['group']}] {old['ms']:8.1f} -> {new['ms']:7.1f} ms "
                     f"(x{old['ms'] / max(new['ms'], 1e-9):.1f}{sliced}) "
                     f"{tag(old)}{old['states']} -> {tag(new)}{new['states']} states: "
                     f"{new['secret'][:48]} | {new['guess'][:30]}")
    lines.append("(= equivalent, ! different, ~ sampled; states: reduced states or sampled "
                 "positions)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module doc."""
    parser = argparse.ArgumentParser(description="Rule-language benchmark.")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--pyodide", action="store_true", help="also run in Pyodide under Node")
    parser.add_argument("--browser", action="store_true",
                        help="also run in Pyodide in headless Chromium")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    parser.add_argument("--baseline", metavar="REV",
                        help="also measure the code of this git revision (before/after)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "src"))
    base = run_baseline(args.baseline, args.repeat) if args.baseline else None
    results = {"CPython": measure(args.repeat)}
    print(report(results["CPython"], "CPython"), flush=True)
    if base is not None:
        print(before_after(base, results["CPython"], args.baseline), flush=True)
    if args.pyodide:
        results["Pyodide (Node)"] = run_node(args.repeat)
        print(report(results["Pyodide (Node)"], "Pyodide under Node"), flush=True)
    if args.browser:
        results["Pyodide (Chromium)"] = run_browser(args.repeat)
        print(report(results["Pyodide (Chromium)"], "Pyodide in Chromium"), flush=True)
    if len(results) > 1:
        base = results["CPython"]
        for name, r in results.items():
            if name == "CPython":
                continue
            ratio = base["accepts_per_s"]["median"] / r["accepts_per_s"]["median"]
            slow = [r["compare"][i]["ms"] / max(row["ms"], 1e-9)
                    for i, row in enumerate(base["compare"])]
            print(f"{name}: accepts {ratio:.2f}x slower than CPython; compare "
                  f"{statistics.median(slow):.2f}x slower (median over pairs)")
    if args.markdown:
        print()
        print(markdown(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
