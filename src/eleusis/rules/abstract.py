"""Finite abstractions of "every mainline a rule could produce".

Exact comparison (:mod:`~eleusis.rules.compare`), the dead-end search
(:mod:`~eleusis.rules.analyse`) and the generator's exact exploration
(:func:`eleusis.rules.generate.explore`) all explore the mainlines a rule can
build, with one core: :class:`Space` (the reduced states) and :class:`Walk`
(breadth-first over the reachable ones). A rule reads at most four
looked-back cards, a few attributes of each, and the position, so the future
of a mainline depends only on:

* the last ``L`` cards (``L`` = the largest look-back of the rules involved),
  each *reduced to the attributes the rules read* from the slots it will still
  occupy: a card that is only ever read for its color is one of 2
  representatives, one read for its rank one of 13, one read whole one of 52;
* the position, and only up to a threshold ``T`` and a period ``P``: ``pos``
  can only matter through comparisons with constants and through ``%``,
  ``wrap`` and ``pick``, so beyond the largest relevant constant the verdicts
  repeat with the lcm of the moduli (:func:`pos_profile` derives ``T`` and
  ``P`` from the syntax, conservatively; when it cannot, positions are kept
  exact up to the maximum).

Positions are bounded by :data:`POS_MAX`: no game of this program plays more
than three decks (156 cards), and 200 leaves a margin. A rule clause like
``pos > 300`` can therefore never matter.

``explore`` keeps a coarser reduction and exact positions, on purpose: see
:class:`Space`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from eleusis.cards import ALL_CARDS, Card, Color, Suit
from eleusis.rules.rule import Rule
from eleusis.rules.syntax import (
    SUIT_WORDS,
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

#: The longest mainline considered (positions 1..POS_MAX).
POS_MAX: Final = 200

T = TypeVar("T")

_ALL: Final = "all"
_ADJ_ATTR: Final = {"red": "color", "black": "color", "face": "face", "numeral": "numeral",
                    "even": "even", "odd": "odd", "prime": "prime"}


def adjective_attribute(adj: str) -> str:
    """The card attribute an ``is`` adjective reads (``hearts`` -> ``suit``)."""
    if adj in _ADJ_ATTR:
        return _ADJ_ATTR[adj]
    if adj in SUIT_WORDS:
        return "suit"
    return "rank"


def slot_attributes(tree: Node) -> list[set[str]]:
    """For slots 0..4 (card, prev..prev4), the attributes the rule reads.

    ``"all"`` means the card itself is used (compared whole, chosen by an
    ``if``...), so every card is different.
    """
    reads: list[set[str]] = [set() for _ in range(5)]
    stack = [tree]
    while stack:
        n = stack.pop()
        if isinstance(n, Attr) and isinstance(n.obj, Ref):
            reads[n.obj.k].add(n.name)
            continue
        if isinstance(n, Is) and isinstance(n.obj, Ref):
            reads[n.obj.k].add(adjective_attribute(n.adj))
            continue
        if isinstance(n, Ref):
            reads[n.k].add(_ALL)
            continue
        stack.extend(n.children())
    return reads


def _class_key(card: Card, attrs: frozenset[str]) -> object:
    if _ALL in attrs:
        return card
    return tuple(getattr(card, a) for a in sorted(attrs))


def representatives(attrs: Iterable[str]) -> dict[Card, Card]:
    """Map each of the 52 cards to the first card (in index order) of its class."""
    frozen = frozenset(attrs)
    if "color" in frozen:
        frozen = frozen - {"red", "black"}
    first: dict[object, Card] = {}
    out: dict[Card, Card] = {}
    for c in ALL_CARDS:
        out[c] = first.setdefault(_class_key(c, frozen), c)
    return out


# ---------------------------------------------------------------- pos periodicity


@dataclass(frozen=True, slots=True)
class _D:
    """How a value depends on ``pos`` from position ``t`` on.

    kind ``const``: not at all (``lo..hi`` bounds an int value, else None);
    ``affine``: a*pos + b with a in alo..ahi (never 0, one sign) and b in lo..hi;
    ``periodic``: value(pos + p) == value(pos).
    """

    kind: str
    t: int = 1
    p: int = 1
    lo: int | None = None
    hi: int | None = None
    alo: int = 0
    ahi: int = 0


_CONST_ANY: Final = _D("const")


def _periodic(*ds: _D) -> _D:
    return _D("periodic", max(d.t for d in ds), math.lcm(*(d.p for d in ds)))


def _join(ds: Sequence[_D | None]) -> _D | None:
    """Combine independent pieces: const if all const, else periodic (or None)."""
    if any(d is None or d.kind == "affine" for d in ds):
        return None
    real = [d for d in ds if d is not None]
    if all(d.kind == "const" for d in real):
        los = [d.lo for d in real]
        his = [d.hi for d in real]
        if all(v is not None for v in los + his):
            return _D("const", lo=min(v for v in los if v is not None),
                      hi=max(v for v in his if v is not None))
        return _CONST_ANY
    return _periodic(*real)


def _crossing(aff: _D, lo: int, hi: int) -> int:
    """A position from which ``aff`` stays strictly outside ``lo..hi``."""
    assert aff.lo is not None and aff.hi is not None
    if aff.alo > 0:  # increasing: above hi when alo*pos + blo > hi
        return max(aff.t, (hi - aff.lo) // aff.alo + 1, 1)
    return max(aff.t, (aff.hi - lo) // (-aff.ahi) + 1, 1)


def _const_bounds(d: _D) -> tuple[int, int] | None:
    if d.kind == "const" and d.lo is not None and d.hi is not None:
        return d.lo, d.hi
    return None


def _int_profile(node: Node) -> _D | None:
    if isinstance(node, Num):
        return _D("const", lo=node.value, hi=node.value)
    if isinstance(node, Pos):
        return _D("affine", lo=0, hi=0, alo=1, ahi=1)
    if isinstance(node, Attr):
        obj = _profile(node.obj)
        if obj is None or obj.kind != "const":
            return obj if obj is None else _periodic(obj)
        return _D("const", lo=1, hi=13) if node.name == "rank" else _CONST_ANY
    if isinstance(node, Neg):
        d = _int_profile(node.operand)
        if d is None or d.kind == "periodic":
            return d
        lo = None if d.hi is None else -d.hi
        hi = None if d.lo is None else -d.lo
        if d.kind == "affine":
            return _D("affine", d.t, lo=lo, hi=hi, alo=-d.ahi, ahi=-d.alo)
        return _D("const", lo=lo, hi=hi)
    if isinstance(node, Arith):
        return _arith_profile(node)
    if isinstance(node, Call):
        return _call_profile(node)
    return _profile(node)


def _arith_profile(node: Arith) -> _D | None:
    a, b = _int_profile(node.left), _int_profile(node.right)
    if a is None or b is None:
        return None
    if node.op == "//":
        return _div_profile(a, b)
    if node.op == "%":
        bounds = _const_bounds(b)
        if bounds is None:
            return None if b.kind != "periodic" or a.kind == "affine" else _periodic(a, b)
        lo, hi = bounds
        rlo, rhi = min(lo + 1, 0), max(hi - 1, 0)
        if a.kind == "const":
            return _D("const", lo=rlo, hi=rhi)
        divisors = [m for m in range(lo, hi + 1) if m != 0]
        if not divisors or len(divisors) > 13:
            return None
        period = math.lcm(*(abs(m) for m in divisors))
        return _D("periodic", a.t, period if a.kind == "affine" else a.p)
    if a.kind == "periodic" or b.kind == "periodic":
        if a.kind == "affine" or b.kind == "affine":
            return None
        return _periodic(a, b)
    if a.lo is None or a.hi is None or b.lo is None or b.hi is None:
        return None
    if node.op in "+-":
        sign = 1 if node.op == "+" else -1
        blo, bhi = (b.lo, b.hi) if sign == 1 else (-b.hi, -b.lo)
        lo, hi = a.lo + blo, a.hi + bhi
        if a.kind == "const" and b.kind == "const":
            return _D("const", lo=lo, hi=hi)
        alo1, ahi1 = (a.alo, a.ahi) if a.kind == "affine" else (0, 0)
        alo2, ahi2 = (b.alo, b.ahi) if b.kind == "affine" else (0, 0)
        if sign == -1:
            alo2, ahi2 = -ahi2, -alo2
        alo, ahi = alo1 + alo2, ahi1 + ahi2
        t = max(a.t, b.t)
        if alo == ahi == 0:
            return _D("const", lo=lo, hi=hi)
        if alo <= 0 <= ahi:
            return None
        return _D("affine", t, lo=lo, hi=hi, alo=alo, ahi=ahi)
    # '*'
    if a.kind == "const" and b.kind == "const":
        products = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
        return _D("const", lo=min(products), hi=max(products))
    aff, con = (a, b) if a.kind == "affine" else (b, a)
    if con.kind != "const" or con.lo is None or con.hi is None or con.lo != con.hi:
        return None
    c = con.lo
    if c == 0:
        return _D("const", lo=0, hi=0)
    assert aff.lo is not None and aff.hi is not None
    los = sorted((aff.lo * c, aff.hi * c))
    alos = sorted((aff.alo * c, aff.ahi * c))
    return _D("affine", aff.t, lo=los[0], hi=los[1], alo=alos[0], ahi=alos[1])


def _div_profile(a: _D, b: _D) -> _D | None:
    """``a // b``: constant with bounds, periodic, or unknown (an affine ``pos // 3``
    is a staircase, neither: positions are then kept exact)."""
    if a.kind == "affine" or b.kind == "affine":
        return None
    if a.kind == "periodic" or b.kind == "periodic":
        return _periodic(a, b)
    if a.lo is None or a.hi is None or b.lo is None or b.hi is None:
        return _CONST_ANY
    # For a fixed divisor the quotient is monotonic in the dividend, and for a
    # fixed dividend monotonic in a divisor of one sign: the extremes lie at
    # the ends of each range, with +-1 standing for the ends next to 0.
    divisors = {d for d in (b.lo, b.hi, -1, 1) if d != 0 and b.lo <= d <= b.hi}
    if not divisors:
        return _CONST_ANY
    quotients = [x // d for x in (a.lo, a.hi) for d in divisors]
    return _D("const", lo=min(quotients), hi=max(quotients))


def _call_profile(node: Call) -> _D | None:
    name, args = node.name, node.args
    if name in ("next", "pick"):
        first = _int_profile(args[0]) if name == "pick" else _profile(args[0])
        lst = args[1]
        assert isinstance(lst, ListLit)
        values = [i.value for i in lst.items if isinstance(i, Num)]
        lo = min(values) if len(values) == len(lst.items) else None
        hi = max(values) if len(values) == len(lst.items) else None
        if first is None:
            return None
        if first.kind == "const":
            return _D("const", lo=lo, hi=hi)
        if first.kind == "affine":
            if name == "next":
                return None
            return _D("periodic", first.t, len(lst.items))
        return _periodic(first)
    ds = [_int_profile(a) for a in args]
    if any(d is None for d in ds):
        return None
    real = [d for d in ds if d is not None]
    if name == "wrap":
        (d,) = real
        if d.kind == "const":
            return _D("const", lo=1, hi=13)
        return _D("periodic", d.t, 13 if d.kind == "affine" else math.lcm(13, d.p))
    if name == "abs":
        (d,) = real
        if d.kind == "periodic":
            return d
        if d.lo is None or d.hi is None:
            return None
        if d.kind == "const":
            if d.lo >= 0:
                return d
            if d.hi <= 0:
                return _D("const", lo=-d.hi, hi=-d.lo)
            return _D("const", lo=0, hi=max(-d.lo, d.hi))
        if d.alo > 0:
            return _D("affine", max(d.t, -d.lo // d.alo + 1), lo=d.lo, hi=d.hi,
                      alo=d.alo, ahi=d.ahi)
        t = max(d.t, d.hi // (-d.ahi) + 1)
        return _D("affine", t, lo=-d.hi, hi=-d.lo, alo=-d.ahi, ahi=-d.alo)
    if name == "gcd":
        if any(d.kind == "affine" for d in real):
            return None
        if any(d.kind == "periodic" for d in real):
            return _periodic(*real)
        sizes = [max(abs(d.lo), abs(d.hi)) for d in real if d.lo is not None
                 and d.hi is not None]
        if len(sizes) < len(real):
            return _CONST_ANY
        return _D("const", lo=0, hi=max(sizes))
    # min / max
    return _join(real)


def _compare_profile(left: Node, right: Node, ints: bool) -> _D | None:
    if not ints:
        return _join([_profile(left), _profile(right)])
    a, b = _int_profile(left), _int_profile(right)
    if a is None or b is None:
        return None
    if a.kind == "affine" and b.kind == "affine":
        d = _arith_profile(Arith("-", left, right))
        if d is None or d.kind != "affine":
            return None if d is None else _periodic(d)
        return _D("periodic", _crossing(d, 0, 0))
    if a.kind == "affine" or b.kind == "affine":
        aff, other = (a, b) if a.kind == "affine" else (b, a)
        bounds = _const_bounds(other)
        if bounds is None:
            return None
        return _D("periodic", _crossing(aff, *bounds))
    return _join([a, b])


def _is_int(node: Node) -> bool:
    if isinstance(node, Num | Pos | Arith | Neg):
        return True
    if isinstance(node, Attr):
        return node.name == "rank"
    if isinstance(node, Call):
        if node.name in ("abs", "min", "max", "wrap", "gcd"):
            return True
        lst = node.args[1]
        return isinstance(lst, ListLit) and isinstance(lst.items[0], Num)
    if isinstance(node, If):
        return _is_int(node.other)
    if isinstance(node, Case):
        return _is_int(node.other)
    return False


def _profile(node: Node) -> _D | None:
    """The pos-dependence of any node (ints through :func:`_int_profile`)."""
    if isinstance(node, BoolLit | SuitLit | ColorLit | CardLit | Ref):
        return _CONST_ANY
    if _is_int(node) and not isinstance(node, If | Case):
        return _int_profile(node)
    if isinstance(node, Attr):
        obj = _profile(node.obj)
        return obj if obj is None or obj.kind == "const" else _periodic(obj)
    if isinstance(node, Call):
        return _call_profile(node)
    if isinstance(node, Is):
        obj = _int_profile(node.obj) if _is_int(node.obj) else _profile(node.obj)
        if obj is not None and obj.kind == "affine":
            return _D("periodic", obj.t, 2) if node.adj in ("even", "odd") else None
        return obj if obj is None or obj.kind == "const" else _periodic(obj)
    if isinstance(node, Cmp):
        return _compare_profile(node.left, node.right, _is_int(node.left))
    if isinstance(node, In):
        coll = node.coll
        computed = [_profile(i) for i in coll.children()
                    if not isinstance(i, Num | BoolLit | SuitLit | ColorLit | CardLit)]
        if not _is_int(node.elem):
            return _join([_profile(node.elem), *computed])
        elem = _int_profile(node.elem)
        if elem is None or elem.kind != "affine":
            return _join([elem, *computed])
        if isinstance(coll, RangeLit):
            return _D("periodic", _crossing(elem, coll.lo.value, coll.hi.value))
        assert isinstance(coll, SetLit | ListLit)
        bounds = [_const_bounds(d) if d is not None else None
                  for d in (_int_profile(i) for i in coll.items)]
        los = [b[0] for b in bounds if b is not None]
        his = [b[1] for b in bounds if b is not None]
        if len(los) < len(bounds):
            return None  # an item that moves with pos, or unbounded: keep positions exact
        return _D("periodic", _crossing(elem, min(los), max(his)))
    if isinstance(node, Not):
        return _profile(node.operand)
    if isinstance(node, And | Or):
        return _join([_profile(i) for i in node.items])
    if isinstance(node, If):
        parts = [p for arm in node.arms for p in arm] + [node.other]
        return _join([_profile(p) for p in parts])
    if isinstance(node, Case):
        subj = _int_profile(node.subject) if _is_int(node.subject) else _profile(node.subject)
        if subj is not None and subj.kind == "affine":
            values = [lit.value for lit, _ in node.arms if isinstance(lit, Num)]
            other = _profile(node.other)
            if other is None or other.kind == "affine":
                return None
            return _periodic(other, _D("periodic", _crossing(subj, min(values), max(values))))
        return _join([subj, *(_profile(t) for _, t in node.arms), _profile(node.other)])
    if isinstance(node, SetLit | ListLit | RangeLit):
        return _CONST_ANY
    return None


def pos_profile(tree: Node) -> tuple[int, int] | None:
    """``(T, P)`` such that for every position ``pos >= T`` the rule's verdict at
    ``pos + P`` equals its verdict at ``pos`` (for the same cards); ``None``
    when the syntax does not show it (positions are then kept exact)."""
    d = _profile(tree)
    if d is None or d.kind == "affine":
        return None
    return (max(d.t, 1), d.p)


# ---------------------------------------------------------------- symmetries

_RANK_PREDICATES: Final = {
    "face": lambda r: r > 10,
    "numeral": lambda r: r <= 10,
    "even": lambda r: r % 2 == 0,
    "odd": lambda r: r % 2 == 1,
    "prime": lambda r: r in (2, 3, 5, 7, 11, 13),
}
_COLOR_ADJECTIVES: Final = frozenset({"red", "black", "color"})


@dataclass(frozen=True, slots=True)
class Symmetry:
    """Permutations of ranks and of suits that no verdict of some rules can see.

    Any permutation of the ranks that maps each of :attr:`rank_blocks` onto
    itself, combined with any permutation of the suits that maps each of
    :attr:`suit_blocks` onto itself, applied to every card at once, leaves
    every verdict of the rules unchanged. A rule that only compares ranks for
    equality (``card.rank != prev.rank``) has one block of 13 ranks; a
    constant (``card.rank == 7``), a property (``prev is face``), an order
    (``<``) or arithmetic splits the blocks, down to single ranks.
    """

    rank_blocks: tuple[tuple[int, ...], ...]
    suit_blocks: tuple[tuple[Suit, ...], ...]

    @property
    def trivial(self) -> bool:
        """Whether no two ranks and no two suits may be exchanged."""
        return len(self.rank_blocks) == 13 and len(self.suit_blocks) == 4


def _with_parents(tree: Node) -> Iterator[tuple[Node, Node | None, Node | None]]:
    stack: list[tuple[Node, Node | None, Node | None]] = [(tree, None, None)]
    while stack:
        n, parent, grand = stack.pop()
        yield n, parent, grand
        stack.extend((c, n, parent) for c in n.children())


def _is_attr(node: Node, name: str) -> bool:
    return isinstance(node, Attr) and node.name == name and isinstance(node.obj, Ref | CardLit)


class _SymmetryScan:
    """Reads how rules use ranks and suits (see :func:`symmetry`)."""

    def __init__(self) -> None:
        self.rank_ok = True
        self.suit_ok = True
        self.rank_splits: list[Callable[[int], object]] = []
        self.suit_splits: list[Callable[[Suit], object]] = []

    def fix_rank(self, value: int) -> None:
        self.rank_splits.append(lambda r: r == value)

    def fix_suit(self, suit: Suit) -> None:
        self.suit_splits.append(lambda s: s is suit)

    def by_color(self) -> None:
        self.suit_splits.append(lambda s: s.color is Color.RED)

    def adjective(self, adj: str) -> None:
        if adj in _RANK_PREDICATES:
            self.rank_splits.append(_RANK_PREDICATES[adj])
        elif adj in _COLOR_ADJECTIVES:
            self.by_color()
        elif adj in SUIT_WORDS:
            self.fix_suit(SUIT_WORDS[adj])
        else:
            self.fix_rank(adjective_rank(adj))

    def peers(self, node: Node, parent: Node | None, grand: Node | None) -> list[Node] | None:
        """The values ``node`` is compared with for equality only (None: another use)."""
        if isinstance(parent, Cmp) and parent.op in ("==", "!="):
            return [parent.right if parent.left is node else parent.left]
        if isinstance(parent, SetLit | ListLit) and isinstance(grand, In):
            return [grand.elem, *(i for i in parent.items if i is not node)]
        if isinstance(parent, In) and parent.elem is node and isinstance(parent.coll,
                                                                           SetLit | ListLit):
            return list(parent.coll.items)
        if isinstance(parent, Case) and parent.subject is node:
            return [lit for lit, _ in parent.arms]
        return None

    def rank_use(self, node: Node, parent: Node | None, grand: Node | None) -> None:
        if isinstance(parent, Is):
            self.adjective(parent.adj)
            return
        if isinstance(parent, In) and isinstance(parent.coll, RangeLit):
            lo, hi = parent.coll.lo.value, parent.coll.hi.value
            self.rank_splits.append(lambda r: lo <= r <= hi)
            return
        peers = self.peers(node, parent, grand)
        if peers is None or not all(_is_attr(p, "rank") or isinstance(p, Num) for p in peers):
            self.rank_ok = False
            return
        for p in peers:
            if isinstance(p, Num):
                self.fix_rank(p.value)

    def suit_use(self, node: Node, parent: Node | None, grand: Node | None) -> None:
        if isinstance(parent, Is):
            self.adjective(parent.adj)
            return
        peers = self.peers(node, parent, grand)
        if peers is None or not all(_is_attr(p, "suit") or isinstance(p, SuitLit)
                                    for p in peers):
            self.suit_ok = False
            return
        for p in peers:
            if isinstance(p, SuitLit):
                self.fix_suit(p.suit)

    def card_use(self, node: Node, parent: Node | None, grand: Node | None) -> None:
        if isinstance(parent, Attr | Is):
            return  # the attribute or the adjective is read on its own
        peers = self.peers(node, parent, grand)
        if peers is None or not all(isinstance(p, Ref | CardLit) for p in peers):
            self.rank_ok = self.suit_ok = False

    def scan(self, tree: Node) -> None:
        for n, parent, grand in _with_parents(tree):
            if isinstance(n, CardLit):
                self.fix_rank(n.card.rank)
                self.fix_suit(n.card.suit)
            if isinstance(n, Ref):
                self.card_use(n, parent, grand)
            elif isinstance(n, Attr):
                if n.name == "rank":
                    self.rank_use(n, parent, grand)
                elif n.name == "suit":
                    self.suit_use(n, parent, grand)
                else:
                    self.adjective(n.name)
            elif isinstance(n, Is) and isinstance(n.obj, Ref | CardLit):
                self.adjective(n.adj)


def adjective_rank(adj: str) -> int:
    """The rank an ``is`` adjective names (``K`` -> 13, ``7`` -> 7)."""
    return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(adj.upper()) or int(adj)


def _blocks(values: Sequence[T], splits: Sequence[Callable[[T], object]]) -> tuple[
        tuple[T, ...], ...]:
    groups: dict[tuple[object, ...], list[T]] = {}
    for v in values:
        groups.setdefault(tuple(f(v) for f in splits), []).append(v)
    return tuple(tuple(g) for g in groups.values())


def symmetry(rules: Iterable[Rule]) -> Symmetry:
    """The rank and suit permutations under which every verdict of ``rules`` is
    the same (see :class:`Symmetry`), read from the syntax, conservatively:
    ranks may be exchanged only when every rank is compared for equality (with
    another rank or a constant, in a set, as a ``case`` subject) or tested by
    a property; likewise suits; whole cards only compared with cards."""
    scan = _SymmetryScan()
    for r in rules:
        scan.scan(r.ast)
    ranks = tuple(range(1, 14))
    suits = tuple(Suit)
    rank_blocks = _blocks(ranks, scan.rank_splits) if scan.rank_ok else tuple(
        (r,) for r in ranks)
    suit_blocks = _blocks(suits, scan.suit_splits) if scan.suit_ok else tuple(
        (s,) for s in suits)
    return Symmetry(rank_blocks, suit_blocks)


# ---------------------------------------------------------------- state space

#: ``(back, apos)``: card indices newest first, and the folded position.
State = tuple[tuple[int, ...], int]
#: What the verdicts in a state depend on (see :meth:`Space.key`).
Key = tuple[tuple[int, ...], int]


def _rep_table(attrs: Iterable[str]) -> list[int]:
    return list(_rep_tuple(frozenset(attrs)))


@functools.cache
def _rep_tuple(attrs: frozenset[str]) -> tuple[int, ...]:
    """:func:`representatives` as card indices (a few dozen attribute sets occur:
    remembered, since every comparison and analysis builds several)."""
    reps = representatives(attrs)
    return tuple(reps[c].index for c in ALL_CARDS)


def rule_reads(rules: Iterable[Rule]) -> list[set[str]]:
    """For slots 0..4, the attributes any of ``rules`` reads (see :func:`slot_attributes`)."""
    reads = [set[str]() for _ in range(5)]
    for r in rules:
        for k, attrs in enumerate(slot_attributes(r.ast)):
            reads[k] |= attrs
    return reads


class Space:
    """The reduced states of mainlines for a set of rules.

    A state is ``(back, apos)``: ``back`` holds the last cards newest first
    (``back[0]`` is the next ``prev``) as card indices, at most ``L`` of them,
    each replaced by the representative of its class for the slots it will
    still occupy; ``apos`` is the position of the next card, folded by ``T``
    and ``P``. Verdicts depend on even less (only what each slot is read for),
    so they are computed once per :meth:`key` for all candidate cards.
    :class:`Walk` visits the states breadth-first.

    Two uses build on it with different reductions, both exact for the rules'
    verdicts. ``compare`` and ``analyse`` want as few states as possible: the
    defaults reduce each slot to the very attributes read
    (:func:`slot_attributes`) and fold positions (:func:`pos_profile`).
    :func:`eleusis.rules.generate.explore` passes coarser ``reads`` (a slot
    read for ``face`` keeps its whole rank) and ``fold=False`` (exact
    positions): its states double as the witness mainlines on which
    :func:`~eleusis.rules.generate.distinguishes` tests *other* rules, which
    may read what this one does not, so more varied states separate more
    rules (and the generator's output, pinned by seed, depends on them).
    """

    def __init__(
        self,
        rules: Sequence[Rule],
        max_pos: int = POS_MAX,
        *,
        reads: Sequence[set[str]] | None = None,
        fold: bool = True,
    ) -> None:
        """``reads``: the attributes kept per slot 0..4 (default: what ``rules``
        read); ``fold``: fold positions by the rules' period (else keep them
        exact up to ``max_pos``)."""
        self.rules = tuple(rules)
        self.max_pos = max_pos
        self.depth = L = max((r.lookback for r in rules), default=0)
        if reads is None:
            reads = rule_reads(rules)
        #: rep[j][i]: the class of card i when it will still be read at slots j..L
        self.rep: list[list[int]] = [
            _rep_table(set().union(*reads[j : L + 1])) for j in range(L + 2)
        ]
        #: own[j][i]: the class of card i for what slot j alone reads
        self.own: list[list[int]] = [_rep_table(reads[j]) for j in range(L + 1)]
        self.candidates: tuple[int, ...] = tuple(dict.fromkeys(self.rep[0]))
        self.candidate_cards: tuple[Card, ...] = tuple(ALL_CARDS[i] for i in self.candidates)
        weights: dict[int, int] = {}
        masks: dict[int, int] = {}
        for card, i in enumerate(self.rep[0]):
            weights[i] = weights.get(i, 0) + 1
            masks[i] = masks.get(i, 0) | 1 << card
        #: how many of the 52 cards each candidate stands for
        self.weight = weights
        #: the cards each candidate stands for, as a 52-bit set (bit ``card.index``)
        self.members = masks
        self.uses_pos = any(r.uses_pos for r in rules)
        t, p = 1, 1
        if self.uses_pos and not fold:
            t = max_pos + 1
        elif self.uses_pos:
            for r in rules:
                prof = pos_profile(r.ast) if r.uses_pos else (1, 1)
                if prof is None:
                    t, p = max_pos + 1, 1
                    break
                t, p = max(t, prof[0]), math.lcm(p, prof[1])
            if t + p > max_pos + 1:
                t, p = max_pos + 1, 1
        self.t, self.p = t, p

    def fold(self, pos: int) -> int:
        """The representative position of ``pos``."""
        if not self.uses_pos:
            return 1
        if pos < self.t:
            return pos
        return self.t + (pos - self.t) % self.p

    def next_pos(self, apos: int) -> int:
        """The folded position after ``apos``."""
        if not self.uses_pos:
            return apos
        nxt = apos + 1
        return self.t if nxt >= self.t + self.p else nxt

    def start(self, mainline: Sequence[Card]) -> State:
        """The state after a concrete mainline."""
        L = self.depth
        tail = list(mainline[max(0, len(mainline) - L) :]) if L else []
        back = tuple(self.rep[j + 1][c.index] for j, c in enumerate(reversed(tail)))
        return back, self.fold(len(mainline) + 1)

    def key(self, state: State) -> Key:
        """What the verdicts in ``state`` depend on."""
        back, apos = state
        own = self.own
        return tuple(own[j + 1][b] for j, b in enumerate(back)), apos

    def slots(self, back: tuple[int, ...], card: int) -> tuple[Card | None, ...]:
        """The slots to judge card ``card`` after ``back`` (missing cards are None)."""
        pad = self.depth - len(back)
        cards = (ALL_CARDS[card], *(ALL_CARDS[b] for b in back))
        return (*cards, *((None,) * pad)) if pad else cards

    def verdicts(self, rule: Rule, key: Key) -> tuple[bool, ...]:
        """The rule's verdict on every candidate, in a state with this key."""
        back, apos = key
        pad = self.depth - len(back)
        cards = tuple(ALL_CARDS[b] for b in back) + (None,) * pad
        return rule.judge_all(self.candidate_cards, cards, apos)

    def tail(self, back: tuple[int, ...]) -> tuple[int, ...]:
        """The part of the next ``back`` that comes from the current one."""
        rep = self.rep
        return tuple(rep[j + 2][b] for j, b in enumerate(back[: self.depth - 1]))

    def estimate(self) -> int:
        """An upper bound on the number of states (for budgets)."""
        n = 1
        for j in range(1, self.depth + 1):
            n *= len(set(self.rep[j])) + 1
        positions = min(self.t - 1 + self.p, self.max_pos) if self.uses_pos else 1
        return n * positions


