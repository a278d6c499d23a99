"""Benchmark harness for the computer scientists.

``python -m eleusis.bench solo --rules FILE [--rounds N] [--seed S] [--strength P] [--json]
[--no-counterexamples] [--ideas]``

``python -m eleusis.bench prepare [--strength P] [--budget-ms B]`` times the
sliced preparation of a first scientist (the longest slice is the longest
task a page driving it would run), then its first decisions.

``python -m eleusis.bench table --rules FILE [--rounds N] [--players K]
[--variant new_eleusis|express|royal] ...`` plays New Eleusis (or Express, or
Royal) rounds with computer scientists in every seat (the rules of FILE in
turn) and reports how often their prophets were right.

``python -m eleusis.bench coverage --rules FILE [--verdicts N] [--seed S]
[--json]`` says which rules of FILE the scientist can hold: for each, a
scientist reads ``N`` (default 80) random plays judged by the rule, and its
leading idea is judged against the rule (see :func:`coverage_of`): a map of
the hypothesis space, without the luck of a hand.

plays the Solo variant (the protocol of the public "Game of Science" Eleusis
benchmark: two decks, a hand of 12, one card per turn, at most 30 turns,
score ``30 - turns - 2 x wrong guesses`` when solved) through the engine
(:mod:`eleusis.game`, :mod:`eleusis.variants.solo`) against every rule of
FILE, ``N`` rounds per rule (default 3). Guesses are judged by the engine with
the exact :func:`eleusis.rules.compare`.

FILE holds one rule per line in the rule language, with an optional
``name:`` prefix; blank lines and ``#`` comments are ignored. A line that is
not a rule is reported (with its line number) on stderr and skipped. Names of
the form ``d3-...`` (difficulty 3) are also summarised by difficulty.

Output: one line per rule, then a summary (share of rounds solved, mean
score, mean wrong guesses, mean turns, median and 95th-percentile
milliseconds per decision, the calibration of the predicted acceptance of the
cards played). ``--json`` prints the same as one JSON object with keys
``rounds``, ``solved_rate``, ``mean_score``, ``mean_wrong_guesses``,
``mean_turns``, ``decision_ms_median``, ``decision_ms_p95``, ``per_rule``
(and ``by_difficulty``, ``calibration``, ``guess_calibration``,
``guesses_by_reason`` -- how many guesses each path of the guess decision
made and how many were right, see :func:`guesses_by_reason` --,
``guesses_by_turn`` -- the same by the turn they were made at, see
:func:`guesses_by_turn` --, ``guesses_by_kind`` -- and by the kind of idea
guessed, see :func:`guesses_by_kind` --, ``skipped``,
``setup_ms``). ``--ideas`` adds ``idea_calibration``: after every decision
the scientist's top idea, the first line of its explanation, is judged
exactly, so the report says how often an idea given probability ``q`` was
the rule (the honesty of what a player is shown; slower, and the games are
the same as without it), and ``first_right_idea``: how soon the top idea
was the rule, and the score of a guess made then (see
:func:`first_right_ideas`).

Decision times are wall-clock times of :meth:`Scientist.choose_action`
(a play or a guess), measured in this process, and their CPU times
(``decision_cpu_ms_*``: the figure that matters on a busy shared machine);
the space is built once before the first round (its time is ``setup_ms``).

The same harness runs a step at a time (:func:`solo_steps`) and in time
slices (:class:`SoloRun`): the developer page ``bench/solo.html`` drives it
from the browser's event loop, so its Pyodide figures are measured in the
browser (``bench/ai_solo_browser.py``).
"""

from __future__ import annotations

import argparse
import io
import json
import random
import re
import statistics
import sys
import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO, TypeVar, cast

from eleusis.ai import Scientist, strength
from eleusis.ai.space import build_space
from eleusis.cards import ALL_CARDS, Card
from eleusis.game import (
    Guess,
    Play,
    State,
    acting_order,
    apply,
    make_config,
    new_game,
)
from eleusis.rules import RuleSyntaxError, parse
from eleusis.variants.base import guess_verdict
from eleusis.views import view


def _cpu_time() -> float:
    """This thread's CPU time (Pyodide has no thread clock: wall clock there)."""
    try:
        return time.thread_time()
    except (AttributeError, OSError):
        return time.perf_counter()


_NAMED = re.compile(r"^\s*([A-Za-z0-9_][\w.\-]*)\s*:\s*(.*)$")
_DIFFICULTY = re.compile(r"^d(\d+)-")


@dataclass(frozen=True)
class RuleLine:
    """One rule of a rules file."""

    name: str
    text: str
    line: int


def read_rules(lines: Sequence[str], out: TextIO | None = None) -> tuple[list[RuleLine], list[str]]:
    """Parse a rules file: (the rules, one message per skipped line)."""
    rules: list[RuleLine] = []
    skipped: list[str] = []
    for n, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _NAMED.match(line)
        name, text = (m.group(1), m.group(2).strip()) if m else (f"line{n}", line)
        try:
            canonical = parse(text).text
        except RuleSyntaxError as err:
            msg = f"line {n}: skipped, not a rule: {err}"
            skipped.append(msg)
            if out is not None:
                print(msg, file=out)
            continue
        rules.append(RuleLine(name, canonical, n))
    return rules, skipped


