"""The player's language: message catalogues loaded with :mod:`gettext`.

Every text a player reads is written in English in the code, marked with
:func:`_` (or :func:`ngettext` when it counts something), and looked up in
the catalogue of the language in force. The catalogues are GNU gettext
``.po`` files under the repository's ``locale/<lang>/LC_MESSAGES/``
(extracted from the sources with Babel: ``pybabel extract``), compiled to
``.mo`` by the build and shipped in the engine zip as
``eleusis/locale/<lang>/LC_MESSAGES/eleusis.mo``. A fifth language is a new
catalogue, not a code change: :func:`available` lists what is there.

When the package has no compiled ``.mo`` (running from a source checkout),
the repository's ``.po`` is compiled in memory with :mod:`eleusis.pofile`,
so tests and the command line see the same translations as the page.

Messages use ``str.format`` fields with names (``"{n} cards"``), so a
translation can put them in its own order; the caller formats after the
lookup: ``ngettext("{n} card", "{n} cards", n).format(n=n)``.

>>> set_language("pl")
'pl'
>>> [ngettext("{n} card", "{n} cards", n).format(n=n) for n in (1, 2, 5, 22)]
['1 karta', '2 karty', '5 kart', '22 karty']
>>> set_language("en")
'en'
>>> ngettext("{n} card", "{n} cards", 5).format(n=5)
'5 cards'
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Final

from eleusis.pofile import compile_po

#: The language the messages are written in (no catalogue needed).
SOURCE: Final = "en"
#: The gettext domain: the catalogues' file name.
DOMAIN: Final = "eleusis"
#: Every language, in the switch's order, each named in its own language.
NAMES: Final = {"en": "English", "pl": "Polski", "fr": "Français", "it": "Italiano"}

#: Where a source checkout keeps the ``.po`` files (the repository's ``locale/``).
_SOURCE_LOCALE: Final = Path(__file__).resolve().parents[2] / "locale"

_current: list[str] = [SOURCE]


def _mo_resource(lang: str) -> bytes | None:
    """The compiled catalogue shipped beside this module (in the page: inside the engine
    zip, read by the module's own loader, so no resource machinery is imported at boot)."""
    loader = globals().get("__loader__")
    get_data = getattr(loader, "get_data", None)
    if get_data is None:
        return None
    path = f"{Path(__file__).parent}/locale/{lang}/LC_MESSAGES/{DOMAIN}.mo"
    try:
        data = get_data(path)
    except (OSError, KeyError):
        return None
    return data if isinstance(data, bytes) else None


def _po_source(lang: str) -> Path:
    return _SOURCE_LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalogue of ``lang`` (English, or a language with no catalogue, translates nothing)."""
    if lang == SOURCE:
        return gettext.NullTranslations()
    data = _mo_resource(lang)
    if data is None:
        po = _po_source(lang)
        if not po.is_file():
            return gettext.NullTranslations()
        data = compile_po(po.read_text(encoding="utf-8"), str(po))
    return gettext.GNUTranslations(io.BytesIO(data))


@cache
def available() -> tuple[str, ...]:
    """The languages a player can choose: English and every one with a catalogue.

    >>> available()[:1]
    ('en',)
    """
    found = [SOURCE]
    for lang in NAMES:
        if lang != SOURCE and (_mo_resource(lang) is not None or _po_source(lang).is_file()):
            found.append(lang)
    return tuple(found)


def pick(preferences: Iterable[str]) -> str:
    """The first language of ``preferences`` we have (``navigator.languages``
    order, ``"pl-PL"`` counts as ``"pl"``), else English.

    >>> pick(["de-DE", "fr-CA", "en"])
    'fr'
    >>> pick([])
    'en'
    """
    have = available()
    for tag in preferences:
        base = str(tag).strip().lower().replace("_", "-").split("-")[0]
        if base in have:
            return base
    return SOURCE


def set_language(lang: str) -> str:
    """Make ``lang`` the language of every message; return the one in force
    (English when ``lang`` has no catalogue)."""
    chosen = lang if lang in available() else SOURCE
    _current[0] = chosen
    return chosen


def language() -> str:
    """The language in force (``"en"``, ``"pl"``...)."""
    return _current[0]


def _(message: str) -> str:
    """``message`` in the language in force."""
    return translations(_current[0]).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message for ``n`` in the language in force
    (Polish has three: 1 karta, 2 karty, 5 kart)."""
    return translations(_current[0]).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in force, told apart by ``context``
    when one English word needs two translations."""
    return translations(_current[0]).pgettext(context, message)


def N_(message: str) -> str:
    """Mark a message for the catalogue without translating it yet (tables
    built at import, translated with :func:`_` when shown)."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a counted message for the catalogue: the pair for :func:`ngettext`."""
    return (singular, plural)


def gettext_in(lang: str, message: str) -> str:
    """``message`` in ``lang`` whatever the language in force."""
    return translations(lang).gettext(message)
