"""Build what the page loads besides the vendored runtime.

* ``build/app.zip``: every file of the Python packages ``src/eleusis`` and
  ``src/eleusis_web`` (modules and any data files they carry, not caches),
  found automatically, so a module added by anyone reaches the browser.
  ``static/pyodide-early.mjs`` (the interpreter ``pyscript.toml`` names)
  fetches it while Pyodide starts and puts it on ``sys.path`` as it is, with
  no unpacking (hence no ``[files]`` in ``pyscript.toml``). The archive is
  deterministic (sorted names, fixed timestamps): same sources, same bytes.
  Each module ships as its bytecode alone (``cards.pyc``), compiled at build
  time by the vendored Pyodide under Node (``tools/pyc.mjs``): the page
  imports the zip in place (``zipimport``) and never compiles. The zip also
  carries, as bytecode, under ``pyscript/``, the ``pyscript`` package that
  PyScript writes at boot, read from the vendored ``@pyscript/core``: the
  zip comes first on ``sys.path``, so PyScript's ``import pyscript`` loads
  the same code from its bytecode (the page's diagnostics check it is the
  bytecode of the files PyScript wrote). Entries are stored, not deflated,
  for the host's gzip or brotli. Without Node the zip carries the sources
  instead (slower boot, same behaviour).
* ``build/python_stdlib.zip``: the standard library the page gives Pyodide,
  the vendored one trimmed to the modules the page can import, as bytecode
  (``tools/stdlib.mjs``; :func:`stdlib_zip`), with the names left out listed
  in the engine zip for the page's fallback (``eleusis_web.stdlib_fallback``).
* ``build/pyodide-snapshot.bin``: a memory snapshot of Pyodide right after
  its start, with the standard-library modules the page imports already
  imported, made by the vendored Pyodide under Node (``tools/snapshot.mjs``)
  with the page's standard library, gzip-compressed. The page restores it
  instead of starting CPython (``static/pyodide-early.mjs``) when that pays:
  the interpreter is up in a third of the time. It depends on no code of
  ours, only on the vendored Pyodide, the standard library and the script
  that makes it (cached under :data:`SNAPSHOT_CACHE` by their hash).
  Without Node it is not made and the page starts Pyodide the plain way.
* ``build/precache.js``: the list of files the service worker precaches
  (``sw.js`` imports it) and a content hash of all of them, which names the
  cache. Any change to a shell file, the runtime or the engine changes the
  hash, so browsers install the new worker and drop the old cache.

Outputs are rewritten only when their content changes, so ``make`` stays fast
and idempotent. Run from anywhere: ``python3 tools/build.py``.
"""

from __future__ import annotations

import argparse
import ast
import base64
import functools
import gettext
import gzip
import hashlib
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
from eleusis import i18n
from eleusis.pofile import CatalogueError, compile_po  # the engine's own compiler
from eleusis_web import render, rules_page, shell_text, vdom

ROOT = Path(__file__).resolve().parent.parent

#: The Python packages shipped to the browser (folders under ``src/``).
PACKAGES = ("eleusis", "eleusis_web")

#: Shell files precached by the service worker, relative to the site root.
#: ``./`` is the navigation URL of the page itself.
SHELL = ("./", "index.html", "pyscript.toml", "build/app.zip", "build/python_stdlib.zip")

#: The Pyodide memory snapshot (gzip), relative to the site root; precached
#: when it exists.
SNAPSHOT = "build/pyodide-snapshot.bin"

#: Cache of snapshots (hidden: never served), keyed by Pyodide and script.
SNAPSHOT_CACHE = Path("build") / ".snapshot-cache"

#: Where ``static/pyodide-early.mjs`` writes ``build/app.zip`` in Pyodide's
#: file system (then ``sys.path[0]``); bytecode names files below it.
APP_MOUNT = "/home/pyodide/eleusis-app.zip"

#: The standard library the page loads (:func:`stdlib_zip`): the vendored
#: ``python_stdlib.zip`` trimmed to what the page can import, as bytecode.
STDLIB = "build/python_stdlib.zip"

