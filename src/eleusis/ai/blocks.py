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

from collections.abc import Callable, Iterator, Sequence
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


def a_rank(r: int) -> str:
    """A rank with its article (``an ace``, ``an 8``, ``a king``).

    >>> a_rank(1), a_rank(8), a_rank(13)
    ('an ace', 'an 8', 'a king')
    """
    word = rank_word(r)
    return f"{'an' if word[0] in 'ae8' else 'a'} {word}"


def _wrap(n: int) -> int:
    return (n - 1) % 13 + 1


def _suit_in(*suits: Suit) -> Callable[[Card], bool]:
    return lambda c: c.suit in suits


def _suit_not(suit: Suit) -> Callable[[Card], bool]:
    return lambda c: c.suit is not suit


def _attr(name: str) -> Callable[[Card], bool]:
    return lambda c: bool(getattr(c, name))


def _ranks(pred: Callable[[int], bool]) -> int:
    return card_mask(lambda c: pred(c.rank))


def _eq(r: int) -> Callable[[int], bool]:
    return lambda x: x == r


def _ne(r: int) -> Callable[[int], bool]:
    return lambda x: x != r


def _ge(r: int) -> Callable[[int], bool]:
    return lambda x: x >= r


def _le(r: int) -> Callable[[int], bool]:
    return lambda x: x <= r


def _mod(k: int, r: int) -> Callable[[int], bool]:
    return lambda x: x % k == r


def _between(lo: int, hi: int) -> Callable[[int], bool]:
    return lambda x: lo <= x <= hi


def card_blocks() -> list[Block]:
    """Blocks about the card alone: colors, suits, suit pairs, rank sets.

    The first is ``true`` (every card): the rule "anything goes" is then
    written as such, never as a tautology ("red or black").
    """
    out: list[Block] = [
        card_block("true", "any card is accepted", FULL52),
        card_block("card is red", "the card is red", card_mask(lambda c: c.red)),
        card_block("card is black", "the card is black", card_mask(lambda c: c.black)),
    ]
    for s in Suit:
        w = _SUIT_WORD[s]
        out.append(card_block(f"card is {w}", f"the card is a {w[:-1]}", card_mask(_suit_in(s))))
    for s in Suit:
        w = _SUIT_WORD[s]
        out.append(card_block(f"card is not {w}", f"the card is not a {w[:-1]}",
                              card_mask(_suit_not(s))))
    for sa, sb in ((Suit.SPADES, Suit.HEARTS), (Suit.SPADES, Suit.DIAMONDS),
                   (Suit.HEARTS, Suit.CLUBS), (Suit.DIAMONDS, Suit.CLUBS)):
        wa, wb = _SUIT_WORD[sa], _SUIT_WORD[sb]
        out.append(card_block(f"card.suit in {{{wa}, {wb}}}",
                              f"the card is a {wa[:-1]} or a {wb[:-1]}",
                              card_mask(_suit_in(sa, sb))))
    for name, eng in (("even", "has an even rank"), ("odd", "has an odd rank"),
                      ("face", "is a face card (J, Q, K)"), ("numeral", "is a numeral (A to 10)"),
                      ("prime", "has a prime rank (2, 3, 5, 7, J, K)")):
        out.append(card_block(f"card is {name}", f"the card {eng}", card_mask(_attr(name))))
    out.append(card_block("card is not prime", "the card's rank is not prime",
                          card_mask(lambda c: not c.prime)))
    for r in range(1, 14):
        out.append(card_block(f"card.rank == {r}", f"the card is {a_rank(r)}", _ranks(_eq(r))))
    for r in range(1, 14):
        out.append(card_block(f"card.rank != {r}", f"the card is not {a_rank(r)}",
                              _ranks(_ne(r))))
    for r in range(2, 14):
        out.append(card_block(f"card.rank >= {r}", f"the card's rank is at least {rank_word(r)}",
                              _ranks(_ge(r))))
    for r in range(1, 13):
        out.append(card_block(f"card.rank <= {r}", f"the card's rank is at most {rank_word(r)}",
                              _ranks(_le(r))))
    for k in (3, 4):
        for r in range(k):
            out.append(card_block(f"card.rank % {k} == {r}",
                                  f"the card's rank leaves {r} when divided by {k}",
                                  _ranks(_mod(k, r))))
    for lo in range(2, 13):
        for hi in range(lo + 1, 13):
            out.append(card_block(f"card.rank in {lo}..{hi}",
                                  f"the card's rank is between {rank_word(lo)} and {rank_word(hi)}",
                                  _ranks(_between(lo, hi))))
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


