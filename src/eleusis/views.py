"""What one seat may see: :func:`view` turns a game state into a :class:`SeatView`.

The secret rule and the other seats' hands are stripped (hand sizes stay: they
are public at a real table); the dealer's seat sees everything; everyone sees
the rule once the round is over. Face-down cards (Royal Eleusis) show as
``None`` except to the dealer. Everything shown in public at the table -- the
layout, plays and verdicts, hands shown for a "no play", guesses, hints -- is
in the events, which every seat sees.

A :class:`SeatView` is typed and JSON-friendly (:meth:`SeatView.to_dict`), so
the web face and the computer scientists can use it without touching the
state. ``seat=None`` gives a spectator's view (no hand at all).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from eleusis.cards import Card
from eleusis.game import legal_actions
from eleusis.state import (
    Event,
    Legal,
    Pending,
    Placed,
    Result,
    Role,
    State,
    to_data,
)
from eleusis.variants import rules_for


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """What everyone knows about a seat."""

    seat: int
    name: str
    role: str
    cards: int  # cards in hand
    set_aside: int  # a prophet's hand, set aside
    lives: int
    wrong_guesses: int
    been_prophet: bool


@dataclass(frozen=True, slots=True)
class ViewCard:
    """A card on the layout as this seat sees it (``card`` None: face down)."""

    card: Card | None
    seat: int
    n: int
    face_down: bool = False
    horizontal: bool = False
    flag: str = ""


@dataclass(frozen=True, slots=True)
class ViewColumn:
    """A mainline card and its sideline."""

    card: ViewCard
    sideline: tuple[ViewCard, ...]


@dataclass(frozen=True, slots=True)
class Marker:
    """A marker on the layout, on the card numbered ``n`` (see ``Placed.n``).

    ``kind``: ``white`` (every 10th card), ``black`` (every 10th card after the
    prophet's marker), ``prophet`` (a prophet's marker, ``seat`` = the prophet),
    ``prophet_end`` (where an overthrown prophet's era ended).
    """

    kind: str
    n: int
    seat: int = -1


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything one seat may see now."""

    variant: str
    seat: int | None
    is_dealer: bool
    names: tuple[str, ...]
    dealer: int | None
    rule: str | None  # the dealer's seat, or everyone once the round is over
    hand: tuple[Card, ...]
    seats: tuple[SeatInfo, ...]
    layout: tuple[ViewColumn, ...]
    markers: tuple[Marker, ...]
    stock: int
    decks: int
    phase: str
    turn: int
    pending: Pending | None
    prophet: int | None
    sudden_death: bool
    played: int
    turns: int
    hints: tuple[str, ...]
    events: tuple[Event, ...]
    result: Result | None
    legal: Legal
    hands: tuple[tuple[Card, ...], ...] | None = None  # every hand: the dealer's seat only
    #: the seats the round waits for (:func:`eleusis.game.waiting_for`)
    waiting_for: tuple[int, ...] = ()
    #: seats with an optional step open, in priority order (:func:`eleusis.game.optional_seats`)
    optional: tuple[int, ...] = ()

    @property
    def mainline(self) -> tuple[Card, ...]:
        """The mainline cards (always face up)."""
        return tuple(c.card.card for c in self.layout if c.card.card is not None)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict (cards as codes such as ``"10H"``)."""
        data = to_data(self)
        assert isinstance(data, dict)
        data["mainline"] = [c.code for c in self.mainline]
        return data


def markers(state: State) -> tuple[Marker, ...]:
    """The markers on the layout now (white every 10th card; the prophet's; black after it)."""
    out = [Marker("white", n) for n in range(10, state.played + 1, 10)]
    for era in state.eras:
        out.append(Marker("prophet", era.start, era.seat))
        if era.end is not None:
            out.append(Marker("prophet_end", era.end, era.seat))
    if state.prophet is not None and state.eras:
        start = state.eras[-1].start
        out.extend(Marker("black", n) for n in range(start + 10, state.played + 1, 10))
    return tuple(out)


def view(state: State, seat: int | None) -> SeatView:
    """What ``seat`` may see (``None``: a spectator). Raises ``ValueError`` for no such seat."""
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < len(state.seats)):
        raise ValueError(f"no seat {seat!r}: seats run 0..{len(state.seats) - 1}")
    cfg = state.config
    is_dealer = seat is not None and state.seats[seat].role is Role.DEALER
    all_seen = is_dealer
    rule = cfg.rule if (is_dealer or state.over) else None

    def show(p: Placed) -> ViewCard:
        hidden = p.face_down and not all_seen and not state.over
        return ViewCard(None if hidden else p.card, p.seat, p.n, p.face_down, p.horizontal, p.flag)

    layout = tuple(
        ViewColumn(show(col.card), tuple(show(x) for x in col.sideline)) for col in state.layout
    )
    seats = tuple(
        SeatInfo(
            i,
            s.name,
            s.role.value,
            len(s.hand),
            len(s.set_aside),
            s.lives,
            s.wrong_guesses,
            s.been_prophet,
        )
        for i, s in enumerate(state.seats)
    )
    rules = rules_for(cfg.variant)
    flow = ((), ()) if state.over else rules.flow(state)
    pending = state.pending
    if pending is not None and pending.kind == "bet" and not all_seen and seat != pending.seat:
        # Royal bets are shown one at a time; bets after a wrong one stay face down
        pending = replace(pending, cards=pending.cards[: pending.index + 1])
    return SeatView(
        variant=cfg.variant.value,
        seat=seat,
        is_dealer=is_dealer,
        names=cfg.names,
        dealer=cfg.dealer,
        rule=rule,
        hand=state.seats[seat].hand if seat is not None else (),
        seats=seats,
        layout=layout,
        markers=markers(state),
        stock=len(state.stock),
        decks=state.decks,
        phase=state.phase.value,
        turn=state.turn,
        pending=pending,
        prophet=state.prophet,
        sudden_death=rules.in_sudden_death(state),
        played=state.played,
        turns=state.turns,
        hints=tuple(h.text for h in state.hints),
        events=state.events,
        result=state.result,
        legal=legal_actions(state, seat) if seat is not None else Legal(-1),
        hands=tuple(s.hand for s in state.seats) if all_seen else None,
        waiting_for=flow[0],
        optional=flow[1],
    )