@dataclass
class RoundResult:
    """The outcome of one Solo round."""

    solved: bool
    score: int
    wrong: int
    turns: int
    decision_ms: list[float] = field(default_factory=list)
    decision_cpu_ms: list[float] = field(default_factory=list)
    predictions: list[tuple[float, bool]] = field(default_factory=list)
    guesses: list[str] = field(default_factory=list)
    #: (why it guessed, the probability it gave, whether it was right), in turn
    #: (see :data:`eleusis.ai.scientist.GUESS_REASONS`)
    guess_reasons: list[tuple[str, float, bool]] = field(default_factory=list)
    #: (the turns played when it guessed, whether it was right), in turn
    guess_turns: list[tuple[int, bool]] = field(default_factory=list)
    #: (the kind of idea guessed, whether it was right), in turn (see
    #: :func:`eleusis.ai.scientist.idea_kind`)
    guess_kinds: list[tuple[str, bool]] = field(default_factory=list)
    #: after every decision, (the probability of its top idea, whether the
    #: judge calls that idea the rule): only with ``ideas``
    ideas: list[tuple[float, bool]] = field(default_factory=list)
    #: the plays made before the first decision after which its top idea was
    #: the rule (None if it never was): only with ``ideas``
    first_right_idea: int | None = None


def solo_round_steps(rule_text: str, seed: int, level: str = "strong", max_turns: int = 30,
                     counterexamples: bool = True,
                     ideas: bool = False) -> Generator[None, None, RoundResult]:
    """One Solo round of a computer scientist against ``rule_text``, a decision at a time.

    Yields after every decision (a page runs a few per event-loop task) and
    returns the :class:`RoundResult`; :func:`play_solo` drives it to the end.
    With ``ideas``, after every decision the first line of the scientist's
    explanation (its top idea, with the probability a player is shown) is
    judged by the game's own judge (:func:`eleusis.variants.base.guess_verdict`)
    and recorded in :attr:`RoundResult.ideas`, outside the timed decision.
    """
    state = new_game(make_config("solo", ["computer"], rule_text, seed, max_turns=max_turns))
    sci = Scientist(level, seed, counterexamples=counterexamples)
    res = RoundResult(False, 0, 0, 0)
    while not state.over:
        v = view(state, 0)
        t0 = time.perf_counter()
        c0 = _cpu_time()
        action = sci.choose_action(v)
        res.decision_cpu_ms.append(1000.0 * (_cpu_time() - c0))
        res.decision_ms.append(1000.0 * (time.perf_counter() - t0))
        if ideas:
            top = sci.explain(v.mainline, 1)
            if top:
                right, _ = guess_verdict(rule_text, top[0].text, v.mainline)
                res.ideas.append((top[0].probability, right))
                if right and res.first_right_idea is None:
                    res.first_right_idea = state.turns
        before = len(state.mainline)
        state = apply(state, action)
        if isinstance(action, Guess):
            res.guesses.append(action.text)
            right = bool(state.seats[0].right_guess)
            res.guess_turns.append((state.turns, right))
            kind = sci.last_guess_kind
            if kind is not None:
                res.guess_kinds.append((kind, right))
            if sci.last_guess_probability is not None and sci.last_guess_reason is not None:
                res.guess_reasons.append((sci.last_guess_reason, sci.last_guess_probability,
                                          right))
        elif isinstance(action, Play) and sci.last_prediction is not None:
            res.predictions.append((sci.last_prediction[1], len(state.mainline) > before))
        yield None
    seat = state.seats[0]
    assert state.result is not None
    res.solved = bool(seat.right_guess)
    res.score = state.result.scores[0]
    res.wrong = seat.wrong_guesses
    res.turns = state.turns
    return res


_T = TypeVar("_T")


