"""Computer seats think in time slices: the controller's steps, held moves, dropped decisions."""

from __future__ import annotations

import pytest

from eleusis_web import computer
from eleusis_web.controller import Controller
from eleusis_web.session import SeatPlan, Setup

RED = "card is red"  # (casual scientists: a rule their space holds)


def computers_only(seed: int, variant: str = "new_eleusis", strength: str = "casual") -> Controller:
    c = Controller(lambda: seed)
    c.ui.setup = Setup(variant=variant, seed=seed, rule=RED, pace="instant",
                       seats=[SeatPlan(n, "computer", strength) for n in ("A", "B", "C")])
    c.dispatch({"type": "start", "seed": seed})
    return c


def prepared(c: Controller) -> None:
    """Run the scientists' preparation (slices until ready)."""
    while not c.computers_ready():
        assert c.computer_step()


def test_tiny_slices_make_the_same_game(monkeypatch: pytest.MonkeyPatch) -> None:
    whole = computers_only(3)
    while whole.computer_step():
        pass
    monkeypatch.setattr(computer, "THINK_BUDGET_MS", 0.05)
    sliced = computers_only(3)
    steps = 0
    while sliced.computer_step():
        steps += 1
    assert sliced.state is not None and whole.state is not None
    assert sliced.state.actions == whole.state.actions
    assert steps > 2 * len(whole.state.actions)  # many slices per decision


def test_a_held_decision_waits_for_the_next_step(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(computer, "THINK_BUDGET_MS", 0.05)
    c = computers_only(4)
    prepared(c)
    assert c.state is not None
    before = len(c.state.actions)
    while not c.computer_decided():
        assert c.computer_step(hold=True)
        assert len(c.state.actions) == before  # thinking applies nothing
    assert c.computer_step(hold=True)  # the decided move is applied now
    assert len(c.state.actions) == before + 1
    assert not c.computer_decided()


def test_a_decision_is_dropped_when_the_game_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(computer, "THINK_BUDGET_MS", 0.05)
    c = computers_only(5)
    prepared(c)
    c.computer_step()  # a first slice of the first decision
    assert c._thinking is not None
    # another game begins meanwhile (same seats, another seed)
    c.ui.setup = Setup(variant="new_eleusis", seed=7, rule=RED, pace="instant",
                       seats=[SeatPlan(n, "computer", "casual") for n in ("A", "B", "C")])
    c.dispatch({"type": "start", "seed": 7})
    fresh = computers_only(7)
    for ctl in (c, fresh):
        while ctl.computer_step() and ctl.state is not None and len(ctl.state.actions) < 12:
            pass
    assert c.state is not None and fresh.state is not None
    assert len(c.state.actions) == 12
    assert c.state.actions == fresh.state.actions  # nothing of the old decision was played


def test_the_round_end_explanations_in_slices_are_the_explanations() -> None:
    c = computers_only(6)
    while c.computer_step():
        pass
    assert c.state is not None and c.state.over
    seats = c.session.computer_seats() if c.session else {}
    want = computer.Brains(seats, 6).explain(c.state)
    steps = computer.Brains(seats, 6).explain_steps(c.state)
    got: list[object] = list(steps)
    count = len(got)
    assert got[-1] == want and any(want.values())
    assert count > 3  # the preparation and each seat's reading came in slices


_FRESH = """
import json, sys
from eleusis_web.computer import Brains
def ai():
    return {m for m in sys.modules if m.startswith("eleusis.ai.")}
at_start = sorted(ai())
brains = Brains({1: "casual"}, 0)
steps = []
while not brains.ready():
    before = ai()
    brains.prepare_step()
    steps.append(sorted(ai() - before))
print(json.dumps([at_start, steps[:6]]))
"""


def test_the_scientists_modules_load_one_per_tick_not_with_the_page() -> None:
    """Loading the scientists' modules at once was one task of 80-95 ms in the page:
    the table imports none of them, then one per preparation step."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from eleusis.ai import MODULES

    src = Path(computer.__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", _FRESH], capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": str(src)}, check=True)
    at_start, steps = json.loads(done.stdout)
    assert at_start == []
    assert steps[:len(MODULES)] == [[m] for m in MODULES]
    assert steps[len(MODULES)] == []  # then the preparation proper
