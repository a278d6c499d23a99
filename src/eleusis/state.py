"""The engine's values: configuration, state, actions, events, results, errors.

Everything here is plain frozen data with no game logic, so every other engine
module (the variants' rules, :mod:`eleusis.game`, :mod:`eleusis.views`,
:mod:`eleusis.narrate`, the replay format) can import it without importing each
other. :mod:`eleusis.game` re-exports every name, so ``from eleusis.game import
State`` keeps working.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import Enum, StrEnum
from typing import Any, ClassVar, Protocol, TypeVar

from eleusis.cards import Card

# --------------------------------------------------------------------------- errors


class ActionError(Exception):
    """An action refused by :func:`apply`. ``code`` is stable; ``message`` is for people."""

    default_code: ClassVar[str] = "action_error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code


class ActionNotAllowed(ActionError):
    """This kind of action is not part of the variant or not allowed in this phase."""

    default_code = "not_allowed"


class GameOver(ActionError):
    """The round is over: no action is accepted any more."""

    default_code = "game_over"


class NotYourTurn(ActionError):
    """The action is allowed now, but not for this seat."""

    default_code = "not_your_turn"


class IllegalAction(ActionError):
    """The seat may act now, but not this way (see ``code`` for which check failed)."""

    default_code = "illegal"


class ConfigError(ValueError):
    """A :class:`Config` that cannot start a game (unknown variant, too few seats, ...)."""


# --------------------------------------------------------------------------- rules, as seen here


class RuleLike(Protocol):
    """What the engine needs from a secret rule (``eleusis.rules.Rule`` satisfies it)."""

    def accepts(self, mainline: Sequence[Card], card: Card) -> bool:
        """May ``card`` follow ``mainline`` (at position ``len(mainline) + 1``)?"""
        ...


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Action:
    """Base of all actions. ``seat`` is who acts. Subclasses are small frozen values."""

    seat: int

    #: short name used in logs, templates and :class:`Legal` (``"play"``, ``"guess"``, ...)
    kind: ClassVar[str] = "action"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Put ``cards`` (1 card, or up to 4 in New Eleusis) from the hand on the layout, in order."""

    cards: tuple[Card, ...] = ()
    kind: ClassVar[str] = "play"


@dataclass(frozen=True, slots=True)
class NoPlay(Action):
    """Declare "no play": no card in the hand can be played. The hand is shown to everyone."""

    kind: ClassVar[str] = "no_play"


@dataclass(frozen=True, slots=True)
class Guess(Action):
    """Guess the secret rule, written in the rule language (Express, Solo)."""

    text: str = ""
    kind: ClassVar[str] = "guess"


@dataclass(frozen=True, slots=True)
class DeclareProphet(Action):
    """Become the prophet, just after one's own play (New Eleusis)."""

    kind: ClassVar[str] = "declare_prophet"


@dataclass(frozen=True, slots=True)
class ProphetCall(Action):
    """The prophet's call on the pending play: right or wrong.

    For a "no play" called wrong, ``card`` is the correct card the prophet plays
    from the player's hand.
    """

    right: bool = True
    card: Card | None = None
    kind: ClassVar[str] = "prophet_call"


@dataclass(frozen=True, slots=True)
class Judge(Action):
    """A human dealer's verdict on the pending play, "no play" or guess (no written rule).

    ``right`` is the truth as the dealer sees it. When there is a prophet, the
    engine compares it with the prophet's call (approve or overthrow). For a
    wrong "no play", ``card`` is a correct card from the player's hand (omit it
    to approve the prophet's card).
    """

    right: bool = True
    card: Card | None = None
    kind: ClassVar[str] = "judge"


@dataclass(frozen=True, slots=True)
class Hint(Action):
    """A dealer's hint about the rule, in the dealer's own words (recorded in the log)."""

    text: str = ""
    kind: ClassVar[str] = "hint"


@dataclass(frozen=True, slots=True)
class RequestHint(Action):
    """A scientist asks the computer dealer for a hint; each request is more specific."""

    kind: ClassVar[str] = "request_hint"


