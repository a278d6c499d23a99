"""Saying a rule in plain English.

The common forms get natural phrases ("the card is red", "the card has a
different color from the last card", "the card's rank is one of 2, 3, 5, 7,
jack, king"); every other form is said word by word, with parentheses where an
``and``/``or`` mix would otherwise be ambiguous, so the sentence is always
correct even when it is not elegant.

>>> from eleusis.rules import parse
>>> parse("if prev is black then card is red else card.rank > 6").english()
"If the last card is black, the card is red; otherwise the card's rank is greater than 6."
"""

from __future__ import annotations

from typing import Final

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

_REF_NOUNS: Final = {
    0: "the card",
    1: "the last card",
    2: "the second-to-last card",
    3: "the third-to-last card",
    4: "the fourth-to-last card",
}
_RANK_WORDS: Final = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
_ADJ_PHRASES: Final = {
    "red": "red",
    "black": "black",
    "face": "a face card (J, Q, K)",
    "numeral": "a numeral card (A to 10)",
    "even": "even-ranked",
    "odd": "odd-ranked",
    "prime": "prime-ranked (2, 3, 5, 7, J, K)",
    "spades": "a spade",
    "hearts": "a heart",
    "diamonds": "a diamond",
    "clubs": "a club",
}
#: The adjective said a second time in one clause, without its gloss.
_ADJ_SHORT: Final = {"face": "a face card", "numeral": "a numeral card", "prime": "prime-ranked"}
_INT_ADJ: Final = {"even": "even", "odd": "odd", "red": "red", "black": "black",
                   "spades": "spades", "hearts": "hearts", "diamonds": "diamonds",
                   "clubs": "clubs", "prime": "a prime number"}
_CMP_WORDS: Final = {
    "==": "is",
    "!=": "is not",
    "<": "is less than",
    "<=": "is at most",
    ">": "is greater than",
    ">=": "is at least",
}
_FLIP: Final = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


_LITERALS: Final = (Num, BoolLit, SuitLit, ColorLit, CardLit)


def say(tree: Node) -> str:
    """The whole rule as one sentence, starting with a capital and ending with a period."""
    if isinstance(tree, If):
        text = _if_sentence(tree)
    elif isinstance(tree, Case):
        text = _case_sentence(tree)
    elif isinstance(tree, BoolLit):
        text = "every card is accepted" if tree.value else "no card is accepted"
    else:
        text = f"a card may be played when {clause(tree)}"
    return text[0].upper() + text[1:] + "."


def _if_sentence(node: If) -> str:
    parts = []
    for i, (cond, then) in enumerate(node.arms):
        lead = "if" if i == 0 else "if instead"
        parts.append(f"{lead} {clause(cond)}, {clause(then)}")
    return "; ".join(parts) + f"; otherwise {clause(node.other)}"


def _case_sentence(node: Case) -> str:
    parts = [f"depending on {noun(node.subject)}:"]
    arms = [f"when it is {noun(lit)}, {clause(then)}" for lit, then in node.arms]
    parts.append("; ".join(arms) + f"; otherwise {clause(node.other)}")
    return " ".join(parts)


def _rank_word(value: int) -> str:
    return _RANK_WORDS.get(value, str(value))


