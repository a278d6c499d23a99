"""A Python exception shows the friendly error panel with a working Reload."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import build
from browser_support import BOOT_TIMEOUT_MS, ROOT, error_state


def broken_zip() -> bytes:
    """The real engine zip, but ``eleusis_web/main.py`` raises on import."""
    source = zipfile.ZipFile(io.BytesIO(build.app_zip_bytes(ROOT / "src")))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            data = source.read(name)
            if name == "eleusis_web/main.py":
                data = b"raise RuntimeError('deliberately broken for a test')\n"
            target.writestr(name, data)
    return out.getvalue()


def test_python_exception_opens_the_error_panel(chromium: Any, site: str) -> None:
    body = broken_zip()
    context = chromium.new_context(service_workers="block")
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    try:
        page = context.new_page()
        page.route(
            "**/build/app.zip",
            lambda route: route.fulfill(status=200, body=body, content_type="application/zip"),
        )
        page.goto(site)
        page.wait_for_selector("#error-panel:not([hidden])")
        state = error_state(page)
        assert state["panel"]
        assert "deliberately broken" in state["detail"] + state["banner_text"]
        assert page.get_by_role("button", name="Reload").is_visible()
        assert page.get_attribute("body", "data-ready") != "1"
        page.unroute("**/build/app.zip")
        page.get_by_role("button", name="Reload").click()
        page.wait_for_selector("body[data-ready='1']", state="attached")
        assert not error_state(page)["panel"]
    finally:
        context.close()


def test_engine_zip_that_cannot_load_opens_the_error_panel(chromium: Any, site: str) -> None:
    """static/pyodide-early.mjs fetches build/app.zip itself: a failure is shown."""
    context = chromium.new_context(service_workers="block")
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    try:
        page = context.new_page()
        page.route("**/build/app.zip", lambda route: route.fulfill(status=404, body=b""))
        page.goto(site)
        page.wait_for_selector("#error-panel:not([hidden])")
        state = error_state(page)
        assert "could not be downloaded" in page.locator("#error-message").inner_text()
        assert page.locator("#reload").inner_text() == "Try again"
        assert "app.zip: HTTP 404" in state["detail"]
        assert page.get_attribute("body", "data-ready") != "1"
    finally:
        context.close()
