"""A match: rounds of one variant, who deals each, cumulative scores, plain-data saves.

The one match implementation, used by the page, the tests and the benchmarks.
Three ways of dealing (:class:`Dealing`):

* ``computer``: the computer dealer holds the rule of every round (the seats
  are all scientists); by default one round;
* ``seat``: one seat deals every round, a person who writes the rule or
  judges by hand (a one-round game with a person dealing: that seat is one
  more than the scientists);
* ``rotate``: every seat deals once, in turn from ``first_dealer`` (a page may
  start with the seat after "you", so that you deal last); the match may end
  early, with the variant's compensation (002 scoring 5, 004 scoring 6).

The caller supplies each round's secret rule (:meth:`Match.start_round`: a
library rule, a person's, or ``None`` for a person judging by hand); each
round's seed comes from the match seed unless the caller gives one. A match
saves as plain data (:meth:`Match.to_data`), each round as its replay text
(:func:`eleusis.replay.encode`), and :meth:`Match.from_data` re-checks every
move; :meth:`Match.from_session` opens the page's older saves.

>>> m = Match.rotation("new_eleusis", ("Ann", "Bob", "Cy", "Dee"), seed=7, first_dealer=1)
>>> [m.dealer_of(k) for k in range(m.planned_rounds)]
[1, 2, 3, 0]
>>> m = m.start_round("card.color != prev.color")
>>> m.current is not None and m.current.config.dealer
1
>>> Match.from_data(m.to_data()) == m
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Final

from eleusis import rng
from eleusis.game import apply, make_config, new_game
from eleusis.replay import ReplayError, decode, encode
from eleusis.state import (
    Action,
    ActionNotAllowed,
    GameOver,
    OptionValue,
    State,
    Variant,
)
from eleusis.variants import rules_for

#: Version of :meth:`Match.to_data`'s shape.
FORMAT: Final = 1
_GOLDEN: Final = 0x9E3779B97F4A7C15


class Dealing(StrEnum):
    """Who deals the rounds of a match."""

    COMPUTER = "computer"  # the computer dealer, every round
    SEAT = "seat"  # one seat (a person) deals every round
    ROTATE = "rotate"  # every seat deals once, in turn


class MatchError(ValueError):
    """Saved match data that cannot be opened; the message is for players."""


@dataclass(frozen=True)
class Match:
    """A match (or a single round): the rounds so far and how the next one is dealt.

    ``first_dealer``: with ``rotate``, the dealer of the first round; with
    ``seat``, the dealing seat. ``rounds_planned``: rounds of a ``computer`` or
    ``seat`` match (a ``rotate`` match plans one round per seat).
    """

    variant: Variant
    names: tuple[str, ...]
    seed: int
    options: tuple[tuple[str, OptionValue], ...] = ()
    dealing: Dealing = Dealing.ROTATE
    first_dealer: int = 0
    rounds_planned: int = 1
    rounds: tuple[State, ...] = ()
    ended_early: bool = False

    # -- construction -------------------------------------------------------------------

    @classmethod
    def single(
        cls,
        variant: Variant | str,
        names: Sequence[str],
        seed: int,
        dealer: int | None = None,
        **options: OptionValue,
    ) -> Match:
        """One round: against the computer dealer, or dealt by seat ``dealer`` (a person)."""
        return cls(
            Variant(variant),
            tuple(names),
            int(seed),
            tuple(sorted(options.items())),
            Dealing.COMPUTER if dealer is None else Dealing.SEAT,
            0 if dealer is None else dealer,
        )

    @classmethod
    def rotation(
        cls,
        variant: Variant | str,
        names: Sequence[str],
        seed: int,
        first_dealer: int = 0,
        **options: OptionValue,
    ) -> Match:
        """A match where every seat deals once, from ``first_dealer`` on, clockwise."""
        if not 0 <= first_dealer < len(names):
            raise ValueError(f"first_dealer {first_dealer} is not one of the {len(names)} seats")
        return cls(
            Variant(variant),
            tuple(names),
            int(seed),
            tuple(sorted(options.items())),
            Dealing.ROTATE,
            first_dealer,
        )

    # -- queries ------------------------------------------------------------------------

    @property
    def current(self) -> State | None:
        """The round being played (or the last one)."""
        return self.rounds[-1] if self.rounds else None

    @property
    def planned_rounds(self) -> int:
        """Rounds in the whole match: one per seat in a rotation."""
        return len(self.names) if self.dealing is Dealing.ROTATE else self.rounds_planned

    def dealer_of(self, k: int) -> int | None:
        """The dealer seat of round ``k`` (0-based); ``None``: the computer deals."""
        if self.dealing is Dealing.COMPUTER:
            return None
        if self.dealing is Dealing.SEAT:
            return self.first_dealer
        return (self.first_dealer + k) % len(self.names)

    @property
    def next_dealer(self) -> int | None:
        """The dealer of the next round to start (see :meth:`dealer_of`)."""
        return self.dealer_of(len(self.rounds))

    def round_seed(self, k: int) -> int:
        """The default seed of round ``k``, derived from the match seed (reproducible)."""
        seed, _ = rng.next_u64((self.seed + k * _GOLDEN) & rng.MASK64)
        return seed

    @property
    def running(self) -> bool:
        """Whether a round is being played."""
        return self.current is not None and not self.current.over

    @property
    def complete(self) -> bool:
        """No round is running and none will follow (all planned, or ended early)."""
        if self.running:
            return False
        return self.ended_early or len(self.rounds) >= self.planned_rounds

    @property
    def finished_rounds(self) -> tuple[State, ...]:
        """The rounds that have ended."""
        return tuple(r for r in self.rounds if r.over)

    @property
    def round_scores(self) -> tuple[tuple[int, ...], ...]:
        """Scores of the finished rounds."""
        return tuple(r.result.scores for r in self.rounds if r.result is not None)

    @property
    def winners(self) -> tuple[int | None, ...]:
        """Each finished round's outright winner, where the variant names one (else None)."""
        return tuple(r.result.winner for r in self.rounds if r.result is not None)

    @property
    def dealers(self) -> tuple[int, ...]:
        """The seats that dealt a finished round."""
        return tuple(r.config.dealer for r in self.finished_rounds if r.config.dealer is not None)

    @property
    def compensation(self) -> tuple[int, ...]:
        """Points added when a rotation ends early (zeros otherwise), per the variant."""
        n = len(self.names)
        if not self.ended_early or self.dealing is not Dealing.ROTATE:
            return (0,) * n
        return rules_for(self.variant).compensation(self.round_scores, self.dealers, n)

    @property
    def totals(self) -> tuple[int, ...]:
        """Cumulative scores, compensation included."""
        out = list(self.compensation)
        for scores in self.round_scores:
            for i, s in enumerate(scores):
                out[i] += s
        return tuple(out)

    @property
    def may_end_early(self) -> bool:
        """Whether :meth:`end_early` applies: a rotation not over with a finished round."""
        return (
            self.dealing is Dealing.ROTATE
            and not self.complete
            and any(r.over for r in self.rounds)
        )

    # -- changes ------------------------------------------------------------------------

    def start_round(self, rule: str | None, seed: int | None = None) -> Match:
        """Deal the next round with ``rule`` (``None``: the dealing person judges by hand).

        Raises :class:`~eleusis.state.ActionNotAllowed` while a round runs,
        :class:`~eleusis.state.GameOver` when the match is complete, and
        :class:`~eleusis.state.ConfigError` for a rule or table that cannot start.
        """
        if self.running:
            raise ActionNotAllowed("the current round is not over", "round_running")
        if self.complete:
            raise GameOver("the match is over")
        k = len(self.rounds)
        cfg = make_config(
            self.variant,
            self.names,
            rule,
            self.round_seed(k) if seed is None else seed,
            self.dealer_of(k),
            **dict(self.options),
        )
        return replace(self, rounds=(*self.rounds, new_game(cfg)))

    def with_state(self, state: State) -> Match:
        """The match with the current round replaced by ``state`` (same round, later)."""
        cur = self.current
        if cur is None or state.config != cur.config:
            raise ValueError("that state is not the current round of this match")
        return replace(self, rounds=(*self.rounds[:-1], state))

    def apply(self, action: Action) -> Match:
        """Apply an action to the current round (see :func:`eleusis.game.apply`)."""
        cur = self.current
        if cur is None:
            raise ActionNotAllowed("no round has started", "no_round")
        return self.with_state(apply(cur, action))

    def end_early(self) -> Match:
        """End the match now: a running round is dropped; a rotation gets its compensation."""
        return replace(self, rounds=self.finished_rounds, ended_early=True)

    # -- plain data -----------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        """JSON-friendly data; every round as its replay text."""
        return {
            "format": FORMAT,
            "variant": self.variant.value,
            "names": list(self.names),
            "seed": self.seed,
            "options": [[k, v] for k, v in self.options],
            "dealing": self.dealing.value,
            "first_dealer": self.first_dealer,
            "rounds_planned": self.rounds_planned,
            "rounds": [encode(r) for r in self.rounds],
            "ended_early": self.ended_early,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Match:
        """Rebuild a match from :meth:`to_data` (:class:`MatchError` if anything is off)."""
        try:
            if data.get("format") != FORMAT:
                raise MatchError("this saved match comes from another version of the game")
            options = tuple((str(k), _option(v)) for k, v in data["options"])
            match = cls(
                Variant(str(data["variant"])),
                tuple(str(n) for n in data["names"]),
                int(data["seed"]),
                options,
                Dealing(str(data["dealing"])),
                int(data["first_dealer"]),
                int(data["rounds_planned"]),
                _decode_all(data["rounds"]),
                data.get("ended_early") is True,
            )
        except MatchError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise MatchError(f"this saved match cannot be read ({type(exc).__name__})") from None
        match.check()
        return match

    @classmethod
    def from_rounds(
        cls,
        rounds: Sequence[State],
        dealing: Dealing,
        seed: int,
        first_dealer: int | None = None,
        rounds_planned: int = 1,
        ended_early: bool = False,
    ) -> Match:
        """A match around rounds already played (e.g. decoded from an older save).

        The variant, names and options come from the first round; with
        ``first_dealer`` omitted, the first round's dealer (or seat 0).
        """
        if not rounds:
            raise MatchError("this saved game has no round")
        cfg = rounds[0].config
        first = first_dealer if first_dealer is not None else (cfg.dealer or 0)
        match = cls(
            cfg.variant,
            cfg.names,
            int(seed),
            cfg.options,
            dealing,
            first,
            rounds_planned,
            tuple(rounds),
            ended_early,
        )
        match.check()
        return match

    @classmethod
    def from_session(cls, data: Mapping[str, Any]) -> Match:
        """Open the page's older saved games.

        Their shape: ``{setup, kinds, rounds: [replay texts], created, extra,
        ended_early}`` where ``setup`` holds ``match`` (a rotation where every
        seat deals once, the seat after the first dealing first), ``seats`` and
        ``seed``. The rounds' own configs say who dealt: a single round with a
        dealer seat is a ``seat`` game, without one a ``computer`` game.
        """
        try:
            setup = data["setup"]
            rounds = _decode_all(data["rounds"])
            seed = int(setup["seed"])
            rotating = bool(setup["match"]) and len(rounds[0].config.names) >= 2 and (
                rounds[0].config.variant is not Variant.SOLO
            )
        except MatchError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise MatchError(f"this saved game cannot be read ({type(exc).__name__})") from None
        ended = data.get("ended_early") is True
        if rotating:
            first = 1 % len(rounds[0].config.names)
            return cls.from_rounds(rounds, Dealing.ROTATE, seed, first, ended_early=ended)
        dealer = rounds[0].config.dealer
        dealing = Dealing.COMPUTER if dealer is None else Dealing.SEAT
        return cls.from_rounds(rounds, dealing, seed, dealer, len(rounds), ended)

    def check(self) -> None:
        """Raise :class:`MatchError` unless every round fits the match (variant, seats, dealer)."""
        if self.dealing is Dealing.ROTATE and len(self.rounds) > self.planned_rounds:
            raise MatchError("this saved match has more rounds than seats")
        for k, r in enumerate(self.rounds):
            if r.config.variant is not self.variant or len(r.config.names) != len(self.names):
                raise MatchError("the rounds of this saved match do not belong together")
            if r.config.dealer != self.dealer_of(k):
                raise MatchError("the dealers of this saved match are not in order")
            if k < len(self.rounds) - 1 and not r.over:
                raise MatchError("a round of this saved match was left unfinished")


def _decode_all(texts: object) -> tuple[State, ...]:
    if not isinstance(texts, list | tuple):
        raise MatchError("this saved game's rounds cannot be read")
    try:
        return tuple(decode(str(t)) for t in texts)
    except ReplayError as exc:
        raise MatchError(f"a round of this saved game cannot be replayed: {exc}") from None


def _option(value: object) -> OptionValue:
    if isinstance(value, bool | int | str):
        return value
    raise TypeError("an option is a number, a word or true/false")