def noun(node: Node) -> str:
    """A noun phrase for a value ("the last card's rank", "7", "hearts")."""
    if isinstance(node, Num):
        if node.letter:
            return _rank_word(node.value)
        return str(node.value)
    if isinstance(node, BoolLit):
        return "true" if node.value else "false"
    if isinstance(node, SuitLit):
        return node.suit.noun
    if isinstance(node, ColorLit):
        return node.color.value
    if isinstance(node, CardLit):
        return f"the {node.card.name}"
    if isinstance(node, Ref):
        return _REF_NOUNS[node.k]
    if isinstance(node, Pos):
        return "the card's position"
    if isinstance(node, Attr):
        owner = noun(node.obj)
        if ATTRIBUTES[node.name] == "bool":
            return f"whether {owner} is {_ADJ_PHRASES.get(node.name, node.name)}"
        if isinstance(node.obj, Ref | CardLit):
            return f"{owner}'s {node.name}"
        return f"the {node.name} of {owner}"
    if isinstance(node, Neg):
        if isinstance(node.operand, Num) and not node.operand.letter:
            return f"-{node.operand.value}"
        return f"minus {_paren_noun(node.operand)}"
    if isinstance(node, Arith):
        terms = _sum_terms(node)
        if len(terms) > 2:
            listed = (", ".join(_paren_noun(t) for t in terms[:-1])
                      + f" and {_paren_noun(terms[-1])}")
            return f"the sum of {listed}"
        left, right = _paren_noun(node.left), _paren_noun(node.right)
        if node.op == "%":
            return f"the remainder when {left} is divided by {right}"
        if node.op == "+":
            return f"{left} plus {right}"
        if node.op == "-":
            return f"{left} minus {right}"
        if node.op == "*":
            return f"{left} times {right}"
        if node.op == "//":
            return f"the quotient of {left} divided by {right} (rounded down)"
    if isinstance(node, Call):
        return _call_noun(node)
    if isinstance(node, SetLit | ListLit):
        return _list_words(node.items)
    if isinstance(node, RangeLit):
        return f"{noun(node.lo)} to {noun(node.hi)}"
    if isinstance(node, If | Case):
        return f"({_value_choice(node)})"
    return f"({clause(node)})"


def _sum_terms(node: Node) -> list[Node]:
    """The terms of a chain of ``+`` (just ``[node]`` for anything else)."""
    if isinstance(node, Arith) and node.op == "+":
        return [*_sum_terms(node.left), node.right]
    return [node]


def _paren_noun(node: Node) -> str:
    """A noun in parentheses when it is a computation, so "(a plus b) times c"
    cannot be read as "a plus (b times c)"."""
    text = noun(node)
    if (isinstance(node, Arith) or (isinstance(node, Neg) and not text.startswith("-"))
            or (isinstance(node, Call) and node.name in ("next", "pick", "min", "max", "wrap",
                                                          "gcd"))):
        return f"({text})"
    return text


def _value_choice(node: If | Case) -> str:
    if isinstance(node, If):
        parts = [f"{'if' if i == 0 else 'else if'} {clause(c)} then {noun(t)}"
                 for i, (c, t) in enumerate(node.arms)]
        return ", ".join(parts) + f", else {noun(node.other)}"
    arms = ", ".join(f"{noun(lit)} gives {noun(t)}" for lit, t in node.arms)
    return f"depending on {noun(node.subject)}: {arms}, anything else gives {noun(node.other)}"


def _list_words(items: tuple[Node, ...]) -> str:
    words = [noun(i) for i in items]
    return ", ".join(words)


def _call_noun(node: Call) -> str:
    args = node.args
    if node.name == "abs":
        return f"the absolute value of {_paren_noun(args[0])}"
    if node.name in ("min", "max"):
        which = ("smaller" if node.name == "min" else "larger") if len(args) == 2 else (
            "smallest" if node.name == "min" else "largest")
        listed = ", ".join(_paren_noun(a) for a in args[:-1]) + f" and {_paren_noun(args[-1])}"
        return f"the {which} of {listed}"
    if node.name == "wrap":
        return f"{_paren_noun(args[0])} wrapped into A..K (K + 1 is A)"
    if node.name == "gcd":
        return f"the greatest common divisor of {_and_list(args)}"
    lst = args[1]
    assert isinstance(lst, ListLit)
    cycle = " → ".join(noun(i) for i in (*lst.items, lst.items[0]))
    if node.name == "next":
        return f"the one after {_paren_noun(args[0])} in the cycle {cycle}"
    seq = ", ".join(noun(i) for i in (*lst.items, *lst.items)) + ", …"
    if isinstance(args[0], Pos):
        return f"the entry for the card's position in the repeating sequence {seq}"
    return f"the entry for {_paren_noun(args[0])} in the repeating sequence {seq}"


def _and_list(items: tuple[Node, ...]) -> str:
    """``a, b and c`` (each a noun, in parentheses if it is a sum or a product)."""
    words = [_paren_noun(i) for i in items]
    return ", ".join(words[:-1]) + f" and {words[-1]}"


