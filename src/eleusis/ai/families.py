"""Families of rules beyond the enumerated space, each held in a compact form.

The enumerated space (:mod:`eleusis.ai.space`) holds rules of the card and
the previous card. People also write rules that

* split on a condition and apply a different single block on each side
  (``if prev.rank >= 8 then card.rank <= 5 else card is red``: any block on
  either side; ``if prev.rank == 13 then true else card.rank > prev.rank``,
  the way on after a king of a rule that climbs), or on the position with a
  period of 3, 4 or 5 (``case pos % 4 ...``): :class:`SplitFamily`; with one
  side a block joined to a card property (``if prev is prime then
  card.color == prev.color else card is face or card.rank == 1``), a
  family grown only once no single block fits that side:
  :class:`CompoundSplitFamily`;
* read two or three cards back (``card.suit != prev.suit and card.suit !=
  prev2.suit``, "not three of a color in a row", ``card.suit != prev3.suit``):
  :class:`LagFamily`; or ask whether the card's suit, rank or colour is
  among the last two or three cards' (``card.suit in {prev.suit,
  prev2.suit, prev3.suit}``), alone or joined to a block on the card
  (``... or card is face``): :class:`LagJoins`;
* accept an unusual set of ranks (``card.rank in {1, 3, 6, 10}``), the
  sets people name (Fibonacci, triangular...) likelier than the others:
  :class:`RankSetFamily`;
* split on the judged card itself (``if card is red then card.rank >
  prev.rank else card.rank < prev.rank``, ``case card.suit ...``, ``if card
  is spades then ... else ...``):
  :class:`CardSplitFamily`, also on how the card relates to the last one
  (``if card.rank > prev.rank then ... else ...``); on how the last two
  cards relate or what they are together (``if prev.rank > prev2.rank
  then ...``, ``if prev.rank <= 6 and prev2.rank <= 6 then ...``):
  :class:`BackSplitFamily`; splits on the card or on the last two cards
  also come with blocks read against the card two back (``if card is red
  then card.suit != prev2.suit else card.rank > prev2.rank``); on the
  last card's suit (each suit its own side, or two suits theirs and the
  other two one), its rank modulo 3 or 4 or three bands of its rank
  (``case prev.suit ...``, ``case prev.rank % 4 ...``, ``if prev.rank <= 4
  then ... elif prev.rank <= 9 then ... else ...``), or on prime positions:
  a :class:`SplitFamily`;
* relate the rank with the position (``card.rank >= pos``, ``card.rank % 3
  == pos % 3``): :class:`PosRankFamily`;
* gate a set of ranks behind a colour or suit (``card is not hearts or
  card.rank != 1``: everything but the ace of hearts):
  :class:`GatedRankSetFamily`; or give each colour, one suit and the
  others, or each suit its own set of ranks (``if card is red then
  card.rank in {1, 4, 9, 13} else card.rank >= 10``, "no red queen and no
  black jack"): :class:`SuitRanksFamily`;
* join any single block with a plain relation two or three back
  (``card.rank > prev2.rank or card.color != prev.color``), or a block on
  the card with a relation of the rank and the position or the last two
  ranks (``pos % card.rank == 0 or card is black``), or any single block
  with a sum of two ranks or a distance to the rank two or three back
  (``card.rank + prev.rank == 13 or card.suit == prev.suit``,
  ``abs(card.rank - prev3.rank) <= 1 or card is face``):
  :class:`MixedLagFamily` (its sources :class:`LagRelations`,
  :class:`SumRelations`...); join two plain relations two back
  (``card.suit == prev2.suit or card.rank == prev2.rank``): :class:`LagPairs`;
  join any single block with the arithmetic of two ranks people write
  (``(card.rank + prev.rank) % 6 == 0 or card is face``, ``(card.rank *
  prev.rank) % 2 == 1 or card is red``, ``gcd(card.rank, prev.rank) > 1 or
  card.suit == prev.suit``), or keep the two ranks within a factor of two
  ("half to double"): :class:`RankPairRelations`;
* relate the rank with the last two ranks (the sum of three, between the
  last two, near their average, the product of three, a triangle):
  :class:`ThreeRankFamily`; forbid three in a row of one
  property: :class:`NoRunFamily`;
* accept a set of values of the two ranks' sum, distance, climb, max, min,
  product, greatest common divisor or remainder (``card.rank + prev.rank !=
  13``, ``min(card.rank, prev.rank) <= 4``, ``(card.rank + prev.rank) is
  prime``, ``gcd(card.rank, prev.rank) == 1``, ``card.rank + prev.rank not
  in 12..16``), of the card's rank with the one two back, or of the sum of
  three ranks: :class:`ValueSetFamily`;
* name a few cards as exceptions to a single block (``card is black and
  card != 8C``, ``card is numeral or card in {JS, KD}``):
  :class:`ExceptionFamily`.

None of them is enumerated. A split family factorises like the periodic
rules of :mod:`eleusis.ai.inference`: the observations on one side of the
split say nothing about the block on the other side, so it keeps one
mismatch counter per (side, single block) and its evidence is a product of
per-side sums: ``k`` sides of ~220 blocks cover ``220 ** k`` rules. A lag
family is a short explicit list (one relation applied to two or three
earlier cards). The rank-set families are Beta-Bernoulli models over the 13
ranks (each rank in or out of the set), the value sets over the values of a
quantity of two ranks: their evidence and predictions are closed forms. The
mixed lag families hold their pairs as bit sets (for each block, the
relations still alive with it).

Each family gives its *evidence* (the marginal likelihood of the verdicts
seen, relative to its prior: comparable with the enumerated families'), its
predictions (what it accepts next, as 52-bit rows with weights; the
families of ``MARGINAL_FAMILIES`` also each card's probability alone, which
is all a hand's prediction needs and much cheaper than their rows), its best
rule (as an :class:`ExtraCandidate`, a rule-language text) and that rule's
share of the family's posterior. They read only observations.
"""

from __future__ import annotations

import bisect
import copy
import heapq
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations, pairwise
from math import comb, exp, fsum, gcd, lgamma
from typing import Protocol, cast

from eleusis.ai.blocks import (
    FULL52,
    NCARDS,
    NOPREV,
    Block,
    card_mask,
    prev_block,
    prev_conditions,
    rank_word,
)
from eleusis.ai.space import Space, single_rows
from eleusis.cards import ALL_CARDS, SUITS, Card, card_name


class Obs(Protocol):
    """What a family reads of an observation (see :class:`eleusis.ai.inference.Observation`)."""

    @property
    def pos(self) -> int: ...
    @property
    def prev(self) -> Card | None: ...
    @property
    def card(self) -> Card: ...
    @property
    def accepted(self) -> bool: ...
    @property
    def prev2(self) -> Card | None: ...
    @property
    def prev3(self) -> Card | None: ...


def _row(card: Card | None) -> int:
    return NOPREV if card is None else card.index


def _backs(line: Sequence[Card]) -> tuple[Card | None, Card | None, Card | None]:
    """The last three cards of ``line`` (None where there are fewer)."""
    return (line[-1] if line else None, line[-2] if len(line) >= 2 else None,
            line[-3] if len(line) >= 3 else None)


def _back(line: Sequence[Card], k: int) -> Card | None:
    """The card ``k`` back on ``line`` (None where there is none)."""
    return line[-k] if len(line) >= k else None


def _back_text(text: str, back: int) -> str:
    """A single block's text read ``back`` cards back (``prev.`` becomes ``prev2.``)."""
    return text if back == 1 else text.replace("prev.", f"prev{back}.")


def _back_english(english: str, back: int) -> str:
    """A single block's English read ``back`` cards back."""
    return english if back == 1 else english.replace(
        "the last card", f"the card {('', '', 'two', 'three')[back]} back")


def _context_free(space: Space) -> list[bool]:
    """For each single block, whether it reads only the card (the same after any last card)."""
    hit = _FREE.get(id(space))
    if hit is None or hit[0] is not space:
        hit = _FREE[id(space)] = (space, [len(set(rows[:NCARDS])) == 1
                                          for rows in single_rows(space)])
    return hit[1]


_FREE: dict[int, tuple[Space, list[bool]]] = {}


_BLOCK_INDEX: dict[int, tuple[Space, tuple[dict[int, int], ...]]] = {}
_FLAGS = bytes.maketrans(b"01", b"\x00\x01")
_BITS = bytes.maketrans(b"\x00\x01", b"01")


def _block_index(space: Space) -> tuple[dict[int, int], ...]:
    """For each last card ``p`` (and NOPREV), ``{row: the single blocks with that
    row after p}`` as a bit set over the blocks; built once per space and cached."""
    hit = _BLOCK_INDEX.get(id(space))
    if hit is None or hit[0] is not space:
        index: list[dict[int, int]] = [{} for _ in range(NCARDS + 1)]
        for a, rows in enumerate(single_rows(space)):
            for p, row in enumerate(rows):
                index[p][row] = index[p].get(row, 0) | 1 << a
        hit = _BLOCK_INDEX[id(space)] = (space, tuple(index))
    return hit[1]


class BlockFit:
    """Which single blocks judge like a candidate after the last cards it can reach.

    ``rows`` is the candidate's row after each reachable last card;
    ``wanted`` the blocks worth comparing (a bit set; the others count as
    disagreeing). :meth:`flags` answers for the last cards of a set
    ``where`` (a side of a split on the last card; -1: all), one byte per
    block, 1 where the block accepts what the candidate accepts after each
    of them. Worked out from an index of the blocks by row (one look-up per
    last card and a mask operation per side), where comparing each block's
    rows cost a pass over the blocks per candidate.

    >>> from eleusis.ai.space import build_space
    >>> space = build_space(1)
    >>> red = next(a for a in range(space.level_end[1]) if space.text(a) == "card is red")
    >>> rows = {p: single_rows(space)[red][p] for p in (0, 13)}
    >>> BlockFit(space, (1 << space.level_end[1]) - 1, rows).flags(-1)[red]
    1
    """

    def __init__(self, space: Space, wanted: int, rows: dict[int, int]) -> None:
        index = _block_index(space)
        self.n1 = space.level_end[1]
        self.wanted = wanted
        self.agree = [(p, index[p].get(row, 0)) for p, row in rows.items()]
        self._masks: dict[int, int] = {}
        self._flags: dict[int, bytes] = {}

    def mask(self, where: int) -> int:
        """The single blocks that agree after every reachable card of ``where``, as a bit set."""
        hit = self._masks.get(where)
        if hit is None:
            # (no reachable card on that side: every block agrees, as none is compared)
            hit = self.wanted if where else (1 << self.n1) - 1
            for p, mask in self.agree:
                if where >> p & 1:
                    hit &= mask
            self._masks[where] = hit
        return hit

    def flags(self, where: int) -> bytes:
        """One byte per single block: 1 if it agrees after every reachable card of ``where``."""
        hit = self._flags.get(where)
        if hit is None:
            hit = self._flags[where] = (bin(self.mask(where))[:1:-1].ljust(self.n1, "0")
                                        .encode("ascii").translate(_FLAGS))
        return hit


def block_context(fam: Family) -> int:
    """The earlier card whose single-block verdicts ``fam.observe`` reads: 1, the last
    card; 2, the one two back (a split whose blocks read ``prev2``)."""
    return fam.back if isinstance(fam, (SplitFamily, CardSplitFamily)) else 1


def _block_accepts(space: Space, a: int, prev: Card | None, card: Card) -> bool:
    """Whether block ``a`` of the space accepts ``card`` after ``prev``."""
    return bool((space.bits[a] >> (NCARDS * _row(prev) + card.index)) & 1)


def _paren(text: str) -> str:
    return f"({text})" if " or " in text or " and " in text or text.startswith("if ") else text


class Family(Protocol):
    """The interface the belief uses (see the module's docstring)."""

    name: str
    prior: float

    def observe(self, obs: Obs, single_verdicts: Sequence[int]) -> None: ...
    def evidence(self) -> float: ...
    def rows(self, pos: int, line: Sequence[Card], out: dict[int, float],
             scale: float) -> None: ...
    def best(self, index: int) -> ExtraCandidate | None: ...
    def share(self, parts: tuple[int, ...], pos_next: int = 0) -> float: ...
    def exclude(self, parts: tuple[int, ...]) -> None: ...
    def text(self, parts: tuple[int, ...]) -> str: ...
    def english(self, parts: tuple[int, ...]) -> str: ...
    def accepts(self, parts: tuple[int, ...], line: Sequence[Card], card: Card) -> bool: ...
    def row(self, parts: tuple[int, ...], line: Sequence[Card]) -> int: ...
    def alive(self) -> bool: ...
    def agreement(self, fit: BlockFit, rows: dict[int, int]) -> float: ...
    def live_singles(self) -> int: ...
    def fresh(self) -> Family: ...


@dataclass(frozen=True, slots=True)
class ExtraCandidate:
    """A rule of a family, its best or a runner-up (``family``: its index among the
    belief's families)."""

    family: int
    parts: tuple[int, ...]
    owner: Family = field(compare=False, hash=False, repr=False)

    def text(self, space: Space) -> str:
        """The candidate as a rule-language text."""
        return self.owner.text(self.parts)

    def english(self, space: Space) -> str:
        """The candidate in plain English."""
        return self.owner.english(self.parts)

    def accepts(self, space: Space, line: Sequence[Card], card: Card) -> bool:
        """Whether the candidate accepts ``card`` after the mainline ``line``."""
        return self.owner.accepts(self.parts, line, card)

    def row(self, space: Space, line: Sequence[Card]) -> int:
        """The 52-bit set of cards the candidate accepts after the mainline ``line``."""
        return self.owner.row(self.parts, line)


def _single_weights(space: Space, weights: Sequence[float]) -> list[float]:
    """The prior weights of the space's single blocks, summing to 1."""
    n1 = space.level_end[1]
    total = sum(weights[:n1])
    return [x / total for x in weights[:n1]]