def _finish(steps: Generator[Any, None, _T]) -> _T:
    """Run a step generator to its end and return its value."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return cast(_T, stop.value)


def play_solo(rule_text: str, seed: int, level: str = "strong", max_turns: int = 30,
              counterexamples: bool = True, ideas: bool = False) -> RoundResult:
    """Play one Solo round of a computer scientist against ``rule_text``."""
    return _finish(solo_round_steps(rule_text, seed, level, max_turns, counterexamples, ideas))


def _percentile(xs: Sequence[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    k = min(len(s) - 1, max(0, round(q * (len(s) - 1))))
    return s[k]


def calibration(pairs: Sequence[tuple[float, bool]], bins: int = 5) -> list[dict[str, float]]:
    """Predicted acceptance against observed frequency, in equal-width bins."""
    out = []
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        sel = [(p, a) for p, a in pairs if lo <= p < hi or (b == bins - 1 and p == 1.0)]
        if sel:
            out.append({"from": lo, "to": hi, "plays": len(sel),
                        "predicted": round(statistics.mean(p for p, _ in sel), 3),
                        "observed": round(sum(a for _, a in sel) / len(sel), 3)})
    return out


def guesses_by_reason(calls: Sequence[tuple[str, float, bool]]) -> dict[str, dict[str, float]]:
    """How many guesses each reason made, how many were right, and their mean stated probability.

    >>> by = guesses_by_reason([("sure", 0.75, True), ("tie", 0.4, False), ("sure", 0.85, True)])
    >>> by["sure"], by["tie"]
    ({'guesses': 2, 'right': 2, 'stated': 0.8}, {'guesses': 1, 'right': 0, 'stated': 0.4})
    """
    out: dict[str, dict[str, float]] = {}
    for reason in dict.fromkeys(r for r, _, _ in calls):
        sel = [(q, right) for r, q, right in calls if r == reason]
        out[reason] = {"guesses": len(sel), "right": sum(right for _, right in sel),
                       "stated": round(statistics.mean(q for q, _ in sel), 3)}
    return out


#: The turns at which :func:`guesses_by_turn` starts a new bin.
GUESS_TURN_BINS = (1, 11, 16, 21)


def guesses_by_turn(calls: Sequence[tuple[int, bool]]) -> dict[str, dict[str, int]]:
    """How many guesses were made, and how many were right, by the turn they were made at.

    Early guesses are the ones whose rightness depends most on who wrote the
    rules: on rules of one plain block an idea that fits ten plays is
    usually the rule, on larger rules it is usually a chance fit (see
    docs/performance.md). Bins start at :data:`GUESS_TURN_BINS`.

    >>> by = guesses_by_turn([(9, True), (10, False), (14, True), (30, False)])
    >>> list(by)
    ['1-10', '11-15', '21-']
    >>> by["1-10"], by["21-"]
    ({'guesses': 2, 'right': 1}, {'guesses': 1, 'right': 0})
    """
    out: dict[str, dict[str, int]] = {}
    for k, lo in enumerate(GUESS_TURN_BINS):
        hi = GUESS_TURN_BINS[k + 1] if k + 1 < len(GUESS_TURN_BINS) else None
        sel = [right for t, right in calls if t >= lo and (hi is None or t < hi)]
        if sel:
            out[f"{lo}-{'' if hi is None else hi - 1}"] = {"guesses": len(sel),
                                                         "right": sum(sel)}
    return out


def guesses_by_kind(calls: Sequence[tuple[str, bool]]) -> dict[str, dict[str, int]]:
    """How many guesses were made, and how many were right, by the kind of idea guessed,
    the most guessed kind first.

    A plain block that fits ten plays is the rule when the rules' writers write
    plain blocks, and a part of a longer rule when they write longer ones:
    the right share of each kind tells a set of rules from another (see
    docs/performance.md).

    >>> guesses_by_kind([("split", False), ("one block", True), ("one block", True)])
    {'one block': {'guesses': 2, 'right': 2}, 'split': {'guesses': 1, 'right': 0}}
    """
    out: dict[str, dict[str, int]] = {}
    for kind, right in calls:
        c = out.setdefault(kind, {"guesses": 0, "right": 0})
        c["guesses"] += 1
        c["right"] += right
    return dict(sorted(out.items(), key=lambda kv: -kv[1]["guesses"]))


def first_right_ideas(firsts: Sequence[int | None], max_turns: int = 30) -> dict[str, float]:
    """How soon the scientist's top idea was the rule, and what a guess then would have scored.

    ``firsts`` holds, for each round, the plays made before its top idea was
    first the rule (None if it never was). The report: the share of rounds
    whose top idea ever was the rule (``rounds_led``), the mean plays before
    that (``mean_plays``, over those rounds) and the mean score of a scientist
    that guessed its top idea exactly then and never otherwise
    (``score_then``: ``max_turns - plays``, 0 for a round it never led). Set
    beside the real scores, it splits what a round loses into finding the rule
    (the plays before it leads) and trusting it (the plays from then to the
    guess).

    >>> first_right_ideas([4, None, 10])
    {'rounds_led': 0.667, 'mean_plays': 7.0, 'score_then': 15.333}
    """
    led = [f for f in firsts if f is not None]
    n = len(firsts)
    return {"rounds_led": round(len(led) / n, 3) if n else 0.0,
            "mean_plays": round(float(statistics.mean(led)), 3) if led else 0.0,
            "score_then": round(sum(max_turns - f for f in led) / n, 3) if n else 0.0}


def _summary(results: Sequence[RoundResult]) -> dict[str, float]:
    times = [t for r in results for t in r.decision_ms]
    cpu = [t for r in results for t in r.decision_cpu_ms]
    n = len(results)
    return {
        "rounds": n,
        "solved_rate": round(sum(r.solved for r in results) / n, 4) if n else 0.0,
        "mean_score": round(statistics.mean(r.score for r in results), 3) if n else 0.0,
        "mean_wrong_guesses": round(statistics.mean(r.wrong for r in results), 3) if n else 0.0,
        "mean_turns": round(statistics.mean(r.turns for r in results), 3) if n else 0.0,
        "decision_ms_median": round(_percentile(times, 0.5), 3),
        "decision_ms_p95": round(_percentile(times, 0.95), 3),
        "decision_cpu_ms_median": round(_percentile(cpu, 0.5), 3),
        "decision_cpu_ms_p95": round(_percentile(cpu, 0.95), 3),
        "decisions": len(times),
    }


def rule_line(entry: dict[str, Any]) -> str:
    """The harness's one-line account of a rule (an entry of ``per_rule``)."""
    marks = " ".join(f"{'+' if w else '-'}{score}"
                     for w, score in zip(entry["solved"], entry["scores"], strict=True))
    rounds = len(entry["scores"])
    return (f"{entry['name']:40s} solved {sum(entry['solved'])}/{rounds}  "
            f"score {entry['mean_score']:6.2f}  wrong {entry['mean_wrong_guesses']:.2f}  "
            f"turns {entry['mean_turns']:5.2f}  [{marks}]")


