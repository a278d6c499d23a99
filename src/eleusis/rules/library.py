"""The verified rule library: named secret rules a dealer can pick.

Every rule here is a text in the rule language (``rule-language.md``) with a
hand-written English description, a difficulty and a source. The tests pin each
rule with an independent plain-Python oracle on every context up to its
look-back (``tests/rules/test_library.py``), check that the texts are canonical
and that no two rules are equivalent in the game sense (``compare``).

Difficulty (1 = easiest to discover, 5 = hardest):

1. one attribute of the card alone (``card is odd``, ``card is hearts``,
   ``card.rank <= 6``, a set of ranks);
2. two attributes of the card alone, or one plain relation with the last card
   on one attribute (same/different color, a suit cycle, same suit or rank);
3. a conditional on the last card, a rank relation with arithmetic
   (``abs(card.rank - prev.rank) <= 2``), or a position parity;
4. two combined conditions or relations, look-back 2 with one attribute, or a
   position cycle (``pick(pos, ...)``);
5. several conditions, look-back 2 or 3 with arithmetic, position patterns
   combined with relations.

Playability band: apart from the seeds' deliberately extreme examples (flagged
``extreme=True`` and tagged ``"extreme"``: the "far too restrictive", "far too
permissive" and "finite" laws the seeds cite as warnings or curiosities), every
rule has an acceptance rate within :data:`ACCEPTANCE_BAND`, both over its
first 40 plays and over the last 10 of them (so a rule drifting into a corner
is caught), and no reachable dead end. The tests enforce this exactly with
:func:`eleusis.rules.generate.explore` and cross-check with ``analyse``.

Sources: ``seed 000`` is the Eleusis Express text (Abbott, Golden), ``seed 001``
an Eleusis rules summary, ``seed 003`` the Polish Wikipedia article, ``seed
004`` Cesco Reale's Royal Eleusis (quoting Gardner 1977); ``house`` rules were
written for this project.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cached_property
from typing import Final

from eleusis.rules import Rule, parse

#: Acceptance rates every non-extreme library rule must have: the thresholds
#: of :func:`eleusis.rules.analyse` (``TOO_RESTRICTIVE``, ``TOO_PERMISSIVE``).
#: Below 0.12 players see almost only mistakes ("the next card must be one
#: higher" is the seeds' "far too restrictive"); above 0.75 almost every card
#: is right ("a different suit" is their "far too permissive").
ACCEPTANCE_BAND: Final = (0.12, 0.75)

SEED_000: Final = "seed 000 (Eleusis Express)"
SEED_001: Final = "seed 001 (Eleusis rules summary)"
SEED_001_003: Final = "seed 001 and seed 003 (Eleusis rules summaries)"
SEED_004: Final = "seed 004 (Royal Eleusis, after Gardner 1977)"
HOUSE: Final = "house"


@dataclass(frozen=True)
class LibraryRule:
    """One named rule of the library.

    ``name`` is a stable slug (used in saved games and links), ``title`` a
    short human name, ``text`` the rule-language source (canonical form),
    ``description`` the English a dealer or player reads (written by hand, not
    generated), ``difficulty`` 1..5 (see the module docstring), ``source``
    where the rule comes from, ``tags`` free keywords, ``extreme`` marks the
    seeds' deliberately extreme examples (outside the playability band or with
    a dead end).
    """

    name: str
    title: str
    text: str
    description: str
    difficulty: int
    source: str
    tags: tuple[str, ...] = field(default=())
    extreme: bool = False

    @cached_property
    def rule(self) -> Rule:
        """The parsed rule (parsed once, on first use)."""
        return parse(self.text)


def _r(
    name: str,
    title: str,
    text: str,
    description: str,
    difficulty: int,
    source: str = HOUSE,
    tags: tuple[str, ...] = (),
    *,
    extreme: bool = False,
) -> LibraryRule:
    return LibraryRule(name, title, text, description, difficulty, source, tags, extreme)


RULES: Final[tuple[LibraryRule, ...]] = (
    # ---------------------------------------------------------------- seeds
    _r(
        "suit-cycle-shdc",
        "Suit cycle ♠ ♥ ♦ ♣",
        "card.suit == next(prev.suit, [spades, hearts, diamonds, clubs])",
        "After a spade play a heart, after a heart a diamond, after a diamond a club "
        "and after a club a spade.",
        2,
        SEED_000,
        ("suits", "cycle", "seed"),
    ),
    _r(
        "odd-red-even-black",
        "Odd then red, even then black",
        "if prev is odd then card is red else card is black",
        "If the last card is odd, play a red card; if it is even, play a black card.",
        3,
        SEED_000,
        ("parity", "colors", "conditional", "seed"),
    ),
    _r(
        "one-higher",
        "One higher",
        "card.rank == prev.rank + 1",
        "Each card must be exactly one rank higher than the last (the seeds' example "
        "of a far too restrictive rule: nothing can follow a king).",
        2,
        SEED_000,
        ("ranks", "up", "seed", "extreme"),
        extreme=True,
    ),
    _r(
        "different-suit",
        "A different suit",
        "card.suit != prev.suit",
        "Each card must be of a different suit from the last (the seeds' example of a "
        "far too permissive rule).",
        2,
        SEED_000,
        ("suits", "seed", "extreme"),
        extreme=True,
    ),
    _r(
        "alternate-colors",
        "Alternate colors",
        "card.color != prev.color",
        "Red and black cards alternate: each card is of the other color from the last.",
        2,
        SEED_001,
        ("colors", "seed"),
    ),
    _r(
        "each-higher",
        "Each card higher",
        "card.rank > prev.rank",
        "Each card must be higher than the last (a seed example; nothing can follow a "
        "king, so the line soon dead-ends).",
        2,
        SEED_001,
        ("ranks", "up", "seed", "extreme"),
        extreme=True,
    ),
    _r(
        "seed-primes",
        "Prime numbers only",
        "card.rank in {2, 3, 5, 7, J}",
        "Only the primes 2, 3, 5, 7 and the jack (11) may be played (the seed's own "
        "list: the king, 13, does not count here).",
        1,
        SEED_001,
        ("ranks", "primes", "seed"),
    ),
    _r(
        "plus-one-or-minus-two",
        "One up or two down",
        "card.rank == prev.rank + 1 or card.rank == prev.rank - 2",
        "Each card must be either one rank higher or two ranks lower than the last.",
        3,
        SEED_001,
        ("ranks", "arithmetic", "seed"),
    ),
    _r(
        "suit-cycle-hcds",
        "Suit cycle ♥ ♣ ♦ ♠",
        "card.suit == next(prev.suit, [hearts, clubs, diamonds, spades])",
        "The suits go round in the order hearts, clubs, diamonds, spades, then hearts again.",
        2,
        SEED_001,
        ("suits", "cycle", "seed"),
    ),
    _r(
        "higher-unless-face",
        "Higher, or a numeral after a face",
        "if prev is face then card is numeral else card.rank > prev.rank",
        "Each card must be higher than the last, unless the last was a face card: then "
        "any numeral card (ace to 10) may be played.",
        3,
        SEED_001_003,
        ("ranks", "faces", "conditional", "seed"),
    ),
    _r(
        "odd-black-else-red",
        "Odd then black, else red",
        "if prev is odd then card is black else card is red",
        "If the last card was odd, play a black card; otherwise play a red one.",
        3,
        SEED_004,
        ("parity", "colors", "conditional", "seed", "beginners"),
    ),
    _r(
        "black-up-red-down",
        "Black goes up, red goes down",
        "if prev is black then card.rank >= prev.rank else card.rank <= prev.rank",
        "If the last card is black, play a card of equal or higher value; if it is red, "
        "a card of equal or lower value.",
        3,
        SEED_004,
        ("ranks", "colors", "conditional", "seed", "beginners"),
    ),
    _r(
        "same-suit-or-rank",
        "Same suit or same value",
        "card.suit == prev.suit or card.rank == prev.rank",
        "Each card must be of the same suit or the same value as the last.",
        2,
        SEED_004,
        ("suits", "ranks", "seed", "beginners"),
    ),
    _r(
        "primes-alternate",
        "Primes and non-primes alternate",
        "card.prime != prev.prime",
        "Primes (2, 3, 5, 7, J, K) and non-primes alternate.",
        3,
        SEED_004,
        ("primes", "seed"),
    ),
    _r(
        "too-complicated",
        "The too complicated law",
        "case prev.rank * prev2.rank * prev3.rank % 4 when 0 then card is red or "
        "card.rank > 6 when 1 then card is black or card is face when 2 then card is even "
        "or card.rank < 6 else card is odd or card.rank == 10",
        "Multiply the values of the last three cards and divide by 4. Remainder 0: play "
        "a red card or one higher than 6; remainder 1: a black card or a face card; "
        "remainder 2: an even card or one lower than 6; remainder 3: an odd card or a 10 "
        "(the seeds' example of a law too complicated to guess; about three cards in four fit).",
        5,
        SEED_004,
        ("arithmetic", "seed", "look-back 3"),
    ),
    _r(
        "cyclic-ace-three",
        "Cyclic: A 3 A 3 ...",
        "card.rank == pick(pos, [1, 3])",
        "The mainline reads ace, 3, ace, 3, ... from the starter on (the seeds' cyclic "
        "law; very restrictive).",
        4,
        SEED_004,
        ("position", "cycle", "seed", "extreme"),
        extreme=True,
    ),
    _r(
        "acyclic-odd-steps",
        "Acyclic: 1 3 5 7 9 J K 2 ...",
        "card.rank == wrap(prev.rank + 2)",
        "Each card is two ranks higher than the last, a king wrapping round to 2 and a "
        "queen to the ace (1 3 5 7 9 J K 2 4 ...: the seeds' acyclic law).",
        3,
        SEED_004,
        ("ranks", "arithmetic", "seed", "extreme"),
        extreme=True,
    ),
    _r(
        "finite-odd-run",
        "Finite: A 3 5 7 9",
        "pos <= 5 and card.rank == pos * 2 - 1",
        "The first five cards are ace, 3, 5, 7, 9, and then the law is over: no card "
        "is accepted after the 9 (the seeds' finite law; a deliberate dead end).",
        4,
        SEED_004,
        ("position", "seed", "extreme"),
        extreme=True,
    ),
    _r(
        "odd-only",
        "Odd only",
        "card is odd",
        "Only odd cards: A, 3, 5, 7, 9, J and K (the seeds' set-based law).",
        1,
        SEED_004,
        ("parity", "seed"),
    ),
    _r(
        "red-only",
        "Red only",
        "card is red",
        "Only red cards (hearts and diamonds) may be played; the seed calls this "
        "overly broad, but it makes a gentle first round.",
        1,
        SEED_001,
        ("colors", "seed"),
    ),
    # ------------------------------------------------------- difficulty 1
    _r("black-only", "Black only", "card is black", "Only black cards (spades and clubs).", 1),
    _r("even-only", "Even only", "card is even", "Only even cards: 2, 4, 6, 8, 10 and Q.", 1),
    _r(
        "primes-only",
        "Primes only",
        "card is prime",
        "Only prime ranks: 2, 3, 5, 7, J (11) and K (13).",
        1,
        tags=("primes",),
    ),
    _r(
        "no-primes",
        "No primes",
        "card is not prime",
        "Only ranks that are not prime: A, 4, 6, 8, 9, 10 and Q.",
        1,
        tags=("primes",),
    ),
    _r("faces-only", "Faces only", "card is face", "Only face cards: jacks, queens, kings.", 1),
    _r(
        "hearts-only",
        "Hearts only",
        "card is hearts",
        "Only hearts may be played.",
        1,
        tags=("suits",),
    ),
    _r(
        "clubs-only", "Clubs only", "card is clubs", "Only clubs may be played.", 1, tags=("suits",)
    ),
    _r(
        "spades-or-diamonds",
        "Spades or diamonds",
        "card.suit in {spades, diamonds}",
        "Only spades and diamonds may be played.",
        1,
        tags=("suits",),
    ),
    _r("low-cards", "Low cards", "card.rank <= 6", "Only cards from the ace to the 6.", 1),
    _r("high-cards", "High cards", "card.rank >= 8", "Only cards from the 8 to the king.", 1),
    _r(
        "middle-cards",
        "Middle cards",
        "card.rank in 4..10",
        "Only cards from the 4 to the 10.",
        1,
    ),
    _r(
        "no-middle-cards",
        "No middle cards",
        "card.rank not in 5..9",
        "Only the ace to the 4 and the 10 to the king: nothing from 5 to 9.",
        1,
    ),
    _r(
        "aces-and-faces",
        "Aces and faces",
        "card.rank in {A, J, Q, K}",
        "Only aces and face cards.",
        1,
    ),
    _r(
        "multiples-of-three",
        "Multiples of three",
        "card.rank % 3 == 0",
        "Only ranks divisible by three: 3, 6, 9 and Q (12).",
        1,
        tags=("arithmetic",),
    ),
    _r(
        "one-mod-four",
        "A, 5, 9, K",
        "card.rank % 4 == 1",
        "Only ranks one more than a multiple of four: A, 5, 9 and K.",
        1,
        tags=("arithmetic",),
    ),
    _r(
        "squares",
        "Perfect squares",
        "card.rank in {A, 4, 9}",
        "Only the perfect squares: ace (1), 4 and 9.",
        1,
        tags=("arithmetic",),
    ),
    _r(
        "powers-of-two",
        "Powers of two",
        "card.rank in {A, 2, 4, 8}",
        "Only the powers of two: ace (1), 2, 4 and 8.",
        1,
        tags=("arithmetic",),
    ),
    _r(
        "fibonacci",
        "Fibonacci numbers",
        "card.rank in {A, 2, 3, 5, 8, K}",
        "Only Fibonacci numbers: ace (1), 2, 3, 5, 8 and K (13).",
        1,
        tags=("arithmetic",),
    ),
    _r(
        "spades-only",
        "Spades only",
        "card is spades",
        "Only spades may be played.",
        1,
        tags=("suits",),
    ),
    _r(
        "two-to-nine",
        "Two to nine",
        "card.rank in 2..9",
        "Only cards from the 2 to the 9: no aces, no 10s, no faces.",
        1,
    ),
    # ------------------------------------------------------- difficulty 2
    _r(
        "red-odd-black-even",
        "Red odd, black even",
        "if card is red then card is odd else card is even",
        "Red cards must be odd and black cards must be even.",
        2,
        tags=("colors", "parity"),
    ),
    _r(
        "red-numerals",
        "Red numerals",
        "card is red and card is numeral",
        "Only red cards from the ace to the 10.",
        2,
    ),
    _r(
        "black-or-face",
        "Black or face",
        "card is black or card is face",
        "Any black card, and any face card.",
        2,
    ),
    _r(
        "red-primes-black-others",
        "Red primes, black non-primes",
        "card.prime == card.red",
        "A red card must be prime (2 3 5 7 J K) and a black card must not.",
        2,
        tags=("primes", "colors"),
    ),
    _r(
        "hearts-or-low",
        "Hearts or low",
        "card is hearts or card.rank <= 3",
        "Any heart, and any ace, 2 or 3.",
        2,
    ),
    _r(
        "small-evens",
        "Small evens",
        "card is even and card.rank <= 8",
        "Only the 2, 4, 6 and 8.",
        1,
        tags=("parity",),
    ),
    _r(
        "black-odds",
        "Black odds",
        "card is black and card is odd",
        "Only black cards of odd rank (A 3 5 7 9 J K of spades and clubs).",
        2,
        tags=("parity", "colors"),
    ),
    _r(
        "red-faces-black-numerals",
        "Red faces, black numerals",
        "if card is face then card is red else card is black",
        "Face cards must be red and numeral cards must be black.",
        2,
        tags=("colors", "faces"),
    ),
    _r(
        "red-evens",
        "Red evens",
        "card is red and card is even",
        "Only red cards of even rank.",
        2,
        tags=("parity", "colors"),
    ),
    _r(
        "spades-or-face",
        "Spades or face",
        "card is spades or card is face",
        "Any spade, and any face card.",
        2,
    ),
    _r(
        "diamonds-or-odd",
        "Diamonds or odd",
        "card is diamonds or card is odd",
        "Any diamond, and any odd card.",
        2,
    ),
    _r(
        "suit-bands",
        "Each suit its band",
        "case card.suit when spades then card.rank <= 4 when hearts then card.rank in 5..8 "
        "else card.rank >= 9",
        "Spades from ace to 4, hearts from 5 to 8, diamonds and clubs from 9 to king.",
        3,
        tags=("suits", "ranks", "case"),
    ),
    _r(
        "rank-mod-three-colors",
        "Rank mod 3 decides",
        "case card.rank % 3 when 0 then card is red when 1 then card is black else card is face",
        "Ranks divisible by 3 must be red; ranks one more than a multiple of 3 (A 4 7 10 K) "
        "must be black; of the others (2 5 8 J) only the jack may be played, in any suit.",
        3,
        tags=("arithmetic", "case"),
    ),
    _r(
        "black-high-or-red-low",
        "Black high or red low",
        "if card is black then card.rank >= 8 else card.rank <= 5",
        "A black card must be an 8 or higher; a red card a 5 or lower.",
        2,
        tags=("colors", "ranks"),
    ),
    _r(
        "same-color",
        "Same color",
        "card.color == prev.color",
        "Each card is of the same color as the last.",
        2,
        tags=("colors",),
    ),
    _r(
        "same-suit",
        "Follow suit",
        "card.suit == prev.suit",
        "Each card is of the same suit as the last.",
        2,
        tags=("suits",),
    ),
    _r(
        "alternate-parity",
        "Odd and even alternate",
        "card.even != prev.even",
        "Odd and even cards alternate.",
        2,
        tags=("parity",),
    ),
    _r(
        "same-parity",
        "Same parity",
        "card.odd == prev.odd",
        "Each card is odd if the last was odd, even if the last was even.",
        2,
        tags=("parity",),
    ),
    _r(
        "faces-and-numerals-alternate",
        "Faces and numerals alternate",
        "card.face != prev.face",
        "Face cards and numeral cards alternate.",
        2,
        tags=("faces",),
    ),
    _r(
        "suit-cycle-bridge",
        "Suit cycle ♣ ♦ ♥ ♠",
        "card.suit == next(prev.suit, [clubs, diamonds, hearts, spades])",
        "The suits climb in bridge order: clubs, diamonds, hearts, spades, then clubs again.",
        2,
        tags=("suits", "cycle"),
    ),
    _r(
        "suit-cycle-scdh",
        "Suit cycle ♠ ♣ ♥ ♦",
        "card.suit == next(prev.suit, [spades, clubs, hearts, diamonds])",
        "The suits go round spades, clubs, hearts, diamonds, then spades again.",
        2,
        tags=("suits", "cycle"),
    ),
    _r(
        "nothing-in-common",
        "Nothing in common",
        "card.rank != prev.rank and card.suit != prev.suit",
        "Each card differs from the last in both suit and rank.",
        2,
        tags=("suits", "ranks"),
    ),
    _r(
        "other-suit-same-color",
        "Same color, other suit",
        "card.color == prev.color and card.suit != prev.suit",
        "Each card is the other suit of the same color: spades and clubs swap, hearts and "
        "diamonds swap.",
        2,
        tags=("suits", "colors"),
    ),
    _r(
        "same-color-or-rank",
        "Same color or same rank",
        "card.color == prev.color or card.rank == prev.rank",
        "Each card has the color or the rank of the last.",
        2,
        tags=("colors", "ranks"),
    ),
    _r(
        "same-suit-or-next",
        "Same suit or the next suit",
        "card.suit == prev.suit or card.suit == next(prev.suit, [spades, hearts, diamonds, clubs])",
        "Stay in the last card's suit or move on to the next in the order spades, hearts, "
        "diamonds, clubs, spades.",
        3,
        tags=("suits", "cycle"),
    ),
    # ------------------------------------------------------- difficulty 3
    _r(
        "close-ranks",
        "Close in rank",
        "abs(card.rank - prev.rank) <= 2",
        "Each card is at most two ranks away from the last (up or down, no wrapping).",
        3,
        tags=("ranks", "arithmetic"),
    ),
    _r(
        "far-ranks",
        "Far in rank",
        "abs(card.rank - prev.rank) >= 5",
        "Each card is at least five ranks away from the last.",
        3,
        tags=("ranks", "arithmetic"),
    ),
    _r(
        "one-step",
        "One step",
        "abs(card.rank - prev.rank) == 1",
        "Each card is exactly one rank above or below the last (no wrapping).",
        3,
        tags=("ranks", "arithmetic"),
    ),
    _r(
        "up-low-down-high",
        "Up from low, down from high",
        "if prev.rank <= 7 then card.rank > prev.rank else card.rank < prev.rank",
        "After an ace to 7 play a higher card; after an 8 to king play a lower one.",
        3,
        tags=("ranks", "conditional"),
    ),
    _r(
        "high-low-alternate",
        "High and low alternate",
        "if prev.rank <= 7 then card.rank >= 8 else card.rank <= 7",
        "Low cards (ace to 7) and high cards (8 to king) alternate.",
        3,
        tags=("ranks",),
    ),
    _r(
        "stay-in-half",
        "Stay in your half",
        "if prev.rank <= 7 then card.rank <= 7 else card.rank >= 8",
        "After a low card (ace to 7) play a low card; after a high card (8 to king) a high card.",
        3,
        tags=("ranks",),
    ),
    _r(
        "sum-multiple-of-three",
        "Sum divisible by three",
        "(card.rank + prev.rank) % 3 == 0",
        "The card's rank plus the last card's rank is a multiple of 3.",
        3,
        tags=("arithmetic",),
    ),
    _r(
        "sum-at-least-fourteen",
        "Sum at least 14",
        "card.rank + prev.rank >= 14",
        "The card's rank plus the last card's rank is at least 14.",
        3,
        tags=("arithmetic",),
    ),
    _r(
        "higher-or-same-suit",
        "Higher or same suit",
        "card.rank > prev.rank or card.suit == prev.suit",
        "Each card is higher than the last or of the same suit.",
        3,
        tags=("ranks", "suits"),
    ),
    _r(
        "lower-or-same-color",
        "Lower or same color",
        "card.rank < prev.rank or card.color == prev.color",
        "Each card is lower than the last or of the same color.",
        3,
        tags=("ranks", "colors"),
    ),
    _r(
        "red-after-face",
        "Red after a face",
        "if prev is face then card is red else card is black",
        "After a face card play a red card; after a numeral card a black one.",
        3,
        tags=("faces", "colors", "conditional"),
    ),
    _r(
        "parity-follows-color",
        "Parity follows color",
        "if prev is red then card is odd else card is even",
        "After a red card play an odd card; after a black card an even one.",
        3,
        tags=("parity", "colors", "conditional"),
    ),
    _r(
        "color-by-position",
        "Colors by position",
        "if pos % 2 == 1 then card is red else card is black",
        "Odd positions of the mainline (the starter is position 1) are red, even positions black.",
        3,
        tags=("position", "colors"),
    ),
    _r(
        "parity-by-position",
        "Parity by position",
        "if pos % 2 == 1 then card is odd else card is even",
        "A card in an odd position of the mainline is odd, in an even position even.",
        3,
        tags=("position", "parity"),
    ),
    _r(
        "same-rank-or-color-change",
        "Same rank or change color",
        "card.rank == prev.rank or card.color != prev.color",
        "Each card has the last card's rank or the other color.",
        3,
        tags=("ranks", "colors"),
    ),
    _r(
        "red-up-black-down",
        "Red goes up, black goes down",
        "if prev is red then card.rank >= prev.rank else card.rank <= prev.rank",
        "After a red card play an equal or higher value; after a black card an equal or "
        "lower value (the mirror of the beginners' law).",
        3,
        tags=("ranks", "colors", "conditional"),
    ),
    _r(
        "climb-one-to-three",
        "Climb one to three",
        "wrap(card.rank - prev.rank) <= 3",
        "Each card is one, two or three ranks above the last, counting round the corner "
        "(after the queen: K, A, 2; after the king: A, 2, 3).",
        4,
        tags=("ranks", "arithmetic", "wrap"),
    ),
    _r(
        "down-or-reset",
        "Down, or anything after a 2",
        "card.rank < prev.rank or prev.rank <= 2",
        "Each card is lower than the last, except that after an ace or a 2 anything goes.",
        3,
        tags=("ranks", "down"),
    ),
    _r(
        "same-suit-or-face",
        "Same suit or face",
        "card.suit == prev.suit or card is face",
        "Each card is of the last card's suit, or is a face card.",
        3,
        tags=("suits", "faces"),
    ),
    _r(
        "change-color-or-face",
        "Change color, faces free",
        "card.color != prev.color or card is face",
        "Colors alternate, but a face card may always be played.",
        3,
        tags=("colors", "faces"),
    ),
    _r(
        "same-suit-or-one-up",
        "Same suit or one up",
        "card.suit == prev.suit or card.rank == wrap(prev.rank + 1)",
        "Each card is of the last card's suit or one rank higher (an ace after a king).",
        3,
        tags=("suits", "ranks", "wrap"),
    ),
    _r(
        "face-after-black",
        "Face after black",
        "if prev is black then card is face else card is numeral",
        "After a black card play a face card; after a red card a numeral card.",
        3,
        tags=("faces", "colors", "conditional"),
    ),
    _r(
        "red-after-prime",
        "Red after a prime",
        "if prev is prime then card is red else card is black",
        "After a prime (2 3 5 7 J K) play a red card; otherwise a black one.",
        3,
        tags=("primes", "colors", "conditional"),
    ),
    _r(
        "neighbours",
        "Neighbours",
        "abs(card.rank - prev.rank) <= 1",
        "Each card has the same rank as the last, or one more, or one less.",
        3,
        tags=("ranks", "arithmetic"),
    ),
    _r(
        "jump-three-or-four",
        "Jump three or four",
        "abs(card.rank - prev.rank) in 3..4",
        "Each card is three or four ranks away from the last, up or down.",
        3,
        tags=("ranks", "arithmetic"),
    ),
    _r(
        "same-parity-new-rank",
        "Same parity, new rank",
        "card.odd == prev.odd and card.rank != prev.rank",
        "Each card has the parity of the last (odd after odd, even after even) but not its rank.",
        3,
        tags=("parity", "ranks"),
    ),
    _r(
        "one-of-two-low",
        "One of the two is low",
        "min(card.rank, prev.rank) <= 4",
        "Of each card and the last, at least one is an ace, 2, 3 or 4.",
        3,
        tags=("ranks",),
    ),
    _r(
        "mirror-sum",
        "Mirror sum",
        "abs(card.rank + prev.rank - 14) <= 1",
        "The card's rank plus the last card's rank is 13, 14 or 15.",
        4,
        tags=("arithmetic",),
    ),
    _r(
        "climb-to-face",
        "Climb to a face, then start low",
        "if prev is face then card.rank <= 5 else card.rank > prev.rank",
        "Each card is higher than the last; after a face card start again with an ace to 5.",
        4,
        tags=("ranks", "faces", "conditional"),
    ),
    # ------------------------------------------------------- difficulty 4
    _r(
        "same-color-up-other-down",
        "Same color up, other color down",
        "card.rank > prev.rank and card.color == prev.color or card.rank < prev.rank and "
        "card.color != prev.color",
        "Go up and keep the color, or go down and change it.",
        4,
        tags=("ranks", "colors"),
    ),
    _r(
        "red-climbs-black-falls",
        "Red climbs, black falls",
        "if card is red then card.rank > prev.rank else card.rank < prev.rank",
        "A red card must be higher than the last; a black card lower.",
        4,
        tags=("ranks", "colors"),
    ),
    _r(
        "position-suit-cycle",
        "Suits by position",
        "card.suit == pick(pos, [hearts, spades, diamonds, clubs])",
        "The mainline's suits follow the position: hearts, spades, diamonds, clubs, hearts, "
        "... from the starter on.",
        4,
        tags=("position", "suits", "cycle"),
    ),
    _r(
        "position-red-red-black",
        "Red, red, black",
        "card.color == pick(pos, [red, red, black])",
        "The mainline's colors repeat red, red, black from the starter on.",
        4,
        tags=("position", "colors", "cycle"),
    ),
    _r(
        "face-every-third",
        "A face every third card",
        "if pos % 3 == 0 then card is face else card is numeral",
        "Positions 3, 6, 9, ... of the mainline hold face cards; all others numeral cards.",
        4,
        tags=("position", "faces"),
    ),
    _r(
        "up-even-down-odd",
        "Up on even positions",
        "if pos % 2 == 0 then card.rank >= prev.rank else card.rank <= prev.rank",
        "On an even position play a card at least as high as the last, on an odd position "
        "one at most as high.",
        4,
        tags=("position", "ranks"),
    ),
    _r(
        "color-differs-two-back",
        "Color differs from two back",
        "card.color != prev2.color",
        "Each card is of the other color from the card two places back (so, after the first "
        "card, colors come in pairs: red, red, black, black, ...).",
        4,
        tags=("colors", "look-back 2"),
    ),
    _r(
        "color-as-two-back",
        "Color as two back",
        "card.color == prev2.color",
        "Each card has the color of the card two places back.",
        4,
        tags=("colors", "look-back 2"),
    ),
    _r(
        "suit-as-two-back",
        "Suit as two back",
        "card.suit == prev2.suit",
        "Each card has the suit of the card two places back.",
        4,
        tags=("suits", "look-back 2"),
    ),
    _r(
        "fresh-suit",
        "A fresh suit",
        "card.suit != prev.suit and card.suit != prev2.suit",
        "Each card's suit differs from the suits of the last two cards.",
        4,
        tags=("suits", "look-back 2"),
    ),
    _r(
        "even-sum-of-three",
        "Even sum of three",
        "(card.rank + prev.rank + prev2.rank) % 2 == 0",
        "The ranks of the card and the last two cards add up to an even number.",
        4,
        tags=("arithmetic", "look-back 2"),
    ),
    _r(
        "prev-rank-mod-three",
        "The last rank mod 3 decides",
        "case prev.rank % 3 when 0 then card is red when 1 then card is black else card is face",
        "If the last rank divided by 3 leaves 0, play red; if it leaves 1, play black; if it "
        "leaves 2, play a face card.",
        4,
        tags=("arithmetic", "case"),
    ),
    _r(
        "suit-two-back-or-rank",
        "Suit two back or same rank",
        "card.suit == prev2.suit or card.rank == prev.rank",
        "Each card has the suit of the card two places back or the rank of the last card.",
        4,
        tags=("suits", "ranks", "look-back 2"),
    ),
    _r(
        "parity-every-third",
        "Odd every third card",
        "if pos % 3 == 0 then card is odd else card is even",
        "Positions 3, 6, 9, ... of the mainline hold odd cards; all others even cards.",
        4,
        tags=("position", "parity"),
    ),
    _r(
        "face-then-same-suit",
        "After a face, follow suit",
        "if prev is face then card.suit == prev.suit else card.rank > prev.rank",
        "Each card is higher than the last, but after a face card play any card of the "
        "face's suit.",
        4,
        tags=("ranks", "faces", "suits", "conditional"),
    ),
    _r(
        "suit-two-positions",
        "Spades and hearts by position",
        "card.suit == pick(pos, [spades, hearts])",
        "Odd positions of the mainline hold spades, even positions hearts.",
        4,
        tags=("position", "suits"),
    ),
    _r(
        "rising-caps",
        "Rising caps",
        "card.rank <= pick(pos, [4, 8, 12])",
        "Positions cycle through three caps: at most 4, then at most 8, then at most Q, "
        "then at most 4 again.",
        4,
        tags=("position", "ranks", "cycle"),
    ),
    _r(
        "red-then-black-after-ten",
        "Ten red, then black",
        "if pos <= 10 then card is red else card is black",
        "The first ten cards of the mainline are red; every card after them is black.",
        4,
        tags=("position", "colors"),
    ),
    _r(
        "position-sum-not-three",
        "Rank plus position",
        "(card.rank + pos) % 3 != 0",
        "The card's rank plus its position on the mainline is never a multiple of 3.",
        4,
        tags=("position", "arithmetic"),
    ),
    _r(
        "red-after-rise",
        "Red after a rise",
        "if prev.rank > prev2.rank then card is red else card is black",
        "If the last card was higher than the one before it, play red; otherwise black.",
        4,
        tags=("ranks", "colors", "look-back 2"),
    ),
    _r(
        "last-rank-picks-suit",
        "The last rank picks the suit",
        "case prev.rank % 4 when 0 then card is hearts when 1 then card is spades when 2 then "
        "card is diamonds else card is clubs",
        "Divide the last card's rank by 4: remainder 0 asks for a heart, 1 a spade, 2 a "
        "diamond, 3 a club.",
        4,
        tags=("arithmetic", "suits", "case"),
    ),
    _r(
        "ace-king-ladder",
        "Ace and king ladder",
        "case prev.rank when A then card is face when K then card is A else card.rank > prev.rank",
        "Each card is higher than the last; after an ace play a face card, and after a king "
        "an ace.",
        4,
        tags=("ranks", "case"),
    ),
    _r(
        "rank-class-cycle",
        "Rank classes cycle",
        "card.rank % 3 == next(prev.rank % 3, [0, 1, 2])",
        "The remainder of rank divided by 3 goes round 0, 1, 2, 0, ...: after a 3, 6, 9 or Q "
        "play A, 4, 7, 10 or K; after those play 2, 5, 8 or J; after those 3, 6, 9 or Q.",
        5,
        tags=("arithmetic", "cycle"),
    ),
    _r(
        "half-by-card-color",
        "Color picks the half",
        "if card is red then card.rank > prev.rank or prev.rank >= 12 else card.rank <= prev.rank",
        "A black card must be at most as high as the last; a red card must be higher, "
        "except after a queen or a king, when any red card goes.",
        5,
        tags=("ranks", "colors"),
    ),
    # ------------------------------------------------------- difficulty 5
    _r(
        "zigzag",
        "Zigzag",
        "if prev.rank > prev2.rank then card.rank <= prev.rank else card.rank >= prev.rank",
        "After a rise go down or stay level; after a fall or a level step go up or stay level.",
        5,
        tags=("ranks", "look-back 2"),
    ),
    _r(
        "sum-of-three-mod-three",
        "Sum of three divisible by 3",
        "(card.rank + prev.rank + prev2.rank) % 3 == 0",
        "The ranks of the card and the last two cards add up to a multiple of 3.",
        5,
        tags=("arithmetic", "look-back 2"),
    ),
    _r(
        "suits-in-pairs",
        "Suits in pairs",
        "if prev.suit == prev2.suit then card.suit != prev.suit else card.suit == prev.suit",
        "Suits come in pairs: two cards of one suit, then two of another, and so on.",
        5,
        tags=("suits", "look-back 2"),
    ),
    _r(
        "four-suit-window",
        "Four suits in a row",
        "card.suit != prev.suit and card.suit != prev2.suit and card.suit != prev3.suit",
        "Any four consecutive cards of the mainline show all four suits.",
        5,
        tags=("suits", "look-back 3"),
    ),
    _r(
        "prev-suit-decides",
        "The last suit decides",
        "case prev.suit when spades then card is face when hearts then card is odd when "
        "diamonds then card is even else card.rank <= 5",
        "After a spade play a face card, after a heart an odd card, after a diamond an even "
        "card, after a club an ace to 5.",
        5,
        tags=("suits", "case"),
    ),
    _r(
        "prev-suit-directions",
        "Suits give directions",
        "case prev.suit when spades then card is red when hearts then card is black when "
        "diamonds then card.rank >= prev.rank else card.rank <= prev.rank",
        "After a spade play red, after a heart black, after a diamond an equal or higher "
        "card, after a club an equal or lower card.",
        5,
        tags=("suits", "ranks", "case"),
    ),
    _r(
        "face-every-fourth-else-alternate",
        "A face every fourth card",
        "if pos % 4 == 0 then card is face else card.color != prev.color",
        "Positions 4, 8, 12, ... hold face cards; elsewhere colors alternate.",
        5,
        tags=("position", "faces", "colors"),
    ),
    _r(
        "even-follow-odd-change",
        "Follow suit on even positions",
        "if pos % 2 == 0 then card.suit == prev.suit else card.color != prev.color",
        "On an even position play the last card's suit; on an odd position change color.",
        5,
        tags=("position", "suits", "colors"),
    ),
    _r(
        "rise-or-change-color",
        "Rise against two back",
        "card.rank > prev2.rank or card.color != prev.color",
        "Each card is higher than the card two places back, or of the other color from the "
        "last card.",
        5,
        tags=("ranks", "colors", "look-back 2"),
    ),
    _r(
        "sum-parity-color",
        "Sum parity gives the color",
        "if (prev.rank + prev2.rank) % 2 == 0 then card is red else card is black",
        "If the last two ranks add up to an even number play red, otherwise black.",
        5,
        tags=("arithmetic", "colors", "look-back 2"),
    ),
    _r(
        "higher-than-both-or-face",
        "Beat both, or a face",
        "card.rank > max(prev.rank, prev2.rank) or card is face",
        "Each card is higher than both of the last two cards, or is a face card.",
        5,
        tags=("ranks", "faces", "look-back 2"),
    ),
    _r(
        "color-two-back-new-rank",
        "Color two back, new rank",
        "card.rank != prev.rank and card.rank != prev2.rank and card.color == prev2.color",
        "Each card has the color of the card two places back and a rank different from "
        "both of the last two cards.",
        5,
        tags=("ranks", "colors", "look-back 2"),
    ),
    _r(
        "near-fibonacci",
        "Near the sum of two",
        "abs(card.rank - wrap(prev.rank + prev2.rank)) <= 1",
        "Add the last two ranks, counting past the king round to the ace (K + 1 is A): "
        "the card's rank is that sum, one less or one more.",
        5,
        tags=("arithmetic", "wrap", "look-back 2"),
    ),
    _r(
        "echo-or-step",
        "Echo two back, or one step",
        "card.rank == prev2.rank or abs(card.rank - prev.rank) == 1",
        "Each card repeats the rank of the card two places back, or is one rank above or "
        "below the last card.",
        5,
        tags=("ranks", "look-back 2"),
    ),
    _r(
        "face-after-color-pair",
        "A face after a color pair",
        "if prev.color == prev2.color then card is face else card is numeral",
        "If the last two cards have the same color, play a face card; otherwise a numeral card.",
        4,
        tags=("colors", "faces", "look-back 2"),
    ),
    _r(
        "third-follows-suit",
        "Every third card follows suit",
        "if pos % 3 == 0 then card.suit == prev.suit else card.rank != prev.rank and "
        "card.color != prev.color",
        "Positions 3, 6, 9, ... follow the last card's suit; every other card changes color "
        "and rank.",
        5,
        tags=("position", "suits", "colors"),
    ),
    _r(
        "two-back-rank-picks-suit",
        "The rank two back picks the suit",
        "card.suit == pick(prev2.rank, [spades, hearts, diamonds, clubs])",
        "Count the rank of the card two places back along spades, hearts, diamonds, clubs, "
        "spades, ... (ace = spades, 2 = hearts, ...): the card must be of that suit.",
        5,
        tags=("suits", "look-back 2"),
    ),
    _r(
        "odd-position-higher",
        "Odd positions climb",
        "if pos % 2 == 1 then card.rank > prev2.rank or prev2.rank >= 11 else card is black",
        "Every card in an even position is black; each card in an odd position is higher "
        "than the card two places back, unless that card was a face card.",
        5,
        tags=("position", "ranks", "look-back 2"),
    ),
    _r(
        "color-run-then-suit",
        "Same color needs same suit",
        "if card.color == prev.color then card.suit == prev2.suit else card.rank != prev.rank",
        "A card of the last card's color must have the suit of the card two back; a card of "
        "the other color must not repeat the last rank.",
        5,
        tags=("colors", "suits", "look-back 2"),
    ),
)

_BY_NAME: Final[dict[str, LibraryRule]] = {r.name: r for r in RULES}


def get(name: str) -> LibraryRule:
    """The library rule called ``name``; ``KeyError`` with the known names' hint."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"no library rule named {name!r}") from None


def by_difficulty(difficulty: int) -> tuple[LibraryRule, ...]:
    """The library rules of one difficulty (1..5), extreme examples included."""
    if difficulty not in range(1, 6):
        raise ValueError(f"difficulty must be 1..5, not {difficulty!r}")
    return tuple(r for r in RULES if r.difficulty == difficulty)


def random_rule(difficulty: int, rng: random.Random) -> LibraryRule:
    """A playable (non-extreme) library rule of ``difficulty``, chosen with ``rng``.

    Draws with ``rng.random()`` only, whose sequence Python keeps the same
    across versions, so a seed picks the same rule in CPython and Pyodide.
    """
    choices = [r for r in by_difficulty(difficulty) if not r.extreme]
    return choices[min(int(rng.random() * len(choices)), len(choices) - 1)]
