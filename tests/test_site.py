"""The site's plumbing under CPython: engine zip, precache list, server, config, dist.

No browser here (see tests/browser/): these check the files and tools that
make the page load the right things from its own origin.
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import io
import json
import re
import struct
import sys
import tomllib
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from email.message import Message
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import build  # noqa: E402
import dist  # noqa: E402
import serve  # noqa: E402
import vendor  # noqa: E402

SITE_TEXT_FILES = [
    "index.html",
    "sw.js",
    "static/pyodide-early.mjs",
    "static/manifest.webmanifest",
    *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "static").glob("*.css")),
]


# --------------------------------------------------------------------------- engine zip


def _source_files(src: Path) -> set[str]:
    """Files under src/eleusis*, found independently of tools/build.py."""
    found = set()
    for package in ("eleusis", "eleusis_web"):
        for path in (src / package).rglob("*"):
            rel = path.relative_to(src)
            if path.is_file() and "__pycache__" not in rel.parts and path.suffix != ".pyc":
                found.add(rel.as_posix())
    return found


def test_zip_holds_every_file_of_both_packages() -> None:
    archive = zipfile.ZipFile(__import__("io").BytesIO(build.app_zip_bytes(ROOT / "src")))
    names = set(archive.namelist())
    expected = _source_files(ROOT / "src")
    assert names == expected
    assert "eleusis/cards.py" in names and "eleusis_web/main.py" in names


def test_zip_picks_up_new_modules_and_data_but_no_caches(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "eleusis" / "deep" / "__pycache__").mkdir(parents=True)
    (src / "eleusis_web").mkdir()
    (src / "eleusis" / "__init__.py").write_text("")
    (src / "eleusis" / "deep" / "mod.py").write_text("X = 1\n")
    (src / "eleusis" / "deep" / "data.json").write_text("{}")
    (src / "eleusis" / "deep" / "__pycache__" / "mod.cpython-311.pyc").write_bytes(b"x")
    (src / "eleusis" / ".hidden.py").write_text("")
    (src / "eleusis_web" / "main.py").write_text("")
    assert build.package_files(src) == [
        "eleusis/__init__.py",
        "eleusis/deep/data.json",
        "eleusis/deep/mod.py",
        "eleusis_web/main.py",
    ]
    assert build.package_modules(src) == ["eleusis", "eleusis.deep.mod", "eleusis_web.main"]


def test_zip_is_deterministic() -> None:
    assert build.app_zip_bytes(ROOT / "src") == build.app_zip_bytes(ROOT / "src")


# --------------------------------------------------------------------------- precache


def _fake_site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    for name in ("index.html", "pyscript.toml", "build/app.zip", "build/python_stdlib.zip",
                 "static/table.css", "static/vendor/pyodide-1/pyodide.mjs",
                 "static/vendor/pyodide-1/python_stdlib.zip", "static/vendor/.stamp"):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name)
    return root


def test_precache_lists_shell_static_and_runtime(tmp_path: Path) -> None:
    root = _fake_site(tmp_path)
    files = build.precache_files(root)
    assert files[:5] == ["./", "index.html", "pyscript.toml", "build/app.zip",
                         "build/python_stdlib.zip"]
    assert "static/vendor/pyodide-1/pyodide.mjs" in files
    # the page loads the build's trimmed library, not Pyodide's whole one
    assert "static/vendor/pyodide-1/python_stdlib.zip" not in files
    assert "static/vendor/.stamp" not in files


def test_precache_leaves_out_the_plugins_the_page_turns_off(tmp_path: Path) -> None:
    root = _fake_site(tmp_path)
    for name in ("core-X1.js", "codemirror_view-X2.js", "xterm-X3.js", "py-editor-X4.js",
                 "py-terminal-X5.js", "toml-X6.js"):
        path = root / "static/vendor/pyscript-9.9.9" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name)
    chunks = sorted(f.rsplit("/", 1)[1] for f in build.precache_files(root) if "pyscript-" in f)
    assert chunks == ["core-X1.js", "toml-X6.js"]


def test_precache_manifest_has_each_files_hash_and_size(tmp_path: Path) -> None:
    root = _fake_site(tmp_path)
    manifest = build.precache_manifest(root)
    files = manifest["files"]
    assert isinstance(files, list)
    assert manifest["hashes"] == {
        name: hashlib.sha256(
            (root / ("index.html" if name == "./" else name)).read_bytes()
        ).hexdigest()
        for name in files
    }
    assert manifest["sizes"]["static/table.css"] == len("static/table.css")  # type: ignore[index]
    text = build.precache_js(root)
    assert json.loads(text.split("=", 1)[1].rstrip().rstrip(";")) == manifest


def test_cache_name_changes_with_any_content(tmp_path: Path) -> None:
    root = _fake_site(tmp_path)
    before = build.content_hash(root, build.precache_files(root))
    assert before == build.content_hash(root, build.precache_files(root))
    (root / "static/vendor/pyodide-1/pyodide.mjs").write_text("changed")
    assert build.content_hash(root, build.precache_files(root)) != before


def test_real_precache_covers_every_file_the_page_needs() -> None:
    assert (ROOT / "static" / "vendor").is_dir(), "static/vendor/ not set up (make setup)"
    files = build.precache_files(ROOT)
    dirs = vendor.vendor_dirs(ROOT)
    for name in vendor.PYODIDE_FILES:
        if name != "python_stdlib.zip":  # the page loads the build's (below)
            assert (dirs["pyodide"] / name).relative_to(ROOT).as_posix() in files
    assert build.STDLIB in files
    assert (dirs["@pyscript/core"] / "core.js").relative_to(ROOT).as_posix() in files
    assert "static/pyodide-early.mjs" in files and "static/table.css" in files
    for name in files:
        assert (ROOT / ("index.html" if name == "./" else name)).exists() or name.startswith(
            "build/"
        ), name


def _build_id(pyodide_mjs: Path) -> str:
    found = re.search(r'BUILD_ID:"([0-9a-f]{64})"', pyodide_mjs.read_text())
    assert found, "no BUILD_ID in pyodide.mjs"
    return found.group(1)


def test_snapshot_is_made_for_the_vendored_pyodide_and_precached() -> None:
    """build/pyodide-snapshot.bin: gzip of Pyodide's snapshot format (magic,
    header length, JSON, build id) for exactly the vendored runtime."""
    import gzip

    packed = build.snapshot_bytes(ROOT)
    assert packed is not None, "no snapshot: Node or static/vendor/ missing (make setup)"
    assert packed == build.snapshot_bytes(ROOT), "made again instead of cached"
    build.build(ROOT)
    assert (ROOT / build.SNAPSHOT).read_bytes() == packed
    assert build.SNAPSHOT in build.precache_files(ROOT)
    memory = gzip.decompress(packed)
    magic, header, json_length = struct.unpack_from("<3I", memory)
    assert magic == 0x706E7300  # "\0snp"
    pyodide = vendor.vendor_dirs(ROOT)["pyodide"]
    build_id = "".join(f"{word:08x}" for word in struct.unpack_from("<8I", memory, 16))
    assert build_id == _build_id(pyodide / "pyodide.mjs")
    keys = json.loads(memory[48 : 48 + json_length])
    assert keys == {"hiwireKeys": [None], "immortalKeys": []}  # no JS object frozen
    assert header % 16 == 0 and (len(memory) - header) % 65536 == 0  # whole wasm pages


def _wasm_with_memory(pages: int) -> bytes:
    """A minimal WebAssembly module: a type section, then a memory of ``pages``."""
    types = bytes([1, 2, 1, 0x60, 0, 0])  # section 1: one type () -> ()
    memory = bytes([5, 4, 1, 0, pages & 0x7F | 0x80, pages >> 7])  # section 5, min pages
    return b"\0asm" + (1).to_bytes(4, "little") + types + memory


def _fake_snapshot(memory: int) -> bytes:
    header = struct.pack("<3I", build.SNAPSHOT_MAGIC, 128, 0) + bytes(116)
    return gzip.compress(header + bytes(memory))


def test_the_snapshot_fits_the_heap_it_is_restored_into() -> None:
    """Pyodide restores into its module's initial memory: a bigger snapshot
    never restores (Pyodide #6254), so the build refuses to make one."""
    pyodide = vendor.vendor_dirs(ROOT)["pyodide"]
    packed = build.snapshot_bytes(ROOT)
    assert packed is not None
    heap = build.wasm_initial_memory((pyodide / "pyodide.asm.wasm").read_bytes())
    assert heap % 65536 == 0 and heap >= 16 * 2**20
    assert 0 < build.snapshot_memory(packed) <= heap


def test_a_snapshot_larger_than_the_heap_stops_the_build() -> None:
    wasm = _wasm_with_memory(200)
    assert build.wasm_initial_memory(wasm) == 200 * 65536
    build.check_snapshot_fits(_fake_snapshot(200 * 65536), wasm)  # exactly fits
    with pytest.raises(SystemExit, match="would never restore"):
        build.check_snapshot_fits(_fake_snapshot(201 * 65536), wasm)
    with pytest.raises(ValueError, match="no memory"):
        build.wasm_initial_memory(b"\0asm" + (1).to_bytes(4, "little"))
    with pytest.raises(ValueError, match="snapshot"):
        build.snapshot_memory(gzip.compress(bytes(64)))


def test_no_snapshot_without_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Node no snapshot is made (the page then starts Pyodide plainly)."""
    monkeypatch.setattr(build.shutil, "which", lambda name: None)
    assert build.snapshot_bytes(ROOT) is None


# --------------------------------------------------------------------------- config


def test_runtime_is_pinned_exactly_and_referenced_consistently() -> None:
    pins = vendor.pinned_versions(ROOT)
    assert re.fullmatch(r"\d+\.\d+\.\d+", pins["pyodide"])
    assert re.fullmatch(r"\d+\.\d+\.\d+", pins["@pyscript/core"])
    lock = json.loads((ROOT / "package-lock.json").read_text())
    for name, version in pins.items():
        assert lock["packages"][f"node_modules/{name}"]["version"] == version
    pyodide_dir = f"vendor/pyodide-{pins['pyodide']}/"
    pyscript_dir = f"vendor/pyscript-{pins['@pyscript/core']}/"
    for name in ("index.html", "static/pyodide-early.mjs", "bench/bare.html", "bench/bare-sw.js"):
        text = (ROOT / name).read_text()
        found = set(re.findall(r"vendor/(?:pyodide|pyscript)-[\d.]+/", text))
        assert found, name
        assert found <= {pyodide_dir, pyscript_dir}, (name, found)


def _configs() -> tuple[dict[str, Any], dict[str, Any]]:
    """The page's PyScript configurations: ``pyscript.toml`` (named by the
    ``config`` of its one Python script) and the ``<mpy-config>`` element's."""
    html = (ROOT / "index.html").read_text()
    scripts = re.findall(r"""<script type="py" config="([^"]*)">""", html)
    mpy = re.findall(r"<mpy-config hidden>(.*?)</mpy-config>", html, re.DOTALL)
    assert scripts == ["./pyscript.toml"] and len(mpy) == 1
    return tomllib.loads((ROOT / "pyscript.toml").read_text()), json.loads(mpy[0])


