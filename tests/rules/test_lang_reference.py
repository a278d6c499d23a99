"""The compiled closures agree with a plain tree-walking interpreter on random rules."""

from __future__ import annotations

import random
from typing import Any

from lang_random import TreeMaker

from eleusis.cards import ALL_CARDS, Card, Color, Suit
from eleusis.rules import Rule, RuleSyntaxError
from eleusis.rules.syntax import (
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


class MissingCard(Exception):
    pass


class Undefined(Exception):
    pass


RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def lit(node: Node) -> Any:
    if isinstance(node, Num | BoolLit):
        return node.value
    if isinstance(node, SuitLit):
        return node.suit
    if isinstance(node, ColorLit):
        return node.color
    assert isinstance(node, CardLit)
    return (node.card.rank, node.card.suit)


def value(node: Node, cards: list[Card | None], pos: int) -> Any:
    """Straight from the design: lazy, left to right; cards as (rank, suit)."""
    if isinstance(node, Num | BoolLit | SuitLit | ColorLit | CardLit):
        return lit(node)
    if isinstance(node, Ref):
        c = cards[node.k]
        if c is None:
            raise MissingCard
        return (c.rank, c.suit)
    if isinstance(node, Pos):
        return pos
    if isinstance(node, Attr):
        rank, suit = value(node.obj, cards, pos)
        red = suit in (Suit.HEARTS, Suit.DIAMONDS)
        return {
            "rank": rank, "suit": suit, "color": Color.RED if red else Color.BLACK,
            "red": red, "black": not red, "face": rank > 10, "numeral": rank <= 10,
            "even": rank % 2 == 0, "odd": rank % 2 == 1, "prime": rank in (2, 3, 5, 7, 11, 13),
        }[node.name]
    if isinstance(node, Is):
        x = value(node.obj, cards, pos)
        adj = node.adj
        if isinstance(x, tuple):
            rank, suit = x
            if adj in ("red", "black"):
                result = (suit in (Suit.HEARTS, Suit.DIAMONDS)) == (adj == "red")
            elif adj in ("spades", "hearts", "diamonds", "clubs"):
                result = suit.noun == adj
            elif adj in ("face", "numeral", "even", "odd", "prime"):
                result = {"face": rank > 10, "numeral": rank <= 10, "even": rank % 2 == 0,
                          "odd": rank % 2 == 1, "prime": rank in (2, 3, 5, 7, 11, 13)}[adj]
            else:
                result = rank == RANKS.get(adj, 0) or str(rank) == adj
        elif isinstance(x, Suit):
            result = x.noun == adj if adj not in ("red", "black") else (
                (x in (Suit.HEARTS, Suit.DIAMONDS)) == (adj == "red"))
        elif isinstance(x, Color):
            result = x.value == adj
        elif adj == "prime":
            result = x >= 2 and all(x % d for d in range(2, int(x**0.5) + 1))
        else:
            result = x % 2 == (0 if adj == "even" else 1)
        return result != node.negated
    if isinstance(node, Neg):
        return -value(node.operand, cards, pos)
    if isinstance(node, Arith):
        a = value(node.left, cards, pos)
        b = value(node.right, cards, pos)
        if node.op in ("%", "//"):
            if b == 0:
                raise Undefined
            return a % b if node.op == "%" else a // b
        return a + b if node.op == "+" else a - b if node.op == "-" else a * b
    if isinstance(node, Cmp):
        a = value(node.left, cards, pos)
        b = value(node.right, cards, pos)
        return {"==": a == b, "!=": a != b}.get(node.op) if node.op in ("==", "!=") else {
            "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[node.op]
    if isinstance(node, In):
        x = value(node.elem, cards, pos)
        coll = node.coll
        if isinstance(coll, RangeLit):
            found = coll.lo.value <= x <= coll.hi.value
        else:
            assert isinstance(coll, SetLit | ListLit)
            # x == a or x == b ...: items read left to right until one matches
            found = any(value(i, cards, pos) == x for i in coll.items)
        return found != node.negated
    if isinstance(node, Not):
        return not value(node.operand, cards, pos)
    if isinstance(node, And):
        return all(value(i, cards, pos) for i in node.items)
    if isinstance(node, Or):
        return any(value(i, cards, pos) for i in node.items)
    if isinstance(node, If):
        for cond, then in node.arms:
            if value(cond, cards, pos):
                return value(then, cards, pos)
        return value(node.other, cards, pos)
    if isinstance(node, Case):
        x = value(node.subject, cards, pos)
        for item, then in node.arms:
            if lit(item) == x:
                return value(then, cards, pos)
        return value(node.other, cards, pos)
    assert isinstance(node, Call)
    if node.name in ("abs", "wrap"):
        x = value(node.args[0], cards, pos)
        return abs(x) if node.name == "abs" else (x - 1) % 13 + 1
    if node.name in ("min", "max"):
        xs = [value(a, cards, pos) for a in node.args]
        return min(xs) if node.name == "min" else max(xs)
    if node.name == "gcd":
        g = 0
        for a in node.args:
            x = abs(value(a, cards, pos))
            while x:
                g, x = x, g % x
        return g
    lst = node.args[1]
    assert isinstance(lst, ListLit)
    items = [lit(i) for i in lst.items]
    x = value(node.args[0], cards, pos)
    if node.name == "pick":
        return items[(x - 1) % len(items)]
    if x not in items:
        raise Undefined
    return items[(items.index(x) + 1) % len(items)]


def verdict(node: Node, mainline: list[Card], card: Card) -> bool:
    cards: list[Card | None] = [card] + [
        mainline[-k] if k <= len(mainline) else None for k in range(1, 5)]
    try:
        return bool(value(node, cards, len(mainline) + 1))
    except MissingCard:
        return True
    except Undefined:
        return False


def test_compiled_rules_match_the_reference_interpreter() -> None:
    rng = random.Random(99)
    rules = 0
    while rules < 400:
        maker = TreeMaker(rng, lookback=rng.randint(0, 4), pos=True)
        tree = maker.bool_(rng.randint(0, 5))
        try:
            rule = Rule.from_tree(tree)
        except RuleSyntaxError:
            continue
        rules += 1
        for _ in range(25):
            line = [rng.choice(ALL_CARDS) for _ in range(rng.choice([0, 1, 2, 3, 4, 7]))]
            card = rng.choice(ALL_CARDS)
            assert rule.accepts(line, card) == verdict(rule.ast, line, card), (rule.text, line,
                                                                              card)
        line = [rng.choice(ALL_CARDS) for _ in range(5)]
        back = tuple(reversed(line[-rule.lookback:])) if rule.lookback else ()
        assert rule.judge_all(ALL_CARDS, back, 6) == tuple(
            verdict(rule.ast, line, c) for c in ALL_CARDS)
