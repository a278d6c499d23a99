"""The texts of the page's shell, said before Python is ready.

``index.html`` paints a shell (the title, the loading line, the new-game
form, the error panel) before the engine is up, and
``static/pyodide-early.mjs`` writes the download's progress into it. Their
texts are messages like any other (marked here for the catalogues, so Babel
extracts them and every catalogue translates them); the build writes each
language's translations of them into ``index.html`` as a small JSON table
(:func:`table`), which the shell's inline script applies to the elements
marked ``data-i18n`` (text) or ``data-i18n-label`` (``aria-label``), and
which ``eleusisI18n.t`` reads for the texts the scripts write.

The language is chosen the same way on both sides of the boot: the one the
player picked (``localStorage`` key :data:`eleusis_web.storage.LANGUAGE`),
else the first of ``navigator.languages`` that has a catalogue, else English.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Mapping
from typing import Final

from eleusis.i18n import N_

#: Every text of the shell (``index.html`` and ``static/pyodide-early.mjs``).
MESSAGES: Final = (
    N_("Eleusis — the game of inductive reasoning"),
    N_("Play cards, watch which ones the dealer accepts, and find the secret rule."),
    N_("Shuffling the deck…"),
    N_("Downloading the game"),
    N_("A new version of Eleusis is installed."),
    N_("Reload to use it"),
    N_("Card table"),
    N_("Mainline"),
    N_("New game"),
    N_("New to Eleusis? Play a guided round: two minutes, and you can leave the lesson at "
       "any time."),
    N_("Learn to play"),
    N_("How to play"),
    N_("Saved games"),
    N_("Continue"),
    N_("Continue {title}"),
    N_("Variant"),
    N_("New Eleusis"),
    N_("Eleusis Express"),
    N_("Royal Eleusis"),
    N_("Solo"),
    N_("Start"),
    N_("Something went wrong"),
    N_("The game hit an unexpected error. Reloading the page usually fixes it; your settings "
       "are kept."),
    N_("Details"),
    N_("Reload"),
    N_("Your game starts as soon as the engine is ready…"),
    N_("Loading the game: {received} of {expected} MB"),
    N_("Starting the game…"),
    N_("Part of the game could not be downloaded. Check your connection and try again: what "
       "already arrived is kept."),
    N_("Try again"),
    N_("The download stopped."),
    N_("Language"),
)


def table(translations: Mapping[str, gettext.NullTranslations]) -> dict[str, dict[str, str]]:
    """``{lang: {message: translation}}`` for the shell, each language's own words only.

    >>> import gettext
    >>> table({"en": gettext.NullTranslations()})
    {'en': {}}
    """
    out: dict[str, dict[str, str]] = {}
    for lang, tr in sorted(translations.items()):
        said: Callable[[str], str] = tr.gettext
        out[lang] = {m: said(m) for m in MESSAGES if said(m) != m}
    return out
