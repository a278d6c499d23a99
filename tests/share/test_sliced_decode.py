"""Replays decoded in small steps (for a page that must not block) give the same rounds.

:func:`eleusis.game.apply_steps` works out the exact comparison a guess asks
for in slices before applying it; :func:`eleusis.replay.decode_steps` and the
viewer's :class:`eleusis_web.replay_view.ReplayLoad` are built on it. The
comparison caches are cleared first wherever a test needs the work to be done
(slices are counted in units of work, not time, so these tests do not depend
on the machine's speed).
"""

from __future__ import annotations

import sys
from collections.abc import Generator
from typing import TypeVar

import pytest
from tests.share.hostile_support import DEEP_RULE, guess_flood, hint_flood, wrong_play_marathon

from eleusis import replay
from eleusis.game import (
    ActionError,
    Guess,
    Play,
    State,
    apply,
    apply_steps,
    legal_actions,
    make_config,
    new_game,
    state_hash,
)
from eleusis.replay import ReplayError, decode_states, decode_steps, encode
from eleusis.rules import parse
from eleusis.variants import base
from eleusis_web.replay_view import ReplayLoad, open_replay

T = TypeVar("T")
_compare = sys.modules["eleusis.rules.compare"]


def forget_comparisons() -> None:
    """Forget every remembered comparison and verdict: the next guess is judged afresh."""
    _compare.clear_cache()
    base._guess_verdict.cache_clear()


def run(steps: Generator[object, None, T]) -> tuple[int, T]:
    """Drive ``steps`` to its end: (how many times it yielded, what it returned)."""
    n = 0
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return n, end.value
        n += 1


def deep_guess_state() -> tuple[State, Guess]:
    """A Solo round after three plays on the deep rule, and a wrong deep guess."""
    state = new_game(make_config("solo", ["You"], DEEP_RULE, 5))
    for _ in range(3):
        state = apply(state, Play(0, (state.hand(0)[0],)))
    return state, Guess(0, "card.rank + prev.rank + prev2.rank + prev3.rank + prev4.rank != 21")


def test_apply_steps_slices_a_long_comparison_and_gives_apply_s_state() -> None:
    state, guess = deep_guess_state()
    forget_comparisons()
    slices, sliced = run(apply_steps(state, guess, slice_work=500))
    assert slices > 10  # the comparison was cut into many steps
    forget_comparisons()
    whole = apply(state, guess)
    assert sliced == whole
    assert sliced.events[-1].kind in ("guess", "counterexample")
    # remembered: the same guess again needs no slice at all
    assert run(apply_steps(state, guess))[0] == 0


def test_apply_steps_refuses_what_apply_refuses() -> None:
    state, _ = deep_guess_state()
    with pytest.raises(ActionError):
        run(apply_steps(state, Play(3, ())))


def test_apply_steps_judges_an_express_guess_like_apply() -> None:
    rule = parse("card.rank + prev.rank + prev2.rank != 20 or card.suit == prev2.suit")
    state = new_game(make_config("express", ["A", "B", "C"], rule.text, 9))
    while not {"guess"} & set(legal_actions(state, state.actions[-1].seat
                                              if state.actions else 0).kinds):
        seat = next(i for i in range(3) if "play" in legal_actions(state, i).kinds)
        line = [c.card.card for c in state.layout]
        right = [c for c in state.hand(seat) if rule.accepts(line, c)]
        state = apply(state, Play(seat, ((right or state.hand(seat))[0],)))
    guess = Guess(state.actions[-1].seat, "card.rank + prev.rank + prev2.rank != 21")
    forget_comparisons()
    slices, sliced = run(apply_steps(state, guess, slice_work=200))
    forget_comparisons()
    assert slices > 0 and sliced == apply(state, guess)


