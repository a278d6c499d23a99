"""Write ``dist/``: the whole site, self-contained, for any static host.

Everything the page needs is copied (the page, the service
worker, ``static/`` with the vendored runtime, the engine zip and the
precache list). Every URL in the site is relative, so ``dist/`` works at a
domain's root or below a sub-path (``https://example.org/eleusis/``). The
service worker needs HTTPS (or localhost). Run ``make dist``.

Beside each large file that compresses, ``dist/`` holds its precompressed
copies, ``name.gz`` (gzip -9) and, where Node is found, ``name.br``
(brotli, quality 11), for hosts that serve them as they are (nginx
``gzip_static``/``brotli_static``, Caddy ``precompressed``, Apache's
``MultiViews``...): the page's bytes on the wire without compressing at each
request. The memory snapshot, stored gzip-compressed, gets a ``.br`` of its
*inflated* memory instead (about a third smaller): a host that sends it with
``Content-Encoding: br`` hands the page the memory itself, which the page
accepts as well as the gzip file.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import build
import serve

ROOT = build.ROOT

#: Files and folders of the site, relative to the repository root.
SITE = (
    "index.html", "pyscript.toml", "sw.js", "static",
    "build/app.zip", build.STDLIB, build.SNAPSHOT, "build/precache.js",
    *(build.HELP_PAGE.format(lang=lang) for lang in build.i18n.NAMES),
)


def _ignore(folder: str, names: list[str]) -> set[str]:
    """Leave out hidden files (stamps), caches and source maps."""
    return {n for n in names if n.startswith(".") or n == "__pycache__" or n.endswith(".map")}


#: Files smaller than this are not precompressed (a header's worth of gain).
MIN_COMPRESS = 1024

#: Suffixes of files already compressed (a copy would save nothing). Zips are
#: not among them: the build's are stored, not deflated, for the host to
#: compress (a deflated one fails :data:`MAX_RATIO` and gets no copy).
COMPRESSED = (".png", ".gz", ".br")

#: Keep a precompressed copy only when it is at most this share of the file.
MAX_RATIO = 0.95

#: Brotli under Node: reads a JSON list of [source, target, raw_gzip] and
#: writes each target (quality 11, the source inflated first when raw_gzip).
_BROTLI_JS = """
const fs = require("node:fs"), zlib = require("node:zlib");
const jobs = JSON.parse(fs.readFileSync(0, "utf8"));
for (const [source, target, inflate] of jobs) {
  let data = fs.readFileSync(source);
  if (inflate) data = zlib.gunzipSync(data);
  fs.writeFileSync(target, zlib.brotliCompressSync(data, {params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length}}));
}
"""


#: Cache of precompressed copies (hidden: never served), keyed by content:
#: brotli at quality 11 takes minutes for the 10 MB WebAssembly module.
COMPRESS_CACHE = Path("build") / ".compress-cache"


def _cached_name(data: bytes, kind: str) -> str:
    return hashlib.sha256(data).hexdigest()[:32] + "." + kind


def precompress(out: Path, root: Path = ROOT) -> list[str]:
    """Write ``.gz`` and ``.br`` beside the files of ``out`` worth it; return them.

    See the module header. Deterministic (no time stamp in the gzip header);
    each copy is made once per content (cached under :data:`COMPRESS_CACHE`).
    Without Node only the ``.gz`` copies are written.
    """
    cache = root / COMPRESS_CACHE
    cache.mkdir(parents=True, exist_ok=True)
    copies: dict[Path, Path] = {}  # target in out -> cached copy
    brotli: list[list[object]] = []
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        size = path.stat().st_size
        if path.name.startswith(".") or size < MIN_COMPRESS:
            continue
        rel = path.relative_to(out).as_posix()
        snapshot = rel == build.SNAPSHOT
        if path.suffix in COMPRESSED and not snapshot:
            continue
        data = path.read_bytes()
        if not snapshot:
            cached = cache / _cached_name(data, "gz")
            if not cached.is_file():
                build.write_if_changed(cached, gzip.compress(data, compresslevel=9, mtime=0))
            if cached.stat().st_size > size * MAX_RATIO:
                continue
            copies[Path(str(path) + ".gz")] = cached
        cached = cache / _cached_name(data, "br")
        copies[Path(str(path) + ".br")] = cached
        if not cached.is_file():
            brotli.append([str(path), str(cached), snapshot])
    node = shutil.which("node")
    if brotli and node is not None:
        subprocess.run([node, "-e", _BROTLI_JS], input=json.dumps(brotli), check=True,
                       capture_output=True, text=True)
    written = []
    for target, cached in copies.items():
        if cached.is_file():
            shutil.copyfile(cached, target)
            written.append(target.relative_to(out).as_posix())
    return sorted(written)


def headers_file() -> str:
    """``_headers`` (Netlify, Cloudflare Pages): the headers ``tools/serve.py`` sends
    to isolate the page (``serve.ISOLATION``); other hosts set them in their own
    configuration (README, Deploy)."""
    lines = ["# Read by Netlify and Cloudflare Pages; see README.md, Deploy.", "/*"]
    lines += [f"  {name}: {value}" for name, value in serve.ISOLATION.items()]
    return "\n".join(lines) + "\n"


def make_dist(out: Path, root: Path = ROOT) -> list[str]:
    """Build, then copy the site into ``out`` (replaced), precompressed; return its files."""
    build.build(root)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in SITE:
        src = root / name
        dst = out / name
        if name == build.SNAPSHOT and not src.exists():
            continue  # made only where Node runs; the page boots without it
        if src.is_dir():
            shutil.copytree(src, dst, ignore=_ignore)
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    precompress(out, root)
    (out / "_headers").write_text(headers_file())
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="output folder")
    args = parser.parse_args(argv)
    files = make_dist(args.out)
    size = sum((args.out / f).stat().st_size for f in files)
    print(f"dist: {len(files)} files, {size / 1e6:.1f} MB in {args.out}")
    print("dist: upload it to any static host (HTTPS for offline play)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
