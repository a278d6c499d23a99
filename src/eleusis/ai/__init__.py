"""The computer scientists: players that reason about the secret rule.

A :class:`Scientist` watches what a player sees (the starter, every play and
its verdict, the answers to its guesses), holds a posterior over tens of
thousands of rules generated from the rule language's building blocks (and
the position-periodic rules built from them; the stronger presets also
splits on the last card, the last two cards, the card itself or the
position with any blocks, relations with two and three cards back, any set
of ranks, the rank against the position: :mod:`eleusis.ai.families`, and the
chance that the rule is none of these), plays the cards that teach it
most, and guesses when the expected score of guessing is positive. It never
reads the rule library, the rule generator or the secret rule.

Public API::

    Scientist.prepare_steps(level="strong", budget_ms=10.0) -> Iterator[bool]
        # the one-off work (space, prior, columns) in slices: call next() once
        # per event-loop tick until it returns True, then create scientists
    Scientist(level="strong", seed=0, dealer_noise=None, counterexamples=True)
        .choose_action(view) -> Action          # engine adapter (Solo: always an action)
        .maybe_action(view) -> Action | None    # Solo, New Eleusis, Express, Royal
                                                # (None: an optional step declined)
        .sync(view)                             # read new public events
        .think(view, decide, budget_ms=8.0)     # sync then decide(sci), in time slices:
                                                # next() per tick; the result is
                                                # StopIteration.value (= the one-go result)
        .observe(mainline, card, accepted)      # low-level: one verdict
        .observe_starter(card)
        .acceptance(mainline, cards) -> {card: probability}
        .choose_card(mainline, hand) -> Card
        .consider_guess(mainline, turns_used, max_turns=30, hand=()) -> str | None
        .final_guess(mainline) -> str | None     # Solo, once the turns are used up
        .guess_rejected(mainline, text)
        .explain(mainline, limit=5) -> [Hypothesis(text, english, probability)]
        .outside_probability() -> float          # "a rule I cannot write" (0..1)
        .last_prediction -> (card, probability of acceptance) | None
    PRESETS, Strength, strength(name)          # novice, casual, strong, expert
    eleusis.ai.space.build_space(max_level) / build_space_steps(max_level, budget_ms)

Royal Eleusis: ``maybe_action`` bets (one of the 8 shapes, by expected
cards shed), declares prophet, and calls bets as prophet; the verdicts are
read as evidence (a right R bet of its own: every card of its hand refused).

The public names load :mod:`eleusis.ai.scientist` on first use, not with the
package: ``import eleusis.ai.blocks`` loads only that module, so a page can
import the scientists' modules one per timer tick (together they take tens
of milliseconds to load in a browser, too long for one task).

>>> import eleusis.ai
>>> eleusis.ai.strength("strong").name
'strong'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from eleusis.ai.scientist import PRESETS, Hypothesis, Scientist, Strength, strength

__all__ = ["PRESETS", "Hypothesis", "Scientist", "Strength", "strength"]

#: The modules of the scientists, each after the ones it imports.
MODULES = ("eleusis.ai.blocks", "eleusis.ai.space", "eleusis.ai.families",
           "eleusis.ai.inference", "eleusis.ai.scientist")


def __getattr__(name: str) -> object:
    """A public name of the package, from :mod:`eleusis.ai.scientist` (loaded now)."""
    if name in __all__:
        from eleusis.ai import scientist

        return getattr(scientist, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
