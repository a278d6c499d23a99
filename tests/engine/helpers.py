"""Shared helpers for the engine tests: rigged states, random play, invariants."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

from eleusis.cards import Card, parse_cards
from eleusis.game import (
    Action,
    Bet,
    Guess,
    Judge,
    Play,
    ProphetCall,
    State,
    legal_actions,
)

GUESSES = ("card is red", "card.color != prev.color", "true", "card.suit == prev.suit")


def cards(text: str) -> tuple[Card, ...]:
    """``cards("7S KH")``."""
    return tuple(parse_cards(text))


def rig(state: State, hands: dict[int, str] | None = None, stock: str | None = None,
        mainline: str | None = None, **changes: Any) -> State:
    """A copy of ``state`` with some hands, the stock (top last) or the mainline replaced.

    Rigged states do not conserve cards; scenario tests do not check that.
    """
    seats = list(state.seats)
    for seat, text in (hands or {}).items():
        seats[seat] = replace(seats[seat], hand=cards(text))
    out = replace(state, seats=tuple(seats), **changes)
    if stock is not None:
        out = replace(out, stock=cards(stock))
    if mainline is not None:
        from eleusis.game import Column, Placed

        line = cards(mainline)
        out = replace(
            out,
            layout=tuple(Column(Placed(c, -1, i + 1)) for i, c in enumerate(line)),
            played=len(line),
        )
    return out


def random_action(state: State, r: random.Random, guess_rate: float = 0.05) -> Action:
    """Any legal action of any seat, chosen at random (hint requests and guesses kept rare)."""
    options: list[Action] = []
    for seat in range(len(state.seats)):
        legal = legal_actions(state, seat)
        for a in legal.actions:
            if a.kind == "request_hint" and r.random() < 0.98:
                continue
            if a.kind == "pass" and r.random() < 0.5:
                continue
            if (
                isinstance(a, ProphetCall | Judge)
                and state.pending is not None
                and state.pending.kind == "no_play"
                and not a.right
            ):
                continue  # added below with a card
            options.append(a)
        if legal.call_cards:
            cls = ProphetCall if "prophet_call" in legal.kinds else Judge
            options.append(cls(seat, False, r.choice(legal.call_cards)))
        if legal.max_cards and "play" in legal.kinds:
            hand = list(state.hand(seat))
            r.shuffle(hand)
            n = r.choice([1, 1, 1, 2, 3, 4][: legal.max_cards + 2])
            n = min(n, legal.max_cards)
            options.append(Play(seat, tuple(hand[:n])))
        if legal.bet_kinds:
            kinds = r.choice(legal.bet_kinds)
            hand = list(state.hand(seat))
            r.shuffle(hand)
            options.append(Bet(seat, tuple(hand[: len(kinds)]), kinds))
        if "guess" in legal.kinds and (r.random() < guess_rate or not options):
            options.append(Guess(seat, r.choice(GUESSES)))
        if "hint" in legal.kinds and r.random() < 0.02:
            from eleusis.game import Hint

            options.append(Hint(seat, "think about colors"))
    assert options, "a running game must offer some action"
    return r.choice(options)


def total_cards(state: State) -> int:
    """Cards in stock, hands, set-aside hands, layout and discard."""
    n = len(state.stock) + len(state.discard)
    n += sum(len(s.hand) + len(s.set_aside) for s in state.seats)
    n += sum(1 + len(col.sideline) for col in state.layout)
    return n


def card_counts(state: State) -> Counter[Card]:
    """Every card's copies across the whole table."""
    c: Counter[Card] = Counter(state.stock)
    c.update(state.discard)
    for s in state.seats:
        c.update(s.hand)
        c.update(s.set_aside)
    for col in state.layout:
        c[col.card.card] += 1
        c.update(x.card for x in col.sideline)
    return c
