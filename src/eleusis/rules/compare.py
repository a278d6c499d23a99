"""Exact comparison of two rules, with the shortest counterexample.

A guess is right when, from the current mainline on, it gives the same verdict
as the secret rule on every card after every mainline the secret rule could
still produce (design: "When is a guess right?"). :func:`compare` decides it
exactly, cheapest method first:

1. **Agreement everywhere.** If the two rules give the same verdict on every
   class of card after *any* looked-back cards and position (not only those a
   mainline can reach), they are equivalent: no search needed. The classes
   are what the rules read of each slot (:meth:`Space.key`), and only one
   representative of each orbit of :func:`~eleusis.rules.abstract.symmetry`
   is judged: rules that compare ranks only for equality need the patterns of
   equal and different ranks, not every rank. Run when it costs less than a
   search could.
2. **Breadth-first search** over the reduced states of
   :class:`~eleusis.rules.abstract.Space` (the last cards reduced to the
   attributes the two rules read, the position folded by its period), judging
   every class of card in every state the secret rule can reach; when the
   rules have a symmetry, over the orbits of states (:class:`_SymmetricSearch`).
   The first disagreement found is a shortest counterexample, and its mainline
   is concrete: the secret rule accepts it card by card.

Only when this exceeds :data:`EXACT_BUDGET` units of work (card judgements
plus state transitions: five looked-back ranks added together, say) does it
fall back to a sampled check over random games (itself bounded by
:data:`SAMPLE_BUDGET`), and then says so: ``exact`` is False and ``note``
explains. A counterexample found by sampling is still a real one
(replayable), only perhaps not the shortest; an "equivalent" found by
sampling is not a proof.

:func:`compare_steps` does the same work in slices of about
:data:`SLICE_WORK` units, so that a page can judge a guess without blocking
its main thread; results are remembered, so the engine's own :func:`compare`
of the same guess afterwards costs nothing.
"""

from __future__ import annotations

import itertools
import random
from collections import OrderedDict
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final, TypeVar

from eleusis.cards import ALL_CARDS, Card, Suit
from eleusis.rules.abstract import (
    POS_MAX,
    Key,
    OverBudget,
    Space,
    State,
    Symmetry,
    Walk,
    symmetry,
)
from eleusis.rules.rule import Rule

#: Work (card judgements + state transitions) before falling back to sampling.
EXACT_BUDGET: Final = 600_000
#: Sampled fallback: games played, the longest game, and the most work (card
#: classes judged) it may take.
SAMPLE_GAMES: Final = 40
SAMPLE_LENGTH: Final = 60
SAMPLE_BUDGET: Final = 150_000
#: Work in one slice of :func:`compare_steps`: a few milliseconds on CPython
#: for most rules, under 20 ms for the costliest ones to judge (see
#: docs/performance.md), two to three times that in Pyodide.
SLICE_WORK: Final = 2_000
#: Comparisons remembered (see :func:`compare_steps`).
CACHE_SIZE: Final = 64

T = TypeVar("T")
_SUITS: Final = tuple(Suit)
#: rank (1..13) and suit number (0..3, the order of Suit) of each card index;
#: card index = suit number * 13 + rank - 1.
_RANK_OF: Final = tuple(c.rank for c in ALL_CARDS)
_SUIT_OF: Final = tuple(_SUITS.index(c.suit) for c in ALL_CARDS)
assert all(c.index == _SUIT_OF[c.index] * 13 + c.rank - 1 for c in ALL_CARDS)
_CACHE: OrderedDict[tuple[Rule, Rule, tuple[Card, ...], int, int], Comparison] = OrderedDict()


def _cards_text(cards: Sequence[Card]) -> str:
    if len(cards) <= 8:
        return " ".join(c.symbol for c in cards)
    return f"{len(cards)} cards ending in " + " ".join(c.symbol for c in cards[-6:]) + ","


