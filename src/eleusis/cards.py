"""Playing cards: ranks, suits, colors and one canonical text code per card.

Every other part of the game (the rule language, the engine, the computer
scientists, the replay links) speaks about cards through this module, so a
card has exactly one identity:

* ``Card(rank, suit)`` is a frozen value; the 52 distinct cards are interned in
  :data:`ALL_CARDS` and :func:`Card.parse` always returns those instances.
* ``str(card)`` is the canonical code (``"10H"``, ``"QS"``, ``"AD"``), and
  ``Card.parse(str(c)) == c`` for every card.
* ``card.index`` numbers the cards 0..51 (suit-major), which the computer
  scientists use to hold rules as bit sets.

>>> Card.parse("7♥")
Card.parse('7H')
>>> str(Card.parse("10d")), Card.parse("qs").name
('10D', 'queen of spades')
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from eleusis.i18n import N_, _


class CardError(ValueError):
    """A card code that names no card (``"1Z"``, ``""``, ``"11H"``).

    What :meth:`Card.parse`, :func:`parse_rank`, :func:`parse_suit` and
    :func:`parse_cards` raise for any text, and only this: a page reading a
    card code from outside (a link, a tampered ``data-intent``) catches it and
    refuses with its message, which is for people and quotes at most the
    first 12 characters of the text.
    """


def _quoted(text: object) -> str:
    """A text from outside, shortened and made printable for a message."""
    s = str(text)
    s = "".join(ch if ch.isprintable() else "\ufffd" for ch in s[:12])
    return repr(s + ("…" if len(str(text)) > 12 else ""))


class Color(enum.Enum):
    """The two colors of a French deck."""

    RED = "red"
    BLACK = "black"

    def __str__(self) -> str:
        return self.value


class Suit(enum.Enum):
    """The four suits, in the order used for card indices and sorting."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def color(self) -> Color:
        """Hearts and diamonds are red; spades and clubs black."""
        return Color.RED if self in (Suit.HEARTS, Suit.DIAMONDS) else Color.BLACK

    @property
    def symbol(self) -> str:
        """The suit glyph (``♠ ♥ ♦ ♣``)."""
        return _SUIT_SYMBOLS[self]

    @property
    def noun(self) -> str:
        """The plural English noun (``"hearts"``), as in "7 of hearts"."""
        return self.name.lower()

    @property
    def order(self) -> int:
        """0..3 in declaration order (spades, hearts, diamonds, clubs)."""
        return _SUIT_ORDER[self]

    def __str__(self) -> str:
        return self.noun


_SUIT_SYMBOLS: Final = {
    Suit.SPADES: "♠",
    Suit.HEARTS: "♥",
    Suit.DIAMONDS: "♦",
    Suit.CLUBS: "♣",
}
_SUIT_ORDER: Final = {s: i for i, s in enumerate(Suit)}
SUITS: Final[tuple[Suit, ...]] = tuple(Suit)

#: Ranks are integers: A=1, 2..10, J=11, Q=12, K=13.
RANKS: Final[tuple[int, ...]] = tuple(range(1, 14))
ACE: Final = 1
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13

_RANK_CODES: Final = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RANK_NAMES: Final = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
_PRIME_RANKS: Final = frozenset({2, 3, 5, 7, 11, 13})


def rank_code(rank: int) -> str:
    """The rank as written on a card: ``A``, ``2``..``10``, ``J``, ``Q``, ``K``."""
    if rank not in RANKS:
        raise CardError(f"no rank {rank}: ranks run from 1 (ace) to 13 (king)")
    return _RANK_CODES.get(rank, str(rank))


def rank_name(rank: int) -> str:
    """The rank in words for screen readers: ``"ace"``, ``"7"``, ``"queen"``."""
    if rank not in RANKS:
        raise CardError(f"no rank {rank}: ranks run from 1 (ace) to 13 (king)")
    return _RANK_NAMES.get(rank, str(rank))


#: Words for :func:`card_name`, translated when said.
_RANK_WORDS: Final = {1: N_("ace"), 11: N_("jack"), 12: N_("queen"), 13: N_("king")}
_SUIT_WORDS: Final = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}


def card_name(card: Card) -> str:
    """The card in words in the player's language (:mod:`eleusis.i18n`):
    ``"7 of hearts"``, ``"dama kier"``; :attr:`Card.name` stays English.

    >>> card_name(Card.parse("QH"))
    'queen of hearts'
    """
    rank = _(_RANK_WORDS[card.rank]) if card.rank in _RANK_WORDS else str(card.rank)
    return _("{rank} of {suit}").format(rank=rank, suit=suit_name(card.suit.value))


def suit_name(suit: str) -> str:
    """A suit (``"S"``, ``"H"``, ``"D"``, ``"C"``) in words in the player's language.

    >>> suit_name("H")
    'hearts'
    """
    return _(_SUIT_WORDS[suit])


