"""After one visit the page boots and plays with the network off (service worker)."""

from __future__ import annotations

from typing import Any

from browser_support import (
    BOOT_TIMEOUT_MS,
    assert_no_error,
    click_start,
    wait_game_started,
    wait_ready,
)


def test_offline_reload_boots_and_plays(chromium: Any, site: str) -> None:
    context = chromium.new_context()  # service workers allowed here
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(site)
        wait_ready(page)
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        caches = page.evaluate("caches.keys()")
        assert len(caches) == 1 and caches[0].startswith("eleusis-"), caches
        context.set_offline(True)
        failed: list[str] = []
        page.on("requestfailed", lambda r: failed.append(r.url))
        page.reload()
        wait_ready(page)
        assert page.evaluate("navigator.onLine") is False
        click_start(page)
        wait_game_started(page)
        assert_no_error(page)
        # Only network-first revalidations may fail; everything was served.
        assert all(not u.endswith((".wasm", ".zip", ".mjs")) for u in failed), failed
    finally:
        context.close()