def test_pyscript_config_points_at_local_files() -> None:
    config, _ = _configs()
    assert config["interpreter"] == "./static/pyodide-early.mjs"
    assert (ROOT / config["interpreter"]).is_file()
    assert "files" not in config  # the interpreter module brings build/app.zip
    assert "packages" not in config  # cannot work offline
    # the config is part of the offline shell and of dist/
    assert "pyscript.toml" in build.SHELL and "pyscript.toml" in dist.SITE


def test_pyscript_plugins_off_for_both_interpreter_types_but_errors() -> None:
    config, mpy = _configs()
    assert config["plugins"] == mpy["plugins"]
    assert "!py-terminal" in config["plugins"] and "!codemirror" in config["plugins"]
    assert not [p for p in config["plugins"] if p.lstrip("!") == "error"]


def test_every_local_url_of_the_page_exists() -> None:
    """Preloads and module URLs go stale when the runtime moves."""
    assert (ROOT / "static" / "vendor").is_dir(), "static/vendor/ not set up (make setup)"
    html = (ROOT / "index.html").read_text()
    urls = re.findall(r"""(?:src|href)=["']([^"'#?]+)["']""", html)
    urls += re.findall(r"""(?:import\(|from )\s*["']\./([^"']+)["']""", html)
    for url in urls:
        if not url.startswith("build/"):
            assert (ROOT / url).is_file(), url


