"""``make dist`` output works from a static host below a sub-path, plain or
serving the precompressed copies (brotli: the snapshot arrives as memory)."""

from __future__ import annotations

import urllib.parse
from pathlib import Path
from typing import Any

import dist
import pytest
import serve
from browser_support import (
    BOOT_TIMEOUT_MS,
    assert_no_error,
    click_start,
    wait_game_started,
    wait_ready,
)


@pytest.mark.parametrize("encodings", [(), ("br", "gzip")], ids=["plain", "precompressed"])
def test_dist_boots_under_a_sub_path(
    chromium: Any, tmp_path: Path, encodings: tuple[str, ...]
) -> None:
    out = tmp_path / "dist"
    dist.make_dist(out)
    server = serve.serve_in_thread(out, prefix="/eleusis/", encodings=encodings)
    context = chromium.new_context(service_workers="block")
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    try:
        page = context.new_page()
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(server.url)
        wait_ready(page)
        # The snapshot is found below the sub-path too (not a silent plain start).
        mode = page.evaluate("import('./static/pyodide-early.mjs').then((m) => m.bootMode)")
        assert mode == "snapshot", mode
        click_start(page)
        wait_game_started(page)
        assert_no_error(page)
        outside = [
            u for u in requests if not urllib.parse.urlsplit(u).path.startswith("/eleusis/")
        ]
        assert outside == []
    finally:
        context.close()
        server.close()
