"""Bayesian inference over the hypothesis space, from what a player sees.

Three families of rules share one hypothesis space (:mod:`eleusis.ai.space`):

* *plain*: one hypothesis ``h`` judges every position;
* *pos2*: ``if pos % 2 == 0 then h0 else h1``;
* *pos3*: ``case pos % 3 when 0 then h0 when 1 then h1 else h2``.

The posterior of a position-periodic family factorises: the observations at
even positions say nothing about ``h1``. So each hypothesis keeps a mismatch
count per *channel* (all observations; even / odd positions; positions
0 / 1 / 2 mod 3) and a family's evidence is a product of per-channel sums.
That covers ~50,000² pairs and ~50,000³ triples at the cost of six counters.

Likelihood: a consistent observation weighs 1, an inconsistent one ``eps``,
so a dealer's mistake lowers a hypothesis instead of emptying the space.
A hypothesis is dropped once it has more than ``max_mismatches`` in every
channel (its weight is then below ``eps ** (max_mismatches + 1)``); with no
noise the secret rule, when it lies in the space, is never dropped.

All of this reads only observations: (position, previous card, card, verdict).
"""

from __future__ import annotations

import bisect
import math
import operator
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import compress
from math import fsum
from typing import TypeVar, cast

from eleusis.ai.blocks import FULL52, NCARDS, NOPREV
from eleusis.ai.families import (
    MARGINAL_FAMILIES,
    TWIN,
    BlockFit,
    CardSplitFamily,
    CompoundSplitFamily,
    ExtraCandidate,
    Family,
    MarginalFamily,
    RankSetFamily,
    SplitFamily,
    SuitRanksFamily,
    ValueSetFamily,
    block_context,
    make_families,
)
from eleusis.ai.space import FULL_BITS, Space, columns, single_rows
from eleusis.cards import Card

#: Channel 0: every observation; 1, 2: pos even / odd; 3, 4, 5: pos % 3 == 0, 1, 2.
#: Channel 6: every observation, judged against the card two back (``prev2``).
NCHANNELS = 7
#: Which channels each family multiplies.
FAMILY_CHANNELS: tuple[tuple[int, ...], ...] = ((0,), (1, 2), (3, 4, 5), (6,))
FAMILY_NAMES = ("plain", "pos2", "pos3", "lag2")
#: The prior mass of each size level (single blocks, pairs, if/then/else).
LEVEL_MASS: tuple[float, float, float] = (0.5, 0.3, 0.2)
LAG2 = 3
#: The plain rule ``true`` ("any card") weighs this share of its block's
#: weight. A dealer does not make "anything goes" the secret rule, but it is
#: what every rule with a few rare exceptions looks like until one is played
#: ("everything but the ace of hearts", "no red kings"): at its block's full
#: weight, as likely a priori as ``card is red``, it held 0.53 of the
#: posterior after 26 accepted cards and was guessed, wrong. (The prior is
#: shared with the periodic families' branches, "any card at even places",
#: which weigh a tenth too; as a side of the extra families, ``pos <= 6 or
#: card is not hearts``, it keeps its weight.)
TRUE_WEIGHT = 0.1
#: Hypotheses handled between two pauses of a sliced computation (about a
#: millisecond of CPython work in the slowest loops).
CHUNK = 2048
#: A query scanning at most this many hypotheses may run inside a decision
#: attempt that still has time (see :class:`Deferred`); larger ones are deferred.
DEFER_SIZE = 3000

#: a split family holding this much of the posterior lists its second idea
#: beside its best (see :meth:`Belief.candidates`)
RUNNER_UP_FLOOR = 0.05
#: ... and when it holds at least this share of what its best holds (a tie)
RUNNER_UP_SHARE = 0.5
#: the families that offer their second idea (``best_two``)
RUNNER_UP_FAMILIES = (SplitFamily, CardSplitFamily, SuitRanksFamily, RankSetFamily,
                      ValueSetFamily, CompoundSplitFamily)

T = TypeVar("T")
Steps = Generator[None, None, T]


class Deferred(BaseException):
    """A belief query too long for the time slice left, raised instead of computed.

    While :attr:`Belief.defer_after` is set (a decision running in time slices,
    see :meth:`eleusis.ai.scientist.Scientist.think`), a query whose answer is
    not memoised yet and which would scan many hypotheses, or which comes
    after the slice's deadline, raises this. ``work`` computes the answer in
    chunks (yielding None between them) and memoises it; the decision is then
    tried again from its start and finds the answer at once. Answers are pure
    functions of the posterior, so the retried decision is exactly the one
    computed in one go. (A ``BaseException``, like ``GeneratorExit``: a signal
    that no ``except Exception`` on the way may swallow.)
    """

    def __init__(self, work: Iterator[None]) -> None:
        super().__init__("a belief query deferred to the next time slices")
        self.work = work


