"""Pyodide starts from its memory snapshot, renews what it froze, and falls back.

See ``static/pyodide-early.mjs`` and ``src/eleusis_web/snapshot.py``. A
snapshot freezes the build machine's state; these tests boot the page in a
zone and a language far from the build's (UTC, Node) and check that Python
sees the browser's, and that two visitors do not share a random seed.
"""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest
from browser_support import (
    BOOT_TIMEOUT_MS,
    ROOT,
    assert_no_error,
    click_start,
    wait_game_started,
)

BOOT_MODE = "import('./static/pyodide-early.mjs').then((m) => m.bootMode)"

#: The program name a plain start in a browser gives Python (Emscripten's).
PROGRAM = {"executable": "/home/pyodide/this.program", "orig_argv": ["./this.program"]}

#: The browser's own zone, as CPython computes it (January / July offsets).
JS_ZONE = """() => {
  const year = new Date().getFullYear();
  const jan = -new Date(year, 0, 1).getTimezoneOffset() * 60;
  const jul = -new Date(year, 6, 1).getTimezoneOffset() * 60;
  return {jan, jul, hour: new Date().getHours(), ua: navigator.userAgent};
}"""


def _runtime(page: Any) -> dict[str, Any]:
    """The page's runtime report (it imports nothing: see eleusis_web.boot)."""
    runtime: dict[str, Any] = json.loads(page.evaluate("window.eleusisBoot.runtime()"))
    return runtime


def _boot(chromium: Any, site: str, **context_options: Any) -> tuple[Any, Any]:
    context = chromium.new_context(service_workers="block", **context_options)
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    page = context.new_page()
    return context, page


def test_snapshot_boot_has_the_browsers_zone_language_and_its_own_seed(
    chromium: Any, site: str
) -> None:
    draws = []
    for _ in range(2):
        context, page = _boot(chromium, site, timezone_id="Pacific/Auckland", locale="pl-PL")
        try:
            page.goto(site)
            page.wait_for_selector("body[data-ready='1']", state="attached")
            assert page.evaluate(BOOT_MODE) == "snapshot"
            # Pyodide copied the snapshot into its memory: the 31 MB are freed.
            held = "import('./static/pyodide-early.mjs').then((m) => m.heldSnapshotBytes())"
            assert page.evaluate(held) == 0
            before = page.evaluate(JS_ZONE)
            runtime = _runtime(page)
            after = page.evaluate(JS_ZONE)
            assert runtime["snapshot"] is True
            assert runtime["lang"] == "pl_PL.UTF-8"
            assert runtime["runtime"] == before["ua"]
            # Auckland: summer time (+13) in January, standard (+12) in July.
            assert (before["jan"], before["jul"]) == (13 * 3600, 12 * 3600)
            assert runtime["timezone"] == -before["jul"] and runtime["altzone"] == -before["jan"]
            assert runtime["daylight"] == 1
            assert runtime["tzname"] == ["UTC+1200", "UTC+1300"]
            assert runtime["hour"] in {before["hour"], after["hour"]}
            assert {k: runtime[k] for k in PROGRAM} == PROGRAM  # not the build's script
            draws.append(runtime["random"])
            click_start(page)
            wait_game_started(page)
            assert_no_error(page)
            # Every standard-library module the table and a game need came
            # compiled in the snapshot (else: add it to tools/snapshot.mjs PRELOAD).
            assert _runtime(page)["compiled_stdlib"] == []
        finally:
            context.close()
    assert draws[0] != draws[1], "two visits drew the same random numbers: seed not renewed"


def _bad_snapshots() -> dict[str, tuple[int, bytes]]:
    header = bytearray(256)
    header[0:4] = (0x706E7300).to_bytes(4, "little")
    header[4:8] = (128).to_bytes(4, "little")
    header[16:48] = bytes(32)  # another Pyodide's build id
    return {
        "missing": (404, b""),
        "not a snapshot": (200, b"this is not a memory snapshot"),
        "cut gzip": (200, gzip.compress(bytes(100_000))[:500]),
        "another build": (200, gzip.compress(bytes(header))),
    }