class OverBudget(Exception):
    """A :class:`Walk` needed more work than its budget allows."""


#: What a :class:`Walk` found in one verdict key, as ``(verdicts, moves,
#: weights)``: each rule's verdict on each of :attr:`Space.candidates`; per
#: class of next state, in card order, the first legal candidate (for the first
#: rule) leading there; with :attr:`Walk.record`, how many of the 52 cards each
#: move stands for (else empty). A plain tuple: one is built per key in the
#: searches' inner loop, and a named tuple's constructor costs there.
Judged = tuple[tuple[tuple[bool, ...], ...], tuple[int, ...], tuple[int, ...]]


class Walk:
    """Breadth-first over the states the first rule (the secret) can reach.

    Iterating yields ``(i, judged)`` for the ``i``-th state reached (``i``
    counts from 0, the state after ``mainline``), before its successors are
    added, so a search can stop at the first state it is after, and the path
    to it (:meth:`path`) is a shortest one. Verdicts are judged once per
    :meth:`Space.key`, for every rule, on the candidates.

    Limits: states ``plays`` plays after the start are judged but not expanded
    (None: no limit); ``max_states`` caps the states kept (moves to further
    ones are dropped and :attr:`complete` becomes False); ``budget`` bounds
    the work, counted as one unit per rule and candidate judged, plus, with
    ``count_moves``, one per move followed; beyond it :class:`OverBudget`.
    With ``record``, :attr:`moves` keeps each state's moves with their weights
    (for exact probabilities); without, the walk does only what a search needs.
    A walk is iterated once; :attr:`states` and :attr:`parents` grow as it goes.
    """

    def __init__(
        self,
        space: Space,
        rules: Sequence[Rule],
        mainline: Sequence[Card] = (),
        *,
        plays: int | None = None,
        max_states: int | None = None,
        budget: int | None = None,
        count_moves: bool = False,
        record: bool = False,
    ) -> None:
        self.space = space
        self.rules = tuple(rules)
        self.plays = plays
        self.max_states = max_states
        self.budget = budget
        self.count_moves = count_moves
        self.record = record
        start = space.start(mainline)
        #: the states reached, in breadth-first order
        self.states: list[State] = [start]
        self.index: dict[State, int] = {start: 0}
        #: (index of the state, candidate) each state was first reached from
        #: (None for the start)
        self.parents: list[tuple[int, int] | None] = [None]
        #: with ``record``, per state expanded so far: (next state, how many of
        #: the 52 cards lead there)
        self.moves: list[tuple[tuple[int, int], ...]] = []
        self.complete = True
        #: the work done so far, in the units of ``budget`` (updated as it goes)
        self.work = 0
        self._table: dict[Key, Judged] = {}

    def __iter__(self) -> Iterator[tuple[int, Judged]]:
        space = self.space
        states, index, parents = self.states, self.index, self.parents
        table, key_of, verdicts_of = self._table, space.key, space.verdicts
        tail, next_pos = space.tail, space.next_pos
        rules, candidates, weight = self.rules, space.candidates, space.weight
        rep1 = space.rep[1]
        deep = space.depth > 0
        plays = 1 << 62 if self.plays is None else self.plays
        cap = 1 << 62 if self.max_states is None else self.max_states
        record, recorded = self.record, self.moves
        count_moves = self.count_moves
        budget = 1 << 62 if self.budget is None else self.budget
        per_key = len(rules) * len(candidates)
        work = 0
        # Breadth-first, so states come in layers: those before ``layer_end``
        # are ``depth`` plays from the start.
        depth, layer_end = 0, 1
        i, n = 0, len(states)
        while i < n:
            if i == layer_end:
                depth, layer_end = depth + 1, n
            state = states[i]
            key = key_of(state)
            judged = table.get(key)
            if judged is None:
                work += per_key
                if work > budget:
                    raise OverBudget
                # (unrolled for the usual one or two rules: cheaper than a comprehension)
                if len(rules) == 1:
                    verdicts: tuple[tuple[bool, ...], ...] = (verdicts_of(rules[0], key),)
                elif len(rules) == 2:
                    verdicts = (verdicts_of(rules[0], key), verdicts_of(rules[1], key))
                else:
                    verdicts = tuple([verdicts_of(rule, key) for rule in rules])
                firsts: dict[int, int] = {}
                for c, ok in zip(candidates, verdicts[0], strict=True):
                    if ok and rep1[c] not in firsts:
                        firsts[rep1[c]] = c
                weights: tuple[int, ...] = ()
                if record:
                    counts = dict.fromkeys(firsts, 0)
                    for c, ok in zip(candidates, verdicts[0], strict=True):
                        if ok:
                            counts[rep1[c]] += weight[c]
                    weights = tuple(counts.values())
                judged = table[key] = (verdicts, tuple(firsts.values()), weights)
            self.work = work
            yield i, judged
            moves = judged[1]
            if not moves or depth >= plays:
                if record:
                    recorded.append(())
                i += 1
                continue
            if count_moves:
                work += len(moves)
                if work > budget:
                    raise OverBudget
            back, apos = state
            rest = tail(back) if deep else ()
            napos = next_pos(apos)
            if record:
                out: list[tuple[int, int]] = []
                for c, w in zip(moves, judged[2], strict=True):
                    nxt = ((rep1[c], *rest) if deep else (), napos)
                    target = index.get(nxt)
                    if target is None:
                        if n >= cap:
                            self.complete = False
                            continue
                        target = index[nxt] = n
                        n += 1
                        states.append(nxt)
                        parents.append((i, c))
                    out.append((target, w))
                recorded.append(tuple(out))
            else:
                for c in moves:
                    nxt = ((rep1[c], *rest) if deep else (), napos)
                    if nxt not in index:
                        if n >= cap:
                            self.complete = False
                            continue
                        index[nxt] = n
                        n += 1
                        states.append(nxt)
                        parents.append((i, c))
            i += 1

    def path(self, i: int) -> tuple[Card, ...]:
        """The cards played from the start to state ``i`` (candidates, in order)."""
        cards: list[Card] = []
        step = self.parents[i]
        while step is not None:
            i, card = step
            cards.append(ALL_CARDS[card])
            step = self.parents[i]
        return tuple(reversed(cards))


__all__ = [
    "POS_MAX",
    "Judged",
    "Key",
    "OverBudget",
    "Space",
    "State",
    "Symmetry",
    "Walk",
    "adjective_attribute",
    "pos_profile",
    "representatives",
    "rule_reads",
    "slot_attributes",
    "symmetry",
]
