"""First-visit benchmark: bytes, throttled network, long tasks, layout shift, Lighthouse.

``make bench-firstvisit`` (or ``.venv/bin/python bench/firstvisit.py --runs 3``)
builds ``dist/`` into a temporary folder, adds the bare Pyodide page of
``bench/boot.py`` (``bench/bare.html``: the same vendored Pyodide started the
plain way, one line of Python) and serves both as a static host does: with
``make dist``'s precompressed copies (``--host gzip``, the default, serves
the ``.gz`` ones, ``--host br`` prefers ``.br``, ``--host plain`` neither).
In fresh browser profiles (empty HTTP cache), app and bare alternately, one
right after the other so that a pair shares the machine's load, it measures:

* **bytes before ready**: the transfer sizes (headers included) of every
  response the page received before ``<body data-ready="1">``
  (``PerformanceResourceTiming.transferSize``), unthrottled;
* **first visit to ready under Chromium's network throttling** (DevTools'
  own: ``Network.emulateNetworkConditions``), for each ``--network`` profile
  (default 5 Mbit/s and 20 Mbit/s, 40 ms latency);
* at a CPU slowdown (``--cpu``, default 4x, ``Emulation.setCPUThrottlingRate``),
  unthrottled network: the **longest main-thread task** between the first
  contentful paint and ready (``PerformanceObserver('longtask')``), with the
  tasks over 200 ms; the **cumulative layout shift** up to one second after
  ready; the first contentful paint;
* with ``--lighthouse``: Lighthouse (npm ``lighthouse``, mobile preset,
  simulated throttling) on the app and the bare page, with Debian's Chromium:
  the four category scores and the mobile metrics. Lighthouse is installed
  on demand into ``build/.lighthouse/`` (about 110 packages; not a project
  dependency, so ``npm ci`` stays small and offline-friendly).

Ratios are app / bare of the same pair; the report gives medians (and the
range) of the pairs, and the issue's targets. The machine is shared and
noisy: compare ratios within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "bench"))

import boot  # noqa: E402
import dist  # noqa: E402
from serve import serve_in_thread  # noqa: E402

PAGES = {"app": "", "bare": "bench/bare.html"}

#: The host name the pages are visited under (mapped to this machine), so the
#: page takes them for a remote host (see main).
HOST = "eleusis.bench"
TIMEOUT_MS = 600_000

#: Records long tasks and layout shifts from the very start of the page.
OBSERVERS = """
(() => {
  window.__longTasks = [];
  window.__shifts = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (!e.hadRecentInput) window.__shifts.push([e.startTime, e.value]);
      }
    }).observe({ type: "layout-shift", buffered: true });
  } catch (error) {}
})();
"""

#: Bytes of every response received before ready (the document included).
BYTES_BEFORE_READY = """
(() => {
  const ready = window.__readyAt;
  const entries = [...performance.getEntriesByType("navigation"),
                   ...performance.getEntriesByType("resource")];
  const done = entries.filter((e) => e.responseEnd <= ready);
  return {
    bytes: done.reduce((sum, e) => sum + e.transferSize, 0),
    files: Object.fromEntries(done.map((e) => [new URL(e.name).pathname, e.transferSize])),
  };
})()
"""

#: The Lighthouse pinned for the benchmark (installed on demand).
LIGHTHOUSE = "lighthouse@13.5.0"
LIGHTHOUSE_DIR = ROOT / "build" / ".lighthouse"
LIGHTHOUSE_METRICS = (
    "first-contentful-paint", "largest-contentful-paint", "speed-index",
    "total-blocking-time", "cumulative-layout-shift", "interactive", "max-potential-fid",
)


def site(out: Path) -> Path:
    """``make dist`` into ``out`` with the bare page beside it."""
    dist.make_dist(out)
    (out / "bench").mkdir()
    for name in ("bare.html", "bare-sw.js"):
        shutil.copy2(ROOT / "bench" / name, out / "bench" / name)
    dist.precompress(out / "bench")
    return out


def _new_page(browser: Any) -> tuple[Any, Any, Any]:
    context = browser.new_context()
    context.add_init_script(boot.READY_PROBE)
    context.add_init_script(OBSERVERS)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    return context, page, cdp


def _settle(page: Any) -> None:
    page.goto("about:blank")
    page.wait_for_timeout(boot.SETTLE_MS)


def visit(
    browser: Any, url: str, name: str, *, mbit: float = 0, latency: float = 0, cpu: float = 1
) -> dict[str, Any]:
    """One first visit in a fresh context; return its figures."""
    context, page, cdp = _new_page(browser)
    try:
        _settle(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
        if mbit:
            rate = mbit * 1e6 / 8
            cdp.send("Network.emulateNetworkConditions", {
                "offline": False, "latency": latency,
                "downloadThroughput": rate, "uploadThroughput": rate,
            })
        if cpu != 1:
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
        page.goto(url, timeout=TIMEOUT_MS)
        page.wait_for_function("window.__readyAt !== undefined", timeout=TIMEOUT_MS,
                               polling=100)
        ready = float(page.evaluate("window.__readyAt"))
        page.wait_for_timeout(1000)
        result: dict[str, Any] = {"ready": ready, **page.evaluate(BYTES_BEFORE_READY)}
        fcp = page.evaluate(
            "(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime"
        )
        result["fcp"] = float(fcp) if fcp is not None else float("nan")
        tasks = [(float(s), float(d)) for s, d in page.evaluate("window.__longTasks")]
        painted = [(s, d) for s, d in tasks if s + d > result["fcp"] and s < ready]
        result["longest"] = max((d for _s, d in painted), default=0.0)
        result["over200"] = sorted(round(d) for _s, d in painted if d > 200)
        marks = boot._marks(page)
        # What each task over 200 ms was doing: the page's marks inside it
        # (pyodide:loaded ends the restore, eleusis:zip the engine's install...).
        result["tasks"] = [
            [round(s), round(d), [m for m, t in sorted(marks.items(), key=lambda kv: kv[1])
                                  if s <= t <= s + d]]
            for s, d in painted if d > 200
        ]
        result["cls"] = sum(v for _s, v in page.evaluate("window.__shifts"))
        if name == "app":
            result["mode"] = str(page.evaluate(boot.BOOT_MODE))
            boot._check_no_error(page, name)
        return result
    finally:
        context.close()


def _ensure_lighthouse() -> Path:
    cli = LIGHTHOUSE_DIR / "node_modules" / "lighthouse" / "cli" / "index.js"
    if not cli.is_file():
        print(f"firstvisit: installing {LIGHTHOUSE} into {LIGHTHOUSE_DIR} (once)", flush=True)
        LIGHTHOUSE_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--no-save", "--prefix",
                        str(LIGHTHOUSE_DIR), LIGHTHOUSE], check=True)
    return cli


def lighthouse(url: str) -> dict[str, Any]:
    """Lighthouse's mobile preset on ``url``: category scores and metrics."""
    cli = _ensure_lighthouse()
    with tempfile.TemporaryDirectory(prefix="bench-lh-") as tmp:
        report = Path(tmp) / "report.json"
        subprocess.run(
            ["node", str(cli), url, "--output=json", f"--output-path={report}", "--quiet",
             "--max-wait-for-load=180000",
             "--chrome-flags=--headless=new --no-sandbox --disable-gpu"],
            check=True, env={**os.environ, "CHROME_PATH": boot.CHROMIUM},
        )
        data = json.loads(report.read_text())
    scores = {k: v["score"] for k, v in data["categories"].items()}
    metrics = {
        k: data["audits"][k].get("numericValue")
        for k in LIGHTHOUSE_METRICS if k in data["audits"]
    }
    failed = {
        cat: [ref["id"] for ref in data["categories"][cat]["auditRefs"]
              if ref.get("weight") and (data["audits"][ref["id"]].get("score") or 0) < 1]
        for cat in ("accessibility", "best-practices", "seo")
    }
    return {"scores": scores, "metrics": metrics, "failed": failed}