def test_mount_points_agree_with_the_interpreter_module() -> None:
    early = (ROOT / "static" / "pyodide-early.mjs").read_text()
    assert f'const APP_MOUNT = "{build.APP_MOUNT}";' in early
    assert '"../build/app.zip"' in early and "build/app.zip" in build.SHELL


def test_bytecode_covers_every_module_and_is_checked_hash_based() -> None:
    """Every module of the zip has bytecode made by the vendored Pyodide, and the
    zip ships that bytecode alone (the page never compiles our sources)."""
    assert (ROOT / "static" / "vendor").is_dir(), "static/vendor/ not set up (make setup)"
    entries = build.bytecode_entries(ROOT)
    modules = [n for n in build.package_files(ROOT / "src") if n.endswith(".py")]
    for name in modules:
        pyc = entries[name + "c"]
        assert pyc[4:8] == b"\x03\x00\x00\x00", name  # PEP 552: hash-based, checked
    pyscript = [n for n in entries if n.startswith(build.PYSCRIPT_PACKAGE + "/")]
    for module in ("__init__", "display", "web"):
        assert f"pyscript/{module}.pyc" in pyscript
    # (That they equal the files PyScript writes is checked in the page:
    # tests/browser/test_site_boot.py, bytecode_report.)
    assert [n for n in entries if not n.endswith(".pyc")] == []
    with zipfile.ZipFile(io.BytesIO(build.app_zip_bytes(ROOT / "src", entries))) as app:
        names = set(app.namelist())
        assert {info.compress_type for info in app.infolist()} == {zipfile.ZIP_STORED}
    assert {n + "c" for n in modules} <= names
    assert not [n for n in names if n.endswith(".py")]  # bytecode alone
    assert "eleusis/cards.py" in zipfile.ZipFile(  # without bytecode: the sources
        io.BytesIO(build.app_zip_bytes(ROOT / "src"))).namelist()