@pytest.mark.parametrize("name", ["guesses", "wrong plays", "hints"])
def test_decode_steps_gives_the_states_of_the_unsliced_decode(name: str) -> None:
    text = {"guesses": guess_flood(4), "wrong plays": wrong_play_marathon(120),
            "hints": hint_flood(30)}[name]
    forget_comparisons()
    steps, states = run(decode_steps(text, slice_work=500))
    forget_comparisons()
    whole = decode_states(text)
    assert [state_hash(s) for s in states] == [state_hash(s) for s in whole]
    assert steps >= len(whole)  # at least one step per move


def test_decode_steps_reports_its_progress_in_order() -> None:
    forget_comparisons()
    steps = decode_steps(guess_flood(3), slice_work=500)
    seen = []
    while True:
        try:
            seen.append(next(steps))
        except StopIteration:
            break
    assert seen[0] == replay.Progress(0, 3) and seen[-1] == replay.Progress(3, 3)
    assert [p.done for p in seen] == sorted(p.done for p in seen)
    assert len(seen) > 3 + 10  # the guesses' comparisons came in slices between the moves


@pytest.mark.parametrize("text, message", [
    (guess_flood(replay.MAX_GUESSES + 1), "too many guesses"),
    (hint_flood(replay.MAX_HINTS + 1), "too many hints"),
    ("%%%", "not a replay"),
    (wrong_play_marathon(1000), "too many decks"),
])
def test_decode_steps_refuses_what_decode_refuses(text: str, message: str) -> None:
    with pytest.raises(ReplayError, match=message):
        run(decode_steps(text))


def test_the_viewer_opened_in_slices_is_the_viewer_opened_at_once() -> None:
    state, guess = deep_guess_state()
    state = apply(state, guess)
    text = encode(state)
    forget_comparisons()
    load = ReplayLoad(text)
    ticks = 0
    while load.advance(0.0) is None:  # the least work per call: one step
        ticks += 1
        assert 0 <= load.progress.done <= load.progress.total == len(state.actions)
    assert ticks > 10
    assert load.replay is not None
    at_once = open_replay(text)
    assert load.replay.final_hash == at_once.final_hash == state_hash(state)
    assert [state_hash(s) for s in load.replay.states] == [
        state_hash(s) for s in at_once.states]


def test_a_refused_link_is_refused_at_the_first_slice() -> None:
    load = ReplayLoad(hint_flood(replay.MAX_HINTS + 1))
    with pytest.raises(ReplayError, match="too many hints"):
        load.advance(0.0)


def test_a_round_decoded_in_steps_is_remembered_by_decode() -> None:
    text = guess_flood(2)
    forget_comparisons()
    replay._DECODED.clear()
    _, states = run(decode_steps(text, slice_work=500))
    assert replay.decode(text) is states[-1]  # found, not replayed (a new state otherwise)
    replay._DECODED.clear()
    assert replay.decode(text) is not states[-1]


def test_saves_give_the_round_texts_of_a_saved_game_without_decoding_them() -> None:
    from tests.share.hostile_support import deep_guess_save

    from eleusis_web.storage import CURRENT, MemoryStorage, Saves

    items = deep_guess_save(0)
    store = MemoryStorage()
    for k, v in items.items():
        store.setItem(k, v)
    saves = Saves(store)
    texts = saves.round_texts(items[CURRENT])
    assert len(texts) == 1 and replay.decode(texts[0]).config.rule == DEEP_RULE
    assert saves.round_texts("no-such-game") == []
    store.setItem("eleusis.save.bad", "[" * 20000)
    assert saves.round_texts("bad") == [] and saves.notes  # set aside, as load would