def _ratios(results: dict[str, list[dict[str, Any]]], key: str) -> list[float]:
    return [a[key] / b[key] for a, b in zip(results["app"], results["bare"], strict=False)
            if b[key]]


def _fmt(values: list[float], digits: int = 2) -> str:
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]:.{digits}f}"
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{mid:.{digits}f} [{low:.{digits}f}-{high:.{digits}f}]"


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="pairs per measurement")
    parser.add_argument("--host", choices=("gzip", "br", "plain"), default="gzip")
    parser.add_argument("--network", default="5:40,20:40",
                        help="throttling profiles MBIT:LATENCY_MS, comma-separated ('' for none)")
    parser.add_argument("--cpu", type=float, default=4, help="CPU slowdown for long tasks")
    parser.add_argument("--lighthouse", action="store_true", help="also run Lighthouse")
    parser.add_argument("--json", type=Path, help="write the raw figures here")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    encodings = {"gzip": ("gzip",), "br": ("br", "gzip"), "plain": ()}[args.host]
    profiles = [tuple(float(x) for x in p.split(":")) for p in args.network.split(",") if p]
    raw: dict[str, Any] = {}
    lines: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-firstvisit-") as tmp:
        root = site(Path(tmp) / "site")
        server = serve_in_thread(root, encodings=encodings)
        # The pages are visited under a host name of their own, as from a
        # host on the network: a page served from this machine (localhost)
        # knows it downloads nothing and always takes the snapshot.
        origin = f"http://{HOST}:{server.server_address[1]}"
        urls = {name: f"{origin}/{path}" for name, path in PAGES.items()}
        lighthouse_urls = {name: server.url + path for name, path in PAGES.items()}
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=boot.CHROMIUM, args=[
                    *boot.CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1",
                    f"--unsafely-treat-insecure-origin-as-secure={origin}",
                ])
                try:
                    passes = [("bytes", {})] + [
                        (f"{m:g} Mbit/s, {lat:g} ms", {"mbit": m, "latency": lat})
                        for m, lat in profiles
                    ] + [(f"CPU {args.cpu:g}x", {"cpu": args.cpu})]
                    for label, options in passes:
                        results: dict[str, list[dict[str, Any]]] = {"app": [], "bare": []}
                        for i in range(args.runs):
                            order = list(PAGES) if i % 2 == 0 else list(reversed(PAGES))
                            for name in order:
                                results[name].append(visit(browser, urls[name], name, **options))
                            print(f"{label} {i + 1}/{args.runs}: " + "  ".join(
                                f"{n} {results[n][-1]['ready']:.0f} ms"
                                f" {results[n][-1]['bytes'] / 1e6:.2f} MB" for n in PAGES),
                                flush=True)
                        raw[label] = results
                finally:
                    browser.close()
            if args.lighthouse:
                raw["lighthouse"] = {
                    name: lighthouse(url) for name, url in lighthouse_urls.items()
                }
        finally:
            server.close()
    lines += report(raw, args)
    print("\n" + "\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps(raw, indent=1))
    return 0


def report(raw: dict[str, Any], args: argparse.Namespace) -> list[str]:
    """The figures as Markdown, with the issue's targets."""
    med = statistics.median
    lines = [f"{args.runs} pairs per line, app and bare alternating; host: {args.host};"
             f" {boot.machine()}.", "",
             "| measure | app | bare | app / bare (median [range] of pairs) |",
             "| --- | ---: | ---: | ---: |"]
    first = raw["bytes"]
    app_b, bare_b = [r["bytes"] for r in first["app"]], [r["bytes"] for r in first["bare"]]
    lines.append(f"| bytes before ready | {med(app_b) / 1e6:.2f} MB | {med(bare_b) / 1e6:.2f} MB"
                 f" | {_fmt(_ratios(first, 'bytes'))} |")
    targets = [("bytes before ready <= 1.00 x bare", med(_ratios(first, "bytes")), 1.00)]
    for label, results in raw.items():
        if label in ("bytes", "lighthouse") or label.startswith("CPU"):
            continue
        app = med(r["ready"] for r in results["app"])
        bare = med(r["ready"] for r in results["bare"])
        ratio = _ratios(results, "ready")
        lines.append(f"| first visit to ready, {label} | {app / 1000:.1f} s | {bare / 1000:.1f} s"
                     f" | {_fmt(ratio)} |")
        limit = 1.00 if label.startswith("5 ") else 0.70 if label.startswith("20 ") else None
        if limit:
            targets.append((f"first visit at {label} <= {limit:.2f} x bare", med(ratio), limit))
    lines.append(f"| first visit to ready, unthrottled"
                 f" | {med(r['ready'] for r in first['app']):.0f} ms"
                 f" | {med(r['ready'] for r in first['bare']):.0f} ms"
                 f" | {_fmt(_ratios(first, 'ready'))} |")
    lines.append(f"| first contentful paint | {med(r['fcp'] for r in first['app']):.0f} ms"
                 f" | {med(r['fcp'] for r in first['bare']):.0f} ms | |")
    cpu = next((v for k, v in raw.items() if k.startswith("CPU")), None)
    if cpu:
        label = next(k for k in raw if k.startswith("CPU"))
        lines.append(f"| {label}: to ready | {med(r['ready'] for r in cpu['app']):.0f} ms"
                     f" | {med(r['ready'] for r in cpu['bare']):.0f} ms"
                     f" | {_fmt(_ratios(cpu, 'ready'))} |")
        lines.append(f"| {label}: longest task, first paint to ready"
                     f" | {med(r['longest'] for r in cpu['app']):.0f} ms"
                     f" | {med(r['longest'] for r in cpu['bare']):.0f} ms | |")
        lines.append(f"| {label}: cumulative layout shift"
                     f" | {med(r['cls'] for r in cpu['app']):.3f}"
                     f" | {med(r['cls'] for r in cpu['bare']):.3f} | |")
        lines.append("")
        lines.append(f"{label}, app's tasks over 200 ms (each run): "
                     + "; ".join(str(r["over200"]) for r in cpu["app"]))
        lines.append("")
        lines.append(f"{label}, app's tasks over 200 ms of the first run [start ms, length ms,"
                     " marks set inside]: " + ", ".join(str(t) for t in cpu["app"][0]["tasks"]))
        targets.append(("longest task first paint to ready <= 200 ms (ms)",
                        med(r["longest"] for r in cpu["app"]), 200))
        targets.append(("cumulative layout shift <= 0.02",
                        med(r["cls"] for r in cpu["app"]), 0.02))
    targets.append(("first contentful paint <= 300 ms (ms)",
                    med(r["fcp"] for r in first["app"]), 300))
    modes = [r.get("mode") for label, results in raw.items() if label != "lighthouse"
             for r in results["app"]]
    lines.append(f"App boots from the snapshot: {sum(m == 'snapshot' for m in modes)}"
                 f" of {len(modes)}; others: {sorted({m for m in modes if m != 'snapshot'})}")
    files = first["app"][0]["files"]
    lines.append("")
    lines.append("App, bytes before ready by file (first run): " + ", ".join(
        f"{k.rsplit('/', 1)[-1]} {v / 1e3:.0f} kB"
        for k, v in sorted(files.items(), key=lambda kv: -kv[1]) if v > 5000))
    if "lighthouse" in raw:
        lines += ["", "Lighthouse (mobile preset, simulated throttling):", "",
                  "| | performance | accessibility | best practices | SEO | FCP | LCP | TBT"
                  " | CLS | speed index |", "| --- |" + " ---: |" * 9]
        for name, lh in raw["lighthouse"].items():
            s, m = lh["scores"], lh["metrics"]
            lines.append(
                f"| {name} | {s.get('performance')} | {s.get('accessibility')}"
                f" | {s.get('best-practices')} | {s.get('seo')}"
                f" | {m.get('first-contentful-paint', 0) / 1000:.1f} s"
                f" | {m.get('largest-contentful-paint', 0) / 1000:.1f} s"
                f" | {m.get('total-blocking-time', 0):.0f} ms"
                f" | {m.get('cumulative-layout-shift', 0):.3f}"
                f" | {m.get('speed-index', 0) / 1000:.1f} s |")
        app_lh = raw["lighthouse"]["app"]
        lines.append(f"App audits below full marks: {app_lh['failed']}")
        for cat in ("accessibility", "best-practices", "seo"):
            targets.append((f"Lighthouse {cat} = 1.00", app_lh["scores"].get(cat) or 0, -1))
    lines.append("")
    for text, value, limit in targets:
        met = value >= 1 if limit == -1 else value <= limit
        lines.append(f"- {text}: {value:.2f} ({'met' if met else 'NOT met'})")
    return lines


if __name__ == "__main__":
    sys.exit(main())