def solo_steps(rules: Sequence[RuleLine], rounds: int, seed: int, level: str,
               counterexamples: bool = True, prepare_budget_ms: float | None = None,
               ideas: bool = False) -> Generator[dict[str, Any], None, dict[str, Any]]:
    """The Solo harness a step at a time: yields progress, returns the report.

    Every rule is played ``rounds`` times (round ``r`` of the ``k``-th rule
    with seed ``seed * 100_003 + k * 101 + r``, so the same rules in the same
    order give the same games wherever this runs). Yields
    ``{"kind": "prepare"}`` after each slice of the preparation,
    ``{"kind": "decision", "rule": k, "round": r}`` after every decision and
    ``{"kind": "rule", "rule": k, "entry": ..., "line": ...}`` after each
    rule (its ``per_rule`` entry and :func:`rule_line`), so a page can yield
    to its event loop between steps and show progress. With
    ``prepare_budget_ms`` the preparation is :meth:`Scientist.prepare_steps`
    in slices (space, shared prior, columns; ``setup_ms`` sums the slices),
    else one :func:`build_space` (the command line's ``setup_ms``). With
    ``ideas`` the report adds ``idea_calibration`` and ``first_right_idea``
    (see :func:`solo_round_steps` and :func:`first_right_ideas`).
    """
    if prepare_budget_ms is None:
        t0 = time.perf_counter()
        build_space(strength(level).max_level)
        setup_ms = 1000.0 * (time.perf_counter() - t0)
    else:
        setup_ms = 0.0
        prep = Scientist.prepare_steps(level, prepare_budget_ms)
        while True:
            t0 = time.perf_counter()
            done = next(prep)
            setup_ms += 1000.0 * (time.perf_counter() - t0)
            if done:
                break
            yield {"kind": "prepare"}
    per_rule: list[dict[str, Any]] = []
    everything: list[RoundResult] = []
    groups: dict[str, list[RoundResult]] = {}
    for k, rl in enumerate(rules):
        results: list[RoundResult] = []
        for r in range(rounds):
            steps = solo_round_steps(rl.text, seed * 100_003 + k * 101 + r, level,
                                     counterexamples=counterexamples, ideas=ideas)
            while True:
                try:
                    next(steps)
                except StopIteration as stop:
                    results.append(stop.value)
                    break
                yield {"kind": "decision", "rule": k, "round": r}
        everything.extend(results)
        m = _DIFFICULTY.match(rl.name)
        if m:
            groups.setdefault(m.group(1), []).extend(results)
        entry: dict[str, Any] = {"name": rl.name, "rule": rl.text, "line": rl.line}
        entry.update(_summary(results))
        entry["scores"] = [r.score for r in results]
        entry["wrong_guesses"] = [r.wrong for r in results]
        entry["turns"] = [r.turns for r in results]
        per_rule.append(entry)
        line = rule_line({**entry, "solved": [r.solved for r in results]})
        yield {"kind": "rule", "rule": k, "entry": entry, "line": line}
    report: dict[str, Any] = _summary(everything)
    report["strength"] = level
    report["seed"] = seed
    report["counterexamples"] = counterexamples
    report["setup_ms"] = round(setup_ms, 1)
    report["per_rule"] = per_rule
    report["by_difficulty"] = {d: _summary(rs) for d, rs in sorted(groups.items())}
    report["calibration"] = calibration([p for r in everything for p in r.predictions])
    # how often a guess made with probability q was right (the scientist's
    # confidence in its top idea against the outcome)
    calls = [g for r in everything for g in r.guess_reasons]
    report["guess_calibration"] = calibration([(q, right) for _, q, right in calls])
    # and by why it guessed (sure, stuck, a tie, ...): where the wrong ones come from
    report["guesses_by_reason"] = guesses_by_reason(calls)
    # and by the turn it guessed at: early guesses are right or wrong by the rule set
    report["guesses_by_turn"] = guesses_by_turn([g for r in everything for g in r.guess_turns])
    report["guesses_by_kind"] = guesses_by_kind([g for r in everything for g in r.guess_kinds])
    if ideas:
        # the probability it gives its top idea, turn by turn, against the judge
        report["idea_calibration"] = calibration([i for r in everything for i in r.ideas])
        # how soon the top idea was the rule: finding it against trusting it
        report["first_right_idea"] = first_right_ideas([r.first_right_idea for r in everything])
    return report


