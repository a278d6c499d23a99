"""The page boots, stays on its own origin, ships every module, and is installable.

One page is booted for the whole module (a boot costs seconds), then each test
checks one promise of the foundation on it.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from typing import Any

import build
import pytest
from browser_support import (
    BOOT_TIMEOUT_MS,
    CHROMIUM,
    CHROMIUM_ARGS,
    ROOT,
    assert_no_error,
    click_start,
    release_held,
    wait_game_started,
    wait_ready,
)
from playwright.sync_api import expect


class Booted:
    """A page booted once, with every request it made recorded."""

    def __init__(self, page: Any, requests: list[str], errors: list[str]) -> None:
        self.page = page
        self.requests = requests
        self.errors = errors


@pytest.fixture(scope="module")
def booted(chromium: Any, site: str) -> Iterator[Booted]:
    """Boot the app in a fresh context, recording requests and page errors."""
    context = chromium.new_context(service_workers="block")
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    page = context.new_page()
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site)
    wait_ready(page)
    try:
        yield Booted(page, requests, errors)
    finally:
        context.close()


def test_boots_to_ready_without_errors(booted: Booted) -> None:
    assert booted.page.get_attribute("body", "data-ready") == "1"
    assert_no_error(booted.page)
    assert booted.errors == []


def test_every_module_of_src_imports_in_the_browser(booted: Booted) -> None:
    """Each module of src/eleusis and src/eleusis_web reached Pyodide and imports."""
    report = json.loads(booted.page.evaluate("window.eleusisBoot.diagnose()"))
    expected = build.package_modules(ROOT / "src")
    assert report["failures"] == {}, report["failures"]
    missing = sorted(set(expected) - set(report["modules"]))
    assert missing == [], f"modules of src/ missing in the browser: {missing}"
    bytecode = report["bytecode"]
    assert bytecode["archive"] == build.APP_MOUNT
    assert bytecode["stale"] == [], "modules compiled at run time: " + str(bytecode["stale"])
    assert bytecode["checked"] >= len(expected) + 14  # + pyscript (14 modules)


def test_a_new_game_starts(booted: Booted) -> None:
    click_start(booted.page)
    wait_game_started(booted.page)
    assert_no_error(booted.page)
    assert booted.errors == []


def test_no_request_leaves_the_origin(booted: Booted, site: str) -> None:
    """Boot and a game made requests, and every one went to our own server."""
    origin = urllib.parse.urlsplit(site).netloc
    assert booted.requests, "no request recorded"
    foreign = [
        url
        for url in booted.requests
        if urllib.parse.urlsplit(url).scheme not in ("data", "blob")
        and urllib.parse.urlsplit(url).netloc != origin
    ]
    assert foreign == []
    names = {urllib.parse.urlsplit(u).path.rsplit("/", 1)[-1] for u in booted.requests}
    assert {"pyodide.asm.wasm", "app.zip", "core.js", "pyscript.toml",
            "pyodide-snapshot.bin"} <= names


def test_installable_by_chromium(chromium: Any, site: str, tmp_path: Any) -> None:
    """Chromium's own installability check finds nothing missing.

    It needs a persistent profile: in an incognito-like context Chromium
    reports ``in-incognito`` and nothing else.
    """
    context = chromium.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
    )
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(site)
        page.wait_for_load_state("load")
        cdp = context.new_cdp_session(page)
        errors: list[Any] = ["not checked"]
        for _ in range(40):
            errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
            if not errors:
                break
            page.wait_for_timeout(250)
        assert errors == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"].endswith("static/manifest.webmanifest")
        assert not manifest.get("errors")
    finally:
        context.close()


def test_static_shell_paints_before_python(chromium: Any, site: str) -> None:
    """Without the runtime, the title, the table and the form still show, with the
    loading indicator; a Start click is queued, not lost."""
    context = chromium.new_context(service_workers="block")
    try:
        page = context.new_page()
        page.route("**/static/vendor/**", lambda route: route.abort())
        page.route("**/static/pyodide-early.mjs", lambda route: route.abort())
        page.goto(site)
        assert page.locator("h1").inner_text().strip().endswith("Eleusis")
        assert page.locator("#table").is_visible()
        assert page.locator("#new-game").is_visible()
        assert page.locator("#loading").is_visible()
        page.locator("#start").click()
        assert page.evaluate("window.eleusisBoot.queue.length") == 1
        assert page.get_attribute("body", "data-ready") == "0"
    finally:
        context.close()


def test_early_start_click_is_honoured(app_page: Any, site: str) -> None:
    """A Start click made before Python is ready starts the game once it is."""
    held: list[Any] = []
    app_page.route("**/build/app.zip", lambda route: held.append(route))
    app_page.goto(site)
    app_page.locator("#start").click()
    assert app_page.evaluate("window.eleusisBoot.queue.length") == 1
    app_page.wait_for_function("document.getElementById('status').textContent.length > 0")
    for _ in range(BOOT_TIMEOUT_MS // 50):  # until the request reaches the handler
        if held:
            break
        app_page.wait_for_timeout(50)
    assert held, "the engine zip was not requested"
    assert app_page.get_attribute("body", "data-ready") == "0"
    for route in held:
        route.continue_()
    wait_ready(app_page)
    wait_game_started(app_page)
    assert app_page.evaluate("window.eleusisBoot.queue.length") == 0


def test_learn_to_play_clicked_while_the_engine_loads_starts_the_lesson(
    app_page: Any, site: str
) -> None:
    """The shell offers the guided round before Python is ready; the click is kept."""
    held: list[Any] = []
    app_page.route("**/build/app.zip", lambda route: held.append(route))
    app_page.goto(site)
    app_page.get_by_role("button", name="Learn to play").click()
    assert app_page.evaluate("window.eleusisBoot.queue") == [{"type": "learn_start"}]
    expect(app_page.locator("#status")).to_contain_text("as soon as the engine is ready")
    release_held(app_page, held)  # once the page has asked for it
    wait_ready(app_page)
    expect(app_page.get_by_role("button", name="Leave the lesson")).to_be_visible(
        timeout=BOOT_TIMEOUT_MS)