@dataclass(frozen=True, slots=True)
class Counterexample:
    """A mainline (which the secret rule accepts card by card) and a card on
    which the two rules disagree."""

    mainline: tuple[Card, ...]
    card: Card
    secret_accepts: bool
    guess_accepts: bool

    @property
    def sentence(self) -> str:
        """For a player: "after 7♠ K♥ your rule accepts 3♦; the secret rule rejects it"."""
        where = f"after {_cards_text(self.mainline)}" if self.mainline else "as the first card"
        yours = "accepts" if self.guess_accepts else "rejects"
        theirs = "accepts" if self.secret_accepts else "rejects"
        return f"{where} your rule {yours} {self.card.symbol}; the secret rule {theirs} it"

    def __str__(self) -> str:
        return self.sentence


@dataclass(frozen=True, slots=True)
class Comparison:
    """The verdict of :func:`compare`."""

    equivalent: bool
    exact: bool = True
    counterexample: Counterexample | None = None
    note: str = ""
    #: reduced states explored (exact) or plays simulated (sampled)
    explored: int = field(default=0, compare=False)

    def __bool__(self) -> bool:
        return self.equivalent

    @property
    def sentence(self) -> str:
        """The verdict for a player."""
        if self.equivalent:
            text = "your rule is equivalent to the secret rule"
            return text if self.exact else f"{text} (checked by sampling: {self.note})"
        assert self.counterexample is not None
        return self.counterexample.sentence


def compare(
    secret: Rule,
    guess: Rule,
    mainline: Sequence[Card] = (),
    *,
    max_pos: int = POS_MAX,
    budget: int = EXACT_BUDGET,
) -> Comparison:
    """Do ``guess`` and ``secret`` agree from ``mainline`` on (see module doc)?

    ``max_pos`` bounds the positions considered (default :data:`POS_MAX`);
    ``budget`` is the exact search's limit in units of work (see the module doc).
    The result of a recent call with the same arguments is returned at once
    (see :func:`compare_steps`).
    """
    for result in compare_steps(secret, guess, mainline, max_pos=max_pos, budget=budget,
                                slice_work=None):
        if result is not None:
            return result
    raise AssertionError("compare_steps ends with its result")  # pragma: no cover


def compare_steps(
    secret: Rule,
    guess: Rule,
    mainline: Sequence[Card] = (),
    *,
    max_pos: int = POS_MAX,
    budget: int = EXACT_BUDGET,
    slice_work: int | None = SLICE_WORK,
) -> Iterator[Comparison | None]:
    """:func:`compare` in slices: yields None after about ``slice_work`` units of
    work (None: never), then the :class:`Comparison`, and stops.

    A page runs one slice per task so that judging a guess never blocks it;
    the result is remembered (the last :data:`CACHE_SIZE` comparisons), so the
    :func:`compare` the engine then makes for the same guess returns at once::

        >>> from eleusis.rules import parse
        >>> steps = compare_steps(parse("card is red"), parse("card is red and true"))
        >>> results = [r for r in steps if r is not None]
        >>> results[0].equivalent, results[0].exact
        (True, True)
    """
    mainline = tuple(mainline)
    key = (secret, guess, mainline, max_pos, budget)
    cached = _CACHE.get(key)
    if cached is not None:
        _CACHE.move_to_end(key)
        yield cached
        return
    meter = _Meter(slice_work)
    if secret == guess:
        result = Comparison(True, True, None)
    else:
        result = yield from _decide(secret, guess, mainline, max_pos, budget, meter)
    _CACHE[key] = result
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    yield result


def clear_cache() -> None:
    """Forget the remembered comparisons (for benchmarks that time the work)."""
    _CACHE.clear()


class _Meter:
    """Counts work and says when a slice is full."""

    __slots__ = ("mark", "slice")

    def __init__(self, slice_work: int | None) -> None:
        self.slice = slice_work
        self.mark = 0

    def due(self, work: int) -> bool:
        """Whether ``work`` (a running total) has filled the current slice."""
        if self.slice is None or work - self.mark < self.slice:
            return False
        self.mark = work
        return True