class _Refuting:
    """The rules a family of side-by-side rules (a split: one idea a side) offers,
    and what it does with one guessed and judged wrong.

    Its best rule is each side's likeliest idea; its runner-up, the best
    with one side's next idea instead (:meth:`best`, :meth:`best_two`). A
    rule judged wrong is impossible: the family loses the share it would
    have now (:meth:`_key_share`, per rule of ``excluded``) and the rules
    left divide it.
    """

    excluded: set[tuple[int, ...]]
    k: int

    def _key_share(self, key: tuple[int, ...]) -> float:
        """The share the rule ``key`` would have now, were it still possible."""
        raise NotImplementedError

    def _ranked(self, s: int) -> list[int]:
        """Side ``s``'s three likeliest ideas, likeliest first (a side holds
        hundreds: only these are ever offered)."""
        raise NotImplementedError

    def share(self, parts: tuple[int, ...], pos_next: int = 0) -> float:
        """The probability of the rule ``parts`` within the family (0: judged wrong)."""
        raise NotImplementedError

    def _plain(self, parts: tuple[int, ...]) -> bool:
        """Whether ``parts`` is a plain rule (weighed in the plain space)."""
        raise NotImplementedError

    def _key(self, parts: tuple[int, ...]) -> tuple[int, ...]:
        """The rule ``parts`` as the judge tells rules apart (its key in ``excluded``)."""
        return parts

    def _tops(self) -> tuple[list[list[int]], tuple[int, ...]]:
        """Each side's three likeliest ideas, and the rule made of each side's first."""
        tops = [self._ranked(s) for s in range(self.k)]
        return tops, tuple(t[0] for t in tops)

    def _neighbours(self, tops: list[list[int]],
                    parts: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The rules one side's runner-up away from ``parts``, likeliest first.

        Rules judged wrong are left out; among equals, the smaller parts
        first, so the order is the same on every platform.
        """
        options = []
        for s in range(self.k):
            for alt in tops[s][1:]:
                p = (*parts[:s], alt, *parts[s + 1:])
                if self._key(p) not in self.excluded:
                    options.append((-self.share(p), p))
        return [p for _, p in sorted(options)]

    def _leading(self) -> tuple[list[list[int]], tuple[int, ...] | None]:
        """Each side's likeliest ideas (see :meth:`_tops`), and the family's
        likeliest rule still possible (None: none is left)."""
        tops, parts = self._tops()
        if self._key(parts) not in self.excluded:
            return tops, parts
        # judged wrong: the next best changes the side where the runner-up loses least
        options = self._neighbours(tops, parts)
        return tops, options[0] if options else None

    def _offer(self, index: int, parts: tuple[int, ...] | None) -> ExtraCandidate | None:
        """``parts`` as a candidate, unless none is left or it is a plain rule
        (one block on every side: weighed in the plain space)."""
        if parts is None or self._plain(parts):
            return None
        return ExtraCandidate(index, parts, cast(Family, self))

    def best(self, index: int) -> ExtraCandidate | None:
        """The family's likeliest rule (None when it is a plain rule, or none is left)."""
        if not self.alive():
            return None
        return self._offer(index, self._leading()[1])

    def best_two(self, index: int) -> tuple[ExtraCandidate | None, ExtraCandidate | None]:
        """The family's best rule (see :meth:`best`) and its runner-up, the likeliest
        rule one side's next idea away from it that is no plain rule (None for none).

        Two rules of one split often fit every play alike: ``if prev is red
        then card.rank >= 7 else ...`` and ``... >= 8 ...`` while no 7 has
        followed a red card. Listed beside the best, the scientist sees the
        tie (and can guess the two in turn when no card of its hand tells
        them apart) instead of taking the best for the whole family's mass.
        Each side's ranking is worked out once for both.
        """
        if not self.alive():
            return None, None
        tops, parts = self._leading()
        top = self._offer(index, parts)
        if top is None:
            return None, None
        for alt in self._neighbours(tops, top.parts):
            second = self._offer(index, alt)
            if second is not None:
                return top, second
        return top, None

    def alive(self) -> bool:
        """Whether some rule of the family still fits every play."""
        raise NotImplementedError

    def _refuted_share(self) -> float:
        """The share the rules judged wrong would have now (0 when there are none)."""
        if not self.excluded:
            return 0.0
        return min(1.0, fsum(self._key_share(k) for k in self.excluded))

    def _among_left(self, q: float) -> float:
        """A share ``q`` of the family as it was, as a share of the rules left."""
        if not self.excluded:
            return q
        left = 1.0 - self._refuted_share()
        return q / left if left > 1e-12 else 0.0


#: :func:`_block_classes` already worked out: (space, classes) by (space, blocks, mask)
_CLASSES: dict[tuple[int, int, int], tuple[Space, tuple[list[int], list[list[int]]]]] = {}


def _block_classes(space: Space, n1: int, mask: int) -> tuple[list[int], list[list[int]]]:
    """The first ``n1`` single blocks as classes: each block's class and each
    class's blocks, in order. Blocks are one class when their context bit sets
    agree on ``mask`` (the rows, or the cards of rows, a split's side reads).

    Many splits share a side (``prev is red``, ``card is red`` and
    ``card.rank >= prev.rank`` each come with many pairs of ideas), and a
    page builds the families one per timer slice: worked out once per side
    and kept (read-only) for the process.

    >>> from eleusis.ai.space import build_space
    >>> space = build_space(1)
    >>> of, mem = _block_classes(space, space.level_end[1], 0)
    >>> set(of), len(mem) == 1 and mem[0] == list(range(space.level_end[1]))
    ({0}, True)
    """
    key = (id(space), n1, mask)
    hit = _CLASSES.get(key)
    if hit is not None and hit[0] is space:
        return hit[1]
    bits = space.bits
    index: dict[int, int] = {}
    of: list[int] = []
    mem: list[list[int]] = []
    for a in range(n1):
        seen = bits[a] & mask  # one big-integer AND compares all the rows at once
        j = index.get(seen)
        if j is None:
            j = index[seen] = len(mem)
            mem.append([])
        mem[j].append(a)
        of.append(j)
    _CLASSES[key] = (space, (of, mem))
    return of, mem


class SplitFamily(_Refuting):
    """``if C then A else B`` (or ``case pos % k``) with any single blocks A, B, ...

    ``side(pos, prev)`` says which side of the split a context is on
    (0..``k``-1). One mismatch counter per (side, block); the evidence is the
    product over sides of the posterior mass left on that side. On a split
    on the last card, the blocks that judge alike after every last card of
    a side are one rule there (after a red card, ``card is red`` and
    ``card.color == prev.color``): a rule's share counts them all.
    """

    def __init__(self, name: str, prior: float, space: Space, weights: Sequence[float],
                 k: int, side: Callable[[int, Card | None], int],
                 texts: Callable[[Sequence[str]], str],
                 englishes: Callable[[Sequence[str]], str], kmax: int, eps: float,
                 by_prev: bool = True, first: int = 0, back: int = 1,
                 escape: int | None = None, room: int = 0) -> None:
        self.name = name
        #: the earlier card the blocks read: 1, the last card; 2, the one two back
        #: (``if prev.rank <= 6 and prev2.rank <= 6 then card.rank >= 7 else
        #: card.color != prev2.color``): a block's text reads ``prev2`` then
        self.back = back
        self.prior = prior
        self.space = space
        self.w = _single_weights(space, weights)
        n1 = len(self.w)
        self.k = k
        self.side = side
        #: a split on ``pos <= first``: side 0 never comes back once the
        #: mainline is past ``first`` (its block no longer matters to a guess)
        self.first = first
        #: for a split on the last card: the 52-bit set of last cards on each side
        self.side_prevs: list[int] | None = None
        if by_prev and back == 1:
            self.side_prevs = [sum(1 << i for i, c in enumerate(ALL_CARDS) if side(2, c) == s)
                               for s in range(k)]
        #: each side's prior weights of the single blocks (see :meth:`_escape_weights`)
        self.ws = [self.w] * k
        if escape is not None:
            self.ws = self._escape_weights(escape, room)
        self._texts = texts
        self._englishes = englishes
        self.k1 = kmax + 1
        self.pe = [eps ** m for m in range(kmax + 1)] + [0.0]
        #: the blocks each side allows a priori
        self._live0 = [[a for a in range(n1) if self.ws[s][a] > 0] for s in range(k)]
        self.mm = [[0] * n1 for _ in range(k)]
        #: the blocks each side still allows (mismatches below ``k1``), in order
        self.live = [list(x) for x in self._live0]
        #: per side, a side's live blocks as a bit set, with the list it was made
        #: from (an observation that refutes a block makes a new list: see
        #: :meth:`_live_bits`)
        self._bits0 = [sum(1 << a for a in live) for live in self._live0]
        self._bits = [(live, bits) for live, bits in zip(self.live, self._bits0, strict=True)]
        self.z = [1.0] * k
        #: the rules guessed and judged wrong, as a class per side (see :meth:`_key`)
        self.excluded: set[tuple[int, ...]] = set()
        #: per side: the class of each block (blocks that judge alike after every
        #: last card of the side are one rule there) and each class's members
        self.cls, self.members = self._classes(n1)

    def _escape_weights(self, escape: int, room: int = 0) -> list[list[float]]:
        """The prior weights of an escape split's sides (``escape``: the side of the
        last cards it escapes from, kings or aces; a split of two sides).

        A rule that climbs or falls has nowhere to go after a king or an ace,
        and people give it a way on: "higher than the last card, anything
        after a king" (``if prev.rank == 13 then true else card.rank >
        prev.rank``). So the other side holds only the blocks that accept at
        most ``room`` cards after each of those last cards (none for a king or
        an ace: the climbs, the falls...; a rank's four for "anything after
        a queen or a king", whose climb still allows a king after a queen),
        and on the escape side ``true`` weighs ``ESCAPE_TRUE``: there
        "anything" is what people mean, where ``card.rank != 13`` fits the
        same plays until a king follows a king. A plain rule has no such twin
        (``card is red`` needs no way on).
        """
        assert self.side_prevs is not None and self.k == 2
        srows = single_rows(self.space)
        stuck = [p for p in range(NCARDS) if self.side_prevs[escape] >> p & 1]
        other = [x if all(srows[a][p].bit_count() <= room for p in stuck) else 0.0
                 for a, x in enumerate(self.w)]
        total = sum(other)
        rest = 1.0 - self.w[0]
        ws = [self.w] * self.k
        ws[escape] = [ESCAPE_TRUE] + [x * (1.0 - ESCAPE_TRUE) / rest for x in self.w[1:]]
        ws[1 - escape] = [x / total for x in other]
        return ws

    def _classes(self, n1: int) -> tuple[list[list[int]], list[list[list[int]]]]:
        """Per side, each block's class and each class's blocks.

        After a red last card ``card is red`` and ``card.color == prev.color``
        are one rule: on a split on the last card, blocks that accept the same
        cards after every last card of a side are one class there, so that a
        rule's probability counts every way of writing it (the judge calls
        them one rule). A split on the position may see any last card on
        either side: its classes are single blocks.
        """
        if self.side_prevs is None:
            ident = list(range(n1))
            return [ident] * self.k, [[[a] for a in range(n1)]] * self.k
        cls: list[list[int]] = []
        members: list[list[list[int]]] = []
        for s in range(self.k):
            rows = sum(FULL52 << (NCARDS * p) for p in range(NCARDS)
                       if self.side_prevs[s] >> p & 1)  # the rows after this side's cards
            of, mem = _block_classes(self.space, n1, rows)
            cls.append(of)
            members.append(mem)
        return cls, members

    def _key(self, parts: tuple[int, ...]) -> tuple[int, ...]:
        """The rule ``parts`` as one class per side (its identity for the judge)."""
        return tuple(self.cls[s][a] for s, a in enumerate(parts))

    def _class_weight(self, s: int, a: int) -> float:
        """The posterior weight (unnormalised) of block ``a``'s class on side ``s``."""
        mm, pe, w, k1 = self.mm[s], self.pe, self.ws[s], self.k1
        return sum(w[b] * pe[mm[b]] for b in self.members[s][self.cls[s][a]] if mm[b] < k1)

    def fresh(self) -> SplitFamily:
        """The same family before any observation (sharing the unchanging parts)."""
        new = copy.copy(self)
        new.mm = [[0] * len(self.w) for _ in range(self.k)]
        new.live = [list(x) for x in self._live0]
        new._bits = [(live, bits) for live, bits in zip(new.live, self._bits0, strict=True)]
        new.z = [1.0] * self.k
        new.excluded = set()
        return new

    def observe(self, obs: Obs, single_verdicts: Sequence[int]) -> None:
        s = self.side(obs.pos, obs.prev)
        want = 1 if obs.accepted else 0
        mm = self.mm[s]
        k1 = self.k1
        before = self.live[s]
        wrong = [a for a in before if single_verdicts[a] != want]
        if wrong:
            for a in wrong:
                mm[a] += 1
            self.live[s] = live = [a for a in before if mm[a] < k1]
            pe, w = self.pe, self.ws[s]
            self.z[s] = sum([w[a] * pe[mm[a]] for a in live])
            known = self._bits[s]
            if k1 == 1 and known[0] is before:
                # (no mismatch tolerated: the blocks left are those that judged right)
                v = _verdict_bits(single_verdicts, len(self.w))
                self._bits[s] = (live, known[1] & (v if want else ~v))

    def evidence(self) -> float:
        e = 1.0
        for z in self.z:
            e *= z
        return e * (1.0 - self._refuted_share())

    def _key_share(self, key: tuple[int, ...]) -> float:
        """The share the rule ``key`` (a class per side) would have now, were it possible."""
        q = 1.0
        pe, k1 = self.pe, self.k1
        for s, j in enumerate(key):
            z = self.z[s]
            if z <= 0:
                return 0.0
            mm, w = self.mm[s], self.ws[s]
            q *= sum(w[b] * pe[mm[b]] for b in self.members[s][j] if mm[b] < k1) / z
        return q

    def alive(self) -> bool:
        return all(z > 0 for z in self.z)

    def rows(self, pos: int, line: Sequence[Card], out: dict[int, float], scale: float) -> None:
        prev = line[-1] if line else None
        s = self.side(pos, prev)
        z = self.z[s]
        if z <= 0:
            return
        p = _row(_back(line, self.back))
        srows = single_rows(self.space)
        pe, w = self.pe, self.ws[s]
        mm = self.mm[s]
        f = scale / z
        for a in self.live[s]:
            row = srows[a][p]
            out[row] = out.get(row, 0.0) + f * w[a] * pe[mm[a]]

    def add_weights(self, pos: int, line: Sequence[Card], acc: list[float],
                    scale: float) -> None:
        """Add to ``acc[a]`` the weight of single block ``a`` judging the next card.

        The same as :meth:`rows` with the rows left to the caller: every split
        family judges the next card by a block's row after the last card, so
        the belief sums the blocks' weights over the families and reads each
        block's row once.
        """
        prev = line[-1] if line else None
        s = self.side(pos, prev)
        z = self.z[s]
        if z <= 0:
            return
        pe, w = self.pe, self.ws[s]
        mm = self.mm[s]
        f = scale / z
        if self.k1 == 1:  # (a live block has no mismatch: pe[0] is 1)
            for a in self.live[s]:
                acc[a] += f * w[a]
            return
        for a in self.live[s]:
            acc[a] += f * w[a] * pe[mm[a]]

    def live_singles(self) -> int:
        """The single blocks some side still allows, as a bit set (reading ``prev2``,
        those that read only the card: see :meth:`agreement`)."""
        if self.back != 1:
            free = _context_free(self.space)
            return sum(1 << a for a in {a for live in self.live for a in live if free[a]})
        out = 0
        for s in range(self.k):
            out |= self._live_bits(s)
        return out

    def _live_bits(self, s: int) -> int:
        """Side ``s``'s live blocks as a bit set, remembered while its list stands."""
        live = self.live[s]
        hit = self._bits[s]
        if hit[0] is not live:
            hit = self._bits[s] = (live, sum(1 << a for a in live))
        return hit[1]

    def agreement(self, fit: BlockFit, rows: dict[int, int]) -> float:
        """The family's posterior share of rules agreeing with a candidate.

        ``fit``: which single blocks judge like the candidate after the
        reachable last cards (see :class:`BlockFit`). For a split on the last
        card, a side's block must agree after that side's last cards; for a
        position split (whose sides are not tracked), after all of them.
        Blocks read against ``prev2`` count when they read only the card (the
        others are not compared: an underestimate).
        """
        share = 1.0
        pe = self.pe
        free = _context_free(self.space) if self.back != 1 else None
        for s in range(self.k):
            z = self.z[s]
            if z <= 0:
                return 0.0
            where = self.side_prevs[s] if self.side_prevs is not None else -1
            mm, w = self.mm[s], self.ws[s]
            if free is None:
                # the live blocks that agree, lowest first (the order of ``live``),
                # as a bit set: most sides have none, the others a few
                hit = self._live_bits(s) & fit.mask(where)
                total = 0.0
                while hit:
                    low = hit & -hit
                    a = low.bit_length() - 1
                    total += w[a] * pe[mm[a]]
                    hit ^= low
                share *= total / z
                continue
            ok = fit.flags(where)
            share *= sum(w[a] * pe[mm[a]] for a in self.live[s] if ok[a] and free[a]) / z
        return share

    def _ranked(self, s: int) -> list[int]:
        """Side ``s``'s three likeliest classes, likeliest first, each named by its
        likeliest block (the simplest way of writing it, as the prior weighs them)."""
        pe, w, mm, cls = self.pe, self.ws[s], self.mm[s], self.cls[s]
        mass: dict[int, float] = {}
        name: dict[int, int] = {}
        for a in self.live[s]:
            j = cls[a]
            wa = w[a] * pe[mm[a]]
            mass[j] = mass.get(j, 0.0) + wa
            b = name.get(j)
            if b is None or wa > w[b] * pe[mm[b]]:
                name[j] = a
        return [name[j] for j in heapq.nsmallest(3, mass, key=lambda j: (-mass[j], name[j]))]

    def _plain(self, parts: tuple[int, ...]) -> bool:
        """Whether one single block is the rule on every side (a plain rule), or
        blocks reading ``prev2`` read only the card (the split's reading ``prev``
        write that rule)."""
        if len(set(parts)) == 1:
            return True
        if self.back != 1:
            return self.reads_card_only(parts)
        if self.side_prevs is None:
            return False
        common = set(self.members[0][self.cls[0][parts[0]]])
        for s in range(1, self.k):
            common &= set(self.members[s][self.cls[s][parts[s]]])
        return bool(common)

    def reads_card_only(self, parts: tuple[int, ...]) -> bool:
        """Whether every side of ``parts`` is a block that reads only the card: the
        rule is then the same whichever earlier card the blocks were read against
        (its twin reading the card two back writes it too)."""
        free = _context_free(self.space)
        return all(free[a] for a in parts)

    def share(self, parts: tuple[int, ...], pos_next: int = 0) -> float:
        """The probability of the rule ``parts`` within the family (its class on each
        side); the rules judged wrong are impossible and the others share their mass."""
        if self._key(parts) in self.excluded:
            return 0.0
        q = 1.0
        for s, a in enumerate(parts):
            if s == 0 and self.first and pos_next > self.first:
                continue  # a side that never comes back: any block will do
            q *= self._class_weight(s, a) / self.z[s] if self.z[s] > 0 else 0.0
        return self._among_left(q)

    def exclude(self, parts: tuple[int, ...]) -> None:
        self.excluded.add(self._key(parts))

    def text(self, parts: tuple[int, ...]) -> str:
        return self._texts([_paren(_back_text(self.space.text(a), self.back)) for a in parts])

    def english(self, parts: tuple[int, ...]) -> str:
        return self._englishes([_back_english(self.space.english(a), self.back)
                                for a in parts])

    def accepts(self, parts: tuple[int, ...], line: Sequence[Card], card: Card) -> bool:
        prev = line[-1] if line else None
        a = parts[self.side(len(line) + 1, prev)]
        return _block_accepts(self.space, a, _back(line, self.back), card)

    def row(self, parts: tuple[int, ...], line: Sequence[Card]) -> int:
        prev = line[-1] if line else None
        return single_rows(self.space)[parts[self.side(len(line) + 1, prev)]][
            _row(_back(line, self.back))]


class BackSplitFamily(SplitFamily):
    """``if C(prev, prev2) then A else B``: a split on how the last two cards relate
    (``if prev.rank > prev2.rank then card is red else card is black``), any
    single blocks A and B.

    Like :class:`SplitFamily`, with the side read from the last two cards.
    Where there is no card two back the rule accepts any card (the rule
    language's own reading of a missing ``prev2``): such contexts judge no
    block, and a refusal there rules the whole family out.
    """

    def __init__(self, name: str, prior: float, space: Space, weights: Sequence[float],
                 side2: Callable[[Card, Card | None], int | None],
                 texts: Callable[[Sequence[str]], str],
                 englishes: Callable[[Sequence[str]], str], kmax: int, eps: float,
                 back: int = 1) -> None:
        super().__init__(name, prior, space, weights, 2, lambda pos, prev: 0, texts, englishes,
                         kmax, eps, by_prev=False, back=back)
        self.side2 = side2

    def _side_of(self, prev: Card | None, prev2: Card | None) -> int | None:
        return None if prev is None else self.side2(prev, prev2)

    def observe(self, obs: Obs, single_verdicts: Sequence[int]) -> None:
        s = self._side_of(obs.prev, obs.prev2)
        if s is None:
            if not obs.accepted:
                self.z = [0.0] * self.k  # (no mismatch is tolerated here)
            return
        want = 1 if obs.accepted else 0
        mm = self.mm[s]
        changed = False
        for a in self.live[s]:
            if single_verdicts[a] != want:
                mm[a] += 1
                changed = True
        if changed:
            self.live[s] = live = [a for a in self.live[s] if mm[a] < self.k1]
            pe, w = self.pe, self.ws[s]
            self.z[s] = sum([w[a] * pe[mm[a]] for a in live])

    def _side_line(self, line: Sequence[Card]) -> int | None:
        return self._side_of(line[-1] if line else None, line[-2] if len(line) >= 2 else None)

    def rows(self, pos: int, line: Sequence[Card], out: dict[int, float], scale: float) -> None:
        if not self.alive():
            return
        s = self._side_line(line)
        if s is None:
            out[FULL52] = out.get(FULL52, 0.0) + scale
            return
        srows = single_rows(self.space)
        p = _row(_back(line, self.back))
        pe, w, mm = self.pe, self.ws[s], self.mm[s]
        f = scale / self.z[s]
        for a in self.live[s]:
            row = srows[a][p]
            out[row] = out.get(row, 0.0) + f * w[a] * pe[mm[a]]

    def add_weights(self, pos: int, line: Sequence[Card], acc: list[float],
                    scale: float) -> None:
        if not self.alive():
            return
        s = self._side_line(line)
        if s is None:
            acc[0] += scale  # (block 0 is ``true``: every card)
            return
        pe, w, mm = self.pe, self.ws[s], self.mm[s]
        f = scale / self.z[s]
        for a in self.live[s]:
            acc[a] += f * w[a] * pe[mm[a]]

    def accepts(self, parts: tuple[int, ...], line: Sequence[Card], card: Card) -> bool:
        s = self._side_line(line)
        if s is None:
            return True
        return _block_accepts(self.space, parts[s], _back(line, self.back), card)

    def row(self, parts: tuple[int, ...], line: Sequence[Card]) -> int:
        s = self._side_line(line)
        if s is None:
            return FULL52
        return single_rows(self.space)[parts[s]][_row(_back(line, self.back))]


#: The card properties a compound side joins to a single block ("a low red
#: card": ``card.rank <= 5 and card is red``; "a face card or an ace"), by
#: their texts among the single blocks.
COMPOUND_PROPERTIES = ("card is red", "card is black", "card is spades", "card is hearts",
                       "card is diamonds", "card is clubs", "card is face", "card is numeral",
                       "card is even", "card is odd", "card is prime", "card.rank == 1")


def bits_of(x: int) -> list[int]:
    """The indices of the set bits of ``x``, lowest first.

    >>> bits_of(0b10110)
    [1, 2, 4]
    """
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


#: the last verdicts read as a bit set: (the verdicts, how many, the bit set)
_VERDICT_BITS: list[tuple[Sequence[int], int, int]] = []


def _verdict_bits(verdicts: Sequence[int], n: int) -> int:
    """The first ``n`` single blocks' verdicts on an observation as a bit set
    (block ``a`` is bit ``a``). Every compound split reads the same list in one
    observation: read once.

    >>> _verdict_bits([1, 0, 1, 1], 3)
    5
    """
    if _VERDICT_BITS and _VERDICT_BITS[0][0] is verdicts and _VERDICT_BITS[0][1] == n:
        return _VERDICT_BITS[0][2]
    bits = int(bytes(verdicts[n - 1::-1] if n else ()).translate(_BITS) or b"0", 2)
    _VERDICT_BITS[:] = [(verdicts, n, bits)]
    return bits


class CompoundSplitFamily:
    """``if C then A op P else B`` (or the other way round): a split whose one side
    is a single block joined to a card property (``if prev is face then
    card.rank <= 5 and card is red else card.suit == prev.suit``), ``op`` being
    ``and`` or ``or``, ``P`` one of :data:`COMPOUND_PROPERTIES`; and, once no
    single block fits either side, splits whose both sides are such pairs
    (``if prev is face then card.rank <= 5 and card is red else
    card.suit == prev.suit or card is face``).

    Grown by need: the family sleeps (no evidence, no work) while every side
    of its split still has a single block that fits it (the plain split holds
    those rules), and wakes once one side has none. The side of single
    blocks is the plain split's own bookkeeping (``base``, observed through
    this family); each side keeps, for each property and ``op``, the
    blocks still possible as one bit set, so an observation costs one AND
    per pair and the weight of a set is a few popcounts (the blocks' prior
    weights take a few dozen values). A rule's parts are ``(cs, b, a, g)``
    (side ``cs`` compound: block ``a`` joined by pair ``g``; the other side
    block ``b``), or ``(BOTH, a0, g0, a1, g1)`` for two compound sides.
    """

    #: the parts' first entry of a rule whose two sides are compound
    BOTH = 2
    #: the prior of two compound sides against one (each orientation of one is 0.5)
    BOTH_SHARE = 0.2

    def __init__(self, name: str, prior: float, base: SplitFamily) -> None:
        assert base.k == 2 and base.back == 1
        self.name = name
        self.prior = prior
        self.space = base.space
        self.base = base
        texts = {self.space.text(a): a for a in range(len(base.w))}
        self.props = [texts[t] for t in COMPOUND_PROPERTIES]
        n1 = len(base.w)
        self.full = (1 << n1) - 1
        #: the blocks of each prior weight, as bit sets: (weight, blocks)
        tiers: dict[float, int] = {}
        for a, x in enumerate(base.w):
            tiers[x] = tiers.get(x, 0) | 1 << a
        self.tiers = sorted(tiers.items())
        self.gw = 1.0 / (2 * len(self.props))
        #: per side, per pair (property ``j``, and/or: index ``2 j + op``), the blocks left
        self.live = [[self.full] * (2 * len(self.props)) for _ in range(2)]
        self.excluded: set[tuple[int, ...]] = set()
        self._z: list[float | None] = [None, None]
        self._ideas_at: list[dict[int, tuple[float, int, int]] | None] = [None, None]
        #: per side: its rows and each property's cards in them (shared)
        self._side_masks: dict[int, tuple[int, list[int]]] = {}

    def fresh(self) -> CompoundSplitFamily:
        """The same family before any observation (sharing the unchanging parts)."""
        new = copy.copy(self)
        new.base = self.base.fresh()
        new.live = [[self.full] * (2 * len(self.props)) for _ in range(2)]
        new.excluded = set()
        new._z = [None, None]
        new._ideas_at = [None, None]
        return new

    def observe(self, obs: Obs, single_verdicts: Sequence[int]) -> None:
        self.base.observe(obs, single_verdicts)
        s = self.base.side(obs.pos, obs.prev)
        v = _verdict_bits(single_verdicts, len(self.base.w))
        live = self.live[s]
        refuse = self.full ^ v
        for j, p in enumerate(self.props):
            held = (v >> p) & 1
            for op in (0, 1):
                g = 2 * j + op
                if not live[g]:
                    continue
                if held == op:  # (and: the property fails; or: it holds) the verdict is set
                    if op != obs.accepted:
                        live[g] = 0
                else:
                    live[g] &= v if obs.accepted else refuse
        self._z[s] = None
        self._ideas_at[s] = None

    def _weight(self, blocks: int) -> float:
        """The prior weight of a set of single blocks."""
        return fsum(x * (blocks & m).bit_count() for x, m in self.tiers if blocks & m)

    def _zc(self, s: int) -> float:
        """The weight of the compound ideas left on side ``s``."""
        z = self._z[s]
        if z is None:
            z = self._z[s] = self.gw * fsum(self._weight(x) for x in self.live[s] if x)
        return z

    def _side(self) -> int | None:
        """The compound side: the one no single block fits any longer, or
        :data:`BOTH` when neither has one (None while both have one: the
        family sleeps; or while a mismatch is tolerated)."""
        if self.base.k1 != 1:
            return None  # (a mismatch tolerated: the plain splits speak)
        z = self.base.z
        if z[0] > 0 and z[1] > 0:
            return None
        if z[0] <= 0 and z[1] <= 0:
            return self.BOTH
        return 0 if z[0] <= 0 else 1

    def _raw(self, cs: int) -> float:
        if cs == self.BOTH:
            return self.BOTH_SHARE * self._zc(0) * self._zc(1)
        return 0.5 * self.base.z[1 - cs] * self._zc(cs)

    def evidence(self) -> float:
        cs = self._side()
        if cs is None:
            return 0.0
        raw = self._raw(cs)
        if raw <= 0.0 or not self.excluded:
            return raw
        return raw * max(0.0, 1.0 - fsum(self._share(k) for k in self.excluded))

    def alive(self) -> bool:
        return self.evidence() > 0.0

    def _prop_cards(self, j: int) -> int:
        return single_rows(self.space)[self.props[j]][NOPREV]

    def _masks(self, s: int) -> tuple[int, list[int]]:
        """Side ``s``'s rows (every card after each of its last cards), and each
        property's cards in those rows: a compound's judgement there, over all
        of the side's last cards at once, is one AND (and one OR) of big integers."""
        hit = self._side_masks.get(s)
        if hit is None:
            prevs = self.base.side_prevs
            where = (range(NCARDS + 1) if prevs is None
                     else [p for p in range(NCARDS) if prevs[s] >> p & 1])
            spread = sum(1 << (NCARDS * p) for p in where)
            hit = self._side_masks[s] = (FULL52 * spread,
                                         [self._prop_cards(j) * spread
                                          for j in range(len(self.props))])
        return hit

    def _sig(self, s: int, a: int, g: int) -> int:
        """What block ``a`` joined by pair ``g`` accepts after every last card of side
        ``s``: two compounds with one signature are one rule for the judge."""
        rows, props = self._masks(s)
        bits = self.space.bits[a]
        return (bits & rows) | props[g // 2] if g % 2 else bits & props[g // 2]

    def _ideas(self, s: int) -> dict[int, tuple[float, int, int]]:
        """Side ``s``'s compound ideas by signature: (weight, block, pair), each
        named by its likeliest spelling (the heaviest block, then the first pair).
        Worked out once per state of the side."""
        hit = self._ideas_at[s]
        if hit is None:
            w = self.base.w
            out: dict[int, tuple[float, int, int]] = {}
            for g, x in enumerate(self.live[s]):
                for a in bits_of(x):
                    sig = self._sig(s, a, g)
                    old = out.get(sig)
                    if old is None:
                        out[sig] = (self.gw * w[a], a, g)
                    else:
                        m, b, h = old
                        name = (a, g) if w[a] > w[b] else (b, h)
                        out[sig] = (m + self.gw * w[a], *name)
            hit = self._ideas_at[s] = out
        return hit

    def _compound_share(self, s: int, a: int, g: int) -> float:
        """The share of compound ``a`` joined by pair ``g`` (and its equals) on side ``s``."""
        zc = self._zc(s)
        if zc <= 0:
            return 0.0
        idea = self._ideas(s).get(self._sig(s, a, g))
        return (idea[0] if idea else 0.0) / zc

    def _block_share(self, s: int, b: int) -> float:
        """The share of block ``b``'s class on side ``s`` of the plain split."""
        z = self.base.z[s]
        return self.base._class_weight(s, b) / z if z > 0 else 0.0

    def _share(self, parts: tuple[int, ...]) -> float:
        q = 1.0
        for s in (0, 1):
            compound = self._compound_of(parts, s)
            q *= (self._block_share(s, parts[1]) if compound is None
                  else self._compound_share(s, *compound))
        return q

    def _key(self, parts: tuple[int, ...]) -> tuple[int, ...]:
        """The rule as the judge sees it: each side's class of block, or signature."""
        key = [parts[0]]
        for s in (0, 1):
            compound = self._compound_of(parts, s)
            key.append(self.base.cls[s][parts[1]] if compound is None
                       else self._sig(s, *compound))
        return tuple(key)

    def share(self, parts: tuple[int, ...], pos_next: int = 0) -> float:
        if self._key(parts) in {self._key(k) for k in self.excluded}:
            return 0.0
        q = self._share(parts)
        if not self.excluded:
            return q
        left = 1.0 - fsum(self._share(k) for k in self.excluded)
        return q / left if left > 1e-12 else 0.0

    def _compounds(self, cs: int) -> list[tuple[float, int, int]]:
        """The compound side's ideas, likeliest first: (weight, pair, block)."""
        ideas = sorted(self._ideas(cs).values(), key=lambda t: (-t[0], t[2], t[1]))
        return [(m, g, a) for m, a, g in ideas]

    def _options(self, index: int) -> list[ExtraCandidate]:
        """The family's two likeliest rules not judged wrong (the likeliest first)."""
        cs = self._side()
        if cs is None or not self.alive():
            return []
        keys = {self._key(k) for k in self.excluded}
        options: list[tuple[int, ...]]
        if cs == self.BOTH:
            options = [(cs, a0, g0, a1, g1) for _, g0, a0 in self._compounds(0)[:4]
                       for _, g1, a1 in self._compounds(1)[:4]]
        else:
            options = [(cs, b, a, g) for b in self.base._ranked(1 - cs)
                       for _, g, a in self._compounds(cs)[:6]]
        options = [p for p in options if self._key(p) not in keys]
        options.sort(key=lambda p: -self._share(p))
        return [ExtraCandidate(index, p, cast(Family, self)) for p in options[:2]]

    def best(self, index: int) -> ExtraCandidate | None:
        options = self._options(index)
        return options[0] if options else None

    def best_two(self, index: int) -> tuple[ExtraCandidate | None, ExtraCandidate | None]:
        """The family's best rule and its runner-up (None for none): two ways of
        joining a block to a property that no play has told apart yet."""
        options = self._options(index)
        return (options[0] if options else None, options[1] if len(options) > 1 else None)

    def exclude(self, parts: tuple[int, ...]) -> None:
        self.excluded.add(parts)

    def _sides(self, parts: tuple[int, ...], say: Callable[[int], str],
               join: Callable[[str, str, int], str]) -> list[str]:
        out = []
        for s in (0, 1):
            compound = self._compound_of(parts, s)
            if compound is None:
                out.append(say(parts[1]))
            else:
                a, g = compound
                out.append(join(say(a), say(self.props[g // 2]), g % 2))
        return out

    def _compound_of(self, parts: tuple[int, ...], s: int) -> tuple[int, int] | None:
        """Side ``s``'s compound (block, pair) in ``parts``; None where it holds a block."""
        if parts[0] == self.BOTH:
            return (parts[1], parts[2]) if s == 0 else (parts[3], parts[4])
        cs, _, a, g = parts
        return (a, g) if s == cs else None

    def text(self, parts: tuple[int, ...]) -> str:
        sides = self._sides(parts, self.space.text,
                            lambda x, p, op: f"{_paren(x)} {('and', 'or')[op]} {p}")
        return self.base._texts([_paren(x) for x in sides])

    def english(self, parts: tuple[int, ...]) -> str:
        return self.base._englishes(self._sides(
            parts, self.space.english, lambda x, p, op: f"{x} {('and', 'or')[op]} {p}"))

    def _judges(self, parts: tuple[int, ...], line: Sequence[Card]) -> int:
        """The 52-bit set of cards ``parts`` accepts after ``line``."""
        prev = line[-1] if line else None
        if prev is None and self.base.side_prevs is not None:
            return FULL52  # (the condition reads a last card there is none of: any card)
        srows = single_rows(self.space)
        p = _row(prev)
        compound = self._compound_of(parts, self.base.side(len(line) + 1, prev))
        if compound is None:
            return srows[parts[1]][p]
        a, g = compound
        if prev is None and not _context_free(self.space)[a]:
            return FULL52  # (read first, the block finds no last card: any card)
        cards = self._prop_cards(g // 2)
        return srows[a][p] | cards if g % 2 else srows[a][p] & cards

    def accepts(self, parts: tuple[int, ...], line: Sequence[Card], card: Card) -> bool:
        return bool(self._judges(parts, line) >> card.index & 1)

    def row(self, parts: tuple[int, ...], line: Sequence[Card]) -> int:
        return self._judges(parts, line)

    def rows(self, pos: int, line: Sequence[Card], out: dict[int, float], scale: float) -> None:
        cs = self._side()
        if cs is None:
            return
        prev = line[-1] if line else None
        here = self.base.side(pos, prev)
        if cs != self.BOTH and here != cs:
            self.base.rows(pos, line, out, scale)
            return
        zc = self._zc(here)
        if zc <= 0:
            return
        srows = single_rows(self.space)
        w = self.base.w
        p = _row(prev)
        f = scale * self.gw / zc
        for g, x in enumerate(self.live[here]):
            if not x:
                continue
            cards = self._prop_cards(g // 2)
            for a in bits_of(x):
                row = srows[a][p] | cards if g % 2 else srows[a][p] & cards
                out[row] = out.get(row, 0.0) + f * w[a]

    def live_singles(self) -> int:
        return 0  # (its rules are not compared block by block: see agreement)

    def agreement(self, fit: BlockFit, rows: dict[int, int]) -> float:
        return 0.0  # (an underestimate of the mass agreeing with a candidate)


def _pair(test: Callable[[Card, Card], bool]) -> Callable[[Card, Card | None], bool | None]:
    """A condition on the last two cards that always reads the card two back
    (None where there is none: the rule then accepts any card)."""
    return lambda p, q: None if q is None else test(p, q)


def _both(test: Callable[[Card], bool]) -> Callable[[Card, Card | None], bool | None]:
    """``test(prev) and test(prev2)``, read as the rule language reads it: a last
    card failing the test decides without the card two back."""
    return lambda p, q: False if not test(p) else None if q is None else test(q)


def _back_conditions() -> list[tuple[str, str, Callable[[Card, Card | None], bool | None]]]:
    """Conditions on the last two cards a :class:`BackSplitFamily` may split on:
    (text, English, test(last card, card two back or None)); the test is None
    where the rule language would need a card two back that is not there."""
    return [
        ("prev.rank > prev2.rank", "the last card is higher than the one before",
         _pair(lambda p, q: p.rank > q.rank)),
        ("prev.rank < prev2.rank", "the last card is lower than the one before",
         _pair(lambda p, q: p.rank < q.rank)),
        ("prev.color == prev2.color", "the last two cards have one color",
         _pair(lambda p, q: p.red == q.red)),
        ("prev.suit == prev2.suit", "the last two cards have one suit",
         _pair(lambda p, q: p.suit == q.suit)),
        ("(prev.rank + prev2.rank) % 2 == 0", "the last two ranks add up to an even number",
         _pair(lambda p, q: (p.rank + q.rank) % 2 == 0)),
        ("prev.rank + prev2.rank >= 14", "the last two ranks add up to 14 or more",
         _pair(lambda p, q: p.rank + q.rank >= 14)),
        ("prev.rank <= 6 and prev2.rank <= 6", "the last two cards are both 6 or lower",
         _both(lambda c: c.rank <= 6)),
        ("prev.rank >= 8 and prev2.rank >= 8", "the last two cards are both 8 or higher",
         _both(lambda c: c.rank >= 8)),
        ("prev.face == prev2.face", "the last two cards are both face cards or both not",
         _pair(lambda p, q: p.face == q.face)),
    ]


def _couple(sides: Sequence[Sequence[tuple[int, float]]], out: dict[int, float],
            scale: float) -> None:
    """Add to ``out`` the rows of independent sides, coupled by rank.

    Each side's law is its rows (on its own cards) with weights summing to
    one. The joint law would be a product; the comonotone coupling (each
    law cut at its rows' cumulated weights, all the cuts in one order:
    between two cuts each side's row is fixed) keeps every card's
    probability its side's, in as many rows as the sides have together.

    >>> out = {}
    >>> _couple([[(0b01, 0.5), (0b11, 0.5)], [(0b100, 1.0)]], out, 2.0)
    >>> sorted(out.items())
    [(5, 1.0), (7, 1.0)]
    """
    cuts: list[tuple[float, int, int]] = []
    for s, law in enumerate(sides):
        c = 0.0
        for i, (_, w) in enumerate(law):
            c += w
            cuts.append((c, s, i))
    cuts.sort()
    cur = [law[0][0] for law in sides]
    last = 0.0
    get = out.get
    for c, s, i in cuts:
        if c > last:
            row = 0
            for r in cur:
                row |= r
            out[row] = get(row, 0.0) + scale * (c - last)
            last = c
        if i + 1 < len(sides[s]):
            cur[s] = sides[s][i + 1][0]


class CardSplitFamily(_Refuting):
    """``if C(card) then A else B`` (or ``case card.suit ...``): the split reads the card.

    People write rules whose condition is the judged card itself ("a red card
    must be higher than the last card, a black one lower"): each side of the
    split is a set of cards, and a block only matters on its side's cards. So
    the blocks of a side are merged by what they accept *on that side* (on
    red cards, ``card is red`` and ``true`` are one rule), each class
    weighing its members' prior; then the family factorises like
    :class:`SplitFamily` (one mismatch counter per side and class): an
    observation counts on the side of the card played. A rule whose every
    side is one single block's is a plain rule and weighed there.

    The condition may also relate the card to the last one (``if card.rank >
    prev.rank then card.color != prev.color else card.suit == prev.suit``):
    ``rel_side`` gives the side of a card after a last card. Then the sides
    are sets of cards per last card, and at position 1 (no last card, which
    the condition cannot read) every card is accepted, as the rule language
    reads a missing ``prev``.

    Its :meth:`two_back` (a split on the card only) reads the blocks against
    the card two back instead of the last one ("a red card must change suit
    from the card two back, a black one be higher than it"): the same classes
    and counters, indexed by the card two back.
    """

    def __init__(self, name: str, prior: float, space: Space, weights: Sequence[float],
                 k: int, card_side: Callable[[Card], int] | None,
                 texts: Callable[[Sequence[str]], str],
                 englishes: Callable[[Sequence[str]], str], kmax: int, eps: float,
                 rel_side: Callable[[Card, Card], int] | None = None) -> None:
        self.name = name
        #: the earlier card the blocks read (1: the last card; 2: the one two back,
        #: see :meth:`two_back`)
        self.back = 1
        self.prior = prior
        self.space = space
        self.k = k
        #: side_of[p][c]: the side of card c after card p (NOPREV: position 1;
        #: -1, no side: accepted whatever the rule)
        if rel_side is not None:
            self.side_of = [[rel_side(c, prev) for c in ALL_CARDS] for prev in ALL_CARDS]
            self.side_of.append([-1] * NCARDS)
        else:
            assert card_side is not None
            self.side_of = [[card_side(c) for c in ALL_CARDS]] * (NCARDS + 1)
        #: masks[s][p]: the cards on side s after card p
        self.masks = [[sum(1 << i for i in range(NCARDS) if sides[i] == s)
                       for sides in self.side_of] for s in range(k)]
        self._texts = texts
        self._englishes = englishes
        self.k1 = kmax + 1
        self.pe = [eps ** m for m in range(kmax + 1)] + [0.0]
        n1 = space.level_end[1]
        total = sum(weights[:n1]) or 1.0
        srows = single_rows(space)
        #: per side: each class's masked rows (53 of them), prior, representative block
        self.crows: list[list[tuple[int, ...]]] = []
        self.cw: list[list[float]] = []
        self.crep: list[list[int]] = []
        #: per side: the class of each single block
        self.of_block: list[list[int]] = []
        for s in range(k):
            ms = self.masks[s]
            of, mem = _block_classes(space, n1, sum(m << (NCARDS * p) for p, m in enumerate(ms)))
            rows_s = [tuple(map(int.__and__, srows[m[0]], ms)) for m in mem]
            w_s = [0.0] * len(mem)
            rep_s = [m[0] for m in mem]
            for a, j in enumerate(of):
                w_s[j] += weights[a] / total
                if weights[a] > weights[rep_s[j]]:
                    rep_s[j] = a  # (the simplest member names the class)
            self.crows.append(rows_s)
            self.cw.append(w_s)
            self.crep.append(rep_s)
            self.of_block.append(of)
        #: per side: whether each class judges alike after any last card (reads the card only)
        self.free = [[len(set(rows[:NCARDS])) == 1 for rows in self.crows[s]] for s in range(k)]
        self._live0 = [[j for j in range(len(self.cw[s])) if self.cw[s][j] > 0]
                       for s in range(k)]
        self.mm = [[0] * len(self.cw[s]) for s in range(k)]
        self.live = [list(x) for x in self._live0]
        self.z = [1.0] * k
        self.excluded: set[tuple[int, ...]] = set()
        #: per side, {last card: that side's predicted rows} (see :meth:`rows`)
        self._side_cache: list[dict[int, list[tuple[int, float]]]] = [{} for _ in range(k)]
        #: per side, {last card x 52 + card: the probability the side accepts that
        #: card there} (see :meth:`marginals`; a hand asks for the same cards turn
        #: after turn, and a side's law lasts until a verdict refutes one of its rules)
        self._card_cache: list[dict[int, float]] = [{} for _ in range(k)]
        #: per side, {last card: {row: the live classes with that row there}} (see
        #: :meth:`agreement`)
        self._by_row_cache: list[dict[int, dict[int, int]]] = [{} for _ in range(k)]

    def two_back(self, name: str, prior: float) -> CardSplitFamily:
        """The same split with its blocks read against the card two back, before any
        observation (its classes are this family's: a split on the card only)."""
        if self.side_of[0] is not self.side_of[NOPREV]:
            raise ValueError("a split on the last card reads its blocks against the last card")
        new = self.fresh()
        new.name, new.prior, new.back = name, prior, 2
        return new

    def fresh(self) -> CardSplitFamily:
        """The same family before any observation (sharing the unchanging parts)."""
        new = copy.copy(self)
        new.mm = [[0] * len(self.cw[s]) for s in range(self.k)]
        new.live = [list(x) for x in self._live0]
        new.z = [1.0] * self.k
        new.excluded = set()
        new._side_cache = [{} for _ in range(self.k)]
        new._card_cache = [{} for _ in range(self.k)]
        new._by_row_cache = [{} for _ in range(self.k)]
        return new

    def observe(self, obs: Obs, single_verdicts: Sequence[int]) -> None:
        c = obs.card.index
        p = _row(obs.prev if self.back == 1 else obs.prev2)
        s = self.side_of[p][c]
        if s < 0:
            return
        want = 1 if obs.accepted else 0
        mm = self.mm[s]
        rows = self.crows[s]
        wrong = [j for j in self.live[s] if (rows[j][p] >> c) & 1 != want]
        if wrong:
            for j in wrong:
                mm[j] += 1
            k1 = self.k1
            self.live[s] = live = [j for j in self.live[s] if mm[j] < k1]
            pe, w = self.pe, self.cw[s]
            self.z[s] = sum([w[j] * pe[mm[j]] for j in live])
            self._side_cache[s] = {}
            self._card_cache[s] = {}
            self._by_row_cache[s] = {}

    def evidence(self) -> float:
        e = 1.0
        for z in self.z:
            e *= z
        return e * (1.0 - self._refuted_share())

    def _key_share(self, parts: tuple[int, ...]) -> float:
        """The share the rule ``parts`` would have now, were it still possible."""
        q = 1.0
        for s, j in enumerate(parts):
            z = self.z[s]
            if z <= 0:
                return 0.0
            q *= self.cw[s][j] * self.pe[self.mm[s][j]] / z
        return q

    def alive(self) -> bool:
        return all(z > 0 for z in self.z)

    def _side_rows(self, s: int, p: int) -> list[tuple[int, float]]:
        """Side ``s``'s law of what it accepts after card ``p``: [(row, weight)],
        smallest rows first (the order :func:`_couple` needs), from :meth:`_side_law`."""
        return sorted(self._side_law(s, p), key=lambda rw: (rw[0].bit_count(), rw[0]))

    def _side_law(self, s: int, p: int) -> list[tuple[int, float]]:
        """Side ``s``'s law of what it accepts after card ``p``: [(row, weight)], in
        no order; memoised until an observation changes the side (a refused
        card changes one side only, and leaves the last card)."""
        hit = self._side_cache[s].get(p)
        if hit is not None:
            return hit
        acc: dict[int, float] = {}
        pe, w, mm, rows = self.pe, self.cw[s], self.mm[s], self.crows[s]
        get = acc.get
        if self.k1 == 1:  # (no tolerance: a live class weighs its prior)
            for j in self.live[s]:
                r = rows[j][p]
                acc[r] = get(r, 0.0) + w[j]
        else:
            for j in self.live[s]:
                r = rows[j][p]
                acc[r] = get(r, 0.0) + w[j] * pe[mm[j]]
        f = 1.0 / self.z[s]
        out = self._side_cache[s][p] = [(r, x * f) for r, x in acc.items()]
        return out

    def rows(self, pos: int, line: Sequence[Card], out: dict[int, float], scale: float) -> None:
        """The predicted rows: each side's law exact, the sides coupled by rank.

        The sides are independent in the posterior, but the rows of a joint
        law would be a product; the comonotone coupling (the sides' rows
        matched in order of size, as many entries as the sides' rows together)
        keeps every card's probability exact and the rows few.
        """
        if not self.alive():
            return
        p = _row(_back(line, self.back))
        if self.side_of[p][0] < 0:  # (a condition that cannot be read: any card)
            out[FULL52] = out.get(FULL52, 0.0) + scale
            return
        _couple([self._side_rows(s, p) for s in range(self.k)], out, scale)

    def marginals(self, pos: int, line: Sequence[Card], cards: Sequence[int],
                  acc: list[float], scale: float) -> None:
        """Add to ``acc[t]`` ``scale`` times the probability that card ``cards[t]``
        is accepted, as :meth:`rows` has it (the coupling keeps each card's
        probability its side's): the weight of its side's rows that hold it."""
        if not self.alive():
            return
        p = _row(_back(line, self.back))
        side = self.side_of[p]
        if side[0] < 0:  # (a condition that cannot be read: any card)
            for t in range(len(cards)):
                acc[t] += scale
            return
        cache = self._card_cache
        at = p * NCARDS
        laws: dict[int, list[tuple[int, float]]] = {}
        for t, c in enumerate(cards):
            s = side[c]
            if s >= 0:
                m = cache[s].get(at + c)
                if m is None:
                    law = laws.get(s)
                    if law is None:
                        law = laws[s] = self._side_law(s, p)
                    m = cache[s][at + c] = fsum([w for r, w in law if r >> c & 1])
                acc[t] += scale * m

    def live_singles(self) -> int:
        return 0

    def agreement(self, fit: BlockFit, rows: dict[int, int]) -> float:
        """The share of rules agreeing with a candidate on each side's cards everywhere
        it can reach (``rows``: the candidate's row after each reachable last card).
        Classes read against ``prev2`` count when they read only the card (the
        others are not compared: an underestimate)."""
        share = 1.0
        pe = self.pe
        for s in range(self.k):
            z = self.z[s]
            if z <= 0:
                return 0.0
            ms = self.masks[s]
            w, mm, crows = self.cw[s], self.mm[s], self.crows[s]
            items = iter(rows.items())
            first = next(items, None)
            if first is None:
                live = [j for j in self.live[s] if self.back == 1 or self.free[s][j]]
            else:
                # most classes fall at the first card: those left there, from an
                # index the decision's candidates share, then the others one by one
                p, r = first
                agree = self._by_row(s, p).get(r & ms[p], 0)
                live = []
                while agree:  # (the few classes left, not a pass over them all)
                    low = agree & -agree
                    live.append(low.bit_length() - 1)
                    agree ^= low
                if live:
                    # (the others at once: a class kept agrees after every card left)
                    rest = [(p, r & ms[p]) for p, r in items]
                    kept = []
                    for j in live:
                        row_of = crows[j]
                        for p, rm in rest:
                            if row_of[p] != rm:
                                break
                        else:
                            kept.append(j)
                    live = kept
            if not live:
                return 0.0
            share *= sum([w[j] * pe[mm[j]] for j in live]) / z
        return share

    def _by_row(self, s: int, p: int) -> dict[int, int]:
        """Side ``s``'s live classes by their row after card ``p`` (bit sets; only
        those reading the card alone when the blocks read two back), remembered
        until an observation changes the side: the candidates of one decision ask
        after the same last cards."""
        hit = self._by_row_cache[s].get(p)
        if hit is None:
            hit = self._by_row_cache[s][p] = {}
            crows, free = self.crows[s], self.free[s]
            for j in self.live[s]:
                if self.back == 1 or free[j]:
                    r = crows[j][p]
                    hit[r] = hit.get(r, 0) | 1 << j
        return hit

    def _ranked(self, s: int) -> list[int]:
        pe, w, mm = self.pe, self.cw[s], self.mm[s]
        return heapq.nsmallest(3, self.live[s], key=lambda j: (-w[j] * pe[mm[j]], j))

    def _plain(self, parts: tuple[int, ...]) -> bool:
        """Whether one single block is the rule on every side (a plain rule), or,
        reading ``prev2``, every side reads only the card (the split reading
        ``prev`` writes that rule)."""
        if self.back != 1 and self.reads_card_only(parts):
            return True
        for a in range(len(self.of_block[0])):
            if all(self.of_block[s][a] == parts[s] for s in range(self.k)):
                return True
        return False

    def reads_card_only(self, parts: tuple[int, ...]) -> bool:
        """Whether every side's class of ``parts`` reads only the card: the rule is
        then the same in this family and in its :meth:`two_back` twin."""
        return all(self.free[s][j] for s, j in enumerate(parts))

    def share(self, parts: tuple[int, ...], pos_next: int = 0) -> float:
        """The probability of the rule ``parts`` within the family; the rules judged
        wrong are impossible and the others share their mass."""
        if parts in self.excluded:
            return 0.0
        return self._among_left(self._key_share(parts))

    def exclude(self, parts: tuple[int, ...]) -> None:
        self.excluded.add(parts)

    def _side_text(self, s: int, j: int) -> str:
        rows = self.crows[s][j]
        if all(r == 0 for r in rows):
            return "false"
        if rows == tuple(self.masks[s]):
            return "true"
        return _paren(_back_text(self.space.text(self.crep[s][j]), self.back))

    def _side_english(self, s: int, j: int) -> str:
        rows = self.crows[s][j]
        if all(r == 0 for r in rows):
            return "it is refused"
        if rows == tuple(self.masks[s]):
            return "it is accepted"
        return _back_english(self.space.english(self.crep[s][j]), self.back)

    def text(self, parts: tuple[int, ...]) -> str:
        return self._texts([self._side_text(s, j) for s, j in enumerate(parts)])

    def english(self, parts: tuple[int, ...]) -> str:
        return self._englishes([self._side_english(s, j) for s, j in enumerate(parts)])

    def table(self, parts: tuple[int, ...]) -> int:
        """The rule's verdicts after every last card, as one bit set laid out as
        :attr:`eleusis.ai.space.Space.bits` (row ``p``: after card ``p``), so
        that an explanation can tell it is a plain rule it already lists."""
        out = 0
        for p in range(NCARDS + 1):
            row = 0
            for s, j in enumerate(parts):
                row |= self.crows[s][j][p]
            out |= row << (NCARDS * p)
        return out

    def accepts(self, parts: tuple[int, ...], line: Sequence[Card], card: Card) -> bool:
        p = _row(_back(line, self.back))
        s = self.side_of[p][card.index]
        return s < 0 or bool((self.crows[s][parts[s]][p] >> card.index) & 1)

    def row(self, parts: tuple[int, ...], line: Sequence[Card]) -> int:
        p = _row(_back(line, self.back))
        if self.side_of[p][0] < 0:  # (a condition that cannot be read: any card)
            return FULL52
        out = 0
        for s, j in enumerate(parts):
            out |= self.crows[s][j][p]
        return out


#: How a lag hypothesis reads one relation on earlier cards.
SHIFT3, AND2, OR2, AND3 = 0, 1, 2, 3
_LAG_WEIGHT = (0.25, 0.35, 0.25, 0.15)


class LagFamily:
    """One relation of the card with two or three earlier cards.

    For each single block ``R`` that reads ``prev``: ``R`` read against
    ``prev3``; ``R(prev) and R(prev2)``; ``R(prev) or R(prev2)`` ("not three
    of a color in a row" is ``card.color != prev.color or card.color !=
    prev2.color``); ``R(prev) and R(prev2) and R(prev3)``. (``R`` against
    ``prev2`` alone is the belief's own ``prev2`` family.)
    """

    def __init__(self, name: str, prior: float, space: Space, weights: Sequence[float],
                 kmax: int, eps: float) -> None:
        self.name = name
        self.prior = prior
        self.space = space
        rels = [i for i in range(space.level_end[1])
                if space.recipe[i][0] == 0 and space.atoms[space.recipe[i][1]].kind == "rel"]
        self.rels = rels
        self.hyps = [(i, how) for how in (SHIFT3, AND2, OR2, AND3) for i in rels]
        w = [weights[i] * _LAG_WEIGHT[how] for i, how in self.hyps]
        total = sum(w)
        self.w = [x / total for x in w]
        self.k1 = kmax + 1
        self.pe = [eps ** m for m in range(kmax + 1)] + [0.0]
        self.mm = [0] * len(self.hyps)
        self.z = 1.0

    def fresh(self) -> LagFamily:
        """The same family before any observation (sharing the unchanging parts)."""
        new = copy.copy(self)
        new.mm = [0] * len(self.hyps)
        new.z = 1.0
        return new

    def _verdict(self, h: int, bit1: int, bit2: int, bit3: int) -> int:
        i, how = self.hyps[h]
        b = self.space.bits[i]
        if how == SHIFT3:
            return (b >> bit3) & 1
        v1 = (b >> bit1) & 1
        v2 = (b >> bit2) & 1
        if how == AND2:
            return v1 & v2
        if how == OR2:
            return v1 | v2
        return v1 & v2 & ((b >> bit3) & 1)

    @staticmethod
    def _bits(line: Sequence[Card], card: Card) -> tuple[int, int, int]:
        def bit(k: int) -> int:
            return NCARDS * _row(line[-k] if len(line) >= k else None) + card.index
        return bit(1), bit(2), bit(3)

    def observe(self, obs: Obs, single_verdicts: Sequence[int]) -> None:
        want = 1 if obs.accepted else 0
        b1 = NCARDS * _row(obs.prev) + obs.card.index
        b2 = NCARDS * _row(obs.prev2) + obs.card.index
        b3 = NCARDS * _row(obs.prev3) + obs.card.index
        mm, k1 = self.mm, self.k1
        for h in range(len(self.hyps)):
            if mm[h] < k1 and self._verdict(h, b1, b2, b3) != want:
                mm[h] += 1
        self.z = sum(self.w[h] * self.pe[m] for h, m in enumerate(mm) if m < k1)

    def evidence(self) -> float:
        return self.z

    def alive(self) -> bool:
        return self.z > 0

    def rows(self, pos: int, line: Sequence[Card], out: dict[int, float], scale: float) -> None:
        if self.z <= 0:
            return
        shifts = [NCARDS * _row(line[-k] if len(line) >= k else None) for k in (1, 2, 3)]
        bits = self.space.bits
        f = scale / self.z
        for h, m in enumerate(self.mm):
            if m >= self.k1:
                continue
            i, how = self.hyps[h]
            b = bits[i]
            if how == SHIFT3:
                row = (b >> shifts[2]) & FULL52
            else:
                r1 = (b >> shifts[0]) & FULL52
                r2 = (b >> shifts[1]) & FULL52
                row = r1 & r2 if how == AND2 else r1 | r2 if how == OR2 else \
                    r1 & r2 & (b >> shifts[2]) & FULL52
            out[row] = out.get(row, 0.0) + f * self.w[h] * self.pe[m]

    def best(self, index: int) -> ExtraCandidate | None:
        live = [h for h, m in enumerate(self.mm) if m < self.k1]
        if not live:
            return None
        h = max(live, key=lambda h: (self.w[h] * self.pe[self.mm[h]], -h))
        return ExtraCandidate(index, (h,), self)

    def share(self, parts: tuple[int, ...], pos_next: int = 0) -> float:
        h = parts[0]
        return self.w[h] * self.pe[self.mm[h]] / self.z if self.z > 0 else 0.0

    def exclude(self, parts: tuple[int, ...]) -> None:
        h = parts[0]
        if self.mm[h] < self.k1:
            self.mm[h] = self.k1
            self.z = sum(self.w[g] * self.pe[m] for g, m in enumerate(self.mm) if m < self.k1)

    def text(self, parts: tuple[int, ...]) -> str:
        i, how = self.hyps[parts[0]]
        t = self.space.text(i)
        t2, t3 = t.replace("prev.", "prev2."), t.replace("prev.", "prev3.")
        if how == SHIFT3:
            return t3
        if how == AND2:
            return f"{_paren(t)} and {_paren(t2)}"
        if how == OR2:
            return f"{_paren(t)} or {_paren(t2)}"
        return f"{_paren(t)} and {_paren(t2)} and {_paren(t3)}"

    def english(self, parts: tuple[int, ...]) -> str:
        i, how = self.hyps[parts[0]]
        e = self.space.english(i)
        two = e.replace("the last card", "the card two back")
        if how == SHIFT3:
            return e.replace("the last card", "the card three back")
        if how == AND2:
            return f"{e}, and {two}"
        if how == OR2:
            return f"{e}, or {two}"
        return f"{e}, and the same with the cards two and three back"

    def accepts(self, parts: tuple[int, ...], line: Sequence[Card], card: Card) -> bool:
        return bool(self._verdict(parts[0], *self._bits(line, card)))

    def row(self, parts: tuple[int, ...], line: Sequence[Card]) -> int:
        i, how = self.hyps[parts[0]]
        b = self.space.bits[i]
        r1, r2, r3 = ((b >> NCARDS * _row(line[-k] if len(line) >= k else None)) & FULL52
                      for k in (1, 2, 3))
        if how == SHIFT3:
            return r3
        return r1 & r2 if how == AND2 else r1 | r2 if how == OR2 else r1 & r2 & r3

    def live_singles(self) -> int:
        """The relations some hypothesis still alive is made of, as a bit set."""
        return sum(1 << a for a in {self.hyps[h][0] for h, m in enumerate(self.mm)
                                    if m < self.k1})

    def agreement(self, fit: BlockFit, rows: dict[int, int]) -> float:
        """Counted when the candidate accepts one fixed set wherever it can go.

        Then a relation that accepts exactly that set after every reachable
        card agrees, read against one, two or three cards back (the cards
        already on the mainline are not checked: a slight overestimate for
        the next two verdicts). Otherwise not counted (an underestimate).
        """
        if self.z <= 0 or len(set(rows.values())) != 1:
            return 0.0
        ok = fit.flags(-1)
        return sum(self.w[h] * self.pe[m] for h, m in enumerate(self.mm)
                   if m < self.k1 and ok[self.hyps[h][0]]) / self.z


class MixedLagFamily:
    """``A and B`` / ``A or B``: a single block with a relation the space cannot hold.

    ``A`` is a single block of the space (any; or, by ``front_kind``, only
    those on the card itself, ``"card"``, or only the relations with the last
    card, ``"rel"``); ``B`` one relation of a :class:`RelationFamily`, the
    *source*: by default the plain relations with the card two back (same
    or other colour, suit, rank, parity; higher, lower...: "a card higher
    than the one two back, or a change of colour", "the suit of the card
    two back, or the rank of the last one"); or a relation of the rank with
    the position, or with the last two ranks ("the rank divides the
    position, or the card is black", "the rank is the position's, or the
    suit the last card's"); or a sum of two ranks ("add up to thirteen, or
    follow suit", :class:`SumRelations`). ``hows`` says which joins the
    family holds (a sum equal to one number *and* a block is a rule that
    refuses nearly everything: no one writes it). The hypotheses are held
    as bit sets: for each ``A`` and each count of mismatches, the set of
    ``B`` still alive, so an observation costs one mask operation per ``A``
    (about 300), whatever the number of pairs (about 12,000 two back).
    """

    HOWS: tuple[str, ...] = ("and", "or")

    def __init__(self, name: str, prior: float, space: Space, weights: Sequence[float],
                 kmax: int, eps: float, source: RelationFamily | None = None,
                 front_kind: str | None = None, hows: tuple[str, ...] = HOWS) -> None:
        self.name = name
        self.HOWS = hows
        self.prior = prior
        self.space = space
        n1 = space.level_end[1]
        self.source = source if source is not None else LagRelations(space)
        said = self.source.said
        self.front_kind = front_kind
        self.fronts = [i for i in range(n1)
                       if space.text(i) != "true" and weights[i] > 0
                       and front_kind in (None, space.atoms[space.recipe[i][1]].kind)]
        self.front_w = [weights[i] for i in self.fronts]
        self.all_b = (1 << len(said)) - 1
        #: pairs of a relation with itself are the lag family's (left out here)
        plain = {t.replace("prev2.", "prev.").replace("prev3.", "prev."): k
                 for k, (t, _) in enumerate(said)}
        self.start = [self.all_b & ~(1 << plain[space.text(i)]) if space.text(i) in plain
                      else self.all_b for i in self.fronts]
        total = sum(w * bin(m).count("1") for w, m in zip(self.front_w, self.start, strict=True))
        self.norm = 1.0 / (len(self.HOWS) * total) if total else 0.0
        self.kmax = kmax
        self.pe = [eps ** m for m in range(kmax + 1)]
        #: {last card's row: each front's row of cards accepted after it} (unchanging)
        self._front_rows: dict[int, list[int]] = {}
        self._reset()

    def _fronts_after(self, r1: int) -> list[int]:
        """Each front's row (the cards it accepts) after last card ``r1``, memoised:
        a hand's marginals read them for every front, turn after turn."""
        hit = self._front_rows.get(r1)
        if hit is None:
            srows = single_rows(self.space)
            hit = self._front_rows[r1] = [srows[a][r1] for a in self.fronts]
        return hit

    def _reset(self) -> None:
        # live[how][m][f]: the backs B still paired with front f, with m mismatches
        self.live = [[list(self.start) if m == 0 else [0] * len(self.fronts)
                       for m in range(self.kmax + 1)] for _ in self.HOWS]
        #: on[how]: the fronts some back is still paired with, in order (a few
        #: plays leave a tenth of them or less: the others are not visited)
        self.on = [[f for f, mask in enumerate(self.start) if mask] for _ in self.HOWS]
        self.z = 1.0

    def fresh(self) -> MixedLagFamily:
        """The same family before any observation (sharing the unchanging parts)."""
        new = copy.copy(self)
        new._reset()
        return new

    def _back_rows(self, pos: int, prev: Card | None, prev2: Card | None,
                   prev3: Card | None) -> list[int]:
        row = self.source._row
        return [row(k, pos, prev, prev2, prev3) for k in range(len(self.source.said))]

    def observe(self, obs: Obs, single_verdicts: Sequence[int]) -> None:
        c = obs.card.index
        bmask = sum(1 << k for k, row in enumerate(self._back_rows(obs.pos, obs.prev, obs.prev2,
                                                                    obs.prev3))
                    if row >> c & 1)
        want = obs.accepted
        all_b = self.all_b
        for h, how in enumerate(self.HOWS):
            # the backs a pair keeps after this play, by its front's verdict on the card
            if how == "and":
                yes, no = (bmask, 0) if want else (all_b & ~bmask, all_b)
            else:
                yes, no = (all_b, bmask) if want else (0, all_b & ~bmask)
            levels = self.live[h]
            fronts = self.fronts
            if self.kmax == 0:  # (no mismatch tolerated: one level, in one pass)
                masks = levels[0]
                for f in self.on[h]:
                    masks[f] &= yes if single_verdicts[fronts[f]] else no
                self.on[h] = [f for f in self.on[h] if masks[f]]
                continue
            for f in self.on[h]:
                ok = yes if single_verdicts[fronts[f]] else no
                carry = 0
                for m in range(self.kmax + 1):
                    cur = levels[m][f]
                    levels[m][f] = (cur & ok) | carry
                    carry = cur & ~ok
            self._prune(h)
        self._sum()

    def _prune(self, h: int) -> None:
        """Drop from ``on[h]`` the fronts no back is paired with any more."""
        levels = self.live[h]
        self.on[h] = [f for f in self.on[h] if any(masks[f] for masks in levels)]

    def _sum(self) -> None:
        z = 0.0
        for levels, on in zip(self.live, self.on, strict=True):
            for m, masks in enumerate(levels):
                pe = self.pe[m]
                for f in on:
                    mask = masks[f]
                    if mask:
                        z += self.front_w[f] * pe * bin(mask).count("1")
        self.z = z * self.norm

    def evidence(self) -> float:
        return self.z

    def alive(self) -> bool:
        return self.z > 0

    def rows(self, pos: int, line: Sequence[Card], out: dict[int, float], scale: float) -> None:
        if self.z <= 0:
            return
        r1 = _row(line[-1] if line else None)
        # the relations that judge alike here are one back (35 of them, about 22
        # ways to judge): each front adds its weight once per way, times its backs
        same: dict[int, int] = {}
        for k, b_row in enumerate(self._back_rows(pos, *_backs(line))):
            same[b_row] = same.get(b_row, 0) | 1 << k
        backs = list(same.items())
        f_scale = scale * self.norm / self.z
        a_rows = self._fronts_after(r1)
        for h, how in enumerate(self.HOWS):
            for m, masks in enumerate(self.live[h]):
                pe = self.pe[m]
                for f in self.on[h]:
                    mask = masks[f]
                    if not mask:
                        continue
                    a_row = a_rows[f]
                    w = f_scale * self.front_w[f] * pe
                    for b_row, ks in backs:
                        hit = mask & ks
                        if hit:
                            row = a_row & b_row if how == "and" else a_row | b_row
                            out[row] = out.get(row, 0.0) + w * hit.bit_count()

    def marginals(self, pos: int, line: Sequence[Card], cards: Sequence[int],
                  acc: list[float], scale: float) -> None:
        """Add to ``acc[t]`` ``scale`` times the probability that card ``cards[t]``
        is accepted: the weight :meth:`rows` puts on the rows holding it.

        Without the rows: a pair ``A and B`` accepts card ``c`` when ``A`` does
        and ``B`` does, so a front's share is its weight times the number of
        its live backs that accept ``c`` (one mask, ``K_c``, for all fronts);
        ``A or B`` when ``A`` does (all its backs) or, else, ``B`` does.
        Fronts with the same row here and the same live backs are summed
        first, so a dozen cards of a hand cost a bit count each per distinct
        pair of row and backs, where the rows cost a dictionary entry per
        front and way the backs judge.
        """
        if self.z <= 0:
            return
        r1 = _row(line[-1] if line else None)
        # the backs accepting each card
        kc = [0] * len(cards)
        for k, b_row in enumerate(self._back_rows(pos, *_backs(line))):
            for t, c in enumerate(cards):
                if b_row >> c & 1:
                    kc[t] |= 1 << k
        ts = list(zip(range(len(cards)), cards, kc, strict=True))
        # fronts judging alike here with the same live backs count once, their
        # weights summed (about a third of the pairs of row and mask are repeats)
        groups: dict[tuple[bool, int, int], float] = {}
        get = groups.get
        f_scale = scale * self.norm / self.z
        a_rows, front_w = self._fronts_after(r1), self.front_w
        for h, how in enumerate(self.HOWS):
            is_and = how == "and"
            for m, masks in enumerate(self.live[h]):
                pe = self.pe[m]
                for f in self.on[h]:
                    mask = masks[f]
                    if mask:
                        key = (is_and, a_rows[f], mask)
                        groups[key] = get(key, 0.0) + f_scale * front_w[f] * pe
        for (is_and, a_row, mask), w in groups.items():
            if is_and:
                for t, c, k in ts:
                    if a_row >> c & 1:
                        acc[t] += w * (mask & k).bit_count()
            else:
                n = w * mask.bit_count()
                for t, c, k in ts:
                    acc[t] += n if a_row >> c & 1 else w * (mask & k).bit_count()

    def best(self, index: int) -> ExtraCandidate | None:
        top: tuple[float, int, int, int] | None = None
        for h in range(len(self.HOWS)):
            for m, masks in enumerate(self.live[h]):
                for f in self.on[h]:
                    mask = masks[f]
                    if mask:
                        w = self.front_w[f] * self.pe[m]
                        k = (mask & -mask).bit_length() - 1
                        if top is None or w > top[0]:
                            top = (w, h, f, k)
        if top is None:
            return None
        return ExtraCandidate(index, top[1:], self)

    def share(self, parts: tuple[int, ...], pos_next: int = 0) -> float:
        h, f, k = parts
        if self.z <= 0:
            return 0.0
        for m, masks in enumerate(self.live[h]):
            if masks[f] >> k & 1:
                return self.front_w[f] * self.pe[m] * self.norm / self.z
        return 0.0

    def exclude(self, parts: tuple[int, ...]) -> None:
        h, f, k = parts
        for masks in self.live[h]:
            masks[f] &= ~(1 << k)
        self._prune(h)
        self._sum()

    def text(self, parts: tuple[int, ...]) -> str:
        h, f, k = parts
        a = self.space.text(self.fronts[f])
        return f"{_paren(a)} {self.HOWS[h]} {_paren(self.source.said[k][0])}"

    def english(self, parts: tuple[int, ...]) -> str:
        h, f, k = parts
        a = self.space.english(self.fronts[f])
        b = self.source.said[k][1]
        return f"{a}, and {b}" if self.HOWS[h] == "and" else f"either {a}, or {b}"

    def accepts(self, parts: tuple[int, ...], line: Sequence[Card], card: Card) -> bool:
        h, f, k = parts
        va = _block_accepts(self.space, self.fronts[f], line[-1] if line else None, card)
        vb = self.source.accepts((k,), line, card)
        return (va and vb) if self.HOWS[h] == "and" else (va or vb)

    def row(self, parts: tuple[int, ...], line: Sequence[Card]) -> int:
        h, f, k = parts
        ra = single_rows(self.space)[self.fronts[f]][_row(line[-1] if line else None)]
        rb = self.source.row((k,), line)
        return ra & rb if self.HOWS[h] == "and" else ra | rb

    def live_singles(self) -> int:
        return 0

    def agreement(self, fit: BlockFit, rows: dict[int, int]) -> float:
        """Counted for a candidate that accepts one fixed set ``R`` wherever it can go,
        when the source says which of its relations judge as ``R`` there
        (:meth:`RelationFamily.agreeing`: the joins of the last cards' colours,
        suits or ranks):
        ``A and B`` agrees when ``A`` (a block on the card) accepts all of ``R``,
        ``A or B`` when it accepts nothing else (on a red mainline ``card is
        hearts or card.color in {prev.color, prev2.color}`` is ``card is red``).
        Otherwise not counted (an underestimate of a plain candidate's probability).
        """
        if self.z <= 0 or self.front_kind != "card" or len(set(rows.values())) != 1:
            return 0.0  # (a front on the card judges alike after every last card)
        ks = sum(1 << k for k in self.source.agreeing(rows))
        if not ks:
            return 0.0
        want = next(iter(rows.values()))
        srows = single_rows(self.space)
        share = 0.0
        for h, how in enumerate(self.HOWS):
            for m, masks in enumerate(self.live[h]):
                for f in self.on[h]:
                    hit = masks[f] & ks
                    if not hit:
                        continue
                    a_row = srows[self.fronts[f]][NOPREV]
                    if (a_row & want == want) if how == "and" else not a_row & ~want:
                        share += self.front_w[f] * self.pe[m] * hit.bit_count()
        return share * self.norm / self.z


#: How many plain relations (the first of the space's order: colour, suit,
#: rank, parity, face, prime, suit groups, higher / lower, one up or down)
#: :class:`LagRelations` reads two or three back.
_MIXED_BACKS = 22


def _three_rank_relations() -> list[tuple[str, str, Callable[[int, int, int], bool]]]:
    """Relations of the card's rank with the last two ranks: (text, English, test(r, p, q)).

    ``p`` is the last card's rank, ``q`` the rank of the card two back.
    """
    out: list[tuple[str, str, Callable[[int, int, int], bool]]] = []
    s3 = "card.rank + prev.rank + prev2.rank"
    said = "the card's rank and the last two ranks"
    for m in (2, 3, 4, 5):
        for res in range(m if m > 2 else 2):
            out.append((f"({s3}) % {m} == {res}",
                        f"{said} add up to a number leaving {res} divided by {m}",
                        lambda r, p, q, m=m, res=res: (r + p + q) % m == res))  # type: ignore[misc]
    for k in (12, 15, 18, 20, 21, 24, 25, 27, 30):
        out.append((f"{s3} <= {k}", f"{said} add up to at most {k}",
                    lambda r, p, q, k=k: r + p + q <= k))  # type: ignore[misc]
        out.append((f"{s3} >= {k}", f"{said} add up to at least {k}",
                    lambda r, p, q, k=k: r + p + q >= k))  # type: ignore[misc]
    primes = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    out.append((f"{s3} in {{{', '.join(map(str, primes))}}}", f"{said} add up to a prime",
                lambda r, p, q: r + p + q in primes))
    out.append((f"{s3} not in {{{', '.join(map(str, primes))}}}",
                f"{said} do not add up to a prime", lambda r, p, q: r + p + q not in primes))
    out.append(("card.rank == wrap(prev.rank + prev2.rank)",
                "the card's rank is the sum of the last two, counted round from ace to king",
                lambda r, p, q: r == (p + q - 1) % 13 + 1))
    out.append(("card.rank == prev.rank + prev2.rank",
                "the card's rank is the sum of the last two ranks", lambda r, p, q: r == p + q))
    out.append(("card.rank < prev.rank + prev2.rank",
                "the card's rank is below the sum of the last two ranks",
                lambda r, p, q: r < p + q))
    out.append(("card.rank == abs(prev.rank - prev2.rank)",
                "the card's rank is the difference of the last two ranks",
                lambda r, p, q: r == abs(p - q)))
    lo, hi = "min(prev.rank, prev2.rank)", "max(prev.rank, prev2.rank)"
    out += [
        (f"card.rank >= {lo} and card.rank <= {hi}",
         "the card's rank lies between the last two ranks",
         lambda r, p, q: min(p, q) <= r <= max(p, q)),
        (f"card.rank < {lo} or card.rank > {hi}",
         "the card's rank lies outside the last two ranks",
         lambda r, p, q: r < min(p, q) or r > max(p, q)),
        (f"card.rank > {hi}", "the card's rank is above both of the last two",
         lambda r, p, q: r > max(p, q)),
        (f"card.rank < {lo}", "the card's rank is below both of the last two",
         lambda r, p, q: r < min(p, q)),
        (f"card.rank >= {lo}", "the card's rank is at least the lower of the last two",
         lambda r, p, q: r >= min(p, q)),
        (f"card.rank <= {hi}", "the card's rank is at most the higher of the last two",
         lambda r, p, q: r <= max(p, q)),
        (f"card.rank > {lo} and card.rank < {hi}",
         "the card's rank lies strictly between the last two ranks",
         lambda r, p, q: min(p, q) < r < max(p, q)),
        (f"card.rank <= {lo} or card.rank >= {hi}",
         "the card's rank is not strictly between the last two ranks",
         lambda r, p, q: r <= min(p, q) or r >= max(p, q)),
        ("card.rank > abs(prev.rank - prev2.rank)",
         "the card's rank is above the gap between the last two ranks",
         lambda r, p, q: r > abs(p - q)),
        ("card.rank < abs(prev.rank - prev2.rank)",
         "the card's rank is below the gap between the last two ranks",
         lambda r, p, q: r < abs(p - q)),
    ]
    for k in (2, 4):
        out.append((f"abs(card.rank * 2 - prev.rank - prev2.rank) <= {k}",
                    f"the card's rank is within {k // 2} of the average of the last two",
                    lambda r, p, q, k=k: abs(2 * r - p - q) <= k))  # type: ignore[misc]
    out.append(("abs(card.rank - wrap(prev.rank + prev2.rank)) <= 1",
                "the card's rank is within one of the sum of the last two, counted round",
                lambda r, p, q: abs(r - ((p + q - 1) % 13 + 1)) <= 1))
    p3 = "card.rank * prev.rank * prev2.rank"
    said3 = "the card's rank and the last two ranks multiply to"
    out += [
        (f"({p3}) % 2 == 0", f"{said3} an even number", lambda r, p, q: r * p * q % 2 == 0),
        (f"({p3}) % 2 == 1", f"{said3} an odd number", lambda r, p, q: r * p * q % 2 == 1),
        (f"({p3}) % 3 == 0", f"{said3} a multiple of 3", lambda r, p, q: r * p * q % 3 == 0),
        ("card.rank + prev.rank > prev2.rank and card.rank + prev2.rank > prev.rank "
         "and prev.rank + prev2.rank > card.rank",
         "the card's rank and the last two ranks could be the sides of a triangle",
         lambda r, p, q: r + p > q and r + q > p and p + q > r),
    ]
    return out


class RelationFamily:
    """A short explicit list of relations, each judging a card from its own reading.

    The common machinery of :class:`PosRankFamily`, :class:`ThreeRankFamily`
    and :class:`NoRunFamily`: uniform prior weights, one mismatch counter per
    relation, evidence the sum of the live weights. A subclass says which
    cards relation ``h`` accepts at a position after the last two cards
    (:meth:`_row`, a 52-bit set) and gives each relation's text and English.
    """

    def __init__(self, name: str, prior: float, kmax: int, eps: float,
                 said: Sequence[tuple[str, str]]) -> None:
        self.name = name
        self.prior = prior
        self.said = list(said)
        self.w = 1.0 / len(self.said)
        self.k1 = kmax + 1
        self.pe = [eps ** m for m in range(kmax + 1)] + [0.0]
        self.mm = [0] * len(self.said)
        self.z = 1.0

    def fresh(self) -> RelationFamily:
        """The same family before any observation (sharing the unchanging parts)."""
        new = copy.copy(self)
        new.mm = [0] * len(self.said)
        new.z = 1.0
        return new

    def _row(self, h: int, pos: int, prev: Card | None, prev2: Card | None,
             prev3: Card | None = None) -> int:
        """The cards relation ``h`` accepts at ``pos`` after ``prev3``, ``prev2``, ``prev``."""
        raise NotImplementedError

    def _sum(self) -> None:
        self.z = sum(self.w * self.pe[m] for m in self.mm if m < self.k1)

    def observe(self, obs: Obs, single_verdicts: Sequence[int]) -> None:
        mm, k1 = self.mm, self.k1
        for h in range(len(mm)):
            if mm[h] < k1 and bool(self._row(h, obs.pos, obs.prev, obs.prev2, obs.prev3)
                                   >> obs.card.index & 1) != obs.accepted:
                mm[h] += 1
        self._sum()

    def evidence(self) -> float:
        return self.z

    def alive(self) -> bool:
        return self.z > 0

    def rows(self, pos: int, line: Sequence[Card], out: dict[int, float], scale: float) -> None:
        if self.z <= 0:
            return
        prev, prev2, prev3 = _backs(line)
        f = scale / self.z
        for h, m in enumerate(self.mm):
            if m < self.k1:
                row = self._row(h, pos, prev, prev2, prev3)
                out[row] = out.get(row, 0.0) + f * self.w * self.pe[m]

    def best(self, index: int) -> ExtraCandidate | None:
        live = [h for h, m in enumerate(self.mm) if m < self.k1]
        if not live:
            return None
        h = min(live, key=lambda h: (self.mm[h], h))
        return ExtraCandidate(index, (h,), self)

    def share(self, parts: tuple[int, ...], pos_next: int = 0) -> float:
        return self.w * self.pe[self.mm[parts[0]]] / self.z if self.z > 0 else 0.0

    def exclude(self, parts: tuple[int, ...]) -> None:
        self.mm[parts[0]] = self.k1
        self._sum()

    def text(self, parts: tuple[int, ...]) -> str:
        return self.said[parts[0]][0]

    def english(self, parts: tuple[int, ...]) -> str:
        return self.said[parts[0]][1]

    def accepts(self, parts: tuple[int, ...], line: Sequence[Card], card: Card) -> bool:
        return bool(self._row(parts[0], len(line) + 1, *_backs(line)) >> card.index & 1)

    def row(self, parts: tuple[int, ...], line: Sequence[Card]) -> int:
        return self._row(parts[0], len(line) + 1, *_backs(line))

    def live_singles(self) -> int:
        return 0

    def agreeing(self, rows: dict[int, int]) -> list[int]:
        """The relations that judge as a candidate wherever it can go (``rows``: its
        row after each last card it can reach). None here: an underestimate of a
        plain candidate's probability, which only delays a guess (a relation with
        the position changes as the line grows; one with two cards back reads what
        a plain rule cannot); see :meth:`LagJoins.agreeing` for a family that says."""
        return []

    def agreement(self, fit: BlockFit, rows: dict[int, int]) -> float:
        """The share of the relations that judge as the candidate (see :meth:`agreeing`)."""
        if self.z <= 0:
            return 0.0
        return sum(self.w * self.pe[self.mm[h]] for h in self.agreeing(rows)
                   if self.mm[h] < self.k1) / self.z


class LagRelations(RelationFamily):
    """The plain relations of the space read against the card two (or three)
    back (``card.suit == prev2.suit``, ``card.color == prev3.color``...): the
    first :data:`_MIXED_BACKS` relation blocks of the space's order (colour,
    suit, rank, parity, face, prime, suit groups, higher / lower, one up or
    down). The sources of the mixed lag families."""

    def __init__(self, space: Space, back: int = 2) -> None:
        n1 = space.level_end[1]
        rels = [i for i in range(n1)
                if space.recipe[i][0] == 0 and space.atoms[space.recipe[i][1]].kind == "rel"]
        self.space = space
        self.back = back
        self.blocks = rels[:_MIXED_BACKS]
        super().__init__(f"relations {back} back", 0.0, 0, 0.0,
                         [(space.text(j).replace("prev.", f"prev{back}."),
                           space.english(j).replace(
                               "the last card", f"the card {'two' if back == 2 else 'three'} back"))
                          for j in self.blocks])

    def _row(self, h: int, pos: int, prev: Card | None, prev2: Card | None,
             prev3: Card | None = None) -> int:
        back = prev2 if self.back == 2 else prev3
        return (self.space.bits[self.blocks[h]] >> (NCARDS * _row(back))) & FULL52


class LagPairs(RelationFamily):
    """Two plain relations with the card two back, joined: ``card.suit ==
    prev2.suit or card.rank == prev2.rank``, ``card.color != prev2.color and
    card.rank > prev2.rank``.

    What the space writes of the last card (a pair of blocks) read two back;
    the single relations two back are the enumerated ``prev2`` family's, a
    relation two back with a block on the last card the mixed lag family's.
    Pairs of one attribute (``card.color == prev2.color or card.color !=
    prev2.color``) are left out: they are a single relation, or none.
    """

    def __init__(self, name: str, prior: float, kmax: int, eps: float, space: Space) -> None:
        lag = LagRelations(space, 2)
        self.lag = lag
        said = lag.said
        # what a relation compares: the text before its operator
        attr = [t[:t.index(")") + 1] if t.startswith("(") else t.split(" ")[0] for t, _ in said]
        #: (first relation, second relation, how): indices into ``lag``
        self.pairs = [(a, b, how) for how in ("or", "and")
                      for a in range(len(said)) for b in range(a + 1, len(said))
                      if attr[a] != attr[b]]
        super().__init__(name, prior, kmax, eps,
                         [(f"{_paren(said[a][0])} {how} {_paren(said[b][0])}",
                           f"either {said[a][1]}, or {said[b][1]}" if how == "or"
                           else f"{said[a][1]}, and {said[b][1]}")
                          for a, b, how in self.pairs])

    def _row(self, h: int, pos: int, prev: Card | None, prev2: Card | None,
             prev3: Card | None = None) -> int:
        a, b, how = self.pairs[h]
        ra = self.lag._row(a, pos, prev, prev2, prev3)
        rb = self.lag._row(b, pos, prev, prev2, prev3)
        return ra | rb if how == "or" else ra & rb


class ThreeRankFamily(RelationFamily):
    """One relation of the card's rank with the last two ranks (sums of three, between...).

    "The last three ranks add up to a prime", "a rank between the last two",
    "the sum of the last two, counted round". Where there is no card two
    back every card is accepted, as the rule language reads a missing
    ``prev2``. Verdicts are computed per (last rank, rank two back) as a set
    of accepted ranks, once per process.
    """

    def __init__(self, name: str, prior: float, kmax: int, eps: float) -> None:
        self.rels = _three_rank_relations()
        super().__init__(name, prior, kmax, eps, [(t, e) for t, e, _ in self.rels])
        self._rows: dict[tuple[int, int, int], int] = {}

    def _row(self, h: int, pos: int, prev: Card | None, prev2: Card | None,
             prev3: Card | None = None) -> int:
        if prev is None or prev2 is None:
            return FULL52
        key = (h, prev.rank, prev2.rank)
        row = self._rows.get(key)
        if row is None:
            f = self.rels[h][2]
            row = self._rows[key] = sum(_RANK_CARDS[r] for r in range(1, 14)
                                        if f(r, prev.rank, prev2.rank))
        return row


class NoRunFamily(RelationFamily):
    """"No three in a row" of one property: ``not (card is P and prev is P and prev2 is P)``.

    Three face cards, three reds, three hearts, three high cards... never in
    a row. (Two in a row is a split on the last card: ``if prev is P then
    card is not P else true``.)
    """

    def __init__(self, name: str, prior: float, kmax: int, eps: float) -> None:
        #: (text, English, the cards with the property)
        self.rels = [(f"not ({c} and {p} and {p2})", f"never three in a row that {e}", mask)
                     for c, p, p2, e, mask in _run_properties()]
        super().__init__(name, prior, kmax, eps, [(t, e) for t, e, _ in self.rels])

    def _row(self, h: int, pos: int, prev: Card | None, prev2: Card | None,
             prev3: Card | None = None) -> int:
        if prev is None or prev2 is None:
            return FULL52
        mask = self.rels[h][2]
        if (mask >> prev.index) & 1 and (mask >> prev2.index) & 1:
            return FULL52 & ~mask
        return FULL52


def _run_properties() -> list[tuple[str, str, str, str, int]]:
    """Properties of :class:`NoRunFamily`: (on the card, the last, two back, English, cards)."""
    out: list[tuple[str, str, str, str, int]] = []
    for word, said, test in (("red", "are red", lambda c: c.red),
                             ("black", "are black", lambda c: not c.red),
                             ("face", "are face cards", lambda c: c.face),
                             ("numeral", "are numerals", lambda c: not c.face),
                             ("even", "have even ranks", lambda c: c.even),
                             ("odd", "have odd ranks", lambda c: not c.even)):
        out.append((f"card is {word}", f"prev is {word}", f"prev2 is {word}", said,
                    card_mask(test)))
    for suit in SUITS:
        out.append((f"card is {suit.noun}", f"prev is {suit.noun}", f"prev2 is {suit.noun}",
                    f"are {suit.noun}", card_mask(lambda c, s=suit: c.suit == s)))  # type: ignore[misc]
    for op, k, said in ((">=", 8, "have ranks of 8 or more"), ("<=", 7, "have ranks of 7 or less")):
        out.append((f"card.rank {op} {k}", f"prev.rank {op} {k}", f"prev2.rank {op} {k}", said,
                    card_mask(lambda c, op=op, k=k: c.rank >= k if op == ">=" else c.rank <= k)))  # type: ignore[misc]
    return out


#: The cards of each rank (index 0: none).
_RANK_CARDS = [card_mask(lambda c, r=r: c.rank == r) for r in range(14)]  # type: ignore[misc]

#: The attributes :class:`LagJoins` compares with the last cards: (name, its
#: English, the value of a card, the cards of each value).
_JOIN_ATTRIBUTES: list[tuple[str, str, Callable[[Card], int], dict[int, int]]] = [
    ("suit", "suit", lambda c: c.suit.order,
     {s.order: card_mask(lambda c, s=s: c.suit == s) for s in SUITS}),  # type: ignore[misc]
    ("rank", "rank", lambda c: c.rank, {r: _RANK_CARDS[r] for r in range(1, 14)}),
    ("color", "colour", lambda c: int(c.red),
     {v: card_mask(lambda c, v=v: int(c.red) == v) for v in (0, 1)}),  # type: ignore[misc]
]


class LagJoins(RelationFamily):
    """The card's suit, rank or colour among the last two or three cards', or none of them.

    ``card.suit in {prev.suit, prev2.suit, prev3.suit}`` ("a suit seen in
    the last three cards"), ``card.rank not in {prev.rank, prev2.rank}``
    ("a rank neither of the last two had"). Read as the rule language reads
    a set: its items left to right until one matches, a missing card two or
    three back accepting the card (see :mod:`eleusis.rules.evaluate`). The
    source of a mixed family too: ``card.suit in {prev.suit, prev2.suit}
    or card is face``. ``joins`` says which it holds (``(True, 3)``: in the
    last three; the others alone are the lag family's ``R(prev) or
    R(prev2)``, ``R(prev) and R(prev2)``...).

    >>> joins = LagJoins("joins", 1.0, 0, 0.0)
    >>> joins.said[1][0]
    'card.suit in {prev.suit, prev2.suit, prev3.suit}'
    >>> h = [t for t, _ in joins.said].index("card.suit not in {prev.suit, prev2.suit}")
    >>> row = joins._row(h, 3, Card.parse("7H"), Card.parse("2S"))
    >>> [row >> Card.parse(c).index & 1 for c in ("3D", "9H", "KS")]
    [1, 0, 0]
    >>> joins._row(h, 2, Card.parse("7H"), None) >> Card.parse("KS").index & 1  # no card two back
    1
    """

    #: every join: (whether the card must match one of the last cards, how many)
    JOINS = ((True, 2), (True, 3), (False, 2), (False, 3))

    def __init__(self, name: str, prior: float, kmax: int, eps: float,
                 joins: Sequence[tuple[bool, int]] = JOINS) -> None:
        #: (attribute, its value of a card, the cards of each value, how many
        #: cards back, whether the card must match one of them)
        self.rels: list[tuple[Callable[[Card], int], dict[int, int], int, bool]] = []
        said: list[tuple[str, str]] = []
        for attr, word, value, cards in _JOIN_ATTRIBUTES:
            for inside, k in joins:
                items = ", ".join(["prev." + attr] + [f"prev{j}.{attr}" for j in range(2, k + 1)])
                last = "last two cards" if k == 2 else "last three cards"
                said.append((f"card.{attr} {'in' if inside else 'not in'} {{{items}}}",
                             f"the card's {word} is {'one' if inside else 'none'} of "
                             f"the {last}' {word}s"))
                self.rels.append((value, cards, k, inside))
        super().__init__(name, prior, kmax, eps, said)

    def agreeing(self, rows: dict[int, int]) -> list[int]:
        """The joins that judge as a candidate wherever it can go (``rows``: its row
        after each last card it can reach).

        A join "the card's colour is one of the last cards'" agrees with a
        candidate that keeps the mainline in one colour: one accepting that
        colour alone (on a red mainline ``card.color in {prev.color,
        prev2.color}`` is ``card is red``), or the last card's colour after
        every card (``card.color == prev.color``); the same for suits and
        ranks. The cards already on the mainline are not checked (a slight
        overestimate); the joins that refuse the last cards' colour never agree.
        """
        if not rows:
            return []
        fixed = rows[next(iter(rows))] if len(set(rows.values())) == 1 else None
        out = []
        for h, (value, cards, _, inside) in enumerate(self.rels):
            if inside and (fixed in cards.values() if fixed is not None else
                           all(row == cards[value(ALL_CARDS[p])] for p, row in rows.items())):
                out.append(h)
        return out

    def _row(self, h: int, pos: int, prev: Card | None, prev2: Card | None,
             prev3: Card | None = None) -> int:
        value, cards, k, inside = self.rels[h]
        seen = 0
        for back in (prev, prev2, prev3)[:k]:
            if back is None:  # (read only by the cards no earlier item matched)
                return FULL52 if inside else FULL52 & ~seen
            seen |= cards[value(back)]
        return seen if inside else FULL52 & ~seen


def _pos_rank_relations() -> list[tuple[str, str, Callable[[int, int], bool]]]:
    """Relations of the card's rank with the position: (text, English, test(pos, rank))."""
    out: list[tuple[str, str, Callable[[int, int], bool]]] = []
    ops: list[tuple[str, str, Callable[[int, int], bool]]] = [
        ("<", "below", lambda r, x: r < x), ("<=", "at most", lambda r, x: r <= x),
        ("==", "equal to", lambda r, x: r == x), ("!=", "not equal to", lambda r, x: r != x),
        (">=", "at least", lambda r, x: r >= x), (">", "above", lambda r, x: r > x)]
    for op, word, f in ops:
        out.append((f"card.rank {op} pos", f"the card's rank is {word} its position",
                    lambda pos, r, f=f: f(r, pos)))  # type: ignore[misc]
        out.append((f"card.rank {op} wrap(pos)",
                    f"the card's rank is {word} its position counted round from ace to king",
                    lambda pos, r, f=f: f(r, (pos - 1) % 13 + 1)))  # type: ignore[misc]
    for m in (2, 3, 4, 5):
        out.append((f"card.rank % {m} == pos % {m}",
                    f"the card's rank and its position leave the same remainder by {m}",
                    lambda pos, r, m=m: r % m == pos % m))  # type: ignore[misc]
        out.append((f"card.rank % {m} != pos % {m}",
                    f"the card's rank and its position leave different remainders by {m}",
                    lambda pos, r, m=m: r % m != pos % m))  # type: ignore[misc]
    for m, rs in ((2, (1,)), (3, (0, 1, 2)), (4, (0,)), (5, (0,))):
        for res in rs:
            out.append((f"(card.rank + pos) % {m} == {res}",
                        f"the card's rank plus its position leaves {res} divided by {m}",
                        lambda pos, r, m=m, res=res: (r + pos) % m == res))  # type: ignore[misc]
            out.append((f"(card.rank + pos) % {m} != {res}",
                        f"the card's rank plus its position does not leave {res} divided by {m}",
                        lambda pos, r, m=m, res=res: (r + pos) % m != res))  # type: ignore[misc]
    out.append(("card.rank % pos == 0", "the card's rank is a multiple of its position",
                lambda pos, r: r % pos == 0))
    out.append(("pos % card.rank == 0", "the card's rank divides its position",
                lambda pos, r: pos % r == 0))
    for k in (1, 2, 3):
        out.append((f"abs(card.rank - wrap(pos)) <= {k}",
                    f"the card's rank is within {k} of its position counted round from ace "
                    "to king", lambda pos, r, k=k: abs(r - ((pos - 1) % 13 + 1)) <= k))  # type: ignore[misc]
    digits = "[" + ", ".join(map(str, _PI)) + "]"
    for op, word, f in ops:
        if op != "!=":
            out.append((f"card.rank {op} pick(pos, {digits})",
                        f"the card's rank is {word} the digit of pi at its position",
                        lambda pos, r, f=f: f(r, _PI[(pos - 1) % len(_PI)])))  # type: ignore[misc]
    return out


#: The first thirteen digits of pi (a rule's list holds 13 items): a sequence by position
#: people use, read round.
_PI = (3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9)


class PosRankFamily(RelationFamily):
    """One relation of the card's rank with its position (``card.rank >= pos``,
    ``card.rank % 3 == pos % 3``, ``(card.rank + pos) % 2 == 1``...).

    A short explicit list, like :class:`LagFamily`: the position is unbounded,
    so these rules have no place in the enumerated bit sets; each hypothesis
    judges a card from its rank and the position directly.
    """

    def __init__(self, name: str, prior: float, kmax: int, eps: float) -> None:
        self.hyps = _pos_rank_relations()
        super().__init__(name, prior, kmax, eps, [(t, e) for t, e, _ in self.hyps])
        #: (hypothesis, position) -> the 52-bit set of cards it accepts there
        self._rows: dict[tuple[int, int], int] = {}

    def _row(self, h: int, pos: int, prev: Card | None, prev2: Card | None,
             prev3: Card | None = None) -> int:
        row = self._rows.get((h, pos))
        if row is None:
            f = self.hyps[h][2]
            row = self._rows[(h, pos)] = sum(_RANK_CARDS[r] for r in range(1, 14) if f(pos, r))
        return row


#: a relation of the card's rank with one earlier card's: (text, English, how
#: far back, test(rank, earlier rank))
EarlierRank = tuple[str, str, int, Callable[[int, int], bool]]


class EarlierRankRelations(RelationFamily):
    """Relations each reading the card's rank and one earlier card's rank.

    The rows are worked out once per (relation, earlier rank). Where the
    earlier card is missing every card is accepted, as the rule language
    reads a missing ``prevK``.
    """

    def __init__(self, name: str, prior: float, kmax: int, eps: float,
                 rels: list[EarlierRank]) -> None:
        self.rels = rels
        super().__init__(name, prior, kmax, eps, [(t, e) for t, e, _, _ in rels])
        self._rows: dict[tuple[int, int], int] = {}

    def _row(self, h: int, pos: int, prev: Card | None, prev2: Card | None,
             prev3: Card | None = None) -> int:
        back = self.rels[h][2]
        card = prev if back == 1 else prev2 if back == 2 else prev3
        if card is None:
            return FULL52
        key = (h, card.rank)
        row = self._rows.get(key)
        if row is None:
            f = self.rels[h][3]
            row = self._rows[key] = sum(_RANK_CARDS[r] for r in range(1, 14)
                                        if f(r, card.rank))
        return row


class SumRelations(EarlierRankRelations):
    """Relations of the card's rank with one earlier rank that are no block of the space.

    The sum of the two ranks equal to a number (``card.rank + prev.rank ==
    13``, ``card.rank + prev2.rank == 14``), twice or half the last rank
    (``card.rank == wrap(prev.rank * 2)``) and the distance to the rank two
    or three back within a bound (``abs(card.rank - prev3.rank) <= 1``):
    rare verdicts on their own, so people join them to another rule ("add
    up to thirteen, or follow suit"); the source of the family that mixes
    them with a block (:class:`MixedLagFamily`). Where the earlier card is
    missing every card is accepted, as the rule language reads it.
    """

    def __init__(self) -> None:
        rels: list[EarlierRank] = []
        for back, name, said in ((1, "prev", "the last card's rank"),
                                 (2, "prev2", "the rank two back")):
            for k in range(3, 26):
                rels.append((f"card.rank + {name}.rank == {k}",
                             f"the card's rank and {said} add up to {k}", back,
                             lambda r, p, k=k: r + p == k))  # type: ignore[misc]
        rels.append(("card.rank == wrap(prev.rank * 2)",
                     "the card's rank is twice the last card's, counted round", 1,
                     lambda r, p: r == (2 * p - 1) % 13 + 1))
        rels.append(("card.rank * 2 == prev.rank", "the card's rank is half the last card's",
                     1, lambda r, p: 2 * r == p))
        for back, name in ((2, "prev2"), (3, "prev3")):
            for k in (1, 2, 3):
                rels.append((f"abs(card.rank - {name}.rank) <= {k}",
                             f"the card's rank is within {k} of the rank "
                             f"{'two' if back == 2 else 'three'} back", back,
                             lambda r, p, k=k: abs(r - p) <= k))  # type: ignore[misc]
        super().__init__("sums", 0.0, 0, 0.0, rels)



def _rank_pair_relations(kind: str) -> list[EarlierRank]:
    """Relations of the card's rank with the last card's (each read one card back).

    ``"joined"``: the arithmetic people join to another rule by "or" ("the
    two ranks add up to a multiple of six, or a court card", "an odd
    product, or a red card", "the ranks share a factor, or follow suit"): a
    sum divisible by 3 to 7 or prime, a product divisible by 4 to 6 or odd,
    a common factor. Alone, each is a set of values of one quantity
    (:class:`ValueSetFamily`); joined to a block, no family held them. Each
    holds for under half of the pairs of ranks: "or" with a relation most
    pairs meet (no common factor, a product divisible by 3) is a rule that
    refuses almost nothing, which no one writes, and whose many spellings
    would only dilute the rule that was seen. ``"ratio"``: the ranks within
    a factor of two of each other ("half to double"), or further apart,
    which no single quantity's set of values holds. The texts are rules as
    they stand.
    """
    out: list[EarlierRank] = []
    if kind == "ratio":
        out.append(("card.rank * 2 >= prev.rank and card.rank <= prev.rank * 2",
                    "the card's rank is at least half the last one's and at most twice it", 1,
                    lambda r, p: 2 * r >= p and r <= 2 * p))
        out.append(("card.rank * 2 < prev.rank or card.rank > prev.rank * 2",
                    "the card's rank is under half the last one's or over twice it", 1,
                    lambda r, p: 2 * r < p or r > 2 * p))
        return out
    s2, prod = "card.rank + prev.rank", "card.rank * prev.rank"
    for k in (3, 4, 5, 6, 7):
        out.append((f"({s2}) % {k} == 0", f"the two ranks add up to a multiple of {k}", 1,
                    lambda r, p, k=k: (r + p) % k == 0))  # type: ignore[misc]
    out.append((f"({s2}) is prime", "the two ranks add up to a prime number", 1,
                lambda r, p: _is_prime(r + p)))
    for k in (4, 5, 6):
        out.append((f"({prod}) % {k} == 0",
                    f"the product of the two ranks is a multiple of {k}", 1,
                    lambda r, p, k=k: r * p % k == 0))  # type: ignore[misc]
    out.append((f"({prod}) % 2 == 1", "the product of the two ranks is odd", 1,
                lambda r, p: r * p % 2 == 1))
    out.append(("gcd(card.rank, prev.rank) > 1", "the two ranks share a factor", 1,
                lambda r, p: gcd(r, p) > 1))
    return out


class RankPairRelations(EarlierRankRelations):
    """One relation of the card's rank with the last card's (see :func:`_rank_pair_relations`).

    Alone ("ratio": "each rank at most twice the other"), and the source of
    the family that joins any single block to the arithmetic people write
    ("joined": ``(card.rank + prev.rank) % 6 == 0 or card is face``,
    :class:`MixedLagFamily`). The first card, with no last card, is
    accepted, as the rule language reads a missing ``prev``.
    """

    def __init__(self, name: str, prior: float, kmax: int, eps: float,
                 kind: str = "joined") -> None:
        super().__init__(name, prior, kmax, eps, _rank_pair_relations(kind))


#: Numbers people name in rules besides the primes (up to a product of two
#: ranks, 169): the sets of ranks, the value sets and the positions take theirs.
_FIBONACCI = frozenset({1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144})
_TRIANGULAR = frozenset(k * (k + 1) // 2 for k in range(1, 18))
_SQUARES = frozenset(k * k for k in range(14))
_POWERS_OF_TWO = frozenset(2 ** k for k in range(8))


def _log_beta(a: float, b: float) -> float:
    return lgamma(a) + lgamma(b) - lgamma(a + b)


@lru_cache(maxsize=4096)
def _set_share(k: int, m: int, inside: int, outside: int, a: float, b: float) -> float:
    """The probability of one set of a Beta-Bernoulli family of sets.

    ``k`` members seen accepted, ``m`` seen refused; the set puts ``inside``
    of the unseen members in and ``outside`` out: each in turn, as the
    predictive (updated after each) says. Remembered: a guess after a set
    judged wrong weighs hundreds of sets that differ by one or two members,
    with a handful of distinct counts among them.

    >>> _set_share(2, 1, 1, 0, 1.0, 1.0)  # one unseen member, put in: (1 + 2) / (2 + 3)
    0.6
    """
    q = 1.0
    for j in range(inside):
        q *= (a + k + j) / (a + b + k + m + j)
    for j in range(outside):
        q *= (b + m + j) / (a + b + k + inside + m + j)
    return q


def _best_set(base: tuple[int, ...], unseen: Sequence[int], excluded: set[tuple[int, ...]],
              share: Callable[[tuple[int, ...]], float]) -> tuple[int, ...] | None:
    """``base``, or if it was judged wrong the flip of the unseen member (or two) losing least."""
    if base not in excluded:
        return base
    options = []
    members = set(base)
    for i, v in enumerate(unseen):
        for v2 in [None, *unseen[i + 1:]]:
            flip = {v} if v2 is None else {v, v2}
            alt = tuple(sorted(members ^ flip))
            if alt not in excluded:
                options.append((-share(alt), alt))
    return min(options)[1] if options else None


def _members_text(expr: str, parts: Sequence[int], universe: Iterable[int],
                  by_complement: bool) -> str:
    """``expr`` in the set ``parts`` of ``universe``, as rule text: ``!= v`` when one
    value is left out, ``== v`` for one value, else ``in {...}``, or ``not in {...}``
    of the values left out when ``by_complement``."""
    out = [v for v in universe if v not in parts]
    if len(out) == 1:
        return f"{expr} != {out[0]}"
    if len(parts) == 1:
        return f"{expr} == {parts[0]}"
    if by_complement:
        return f"{expr} not in {{{', '.join(map(str, out))}}}"
    return f"{expr} in {{{', '.join(map(str, parts))}}}"


class ExceptionFamily:
    """``A and card not in E`` / ``A or card in E``: a single block and a few named cards.

    "Everything but the ace of hearts" (``card != AH``), "black, but not
    the eight of clubs" (``card is black and card != 8C``), "numbers, or the
    one-eyed jacks and king" (``card is numeral or card in {JS, JH, KD}``):
    a rule ``A`` of one block with at most :data:`MOST` exceptions, cards
    named by rank and suit that ``A`` would accept and the rule always
    refuses (``and``), or that ``A`` would refuse and the rule always
    accepts (``or``). Each block keeps, for each form, the cards it had to
    call exceptions to fit what was seen (fewest first: a card is one only
    once a verdict needed it), and dies when a verdict goes against the form
    or a named card is judged both ways. The prior of ``E`` is
    ``SIZE[len(E)] / C(n, len(E))``: one named card is a likely exception,
    three a rare one, each set of them alike among the ``n`` cards that
    could be one (the cards ``A`` accepts after some card, for ``and``; the
    cards it refuses after some card, for ``or``): "numbers, or two face
    cards" names two of the 12 face cards, one pair in 66, where a pair of
    any two cards would be one in 1,326 and a chance fit of a relation with
    the last card ("numbers, or a rank two above the last") would outweigh
    it tens of times. A block needing no exception is a plain rule, weighed
    in the enumerated space, not here.
    """

    #: the largest number of named cards
    MOST = 3
    #: the prior of the number of named cards (1, 2, 3)
    SIZE = (0.0, 0.6, 0.3, 0.1)

    def __init__(self, name: str, prior: float, space: Space,
                 weights: Sequence[float]) -> None:
        self.name = name
        self.prior = prior
        self.space = space
        self.w = _single_weights(space, weights)
        self._live0 = [a for a in range(len(self.w)) if self.w[a] > 0]
        #: for each form and block, the prior of a set of named cards by its size
        self.pk = self._size_priors(space, len(self.w))
        self._reset()

    @classmethod
    def _size_priors(cls, space: Space, n1: int) -> list[list[tuple[float, ...]]]:
        """``pk[form][a][k]``: the prior of one set of ``k`` named cards for block
        ``a`` in ``form``, ``SIZE[k]`` shared among the sets of ``k`` of the
        cards that could be one (see the class)."""
        srows = single_rows(space)
        out: list[list[tuple[float, ...]]] = [[], []]
        for a in range(n1):
            anywhere, everywhere = 0, FULL52
            for row in srows[a]:
                anywhere |= row
                everywhere &= row
            for form, n in enumerate((anywhere.bit_count(), NCARDS - everywhere.bit_count())):
                out[form].append(tuple(cls.SIZE[k] / comb(n, k) if n >= k else 0.0
                                       for k in range(cls.MOST + 1)))
        return out

    def _reset(self) -> None:
        #: for each form (0: ``and``, 1: ``or``), each live block's named cards
        self.named: list[dict[int, int]] = [dict.fromkeys(self._live0, 0) for _ in range(2)]
        #: the cards seen refused, and seen accepted
        self.seen = [0, 0]
        self.excluded: set[tuple[int, ...]] = set()
        self._z: float | None = None
        #: the last card of the mainline (None before the first)
        self.last: Card | None = None

    def fresh(self) -> ExceptionFamily:
        """The same family before any observation (sharing the unchanging parts)."""
        new = copy.copy(self)
        new._reset()
        return new

    def observe(self, obs: Obs, single_verdicts: Sequence[int]) -> None:
        bit = 1 << obs.card.index
        got = 1 if obs.accepted else 0
        self.seen[got] |= bit
        self.last = obs.card if obs.accepted else obs.prev
        # form 0 (``A and card not in E``) names cards A accepts and the rule
        # refuses; form 1 (``A or card in E``) cards A refuses, the rule accepts
        for form, named in enumerate(self.named):
            naming = 1 - form  # the verdict of A on a card this form names
            other = self.seen[1 - form]  # seen with the verdict a named card never gets
            dead = []
            for a, e in named.items():
                if single_verdicts[a] == got:
                    if e & bit and got != form:
                        dead.append(a)  # a named card judged as A judges it
                    continue
                if got != form or single_verdicts[a] != naming:
                    dead.append(a)  # a verdict the exceptions cannot explain
                    continue
                e |= bit
                if e & other or bin(e).count("1") > self.MOST:
                    dead.append(a)
                else:
                    named[a] = e
            for a in dead:
                del named[a]
        self._z = None

    def _weight(self, form: int, a: int, e: int) -> float:
        return self.w[a] * self.pk[form][a][e.bit_count()] if e else 0.0

    def evidence(self) -> float:
        """The family's mass; a rule guessed and judged wrong is impossible and
        weighs nothing (the rules left share what the family keeps)."""
        if self._z is None:
            self._z = 0.5 * fsum(self._weight(form, a, e) for form, named in enumerate(self.named)
                                 for a, e in named.items()
                                 if not self.excluded or self._parts(form, a, e)
                                 not in self.excluded)
        return self._z

    def alive(self) -> bool:
        return self.evidence() > 0

    def rows(self, pos: int, line: Sequence[Card], out: dict[int, float], scale: float) -> None:
        z = self.evidence()
        if z <= 0:
            return
        p = _row(line[-1] if line else None)
        srows = single_rows(self.space)
        f = 0.5 * scale / z
        for form, named in enumerate(self.named):
            for a, e in named.items():
                if e:
                    row = srows[a][p] & ~e if form == 0 else srows[a][p] | e
                    out[row] = out.get(row, 0.0) + f * self._weight(form, a, e)

    @staticmethod
    def _parts(form: int, a: int, e: int) -> tuple[int, ...]:
        return (form, a, *(i for i in range(NCARDS) if e >> i & 1))

    def best(self, index: int) -> ExtraCandidate | None:
        if self.evidence() <= 0:
            return None
        options = [(self._weight(form, a, e), self._parts(form, a, e))
                   for form, named in enumerate(self.named) for a, e in named.items() if e]
        options = [o for o in options if o[1] not in self.excluded]
        if not options:
            return None
        return ExtraCandidate(index, max(options)[1], self)

    def share(self, parts: tuple[int, ...], pos_next: int = 0) -> float:
        z = self.evidence()
        if z <= 0 or parts in self.excluded:
            return 0.0
        form, a, *cards = parts
        e = sum(1 << i for i in cards)
        if self.named[form].get(a) != e:
            return 0.0
        # with the blocks that judge alike wherever the mainline can go from
        # here ("card is black and card != 8C" and "card.color == prev.color
        # and card != 8C" after a black card): one rule, one share
        srows = single_rows(self.space)
        reach = self._reach(srows[a], form, e)
        mine = srows[a]
        alike = 0.0
        for b, eb in self.named[form].items():
            if eb == e and (form, b, *cards) not in self.excluded:
                rb = srows[b]
                if all(not (rb[p] ^ mine[p]) & ~e for p in reach):
                    alike += self._weight(form, b, e)
        return 0.5 * alike / z

    def _reach(self, rows: Sequence[int], form: int, e: int) -> list[int]:
        """The rows of the last cards a rule (a block's ``rows``, exceptions ``e``)
        can reach from the mainline's last card, that one included."""
        start = _row(self.last)
        seen = 1 << start
        todo = [start]
        while todo:
            row = rows[todo.pop()]
            new = (row & ~e if form == 0 else row | e) & ~seen
            seen |= new
            while new:
                low = new & -new
                todo.append(low.bit_length() - 1)
                new ^= low
        return [p for p in range(NCARDS + 1) if seen >> p & 1]

    def exclude(self, parts: tuple[int, ...]) -> None:
        self.excluded.add(parts)
        self._z = None

    def text(self, parts: tuple[int, ...]) -> str:
        form, a, *cards = parts
        names = [Card.from_index(i).code for i in cards]
        base = self.space.text(a)
        if form == 0:
            named = f"card != {names[0]}" if len(names) == 1 else \
                f"card not in {{{', '.join(names)}}}"
            return named if base == "true" else f"{_paren(base)} and {named}"
        named = f"card == {names[0]}" if len(names) == 1 else f"card in {{{', '.join(names)}}}"
        return named if base == "false" else f"{_paren(base)} or {named}"

    def english(self, parts: tuple[int, ...]) -> str:
        form, a, *cards = parts
        names = ", ".join(card_name(Card.from_index(i)) for i in cards)
        base = self.space.english(a)
        return f"{base}, except {names}" if form == 0 else f"{base}, or {names}"

    def accepts(self, parts: tuple[int, ...], line: Sequence[Card], card: Card) -> bool:
        form, a, *cards = parts
        if card.index in cards:
            return form == 1
        prev = line[-1] if line else None
        return _block_accepts(self.space, a, prev, card)

    def row(self, parts: tuple[int, ...], line: Sequence[Card]) -> int:
        form, a, *cards = parts
        named = sum(1 << i for i in cards)
        base = single_rows(self.space)[a][_row(line[-1] if line else None)]
        return base | named if form == 1 else base & ~named

    def live_singles(self) -> int:
        return 0

    def agreement(self, fit: BlockFit, rows: dict[int, int]) -> float:
        """Not counted (an underestimate of a plain candidate's probability)."""
        return 0.0


def _rank_span(parts: Sequence[int]) -> tuple[int, int, bool] | None:
    """``(lo, hi, True)`` when ``parts`` are the ranks ``lo..hi`` (two or more, not
    from the ace or to the king), ``(lo, hi, False)`` when they are the ranks
    outside ``lo..hi`` (two or more kept on each side), else None.

    >>> _rank_span((5, 6, 7, 8, 9)), _rank_span((1, 2, 3, 4, 10, 11, 12, 13))
    ((5, 9, True), (5, 9, False))
    >>> but_five = tuple(r for r in range(1, 14) if r != 5)
    >>> _rank_span((1, 2, 3)), _rank_span((1, 13)), _rank_span(but_five)
    (None, None, None)
    """
    members = sorted(set(parts))
    if not members:
        return None
    lo, hi = members[0], members[-1]
    if members == list(range(lo, hi + 1)):
        return (lo, hi, True) if 1 < lo < hi < 13 else None
    out = [r for r in range(1, 14) if r not in members]
    lo, hi = out[0], out[-1]
    if out == list(range(lo, hi + 1)) and 3 <= lo < hi <= 11:
        return lo, hi, False
    return None


def _simple_rank_sets(named: Sequence[tuple[int, ...]], named_mass: float,
                      out_mass: float, range_mass: float
                      ) -> dict[tuple[int, ...], tuple[float, str | None]]:
    """The sets of ranks people write, with their prior share and text.

    The ``named`` sets share ``named_mass`` (their text lists the ranks:
    None); the ranks outside a middle range ``a..b`` (two ranks or more
    left out, two or more kept on each side) share ``out_mass``; the ranges
    ``a..b`` of two ranks or more, neither from the ace nor to the king
    (those are bounds), share ``range_mass``.

    >>> sets = _simple_rank_sets((), 0.0, 0.1, 0.1)
    >>> sets[(1, 2, 3, 4, 10, 11, 12, 13)][1], sets[(5, 6, 7)][1]
    ('card.rank not in 5..9', 'card.rank in 5..7')
    >>> round(sum(w for w, _ in sets.values()), 9)
    0.2
    """
    out: dict[tuple[int, ...], tuple[float, str | None]] = {}
    for parts in named:
        out[parts] = (named_mass / len(named), None)
    spans = [(a, b) for a in range(2, 13) for b in range(a + 1, 13)]
    gaps = [(a, b) for a in range(3, 12) for b in range(a + 1, 12)]
    for a, b in gaps if out_mass else ():
        parts = tuple(r for r in range(1, 14) if not a <= r <= b)
        out.setdefault(parts, (out_mass / len(gaps), f"card.rank not in {a}..{b}"))
    for a, b in spans if range_mass else ():
        out.setdefault(tuple(range(a, b + 1)), (range_mass / len(spans), f"card.rank in {a}..{b}"))
    return out


def _shift_levels(levels: list[int], bad: int) -> None:
    """Count one mismatch more for the sets in ``bad``: ``levels[m]`` is the bit set
    of the sets with ``m`` mismatches so far (those past the last level drop out).

    >>> levels = [0b011, 0b100]
    >>> _shift_levels(levels, 0b110); levels
    [1, 2]
    """
    carry = 0
    for m, cur in enumerate(levels):
        levels[m] = (cur & ~bad) | carry
        carry = cur & bad


#: A family's sets of ranks people write: each set's share and text, their total
#: share, the sets in order with their shares, each set's index, and for each
#: rank the bit set of the sets holding it (see :func:`_set_tables`).
_SetTables = tuple[dict[tuple[int, ...], tuple[float, str | None]], float,
                   list[tuple[tuple[int, ...], float]], dict[tuple[int, ...], int], list[int]]


@lru_cache(maxsize=8)
def _rank_set_tables(named: tuple[tuple[int, ...], ...], named_mass: float,
                     out_mass: float, range_mass: float
                     ) -> _SetTables:
    """The tables of the sets people write, shared by every rank-set family of one kind
    (a new scientist's families would otherwise build them again, a few tenths of a
    millisecond each): the sets (:func:`_simple_rank_sets`), their total share, the
    sets in order with their shares, each set's index, and for each rank the bit set
    of the sets holding it. Never to be modified.
    """
    return _set_tables(_simple_rank_sets(named, named_mass, out_mass, range_mass))


def _set_tables(simple: dict[tuple[int, ...], tuple[float, str | None]]) -> _SetTables:
    """``simple`` (sets of ranks with their share and text) with its total share, the
    sets in order with their shares, each set's index, and for each rank the bit
    set of the sets holding it (see :func:`_rank_set_tables`)."""
    order = [(parts, w) for parts, (w, _) in simple.items()]
    index = {parts: j for j, (parts, _) in enumerate(order)}
    holding = [sum(1 << j for j, (parts, _) in enumerate(order) if r in parts)
               for r in range(14)]
    return simple, fsum(w for w, _ in simple.values()), order, index, holding


class RankSetFamily:
    """``card.rank in S`` for any set ``S`` of ranks: each rank in or out, Beta-Bernoulli.

    With ``k`` ranks seen accepted and ``m`` seen refused (and none both),
    the evidence is ``B(a + k, b + m) / B(a, b)`` and an unseen rank is
    accepted with probability ``(a + k) / (a + b + k + m)``. A rank seen
    both accepted and refused rules the family out (or, tolerating
    mistakes, costs ``eps`` each time). The cards of ``fixed`` (none here; a
    colour or suit in :class:`GatedRankSetFamily`) are judged ``accept``
    whatever their rank; a verdict against that is a mismatch too.

    Some sets people name: the Fibonacci numbers, the triangular numbers,
    the squares, the powers of two. Each weighs ``NAMED_MASS / len(NAMED)``
    of the family a priori (far more than any one set of the Beta-Bernoulli
    part, which holds the rest): after A, 3 and 6 accepted and 2, 4 and 5
    refused, "ace, 3, 6 or 10" is a better bet than "ace, 3 or 6" even
    though no 10 was played. So do the ranks outside a middle range
    (``card.rank not in 5..9``, two ranks or more left out and two or more
    kept on each side: ``OUT_OF_RANGE_MASS`` shared among them), which the
    enumerated space cannot write: after 2, 3, 4, 10, jack, queen and king
    accepted and 5 to 9 refused, "not 5 to 9" is the set people mean,
    though no ace was played (with the 4 unseen instead, "not 5 to 9" and
    "not 4 to 9" would share the weight). (The ranges themselves and the bounds are
    blocks of the space; a gated family joined by "or" adds the ranges:
    see :class:`GatedRankSetFamily`.)
    """

    A = B = 1.0
    fixed = 0
    accept = True
    #: no rank at all and every rank: plain rules ("false", the gate alone;
    #: "true"), never this family's to guess (their mass stays: they are possible)
    PLAIN: frozenset[tuple[int, ...]] = frozenset({(), tuple(range(1, 14))})
    #: the sets people name (Fibonacci, triangular, squares, powers of two)
    NAMED: tuple[tuple[int, ...], ...] = tuple(
        tuple(r for r in range(1, 14) if r in named)
        for named in (_FIBONACCI, _TRIANGULAR, _SQUARES, _POWERS_OF_TWO))
    #: their share of the family a priori
    NAMED_MASS = 0.05
    #: the share a priori of the ranks outside a middle range (``not in 5..9``)
    OUT_OF_RANGE_MASS = 0.1
    #: the share a priori of the ranges (``in 5..9``; none here: blocks of the space)
    RANGE_MASS = 0.0

    def __init__(self, name: str, prior: float, kmax: int, eps: float) -> None:
        self.name = name
        self.prior = prior
        self.kmax = kmax
        self.eps = eps
        #: the sets people write, each with its prior share of the family and
        #: its text (None: the set's members), see :func:`_simple_rank_sets`
        (self.simple, self.simple_mass, self._simple_list, self._simple_index,
         self._holding) = self._tables()
        self._all_simple = (1 << len(self._simple_list)) - 1
        #: ``_levels[m]``: the sets with ``m`` mismatches so far (one mask
        #: operation a play, as :class:`ValueSetFamily` holds its simple sets)
        self._levels = [self._all_simple] + [0] * kmax
        self._pe = [eps ** m for m in range(kmax + 1)]
        self._fits: list[tuple[tuple[int, ...], float]] | None = None
        #: each set's row (the cards it accepts), as :meth:`row` gives it
        self._rows: dict[tuple[int, ...], int] = {}
        self.seen = [[0, 0] for _ in range(14)]  # [refused, accepted] counts by rank
        #: verdicts on the cards of ``fixed`` that went against ``accept``
        self.gate_wrong = 0
        #: the sets guessed and judged wrong: no longer possible, so the family
        #: loses their mass and the sets left share it (see :meth:`share`)
        self.refuted: set[tuple[int, ...]] = set()
        #: :meth:`_state`, :meth:`evidence` and :meth:`_bb`, until the next
        #: observation (the evidence also until the next exclusion)
        self._st: tuple[int, int, int, int] | None = None
        self._ev: float | None = None
        self._bbv: float | None = None

    def _tables(self) -> _SetTables:
        """The sets people write and their shares (see :func:`_rank_set_tables`)."""
        return _rank_set_tables(self.NAMED, self.NAMED_MASS, self.OUT_OF_RANGE_MASS,
                                self.RANGE_MASS)

    def fresh(self) -> RankSetFamily:
        """The same family before any observation."""
        return RankSetFamily(self.name, self.prior, self.kmax, self.eps)

    def _state(self) -> tuple[int, int, int, int]:
        """(accepted ranks mask, refused ranks mask, mismatches, unseen ranks count)."""
        if self._st is not None:
            return self._st
        self._st = self._count()
        return self._st

    def _count(self) -> tuple[int, int, int, int]:
        acc = ref = 0
        wrong = 0
        for r in range(1, 14):
            no, yes = self.seen[r]
            if yes >= no and yes:
                acc |= 1 << r
                wrong += no
            elif no:
                ref |= 1 << r
                wrong += yes
        unseen = 13 - bin(acc).count("1") - bin(ref).count("1")
        return acc, ref, wrong, unseen

    def observe(self, obs: Obs, single_verdicts: Sequence[int]) -> None:
        self._st = self._ev = self._bbv = None
        self._fits = None
        if self.fixed >> obs.card.index & 1:
            if obs.accepted != self.accept:
                self.gate_wrong += 1
            return
        self.seen[obs.card.rank][1 if obs.accepted else 0] += 1
        held = self._holding[obs.card.rank]
        _shift_levels(self._levels, held ^ self._all_simple if obs.accepted else held)

    def _bb(self) -> float:
        """The evidence of the Beta-Bernoulli part (its prior weight not included)."""
        if self._bbv is None:
            self._bbv = self._work_bb()
        return self._bbv

    def _work_bb(self) -> float:
        acc, ref, wrong, _ = self._state()
        if wrong > self.kmax or self.gate_wrong > self.kmax:
            return 0.0
        k, m = bin(acc).count("1"), bin(ref).count("1")
        return exp(_log_beta(self.A + k, self.B + m) - _log_beta(self.A, self.B)) \
            * self.eps ** wrong * self.eps ** self.gate_wrong

    def _fit(self, parts: tuple[int, ...]) -> float:
        """How well the set ``parts`` people write fits the verdicts (``eps`` a mismatch)."""
        if self.gate_wrong > self.kmax:
            return 0.0
        j = self._simple_index[parts]
        for m, mask in enumerate(self._levels):
            if mask >> j & 1:
                return self._pe[m] * self.eps ** self.gate_wrong
        return 0.0

    def _simple_fits(self) -> list[tuple[tuple[int, ...], float]]:
        """The sets people write still possible, with their prior share times their fit,
        remembered until the next observation."""
        if self._fits is None:
            fits = []
            if self.gate_wrong <= self.kmax:
                gate = self.eps ** self.gate_wrong
                for m, mask in enumerate(self._levels):
                    while mask:
                        low = mask & -mask
                        mask ^= low
                        parts, w = self._simple_list[low.bit_length() - 1]
                        fits.append((parts, w * self._pe[m] * gate))
            self._fits = fits
        return self._fits

    def _raw(self, parts: tuple[int, ...]) -> float:
        """The posterior weight of the set ``parts``, unnormalised (as :meth:`_total`)."""
        w = (1.0 - self.simple_mass) * self._bb() * self._share(parts)
        known = self.simple.get(parts)
        if known is not None:
            w += known[0] * self._fit(parts)
        return w

    def _total(self) -> float:
        """The family's evidence before the sets judged wrong are taken out."""
        if not self.simple:
            return self._bb()
        return (1.0 - self.simple_mass) * self._bb() + fsum(
            w for _, w in self._simple_fits())

    def evidence(self) -> float:
        if self._ev is not None:
            return self._ev
        total = self._total()
        if self.refuted and total > 0:
            total = max(0.0, total - fsum(self._raw(p) for p in self.refuted))
        self._ev = total
        return total

    def alive(self) -> bool:
        return self.evidence() > 0

    def _p_unseen(self) -> float:
        acc, ref, _, _ = self._state()
        k, m = bin(acc).count("1"), bin(ref).count("1")
        return (self.A + k) / (self.A + self.B + k + m)

    def rows(self, pos: int, line: Sequence[Card], out: dict[int, float], scale: float) -> None:
        total = self._total()
        if total <= 0 or self.evidence() <= 0:
            return
        named = 0.0
        for parts, fit in self._simple_fits():
            w = fit / total
            row = self.row(parts, line)
            out[row] = out.get(row, 0.0) + scale * w
            named += w
        scale *= 1.0 - named
        acc, ref, _, _ = self._state()
        known = self.fixed if self.accept else 0
        unseen = 0
        for r in range(1, 14):
            if acc >> r & 1:
                known |= _RANK_CARDS[r] & ~self.fixed
            elif not ref >> r & 1:
                unseen |= _RANK_CARDS[r] & ~self.fixed
        p = self._p_unseen() if unseen else 0.0
        out[known] = out.get(known, 0.0) + scale * (1.0 - p)
        if p:
            out[known | unseen] = out.get(known | unseen, 0.0) + scale * p

    def _guess(self) -> tuple[int, ...] | None:
        """The most probable set not judged wrong yet (None: none is left).

        The unseen ranks go all in or all out, as their predictive says; after
        a wrong guess, the unseen rank (or two) whose flip loses least.
        """
        acc, ref, _, _ = self._state()
        take_unseen = self._p_unseen() >= 0.5
        base = tuple(r for r in range(1, 14)
                     if acc >> r & 1 or (take_unseen and not ref >> r & 1))
        unseen = [r for r in range(1, 14) if not (acc | ref) >> r & 1]
        best = _best_set(base, unseen, self.refuted | self.PLAIN, self.share)
        named = [p for p, _ in self._simple_fits() if p not in self.refuted]
        if named:
            top = max(named, key=self._raw)
            if best is None or self._raw(top) > self._raw(best):
                return top
        return best

    def best(self, index: int) -> ExtraCandidate | None:
        if self.evidence() <= 0:
            return None
        guess = self._guess()
        return None if guess is None else ExtraCandidate(index, guess, self)

    def top(self) -> list[tuple[int, ...]]:
        """Its likeliest set and the next one (the sets judged wrong left out)."""
        first = self._guess()
        if first is None:
            return []
        self.refuted.add(first)
        self._ev = None
        second = self._guess()
        self.refuted.discard(first)
        self._ev = None
        return [first] if second is None else [first, second]

    def best_two(self, index: int) -> tuple[ExtraCandidate | None, ExtraCandidate | None]:
        """The likeliest set and the next one (None for none): "ace, 3, 6 or 10"
        and "ace, 3 or 6" while no 10 was played are a tie the scientist sees
        (see :meth:`eleusis.ai.inference.Belief.candidates`)."""
        if self.evidence() <= 0:
            return None, None
        sets = [ExtraCandidate(index, parts, self) for parts in self.top()]
        return (sets[0] if sets else None), (sets[1] if len(sets) > 1 else None)

    def share(self, parts: tuple[int, ...], pos_next: int = 0) -> float:
        """The probability of the set ``parts`` within the family.

        A set guessed and judged wrong is impossible: its share is 0 and the
        others divide what is left (after ``{A, 2, 3, 5, 8, 10, K}`` is judged
        wrong while 10 was never played, ``{A, 2, 3, 5, 8, K}`` holds all
        of the family's mass, no longer half of it).
        """
        if parts in self.refuted or parts in self.PLAIN:
            return 0.0
        z = self.evidence()
        return self._raw(parts) / z if z > 0 else 0.0

    def _share(self, parts: tuple[int, ...]) -> float:
        acc, ref, wrong, unseen = self._state()
        if wrong > self.kmax or self.gate_wrong > self.kmax:
            return 0.0
        want = sum(1 << r for r in parts)
        if (acc & ~want) or (ref & want):
            return 0.0
        inside = sum(1 for r in range(1, 14)
                     if want >> r & 1 and not acc >> r & 1)
        return _set_share(bin(acc).count("1"), bin(ref).count("1"), inside, unseen - inside,
                          self.A, self.B)

    def exclude(self, parts: tuple[int, ...]) -> None:
        self.refuted.add(parts)
        self._ev = None

    def text(self, parts: tuple[int, ...]) -> str:
        known = self.simple.get(parts)
        if known is not None and known[1] is not None:
            return known[1]
        if len(parts) == 13:
            return "true"
        if len(parts) >= 10:
            out = [str(r) for r in range(1, 14) if r not in parts]
            return f"card.rank not in {{{', '.join(out)}}}"
        if not parts:
            return "false"
        return f"card.rank in {{{', '.join(str(r) for r in parts)}}}"

    def english(self, parts: tuple[int, ...]) -> str:
        if len(parts) == 13:
            return "any card is accepted"
        span = _rank_span(parts)
        if span is not None:
            lo, hi, inside = span
            return (f"the card's rank is {'' if inside else 'not '}between "
                    f"{rank_word(lo)} and {rank_word(hi)}")
        return "the card is " + (_word_list([rank_word(r) for r in parts]) if parts
                                 else "never accepted")

    def accepts(self, parts: tuple[int, ...], line: Sequence[Card], card: Card) -> bool:
        if self.fixed >> card.index & 1:
            return self.accept
        return card.rank in parts

    def row(self, parts: tuple[int, ...], line: Sequence[Card]) -> int:
        hit = self._rows.get(parts)
        if hit is None:
            ranks = sum(_RANK_CARDS[r] for r in parts) & ~self.fixed
            hit = self._rows[parts] = ranks | self.fixed if self.accept else ranks
        return hit

    def live_singles(self) -> int:
        return 0

    def agreement(self, fit: BlockFit, rows: dict[int, int]) -> float:
        """A candidate that accepts ``fixed`` as the family does and one fixed set of
        ranks on the other cards, wherever it can go, agrees."""
        sets = set(rows.values())
        if len(sets) != 1:
            return 0.0
        row = sets.pop()
        if (row & self.fixed) != (self.fixed if self.accept else 0):
            return 0.0
        rest = row & ~self.fixed
        ranks = tuple(r for r in range(1, 14) if rest & _RANK_CARDS[r])
        if sum(_RANK_CARDS[r] & ~self.fixed for r in ranks) != rest:
            return 0.0
        return self.share(ranks)


class GatedRankSetFamily(RankSetFamily):
    """``X or card.rank in S`` / ``X and card.rank in S``: a colour or suit gate and a rank set.

    The cards of the gate ``X`` (``card is red``, ``card is not hearts``...)
    are always accepted (``or``) or always refused (``and``); the others
    follow any set ``S`` of ranks, Beta-Bernoulli as in
    :class:`RankSetFamily`, learnt from the cards outside the gate only.
    This is where "everything but the ace of hearts" (``card is not hearts
    or card.rank != 1``), "spades but not the seven" and "aces, kings or
    any red card" live. The sets that make the rule a plain colour or suit
    rule, ``true`` or ``false`` (``S`` empty or every rank) are left out:
    the enumerated space has them. As in :class:`RankSetFamily`, the ranks
    outside a middle range weigh more a priori ("black, or not 5 to 9"),
    and so, joined by "or", do the ranges ("red, or 6 to 9"): the space
    joins a range only by "and".
    """

    NAMED = ()

    def __init__(self, name: str, prior: float, kmax: int, eps: float, gate: int = 0,
                 accept: bool = True, gate_text: str = "", gate_english: str = "") -> None:
        #: "red, or a rank from 2 to 5": the ranges joined to a gate by "or"
        #: are no blocks of the space (the ones joined by "and" are)
        self.RANGE_MASS = self.OUT_OF_RANGE_MASS if accept else 0.0
        super().__init__(name, prior, kmax, eps)
        self.gate = gate
        self.accept = accept
        #: the cards whose verdict the gate fixes: X's cards for ``or``
        #: (accepted), the others for ``and`` (refused)
        self.fixed = gate if accept else FULL52 & ~gate
        self.gate_text = gate_text
        self.gate_english = gate_english

    def fresh(self) -> GatedRankSetFamily:
        """The same family before any observation."""
        return GatedRankSetFamily(self.name, self.prior, self.kmax, self.eps, self.gate,
                                  self.accept, self.gate_text, self.gate_english)

    def text(self, parts: tuple[int, ...]) -> str:
        known = self.simple.get(parts)
        if known is not None and known[1] is not None:
            ranks = known[1]
        else:
            ranks = _members_text("card.rank", parts, range(1, 14), len(parts) >= 10)
        return f"{self.gate_text} {'or' if self.accept else 'and'} {ranks}"

    def english(self, parts: tuple[int, ...]) -> str:
        ranks = super().english(parts)
        if self.accept:
            return f"either {self.gate_english}, or {ranks}"
        return f"{self.gate_english}, and {ranks}"


def _gates() -> list[tuple[str, str, int]]:
    """The colour and suit gates of :class:`GatedRankSetFamily`: (text, English, cards)."""
    out = [("card is red", "the card is red", card_mask(lambda c: c.red)),
           ("card is black", "the card is black", card_mask(lambda c: not c.red))]
    for s in SUITS:
        out.append((f"card is {s.noun}", f"the card is one of the {s.noun}",
                    card_mask(lambda c, s=s: c.suit == s)))  # type: ignore[misc]
        out.append((f"card is not {s.noun}", f"the card is not one of the {s.noun}",
                    card_mask(lambda c, s=s: c.suit != s)))  # type: ignore[misc]
    return out


#: The sets of ranks a side of a split on the card names by a word: (ranks,
#: rule text, English).
_SIDE_WORDS = ((tuple(range(2, 14, 2)), "card is even", "its rank is even"),
               (tuple(range(1, 14, 2)), "card is odd", "its rank is odd"),
               ((11, 12, 13), "card is face", "it is a face card"),
               (tuple(range(1, 11)), "card is numeral", "it is a number card"),
               ((2, 3, 5, 7, 11, 13), "card is prime", "its rank is prime"))


def _side_sets() -> dict[tuple[int, ...], tuple[float, str | None]]:
    """The sets of ranks people give one side of a split on the card, with their prior
    share and text: every rank or none (``true``, ``false``: the side's cards
    all accepted or all refused), the bounds, one rank, the words (even,
    odd, face, numeral, prime), the ranges and the ranks outside a middle
    range. The rest of a side's mass is any set (Beta-Bernoulli).

    >>> sets = _side_sets()
    >>> sets[tuple(range(1, 14))][1], sets[()][1], sets[(1, 2, 3, 4, 5, 6)][1]
    ('true', 'false', 'card.rank <= 6')
    >>> round(sum(w for w, _ in sets.values()), 2)  # (the rest: any set)
    0.69
    """
    out: dict[tuple[int, ...], tuple[float, str | None]] = {}
    out[tuple(range(1, 14))] = (0.12, "true")
    out[()] = (0.12, "false")
    bounds = [(tuple(range(1, k + 1)), f"card.rank <= {k}") for k in range(2, 13)]
    bounds += [(tuple(range(k, 14)), f"card.rank >= {k}") for k in range(2, 13)]
    for parts, text in bounds:
        out[parts] = (0.22 / len(bounds), text)
    for r in range(1, 14):
        out.setdefault((r,), (0.04 / 13, f"card.rank == {r}"))
        out.setdefault(tuple(x for x in range(1, 14) if x != r),
                       (0.04 / 13, f"card.rank != {r}"))
    for parts, text, _ in _SIDE_WORDS:
        out.setdefault(parts, (0.1 / len(_SIDE_WORDS), text))
    for parts, known in _simple_rank_sets((), 0.0, 0.03, 0.07).items():
        out.setdefault(parts, known)
    return out


@lru_cache(maxsize=1)
def _side_tables() -> _SetTables:
    """:func:`_rank_set_tables` for the sides of a split on the card (:func:`_side_sets`)."""
    return _set_tables(_side_sets())


def _word_list(words: Sequence[str], last: str = "or") -> str:
    """``a, b or c`` (``last``: the word before the last one).

    >>> _word_list(["ace"]), _word_list(["ace", "4", "king"], "and")
    ('ace', 'ace, 4 and king')
    """
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def _side_english(parts: tuple[int, ...]) -> str:
    """What one side of a :class:`SuitRanksFamily` rule accepts, in English.

    >>> _side_english((1, 2, 3, 4, 5, 6)), _side_english((10, 11, 12, 13))
    ('its rank is 6 or lower', 'its rank is 10 or higher')
    >>> _side_english(tuple(r for r in range(1, 14) if r not in (1, 11)))
    'any rank but ace and jack'
    >>> _side_english((1, 4, 9, 13)), _side_english(()), _side_english((6, 7, 8, 9))
    ('its rank is ace, 4, 9 or king', 'refused', 'its rank is between 6 and 9')
    >>> _side_english((7,)), _side_english((1, 2, 3, 4, 10, 11, 12, 13))
    ('its rank is 7', 'its rank is not between 5 and 9')
    """
    n = len(parts)
    if n == 13:
        return "accepted"
    if not n:
        return "refused"
    if parts == tuple(range(1, n + 1)):
        return f"its rank is {rank_word(n)} or lower"
    if parts == tuple(range(14 - n, 14)):
        return f"its rank is {rank_word(14 - n)} or higher"
    for ranks, _, said in _SIDE_WORDS:
        if parts == ranks:
            return said
    if n >= 10:
        return "any rank but " + _word_list([rank_word(r) for r in range(1, 14)
                                             if r not in parts], "and")
    span = _rank_span(parts)
    if span is not None:
        lo, hi, inside = span
        return f"its rank is {'' if inside else 'not '}between {rank_word(lo)} and {rank_word(hi)}"
    return "its rank is " + _word_list([rank_word(r) for r in parts])


class _SideRanks(RankSetFamily):
    """The set of ranks one side of a :class:`SuitRanksFamily` accepts: the
    rank-set family's Beta-Bernoulli on that side's cards only (the others are
    another side's), with the sets :func:`_side_sets` names."""

    PLAIN: frozenset[tuple[int, ...]] = frozenset()

    def __init__(self, mask: int, kmax: int, eps: float) -> None:
        super().__init__("side", 1.0, kmax, eps)
        self.mask = mask

    def _tables(self) -> _SetTables:
        return _side_tables()

    def fresh(self) -> _SideRanks:
        return _SideRanks(self.mask, self.kmax, self.eps)

    def observe(self, obs: Obs, single_verdicts: Sequence[int]) -> None:
        if self.mask >> obs.card.index & 1:
            super().observe(obs, single_verdicts)

    def law(self) -> list[tuple[int, float]]:
        """What the side accepts, on its cards: [(row, weight)], weights summing to 1."""
        rows: dict[int, float] = {}
        self.rows(0, (), rows, 1.0)
        out: dict[int, float] = {}
        for r, w in rows.items():
            r &= self.mask
            out[r] = out.get(r, 0.0) + w
        return sorted(out.items(), key=lambda x: (x[0].bit_count(), x[0]))


class SuitRanksFamily:
    """``case card.suit when ... then card.rank in S ...``: a set of ranks by suit.

    People give each colour or suit of the card its own ranks: "hearts up to
    six, spades from eight" (``case card.suit when spades then card.rank >=
    8 when hearts then card.rank <= 6 else false``), "no red queen and no
    black jack", "low spades, middle hearts, high diamonds and clubs", "any
    red card, black aces and kings". The sides (the colours, one suit and
    the others, or the four suits) are independent rank-set families, each
    learning from its own cards (:class:`_SideRanks`: the bounds, ranges,
    words, every rank or none weigh more a priori than any other set), so
    the evidence is their product and the rows their comonotone coupling
    (:func:`_couple`). A rule whose sides all take the same set is a plain
    rank rule, weighed elsewhere: never this family's to guess (its mass
    stays). A guess judged wrong takes its sets' combination out.
    """

    def __init__(self, name: str, prior: float, kmax: int, eps: float,
                 masks: Sequence[int], texts: Callable[[Sequence[str]], str],
                 englishes: Callable[[Sequence[str]], str]) -> None:
        self.name = name
        self.prior = prior
        self.kmax = kmax
        self.eps = eps
        self.masks = tuple(masks)
        self._texts = texts
        self._englishes = englishes
        self.side_of = [next(s for s, m in enumerate(self.masks) if m >> i & 1)
                        for i in range(NCARDS)]
        self._reset()

    def _reset(self) -> None:
        self.sides = [_SideRanks(m, self.kmax, self.eps) for m in self.masks]
        self.refuted: set[tuple[int, ...]] = set()
        self._ev: float | None = None
        #: each side's law (:meth:`_SideRanks.law`) and the probability that it
        #: accepts a card of each rank, until that side's next observation
        self._laws: list[tuple[list[tuple[int, float]], list[float]] | None] = \
            [None] * len(self.masks)

    def fresh(self) -> SuitRanksFamily:
        """The same family before any observation (sharing the unchanging parts)."""
        new = copy.copy(self)
        new._reset()
        return new

    @staticmethod
    def _split(parts: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The sides' sets of a rule of this family (written one after the other, 0 between)."""
        out: list[tuple[int, ...]] = [()]
        for r in parts:
            if r:
                out[-1] += (r,)
            else:
                out.append(())
        return out

    @staticmethod
    def _join(sets: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
        out: tuple[int, ...] = sets[0]
        for x in sets[1:]:
            out += (0, *x)
        return out

    def observe(self, obs: Obs, single_verdicts: Sequence[int]) -> None:
        side = self.side_of[obs.card.index]
        self.sides[side].observe(obs, single_verdicts)
        self._ev = None
        self._laws[side] = None

    def _raw(self, parts: tuple[int, ...]) -> float:
        w = 1.0
        for side, p in zip(self.sides, self._split(parts), strict=True):
            w *= side._raw(p)
        return w

    def evidence(self) -> float:
        if self._ev is None:
            total = 1.0
            for side in self.sides:
                total *= side.evidence()
            if self.refuted and total > 0:
                total = max(0.0, total - fsum(self._raw(p) for p in self.refuted))
            self._ev = total
        return self._ev

    def alive(self) -> bool:
        return self.evidence() > 0

    def _plain(self, parts: tuple[int, ...]) -> bool:
        return len(set(self._split(parts))) == 1

    def share(self, parts: tuple[int, ...], pos_next: int = 0) -> float:
        if parts in self.refuted or self._plain(parts):
            return 0.0
        z = self.evidence()
        return self._raw(parts) / z if z > 0 else 0.0

    def best(self, index: int) -> ExtraCandidate | None:
        return self.best_two(index)[0]

    def best_two(self, index: int) -> tuple[ExtraCandidate | None, ExtraCandidate | None]:
        """The family's likeliest rule and the next one (None for none): each
        side's two likeliest sets, combined. Two sets of one side often fit
        every play alike (black cards from 8 or from 9, and no black 8 played
        yet): listed side by side, the scientist sees the tie (see
        :meth:`eleusis.ai.inference.Belief.candidates`)."""
        if self.evidence() <= 0:
            return None, None
        combos: list[tuple[tuple[int, ...], ...]] = [()]
        for side in self.sides:
            tops = side.top()
            combos = [(*c, t) for c in combos for t in tops]
        ranked = sorted((self._join(c) for c in combos), key=self._raw, reverse=True)
        found = [ExtraCandidate(index, parts, self) for parts in ranked
                 if parts not in self.refuted and not self._plain(parts)][:2]
        if not found:
            return None, None
        return found[0], found[1] if len(found) > 1 else None

    def exclude(self, parts: tuple[int, ...]) -> None:
        self.refuted.add(parts)
        self._ev = None

    def _side_law(self, s: int) -> tuple[list[tuple[int, float]], list[float]]:
        known = self._laws[s]
        if known is None:
            law = self.sides[s].law()
            m = self.masks[s]
            probs = [fsum([w for r, w in law if r & _RANK_CARDS[k] & m]) for k in range(14)]
            known = self._laws[s] = (law, probs)
        return known

    def rows(self, pos: int, line: Sequence[Card], out: dict[int, float], scale: float) -> None:
        if self.alive():
            _couple([self._side_law(s)[0] for s in range(len(self.masks))], out, scale)

    def marginals(self, pos: int, line: Sequence[Card], cards: Sequence[int],
                  acc: list[float], scale: float) -> None:
        """Add to ``acc[t]`` ``scale`` times the probability that card ``cards[t]``
        is accepted: the weight of its side's rows that hold it (a side's rows
        hold all of its cards of a rank or none)."""
        if not self.alive():
            return
        for t, c in enumerate(cards):
            acc[t] += scale * self._side_law(self.side_of[c])[1][ALL_CARDS[c].rank]

    def text(self, parts: tuple[int, ...]) -> str:
        return self._texts([side.text(p) for side, p in zip(self.sides, self._split(parts),
                                                             strict=True)])

    def english(self, parts: tuple[int, ...]) -> str:
        return self._englishes([_side_english(p) for p in self._split(parts)])

    def accepts(self, parts: tuple[int, ...], line: Sequence[Card], card: Card) -> bool:
        return card.rank in self._split(parts)[self.side_of[card.index]]

    def row(self, parts: tuple[int, ...], line: Sequence[Card]) -> int:
        row = 0
        for m, p in zip(self.masks, self._split(parts), strict=True):
            for r in p:
                row |= _RANK_CARDS[r] & m
        return row

    def live_singles(self) -> int:
        return 0

    def agreement(self, fit: BlockFit, rows: dict[int, int]) -> float:
        """A candidate that accepts, wherever it can go, one set of ranks on each
        side's cards agrees (a plain rank rule is not this family's: 0)."""
        sets = set(rows.values())
        if len(sets) != 1:
            return 0.0
        row = sets.pop()
        parts = []
        for m in self.masks:
            mine = tuple(r for r in range(1, 14) if row & _RANK_CARDS[r] & m)
            if sum(_RANK_CARDS[r] & m for r in mine) != row & m:
                return 0.0
            parts.append(mine)
        return self.share(self._join(parts))


def _suit_sides() -> list[tuple[str, str, list[int], Callable[[Sequence[str]], str],
                                Callable[[Sequence[str]], str]]]:
    """The ways :class:`SuitRanksFamily` splits the cards: (kind, name, masks, text,
    English); the kind names the family's prior share (``ranks-by-...``)."""
    red = card_mask(lambda c: c.red)
    suits = [s.noun for s in SUITS]
    out = [("colour", "colour", [red, FULL52 & ~red], _ite_text("card is red"),
            _ite_english("the card is red"))]
    for s in SUITS:
        m = card_mask(lambda c, s=s: c.suit == s)  # type: ignore[misc]
        out.append(("suit", f"{s.noun} or not", [m, FULL52 & ~m],
                    _ite_text(f"card is {s.noun}"),
                    _ite_english(f"the card is a {s.noun[:-1]}")))
    out.append(("suits", "suit", [card_mask(lambda c, s=s: c.suit == s)  # type: ignore[misc]
                                  for s in SUITS], _case_of("card.suit", suits),
                _cases_english("a card of", suits, "any other card")))
    return out


class ValueSetFamily:
    """``f(card.rank, prev.rank) in S``: a set of values of a sum, distance, max, min, product.

    The rank-set family's Beta-Bernoulli over the values of one quantity of
    the two ranks (``card.rank + prev.rank`` from 2 to 26, ``abs(card.rank -
    prev.rank)``, ``wrap(card.rank - prev.rank)``, ``max``, ``min`` and the
    product): "the sum is not 13", "a jump of three or four", "the higher of
    the two is at least ten". Each value seen accepted or refused is in or out; unseen
    values are accepted with the predictive probability. A guess writes the
    set, the unseen values all in or all out as the predictive says (after a
    wrong guess, the unseen value or two whose flip loses least).

    People mostly write *simple* sets: a bound (``<= 9``, ``>= 18``), a range
    (``in 3..5``) or the values outside one (``not in 12..16``), one value
    in or out (``== 13``, ``!= 13``), a class modulo 2 to 5. Under the
    Beta-Bernoulli alone such a set is one of thousands agreeing with what
    was seen (every unseen value halves its share), so a bound that fits
    twenty plays stays unlikely. The prior is therefore a
    mixture: ``SIMPLE`` of the mass on the simple sets (uniform among them,
    mismatches counted per set as bit slices), the rest on the
    Beta-Bernoulli; a simple set's posterior sums both parts.

    ``lags`` says which earlier cards' ranks the quantity reads with the
    card's: the last one (1), the one two back (2: ``abs(card.rank -
    prev2.rank) <= 3``), or both (1, 2: ``card.rank + prev.rank + prev2.rank
    in 15..27``); while there are not enough cards, every card is accepted.
    """

    A = B = 1.0
    #: the prior share of the simple sets (bounds, ranges, one value, modulo)
    SIMPLE = 0.6

    def __init__(self, name: str, prior: float, kmax: int, eps: float, expr: str = "",
                 said: str = "", fn: Callable[..., int] | None = None,
                 values: tuple[int, ...] = (), lags: tuple[int, ...] = (1,)) -> None:
        self.name = name
        self.lags = lags
        self.prior = prior
        self.kmax = kmax
        self.eps = eps
        self.expr = expr
        self.said = said
        self.fn: Callable[..., int] = fn if fn is not None else (lambda r, p: r + p)
        self.values = values
        self.seen: dict[int, list[int]] = {}
        # the sets that accept every value or none are plain rules (true, false)
        self.excluded: set[tuple[int, ...]] = {(), tuple(values)}
        self._masks: dict[tuple[int, ...], dict[int, int]] = {}
        simple = _simple_sets(expr, values)
        #: the simple sets (values, text), and for each value the bit set of
        #: the simple sets holding it
        self.simple = [(members, text) for members, text, _ in simple]
        self.simple_index = {members: j for j, (members, _) in enumerate(self.simple)}
        self.holding = dict.fromkeys(values, 0)
        for j, (members, _) in enumerate(self.simple):
            for v in members:
                self.holding[v] |= 1 << j
        #: each simple set's share of the simple prior, and the sets of each
        #: share as a bit set (few distinct shares: counted a share at a time)
        total = sum(w for _, _, w in simple)
        self.simple_prior = [w / total for _, _, w in simple]
        tiers: dict[float, int] = {}
        for j, p in enumerate(self.simple_prior):
            tiers[p] = tiers.get(p, 0) | 1 << j
        self.tiers = [(mask, p) for p, mask in tiers.items()]
        self.all_simple = (1 << len(simple)) - 1
        self.pe = [eps ** m for m in range(kmax + 1)]
        self._simple_rows: dict[tuple[int, tuple[int, ...]], int] = {}
        self._reset_simple()

    def _reset_simple(self) -> None:
        # levels[m]: the simple sets with m mismatches so far
        self.levels = [self.all_simple] + [0] * self.kmax
        self._forget()

    def _forget(self) -> None:
        """Drop what was worked out from the observations (they changed)."""
        self._st: tuple[set[int], set[int], int] | None = None
        self._ev: float | None = None
        self._fe: float | None = None
        self._unseen: list[int] | None = None

    def fresh(self) -> ValueSetFamily:
        """The same family before any observation (sharing the value masks)."""
        new = copy.copy(self)
        new.seen = {}
        new.excluded = {(), tuple(self.values)}
        new._reset_simple()
        return new

    def _context(self, backs: Sequence[Card | None]) -> tuple[int, ...] | None:
        """The ranks the quantity reads among ``backs`` (last card first), or None."""
        out = []
        for lag in self.lags:
            c = backs[lag - 1] if lag <= len(backs) else None
            if c is None:
                return None
            out.append(c.rank)
        return tuple(out)

    def _line_context(self, line: Sequence[Card]) -> tuple[int, ...] | None:
        return self._context(_backs(line))

    def _by_value(self, ctx: tuple[int, ...]) -> dict[int, int]:
        """The cards giving each value after the ranks ``ctx`` (52-bit masks)."""
        hit = self._masks.get(ctx)
        if hit is None:
            hit = {}
            for r in range(1, 14):
                v = self.fn(r, *ctx)
                hit[v] = hit.get(v, 0) | _RANK_CARDS[r]
            self._masks[ctx] = hit
        return hit

    def _state(self) -> tuple[set[int], set[int], int]:
        """(values seen accepted, values seen refused, mismatches), remembered until
        the next observation (a guess weighs hundreds of sets against one state)."""
        if self._st is None:
            self._st = self._work_state()
        return self._st

    def _work_state(self) -> tuple[set[int], set[int], int]:
        acc: set[int] = set()
        ref: set[int] = set()
        wrong = 0
        for v, (no, yes) in self.seen.items():
            if yes >= no and yes:
                acc.add(v)
                wrong += no
            elif no:
                ref.add(v)
                wrong += yes
        return acc, ref, wrong

    def observe(self, obs: Obs, single_verdicts: Sequence[int]) -> None:
        ctx = self._context((obs.prev, obs.prev2, obs.prev3))
        if ctx is None:
            return
        v = self.fn(obs.card.rank, *ctx)
        self.seen.setdefault(v, [0, 0])[1 if obs.accepted else 0] += 1
        self._forget()
        _shift_levels(self.levels,
                      self.holding[v] ^ self.all_simple if obs.accepted else self.holding[v])

    def _free_evidence(self) -> float:
        """The Beta-Bernoulli part's evidence (any set of values), remembered as
        :meth:`_state` is."""
        if self._fe is None:
            self._fe = self._work_free_evidence()
        return self._fe

    def _unseen_values(self) -> list[int]:
        """The values not seen yet, in the family's order (remembered as :meth:`_state` is)."""
        if self._unseen is None:
            acc, ref, _ = self._state()
            self._unseen = [v for v in self.values if v not in acc and v not in ref]
        return self._unseen

    def _work_free_evidence(self) -> float:
        acc, ref, wrong = self._state()
        if wrong > self.kmax:
            return 0.0
        return exp(_log_beta(self.A + len(acc), self.B + len(ref))
                   - _log_beta(self.A, self.B)) * self.eps ** wrong

    def _simple_weight(self, j: int) -> float:
        """The prior-weighted likelihood of simple set ``j`` (0 once ruled out)."""
        for m, mask in enumerate(self.levels):
            if mask >> j & 1:
                return self.SIMPLE * self.pe[m] * self.simple_prior[j]
        return 0.0

    def _simple_evidence(self) -> float:
        return self.SIMPLE * sum(self.pe[m] * p * bin(mask & tier).count("1")
                                 for m, mask in enumerate(self.levels) if mask
                                 for tier, p in self.tiers)

    def evidence(self) -> float:
        if self._ev is None:
            self._ev = (1.0 - self.SIMPLE) * self._free_evidence() + self._simple_evidence()
        return self._ev

    def alive(self) -> bool:
        return self.evidence() > 0

    def _p_unseen(self, acc: set[int], ref: set[int]) -> float:
        return (self.A + len(acc)) / (self.A + self.B + len(acc) + len(ref))

    def rows(self, pos: int, line: Sequence[Card], out: dict[int, float], scale: float) -> None:
        total = self.evidence()
        if total <= 0:
            return
        ctx = self._line_context(line)
        if ctx is None:
            out[FULL52] = out.get(FULL52, 0.0) + scale
            return
        free = scale * (1.0 - self.SIMPLE) * self._free_evidence() / total
        if free > 0:
            acc, ref, _ = self._state()
            known = unseen = 0
            for v, cards in self._by_value(ctx).items():
                if v in acc:
                    known |= cards
                elif v not in ref:
                    unseen |= cards
            p = self._p_unseen(acc, ref) if unseen else 0.0
            out[known] = out.get(known, 0.0) + free * (1.0 - p)
            if p:
                out[known | unseen] = out.get(known | unseen, 0.0) + free * p
        unit = scale * self.SIMPLE / total
        prior = self.simple_prior
        for m, mask in enumerate(self.levels):
            w = unit * self.pe[m]
            while mask:
                low = mask & -mask
                j = low.bit_length() - 1
                mask ^= low
                row = self._simple_row(j, ctx)
                out[row] = out.get(row, 0.0) + w * prior[j]

    def marginals(self, pos: int, line: Sequence[Card], cards: Sequence[int],
                  acc: list[float], scale: float) -> None:
        """Add to ``acc[t]`` ``scale`` times the probability that card ``cards[t]``
        is accepted: the weight :meth:`rows` puts on the rows holding it.

        A card gives one value after the line's ranks: the free part accepts
        it if the value was seen accepted, or, unseen, with the predictive
        probability; the simple sets holding the value (``holding``) count
        their prior a share at a time (``tiers``), one bit count each.
        """
        total = self.evidence()
        if total <= 0:
            return
        ctx = self._line_context(line)
        if ctx is None:
            for t in range(len(cards)):
                acc[t] += scale
            return
        free = scale * (1.0 - self.SIMPLE) * self._free_evidence() / total
        acc_v, ref_v, _ = self._state()
        p_unseen = self._p_unseen(acc_v, ref_v)
        unit = scale * self.SIMPLE / total
        levels = [(unit * self.pe[m], mask) for m, mask in enumerate(self.levels) if mask]
        of_value: dict[int, float] = {}
        for t, c in enumerate(cards):
            v = self.fn(ALL_CARDS[c].rank, *ctx)
            share = of_value.get(v)
            if share is None:
                share = 0.0
                if free > 0:
                    share = free if v in acc_v else 0.0 if v in ref_v else free * p_unseen
                held = self.holding.get(v, 0)
                if held:
                    share += fsum([w * p * (mask & held & tier).bit_count()
                                   for w, mask in levels for tier, p in self.tiers])
                of_value[v] = share
            acc[t] += share

    def _simple_row(self, j: int, ctx: tuple[int, ...]) -> int:
        """The cards simple set ``j`` accepts after the ranks ``ctx``."""
        row = self._simple_rows.get((j, ctx))
        if row is None:
            members = self.simple[j][0]
            row = self._simple_rows[(j, ctx)] = sum(
                cards for v, cards in self._by_value(ctx).items() if v in members)
        return row

    def _likeliest(self) -> tuple[int, ...]:
        """The likeliest free set: the values seen accepted, and the unseen ones
        too when the predictive puts them in."""
        acc, ref, _ = self._state()
        take = self._p_unseen(acc, ref) >= 0.5
        return tuple(v for v in self.values if v in acc or (take and v not in ref))

    def _guess(self) -> tuple[int, ...] | None:
        return _best_set(self._likeliest(), self._unseen_values(), self.excluded,
                         self._flip_share())

    def _flip_share(self) -> Callable[[tuple[int, ...]], float]:
        """:meth:`share` for the sets :func:`_best_set` weighs, remembered by how many
        unseen values a set takes.

        Those sets differ from the guess only in values not seen yet, so each
        holds every value seen accepted and none seen refused, and its free
        part depends on that count alone; a simple set adds its own weight and
        is asked in full. The decision's second idea of a value family (its
        best set set aside) weighs hundreds of such sets (every flip of one or
        two unseen values) against a handful of counts: the same numbers,
        without the hundreds of calls.
        """
        unseen = set(self._unseen_values())
        by_inside: dict[int, float] = {}
        simple = self.simple_index

        def share(parts: tuple[int, ...]) -> float:
            if parts in simple:
                return self.share(parts)
            inside = len(unseen.intersection(parts))
            got = by_inside.get(inside)
            if got is None:
                got = by_inside[inside] = self.share(parts)
            return got
        return share

    def best(self, index: int) -> ExtraCandidate | None:
        if self.evidence() <= 0:
            return None
        # the simple sets with fewest mismatches weigh most (an excluded one has
        # left the levels); among them, the likeliest a priori, then the last
        # in the sets' order
        level = next((mask for mask in self.levels if mask), 0)
        top = max(((self.simple_prior[j], members) for j, (members, _) in enumerate(self.simple)
                   if level >> j & 1), default=(0.0, None))[1]
        guess = self._guess()
        if guess is None or (top is not None and self.share(top) >= self.share(guess)):
            return None if top is None else ExtraCandidate(index, top, self)
        return ExtraCandidate(index, guess, self)

    def best_two(self, index: int) -> tuple[ExtraCandidate | None, ExtraCandidate | None]:
        """The likeliest set and the one :meth:`best` would offer were it judged
        wrong (None for none): sums in {4, 9, 16, 25} or in {4, 9, 16} while
        no 25 could be made are a tie the scientist sees (see
        :meth:`eleusis.ai.inference.Belief.candidates`)."""
        top = self.best(index)
        if top is None:
            return None, None
        levels, ev = self.levels, self._ev
        self.exclude(top.parts)
        try:
            second = self.best(index)
        finally:  # (as it was: the first is not judged wrong)
            self.excluded.discard(top.parts)
            self.levels, self._ev = levels, ev
        return top, second

    def _free_share(self, parts: tuple[int, ...]) -> float:
        """The Beta-Bernoulli posterior of the set ``parts`` (given that part)."""
        acc, ref, wrong = self._state()
        if wrong > self.kmax:
            return 0.0
        want = set(parts)
        if not acc.issubset(want) or not ref.isdisjoint(want):
            return 0.0
        unseen = self._unseen_values()
        inside = len(want.intersection(unseen))  # (the unseen values are distinct)
        return _set_share(len(acc), len(ref), inside, len(unseen) - inside, self.A, self.B)

    def share(self, parts: tuple[int, ...], pos_next: int = 0) -> float:
        total = self.evidence()
        if total <= 0 or parts in self.excluded:
            return 0.0
        w = (1.0 - self.SIMPLE) * self._free_evidence() * self._free_share(parts)
        j = self.simple_index.get(parts)
        if j is not None:
            w += self._simple_weight(j)
        return w / total

    def exclude(self, parts: tuple[int, ...]) -> None:
        self.excluded.add(parts)
        j = self.simple_index.get(parts)
        if j is not None:
            self.levels = [mask & ~(1 << j) for mask in self.levels]
            self._ev = None

    def text(self, parts: tuple[int, ...]) -> str:
        j = self.simple_index.get(parts)
        if j is not None:
            return self.simple[j][1]
        return _members_text(self.expr, parts, self.values,
                             2 * len(parts) > len(self.values))

    def english(self, parts: tuple[int, ...]) -> str:
        return f"{self.said} is one of {', '.join(map(str, parts))}"

    def accepts(self, parts: tuple[int, ...], line: Sequence[Card], card: Card) -> bool:
        ctx = self._line_context(line)
        return ctx is None or self.fn(card.rank, *ctx) in parts

    def row(self, parts: tuple[int, ...], line: Sequence[Card]) -> int:
        ctx = self._line_context(line)
        if ctx is None:
            return FULL52
        return sum(cards for v, cards in self._by_value(ctx).items() if v in parts)

    def live_singles(self) -> int:
        return 0

    def agreement(self, fit: BlockFit, rows: dict[int, int]) -> float:
        """Not counted (an underestimate of a plain candidate's probability)."""
        return 0.0


_MOST_RANGED = 40
#: the prior weight of a simple set people write less often (see :func:`_simple_sets`)
_RARE_SET = 0.25
#: the prior weight of the values outside a middle range ("the sum is not 12
#: to 16"): written less than a bound, and differing from one only on values
#: rarely seen (a bound on the higher of two ranks against "not 3 to 9", which
#: also takes two aces or two twos), so that a bound fitting sixty plays still
#: leads
_OUT_OF_RANGE = 0.1


def _simple_sets(expr: str, values: Sequence[int]) -> list[tuple[tuple[int, ...], str, float]]:
    """The sets of ``values`` people write of a quantity, with their rule text.

    Bounds (``<= k``, ``>= k``), ranges (``in a..b``) and the values outside
    a middle range (``not in a..b``, two values or more left on each side,
    weighed :data:`_OUT_OF_RANGE`), when there are at most
    :data:`_MOST_RANGED` values (a product's 60 values would have 1,800
    ranges), one value (``== k``, ``!= k``), a class modulo 2 to 10 (``% m
    == r``, ``% m != 0``, ``% m <= k``: "the last digit of the sum is below
    5"), the primes and the others; each set once (the first text found),
    never empty or whole; and the values that are squares, Fibonacci numbers
    or powers of two ("the two ranks add up to a square"). The third item is
    the set's prior weight: 1, but :data:`_RARE_SET` for the classes people
    write less (``% m <= k``, modulo 6 and more, the famous numbers), so
    that "the higher rank is at least 10" is not shared with "the higher
    rank leaves at most 3 when divided by 10" while no pair of low cards has
    been seen.

    >>> sets = {members: text for members, text, _ in
    ...         _simple_sets("card.rank + prev.rank", range(2, 27))}
    >>> sets[tuple(range(2, 10))]
    'card.rank + prev.rank <= 9'
    >>> sets[tuple(v for v in range(2, 27) if v != 13)]
    'card.rank + prev.rank != 13'
    >>> sets[tuple(v for v in range(2, 27) if v % 5 == 0)]
    '(card.rank + prev.rank) % 5 == 0'
    >>> sets[(2, 3, 5, 7, 11, 13, 17, 19, 23)]
    '(card.rank + prev.rank) is prime'
    >>> sets[tuple(v for v in range(2, 27) if not 12 <= v <= 16)]
    'card.rank + prev.rank not in 12..16'
    >>> sets[(4, 9, 16, 25)]
    'card.rank + prev.rank in {4, 9, 16, 25}'
    """
    vals = tuple(values)
    lo, hi = vals[0], vals[-1]
    found: dict[tuple[int, ...], tuple[str, float]] = {}

    def add(members: Iterable[int], text: str, weight: float = 1.0) -> None:
        inside = set(members)
        key = tuple(v for v in vals if v in inside)
        if key and len(key) < len(vals):
            found.setdefault(key, (text, weight))

    for k in vals:
        add([k], f"{expr} == {k}")
        add([v for v in vals if v != k], f"{expr} != {k}")
        add(range(lo, k + 1), f"{expr} <= {k}")
        add(range(k, hi + 1), f"{expr} >= {k}")
    if len(vals) <= _MOST_RANGED:
        for a in vals:
            for b in vals:
                if a < b:
                    add(range(a, b + 1), f"{expr} in {a}..{b}")
        # the middles left out ("not in 12..16"), at least two values kept on
        # each side: with one, it is a bound and one odd value ("the higher
        # rank is not 2 to 9": 10 or more, or two aces), which no one means
        for a in vals[2:]:
            for b in vals[:-2]:
                if a < b:
                    add([v for v in vals if not a <= v <= b], f"{expr} not in {a}..{b}",
                        _OUT_OF_RANGE)
    for m in range(2, 11):
        w = 1.0 if m <= 5 else _RARE_SET
        for r in range(m):
            add([v for v in vals if v % m == r], f"({expr}) % {m} == {r}", w)
        add([v for v in vals if v % m != 0], f"({expr}) % {m} != 0", w)
        for k in range(1, m - 1):
            add([v for v in vals if v % m <= k], f"({expr}) % {m} <= {k}", _RARE_SET)
    add([v for v in vals if _is_prime(v)], f"({expr}) is prime")
    add([v for v in vals if not _is_prime(v)], f"({expr}) is not prime")
    for famous in _FAMOUS_NUMBERS:  # written as the set of the values they reach
        members = [v for v in vals if v in famous]
        add(members, f"{expr} in {{{', '.join(map(str, members))}}}", _RARE_SET)
    return [(key, text, w) for key, (text, w) in found.items()]


#: The numbers people name that the value sets weigh (see :func:`_simple_sets`).
_FAMOUS_NUMBERS = (_SQUARES, _FIBONACCI, _POWERS_OF_TWO)


def _is_prime(n: int) -> bool:
    """Whether ``n`` is prime (the scientists read nothing of :mod:`eleusis.rules`)."""
    return n >= 2 and all(n % d for d in range(2, int(n ** 0.5) + 1))


def _value_sets() -> list[tuple[str, str, Callable[[int, int], int], tuple[int, ...]]]:
    """The quantities of :class:`ValueSetFamily`: (expression, English, f(r, p), values)."""
    return [
        ("card.rank + prev.rank", "the sum of the two ranks", lambda r, p: r + p,
         tuple(range(2, 27))),
        ("abs(card.rank - prev.rank)", "the distance between the two ranks",
         lambda r, p: abs(r - p), tuple(range(13))),
        ("wrap(card.rank - prev.rank)", "how far the rank climbs, counted round",
         lambda r, p: (r - p - 1) % 13 + 1, tuple(range(1, 14))),
        ("max(card.rank, prev.rank)", "the higher of the two ranks", max, tuple(range(1, 14))),
        ("min(card.rank, prev.rank)", "the lower of the two ranks", min, tuple(range(1, 14))),
        ("card.rank * prev.rank", "the product of the two ranks", lambda r, p: r * p,
         tuple(sorted({r * p for r in range(1, 14) for p in range(1, 14)}))),
        ("gcd(card.rank, prev.rank)", "the greatest common divisor of the two ranks", gcd,
         tuple(range(1, 14))),
        ("card.rank % prev.rank", "the remainder of the card's rank divided by the last",
         lambda r, p: r % p, tuple(range(13))),
    ]


def _prev_side(cond: Block) -> Callable[[int, Card | None], int]:
    rows = cond.rows
    flags = [0 if (rows >> (NCARDS * i)) & 1 else 1 for i in range(NCARDS)]
    return lambda pos, prev: 0 if prev is None else flags[prev.index]


def _pos_side(k: int) -> Callable[[int, Card | None], int]:
    return lambda pos, prev: pos % k


def _pos_mod_side(k: int, r: int) -> Callable[[int, Card | None], int]:
    return lambda pos, prev: 0 if pos % k == r else 1


def _runs(k: int, n: int) -> list[tuple[int, ...]]:
    """The runs of ``n`` places in a row of a period ``k`` (as remainders of ``pos %
    k``), each split once ("two up, two down": ``pos % 4 in {1, 2}``; its other
    side, ``{3, 0}``, is the same split).

    >>> _runs(4, 2)
    [(0, 1), (1, 2)]
    >>> _runs(5, 2)
    [(0, 1), (1, 2), (2, 3), (3, 4), (0, 4)]
    """
    out: list[tuple[int, ...]] = []
    for start in range(k):
        run = tuple(sorted((start + j) % k for j in range(n)))
        rest = tuple(r for r in range(k) if r not in run)
        if run not in out and (len(rest) != n or rest not in out):
            out.append(run)
    return out


def _pos_first_side(n: int) -> Callable[[int, Card | None], int]:
    return lambda pos, prev: 0 if pos <= n else 1


def _prev_mod_side(m: int) -> Callable[[int, Card | None], int]:
    return lambda pos, prev: 0 if prev is None else prev.rank % m


def _case_order(p: Sequence[str]) -> tuple[list[int], int]:
    """The cases said one by one, and the one whose words the others share most
    (said once, after ``else``: the last of the most common)."""
    common = max(range(len(p)), key=lambda r: (p.count(p[r]), r))
    return [r for r in range(len(p)) if p[r] != p[common]], common


def _case_of(subject: str, labels: Sequence[str]) -> Callable[[Sequence[str]], str]:
    """``case subject when labels[r] then p[r] ... else ...``, the cases that
    share the commonest side folded into ``else`` (an idea reads as short as
    it can, and two cases saying ``false`` are not listed twice).

    >>> case = _case_of("card.suit", ["spades", "hearts", "diamonds", "clubs"])
    >>> case(["card.rank <= 4", "card.rank in 5..8", "false", "false"])
    'case card.suit when spades then card.rank <= 4 when hearts then card.rank in 5..8 else false'
    """
    def text(p: Sequence[str]) -> str:
        said, common = _case_order(p)
        if not said:
            return p[common]
        whens = " ".join(f"when {labels[r]} then {p[r]}" for r in said)
        return f"case {subject} {whens} else {p[common]}"
    return text


def _bands_of(subject: str, cuts: Sequence[int]) -> Callable[[Sequence[str]], str]:
    """``if subject <= cuts[0] then p[0] elif subject <= cuts[1] then p[1] ... else p[-1]``."""
    def text(p: Sequence[str]) -> str:
        arms = " elif ".join(f"{subject} <= {c} then {p[r]}" for r, c in enumerate(cuts))
        return f"if {arms} else {p[-1]}"
    return text


def _bands_english(cuts: Sequence[int]) -> Callable[[Sequence[str]], str]:
    """"after a last card of 4 or lower, ...; of 5 to 9, ...; of 10 or higher, ..."."""
    said = [f"after a last card of {rank_word(cuts[0])} or lower"]
    said += [f"of {rank_word(lo + 1)} to {rank_word(hi)}" for lo, hi in pairwise(cuts)]
    said.append(f"of {rank_word(cuts[-1] + 1)} or higher")
    return lambda p: "; ".join(f"{s}, {x}" for s, x in zip(said, p, strict=True))


def _prev_band_side(cuts: Sequence[int]) -> Callable[[int, Card | None], int]:
    """The band of the last card's rank (the first band at position 1, with no last card)."""
    return lambda pos, prev: 0 if prev is None else bisect.bisect_left(cuts, prev.rank)


def _cases_english(what: str, labels: Sequence[str], other: str,
                   sep: str = ":") -> Callable[[Sequence[str]], str]:
    """The English of :func:`_case_of`: ``what labels[r]: p[r]; ...; other: ...``
    (``sep`` after each case: a colon, or a comma where the case reads as a
    clause, "after spades, a red card").

    >>> _cases_english("after", ["spades", "hearts"], "after any other suit", ",")(
    ...     ["a red card", "any card", "any card"])
    'after spades, a red card; after any other suit, any card'
    """
    def english(p: Sequence[str]) -> str:
        said, common = _case_order(p)
        return "; ".join([f"{what} {labels[r]}{sep} {p[r]}" for r in said]
                         + [f"{other}{sep} {p[common]}" if said else p[common]])
    return english


def _pos_mod_split(k: int, r: int) -> tuple[str, Callable[[int, Card | None], int],
                                              Callable[[Sequence[str]], str],
                                              Callable[[Sequence[str]], str]]:
    """A split on ``pos % k == r``: its condition, side, text and English."""
    cond = f"pos % {k} == {r}"
    return (cond, _pos_mod_side(k, r), _ite_text(cond),
            _ite_english(f"the position leaves {r} when divided by {k}"))


def _prev_suit_group(group: Sequence[int]) -> Callable[[int, Card | None], int]:
    """The side of a case on the last card's suit whose suits share sides: the last
    side where there is no last card."""
    g = tuple(group)
    return lambda pos, prev: g[-1] if prev is None else g[prev.suit.order]


def _regrouped(say: Callable[[Sequence[str]], str],
               group: Sequence[int]) -> Callable[[Sequence[str]], str]:
    """``say`` for a case whose cases share sides: case ``r`` says ``p[group[r]]``.

    >>> _regrouped(_case_of("prev.suit", ["spades", "hearts", "diamonds", "clubs"]),
    ...            [0, 1, 2, 2])(["card is red", "card is black", "true"])
    'case prev.suit when spades then card is red when hearts then card is black else true'
    """
    return lambda p: say([p[g] for g in group])


def _ite_text(cond: str) -> Callable[[Sequence[str]], str]:
    return lambda p: f"if {cond} then {p[0]} else {p[1]}"


def _ite_english(cond: str) -> Callable[[Sequence[str]], str]:
    return lambda p: f"if {cond}, {p[0]}; otherwise {p[1]}"


def _case_english(k: int) -> Callable[[Sequence[str]], str]:
    return _cases_english("at positions", [f"{r} mod {k}" for r in range(k)],
                          "at the other positions", ",")


#: Prior mass of each kind of family, as a share of all these families' mass.
EXTRA_SHARES = {"split-prev": 0.40, "pos-mod": 0.13, "pos-first": 0.04, "pos3": 0.03,
                "pos4": 0.05, "pos5": 0.01, "lag": 0.25, "ranks": 0.24, "split-card": 0.15,
                "case-prev": 0.05, "case-prev-3": 0.03, "compound-split": 0.15, "pos-rank": 0.05,
                "split-back": 0.10, "ranks-gated": 0.12,
                "lag-mixed": 0.10, "three-ranks": 0.08, "pos-rank-gated": 0.05,
                "lag-mixed-3": 0.05, "split-rel": 0.05,
                "value-sets-2": 0.05, "value-sets-3": 0.03,
                "three-ranks-gated": 0.05,
                "value-sets": 0.25, "no-run": 0.05, "case-prev-rank": 0.04,
                "pos-prime": 0.01, "exceptions": 0.20, "prev-bands": 0.03,
                "split-card-2": 0.04, "split-back-2": 0.03,
                "pos-sequence": 0.01, "sums-mixed": 0.06,
                "lag-pairs": 0.015, "pos-rank-mixed": 0.015,
                "pos-runs": 0.02, "values-joined": 0.02, "rank-ratios": 0.01,
                "lag-joins": 0.01, "lag-joins-mixed": 0.03, "split-suit": 0.06,
                "ranks-by-colour": 0.03, "ranks-by-suit": 0.02, "ranks-by-suits": 0.02}


def _card_splits() -> list[tuple[str, int, Callable[[Card], int], Callable[[Sequence[str]], str],
                                 Callable[[Sequence[str]], str]]]:
    """The splits on the judged card: (name, sides, side of a card, text, English)."""
    suits = [s.noun for s in SUITS]

    return [
        ("card is red", 2, lambda c: 0 if c.red else 1, _ite_text("card is red"),
         _ite_english("the card is red")),
        ("card is face", 2, lambda c: 0 if c.face else 1, _ite_text("card is face"),
         _ite_english("the card is a face card")),
        ("card is even", 2, lambda c: 0 if c.even else 1, _ite_text("card is even"),
         _ite_english("the card's rank is even")),
        ("card.rank >= 8", 2, lambda c: 0 if c.rank >= 8 else 1, _ite_text("card.rank >= 8"),
         _ite_english("the card's rank is at least eight")),
        ("case card.suit", 4, lambda c: c.suit.order, _case_of("card.suit", suits),
         _cases_english("a card of", suits, "any other card")),
        ("case card.rank % 3", 3, lambda c: c.rank % 3,
         _case_of("card.rank % 3", ["0", "1", "2"]),
         _cases_english("a rank leaving, divided by three,", ["0", "1", "2"],
                        "any other rank")),
    ]


def _relation_splits() -> list[tuple[str, str, Callable[[Card, Card], bool]]]:
    """Conditions relating the card to the last one, for ``if ... then ... else``:
    (text, English, test(card, last card)). "If the card is higher than the
    last one, a change of parity, else the same colour"."""
    return [
        ("card.rank > prev.rank", "the card is higher than the last card",
         lambda c, p: c.rank > p.rank),
        ("card.rank >= prev.rank", "the card is at least as high as the last card",
         lambda c, p: c.rank >= p.rank),
        ("card.suit == prev.suit", "the card has the last card's suit",
         lambda c, p: c.suit == p.suit),
        ("card.color == prev.color", "the card has the last card's colour",
         lambda c, p: c.red == p.red),
    ]


def split_conditions() -> list[Block]:
    """The conditions on the previous card a split family may use.

    Besides the natural ones and the bounds, the king and the ace: a rule
    that climbs or falls needs a way on from the top or the bottom ("higher
    than the last card, anything after a king": ``if prev.rank == 13 then
    true else card.rank > prev.rank``), and people write it so.
    """
    out = prev_conditions()
    for r in (5, 6, 8, 9, 10):
        out.append(prev_block(f"prev.rank >= {r}",
                              f"the last card's rank is at least {rank_word(r)}",
                              _prev_rank_at_least(r)))
    for r in (13, 1):
        out.append(prev_block(f"prev.rank == {r}", f"the last card is {_a_rank(r)}",
                              _prev_rank_is(r)))
    return out


def _a_rank(r: int) -> str:
    """The rank with its article.

    >>> _a_rank(13), _a_rank(1), _a_rank(8), _a_rank(10)
    ('a king', 'an ace', 'an 8', 'a 10')
    """
    word = rank_word(r)
    return f"{'an' if word[0] in 'aeiou8' else 'a'} {word}"


def _prev_rank_is(r: int) -> Callable[[Card], bool]:
    return lambda p: p.rank == r


def _position_sequences() -> list[tuple[str, frozenset[int]]]:
    """Sets of positions people split on besides the primes: (English, positions)."""
    return [("a Fibonacci number", _FIBONACCI),
            ("a square", frozenset(k * k for k in range(1, 13)))]


def _prev_rank_at_least(r: int) -> Callable[[Card], bool]:
    return lambda p: p.rank >= r


#: The prior weight of ``true`` (any card) on the side of a split on the last
#: card being a king or an ace: the escape of a rule that climbs or falls
#: (see :func:`split_conditions`).
ESCAPE_TRUE = 0.5

#: The conditions whose split's first side is an escape.
_ESCAPES = frozenset({"prev.rank == 13", "prev.rank == 1"})

#: The prior share of the wider escapes (see :func:`escape_conditions`), each.
WIDE_ESCAPE_SHARE = 0.02


def escape_conditions(conds: Sequence[Block]) -> list[tuple[Block, int]]:
    """The wider ways on of a rule that climbs or falls: (condition, room).

    "Higher, or anything after a queen or a king", "lower, and after an
    ace or a 2 anything", "higher, unless the last card was a face card"
    (``prev is face or card.rank > prev.rank``): the escape reaches a rank
    or two before the end, so the climb it frees still allows a card or
    two there (``room``: at most that many of the 52 cards after each last
    card it escapes from; a king and an ace allow none, see
    :data:`_ESCAPES`). Each is a split of its own, apart from the split on
    the same condition whose sides are any blocks ("if the last card is a
    face card, the same suit"), which keeps its weights; ``conds`` (the
    splits on the last card, see :func:`split_conditions`) lends it its
    condition.
    """
    face = next(c for c in conds if c.text == "prev is face")
    return [(prev_block("prev.rank >= 12", "the last card is a queen or a king",
                        _prev_rank_at_least(12)), 4),
            (prev_block("prev.rank <= 2", "the last card is an ace or a 2",
                        lambda p: p.rank <= 2), 4),
            (face, 8)]


#: The end of the name of a split's twin whose blocks read the card two back
#: (``split card is red, two back``): where every block of a rule reads only
#: the card, the two write the same rule (see :meth:`eleusis.ai.inference.Belief.right_parts`).
TWIN = ", two back"

_TEMPLATES: dict[tuple[int, int, float], tuple[Space, list[Family]]] = {}


#: The families whose ``marginals`` give a few cards' probabilities without
#: their rows (a prediction for a hand asks only that: see
#: :meth:`eleusis.ai.inference.Belief.predict`); they are most of the extra
#: families' work in a decision's first turns.
MARGINAL_FAMILIES = (MixedLagFamily, CardSplitFamily, ValueSetFamily, SuitRanksFamily)
MarginalFamily = MixedLagFamily | CardSplitFamily | ValueSetFamily | SuitRanksFamily


def make_families(space: Space, kmax: int, eps: float) -> list[Family]:
    """Every extra family over ``space``, each before any observation.

    Built once per (space, tolerance, eps) and copied (a few milliseconds
    the first time, well under one after).
    """
    for _ in families_steps(space, kmax, eps):
        pass
    return [fam.fresh() for fam in _TEMPLATES[(id(space), kmax, eps)][1]]


def families_steps(space: Space, kmax: int, eps: float) -> Iterator[None]:
    """Build (and cache) the families of :func:`make_families`, pausing after each.

    A page prepares them in slices (:meth:`eleusis.ai.Scientist.prepare_steps`);
    at once when cached.
    """
    key = (id(space), kmax, eps)
    hit = _TEMPLATES.get(key)
    if hit is not None and hit[0] is space:
        return
    out: list[Family] = []
    for fam in _make_families(space, kmax, eps, _conditions()):
        out.append(fam)
        yield None
    _TEMPLATES[key] = (space, out)


def _make_families(space: Space, kmax: int, eps: float,
                   conds: Sequence[Block]) -> Iterator[Family]:
    """The families of :func:`make_families` (``conds``: the splits on the last card)."""
    weights = space.weight[1] if len(space.weight) > 1 else ()
    per = EXTRA_SHARES["split-prev"] / max(1, len(conds))
    for c in conds:
        yield SplitFamily(f"split {c.text}", per, space, weights, 2, _prev_side(c),
                          _ite_text(c.text), _ite_english(c.english), kmax, eps,
                          escape=0 if c.text in _ESCAPES else None)
    compound = [(f"split {c.text}", _prev_side(c), _ite_text(c.text), _ite_english(c.english),
                 True) for c in conds]
    compound += [(*_pos_mod_split(3, r), False) for r in range(3)]
    for c_name, c_side, c_text, c_english, by_prev in compound:
        yield CompoundSplitFamily(
            f"compound {c_name}", EXTRA_SHARES["compound-split"] / len(compound),
            SplitFamily(c_name, 0.0, space, weights, 2, c_side, c_text, c_english, kmax, eps,
                        by_prev=by_prev))
    for c, room in escape_conditions(conds):
        yield SplitFamily(f"escape {c.text}", WIDE_ESCAPE_SHARE, space, weights, 2,
                          _prev_side(c), _ite_text(c.text), _ite_english(c.english), kmax, eps,
                          escape=0, room=room)
    mods = [(k, r) for k in (3, 4, 5) for r in range(k)]
    for k, r in mods:
        cond, m_side, m_text, m_english = _pos_mod_split(k, r)
        yield SplitFamily(cond, EXTRA_SHARES["pos-mod"] / len(mods), space, weights, 2,
                          m_side, m_text, m_english, kmax, eps, by_prev=False)
    runs = [(k, rs) for k, n in ((4, 2), (5, 2), (6, 3)) for rs in _runs(k, n)]
    for k, rs in runs:
        cond = f"pos % {k} in {{{', '.join(map(str, rs))}}}"
        yield SplitFamily(cond, EXTRA_SHARES["pos-runs"] / len(runs), space, weights, 2,
                          lambda pos, prev, k=k, rs=rs: 0 if pos % k in rs else 1,  # type: ignore[misc]
                          _ite_text(cond),
                          _ite_english(f"the position leaves {' or '.join(map(str, rs))} "
                                       f"when divided by {k}"),
                          kmax, eps, by_prev=False)
    firsts = (3, 4, 5, 6, 8, 10)
    for n in firsts:
        cond = f"pos <= {n}"
        yield SplitFamily(cond, EXTRA_SHARES["pos-first"] / len(firsts), space, weights,
                          2, _pos_first_side(n), _ite_text(cond),
                          _ite_english(f"the card is one of the first {n}"),
                          kmax, eps, by_prev=False, first=n)
    for k, key in ((3, "pos3"), (4, "pos4"), (5, "pos5")):
        yield SplitFamily(f"pos % {k}", EXTRA_SHARES[key], space, weights, k,
                          _pos_side(k), _case_of(f"pos % {k}", [str(r) for r in range(k)]),
                          _case_english(k), kmax, eps,
                          by_prev=False)
    suits = [s.noun for s in SUITS]
    yield SplitFamily("case prev.suit", EXTRA_SHARES["case-prev"], space, weights, 4,
                      lambda pos, prev: 0 if prev is None else prev.suit.order,
                      _case_of("prev.suit", suits),
                      _cases_english("after", suits, "after any other suit", ","),
                      kmax, eps)
    # two suits each with their own side, the other two sharing one ("after a
    # spade, lower; after a heart, higher; after any other suit, the other
    # colour"): the four-sided case would have the last two sides found apart
    pairs = list(combinations(range(len(SUITS)), 2))
    for x, y in pairs:
        group = [2] * len(SUITS)
        group[x], group[y] = 0, 1
        yield SplitFamily(f"case prev.suit, {suits[x]} and {suits[y]}",
                          EXTRA_SHARES["case-prev-3"] / len(pairs), space, weights, 3,
                          _prev_suit_group(group),
                          _regrouped(_case_of("prev.suit", suits), group),
                          _regrouped(_cases_english("after", suits, "after any other suit", ","),
                                     group),
                          kmax, eps)
    for m in (3, 4):
        yield SplitFamily(f"case prev.rank % {m}", EXTRA_SHARES["case-prev-rank"] / 2, space,
                          weights, m, _prev_mod_side(m),
                          _case_of(f"prev.rank % {m}", [str(r) for r in range(m)]),
                          _cases_english(f"after a rank leaving, divided by {m},",
                                         [str(r) for r in range(m)], "after any other rank"),
                          kmax, eps)
    bands = ((4, 8), (4, 9), (5, 9), (5, 10), (6, 10), (7, 10))
    for cuts in bands:
        yield SplitFamily(f"bands of prev.rank {cuts}", EXTRA_SHARES["prev-bands"] / len(bands),
                          space, weights, len(cuts) + 1, _prev_band_side(cuts),
                          _bands_of("prev.rank", cuts), _bands_english(cuts), kmax, eps)
    yield SplitFamily("pos is prime", EXTRA_SHARES["pos-prime"], space, weights, 2,
                      lambda pos, prev: 0 if _is_prime(pos) else 1, _ite_text("pos is prime"),
                      _ite_english("the position is a prime number"), kmax, eps,
                      by_prev=False)
    seqs = _position_sequences()
    for word, places in seqs:
        cond = f"pos in {{{', '.join(map(str, sorted(places)))}}}"
        yield SplitFamily(f"pos is {word}", EXTRA_SHARES["pos-sequence"] / len(seqs), space,
                          weights, 2, lambda pos, prev, ps=places: 0 if pos in ps else 1,  # type: ignore[misc]
                          _ite_text(cond), _ite_english(f"the position is {word}"), kmax, eps,
                          by_prev=False)
    backs = _back_conditions()
    for cond, said, back_test in backs:
        side2 = _sides_of(back_test)
        yield BackSplitFamily(f"split {cond}", EXTRA_SHARES["split-back"] / len(backs), space,
                              weights, side2, _ite_text(cond), _ite_english(said), kmax, eps)
        yield BackSplitFamily(f"split {cond}{TWIN}", EXTRA_SHARES["split-back-2"] / len(backs),
                              space, weights, side2, _ite_text(cond), _ite_english(said), kmax,
                              eps, back=2)
    rels = _relation_splits()
    for cond, said, test in rels:
        yield CardSplitFamily(f"split {cond}", EXTRA_SHARES["split-rel"] / len(rels), space,
                              weights, 2, None, _ite_text(cond), _ite_english(said), kmax, eps,
                              rel_side=lambda c, p, t=test: 0 if t(c, p) else 1)  # type: ignore[misc]
    cards = _card_splits()
    for name, k, side, text, english in cards:
        split = CardSplitFamily(f"split {name}", EXTRA_SHARES["split-card"] / len(cards), space,
                                weights, k, side, text, english, kmax, eps)
        yield split
        yield split.two_back(f"split {name}{TWIN}", EXTRA_SHARES["split-card-2"] / len(cards))
    for suit in SUITS:
        cond = f"card is {suit.noun}"
        yield CardSplitFamily(f"split {cond}", EXTRA_SHARES["split-suit"] / len(SUITS), space,
                              weights, 2, lambda c, s=suit: 0 if c.suit == s else 1,  # type: ignore[misc]
                              _ite_text(cond), _ite_english(f"the card is a {suit.noun[:-1]}"),
                              kmax, eps)
    yield ExceptionFamily("exceptions", EXTRA_SHARES["exceptions"], space, weights)
    yield LagFamily("lag", EXTRA_SHARES["lag"], space, weights, kmax, eps)
    yield MixedLagFamily("lag mixed", EXTRA_SHARES["lag-mixed"], space, weights, kmax, eps)
    yield MixedLagFamily("lag mixed 3", EXTRA_SHARES["lag-mixed-3"], space, weights, kmax, eps,
                         LagRelations(space, 3))
    # (each relation family is also the source of its gated family: one list,
    # one cache of rows)
    pos_rank = PosRankFamily("pos-rank", EXTRA_SHARES["pos-rank"], kmax, eps)
    three_ranks = ThreeRankFamily("three ranks", EXTRA_SHARES["three-ranks"], kmax, eps)
    yield MixedLagFamily("pos-rank gated", EXTRA_SHARES["pos-rank-gated"], space, weights,
                         kmax, eps, pos_rank, front_kind="card")
    yield MixedLagFamily("pos-rank mixed", EXTRA_SHARES["pos-rank-mixed"], space, weights,
                         kmax, eps, pos_rank, front_kind="rel")
    yield MixedLagFamily("three ranks gated", EXTRA_SHARES["three-ranks-gated"], space,
                         weights, kmax, eps, three_ranks, front_kind="card")
    yield LagPairs("lag pairs", EXTRA_SHARES["lag-pairs"], kmax, eps, space)
    # (alone, only the joins of the last three cards: the others are the lag family's)
    yield LagJoins("lag joins", EXTRA_SHARES["lag-joins"], kmax, eps, ((True, 3),))
    yield MixedLagFamily("lag joins mixed", EXTRA_SHARES["lag-joins-mixed"], space, weights,
                         kmax, eps, LagJoins("joins", 0.0, 0, 0.0), front_kind="card")
    yield MixedLagFamily("sums mixed", EXTRA_SHARES["sums-mixed"], space, weights, kmax, eps,
                         SumRelations(), hows=("or",))
    yield MixedLagFamily("values joined", EXTRA_SHARES["values-joined"], space, weights, kmax,
                         eps, RankPairRelations("values", 0.0, 0, 0.0), hows=("or",))
    yield RankPairRelations("rank ratios", EXTRA_SHARES["rank-ratios"], kmax, eps, "ratio")
    yield RankSetFamily("ranks", EXTRA_SHARES["ranks"], kmax, eps)
    gates = _gates()
    for gate, said, mask in gates:
        for accept in (True, False):
            yield GatedRankSetFamily(f"ranks {'or' if accept else 'and'} {gate}",
                                     EXTRA_SHARES["ranks-gated"] / (2 * len(gates)), kmax, eps,
                                     mask, accept, gate, said)
    sides = _suit_sides()
    for kind, name, masks, text, english in sides:
        n = sum(1 for k, *_ in sides if k == kind)
        yield SuitRanksFamily(f"ranks by {name}", EXTRA_SHARES[f"ranks-by-{kind}"] / n, kmax,
                              eps, masks, text, english)
    yield pos_rank
    yield three_ranks
    yield NoRunFamily("no three in a row", EXTRA_SHARES["no-run"], kmax, eps)
    vsets = _value_sets()
    for expr, said, fn, values in vsets:
        yield ValueSetFamily(f"values {expr}", EXTRA_SHARES["value-sets"] / len(vsets), kmax,
                             eps, expr, said, fn, values)
    back = [v for v in vsets if v[0].startswith(("card.rank +", "abs(", "max(", "min("))]
    for expr, said, fn, values in back:
        expr2 = expr.replace("prev.rank", "prev2.rank")
        yield ValueSetFamily(f"values {expr2}", EXTRA_SHARES["value-sets-2"] / len(back), kmax,
                             eps, expr2, said.replace("two ranks", "rank and the one two back"),
                             fn, values, lags=(2,))
    s3 = "card.rank + prev.rank + prev2.rank"
    yield ValueSetFamily(f"values {s3}", EXTRA_SHARES["value-sets-3"], kmax, eps, s3,
                         "the sum of the card's rank and the last two", lambda r, p, q: r + p + q,
                         tuple(range(3, 40)), lags=(1, 2))


def _sides_of(test: Callable[[Card, Card | None], bool | None]
              ) -> Callable[[Card, Card | None], int | None]:
    """The side of an ``if ... then ... else`` on the last two cards: 0 where ``test``
    holds, 1 where it fails, None where it cannot be read."""
    def side(p: Card, q: Card | None) -> int | None:
        v = test(p, q)
        return None if v is None else 0 if v else 1
    return side


_CONDS: list[list[Block]] = []


def _conditions() -> list[Block]:
    """:func:`split_conditions`, built once per process."""
    if not _CONDS:
        _CONDS.append(split_conditions())
    return _CONDS[0]
