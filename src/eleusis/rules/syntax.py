"""The syntax tree of the secret-rule language, its limits and its value types.

Every node is a frozen, slotted dataclass: equal when the structure is equal
and hashable, so two rules compare by their canonical form. The source offset
``at`` of a node is kept only for error messages and takes no part in
equality or hashing.

The tree is the only representation the rest of the package works on: the
printer (:mod:`eleusis.rules.printer`) writes it back as canonical text, the
compiler (:mod:`eleusis.rules.evaluate`) turns it into closures, the English
writer (:mod:`eleusis.rules.english`) says it in a sentence.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from eleusis.cards import Card, Color, Suit

#: Longest rule text accepted, in characters.
MAX_CHARS: Final = 600
#: Most syntax-tree nodes in one rule (literals in sets and lists count one each).
MAX_NODES: Final = 150
#: Deepest nesting, both while reading (parentheses, ``not``, ``-``, ``if``,
#: calls) and as the height of the finished tree.
MAX_DEPTH: Final = 24
#: ``prev4`` is the furthest card a rule may look back at.
MAX_LOOKBACK: Final = 4
#: Largest integer literal.
MAX_INT: Final = 1000
#: Most items in a list literal (``next``, ``pick``, ``in [...]``) and most
#: arguments of a call: a cycle of ranks or suits is never longer.
MAX_ITEMS: Final = 13
#: Most items in a set (``in {...}``): enough for a set of positions, such as
#: the 46 primes up to :data:`~eleusis.rules.abstract.POS_MAX`.
MAX_SET_ITEMS: Final = 60

#: Card attributes and the type of their value.
ATTRIBUTES: Final[dict[str, str]] = {
    "rank": "int",
    "suit": "suit",
    "color": "color",
    "red": "bool",
    "black": "bool",
    "face": "bool",
    "numeral": "bool",
    "even": "bool",
    "odd": "bool",
    "prime": "bool",
}

#: Functions and how many arguments they take (min, max).
FUNCTIONS: Final[dict[str, tuple[int, int]]] = {
    "abs": (1, 1),
    "min": (2, 13),
    "max": (2, 13),
    "wrap": (1, 1),
    "next": (2, 2),
    "pick": (2, 2),
    "gcd": (2, 13),
}

#: Rank letters and their value (A=1, J=11, Q=12, K=13).
RANK_LETTERS: Final[dict[str, int]] = {"a": 1, "j": 11, "q": 12, "k": 13}
RANK_CODES: Final[dict[int, str]] = {1: "A", 11: "J", 12: "Q", 13: "K"}

SUIT_WORDS: Final[dict[str, Suit]] = {s.noun: s for s in Suit}
COLOR_WORDS: Final[dict[str, Color]] = {c.value: c for c in Color}


@dataclass(frozen=True, slots=True)
class Node:
    """Base of every syntax node; ``at`` is the 0-based source offset."""

    at: int = field(default=0, compare=False, repr=False, kw_only=True)

    def children(self) -> Iterator[Node]:
        """The direct sub-nodes, left to right."""
        return iter(())


# ---------------------------------------------------------------- literals


@dataclass(frozen=True, slots=True)
class Num(Node):
    """An integer; ``letter`` when written as a rank letter (``A J Q K``)."""

    value: int
    letter: bool = False


@dataclass(frozen=True, slots=True)
class BoolLit(Node):
    """``true`` or ``false``."""

    value: bool


@dataclass(frozen=True, slots=True)
class SuitLit(Node):
    """``spades``, ``hearts``, ``diamonds``, ``clubs`` (or a glyph)."""

    suit: Suit


@dataclass(frozen=True, slots=True)
class ColorLit(Node):
    """``red`` or ``black``."""

    color: Color


@dataclass(frozen=True, slots=True)
class CardLit(Node):
    """A card such as ``7H`` or ``Q♠``."""

    card: Card


# ---------------------------------------------------------------- what a rule sees


@dataclass(frozen=True, slots=True)
class Ref(Node):
    """``card`` (k = 0) or ``prev``, ``prev2``, ``prev3``, ``prev4`` (k = 1..4)."""

    k: int


@dataclass(frozen=True, slots=True)
class Pos(Node):
    """``pos``: the 1-based position the judged card would take."""


# ---------------------------------------------------------------- operators


@dataclass(frozen=True, slots=True)
class Attr(Node):
    """``obj.name`` for a card attribute."""

    obj: Node
    name: str

    def children(self) -> Iterator[Node]:
        yield self.obj


@dataclass(frozen=True, slots=True)
class Is(Node):
    """``obj is [not] adj``; ``adj`` is an attribute (``face``), a color
    (``red``), a suit noun (``hearts``) or a rank code (``K``, ``7``)."""

    obj: Node
    adj: str
    negated: bool = False

    def children(self) -> Iterator[Node]:
        yield self.obj


@dataclass(frozen=True, slots=True)
class Neg(Node):
    """Unary minus."""

    operand: Node

    def children(self) -> Iterator[Node]:
        yield self.operand


@dataclass(frozen=True, slots=True)
class Arith(Node):
    """``+ - * % //`` on integers (``%`` and ``//`` are Python's floor modulo
    and floor division)."""

    op: str
    left: Node
    right: Node

    def children(self) -> Iterator[Node]:
        yield self.left
        yield self.right


@dataclass(frozen=True, slots=True)
class Cmp(Node):
    """``== != < <= > >=``."""

    op: str
    left: Node
    right: Node

    def children(self) -> Iterator[Node]:
        yield self.left
        yield self.right


@dataclass(frozen=True, slots=True)
class In(Node):
    """``elem [not] in coll`` where ``coll`` is a set, range or list."""

    elem: Node
    coll: Node
    negated: bool = False

    def children(self) -> Iterator[Node]:
        yield self.elem
        yield self.coll


@dataclass(frozen=True, slots=True)
class Not(Node):
    """``not operand``."""

    operand: Node

    def children(self) -> Iterator[Node]:
        yield self.operand


@dataclass(frozen=True, slots=True)
class And(Node):
    """``a and b and ...`` (two or more items, lazy, left to right)."""

    items: tuple[Node, ...]

    def children(self) -> Iterator[Node]:
        yield from self.items


@dataclass(frozen=True, slots=True)
class Or(Node):
    """``a or b or ...`` (two or more items, lazy, left to right)."""

    items: tuple[Node, ...]

    def children(self) -> Iterator[Node]:
        yield from self.items


@dataclass(frozen=True, slots=True)
class If(Node):
    """``if c1 then e1 elif c2 then e2 ... else other``."""

    arms: tuple[tuple[Node, Node], ...]
    other: Node

    def children(self) -> Iterator[Node]:
        for cond, then in self.arms:
            yield cond
            yield then
        yield self.other


@dataclass(frozen=True, slots=True)
class Case(Node):
    """``case subject when lit then e ... else other`` (first match wins)."""

    subject: Node
    arms: tuple[tuple[Node, Node], ...]
    other: Node

    def children(self) -> Iterator[Node]:
        yield self.subject
        for lit, then in self.arms:
            yield lit
            yield then
        yield self.other


@dataclass(frozen=True, slots=True)
class Call(Node):
    """``abs min max wrap next pick gcd`` applied to arguments."""

    name: str
    args: tuple[Node, ...]

    def children(self) -> Iterator[Node]:
        yield from self.args


@dataclass(frozen=True, slots=True)
class SetLit(Node):
    """``{a, b, ...}``: membership only, order kept for printing. Items are
    literals or values read from the cards (``{prev.suit, prev2.suit}``)."""

    items: tuple[Node, ...]

    def children(self) -> Iterator[Node]:
        yield from self.items


@dataclass(frozen=True, slots=True)
class RangeLit(Node):
    """``lo..hi``: the integers from lo to hi inclusive."""

    lo: Num
    hi: Num

    def children(self) -> Iterator[Node]:
        yield self.lo
        yield self.hi


@dataclass(frozen=True, slots=True)
class ListLit(Node):
    """``[lit, lit, ...]``: ordered, for ``next``, ``pick`` and ``in``."""

    items: tuple[Node, ...]

    def children(self) -> Iterator[Node]:
        yield from self.items


LITERALS: Final = (Num, BoolLit, SuitLit, ColorLit, CardLit)


def walk(node: Node) -> Iterator[Node]:
    """Every node of the tree, parent before children."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(list(n.children())))


def count_nodes(node: Node) -> int:
    """How many nodes the tree has."""
    return sum(1 for _ in walk(node))


def height(node: Node) -> int:
    """The tree's height (a lone literal has height 1); iterative, no recursion."""
    best = 0
    stack: list[tuple[Node, int]] = [(node, 1)]
    while stack:
        n, d = stack.pop()
        best = max(best, d)
        stack.extend((c, d + 1) for c in n.children())
    return best


def deepest(node: Node) -> Node:
    """A node at the greatest depth (for pointing an error at it)."""
    best: tuple[int, Node] = (0, node)
    stack: list[tuple[Node, int]] = [(node, 1)]
    while stack:
        n, d = stack.pop()
        if d > best[0]:
            best = (d, n)
        stack.extend((c, d + 1) for c in n.children())
    return best[1]


def lookback(node: Node) -> int:
    """The furthest ``prevK`` the rule reads (0 when it reads only ``card``)."""
    return max((n.k for n in walk(node) if isinstance(n, Ref)), default=0)


def uses_pos(node: Node) -> bool:
    """Whether ``pos`` appears in the rule."""
    return any(isinstance(n, Pos) for n in walk(node))
