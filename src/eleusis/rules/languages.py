"""Every language a rule can be said in, and :func:`describe`.

English is :mod:`eleusis.rules.english`; each other language is a
:class:`~eleusis.rules.describe.Grammar` driven by the shared walk of
:mod:`eleusis.rules.describe`. A language with no grammar here is said in
English.

>>> from eleusis.rules import parse
>>> describe(parse("card is red").ast, "pl")
'Karta może zostać zagrana, gdy karta jest czerwona.'
>>> describe(parse("card is red").ast, "de")
'A card may be played when the card is red.'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from eleusis.rules.describe import Describer, Grammar
from eleusis.rules.describe_fr import FrenchGrammar
from eleusis.rules.describe_it import ItalianGrammar
from eleusis.rules.describe_pl import PolishGrammar
from eleusis.rules.english import say
from eleusis.rules.syntax import Node

#: Each language's grammar, by language tag.
GRAMMARS: Final[dict[str, Callable[[], Grammar]]] = {
    "pl": PolishGrammar,
    "fr": FrenchGrammar,
    "it": ItalianGrammar,
}


def languages() -> tuple[str, ...]:
    """The languages a rule can be said in, English first."""
    return ("en", *GRAMMARS)


def describe(tree: Node, lang: str) -> str:
    """The rule as one sentence in ``lang`` (English when ``lang`` has no grammar)."""
    grammar = GRAMMARS.get(lang)
    if grammar is None:
        return say(tree)
    return Describer(grammar()).say(tree)