#: In the engine zip: the dotted names of the standard-library modules left
#: out of :data:`STDLIB`, one a line (``eleusis_web.stdlib_fallback`` fetches
#: the whole library the first time one of them is imported).
STDLIB_REST = "eleusis_web/stdlib-rest.txt"

#: Standard-library modules the page needs that no import of ours names:
#: what Pyodide's start imports (its own packages are added whole) and the
#: codecs a browser's text may need.
STDLIB_BOOT = (
    "site", "encodings", "encodings.aliases", "encodings.utf_8", "encodings.utf_8_sig",
    "encodings.latin_1", "encodings.ascii", "encodings.idna",
    "_sysconfigdata__emscripten_wasm32-emscripten",
    "pyodide", "pyodide._package_loader", "pyodide._state", "pyodide.code",
    "pyodide.common", "pyodide.ffi", "pyodide.webloop",
)

#: Standard-library modules the snapshot imports before it is saved
#: (``tools/snapshot.mjs`` PRELOAD; the test checks the two agree).
SNAPSHOT_PRELOAD = ("datetime", "difflib", "fractions", "hashlib", "numbers")

#: Folder of the zip with PyScript's own ``pyscript`` package (the same
#: files PyScript writes at boot; the zip's copy is imported).
PYSCRIPT_PACKAGE = "pyscript"

#: Cache of the trimmed standard library (hidden: never served), keyed by its inputs.
STDLIB_CACHE = Path("build") / ".stdlib-cache"

#: Cache of compiled bytecode (hidden: never served), keyed by content.
PYC_CACHE = Path("build") / ".pyc-cache"

#: Folders whose files are precached (relative to the site root), less
#: :data:`UNUSED_CHUNKS`.
PRECACHE_DIRS = ("static",)

#: Name prefixes of PyScript's chunks that the page never loads: the code of
#: the plugins ``pyscript.toml`` turns off (the editor and its CodeMirror, the
#: terminal and its xterm.js, the game loop, the donkey, the deprecation
#: notes). Precaching them cost every first visit about 0.6 MB. A chunk not
#: named here is precached (a new one PyScript needs is never left out).
UNUSED_CHUNKS = (
    "codemirror", "xterm", "py-editor-", "py-terminal-", "py-game-", "donkey-",
    "deprecations-manager-",
)

#: Pyodide's snapshot header: magic (``"\0snp"``), then the header's length.
SNAPSHOT_MAGIC = 0x706E7300

#: A fixed timestamp for zip entries (the zip format starts in 1980).
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def _sha256(path: Path) -> bytes:
    """SHA-256 of a file's bytes, read once per build for the big runtime files.

    The bytecode cache and the snapshot cache are both keyed by the 9.6 MB
    WebAssembly module; the digest is remembered by path, size and mtime.
    """
    stat = path.stat()
    return _sha256_of(path, stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=16)
def _sha256_of(path: Path, size: int, mtime_ns: int) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest()


def _skip(path: Path) -> bool:
    """True for files that must not ship: caches, compiled and hidden files."""
    return (
        "__pycache__" in path.parts
        or path.suffix in {".pyc", ".pyo"}
        or any(part.startswith(".") for part in path.parts)
    )


def package_files(src: Path = ROOT / "src") -> list[str]:
    """Return the archive names of every file to ship, e.g. ``eleusis/cards.py``.

    Every regular file under each package in :data:`PACKAGES` is included
    (``.py`` modules, ``py.typed``, JSON data...), except caches and hidden
    files; the list is sorted.
    """
    names: list[str] = []
    for package in PACKAGES:
        base = src / package
        if not base.is_dir():
            continue
        for path in base.rglob("*"):
            rel = path.relative_to(src)
            if path.is_file() and not _skip(rel):
                names.append(rel.as_posix())
    return sorted(names)


def package_modules(src: Path = ROOT / "src") -> list[str]:
    """Return the dotted names of every module shipped, e.g. ``eleusis.cards``."""
    modules: list[str] = []
    for name in package_files(src):
        if name.endswith(".py"):
            dotted = name[: -len(".py")].replace("/", ".")
            modules.append(dotted.removesuffix(".__init__"))
    return sorted(modules)


