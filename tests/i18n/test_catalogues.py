"""The message catalogues: complete, well-formed, and read the way gettext reads them.

Every message marked in ``src/`` (Babel's extraction, the same one ``make
messages`` runs) must be translated in every catalogue, not fuzzy, with the
same ``{placeholders}``; the plural forms are checked on 0, 1, 2, 5 and 22;
the build's compiler must agree with Babel's and refuse malformed files.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from tools import build

from eleusis import i18n, narrate, pofile
from eleusis.cards import Card, card_name, parse_cards
from eleusis.state import Event

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("pl", "fr", "it")
KEYWORDS = {"_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "N_": None,
            "Nn_": (1, 2)}


def _po(lang: str) -> Path:
    return ROOT / "locale" / lang / "LC_MESSAGES" / "eleusis.po"


def _catalog(lang: str):  # type: ignore[no-untyped-def]
    with _po(lang).open("rb") as f:
        return read_po(f, locale=lang)


def _used() -> dict[str, str | None]:
    """Every message marked in src/: msgid -> plural msgid (None when not counted)."""
    found: dict[str, str | None] = {}
    method_map = [("**.py", "python")]
    for _file, _line, message, _comments, _ctx in extract_from_dir(
            str(ROOT / "src"), method_map, keywords=KEYWORDS):
        if isinstance(message, tuple):
            found[message[0]] = message[1]
        else:
            found[message] = None
    return found


@pytest.fixture(scope="module")
def used() -> dict[str, str | None]:
    return _used()


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def test_the_languages_are_available() -> None:
    assert i18n.available() == ("en", "pl", "fr", "it")


def test_the_template_lists_every_marked_message(used: dict[str, str | None]) -> None:
    with (ROOT / "locale" / "eleusis.pot").open("rb") as f:
        template = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    assert set(used) == template, "run `make messages`"


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated(lang: str, used: dict[str, str | None]) -> None:
    catalog = _catalog(lang)
    problems = []
    for msgid, plural in used.items():
        message = catalog.get(msgid)
        if message is None:
            problems.append(f"missing: {msgid!r}")
            continue
        if message.fuzzy:
            problems.append(f"fuzzy: {msgid!r}")
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            problems.append(f"untranslated: {msgid!r}")
        if (plural is None) != (not isinstance(message.id, tuple)):
            problems.append(f"plural mismatch: {msgid!r}")
        expected = pofile.placeholders(msgid) | pofile.placeholders(plural or "")
        for text in strings:
            if text and pofile.placeholders(text) != expected:
                problems.append(f"placeholders differ: {msgid!r} -> {text!r}")
    assert problems == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_build_compiler_agrees_with_babel(lang: str) -> None:
    ours = gettext.GNUTranslations(io.BytesIO(pofile.compile_po(_po(lang).read_text("utf-8"))))
    buffer = io.BytesIO()
    write_mo(buffer, _catalog(lang))
    babels = gettext.GNUTranslations(io.BytesIO(buffer.getvalue()))
    assert ours._catalog == babels._catalog  # type: ignore[attr-defined]
    assert ours.plural(5) == babels.plural(5)  # type: ignore[attr-defined]


PLURALS = {
    "en": ["0 cards", "1 card", "2 cards", "5 cards", "22 cards"],
    "pl": ["0 kart", "1 karta", "2 karty", "5 kart", "22 karty"],
    "fr": ["0 carte", "1 carte", "2 cartes", "5 cartes", "22 cartes"],
    "it": ["0 carte", "1 carta", "2 carte", "5 carte", "22 carte"],
}


@pytest.mark.parametrize("lang", sorted(PLURALS))
def test_plural_forms(lang: str) -> None:
    assert i18n.set_language(lang) == lang
    said = [i18n.ngettext("{n} card", "{n} cards", n).format(n=n) for n in (0, 1, 2, 5, 22)]
    assert said == PLURALS[lang]


def test_penalty_cards_are_counted_in_polish() -> None:
    i18n.set_language("pl")
    lines = [narrate.describe(Event("penalty", 0, count=n), ("Ala",), viewer=0)
             for n in (1, 2, 5, 22)]
    assert lines == ["Dobierasz 1 kartę.", "Dobierasz 2 karty.", "Dobierasz 5 kart.",
                     "Dobierasz 22 karty."]


def test_narration_follows_the_language() -> None:
    play = Event("play", 0, tuple(parse_cards("QS")), right=False)
    events = [play, Event("penalty", 0, count=2)]
    i18n.set_language("fr")
    assert narrate.describe_events(events, ("Ann",), viewer=0) == [
        "Vous avez joué dame de pique\u00a0: faux. Vous piochez 2 cartes."]
    i18n.set_language("it")
    assert narrate.reason("not_your_turn", name="Bob") == "Tocca a Bob."
    i18n.set_language("en")
    assert narrate.describe_events(events, ("Ann",), viewer=0) == [
        "You played queen of spades: wrong. You draw 2 cards."]


def test_card_names() -> None:
    card = Card.parse("AH")
    said = {lang: (i18n.set_language(lang), card_name(card))[1] for lang in PLURALS}
    assert said == {"en": "ace of hearts", "pl": "as kier", "fr": "as de cœur",
                    "it": "asso di cuori"}
    assert card.name == "ace of hearts"  # the engine's own name stays English


def test_unknown_language_falls_back_to_english() -> None:
    assert i18n.set_language("de") == "en"
    assert i18n.pick(["de-AT", "PL-pl", "fr"]) == "pl"
    assert i18n.pick(["xx"]) == "en"


BAD = {
    "unterminated": 'msgid "a\nmsgstr "b"\n',
    "two msgstr": 'msgid "a"\nmsgstr "b"\nmsgstr "c"\n',
    "bad escape": 'msgid "a"\nmsgstr "b\\q"\n',
    "plural count": ('msgid ""\nmsgstr "Plural-Forms: nplurals=3; plural=(n!=1);\\n"\n\n'
                     'msgid "{n} card"\nmsgid_plural "{n} cards"\nmsgstr[0] "x"\n'
                     'msgstr[1] "y"\n'),
    "placeholder": 'msgid "It is {name}\'s turn."\nmsgstr "Tocca a {nome}."\n',
    "duplicate": 'msgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "c"\n',
    "stray text": 'msgid "a"\nmsgstr "b"\nhello\n',
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_malformed_catalogues_are_refused(case: str) -> None:
    with pytest.raises(pofile.CatalogueError, match=r"<po>:\d+"):
        pofile.compile_po(BAD[case])


def test_the_build_fails_on_a_malformed_catalogue(tmp_path: Path) -> None:
    folder = tmp_path / "locale" / "xx" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "eleusis.po").write_text(BAD["placeholder"], encoding="utf-8")
    with pytest.raises(SystemExit, match="bad message catalogue"):
        build.catalogue_entries(tmp_path)


def test_the_build_ships_a_compiled_catalogue_per_language() -> None:
    entries = build.catalogue_entries(ROOT)
    assert sorted(entries) == [f"eleusis/locale/{lang}/LC_MESSAGES/eleusis.mo"
                               for lang in sorted(LANGS)]
    mo = entries["eleusis/locale/pl/LC_MESSAGES/eleusis.mo"]
    polish = gettext.GNUTranslations(io.BytesIO(mo))
    assert polish.gettext("The round is over.") == "Runda skończona."


def test_fuzzy_entries_are_left_out() -> None:
    text = 'msgid "a"\nmsgstr "b"\n\n#, fuzzy\nmsgid "c"\nmsgstr "d"\n'
    tr = gettext.GNUTranslations(io.BytesIO(pofile.compile_po(text)))
    assert (tr.gettext("a"), tr.gettext("c")) == ("b", "c")
