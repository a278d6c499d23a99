"""A computer scientist: watches the mainline, plays to learn, guesses when sure.

The :class:`Scientist` sees only what a player sees: the starter, the cards
played, the verdicts, its own hand. It never reads the rule library, the
rule generator or the secret rule (a test scans this package's imports).

Decisions (Solo; the same calls fit the multi-player variants):

* :meth:`Scientist.choose_card` plays the card with the best mix of
  information (the binary entropy of its predicted acceptance: a card the
  posterior splits evenly teaches the most) and acceptance (an accepted card
  moves the mainline on, into contexts not seen yet);
* :meth:`Scientist.consider_guess` names the most probable rule when the
  expected score of guessing beats waiting: with ``q`` the posterior
  probability that the guess is judged equivalent (summed over the families
  that write the same rule: :meth:`Scientist.ranked`), guess when ``q``
  reaches the preset's threshold, or at the last chance when ``q * score >
  2 (1 - q)``;
* :meth:`Scientist.explain` lists the top hypotheses with probabilities, as
  rule texts and English, for the "what the computer thought" view.
"""

from __future__ import annotations

import math
import random
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from math import fsum
from typing import Any, TypeVar

from eleusis.ai.blocks import FULL52
from eleusis.ai.families import CardSplitFamily, ExtraCandidate, bits_of, families_steps
from eleusis.ai.inference import (
    FAMILY_CHANNELS,
    LAG2,
    LEVEL_MASS,
    AnyCandidate,
    Belief,
    Candidate,
    Deferred,
    Observation,
    Steps,
    card_masses,
    finish,
    initial_steps,
    reachable_behaviour,
)
from eleusis.ai.space import Space, build_space, build_space_steps, columns_steps
from eleusis.cards import ALL_CARDS, Card
from eleusis.game import (
    Action,
    Bet,
    DeclareProphet,
    Guess,
    NoPlay,
    Pass,
    Play,
    ProphetCall,
)
from eleusis.views import SeatView

T = TypeVar("T")

#: The lowest probability at which a scientist whose hand cannot test its
#: leading idea guesses it before the preset's threshold (see
#: :meth:`Scientist._slow`). At 0.5 (with a rule for the round's last turns) it
#: won 0.1-0.6 more points a round than at 0.6 on six rule sets, two seeds, for
#: 0.01-0.09 more wrong guesses a round (rules outside its space: 0.54 against
#: 0.47; their bar is 0.5).
SLOW_FLOOR = 0.6

#: The observations (the starter counts) before which no idea is ranked for a
#: decision: after the starter and three plays the likeliest idea holds about
#: 0.1 (no guess can be made, and the leading idea's test weighs a tenth of a
#: bit in the card's choice), and ranking the ideas was a third of such a
#: decision's time. From 3 to 5: the benchmark's decision median 10% lower,
#: the rule sets' scores and wrong guesses within a draw or better (see
#: docs/performance.md).
RANKED_FROM = 5

#: A hand is stuck when no card's predicted verdict has this much entropy
#: (bits): every play is all but certain (p below 0.013 or above 0.987).
STUCK_ENTROPY = 0.1

#: Without counterexamples a hand is stuck too when no card of it would raise
#: the leading idea's probability by this much (bits, ``log2 1/P(its
#: verdict)``; 0.1 is a verdict it gives 0.93 or more) if the idea is right:
#: its plays only weigh ideas far behind it, and waiting for a card that
#: tells costs turns (``card.rank >= 10 or card.rank <= 4`` against the same
#: with the sevens, and no seven in the hand). Such a hand guesses from
#: ``LEAD_STUCK_FLOOR`` on, and only while nothing says the rule lies
#: outside its space (no second wrong guess, no contradiction of every idea):
#: from 0.4 or 0.5, or after such a sign, it scored more but guessed wrong
#: more often on rules it cannot write (see docs/performance.md).
LEAD_STUCK_GAIN = 0.1
LEAD_STUCK_FLOOR = 0.55

#: Without counterexamples, two leading ideas that hold the guess threshold
#: between them are a tie worth breaking by a guess when no card of the hand
#: tells them apart and at most one card in ``TIE_WAIT`` of the deck would
#: (``card.rank >= 7`` against ``card.rank >= 6``, and no six in the hand):
#: the likelier is right about half the time or more, and if it is judged
#: wrong the other is all but sure, where waiting for a card that tells
#: them apart costs about ``TIE_WAIT`` turns or more. So are up to
#: ``TIE_MOST`` ideas (``card.rank >= 8``, ``>= 9``, ``>= 10`` and no black 8
#: or 9 in the hand), when the wait is also longer than the wrong guesses of
#: trying them in turn cost (see :meth:`Scientist._tie`).
TIE_WAIT = 4
TIE_MOST = 3

#: Why a scientist guesses (:attr:`Scientist.last_guess_reason`): ``sure``, its
#: idea reached the preset's threshold; ``last turn``, the round's last chance
#: paid; ``stuck``, no card of the hand could teach; ``lead untestable``, no
#: card of it would test the leading idea; ``tie``, two ideas no card of the
#: hand tells apart; ``slow``, waiting to be sure would cost more than a
#: wrong guess; ``final``, the turns were used up (see
#: :meth:`Scientist.consider_guess` and :meth:`Scientist.final_guess`). The
#: harness reports its guesses by reason, right and stated.
GUESS_REASONS = ("sure", "last turn", "stuck", "lead untestable", "tie", "slow", "final")

#: Candidates the judge would call one rule are merged (see
#: :meth:`Scientist._merged`) once the best has this probability; among the
#: ``MERGE_MOST`` best with at least ``MERGE_MIN``, the first ``MERGE_HEADS``
#: gather their equivalents.
MERGE_FLOOR = 0.1
MERGE_MIN = 0.005
MERGE_MOST = 10
MERGE_HEADS = 3
#: The mainlines two candidates must agree on (see :meth:`Scientist._probes`):
#: how many plays ahead every reachable last card is looked for, how many
#: walks, and each walk's length.
PROBE_DEPTH = 3
PROBE_WALKS = 4
PROBE_STEPS = 12
#: After a wrong guess, how many of the likeliest candidates are checked for
#: being the same rule in other words, and how many rounds of that (each
#: spelling ruled out lets its family offer its next rule).
SPELLINGS_LIMIT = 6
SPELLINGS_ROUNDS = 6

#: A ranked candidate: (candidate, probability, enumerated part, {family: part}).
_Ranked = tuple[AnyCandidate, float, float, dict[int, float]]


def idea_kind(space: Space, cand: AnyCandidate) -> str:
    """What kind of idea ``cand`` is: a rule of the space by its size (``one
    block``, ``two blocks``, ``if-then-else``), a rule by the position's
    period (``by position``) or of a block against the card two back (``two
    back``), or the family beyond the space that holds it, in words (its
    class: ``split``, ``card split``, ``value set``, ``suit ranks``...). Whether
    a guess is right depends much on the kind of rules people write: the
    harness counts guesses by kind (see :func:`eleusis.bench.guesses_by_kind`).

    >>> space = build_space(3)
    >>> red = next(i for i in range(len(space)) if space.text(i) == "card is red")
    >>> idea_kind(space, Candidate(0, (red,))), idea_kind(space, Candidate(LAG2, (red,)))
    ('one block', 'two back')
    """
    if isinstance(cand, ExtraCandidate):
        name = type(cand.owner).__name__.removesuffix("Family")
        return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).lower()
    if cand.family == LAG2:
        return "two back"
    if cand.family != 0:
        return "by position"
    level = max(space.level[i] for i in cand.parts)
    return ("one block", "two blocks", "if-then-else")[min(level, 3) - 1]


def _ranked_row(cand: AnyCandidate, core: float, cross: dict[int, float]) -> _Ranked:
    return (cand, min(1.0, core + sum(cross.values())), core, cross)


def _group_probability(group: Sequence[_Ranked]) -> float:
    """The probability of an idea written by each candidate of ``group``.

    Families are disjoint parts of the prior: by family, the largest part a
    candidate found (each is a lower bound of that family's mass of rules
    equivalent to the idea); an extra family's distinct candidates add up.
    """
    if len(group) == 1:
        return group[0][1]
    core = max(r[2] for r in group)
    by_family: dict[int, float] = {}
    own: dict[int, float] = {}
    for c, _, _, cross in group:
        mine = isinstance(c, ExtraCandidate) or c.family == LAG2
        for f, x in cross.items():
            if mine:
                own[f] = own.get(f, 0.0) + x
            else:
                by_family[f] = max(by_family.get(f, 0.0), x)
    for f, x in own.items():
        by_family[f] = max(by_family.get(f, 0.0), x)
    return min(1.0, core + sum(by_family.values()))


