"""The engine is pure Python: no browser import, no global ``random``, no set-order decisions."""

from __future__ import annotations

import ast
from pathlib import Path

import eleusis

ENGINE = Path(eleusis.__file__).parent
FILES = [
    ENGINE / "game.py",
    ENGINE / "rng.py",
    ENGINE / "views.py",
    ENGINE / "replay.py",
    ENGINE / "hints.py",
    *sorted((ENGINE / "variants").glob("*.py")),
]


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_no_browser_and_no_global_random() -> None:
    for path in FILES:
        names = imported(path)
        assert not names & {"js", "pyodide", "pyscript", "random"}, path