def run_solo(rules: Sequence[RuleLine], rounds: int, seed: int, level: str,
             out: TextIO | None, counterexamples: bool = True,
             ideas: bool = False) -> dict[str, Any]:
    """Play every rule ``rounds`` times; print a line per rule to ``out``."""
    steps = solo_steps(rules, rounds, seed, level, counterexamples, ideas=ideas)
    while True:
        try:
            event = next(steps)
        except StopIteration as stop:
            report: dict[str, Any] = stop.value
            return report
        if out is not None and event["kind"] == "rule":
            print(event["line"], file=out, flush=True)


class SoloRun:
    """The Solo harness driven in time slices, as the developer page runs it.

    ``SoloRun(text, rounds=3, seed=0, level="strong")`` reads the rules from
    ``text`` (a rules file's content: bad lines are skipped and listed in
    ``skipped`` with their line numbers, as the command line does) and keeps
    the first ``limit`` rules when ``limit`` is given. Each :meth:`advance`
    runs steps for about ``budget_ms`` and returns what happened, so the
    caller (a page's event loop) gets control back between slices. The report
    is the command line's ``--json`` object (with ``skipped``), the summary
    its text. Raises ``ValueError`` at once for a bad level or round count.
    """

    def __init__(self, text: str, rounds: int = 3, seed: int = 0, level: str = "strong",
                 limit: int | None = None, counterexamples: bool = True,
                 prepare_budget_ms: float = 8.0) -> None:
        strength(level)
        if rounds < 1:
            raise ValueError(f"rounds must be at least 1, not {rounds}")
        if limit is not None and limit < 1:
            raise ValueError(f"limit must be at least 1, not {limit}")
        rules, self.skipped = read_rules(text.splitlines())
        self.rules = rules[:limit] if limit is not None else rules
        self.rounds = rounds
        self.decisions = 0
        self.report: dict[str, Any] | None = None
        #: "prepare" until the first decision, then "play" (to the end)
        self._phase = "prepare"
        self._steps = solo_steps(self.rules, rounds, seed, level, counterexamples,
                                 prepare_budget_ms)

    @property
    def done(self) -> bool:
        """True once the report is ready."""
        return self.report is not None

    def advance(self, budget_ms: float = 15.0) -> dict[str, Any]:
        """Run for about ``budget_ms`` (at least one step); return the progress.

        Keys: ``done``, ``phase`` (``prepare`` until the first decision,
        then ``play`` to the end, also in a slice that only finishes the
        report), ``rule`` and ``round`` (0-based, of the last decision),
        ``decisions`` so far, ``lines`` (:func:`rule_line` of each rule finished in this slice)
        and, once done, ``report`` and ``summary``.
        """
        lines: list[str] = []
        out: dict[str, Any] = {"done": False, "phase": self._phase, "lines": lines}
        if self.report is None:
            t_end = time.perf_counter() + budget_ms / 1000.0
            while True:
                try:
                    event = next(self._steps)
                except StopIteration as stop:
                    report: dict[str, Any] = stop.value
                    report["skipped"] = list(self.skipped)
                    self.report = report
                    break
                if event["kind"] == "decision":
                    self.decisions += 1
                    self._phase = "play"
                    out.update(phase="play", rule=event["rule"], round=event["round"])
                elif event["kind"] == "rule":
                    self._phase = "play"
                    out.update(phase="play", rule=event["rule"])
                    lines.append(event["line"])
                if time.perf_counter() >= t_end:
                    break
        out["decisions"] = self.decisions
        if self.report is not None:
            out.update(done=True, report=self.report, summary=summary_text(self.report))
        return out


def play_table(rule_text: str, seed: int, players: int = 4, level: str = "strong",
               variant: str = "new_eleusis", max_steps: int = 2000,
               scientists: list[Scientist] | None = None) -> tuple[State, list[float]]:
    """Play one round of ``variant`` with computer scientists in every seat.

    The driver asks the seats in :func:`eleusis.game.acting_order`: first those
    with an optional step open (declaring prophet), then the one the round
    waits for.
    Returns the final state and the milliseconds of every decision. Pass an
    empty list as ``scientists`` to get the players back (to inspect them).
    """
    names = [f"computer {i + 1}" for i in range(players)]
    state = new_game(make_config(variant, names, rule_text, seed))
    made = [Scientist(level, seed * 31 + i) for i in range(players)]
    if scientists is not None:
        scientists[:] = made
    scientists = made
    times: list[float] = []
    for _ in range(max_steps):
        if state.over:
            break
        for s in acting_order(state):
            t0 = time.perf_counter()
            action = scientists[s].maybe_action(view(state, s))
            times.append(1000.0 * (time.perf_counter() - t0))
            if action is not None:
                state = apply(state, action)
                break
        else:
            break  # nobody acts: the round cannot go on
    return state, times


