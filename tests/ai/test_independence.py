"""The computer scientists never read the rule library, the generator or the secret.

Proved two ways: a scan of every import in ``src/eleusis/ai`` (no import of
``eleusis.rules.library`` / ``eleusis.rules.generate``, nor of anything from
``eleusis.rules`` at all), and games against rules that are not in the
library, played in a fresh interpreter that checks neither module was loaded.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

AI = Path(__file__).resolve().parents[2] / "src" / "eleusis" / "ai"
FORBIDDEN = ("eleusis.rules.library", "eleusis.rules.generate")


def _dynamic(node: ast.AST) -> bool:
    if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
        return True
    return isinstance(node, ast.Name) and node.id == "__import__"


def _imports(path: Path) -> list[str]:
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
            out.extend(f"{node.module}.{a.name}" for a in node.names)
        elif _dynamic(node):
            out.append("<dynamic import>")
    return out


def test_ai_package_imports_neither_library_nor_generator() -> None:
    files = sorted(AI.glob("*.py"))
    assert files
    for f in files:
        for name in _imports(f):
            assert not name.startswith(FORBIDDEN), f"{f.name} imports {name}"
            assert not name.startswith("eleusis.rules"), f"{f.name} imports {name}"
            assert name != "<dynamic import>", f"{f.name} imports dynamically"
            assert "library" not in name and "generate" not in name, f"{f.name}: {name}"


_SCRIPT = r"""
import sys
from eleusis.ai import Scientist
from eleusis.cards import ALL_CARDS, Card
rule = sys.argv[1]
# a rule written as a Python predicate, outside the rule language and the library
ok = {
    "sum13": lambda p, c: (p.rank + c.rank) % 13 != 0 and c.rank != p.rank,
    "clubs_or_seven": lambda p, c: c.suit.value == "C" or c.rank == 7,
}[rule]
sci = Scientist("strong", 3)
mainline = [Card.parse("5S")]
for k in range(40):
    card = ALL_CARDS[(k * 17 + 5) % 52]
    verdict = ok(mainline[-1], card)
    sci.observe(mainline, card, verdict)
    if verdict:
        mainline.append(card)
top = sci.explain(mainline, 1)
forbidden = ("eleusis.rules.library", "eleusis.rules.generate")
loaded = [m for m in sys.modules if m.startswith(forbidden)]
print(loaded, top[0].text if top else "")
"""


def test_plays_rules_outside_the_library_without_loading_it() -> None:
    src = AI.parents[1]
    for rule, want in (("clubs_or_seven", "card is clubs or card.rank == 7"),
                       ("sum13", "")):
        done = subprocess.run([sys.executable, "-c", _SCRIPT, rule], capture_output=True,
                              text=True, timeout=120, env={"PYTHONPATH": str(src)}, check=True)
        loaded, _, text = done.stdout.strip().partition("] ")
        assert loaded + "]" == "[]", done.stdout
        if want:
            assert text == want