@dataclass(frozen=True, slots=True)
class Bet(Action):
    """Royal Eleusis: 1-4 bets, each a card proposed to be accepted (A) or refused (R).

    ``kinds`` is one of the 8 sequences ``A AA AAA AAAA AAAR AARR ARRR RRRR``;
    ``cards[i]`` is the card of bet ``i``.
    """

    cards: tuple[Card, ...] = ()
    kinds: str = ""
    kind: ClassVar[str] = "bet"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline an optional step (Solo: end the game instead of a last guess after turn 30)."""

    kind: ClassVar[str] = "pass"


#: Action classes by replay type code (see :mod:`eleusis.replay`). Codes never change.
ACTION_TYPES: dict[int, type[Action]] = {}


def register_action(code: int, cls: type[Action]) -> None:
    """Give an action class its permanent replay code (0..15). Variants may add their own."""
    if not 0 <= code < 16:
        raise ValueError("action codes run 0..15")
    if ACTION_TYPES.get(code, cls) is not cls:
        raise ValueError(f"action code {code} is taken by {ACTION_TYPES[code].__name__}")
    ACTION_TYPES[code] = cls


for _code, _cls in enumerate(
    (Play, NoPlay, Guess, DeclareProphet, ProphetCall, Judge, Hint, RequestHint, Pass)
):
    register_action(_code, _cls)
register_action(9, Bet)  # 10..15 are free


# --------------------------------------------------------------------------- configuration


class Variant(StrEnum):
    """The variants. The value is the stable name used in configs and replays."""

    NEW_ELEUSIS = "new_eleusis"
    EXPRESS = "express"
    SOLO = "solo"
    ROYAL = "royal"


OptionValue = str | int | bool

#: A variant's options: name -> (default, allowed values; empty = any). Data about
#: a :class:`Config`, so it lives here (each variant's ``OPTIONS`` is its entry);
#: ``docs/rules.md`` says what each one means.
OptionSpec = dict[str, tuple[OptionValue, tuple[OptionValue, ...]]]

VARIANT_OPTIONS: dict[Variant, OptionSpec] = {
    Variant.NEW_ELEUSIS: {
        "sudden_death": ("cards", ("cards", "fourth_marker")),
        "first_player": ("count", ("count", "random", "left")),
        "hints": ("before_play", ("before_play", "anytime")),
    },
    Variant.EXPRESS: {
        "stock_out": ("new_deck", ("new_deck", "end_round")),
        "lives": (0, (0, 3)),
    },
    Variant.SOLO: {
        "max_turns": (30, ()),
        # Hints are not part of the benchmark; a friendly game may allow them.
        "hints": (False, (False, True)),
    },
    Variant.ROYAL: {},
}


@dataclass(frozen=True)
class Config:
    """Everything needed to start a round. Static for the whole round.

    ``options`` holds variant options as ``(name, value)`` pairs; see each
    variant's ``OPTIONS`` for names, allowed values and defaults (documented in
    ``docs/rules.md``). ``rule`` is the secret rule as TEXT in the rule
    language, never code; ``None`` only when a human dealer (``dealer`` is a
    seat) judges every play by hand.
    """

    variant: Variant
    names: tuple[str, ...]
    rule: str | None
    seed: int
    dealer: int | None = None
    options: tuple[tuple[str, OptionValue], ...] = ()

    def option(self, name: str) -> OptionValue:
        """The value of an option, or the variant's default."""
        for key, value in self.options:
            if key == name:
                return value
        return VARIANT_OPTIONS[self.variant][name][0]

    @property
    def seats(self) -> int:
        """Number of seats (scientists plus a dealer seat if any)."""
        return len(self.names)



# --------------------------------------------------------------------------- state


class Role(StrEnum):
    """What a seat is doing this round."""

    SCIENTIST = "scientist"
    DEALER = "dealer"
    PROPHET = "prophet"
    EXPELLED = "expelled"
    OUT = "out"  # Express 3-lives option: no lives left


class Phase(StrEnum):
    """What the game waits for."""

    PLAY = "play"  # the seat in turn plays (or an optional step by another seat)
    PROPHET_CALL = "prophet_call"  # the prophet calls the pending play
    JUDGE = "judge"  # the human dealer judges the pending play or guess
    FINAL_GUESS = "final_guess"  # Solo: turns used up, a last guess or Pass
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Placed:
    """A card on the layout, with who played it and when.

    ``n`` is the card's number in the order cards were played (the starter is
    1; face-down and horizontal cards of Royal Eleusis get ``n = 0`` because
    they count for nothing). ``flag`` marks cards that Royal's scoring must
    tell apart (a right bet in the downline, a wrong bet in the mainline).
    """

    card: Card
    seat: int  # -1: the dealer (starter, or a card the dealer/prophet played for a "no play")
    n: int
    face_down: bool = False
    horizontal: bool = False
    flag: str = ""


