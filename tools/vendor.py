"""Copy the browser runtime from ``node_modules`` into ``static/vendor/``.

The page never loads anything from a CDN: Pyodide and PyScript come from npm
(pinned exactly in ``package.json`` / ``package-lock.json``, installed by
``npm ci``) and this script copies only the files the page needs at run time
into version-named folders, so that they can be cached forever
(``static/vendor/pyodide-<version>/``, ``static/vendor/pyscript-<version>/``).

Run it from the repository root (``make vendor`` does): it is idempotent and
copies a file only when its content changed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The only files of the npm ``pyodide`` package the page needs at run time.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


def package_version(node_modules: Path, name: str) -> str:
    """Return the installed version of npm package ``name``."""
    data = json.loads((node_modules / name / "package.json").read_text(encoding="utf-8"))
    version = data["version"]
    if not isinstance(version, str):
        raise ValueError(f"{name}: version is not a string")
    return version


def pinned_versions(root: Path = ROOT) -> dict[str, str]:
    """Return the exact versions pinned in ``package.json`` (name -> version)."""
    data = json.loads((root / "package.json").read_text(encoding="utf-8"))
    deps = data["dependencies"]
    return {"pyodide": deps["pyodide"], "@pyscript/core": deps["@pyscript/core"]}


def vendor_dirs(root: Path = ROOT) -> dict[str, Path]:
    """Return the vendored folders for the pinned versions (name -> folder)."""
    versions = pinned_versions(root)
    vendor = root / "static" / "vendor"
    return {
        "pyodide": vendor / f"pyodide-{versions['pyodide']}",
        "@pyscript/core": vendor / f"pyscript-{versions['@pyscript/core']}",
    }


def _copy_if_changed(src: Path, dst: Path) -> bool:
    """Copy ``src`` to ``dst`` unless ``dst`` already has the same bytes."""
    same_size = dst.exists() and dst.stat().st_size == src.stat().st_size
    if same_size and dst.read_bytes() == src.read_bytes():
        return False
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)
    return True


def vendor(root: Path = ROOT) -> list[Path]:
    """Copy the runtime files into ``static/vendor/``; return the files written.

    Raises ``SystemExit`` with a clear message when ``npm ci`` has not been run
    or installed versions differ from the pins in ``package.json``.
    """
    node_modules = root / "node_modules"
    pins = pinned_versions(root)
    for name, pin in pins.items():
        if not (node_modules / name / "package.json").exists():
            raise SystemExit(f"vendor: {name} is not installed; run `npm ci` first")
        installed = package_version(node_modules, name)
        if installed != pin:
            raise SystemExit(
                f"vendor: {name} {installed} is installed but package.json pins {pin};"
                " run `npm ci`"
            )
    dirs = vendor_dirs(root)
    written: list[Path] = []
    for filename in PYODIDE_FILES:
        dst = dirs["pyodide"] / filename
        if _copy_if_changed(node_modules / "pyodide" / filename, dst):
            written.append(dst)
    dist = node_modules / "@pyscript" / "core" / "dist"
    for src in sorted(dist.iterdir()):
        # Source maps are for debugging only; they would double the download.
        if src.is_file() and not src.name.endswith(".map"):
            dst = dirs["@pyscript/core"] / src.name
            if _copy_if_changed(src, dst):
                written.append(dst)
    # Remove folders of versions no longer pinned, so nothing stale is served.
    vendor_root = root / "static" / "vendor"
    keep = set(dirs.values())
    for child in vendor_root.iterdir():
        if child.is_dir() and child not in keep:
            shutil.rmtree(child)
    return written


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="repository root")
    args = parser.parse_args(argv)
    written = vendor(args.root)
    print(f"vendor: {len(written)} file(s) updated in static/vendor/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
