"""Fixtures for the browser tests: our server and Debian's Chromium via Playwright.

Reuse them in any ``tests/browser/test_*.py``:

* ``site`` (module scope) -> ``str``: the URL of the site (``http://127.0.0.1:<port>/``),
  built first (``tools/build.py``: the engine zip follows ``src/``) and served by
  ``tools/serve.py`` on a free loopback port. ``site_server`` gives the server.
* ``chromium`` (module scope) -> ``playwright.sync_api.Browser``: headless
  ``/usr/bin/chromium`` (``$CHROMIUM``) with the flags of the runtime notes.
* ``app_page`` -> a fresh context (empty storage, service workers blocked so
  tests do not pay for precaching) and page; ``pageerror`` events collect in
  ``app_page.errors``; at teardown, the test fails if the error panel or a
  ``.py-error`` banner is shown.

Helpers (``wait_ready``, ``wait_game_started``, ``click_start``,
``assert_no_error``, constants) are in ``browser_support.py``.

The fixtures are module-scoped (one Playwright per module, not per session)
so a module that starts its own ``sync_playwright()`` still works. Without
Playwright or Chromium the browser tests are skipped, except under ``CI``,
where that is an error.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser_support import (
    BOOT_TIMEOUT_MS,
    CHROMIUM,
    CHROMIUM_ARGS,
    ROOT,
    error_state,
)

sys.path.insert(0, str(ROOT / "tools"))
import build
import serve

HERE = Path(__file__).resolve().parent


def _missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if importlib.util.find_spec("playwright") is None:
        return "the playwright package is not installed (make test installs it in .venv)"
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (make test installs Debian's chromium)"
    if not (ROOT / "static" / "vendor").is_dir():
        return "static/vendor/ is missing (run make setup)"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of this folder ``browser``; refuse to run them if impossible.

    A missing browser or runtime is an error, never a silent skip: ``make
    test`` installs everything (``-m "not browser"`` runs the rest alone).
    """
    reason = _missing()
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.browser)
            if reason:
                raise pytest.UsageError(f"browser tests cannot run: {reason}")


@pytest.fixture(scope="module")
def site_server() -> Iterator[serve.SiteServer]:
    """Build, then serve the repository root on a free loopback port."""
    build.build(ROOT)
    server = serve.serve_in_thread(ROOT)
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="module")
def site(site_server: serve.SiteServer) -> str:
    """The URL of the served site, ending with ``/``."""
    return site_server.url


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One headless Debian Chromium for the module; tests open their own contexts."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def app_page(chromium: Any) -> Iterator[Any]:
    """A fresh context and page; fails at teardown if an error was shown."""
    context = chromium.new_context(service_workers="block")
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    try:
        yield page
        if page.url.startswith("http"):
            state = error_state(page)
            assert not state["panel"] and not state["banners"], state
    finally:
        context.close()