def parse_rank(text: str) -> int:
    """Read a rank code (``A``, ``2``..``10``, ``J``, ``Q``, ``K``; any case)."""
    t = text.strip().upper()
    for value, code in _RANK_CODES.items():
        if t == code:
            return value
    if t.isdigit() and t.isascii() and 2 <= int(t) <= 10 and not t.startswith("0"):
        return int(t)
    raise CardError(f"{_quoted(text)} is not a rank: use A, 2-10, J, Q or K")


_SUIT_INPUT: Final = {
    "S": Suit.SPADES,
    "H": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}


def parse_suit(text: str) -> Suit:
    """Read a suit letter (``S H D C``), glyph (``♠ ♥ ♦ ♣``) or noun (``hearts``)."""
    t = text.strip()
    found = _SUIT_INPUT.get(t.upper())
    if found is not None:
        return found
    for suit in Suit:
        if t.lower() in (suit.noun, suit.noun[:-1]):
            return suit
    raise CardError(f"{_quoted(text)} is not a suit: use S, H, D, C or ♠ ♥ ♦ ♣")


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Compare, hash and sort by value; print as its code."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if self.rank not in RANKS:
            raise CardError(f"no rank {self.rank}: ranks run from 1 (ace) to 13 (king)")
        if not isinstance(self.suit, Suit):
            raise CardError(f"{self.suit!r} is not a Suit")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card code: ``10H``, ``QS``, ``7♥``, ``10♦``, ``as``, ``T♣`` (T = 10).

        Raises :class:`CardError` with a readable message for anything else.
        """
        if not isinstance(text, str):
            raise CardError(f"a card code must be text, not {type(text).__name__}")
        t = text.strip()
        if len(t) < 2:
            raise CardError(
                f"{_quoted(text)} is not a card: write a rank and a suit, like 10H or Q♠")
        rank_part, suit_part = t[:-1], t[-1]
        if rank_part.upper() == "T":
            rank_part = "10"
        try:
            rank = parse_rank(rank_part)
            suit = parse_suit(suit_part)
        except CardError:
            raise CardError(
                f"{_quoted(text)} is not a card: write a rank (A, 2-10, J, Q, K) and a suit "
                "(S, H, D, C or ♠ ♥ ♦ ♣), like 10H or Q♠"
            ) from None
        return ALL_CARDS[suit.order * 13 + rank - 1]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card numbered ``index`` (0..51); inverse of :attr:`index`."""
        if not 0 <= index < 52:
            raise CardError(f"no card has index {index}: indices run 0..51")
        return ALL_CARDS[index]

    @property
    def index(self) -> int:
        """0..51: suit-major (spades A..K, hearts A..K, diamonds, clubs)."""
        return self.suit.order * 13 + self.rank - 1

    @property
    def color(self) -> Color:
        """The suit's color."""
        return self.suit.color

    @property
    def red(self) -> bool:
        """Hearts or diamonds."""
        return self.suit in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def black(self) -> bool:
        """Spades or clubs."""
        return not self.red

    @property
    def face(self) -> bool:
        """J, Q or K."""
        return self.rank >= JACK

    @property
    def numeral(self) -> bool:
        """A to 10."""
        return self.rank <= 10

    @property
    def even(self) -> bool:
        """Even rank (2, 4, .. 10, Q)."""
        return self.rank % 2 == 0

    @property
    def odd(self) -> bool:
        """Odd rank (A, 3, .. 9, J, K)."""
        return self.rank % 2 == 1

    @property
    def prime(self) -> bool:
        """Rank 2, 3, 5, 7, J (11) or K (13)."""
        return self.rank in _PRIME_RANKS

    @property
    def code(self) -> str:
        """The canonical code, same as ``str(card)``: ``"10H"``."""
        return rank_code(self.rank) + self.suit.value

    @property
    def symbol(self) -> str:
        """The code with a suit glyph: ``"10♥"``."""
        return rank_code(self.rank) + self.suit.symbol

    @property
    def name(self) -> str:
        """The card in words, for screen readers: ``"7 of hearts"``."""
        return f"{rank_name(self.rank)} of {self.suit.noun}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.sort_key < other.sort_key

    @property
    def sort_key(self) -> tuple[int, int]:
        """Sort by suit then rank, the way a player arranges a hand."""
        return (self.suit.order, self.rank)


ALL_CARDS: Final[tuple[Card, ...]] = tuple(Card(r, s) for s in Suit for r in RANKS)
"""The 52 cards of one deck, in index order."""


def deck(copies: int = 1) -> list[Card]:
    """``copies`` full decks in index order (unshuffled)."""
    if copies < 0:
        raise ValueError("a negative number of decks")
    return [c for _ in range(copies) for c in ALL_CARDS]


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by spaces or commas: ``"7S KH 3♦"`` (:class:`CardError` if not)."""
    if not isinstance(text, str):
        raise CardError(f"cards must be written as text, not {type(text).__name__}")
    return [Card.parse(t) for t in text.replace(",", " ").split()]
