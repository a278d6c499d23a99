"""How to play: ``docs/rules.md`` (embedded as :mod:`eleusis_web.rules_text`) as blocks.

In the player's language where ``docs/<lang>/`` translates it (the rule texts
in it stay as they are: the rule language is the same in every language).

:func:`blocks` turns the markdown into ``(kind, text)`` pairs that the
renderer writes with ``textContent`` only: headings ``h1``..``h4``, ``p``,
``li``, ``pre`` (code blocks, as plain text) and ``table`` (rows separated by
newlines, cells by tabs; the first row is the header).
"""

from __future__ import annotations

#: Words of the guide's parts written for developers (the command line, the
#: source files), which the page leaves out: a player has no command line.
DEVELOPER_WORDS = ("python -m", "src/eleusis", "docstring",
                   "command line", "(for developers)", "exit status",
                   "wiersz poleceń", "wiersza poleceń", "dla programistów", "kod wyjścia",
                   "ligne de commande", "pour les développeurs", "code de sortie",
                   "riga di comando", "per gli sviluppatori", "codice di uscita")


def _texts(lang: str) -> tuple[str, str]:
    from eleusis_web.rules_text import RULE_LANGUAGE_MD, RULES_MD, TRANSLATIONS

    return TRANSLATIONS.get(lang, (RULES_MD, RULE_LANGUAGE_MD))


def language_blocks(lang: str = "en") -> list[tuple[str, str]]:
    """The rule language's guide (``docs/rule-language.md``, or its translation into
    ``lang``) as blocks, for players."""
    return [(k, t) for k, t in blocks(_texts(lang)[1])
            if not any(w in t for w in DEVELOPER_WORDS)]


def blocks(markdown: str | None = None, lang: str = "en") -> list[tuple[str, str]]:
    """The rules page (in ``lang`` where translated) as ``(kind, text)`` blocks, in order."""
    if markdown is None:
        markdown = _texts(lang)[0]
    out: list[tuple[str, str]] = []
    para: list[str] = []
    pre: list[str] | None = None
    table: list[str] = []

    def flush() -> None:
        if para:
            text = " ".join(x.strip() for x in para)
            if text.startswith(("- ", "* ")):
                out.append(("li", text[2:]))
            else:
                out.append(("p", text))
            para.clear()
        if table:
            rows = [r for r in table if not set(r.replace("|", "").strip()) <= set("-: ")]
            cells = ["\t".join(c.strip() for c in r.strip().strip("|").split("|")) for r in rows]
            out.append(("table", "\n".join(cells)))
            table.clear()

    for line in markdown.splitlines():
        if pre is not None:
            if line.startswith("```"):
                out.append(("pre", "\n".join(pre)))
                pre = None
            else:
                pre.append(line)
            continue
        if line.startswith("```"):
            flush()
            pre = []
            continue
        stripped = line.strip()
        if not stripped:
            flush()
            continue
        if stripped.startswith("|"):
            if para:
                flush()
            table.append(stripped)
            continue
        if table:
            flush()
        if stripped.startswith("#"):
            flush()
            level = len(stripped) - len(stripped.lstrip("#"))
            out.append((f"h{min(level, 4)}", stripped[level:].strip()))
            continue
        if stripped.startswith(("- ", "* ")) or (stripped[:1].isdigit() and ". " in stripped[:4]):
            flush()
            if stripped[:1].isdigit():
                stripped = "- " + stripped.split(". ", 1)[1]
        para.append(stripped)
    flush()
    if pre is not None:
        out.append(("pre", "\n".join(pre)))
    return out
