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


def _code(text: str) -> str:
    """A code block without its comments (translated) and trailing spaces."""
    return "\n".join(line.split("--")[0].rstrip() for line in text.splitlines())


def test_each_translation_is_embedded_and_keeps_the_structure_and_the_rules() -> None:
    from eleusis_web.rules_page import language_blocks
    from eleusis_web.rules_text import TRANSLATIONS

    folders = sorted(p.name for p in (ROOT / "docs").iterdir()
                     if (p / "rules.md").is_file() and (p / "rule-language.md").is_file())
    assert folders and sorted(TRANSLATIONS) == folders, "run python3 tools/gen_rules_page.py"
    for lang, (rules, guide) in TRANSLATIONS.items():
        assert (ROOT / "docs" / lang / "rules.md").read_text(encoding="utf-8") == rules
        assert (ROOT / "docs" / lang / "rule-language.md").read_text(encoding="utf-8") == guide
        for english, translated in ((RULES_MD, rules), (RULE_LANGUAGE_MD, guide)):
            ours, theirs = blocks(english), blocks(translated)
            for kind in ("h1", "h2", "h3", "table"):
                assert [k for k, _ in theirs].count(kind) == [k for k, _ in ours].count(kind), \
                    (lang, kind)
            # the rule texts in code blocks are the same in every language
            assert [_code(t) for k, t in theirs if k == "pre"] == \
                [_code(t) for k, t in ours if k == "pre"], lang
        assert blocks(lang=lang) == blocks(rules) and blocks(lang=lang) != blocks()
        shown = language_blocks(lang)
        assert shown and not any("python -m" in t for _, t in shown), lang
    assert blocks(lang="xx") == blocks()  # no translation: English