def run_table(rules: Sequence[RuleLine], rounds: int, seed: int, level: str, players: int,
              out: TextIO | None, variant: str = "new_eleusis") -> dict[str, Any]:
    """Rounds of ``variant`` (New Eleusis, Express or Royal) with computer scientists
    only: are their prophets right? (Royal: ``plays`` counts the judged bets.)"""
    declared = overthrown = finished = plays = 0
    times: list[float] = []
    for r in range(rounds):
        rl = rules[r % len(rules)]
        state, t = play_table(rl.text, seed * 100_003 + r, players, level, variant)
        times.extend(t)
        kinds = [e.kind for e in state.events]
        d, o = kinds.count("prophet"), kinds.count("overthrow")
        declared += d
        overthrown += o
        finished += state.over
        n_plays = kinds.count("play") + kinds.count("verdict")
        plays += n_plays
        if out is not None:
            print(f"{r + 1:4d} {rl.name:36s} {'over' if state.over else 'cut':4s} "
                  f"plays {n_plays:3d}  prophets {d}  overthrown {o}", file=out,
                  flush=True)
    return {
        "rounds": rounds,
        "finished": finished,
        "prophets_declared": declared,
        "prophets_overthrown": overthrown,
        "true_prophet_rate": round((declared - overthrown) / declared, 4) if declared else None,
        "mean_plays": round(plays / rounds, 2) if rounds else 0.0,
        "decision_ms_median": round(_percentile(times, 0.5), 3),
        "decision_ms_p95": round(_percentile(times, 0.95), 3),
        "strength": level,
        "players": players,
        "seed": seed,
        "variant": variant,
    }


@dataclass(frozen=True)
class Coverage:
    """Whether a scientist can hold one rule: what it leads with after many verdicts."""

    name: str
    rule: str
    #: its leading idea, judged the rule from the mainline on by the game's judge
    inside: bool
    #: the leading idea ("" when it has none) and the probability it gives it
    idea: str
    probability: float
    #: the probability it gives to "a rule I cannot write"
    outside: float
    #: the verdicts it read, and how many accepted the card
    verdicts: int
    accepted: int


def coverage_of(name: str, rule_text: str, verdicts: int = 80, seed: int = 0,
                level: str = "strong") -> Coverage:
    """Can the scientist hold ``rule_text``? Its leading idea after ``verdicts`` random plays.

    No game: a starter the rule accepts, then ``verdicts`` cards, half of
    them drawn among those the rule accepts after the mainline (so the
    mainline grows and the rule shows its cases), half among all 52; the
    scientist reads each verdict, and its leading idea is then judged
    against the rule by the game's judge. A rule it can hold is led once
    enough is seen (a rule that refuses one card of 52 needs that card
    among the plays); one it cannot hold is not, or only by a chance
    spelling that fits what was seen. A map of the hypothesis space
    against a set of rules, without the luck of a hand.

    >>> coverage_of("red", "card is red", verdicts=20).inside
    True
    """
    rule = parse(rule_text)
    rng = random.Random(seed)
    sci = Scientist(level, seed)
    line: list[Card] = []
    starters = [c for c in ALL_CARDS if rule.accepts(line, c)]
    if not starters:
        raise ValueError(f"{name}: the rule accepts no first card")
    line.append(rng.choice(starters))
    sci.observe_starter(line[0])
    accepted = 0
    for _ in range(verdicts):
        good = [c for c in ALL_CARDS if rule.accepts(line, c)]
        card = rng.choice(good) if good and rng.random() < 0.5 else rng.choice(ALL_CARDS)
        ok = rule.accepts(line, card)
        sci.observe(line, card, ok)
        if ok:
            line.append(card)
            accepted += 1
    ranked = sci.ranked(line, limit=3, early=True)
    idea, q = (ranked[0][0].text(sci.belief.space), ranked[0][1]) if ranked else ("", 0.0)
    inside = bool(idea) and guess_verdict(rule_text, idea, line)[0]
    return Coverage(name, rule_text, inside, idea, round(q, 3),
                    round(sci.outside_probability(), 3), verdicts, accepted)


def run_coverage(rules: Sequence[RuleLine], verdicts: int, seed: int, level: str,
                 out: TextIO | None = None) -> dict[str, Any]:
    """:func:`coverage_of` for every rule (seeded ``seed * 100_003 + k * 101``, as
    the Solo harness seeds its rounds); a line per rule on ``out``, then the summary."""
    rows: list[Coverage] = []
    for k, rl in enumerate(rules):
        try:
            c = coverage_of(rl.name, rl.text, verdicts, seed * 100_003 + k * 101, level)
        except ValueError as err:
            if out is not None:
                print(f"skipped: {err}", file=out)
            continue
        rows.append(c)
        if out is not None:
            print(f"{'inside ' if c.inside else 'OUTSIDE'} {c.name:36s} led by "
                  f"{c.idea or '(no idea)'} ({c.probability:.2f}; outside {c.outside:.2f})",
                  file=out)
    inside = sum(c.inside for c in rows)
    report: dict[str, Any] = {
        "rules": len(rows), "inside": inside,
        "inside_rate": round(inside / len(rows), 4) if rows else 0.0,
        "verdicts": verdicts, "seed": seed, "strength": level,
        "per_rule": [vars(c) for c in rows],
    }
    if out is not None:
        print(f"{inside} of {len(rows)} rules led by an idea the judge calls the rule "
              f"after {verdicts} verdicts", file=out)
    return report


