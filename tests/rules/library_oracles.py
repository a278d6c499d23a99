"""Independent plain-Python oracles for the rule library.

Each oracle is written from the rule's English description, in plain Python on
ranks and suits, without looking at the rule-language text or using the rule
engine (not even the ``Card`` attribute helpers: ranks and suits only). It
takes the mainline (oldest first) and the card being judged.

The design's missing-card semantics ("touching prevK on a mainline shorter than
K accepts the card; evaluation is lazy, left to right") is reproduced by
:func:`p`, which raises :class:`Missing` and is caught by :func:`oracle`. Every
oracle reads the cards in the same left-to-right order as the English
description, which is also the order of the rule text.

``READS`` declares, for each oracle, what it reads of each looked-back slot:
``"rank"`` (only the rank), ``"suit"`` (only the suit, so also the color) or
``"card"`` (both). The exhaustive test enumerates a slot that only reads the
rank over one suit's 13 cards and a slot that only reads the suit over 4 cards;
this is exact because both the oracle (by construction, see READS) and the rule
(checked syntactically on its text by the test) are then invariant under the
rest of that slot.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from eleusis.cards import Card, Suit

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
REDS = frozenset({H, D})
PRIMES = frozenset({2, 3, 5, 7, 11, 13})

Oracle = Callable[[Sequence[Card], Card], bool]


class Missing(Exception):
    """A looked-back card that the mainline does not have yet."""


def p(ml: Sequence[Card], k: int) -> Card:
    """The k-th last card of the mainline, or :class:`Missing`."""
    if len(ml) < k:
        raise Missing
    return ml[-k]


def red(c: Card) -> bool:
    return c.suit in REDS


def odd(c: Card) -> bool:
    return c.rank % 2 == 1


def face(c: Card) -> bool:
    return c.rank >= 11


def prime(c: Card) -> bool:
    return c.rank in PRIMES


def nxt(x: object, cycle: Sequence[object]) -> object:
    return cycle[(list(cycle).index(x) + 1) % len(cycle)]


def wrap(n: int) -> int:
    return (n - 1) % 13 + 1


ORACLES: dict[str, Oracle] = {}
READS: dict[str, tuple[str, ...]] = {}


def oracle(name: str, *reads: str) -> Callable[[Oracle], Oracle]:
    """Register an oracle; ``reads`` gives what it reads of prev, prev2, prev3."""

    def deco(f: Oracle) -> Oracle:
        def wrapped(ml: Sequence[Card], card: Card) -> bool:
            try:
                return f(ml, card)
            except Missing:
                return True

        ORACLES[name] = wrapped
        READS[name] = reads
        return wrapped

    return deco


def card_only(name: str, test: Callable[[Card], bool]) -> None:
    """An oracle that reads only the judged card."""
    ORACLES[name] = lambda ml, card: test(card)
    READS[name] = ()


def prev_only(name: str, read: str, test: Callable[[Card, Card], bool]) -> None:
    """An oracle that reads the card and the last card (``test(card, prev)``)."""
    oracle(name, read)(lambda ml, card: test(card, p(ml, 1)))


# --------------------------------------------------------------- seeds
prev_only("suit-cycle-shdc", "suit", lambda c, q: c.suit == nxt(q.suit, [S, H, D, C]))
prev_only("odd-red-even-black", "rank", lambda c, q: red(c) if odd(q) else not red(c))
prev_only("one-higher", "rank", lambda c, q: c.rank == q.rank + 1)
prev_only("different-suit", "suit", lambda c, q: c.suit != q.suit)
prev_only("alternate-colors", "suit", lambda c, q: red(c) != red(q))
prev_only("each-higher", "rank", lambda c, q: c.rank > q.rank)
card_only("seed-primes", lambda c: c.rank in (2, 3, 5, 7, 11))
prev_only("plus-one-or-minus-two", "rank", lambda c, q: c.rank - q.rank in (1, -2))
prev_only("suit-cycle-hcds", "suit", lambda c, q: c.suit == nxt(q.suit, [H, C, D, S]))
prev_only("higher-unless-face", "rank", lambda c, q: c.rank <= 10 if face(q) else c.rank > q.rank)
prev_only("odd-black-else-red", "rank", lambda c, q: not red(c) if odd(q) else red(c))
prev_only(
    "black-up-red-down",
    "card",
    lambda c, q: c.rank <= q.rank if red(q) else c.rank >= q.rank,
)
prev_only("same-suit-or-rank", "card", lambda c, q: c.suit == q.suit or c.rank == q.rank)
prev_only("primes-alternate", "rank", lambda c, q: prime(c) != prime(q))


@oracle("too-complicated", "rank", "rank", "rank")
def _too_complicated(ml: Sequence[Card], c: Card) -> bool:
    remainder = (p(ml, 1).rank * p(ml, 2).rank * p(ml, 3).rank) % 4
    if remainder == 0:
        return red(c) or c.rank > 6
    if remainder == 1:
        return not red(c) or face(c)
    if remainder == 2:
        return not odd(c) or c.rank < 6
    return odd(c) or c.rank == 10


@oracle("cyclic-ace-three")
def _cyclic(ml: Sequence[Card], c: Card) -> bool:
    return c.rank == (1 if len(ml) % 2 == 0 else 3)


prev_only(
    "acyclic-odd-steps",
    "rank",
    lambda c, q: c.rank == [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2][q.rank - 1],
)


@oracle("finite-odd-run")
def _finite(ml: Sequence[Card], c: Card) -> bool:
    sequence = [1, 3, 5, 7, 9]
    return len(ml) < 5 and c.rank == sequence[len(ml)]


card_only("odd-only", lambda c: c.rank in (1, 3, 5, 7, 9, 11, 13))
card_only("red-only", lambda c: c.suit in (H, D))

# --------------------------------------------------------- difficulty 1
card_only("black-only", lambda c: c.suit in (S, C))
card_only("even-only", lambda c: c.rank in (2, 4, 6, 8, 10, 12))
card_only("primes-only", lambda c: c.rank in (2, 3, 5, 7, 11, 13))
card_only("no-primes", lambda c: c.rank in (1, 4, 6, 8, 9, 10, 12))
card_only("faces-only", lambda c: c.rank in (11, 12, 13))
card_only("hearts-only", lambda c: c.suit is H)
card_only("clubs-only", lambda c: c.suit is C)
card_only("spades-or-diamonds", lambda c: c.suit in (S, D))
card_only("low-cards", lambda c: 1 <= c.rank <= 6)
card_only("high-cards", lambda c: 8 <= c.rank <= 13)
card_only("middle-cards", lambda c: 4 <= c.rank <= 10)
card_only("no-middle-cards", lambda c: c.rank in (1, 2, 3, 4, 10, 11, 12, 13))
card_only("aces-and-faces", lambda c: c.rank in (1, 11, 12, 13))
card_only("multiples-of-three", lambda c: c.rank in (3, 6, 9, 12))
card_only("one-mod-four", lambda c: c.rank in (1, 5, 9, 13))
card_only("squares", lambda c: c.rank in (1, 4, 9))
card_only("powers-of-two", lambda c: c.rank in (1, 2, 4, 8))
card_only("fibonacci", lambda c: c.rank in (1, 2, 3, 5, 8, 13))
card_only("spades-only", lambda c: c.suit is S)
card_only("two-to-nine", lambda c: 2 <= c.rank <= 9)

# --------------------------------------------------------- difficulty 2
card_only("red-odd-black-even", lambda c: odd(c) if red(c) else not odd(c))
card_only("red-numerals", lambda c: red(c) and c.rank <= 10)
card_only("black-or-face", lambda c: not red(c) or face(c))
card_only("red-primes-black-others", lambda c: prime(c) if red(c) else not prime(c))
card_only("hearts-or-low", lambda c: c.suit is H or c.rank <= 3)
card_only("small-evens", lambda c: c.rank in (2, 4, 6, 8))
card_only("black-odds", lambda c: not red(c) and odd(c))
card_only("red-faces-black-numerals", lambda c: red(c) if face(c) else not red(c))
card_only("red-evens", lambda c: red(c) and not odd(c))
card_only("spades-or-face", lambda c: c.suit is S or face(c))
card_only("diamonds-or-odd", lambda c: c.suit is D or odd(c))
card_only(
    "suit-bands",
    lambda c: {S: c.rank <= 4, H: 5 <= c.rank <= 8}.get(c.suit, c.rank >= 9),
)
card_only(
    "rank-mod-three-colors",
    lambda c: [red(c), not red(c), face(c)][c.rank % 3],
)
card_only("black-high-or-red-low", lambda c: c.rank <= 5 if red(c) else c.rank >= 8)
prev_only("same-color", "suit", lambda c, q: red(c) == red(q))
prev_only("same-suit", "suit", lambda c, q: c.suit == q.suit)
prev_only("alternate-parity", "rank", lambda c, q: odd(c) != odd(q))
prev_only("same-parity", "rank", lambda c, q: odd(c) == odd(q))
prev_only("faces-and-numerals-alternate", "rank", lambda c, q: face(c) != face(q))
prev_only("suit-cycle-bridge", "suit", lambda c, q: c.suit == nxt(q.suit, [C, D, H, S]))
prev_only("suit-cycle-scdh", "suit", lambda c, q: c.suit == nxt(q.suit, [S, C, H, D]))
prev_only("nothing-in-common", "card", lambda c, q: c.rank != q.rank and c.suit != q.suit)
prev_only("other-suit-same-color", "suit", lambda c, q: red(c) == red(q) and c.suit != q.suit)
prev_only("same-color-or-rank", "card", lambda c, q: red(c) == red(q) or c.rank == q.rank)
prev_only(
    "same-suit-or-next",
    "suit",
    lambda c, q: c.suit in (q.suit, nxt(q.suit, [S, H, D, C])),
)

# --------------------------------------------------------- difficulty 3
prev_only("close-ranks", "rank", lambda c, q: abs(c.rank - q.rank) <= 2)
prev_only("far-ranks", "rank", lambda c, q: abs(c.rank - q.rank) >= 5)
prev_only("one-step", "rank", lambda c, q: c.rank in (q.rank - 1, q.rank + 1))
prev_only(
    "up-low-down-high",
    "rank",
    lambda c, q: c.rank > q.rank if q.rank <= 7 else c.rank < q.rank,
)
prev_only("high-low-alternate", "rank", lambda c, q: (c.rank >= 8) != (q.rank >= 8))
prev_only("stay-in-half", "rank", lambda c, q: (c.rank >= 8) == (q.rank >= 8))
prev_only("sum-multiple-of-three", "rank", lambda c, q: (c.rank + q.rank) % 3 == 0)
prev_only("sum-at-least-fourteen", "rank", lambda c, q: c.rank + q.rank >= 14)
prev_only("higher-or-same-suit", "card", lambda c, q: c.rank > q.rank or c.suit == q.suit)
prev_only("lower-or-same-color", "card", lambda c, q: c.rank < q.rank or red(c) == red(q))
prev_only("red-after-face", "rank", lambda c, q: red(c) if face(q) else not red(c))
prev_only("parity-follows-color", "suit", lambda c, q: odd(c) if red(q) else not odd(c))


@oracle("color-by-position")
def _color_by_position(ml: Sequence[Card], c: Card) -> bool:
    position = len(ml) + 1
    return red(c) if position % 2 == 1 else not red(c)


@oracle("parity-by-position")
def _parity_by_position(ml: Sequence[Card], c: Card) -> bool:
    return odd(c) == (len(ml) % 2 == 0)


prev_only("same-rank-or-color-change", "card", lambda c, q: c.rank == q.rank or red(c) != red(q))
prev_only(
    "red-up-black-down",
    "card",
    lambda c, q: c.rank >= q.rank if red(q) else c.rank <= q.rank,
)
prev_only(
    "climb-one-to-three",
    "rank",
    lambda c, q: c.rank in {wrap(q.rank + 1), wrap(q.rank + 2), wrap(q.rank + 3)},
)
prev_only("down-or-reset", "rank", lambda c, q: c.rank < q.rank or q.rank in (1, 2))
prev_only("same-suit-or-face", "suit", lambda c, q: c.suit == q.suit or face(c))
prev_only("change-color-or-face", "suit", lambda c, q: red(c) != red(q) or face(c))
prev_only(
    "same-suit-or-one-up",
    "card",
    lambda c, q: c.suit == q.suit or c.rank == (1 if q.rank == 13 else q.rank + 1),
)
prev_only("face-after-black", "suit", lambda c, q: c.rank <= 10 if red(q) else face(c))
prev_only("red-after-prime", "rank", lambda c, q: red(c) == prime(q))
prev_only("neighbours", "rank", lambda c, q: c.rank in (q.rank - 1, q.rank, q.rank + 1))
prev_only("jump-three-or-four", "rank", lambda c, q: abs(c.rank - q.rank) in (3, 4))
prev_only(
    "same-parity-new-rank",
    "rank",
    lambda c, q: odd(c) == odd(q) and c.rank != q.rank,
)
prev_only("one-of-two-low", "rank", lambda c, q: c.rank <= 4 or q.rank <= 4)
prev_only("mirror-sum", "rank", lambda c, q: c.rank + q.rank in (13, 14, 15))
prev_only("climb-to-face", "rank", lambda c, q: c.rank <= 5 if face(q) else c.rank > q.rank)

# --------------------------------------------------------- difficulty 4
prev_only(
    "same-color-up-other-down",
    "card",
    lambda c, q: (c.rank > q.rank and red(c) == red(q)) or (c.rank < q.rank and red(c) != red(q)),
)


@oracle("red-climbs-black-falls", "rank")
def _red_climbs(ml: Sequence[Card], c: Card) -> bool:
    # The card's color is judged first; only then is the last card looked at.
    if red(c):
        return c.rank > p(ml, 1).rank
    return c.rank < p(ml, 1).rank


@oracle("position-suit-cycle")
def _position_suit_cycle(ml: Sequence[Card], c: Card) -> bool:
    return c.suit == [H, S, D, C][len(ml) % 4]


@oracle("position-red-red-black")
def _position_rrb(ml: Sequence[Card], c: Card) -> bool:
    return red(c) == (len(ml) % 3 != 2)


@oracle("face-every-third")
def _face_every_third(ml: Sequence[Card], c: Card) -> bool:
    return face(c) if (len(ml) + 1) % 3 == 0 else not face(c)


@oracle("up-even-down-odd", "rank")
def _up_even(ml: Sequence[Card], c: Card) -> bool:
    if (len(ml) + 1) % 2 == 0:
        return c.rank >= p(ml, 1).rank
    return c.rank <= p(ml, 1).rank


oracle("color-differs-two-back", "none", "suit")(lambda ml, c: red(c) != red(p(ml, 2)))
oracle("color-as-two-back", "none", "suit")(lambda ml, c: red(c) == red(p(ml, 2)))
oracle("suit-as-two-back", "none", "suit")(lambda ml, c: c.suit == p(ml, 2).suit)


@oracle("fresh-suit", "suit", "suit")
def _fresh_suit(ml: Sequence[Card], c: Card) -> bool:
    return c.suit != p(ml, 1).suit and c.suit != p(ml, 2).suit


oracle("even-sum-of-three", "rank", "rank")(
    lambda ml, c: (c.rank + p(ml, 1).rank + p(ml, 2).rank) % 2 == 0
)
prev_only(
    "prev-rank-mod-three",
    "rank",
    lambda c, q: [red(c), not red(c), face(c)][q.rank % 3],
)


@oracle("suit-two-back-or-rank", "rank", "suit")
def _suit_two_back_or_rank(ml: Sequence[Card], c: Card) -> bool:
    return c.suit == p(ml, 2).suit or c.rank == p(ml, 1).rank


@oracle("parity-every-third")
def _parity_every_third(ml: Sequence[Card], c: Card) -> bool:
    return odd(c) if (len(ml) + 1) % 3 == 0 else not odd(c)


prev_only(
    "face-then-same-suit",
    "card",
    lambda c, q: c.suit == q.suit if face(q) else c.rank > q.rank,
)


@oracle("suit-two-positions")
def _suit_two_positions(ml: Sequence[Card], c: Card) -> bool:
    return c.suit == (S if len(ml) % 2 == 0 else H)


@oracle("rising-caps")
def _rising_caps(ml: Sequence[Card], c: Card) -> bool:
    return c.rank <= (4, 8, 12)[len(ml) % 3]


@oracle("red-then-black-after-ten")
def _red_then_black(ml: Sequence[Card], c: Card) -> bool:
    return red(c) if len(ml) < 10 else not red(c)


@oracle("position-sum-not-three")
def _position_sum(ml: Sequence[Card], c: Card) -> bool:
    return (c.rank + len(ml) + 1) % 3 != 0


@oracle("red-after-rise", "rank", "rank")
def _red_after_rise(ml: Sequence[Card], c: Card) -> bool:
    rose = p(ml, 1).rank > p(ml, 2).rank
    return red(c) if rose else not red(c)


prev_only(
    "last-rank-picks-suit",
    "rank",
    lambda c, q: c.suit == {0: H, 1: S, 2: D, 3: C}[q.rank % 4],
)


@oracle("ace-king-ladder", "rank")
def _ace_king_ladder(ml: Sequence[Card], c: Card) -> bool:
    last = p(ml, 1).rank
    if last == 1:
        return face(c)
    if last == 13:
        return c.rank == 1
    return c.rank > last


prev_only(
    "rank-class-cycle",
    "rank",
    lambda c, q: c.rank % 3 == (q.rank % 3 + 1) % 3,
)


@oracle("half-by-card-color", "rank")
def _half_by_card_color(ml: Sequence[Card], c: Card) -> bool:
    last = p(ml, 1).rank
    if red(c):
        return c.rank > last or last >= 12
    return c.rank <= last


# --------------------------------------------------------- difficulty 5
@oracle("zigzag", "rank", "rank")
def _zigzag(ml: Sequence[Card], c: Card) -> bool:
    last, before = p(ml, 1).rank, p(ml, 2).rank
    return c.rank <= last if last > before else c.rank >= last


oracle("sum-of-three-mod-three", "rank", "rank")(
    lambda ml, c: (c.rank + p(ml, 1).rank + p(ml, 2).rank) % 3 == 0
)


@oracle("suits-in-pairs", "suit", "suit")
def _suits_in_pairs(ml: Sequence[Card], c: Card) -> bool:
    last, before = p(ml, 1).suit, p(ml, 2).suit
    return c.suit != last if last == before else c.suit == last


@oracle("four-suit-window", "suit", "suit", "suit")
def _four_suit_window(ml: Sequence[Card], c: Card) -> bool:
    # Left to right: the last card first, then two back, then three back.
    if c.suit == p(ml, 1).suit:
        return False
    if c.suit == p(ml, 2).suit:
        return False
    return c.suit != p(ml, 3).suit


@oracle("prev-suit-decides", "suit")
def _prev_suit_decides(ml: Sequence[Card], c: Card) -> bool:
    suit = p(ml, 1).suit
    if suit is S:
        return face(c)
    if suit is H:
        return odd(c)
    if suit is D:
        return not odd(c)
    return c.rank <= 5


@oracle("prev-suit-directions", "card")
def _prev_suit_directions(ml: Sequence[Card], c: Card) -> bool:
    last = p(ml, 1)
    if last.suit is S:
        return red(c)
    if last.suit is H:
        return not red(c)
    if last.suit is D:
        return c.rank >= last.rank
    return c.rank <= last.rank


@oracle("face-every-fourth-else-alternate", "suit")
def _face_every_fourth(ml: Sequence[Card], c: Card) -> bool:
    if (len(ml) + 1) % 4 == 0:
        return face(c)
    return red(c) != red(p(ml, 1))


@oracle("even-follow-odd-change", "suit")
def _even_follow(ml: Sequence[Card], c: Card) -> bool:
    if (len(ml) + 1) % 2 == 0:
        return c.suit == p(ml, 1).suit
    return red(c) != red(p(ml, 1))


@oracle("rise-or-change-color", "suit", "rank")
def _rise_or_change(ml: Sequence[Card], c: Card) -> bool:
    # Two back is looked at first, as the description reads.
    return c.rank > p(ml, 2).rank or red(c) != red(p(ml, 1))


@oracle("sum-parity-color", "rank", "rank")
def _sum_parity_color(ml: Sequence[Card], c: Card) -> bool:
    even = (p(ml, 1).rank + p(ml, 2).rank) % 2 == 0
    return red(c) if even else not red(c)


@oracle("higher-than-both-or-face", "rank", "rank")
def _higher_than_both(ml: Sequence[Card], c: Card) -> bool:
    return c.rank > max(p(ml, 1).rank, p(ml, 2).rank) or face(c)


@oracle("color-two-back-new-rank", "rank", "card")
def _color_two_back_new_rank(ml: Sequence[Card], c: Card) -> bool:
    if c.rank == p(ml, 1).rank:
        return False
    if c.rank == p(ml, 2).rank:
        return False
    return red(c) == red(p(ml, 2))


@oracle("near-fibonacci", "rank", "rank")
def _near_fibonacci(ml: Sequence[Card], c: Card) -> bool:
    total = p(ml, 1).rank + p(ml, 2).rank
    target = total if total <= 13 else total - 13
    return target - 1 <= c.rank <= target + 1


@oracle("echo-or-step", "rank", "rank")
def _echo_or_step(ml: Sequence[Card], c: Card) -> bool:
    if c.rank == p(ml, 2).rank:
        return True
    return c.rank in (p(ml, 1).rank - 1, p(ml, 1).rank + 1)


@oracle("face-after-color-pair", "suit", "suit")
def _face_after_color_pair(ml: Sequence[Card], c: Card) -> bool:
    return face(c) if red(p(ml, 1)) == red(p(ml, 2)) else not face(c)


@oracle("third-follows-suit", "card")
def _third_follows_suit(ml: Sequence[Card], c: Card) -> bool:
    if (len(ml) + 1) % 3 == 0:
        return c.suit == p(ml, 1).suit
    return c.rank != p(ml, 1).rank and red(c) != red(p(ml, 1))


@oracle("two-back-rank-picks-suit", "none", "rank")
def _two_back_rank_picks_suit(ml: Sequence[Card], c: Card) -> bool:
    return c.suit == (S, H, D, C)[(p(ml, 2).rank - 1) % 4]


@oracle("odd-position-higher", "none", "rank")
def _odd_position_higher(ml: Sequence[Card], c: Card) -> bool:
    if (len(ml) + 1) % 2 == 1:
        two_back = p(ml, 2).rank
        return c.rank > two_back or two_back >= 11
    return not red(c)


@oracle("color-run-then-suit", "card", "suit")
def _color_run_then_suit(ml: Sequence[Card], c: Card) -> bool:
    last = p(ml, 1)
    if red(c) == red(last):
        return c.suit == p(ml, 2).suit
    return c.rank != last.rank
