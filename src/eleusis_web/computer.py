"""The one adapter between the table and the computer scientists (:mod:`eleusis.ai`).

Every computer seat is driven through :meth:`Brains.decision` (its move when the
game waits for it, or an optional step right after a play: guess the rule in
Express, declare itself prophet), worked out in time slices. It reads only what
the seat may see and return an engine action that :func:`eleusis.game.apply`
then judges; nothing here decides a rule question.

Every variant (Solo, Eleusis Express, New Eleusis, Royal Eleusis) uses the
AI's own table API: :meth:`eleusis.ai.scientist.Scientist.maybe_action` on the
seat's :func:`eleusis.views.view` (it reads the public events itself, so a
brain rebuilt after a reload learns exactly what it knew). A person dealing
who judges by hand may err, so those scientists get ``dealer_noise``.

The scientists' one-off preparation (the hypothesis space, the shared prior)
would block the page for about half a second; :meth:`Brains.prepare_step`
does it in slices of a few milliseconds, one per timer tick, before the
first computer move (:meth:`Brains.ready`), starting with loading the
scientists' modules, one per tick (:data:`eleusis.ai.MODULES`). Each decision then runs in slices
too (:meth:`Brains.decision`: reading the new events observation by
observation, long belief queries in chunks; the same action as in one go), and
so do the explanations at the round's end (:meth:`Brains.explain_steps`).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Generator, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from eleusis.ai import MODULES
from eleusis.game import Action, Bet, NoPlay, Play, State, legal_actions
from eleusis.views import view

if TYPE_CHECKING:  # the scientists load with the first computer seat, not at boot
    from eleusis.ai.scientist import Scientist

HUMAN_DEALER_NOISE = 0.02
#: Time slice of the preparation, in milliseconds of CPython work (Pyodide is
#: 2-4x slower, which keeps each timer task well under 100 ms).
PREPARE_BUDGET_MS = 8.0
#: Time slice of a decision (reading new events, weighing the options), in
#: milliseconds of wall time in the page (see :meth:`Brains.decision`).
THINK_BUDGET_MS = 8.0


class Brains:
    """The computer seats' scientists, built on first use (one per seat and round)."""

    def __init__(self, strengths: Mapping[int, str], seed: int) -> None:
        self.strengths = dict(strengths)
        self.seed = seed
        self._brains: dict[int, Scientist] = {}
        self._round: dict[int, object] = {}
        self._levels = sorted(set(self.strengths.values()))
        self._steps: Iterator[bool] | None = None
        #: the scientists' modules not loaded yet (in this process)
        self._modules = [m for m in MODULES if m not in sys.modules] if self._levels else []

    def ready(self) -> bool:
        """Is the scientists' one-off preparation done (see :meth:`prepare_step`)?"""
        return not self._levels and self._steps is None and not self._modules

    def prepare_step(self, noise: float | None = None) -> None:
        """Do one slice of the preparation of every strength at the table.

        Call once per timer tick until :meth:`ready`; each call takes a few
        milliseconds (``PREPARE_BUDGET_MS``), so the page never freezes.
        """
        if self._modules:  # one module per tick: all at once took a long task
            importlib.import_module(self._modules.pop(0))
            return
        from eleusis.ai.scientist import Scientist

        if self._steps is None:
            if not self._levels:
                return
            level = self._levels.pop(0)
            self._steps = Scientist.prepare_steps(
                level, budget_ms=PREPARE_BUDGET_MS, dealer_noise=noise
            )
        if next(self._steps, True):
            self._steps = None

    def _scientist(self, seat: int, state: State) -> Scientist:
        """The seat's scientist for this round (built on first use, not synced)."""
        from eleusis.ai.scientist import Scientist

        sci = self._brains.get(seat)
        if sci is None or self._round.get(seat) != state.config:
            noise = HUMAN_DEALER_NOISE if state.config.rule is None else None
            sci = Scientist(self.strengths.get(seat, "casual"), self.seed * 31 + seat,
                            dealer_noise=noise)
            self._brains[seat] = sci
            self._round[seat] = state.config
        return sci

    def brain(self, seat: int, state: State) -> Scientist:
        """The seat's scientist, up to date with what the seat has seen."""
        sci = self._scientist(seat, state)
        sci.sync(view(state, seat if 0 <= seat < len(state.seats) else None))
        return sci

    def decision(self, state: State, seat: int, window: bool) -> Decision:
        """The seat's next move (``window``: its optional step), in time slices.

        The seat's move (or, with ``window``, its optional step or None), worked
        out by :meth:`Scientist.think` in slices of
        ``THINK_BUDGET_MS``; call :meth:`Decision.step` once per timer tick.
        """
        sci = self._scientist(seat, state)
        decide = _window_of(state, seat) if window else _choice_of(state, seat)
        return Decision(sci.think(view(state, seat), decide, THINK_BUDGET_MS))

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

    def explain_steps(self, state: State, noise: float | None = None,
                      limit: int = 3) -> Iterator[dict[int, list[tuple[str, str, float]]] | None]:
        """:meth:`explain` in time slices: None after each slice, the explanations last.

        Prepares the scientists first if need be (a reload at the round's
        end), then lets each seat read the whole round and rank its
        hypotheses through :meth:`Scientist.think`, so the score sheet never
        waits behind one long task.
        """
        while not self.ready():
            self.prepare_step(noise)
            yield None
        out: dict[int, list[tuple[str, str, float]]] = {}
        line = list(state.mainline)
        for seat in sorted(self.strengths):
            hyps: list[Any] = []
            try:
                sci = self._scientist(seat, state)
                seen = view(state, seat if 0 <= seat < len(state.seats) else None)
                steps = sci.think(seen, lambda s: s.explain(line, limit), THINK_BUDGET_MS)
                while True:
                    try:
                        next(steps)
                    except StopIteration as stop:
                        hyps = list(stop.value)
                        break
                    yield None
            except Exception:  # an explanation is a courtesy; never break the score sheet
                hyps = []
            out[seat] = [(h.text, h.english, h.probability) for h in hyps]
            yield None
        yield out