RankRel = Callable[[int, int], bool]


def _plus(k: int) -> RankRel:
    return lambda p, c: c == p + k


def _wrapped(k: int) -> RankRel:
    return lambda p, c: c == _wrap(p + k)


def _within(k: int) -> RankRel:
    return lambda p, c: abs(c - p) <= k


def _beyond(k: int) -> RankRel:
    return lambda p, c: abs(c - p) > k


def _apart(k: int) -> RankRel:
    return lambda p, c: abs(c - p) == k


def _sum_ge(k: int) -> RankRel:
    return lambda p, c: p + c >= k


def _sum_lt(k: int) -> RankRel:
    return lambda p, c: p + c < k


def _rank_rel_row(rel: RankRel) -> Callable[[Card], int]:
    table = [0] + [_ranks(_fixed_prev(rel, pr)) for pr in range(1, 14)]
    return lambda p: table[p.rank]


def _fixed_prev(rel: RankRel, prev_rank: int) -> Callable[[int], bool]:
    return lambda x: rel(prev_rank, x)


def _cycle_row(cyc: tuple[Suit, ...]) -> Callable[[Card], int]:
    nxt = {cyc[i]: cyc[(i + 1) % 4] for i in range(4)}
    smask = {s: card_mask(_suit_in(s)) for s in Suit}
    return lambda p: smask[nxt[p.suit]]


def rel_blocks() -> list[Block]:
    """Blocks relating the card to the previous card."""
    return list(iter_rel_blocks())


def iter_rel_blocks() -> Iterator[Block]:
    """The blocks of :func:`rel_blocks`, one at a time (a sliced build pauses between)."""
    pairs: list[tuple[str, str, Callable[[Card], object]]] = [
        ("color", "color", lambda c: c.red),
        ("suit", "suit", lambda c: c.suit),
        ("rank", "rank", lambda c: c.rank),
        ("even", "parity (odd/even)", lambda c: c.even),
        ("face", "face/numeral kind", lambda c: c.face),
        ("prime", "primeness", lambda c: c.prime),
    ]
    for name, eng, f in pairs:
        yield (rel_block(f"card.{name} == prev.{name}",
                             f"the card has the same {eng} as the last card", _same(f)))
        yield (rel_block(f"card.{name} != prev.{name}",
                             f"the card's {eng} differs from the last card's", _diff(f)))
    for sa, sb in ((Suit.HEARTS, Suit.SPADES), (Suit.HEARTS, Suit.CLUBS)):
        wa, wb = _SUIT_WORD[sa], _SUIT_WORD[sb]
        grp = f"{{{wa}, {wb}}}"
        g = _suit_in(sa, sb)
        yield (rel_block(f"(card.suit in {grp}) == (prev.suit in {grp})",
                             f"the card is on the same side as the last card of the split "
                             f"{wa}+{wb} / the other two suits", _same(g)))
        yield (rel_block(f"(card.suit in {grp}) != (prev.suit in {grp})",
                             f"the card alternates between {wa}+{wb} and the other two suits",
                             _diff(g)))
    rank_rows: list[tuple[str, str, RankRel]] = [
        ("card.rank > prev.rank", "the card's rank is higher than the last card's",
         lambda p, c: c > p),
        ("card.rank >= prev.rank", "the card's rank is at least the last card's",
         lambda p, c: c >= p),
        ("card.rank < prev.rank", "the card's rank is lower than the last card's",
         lambda p, c: c < p),
        ("card.rank <= prev.rank", "the card's rank is at most the last card's",
         lambda p, c: c <= p),
    ]
    for k in (1, 2, 3):
        rank_rows.append((f"card.rank == prev.rank + {k}",
                          f"the card's rank is the last card's plus {k}", _plus(k)))
        rank_rows.append((f"card.rank == prev.rank - {k}",
                          f"the card's rank is the last card's minus {k}", _plus(-k)))
    for k in (1, 2):
        rank_rows.append((f"card.rank == wrap(prev.rank + {k})",
                          f"the card's rank is the last card's plus {k}, going round from king "
                          "to ace", _wrapped(k)))
        rank_rows.append((f"card.rank == wrap(prev.rank - {k})",
                          f"the card's rank is the last card's minus {k}, going round from ace "
                          "to king", _wrapped(-k)))
    for k in (1, 2, 3):
        rank_rows.append((f"abs(card.rank - prev.rank) <= {k}",
                          f"the card's rank is within {k} of the last card's", _within(k)))
        rank_rows.append((f"abs(card.rank - prev.rank) > {k}",
                          f"the card's rank is more than {k} away from the last card's",
                          _beyond(k)))
    for k in (1, 2):
        rank_rows.append((f"abs(card.rank - prev.rank) == {k}",
                          f"the card's rank is exactly {k} away from the last card's", _apart(k)))
    for k in (5, 6):
        rank_rows.append((f"abs(card.rank - prev.rank) >= {k}",
                          f"the card's rank is at least {k} away from the last card's",
                          _beyond(k - 1)))
    rank_rows.append(("(card.rank + prev.rank) % 3 == 0",
                      "the card's and the last card's ranks add up to a multiple of 3",
                      lambda p, c: (p + c) % 3 == 0))
    rank_rows.append(("(card.rank + prev.rank) % 3 != 0",
                      "the card's and the last card's ranks do not add up to a multiple of 3",
                      lambda p, c: (p + c) % 3 != 0))
    for k in (10, 14):
        rank_rows.append((f"card.rank + prev.rank >= {k}",
                          f"the card's and the last card's ranks add up to at least {k}",
                          _sum_ge(k)))
        rank_rows.append((f"card.rank + prev.rank < {k}",
                          f"the card's and the last card's ranks add up to less than {k}",
                          _sum_lt(k)))
    rank_rows.extend(arith_rows())
    rank_rows.extend(fine_rows())
    for text, eng, rel in rank_rows:
        yield (rel_block(text, eng, _rank_rel_row(rel)))
    for cyc in _CYCLES:
        names = ", ".join(_SUIT_WORD[s] for s in cyc)
        yield (rel_block(f"card.suit == next(prev.suit, [{names}])",
                             f"the suits follow the cycle {names}", _cycle_row(cyc)))


