"""After one visit the page boots and plays with the network off (service worker)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import build
import dist
import serve
from browser_support import (
    BOOT_TIMEOUT_MS,
    assert_no_error,
    click_start,
    wait_game_started,
    wait_ready,
)


def _version(site: Path) -> str:
    found = re.search(r'"version": "([0-9a-f]+)"', (site / "build" / "precache.js").read_text())
    assert found is not None
    return found[1]


#: Ask the browser to look for a new worker; resolve with what became of it:
#: "none" (nothing new), "activated" or "redundant" (its install failed).
UPDATE = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  await registration.update();
  const worker = registration.installing || registration.waiting;
  if (!worker) return "none";
  return await new Promise((resolve) => {
    const settle = () => {
      if (worker.state === "activated" || worker.state === "redundant") resolve(worker.state);
    };
    worker.addEventListener("statechange", settle);
    settle();
  });
}"""


SNAPSHOT_HEAD = """async () => {
  const cache = await caches.open((await caches.keys())[0]);
  const hit = await cache.match(new URL("build/pyodide-snapshot.bin", location.href).href);
  const bytes = new Uint8Array(await hit.arrayBuffer());
  return {magic: Array.from(bytes.slice(0, 4)), size: bytes.length};
}"""


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
        # The worker stored the snapshot inflated (the page need not inflate
        # it at each visit): Pyodide's header, "\0snp", and 30 MiB of memory.
        head = page.evaluate(SNAPSHOT_HEAD)
        assert head["magic"] == [0, 0x73, 0x6E, 0x70] and head["size"] > 30 * 2**20
        context.set_offline(True)
        failed: list[str] = []
        page.on("requestfailed", lambda r: failed.append(r.url))
        page.reload()
        wait_ready(page)
        assert page.evaluate("navigator.onLine") is False
        # The interpreter came from the precached snapshot, not a plain start.
        mode = page.evaluate("import('./static/pyodide-early.mjs').then((m) => m.bootMode)")
        assert mode == "snapshot", mode
        click_start(page)
        wait_game_started(page)
        assert_no_error(page)
        # Everything the page needs came from the worker's cache.
        assert failed == [], failed
    finally:
        context.close()


def test_a_new_version_is_served_whole_and_offered_on_reload(
    chromium: Any, tmp_path: Path
) -> None:
    """The worker serves one consistent version from its cache; a deploy
    installs beside the open page, which offers to reload into it."""
    out = tmp_path / "site"
    dist.make_dist(out)
    server = serve.serve_in_thread(out)
    context = chromium.new_context()  # service workers allowed here
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(server.url)
        wait_ready(page)
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        assert page.locator("#update-notice").is_hidden()  # a first visit: nothing to offer
        # Deploy a new version: a changed page and, as the build writes it, a new cache name.
        old_version = _version(out)
        index = out / "index.html"
        marker = '<head><meta name="deployed" content="2">'
        index.write_text(index.read_text().replace("<head>", marker, 1))
        (out / "build" / "precache.js").write_text(build.precache_js(out))
        version = _version(out)
        assert version != old_version
        page.reload()
        wait_ready(page)
        # Still the cached version (the page did not wait on the network) ...
        assert page.locator('meta[name="deployed"]').count() == 0
        # ... while the new one installed and took over: the page offers it.
        page.locator("#update-notice").wait_for(state="visible")
        page.locator("#update-reload").click()
        page.wait_for_selector('meta[name="deployed"]', state="attached")
        wait_ready(page)
        assert page.evaluate("caches.keys()") == ["eleusis-" + version]
        assert page.locator("#update-notice").is_hidden()
        assert_no_error(page)
    finally:
        context.close()
        server.close()


def test_a_deploy_seen_half_way_keeps_the_old_version_whole(
    chromium: Any, tmp_path: Path
) -> None:
    """A host caught half-way through a deploy (its new precache.js, still an
    old index.html) must not make the worker store the old file under the new
    version: the new version fails to install, the old one keeps serving,
    whole and offline, and the finished deploy installs at the next check."""
    out = tmp_path / "site"
    dist.make_dist(out)
    server = serve.serve_in_thread(out)
    context = chromium.new_context()  # service workers allowed here
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(server.url)
        wait_ready(page)
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        old_version = _version(out)
        index = out / "index.html"
        old_page = index.read_text()
        new_page = old_page.replace("<head>", '<head><meta name="deployed" content="2">', 1)
        # Half a deploy: the list of the new version, the old page still there.
        index.write_text(new_page)
        (out / "build" / "precache.js").write_text(build.precache_js(out))
        new_version = _version(out)
        index.write_text(old_page)
        assert page.evaluate(UPDATE) == "redundant"
        assert page.evaluate("caches.keys()") == ["eleusis-" + old_version]
        context.set_offline(True)
        page.reload()
        wait_ready(page)
        assert page.locator('meta[name="deployed"]').count() == 0
        assert page.locator("#update-notice").is_hidden()
        assert_no_error(page)
        context.set_offline(False)
        # The deploy finishes: the next check installs the new version whole.
        index.write_text(new_page)
        assert page.evaluate(UPDATE) == "activated"
        assert page.evaluate("caches.keys()") == ["eleusis-" + new_version]
        page.locator("#update-notice").wait_for(state="visible")
        page.reload()
        page.wait_for_selector('meta[name="deployed"]', state="attached")
        wait_ready(page)
        assert_no_error(page)
    finally:
        context.close()
        server.close()