def finish(steps: Steps[T]) -> T:
    """Run a sliced computation to its end in one go; its result."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return cast(T, stop.value)


def channels_of(pos: int) -> tuple[int, int, int]:
    """The channels an observation at ``pos`` counts in."""
    return (0, 1 + pos % 2, 3 + pos % 3)


@dataclass(frozen=True, slots=True)
class Observation:
    """One judged card: at ``pos`` (1-based) after ``prev`` (None at pos 1)."""

    pos: int
    prev: Card | None
    card: Card
    accepted: bool
    prev2: Card | None = None
    prev3: Card | None = None

    @property
    def bit(self) -> int:
        """The context bit of this observation."""
        row = NOPREV if self.prev is None else self.prev.index
        return row * NCARDS + self.card.index

    @property
    def bit2(self) -> int:
        """The context bit of this observation for a rule that reads ``prev2``."""
        row = NOPREV if self.prev2 is None else self.prev2.index
        return row * NCARDS + self.card.index

    @property
    def bit3(self) -> int:
        """The context bit of this observation for a rule that reads ``prev3``."""
        row = NOPREV if self.prev3 is None else self.prev3.index
        return row * NCARDS + self.card.index


@dataclass(frozen=True, slots=True)
class Candidate:
    """A hypothesis of one family: ``parts`` are space indices, one per branch."""

    family: int
    parts: tuple[int, ...]

    def branch_bits(self, space: Space, r6: int) -> int:
        """The bit set this candidate uses at a position with ``pos % 6 == r6``.

        (For a ``prev2`` rule the rows are indexed by the card two back.)
        """
        if self.family in (0, LAG2):
            return space.bits[self.parts[0]]
        if self.family == 1:
            return space.bits[self.parts[r6 % 2]]
        return space.bits[self.parts[r6 % 3]]

    def accepts(self, space: Space, line: Sequence[Card], card: Card) -> bool:
        """Whether the candidate accepts ``card`` after the mainline ``line``."""
        return bool(self.row(space, line) >> card.index & 1)

    def row(self, space: Space, line: Sequence[Card]) -> int:
        """The 52-bit set of cards the candidate accepts after the mainline ``line``."""
        bits = self.branch_bits(space, (len(line) + 1) % 6)
        k = 2 if self.family == LAG2 else 1
        prev = line[-k] if len(line) >= k else None
        row = NOPREV if prev is None else prev.index
        return (bits >> (row * NCARDS)) & FULL52

    def text(self, space: Space) -> str:
        """The candidate as a rule-language text."""
        def part(i: int) -> str:
            t = space.text(self.parts[i])
            return f"({t})" if space.is_compound(self.parts[i]) else t
        if self.family == 0:
            return space.text(self.parts[0])
        if self.family == LAG2:
            return space.text(self.parts[0]).replace("prev.", "prev2.")
        if self.family == 1:
            return f"if pos % 2 == 0 then {part(0)} else {part(1)}"
        return f"case pos % 3 when 0 then {part(0)} when 1 then {part(1)} else {part(2)}"

    def english(self, space: Space) -> str:
        """The candidate in plain English."""
        if self.family == 0:
            return space.english(self.parts[0])
        if self.family == LAG2:
            return space.english(self.parts[0]).replace("the last card", "the card two back")
        if self.family == 1:
            return (f"at even positions, {space.english(self.parts[0])}; "
                    f"at odd positions, {space.english(self.parts[1])}")
        return "; ".join(f"at positions {k} mod 3, {space.english(self.parts[k])}"
                         for k in range(3))


@dataclass(frozen=True, slots=True)
class Behaviour:
    """What a candidate does on the contexts reachable from a mainline.

    For each channel, ``targets[c]`` are the verdicts and ``masks[c]`` the
    contexts that matter (``None``: no hypothesis of that channel can agree,
    because the candidate judges one previous card differently at two
    positions of the same class).
    """

    targets: tuple[int | None, ...]
    masks: tuple[int, ...]


#: :func:`reachable_behaviour`'s answers, by (space, candidate, position mod 6, last card)
_BEHAVIOURS: dict[tuple[int, Candidate, int, int], tuple[Space, Behaviour]] = {}
#: how many it keeps (up to 5 kB each); all are dropped when it is full
BEHAVIOURS_MOST = 512


def reachable_behaviour(space: Space, cand: Candidate, pos_next: int, last: Card) -> Behaviour:
    """The candidate's verdicts on every context reachable from the mainline.

    A guess is right when it agrees with the secret rule from the current
    mainline on, over every mainline the rule could still produce. If the
    candidate were the secret rule, the reachable states are (pos mod 6,
    previous card) pairs: a fixpoint over 6 x 52 states with 52-bit sets.
    Remembered (the last :data:`BEHAVIOURS_MOST`): after a refused card the
    next decision weighs the same candidates from the same position and last
    card.
    """
    key = (id(space), cand, pos_next % 6, last.index)
    hit = _BEHAVIOURS.get(key)
    if hit is not None and hit[0] is space:
        return hit[1]
    beh = _reachable_behaviour(space, cand, pos_next, last)
    if len(_BEHAVIOURS) >= BEHAVIOURS_MOST:
        _BEHAVIOURS.clear()
    _BEHAVIOURS[key] = (space, beh)
    return beh


def _reachable_behaviour(space: Space, cand: Candidate, pos_next: int,
                         last: Card) -> Behaviour:
    reach = [0] * 6
    reach[pos_next % 6] = 1 << last.index
    rowsets: list[dict[int, int]] = [{} for _ in range(6)]
    changed = True
    while changed:
        changed = False
        for r6 in range(6):
            todo = reach[r6]
            bits = cand.branch_bits(space, r6)
            nxt = (r6 + 1) % 6
            while todo:
                low = todo & -todo
                p = low.bit_length() - 1
                todo ^= low
                if p in rowsets[r6]:
                    continue
                row = (bits >> (NCARDS * p)) & FULL52
                rowsets[r6][p] = row
                if row & ~reach[nxt]:
                    reach[nxt] |= row
                    changed = True
    # each position class's rows laid out as the space's bits, once; a channel
    # joins the classes it reads, which must agree wherever two reach one card
    laid: list[tuple[int, int]] = []
    for r6 in range(6):
        t = m = 0
        for p, row in rowsets[r6].items():
            t |= row << (NCARDS * p)
            m |= FULL52 << (NCARDS * p)
        laid.append((t, m))
    targets: list[int | None] = []
    masks: list[int] = []
    for c in range(6):
        t = m = 0
        ok = True
        for r6 in range(6):
            if c == 0 or (c in (1, 2) and 1 + r6 % 2 == c) or (c >= 3 and 3 + r6 % 3 == c):
                t6, m6 = laid[r6]
                if (t ^ t6) & m & m6:
                    ok = False
                t |= t6
                m |= m6
        targets.append(t if ok else None)
        masks.append(m)
    return Behaviour(tuple(targets), tuple(masks))


class Belief:
    """The posterior over hypotheses, updated one observation at a time.

    ``family_prior`` weighs plain / pos2 / pos3 / prev2 rules; ``eps`` is the weight
    of an inconsistent observation; ``level_mass`` spreads the prior over
    size levels (each level's share then follows :attr:`Space.weight`).
    The live hypotheses are kept sorted by prior, heaviest first, so the most
    probable hypothesis of a channel is the first one without mismatches.
    """

    def __init__(self, space: Space, *, eps: float = 1e-4, max_mismatches: int = 0,
                 family_prior: tuple[float, ...] = (0.9, 0.07, 0.03, 0.0),
                 level_mass: tuple[float, float, float] = LEVEL_MASS,
                 extra_mass: float = 0.0, outside: float = 0.0) -> None:
        n = len(space)
        self.space = space
        self.n = n
        self.eps = eps
        self.kmax = max_mismatches
        self.family_prior = tuple(family_prior) + (0.0,) * (4 - len(family_prior))
        if extra_mass < 0.0 or outside < 0.0 or extra_mass + outside >= 1.0:
            raise ValueError("extra_mass and outside must be shares of the prior below 1")
        #: prior weight of the families of :mod:`eleusis.ai.families`: each family's
        #: prior is this times its own share (``EXTRA_SHARES``, which add up to
        #: more than 1; the posterior is normalised over every family)
        self.extra_mass = extra_mass
        #: prior mass of "a rule outside everything this belief can write"
        self.outside = outside
        #: the families beyond the enumerated space; family ``4 + j`` is ``extras[j]``
        self.extras: list[Family] = (make_families(space, max_mismatches, eps)
                                     if extra_mass > 0 else [])
        #: the family index of the outside model (see :meth:`family_posterior`)
        self.out_index = 4 + len(self.extras)
        names = {fam.name: 4 + j for j, fam in enumerate(self.extras)}
        #: each split's twin reading its blocks against the card two back (by family index)
        self.twins = {4 + j: names[fam.name + TWIN] for j, fam in enumerate(self.extras)
                      if fam.name + TWIN in names}
        #: the distinct (context, verdict) pairs seen (the outside model's data)
        self.out_seen: set[tuple[int, bool]] = set()
        #: the log evidence of the outside model (see :meth:`outside_evidence`)
        self.out_log = 0.0
        #: the sample limit of the predictions the outside model reads (a
        #: scientist sets its own, so the prediction it just made is reused)
        self.sample_limit: int | None = 1200
        self.pe = [eps ** m for m in range(max_mismatches + 1)] + [0.0]
        # counters saturate at max_mismatches + 1, whose weight is 0
        prior, live, mm, z = _initial(space, level_mass, max_mismatches,
                                      tuple(f > 0 for f in self.family_prior))
        self.prior = prior
        self.live = list(live)
        #: position of each hypothesis in the prior order (keeps ``live`` sorted)
        self.rank = _rank_of(live)
        self.mm = [list(row) for row in mm]
        self.z = list(z)
        self.z_init = list(z)
        #: the hypotheses a ``prev2`` rule can be: single blocks that read prev
        self.lag2 = _lag2_of(space) if self.family_prior[LAG2] > 0 else ()
        self.observations: list[Observation] = []
        self.excluded: list[Behaviour] = []
        #: bumped by every change of the posterior (memoised answers then expire)
        self.version = 0
        self._memo: dict[tuple[object, ...], object] = {}
        #: while set (a ``time.perf_counter()`` deadline), long queries raise
        #: :class:`Deferred` instead of running (see :meth:`_query`)
        self.defer_after: float | None = None

    def touch(self) -> None:
        """The posterior changed: memoised answers no longer hold."""
        self.version += 1
        self._memo = {}

    def _query(self, key: tuple[object, ...], steps: Callable[[], Steps[T]], size: int) -> T:
        """The answer to a query: memoised, computed now, or deferred.

        ``steps`` makes the sliced computation of the answer (the same code
        either way); ``size`` is about how many hypotheses it scans. Answers
        are memoised until the posterior changes; callers must not modify them.
        """
        memo = self._memo
        if key in memo:
            return cast(T, memo[key])
        if self.defer_after is not None and (
                size > DEFER_SIZE or time.perf_counter() >= self.defer_after):
            raise Deferred(self._memoise(key, steps()))
        value = finish(steps())
        memo[key] = value
        return value

    def _memoise(self, key: tuple[object, ...], steps: Steps[T]) -> Iterator[None]:
        version = self.version
        value = yield from steps
        if self.version == version:
            self._memo[key] = value

    # -- updating -------------------------------------------------------------

    def observe(self, obs: Observation) -> None:
        """Fold one judged card into the posterior (:meth:`observe_steps` in one go)."""
        finish(self.observe_steps(obs))

    def observe_steps(self, obs: Observation) -> Steps[None]:
        """Fold one judged card into the posterior, pausing between chunks of hypotheses.

        Mismatch counters saturate at ``max_mismatches + 1`` (weight 0); a
        hypothesis saturated in every channel is dropped. The belief is only
        consistent again once the steps are finished: nothing may read it in
        between (a scientist finishes its pending reading before any question).
        """
        if self.outside > 0:
            yield from self._outside_steps(obs)
        self.touch()
        self.observations.append(obs)
        bit = obs.bit
        want = 1 if obs.accepted else 0
        self.out_seen.add((bit, obs.accepted))
        if self.extras:
            row = NOPREV if obs.prev is None else obs.prev.index
            c = obs.card.index
            srows = single_rows(self.space)
            verdicts = [(r[row] >> c) & 1 for r in srows]
            verdicts2: list[int] | None = None  # (the blocks read against prev2)
            for fam in self.extras:
                if block_context(fam) == 2:
                    if verdicts2 is None:
                        row2 = NOPREV if obs.prev2 is None else obs.prev2.index
                        verdicts2 = [(r[row2] >> c) & 1 for r in srows]
                    fam.observe(obs, verdicts2)
                else:
                    fam.observe(obs, verdicts)
        if self.family_prior[LAG2] > 0:
            self._observe_lag2(obs.bit2, want)
        c0, c1, c2 = channels_of(obs.pos)
        prior = self.prior
        pe = self.pe
        k1 = self.kmax + 1
        mm0, mm1, mm2 = self.mm[c0], self.mm[c1], self.mm[c2]
        z0 = z1 = z2 = 0.0
        level = self.space.level
        live = self.live
        hits = self._hits(bit, obs.prev is None)
        if want:
            kept = list(compress(live, hits))
            wrong = list(compress(live, map(operator.not_, hits)))
        else:
            kept = list(compress(live, map(operator.not_, hits)))
            wrong = list(compress(live, hits))
        if len(live) > CHUNK:
            yield None
        gone: set[int] = set()
        check: list[int] = []
        strict = k1 == 1
        n1 = self.space.level_end[1]  # hypotheses below n1 are single blocks
        if strict:
            # a compound rule dies at its first mismatch (the fast path)
            singles = [i for i in wrong if i < n1]
            z0 -= fsum(map(prior.__getitem__, wrong)) - fsum(map(prior.__getitem__, singles))
        else:
            singles = wrong
        for lo in range(0, len(singles), CHUNK):
            if lo:
                yield None
            for i in singles[lo:lo + CHUNK]:
                w = prior[i]
                m = mm0[i]
                if m < k1:
                    z0 += w * (pe[m + 1] - pe[m])
                    mm0[i] = m = m + 1
                    if m == k1:
                        if level[i] > 1:
                            gone.add(i)  # only plain rules use it
                            continue
                        check.append(i)
                if level[i] > 1:
                    continue
                m = mm1[i]
                if m < k1:
                    z1 += w * (pe[m + 1] - pe[m])
                    mm1[i] = m = m + 1
                    if m == k1:
                        check.append(i)
                m = mm2[i]
                if m < k1:
                    z2 += w * (pe[m + 1] - pe[m])
                    mm2[i] = m = m + 1
                    if m == k1:
                        check.append(i)
        z = self.z
        z[c0] += z0
        z[c1] += z1
        z[c2] += z2
        if check:
            mm = self.mm
            gone.update(i for i in check if all(mm[c][i] >= k1 for c in range(NCHANNELS)))
        if strict and wrong:
            rank = self.rank
            for i in singles:
                if i not in gone:
                    bisect.insort(kept, i, key=rank.__getitem__)
            self.live = kept
        elif gone:
            self.live = [i for i in live if i not in gone]
        if len(self.observations) % 16 == 0:
            yield None
            yield from self._refresh_steps()
        self.touch()  # (nothing read while the families changed is kept)

    def _hits(self, bit: int, first: bool) -> list[int]:
        """For each live hypothesis (in order), 1 if it accepts context ``bit``, else 0.

        With a previous card, the accepting set comes from the space's
        :class:`~eleusis.ai.space.Columns` (a few dozen unions of big
        integers) and is read as a string of bits: far cheaper than one
        big-integer test per hypothesis (tens of thousands in the first turns).
        """
        live = self.live
        if first or len(live) < 2000:
            mask = 1 << bit
            bits = self.space.bits
            return [1 if bits[i] & mask else 0 for i in live]
        acc = columns(self.space).accepting(self.space, bit)
        flags = bin(acc)[:1:-1].encode("ascii").translate(_BINARY)
        flags += bytes(self.n - len(flags))
        return list(map(flags.__getitem__, live))

    def _observe_lag2(self, bit: int, want: int) -> None:
        """The ``prev2`` family: a few dozen single blocks, checked one by one."""
        bits = self.space.bits
        mm6 = self.mm[6]
        pe = self.pe
        k1 = self.kmax + 1
        for i in self.lag2:
            m = mm6[i]
            if m < k1 and (bits[i] >> bit) & 1 != want:
                self.z[6] += self.prior[i] * (pe[m + 1] - pe[m])
                mm6[i] = m + 1

    def _refresh_steps(self) -> Steps[None]:
        """Recompute the channel sums exactly (no drift from the increments), in chunks.

        (``fsum`` is correctly rounded, so summing the chunks' terms at the end
        gives exactly the sum of one pass.)
        """
        pe = self.pe
        prior = self.prior
        live = self.live
        for c in range(NCHANNELS):
            mmc = self.mm[c]
            terms: list[float] = []
            for lo in range(0, len(live), CHUNK):
                terms.extend([prior[i] * pe[mmc[i]] for i in live[lo:lo + CHUNK]])
                if len(live) > CHUNK:
                    yield None
            self.z[c] = fsum(terms)

    def exclude(self, cand: Candidate | ExtraCandidate, pos_next: int, last: Card) -> None:
        """A guess was judged wrong: no plain hypothesis equivalent to it is the rule."""
        finish(self.exclude_steps(cand, pos_next, last))

    def exclude_steps(self, cand: Candidate | ExtraCandidate, pos_next: int,
                      last: Card) -> Steps[None]:
        """:meth:`exclude`, pausing between chunks of hypotheses."""
        self.touch()
        yield from self._exclude_steps(cand, pos_next, last)
        self.touch()  # (nothing read while the belief changed is kept)

    def _exclude_steps(self, cand: Candidate | ExtraCandidate, pos_next: int,
                       last: Card) -> Steps[None]:
        if isinstance(cand, ExtraCandidate):
            # (this belief's family: a candidate of a belief since widened
            # names the family by its index, the same in every belief)
            self.extras[cand.family - 4].exclude(cand.parts)
            return
        if cand.family == LAG2:
            i = cand.parts[0]
            if self.mm[6][i] <= self.kmax:
                self.z[6] -= self.prior[i] * self.pe[self.mm[6][i]]
                self.mm[6][i] = self.kmax + 1
            return
        beh = reachable_behaviour(self.space, cand, pos_next, last)
        self.excluded.append(beh)
        t, m = beh.targets[0], beh.masks[0]
        if t is None:
            return
        bits = self.space.bits
        level = self.space.level
        mm0 = self.mm[0]
        k1 = self.kmax + 1
        gone = set()
        live = self.live
        for lo in range(0, len(live), CHUNK):
            if lo:
                yield None
            for i in live[lo:lo + CHUNK]:
                if not (bits[i] ^ t) & m and mm0[i] < k1:
                    self.z[0] -= self.prior[i] * self.pe[mm0[i]]
                    mm0[i] = k1
                    if level[i] > 1:
                        gone.add(i)  # used by plain rules only
        if gone:
            self.live = [i for i in self.live if i not in gone]

    # -- summaries ------------------------------------------------------------

    def channel_weight(self, c: int, i: int) -> float:
        """Unnormalised posterior weight of hypothesis ``i`` as channel ``c``'s rule."""
        return self.prior[i] * self.pe[self.mm[c][i]]

    def evidence(self, c: int) -> float:
        """Sum of weights in channel ``c``, relative to its prior mass."""
        return max(self.z[c], 0.0) / self.z_init[c] if self.z_init[c] > 0 else 0.0

    def outside_evidence(self) -> float:
        """The evidence of "a rule outside everything this belief can write".

        Such a rule resembles what the belief thinks, but not exactly: it
        predicts each verdict half as the belief's own rules do and half as
        an unknown rule accepting a share ``theta`` of the cards (uniform
        prior: after ``k`` of ``n`` verdicts accepted, ``(k + 1) / (n + 2)``).
        Verdicts the belief predicted confidently and rightly cost it a
        factor of about 3/4 each; a verdict that contradicts what the
        belief was sure of costs the belief far more than it. So the
        posterior of "outside" grows while the belief keeps being surprised
        (its leading ideas dying one after the other) and fades while its
        rules predict well. Computed observation by observation
        (prequentially), from the predictions before each one.
        """
        return math.exp(self.out_log)

    def _outside_steps(self, obs: Observation) -> Steps[None]:
        """Fold ``obs`` into the outside model's evidence (before the belief reads it)."""
        post, _ = self.family_posterior()
        p_out = post[self.out_index]
        limit = self.sample_limit
        rows = self._memo.get(("rows", obs.pos, obs.prev, limit, obs.prev2, obs.prev3))
        if rows is not None:
            assert isinstance(rows, dict)
            b = 1 << obs.card.index
            total = fsum(rows.values())
            mass = fsum(w for r, w in rows.items() if r & b)
        else:
            # (what the decision before this play worked out: its base is memoised)
            base = yield from self._base_or_steps(obs.pos, obs.prev, limit, obs.prev2,
                                                  obs.prev3)
            known = cast(dict[Card, float], self._memo.get(
                ("masses", obs.pos, obs.prev, limit, obs.prev2, obs.prev3), {}))
            seen = known.get(obs.card)
            if seen is None:
                line = _line_of(obs.prev, obs.prev2, obs.prev3)
                seen = self._masses(base, obs.pos, line, [obs.card])[0]
            mass = seen
            _, fast, factor, half = base
            total = (fsum(base[0].values()) + fsum(w for _, w in fast)) * factor + half
        p_mix = mass / total if total > 0 else 0.5
        r_acc = self.outside_rates()[obs.card.index]
        p_acc_out = 0.5 * p_mix + 0.5 * r_acc  # (p_mix holds the outside part too)
        p_in = (p_mix - p_out * p_acc_out) / (1.0 - p_out) if p_out < 1.0 else p_mix
        p_in = min(1.0, max(0.0, p_in))
        pv = p_in if obs.accepted else 1.0 - p_in
        rv = r_acc if obs.accepted else 1.0 - r_acc
        self.out_log += math.log(max(1e-300, 0.5 * pv + 0.5 * rv))

    def family_posterior(self) -> tuple[list[float], list[float]]:
        """(posterior of each family, evidence of each channel).

        Families 0-3 are the enumerated ones (plain, pos2, pos3, prev2),
        ``4 + j`` the extra family ``extras[j]``, and the last one (index
        :attr:`out_index`, when ``outside`` is set) the outside model.
        Memoised until the posterior changes (a decision asks a few dozen
        times, and each answer asks every extra family); the lists are the
        caller's.
        """
        hit = self._memo.get(("posterior",))
        if hit is None:
            hit = self._memo[("posterior",)] = self._family_posterior()
        post, z = cast(tuple[list[float], list[float]], hit)
        return list(post), list(z)

    def _family_posterior(self) -> tuple[list[float], list[float]]:
        z = [self.evidence(c) for c in range(NCHANNELS)]
        main = 1.0 - self.extra_mass - self.outside
        raw = []
        for f, chans in enumerate(FAMILY_CHANNELS):
            e = self.family_prior[f] * main
            for c in chans:
                e *= z[c]
            raw.append(e)
        for fam in self.extras:
            raw.append(self.extra_mass * fam.prior * fam.evidence())
        if self.outside > 0:
            raw.append(self.outside * self.outside_evidence())
        total = fsum(raw)
        if total <= 0.0:
            return [1.0] + [0.0] * (len(raw) - 1), z
        return [r / total for r in raw], z

    def outside_probability(self) -> float:
        """Posterior probability that the rule lies outside what this belief can write."""
        if self.outside <= 0:
            return 0.0
        post, _ = self.family_posterior()
        return post[self.out_index]

    def _sample(self, limit: int | None) -> list[tuple[Sequence[int], float]]:
        """The live set, or its heaviest part plus a systematic sample of the rest."""
        live = self.live
        if limit is None or len(live) <= limit:
            return [(live, 1.0)]
        head = limit // 2
        rest = live[head:]
        k = max(1, len(rest) // (limit - head))
        sub = rest[::k]
        return [(live[:head], 1.0), (sub, len(rest) / len(sub))]

    def _sample_size(self, limit: int | None) -> int:
        """About how many hypotheses :meth:`_sample` gives (without building it)."""
        n = len(self.live)
        return n if limit is None else min(n, limit)

    def predict(self, pos: int, prev: Card | None, cards: Iterable[Card],
                sample_limit: int | None = 1200,
                prev2: Card | None = None, prev3: Card | None = None) -> dict[Card, float]:
        """Probability that each card is accepted now (mixture over families).

        Large live sets are estimated from their heaviest part plus a
        systematic sample of the rest, which keeps a decision within a few
        milliseconds in the first turns. Memoised until the posterior
        changes (a decision asks for its hand's cards up to three times:
        whether the hand is stuck, whether waiting is slow, which to play).
        The same sums as :meth:`row_weights` (each card's rows), but the
        families that can say how likely a card is without building their
        rows (``MARGINAL_FAMILIES``) are asked for these cards only.
        """
        wanted = list(dict.fromkeys(cards))
        key = ("predict", pos, prev, sample_limit, prev2, prev3, tuple(wanted))
        hit = self._memo.get(key)
        if hit is not None:
            return dict(cast(dict[Card, float], hit))
        full = self._memo.get(("rows", pos, prev, sample_limit, prev2, prev3))
        if full is not None:  # (already built for a joint question: read it)
            mass = card_masses(cast(dict[int, float], full), wanted)
        else:
            base = self._base(pos, prev, sample_limit, prev2, prev3)
            mass = self._masses(base, pos, _line_of(prev, prev2, prev3), wanted)
            # (the card played next is one of these: its observation reads it here)
            known = self._memo.setdefault(("masses", pos, prev, sample_limit, prev2, prev3), {})
            cast(dict[Card, float], known).update(zip(wanted, mass, strict=True))
        out = {card: min(1.0, max(0.0, m)) for card, m in zip(wanted, mass, strict=True)}
        self._memo[key] = dict(out)
        return out

    def _masses(self, base: _Base, pos: int, line: Sequence[Card],
                cards: Sequence[Card]) -> list[float]:
        """The weight of the rows holding each card: ``base``'s grouped, the
        marginal families' asked, the outside model's mixed in (see
        :meth:`_row_weights_steps`)."""
        rows, fast, factor, half = base
        mass = card_masses(rows, cards)
        if fast:
            idx = [c.index for c in cards]
            acc = [0.0] * len(cards)
            for fam, scale in fast:
                fam.marginals(pos, line, idx, acc, scale)
            mass = [m + a for m, a in zip(mass, acc, strict=True)]
        if half > 0.0:
            rates = self.outside_rates()
            mass = [m * factor + half * rates[c.index] for m, c in zip(mass, cards, strict=True)]
        return mass

    def row_weights(self, pos: int, prev: Card | None, sample_limit: int | None = 1200,
                    prev2: Card | None = None, prev3: Card | None = None) -> dict[int, float]:
        """The posterior over what the rule accepts now: {52-bit set of cards: weight}.

        The weights sum to about 1 (exactly without sampling). Joint
        questions (is *no* card of a hand acceptable? is ``x`` acceptable but
        not ``y``?) are sums over these rows, which :meth:`predict` (one card
        at a time) cannot answer. Memoised, and deferred in a sliced decision
        (see :class:`Deferred`); the answer must not be modified.
        """
        size = self._sample_size(sample_limit)
        return self._query(("rows", pos, prev, sample_limit, prev2, prev3),
                           lambda: self._row_weights_steps(pos, prev, sample_limit, prev2, prev3),
                           size)

    def _base(self, pos: int, prev: Card | None, sample_limit: int | None,
              prev2: Card | None, prev3: Card | None) -> _Base:
        """:meth:`_base_steps`, memoised and deferred as :meth:`row_weights` is."""
        return self._query(("base", pos, prev, sample_limit, prev2, prev3),
                           lambda: self._base_steps(pos, prev, sample_limit, prev2, prev3),
                           self._sample_size(sample_limit))

    def _base_or_steps(self, pos: int, prev: Card | None, sample_limit: int | None,
                       prev2: Card | None, prev3: Card | None) -> Steps[_Base]:
        """The memoised base, or its computation in steps (memoised at the end)."""
        key = ("base", pos, prev, sample_limit, prev2, prev3)
        hit = self._memo.get(key)
        if hit is not None:
            return cast(_Base, hit)
        version = self.version
        base = yield from self._base_steps(pos, prev, sample_limit, prev2, prev3)
        if self.version == version:
            self._memo[key] = base
        return base

    def _row_weights_steps(self, pos: int, prev: Card | None, sample_limit: int | None,
                           prev2: Card | None, prev3: Card | None = None
                           ) -> Steps[dict[int, float]]:
        rows, fast, factor, half = yield from self._base_or_steps(pos, prev, sample_limit,
                                                                  prev2, prev3)
        rows = dict(rows)
        if fast:
            line = _line_of(prev, prev2, prev3)
            for fam, scale in fast:
                fam.rows(pos, line, rows, scale)
        if half > 0.0:
            # the outside model: half the belief's own prediction, half a rate
            if factor != 1.0:
                rows = {r: w * factor for r, w in rows.items()}
            # as nested rows: the cards accepted with at least each rate
            by_rate: dict[float, int] = {}
            for index, rate in enumerate(self.outside_rates()):
                by_rate[rate] = by_rate.get(rate, 0) | 1 << index
            levels = sorted(by_rate, reverse=True)
            row = 0
            for rate, nxt in zip(levels, [*levels[1:], 0.0], strict=True):
                row |= by_rate[rate]
                rows[row] = rows.get(row, 0.0) + half * (rate - nxt)
            rows[0] = rows.get(0, 0.0) + half * (1.0 - levels[0])
        return rows

    def _base_steps(self, pos: int, prev: Card | None, sample_limit: int | None,
                    prev2: Card | None, prev3: Card | None = None) -> Steps[_Base]:
        """The rows of every family but the marginal ones, those families with
        their shares, and how the outside model mixes in: ``(rows, [(extra
        family, share)], factor, half)``, the prediction being ``factor``
        times the rows' plus ``half`` times the outside model's rate (see
        :meth:`outside_rates`)."""
        post, _ = self.family_posterior()
        row_shift = NCARDS * (NOPREV if prev is None else prev.index)
        chans = channels_of(pos)
        zz = self.z
        fam_w = [post[f] / zz[chans[f]] if zz[chans[f]] > 0 else 0.0 for f in range(3)]
        rows: dict[int, float] = {}
        bits = self.space.bits
        prior = self.prior
        pe = self.pe
        mms = [self.mm[c] for c in chans]
        for seg, scale in self._sample(sample_limit):
            for lo in range(0, len(seg), CHUNK):
                if lo:
                    yield None
                for i in seg[lo:lo + CHUNK]:
                    w = (fam_w[0] * pe[mms[0][i]] + fam_w[1] * pe[mms[1][i]]
                         + fam_w[2] * pe[mms[2][i]])
                    if w:
                        row = (bits[i] >> row_shift) & FULL52
                        rows[row] = rows.get(row, 0.0) + w * prior[i] * scale
        if post[LAG2] > 0 and self.z[6] > 0:
            shift2 = NCARDS * (NOPREV if prev2 is None else prev2.index)
            f6 = post[LAG2] / self.z[6]
            mm6 = self.mm[6]
            for i in self.lag2:
                w = f6 * prior[i] * pe[mm6[i]]
                if w:
                    row = (bits[i] >> shift2) & FULL52
                    rows[row] = rows.get(row, 0.0) + w
        fast: list[tuple[MarginalFamily, float]] = []
        if self.extras:
            line = _line_of(prev, prev2, prev3)
            acc = [0.0] * self.space.level_end[1]
            for j, fam in enumerate(self.extras):
                if post[4 + j] > 1e-4:  # (below, no prediction moves by more)
                    if isinstance(fam, MARGINAL_FAMILIES):
                        fast.append((fam, post[4 + j]))
                    elif isinstance(fam, SplitFamily) and fam.back == 1:
                        fam.add_weights(pos, line, acc, post[4 + j])
                    else:
                        fam.rows(pos, line, rows, post[4 + j])
            p_row = NOPREV if prev is None else prev.index
            for srow, w in zip(single_rows(self.space), acc, strict=True):
                if w:
                    row = srow[p_row]
                    rows[row] = rows.get(row, 0.0) + w
        factor, half = 1.0, 0.0
        if self.outside > 0 and post[self.out_index] > 0:
            p_out = post[self.out_index]
            if p_out < 1.0:
                factor = 1.0 + 0.5 * p_out / (1.0 - p_out)
                half = 0.5 * p_out
            else:
                half = p_out
        return rows, fast, factor, half

    def inside(self, probs: dict[Card, float]) -> dict[Card, float]:
        """What the rules this belief can write predict, from :meth:`predict`'s ``probs``.

        A prediction mixes the outside model in (see :meth:`_row_weights_steps`):
        with ``h`` half its posterior, ``p = (1 - h) p_in + h r``, ``r`` its
        rate for the card (:meth:`outside_rates`). Undone here, it leaves
        what the ideas themselves expect: the outside model doubts every
        card never seen, so its part makes cards look worth playing that no
        idea is unsure of.
        """
        p_out = self.outside_probability()
        half = 0.5 * p_out
        if half <= 0.0 or half >= 0.5:
            return dict(probs)
        rates = self.outside_rates()
        return {c: min(1.0, max(0.0, (p - half * rates[c.index]) / (1.0 - half)))
                for c, p in probs.items()}

    def outside_rates(self) -> list[float]:
        """How likely a rule outside the space is to accept each card, by card.

        An unknown rule still mostly judges the card itself: a card seen
        accepted is likely accepted again, one seen refused refused again,
        and a card never seen is accepted at the rate seen overall
        (``(k + 1) / (n + 2)``, the uniform prior's). Each card's own
        verdicts count against one pseudo-verdict at that rate. So while
        "outside" has weight, playing an unseen card is the informative
        move (the rule people write, and this space lacks, lives there).
        """
        n = len(self.out_seen)
        r = (sum(1 for _, yes in self.out_seen if yes) + 1) / (n + 2)
        yes = [0] * NCARDS
        seen = [0] * NCARDS
        for bit, ok in self.out_seen:
            c = bit % NCARDS
            seen[c] += 1
            yes[c] += ok
        return [(yes[c] + r) / (seen[c] + 1) for c in range(NCARDS)]

    # -- candidates and their probability of being right -----------------------

    def best_in_channel(self, c: int, limit: int = 1) -> list[int]:
        """Up to ``limit`` most probable hypotheses of channel ``c``, heaviest first.

        The live list is sorted by prior, so the first hypotheses found with
        ``m`` mismatches are the heaviest of their class; the classes are
        then merged by weight (``prior * eps ** m``).
        """
        k1 = self.kmax + 1
        mmc = self.mm[c]
        found: list[list[int]] = [[] for _ in range(k1)]
        missing = k1
        for i in self.live:
            m = mmc[i]
            if m < k1 and len(found[m]) < limit:
                found[m].append(i)
                if len(found[m]) == limit:
                    missing -= 1
                    if missing == 0 or (m == 0 and self.kmax == 0):
                        break
        merged = [i for group in found for i in group]
        merged.sort(key=lambda i: -self.channel_weight(c, i))
        return merged[:limit]

    def candidates(self, plain_limit: int = 6) -> list[Candidate | ExtraCandidate]:
        """The most probable rules of each family (plain ones first).

        A split family that holds ``RUNNER_UP_FLOOR`` of the posterior also
        offers its second idea when that holds ``RUNNER_UP_SHARE`` of what
        its best holds: two rules of one split that no play has told apart
        are then two ideas the scientist weighs side by side (a tie it can
        break by guessing them in turn), or one idea, its spellings merged.

        Memoised (the answer must not be modified); in a sliced decision it
        waits for a fresh slice once the current one is used up.
        """
        return self._query(("cands", plain_limit),
                           lambda: self._candidates_steps(plain_limit), 0)

    def _candidates_steps(self, plain_limit: int) -> Steps[list[Candidate | ExtraCandidate]]:
        out: list[Candidate | ExtraCandidate] = [
            Candidate(0, (i,)) for i in self.best_in_channel(0, plain_limit)]
        if self.family_prior[LAG2] > 0:
            best = self._best_lag2()
            if best is not None:
                out.append(Candidate(LAG2, (best,)))
        for f in (1, 2):
            if self.family_prior[f] <= 0:
                continue
            parts = []
            for c in FAMILY_CHANNELS[f]:
                yield None
                b = self.best_in_channel(c, 1)
                if not b:
                    break
                parts.append(b[0])
            else:
                if len(set(parts)) > 1:
                    out.append(Candidate(f, tuple(parts)))
        if self.extras:
            post, _ = self.family_posterior()
            for j, fam in enumerate(self.extras):
                if post[4 + j] >= 0.01:
                    if post[4 + j] >= RUNNER_UP_FLOOR and isinstance(
                            fam, RUNNER_UP_FAMILIES):
                        # (its second idea too: the two may fit every play alike)
                        top, second = fam.best_two(4 + j)
                        if top is not None:
                            out.append(top)
                            if second is not None and (fam.share(second.parts)
                                                       >= RUNNER_UP_SHARE * fam.share(top.parts)):
                                out.append(second)
                        continue
                    top = fam.best(4 + j)
                    if top is not None:
                        out.append(top)
        return out

    def _best_lag2(self) -> int | None:
        mm6 = self.mm[6]
        alive = [i for i in self.lag2 if mm6[i] <= self.kmax]
        if not alive:
            return None
        return max(alive, key=lambda i: (self.channel_weight(6, i), -i))

    def probability_right(self, cand: Candidate | ExtraCandidate, pos_next: int, last: Card,
                          sample_limit: int | None = None,
                          behaviour: Behaviour | None = None,
                          prev2: Card | None = None) -> float:
        """Posterior probability that ``cand`` would be judged equivalent to the rule.

        With ``sample_limit`` a large live set is estimated from a sample;
        ``behaviour`` may pass the candidate's reachable behaviour if known.
        A candidate of an extra family counts its share of its own family
        (as a ``prev2`` rule does): equivalents in other families are not
        counted here, an underestimate (the scientist adds the equivalents
        it finds among its candidates: :meth:`right_parts`).
        """
        core, cross = self.right_parts(cand, pos_next, last, sample_limit, behaviour, prev2)
        return min(1.0, core + sum(cross.values()))  # (in the order found: same sums)

    def right_parts(self, cand: Candidate | ExtraCandidate, pos_next: int, last: Card,
                    sample_limit: int | None = None,
                    behaviour: Behaviour | None = None,
                    prev2: Card | None = None) -> tuple[float, dict[int, float]]:
        """:meth:`probability_right` by family: (the enumerated families' part, {family: part}).

        The keys are family indices (``LAG2``, ``4 + j`` for extra family
        ``j``); a candidate of the ``prev2`` or an extra family has no
        enumerated part. Each part is a lower bound of that family's mass of
        rules the judge would call ``cand``, so parts found for equivalent
        candidates combine by family with ``max``. A split's candidate whose
        blocks read only the card is also its twin's rule (the same split,
        its blocks read against the card two back: :data:`TWIN`), and
        counts the twin's part too.
        """
        if isinstance(cand, ExtraCandidate):
            post, _ = self.family_posterior()
            parts = {cand.family: post[cand.family] * cand.owner.share(cand.parts, pos_next)}
            twin = self.twins.get(cand.family)
            if twin is not None and post[twin] > 0.0:
                fam = self.extras[twin - 4]
                if isinstance(fam, SplitFamily | CardSplitFamily) and fam.reads_card_only(
                        cand.parts):
                    # (its twin writes the same rule: that mass is this idea's too)
                    parts[twin] = post[twin] * fam.share(cand.parts, pos_next)
            return 0.0, parts
        if cand.family == LAG2:
            # its share of the prev2 family (equivalences across families are
            # not counted: an underestimate, which only delays a guess)
            post, _ = self.family_posterior()
            z6 = self.z[6]
            return 0.0, {LAG2: post[LAG2] * self.channel_weight(6, cand.parts[0]) / z6
                         if z6 > 0 else 0.0}
        beh = behaviour or reachable_behaviour(self.space, cand, pos_next, last)
        for ex in self.excluded:
            if _same_behaviour(beh, ex):
                return 0.0, {}
        post, _ = self.family_posterior()
        # (each target cut to its mask: a hypothesis agrees where ``bits & m == t``)
        tm = [(c, t & beh.masks[c], beh.masks[c]) for c, t in enumerate(beh.targets)
              if t is not None and c < 6 and (c == 0 or post[1 if c < 3 else 2] > 1e-4)]
        size = self._sample_size(sample_limit) * len(tm)
        q: float = self._query(("right", cand, pos_next, last, sample_limit),
                               lambda: self._right_steps(post, tm, sample_limit), size)
        others = 1.0 - post[0] - post[1] - post[2]
        if (len(post) > 4 or post[LAG2] > 1e-4) and q + others >= 0.25:
            # (below that, no decision depends on it: skip the work)
            key = ("cross", beh.targets[0], beh.masks[0], last, prev2)
            cross = self._memo.get(key)
            if cross is None:
                cross = self._memo[key] = self._cross_mass(post, beh, last, prev2)
            return q, cast(dict[int, float], cross)
        return q, {}

    def _cross_mass(self, post: list[float], beh: Behaviour, last: Card,
                    prev2: Card | None) -> dict[int, float]:
        """The posterior mass, outside families 0-2, of rules that agree with ``beh``, by family.

        A plain rule (``card is red``) is often also a ``prev2`` rule, a
        split on the last card, or a set of ranks, on every mainline it can
        still produce (after an all-red mainline, ``card.color ==
        prev2.color`` is ``card is red``): that mass is on its side too.
        Counted exactly for the ``prev2`` family and the splits on the last
        card (over the previous cards the candidate can reach), strictly (every
        side agreeing everywhere reachable) for the position splits, and
        for the set of ranks when the candidate accepts one fixed set.
        """
        t, m = beh.targets[0], beh.masks[0]
        if t is None:
            return {}
        prevs = [p for p in range(NCARDS) if (m >> (NCARDS * p)) & 1]
        rows = {p: (t >> (NCARDS * p)) & FULL52 for p in prevs}
        total: dict[int, float] = {}
        bits = self.space.bits
        if post[LAG2] > 1e-4 and self.z[6] > 0 and last.index in rows:
            # a prev2 rule agrees when its row after p is the candidate's row
            # after every card c it accepts after p (then p is prev2)
            tt = rows[last.index] << (NCARDS * (NOPREV if prev2 is None else prev2.index))
            mk = FULL52 << (NCARDS * (NOPREV if prev2 is None else prev2.index))
            ok = True
            for p in prevs:
                nxt = {rows[c] for c in range(NCARDS) if (rows[p] >> c) & 1 and c in rows}
                if len(nxt) > 1:
                    ok = False
                    break
                if nxt:
                    row = nxt.pop()
                    if (mk >> (NCARDS * p)) & FULL52 and (tt >> (NCARDS * p)) & FULL52 != row:
                        ok = False
                        break
                    tt |= row << (NCARDS * p)
                    mk |= FULL52 << (NCARDS * p)
            if ok:
                mm6 = self.mm[6]
                agree = fsum(self.prior[i] * self.pe[mm6[i]] for i in self.lag2
                             if mm6[i] <= self.kmax and not (bits[i] ^ tt) & mk)
                total[LAG2] = post[LAG2] * agree / self.z[6]
        if self.extras:
            fit = BlockFit(self.space, self._wanted_singles(post), rows)
            for j, fam in enumerate(self.extras):
                if post[4 + j] > 1e-4:
                    share = fam.agreement(fit, rows)
                    if share > 0:
                        total[4 + j] = post[4 + j] * share
        return total

    def _wanted_singles(self, post: list[float]) -> int:
        """The single blocks a likely extra family still allows, as a bit set.

        The same for every candidate until the posterior changes: memoised.
        """
        hit = self._memo.get(("wanted",))
        if hit is not None:
            return cast(int, hit)
        mask = 0
        for j, fam in enumerate(self.extras):
            if post[4 + j] > 1e-4:
                mask |= fam.live_singles()
        self._memo[("wanted",)] = mask
        return mask

    def _right_steps(self, post: list[float], tm: list[tuple[int, int, int]],
                     sample_limit: int | None) -> Steps[float]:
        agree = [0.0] * NCHANNELS
        bits = self.space.bits
        prior = self.prior
        pe = self.pe
        k1 = self.kmax + 1
        mm = self.mm
        for seg, scale in self._sample(sample_limit):
            for lo in range(0, len(seg), CHUNK):
                if lo:
                    yield None
                chunk = seg[lo:lo + CHUNK]
                for c, t, m in tm:
                    # (one channel at a time, the terms added in the same order)
                    mmc = mm[c]
                    a = agree[c]
                    for x in [prior[i] * pe[mmc[i]] * scale for i in chunk
                              if mmc[i] < k1 and bits[i] & m == t]:
                        a += x
                    agree[c] = a
        q = 0.0
        for f, chans in enumerate(FAMILY_CHANNELS[:LAG2]):
            part = post[f]
            for c in chans:
                part *= agree[c] / self.z[c] if self.z[c] > 0 else 0.0
            q += part
        return min(1.0, q)


#: A candidate of an enumerated family or of an extra one.
AnyCandidate = Candidate | ExtraCandidate

#: A prediction's rows before the marginal families and the outside model:
#: (rows, [(marginal family, its share)], factor, half) (see
#: :meth:`Belief._base_steps`).
_Base = tuple[dict[int, float], list[tuple[MarginalFamily, float]], float, float]


def _line_of(prev: Card | None, prev2: Card | None, prev3: Card | None) -> list[Card]:
    """The last cards of a mainline, oldest first, from the last three (None: none)."""
    line: list[Card] = []
    for c in (prev, prev2, prev3):
        if c is None:
            break
        line.insert(0, c)
    return line


def card_masses(rows: dict[int, float], cards: Sequence[Card]) -> list[float]:
    """The weight of the rows holding each card (an exact sum, grouped by what the
    rows say of these cards: the same fsum of the same weights as one pass per card).

    A prediction reads it, and a table scientist's joint questions (Royal bets).

    >>> card_masses({0b01: 0.25, 0b11: 0.5, 0b10: 0.25}, [Card.parse("AS"), Card.parse("2S")])
    [0.75, 0.75]
    """
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    groups: dict[int, list[float]] = {}
    for row, w in rows.items():
        k = row & mask
        group = groups.get(k)
        if group is None:
            groups[k] = [w]
        else:
            group.append(w)
    out = []
    for card in cards:
        b = 1 << card.index
        out.append(fsum([w for k, ws in groups.items() if k & b for w in ws]))
    return out

_BINARY = bytes.maketrans(b"01", b"\x00\x01")
_Start = tuple[list[float], tuple[int, ...], tuple[tuple[int, ...], ...], tuple[float, ...]]
_INITIAL: dict[tuple[int, tuple[float, float, float], int, tuple[bool, ...]],
               tuple[Space, _Start]] = {}


def _initial(space: Space, level_mass: tuple[float, float, float], max_mismatches: int,
             families: tuple[bool, ...]) -> _Start:
    """Cached :func:`_make_initial` (keyed by the space's identity)."""
    for start in initial_steps(space, level_mass, max_mismatches, families, None):
        if start is not None:
            return start
    raise AssertionError("the steps end with the start")  # pragma: no cover


def initial_steps(space: Space, level_mass: tuple[float, float, float], max_mismatches: int,
                  families: tuple[bool, ...],
                  budget_ms: float | None = 10.0) -> Iterator[_Start | None]:
    """:func:`_make_initial` in slices of about ``budget_ms`` (None: in one go), cached.

    Yields None after each slice, the start last. Every :class:`Belief` with
    these parameters then starts from the cache at the cost of a few copies.
    """
    key = (id(space), level_mass, max_mismatches, families)
    hit = _INITIAL.get(key)
    if hit is not None and hit[0] is space:
        yield hit[1]
        return
    start: _Start | None = None
    for start in _make_initial(space, level_mass, max_mismatches, families, budget_ms):
        if start is None:
            yield None
    assert start is not None
    _INITIAL[key] = (space, start)
    yield start


def _make_initial(space: Space, level_mass: tuple[float, float, float], max_mismatches: int,
                  families: tuple[bool, ...], budget_ms: float | None) -> Iterator[_Start | None]:
    """The prior, the sorted live list, the initial counters and channel sums.

    Branches of periodic rules are single blocks (a periodic rule with
    compound branches is rare, and the compound alternatives would dilute the
    evidence); plain rules use every level. The rule ``true`` weighs
    :data:`TRUE_WEIGHT` of its block. A hypothesis outside a channel
    starts saturated there (weight 0). Cached: every scientist of a process
    shares this start and copies it. Yields None between slices of about
    ``budget_ms`` (never with None), the start last.
    """
    budget = None if budget_ms is None else budget_ms / 1000.0
    t0 = time.perf_counter()

    def due() -> bool:
        return budget is not None and time.perf_counter() - t0 >= budget

    n = len(space)
    present = [lv for lv in (1, 2, 3) if len(space.weight) > lv and any(space.weight[lv])]
    total = fsum(level_mass[lv - 1] for lv in present)
    prior = [0.0] * n
    chunk = 4096
    for lv in present:
        share = level_mass[lv - 1] / total
        row = space.weight[lv]
        for lo in range(0, n, chunk):
            for i in range(lo, min(n, lo + chunk)):
                w = row[i]
                if w:
                    prior[i] += share * w
            if due():
                yield None
                t0 = time.perf_counter()
    for i in range(space.level_end[1]):
        if space.bits[i] == FULL_BITS:
            prior[i] *= TRUE_WEIGHT  # "any card": no dealer's secret rule
    # (reverse=True keeps the sort stable: equal priors stay in space order)
    live = tuple(sorted(range(n), key=prior.__getitem__, reverse=True))
    if due():
        yield None
        t0 = time.perf_counter()
    _rank_of(live)
    k1 = max_mismatches + 1
    mm: list[tuple[int, ...]] = [(0,) * n]
    lag2 = set(_lag2_of(space))
    for c in range(1, NCHANNELS):
        fam = 1 if c < 3 else 2 if c < 6 else LAG2
        if not families[fam]:
            mm.append((k1,) * n)
        elif fam == LAG2:
            mm.append(tuple(0 if i in lag2 else k1 for i in range(n)))
        else:
            lev = space.level
            mm.append(tuple(0 if lev[i] <= 1 else k1 for i in range(n)))
        if due():
            yield None
            t0 = time.perf_counter()
    z: list[float] = []
    for c in range(NCHANNELS):
        mmc = mm[c]
        z.append(fsum(prior[i] for i in range(n) if mmc[i] == 0))
        if due():
            yield None
            t0 = time.perf_counter()
    yield prior, live, tuple(mm), tuple(z)


def _lag2_of(space: Space) -> tuple[int, ...]:
    """Single blocks that read ``prev`` (as ``prev2`` rules they read the card two back)."""
    return tuple(i for i in range(space.level_end[1])
                 if space.recipe[i][0] == 0 and space.atoms[space.recipe[i][1]].kind == "rel")


_RANKS: dict[int, tuple[tuple[int, ...], list[int]]] = {}


def _rank_of(order: tuple[int, ...]) -> list[int]:
    hit = _RANKS.get(id(order))
    if hit is None or hit[0] is not order:
        rank = [0] * len(order)
        for r, i in enumerate(order):
            rank[i] = r
        hit = _RANKS[id(order)] = (order, rank)
    return hit[1]


def _same_behaviour(a: Behaviour, b: Behaviour) -> bool:
    t, m = a.targets[0], a.masks[0]
    u, n = b.targets[0], b.masks[0]
    if t is None or u is None:
        return a == b
    return m == n and t == u


__all__ = ["LEVEL_MASS", "AnyCandidate", "Belief", "Candidate", "Deferred", "Observation", "finish",
           "initial_steps", "reachable_behaviour"]
