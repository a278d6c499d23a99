"""The secret-rule language: parse, judge, explain, compare and analyse rules.

Every rule in the game is one text in a small language (see
``docs/rule-language.md`` and the design's ``rule-language.md``)::

    >>> from eleusis.rules import parse
    >>> from eleusis.cards import parse_cards
    >>> rule = parse("if prev is black then card.rank >= prev.rank else card.rank <= prev.rank")
    >>> rule.accepts(parse_cards("7S"), parse_cards("9H")[0])
    True

Public API: :func:`parse`, :class:`Rule`, :class:`RuleSyntaxError`,
:class:`RuleEvalError`, :func:`compare`, :class:`Comparison`,
:class:`Counterexample`, :func:`analyse`, :class:`Analysis`. The rule
``library`` and the ``generate`` module are loaded on first use.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

from eleusis.rules.errors import RuleEvalError, RuleSyntaxError
from eleusis.rules.rule import Rule, parse

if TYPE_CHECKING:
    pass

__all__ = [
    "Analysis",
    "Comparison",
    "Counterexample",
    "Rule",
    "RuleEvalError",
    "RuleSyntaxError",
    "analyse",
    "compare",
    "parse",
]

_LAZY = {
    "compare": "eleusis.rules.compare",
    "Comparison": "eleusis.rules.compare",
    "Counterexample": "eleusis.rules.compare",
    "analyse": "eleusis.rules.analyse",
    "Analysis": "eleusis.rules.analyse",
}


def __getattr__(name: str) -> object:
    """Load ``compare``/``analyse`` and the ``library``/``generate`` modules on demand."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    if name in ("library", "generate"):
        module: ModuleType = importlib.import_module(f"eleusis.rules.{name}")
        return module
    raise AttributeError(f"module 'eleusis.rules' has no attribute {name!r}")
