"""Helpers shared by the browser tests (import them: ``from browser_support import ...``).

The fixtures themselves live in ``tests/browser/conftest.py``; this module
holds the constants and the small functions a test calls on a page.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

#: Debian's Chromium (Playwright cannot download a browser here).
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

#: Flags from docs/runtime-notes: without the background-networking ones,
#: Chromium floods a closed network with requests of its own. Without the
#: last, now and then a launch (1 of 180 here) samples a renderer's
#: allocations for Chromium's own heap profiler, whose stack walk can run off
#: the end of the stack WebAssembly switches to (Pyodide runs Python there)
#: and crash the page: "Page crashed", at random, in whichever test that
#: page served (Chromium 156; every such crash report on the test machine
#: carried ``--subproc-heap-profiling``).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-features=HeapProfilerReporting",
]

#: A cold boot is 2-3 s on a quiet machine; a shared, loaded one is far slower.
BOOT_TIMEOUT_MS = 120_000

#: True once the page's own "a game is under way" signals are all set: the
#: boot contract (``#table[data-game=active]``) and, when the table UI is
#: installed (``#game``), its table screen.
GAME_STARTED_JS = """() => {
  const t = document.getElementById('table');
  const g = document.getElementById('game');
  return !!t && t.dataset.game === 'active' && (!g || g.dataset.screen === 'table');
}"""


def wait_ready(page: Any, timeout: float = BOOT_TIMEOUT_MS) -> None:
    """Wait until Python is up: ``<body data-ready="1">``."""
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=timeout)


def release_held(page: Any, held: list[Any], timeout: float = BOOT_TIMEOUT_MS) -> None:
    """Wait (bounded) until the page has asked for what a test holds back (routes
    appended to ``held``), then let those requests through."""
    for _ in range(int(timeout) // 50):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the held request was never made"
    for route in held:
        route.continue_()


def wait_game_started(page: Any, timeout: float = 30_000) -> None:
    """Wait until a game is under way (see :data:`GAME_STARTED_JS`)."""
    page.wait_for_function(GAME_STARTED_JS, timeout=timeout)


def click_start(page: Any) -> None:
    """Press the visible "Start" button (the boot form's, or the table UI's)."""
    page.get_by_role("button", name="Start", exact=True).first.click()


def error_state(page: Any) -> dict[str, Any]:
    """What the page shows of errors: the panel, PyScript banners, their text."""
    return dict(
        page.evaluate(
            """() => ({
              panel: !document.getElementById('error-panel').hidden,
              banners: document.querySelectorAll('.py-error').length,
              detail: document.getElementById('error-detail').textContent,
              banner_text: [...document.querySelectorAll('.py-error')]
                .map(e => e.textContent).join('\\n'),
            })"""
        )
    )


def assert_no_error(page: Any) -> None:
    """Fail when the error panel or a PyScript ``.py-error`` banner is shown."""
    state = error_state(page)
    assert not state["panel"] and not state["banners"], state
