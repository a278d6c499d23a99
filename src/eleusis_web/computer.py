"""The one adapter between the table and the computer scientists (:mod:`eleusis.ai`).

Every computer seat is driven through :func:`choose_action` (its move when the
game waits for it) and :func:`window_action` (an optional step right after a
play: guess the rule in Express, declare itself prophet). Both read only what
the seat may see and return an engine action that :func:`eleusis.game.apply`
then judges; nothing here decides a rule question.

Solo, Eleusis Express and New Eleusis use the AI's own table API:
:meth:`eleusis.ai.scientist.Scientist.maybe_action` on the seat's
:func:`eleusis.views.view` (it reads the public events itself, so a brain
rebuilt after a reload learns exactly what it knew). A person dealing who
judges by hand may err, so those scientists get ``dealer_noise``.

Royal Eleusis is not played by the AI yet; until it is, this module fills in
simply: the scientist learns from the layout (each column's sideline, then the
next mainline card; face-down cards teach nothing), bets "A" on the card
``choose_card`` picks, calls an A bet right when the card's predicted
acceptance is at least one half, accepts every R bet, and declares itself
prophet when its best hypothesis is at least 90 % likely.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eleusis.cards import Card
from eleusis.game import (
    Action,
    DeclareProphet,
    NoPlay,
    Phase,
    ProphetCall,
    State,
    Variant,
    legal_actions,
)
from eleusis.views import view

PROPHET_AT = 0.9
HUMAN_DEALER_NOISE = 0.02


def observations(state: State) -> list[tuple[tuple[Card, ...], Card, bool]]:
    """Every judged face-up card on the layout as ``(mainline before, card, accepted)``."""
    out: list[tuple[tuple[Card, ...], Card, bool]] = []
    line: list[Card] = []
    for i, col in enumerate(state.layout):
        if i > 0:
            out.append((tuple(line), col.card.card, True))
        line.append(col.card.card)
        for side in col.sideline:
            if not side.face_down and not side.horizontal:
                out.append((tuple(line), side.card, False))
    return out


class Brains:
    """The computer seats' scientists, built on first use (one per seat and round)."""

    def __init__(self, strengths: Mapping[int, str], seed: int) -> None:
        self.strengths = dict(strengths)
        self.seed = seed
        self._brains: dict[int, Any] = {}
        self._seen: dict[int, int] = {}
        self._round: dict[int, object] = {}

    def brain(self, seat: int, state: State) -> Any:
        """The seat's scientist, up to date with what the seat has seen."""
        from eleusis.ai.scientist import Scientist

        sci = self._brains.get(seat)
        if sci is None or self._round.get(seat) != state.config:
            noise = HUMAN_DEALER_NOISE if state.config.rule is None else None
            sci = Scientist(self.strengths.get(seat, "casual"), self.seed * 31 + seat,
                            dealer_noise=noise)
            self._brains[seat] = sci
            self._seen[seat] = 0
            self._round[seat] = state.config
            if state.config.variant is Variant.ROYAL:
                sci.observe_starter(state.layout[0].card.card)
        if state.config.variant is Variant.ROYAL:
            obs = observations(state)
            for before, card, ok in obs[self._seen[seat]:]:
                sci.observe(before, card, ok)
            self._seen[seat] = len(obs)
        else:
            sci.sync(view(state, seat if 0 <= seat < len(state.seats) else None))
        return sci

    def explain(self, state: State, limit: int = 3) -> dict[int, list[tuple[str, str, float]]]:
        """Each computer seat's top hypotheses: ``(text, English, probability)``."""
        out: dict[int, list[tuple[str, str, float]]] = {}
        for seat in sorted(self.strengths):
            try:
                hyps = self.brain(seat, state).explain(list(state.mainline), limit)
            except Exception:  # an explanation is a courtesy; never break the score sheet
                hyps = []
            out[seat] = [(h.text, h.english, h.probability) for h in hyps]
        return out


def _accept(sci: Any, mainline: tuple[Card, ...], cards: list[Card]) -> dict[Card, float]:
    return dict(sci.acceptance(list(mainline), cards)) if cards else {}


def choose_action(state: State, seat: int, brains: Brains) -> Action:
    """The computer seat's move now (the game waits for it)."""
    if state.config.variant is Variant.ROYAL:
        return _royal_action(state, seat, brains)
    sci = brains.brain(seat, state)
    action = sci.maybe_action(view(state, seat))
    if action is not None and not isinstance(action, DeclareProphet):
        return action  # type: ignore[no-any-return]
    # the AI let its turn pass (or only wanted to declare): play one card
    from eleusis.game import Play

    legal = legal_actions(state, seat)
    hand = list(state.hand(seat))
    if legal.max_cards >= 1 and hand:
        return Play(seat, (sci.choose_card(list(state.mainline), hand),))
    return NoPlay(seat)


def window_action(state: State, seat: int, brains: Brains) -> Action | None:
    """An optional step right after a play (guess, declare prophet), or None."""
    kinds = legal_actions(state, seat).kinds
    if "guess" not in kinds and "declare_prophet" not in kinds:
        return None
    sci = brains.brain(seat, state)
    if state.config.variant is Variant.ROYAL:
        ranked = sci.ranked(list(state.mainline))
        if "declare_prophet" in kinds and ranked and ranked[0][1] >= PROPHET_AT:
            return DeclareProphet(seat)
        return None
    action = sci.maybe_action(view(state, seat))
    return action  # type: ignore[no-any-return]


def _royal_action(state: State, seat: int, brains: Brains) -> Action:
    """Royal Eleusis, until the AI plays it: A bets, simple calls (see the module doc)."""
    from eleusis.game import Bet

    sci = brains.brain(seat, state)
    main = state.mainline
    if state.phase is Phase.PROPHET_CALL and state.pending is not None:
        p = state.pending
        card = p.cards[p.index]
        if p.kind != "bet" or p.text[p.index] == "R":
            return ProphetCall(seat, True)
        return ProphetCall(seat, _accept(sci, main, [card]).get(card, 0.0) >= 0.5)
    hand = list(state.hand(seat))
    return Bet(seat, (sci.choose_card(list(main), hand),), "A")
