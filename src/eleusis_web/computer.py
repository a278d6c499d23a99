"""The one adapter between the table and the computer scientists (:mod:`eleusis.ai`).

Every computer seat is driven through :func:`choose_action` (its move when the
game waits for it) and :func:`window_action` (an optional step right after its
own play: guess the rule in Express, declare itself prophet in New Eleusis).
Both read only what the seat may see (the layout, its own hand, the legal
actions) and return an engine action that :func:`eleusis.game.apply` then
judges; nothing here decides a rule question.

The AI's public API is :class:`eleusis.ai.scientist.Scientist` (Solo-shaped:
``observe``, ``choose_card``, ``acceptance``, ``consider_guess``,
``guess_rejected``, ``explain``). What the multi-player variants need beyond
it is filled in here, simply, until the AI offers its own decisions:

* plays are single cards (the scientist chooses one card);
* "no play" when every card's predicted acceptance is below 5 %;
* a prophet calls a play right when each card's predicted acceptance is at
  least one half; a "no play" wrong when a card of the hand is likely right;
* a scientist declares itself prophet when its best hypothesis is at least
  90 % likely.

Observations come from the layout, in an append-only order (each column's
sideline, then the next mainline card), so a brain rebuilt after a reload
learns exactly what it knew. A card of a wrong multi-card play is recorded as
rejected even if it alone would have been right; the scientists' belief
tolerates such noise (its ``eps``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eleusis.cards import Card
from eleusis.game import (
    Action,
    DeclareProphet,
    Guess,
    NoPlay,
    Pass,
    Phase,
    Play,
    ProphetCall,
    State,
    legal_actions,
)

NO_PLAY_BELOW = 0.05
PROPHET_AT = 0.9


def observations(state: State) -> list[tuple[tuple[Card, ...], Card, bool]]:
    """Every judged card on the layout as ``(mainline before, card, accepted)``, in order."""
    out: list[tuple[tuple[Card, ...], Card, bool]] = []
    line: list[Card] = []
    for i, col in enumerate(state.layout):
        if i > 0:
            out.append((tuple(line), col.card.card, True))
        line.append(col.card.card)
        for side in col.sideline:
            if not side.face_down:
                out.append((tuple(line), side.card, False))
    return out


class Brains:
    """The computer seats' scientists, built on first use and fed from the layout."""

    def __init__(self, strengths: Mapping[int, str], seed: int) -> None:
        self.strengths = dict(strengths)
        self.seed = seed
        self._brains: dict[int, Any] = {}
        self._seen: dict[int, int] = {}
        self._starter: dict[int, Card] = {}

    def brain(self, seat: int, state: State) -> Any:
        """The seat's scientist, up to date with the layout."""
        from eleusis.ai.scientist import Scientist

        sci = self._brains.get(seat)
        if sci is None or self._starter.get(seat) != state.layout[0].card.card:
            sci = Scientist(self.strengths.get(seat, "casual"), self.seed * 31 + seat)
            sci.observe_starter(state.layout[0].card.card)
            self._brains[seat] = sci
            self._seen[seat] = 0
            self._starter[seat] = state.layout[0].card.card
        obs = observations(state)
        for before, card, ok in obs[self._seen[seat]:]:
            sci.observe(before, card, ok)
        self._seen[seat] = len(obs)
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
    legal = legal_actions(state, seat)
    sci = brains.brain(seat, state)
    main = state.mainline
    hand = list(state.hand(seat))
    if state.phase is Phase.PROPHET_CALL and state.pending is not None:
        p = state.pending
        if p.kind == "bet":
            card = p.cards[p.index]
            if p.text[p.index] == "R":
                return ProphetCall(seat, True)
            return ProphetCall(seat, _accept(sci, main, [card]).get(card, 0.0) >= 0.5)
        if p.kind == "no_play":
            probs = _accept(sci, main, sorted(set(state.hand(p.seat))))
            best = max(probs, key=lambda c: probs[c], default=None)
            if best is not None and probs[best] >= 0.5 and best in legal.call_cards:
                return ProphetCall(seat, False, best)
            return ProphetCall(seat, True)
        line = list(main)
        right = True
        for c in p.cards:
            if _accept(sci, tuple(line), [c]).get(c, 0.0) < 0.5:
                right = False
                break
            line.append(c)
        return ProphetCall(seat, right)
    if state.phase is Phase.FINAL_GUESS:
        text = sci.consider_guess(list(main), state.turns, state.turns + 1)
        return Guess(seat, text) if text else Pass(seat)
    if "no_play" in legal.kinds and hand:
        probs = _accept(sci, main, sorted(set(hand)))
        if probs and max(probs.values()) < NO_PLAY_BELOW:
            return NoPlay(seat)
    if "bet" in legal.kinds and hand:
        from eleusis.game import Bet

        return Bet(seat, (sci.choose_card(list(main), hand),), "A")
    if legal.max_cards >= 1 and hand:
        return Play(seat, (sci.choose_card(list(main), hand),))
    return NoPlay(seat)


def window_action(state: State, seat: int, brains: Brains) -> Action | None:
    """An optional step right after the seat's own play, or None."""
    kinds = legal_actions(state, seat).kinds
    if "guess" not in kinds and "declare_prophet" not in kinds:
        return None
    sci = brains.brain(seat, state)
    main = list(state.mainline)
    if "guess" in kinds:
        text = sci.consider_guess(main, min(state.turns, 28), 30)
        if text and text not in sci.wrong_guesses:
            sci.wrong_guesses.append(text)  # never repeat a guess, right or wrong
            return Guess(seat, text)
    if "declare_prophet" in kinds:
        ranked = sci.ranked(main)
        if ranked and ranked[0][1] >= PROPHET_AT:
            return DeclareProphet(seat)
    return None