@dataclass(frozen=True, slots=True)
class Strength:
    """How strong a computer scientist is, and how it differs from the others.

    * ``max_level``: the largest rules it can think of (1: single blocks such
      as ``card is red``; 2: pairs joined by and/or; 3: if/then/else);
    * ``periodic``: whether it considers position-periodic rules;
    * ``eps``: how much it doubts the dealer (weight of a contradiction);
    * ``tolerance``: contradictions a hypothesis may have before it is
      dropped (more is slower); when every hypothesis (of every family) is
      contradicted, the scientist tolerates one more and thinks again (at
      most 3);
    * ``guess_threshold``: the probability of being right it wants before
      guessing (lower is bolder: more wrong guesses, earlier right ones);
    * ``noise``: the chance it plays a random card instead of a good one;
    * ``accept_bonus``: how much it likes cards likely to be accepted;
    * ``prophet_threshold``: the probability of knowing the rule it wants
      before declaring itself prophet (New Eleusis), and before playing
      several cards at once;
    * ``samples``: how many hypotheses it weighs when estimating (None: all
      of them; slower, more exact);
    * ``final_guess``: the probability of being right it wants for the last
      guess of a Solo round, once the turns are used up (right, it solves
      the round for the score of an unsolved one; wrong, it costs 2 points
      and counts as a wrong guess: 0.4 weighs a wrong guess at about two
      thirds of a solved round; at 0.3 such guesses on rules outside its
      space were right one time in five).
    * ``extra``: the prior weight of the families beyond the enumerated space
      (:mod:`eleusis.ai.families`: splits on the last card, on the card
      itself or on the position mod 3, 4 and 5, two and three cards back,
      sets of ranks), times each family's own share; with the shares as
      they are, 0.20 (and ``outside`` 0.20) gives them about 42% of the
      prior once normalised;
    * ``outside``: the prior mass of "a rule I cannot write" (see
      :meth:`eleusis.ai.inference.Belief.outside_evidence`): while it holds
      posterior mass, no guess looks sure;
    * ``confirm``: how many observations a rule must have read since it
      first reached a probability of 0.2 before it is guessed (it must
      predict, not only fit: among tens of thousands of rules some fit a
      dozen plays by chance). Counted from the first time the scientist
      considers a guess (``consider_guess``, called every turn).
    """

    name: str
    max_level: int
    periodic: bool
    eps: float
    tolerance: int
    guess_threshold: float
    noise: float
    accept_bonus: float
    prophet_threshold: float
    samples: int | None = 1200
    final_guess: float = 0.4
    extra: float = 0.0
    outside: float = 0.0
    confirm: int = 0


PRESETS: dict[str, Strength] = {
    "novice": Strength("novice", 1, False, 0.05, 1, 0.5, 0.5, 0.3, 0.6),
    "casual": Strength("casual", 2, False, 0.01, 1, 0.65, 0.2, 0.2, 0.8),
    "strong": Strength("strong", 3, True, 1e-4, 0, 0.7, 0.0, 0.15, 0.92,
                       extra=0.20, outside=0.20, confirm=2),
    "expert": Strength("expert", 3, True, 1e-5, 0, 0.75, 0.0, 0.15, 0.95, None,
                       extra=0.20, outside=0.20, confirm=2),
}


def strength(name: str | Strength) -> Strength:
    """A preset by name (``novice``, ``casual``, ``strong``, ``expert``)."""
    if isinstance(name, Strength):
        return name
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(
            f"unknown strength {name!r}: choose one of {', '.join(PRESETS)}") from None


@dataclass(frozen=True, slots=True)
class Hypothesis:
    """One explained hypothesis: rule text, English, probability of being right."""

    text: str
    english: str
    probability: float


def _entropy(p: float) -> float:
    if p <= 0.0 or p >= 1.0:
        return 0.0
    return -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