def app_zip_bytes(src: Path = ROOT / "src", extra: Mapping[str, bytes] | None = None) -> bytes:
    """Return the deterministic zip of every file of :func:`package_files`.

    ``extra`` adds entries (archive name -> bytes), e.g. :func:`bytecode_entries`.
    A module with bytecode among ``extra`` ships as its bytecode alone (the
    page never compiles it, so its source would be dead weight: a third of
    the zip). Entries are stored, not deflated: the host's gzip or brotli
    compresses the whole zip as one stream, which beats deflating each file
    (1.15 MB against 1.21 MB of gzip on the wire, and brotli does better).
    """
    entries = {name: (src / name).read_bytes() for name in package_files(src)}
    entries.update(extra or {})
    entries = {
        name: data for name, data in entries.items()
        if not (name.endswith(".py") and name + "c" in entries)
    }
    return stored_zip(entries)


def stored_zip(entries: Mapping[str, bytes]) -> bytes:
    """A deterministic zip of ``entries`` (name -> bytes): sorted, fixed dates, stored."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
            info.external_attr = 0o644 << 16
            archive.writestr(info, entries[name])
    return buffer.getvalue()


def catalogue_entries(root: Path = ROOT) -> dict[str, bytes]:
    """The compiled message catalogues: ``eleusis/locale/<lang>/LC_MESSAGES/eleusis.mo``
    for each ``locale/<lang>/LC_MESSAGES/eleusis.po`` of the repository.

    A malformed catalogue (bad syntax, wrong plural count, placeholders that
    differ from the English message's) stops the build with its file and line.
    """
    entries: dict[str, bytes] = {}
    for po in sorted((root / "locale").glob("*/LC_MESSAGES/*.po")):
        rel = po.relative_to(root / "locale").with_suffix(".mo").as_posix()
        try:
            entries[f"eleusis/locale/{rel}"] = compile_po(po.read_text(encoding="utf-8"), str(po))
        except (CatalogueError, UnicodeDecodeError) as exc:
            raise SystemExit(f"build: bad message catalogue: {exc}") from None
    return entries


#: Where ``index.html`` keeps the shell's translations (:func:`shell_translations`).
SHELL_I18N_OPEN = '<script type="application/json" id="shell-i18n">'
SHELL_I18N_CLOSE = "</script>"


def shell_translations(root: Path = ROOT) -> str:
    """The JSON table of the shell's texts in each language (``eleusis_web.shell_text``)."""
    tables = {"en": gettext.NullTranslations()}
    for name, data in catalogue_entries(root).items():
        lang = name.split("/")[2]
        tables[lang] = gettext.GNUTranslations(io.BytesIO(data))
    text = json.dumps(shell_text.table(tables), ensure_ascii=False, sort_keys=True,
                      separators=(",", ":"))
    return text.replace("</", "<\\/")  # never closes the script element


#: How to play as a page of its own, per language (:func:`help_pages`).
HELP_PAGE = "build/how-to-play-{lang}.html"


def help_page(lang: str, shell_style: str) -> str:
    """How to play in ``lang`` as a whole HTML document, readable with no script.

    The same text the page's "How to play" screen draws once Python is up
    (``render.help_screen`` of ``rules_page.blocks``), written out at build
    time (``vdom.to_html``: every text escaped), with the shell's own styles
    (``shell_style``, from ``index.html``) and the table's. The shell links to
    it, so a first visit can read the rules while the engine still loads.
    """
    before = i18n.language()
    i18n.set_language(lang)
    try:
        screen = render.help_screen(rules_page.blocks(lang=lang))
        for box in screen.querySelectorAll("article.help"):
            box.children = [c for c in box.children  # no Back button: no engine here
                            if not (isinstance(c, vdom.El) and c.classList.contains("controls"))]
        title = f"{i18n._('How to play')} — Eleusis"
    finally:
        i18n.set_language(before)
    body = vdom.to_html(screen)
    return (
        f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{vdom.to_html(vdom.Text(title))}</title>\n"
        '<meta name="description" content="The rules of Eleusis, the card game of '
        'inductive reasoning.">\n'
        '<link rel="icon" href="../static/icons/icon.svg" type="image/svg+xml">\n'
        f"<style>{shell_style}\n.title a {{ color: inherit; text-decoration: none; }}</style>\n"
        '<link rel="stylesheet" href="../static/table.css">\n</head>\n'
        '<body data-screen="help">\n<header class="masthead"><p class="title">'
        '<a href="../"><span class="title-suit" aria-hidden="true">♦</span> Eleusis</a>'
        '</p></header>\n<main class="table"><div class="felt">'
        f"{body}</div></main>\n</body>\n</html>\n"
    )


def help_pages(root: Path = ROOT) -> dict[str, bytes]:
    """:func:`help_page` for every language (site-relative name -> bytes)."""
    index = (root / "index.html").read_text(encoding="utf-8")
    start = index.index("<style>") + len("<style>")
    style = index[start:index.index("</style>", start)]
    return {HELP_PAGE.format(lang=lang): help_page(lang, style).encode("utf-8")
            for lang in i18n.NAMES}


def index_with_translations(html: str, table: str) -> str:
    """``index.html`` with its shell-translation table replaced by ``table`` (a page
    without the table is left as it is)."""
    if SHELL_I18N_OPEN not in html:
        return html
    start = html.index(SHELL_I18N_OPEN) + len(SHELL_I18N_OPEN)
    end = html.index(SHELL_I18N_CLOSE, start)
    return html[:start] + table + html[end:]


def _pyodide_dir(root: Path) -> Path | None:
    """The vendored Pyodide folder, or None when not vendored."""
    found = sorted((root / "static" / "vendor").glob("pyodide-*/pyodide.mjs"))
    return found[-1].parent if found else None


def _pyscript_sources(root: Path) -> dict[str, bytes]:
    """The ``pyscript`` package PyScript writes at boot (module file -> source).

    Read from ``@pyscript/core``'s ``src/stdlib/pyscript.js`` (the same text its
    bundle embeds) through Node; empty when that is not available. The result is
    kept under ``build/`` by the file's content hash, so Node reads it once per
    PyScript version (later builds, the tests' among them, start no Node for it).
    """
    module = root / "node_modules" / "@pyscript" / "core" / "src" / "stdlib" / "pyscript.js"
    node = shutil.which("node")
    if node is None or not module.is_file():
        return {}
    digest = hashlib.sha256(module.read_bytes()).hexdigest()[:20]
    cached = root / "build" / f".pyscript-sources-{digest}.json"
    if cached.is_file():
        tree = json.loads(cached.read_text(encoding="utf-8"))
    else:
        script = (
            f"import s from {json.dumps(module.as_uri())};"
            "process.stdout.write(JSON.stringify(s.pyscript))"
        )
        tree = json.loads(_node_output([node, "--input-type=module", "-e", script]))
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps(tree), encoding="utf-8")
    return {
        name: text.encode("utf-8")
        for name, text in tree.items()
        if isinstance(text, str) and name.endswith(".py")
    }