def _decide(
    secret: Rule, guess: Rule, mainline: tuple[Card, ...], max_pos: int, budget: int,
    meter: _Meter,
) -> Generator[None, None, Comparison]:
    limit = max(max_pos, len(mainline) + 1)
    space = Space((secret, guess), limit)
    sym = symmetry((secret, guess))
    check = _Everywhere(space, sym)
    if (yield from check.worth_it(budget, meter)):
        agree = yield from check.run(secret, guess, meter)
        if agree:
            return Comparison(True, True, None, explored=check.keys)
    spent = check.work
    plays = limit - len(mainline) - 1
    meter.mark = 0  # each method counts its work from 0
    try:
        search = None if sym.trivial or space.depth < 2 else _SymmetricSearch(
            space, sym, (secret, guess), mainline, plays, max(0, budget - spent))
        if search is None or not search.merges:
            walk = Walk(space, (secret, guess), mainline, plays=plays,
                        budget=max(0, budget - spent), count_moves=True)
            return (yield from _exact(space, walk, mainline, meter))
        return (yield from search.run(meter))
    except OverBudget:
        meter.mark = 0
        return (yield from _sampled(space, secret, guess, mainline, limit, meter))


class _Everywhere:
    """Whether the two rules agree on every card after *any* looked-back cards
    and position, not only the reachable ones: a sufficient condition for
    equivalence that needs no search. Judged once per class of what the rules
    read (:meth:`Space.key`), and only on one representative of each orbit of
    :func:`~eleusis.rules.abstract.symmetry` (with one block of 13 ranks,
    ``card.rank != prev.rank and card.rank != prev2.rank`` needs the 5
    patterns of equal and different ranks, not 13 * 13 pairs)."""

    def __init__(self, space: Space, sym: Symmetry) -> None:
        self.space = space
        self.work = 0
        self.keys = 0
        depth = space.depth
        self.rank_blocks = sym.rank_blocks
        self.suit_blocks = tuple(tuple(_SUITS.index(su) for su in b) for b in sym.suit_blocks)
        # per slot 1..depth: does its class pin the rank / the suit, or depend on it?
        pins = [_pins(space.own[j]) for j in range(1, depth + 1)]
        self.pins_rank = [p[0] for p in pins]
        self.pins_suit = [p[1] for p in pins]
        self.by_rank = [len({space.own[j][r - 1] for r in range(1, 14)}) > 1
                        for j in range(1, depth + 1)]
        self.by_suit = [len({space.own[j][su * 13] for su in range(4)}) > 1
                        for j in range(1, depth + 1)]
        self.positions = (list(range(1, min(space.t + space.p, space.max_pos + 1)))
                          if space.uses_pos else [1])

    @staticmethod
    def _options(values: Sequence[T], blocks: tuple[tuple[T, ...], ...], used: tuple[T, ...],
                 pins: bool, depends: bool) -> list[T]:
        """The values a slot may take, one per orbit: any value already used or
        the first unused one of each block when the slot's class pins the value;
        one per block when it only depends on it; any one value otherwise."""
        if not depends:
            return [values[0]]
        if not pins:
            return [b[0] for b in blocks]
        fresh = [next(v for v in b if v not in used) for b in blocks
                 if any(v not in used for v in b)]
        return list(used) + fresh

    def backs(self) -> Iterator[tuple[int, ...]]:
        """One looked-back tuple (own classes, newest first) per orbit, every length."""
        depth = self.space.depth
        own = self.space.own
        ranks = tuple(range(1, 14))
        suits = tuple(range(4))
        stack: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = [((), (), ())]
        while stack:
            back, used_r, used_s = stack.pop()
            yield back
            j = len(back)
            if j == depth:
                continue
            seen: set[int] = set()
            r_opts = self._options(ranks, self.rank_blocks, used_r, self.pins_rank[j],
                                   self.by_rank[j])
            s_opts = self._options(suits, self.suit_blocks, used_s, self.pins_suit[j],
                                   self.by_suit[j])
            for r in r_opts:
                for su in s_opts:
                    cls = own[j + 1][su * 13 + r - 1]
                    if cls in seen:
                        continue
                    seen.add(cls)
                    nr = (*used_r, r) if self.pins_rank[j] and r not in used_r else used_r
                    ns = (*used_s, su) if self.pins_suit[j] and su not in used_s else used_s
                    stack.append(((*back, cls), nr, ns))

    def worth_it(self, budget: int, meter: _Meter) -> Generator[None, None, bool]:
        """Whether the check costs less than a search could (an estimate) and fits
        in half the budget. The keys are counted, not judged, to know: one unit of
        work each (:attr:`work`)."""
        space = self.space
        per_back = 2 * len(space.candidates) * len(self.positions)
        moves = len(set(space.rep[1])) if space.depth else 1
        limit = min(budget // 2, space.estimate() * moves) // per_back
        count = 0
        for _ in itertools.islice(self.backs(), limit + 1):
            count += 1
            self.work += 1
            if meter.due(self.work):
                yield None
        return count <= limit

    def run(self, secret: Rule, guess: Rule, meter: _Meter) -> Generator[None, None, bool]:
        """True when the rules agree everywhere; False at the first key where they
        do not (a search then decides whether a mainline reaches it)."""
        space = self.space
        per_key = 2 * len(space.candidates)
        for back in self.backs():
            for apos in self.positions:
                key = (back, apos)
                self.keys += 1
                self.work += per_key
                if space.verdicts(secret, key) != space.verdicts(guess, key):
                    return False
                if meter.due(self.work):
                    yield None
        return True


#: A renaming of ranks (1..13) and of suits (0..3, their order in :class:`Suit`).
_Perm = tuple[dict[int, int], dict[int, int]]


def _pins(table: Sequence[int]) -> tuple[bool, bool]:
    """Whether each class of a representatives table pins the rank, the suit."""
    return (all(_RANK_OF[i] == _RANK_OF[r] for i, r in enumerate(table)),
            all(_SUIT_OF[i] == _SUIT_OF[r] for i, r in enumerate(table)))


def _whole(part: dict[int, int], blocks: tuple[tuple[int, ...], ...]) -> dict[int, int]:
    """A one-to-one renaming within blocks, extended to every value of them."""
    out = dict(part)
    for block in blocks:
        free = [v for v in block if v not in part.values()]
        for v in block:
            if v not in out:
                out[v] = free.pop(0)
    return out


class _SymmetricSearch:
    """:class:`~eleusis.rules.abstract.Walk`'s breadth-first search over the
    orbits of states under a :class:`~eleusis.rules.abstract.Symmetry`: each
    state is relabelled (ranks and suits renamed in order of first appearance
    within their blocks) before it is looked up, so ``card.rank not in
    {prev.rank, prev2.rank, prev3.rank}`` has one state per pattern of equal
    ranks instead of one per 13 * 12 * 11 ranks. Verdicts and moves are those
    of the relabelled state, which the symmetry leaves unchanged; a
    counterexample found on relabelled states is mapped back to real cards
    along its path, so it is concrete, accepted by the secret rule card by
    card, and still a shortest one."""

    def __init__(self, space: Space, sym: Symmetry, rules: tuple[Rule, Rule],
                 mainline: tuple[Card, ...], plays: int, budget: int) -> None:
        self.space, self.rules, self.mainline = space, rules, mainline
        self.plays, self.budget = plays, budget
        self.rank_blocks = sym.rank_blocks
        self.suit_blocks = tuple(tuple(_SUITS.index(su) for su in b) for b in sym.suit_blocks)
        self.rank_block = {r: i for i, b in enumerate(self.rank_blocks) for r in b}
        self.suit_block = {su: i for i, b in enumerate(self.suit_blocks) for su in b}
        # per slot of ``back`` (0 is the next prev): its class pins the rank / suit
        self.pins = [_pins(space.rep[j + 1]) for j in range(space.depth)]
        #: whether renaming can merge any two states: some slot keeps the exact
        #: rank (or suit) and some block holds two ranks (or suits)
        self.merges = (any(p[0] for p in self.pins) and len(self.rank_blocks) < 13) or (
            any(p[1] for p in self.pins) and len(self.suit_blocks) < 4)
        self.states: list[State] = []
        self.parents: list[tuple[int, int] | None] = []

    def canon(self, back: tuple[int, ...]) -> tuple[tuple[int, ...], _Perm]:
        """The orbit's representative of ``back`` and the renaming that gives it."""
        ranks: dict[int, int] = {}
        suits: dict[int, int] = {}
        r_used = [0] * len(self.rank_blocks)
        s_used = [0] * len(self.suit_blocks)
        rep, rank_of, suit_of, pins = self.space.rep, _RANK_OF, _SUIT_OF, self.pins
        out = []
        for j, b in enumerate(back):
            r, su = rank_of[b], suit_of[b]
            pin_r, pin_s = pins[j]
            if pin_r:
                m = ranks.get(r)
                if m is None:
                    k = self.rank_block[r]
                    m = ranks[r] = self.rank_blocks[k][r_used[k]]
                    r_used[k] += 1
                r = m
            if pin_s:
                m = suits.get(su)
                if m is None:
                    k = self.suit_block[su]
                    m = suits[su] = self.suit_blocks[k][s_used[k]]
                    s_used[k] += 1
                su = m
            out.append(rep[j + 1][su * 13 + r - 1])
        return tuple(out), (ranks, suits)

    def _complete(self, perm: _Perm) -> _Perm:
        """A partial renaming made a whole one (each block onto itself)."""
        return _whole(perm[0], self.rank_blocks), _whole(perm[1], self.suit_blocks)

    def run(self, meter: _Meter) -> Generator[None, None, Comparison]:
        """Breadth-first search; the first disagreement gives a counterexample."""
        space, (secret, guess) = self.space, self.rules
        rep1, candidates = space.rep[1], space.candidates
        start_back, start_pos = space.start(self.mainline)
        start = (self.canon(start_back)[0], start_pos)
        states, parents = self.states, self.parents
        states.append(start)
        parents.append(None)
        index: dict[State, int] = {start: 0}
        table: dict[Key, tuple[tuple[bool, ...], tuple[int, ...]]] = {}
        per_key = 2 * len(candidates)
        work, depth, layer_end, i = 0, 0, 1, 0
        while i < len(states):
            if i == layer_end:
                depth, layer_end = depth + 1, len(states)
            back, apos = states[i]
            key = space.key(states[i])
            judged = table.get(key)
            if judged is None:
                work += per_key
                if work > self.budget:
                    raise OverBudget
                sv, gv = space.verdicts(secret, key), space.verdicts(guess, key)
                if sv != gv:
                    j = next(j for j, (a, b) in enumerate(zip(sv, gv, strict=True)) if a != b)
                    return self._counterexample(i, candidates[j], sv[j], gv[j])
                firsts: dict[int, int] = {}
                for c, ok in zip(candidates, sv, strict=True):
                    if ok and rep1[c] not in firsts:
                        firsts[rep1[c]] = c
                judged = table[key] = (sv, tuple(firsts.values()))
            moves = judged[1]
            if moves and depth < self.plays:
                work += len(moves)
                if work > self.budget:
                    raise OverBudget
                rest = space.tail(back)
                napos = space.next_pos(apos)
                for c in moves:
                    nxt = (self.canon((rep1[c], *rest))[0], napos)
                    if nxt not in index:
                        index[nxt] = len(states)
                        states.append(nxt)
                        parents.append((i, c))
            if meter.due(work):
                yield None
            i += 1
        return Comparison(True, True, None, explored=len(states))

    def _counterexample(self, i: int, card: int, secret_accepts: bool,
                        guess_accepts: bool) -> Comparison:
        """Real cards for the relabelled path to state ``i``."""
        moves: list[int] = []
        step = self.parents[i]
        while step is not None:
            i, c = step
            moves.append(c)
            step = self.parents[i]
        moves.reverse()
        space = self.space
        back, _ = space.start(self.mainline)
        # perm renames the real cards into the relabelled ones: perm(real) ~ state
        perm = self._complete(self.canon(back)[1])
        played: list[Card] = []
        for c in moves:
            real = self._undo(perm, ALL_CARDS[c])
            played.append(real)
            canon_back = self.canon(back)[0]
            back = (space.rep[1][real.index], *space.tail(back))
            step_perm = self._complete(self.canon((space.rep[1][c], *space.tail(canon_back)))[1])
            perm = ({r: step_perm[0][v] for r, v in perm[0].items()},
                    {su: step_perm[1][v] for su, v in perm[1].items()})
        real_card = self._undo(perm, ALL_CARDS[card])
        ce = Counterexample(self.mainline + tuple(played), real_card, secret_accepts,
                            guess_accepts)
        return Comparison(False, True, ce, explored=len(self.states))

    def _undo(self, perm: _Perm, card: Card) -> Card:
        ranks = {v: r for r, v in perm[0].items()}
        suits = {v: su for su, v in perm[1].items()}
        return ALL_CARDS[suits[_SUIT_OF[card.index]] * 13 + ranks[card.rank] - 1]


def _exact(
    space: Space, walk: Walk, mainline: tuple[Card, ...], meter: _Meter
) -> Generator[None, None, Comparison]:
    """The breadth-first search of :class:`~eleusis.rules.abstract.Walk`: the
    first state where the verdicts differ gives a shortest counterexample."""
    candidates = space.candidates
    for i, ((sv, gv), _, _) in walk:
        if sv != gv:
            j = next(j for j, (a, b) in enumerate(zip(sv, gv, strict=True)) if a != b)
            ce = Counterexample(mainline + walk.path(i), ALL_CARDS[candidates[j]], sv[j], gv[j])
            return Comparison(False, True, ce, explored=len(walk.states))
        if meter.due(walk.work):
            yield None
    return Comparison(True, True, None, explored=len(walk.states))


def _back(line: list[Card], depth: int) -> tuple[Card | None, ...]:
    tail = line[max(0, len(line) - depth) :][::-1] if depth else []
    return (*tail, *((None,) * (depth - len(tail))))


def _sampled(
    space: Space, secret: Rule, guess: Rule, mainline: tuple[Card, ...], limit: int,
    meter: _Meter,
) -> Generator[None, None, Comparison]:
    """Random games of the secret rule, every card class checked at every step,
    within :data:`SAMPLE_BUDGET` units of work (one per card class judged)."""
    rng = random.Random(0x5EC2E7)
    candidates = space.candidate_cards
    members = {c: [card for card in ALL_CARDS if space.members[c] >> card.index & 1]
               for c in space.candidates}
    weights = [space.weight[c] for c in space.candidates]
    depth = space.depth
    plays = work = games = 0
    per_play = 2 * len(candidates)
    best: Counterexample | None = None
    for _ in range(SAMPLE_GAMES):
        if work + per_play > SAMPLE_BUDGET:
            break
        games += 1
        line = list(mainline)
        while len(line) + 1 <= limit and len(line) - len(mainline) < SAMPLE_LENGTH:
            if best is not None and len(best.mainline) <= len(line):
                break
            if work + per_play > SAMPLE_BUDGET:
                break
            plays += 1
            work += per_play
            back = _back(line, depth)
            pos = len(line) + 1
            sv = secret.judge_all(candidates, back, pos)
            gv = guess.judge_all(candidates, back, pos)
            if sv != gv:
                i = next(i for i, (a, b) in enumerate(zip(sv, gv, strict=True)) if a != b)
                best = Counterexample(tuple(line), candidates[i], sv[i], gv[i])
                break
            legal = [i for i, ok in enumerate(sv) if ok]
            if not legal:
                break
            chosen = rng.choices(legal, [weights[i] for i in legal])[0]
            line.append(rng.choice(members[space.candidates[chosen]]))
            if meter.due(work):
                yield None
    note = (
        f"the rules read too many card details to compare every case exactly; "
        f"{games} random games of up to {SAMPLE_LENGTH} cards were checked ({plays} positions)"
    )
    if best is not None:
        note += "; the counterexample is real but may not be the shortest"
    return Comparison(best is None, False, best, note, explored=plays)


__all__ = ["CACHE_SIZE", "EXACT_BUDGET", "SAMPLE_BUDGET", "SLICE_WORK", "Comparison",
           "Counterexample", "clear_cache", "compare", "compare_steps"]
