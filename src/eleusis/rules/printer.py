"""The one canonical printer: syntax tree -> rule text, ``parse(print(t)) == t``.

Canonical text is one line, single spaces around binary operators, keywords in
lowercase, rank letters (``A J Q K``) and card codes (``10H``, ``QS``) in
uppercase, suits as nouns (``hearts``), and parentheses only where the grammar
needs them. A parenthesised chain inside a chain of the same operator
(``a or (b or c)``) keeps its parentheses, because the parser keeps it as a
separate node: the printer never changes the tree it prints.
"""

from __future__ import annotations

from typing import Final

from eleusis.rules.syntax import (
    RANK_CODES,
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

# Binding strength: a child printed where a stronger level is required gets
# parentheses.
EXPR: Final = 0
OR: Final = 1
AND: Final = 2
NOT: Final = 3
CMP: Final = 4
SUM: Final = 5
PRODUCT: Final = 6
UNARY: Final = 7
POSTFIX: Final = 8
ATOM: Final = 9

_REF_NAMES: Final = {0: "card", 1: "prev", 2: "prev2", 3: "prev3", 4: "prev4"}


def level(node: Node) -> int:
    """How tightly the node's own syntax binds."""
    if isinstance(node, If | Case):
        return EXPR
    if isinstance(node, Or):
        return OR
    if isinstance(node, And):
        return AND
    if isinstance(node, Not):
        return NOT
    if isinstance(node, Cmp | In | Is):
        return CMP
    if isinstance(node, Arith):
        return SUM if node.op in "+-" else PRODUCT
    if isinstance(node, Neg):
        return UNARY
    if isinstance(node, Attr):
        return POSTFIX
    if isinstance(node, Num) and node.value < 0:
        return UNARY
    return ATOM


def to_text(node: Node) -> str:
    """The canonical text of a tree."""
    return _p(node, EXPR)


def _p(node: Node, need: int) -> str:
    text = _bare(node)
    return f"({text})" if level(node) < need else text


def literal_text(node: Node) -> str:
    """A literal as written in canonical text (``K``, ``-3``, ``hearts``, ``10H``)."""
    if isinstance(node, Num):
        if node.letter and node.value in RANK_CODES:
            return RANK_CODES[node.value]
        return str(node.value)
    if isinstance(node, BoolLit):
        return "true" if node.value else "false"
    if isinstance(node, SuitLit):
        return node.suit.noun
    if isinstance(node, ColorLit):
        return node.color.value
    if isinstance(node, CardLit):
        return node.card.code
    raise TypeError(f"not a literal: {node!r}")


def _set_item(node: Node) -> str:
    text = _p(node, SUM)
    if isinstance(node, Neg) and isinstance(node.operand, Num) and not node.operand.letter:
        return f"({text})"  # '{-3}' reads as the constant -3, not as minus 3
    return text


def _bare(node: Node) -> str:
    if isinstance(node, Num | BoolLit | SuitLit | ColorLit | CardLit):
        return literal_text(node)
    if isinstance(node, Ref):
        return _REF_NAMES[node.k]
    if isinstance(node, Pos):
        return "pos"
    if isinstance(node, Attr):
        return f"{_p(node.obj, POSTFIX)}.{node.name}"
    if isinstance(node, Neg):
        inner = _p(node.operand, UNARY)
        if inner.startswith("-"):
            return f"- {inner}"  # never print '--', which starts a comment
        return f"-{inner}"
    if isinstance(node, Arith):
        right_need = SUM + 1 if node.op in "+-" else PRODUCT + 1
        left_need = SUM if node.op in "+-" else PRODUCT
        return f"{_p(node.left, left_need)} {node.op} {_p(node.right, right_need)}"
    if isinstance(node, Cmp):
        return f"{_p(node.left, SUM)} {node.op} {_p(node.right, SUM)}"
    if isinstance(node, In):
        word = "not in" if node.negated else "in"
        return f"{_p(node.elem, SUM)} {word} {_p(node.coll, SUM)}"
    if isinstance(node, Is):
        word = "is not" if node.negated else "is"
        return f"{_p(node.obj, SUM)} {word} {node.adj}"
    if isinstance(node, Not):
        return f"not {_p(node.operand, NOT)}"
    if isinstance(node, And):
        return " and ".join(_p(item, NOT) for item in node.items)
    if isinstance(node, Or):
        return " or ".join(_p(item, AND) for item in node.items)
    if isinstance(node, If):
        parts = []
        for i, (cond, then) in enumerate(node.arms):
            parts.append(f"{'if' if i == 0 else 'elif'} {_p(cond, OR)} then {_p(then, EXPR)}")
        return " ".join(parts) + f" else {_p(node.other, EXPR)}"
    if isinstance(node, Case):
        arms = " ".join(f"when {literal_text(lit)} then {_p(then, EXPR)}"
                        for lit, then in node.arms)
        return f"case {_p(node.subject, SUM)} {arms} else {_p(node.other, EXPR)}"
    if isinstance(node, Call):
        return f"{node.name}({', '.join(_p(a, EXPR) for a in node.args)})"
    if isinstance(node, SetLit):
        return "{" + ", ".join(_set_item(i) for i in node.items) + "}"
    if isinstance(node, ListLit):
        return "[" + ", ".join(literal_text(i) for i in node.items) + "]"
    if isinstance(node, RangeLit):
        return f"{literal_text(node.lo)}..{literal_text(node.hi)}"
    raise TypeError(f"unknown node {node!r}")  # pragma: no cover