def _node_output(cmd: list[str], tries: int = 3, stdin: str | None = None) -> str:
    """Node's standard output for ``cmd`` (given ``stdin``); a failed run is tried again
    (a loaded machine can fail to start one), then reported with what Node said."""
    for attempt in range(tries):
        done = subprocess.run(cmd, capture_output=True, text=True, input=stdin)
        if done.returncode == 0:
            return done.stdout
        if attempt == tries - 1:
            raise RuntimeError(f"build: node failed ({done.returncode}): "
                               f"{(done.stderr or done.stdout)[-2000:]}")
    raise AssertionError("unreachable")


def compile_bytecode(root: Path, jobs: Mapping[str, tuple[str, bytes]]) -> dict[str, bytes]:
    """Compile sources with the vendored Pyodide; return name -> checked-hash .pyc.

    ``jobs`` maps an output name to ``(file name in tracebacks, source)``.
    Results are cached under :data:`PYC_CACHE` by interpreter and content, so
    only changed modules start Node. Returns ``{}`` when Node or the vendored
    Pyodide is missing (the page then compiles at run time, as before).
    """
    pyodide = _pyodide_dir(root)
    node = shutil.which("node")
    if pyodide is None or node is None:
        return {}
    interpreter = (
        _sha256(pyodide / "pyodide.asm.wasm").hex()[:16]
        + _sha256(root / "tools" / "pyc.mjs").hex()[:16]  # how it compiles
    )
    cache = root / PYC_CACHE
    keys = {
        name: hashlib.sha256(f"{interpreter}\0{dfile}\0".encode() + source).hexdigest()
        for name, (dfile, source) in jobs.items()
    }
    missing = [name for name in jobs if not (cache / keys[name]).is_file()]
    if missing:
        request = [
            {"dfile": jobs[n][0], "source": base64.b64encode(jobs[n][1]).decode()}
            for n in missing
        ]
        out = subprocess.run(
            [node, str(root / "tools" / "pyc.mjs"), str(pyodide)],
            input=json.dumps(request), capture_output=True, check=True, text=True,
        ).stdout
        pycs = json.loads(out)["pycs"]
        cache.mkdir(parents=True, exist_ok=True)
        for name, pyc in zip(missing, pycs, strict=True):
            write_if_changed(cache / keys[name], base64.b64decode(pyc))
    return {name: (cache / keys[name]).read_bytes() for name in jobs}


