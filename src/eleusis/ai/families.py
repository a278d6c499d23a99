"""Families of rules beyond the enumerated space, each held in a compact form.

The enumerated space (:mod:`eleusis.ai.space`) holds rules of the card and
the previous card. People also write rules that

* split on a condition and apply a different single block on each side
  (``if prev.rank >= 8 then card.rank <= 5 else card is red``: any block on
  either side), or on the position with a period of 4 or 5
  (``case pos % 4 ...``): :class:`SplitFamily`;
* read two or three cards back (``card.suit != prev.suit and card.suit !=
  prev2.suit``, "not three of a color in a row", ``card.suit != prev3.suit``):
  :class:`LagFamily`;
* accept an unusual set of ranks (``card.rank in {1, 3, 6, 10}``):
  :class:`RankSetFamily`.

None of them is enumerated. A split family factorises like the periodic
rules of :mod:`eleusis.ai.inference`: the observations on one side of the
split say nothing about the block on the other side, so it keeps one
mismatch counter per (side, single block) and its evidence is a product of
per-side sums: ``k`` sides of ~220 blocks cover ``220 ** k`` rules. A lag
family is a short explicit list (one relation applied to two or three
earlier cards). The rank-set family is a Beta-Bernoulli model over the 13
ranks (each rank in or out of the set), whose evidence and predictions are
closed forms.

Each family gives its *evidence* (the marginal likelihood of the verdicts
seen, relative to its prior: comparable with the enumerated families'), its
predictions (what it accepts next, as 52-bit rows with weights), its best
rule (as an :class:`ExtraCandidate`, a rule-language text) and that rule's
share of the family's posterior. They read only observations.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from math import exp, lgamma
from typing import Protocol

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
from eleusis.cards import ALL_CARDS, Card


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
    def alive(self) -> bool: ...
    def agreement(self, bad: Sequence[int], rows: dict[int, int]) -> float: ...
    def live_singles(self) -> set[int]: ...
    def fresh(self) -> Family: ...


@dataclass(frozen=True, slots=True)
class ExtraCandidate:
    """The best rule of a family (``family``: its index among the belief's families)."""

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


class SplitFamily:
    """``if C then A else B`` (or ``case pos % k``) with any single blocks A, B, ...

    ``side(pos, prev)`` says which side of the split a context is on
    (0..``k``-1). One mismatch counter per (side, block); the evidence is the
    product over sides of the posterior mass left on that side.
    """

    def __init__(self, name: str, prior: float, space: Space, weights: Sequence[float],
                 k: int, side: Callable[[int, Card | None], int],
                 texts: Callable[[Sequence[str]], str],
                 englishes: Callable[[Sequence[str]], str], kmax: int, eps: float,
                 by_prev: bool = True, first: int = 0) -> None:
        self.name = name
        self.prior = prior
        self.space = space
        n1 = space.level_end[1]
        total = sum(weights[:n1])
        self.w = [x / total for x in weights[:n1]]
        self.k = k
        self.side = side
        #: a split on ``pos <= first``: side 0 never comes back once the
        #: mainline is past ``first`` (its block no longer matters to a guess)
        self.first = first
        #: for a split on the last card: the 52-bit set of last cards on each side
        self.side_prevs: list[int] | None = None
        if by_prev:
            self.side_prevs = [sum(1 << i for i, c in enumerate(ALL_CARDS) if side(2, c) == s)
                               for s in range(k)]
        self._texts = texts
        self._englishes = englishes
        self.k1 = kmax + 1
        self.pe = [eps ** m for m in range(kmax + 1)] + [0.0]
        self._live0 = [a for a in range(n1) if self.w[a] > 0]
        self.mm = [[0] * n1 for _ in range(k)]
        #: the blocks each side still allows (mismatches below ``k1``), in order
        self.live = [list(self._live0) for _ in range(k)]
        self.z = [1.0] * k
        self.excluded: set[tuple[int, ...]] = set()

    def fresh(self) -> SplitFamily:
        """The same family before any observation (sharing the unchanging parts)."""
        new = copy.copy(self)
        new.mm = [[0] * len(self.w) for _ in range(self.k)]
        new.live = [list(self._live0) for _ in range(self.k)]
        new.z = [1.0] * self.k
        new.excluded = set()
        return new

    def observe(self, obs: Obs, single_verdicts: Sequence[int]) -> None:
        s = self.side(obs.pos, obs.prev)
        want = 1 if obs.accepted else 0
        mm = self.mm[s]
        k1 = self.k1
        changed = False
        for a in self.live[s]:
            if single_verdicts[a] != want:
                mm[a] += 1
                changed = True
        if changed:
            self.live[s] = live = [a for a in self.live[s] if mm[a] < k1]
            pe, w = self.pe, self.w
            self.z[s] = sum(w[a] * pe[mm[a]] for a in live)

    def evidence(self) -> float:
        e = 1.0
        for z in self.z:
            e *= z
        return e

    def alive(self) -> bool:
        return all(z > 0 for z in self.z)

    def rows(self, pos: int, line: Sequence[Card], out: dict[int, float], scale: float) -> None:
        prev = line[-1] if line else None
        s = self.side(pos, prev)
        z = self.z[s]
        if z <= 0:
            return
        p = _row(prev)
        srows = single_rows(self.space)
        pe, w = self.pe, self.w
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
        pe, w = self.pe, self.w
        mm = self.mm[s]
        f = scale / z
        for a in self.live[s]:
            acc[a] += f * w[a] * pe[mm[a]]

    def live_singles(self) -> set[int]:
        """The single blocks some side still allows."""
        return {a for live in self.live for a in live}

    def agreement(self, bad: Sequence[int], rows: dict[int, int]) -> float:
        """The family's posterior share of rules agreeing with a candidate.

        ``bad[a]``: the set of reachable last cards after which single block
        ``a`` judges differently from the candidate. For a split on the last
        card, a side's block must agree after that side's last cards; for a
        position split (whose sides are not tracked), after all of them.
        """
        share = 1.0
        pe, w = self.pe, self.w
        for s in range(self.k):
            z = self.z[s]
            if z <= 0:
                return 0.0
            where = self.side_prevs[s] if self.side_prevs is not None else -1
            mm = self.mm[s]
            share *= sum(w[a] * pe[mm[a]] for a in self.live[s] if not bad[a] & where) / z
        return share

    def _ranked(self, s: int) -> list[int]:
        pe, w, mm = self.pe, self.w, self.mm[s]
        return sorted(self.live[s], key=lambda a: (-w[a] * pe[mm[a]], a))

    def best(self, index: int) -> ExtraCandidate | None:
        if not self.alive():
            return None
        tops = [self._ranked(s)[:3] for s in range(self.k)]
        parts = tuple(t[0] for t in tops)
        if parts in self.excluded:
            # the next best: change the side where the runner-up loses least
            options = []
            for s in range(self.k):
                for alt in tops[s][1:]:
                    p = (*parts[:s], alt, *parts[s + 1:])
                    if p not in self.excluded:
                        options.append((-self.share(p), p))
            if not options:
                return None
            parts = min(options)[1]
        if len(set(parts)) == 1:
            return None  # the same block everywhere: a plain rule, weighed there
        return ExtraCandidate(index, parts, self)

    def share(self, parts: tuple[int, ...], pos_next: int = 0) -> float:
        if parts in self.excluded:
            return 0.0
        q = 1.0
        for s, a in enumerate(parts):
            if s == 0 and self.first and pos_next > self.first:
                continue  # a side that never comes back: any block will do
            m = self.mm[s][a]
            q *= self.w[a] * self.pe[m] / self.z[s] if self.z[s] > 0 else 0.0
        return q

    def exclude(self, parts: tuple[int, ...]) -> None:
        self.excluded.add(parts)

    def text(self, parts: tuple[int, ...]) -> str:
        return self._texts([_paren(self.space.text(a)) for a in parts])

    def english(self, parts: tuple[int, ...]) -> str:
        return self._englishes([self.space.english(a) for a in parts])

    def accepts(self, parts: tuple[int, ...], line: Sequence[Card], card: Card) -> bool:
        prev = line[-1] if line else None
        a = parts[self.side(len(line) + 1, prev)]
        return bool((self.space.bits[a] >> (NCARDS * _row(prev) + card.index)) & 1)


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

    def live_singles(self) -> set[int]:
        """The relations some hypothesis still alive is made of."""
        return {self.hyps[h][0] for h, m in enumerate(self.mm) if m < self.k1}

    def agreement(self, bad: Sequence[int], rows: dict[int, int]) -> float:
        """Counted when the candidate accepts one fixed set wherever it can go.

        Then a relation that accepts exactly that set after every reachable
        card agrees, read against one, two or three cards back (the cards
        already on the mainline are not checked: a slight overestimate for
        the next two verdicts). Otherwise not counted (an underestimate).
        """
        if self.z <= 0 or len(set(rows.values())) != 1:
            return 0.0
        return sum(self.w[h] * self.pe[m] for h, m in enumerate(self.mm)
                   if m < self.k1 and not bad[self.hyps[h][0]]) / self.z


_RANK_CARDS = [card_mask(lambda c, r=r: c.rank == r) for r in range(14)]  # type: ignore[misc]


def _log_beta(a: float, b: float) -> float:
    return lgamma(a) + lgamma(b) - lgamma(a + b)


class RankSetFamily:
    """``card.rank in S`` for any set ``S`` of ranks: each rank in or out, Beta-Bernoulli.

    With ``k`` ranks seen accepted and ``m`` seen refused (and none both),
    the evidence is ``B(a + k, b + m) / B(a, b)`` and an unseen rank is
    accepted with probability ``(a + k) / (a + b + k + m)``. A rank seen
    both accepted and refused rules the family out (or, tolerating
    mistakes, costs ``eps`` each time).
    """

    A = B = 1.0

    def __init__(self, name: str, prior: float, kmax: int, eps: float) -> None:
        self.name = name
        self.prior = prior
        self.kmax = kmax
        self.eps = eps
        self.seen = [[0, 0] for _ in range(14)]  # [refused, accepted] counts by rank

    def fresh(self) -> RankSetFamily:
        """The same family before any observation."""
        return RankSetFamily(self.name, self.prior, self.kmax, self.eps)

    def _state(self) -> tuple[int, int, int, int]:
        """(accepted ranks mask, refused ranks mask, mismatches, unseen ranks count)."""
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
        self.seen[obs.card.rank][1 if obs.accepted else 0] += 1

    def evidence(self) -> float:
        acc, ref, wrong, _ = self._state()
        if wrong > self.kmax:
            return 0.0
        k, m = bin(acc).count("1"), bin(ref).count("1")
        return exp(_log_beta(self.A + k, self.B + m) - _log_beta(self.A, self.B)) \
            * self.eps ** wrong

    def alive(self) -> bool:
        return self.evidence() > 0

    def _p_unseen(self) -> float:
        acc, ref, _, _ = self._state()
        k, m = bin(acc).count("1"), bin(ref).count("1")
        return (self.A + k) / (self.A + self.B + k + m)

    def rows(self, pos: int, line: Sequence[Card], out: dict[int, float], scale: float) -> None:
        if self.evidence() <= 0:
            return
        acc, ref, _, _ = self._state()
        known = unseen = 0
        for r in range(1, 14):
            if acc >> r & 1:
                known |= _RANK_CARDS[r]
            elif not ref >> r & 1:
                unseen |= _RANK_CARDS[r]
        p = self._p_unseen() if unseen else 0.0
        out[known] = out.get(known, 0.0) + scale * (1.0 - p)
        if p:
            out[known | unseen] = out.get(known | unseen, 0.0) + scale * p

    def _guess(self) -> tuple[int, ...]:
        acc, ref, _, _ = self._state()
        take_unseen = self._p_unseen() >= 0.5
        return tuple(r for r in range(1, 14)
                     if acc >> r & 1 or (take_unseen and not ref >> r & 1))

    def best(self, index: int) -> ExtraCandidate | None:
        if self.evidence() <= 0:
            return None
        return ExtraCandidate(index, self._guess(), self)

    def share(self, parts: tuple[int, ...], pos_next: int = 0) -> float:
        acc, ref, wrong, unseen = self._state()
        if wrong > self.kmax:
            return 0.0
        want = sum(1 << r for r in parts)
        if (acc & ~want) or (ref & want):
            return 0.0
        k, m = bin(acc).count("1"), bin(ref).count("1")
        q = 1.0
        # each unseen rank as the guess says, in turn (the predictive updates)
        inside = sum(1 for r in range(1, 14)
                     if want >> r & 1 and not acc >> r & 1)
        outside = unseen - inside
        for j in range(inside):
            q *= (self.A + k + j) / (self.A + self.B + k + m + j)
        for j in range(outside):
            q *= (self.B + m + j) / (self.A + self.B + k + inside + m + j)
        return q

    def exclude(self, parts: tuple[int, ...]) -> None:
        pass  # a wrong set guess is mostly an unseen rank guessed wrong: nothing to drop

    def text(self, parts: tuple[int, ...]) -> str:
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
        return "the card is " + ", ".join(rank_word(r) for r in parts[:-1]) + \
            (f" or {rank_word(parts[-1])}" if len(parts) > 1 else rank_word(parts[0]) if parts
             else "never accepted")

    def accepts(self, parts: tuple[int, ...], line: Sequence[Card], card: Card) -> bool:
        return card.rank in parts

    def live_singles(self) -> set[int]:
        return set()

    def agreement(self, bad: Sequence[int], rows: dict[int, int]) -> float:
        """A candidate that accepts one fixed set of ranks wherever it can go agrees."""
        sets = set(rows.values())
        if len(sets) != 1:
            return 0.0
        row = sets.pop()
        ranks = tuple(r for r in range(1, 14) if row & _RANK_CARDS[r])
        if sum(_RANK_CARDS[r] for r in ranks) != row:
            return 0.0
        return self.share(ranks)


def _prev_side(cond: Block) -> Callable[[int, Card | None], int]:
    rows = cond.rows
    flags = [0 if (rows >> (NCARDS * i)) & 1 else 1 for i in range(NCARDS)]
    return lambda pos, prev: 0 if prev is None else flags[prev.index]


def _pos_side(k: int) -> Callable[[int, Card | None], int]:
    return lambda pos, prev: pos % k


def _pos_mod_side(k: int, r: int) -> Callable[[int, Card | None], int]:
    return lambda pos, prev: 0 if pos % k == r else 1


def _pos_first_side(n: int) -> Callable[[int, Card | None], int]:
    return lambda pos, prev: 0 if pos <= n else 1


def _ite_text(cond: str) -> Callable[[Sequence[str]], str]:
    return lambda p: f"if {cond} then {p[0]} else {p[1]}"


def _ite_english(cond: str) -> Callable[[Sequence[str]], str]:
    return lambda p: f"if {cond}, {p[0]}; otherwise {p[1]}"


def _case_text(k: int) -> Callable[[Sequence[str]], str]:
    def text(p: Sequence[str]) -> str:
        whens = " ".join(f"when {r} then {p[r]}" for r in range(k - 1))
        return f"case pos % {k} {whens} else {p[k - 1]}"
    return text


def _case_english(k: int) -> Callable[[Sequence[str]], str]:
    return lambda p: "; ".join(f"at positions {r} mod {k}, {p[r]}" for r in range(k))


#: Prior mass of each kind of family, as a share of all these families' mass.
EXTRA_SHARES = {"split-prev": 0.40, "pos-mod": 0.13, "pos-first": 0.04, "pos4": 0.05,
                "pos5": 0.01, "lag": 0.25, "ranks": 0.12}


def split_conditions() -> list[Block]:
    """The conditions on the previous card a split family may use."""
    out = prev_conditions()
    for r in (5, 6, 8, 9, 10):
        out.append(prev_block(f"prev.rank >= {r}",
                              f"the last card's rank is at least {rank_word(r)}",
                              _prev_rank_at_least(r)))
    return out


def _prev_rank_at_least(r: int) -> Callable[[Card], bool]:
    return lambda p: p.rank >= r


_TEMPLATES: dict[tuple[int, int, float], tuple[Space, list[Family]]] = {}


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
                          _ite_text(c.text), _ite_english(c.english), kmax, eps)
    mods = [(k, r) for k in (3, 4, 5) for r in range(k)]
    for k, r in mods:
        cond = f"pos % {k} == {r}"
        yield SplitFamily(cond, EXTRA_SHARES["pos-mod"] / len(mods), space, weights, 2,
                          _pos_mod_side(k, r), _ite_text(cond),
                          _ite_english(f"the position leaves {r} when divided by {k}"),
                          kmax, eps, by_prev=False)
    firsts = (3, 4, 5, 6)
    for n in firsts:
        cond = f"pos <= {n}"
        yield SplitFamily(cond, EXTRA_SHARES["pos-first"] / len(firsts), space, weights,
                          2, _pos_first_side(n), _ite_text(cond),
                          _ite_english(f"the card is one of the first {n}"),
                          kmax, eps, by_prev=False, first=n)
    for k, key in ((4, "pos4"), (5, "pos5")):
        yield SplitFamily(f"pos % {k}", EXTRA_SHARES[key], space, weights, k,
                          _pos_side(k), _case_text(k), _case_english(k), kmax, eps,
                          by_prev=False)
    yield LagFamily("lag", EXTRA_SHARES["lag"], space, weights, kmax, eps)
    yield RankSetFamily("ranks", EXTRA_SHARES["ranks"], kmax, eps)


_CONDS: list[list[Block]] = []


def _conditions() -> list[Block]:
    """:func:`split_conditions`, built once per process."""
    if not _CONDS:
        _CONDS.append(split_conditions())
    return _CONDS[0]
