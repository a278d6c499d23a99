"""The :class:`Rule` value: a checked tree, its canonical text and a compiled judge."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eleusis.cards import Card
from eleusis.rules.evaluate import EPOCH, Fn, Missing, compile_rule
from eleusis.rules.parse import parse_tree
from eleusis.rules.printer import to_text
from eleusis.rules.syntax import Node, lookback, uses_pos


class Rule:
    """A secret rule: frozen, hashable, equal when the canonical forms are equal.

    Build one with :func:`parse` (from text) or :meth:`Rule.from_tree`.

    >>> r = parse("Card.Color != PREV.color")
    >>> str(r), r.lookback, r.uses_pos
    ('card.color != prev.color', 1, False)
    >>> r.accepts([], Card.parse("7H"))   # no prev: the dealer did not constrain it
    True
    """

    __slots__ = ("_fn", "_hash", "ast", "lookback", "text", "uses_pos")

    ast: Node
    text: str
    lookback: int
    uses_pos: bool
    _fn: Fn
    _hash: int

    def __init__(self, tree: Node) -> None:
        """Wrap an already checked tree (use :func:`parse` or :meth:`from_tree`)."""
        set_ = object.__setattr__
        set_(self, "ast", tree)
        set_(self, "text", to_text(tree))
        set_(self, "lookback", lookback(tree))
        set_(self, "uses_pos", uses_pos(tree))
        set_(self, "_fn", compile_rule(tree))
        set_(self, "_hash", hash(tree))

    @classmethod
    def from_tree(cls, tree: Node) -> Rule:
        """Check a tree built in code (types and limits) by printing and re-reading it.

        Raises :class:`RuleSyntaxError` like :func:`parse` if the tree is not a
        valid rule.
        """
        return parse(to_text(tree))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Rule is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("a Rule is immutable")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rule):
            return NotImplemented
        return self._hash == other._hash and self.ast == other.ast

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"parse({self.text!r})"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (parse, (self.text,))

    def accepts(self, mainline: Sequence[Card], card: Card) -> bool:
        """May ``card`` be played next after ``mainline`` (oldest card first)?

        Touching a ``prevK`` that does not exist accepts the card; an undefined
        value (``% 0`` at run time, ``next`` of a value missing from its list)
        rejects it. ``pos`` is ``len(mainline) + 1``.
        """
        n = len(mainline)
        k = self.lookback
        if k == 0:
            slots: tuple[Card | None, ...] = (card,)
        elif n >= k:
            slots = (card, *mainline[: n - k - 1 : -1]) if n > k else (card, *mainline[::-1])
        else:
            slots = (card, *mainline[::-1], *((None,) * (k - n)))
        return self.judge(slots, n + 1)

    def judge(self, slots: Sequence[Card | None], pos: int) -> bool:
        """The verdict with the looked-back cards given directly.

        ``slots[0]`` is the judged card and ``slots[k]`` is ``prevK`` (``None``
        when missing); ``slots`` must have ``lookback + 1`` items. This is the
        fast path used by the comparison and the analysis.
        """
        EPOCH[0] += 1
        try:
            return bool(self._fn(slots, pos))
        except Missing:
            return True
        except ArithmeticError:  # RuleEvalError: % 0 or next() outside its list
            return False

    def judge_all(
        self, cards: Sequence[Card], back: tuple[Card | None, ...], pos: int
    ) -> tuple[bool, ...]:
        """The verdict on each of ``cards`` after the looked-back ``back``
        (``back[0]`` is ``prev``; ``None`` for missing cards; at least
        ``lookback`` items). Same semantics as :meth:`accepts`, in one call."""
        EPOCH[0] += 1
        fn = self._fn
        out: list[bool] = []
        append = out.append
        for card in cards:
            try:
                append(bool(fn((card, *back), pos)))
            except Missing:
                append(True)
            except ArithmeticError:
                append(False)
        return tuple(out)

    def english(self) -> str:
        """The rule said as one plain English sentence."""
        from eleusis.rules.english import say

        return say(self.ast)

    def describe(self, lang: str = "en") -> str:
        """The rule said as one sentence in ``lang`` (``"en"``, ``"pl"``, ``"fr"``,
        ``"it"``; English for any other): :mod:`eleusis.rules.languages`.

        >>> parse("card is red").describe("pl")
        'Karta może zostać zagrana, gdy karta jest czerwona.'
        """
        from eleusis.rules.languages import describe  # loaded when first said, as english()

        return describe(self.ast, lang)


def parse(text: str) -> Rule:
    """Read a rule; raises :class:`RuleSyntaxError` (and nothing else) on bad input.

    >>> parse("card.rank in {2, 3, 5, 7, j, k}").text
    'card.rank in {2, 3, 5, 7, J, K}'
    """
    return Rule(parse_tree(text))