def clause(node: Node) -> str:
    """A clause that is true or false ("the card is red")."""
    if isinstance(node, BoolLit):
        return "any card is accepted" if node.value else "no card is accepted"
    if isinstance(node, Is):
        return _is_clause(node.obj, node.adj, node.negated)
    if isinstance(node, Attr) and ATTRIBUTES[node.name] == "bool":
        return _is_clause(node.obj, node.name, False)
    if isinstance(node, Cmp):
        return _cmp_clause(node.op, node.left, node.right)
    if isinstance(node, In):
        return _in_clause(node)
    if isinstance(node, Not):
        inner = node.operand
        if isinstance(inner, Is):
            return _is_clause(inner.obj, inner.adj, not inner.negated)
        if isinstance(inner, Cmp):
            return _cmp_clause(_FLIP[inner.op], inner.left, inner.right)
        if isinstance(inner, In):
            return _in_clause(In(inner.elem, inner.coll, not inner.negated))
        if isinstance(inner, Attr) and ATTRIBUTES[inner.name] == "bool":
            return _is_clause(inner.obj, inner.name, True)
        if isinstance(inner, Or) and len(inner.items) == 2:
            a, b = (_group(i, inside="x") for i in inner.items)
            return f"neither {a} nor {b}"
        return f"it is not true that {_group(inner)}"
    if isinstance(node, And):
        return " and ".join(_group(i, inside="and") for i in node.items)
    if isinstance(node, Or):
        return " or ".join(_group(i, inside="or") for i in node.items)
    if isinstance(node, If | Case):
        return f"({_bool_choice(node)})"
    return f"{noun(node)} is true"


def _bool_choice(node: If | Case) -> str:
    if isinstance(node, If):
        parts = [f"{'if' if i == 0 else 'else if'} {clause(c)} then {clause(t)}"
                 for i, (c, t) in enumerate(node.arms)]
        return ", ".join(parts) + f", else {clause(node.other)}"
    arms = "; ".join(f"when it is {noun(lit)}, {clause(t)}" for lit, t in node.arms)
    return f"depending on {noun(node.subject)}: {arms}; otherwise {clause(node.other)}"


def _group(node: Node, inside: str = "") -> str:
    """A clause wrapped in parentheses when it would make an and/or mix ambiguous.

    ``inside`` is ``"and"``, ``"or"`` or ``"x"`` (one side of "exactly when" or
    "either ... or ..., but not both"). A clause that holds its own
    connective ("exactly when", "neither ... nor", "it is not true that") or
    a list with commas is always bracketed there.
    """
    text = clause(node)
    if inside and isinstance(node, In) and isinstance(node.coll, SetLit | ListLit):
        return f"({text})"
    if inside and _compound(node) and not text.startswith("("):
        return f"({text})"
    if isinstance(node, And | Or) and not (
        (inside == "and" and isinstance(node, And)) or (inside == "or" and isinstance(node, Or))
    ):
        return f"({text})"
    if isinstance(node, And | Or) and inside == "":
        return f"({text})"
    return text


def _compound(node: Node) -> bool:
    """Whether :func:`clause` says ``node`` with a connective of its own."""
    if isinstance(node, Cmp):
        return (_remainder_clause(node.op, node.left, node.right) is None
                and node.op in ("==", "!=") and _is_bool(node.left) and _is_bool(node.right)
                and not isinstance(node.right, BoolLit)
                and not _same_attr_phrase(node.left, node.right))
    if isinstance(node, Not):
        inner = node.operand
        if isinstance(inner, Cmp):
            return _compound(Cmp(_FLIP[inner.op], inner.left, inner.right))
        return not isinstance(inner, Is | In) and not (
            isinstance(inner, Attr) and ATTRIBUTES[inner.name] == "bool")
    return False


def _same_attr_phrase(left: Node, right: Node) -> bool:
    """Whether a same-attribute comparison has a one-clause phrase ("the same color as")."""
    same = _same_attr(left, right)
    return same is not None and same[2] in _SAME_NOUNS


#: Two cards agreeing on a true/false attribute, said as agreeing on a noun.
_SAME_NOUNS: Final = {"red": "color", "black": "color", "even": "parity", "odd": "parity",
                      "rank": "rank", "suit": "suit", "color": "color"}


def _is_clause(obj: Node, adj: str, negated: bool) -> str:
    verb = "is not" if negated else "is"
    if isinstance(obj, Ref):
        if adj.lower() in RANK_LETTERS or adj.isdigit():
            value = RANK_LETTERS.get(adj.lower()) or int(adj)
            article = "an" if value in (1, 8) else "a"
            return f"{noun(obj)} {verb} {article} {_rank_word(value)}"
        return f"{noun(obj)} {verb} {_ADJ_PHRASES[adj]}"
    return f"{noun(obj)} {verb} {_INT_ADJ.get(adj, adj)}"


