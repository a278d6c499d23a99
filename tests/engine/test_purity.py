"""The engine is pure Python: no browser import, no global ``random``, no set-order decisions."""

from __future__ import annotations

import ast
from pathlib import Path

import eleusis
import eleusis_web

ENGINE = Path(eleusis.__file__).parent
WEB = Path(eleusis_web.__file__).parent
#: Every module of the engine, subpackages included.
ALL_FILES = sorted(ENGINE.rglob("*.py"))
#: The rules of play, which must also decide nothing with the global ``random``.
FILES = [
    ENGINE / "game.py",
    ENGINE / "state.py",
    ENGINE / "match.py",
    ENGINE / "narrate.py",
    ENGINE / "rng.py",
    ENGINE / "views.py",
    ENGINE / "replay.py",
    ENGINE / "hints.py",
    *sorted((ENGINE / "variants").glob("*.py")),
]
BROWSER = {"js", "pyodide", "pyscript"}


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_no_browser_import_anywhere_in_the_engine() -> None:
    assert len(ALL_FILES) > len(FILES)
    for path in ALL_FILES:
        assert not imported(path) & BROWSER, path


def test_no_global_random_in_the_rules_of_play() -> None:
    for path in FILES:
        assert "random" not in imported(path), path


def _module_name(path: Path) -> str:
    rel = path.relative_to(ENGINE.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def _top_level_imports(path: Path) -> set[str]:
    """Engine modules imported when ``path`` is imported (not inside functions)."""
    out: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("eleusis"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("eleusis"):
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return out


def test_no_import_cycle_in_the_engine_or_the_page() -> None:
    modules = {_module_name(p): p for p in [*ALL_FILES, *sorted(WEB.glob("*.py"))]}
    assert "eleusis_web.app" in modules and "eleusis.game" in modules
    def with_packages(names: set[str]) -> set[str]:
        # importing a.b.c runs a.b's __init__ first
        return names | {n.rsplit(".", k)[0] for n in names for k in range(1, n.count(".") + 1)}

    graph = {
        name: {m for m in with_packages(_top_level_imports(path)) if m in modules and m != name
               and not name.startswith(m + ".")}
        for name, path in modules.items()
    }
    state: dict[str, int] = {}

    def visit(name: str, trail: tuple[str, ...]) -> None:
        if state.get(name) == 2:
            return
        assert state.get(name) != 1, " -> ".join((*trail, name))
        state[name] = 1
        for dep in sorted(graph[name]):
            visit(dep, (*trail, name))
        state[name] = 2

    for name in sorted(graph):
        visit(name, ())


#: The modules of the rules of play and the engine's door: no import inside a function.
NO_LATE_IMPORTS = [
    ENGINE / "game.py",
    ENGINE / "state.py",
    ENGINE / "match.py",
    ENGINE / "narrate.py",
    ENGINE / "views.py",
    ENGINE / "hints.py",
    *sorted((ENGINE / "variants").glob("*.py")),
]


def test_no_import_inside_functions_in_the_engine_core() -> None:
    for path in NO_LATE_IMPORTS:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
                assert not inner, f"{path.name}: {node.name} imports inside"


#: The page's imports left inside functions, each for a reason: the browser's
#: ``js`` (absent under CPython), what the boot loads in stages (the app one tick
#: after the first paint, the snapshot's stdlib, the bundled rule texts), and the
#: heavy engine parts only some games need (the computer scientists, the rule
#: generator and library).
LATE_IN_THE_PAGE = {
    "js", "importlib", "importlib.util", "pkgutil", "os", "random", "sys", "time", "zipfile",
    "json", "eleusis_web.snapshot", "eleusis_web.app", "eleusis_web.rules_text",
    "eleusis.ai", "eleusis.ai.scientist", "eleusis.rules.generate", "eleusis.rules.library",
}


def test_the_page_imports_inside_functions_only_what_it_loads_late_on_purpose() -> None:
    late: dict[str, set[str]] = {}
    for path in sorted(WEB.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for n in ast.walk(node):
                    if isinstance(n, ast.Import):
                        late.setdefault(path.name, set()).update(a.name for a in n.names)
                    elif isinstance(n, ast.ImportFrom) and n.module:
                        late.setdefault(path.name, set()).update(
                            f"{n.module}.{a.name}" if n.module == "eleusis_web" else n.module
                            for a in n.names)
    assert late, "the boot loads in stages"
    for name, modules in late.items():
        assert modules <= LATE_IN_THE_PAGE, (name, modules - LATE_IN_THE_PAGE)
        if name != "boot.py":  # the boot runs before the standard library is warm
            assert not modules & {"os", "sys", "time", "json", "random"}, (name, modules)