class Decision:
    """A computer seat's decision under way: one :meth:`step` per timer tick.

    ``done`` once the decision is made; ``action`` is then the engine action
    (None: the seat lets its optional step pass).
    """

    def __init__(self, steps: Generator[None, None, Action | None]) -> None:
        self._steps = steps
        self.done = False
        self.action: Action | None = None
        #: the slices taken so far
        self.slices = 0

    def step(self) -> bool:
        """Work one time slice; return whether the decision is made."""
        if not self.done:
            self.slices += 1
            try:
                next(self._steps)
            except StopIteration as stop:
                self.done = True
                self.action = stop.value
        return self.done


def _choice_of(state: State, seat: int) -> Callable[[Scientist], Action]:
    return lambda sci: _choose(state, seat, sci)


def _window_of(state: State, seat: int) -> Callable[[Scientist], Action | None]:
    return lambda sci: _window(state, seat, sci)


def _choose(state: State, seat: int, sci: Scientist) -> Action:
    legal = legal_actions(state, seat)
    action = sci.maybe_action(view(state, seat))
    if action is not None and action.kind in legal.kinds:
        return action
    hand = list(state.hand(seat))
    if legal.max_cards >= 1 and hand:
        card = sci.choose_card(list(state.mainline), hand)
        return Bet(seat, (card,), "A") if "bet" in legal.kinds else Play(seat, (card,))
    for kind in ("no_play", "prophet_call", "pass"):
        for option in legal.actions:
            if option.kind == kind:
                return option
    return NoPlay(seat)  # the engine refuses it with a clear error if it is not allowed


def _window(state: State, seat: int, sci: Scientist) -> Action | None:
    kinds = legal_actions(state, seat).kinds
    if "guess" not in kinds and "declare_prophet" not in kinds:
        return None
    action = sci.maybe_action(view(state, seat))
    if action is not None and action.kind in kinds:
        return action
    return None

