"""The variants' rules of play, looked up by :class:`eleusis.state.Variant`, and their facts.

Each variant is one :class:`~eleusis.variants.base.VariantRules` subclass in
its own module; :func:`rules_for` gives the shared rules object and
:func:`info` the facts a new-game screen shows (names, seat counts, options,
what the variant has), so a face never branches on a variant's name.

>>> info("royal").bets, info("royal").prophet, info("express").guesses
(True, True, True)
>>> info("new_eleusis").scientists_written_for
(3, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from eleusis import narrate
from eleusis.i18n import _
from eleusis.state import (
    Bet,
    ConfigError,
    DeclareProphet,
    Guess,
    Hint,
    Judge,
    NoPlay,
    OptionValue,
    Pass,
    RequestHint,
    Variant,
)
from eleusis.variants.base import VariantRules
from eleusis.variants.express import ExpressRules
from eleusis.variants.new_eleusis import NewEleusisRules
from eleusis.variants.royal import RoyalRules
from eleusis.variants.solo import SoloRules

_RULES: Final[dict[Variant, VariantRules]] = {
    Variant.NEW_ELEUSIS: NewEleusisRules(),
    Variant.EXPRESS: ExpressRules(),
    Variant.SOLO: SoloRules(),
    Variant.ROYAL: RoyalRules(),
}


def rules_for(variant: Variant | str) -> VariantRules:
    """The (shared, stateless) rules object of a variant (:class:`ConfigError` if unknown)."""
    try:
        return _RULES[Variant(variant)]
    except ValueError:
        raise ConfigError(
            f"unknown variant {variant!r}: use one of {', '.join(v.value for v in Variant)}"
        ) from None


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """One option of a variant: its name, default and allowed values (empty: any)."""

    name: str
    default: OptionValue
    allowed: tuple[OptionValue, ...]


@dataclass(frozen=True, slots=True)
class VariantInfo:
    """What a new-game screen needs to know about a variant, without restating its rules.

    Seat counts are scientists (the dealer not counted; a person dealing takes
    one more seat). ``scientists_written_for`` is what the seed texts were
    written for (``None``: no upper bound), ``scientists`` what the game
    accepts (``docs/rules.md``, "How many players").
    """

    variant: str
    name: str
    scientists: tuple[int, int]
    scientists_written_for: tuple[int, int | None]
    options: tuple[OptionInfo, ...]
    prophet: bool  # a scientist may become prophet
    bets: bool  # moves are Royal bets (accept / refuse per card)
    guesses: bool  # scientists guess the rule in the rule language
    hints: bool  # the dealer gives hints (a person writes them; the computer answers requests)
    person_dealer: bool  # a person may deal (write the rule, or judge by hand)
    judge_by_hand: bool  # a person dealing may judge every play without a written rule
    no_play: bool  # a scientist may declare "no play"
    stop: bool  # a scientist may stop without a last guess (Solo)
    max_play: int  # cards in one play (or bets in one move)
    hand: int  # cards dealt to each scientist
    decks: int
    rotates: bool  # a match is played with each seat dealing once
    compensation: str  # what a match ended early adds, in words
    #: whether a match ended early adds points (the variant defines a compensation)
    compensates: bool = False

    @property
    def players_written_for(self) -> tuple[int, int | None]:
        """People at the table, the dealer included, the rules were written for."""
        low, high = self.scientists_written_for
        if self.variant == Variant.SOLO.value:
            return (1, 1)  # one person against the computer dealer
        return (low + 1, None if high is None else high + 1)


def info(variant: Variant | str) -> VariantInfo:
    """The facts of a variant for the page (:class:`ConfigError` for an unknown name)."""
    rules = rules_for(variant)
    v = Variant(variant)
    actions = rules.ACTIONS
    solo = v is Variant.SOLO
    return VariantInfo(
        variant=v.value,
        name=_(narrate.VARIANT_NAMES[v.value]),
        scientists=(rules.MIN_SCIENTISTS, rules.MAX_SCIENTISTS),
        scientists_written_for=rules.WRITTEN_FOR,
        options=tuple(
            OptionInfo(name, default, allowed)
            for name, (default, allowed) in sorted(rules.OPTIONS.items())
        ),
        prophet=DeclareProphet in actions,
        bets=Bet in actions,
        guesses=Guess in actions,
        hints=Hint in actions or RequestHint in actions,
        person_dealer=not solo,
        judge_by_hand=Judge in actions,
        no_play=NoPlay in actions,
        stop=Pass in actions,
        max_play=rules.MAX_PLAY,
        hand=rules.HAND,
        decks=rules.DECKS,
        rotates=not solo,
        compensation=_(narrate.COMPENSATION[v.value]),
        compensates=type(rules).compensation is not VariantRules.compensation,
    )


__all__ = ["OptionInfo", "VariantInfo", "VariantRules", "info", "rules_for"]
