"""Write ``dist/``: the whole site, self-contained, for any static host.

Everything the page needs is copied (the page, the service
worker, ``static/`` with the vendored runtime, the engine zip and the
precache list). Every URL in the site is relative, so ``dist/`` works at a
domain's root or below a sub-path (``https://example.org/eleusis/``). The
service worker needs HTTPS (or localhost). Run ``make dist``.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import build

ROOT = build.ROOT

#: Files and folders of the site, relative to the repository root.
SITE = (
    "index.html", "pyscript.toml", "sw.js", "static",
    "build/app.zip", build.SNAPSHOT, "build/precache.js",
)


def _ignore(folder: str, names: list[str]) -> set[str]:
    """Leave out hidden files (stamps), caches and source maps."""
    return {n for n in names if n.startswith(".") or n == "__pycache__" or n.endswith(".map")}


def make_dist(out: Path, root: Path = ROOT) -> list[str]:
    """Build, then copy the site into ``out`` (replaced); return the files copied."""
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