class Scientist:
    """One computer scientist with its own belief and seeded random generator."""

    def __init__(self, level: str | Strength = "strong", seed: int = 0,
                 dealer_noise: float | None = None, counterexamples: bool = True) -> None:
        """``dealer_noise``: how often the dealer is expected to misjudge a card.

        The computer dealer never errs, so the presets trust it almost fully;
        against a human dealer pass about 0.02, which weighs a contradiction
        by that much instead of ``eps`` and tolerates one per hypothesis.
        ``counterexamples=False`` ignores the counterexample that answers a
        wrong guess (the published benchmark answers only "wrong").
        """
        self.counterexamples = counterexamples
        self.strength = strength(level)
        space = build_space(self.strength.max_level)
        fam, eps, tol = _belief_parameters(self.strength, dealer_noise)
        self.belief = Belief(space, eps=eps, family_prior=fam, max_mismatches=tol,
                             extra_mass=self.strength.extra, outside=self.strength.outside)
        self.belief.sample_limit = self.strength.samples
        self.rng = random.Random(seed)
        self.wrong_guesses: list[str] = []
        self._last_candidate: AnyCandidate | None = None
        #: the candidates guessed and judged wrong, each with the mainline it was
        #: judged after (the ideas that would have been judged as it was are wrong too)
        self._wrong_candidates: list[tuple[AnyCandidate, tuple[Card, ...]]] = []
        #: whether an idea agreed with a wrong guess (by its index) where it was judged
        self._wrong_agree: dict[tuple[int, AnyCandidate], bool] = {}
        #: every plain rule was contradicted while a family still fitted (see _alive_steps)
        self._plain_failed = False
        # the probes of each idea merged, and which candidates agreed with them,
        # for the mainline _probed_at (card indices; see _merged)
        self._probed_at: tuple[int, ...] | None = None
        self._probe_cache: dict[AnyCandidate, list[tuple[list[Card], int]]] = {}
        self._agree_cache: dict[tuple[AnyCandidate, AnyCandidate], bool] = {}
        self._ranked_cache: tuple[int, list[tuple[AnyCandidate, float]]] | None = None
        # what has been read from the engine's public events
        self._events_seen = 0
        self._mainline: list[Card] = []
        self._guessed_at_turn = -1
        # Royal Eleusis: this seat's last bet (cards, kinds, hand when betting)
        # and how many of its verdicts were read (a right R bet tells that
        # every card of the hand was refused)
        self._bet: tuple[tuple[Card, ...], str, tuple[Card, ...]] | None = None
        self._bet_judged = 0
        #: the last card chosen and its predicted probability of acceptance
        self.last_prediction: tuple[Card, float] | None = None
        #: the probability of being right the scientist gave its last guess
        self.last_guess_probability: float | None = None
        #: why it made its last guess (one of :data:`GUESS_REASONS`)
        self.last_guess_reason: str | None = None
        #: for each rule that reached 0.2 in the ranking, how many observations it had then
        self._leader_since: dict[str, int] = {}
        #: for each rule ever ranked among the top ideas, how many observations it had then
        self._listed_since: dict[str, int] = {}
        #: a reading of events left unfinished by a sliced caller (see sync_steps)
        self._reading: Steps[None] | None = None

    @staticmethod
    def prepare_steps(level: str | Strength = "strong", budget_ms: float = 10.0,
                      dealer_noise: float | None = None) -> Iterator[bool]:
        """The slow one-off work before the first scientist, in slices; True when done.

        Builds the hypothesis space (:func:`build_space_steps`), the
        shared prior of the belief and the space's columns (fast
        observations) in slices of about ``budget_ms`` each,
        yielding False after each slice and True last. Afterwards
        ``Scientist(level, seed, dealer_noise)`` costs about a millisecond
        and its first decision a few. A page calls ``next(steps)`` once per
        timer tick until it returns True, so no task blocks the page.
        Raises ``ValueError`` at once for a bad level, budget or noise.
        """
        st = strength(level)
        fam, eps, tol = _belief_parameters(st, dealer_noise)
        if budget_ms <= 0:
            raise ValueError(f"budget_ms must be positive, not {budget_ms!r}")
        return _prepare(st.max_level, fam, tol, budget_ms, eps if st.extra > 0 else None)

    def think(self, view: SeatView, decide: Callable[[Scientist], T],
              budget_ms: float = 8.0) -> Steps[T]:
        """Read ``view``, then ``decide(self)``, in time slices of about ``budget_ms``.

        A page calls ``next()`` once per timer tick: each call works about
        ``budget_ms`` (plus one unit of work) and yields None; the
        generator's return value (``StopIteration.value``) is what
        ``decide`` returns -- exactly what ``sync(view)`` then
        ``decide(self)`` give in one go:

        * the new events are read observation by observation (and a long
          observation, or the replay of a widening, chunk by chunk);
        * ``decide`` is tried while the belief defers its long queries
          (:class:`~eleusis.ai.inference.Deferred`): such a query is then
          computed in slices and memoised, and ``decide`` is tried again
          from its start, with the random generator and the decision's own
          notes restored. The answers are pure functions of the posterior,
          so the last try makes exactly the choices of an unsliced decision.

        ``decide`` asks the scientist (``maybe_action``, ``choose_card``,
        ``explain``...), never the belief behind its back. A caller may stop
        iterating at any time (a person acted meanwhile): what was read stays
        read, and the next reading goes on from there.
        """
        if budget_ms <= 0:
            raise ValueError(f"budget_ms must be positive, not {budget_ms!r}")
        return self._think(view, decide, budget_ms / 1000.0)

    def _think(self, view: SeatView, decide: Callable[[Scientist], T],
               budget: float) -> Steps[T]:
        start = time.perf_counter()
        for _ in self.sync_steps(view):
            if time.perf_counter() - start >= budget:
                yield None
                start = time.perf_counter()
        while True:
            if time.perf_counter() - start >= budget / 2:
                yield None  # a try starts with most of a slice ahead of it
                start = time.perf_counter()
            notes = self._notes()
            belief = self.belief
            belief.defer_after = start + budget
            try:
                return decide(self)
            except Deferred as deferred:
                self._restore(notes)
                work = deferred.work
            finally:
                belief.defer_after = None
            for _ in work:
                if time.perf_counter() - start >= budget:
                    yield None
                    start = time.perf_counter()

    def _notes(self) -> tuple[Any, ...]:
        """What a decision may change besides its memoised queries (see :meth:`think`)."""
        return (self.rng.getstate(), self._ranked_cache, self._last_candidate,
                self.last_prediction, self._guessed_at_turn, self._bet, self._bet_judged,
                self.last_guess_probability, self.last_guess_reason,
                dict(self._leader_since), dict(self._listed_since))

    def _restore(self, notes: tuple[Any, ...]) -> None:
        (rng, self._ranked_cache, self._last_candidate, self.last_prediction,
         self._guessed_at_turn, self._bet, self._bet_judged,
         self.last_guess_probability, self.last_guess_reason, self._leader_since,
         self._listed_since) = notes
        self.rng.setstate(rng)

    @property
    def last_guess_kind(self) -> str | None:
        """What kind of idea the last guess was (see :func:`idea_kind`); None before one."""
        cand = self._last_candidate
        return None if cand is None else idea_kind(self.belief.space, cand)

    @property
    def space_size(self) -> int:
        """How many distinct rules this scientist can think of (before products)."""
        return self.belief.n

    # -- watching -------------------------------------------------------------

    def observe(self, mainline: Sequence[Card], card: Card, accepted: bool) -> None:
        """``card`` was judged after ``mainline`` (correctly played cards only).

        Verdicts at position 1 (the starter and the draws refused as starter)
        are not used: a rule may treat position 1 apart (``if pos == 1 then
        card is A else ...``), and a guess is judged from the current mainline
        on, where position 1 never comes back.
        """
        self._finish_reading()
        finish(self._observe_steps(mainline, card, accepted))

    def _observe_steps(self, mainline: Sequence[Card], card: Card, accepted: bool) -> Steps[None]:
        if not mainline:
            return
        prev2 = mainline[-2] if len(mainline) >= 2 else None
        prev3 = mainline[-3] if len(mainline) >= 3 else None
        yield from self._record_steps(
            Observation(len(mainline) + 1, mainline[-1], card, accepted, prev2, prev3))

    def _record(self, obs: Observation) -> None:
        finish(self._record_steps(obs))

    def _record_steps(self, obs: Observation) -> Steps[None]:
        yield from self.belief.observe_steps(obs)
        alive = yield from self._alive_steps()
        if not alive:
            yield from self._widen_steps()

    def _alive_steps(self) -> Steps[bool]:
        """Is some hypothesis of some family still uncontradicted (one channel a step)?

        When every rule of the enumerated space is contradicted but a family
        beyond it still fits every play, there is nothing to widen: the
        scientist only notes that its plain rules failed
        (:attr:`_plain_failed`, a sign the rule may lie outside its space).
        """
        b = self.belief
        if b.live:
            for f, chans in enumerate(FAMILY_CHANNELS):
                if b.family_prior[f] <= 0:
                    continue
                for c in chans:
                    yield None
                    if not b.best_in_channel(c):
                        break
                else:
                    return True
        yield None
        if any(fam.alive() for fam in b.extras):
            self._plain_failed = True
            return True
        return False

    def _widen(self) -> None:
        finish(self._widen_steps())

    def _widen_steps(self) -> Steps[None]:
        """Every hypothesis is contradicted: tolerate one more mistake and replay.

        The replay pauses between (chunks of) observations; the scientist
        keeps its old belief until the new one has read everything. The
        guesses judged wrong are ruled out again, each where it was judged
        (the widened belief's families start afresh).
        """
        old = self.belief
        if old.kmax >= 3:
            return
        new = Belief(old.space, eps=old.eps, max_mismatches=old.kmax + 1,
                     family_prior=old.family_prior, extra_mass=old.extra_mass,
                     outside=old.outside)
        new.sample_limit = old.sample_limit
        for obs in old.observations:
            yield None
            yield from new.observe_steps(obs)
        for cand, line in self._wrong_candidates:
            yield None
            yield from new.exclude_steps(cand, len(line) + 1, line[-1])
        for cand, line in self._wrong_candidates:
            yield from self._exclude_spellings_steps(new, cand, line)
        new.touch()
        self.belief = new

    def observe_starter(self, starter: Card) -> None:
        """The dealer's starter: the rule accepts it at position 1."""
        self.observe((), starter, True)

    # -- playing --------------------------------------------------------------

    def acceptance(self, mainline: Sequence[Card], cards: Sequence[Card]) -> dict[Card, float]:
        """Predicted probability that each card would be accepted next."""
        prev = mainline[-1] if mainline else None
        prev2 = mainline[-2] if len(mainline) >= 2 else None
        prev3 = mainline[-3] if len(mainline) >= 3 else None
        return self.belief.predict(len(mainline) + 1, prev, cards,
                                   sample_limit=self.strength.samples, prev2=prev2, prev3=prev3)

    def choose_card(self, mainline: Sequence[Card], hand: Sequence[Card]) -> Card:
        """The card to play next from ``hand`` (which must not be empty).

        Score of a card: the entropy of its acceptance as the ideas predict
        it (what the play teaches about them; the outside model's doubt
        about every card never seen is left out, see
        :meth:`eleusis.ai.inference.Belief.inside`), plus a small bonus for
        acceptance (an accepted card opens new contexts), plus, weighted by
        the probability ``q`` that the leading hypothesis is right, how much
        the play would raise ``q`` if the leading hypothesis predicts it
        right (``log2 1/P(its predicted verdict)``): the riskiest prediction
        of the leading theory is the best test of it.
        """
        if not hand:
            raise ValueError("an empty hand has no card to play")
        distinct = sorted(set(hand))
        probs = self.acceptance(mainline, distinct)
        if self.strength.noise and self.rng.random() < self.strength.noise:
            pick = self.rng.choice(distinct)
            self.last_prediction = (pick, probs[pick])
            return pick
        bonus = self.strength.accept_bonus
        lead = self._lead(mainline)
        inside = self.belief.inside(probs)
        scores: dict[Card, float] = {}
        for c in distinct:
            p = probs[c]
            sc = _entropy(inside[c]) + bonus * p
            if lead is not None:
                cand, q = lead
                sc += q * self._test_gain(cand, mainline, c, p)
            scores[c] = round(sc, 9)  # the same choice whatever the platform's libm
        best = max(scores.values())
        ties = [c for c in distinct if scores[c] == best]
        pick = ties[0] if len(ties) == 1 else self.rng.choice(ties)
        self.last_prediction = (pick, probs[pick])
        return pick

    def _lead(self, mainline: Sequence[Card]) -> tuple[AnyCandidate, float] | None:
        ranked = self._ranked_cache
        if ranked is not None and ranked[0] == len(self.belief.observations):
            return ranked[1][0] if ranked[1] else None
        r = self.ranked(mainline)
        return r[0] if r else None

    def _predicts(self, cand: AnyCandidate, mainline: Sequence[Card],
                  card: Card) -> bool:
        return cand.accepts(self.belief.space, mainline, card)

    def _test_gain(self, cand: AnyCandidate, mainline: Sequence[Card], card: Card,
                   p: float) -> float:
        """How much playing ``card`` (accepted with probability ``p``) would raise
        ``cand``'s probability if ``cand`` is right, in bits: ``log2 1/P(its verdict)``."""
        agree = p if self._predicts(cand, mainline, card) else 1.0 - p
        return math.log2(1.0 / max(agree, 1e-3))

    # -- guessing -------------------------------------------------------------

    def ranked(self, mainline: Sequence[Card], limit: int = 3,
               early: bool = False) -> list[tuple[AnyCandidate, float]]:
        """Candidates with their probability of being judged right, best first.

        Candidates the judge would call one rule are one entry, its
        probability counting each of their families (see :meth:`_merged`).
        Before ``RANKED_FROM`` observations none is likely enough to act on,
        so the list is empty then, unless ``early`` (an explanation wants the
        ideas that fit whatever was seen).
        """
        if not mainline or (len(self.belief.observations) < RANKED_FROM and not early):
            return []  # too early for any rule to be likely: save the time
        pos_next = len(mainline) + 1
        last = mainline[-1]
        prev2 = mainline[-2] if len(mainline) >= 2 else None
        b = self.belief
        post, _ = b.family_posterior()
        out: list[_Ranked] = []
        seen: dict[tuple[int | None, ...], tuple[float, dict[int, float]]] = {}
        for c in b.candidates(limit):
            if post[c.family] < 0.01:
                continue  # its probability of being right is below 1%
            if c.family == LAG2 or isinstance(c, ExtraCandidate):
                out.append(_ranked_row(c, *b.right_parts(c, pos_next, last)))
                continue
            beh = reachable_behaviour(b.space, c, pos_next, last)
            key = beh.targets
            if key not in seen:
                sample = None if self.strength.samples is None else 1000
                seen[key] = b.right_parts(c, pos_next, last, sample_limit=sample,
                                          behaviour=beh, prev2=prev2)
            out.append(_ranked_row(c, *seen[key]))
        out.sort(key=lambda x: -x[1])
        if out and len(b.live) > 1000 and out[0][1] > 0.6 * self.strength.guess_threshold:
            # the estimate is promising: measure the best candidate better
            out[0] = _ranked_row(out[0][0], *b.right_parts(
                out[0][0], pos_next, last,
                sample_limit=None if len(b.live) < 8000 else 6000, prev2=prev2))
            out.sort(key=lambda x: -x[1])
        ranked = self._merged(mainline, out)
        self._ranked_cache = (len(b.observations), ranked)
        return ranked

    def _merged(self, mainline: Sequence[Card],
                out: list[_Ranked]) -> list[tuple[AnyCandidate, float]]:
        """The ranked candidates with the ones the judge would call one rule merged.

        Families overlap: ``case pos % 3 when 0 then card is numeral when 1
        then card is numeral else card is face`` and ``if pos % 3 == 2 then
        card is face else card is numeral`` are one rule, and once the
        mainline is past the tenth card ``if pos <= 6 then true else card is
        not hearts`` is ``card is not hearts`` for every card still to come.
        The judge calls a guess right when it agrees with the rule from the
        mainline on, so such candidates are one idea whose probability is the
        sum of their families' parts (by family the largest part found: each
        is a lower bound of that family's mass of the idea). Two candidates
        are taken as one when they judge every card alike after the mainline
        and along continuations the first would accept (:meth:`_probes`).
        An idea one of whose spellings was guessed and judged wrong is
        dropped. Only worth the work when the best idea is likely enough to
        matter (``MERGE_FLOOR``).
        """
        plain = [(c, q) for c, q, _, _ in out]
        if not out or out[0][1] < MERGE_FLOOR:
            return plain
        line = tuple(c.index for c in mainline)
        if self._probed_at != line:  # (what was probed is for another mainline)
            self._probed_at = line
            self._probe_cache.clear()
            self._agree_cache.clear()
        pool = [row for row in out[:MERGE_MOST] if row[1] >= MERGE_MIN]
        merged: list[tuple[AnyCandidate, float]] = []
        used = [False] * len(pool)
        for i, head in enumerate(pool):
            if used[i]:
                continue
            used[i] = True
            if i >= MERGE_HEADS:
                merged.append((head[0], head[1]))
                continue
            group = [head]
            for k in range(i + 1, len(pool)):
                if not used[k] and self._agrees(pool[k][0], head[0], mainline):
                    used[k] = True
                    group.append(pool[k])
            if not self._judged_wrong(head[0], mainline):
                merged.append((head[0], _group_probability(group)))
            # (else this idea was judged wrong already, in other words)
        merged += plain[len(pool):]
        merged.sort(key=lambda x: -x[1])
        return merged

    def _probes(self, mainline: Sequence[Card],
                head: AnyCandidate) -> list[tuple[list[Card], int]]:
        """Mainlines where two candidates must agree to be one idea, with ``head``'s row.

        If ``head`` is the rule, these are mainlines it can produce: the
        mainline itself; for every card that can become the last one within
        ``PROBE_DEPTH`` plays, one way to get there (most rules read the
        last card: each is checked after every last card they can see); and
        ``PROBE_WALKS`` walks of ``PROBE_STEPS`` cards (later positions,
        varied cards two and three back). Seeded by the mainline, so a
        decision does not depend on earlier ones; remembered while the
        mainline stays (a refused card leaves it as it was: see :meth:`_merged`).
        """
        hit = self._probe_cache.get(head)
        if hit is None:
            hit = self._probe_cache[head] = list(self._probes_from(mainline, head))
        return hit

    def _probes_from(self, mainline: Sequence[Card],
                     head: AnyCandidate) -> Iterator[tuple[list[Card], int]]:
        """:meth:`_probes` worked out one at a time (not remembered): a check that
        fails at the first probe need not build the others."""
        rng = random.Random(len(mainline) * 7919 + 17)
        base = list(mainline)
        start = head.row(self.belief.space, base)
        yield base, start
        seen = 0  # (the last cards already probed, as a bit set)
        frontier = [(base, start)]
        for _ in range(PROBE_DEPTH):
            reach: dict[int, list[Card]] = {}
            for line, row in frontier:
                for i in bits_of(row & ~seen):
                    if i not in reach:
                        reach[i] = [*line, ALL_CARDS[i]]
            frontier = []
            for i in sorted(reach):
                seen |= 1 << i
                line = reach[i]
                frontier.append((line, head.row(self.belief.space, line)))
                yield frontier[-1]
        for _ in range(PROBE_WALKS):
            line, row = base, start
            for _ in range(PROBE_STEPS):
                if not row:
                    break
                line = [*line, ALL_CARDS[rng.choice(bits_of(row))]]
                row = head.row(self.belief.space, line)
                yield line, row

    def _agrees(self, cand: AnyCandidate, head: AnyCandidate, mainline: Sequence[Card]) -> bool:
        """Whether ``cand`` accepts what ``head`` accepts after each of ``head``'s probes."""
        key = (cand, head)
        hit = self._agree_cache.get(key)
        if hit is None:
            space = self.belief.space
            hit = self._agree_cache[key] = all(cand.row(space, line) == row
                                               for line, row in self._probes(mainline, head))
        return hit

    def _agrees_from(self, line: Sequence[Card], cand: AnyCandidate,
                     head: AnyCandidate) -> bool:
        """:meth:`_agrees` from the mainline ``line`` (not the current one: not remembered)."""
        space = self.belief.space
        return all(cand.row(space, probe) == row for probe, row in self._probes_from(line, head))

    def _judged_wrong(self, head: AnyCandidate, mainline: Sequence[Card]) -> bool:
        """Whether ``head`` would have been judged as a wrong guess was, where it was.

        The judge compares a guess with the rule from the mainline of the
        guess on: an idea that agrees with a wrong guess along its own
        continuations of that mainline is wrong too. Agreeing from a later
        mainline is not enough: ``card.color == prev.color`` guessed among
        the first ten cards of ``if pos <= 10 then card is red else card is
        black`` is wrong, but after the tenth card, on black cards, the rule
        accepts what it accepts; the rule must stay an idea.
        """
        now = tuple(mainline)
        for i, (wrong, line) in enumerate(self._wrong_candidates):
            key = (i, head)
            hit = self._wrong_agree.get(key)
            if hit is None:
                hit = self._wrong_agree[key] = (
                    self._agrees(wrong, head, mainline) if line == now
                    else self._agrees_from(line, wrong, head))
            if hit:
                return True
        return False

    def consider_guess(self, mainline: Sequence[Card], turns_used: int,
                       max_turns: int = 30, hand: Sequence[Card] = ()) -> str | None:
        """A rule text to guess now, or None to keep experimenting.

        Guess when the probability ``q`` of being right reaches the preset's
        threshold. At the last chance, guess when the expected gain is
        positive (``q * score > 2 * (1 - q)``). When no card in ``hand`` can
        teach anything (every prediction is near-certain: the mainline is
        stuck), a wrong guess is the only way to learn (its counterexample is
        a new observation), so guess from ``q > 1 / (score + 2)`` -- unless
        three guesses were wrong already. Without counterexamples (a wrong
        guess answered by "wrong" alone) a stuck scientist guesses when that
        beats waiting for a card that teaches: ``q > 2 / (wait + 2)``, the
        wait worked out from the share of the deck whose verdict is still in
        doubt (see :meth:`_stuck_threshold`; four turns, the bar 1/3, when a
        quarter of the cards could teach).
        Without counterexamples, a hand none of whose cards would test the
        leading idea (each verdict one it gives 0.93 or more: see
        :meth:`_lead_stuck`) is stuck too, from ``q`` of ``LEAD_STUCK_FLOOR``
        on, its wait counted in cards that test that idea, as long as nothing
        says the rule lies outside the space. Two or three leading ideas that
        hold the threshold between them, told apart by no card of the hand and
        by few of the deck, are a tie: the likeliest is guessed (see
        :meth:`_tie`), each having read ``confirm`` observations
        since it was first listed. A hand whose every play would
        barely move ``q`` (each card's verdict all but certain) guesses
        sooner (see :meth:`_slow`).
        Each wrong guess after the first (and a contradiction of every plain
        rule, or of every hypothesis) raises the threshold by 0.05: the rule
        may lie outside the space. The path taken is kept in :attr:`last_guess_reason` (see
        :data:`GUESS_REASONS`). A rule is guessed only once it has read ``confirm``
        observations since it reached 0.2 (see :class:`Strength`), or, by a
        stuck hand, since it was first among the leading ideas (a tie of a
        few ideas, none reaching 0.2, can last the round). A rule already
        judged wrong is never guessed again.
        """
        ranked = [(c, q) for c, q in self.ranked(mainline)
                  if c.text(self.belief.space) not in self.wrong_guesses]
        if not ranked:
            return None
        cand, q = ranked[0]
        score_now = max_turns - turns_used
        wrong = len(self.wrong_guesses)
        # each wrong guess, and every contradiction of the plain rules or of
        # the whole space, is a sign the rule may lie outside what this
        # scientist can think of
        misfit = max(0, wrong - 1) + (self.belief.kmax > self.strength.tolerance
                                      or self._plain_failed)
        threshold = sure = min(0.97, self.strength.guess_threshold + 0.05 * misfit)
        text = cand.text(self.belief.space)
        seen = len(self.belief.observations)
        watching = bool(self._leader_since)  # (asked before: new leaders can be told)
        for other, q_other in ranked:
            other_text = other.text(self.belief.space)
            self._listed_since.setdefault(other_text, seen)
            if q_other >= 0.2:  # (from then on it is an idea worth testing)
                self._leader_since.setdefault(other_text, seen)
        since = self._leader_since.get(text, seen)
        reason = "sure"
        if turns_used >= max_turns - 1:
            threshold, reason = min(threshold, 2.0 / (score_now + 2.0)), "last turn"
        elif (hand and misfit < 2 and seen - self._listed_since[text] >= self.strength.confirm
              and self._stuck(mainline, hand)):
            # every card of the hand is all but certain: no play tests the
            # leading ideas, however long they have led (a tie of several,
            # each below 0.2, may last the round)
            threshold = self._stuck_threshold(mainline, threshold, score_now)
            reason = "stuck"
        elif (hand and not misfit and not self.counterexamples and q >= LEAD_STUCK_FLOOR
              and seen - self._listed_since[text] >= self.strength.confirm
              and self._lead_stuck(mainline, hand, cand)):
            # no card of the hand tests the leading idea: its plays only
            # weigh ideas far behind it, and the card that tells may not come
            threshold = self._stuck_threshold(mainline, threshold, score_now, cand)
            reason = "lead untestable"
        elif (hand and not misfit and not self.counterexamples
              and self._tie(mainline, hand, ranked, threshold, seen)):
            # two or three ideas hold the mass between them, no card of the
            # hand tells them apart and few cards of the deck would: guess
            # the likeliest
            threshold, reason = q, "tie"
        elif watching and seen - since < self.strength.confirm:
            # a rule that has just come out on top has predicted nothing yet: a
            # chance fit of the plays so far, among thousands, often looks so
            return None
        elif hand and misfit < 2 and q < threshold and self._slow(mainline, hand, cand, q,
                                                                   threshold):
            # waiting to be sure would cost more turns than it saves
            threshold, reason = q, "slow"
        if q < threshold:
            return None
        self._last_candidate = cand
        self.last_guess_probability = q
        # (a guess that reaches the preset's threshold anyway is a sure one)
        self.last_guess_reason = reason if q < sure else "sure"
        return text

    def final_guess(self, mainline: Sequence[Card]) -> str | None:
        """The last guess of a Solo round whose turns are used up, or None to pass.

        The score is then the same whether the round ends solved or not
        (``30 - 30 - 2 x wrong``), so a right guess turns a lost round into a
        solved one for nothing, and a wrong one costs 2 points: guess when
        the probability of being right reaches the preset's ``final_guess``.
        A rule already judged wrong is never guessed again.
        """
        ranked = self.ranked(mainline)
        for cand, q in ranked:
            text = cand.text(self.belief.space)
            if text in self.wrong_guesses:
                continue
            if q < self.strength.final_guess:
                return None
            self._last_candidate = cand
            self.last_guess_probability = q
            self.last_guess_reason = "final"
            return text
        return None

    def _slow(self, mainline: Sequence[Card], hand: Sequence[Card], cand: AnyCandidate,
              q: float, threshold: float) -> bool:
        """Whether waiting for ``cand`` to reach ``threshold`` costs more than a guess now.

        If the leading rule is right, each play multiplies its probability by
        at most ``1 / P(its verdict)``, so with the hand's riskiest prediction
        it needs about ``k = log2(threshold / q) / g`` more turns (``g`` that
        play's gain, in bits). A guess now wins those ``k`` turns with
        probability ``q`` and costs 2 points with ``1 - q``: it pays when
        ``q (k + 2) > 2``. Only a hand that cannot test the rule makes ``k``
        that large; and never below ``SLOW_FLOOR``, which keeps wrong guesses
        rare on rules the scientist cannot write.
        """
        if q < SLOW_FLOOR:
            return False
        probs = self.acceptance(mainline, sorted(set(hand)))
        gain = max(self._test_gain(cand, mainline, c, p) for c, p in probs.items())
        k = math.log2(threshold / q) / gain if gain > 1e-9 else math.inf
        return q * (k + 2.0) > 2.0

    def _tie(self, mainline: Sequence[Card], hand: Sequence[Card],
             ranked: Sequence[tuple[AnyCandidate, float]], threshold: float,
             seen: int) -> bool:
        """Whether the leading ideas are a tie worth breaking by a guess.

        The fewest leading ideas (two, or up to ``TIE_MOST``) that hold
        ``threshold`` between them, each having read ``confirm`` observations
        since it was first listed. The first is told from the others by a
        card one accepts after the mainline and another refuses (a bit of
        their rows' difference). With no such card in the hand, each play
        draws one card of the 52 about uniformly, so with ``k`` of them in
        the deck the wait for one is about ``52 / k`` plays: a tie when that
        is ``TIE_WAIT`` plays or more, and more than guessing the ideas in
        turn costs (two points a wrong guess, ``sum (i - 1) q_i / sum q_i``
        of them expected: at most one for two ideas).
        """
        if len(ranked) < 2 or ranked[0][1] >= threshold:
            return False
        space = self.belief.space
        total = 0.0
        for m in range(len(ranked[:TIE_MOST])):
            total += ranked[m][1]
            if total >= threshold:
                break
        else:
            return False
        group = ranked[:m + 1]
        if any(seen - self._listed_since[c.text(space)] < self.strength.confirm
               for c, _ in group):
            return False
        differ = 0
        head = group[0][0].row(space, mainline)
        for c, _ in group[1:]:
            differ |= head ^ c.row(space, mainline)
        told = differ.bit_count()
        if any(differ >> c.index & 1 for c in hand) or told * TIE_WAIT > len(ALL_CARDS):
            return False
        wrong = sum(i * p for i, (_, p) in enumerate(group)) / total
        return 2.0 * wrong * told < len(ALL_CARDS)

    def _stuck_threshold(self, mainline: Sequence[Card], threshold: float,
                         score_now: int, cand: AnyCandidate | None = None) -> float:
        """The guess threshold of a stuck hand (no card of it can teach).

        With counterexamples a wrong guess is itself a new observation: guess
        from ``1 / (score + 2)``. Without them "wrong" alone teaches little:
        guess when it beats waiting for a card that teaches (a wrong guess
        costs 2 points, a right one saves the wait), ``q > 2 / (wait + 2)``
        (see :meth:`_wait_for_test`; ``cand``, the leading idea, counts only
        the cards that test it).
        """
        if self.counterexamples:
            return min(threshold, max(1.0 / (score_now + 2.0), 0.05))
        wait = min(self._wait_for_test(mainline, cand), float(score_now))
        return min(threshold, 2.0 / (wait + 2.0))

    def _stuck(self, mainline: Sequence[Card], hand: Sequence[Card]) -> bool:
        probs = self.acceptance(mainline, sorted(set(hand)))
        return max(_entropy(p) for p in probs.values()) < STUCK_ENTROPY

    def _lead_stuck(self, mainline: Sequence[Card], hand: Sequence[Card],
                    cand: AnyCandidate) -> bool:
        """Whether no card of ``hand`` would raise ``cand`` by ``LEAD_STUCK_GAIN``.

        The gain is what the card's verdict would add to ``cand`` if it is
        right (see :meth:`_test_gain`): below it, the hand tests only ideas
        far behind the leading one.
        """
        probs = self.acceptance(mainline, sorted(set(hand)))
        return max(self._test_gain(cand, mainline, c, p)
                   for c, p in probs.items()) < LEAD_STUCK_GAIN

    def _wait_for_test(self, mainline: Sequence[Card],
                       cand: AnyCandidate | None = None) -> float:
        """About how many plays a stuck hand waits for a card that can teach.

        A play draws a new card, about uniformly among the 52: with a
        fraction ``f`` of them whose verdict is uncertain now, the wait is
        ``1 / f`` plays (infinite when none is). Few teaching cards (only a
        black 3, 4 or 5 tells ``card.rank >= 3`` from ``>= 6`` among black
        cards) mean a long wait, when a guess pays sooner. With the leading
        idea ``cand``, a card teaches when it tests that idea (see
        :meth:`_lead_stuck`).
        """
        probs = self.acceptance(mainline, ALL_CARDS)
        if cand is None:
            teach = sum(1 for p in probs.values() if _entropy(p) >= STUCK_ENTROPY)
        else:
            teach = sum(1 for c, p in probs.items()
                        if self._test_gain(cand, mainline, c, p) >= LEAD_STUCK_GAIN)
        return len(ALL_CARDS) / teach if teach else math.inf

    def guess_rejected(self, mainline: Sequence[Card], text: str) -> None:
        """The last guess (``text``) was judged wrong: never make it again."""
        self._finish_reading()
        finish(self._rejected_steps(mainline, text))

    def _rejected_steps(self, mainline: Sequence[Card], text: str) -> Steps[None]:
        self.wrong_guesses.append(text)
        cand = self._last_candidate
        if cand is not None and cand.text(self.belief.space) == text and mainline:
            self._wrong_candidates.append((cand, tuple(mainline)))
            self._ranked_cache = None
            yield from self.belief.exclude_steps(cand, len(mainline) + 1, mainline[-1])
            yield from self._exclude_spellings_steps(self.belief, cand, tuple(mainline))

    def _exclude_spellings_steps(self, belief: Belief, wrong: AnyCandidate,
                                 line: tuple[Card, ...]) -> Steps[None]:
        """Rule out, in every family, the likeliest rules that are ``wrong`` in other words.

        A guess judged wrong is ruled out in its own family; but the same rule
        written by another family (``card is face or prev.rank % card.rank ==
        0`` guessed as a pair of blocks is also ``if card is face then true
        else prev.rank % card.rank == 0``, a split on the card) kept its mass
        there: the explanation dropped it, as judged wrong, while it held
        most of the posterior, and every other idea looked unlikely. Each of
        the likeliest candidates that judges like ``wrong`` along its own
        continuations of the guess's mainline ``line`` (as
        :meth:`_judged_wrong` reads it) is ruled out too, until none is.
        """
        for _ in range(SPELLINGS_ROUNDS):
            yield None
            same = []
            for c in belief.candidates(SPELLINGS_LIMIT):
                if c == wrong:
                    continue
                if self._agrees_from(line, wrong, c):
                    same.append(c)
            if not same:
                return
            for c in same:
                yield from belief.exclude_steps(c, len(line) + 1, line[-1])
            self._ranked_cache = None

    # -- explaining -----------------------------------------------------------

    def outside_probability(self) -> float:
        """How probable the scientist finds it that the rule is none it can write.

        High when only odd, improbable rules still fit the plays (see
        :meth:`eleusis.ai.inference.Belief.outside_evidence`); an
        explanation can say "probably a rule I cannot put into words" then.
        """
        self._finish_reading()
        return self.belief.outside_probability()

    def explain(self, mainline: Sequence[Card], limit: int = 5) -> list[Hypothesis]:
        """The top hypotheses with their probabilities, as texts and English.

        Hypotheses that would judge every card alike from here on (after an
        all-red mainline, ``card is red`` and ``card.color == prev.color``)
        are one idea with one probability: only the first, simplest, is
        listed, so the list never shows two lines that say the same thing.
        The probabilities leave room for a rule the scientist cannot write
        (:meth:`eleusis.ai.inference.Belief.outside_probability`); the list
        is empty only when nothing it can write fits the plays.
        """
        space = self.belief.space
        pos_next = len(mainline) + 1
        last = mainline[-1] if mainline else None
        out: list[Hypothesis] = []
        seen: set[object] = set()
        for c, q in self.ranked(mainline, max(limit, 3) + 3, early=True):
            text = c.text(space)
            if text in seen:
                continue  # (two families may write the same rule)
            seen.add(text)
            if isinstance(c, Candidate) and c.family != LAG2 and last is not None:
                key = reachable_behaviour(space, c, pos_next, last).targets
                if key in seen:
                    continue
                seen.add(key)
            # a split on the card that is a plain rule in other words (``if
            # card is red then false else card.rank != 11``): one idea
            table = (("table", c.owner.table(c.parts))
                     if isinstance(c, ExtraCandidate) and isinstance(c.owner, CardSplitFamily)
                     and c.owner.back == 1
                     else ("table", space.bits[c.parts[0]])
                     if isinstance(c, Candidate) and c.family == 0 else None)
            if table is not None:
                if table in seen:
                    continue
                seen.add(table)
            out.append(Hypothesis(text, c.english(space), q))
            if len(out) == limit:
                break
        return out

    # -- playing through the engine ---------------------------------------------

    def sync(self, view: SeatView) -> None:
        """Read the public events of ``view`` not read yet (starter, plays, guesses).

        Everything a scientist learns comes from here: the starter (and the
        draws the rule refused as a starter), every play and its verdict, and
        the counterexample that answers a wrong guess. (:meth:`sync_steps` in
        one go.)
        """
        finish(self.sync_steps(view))

    def sync_steps(self, view: SeatView) -> Steps[None]:
        """:meth:`sync`, pausing (yielding None) between observations and chunks of them.

        A reading left unfinished (the caller stopped iterating) is resumed
        first by the next reading, so no event is read twice or skipped; the
        events of later views extend those of earlier ones.
        """
        while self._reading is not None:
            reading = self._reading
            for _ in reading:  # not "yield from": closing this generator must not close it
                yield None
            if self._reading is reading:
                self._reading = None
        reading = self._read_steps(view)
        self._reading = reading
        for _ in reading:
            yield None
        if self._reading is reading:
            self._reading = None

    def _finish_reading(self) -> None:
        """Finish a reading left unfinished (before anything else reads or changes the belief)."""
        while self._reading is not None:
            reading = self._reading
            for _ in reading:
                pass
            if self._reading is reading:
                self._reading = None

    def _read_steps(self, view: SeatView) -> Steps[None]:
        events = view.events
        for k in range(self._events_seen, len(events)):
            ev = events[k]
            self._events_seen = k + 1  # (read on from here if this reading is resumed)
            if ev.kind == "verdict" and ev.cards and ev.right is not None:
                nxt = events[k + 1] if k + 1 < len(events) else None
                yield from self._royal_verdict(view, ev.seat, ev.cards[0], ev.text, ev.right,
                                               nxt is not None and nxt.kind == "dealer_plays")
            elif ev.kind == "bet" and ev.seat == view.seat:
                self._bet_judged = 0
            elif ev.kind == "starter" and ev.cards:
                if ev.right is False:
                    yield from self._observe_steps((), ev.cards[0], False)
                else:
                    yield from self._observe_steps((), ev.cards[0], True)
                    self._mainline = [ev.cards[0]]
            elif ev.kind == "play" and ev.cards and ev.right is not None:
                line = list(self._mainline)
                for card in ev.cards:
                    if ev.right:
                        yield from self._observe_steps(line, card, True)
                        line.append(card)
                if not ev.right and len(ev.cards) == 1:
                    # (a wrong play of several cards only says "not all of them")
                    yield from self._observe_steps(line, ev.cards[0], False)
                self._mainline = line
            elif ev.kind == "no_play" and ev.right is True and ev.cards:
                # a right "no play": every card of the shown hand is refused here
                for card in dict.fromkeys(ev.cards):
                    yield from self._observe_steps(self._mainline, card, False)
            elif ev.kind == "dealer_plays" and ev.cards:
                yield from self._observe_steps(self._mainline, ev.cards[0], True)
                self._mainline = [*self._mainline, ev.cards[0]]
            elif ev.kind == "guess" and ev.right is False and ev.seat == view.seat:
                yield from self._rejected_steps(self._mainline, ev.text)
            elif ev.kind == "counterexample" and ev.seat == view.seat and self.counterexamples:
                obs = parse_counterexample(ev.text)
                if obs is not None and obs.prev is not None:
                    yield from self._record_steps(obs)
        self._events_seen = len(events)
        if tuple(self._mainline) != view.mainline:
            # events and layout disagree (a variant this scientist does not
            # know yet): trust the layout
            self._mainline = list(view.mainline)

    def _royal_verdict(self, view: SeatView, seat: int, card: Card, kind: str, right: bool,
                       dealer_plays: bool) -> Steps[None]:
        """Royal Eleusis: one judged bet as evidence (only what the engine shows).

        A right A bet: accepted (it joins the mainline). A wrong A bet:
        refused. A right R bet: refused -- and, for this seat's own bets,
        every card then in its hand was refused too (the rule of R bets).
        A wrong R bet: either the card itself was acceptable (it joins the
        mainline) or it was refused and God plays another card of the hand
        (the ``dealer_plays`` event that follows). Face-down cards carry no
        information and are never read.
        """
        line = self._mainline
        if kind == "A":
            yield from self._observe_steps(line, card, right)
            if right:
                self._mainline = [*line, card]
        elif right:
            yield from self._observe_steps(line, card, False)
            bet = self._bet
            if seat == view.seat and bet is not None:
                cards, kinds, hand = bet
                done = self._bet_judged
                if done < len(cards) and cards[done] == card and kinds[done] == "R":
                    left = list(hand)
                    for c in cards[:done]:
                        if c in left:
                            left.remove(c)
                    for c in dict.fromkeys(left):
                        if c != card:
                            yield from self._observe_steps(line, c, False)
        elif dealer_plays:
            # God plays the acceptable card next
            yield from self._observe_steps(line, card, False)
        else:
            # the card was acceptable: it joins the mainline
            yield from self._observe_steps(line, card, True)
            self._mainline = [*line, card]
        if seat == view.seat:
            self._bet_judged += 1

    def choose_action(self, view: SeatView) -> Action:
        """The next action from this seat's view (Solo: always one).

        Raises ``ValueError`` when this seat has nothing it wants to do now
        (at a table, use :meth:`maybe_action`).
        """
        action = self.maybe_action(view)
        if action is None:
            raise ValueError("this seat has nothing it wants to do now")
        return action

    def maybe_action(self, view: SeatView) -> Action | None:
        """The next action from this seat's view, or None to let an optional step pass.

        Solo: guess or play (always an action). New Eleusis and Express:
        the prophet's call on a pending play, declaring prophet, guessing
        (Express), playing one card or several, or "no play". None when
        this seat may act but chooses not to (declaring prophet is optional).
        """
        self.sync(view)
        seat = view.seat if view.seat is not None else 0
        mainline = view.mainline
        kinds = view.legal.kinds
        if view.variant == "solo":
            max_turns = view.turns + 1 if view.phase == "final_guess" else 30
            if view.phase == "final_guess":
                text = self.final_guess(mainline)
                return Guess(seat, text) if text is not None else Pass(seat)
            if "guess" in kinds and self._guessed_at_turn != view.turns:
                text = self.consider_guess(mainline, view.turns, max_turns, view.hand)
                if text is not None:
                    self._guessed_at_turn = view.turns
                    return Guess(seat, text)
            return Play(seat, (self.choose_card(mainline, view.hand),))
        if view.variant not in ("new_eleusis", "express", "royal"):
            return None  # a variant this scientist does not know
        if "prophet_call" in kinds and view.pending is not None:
            return self._prophet_call(view, seat)
        if "declare_prophet" in kinds:
            lead = self._lead(mainline)
            if lead is not None and lead[1] >= self.strength.prophet_threshold:
                return DeclareProphet(seat)
        if view.variant == "royal":
            if "bet" in kinds and view.hand and view.legal.bet_kinds:
                return self._royal_bet(view, seat)
            return None
        if "guess" in kinds and self._guessed_at_turn != len(self.belief.observations):
            text = self.consider_guess(mainline, 0, 30, view.hand)
            if text is not None:
                self._guessed_at_turn = len(self.belief.observations)
                return Guess(seat, text)
        if "play" in kinds and view.hand:
            return self._table_play(view, seat)
        if "no_play" in kinds:
            return NoPlay(seat)
        return None

    def _table_play(self, view: SeatView, seat: int) -> Action:
        """A play at a table: get rid of cards, learn on the way.

        "No play" when every card of the hand is almost surely refused;
        several cards when the leading hypothesis is known well enough
        (each card accepted by it after the previous ones); otherwise the
        card with the best mix of acceptance and information.
        """
        mainline = view.mainline
        hand = list(view.hand)
        distinct = sorted(set(hand))
        probs = self.acceptance(mainline, distinct)
        if "no_play" in view.legal.kinds and max(probs.values()) < 0.03:
            return NoPlay(seat)
        lead = self._lead(mainline)
        if (lead is not None and lead[1] >= self.strength.prophet_threshold
                and view.legal.max_cards > 1):
            cand = lead[0]
            line = list(mainline)
            chosen: list[Card] = []
            left = list(hand)
            while len(chosen) < view.legal.max_cards:
                ok = [c for c in sorted(set(left)) if self._predicts(cand, line, c)]
                if not ok:
                    break
                pick = ok[0]
                chosen.append(pick)
                left.remove(pick)
                line.append(pick)
            if chosen:
                self.last_prediction = (chosen[0], probs.get(chosen[0], 0.0))
                return Play(seat, tuple(chosen))
        if self.strength.noise and self.rng.random() < self.strength.noise:
            pick = self.rng.choice(distinct)
        else:
            scores = {c: round(probs[c] + 0.3 * _entropy(probs[c]), 9) for c in distinct}
            best = max(scores.values())
            ties = [c for c in distinct if scores[c] == best]
            pick = ties[0] if len(ties) == 1 else self.rng.choice(ties)
        self.last_prediction = (pick, probs[pick])
        return Play(seat, (pick,))

    # -- Royal Eleusis ------------------------------------------------------------

    def _rows(self, line: Sequence[Card]) -> dict[int, float]:
        """The normalised posterior over what the rule accepts after ``line``."""
        prev = line[-1] if line else None
        prev2 = line[-2] if len(line) >= 2 else None
        prev3 = line[-3] if len(line) >= 3 else None
        rows = self.belief.row_weights(len(line) + 1, prev, self.strength.samples, prev2, prev3)
        total = fsum(rows.values())
        return {r: w / total for r, w in rows.items()} if total > 0 else {FULL52: 1.0}

    @staticmethod
    def _p_none(rows: dict[int, float], cards: Sequence[Card]) -> float:
        """Probability that no card of ``cards`` is acceptable."""
        mask = 0
        for c in cards:
            mask |= 1 << c.index
        return fsum(w for r, w in rows.items() if not r & mask)

    @staticmethod
    def _p_card(rows: dict[int, float], card: Card) -> float:
        b = 1 << card.index
        return fsum(w for r, w in rows.items() if r & b)

    @staticmethod
    def _p_cards(rows: dict[int, float], cards: Sequence[Card]) -> dict[Card, float]:
        """``_p_card`` of each card, in one pass over the rows (thousands for an expert).

        The rows are grouped by what they say of these cards only; each
        probability is the ``fsum`` of the same weights as ``_p_card``'s, so
        exactly the same number (``fsum`` is correctly rounded: order-free).
        """
        return dict(zip(cards, card_masses(rows, cards), strict=True))

    def _royal_bet(self, view: SeatView, seat: int) -> Action:
        """Royal Eleusis: the bet sequence with the best expected hand reduction.

        A right bet sheds a card; a wrong one costs a card (replacement and
        malus) and so does every later bet of the move (face down). With
        ``p_j`` the chance bet ``j`` is right after the ones before, a move
        of ``n`` bets is worth ``sum_j P(1..j-1 right) (p_j - (1 - p_j)(n - j + 1))``.
        A cards are chosen greedily (the most acceptable, each after the
        previous one); R bets are right only if no card of the hand is
        acceptable then, so their chance is the posterior mass of the rules
        refusing the whole remaining hand. While the leading hypothesis is
        not trusted yet (below the prophet threshold), a single A bet on the
        card with the best mix of acceptance and information is compared
        with the other shapes by its expected value plus what it teaches.
        In sudden death (a wrong move expels) only the safest single-shape
        moves are considered.
        """
        hand = list(view.hand)
        allowed = set(view.legal.bet_kinds)
        line = list(view.mainline)
        distinct = sorted(set(hand))
        rows = self._rows(line)
        probs = self._p_cards(rows, distinct)
        if self.strength.noise and self.rng.random() < self.strength.noise:
            pick = self.rng.choice(distinct)
            return self._bet_action(seat, (pick,), "A", hand, probs[pick])
        lead = self._lead(line)
        sure = lead is not None and lead[1] >= self.strength.prophet_threshold
        options: list[tuple[float, tuple[Card, ...], str, list[float]]] = []
        # A chains, greedily, with R tails
        chain: list[Card] = []
        chain_p: list[float] = []
        left = list(hand)
        cur_line = list(line)
        cur_rows = rows
        for n_a in range(0, 5):
            n_r_max = 4 - n_a
            if n_a > 0 or n_r_max == 4:
                pn = self._p_none(cur_rows, left)
                for n_r in range(0, n_r_max + 1):
                    shape = "A" * n_a + "R" * n_r
                    if shape not in allowed or len(shape) > len(hand):
                        continue
                    ps = chain_p + [pn] + [1.0] * (n_r - 1) if n_r else list(chain_p)
                    tail = tuple(sorted(left, key=lambda c: (probs.get(c, 0.0), c.index))[:n_r])
                    options.append((_move_value(ps), (*chain, *tail), shape, ps))
            if n_a == 4 or not left or (not sure and n_a >= 1):
                break
            cand = sorted(set(left))
            pc = self._p_cards(cur_rows, cand)
            best = max(cand, key=lambda c: (round(pc[c], 9), -c.index))
            chain.append(best)
            chain_p.append(pc[best])
            left.remove(best)
            cur_line.append(best)
            if n_a < 3:
                cur_rows = self._rows(cur_line)
        if not sure and "A" in allowed:
            # learning: a single A bet on the most informative acceptable card
            scores = {c: round(probs[c] + 0.3 * _entropy(probs[c]), 9) for c in distinct}
            top = max(scores.values())
            ties = [c for c in distinct if scores[c] == top]
            pick = ties[0] if len(ties) == 1 else self.rng.choice(ties)
            p = probs[pick]
            options.append((_move_value([p]) + 0.5 * _entropy(p), (pick,), "A", [p]))
        if view.sudden_death:
            # a wrong move expels: the move most likely to be right
            options = [(math.prod(ps), c, k, ps) for _, c, k, ps in options]
        if not options:
            pick = max(distinct, key=lambda c: (probs[c], -c.index))
            return self._bet_action(seat, (pick,), "A", hand, probs[pick])
        best_opt = max(options, key=lambda o: (round(o[0], 9), -len(o[2])))
        _, cards, kinds, _ = best_opt
        return self._bet_action(seat, cards, kinds, hand, probs.get(cards[0], 0.0))

    def _bet_action(self, seat: int, cards: tuple[Card, ...], kinds: str,
                    hand: Sequence[Card], p_first: float) -> Bet:
        self._bet = (cards, kinds, tuple(hand))
        self._bet_judged = 0
        self.last_prediction = (cards[0], p_first if kinds[0] == "A" else 1.0 - p_first)
        return Bet(seat, cards, kinds)

    def _royal_call(self, view: SeatView, seat: int) -> Action:
        """The prophet's call on the bet being judged.

        An A bet is called right when its card is more likely accepted than
        not. An R bet is right when no card of the scientist's hand (shown
        to the prophet as the cards it may name) is acceptable; called wrong,
        the prophet names the card most likely to be approved (the bet card
        itself if acceptable, else another acceptable card while the bet
        card is not).
        """
        pending = view.pending
        assert pending is not None
        i = min(pending.index, len(pending.cards) - 1)
        card, kind = pending.cards[i], pending.text[i]
        rows = self._rows(view.mainline)
        if kind == "A":
            return ProphetCall(seat, self._p_card(rows, card) >= 0.5)
        hand = list(view.legal.call_cards) or [card]
        if self._p_none(rows, [*hand, card]) >= 0.5:
            return ProphetCall(seat, True)
        cb = 1 << card.index

        def approved(x: Card) -> float:
            if x == card:
                return self._p_card(rows, card)
            xb = 1 << x.index
            return fsum(w for r, w in rows.items() if r & xb and not r & cb)

        name = max(hand, key=lambda x: (round(approved(x), 9), -x.index))
        return ProphetCall(seat, False, name)

    def _prophet_call(self, view: SeatView, seat: int) -> Action:
        """The prophet's call: is the pending play (or "no play", or bet) right?"""
        pending = view.pending
        assert pending is not None
        if pending.kind == "bet":
            return self._royal_call(view, seat)
        line = list(view.mainline)
        if pending.kind == "no_play":
            probs = self.acceptance(line, sorted(set(pending.cards)))
            p_right = 1.0
            for p in probs.values():
                p_right *= 1.0 - p
            if p_right >= 0.5 or not view.legal.call_cards:
                return ProphetCall(seat, True)
            options = [c for c in view.legal.call_cards if c in probs]
            options = options or list(view.legal.call_cards)
            best = max(options, key=lambda c: (probs.get(c, 0.0), -c.index))
            return ProphetCall(seat, False, best)
        p_all = 1.0
        for card in pending.cards:
            p = self.acceptance(line, [card])[card]
            p_all *= p
            line.append(card)
        return ProphetCall(seat, p_all >= 0.5)