def run_prepare(level: str = "strong", budget_ms: float = 10.0) -> dict[str, Any]:
    """Time the sliced preparation of a first scientist, as a page would drive it.

    Reports every slice of :meth:`Scientist.prepare_steps` (the longest is
    the longest main-thread task it causes), then the creation of a
    scientist and its first Solo decision, each a task of its own. Run it in
    a fresh process: a space already built is not rebuilt.
    """
    slices: list[float] = []
    cpu: list[float] = []
    t_all = time.perf_counter()
    steps = Scientist.prepare_steps(level, budget_ms)
    while True:
        t0, c0 = time.perf_counter(), _cpu_time()
        done = next(steps)
        slices.append(1000.0 * (time.perf_counter() - t0))
        cpu.append(1000.0 * (_cpu_time() - c0))
        if done:
            break
    total = 1000.0 * (time.perf_counter() - t_all)
    t0 = time.perf_counter()
    sci = Scientist(level, 0)
    create = 1000.0 * (time.perf_counter() - t0)
    state = new_game(make_config("solo", ["computer"], "card.suit != prev.suit", 1))
    t0 = time.perf_counter()
    action = sci.choose_action(view(state, 0))
    first = 1000.0 * (time.perf_counter() - t0)
    state = apply(state, action)
    t0 = time.perf_counter()
    sci.choose_action(view(state, 0))
    second = 1000.0 * (time.perf_counter() - t0)
    return {
        "strength": level,
        "budget_ms": budget_ms,
        "slices": len(slices),
        "longest_slice_ms": round(max(slices), 3),
        "slice_ms_median": round(_percentile(slices, 0.5), 3),
        "longest_slice_cpu_ms": round(max(cpu), 3),
        "longest_slices": [[k, round(slices[k], 1)] for k in
                           sorted(range(len(slices)), key=lambda k: -slices[k])[:5]],
        "total_ms": round(total, 1),
        "create_scientist_ms": round(create, 3),
        "first_decision_ms": round(first, 3),
        "second_decision_ms": round(second, 3),
    }


def _print_summary(report: dict[str, Any], out: TextIO) -> None:
    print(f"rounds {report['rounds']}  solved {100 * report['solved_rate']:.1f}%  "
          f"mean score {report['mean_score']:.2f}  wrong guesses/round "
          f"{report['mean_wrong_guesses']:.3f}  turns {report['mean_turns']:.2f}", file=out)
    print(f"ms per decision (wall clock): median {report['decision_ms_median']:.2f}  "
          f"p95 {report['decision_ms_p95']:.2f}; CPU time: median "
          f"{report['decision_cpu_ms_median']:.2f}  p95 {report['decision_cpu_ms_p95']:.2f}  "
          f"({report['decisions']} decisions; space built in {report['setup_ms']:.0f} ms)",
          file=out)
    for d, s in report["by_difficulty"].items():
        print(f"  difficulty {d}: rounds {s['rounds']}  solved {100 * s['solved_rate']:.1f}%  "
              f"score {s['mean_score']:.2f}  wrong {s['mean_wrong_guesses']:.3f}", file=out)
    print("calibration (predicted -> observed acceptance): "
          f"{_calibration_text(report['calibration'])}", file=out)
    for key, what in (("guess_calibration", "guesses"), ("idea_calibration", "top ideas")):
        if report.get(key):
            print(f"{what} (stated probability -> right): {_calibration_text(report[key])}",
                  file=out)
    first = report.get("first_right_idea")
    if first:
        print(f"top idea first the rule in {100 * first['rounds_led']:.1f}% of rounds, after "
              f"{first['mean_plays']:.2f} plays on average; guessed then, mean score "
              f"{first['score_then']:.2f}", file=out)
    reasons = report.get("guesses_by_reason")
    if reasons:
        print("guesses by reason (right of made, mean stated probability): " + ", ".join(
            f"{r} {int(c['right'])}/{int(c['guesses'])} ({c['stated']:.2f})"
            for r, c in reasons.items()), file=out)
    by_turn = report.get("guesses_by_turn")
    if by_turn:
        print("guesses by turn (right of made): " + ", ".join(
            f"turns {b} {c['right']}/{c['guesses']}" for b, c in by_turn.items()), file=out)
    by_kind = report.get("guesses_by_kind")
    if by_kind:
        print("guesses by kind of idea (right of made): " + ", ".join(
            f"{k} {c['right']}/{c['guesses']}" for k, c in by_kind.items()), file=out)


