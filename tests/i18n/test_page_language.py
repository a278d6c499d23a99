"""The page's language: the shell's table in index.html, the stored choice, the intent."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tools import build

from eleusis_web import intents
from eleusis_web.shell_text import MESSAGES
from eleusis_web.storage import LANGUAGE, MemoryStorage, Saves

ROOT = Path(__file__).resolve().parents[2]


def _index_table() -> dict[str, dict[str, str]]:
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    start = html.index(build.SHELL_I18N_OPEN) + len(build.SHELL_I18N_OPEN)
    return dict(json.loads(html[start:html.index(build.SHELL_I18N_CLOSE, start)]))


def test_index_carries_the_catalogues_translations_of_the_shell() -> None:
    """The build keeps the table in index.html equal to the catalogues (run it after a change)."""
    assert json.dumps(_index_table(), sort_keys=True) == json.dumps(
        json.loads(build.shell_translations(ROOT)), sort_keys=True)
    table = _index_table()
    assert set(table) == {"en", "pl", "fr", "it"}
    assert table["en"] == {}
    assert (table["pl"]["Language"], table["fr"]["Language"], table["it"]["Language"]) == (
        "Język", "Langue", "Lingua")


def test_every_marked_text_of_the_shell_is_a_shell_message() -> None:
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    marked = set(re.findall(r'data-i18n(?:-label)?="([^"]+)"', html))
    script = (ROOT / "static" / "pyodide-early.mjs").read_text(encoding="utf-8")
    said = set(re.findall(r'\bt\("([^"]+)"', script))
    said |= set(re.findall(r'eleusisI18n\.t\("([^"]+)"', html))
    assert marked and said
    assert (marked | said) <= set(MESSAGES)


def test_index_text_cannot_close_its_script() -> None:
    assert "</" not in build.shell_translations(ROOT).replace("<\\/", "")


def test_the_language_is_remembered() -> None:
    store = MemoryStorage()
    saves = Saves(store)
    assert saves.read_language() is None
    assert saves.write_language("pl")
    assert store.getItem(LANGUAGE) == "pl"
    assert Saves(store).read_language() == "pl"
    assert not saves.write_language("xx")
    store.setItem(LANGUAGE, "<script>")  # a hand edit: not a language, ignored
    assert saves.read_language() is None


def test_a_full_storage_reports_the_language_unsaved() -> None:
    saves = Saves(MemoryStorage(quota=0))
    assert not saves.write_language("fr")


def test_the_language_intent() -> None:
    assert intents.parse({"type": "language", "value": "it"}).get("value") == "it"
    with pytest.raises(intents.IntentError):
        intents.parse({"type": "language", "value": "de"})