def _belief_parameters(st: Strength, dealer_noise: float | None
                       ) -> tuple[tuple[float, float, float, float], float, int]:
    """(family prior, eps, tolerance) of a scientist's belief."""
    fam = (0.88, 0.07, 0.03, 0.02) if st.periodic else (1.0, 0.0, 0.0, 0.0)
    eps, tol = st.eps, st.tolerance
    if dealer_noise is not None:
        if not 0.0 < dealer_noise < 0.5:
            raise ValueError("dealer_noise must lie strictly between 0 and 0.5")
        eps, tol = dealer_noise, max(tol, 1)
    return fam, eps, tol


def _prepare(max_level: int, fam: tuple[float, ...], tol: int,
             budget_ms: float, extra_eps: float | None = None) -> Iterator[bool]:
    space = None
    for space in build_space_steps(max_level, budget_ms):
        if space is None:
            yield False
    assert space is not None
    yield False
    for start in initial_steps(space, LEVEL_MASS, tol, tuple(f > 0 for f in fam), budget_ms):
        if start is None:
            yield False
    yield False
    if tol < 3:
        # the belief a scientist widens to when the dealer seems to contradict
        # every hypothesis (see Scientist._widen): ready too, so widening
        # mid-game replays the observations without rebuilding the prior
        for start in initial_steps(space, LEVEL_MASS, tol + 1, tuple(f > 0 for f in fam),
                                   budget_ms):
            if start is None:
                yield False
        yield False
    for cols in columns_steps(space, budget_ms):
        if cols is None:
            yield False
    if extra_eps is not None:
        # the families beyond the space (each scientist copies them)
        for kmax in (tol, tol + 1) if tol < 3 else (tol,):
            for _ in families_steps(space, kmax, extra_eps):
                yield False
    yield True


