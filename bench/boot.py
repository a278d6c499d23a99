"""Boot benchmark: the app against a bare Pyodide page, in one run.

``make bench-boot`` (or ``.venv/bin/python bench/boot.py --runs 5``) serves
the repository with ``tools/serve.py`` and drives Debian's Chromium through
Playwright. For each run it measures, alternating which page goes first:

* **cold boot**: a fresh browser profile (empty HTTP cache, no service
  worker), navigation start to ``<body data-ready="1">``;
* **reload**: the same tab reloaded (HTTP cache; service workers blocked);
* **offline reload**: a second fresh profile where the page's service worker
  is installed and controls the page, then the network is switched off and
  the page reloaded;
* **first contentful paint** of the cold load;
* the page's **performance marks** during the cold boot (``pyodide:start``,
  ``pyodide:loaded``, ``eleusis:zip``, ``pyscript:interpreter``,
  ``eleusis:main``, ``eleusis:ready``): where the time goes.

The app is ``/`` (PyScript, the engine zip, our service worker), which starts
Pyodide from its memory snapshot (``build/pyodide-snapshot.bin``; the report
counts the boots that did); the baseline is ``bench/bare.html``, which only
loads the same vendored Pyodide the plain way and runs one line of Python
(``bench/bare-sw.js`` precaches the same runtime files). ``--with-plain`` adds
a third page, the app built without a snapshot (``make dist``'s copy without
it, as a build where Node is missing makes it): the cost of the app itself
over bare Pyodide, the snapshot aside.
Times come from the page's own clock (``performance.now()`` when
``data-ready`` flips), so browser start-up is not counted. The machine is
shared and noisy: compare the ratios, taken within one run, not absolute
times across runs. Each fresh browser is left idle for ``SETTLE_MS`` before
the measured navigation, so that its own start-up work does not land in the
boot. It prints the medians and app/bare ratios as a Markdown table for
``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from serve import serve_in_thread  # noqa: E402

sys.path.insert(0, str(ROOT / "tests" / "browser"))
from browser_support import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

#: Installed before any page script: records performance.now() when
#: <body data-ready="1"> appears, the same way for both pages.
READY_PROBE = """
(() => {
  const seen = () => {
    if (document.body && document.body.dataset.ready === "1" && !window.__readyAt) {
      window.__readyAt = performance.now();
    }
  };
  new MutationObserver(seen).observe(document, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["data-ready"],
  });
})();
"""

PAGES = {"app": "", "bare": "bench/bare.html"}

#: With ``--with-plain``: the app built without a snapshot (see plain_site).
PLAIN = {"plain": ""}

#: The app's boot mode (static/pyodide-early.mjs ``bootMode``).
BOOT_MODE = "import('./static/pyodide-early.mjs').then((m) => m.bootMode)"
METRICS = ("cold", "reload", "offline", "fcp")
TIMEOUT_MS = 120_000

#: How long a freshly launched browser is left on ``about:blank`` before the
#: measured navigation: Chromium's own start-up chores (its internal pages
#: and components, a second renderer busy for about 0.6 s) would otherwise
#: share the 2 cores with the page being measured, at random.
SETTLE_MS = 1500


#: Performance marks reported (in boot order), when the page sets them.
MARKS = (
    "pyodide:start",
    "pyscript:import",
    "pyodide:snapshot",
    "pyodide:loaded",
    "eleusis:zip",
    "pyscript:interpreter",
    "eleusis:main",
    "eleusis:ready",
    "eleusis:table",
)


@dataclass
class Samples:
    """Times in milliseconds, per page and metric."""

    pages: tuple[str, ...] = tuple(PAGES)
    data: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    #: Cold-boot performance marks, per page and mark name.
    marks: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    #: The same marks during the offline reload.
    offline_marks: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    #: The app's boot modes ("snapshot", "plain (...)"), per page, all boots.
    modes: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for page in self.pages:
            self.data.setdefault(page, {m: [] for m in METRICS})
            self.marks.setdefault(page, {})
            self.offline_marks.setdefault(page, {})
            self.modes.setdefault(page, [])

    def add(self, page: str, metric: str, value: float) -> None:
        self.data[page][metric].append(value)

    def median(self, page: str, metric: str) -> float | None:
        values = self.data[page][metric]
        return statistics.median(values) if values else None


def _settle(page: Any) -> None:
    """Let a freshly launched browser finish its own start-up (see SETTLE_MS)."""
    page.goto("about:blank")
    page.wait_for_timeout(SETTLE_MS)


def _ready_time(page: Any) -> float:
    page.wait_for_function("window.__readyAt !== undefined", timeout=TIMEOUT_MS)
    return float(page.evaluate("window.__readyAt"))


def _fcp(page: Any) -> float:
    value = page.evaluate(
        "(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime"
    )
    return float(value) if value is not None else float("nan")


def _marks(page: Any) -> dict[str, float]:
    return {
        str(k): float(v)
        for k, v in page.evaluate(
            "Object.fromEntries(performance.getEntriesByType('mark')"
            ".map((e) => [e.name, e.startTime]))"
        ).items()
    }


def _record_mode(page: Any, name: str, samples: Samples) -> None:
    if name != "bare":
        samples.modes[name].append(str(page.evaluate(BOOT_MODE)))


def _check_no_error(page: Any, name: str) -> None:
    if name != "bare":
        errors = page.evaluate(
            "document.querySelectorAll('.py-error').length"
            " + (document.getElementById('error-panel').hidden ? 0 : 1)"
        )
        if errors:
            raise RuntimeError("the app showed an error while benchmarking")


def measure_http(pw: Any, url: str, name: str, samples: Samples) -> None:
    """Cold boot, FCP and reload (HTTP cache, service workers blocked)."""
    with tempfile.TemporaryDirectory(prefix="bench-boot-") as profile:
        ctx = pw.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, service_workers="block"
        )
        try:
            ctx.add_init_script(READY_PROBE)
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            _settle(page)
            page.goto(url)
            samples.add(name, "cold", _ready_time(page))
            samples.add(name, "fcp", _fcp(page))
            for mark, value in _marks(page).items():
                samples.marks[name].setdefault(mark, []).append(value)
            _check_no_error(page, name)
            _record_mode(page, name, samples)
            page.reload()
            samples.add(name, "reload", _ready_time(page))
            _check_no_error(page, name)
            _record_mode(page, name, samples)
        finally:
            ctx.close()


def measure_offline(pw: Any, url: str, name: str, samples: Samples) -> None:
    """Reload with the network off, served by the page's service worker."""
    with tempfile.TemporaryDirectory(prefix="bench-boot-") as profile:
        ctx = pw.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        try:
            ctx.add_init_script(READY_PROBE)
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            _settle(page)
            page.goto(url)
            _ready_time(page)
            page.wait_for_function(
                "navigator.serviceWorker.controller !== null", timeout=TIMEOUT_MS
            )
            ctx.set_offline(True)
            page.reload()
            samples.add(name, "offline", _ready_time(page))
            for mark, value in _marks(page).items():
                samples.offline_marks[name].setdefault(mark, []).append(value)
            _check_no_error(page, name)
            _record_mode(page, name, samples)
        finally:
            ctx.close()