_PRIME_SUMS: Final = frozenset({2, 3, 5, 7, 11, 13, 17, 19, 23})


def _sum_mod(k: int, r: int) -> RankRel:
    return lambda p, c: (p + c) % k == r


def _sum_not_mod(k: int) -> RankRel:
    return lambda p, c: (p + c) % k != 0


def _sum_le(k: int) -> RankRel:
    return lambda p, c: p + c <= k


def _sum_gt(k: int) -> RankRel:
    return lambda p, c: p + c > k


def _prod_le(k: int) -> RankRel:
    return lambda p, c: p * c <= k


def _prod_gt(k: int) -> RankRel:
    return lambda p, c: p * c > k


def _prod_mod(k: int) -> RankRel:
    return lambda p, c: (p * c) % k == 0


def _step_in(lo: int, hi: int) -> RankRel:
    return lambda p, c: lo <= c - p <= hi


def arith_rows() -> list[tuple[str, str, RankRel]]:
    """Arithmetic between the two ranks that people write into their rules.

    Sums and products against a bound, a modulus or the primes; distances
    within a bound; steps up or down of 1 to 3; one rank dividing the other.
    (A relation equal to another block, such as an even sum and the same
    parity, is kept once by the space's deduplication.)
    """
    rows: list[tuple[str, str, RankRel]] = []
    for k in (4, 5):
        rows.append((f"(card.rank + prev.rank) % {k} == 0",
                     f"the card's and the last card's ranks add up to a multiple of {k}",
                     _sum_mod(k, 0)))
        rows.append((f"(card.rank + prev.rank) % {k} != 0",
                     f"the card's and the last card's ranks do not add up to a multiple of {k}",
                     _sum_not_mod(k)))
    for r in (1, 2):
        rows.append((f"(card.rank + prev.rank) % 3 == {r}",
                     f"the card's and the last card's ranks add up to {r} more than a "
                     "multiple of 3", _sum_mod(3, r)))
    rows.append(("card.rank + prev.rank in {2, 3, 5, 7, 11, 13, 17, 19, 23}",
                 "the card's and the last card's ranks add up to a prime",
                 lambda p, c: p + c in _PRIME_SUMS))
    rows.append(("card.rank + prev.rank not in {2, 3, 5, 7, 11, 13, 17, 19, 23}",
                 "the card's and the last card's ranks do not add up to a prime",
                 lambda p, c: p + c not in _PRIME_SUMS))
    for k in _SUM_BOUNDS:
        rows.append((f"card.rank + prev.rank <= {k}",
                     f"the card's and the last card's ranks add up to at most {k}", _sum_le(k)))
        rows.append((f"card.rank + prev.rank > {k}",
                     f"the card's and the last card's ranks add up to more than {k}",
                     _sum_gt(k)))
    for k in _PRODUCT_BOUNDS:
        rows.append((f"card.rank * prev.rank <= {k}",
                     f"the card's and the last card's ranks multiply to at most {k}",
                     _prod_le(k)))
        rows.append((f"card.rank * prev.rank > {k}",
                     f"the card's and the last card's ranks multiply to more than {k}",
                     _prod_gt(k)))
    rows.append(("(card.rank * prev.rank) % 2 == 0",
                 "the card's and the last card's ranks multiply to an even number",
                 _prod_mod(2)))
    rows.append(("(card.rank * prev.rank) % 3 == 0",
                 "the card's and the last card's ranks multiply to a multiple of 3",
                 _prod_mod(3)))
    for k in (4, 5):
        rows.append((f"abs(card.rank - prev.rank) <= {k}",
                     f"the card's rank is within {k} of the last card's", _within(k)))
    rows.append(("abs(card.rank - prev.rank) == 3",
                 "the card's rank is exactly 3 away from the last card's", _apart(3)))
    rows.append(("card.rank - prev.rank in 1..3",
                 "the card's rank is 1 to 3 above the last card's", _step_in(1, 3)))
    rows.append(("prev.rank - card.rank in 1..3",
                 "the card's rank is 1 to 3 below the last card's", _step_in(-3, -1)))
    rows.append(("card.rank % prev.rank == 0",
                 "the card's rank is a multiple of the last card's",
                 lambda p, c: c % p == 0))
    rows.append(("prev.rank % card.rank == 0",
                 "the card's rank divides the last card's",
                 lambda p, c: p % c == 0))
    rows.append(("card.rank % prev.rank == 0 or prev.rank % card.rank == 0",
                 "one of the card's and the last card's ranks divides the other",
                 lambda p, c: c % p == 0 or p % c == 0))
    return rows


