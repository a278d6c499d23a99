"""The game engine's door: new rounds, what a seat may do, applying actions, matches.

Every variant (New Eleusis, Eleusis Express, Solo, and Royal Eleusis later)
shares these types and goes through the same three functions:

* :func:`new_game` builds the first state of a round from a :class:`Config`
  (the deal and the starter card come from the game's own seeded generator,
  :mod:`eleusis.rng`, whose state is part of the :class:`State`);
* :func:`legal_actions` says, for one seat, what it may do now (and why not
  the rest); :func:`waiting_for` and :func:`optional_seats` say whom the round
  waits for and who may first take an optional step;
* :func:`apply` is the only way to change a game: it returns a **new**
  :class:`State` (states are frozen; the old one is never touched) or raises a
  subclass of :class:`ActionError`, checked in a fixed order (the boardgame.io
  reducer's order):

  1. :class:`ActionNotAllowed` -- this kind of action is not part of the
     variant, or not allowed in the current phase (a verdict when nothing waits
     for one, a play while a verdict is awaited, ...);
  2. :class:`GameOver` -- the round has ended;
  3. :class:`NotYourTurn` -- the action is allowed now, but not for this seat;
  4. :class:`IllegalAction` -- the seat may act, but not this way (cards not in
     the hand, five cards, a guess that does not parse, ...).

A state carries its own action log (:attr:`State.actions`): the log *is* the
saved game and the replay (:mod:`eleusis.replay`); replaying it through
:func:`apply` from :func:`new_game` gives the same state, whose
:func:`state_hash` is stable across Python versions.

The values (:class:`Config`, :class:`State`, the actions, :class:`Event`,
:class:`Result`, :class:`Legal`, the errors) live in :mod:`eleusis.state` and
are re-exported here. :class:`eleusis.match.Match` strings rounds together.

Seats are numbered 0..n-1 clockwise. A round's dealer is either a seat
(:attr:`Config.dealer`; a person who either wrote the rule down for the engine
to judge, or judges every play by hand with :class:`Judge` actions when
:attr:`Config.rule` is ``None``) or the computer (``dealer=None``: the engine
holds the rule and judges).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence

from eleusis import narrate
from eleusis.cards import Card
from eleusis.i18n import _
from eleusis.rules.compare import SLICE_WORK
from eleusis.state import (
    ACTION_TYPES,
    VARIANT_OPTIONS,
    Action,
    ActionError,
    ActionNotAllowed,
    Bet,
    Column,
    Config,
    ConfigError,
    DeclareProphet,
    Era,
    Event,
    GameOver,
    Guess,
    Hint,
    HintNote,
    IllegalAction,
    Judge,
    Legal,
    NoPlay,
    NotYourTurn,
    OptionValue,
    Pass,
    Pending,
    Phase,
    Placed,
    Play,
    ProphetCall,
    RequestHint,
    Result,
    Role,
    RuleLike,
    SeatState,
    State,
    Variant,
    register_action,
    state_hash,
    to_data,
)
from eleusis.variants import VariantRules, rules_for
from eleusis.variants.base import ComparisonNeeded, deferred_comparisons

__all__ = [
    "ACTION_TYPES",
    "VARIANT_OPTIONS",
    "Action",
    "ActionError",
    "ActionNotAllowed",
    "Bet",
    "Column",
    "Config",
    "ConfigError",
    "DeclareProphet",
    "Era",
    "Event",
    "GameOver",
    "Guess",
    "Hint",
    "HintNote",
    "IllegalAction",
    "Judge",
    "Legal",
    "NoPlay",
    "NotYourTurn",
    "OptionValue",
    "Pass",
    "Pending",
    "Phase",
    "Placed",
    "Play",
    "ProphetCall",
    "RequestHint",
    "Result",
    "Role",
    "RuleLike",
    "SeatState",
    "State",
    "Variant",
    "acting_order",
    "apply",
    "apply_steps",
    "legal_actions",
    "legal_plays",
    "make_config",
    "new_game",
    "optional_seats",
    "register_action",
    "state_hash",
    "to_data",
    "waiting_for",
]


# --------------------------------------------------------------------------- configuration


def make_config(
    variant: Variant | str,
    names: Sequence[str],
    rule: str | None,
    seed: int,
    dealer: int | None = None,
    **options: OptionValue,
) -> Config:
    """Build and check a :class:`Config` (raises :class:`ConfigError` with a clear message).

    >>> make_config("express", ["Ann", "Bob"], "card.color != prev.color", 7).seats
    2
    """
    try:
        v = Variant(variant)
    except ValueError:
        raise ConfigError(
            f"unknown variant {variant!r}: use one of {', '.join(x.value for x in Variant)}"
        ) from None
    rules = rules_for(v)
    for key, value in options.items():
        if key not in rules.OPTIONS:
            raise ConfigError(
                f"{v.value} has no option {key!r}; options: {', '.join(sorted(rules.OPTIONS))}"
            )
        allowed = rules.OPTIONS[key][1]
        if allowed and value not in allowed:
            raise ConfigError(f"option {key} must be one of {allowed}, not {value!r}")
    cfg = Config(
        variant=v,
        names=tuple(names),
        rule=rule,
        seed=int(seed),
        dealer=dealer,
        options=tuple(sorted(options.items())),
    )
    rules.check_config(cfg)
    return cfg


# --------------------------------------------------------------------------- what a seat may do


def _rules(state_or_cfg: State | Config) -> VariantRules:
    cfg = state_or_cfg.config if isinstance(state_or_cfg, State) else state_or_cfg
    return rules_for(cfg.variant)


def new_game(config: Config) -> State:
    """The first state of a round: shuffle, deal, turn the starter."""
    return _rules(config).setup(config)


def legal_actions(state: State, seat: int) -> Legal:
    """Everything ``seat`` may do now (see :class:`Legal`). Empty when the game is over."""
    if state.over or not 0 <= seat < len(state.seats):
        return Legal(seat)
    return _rules(state).legal(state, seat)


def legal_plays(state: State, seat: int, max_cards: int | None = None) -> Iterator[Play]:
    """Every distinct play of 1..``max_cards`` cards ``seat`` may make now, in order.

    Cards that appear twice in a hand (two decks) give one play, not two. The
    number of plays grows fast with ``max_cards`` (14 cards: 14 plays of one
    card, 24,024 of four): ask for what you need.
    """
    limit = legal_actions(state, seat).max_cards
    if max_cards is not None:
        limit = min(limit, max_cards)
    hand = sorted(set(state.hand(seat)), key=lambda c: c.index)
    counts: dict[Card, int] = {}
    for c in state.hand(seat):
        counts[c] = counts.get(c, 0) + 1

    def extend(prefix: tuple[Card, ...]) -> Iterator[tuple[Card, ...]]:
        if prefix:
            yield prefix
        if len(prefix) >= limit:
            return
        for c in hand:
            if prefix.count(c) < counts[c]:
                yield from extend((*prefix, c))

    for cards in extend(()):
        yield Play(seat, cards)


# --------------------------------------------------------------------------- the one door


def apply(state: State, action: Action) -> State:
    """Apply ``action`` and return the next state, or raise an :class:`ActionError`.

    Checks in this order: allowed now (:class:`ActionNotAllowed`), round over
    (:class:`GameOver`), this seat (:class:`NotYourTurn`), legal
    (:class:`IllegalAction`). A refused action leaves ``state`` as it was
    (states are frozen).
    """
    if not isinstance(action, Action) or type(action) is Action:
        raise IllegalAction(narrate.reason("not_an_action"), "not_an_action")
    rules = _rules(state)
    if type(action) not in rules.ACTIONS:
        raise ActionNotAllowed(
            narrate.reason(
                "not_in_variant", variant=_(narrate.VARIANT_NAMES[state.config.variant])),
            "not_in_variant",
        )
    if state.over:
        raise GameOver(narrate.reason("over"))
    who = rules.expected(state).get(type(action))
    seat = action.seat
    known = isinstance(seat, int) and 0 <= seat < len(state.seats)
    if who is None:
        why = rules.why_not(state, seat, type(action)) if known else ("not_now", {})
        raise ActionNotAllowed(narrate.reason(why[0], **why[1]), "not_now")
    if not known:
        raise NotYourTurn(narrate.reason("no_such_seat"))
    if seat not in who:
        code, params = rules.why_not(state, seat, type(action))
        raise NotYourTurn(narrate.reason(code, **params))
    rules.validate(state, action)
    return rules.step(state, action)



#: Times :func:`apply_steps` works out a comparison and tries the action again before it
#: applies it in one go (an action judges at most one guess; this is a safety net).
_MAX_DEFERRALS = 4


def apply_steps(state: State, action: Action, *, slice_work: int = SLICE_WORK
                ) -> Generator[None, None, State]:
    """:func:`apply` in slices, for a page that must not block: yields None between
    slices of a few milliseconds of work and returns the next state.

    The only long work an action can ask for is the exact comparison judging a
    guess (:func:`eleusis.rules.compare`). The action is tried with comparisons
    deferred; if one is needed it is worked out in slices of ``slice_work``
    units (:func:`eleusis.rules.compare_steps`, which remembers it) and the action is
    applied again from ``state``, so the result is exactly :func:`apply`'s.
    Raises what :func:`apply` raises.

    >>> cfg = make_config("solo", ["You"], "card is red", 3)
    >>> steps = apply_steps(new_game(cfg), Guess(0, "card.color == red"))
    >>> while True:
    ...     try:
    ...         next(steps)
    ...     except StopIteration as done:
    ...         after = done.value
    ...         break
    >>> after.over
    True
    """
    for _attempt in range(_MAX_DEFERRALS):
        try:
            with deferred_comparisons(slice_work):
                return apply(state, action)
        except ComparisonNeeded as need:
            yield from need.steps(slice_work)
    return apply(state, action)


# ---------------------------------------------------------------- whom the round waits for


def waiting_for(state: State) -> tuple[int, ...]:
    """The seats whose action the round waits for now; empty when it is over.

    The seat in turn (to play or bet), the prophet calling a play, the person
    dealing who judges by hand, the Solo scientist choosing a last guess or to
    stop. Optional steps (a guess, declaring prophet) and hints never hold the
    round: see :func:`optional_seats`.

    >>> cfg = make_config("express", ["Ann", "Bob", "Cy"], "card.color != prev.color", 7)
    >>> waiting_for(new_game(cfg))
    (0,)
    """
    if state.over:
        return ()
    return _rules(state).flow(state)[0]


def optional_seats(state: State) -> tuple[int, ...]:
    """Seats that may now take an optional step before the round goes on, in priority order.

    Declaring prophet (New Eleusis, Royal: in 004's inverse turn order from
    the scientist who just played) and guessing the rule after a right play
    (Express). A seat the round is waiting for is not listed (its optional
    step is one of its choices, in :func:`legal_actions`); hint requests are
    not listed either (they never hold the table). Empty when it is over.
    """
    if state.over:
        return ()
    return _rules(state).flow(state)[1]


def acting_order(state: State) -> tuple[int, ...]:
    """Every seat that may act now, in the order a table asks them.

    First the :func:`optional_seats` (their chance ends when the round goes
    on), then the :func:`waiting_for` seats, then any other seat with an
    allowed action (a hint request). A driver of computer players asks each in
    turn whether it wants to act.
    """
    if state.over:
        return ()
    waiting, optional = _rules(state).flow(state)
    first = (*optional, *waiting)
    rest = tuple(
        s for s in range(len(state.seats)) if s not in first and legal_actions(state, s).kinds
    )
    return (*first, *rest)