def test_the_page_s_standard_library_is_trimmed_bytecode_and_loses_nothing() -> None:
    """build/python_stdlib.zip: bytecode of every standard-library module an import
    of ours (or PyScript's, or Pyodide's start) names, and of what those import at
    their top level; the rest is listed for the page's fallback, nothing lost."""
    data, left_out = build.stdlib_zip(ROOT)
    whole_zip = next((ROOT / "static" / "vendor").glob("pyodide-*/python_stdlib.zip"))
    with zipfile.ZipFile(whole_zip) as whole:
        every = {n[: -len(".py")].removesuffix("/__init__").replace("/", ".")
                 for n in whole.namelist() if n.endswith(".py")}
    with zipfile.ZipFile(io.BytesIO(data)) as trimmed:
        names = trimmed.namelist()
    assert not [n for n in names if n.endswith(".py")]
    kept = {n[: -len(".pyc")].removesuffix("/__init__").replace("/", ".")
            for n in names if n.endswith(".pyc")}
    assert kept | set(left_out) == every and not kept & set(left_out)
    roots = set(build.stdlib_roots(ROOT)) & every
    assert roots <= kept
    # what our code imports, late imports included, and what the boot needs
    for module in ("gettext", "html", "html.entities", "difflib", "fractions", "asyncio",
                   "json", "encodings.utf_8", "pyodide.webloop", "_pyodide._importhook"):
        assert module in kept, module
    assert len(kept) < len(every) / 2  # trimmed: far from the whole library
    assert "pdb" in left_out and "unittest" in left_out  # only under __main__ blocks
    preload = re.search(r"const PRELOAD = \[([^\]]*)\]",
                        (ROOT / "tools" / "snapshot.mjs").read_text())
    assert preload is not None
    assert tuple(re.findall(r'"([\w.]+)"', preload.group(1))) == build.SNAPSHOT_PRELOAD
    # the engine zip lists what was left out, for the page's fallback
    with zipfile.ZipFile(ROOT / "build" / "app.zip") as app:
        assert app.read(build.STDLIB_REST).decode().split() == left_out