def _same_attr(left: Node, right: Node) -> tuple[Ref, Ref, str] | None:
    if (isinstance(left, Attr) and isinstance(right, Attr) and left.name == right.name
            and isinstance(left.obj, Ref) and isinstance(right.obj, Ref)):
        return left.obj, right.obj, left.name
    return None


def _is_bool(node: Node) -> bool:
    """Whether a node is true/false (read from the syntax alone)."""
    if isinstance(node, Cmp | In | Is | Not | And | Or | BoolLit):
        return True
    if isinstance(node, Attr):
        return ATTRIBUTES[node.name] == "bool"
    if isinstance(node, If | Case):
        return _is_bool(node.other)
    return False


def _remainder_clause(op: str, left: Node, right: Node) -> str | None:
    """``x % m == r`` as "x is even", "x is a multiple of 3", "x leaves remainder 1..."."""
    if not (op in ("==", "!=") and isinstance(left, Arith) and left.op == "%"
            and isinstance(left.right, Num) and isinstance(right, Num)):
        return None
    m, r = left.right.value, right.value
    verb = "is" if op == "==" else "is not"
    x = noun(left.left)
    if m == 2 and r in (0, 1):
        return f"{x} {verb} {'even' if r == 0 else 'odd'}"
    if m > 0 and r == 0:
        return f"{x} {verb} a multiple of {m}"
    if 0 < r < m:
        does = "leaves" if op == "==" else "does not leave"
        return f"{x} {does} a remainder of {r} when divided by {m}"
    return None


def _cmp_clause(op: str, left: Node, right: Node) -> str:
    remainder = _remainder_clause(op, left, right)
    if remainder is not None:
        return remainder
    if (op in ("==", "!=") and isinstance(left, Call) and left.name == "gcd"
            and isinstance(right, Num) and right.value == 1):
        have = "have no" if op == "==" else "have a"
        return f"{_and_list(left.args)} {have} common divisor greater than 1"
    if (op in ("==", "!=") and _is_bool(left) and _is_bool(right)
            and not isinstance(right, BoolLit) and _same_attr(left, right) is None):
        first, second = _group(left, inside="x"), _group(right, inside="x")
        if op == "==":
            return f"{first} exactly when {second}"
        return f"either {first} or {second}, but not both"
    same = _same_attr(left, right)
    if same is not None and op in ("==", "!=") and same[2] in _SAME_NOUNS:
        a, b, name = same
        kind = "the same" if op == "==" else "a different"
        return (f"{noun(a)} has {kind} {_SAME_NOUNS[name]} "
                f"{'as' if op == '==' else 'from'} {noun(b)}")
    if same is not None and op in ("==", "!="):
        a, b, name = same
        phrase = _ADJ_PHRASES[name]
        tail = "is" if op == "==" else "is not"
        again = _ADJ_SHORT.get(name, phrase)
        return f"{noun(a)} is {phrase} exactly when {noun(b)} {tail} {again}"
    if isinstance(left, Attr) and ATTRIBUTES[left.name] == "bool" and isinstance(right, BoolLit):
        return _is_clause(left.obj, left.name, (op == "==") != right.value)
    if isinstance(left, Ref) and isinstance(right, Ref | CardLit):
        return f"{noun(left)} {'is' if op == '==' else 'is not'} the same card as {noun(right)}"
    return f"{noun(left)} {_CMP_WORDS[op]} {noun(right)}"


def _in_clause(node: In) -> str:
    verb = "is not" if node.negated else "is"
    coll = node.coll
    if isinstance(coll, SetLit) and not all(isinstance(i, _LITERALS) for i in coll.items):
        words = [_paren_noun(i) for i in coll.items]
        if node.negated:
            return f"{noun(node.elem)} is different from " + " and from ".join(words)
        return f"{noun(node.elem)} is equal to " + " or to ".join(words)
    if isinstance(node.coll, RangeLit):
        return (f"{noun(node.elem)} {verb} between {noun(node.coll.lo)} and "
                f"{noun(node.coll.hi)} (inclusive)")
    return f"{noun(node.elem)} {verb} one of {noun(node.coll)}"
