"""Building blocks of the computer scientists' hypotheses, held as bit sets.

A look-back-1 rule is a function of (previous card, card). The scientists hold
every hypothesis as one integer with a bit per *context*:

* bits ``52 * p + c`` for ``p, c`` in 0..51 (card indices, see
  :attr:`eleusis.cards.Card.index`): the verdict on card ``c`` after card ``p``;
* bits ``2704 + c``: the verdict on card ``c`` at position 1, where there is
  no previous card. The rule language accepts a card whose evaluation touches
  a missing ``prev`` (lazy, left to right), so this row is computed with a
  three-valued logic (true / false / "touched the missing prev").

Each block is evaluated once over all contexts (a few hundred small integer
operations); every combination is then built with ``&``, ``|`` and ``~`` on
these integers, never by evaluating a rule card by card. Every block also
carries its rule-language text and an English phrase, so any hypothesis can
be printed as a rule a player (or the exact ``compare``) can read; the tests
check each block's bits against the rules package's own evaluator.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from eleusis.cards import ALL_CARDS, Card, Suit

NCARDS: Final = 52
ROWS_BITS: Final = NCARDS * NCARDS  # 2704 contexts with a previous card
NOPREV: Final = NCARDS  # the "no previous card" row (position 1)
CONTEXT_BITS: Final = ROWS_BITS + NCARDS  # 2756
FULL52: Final = (1 << NCARDS) - 1
FULL_ROWS: Final = (1 << ROWS_BITS) - 1
#: Multiplying a 52-bit mask by REPEAT copies it into each of the 52 rows.
REPEAT: Final = sum(1 << (NCARDS * p) for p in range(NCARDS))


def context_index(prev: Card | None, card: Card) -> int:
    """The bit that holds the verdict on ``card`` after ``prev`` (None: position 1)."""
    row = NOPREV if prev is None else prev.index
    return row * NCARDS + card.index


def card_mask(pred: Callable[[Card], bool]) -> int:
    """The 52-bit set of cards satisfying ``pred``."""
    m = 0
    for c in ALL_CARDS:
        if pred(c):
            m |= 1 << c.index
    return m


@dataclass(frozen=True, slots=True)
class Block:
    """One building block: a true/false expression about ``card`` and ``prev``.

    ``rows`` holds the 2704 verdicts with a previous card; ``t52`` the cards
    for which the expression is true at position 1 and ``ab52`` those for
    which it touches the missing ``prev`` (which makes a whole rule accept).
    ``kind`` is ``"card"`` (reads only the card), ``"rel"`` (reads both) or
    ``"prev"`` (reads only the previous card: used as a condition).
    """

    text: str
    english: str
    rows: int
    t52: int
    ab52: int
    kind: str

    @property
    def bits(self) -> int:
        """The hypothesis "this block alone is the rule" as a context bit set."""
        return self.rows | ((self.t52 | self.ab52) << ROWS_BITS)


def card_block(text: str, english: str, mask: int) -> Block:
    """A block that reads only the card (``card is red``)."""
    return Block(text, english, mask * REPEAT, mask, 0, "card")


def rel_block(text: str, english: str, row: Callable[[Card], int]) -> Block:
    """A block that reads ``prev``: ``row(prev)`` is the 52-bit set it accepts."""
    rows = 0
    for p in ALL_CARDS:
        rows |= row(p) << (NCARDS * p.index)
    return Block(text, english, rows, 0, FULL52, "rel")


def prev_block(text: str, english: str, pred: Callable[[Card], bool]) -> Block:
    """A condition on the previous card only (``prev is red``)."""
    b = rel_block(text, english, lambda p: FULL52 if pred(p) else 0)
    return Block(b.text, b.english, b.rows, b.t52, b.ab52, "prev")


# --- three-valued combinators (row 52 carries "touched missing prev") -------


def _false52(b: Block) -> int:
    return FULL52 & ~b.t52 & ~b.ab52


def b_and(a: Block, b: Block, text: str, english: str) -> Block:
    """``a and b`` with lazy evaluation."""
    t = a.t52 & b.t52
    ab = a.ab52 | (a.t52 & b.ab52)
    return Block(text, english, a.rows & b.rows, t, ab, _kind(a, b))


def b_or(a: Block, b: Block, text: str, english: str) -> Block:
    """``a or b`` with lazy evaluation."""
    t = a.t52 | (_false52(a) & b.t52)
    ab = a.ab52 | (_false52(a) & b.ab52)
    return Block(text, english, a.rows | b.rows, t, ab, _kind(a, b))


def b_ite(c: Block, a: Block, b: Block, text: str, english: str) -> Block:
    """``if c then a else b`` with lazy evaluation."""
    cf = _false52(c)
    t = (c.t52 & a.t52) | (cf & b.t52)
    ab = c.ab52 | (c.t52 & a.ab52) | (cf & b.ab52)
    rows = (c.rows & a.rows) | (~c.rows & FULL_ROWS & b.rows)
    kind = "card" if c.kind == a.kind == b.kind == "card" else "rel"
    return Block(text, english, rows, t, ab, kind)


def _kind(a: Block, b: Block) -> str:
    return "card" if a.kind == "card" and b.kind == "card" else "rel"


# --- the catalogue -----------------------------------------------------------

_SUIT_WORD: Final = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds",
                     Suit.CLUBS: "clubs"}
_RANK_WORD: Final = {1: "ace", 11: "jack", 12: "queen", 13: "king"}


def rank_word(r: int) -> str:
    """A rank in English (``ace``, ``7``, ``king``)."""
    return _RANK_WORD.get(r, str(r))


def _rank_mask(pred: Callable[[int], bool]) -> int:
    return card_mask(lambda c: pred(c.rank))


def _wrap(n: int) -> int:
    return (n - 1) % 13 + 1


def card_blocks() -> list[Block]:
    """Blocks about the card alone: colours, suits, suit pairs, rank sets."""
    out: list[Block] = [
        card_block("card is red", "the card is red", card_mask(lambda c: c.red)),
        card_block("card is black", "the card is black", card_mask(lambda c: c.black)),
    ]
    for s in Suit:
        w = _SUIT_WORD[s]
        out.append(card_block(f"card is {w}", f"the card is a {w[:-1]}",
                              card_mask(lambda c, s=s: c.suit is s)))
    for s in Suit:
        w = _SUIT_WORD[s]
        out.append(card_block(f"card is not {w}", f"the card is not a {w[:-1]}",
                              card_mask(lambda c, s=s: c.suit is not s)))
    for a, b in ((Suit.SPADES, Suit.HEARTS), (Suit.SPADES, Suit.DIAMONDS),
                 (Suit.HEARTS, Suit.CLUBS), (Suit.DIAMONDS, Suit.CLUBS)):
        wa, wb = _SUIT_WORD[a], _SUIT_WORD[b]
        out.append(card_block(f"card.suit in {{{wa}, {wb}}}", f"the card is a {wa[:-1]} or a {wb[:-1]}",
                              card_mask(lambda c, a=a, b=b: c.suit in (a, b))))
    for attr, eng in (("even", "has an even rank"), ("odd", "has an odd rank"),
                      ("face", "is a face card (J, Q, K)"), ("numeral", "is a numeral (A to 10)"),
                      ("prime", "has a prime rank (2, 3, 5, 7, J, K)")):
        out.append(card_block(f"card is {attr}", f"the card {eng}",
                              card_mask(lambda c, attr=attr: bool(getattr(c, attr)))))
    out.append(card_block("card is not prime", "the card's rank is not prime",
                          card_mask(lambda c: not c.prime)))
    for r in range(1, 14):
        out.append(card_block(f"card.rank == {r}", f"the card is a {rank_word(r)}",
                              _rank_mask(lambda x, r=r: x == r)))
    for r in range(1, 14):
        out.append(card_block(f"card.rank != {r}", f"the card is not a {rank_word(r)}",
                              _rank_mask(lambda x, r=r: x != r)))
    for r in range(2, 14):
        out.append(card_block(f"card.rank >= {r}", f"the card's rank is at least {rank_word(r)}",
                              _rank_mask(lambda x, r=r: x >= r)))
    for r in range(1, 13):
        out.append(card_block(f"card.rank <= {r}", f"the card's rank is at most {rank_word(r)}",
                              _rank_mask(lambda x, r=r: x <= r)))
    for a in range(2, 13):
        for b in range(a + 1, 13):
            out.append(card_block(f"card.rank in {a}..{b}",
                                  f"the card's rank is between {rank_word(a)} and {rank_word(b)}",
                                  _rank_mask(lambda x, a=a, b=b: a <= x <= b)))
    return out


def _same(attr: Callable[[Card], object]) -> Callable[[Card], int]:
    masks: dict[object, int] = {}
    for c in ALL_CARDS:
        masks[attr(c)] = masks.get(attr(c), 0) | (1 << c.index)
    return lambda p: masks[attr(p)]


def _diff(attr: Callable[[Card], object]) -> Callable[[Card], int]:
    same = _same(attr)
    return lambda p: FULL52 & ~same(p)


_CYCLES: Final[tuple[tuple[Suit, ...], ...]] = (
    (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS),
    (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS),
    (Suit.SPADES, Suit.DIAMONDS, Suit.HEARTS, Suit.CLUBS),
    (Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS),
    (Suit.SPADES, Suit.CLUBS, Suit.HEARTS, Suit.DIAMONDS),
    (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS),
)


def rel_blocks() -> list[Block]:
    """Blocks relating the card to the previous card."""
    out: list[Block] = []
    pairs: list[tuple[str, str, Callable[[Card], object]]] = [
        ("color", "colour", lambda c: c.red),
        ("suit", "suit", lambda c: c.suit),
        ("rank", "rank", lambda c: c.rank),
        ("even", "parity (odd/even)", lambda c: c.even),
        ("face", "face/numeral kind", lambda c: c.face),
        ("prime", "primeness", lambda c: c.prime),
    ]
    for attr, eng, f in pairs:
        out.append(rel_block(f"card.{attr} == prev.{attr}",
                             f"the card has the same {eng} as the last card", _same(f)))
        out.append(rel_block(f"card.{attr} != prev.{attr}",
                             f"the card's {eng} differs from the last card's", _diff(f)))
    for a, b in ((Suit.HEARTS, Suit.SPADES), (Suit.HEARTS, Suit.CLUBS)):
        wa, wb = _SUIT_WORD[a], _SUIT_WORD[b]
        grp = f"{{{wa}, {wb}}}"
        f = (lambda c, a=a, b=b: c.suit in (a, b))
        out.append(rel_block(f"(card.suit in {grp}) == (prev.suit in {grp})",
                             f"the card is on the same side as the last card of the split "
                             f"{wa}+{wb} / the other two suits", _same(f)))
        out.append(rel_block(f"(card.suit in {grp}) != (prev.suit in {grp})",
                             f"the card alternates between {wa}+{wb} and the other two suits",
                             _diff(f)))
    rank_rows: list[tuple[str, str, Callable[[int, int], bool]]] = [
        ("card.rank > prev.rank", "the card's rank is higher than the last card's", lambda p, c: c > p),
        ("card.rank >= prev.rank", "the card's rank is at least the last card's", lambda p, c: c >= p),
        ("card.rank < prev.rank", "the card's rank is lower than the last card's", lambda p, c: c < p),
        ("card.rank <= prev.rank", "the card's rank is at most the last card's", lambda p, c: c <= p),
    ]
    for k in (1, 2, 3):
        rank_rows.append((f"card.rank == prev.rank + {k}", f"the card's rank is the last card's plus {k}",
                          lambda p, c, k=k: c == p + k))
        rank_rows.append((f"card.rank == prev.rank - {k}", f"the card's rank is the last card's minus {k}",
                          lambda p, c, k=k: c == p - k))
    for k in (1, 2):
        rank_rows.append((f"card.rank == wrap(prev.rank + {k})",
                          f"the card's rank is the last card's plus {k}, going round from king to ace",
                          lambda p, c, k=k: c == _wrap(p + k)))
        rank_rows.append((f"card.rank == wrap(prev.rank - {k})",
                          f"the card's rank is the last card's minus {k}, going round from ace to king",
                          lambda p, c, k=k: c == _wrap(p - k)))
    for k in (1, 2, 3):
        rank_rows.append((f"abs(card.rank - prev.rank) <= {k}",
                          f"the card's rank is within {k} of the last card's",
                          lambda p, c, k=k: abs(c - p) <= k))
        rank_rows.append((f"abs(card.rank - prev.rank) > {k}",
                          f"the card's rank is more than {k} away from the last card's",
                          lambda p, c, k=k: abs(c - p) > k))
    for k in (1, 2):
        rank_rows.append((f"abs(card.rank - prev.rank) == {k}",
                          f"the card's rank is exactly {k} away from the last card's",
                          lambda p, c, k=k: abs(c - p) == k))
    for text, eng, rel in rank_rows:
        table = [_rank_mask(lambda x, pr=pr, rel=rel: rel(pr, x)) for pr in range(14)]
        out.append(rel_block(text, eng, lambda p, table=table: table[p.rank]))
    for cyc in _CYCLES:
        names = ", ".join(_SUIT_WORD[s] for s in cyc)
        nxt = {cyc[i]: cyc[(i + 1) % 4] for i in range(4)}
        smask = {s: card_mask(lambda c, s=s: c.suit is s) for s in Suit}
        out.append(rel_block(f"card.suit == next(prev.suit, [{names}])",
                             f"the suits follow the cycle {names}",
                             lambda p, nxt=nxt, smask=smask: smask[nxt[p.suit]]))
    return out


def prev_conditions() -> list[Block]:
    """Natural conditions on the previous card for ``if ... then ... else``."""
    out = [
        prev_block("prev is red", "the last card is red", lambda p: p.red),
        prev_block("prev is face", "the last card is a face card", lambda p: p.face),
        prev_block("prev is even", "the last card's rank is even", lambda p: p.even),
        prev_block("prev is prime", "the last card's rank is prime", lambda p: p.prime),
        prev_block("prev.rank >= 7", "the last card's rank is at least 7", lambda p: p.rank >= 7),
    ]
    for s in Suit:
        w = _SUIT_WORD[s]
        out.append(prev_block(f"prev is {w}", f"the last card is a {w[:-1]}",
                              lambda p, s=s: p.suit is s))
    return out


def card_conditions(cards: Sequence[Block]) -> list[Block]:
    """Natural conditions on the card itself for ``if ... then ... else``."""
    wanted = ("card is red", "card is face", "card is even", "card is prime")
    return [b for b in cards if b.text in wanted]