@pytest.mark.parametrize("case", sorted(_bad_snapshots()))
def test_a_missing_or_bad_snapshot_falls_back_to_a_plain_start(
    chromium: Any, site: str, case: str
) -> None:
    status, body = _bad_snapshots()[case]
    context, page = _boot(chromium, site)
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    try:
        page.route(
            "**/build/pyodide-snapshot.bin",
            lambda route: route.fulfill(status=status, body=body,
                                        content_type="application/octet-stream"),
        )
        page.goto(site)
        page.wait_for_selector("body[data-ready='1']", state="attached")
        mode = page.evaluate(BOOT_MODE)
        assert mode.startswith("plain ("), mode
        assert any("without its snapshot" in w for w in warnings), warnings
        runtime = _runtime(page)
        assert runtime["snapshot"] is False
        assert {k: runtime[k] for k in PROGRAM} == PROGRAM  # as after a restore
        click_start(page)
        wait_game_started(page)
        assert_no_error(page)
    finally:
        context.close()


#: The page's interpreter module, from the page.
EARLY = "import('./static/pyodide-early.mjs')"


def _visit_from_afar(chromium: Any, site: str) -> tuple[Any, Any]:
    """A first visit to the site as if it were hosted elsewhere (not on this
    machine). Returns the context and the page."""
    context, page = _boot(chromium, site)
    host = "http://eleusis.example/"
    def relay(route: Any) -> None:
        route.fulfill(response=route.fetch(url=site + route.request.url[len(host):]))

    context.route(host + "**", relay)
    return context, page


def test_a_first_visit_starts_plain_without_downloading_the_snapshot(
    chromium: Any, site: str
) -> None:
    """The snapshot's 4 MB cost a first visit more time than the start they save:
    a first visit from a host on the network starts plain, does not download
    it, shows a bar that does not count it, and plays."""
    context, page = _visit_from_afar(chromium, site)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto("http://eleusis.example/?variant=solo")
        page.wait_for_selector("body[data-ready='1']", state="attached")
        mode = page.evaluate(f"{EARLY}.then((m) => m.bootMode)")
        assert mode == "plain (a first visit: the snapshot is fetched for the next one)"
        assert not [u for u in requests if u.endswith("/pyodide-snapshot.bin")]
        text = (ROOT / "build" / "precache.js").read_text()
        sizes = json.loads(text[text.index("{") : text.rindex("}") + 1])["sizes"]
        runtime = [n for n in sizes if n.startswith("static/vendor/pyodide-")
                   and n.endswith(("pyodide.asm.wasm", "pyodide.asm.mjs", "pyodide-lock.json"))]
        boot = sum(sizes[n] for n in [*runtime, "build/python_stdlib.zip", "build/app.zip"])
        bar = page.evaluate(f"{EARLY}.then((m) => m.progressLog())")
        assert bar and {total for _, total in bar} == {boot}  # the snapshot not counted
        click_start(page)
        wait_game_started(page)
        assert_no_error(page)
    finally:
        context.close()


def test_a_standard_library_module_left_out_of_the_page_still_imports(
    chromium: Any, site: str
) -> None:
    """The page's standard library is trimmed; a module left out of it (colorsys,
    calendar) is fetched with the whole library, once, and imports."""
    context, page = _boot(chromium, site)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto(site)
        page.wait_for_selector("body[data-ready='1']", state="attached")
        assert not any("/vendor/pyodide-" in u and u.endswith("/python_stdlib.zip")
                       for u in requests)  # the page's own, trimmed library was enough
        code = ("import colorsys, calendar\n"
                "f'{colorsys.rgb_to_hsv(1, 0, 0)} {calendar.isleap(2028)}'")
        result = page.evaluate(
            f"{EARLY}.then((m) => m.start()).then((py) => py.runPython({json.dumps(code)}))")
        assert result == "(0.0, 1.0, 1) True"
        whole = [u for u in requests if "/vendor/pyodide-" in u and u.endswith("python_stdlib.zip")]
        assert len(whole) == 1, whole
        assert_no_error(page)
    finally:
        context.close()
