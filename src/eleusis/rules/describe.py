"""Saying a rule in the player's language.

:mod:`eleusis.rules.english` says a rule in English; this module says it in
the other languages of the page (Polish, French, Italian) with the same
choices: the same natural phrase for each common form ("the card is red",
"the card has a different suit from the last card"), the same
word-by-word fallback for the rest, the same parentheses wherever an
``and``/``or`` mix would be ambiguous. The walk over the tree is shared
(:class:`Describer`); what differs between languages (words, genders,
cases, word order) is a :class:`Grammar`, one per language
(:mod:`eleusis.rules.describe_pl`, ``describe_fr``, ``describe_it``).

Noun phrases are :class:`NP` values that carry their grammatical forms:
Polish needs the genitive ("wartość poprzedniej karty") and the gender of
a noun for the adjective that follows it ("wartość karty jest większa"),
French and Italian the contracted "de la" / "della".

>>> from eleusis.rules import parse
>>> parse("card.color != prev.color").describe("pl")
'Karta może zostać zagrana, gdy karta ma inną barwę niż poprzednia karta.'
>>> parse("card is red").describe("fr")
'Une carte peut être jouée quand la carte est rouge.'
>>> parse("if prev is black then card is red else card.rank > 6").describe("it")
'Se la carta precedente è nera, la carta è rossa; altrimenti il valore della carta è maggiore di 6.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from eleusis.rules.english import (
    _FLIP,
    _LITERALS,
    _SAME_NOUNS,
    _is_bool,
    _same_attr,
    _sum_terms,
)
from eleusis.rules.syntax import (
    ATTRIBUTES,
    RANK_LETTERS,
    And,
    Arith,
    Attr,
    BoolLit,
    Call,
    CardLit,
    Case,
    Cmp,
    ColorLit,
    If,
    In,
    Is,
    ListLit,
    Neg,
    Node,
    Not,
    Num,
    Or,
    Pos,
    RangeLit,
    Ref,
    SetLit,
    SuitLit,
)


@dataclass(frozen=True)
class NP:
    """A noun phrase: its forms by case (``"nom"`` always), its gender
    (``"m"``, ``"f"``, ``"n"``), and whether it is a computation (put in
    parentheses inside another one)."""

    forms: Mapping[str, str]
    gender: str = "m"
    compound: bool = False
    plural: bool = False
    extra: Mapping[str, str] = field(default_factory=dict)

    @property
    def nom(self) -> str:
        return self.forms["nom"]


class Grammar(Protocol):
    """The words and word order of one language; :class:`Describer` calls these."""

    # --- noun phrases
    def ref(self, k: int) -> NP: ...
    def pos(self) -> NP: ...
    def card(self, name_words: str) -> NP: ...
    def attr(self, name: str, owner: NP) -> NP: ...
    def number(self, value: int) -> NP: ...
    def rank(self, value: int) -> NP: ...
    def suit(self, letter: str) -> NP: ...
    def color(self, value: str) -> NP: ...
    def boolean(self, value: bool) -> NP: ...
    def whether(self, owner: NP, adj: str) -> NP: ...
    def expr(self, text: str) -> NP: ...
    def case(self, np: NP, case: str) -> str: ...
    def card_words(self, rank: int, suit: str) -> str: ...

    # --- computations (each gets noun phrases, returns the phrase's text)
    def negative(self, x: NP) -> str: ...
    def arith(self, op: str, left: NP, right: NP) -> str: ...
    def total(self, terms: Sequence[NP]) -> str: ...
    def absolute(self, x: NP) -> str: ...
    def extreme(self, which: str, args: Sequence[NP]) -> str: ...
    def wrap(self, x: NP) -> str: ...
    def gcd(self, args: Sequence[NP]) -> str: ...
    def next_in(self, x: NP, cycle: str) -> str: ...
    def pick(self, x: NP | None, seq: str) -> str: ...
    def range_np(self, lo: NP, hi: NP) -> str: ...
    def listing(self, items: Sequence[NP]) -> str: ...
    def and_list(self, words: Sequence[str]) -> str: ...
    def value_if(self, arms: Sequence[tuple[str, NP]], other: NP) -> str: ...
    def value_case(self, subject: NP, arms: Sequence[tuple[NP, NP]], other: NP) -> str: ...

    # --- clauses
    def is_adj(self, subject: NP, adj: str, negated: bool, short: bool = False) -> str: ...
    def is_rank(self, subject: NP, value: int, negated: bool) -> str: ...
    def number_is(self, subject: NP, adj: str, negated: bool) -> str: ...
    def compare(self, op: str, left: NP, right: NP) -> str: ...
    def same(self, a: NP, b: NP, noun: str, equal: bool) -> str: ...
    def same_adj(self, a: NP, b: NP, adj: str, equal: bool) -> str: ...
    def same_card(self, a: NP, b: NP, equal: bool) -> str: ...
    def multiple(self, x: NP, m: int, negated: bool) -> str: ...
    def remainder(self, x: NP, m: int, r: int, negated: bool) -> str: ...
    def coprime(self, args: Sequence[NP], equal: bool) -> str: ...
    def iff(self, a: str, b: str) -> str: ...
    def xor(self, a: str, b: str) -> str: ...
    def neither(self, a: str, b: str) -> str: ...
    def not_true(self, a: str) -> str: ...
    def join(self, word: str, items: Sequence[str]) -> str: ...
    def between(self, x: NP, lo: NP, hi: NP, negated: bool) -> str: ...
    def one_of(self, x: NP, items: str, negated: bool) -> str: ...
    def equal_any(self, x: NP, items: Sequence[NP], negated: bool) -> str: ...
    def holds(self, x: NP) -> str: ...
    def all_cards(self, accepted: bool) -> str: ...
    def bool_if(self, arms: Sequence[tuple[str, str]], other: str) -> str: ...
    def bool_case(self, subject: NP, arms: Sequence[tuple[NP, str]], other: str) -> str: ...

    # --- sentences
    def every_card(self, accepted: bool) -> str: ...
    def may_play(self, clause: str) -> str: ...
    def if_sentence(self, arms: Sequence[tuple[str, str]], other: str) -> str: ...
    def case_sentence(self, subject: NP, arms: Sequence[tuple[NP, str]], other: str) -> str: ...


class Describer:
    """The walk over a rule's tree, saying each node with a :class:`Grammar`."""

    def __init__(self, grammar: Grammar) -> None:
        self.g = grammar

    def say(self, tree: Node) -> str:
        g = self.g
        if isinstance(tree, If):
            text = g.if_sentence([(self.clause(c), self.clause(t)) for c, t in tree.arms],
                                 self.clause(tree.other))
        elif isinstance(tree, Case):
            text = g.case_sentence(self.noun(tree.subject),
                                   [(self.noun(lit), self.clause(t)) for lit, t in tree.arms],
                                   self.clause(tree.other))
        elif isinstance(tree, BoolLit):
            text = g.every_card(tree.value)
        else:
            text = g.may_play(self.clause(tree))
        return text[0].upper() + text[1:] + "."

    # ------------------------------------------------------------ noun phrases
    def noun(self, node: Node) -> NP:
        g = self.g
        if isinstance(node, Num):
            return g.rank(node.value) if node.letter else g.number(node.value)
        if isinstance(node, BoolLit):
            return g.boolean(node.value)
        if isinstance(node, SuitLit):
            return g.suit(node.suit.value)
        if isinstance(node, ColorLit):
            return g.color(node.color.value)
        if isinstance(node, CardLit):
            return g.card(g.card_words(node.card.rank, node.card.suit.value))
        if isinstance(node, Ref):
            return g.ref(node.k)
        if isinstance(node, Pos):
            return g.pos()
        if isinstance(node, Attr):
            owner = self.noun(node.obj)
            if ATTRIBUTES[node.name] == "bool":
                return g.whether(owner, node.name)
            return g.attr(node.name, owner)
        if isinstance(node, Neg):
            if isinstance(node.operand, Num) and not node.operand.letter:
                return g.number(-node.operand.value)
            return g.expr(g.negative(self.inner(node.operand)))
        if isinstance(node, Arith):
            terms = _sum_terms(node)
            if len(terms) > 2:
                return g.expr(g.total([self.inner(t) for t in terms]))
            return g.expr(g.arith(node.op, self.inner(node.left), self.inner(node.right)))
        if isinstance(node, Call):
            return self._call(node)
        if isinstance(node, SetLit | ListLit):
            return g.expr(g.listing([self.noun(i) for i in node.items]))
        if isinstance(node, RangeLit):
            return g.expr(g.range_np(self.noun(node.lo), self.noun(node.hi)))
        if isinstance(node, If):
            arms = [(self.clause(c), self.noun(t)) for c, t in node.arms]
            return g.expr(f"({g.value_if(arms, self.noun(node.other))})")
        if isinstance(node, Case):
            case_arms = [(self.noun(lit), self.noun(t)) for lit, t in node.arms]
            said = g.value_case(self.noun(node.subject), case_arms, self.noun(node.other))
            return g.expr(f"({said})")
        return g.expr(f"({self.clause(node)})")

    def inner(self, node: Node) -> NP:
        """A noun marked as a computation when parentheses must keep it whole."""
        np = self.noun(node)
        if (isinstance(node, Arith) or (isinstance(node, Neg) and not np.nom.startswith("-"))
                or (isinstance(node, Call) and node.name in ("next", "pick", "min", "max"))):
            return NP(np.forms, np.gender, True, np.plural, np.extra)
        return np

    def _call(self, node: Call) -> NP:
        g = self.g
        args = node.args
        if node.name == "abs":
            return g.expr(g.absolute(self.inner(args[0])))
        if node.name in ("min", "max"):
            return g.expr(g.extreme(node.name, [self.inner(a) for a in args]))
        if node.name == "wrap":
            return g.expr(g.wrap(self.inner(args[0])))
        if node.name == "gcd":
            return g.expr(g.gcd([self.inner(a) for a in args]))
        lst = args[1]
        assert isinstance(lst, ListLit)
        if node.name == "next":
            cycle = " → ".join(self.noun(i).nom for i in (*lst.items, lst.items[0]))
            return g.expr(g.next_in(self.inner(args[0]), cycle))
        seq = ", ".join(self.noun(i).nom for i in (*lst.items, *lst.items)) + ", …"
        return g.expr(g.pick(None if isinstance(args[0], Pos) else self.inner(args[0]), seq))

    # ------------------------------------------------------------ clauses
    def clause(self, node: Node) -> str:
        g = self.g
        if isinstance(node, BoolLit):
            return g.all_cards(node.value)
        if isinstance(node, Is):
            return self._is(node.obj, node.adj, node.negated)
        if isinstance(node, Attr) and ATTRIBUTES[node.name] == "bool":
            return self._is(node.obj, node.name, False)
        if isinstance(node, Cmp):
            return self._cmp(node.op, node.left, node.right)
        if isinstance(node, In):
            return self._in(node)
        if isinstance(node, Not):
            inner = node.operand
            if isinstance(inner, Is):
                return self._is(inner.obj, inner.adj, not inner.negated)
            if isinstance(inner, Cmp):
                return self._cmp(_FLIP[inner.op], inner.left, inner.right)
            if isinstance(inner, In):
                return self._in(In(inner.elem, inner.coll, not inner.negated))
            if isinstance(inner, Attr) and ATTRIBUTES[inner.name] == "bool":
                return self._is(inner.obj, inner.name, True)
            if isinstance(inner, Or) and len(inner.items) == 2:
                a, b = (self.group(i, inside="x") for i in inner.items)
                return g.neither(a, b)
            return g.not_true(self.group(inner))
        if isinstance(node, And):
            return g.join("and", [self.group(i, inside="and") for i in node.items])
        if isinstance(node, Or):
            return g.join("or", [self.group(i, inside="or") for i in node.items])
        if isinstance(node, If):
            arms = [(self.clause(c), self.clause(t)) for c, t in node.arms]
            return f"({g.bool_if(arms, self.clause(node.other))})"
        if isinstance(node, Case):
            case_arms = [(self.noun(lit), self.clause(t)) for lit, t in node.arms]
            said = g.bool_case(self.noun(node.subject), case_arms, self.clause(node.other))
            return f"({said})"
        return g.holds(self.noun(node))

    def group(self, node: Node, inside: str = "") -> str:
        """A clause in parentheses where an and/or mix would be ambiguous
        (the same decisions as :func:`eleusis.rules.english._group`)."""
        text = self.clause(node)
        if inside and isinstance(node, In) and isinstance(node.coll, SetLit | ListLit):
            return f"({text})"
        if inside and self._compound(node) and not text.startswith("("):
            return f"({text})"
        if isinstance(node, And | Or) and not (
            (inside == "and" and isinstance(node, And)) or (inside == "or" and isinstance(node, Or))
        ):
            return f"({text})"
        return text

    def _compound(self, node: Node) -> bool:
        if isinstance(node, Cmp):
            return (self._remainder(node.op, node.left, node.right) is None
                    and node.op in ("==", "!=") and _is_bool(node.left) and _is_bool(node.right)
                    and not isinstance(node.right, BoolLit)
                    and not self._same_phrase(node.left, node.right))
        if isinstance(node, Not):
            inner = node.operand
            if isinstance(inner, Cmp):
                return self._compound(Cmp(_FLIP[inner.op], inner.left, inner.right))
            return not isinstance(inner, Is | In) and not (
                isinstance(inner, Attr) and ATTRIBUTES[inner.name] == "bool")
        return False

    @staticmethod
    def _same_phrase(left: Node, right: Node) -> bool:
        same = _same_attr(left, right)
        return same is not None and same[2] in _SAME_NOUNS

    def _is(self, obj: Node, adj: str, negated: bool) -> str:
        g = self.g
        subject = self.noun(obj)
        if isinstance(obj, Ref):
            if adj.lower() in RANK_LETTERS or adj.isdigit():
                value = RANK_LETTERS.get(adj.lower()) or int(adj)
                return g.is_rank(subject, value, negated)
            return g.is_adj(subject, adj, negated)
        return g.number_is(subject, adj, negated)

    def _remainder(self, op: str, left: Node, right: Node) -> str | None:
        if not (op in ("==", "!=") and isinstance(left, Arith) and left.op == "%"
                and isinstance(left.right, Num) and isinstance(right, Num)):
            return None
        m, r = left.right.value, right.value
        x = self.noun(left.left)
        if m == 2 and r in (0, 1):
            return self.g.number_is(x, "even" if r == 0 else "odd", op != "==")
        if m > 0 and r == 0:
            return self.g.multiple(x, m, op != "==")
        if 0 < r < m:
            return self.g.remainder(x, m, r, op != "==")
        return None

    def _cmp(self, op: str, left: Node, right: Node) -> str:
        g = self.g
        remainder = self._remainder(op, left, right)
        if remainder is not None:
            return remainder
        if (op in ("==", "!=") and isinstance(left, Call) and left.name == "gcd"
                and isinstance(right, Num) and right.value == 1):
            return g.coprime([self.inner(a) for a in left.args], op == "==")
        if (op in ("==", "!=") and _is_bool(left) and _is_bool(right)
                and not isinstance(right, BoolLit) and _same_attr(left, right) is None):
            first, second = self.group(left, inside="x"), self.group(right, inside="x")
            return g.iff(first, second) if op == "==" else g.xor(first, second)
        same = _same_attr(left, right)
        if same is not None and op in ("==", "!=") and same[2] in _SAME_NOUNS:
            a, b, name = same
            return g.same(self.noun(a), self.noun(b), _SAME_NOUNS[name], op == "==")
        if same is not None and op in ("==", "!="):
            a, b, name = same
            return g.same_adj(self.noun(a), self.noun(b), name, op == "==")
        if isinstance(left, Attr) and ATTRIBUTES[left.name] == "bool" and isinstance(
                right, BoolLit):
            return self._is(left.obj, left.name, (op == "==") != right.value)
        if isinstance(left, Ref) and isinstance(right, Ref | CardLit):
            return g.same_card(self.noun(left), self.noun(right), op == "==")
        return g.compare(op, self.noun(left), self.noun(right))

    def _in(self, node: In) -> str:
        g = self.g
        coll = node.coll
        if isinstance(coll, SetLit) and not all(isinstance(i, _LITERALS) for i in coll.items):
            return g.equal_any(self.noun(node.elem), [self.inner(i) for i in coll.items],
                               node.negated)
        if isinstance(coll, RangeLit):
            return g.between(self.noun(node.elem), self.noun(coll.lo), self.noun(coll.hi),
                             node.negated)
        return g.one_of(self.noun(node.elem), self.noun(coll).nom, node.negated)