def machine() -> str:
    """A one-line description of this machine."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        version = subprocess.run(
            [CHROMIUM, "--version"], capture_output=True, text=True, timeout=30
        ).stdout.strip()
    except OSError:
        version = "chromium ?"
    return f"{os.cpu_count()} cores, {cpu}; {platform.system()} {platform.release()}; {version}"


def plain_site(out: Path, root: Path = ROOT) -> Path:
    """Write the site as built where Node is missing (no snapshot) into ``out``.

    ``make dist``'s copy without ``build/pyodide-snapshot.bin``, its precache
    list written again: the page starts Pyodide the plain way, online and
    offline (refusing the file by request interception would not reach the
    service worker's cache).
    """
    import build
    import dist

    dist.make_dist(out, root)
    (out / build.SNAPSHOT).unlink(missing_ok=True)
    (out / "build" / "precache.js").write_text(build.precache_js(out))
    return out


def run(runs: int, root: Path = ROOT, offline: bool = True, plain: bool = False) -> Samples:
    """Measure ``runs`` alternating rounds of the pages; return the samples."""
    from playwright.sync_api import sync_playwright

    samples = Samples(pages=tuple({**PAGES, **(PLAIN if plain else {})}))
    server = serve_in_thread(root)
    pages = {name: server.url + path for name, path in PAGES.items()}
    plain_dir = tempfile.TemporaryDirectory(prefix="bench-plain-site-") if plain else None
    plain_server = None
    if plain_dir is not None:
        plain_server = serve_in_thread(plain_site(Path(plain_dir.name) / "site", root))
        pages["plain"] = plain_server.url + PLAIN["plain"]
    try:
        with sync_playwright() as pw:
            for i in range(runs):
                # Each measurement of one page is followed at once by the same
                # measurement of the other (which goes first alternates), so a
                # pair shares the machine's load of the moment.
                order = list(pages) if i % 2 == 0 else list(reversed(pages))
                for name in order:
                    measure_http(pw, pages[name], name, samples)
                if offline:
                    for name in order:
                        measure_offline(pw, pages[name], name, samples)
                line = "  ".join(
                    f"{n}: cold {samples.data[n]['cold'][-1]:.0f}"
                    f" reload {samples.data[n]['reload'][-1]:.0f}"
                    f" offline {(samples.data[n]['offline'] or [0])[-1]:.0f}"
                    f" fcp {samples.data[n]['fcp'][-1]:.0f}"
                    for n in pages
                )
                print(f"run {i + 1}/{runs}  {line}", flush=True)
    finally:
        server.close()
        if plain_server is not None:
            plain_server.close()
        if plain_dir is not None:
            plain_dir.cleanup()
    return samples


#: The issue's targets: (text, app metric, bare metric, limit). The offline
#: reload is compared like with like (the bare page's own offline reload,
#: through its own service worker, bench/bare-sw.js) and, the stricter
#: reading, with the bare page's HTTP reload.
TARGETS = (
    ("app cold boot <= 1.10 x bare cold boot", "cold", "cold", 1.10),
    ("app offline reload <= 1.10 x bare offline reload", "offline", "offline", 1.10),
    ("(stricter) app offline reload <= 1.10 x bare HTTP reload", "offline", "reload", 1.10),
)


def paired_ratios(samples: Samples, metric: str, base: str) -> list[float]:
    """app / bare for each run, the two measured back to back."""
    app, bare = samples.data["app"][metric], samples.data["bare"][base]
    return [a / b for a, b in zip(app, bare, strict=False) if b]


def report(samples: Samples, runs: int) -> str:
    """Return the result as a Markdown table with ratios and the targets."""
    labels = {
        "cold": "cold boot to data-ready",
        "reload": "reload (HTTP cache)",
        "offline": "offline reload (service worker)",
        "fcp": "first contentful paint",
    }
    lines = [
        f"{datetime.date.today().isoformat()}, {runs} runs of each page, alternating;"
        f" {machine()}.",
        "",
        "| median (ms) | app | bare Pyodide | app / bare |",
        "| --- | ---: | ---: | ---: |",
    ]
    for metric in METRICS:
        app, bare = samples.median("app", metric), samples.median("bare", metric)
        ratio = f"{app / bare:.2f}" if app and bare else "-"
        lines.append(
            f"| {labels[metric]} | {app:.0f} | {bare:.0f} | {ratio} |"
            if app is not None and bare is not None
            else f"| {labels[metric]} | - | - | - |"
        )
    if "plain" in samples.pages:
        lines += ["", "The app built without a snapshot (a plain Pyodide start):", "",
                  "| median (ms) | app, plain start | bare Pyodide | ratio |",
                  "| --- | ---: | ---: | ---: |"]
        for metric in METRICS:
            plain, bare = samples.median("plain", metric), samples.median("bare", metric)
            if plain is not None and bare:
                lines.append(f"| {labels[metric]} | {plain:.0f} | {bare:.0f}"
                             f" | {plain / bare:.2f} |")
    lines.append("")
    for page in samples.pages:
        if samples.modes.get(page):
            modes = samples.modes[page]
            from_snapshot = sum(mode == "snapshot" for mode in modes)
            others = sorted({mode for mode in modes if mode != "snapshot"})
            lines.append(f"{page}: Pyodide restored from the snapshot in {from_snapshot}"
                         f" of {len(modes)} boots" + (f"; otherwise {others}" if others else ""))
    from build import SNAPSHOT

    snapshot = ROOT / SNAPSHOT
    if snapshot.exists():
        lines.append(f"Snapshot: {snapshot.stat().st_size / 1e6:.1f} MB (gzip), fetched"
                     " beside the runtime.")
    lines.append("")
    lines.append("Run by run (app and bare measured back to back), app / bare:"
                 " median [lowest - highest]")
    for metric, base in (("cold", "cold"), ("reload", "reload"), ("offline", "offline"),
                         ("offline", "reload")):
        pairs = paired_ratios(samples, metric, base)
        if pairs:
            label = labels[metric] + ("" if metric == base else " / bare reload")
            lines.append(f"- {label}: {statistics.median(pairs):.2f}"
                         f" [{min(pairs):.2f} - {max(pairs):.2f}]")
    lines.append("")
    for text, key, base, limit in TARGETS:
        app, bare = samples.median("app", key), samples.median("bare", base)
        if app and bare:
            measured = app / bare
            verdict = "met" if measured <= limit else "NOT met"
            lines.append(f"- {text}: {measured:.2f} ({verdict})")
    fcp = samples.median("app", "fcp")
    if fcp is not None:
        lines.append(f"- app first contentful paint <= 300 ms: {fcp:.0f} ms"
                     f" ({'met' if fcp <= 300 else 'NOT met'})")
    for title, marks in (("Cold boot", samples.marks),
                         ("Offline reload", samples.offline_marks)):
        if not any(marks[page] for page in samples.pages):
            continue
        lines += ["", f"{title}, median time of each performance mark (ms):", ""]
        lines += ["| mark | " + " | ".join(samples.pages) + " |",
                  "| --- |" + " ---: |" * len(samples.pages)]
        for mark in MARKS:
            cells = []
            for page in samples.pages:
                values = marks[page].get(mark)
                cells.append(f"{statistics.median(values):.0f}" if values else "")
            if any(cells):
                lines.append(f"| {mark} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description="Boot benchmark: app vs bare Pyodide.")
    parser.add_argument("--runs", type=int, default=5, help="runs of each page (>= 1)")
    parser.add_argument("--json", type=Path, help="also write the raw samples here")
    parser.add_argument(
        "--no-offline", action="store_true", help="skip the offline reloads (quicker)"
    )
    parser.add_argument(
        "--with-plain", action="store_true",
        help="also measure the app built without a snapshot (a plain Pyodide start)",
    )
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if not (ROOT / "build" / "app.zip").exists():
        print("bench-boot: build/app.zip is missing; run `make build` first", file=sys.stderr)
        return 1
    samples = run(args.runs, offline=not args.no_offline, plain=args.with_plain)
    print()
    print(report(samples, args.runs))
    if args.json:
        args.json.write_text(json.dumps(samples.data, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
