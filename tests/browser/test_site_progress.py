"""A first visit shows how much is left to download, and a failed download offers a retry.

See ``static/pyodide-early.mjs`` (progress) and the loading indicator of
``index.html``. The expected total comes from the build's manifest of sizes
(``build/precache.js``, ``tools/build.py precache_manifest``).
"""

from __future__ import annotations

import json
from typing import Any

from browser_support import BOOT_TIMEOUT_MS, ROOT, assert_no_error, wait_ready

EARLY = "import('./static/pyodide-early.mjs')"
BAR = "(() => { const b = document.getElementById('loading-bar'); return [b.value, b.max]; })()"


def _boot_sizes() -> int:
    """Bytes a boot downloads, from the manifest (the same list as the page's BOOT)."""
    text = (ROOT / "build" / "precache.js").read_text()
    sizes = json.loads(text[text.index("{") : text.rindex("}") + 1])["sizes"]
    names = ("pyodide.asm.wasm", "pyodide.asm.mjs", "pyodide-lock.json")
    runtime = [n for n in sizes if n.startswith("static/vendor/pyodide-") and n.endswith(names)]
    assert len(runtime) == len(names)
    boot = [*runtime, "build/python_stdlib.zip", "build/app.zip", "build/pyodide-snapshot.bin"]
    return sum(int(sizes[n]) for n in boot)


def test_the_bar_counts_bytes_received_of_bytes_expected(chromium: Any, site: str) -> None:
    context = chromium.new_context(service_workers="block")
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    held: list[Any] = []
    try:
        page = context.new_page()
        # Hold the engine zip back until the bar knows its total: the bar must
        # then show part of the download, not all of it.
        page.route("**/build/app.zip", lambda route: held.append(route))
        page.goto(site)
        page.wait_for_function("document.getElementById('loading-bar').max > 1")
        expected = _boot_sizes()
        value, maximum = page.evaluate(BAR)
        assert maximum == expected
        assert 0 <= value < maximum
        assert "of" in page.inner_text("#loading-text")  # "Loading the game: x of y MB"
        for _ in range(BOOT_TIMEOUT_MS // 50):  # the request reaches the handler
            if held:
                break
            page.wait_for_timeout(50)
        assert len(held) == 1
        held[0].continue_()
        wait_ready(page)
        log = page.evaluate(f"{EARLY}.then((m) => m.progressLog())")
        received = [r for r, _e in log]
        assert received == sorted(received), "the bar went backwards"
        assert {e for _r, e in log} == {expected}
        assert log[-1] == [expected, expected]
        assert page.evaluate(BAR) == [expected, expected]
        assert page.evaluate(f"{EARLY}.then((m) => m.bootMode)") == "snapshot"
        assert_no_error(page)
    finally:
        context.close()


def test_a_failed_download_says_so_and_try_again_boots(chromium: Any, site: str) -> None:
    context = chromium.new_context(service_workers="block")
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    try:
        page = context.new_page()
        page.route("**/build/app.zip", lambda route: route.abort("connectionreset"))
        page.goto(site)
        page.locator("#error-panel").wait_for(state="visible")
        assert "could not be downloaded" in page.inner_text("#error-message")
        assert "connection" in page.inner_text("#error-message")
        assert page.inner_text("#reload") == "Try again"
        assert page.get_attribute("body", "data-ready") == "0"
        page.unroute("**/build/app.zip")
        page.click("#reload")
        wait_ready(page)
        assert_no_error(page)
    finally:
        context.close()
