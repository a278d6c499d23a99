"""Compiling a checked syntax tree into fast Python closures (never ``eval``).

A compiled rule is a function ``f(slots, pos)``: ``slots[0]`` is the judged
card, ``slots[k]`` is ``prevK`` or ``None`` when the mainline is shorter than
``k`` cards, and ``pos`` is the 1-based position the card would take.

Semantics (the design's ``rule-language.md``, with the choices it leaves open):

* Evaluation is lazy and left to right (``and``, ``or``, ``if``, ``case``
  evaluate only what they need). Touching a missing ``prevK`` raises
  :class:`Missing`, and :meth:`Rule.accepts` then *accepts* the card: the
  dealer has not constrained that position.
* An undefined value (``x % 0`` reached at run time, ``next(x, [...])`` when
  ``x`` is not in the list) raises :class:`RuleEvalError`, and the card is
  *rejected*. Whichever of the two happens first decides, so the verdict is
  always a deterministic function of the mainline and the card.
* ``%`` is Python's floor modulo (the result has the sign of the divisor),
  ``//`` its floor division (``-7 // 2`` is -4; ``x // 0`` is undefined),
  ``gcd`` the greatest common divisor of the absolute values (``gcd(0, 0)``
  is 0), ``n is prime`` on a number the usual primality (2, 3, 5, 7, 11...),
  ``wrap(n)`` is ``(n - 1) % 13 + 1``, ``pick(n, L)`` is ``L[(n - 1) % len(L)]``
  and ``next(x, L)`` is the item after the first occurrence of ``x``,
  cyclically.
* ``x in {a, b, c}`` is ``x == a or x == b or x == c``: the items of a set
  are evaluated left to right and only until one matches, so a missing
  ``prevK`` among them accepts the card only when no earlier item matched.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import Any, Final

from eleusis.cards import Card, Color, Suit
from eleusis.rules.errors import RuleEvalError
from eleusis.rules.syntax import (
    RANK_LETTERS,
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

Slots = Sequence[Card | None]
Fn = Callable[[Slots, int], Any]


class Missing(Exception):
    """A rule touched ``prevK`` on a mainline shorter than K cards."""


_CMP: Final[dict[str, Callable[[Any, Any], bool]]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}

_PRIMES: Final = frozenset({2, 3, 5, 7, 11, 13})
_RED: Final = (Suit.HEARTS, Suit.DIAMONDS)
_H: Final = Suit.HEARTS
_D: Final = Suit.DIAMONDS
_RED_COLOR: Final = Color.RED
_BLACK_COLOR: Final = Color.BLACK

#: Card attributes computed from the slotted fields directly (the properties of
#: :class:`Card` chain through the suit and are several times slower).
ATTRIBUTE_GETTERS: Final[dict[str, Callable[[Card], Any]]] = {
    "rank": lambda c: c.rank,
    "suit": lambda c: c.suit,
    "color": lambda c: _RED_COLOR if c.suit is _H or c.suit is _D else _BLACK_COLOR,
    "red": lambda c: c.suit is _H or c.suit is _D,
    "black": lambda c: not (c.suit is _H or c.suit is _D),
    "face": lambda c: c.rank > 10,
    "numeral": lambda c: c.rank <= 10,
    "even": lambda c: c.rank % 2 == 0,
    "odd": lambda c: c.rank % 2 == 1,
    "prime": lambda c: c.rank in _PRIMES,
}


def card_attr(card: Card, name: str) -> Any:
    """The value of a card attribute (``rank``, ``suit``, ``color``, ``red``...)."""
    return ATTRIBUTE_GETTERS[name](card)


def adjective_test(adj: str) -> Callable[[Any], bool]:
    """A predicate for ``x is adj`` on a card, a number, a suit or a color."""
    if adj in ("red", "black"):
        want_red = adj == "red"

        def color_test(x: Any) -> bool:
            if isinstance(x, Card):
                return (x.suit in _RED) == want_red
            if isinstance(x, Suit):
                return (x in _RED) == want_red
            return (x is Color.RED) == want_red

        return color_test
    if adj in ("even", "odd"):
        rem = 0 if adj == "even" else 1
        return lambda x: (x.rank if isinstance(x, Card) else x) % 2 == rem
    if adj == "face":
        return lambda x: bool(x.rank >= 11)
    if adj == "numeral":
        return lambda x: bool(x.rank <= 10)
    if adj == "prime":
        return lambda x: x.rank in _PRIMES if isinstance(x, Card) else is_prime(x)
    if adj in SUIT_WORDS:
        suit = SUIT_WORDS[adj]
        return lambda x: (x.suit if isinstance(x, Card) else x) is suit
    rank = RANK_LETTERS.get(adj.lower()) or int(adj)
    return lambda x: bool(x.rank == rank)


_WITNESSES: Final = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)


def is_prime(n: int) -> bool:
    """Whether the whole number ``n`` is prime (2, 3, 5, 7, 11, ...; never below 2).

    Miller-Rabin with the first twelve primes as witnesses: exact for every
    ``n`` below 3.3 * 10**24, far beyond any value a rule of 150 parts with
    numbers up to 1000 is likely to reach, and fast for any size.

    >>> [n for n in range(-3, 30) if is_prime(n)]
    [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
    """
    if n < 2:
        return False
    for p in _WITNESSES:
        if n % p == 0:
            return n == p
    d, r = n - 1, 0
    while d % 2 == 0:
        d //= 2
        r += 1
    for a in _WITNESSES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


#: Bumped by every entry point (one verdict, or one batch of cards judged after
#: the same mainline): a hoisted subexpression is recomputed once per epoch.
EPOCH: Final[list[int]] = [0]

_HOIST_COST: Final = 4  # cheaper card-independent parts are not worth caching
_hoisted: set[int] = set()


def compile_rule(tree: Node) -> Fn:
    """Compile a checked tree to a closure ``f(slots, pos)``.

    The largest parts that do not read ``card`` (``(prev.rank * prev2.rank) %
    4``) are *hoisted*: computed once per :data:`EPOCH` and reused, so judging
    all 52 cards after one mainline evaluates them once. The caller must bump
    the epoch whenever the looked-back cards or the position change.
    """
    global _hoisted
    _hoisted = _maximal_static(tree)
    try:
        return _c(tree)
    finally:
        _hoisted = set()


def _reads_card(node: Node) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Ref) and n.k == 0:
            return True
        stack.extend(n.children())
    return False


def _cost(node: Node) -> int:
    if isinstance(node, Num | BoolLit | SuitLit | ColorLit | CardLit | ListLit | RangeLit):
        return 0
    if isinstance(node, SetLit):  # its computed items count, not the set itself
        return sum(_cost(c) for c in node.children())
    return 1 + sum(_cost(c) for c in node.children())


def _maximal_static(tree: Node) -> set[int]:
    """Ids of the largest subtrees that do not read ``card`` and cost enough."""
    found: set[int] = set()
    stack = [tree]
    while stack:
        n = stack.pop()
        if not _reads_card(n):
            if _cost(n) >= _HOIST_COST:
                found.add(id(n))
            continue
        stack.extend(n.children())
    return found


def _cached(fn: Fn) -> Fn:
    """``fn`` computed once per epoch (its exceptions too: the same kind recurs,
    raised afresh so no traceback grows)."""
    cell: list[Any] = [-1, None, None]  # epoch, value, exception type
    epoch = EPOCH

    def cached(s: Slots, p: int) -> Any:
        e = epoch[0]
        if cell[0] == e:
            if cell[2] is not None:
                raise cell[2]()
            return cell[1]
        try:
            value = fn(s, p)
        except (Missing, ArithmeticError) as exc:
            cell[0], cell[1], cell[2] = e, None, type(exc)
            raise
        cell[0], cell[1], cell[2] = e, value, None
        return value

    return cached


def _ref(k: int) -> Fn:
    def ref(s: Slots, p: int) -> Card:
        c = s[k]
        if c is None:
            raise Missing
        return c

    return ref


def _attr_of_ref(k: int, name: str) -> Fn:
    if name == "rank":

        def rank(s: Slots, p: int) -> int:
            c = s[k]
            if c is None:
                raise Missing
            return c.rank

        return rank
    if name == "suit":

        def suit(s: Slots, p: int) -> Suit:
            c = s[k]
            if c is None:
                raise Missing
            return c.suit

        return suit
    if name == "color":

        def color(s: Slots, p: int) -> Color:
            c = s[k]
            if c is None:
                raise Missing
            su = c.suit
            return _RED_COLOR if su is _H or su is _D else _BLACK_COLOR

        return color
    getter = ATTRIBUTE_GETTERS[name]

    def attr(s: Slots, p: int) -> Any:
        c = s[k]
        if c is None:
            raise Missing
        return getter(c)

    return attr


def _const(value: Any) -> Fn:
    return lambda s, p: value


def _literal_value(node: Node) -> Any:
    if isinstance(node, Num):
        return node.value
    if isinstance(node, BoolLit):
        return node.value
    if isinstance(node, SuitLit):
        return node.suit
    if isinstance(node, ColorLit):
        return node.color
    if isinstance(node, CardLit):
        return node.card
    raise TypeError(f"not a literal: {node!r}")


def _c(node: Node) -> Fn:
    fn = _compile(node)
    if id(node) in _hoisted:
        return _cached(fn)
    return fn


def _compile(node: Node) -> Fn:
    if isinstance(node, Num | BoolLit | SuitLit | ColorLit | CardLit):
        return _const(_literal_value(node))
    if isinstance(node, Ref):
        return _ref(node.k)
    if isinstance(node, Pos):
        return lambda s, p: p
    if isinstance(node, Attr):
        if isinstance(node.obj, Ref):
            return _attr_of_ref(node.obj.k, node.name)
        obj = _c(node.obj)
        get = ATTRIBUTE_GETTERS[node.name]
        return lambda s, p: get(obj(s, p))
    if isinstance(node, Is):
        return _is(node)
    if isinstance(node, Neg):
        operand = _c(node.operand)
        return lambda s, p: -operand(s, p)
    if isinstance(node, Arith):
        return _arith(node)
    if isinstance(node, Cmp):
        return _cmp(node)
    if isinstance(node, In):
        return _in(node)
    if isinstance(node, Not):
        operand = _c(node.operand)
        return lambda s, p: not operand(s, p)
    if isinstance(node, And):
        return _and([_c(i) for i in node.items])
    if isinstance(node, Or):
        return _or([_c(i) for i in node.items])
    if isinstance(node, If):
        return _if([(_c(c), _c(t)) for c, t in node.arms], _c(node.other))
    if isinstance(node, Case):
        return _case(node)
    if isinstance(node, Call):
        return _call(node)
    raise TypeError(f"cannot evaluate {type(node).__name__} here")


def _is(node: Is) -> Fn:
    obj = _c(node.obj)
    negated = node.negated
    if isinstance(node.obj, Ref) and node.adj in ("red", "black"):
        k, want = node.obj.k, (node.adj == "red") != negated

        def is_red(s: Slots, p: int) -> bool:
            c = s[k]
            if c is None:
                raise Missing
            return (c.suit in _RED) == want

        return is_red
    test = adjective_test(node.adj)
    if negated:
        return lambda s, p: not test(obj(s, p))
    return lambda s, p: test(obj(s, p))


def _arith(node: Arith) -> Fn:
    left, right = _c(node.left), _c(node.right)
    if node.op == "+":
        if isinstance(node.right, Num):
            k = node.right.value
            return lambda s, p: left(s, p) + k
        return lambda s, p: left(s, p) + right(s, p)
    if node.op == "-":
        if isinstance(node.right, Num):
            k = node.right.value
            return lambda s, p: left(s, p) - k
        return lambda s, p: left(s, p) - right(s, p)
    if node.op == "*":
        return lambda s, p: left(s, p) * right(s, p)
    if node.op == "//":
        if isinstance(node.right, Num) and node.right.value != 0:
            d = node.right.value
            return lambda s, p: left(s, p) // d

        def div(s: Slots, p: int) -> int:
            a = left(s, p)
            b = right(s, p)
            if b == 0:
                raise RuleEvalError("// 0")
            return int(a // b)

        return div
    if isinstance(node.right, Num) and node.right.value != 0:
        m = node.right.value
        return lambda s, p: left(s, p) % m

    def mod(s: Slots, p: int) -> int:
        a = left(s, p)
        b = right(s, p)
        if b == 0:
            raise RuleEvalError("% 0")
        return int(a % b)

    return mod


def _cards_equal(a: Card, b: Card) -> bool:
    return a.rank == b.rank and a.suit is b.suit


def _slot_pair(node: Cmp) -> Fn | None:
    """Fast paths for ``card == prev`` and ``card.suit != prev.suit`` style tests."""
    left, right, eq = node.left, node.right, node.op == "=="
    if isinstance(left, Ref) and isinstance(right, Ref):
        i, j = left.k, right.k

        def same_card(s: Slots, p: int) -> bool:
            a = s[i]
            if a is None:
                raise Missing
            b = s[j]
            if b is None:
                raise Missing
            return (a.rank == b.rank and a.suit is b.suit) == eq

        return same_card
    if (isinstance(left, Attr) and isinstance(right, Attr) and left.name == right.name
            and left.name in ("rank", "suit") and isinstance(left.obj, Ref)
            and isinstance(right.obj, Ref)):
        i, j = left.obj.k, right.obj.k
        if left.name == "rank":

            def same_rank(s: Slots, p: int) -> bool:
                a = s[i]
                if a is None:
                    raise Missing
                b = s[j]
                if b is None:
                    raise Missing
                return (a.rank == b.rank) == eq

            return same_rank

        def same_suit(s: Slots, p: int) -> bool:
            a = s[i]
            if a is None:
                raise Missing
            b = s[j]
            if b is None:
                raise Missing
            return (a.suit is b.suit) == eq

        return same_suit
    return None


def _cmp(node: Cmp) -> Fn:
    op = _CMP[node.op]
    if node.op in ("==", "!="):
        fast = _slot_pair(node)
        if fast is not None:
            return fast
    left = _c(node.left)
    if node.op in ("==", "!=") and isinstance(node.left, Ref | CardLit) and isinstance(
        node.right, Ref | CardLit
    ):
        right_card = _c(node.right)
        if node.op == "==":
            return lambda s, p: _cards_equal(left(s, p), right_card(s, p))
        return lambda s, p: not _cards_equal(left(s, p), right_card(s, p))
    if isinstance(node.right, Num | SuitLit | ColorLit | BoolLit):
        k = _literal_value(node.right)
        if node.op == "==":
            return lambda s, p: left(s, p) == k
        if node.op == "!=":
            return lambda s, p: left(s, p) != k
        return lambda s, p: op(left(s, p), k)
    right = _c(node.right)
    if node.op == "==":
        return lambda s, p: left(s, p) == right(s, p)
    if node.op == "!=":
        return lambda s, p: left(s, p) != right(s, p)
    return lambda s, p: op(left(s, p), right(s, p))


def _in(node: In) -> Fn:
    elem = _c(node.elem)
    neg = node.negated
    coll = node.coll
    if isinstance(coll, RangeLit):
        lo, hi = coll.lo.value, coll.hi.value
        if neg:
            return lambda s, p: not lo <= elem(s, p) <= hi
        return lambda s, p: lo <= elem(s, p) <= hi
    if isinstance(coll, SetLit) and not all(isinstance(i, _LITERALS) for i in coll.items):
        return _in_values(elem, tuple(_c(i) for i in coll.items), neg)
    if isinstance(coll, SetLit | ListLit):
        values = [_literal_value(i) for i in coll.items]
        pool: Any = frozenset(values) if not isinstance(values[0], Card) else tuple(values)
        if neg:
            return lambda s, p: elem(s, p) not in pool
        return lambda s, p: elem(s, p) in pool
    raise TypeError("'in' needs a set, range or list")


_LITERALS: Final = (Num, BoolLit, SuitLit, ColorLit, CardLit)


def _in_values(elem: Fn, items: tuple[Fn, ...], neg: bool) -> Fn:
    """``x in {a, b, ...}`` with computed items: ``x == a or x == b ...``, lazily."""

    def member(s: Slots, p: int) -> bool:
        x = elem(s, p)
        for item in items:
            if item(s, p) == x:
                return not neg
        return neg

    return member


def _and(items: list[Fn]) -> Fn:
    if len(items) == 2:
        a, b = items
        return lambda s, p: bool(a(s, p)) and bool(b(s, p))
    if len(items) == 3:
        a, b, c = items
        return lambda s, p: bool(a(s, p)) and bool(b(s, p)) and bool(c(s, p))
    fns = tuple(items)

    def all_(s: Slots, p: int) -> bool:
        for f in fns:  # noqa: SIM110 - a plain loop is twice as fast as all(generator)
            if not f(s, p):
                return False
        return True

    return all_


def _or(items: list[Fn]) -> Fn:
    if len(items) == 2:
        a, b = items
        return lambda s, p: bool(a(s, p)) or bool(b(s, p))
    if len(items) == 3:
        a, b, c = items
        return lambda s, p: bool(a(s, p)) or bool(b(s, p)) or bool(c(s, p))
    fns = tuple(items)

    def any_(s: Slots, p: int) -> bool:
        for f in fns:  # noqa: SIM110 - a plain loop is twice as fast as any(generator)
            if f(s, p):
                return True
        return False

    return any_


def _if(arms: list[tuple[Fn, Fn]], other: Fn) -> Fn:
    if len(arms) == 1:
        (cond, then), = arms
        return lambda s, p: then(s, p) if cond(s, p) else other(s, p)

    def if_(s: Slots, p: int) -> Any:
        for c, t in arms:
            if c(s, p):
                return t(s, p)
        return other(s, p)

    return if_


def _case(node: Case) -> Fn:
    subject = _c(node.subject)
    table: dict[Any, Fn] = {}
    for lit, then in node.arms:
        table.setdefault(_literal_value(lit), _c(then))
    other = _c(node.other)

    def case(s: Slots, p: int) -> Any:
        return table.get(subject(s, p), other)(s, p)

    return case


def _call(node: Call) -> Fn:
    args = [_c(a) for a in node.args if not isinstance(a, ListLit)]
    name = node.name
    if name == "abs":
        (a,) = args
        return lambda s, p: abs(a(s, p))
    if name == "wrap":
        (a,) = args
        return lambda s, p: (a(s, p) - 1) % 13 + 1
    if name in ("min", "max"):
        fold = min if name == "min" else max
        return lambda s, p: fold(f(s, p) for f in args)
    if name == "gcd":
        return lambda s, p: math.gcd(*(f(s, p) for f in args))
    lst = node.args[1]
    assert isinstance(lst, ListLit)
    values = tuple(_literal_value(i) for i in lst.items)
    n = len(values)
    first = args[0]
    if name == "pick":
        return lambda s, p: values[(first(s, p) - 1) % n]
    after: dict[Any, Any] = {}
    for i, v in enumerate(values):
        after.setdefault(v, values[(i + 1) % n])

    def next_(s: Slots, p: int) -> Any:
        x = first(s, p)
        try:
            return after[x]
        except KeyError:
            raise RuleEvalError(f"{x} is not in the list given to next") from None

    return next_
