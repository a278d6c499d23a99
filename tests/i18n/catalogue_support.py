"""What the language tests share: the English messages a translation changes."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]


def english_messages(lang: str) -> list[tuple[re.Pattern[str], str]]:
    """Each English message whose ``lang`` translation differs, as a whole-text pattern
    (its ``{placeholders}`` match any text)."""
    with (ROOT / "locale" / lang / "LC_MESSAGES" / "eleusis.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    out = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        said = message.string if isinstance(message.string, tuple) else (message.string,)
        for msgid in map(str, ids):
            if msgid in said or len(re.sub(r"\{\w+\}|\W", "", msgid)) < 5:
                continue  # the same words in both languages, or mostly placeholders
            pattern = re.sub(r"\\\{\w+\\\}", ".+", re.escape(msgid))
            out.append((re.compile(pattern + r"\Z"), msgid))
    return out