@dataclass(frozen=True, slots=True)
class Column:
    """One mainline card and the sideline (wrong cards) under it."""

    card: Placed
    sideline: tuple[Placed, ...] = ()


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat: its hand and standing this round."""

    name: str
    role: Role
    hand: tuple[Card, ...] = ()
    set_aside: tuple[Card, ...] = ()  # a prophet's hand, put aside while prophet
    lives: int = 0  # Express 3-lives option
    been_prophet: bool = False
    wrong_guesses: int = 0
    right_guess: bool = False

    @property
    def held(self) -> int:
        """Cards this seat holds for scoring (hand plus a prophet's set-aside hand)."""
        return len(self.hand) + len(self.set_aside)


@dataclass(frozen=True, slots=True)
class Era:
    """A prophet's time: from the marker (after card ``start``) to ``end`` (overthrow)."""

    seat: int
    start: int  # cards played when the prophet's marker was put down
    end: int | None = None  # cards played when overthrown; None while in office


@dataclass(frozen=True, slots=True)
class Pending:
    """A play, "no play" or guess waiting for the prophet's call and/or the dealer's verdict."""

    kind: str  # "play", "no_play" or "guess"
    seat: int
    cards: tuple[Card, ...] = ()
    text: str = ""
    call: bool | None = None  # the prophet's call, once made
    call_card: Card | None = None  # the prophet's card for a "no play" called wrong
    sudden_death: bool = False  # decided at the moment of the play
    index: int = 0  # Royal Eleusis: the bet being judged
    overthrown: bool = False  # Royal Eleusis: the prophet fell during this move (no malus)


@dataclass(frozen=True, slots=True)
class HintNote:
    """A hint given: by the dealer's seat or the computer dealer (``seat`` = who asked)."""

    seat: int
    level: int  # 0 for a person's hint; 1, 2, 3 ... for the computer's, more specific each time
    text: str


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, in public: what UIs show and computer scientists learn from.

    ``kind`` is one of ``deal, starter, play, no_play, dealer_plays, guess,
    counterexample, prophet, call, overthrow, penalty, expelled, new_hand, hint,
    new_deck, pass, lives, end``. ``right`` is the verdict where there is one;
    ``count`` a number of cards (or a hint's level); ``text`` a guess, a hint,
    a counterexample sentence or why the round ended.
    """

    kind: str
    seat: int
    cards: tuple[Card, ...] = ()
    right: bool | None = None
    count: int = 0
    text: str = ""


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a round: why, and each seat's score (the dealer's included)."""

    reason: str
    scores: tuple[int, ...]
    #: Solo only: the score floored at 0 (the published benchmark shows both)
    floored: tuple[int, ...] = ()
    #: Score details per seat, for the score sheet (e.g. ``"12 - 3 + 6 (guess)"``).
    details: tuple[str, ...] = ()
    #: The seat that won the round outright, where the variant names one (Express
    #: with lives: the first right guesser); ``None``: the scores decide.
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class State:
    """One moment of a round. Frozen: :func:`apply` builds a new one.

    Cards are conserved: ``stock + hands + set-aside + layout + discard``
    always equals ``52 x decks``.
    """

    config: Config
    seats: tuple[SeatState, ...]
    stock: tuple[Card, ...]  # the top of the stock is the END of the tuple
    rng: int
    decks: int
    layout: tuple[Column, ...]
    discard: tuple[Card, ...]  # cards out of play (a New Eleusis "no play" hand)
    turn: int
    phase: Phase
    played: int  # vertical cards played, the starter included (markers, sudden death)
    pending: Pending | None = None
    prophet: int | None = None
    eras: tuple[Era, ...] = ()
    window: int | None = None  # seat that just played and may still declare prophet / guess
    hints: tuple[HintNote, ...] = ()
    turns: int = 0  # plays made (Solo: turns used)
    result: Result | None = None
    events: tuple[Event, ...] = ()  # everything public that happened, in order
    actions: tuple[Action, ...] = ()  # the log: replaying it from new_game gives this state
    extra: tuple[tuple[str, Any], ...] = field(default=())  # variant-specific data

    @property
    def over(self) -> bool:
        """Whether the round has ended."""
        return self.phase is Phase.OVER

    @property
    def mainline(self) -> tuple[Card, ...]:
        """The cards of the mainline (what the rule sees), starter first."""
        return tuple(col.card.card for col in self.layout)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The hand of ``seat``."""
        return self.seats[seat].hand



# --------------------------------------------------------------------------- legal actions


@dataclass(frozen=True, slots=True)
class Legal:
    """What one seat may do now.

    ``kinds`` names every allowed kind (``"play"``, ``"no_play"``, ``"guess"``,
    ``"bet"``, ...). ``actions`` lists every allowed action whose parameters are few
    (no play, declare prophet, prophet calls, verdicts, hint requests, pass).
    Plays are summarised by ``max_cards`` (0: no play allowed): any 1 to
    ``max_cards`` cards of the hand, in order; :func:`legal_plays` enumerates
    them (Royal's bets: any ``bet_kinds`` sequence with as many cards of the
    hand). Guesses and dealer hints take free text (``"guess"`` / ``"hint"`` in
    ``kinds``). ``call_cards``: for a prophet's call or a dealer's verdict of
    "wrong" on a "no play", the cards that may be named.
    """

    seat: int
    kinds: tuple[str, ...] = ()
    actions: tuple[Action, ...] = ()
    max_cards: int = 0
    call_cards: tuple[Card, ...] = ()
    bet_kinds: tuple[str, ...] = ()  # Royal Eleusis: the bet sequences allowed with this hand
    #: for each action kind of the variant this seat may NOT take now, why not,
    #: in a player's words (``("declare_prophet", "A prophet is already in office.")``)
    reasons: tuple[tuple[str, str], ...] = ()

    def reason(self, kind: str) -> str:
        """Why ``kind`` is not allowed now ("" when it is, or is not part of the variant)."""
        return dict(self.reasons).get(kind, "")



# --------------------------------------------------------------------------- hashing


def to_data(obj: object) -> Any:
    """A JSON-friendly form of engine values (cards as codes, enums as values)."""
    if isinstance(obj, Card):
        return obj.code
    if isinstance(obj, Enum):
        return obj.value
    if obj is None or isinstance(obj, bool | int | str):
        return obj
    if isinstance(obj, tuple | list):
        return [to_data(x) for x in obj]
    if isinstance(obj, Mapping):
        return {str(k): to_data(v) for k, v in obj.items()}
    if isinstance(obj, Action):
        return {"type": obj.kind, **{f.name: to_data(getattr(obj, f.name)) for f in fields(obj)}}
    if hasattr(obj, "__dataclass_fields__"):
        return {f.name: to_data(getattr(obj, f.name)) for f in fields(obj)}  # type: ignore[arg-type]
    raise TypeError(f"cannot serialise {type(obj).__name__}")


def state_hash(state: State) -> str:
    """A SHA-256 of the state's canonical JSON: equal states, equal hashes, in any Python."""
    text = json.dumps(to_data(state), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _canonical(value: object) -> bytes:
    return json.dumps(to_data(value), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=True).encode("ascii")


_T = TypeVar("_T")


def run_steps(steps: Generator[object, None, _T]) -> _T:
    """Drive a sliced computation (a ``*_steps`` generator) to its end in one go.

    >>> def count() -> Generator[None, None, int]:
    ...     yield
    ...     return 2
    >>> run_steps(count())
    2
    """
    while True:
        try:
            next(steps)
        except StopIteration as end:
            result: _T = end.value
            return result


def state_hash_steps(state: State, chunk: int = 32) -> Generator[None, None, str]:
    """:func:`state_hash` in steps (None after every ``chunk`` items of a long list), for a
    page that must not block: a round of hundreds of moves takes tens of milliseconds
    to hash. The same canonical JSON is fed to the hash piece by piece (an object's
    keys in sorted order, a list's items one by one), so the result is the same::

        >>> from eleusis.game import make_config, new_game
        >>> state = new_game(make_config("solo", ["You"], "card is red", 3))
        >>> steps = state_hash_steps(state, chunk=1)
        >>> while True:
        ...     try:
        ...         next(steps)
        ...     except StopIteration as end:
        ...         digest = end.value
        ...         break
        >>> digest == state_hash(state)
        True
    """
    h = hashlib.sha256()
    h.update(b"{")
    for n, name in enumerate(sorted(f.name for f in fields(state))):
        if n:
            h.update(b",")
        h.update(json.dumps(name, ensure_ascii=True).encode("ascii") + b":")
        value = getattr(state, name)
        if isinstance(value, tuple | list) and len(value) > chunk:
            h.update(b"[")
            for i, item in enumerate(value):
                if i:
                    h.update(b",")
                h.update(_canonical(item))
                if i % chunk == chunk - 1:
                    yield None
            h.update(b"]")
        else:
            h.update(_canonical(value))
    h.update(b"}")
    return h.hexdigest()


