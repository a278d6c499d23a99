"""How to play is docs/rules.md, embedded as a Python module."""

from __future__ import annotations

from pathlib import Path

from eleusis_web.rules_page import blocks
from eleusis_web.rules_text import RULE_LANGUAGE_MD, RULES_MD

ROOT = Path(__file__).resolve().parents[2]


def test_embedded_rules_match_docs() -> None:
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == RULES_MD, (
        "run python3 tools/gen_rules_page.py"
    )
    assert (ROOT / "docs" / "rule-language.md").read_text(encoding="utf-8") == \
        RULE_LANGUAGE_MD, "run python3 tools/gen_rules_page.py"


def test_blocks_cover_every_variant() -> None:
    heads = [t for k, t in blocks() if k in ("h1", "h2")]
    for name in ("Eleusis Express", "New Eleusis", "Solo"):
        assert any(name in h for h in heads), name


def test_blocks_kinds() -> None:
    text = ("# T\n\npara\nmore\n\n- a\n- b\n\n```\ncode\n```\n\n"
            "| x | y |\n| --- | --- |\n| 1 | 2 |\n")
    out = blocks(text)
    assert out == [("h1", "T"), ("p", "para more"), ("li", "a"), ("li", "b"),
                   ("pre", "code"), ("table", "x\ty\n1\t2")]