def test_no_file_of_the_site_names_another_origin() -> None:
    pattern = re.compile(r"""(?:src|href|url|import|from|fetch)\s*[=(]?\s*["']?(?:https?:)?//""")
    for name in SITE_TEXT_FILES:
        text = (ROOT / name).read_text()
        assert not pattern.search(text), name
        assert not re.search(r"jsdelivr|unpkg|cdnjs|cdn\.", text, re.IGNORECASE), name


def test_index_urls_are_relative() -> None:
    html = (ROOT / "index.html").read_text()
    urls = re.findall(r"""(?:src|href)=["']([^"']+)["']""", html)
    urls += re.findall(r"""(?:import\(|from )\s*["']([^"']+)["']""", html)
    assert urls
    for url in urls:
        assert not url.startswith(("/", "http:", "https:")), url


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_manifest_is_complete_and_its_icons_exist() -> None:
    path = ROOT / "static" / "manifest.webmanifest"
    manifest = json.loads(path.read_text())
    for key in ("name", "short_name", "start_url", "display", "theme_color", "icons"):
        assert manifest[key], key
    sizes = set()
    for icon in manifest["icons"]:
        file = path.parent / icon["src"]
        assert file.is_file(), icon
        if icon["type"] == "image/png":
            w, h = _png_size(file)
            assert icon["sizes"] == f"{w}x{h}"
            sizes.add(w)
    assert {192, 512} <= sizes


def test_ci_runs_make_test() -> None:
    assert "make test" in (ROOT / ".ci" / "run").read_text()
    makefile = (ROOT / "Makefile").read_text()
    for target in ("play:", "test:", "dist:", "bench-boot:", "chromium:"):
        assert f"\n{target}" in makefile, target


def test_boot_code_keeps_heavy_engine_modules_lazy() -> None:
    """eleusis_web.main imports no engine module at module level: boot stays light."""
    tree = ast.parse((ROOT / "src" / "eleusis_web" / "main.py").read_text())
    top = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    names = [n.module or "" for n in top if isinstance(n, ast.ImportFrom)]
    names += [a.name for n in top if isinstance(n, ast.Import) for a in n.names]
    assert not [n for n in names if n == "eleusis" or n.startswith("eleusis.")], names


# --------------------------------------------------------------------------- server


@pytest.fixture(scope="module")
def server() -> Iterator[serve.SiteServer]:
    srv = serve.serve_in_thread(ROOT)
    try:
        yield srv
    finally:
        srv.close()


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, Message, bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, b""


def test_server_types_and_cache_headers(server: serve.SiteServer) -> None:
    status, headers, body = _get(server.url)
    assert status == 200 and b"<html" in body
    assert headers["Content-Type"].startswith("text/html")
    assert headers["Cache-Control"] == "no-cache"
    _, headers, _ = _get(server.url + "build/app.zip")
    assert headers["Cache-Control"] == "no-cache"
    _, headers, _ = _get(server.url + "sw.js")
    assert headers["Content-Type"].startswith("text/javascript")
    assert headers["Cache-Control"] == "no-cache"


def test_server_cache_rules() -> None:
    assert serve.cache_control("static/vendor/pyodide-314.0.7/pyodide.asm.wasm") == serve.IMMUTABLE
    assert serve.cache_control("build/app.zip") == serve.NO_CACHE
    assert serve.cache_control("index.html") == serve.NO_CACHE
    assert serve.cache_control("static/table.css") == serve.NO_CACHE
    assert serve.content_type("x/pyodide.asm.wasm") == "application/wasm"
    assert serve.content_type("pyodide.mjs").startswith("text/javascript")
    assert serve.content_type("manifest.webmanifest") == "application/manifest+json"
    assert serve.content_type("app.zip") == "application/zip"


