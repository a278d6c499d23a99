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

# The functions ``compare`` and ``analyse`` share their names with their
# modules: importing them here binds the package attributes to the functions
# (``from eleusis.rules.compare import compare`` still reaches the module).
from eleusis.rules.analyse import Analysis, analyse
from eleusis.rules.compare import Comparison, Counterexample, compare
from eleusis.rules.errors import RuleEvalError, RuleSyntaxError
from eleusis.rules.rule import Rule, parse

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

def __getattr__(name: str) -> object:
    """Load the ``library`` and ``generate`` modules on first use."""
    if name in ("library", "generate"):
        module: ModuleType = importlib.import_module(f"eleusis.rules.{name}")
        return module
    raise AttributeError(f"module 'eleusis.rules' has no attribute {name!r}")
