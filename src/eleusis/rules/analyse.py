"""The dealer's aid: how a rule plays before anyone plays it.

The seeds advise the dealer to "test the rule beforehand". :func:`analyse`
does it:

* **acceptance rate**: random legal mainlines are built (each next card drawn
  uniformly among the cards the rule accepts, a full deck each time); at every
  step the share of the 52 cards the rule accepts is recorded; the rate is the
  mean share. Above :data:`TOO_PERMISSIVE` (0.75) players learn little from a
  play ("too permissive"); below :data:`TOO_RESTRICTIVE` (0.12) nearly every
  play is wrong and the mainline hardly grows ("too restrictive").
* **dead ends**: a reachable mainline after which no card at all is legal
  (then "no play" is the only move). Searched exactly, breadth-first over the
  reduced states of :class:`~eleusis.rules.abstract.Space`, within the first
  :data:`DEAD_END_PLAYS` plays; the shortest is reported. A rule too large for
  the exact search falls back to the dead ends met by the random mainlines,
  and ``dead_end_exact`` is False.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Final

from eleusis.cards import ALL_CARDS, Card
from eleusis.i18n import _
from eleusis.rules.abstract import Key, OverBudget, Space, Walk
from eleusis.rules.rule import Rule

#: Mean acceptance above this is "too permissive".
TOO_PERMISSIVE: Final = 0.75
#: Mean acceptance below this is "too restrictive".
TOO_RESTRICTIVE: Final = 0.12
#: Dead ends are searched within this many plays.
DEAD_END_PLAYS: Final = 60
#: Most (state, card class) judgements in the exact dead-end search.
DEAD_END_BUDGET: Final = 200_000


@dataclass(frozen=True)
class Analysis:
    """What :func:`analyse` found (see the module doc for the definitions)."""

    rule: Rule
    lookback: int
    uses_pos: bool
    #: mean share of the 52 cards accepted along random legal mainlines
    acceptance_rate: float
    #: share of the 52 cards accepted as the very first card
    first_card_rate: float
    #: a shortest reachable mainline after which no card is legal, or None
    dead_end: tuple[Card, ...] | None
    #: False when the dead-end search had to fall back to random mainlines
    dead_end_exact: bool
    warnings: list[str] = field(default_factory=list)  # (in the player's language)
    #: neutral facts for the dealer ("the first card is unconstrained")
    notes: list[str] = field(default_factory=list)
    #: plays simulated for the acceptance rate
    plays: int = 0

    def report(self) -> str:
        """A few lines for a dealer."""
        lines = [
            f"look-back: {self.lookback} card{'s' if self.lookback != 1 else ''}"
            f"{', reads the position' if self.uses_pos else ''}",
            f"acceptance rate: {self.acceptance_rate:.0%} of cards on a typical play "
            f"({self.first_card_rate:.0%} as the first card)",
        ]
        if self.dead_end is None:
            within = f"within {DEAD_END_PLAYS} plays" if self.dead_end_exact else "in random games"
            lines.append(f"dead ends: none {within}")
        else:
            lines.append(f"dead end: {_after(self.dead_end)} no card is legal")
        lines += [f"warning: {w}" for w in self.warnings]
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)


def _after(cards: tuple[Card, ...]) -> str:
    if not cards:
        return "from the start"
    return "after " + " ".join(c.symbol for c in cards)



def _percent(rate: float, threshold: float) -> str:
    """``rate`` as a percentage, with a decimal when the whole number would read
    as the threshold itself ("75.4% (more than 75%)", never "75% (more than 75%)")."""
    whole = f"{rate:.0%}"
    return f"{rate:.1%}" if whole == f"{threshold:.0%}" else whole

def analyse(
    rule: Rule,
    rng: random.Random | None = None,
    *,
    games: int = 100,
    length: int = DEAD_END_PLAYS,
    budget: int = DEAD_END_BUDGET,
) -> Analysis:
    """Analyse ``rule``: acceptance, dead ends, warnings. Deterministic for a
    given ``rng`` state (a fresh ``random.Random(0)`` when None)."""
    rng = rng if rng is not None else random.Random(0)
    space = Space((rule,))
    cands = space.candidate_cards
    weights = [space.weight[i] for i in space.candidates]
    depth = space.depth

    rep1 = space.rep[1]
    deep = depth > 0
    # per verdict key: the weight of each candidate if legal (else 0), and their sum
    table: dict[Key, tuple[list[int], int]] = {}
    total_share = 0.0
    plays = 0
    sampled_dead: tuple[Card, ...] | None = None
    start = space.start(())
    for _game in range(games):
        line: list[Card] = []
        state = start
        for _step in range(length):
            key = space.key(state)
            entry = table.get(key)
            if entry is None:
                verdicts = space.verdicts(rule, key)
                legal = [w if ok else 0 for w, ok in zip(weights, verdicts, strict=True)]
                entry = (legal, sum(legal))
                table[key] = entry
            legal, accepted = entry
            total_share += accepted / 52
            plays += 1
            if accepted == 0:
                if sampled_dead is None or len(line) < len(sampled_dead):
                    sampled_dead = tuple(line)
                break
            pick = rng.choices(range(len(cands)), weights=legal)[0]
            line.append(cands[pick])
            c = space.candidates[pick]
            state = ((rep1[c], *space.tail(state[0])) if deep else (),
                     space.next_pos(state[1]))
    rate = total_share / plays if plays else 0.0
    first = rule.judge_all(ALL_CARDS, (None,) * depth, 1)
    first_rate = sum(first) / 52

    try:
        dead, exact = _dead_end(space, rule, budget), True
    except OverBudget:
        dead, exact = sampled_dead, False

    warnings: list[str] = []
    if rate > TOO_PERMISSIVE:
        warnings.append(_(
            "too permissive: {percent} of cards are legal on a typical play (more than "
            "{limit}); players will learn little from their plays").format(
                percent=_percent(rate, TOO_PERMISSIVE), limit=f"{TOO_PERMISSIVE:.0%}"))
    if rate < TOO_RESTRICTIVE:
        warnings.append(_(
            "too restrictive: only {percent} of cards are legal on a typical play (less than "
            "{limit}); almost every play will be wrong").format(
                percent=_percent(rate, TOO_RESTRICTIVE), limit=f"{TOO_RESTRICTIVE:.0%}"))
    if dead is not None:
        warnings.append(
            _("dead end: after {cards} no card is legal, so 'no play' is the only right move")
            .format(cards=" ".join(c.symbol for c in dead)) if dead else
            _("dead end: from the start no card is legal, so 'no play' is the only right move"))
    notes: list[str] = []
    if first_rate == 1.0 and rule.lookback > 0:
        notes.append(_("the first card is unconstrained: the rule reads earlier cards, and the "
                       "first card has none"))
    if rule.uses_pos:
        notes.append(_("the rule depends on the position of the card in the mainline"))
    return Analysis(rule, rule.lookback, rule.uses_pos, rate, first_rate, dead, exact,
                    warnings, notes, plays)


def _dead_end(space: Space, rule: Rule, budget: int) -> tuple[Card, ...] | None:
    """The shortest mainline (within DEAD_END_PLAYS plays) that leaves no legal card:
    the first state of :class:`~eleusis.rules.abstract.Walk` with no move."""
    walk = Walk(space, (rule,), plays=DEAD_END_PLAYS, budget=budget)
    for i, (_state, moves, _path) in walk:
        if not moves:
            return walk.path(i)
    return None


__all__ = ["DEAD_END_PLAYS", "TOO_PERMISSIVE", "TOO_RESTRICTIVE", "Analysis", "analyse"]
