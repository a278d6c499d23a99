"""Exact comparison of two rules, with the shortest counterexample.

A guess is right when, from the current mainline on, it gives the same verdict
as the secret rule on every card after every mainline the secret rule could
still produce (design: "When is a guess right?"). :func:`compare` checks this
exactly by a breadth-first search over the reduced states of
:class:`~eleusis.rules.abstract.Space` (the last cards reduced to the
attributes the two rules read, the position folded by its period), judging
every class of card in every state the secret rule can reach. The first
disagreement found is a shortest counterexample, and its mainline is concrete:
the secret rule accepts it card by card.

Only when the search exceeds :data:`EXACT_BUDGET` units of work (card
judgements plus state transitions; three or four looked-back cards each read
whole, say) does it fall back to a sampled check over random games, and then
says so: ``exact`` is False and ``note`` explains. A counterexample found by
sampling is still a real one (replayable), only perhaps not the shortest; an
"equivalent" found by sampling is not a proof.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from eleusis.cards import ALL_CARDS, Card
from eleusis.rules.abstract import POS_MAX, OverBudget, Space, Walk
from eleusis.rules.rule import Rule

#: Work (card judgements + state transitions) before falling back to sampling.
EXACT_BUDGET: Final = 600_000
#: Sampled fallback: games played and the longest game.
SAMPLE_GAMES: Final = 40
SAMPLE_LENGTH: Final = 60


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
    """
    mainline = tuple(mainline)
    if secret == guess:
        return Comparison(True, True, None)
    limit = max(max_pos, len(mainline) + 1)
    space = Space((secret, guess), limit)
    try:
        return _exact(space, secret, guess, mainline, limit, budget)
    except OverBudget:
        return _sampled(space, secret, guess, mainline, limit)


def _exact(
    space: Space, secret: Rule, guess: Rule, mainline: tuple[Card, ...], limit: int, budget: int
) -> Comparison:
    """The breadth-first search of :class:`~eleusis.rules.abstract.Walk`: the
    first state where the verdicts differ gives a shortest counterexample."""
    walk = Walk(space, (secret, guess), mainline, plays=limit - len(mainline) - 1,
                budget=budget, count_moves=True)
    candidates = space.candidates
    for i, ((sv, gv), _, _) in walk:
        if sv != gv:
            j = next(j for j, (a, b) in enumerate(zip(sv, gv, strict=True)) if a != b)
            ce = Counterexample(mainline + walk.path(i), ALL_CARDS[candidates[j]], sv[j], gv[j])
            return Comparison(False, True, ce, explored=len(walk.states))
    return Comparison(True, True, None, explored=len(walk.states))


def _back(line: list[Card], depth: int) -> tuple[Card | None, ...]:
    tail = line[max(0, len(line) - depth) :][::-1] if depth else []
    return (*tail, *((None,) * (depth - len(tail))))


def _sampled(
    space: Space, secret: Rule, guess: Rule, mainline: tuple[Card, ...], limit: int
) -> Comparison:
    """Random games of the secret rule, every card class checked at every step."""
    rng = random.Random(0x5EC2E7)
    candidates = space.candidate_cards
    depth = space.depth
    plays = 0
    best: Counterexample | None = None
    for _ in range(SAMPLE_GAMES):
        line = list(mainline)
        while len(line) + 1 <= limit and len(line) - len(mainline) < SAMPLE_LENGTH:
            if best is not None and len(best.mainline) <= len(line):
                break
            plays += 1
            back = _back(line, depth)
            pos = len(line) + 1
            sv = secret.judge_all(candidates, back, pos)
            gv = guess.judge_all(candidates, back, pos)
            if sv != gv:
                i = next(i for i, (a, b) in enumerate(zip(sv, gv, strict=True)) if a != b)
                best = Counterexample(tuple(line), candidates[i], sv[i], gv[i])
                break
            legal = [c for c, ok in zip(ALL_CARDS, secret.judge_all(ALL_CARDS, back, pos),
                                        strict=True) if ok]
            if not legal:
                break
            line.append(rng.choice(legal))
    note = (
        f"the rules read too many card details to compare every case exactly; "
        f"{SAMPLE_GAMES} random games of up to {SAMPLE_LENGTH} cards were checked "
        f"({plays} positions)"
    )
    if best is not None:
        note += "; the counterexample is real but may not be the shortest"
    return Comparison(best is None, False, best, note, explored=plays)


__all__ = ["EXACT_BUDGET", "Comparison", "Counterexample", "compare"]
