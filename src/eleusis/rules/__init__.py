"""The secret-rule language: parse, judge, explain, compare and analyse rules.

Every rule in the game is one text in a small language, specified in the
design's ``rule-language.md``::

    >>> from eleusis.rules import parse
    >>> from eleusis.cards import parse_cards
    >>> rule = parse("if prev is black then card.rank >= prev.rank else card.rank <= prev.rank")
    >>> rule.accepts(parse_cards("7S"), parse_cards("9H")[0])
    True

Public API: :func:`parse`, :class:`Rule`, :class:`RuleSyntaxError`,
:class:`RuleEvalError`, :func:`compare` (and :func:`compare_steps`, the same
in slices for a page's main thread), :class:`Comparison`,
:class:`Counterexample`, :func:`analyse`, :class:`Analysis`,
:func:`from_english` and its :class:`Reading` (a rule said in plain English). The rule
``library`` and the ``generate`` module are loaded on first use.

Choices the design leaves open, decided here:

* **Case.** Keywords, suits, colors, rank letters and card codes are read in
  any case (``CARD IS RED``, ``qs``). The canonical text is lowercase except
  rank letters and card codes: ``card.rank in {J, Q, K} or card == QS``.
  A rank written as a letter stays a letter (``K``), one written as a number
  stays a number (``13``); the two rules are equal in behaviour, not in text.
* **Spelling.** Suit glyphs read as suit nouns, card literals print as codes
  (``7♥`` prints ``7H``), ``≠ ≤ ≥`` read as ``!= <= >=``, ``prev1`` as ``prev``;
  ``--`` starts a comment to the end of the line (write ``- -x`` or ``-(-x)``
  for a double minus).
* **Values.** ``is`` takes attribute, color, suit and rank adjectives on a
  card (``prev is K``, ``card is 7``), ``even``/``odd`` on a number
  (``(card.rank + prev.rank) is even``), colors and suit nouns on a suit,
  colors on a color. A card literal equals a card of the same rank and suit.
  Ranges and lists hold literals only (a leading minus is allowed:
  ``{-1, 1}``); sets hold literals or computed values (``{prev.suit,
  prev2.suit}``, read left to right until one matches, like a chain of
  ``or``); ranges are inclusive and written smaller end first (``9..5`` is
  refused); a set, range or list may only follow ``in`` (lists also ``next``
  and ``pick``). ``is prime`` on a number is primality (``pos is prime``).
  A ``case`` may not repeat a ``when`` value.
* **Arithmetic.** ``%`` is floor modulo (the sign of the divisor), ``//``
  floor division, ``gcd(x, y, ...)`` the greatest common divisor;
  ``wrap(n) = (n - 1) % 13 + 1``; ``pick(n, L) = L[(n - 1) % len(L)]``;
  ``next(x, L)`` is the item after the first ``x``, cyclically.
* **Undefined values reject.** ``% 0`` or ``// 0`` written as such is refused by the
  parser; a divisor that becomes 0 at run time, or ``next`` of a value not in
  its list, makes the rule *reject* the card. A missing ``prevK`` *accepts*
  it. Evaluation is lazy and left to right, so whichever comes first decides.
* **Limits.** 600 characters; 150 tree nodes; nesting 24 levels, counted
  both while reading (each parenthesis, ``not``, unary minus, ``if``/``case``
  branch and call argument opens a level) and as the height of the tree;
  look-back 4; integers up to 1000; 13 items per list or call, 60 per set
  (sets of positions: the 46 primes up to 200 fit).
* **Positions.** :func:`compare` and :func:`analyse` consider mainlines of
  up to :data:`~eleusis.rules.abstract.POS_MAX` = 200 cards (three decks and a
  margin): ``pos > 300`` can never matter.
"""

from __future__ import annotations

import importlib
from types import ModuleType

# The functions ``compare`` and ``analyse`` share their names with their
# modules: importing them here binds the package attributes to the functions
# (``from eleusis.rules.compare import compare`` still reaches the module).
from eleusis.rules.analyse import Analysis, analyse
from eleusis.rules.compare import Comparison, Counterexample, compare, compare_steps
from eleusis.rules.errors import RuleEvalError, RuleSyntaxError
from eleusis.rules.reader import Reading, from_english
from eleusis.rules.rule import Rule, parse

__all__ = [
    "Analysis",
    "Comparison",
    "Counterexample",
    "Reading",
    "Rule",
    "RuleEvalError",
    "RuleSyntaxError",
    "analyse",
    "compare",
    "compare_steps",
    "from_english",
    "parse",
]

def __getattr__(name: str) -> object:
    """Load the ``library`` and ``generate`` modules on first use."""
    if name in ("library", "generate"):
        module: ModuleType = importlib.import_module(f"eleusis.rules.{name}")
        return module
    raise AttributeError(f"module 'eleusis.rules' has no attribute {name!r}")