def test_an_archive_checked_in_steps_gives_the_archive_of_parse_archive() -> None:
    from eleusis.archive import ArchivedGame, export_archive, parse_archive, parse_archive_steps

    text = export_archive([ArchivedGame("g1", "deep", (guess_flood(2),)),
                           ArchivedGame("g2", "hints", (hint_flood(20),))])
    forget_comparisons()
    replay._DECODED.clear()
    steps, sliced = run(parse_archive_steps(text))
    assert steps > 20 + 2 + 10  # every move, and the guesses' comparisons in slices
    replay._DECODED.clear()
    whole = parse_archive(text)
    assert [g.id for g in sliced.games] == [g.id for g in whole.games]
    assert [state_hash(s) for g in sliced.games for s in g.states] == [
        state_hash(s) for g in whole.games for s in g.states]


def test_an_archive_checked_in_steps_refuses_what_parse_archive_refuses() -> None:
    from eleusis.archive import ArchivedGame, ArchiveError, export_archive, parse_archive_steps

    text = export_archive([ArchivedGame("g1", "", (hint_flood(3),))])
    bad = text.replace(hint_flood(3), hint_flood(replay.MAX_HINTS + 1))
    with pytest.raises(ArchiveError, match=r"games\[0\].*too many hints"):
        run(parse_archive_steps(bad))
    with pytest.raises(ArchiveError):
        run(parse_archive_steps("[" * 20000))


class _Decided:
    """A computer's decision already made (what ``Brains.decision`` gives once done)."""

    def __init__(self, action: object) -> None:
        self.action = action
        self.done = True

    def step(self) -> None:  # pragma: no cover - already done
        raise AssertionError


class _Brains:
    """Computers that play a card the rule accepts, then guess in their moment to."""

    def __init__(self, rule: str, guess_text: str) -> None:
        self.rule = parse(rule)
        self.guess_text = guess_text
        self.guesses_asked = 0

    def ready(self) -> bool:
        return True

    def decision(self, state: State, seat: int, window: bool) -> _Decided:
        if window:
            self.guesses_asked += 1
            return _Decided(Guess(seat, self.guess_text))
        line = [c.card.card for c in state.layout]
        hand = state.hand(seat)
        right = [c for c in hand if self.rule.accepts(line, c)]
        return _Decided(Play(seat, ((right or hand)[0],)))


def test_a_computer_s_long_guess_waits_for_its_comparison_and_is_then_applied() -> None:
    """The page steps the computers with comparisons deferred: a computer's guess whose
    comparison is long leaves the game as it was and keeps the decision, which the next
    step applies once the comparison is worked out."""
    from eleusis.variants.base import ComparisonNeeded, deferred_comparisons
    from eleusis_web.controller import Controller
    from eleusis_web.session import Setup, default_seats

    c = Controller(lambda: 9)
    c.ui.setup = Setup(variant="express", seed=9, rule=DEEP_RULE)
    c.ui.setup.seats = default_seats("express")
    c.dispatch({"type": "start", "seed": 9})
    assert c.session is not None
    text = "card.rank + prev.rank + prev2.rank + prev3.rank + prev4.rank != 21"
    brains = _Brains(DEEP_RULE, text)
    c.computers = brains  # type: ignore[assignment]
    forget_comparisons()
    need = None
    for _ in range(40):  # the person plays (or says no play), the computers play, ...
        state = c.session.state
        if c.computer_due() is None:
            kinds = legal_actions(state, 0).kinds
            c.dispatch({"type": "continue"} if "play" not in kinds else {"type": "no_play"})
            if c.session.state is state:
                c.act(Play(0, (state.hand(0)[0],)))
            continue
        try:
            with deferred_comparisons(500):
                c.computer_step()
        except ComparisonNeeded as exc:
            need = exc
            break
        assert brains.guesses_asked == 0
    assert need is not None and brains.guesses_asked == 1
    before = c.session.state
    run(need.steps(500))  # the page's timer slices; nothing applied meanwhile
    assert c.session.state is before
    with deferred_comparisons(500):
        assert c.computer_step()
    assert brains.guesses_asked == 1  # the same decision, kept
    assert isinstance(c.session.state.actions[-1], Guess)
    assert c.session.state.actions[-1].text == text