def _calibration_text(bins: Sequence[dict[str, float]]) -> str:
    """Calibration bins as ``predicted->observed (count)``, comma separated."""
    return ", ".join(f"{c['predicted']:.2f}->{c['observed']:.2f} ({c['plays']})" for c in bins)


def summary_text(report: dict[str, Any]) -> str:
    """The summary the command line prints after the per-rule lines."""
    buf = io.StringIO()
    _print_summary(report, buf)
    return buf.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit code (2 for bad arguments or files)."""
    ap = argparse.ArgumentParser(prog="python -m eleusis.bench",
                                 description="Benchmarks of the computer scientists.")
    sub = ap.add_subparsers(dest="command", required=True)
    solo = sub.add_parser("solo", help="play the Solo variant against every rule of a file")
    solo.add_argument("--rules", required=True, help="rules file: one rule per line")
    solo.add_argument("--rounds", type=int, default=3, help="rounds per rule (default 3)")
    solo.add_argument("--seed", type=int, default=0, help="seed of the deals and decisions")
    solo.add_argument("--strength", default="strong",
                      help="novice, casual, strong (default) or expert")
    solo.add_argument("--json", action="store_true", help="print one JSON object")
    solo.add_argument("--no-counterexamples", action="store_true",
                      help="ignore the counterexample answering a wrong guess (as the "
                           "published benchmark, which answers only 'wrong')")
    solo.add_argument("--ideas", action="store_true",
                      help="judge the scientist's top idea after every decision and report "
                           "how often an idea given probability q was the rule (slower)")
    table = sub.add_parser("table", help="New Eleusis rounds with computer players only")
    table.add_argument("--rules", required=True, help="rules file: one rule per line")
    table.add_argument("--rounds", type=int, default=26, help="rounds (rules taken in turn)")
    table.add_argument("--players", type=int, default=4, help="computer scientists (3-8)")
    table.add_argument("--seed", type=int, default=0, help="seed of the deals and decisions")
    table.add_argument("--strength", default="strong",
                       help="novice, casual, strong (default) or expert")
    table.add_argument("--json", action="store_true", help="print one JSON object")
    table.add_argument("--variant", default="new_eleusis",
                       choices=("new_eleusis", "express", "royal"),
                       help="the variant played (default new_eleusis)")
    cover = sub.add_parser("coverage", help="which rules of a file the scientist can hold "
                                             "(its leading idea after many random verdicts)")
    cover.add_argument("--rules", required=True, help="rules file: one rule per line")
    cover.add_argument("--verdicts", type=int, default=80,
                       help="random plays read before the leading idea is judged (default 80)")
    cover.add_argument("--seed", type=int, default=0, help="seed of the plays")
    cover.add_argument("--strength", default="strong",
                       help="novice, casual, strong (default) or expert")
    cover.add_argument("--json", action="store_true", help="print one JSON object")
    prep = sub.add_parser("prepare", help="time the sliced build of the first scientist")
    prep.add_argument("--strength", default="strong",
                      help="novice, casual, strong (default) or expert")
    prep.add_argument("--budget-ms", type=float, default=10.0,
                      help="the time budget of one slice (default 10)")
    args = ap.parse_args(argv)
    try:
        strength(args.strength)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.command == "prepare":
        if not args.budget_ms > 0:
            print("error: --budget-ms must be positive", file=sys.stderr)
            return 2
        print(json.dumps(run_prepare(args.strength, args.budget_ms), indent=1))
        return 0
    if args.command != "coverage" and args.rounds < 1:
        print("error: --rounds must be at least 1", file=sys.stderr)
        return 2
    if args.command == "coverage" and args.verdicts < 1:
        print("error: --verdicts must be at least 1", file=sys.stderr)
        return 2
    try:
        with open(args.rules, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as err:
        print(f"error: cannot read {args.rules}: {err}", file=sys.stderr)
        return 2
    rules, skipped = read_rules(lines, sys.stderr)
    if args.command == "coverage":
        report = run_coverage(rules, args.verdicts, args.seed, args.strength,
                              None if args.json else sys.stdout)
        report["skipped"] = skipped
        if args.json:
            print(json.dumps(report))
        return 0
    if args.command == "table":
        if not rules or not 3 <= args.players <= 8:
            print("error: need at least one rule and 3 to 8 players", file=sys.stderr)
            return 2
        report = run_table(rules, args.rounds, args.seed, args.strength, args.players,
                           None if args.json else sys.stdout, args.variant)
        if args.json:
            print(json.dumps(report))
        else:
            print(json.dumps(report, indent=1))
        return 0
    report = run_solo(rules, args.rounds, args.seed, args.strength,
                      None if args.json else sys.stdout,
                      counterexamples=not args.no_counterexamples, ideas=args.ideas)
    report["skipped"] = skipped
    if args.json:
        print(json.dumps(report))
    else:
        _print_summary(report, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