def test_server_refuses_hidden_and_node_modules_and_listings(server: serve.SiteServer) -> None:
    for path in (".git/HEAD", "node_modules/pyodide/package.json", ".venv/",
                 "static/", "src/", "%2egit/HEAD", "static/../.git/HEAD"):
        status, _, body = _get(server.url + path)
        assert status == 404, path
        assert b"ref:" not in body


def test_server_answers_304_when_unchanged(server: serve.SiteServer) -> None:
    _, headers, _ = _get(server.url + "index.html")
    status, _, _ = _get(server.url + "index.html", {"If-Modified-Since": headers["Last-Modified"]})
    assert status == 304


def test_server_keeps_connections_alive(server: serve.SiteServer) -> None:
    """One connection serves a page, a 304 and a big file in turn."""
    import http.client

    host, port = server.server_address[:2]
    conn = http.client.HTTPConnection(str(host), int(port), timeout=10)
    try:
        conn.request("GET", "/index.html")
        first = conn.getresponse()
        body = first.read()
        assert first.status == 200 and b"<html" in body and first.version == 11
        assert not first.will_close
        sock = conn.sock
        since = {"If-Modified-Since": first.headers["Last-Modified"]}
        conn.request("GET", "/index.html", headers=since)
        unchanged = conn.getresponse()
        unchanged.read()
        conn.request("GET", "/build/app.zip")
        big = conn.getresponse()
        data = big.read()
        assert (unchanged.status, big.status) == (304, 200)
        assert len(data) == int(big.headers["Content-Length"]) > 0
        assert conn.sock is sock  # the same socket throughout
    finally:
        conn.close()