_SUM_BOUNDS: Final = (8, 11, 12, 13, 15, 16, 18)
_PRODUCT_BOUNDS: Final = (12, 20, 24, 30, 40, 50)


def fine_rows() -> list[tuple[str, str, RankRel]]:
    """Sums and products against every other bound people pick ("sum at least 11").

    Single blocks only (:data:`FINE_TEXTS`): the space never pairs them, so
    they cost one hypothesis each, plus their place in the split families.
    """
    rows: list[tuple[str, str, RankRel]] = []
    for k in range(4, 25):
        if k in _SUM_BOUNDS:
            continue
        rows.append((f"card.rank + prev.rank <= {k}",
                     f"the card's and the last card's ranks add up to at most {k}", _sum_le(k)))
        rows.append((f"card.rank + prev.rank > {k}",
                     f"the card's and the last card's ranks add up to more than {k}",
                     _sum_gt(k)))
    for k in (4, 6, 8, 9, 10, 14, 15, 16, 18, 19, 21, 25, 29, 31, 35, 36, 39, 45, 48, 49,
              59, 60, 64, 72, 80, 99, 100):
        rows.append((f"card.rank * prev.rank <= {k}",
                     f"the card's and the last card's ranks multiply to at most {k}",
                     _prod_le(k)))
        rows.append((f"card.rank * prev.rank > {k}",
                     f"the card's and the last card's ranks multiply to more than {k}",
                     _prod_gt(k)))
    return rows


#: The texts of :func:`fine_rows`: blocks the space keeps single.
FINE_TEXTS: Final = frozenset(text for text, _, _ in fine_rows())


def _prev_rank_ge(r: int) -> Callable[[Card], bool]:
    return lambda p: p.rank >= r


def prev_conditions() -> list[Block]:
    """Natural conditions on the previous card for ``if ... then ... else``."""
    out = [
        prev_block("prev is red", "the last card is red", _attr("red")),
        prev_block("prev is face", "the last card is a face card", _attr("face")),
        prev_block("prev is even", "the last card's rank is even", _attr("even")),
        prev_block("prev is prime", "the last card's rank is prime", _attr("prime")),
        prev_block("prev.rank >= 7", "the last card's rank is at least 7", _prev_rank_ge(7)),
    ]
    for s in Suit:
        w = _SUIT_WORD[s]
        out.append(prev_block(f"prev is {w}", f"the last card is a {w[:-1]}", _suit_in(s)))
    return out


def card_conditions(cards: Sequence[Block]) -> list[Block]:
    """Natural conditions on the card itself for ``if ... then ... else``."""
    wanted = ("card is red", "card is face", "card is even", "card is prime")
    return [b for b in cards if b.text in wanted]
