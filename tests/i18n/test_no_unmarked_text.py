"""No sentence of the page reaches a player unmarked for translation.

The catalogues hold what Babel extracts: a text the page shows that is not
marked (``_``, ``N_``, ``ngettext``...) stays English on every language, and
the walk in Polish cannot see it (it only knows the catalogue's messages).
This test reads the web layer's source and fails on any string of three
words or more that is not marked, is not a docstring, and is not one of the
technical strings listed below (keys, selectors, rule texts, details meant
for a bug report).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "eleusis_web"
RULES = Path(__file__).resolve().parents[2] / "src" / "eleusis" / "rules"
#: The rule language's modules whose messages reach a player (syntax and type errors, the
#: dealer's aid); the others speak to developers or say rules through their own grammars.
RULES_SAID = ("parse.py", "errors.py", "analyse.py")

MARKERS = {"_", "N_", "ngettext", "pgettext", "npgettext"}

#: Strings that are not sentences for a player, by module.
TECHNICAL: dict[str, set[str]] = {
    "app.py": {"ctl-Guess the rule"},
    "render.py": {'[data-key="ctl-Guess the rule"]',
                  "card is red · card.rank > prev.rank · if prev is black then card is red "
                  "else card is even"},
    "boot.py": {"eleusis_web: not imported from a zip", "pyscript: not imported from the "
                "engine zip", "pyscript: PyScript's files not found in ",
                ": differs from the file PyScript wrote"},
    "challenge_view.py": {"if prev is red then card is black else card is red"},
    "notebook_panel.py": {"card is red"},
    "dom.py": {"no element with id "},
    "features.py": {"the address's fragment is neither a replay nor a challenge"},
    "replay_view.py": {"this replay is too long to show ("},
    "storage.py": {"QuotaExceededError: the quota has been exceeded"},
    "vdom.py": {"unsupported selector part ", "the builder made "},
    "stdlib_fallback.py": {" is not in the page's standard library, and the whole library "
                           "could not be downloaded: "},
    "session.py": {"The computer (a rule from the library)", "A person who writes the rule",
                   "A person who judges every play by hand", " is not available yet"},
}

SKIP = {"rules_text.py", "rules_page.py", "shell_text.py"}

#: The command line's report of the dealer's aid (``Analysis.report``) is for developers.
TECHNICAL["analyse.py"] = {"from the start", " as the first card)", " no card is legal",
                           ", reads the position"}


def _unmarked(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        if not re.search(r"[A-Za-z]{3,} [a-z]{2,} [a-z]{2,}", node.value):
            continue
        if isinstance(parents.get(node), ast.Expr):  # a docstring
            continue
        up: ast.AST = node
        marked = False
        while up in parents:
            up = parents[up]
            if isinstance(up, ast.Call):
                name = getattr(up.func, "id", getattr(up.func, "attr", ""))
                if name in MARKERS:
                    marked = True
                    break
        if not marked and node.value not in TECHNICAL.get(path.name, set()):
            found.append(f"{path.name}:{node.lineno}: {node.value[:70]!r}")
    return found


#: Formatted strings (f"...") that are not sentences for a player, by module: their text
#: with each ``{...}`` written ``{}``.
TECHNICAL_FORMATTED: dict[str, set[str]] = {
    "boot.py": {"unexpected intent: {}", "pyscript: PyScript's files not found in {}",
                "pyscript/{}: differs from the file PyScript wrote"},
    "dom.py": {"no element with id {} in the page"},
    "replay_view.py": {"this replay is too long to show ({} moves)"},
    "session.py": {"{} is not available yet"},
    "stdlib_fallback.py": {"{} is not in the page's standard library, and the whole library "
                           "could not be downloaded: {}"},
    "vdom.py": {"El({}, {}, {} children)", "unsupported selector part {}",
                "the builder made {} nodes for {}"},
    # the rule language: a bug's message, and the command line's report of the aid
    "parse.py": {"unknown node {}"},
    "analyse.py": {"acceptance rate: {} of cards on a typical play ({} as the first card)",
                   "within {} plays", "dead ends: none {}", "dead end: {} no card is legal"},
}


def _unmarked_formatted(path: Path) -> list[str]:
    """f-strings with two English words or more outside their ``{...}`` (a sentence built
    in code, which no catalogue can hold), unless listed as technical."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.JoinedStr):
            continue
        text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        words = [t for t in text.split() if re.fullmatch(r"[A-Za-z']{2,}[.,:;!?)]?", t)]
        if len(words) >= 2 and text not in TECHNICAL_FORMATTED.get(path.name, set()):
            found.append(f"{path.name}:{node.lineno}: {text[:70]!r}")
    return found


def test_no_sentence_of_the_page_is_built_in_a_formatted_string() -> None:
    found = [line for path in sorted(WEB.glob("*.py")) if path.name not in SKIP
             for line in _unmarked_formatted(path)]
    assert found == [], "sentences built in code, English on every page:\n" + "\n".join(found)


def test_the_check_finds_a_sentence_built_in_a_formatted_string(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('n = 3\nA = f"{n} of 13 right"\nB = f"hand-{n}"\n', encoding="utf-8")
    assert _unmarked_formatted(sample) == ["sample.py:2: '{} of 13 right'"]


def test_every_sentence_of_the_page_is_marked_for_translation() -> None:
    found = [line for path in sorted(WEB.glob("*.py")) if path.name not in SKIP
             for line in _unmarked(path)]
    assert found == [], "texts a player would read in English:\n" + "\n".join(found)


def test_every_error_of_the_rule_language_is_marked_for_translation() -> None:
    found = [line for name in RULES_SAID
             for line in (*_unmarked(RULES / name), *_unmarked_formatted(RULES / name))]
    assert found == [], "texts a player would read in English:\n" + "\n".join(found)


def test_the_check_finds_an_unmarked_sentence(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('"""Doc."""\nfrom eleusis.i18n import _\n'
                      'A = _("This one is marked for them.")\n'
                      'B = "This one is not marked at all."\n', encoding="utf-8")
    assert _unmarked(sample) == ["sample.py:4: 'This one is not marked at all.'"]