def _move_value(ps: Sequence[float]) -> float:
    """Expected cards shed by a move of bets right with chances ``ps`` (in turn).

    Bet ``j`` is reached when the ones before were right; right, it sheds a
    card; wrong, it and every later bet cost a card each.
    """
    n = len(ps)
    value = 0.0
    reach = 1.0
    for j, p in enumerate(ps):
        value += reach * (p - (1.0 - p) * (n - j))
        reach *= p
    return value


def parse_counterexample(text: str) -> Observation | None:
    """The observation inside a counterexample sentence, or None.

    ``"after 7♠ K♥ your rule accepts 3♦; the secret rule rejects it"``: the
    secret rule judged 3♦ at position 3 after K♥ (see
    :attr:`eleusis.rules.compare.Counterexample.sentence`). A long mainline
    is told by its length and last cards (``"after 12 cards ending in 4♥ 5♦
    6♣ 7♠ 8♥ 9♦, your rule ..."``): enough for the position and the cards
    before, which is all an observation holds.
    """
    try:
        head, tail = text.split(";", 1)
        words = head.replace(",", " ").split()
        card = Card.parse(words[-1])
        if words[:1] == ["after"] and words[2:5] == ["cards", "ending", "in"]:
            line = [Card.parse(w) for w in words[5:words.index("your")]]
            pos = int(words[1]) + 1
        elif words[:1] == ["after"]:
            line = [Card.parse(w) for w in words[1:words.index("your")]]
            pos = len(line) + 1
        elif head.startswith("as the first card"):
            line, pos = [], 1
        else:
            return None
        accepted = "secret rule accepts" in tail
        return Observation(pos, line[-1] if line else None, card, accepted,
                           line[-2] if len(line) >= 2 else None)
    except (ValueError, IndexError):
        return None