def test_server_under_a_prefix(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<html>hi</html>")
    srv = serve.serve_in_thread(tmp_path, prefix="/eleusis/")
    try:
        assert srv.url.endswith("/eleusis/")
        assert _get(srv.url)[0] == 200
        assert _get(srv.url.replace("/eleusis/", "/index.html"))[0] == 404
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            opener.open(srv.url.rstrip("/"), timeout=10)
            raise AssertionError("expected a redirect")
        except urllib.error.HTTPError as exc:
            assert exc.code == 301 and exc.headers["Location"] == "/eleusis/"
    finally:
        srv.close()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def test_server_sends_precompressed_copies_when_accepted(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<p>page</p>")
    (tmp_path / "app.js").write_text("let x = 1;\n" * 200)
    (tmp_path / "app.js.gz").write_bytes(gzip.compress((tmp_path / "app.js").read_bytes()))
    (tmp_path / "app.js.br").write_bytes(b"brotli bytes")
    srv = serve.serve_in_thread(tmp_path, encodings=("br", "gzip"))
    gzip_only = serve.serve_in_thread(tmp_path, encodings=("gzip",))
    plain = serve.serve_in_thread(tmp_path)

    def get(server: serve.SiteServer, accept: str) -> tuple[Message, bytes]:
        request = urllib.request.Request(server.url + "app.js",
                                         headers={"Accept-Encoding": accept})
        with urllib.request.urlopen(request) as response:
            return response.headers, response.read()

    try:
        headers, body = get(srv, "gzip, deflate, br")
        assert headers["Content-Encoding"] == "br" and body == b"brotli bytes"
        assert headers["Content-Type"].startswith("text/javascript")
        assert headers["Vary"] == "Accept-Encoding"
        headers, body = get(srv, "gzip")
        assert headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(body) == (tmp_path / "app.js").read_bytes()
        headers, body = get(gzip_only, "gzip, br")
        assert headers["Content-Encoding"] == "gzip"
        for server, accept in ((srv, "identity"), (plain, "gzip, br")):
            headers, body = get(server, accept)
            assert headers["Content-Encoding"] is None
            assert body == (tmp_path / "app.js").read_bytes()
    finally:
        for server in (srv, gzip_only, plain):
            server.close()


def test_server_isolates_the_page_and_dist_says_how(server: serve.SiteServer,
                                                    tmp_path: Path) -> None:
    """Cross-origin isolation (Pyodide's shared memory is then no deprecation)."""
    with urllib.request.urlopen(server.url) as response:
        for header, value in serve.ISOLATION.items():
            assert response.headers[header] == value
    text = dist.headers_file()
    assert text.splitlines()[1] == "/*"
    for header, value in serve.ISOLATION.items():
        assert f"  {header}: {value}" in text


def test_server_rejects_bad_settings(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        serve.make_server(tmp_path)
    (tmp_path / "index.html").write_text("x")
    with pytest.raises(ValueError):
        serve.make_server(tmp_path, prefix="eleusis")
    with pytest.raises(ValueError, match="unknown encodings"):
        serve.make_server(tmp_path, encodings=("zstd",))


# --------------------------------------------------------------------------- dist


def test_dist_is_self_contained(tmp_path: Path) -> None:
    assert (ROOT / "static" / "vendor").is_dir(), "static/vendor/ not set up (make setup)"
    out = tmp_path / "dist"
    files = dist.make_dist(out)
    for name in ("index.html", "sw.js", "build/app.zip", "build/precache.js", build.SNAPSHOT,
                 "static/pyodide-early.mjs", "static/manifest.webmanifest"):
        assert name in files, name
    assert not [f for f in files if f.endswith(".map") or "/." in f or f.startswith(".")]
    precache = (out / "build" / "precache.js").read_text()
    listed = json.loads(precache.split("=", 1)[1].rstrip().rstrip(";"))["files"]
    for name in listed:
        assert (out / ("index.html" if name == "./" else name)).is_file(), name


def test_dist_ships_precompressed_copies_of_large_files(tmp_path: Path) -> None:
    """``.gz`` (and, with Node, ``.br``) beside each large compressible file;
    the snapshot's ``.br`` is of its memory (the page takes either)."""
    out = tmp_path / "dist"
    files = set(dist.make_dist(out))
    wasm = next(f for f in files if f.endswith("pyodide.asm.wasm"))
    for name in (wasm, "index.html", "static/table.css"):
        assert name + ".gz" in files and name + ".br" in files, name
        packed = (out / (name + ".gz")).read_bytes()
        assert gzip.decompress(packed) == (out / name).read_bytes()
        assert len(packed) < (out / name).stat().st_size * dist.MAX_RATIO
    assert build.SNAPSHOT + ".br" in files and build.SNAPSHOT + ".gz" not in files
    assert not [f for f in files if f.endswith((".png.gz", ".gz.gz", ".br.gz"))]
    # the build's zips are stored, for the host to compress as one stream
    for name in ("build/app.zip", build.STDLIB):
        packed = (out / (name + ".gz")).read_bytes()
        assert len(packed) < (out / name).stat().st_size / 2, name
    assert "static/icons/icon.svg.gz" not in files or (out / "static/icons/icon.svg").stat(
    ).st_size >= dist.MIN_COMPRESS
    manifest = json.loads((out / "build/precache.js").read_text().split("=", 1)[1].rstrip()
                          .rstrip(";"))
    memory = gzip.decompress((out / build.SNAPSHOT).read_bytes())
    assert manifest["inflated"][build.SNAPSHOT] == hashlib.sha256(memory).hexdigest()


def test_how_to_play_is_written_for_every_language_and_precached() -> None:
    """build/how-to-play-<lang>.html: the rules the page draws, readable with no
    script (the shell links to it while the engine loads), every text escaped."""
    from eleusis import i18n
    from eleusis_web import rules_page

    pages = build.help_pages(ROOT)
    files = build.precache_files(ROOT)
    assert set(pages) == {build.HELP_PAGE.format(lang=lang) for lang in i18n.NAMES}
    for name, data in pages.items():
        lang = name.rsplit("-", 1)[1].removesuffix(".html")
        text = data.decode()
        assert f'<html lang="{lang}">' in text and "<script" not in text
        headings = re.findall(r"<h2 id=\"[^\"]*\">(.*?)</h2>", text)
        expected = [t for k, t in rules_page.blocks(lang=lang) if k == "h2"]
        assert [re.sub(r"<[^>]+>", "", h) for h in headings] == [
            re.sub(r"[*`]", "", t).replace("&", "&amp;").replace("<", "&lt;")
            for t in expected]
        assert name in files and name in dist.SITE
        assert (ROOT / name).read_bytes() == data  # the build wrote this very page
