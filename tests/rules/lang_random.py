"""Random well-typed syntax trees for the rule-language tests (seeded, no global state)."""

from __future__ import annotations

import random

from eleusis.cards import ALL_CARDS, Color, Suit
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

BOOL_ATTRS = ("red", "black", "face", "numeral", "even", "odd", "prime")
CARD_ADJ = (*BOOL_ATTRS, "spades", "hearts", "diamonds", "clubs", "A", "7", "10", "K")


class TreeMaker:
    """Builds random trees of a given type; ``lookback`` and ``pos`` bound what they read."""

    def __init__(self, rng: random.Random, lookback: int = 2, pos: bool = True,
                 classic: bool = False) -> None:
        self.rng = rng
        self.lookback = lookback
        self.pos = pos
        #: without the constructs added later (gcd, //, sets of computed values,
        #: "is prime" on a number, sets of more than 13 positions)
        self.classic = classic

    def ref(self) -> Node:
        return Ref(self.rng.randint(0, self.lookback))

    def num(self, lo: int = 0, hi: int = 13) -> Num:
        v = self.rng.randint(lo, hi)
        return Num(v, letter=v in (1, 11, 12, 13) and self.rng.random() < 0.5)

    def int_(self, d: int) -> Node:
        r = self.rng.random()
        if d <= 0 or r < 0.35:
            return self.rng.choice(
                [lambda: Attr(self.ref(), "rank"), lambda: self.num(),
                 lambda: Pos() if self.pos else self.num(0, 20)]
            )()
        pick = self.rng.randrange(10)
        if pick == 0:
            return Neg(self.int_(d - 1))
        if pick <= 3:
            op = self.rng.choice(["+", "-", "*", "%"] + ([] if self.classic else ["//"]))
            right = self.num(1, 9) if op in ("%", "//") else self.int_(d - 1)
            return Arith(op, self.int_(d - 1), right)
        if self.classic and pick in (8, 9):
            pick = 4
        if pick == 8:  # a divisor that may be 0 when the rule runs ('x % 0' is refused)
            divisor = self.int_(d - 1)
            if isinstance(divisor, Num) and divisor.value == 0:
                divisor = self.num(1, 9)
            return Arith(self.rng.choice(["%", "//"]), self.int_(d - 1), divisor)
        if pick == 9:
            return Call("gcd", tuple(self.int_(d - 1) for _ in range(self.rng.randint(2, 3))))
        if pick == 4:
            name = self.rng.choice(["abs", "wrap"])
            return Call(name, (self.int_(d - 1),))
        if pick == 5:
            return Call(self.rng.choice(["min", "max"]), (self.int_(d - 1), self.int_(d - 1)))
        if pick == 6:
            items = tuple(self.num(1, 13) for _ in range(self.rng.randint(1, 4)))
            return Call("pick", (self.int_(d - 1), ListLit(items)))
        return If(((self.bool_(d - 1), self.int_(d - 1)),), self.int_(d - 1))

    def suit(self, d: int) -> Node:
        r = self.rng.randrange(5 if d > 0 else 2)
        if r == 0:
            return Attr(self.ref(), "suit")
        if r == 1:
            return SuitLit(self.rng.choice(list(Suit)))
        items = tuple(SuitLit(s) for s in self.rng.sample(list(Suit), self.rng.randint(1, 4)))
        if r == 2:
            return Call("next", (self.suit(d - 1), ListLit(items)))
        if r == 3:
            return Call("pick", (self.int_(d - 1), ListLit(items)))
        return Case(self.int_(d - 1), ((self.num(), self.suit(d - 1)),), self.suit(d - 1))

    def color(self, d: int) -> Node:
        if self.rng.random() < 0.7:
            return Attr(self.ref(), "color")
        return ColorLit(self.rng.choice(list(Color)))

    def card(self, d: int) -> Node:
        r = self.rng.random()
        if r < 0.7 or d <= 0:
            return self.ref()
        if r < 0.85:
            return CardLit(self.rng.choice(ALL_CARDS))
        return If(((self.bool_(d - 1), self.card(d - 1)),), self.card(d - 1))

    def bool_(self, d: int) -> Node:
        rng = self.rng
        if d <= 0:
            return rng.choice([
                lambda: Is(self.ref(), rng.choice(CARD_ADJ), rng.random() < 0.2),
                lambda: Attr(self.ref(), rng.choice(BOOL_ATTRS)),
                lambda: Cmp(rng.choice(["==", "!=", "<", ">=", "<=", ">"]),
                            Attr(self.ref(), "rank"), self.num()),
            ])()
        pick = rng.randrange(13 if self.classic else 16)
        if self.classic and pick == 12:
            pick = 0
        if pick == 0:
            return Cmp(rng.choice(["==", "!=", "<", ">=", "<=", ">"]), self.int_(d - 1),
                       self.int_(d - 1))
        if pick == 1:
            return Cmp(rng.choice(["==", "!="]), self.suit(d - 1), self.suit(d - 1))
        if pick == 2:
            return Cmp(rng.choice(["==", "!="]), self.color(d - 1), self.color(d - 1))
        if pick == 3:
            return Cmp(rng.choice(["==", "!="]), self.card(d - 1), self.card(d - 1))
        if pick == 4:
            lo = rng.randint(-3, 10)
            coll: Node = rng.choice([
                SetLit(tuple(Num(rng.randint(-2, 13)) for _ in range(rng.randint(1, 5)))),
                RangeLit(Num(lo), Num(lo + rng.randint(0, 5))),
            ])
            return In(self.int_(d - 1), coll, rng.random() < 0.3)
        if pick == 5:
            return Is(self.int_(d - 1), rng.choice(["even", "odd"]), rng.random() < 0.3)
        if pick in (6, 7):
            kind = And if pick == 6 else Or
            return kind(tuple(self.bool_(d - 1) for _ in range(rng.randint(2, 3))))
        if pick == 8:
            return Not(self.bool_(d - 1))
        if pick == 9:
            return If(((self.bool_(d - 1), self.bool_(d - 1)),), self.bool_(d - 1))
        if pick == 10:
            arms = tuple((Num(v), self.bool_(d - 1)) for v in rng.sample(range(4), 2))
            return Case(Arith("%", self.int_(d - 1), Num(4)), arms, self.bool_(d - 1))
        if pick == 11:
            return Is(self.suit(d - 1), rng.choice(["red", "black", "hearts"]))
        if pick == 13:  # a set of values read from the cards
            if rng.random() < 0.5:
                items = tuple(self.int_(d - 1) for _ in range(rng.randint(1, 3)))
                return In(self.int_(d - 1), SetLit(items), rng.random() < 0.3)
            suits = tuple(self.suit(d - 1) for _ in range(rng.randint(1, 3)))
            return In(self.suit(d - 1), SetLit(suits), rng.random() < 0.3)
        if pick == 14:
            return Is(self.int_(d - 1), "prime", rng.random() < 0.3)
        if pick == 15:  # a large set of positions
            values = tuple(Num(v) for v in sorted(rng.sample(range(1, 60), rng.randint(14, 40))))
            return In(Pos() if self.pos else self.int_(d - 1), SetLit(values))
        return BoolLit(rng.random() < 0.5)