def bytecode_entries(root: Path = ROOT) -> dict[str, bytes]:
    """Zip entries besides the package files: bytecode, and PyScript's package.

    * ``eleusis/cards.pyc`` for ``eleusis/cards.py`` (``zipimport`` layout;
      :func:`app_zip_bytes` then leaves the source out);
    * ``pyscript/<module>.pyc``: PyScript's own package, as bytecode.

    Empty when the bytecode cannot be compiled here (no Node / no vendor).
    """
    src = root / "src"
    sources = {n: (src / n).read_bytes() for n in package_files(src) if n.endswith(".py")}
    if _pyodide_dir(root) is None:
        return {}
    sources.update({f"{PYSCRIPT_PACKAGE}/{n}": d for n, d in _pyscript_sources(root).items()})
    jobs = {n[: -len(".py")] + ".pyc": (f"{APP_MOUNT}/{n}", data) for n, data in sources.items()}
    return compile_bytecode(root, jobs)


def _imported_names(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Every module an ``import`` anywhere in ``tree`` names, parents included."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".") if is_package else module.split(".")[:-1]
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {
        ".".join(name.split(".")[:i])
        for name in found if name for i in range(1, name.count(".") + 2)
    }


def stdlib_roots(root: Path = ROOT) -> list[str]:
    """The names the trimmed standard library starts from (see :func:`stdlib_zip`).

    Every module any import of ours names (anywhere in a file, late imports
    included), the same for PyScript's package, :data:`STDLIB_BOOT`,
    :data:`SNAPSHOT_PRELOAD`, and Pyodide's private package ``_pyodide`` whole
    (its public ``pyodide`` package: the modules its start imports, in
    :data:`STDLIB_BOOT`; its console and HTTP helpers are left out). Names
    that are not in the standard library are harmless (the trimming keeps
    only what it finds there).
    """
    names: set[str] = set(STDLIB_BOOT) | set(SNAPSHOT_PRELOAD)
    src = root / "src"
    files = {n: (src / n).read_bytes() for n in package_files(src) if n.endswith(".py")}
    files.update({f"{PYSCRIPT_PACKAGE}/{n}": d for n, d in _pyscript_sources(root).items()})
    for name, data in files.items():
        module = name[: -len(".py")].replace("/", ".").removesuffix(".__init__")
        names |= _imported_names(ast.parse(data), module, name.endswith("__init__.py"))
    pyodide = _pyodide_dir(root)
    if pyodide is not None:
        with zipfile.ZipFile(pyodide / "python_stdlib.zip") as full:
            for name in full.namelist():
                if name.endswith(".py") and name.split("/")[0] == "_pyodide":
                    names.add(name[: -len(".py")].replace("/", ".").removesuffix(".__init__"))
    return sorted(names)


def stdlib_zip(root: Path = ROOT) -> tuple[bytes, list[str]]:
    """The standard library the page loads, and the modules left out of it.

    Made by ``tools/stdlib.mjs`` under Node from the vendored
    ``python_stdlib.zip`` (2.5 MB of gzip, 614 files): the modules of
    :func:`stdlib_roots` and every module they import at their top level,
    compiled (about 170 modules, 1.4 MB of gzip on the wire), so a plain
    start also skips compiling them. Cached under :data:`STDLIB_CACHE` by
    the inputs' hash. Without Node (or the vendored Pyodide) it is the whole
    vendored library, unchanged, and nothing is left out.
    """
    pyodide = _pyodide_dir(root)
    if pyodide is None:
        raise SystemExit("build: static/vendor/ has no Pyodide; run `make vendor` first")
    full = (pyodide / "python_stdlib.zip").read_bytes()
    node = shutil.which("node")
    if node is None:
        return full, []
    roots = json.dumps(stdlib_roots(root))
    script = root / "tools" / "stdlib.mjs"
    key = hashlib.sha256(
        _sha256(pyodide / "pyodide.asm.wasm") + hashlib.sha256(full).digest()
        + _sha256(script) + roots.encode()
    ).hexdigest()[:24]
    cached = root / STDLIB_CACHE / f"{key}.zip"
    listed = cached.with_suffix(".json")
    if not (cached.is_file() and listed.is_file()):
        cached.parent.mkdir(parents=True, exist_ok=True)
        for old in cached.parent.glob("*"):
            old.unlink()
        tmp = cached.with_suffix(".tmp")
        out = _node_output([node, str(script), str(pyodide), str(tmp)], stdin=roots)
        listed.write_text(json.dumps(json.loads(out)["left_out"]), encoding="utf-8")
        tmp.replace(cached)
    return cached.read_bytes(), json.loads(listed.read_text(encoding="utf-8"))


def _walk(root: Path, folder: str) -> Iterator[str]:
    """Site-relative names of the files under ``folder``, sorted.

    Follows symbolic links (``static/vendor`` may be one to a shared copy):
    ``Path.rglob`` of Python 3.11 does not, and left the runtime out.
    """
    base = root / folder
    names: list[str] = []
    for here, _dirs, files in os.walk(base, followlinks=True):
        for name in files:
            rel = (Path(here) / name).relative_to(root)
            if not _skip(rel):
                names.append(rel.as_posix())
    yield from sorted(names)


def snapshot_bytes(root: Path = ROOT, stdlib: bytes | None = None) -> bytes | None:
    """The gzip-compressed Pyodide snapshot (see the module header), or None.

    Made by ``tools/snapshot.mjs`` under Node (about 10 s) only when no
    snapshot of this Pyodide and this script is cached; None without Node or
    the vendored Pyodide (the page then boots without one). ``stdlib`` is
    the standard library the page loads (by default :func:`stdlib_zip`'s):
    the snapshot must be made with the very zip it will find
    (Python's import cache holds offsets into it).
    """
    pyodide = _pyodide_dir(root)
    node = shutil.which("node")
    if pyodide is None or node is None:
        return None
    script = root / "tools" / "snapshot.mjs"
    if stdlib is None:
        stdlib = stdlib_zip(root)[0]
    key = hashlib.sha256(
        b"".join(_sha256(path) for path in (
            pyodide / "pyodide.asm.wasm", pyodide / "pyodide.asm.mjs", script,
        )) + hashlib.sha256(stdlib).digest()
    ).hexdigest()[:24]
    cached = root / SNAPSHOT_CACHE / f"{key}.bin"
    if not cached.is_file():
        cached.parent.mkdir(parents=True, exist_ok=True)
        for old in cached.parent.glob("*.bin"):
            old.unlink()
        tmp = cached.with_suffix(".tmp")
        zipped = cached.with_suffix(".stdlib.zip")
        zipped.write_bytes(stdlib)
        subprocess.run(
            [node, str(script), str(pyodide), str(tmp), str(zipped)],
            check=True, capture_output=True, text=True, env={**os.environ, "TZ": "UTC"},
        )
        zipped.unlink()
        tmp.replace(cached)
    packed = cached.read_bytes()
    check_snapshot_fits(packed, (pyodide / "pyodide.asm.wasm").read_bytes())
    return packed


def _leb128(data: bytes, at: int) -> tuple[int, int]:
    """Decode an unsigned LEB128 number of a WebAssembly module; return it and the next offset."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def wasm_initial_memory(wasm: bytes) -> int:
    """The initial size in bytes of the memory a WebAssembly module defines.

    Read from the module's memory section (pages of 64 KiB). Raises
    ``ValueError`` when the module defines no memory (Pyodide's does).
    """
    if wasm[:4] != b"\0asm":
        raise ValueError("not a WebAssembly module")
    at = 8
    while at < len(wasm):
        section = wasm[at]
        size, at = _leb128(wasm, at + 1)
        if section == 5:  # memory: count, then limits (flags, minimum[, maximum])
            _count, pos = _leb128(wasm, at)
            _flags, pos = _leb128(wasm, pos)
            pages, _ = _leb128(wasm, pos)
            return pages * 65536
        at += size
    raise ValueError("the WebAssembly module defines no memory")


def snapshot_memory(packed: bytes) -> int:
    """Bytes of WebAssembly memory a (gzip) snapshot restores.

    The snapshot is Pyodide's header (magic, header length, ...) and then the
    memory; gzip's trailer gives the whole length without inflating it all.
    """
    with gzip.GzipFile(fileobj=io.BytesIO(packed)) as stream:
        head = stream.read(8)
    magic, header = struct.unpack("<2I", head)
    if magic != SNAPSHOT_MAGIC:
        raise ValueError("not a Pyodide memory snapshot")
    (total,) = struct.unpack("<I", packed[-4:])  # ISIZE: length mod 2**32 (< 4 GiB here)
    return int(total) - header


def check_snapshot_fits(packed: bytes, wasm: bytes) -> None:
    """Refuse a snapshot larger than the heap it is restored into.

    Pyodide restores a snapshot into a freshly instantiated module, whose
    memory has the module's initial size: a larger snapshot fails to restore
    (Pyodide issue #6254) and every visit would fall back to the slow plain
    start without a word. A build that made one (a module preloaded in
    ``tools/snapshot.mjs`` that grew the heap) stops here with the figures.
    """
    memory, heap = snapshot_memory(packed), wasm_initial_memory(wasm)
    if memory > heap:
        raise SystemExit(
            f"build: the Pyodide snapshot holds {memory:,} bytes of memory but the page restores"
            f" it into a heap of {heap:,} bytes: it would never restore. Preload fewer modules in"
            " tools/snapshot.mjs (or raise Pyodide's initial memory)."
        )


def _unused_chunk(name: str) -> bool:
    """True for a vendored file the page does not load: a PyScript chunk of a
    plugin the page turns off, or Pyodide's whole standard library (the page
    loads :data:`STDLIB`; the whole one is fetched only if a module left out
    of it is imported, see ``eleusis_web.stdlib_fallback``)."""
    parts = name.split("/")
    return len(parts) == 4 and parts[:2] == ["static", "vendor"] and (
        (parts[2].startswith("pyscript-") and parts[3].startswith(UNUSED_CHUNKS))
        or (parts[2].startswith("pyodide-") and parts[3] == "python_stdlib.zip")
    )


def precache_files(root: Path = ROOT) -> list[str]:
    """Return the site-relative URLs the service worker precaches."""
    files = list(SHELL)
    files.extend(name for lang in i18n.NAMES
                 if (root / (name := HELP_PAGE.format(lang=lang))).is_file())
    if (root / SNAPSHOT).is_file():
        files.append(SNAPSHOT)
    for folder in PRECACHE_DIRS:
        files.extend(name for name in _walk(root, folder) if not _unused_chunk(name))
    return files


def content_hash(root: Path, files: Iterable[str]) -> str:
    """Return a short SHA-256 over the names and bytes of ``files``."""
    digest = hashlib.sha256()
    for name in files:
        path = root / ("index.html" if name == "./" else name)
        digest.update(name.encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def precache_manifest(root: Path = ROOT) -> dict[str, object]:
    """The service worker's manifest: ``version``, ``files`` and, per file,
    ``hashes`` (SHA-256, hex) and ``sizes`` (bytes); ``inflated``: the hash
    of the snapshot's memory, as a host that serves its ``.br`` copy sends it.

    The worker checks every file it downloads against its hash before the
    new version may activate (a host caught half-way through a deploy can
    serve the new list with old files: those are refused, and the old
    version stays whole); the page sums the sizes for its progress bar.
    """
    files = precache_files(root)
    paths = {name: root / ("index.html" if name == "./" else name) for name in files}
    manifest: dict[str, object] = {
        "version": content_hash(root, files),
        "files": files,
        "hashes": {name: hashlib.sha256(paths[name].read_bytes()).hexdigest() for name in files},
        "sizes": {name: paths[name].stat().st_size for name in files},
    }
    if SNAPSHOT in paths:
        # A host may send the snapshot's memory itself (``make dist``'s .br
        # copy, decoded by the browser): the same version, other bytes.
        inflated = gzip.decompress(paths[SNAPSHOT].read_bytes())
        manifest["inflated"] = {SNAPSHOT: hashlib.sha256(inflated).hexdigest()}
    return manifest


def precache_js(root: Path = ROOT) -> str:
    """Return the text of ``build/precache.js`` (needs ``build/app.zip``)."""
    manifest = precache_manifest(root)
    return (
        "// Generated by tools/build.py: do not edit. Imported by sw.js.\n"
        f"self.ELEUSIS_PRECACHE = {json.dumps(manifest, indent=1)};\n"
    )


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` unless it already holds exactly that."""
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return True


def build(root: Path = ROOT) -> list[Path]:
    """Write ``build/app.zip``, the standard library, the snapshot and
    ``build/precache.js``; return those rewritten."""
    vendor = root / "static" / "vendor"
    if not vendor.is_dir() or not any(vendor.iterdir()):
        raise SystemExit("build: static/vendor/ is empty; run `make vendor` (npm ci) first")
    written: list[Path] = []
    out = root / "build"
    index = root / "index.html"
    if index.is_file():
        html = index.read_text(encoding="utf-8")
        table = shell_translations(root)
        if write_if_changed(index, index_with_translations(html, table).encode()):
            written.append(index)
    for name, page in help_pages(root).items():
        if write_if_changed(root / name, page):
            written.append(root / name)
    stdlib, left_out = stdlib_zip(root)
    if write_if_changed(root / STDLIB, stdlib):
        written.append(root / STDLIB)
    extra = {**catalogue_entries(root), **bytecode_entries(root)}
    extra[STDLIB_REST] = "".join(f"{name}\n" for name in left_out).encode()
    if write_if_changed(out / "app.zip", app_zip_bytes(root / "src", extra)):
        written.append(out / "app.zip")
    snapshot = snapshot_bytes(root, stdlib)
    if snapshot is None:
        if (root / SNAPSHOT).exists():
            (root / SNAPSHOT).unlink()
            written.append(root / SNAPSHOT)
    elif write_if_changed(root / SNAPSHOT, snapshot):
        written.append(root / SNAPSHOT)
    if write_if_changed(out / "precache.js", precache_js(root).encode()):
        written.append(out / "precache.js")
    return written


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="repository root")
    args = parser.parse_args(argv)
    written = build(args.root)
    names = ", ".join(p.name for p in written) or "nothing changed"
    print(f"build: {names}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
