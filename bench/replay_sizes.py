"""Replay link sizes (issue 4's targets), printed.

* a typical 4-scientist New Eleusis round: the median over 1,000 rounds played
  by "plausible" scientists (they play a right card more often as the round
  goes on, sometimes 2-4 cards, declare "no play" when they hold nothing
  right, and sometimes become prophet); target <= 600 characters;
* the longest of 1,000 simulated rounds of each variant, both with plausible
  players and with players taking any legal action at random (the random-play
  tests' policy); target <= 2,000 characters.

Run: ``python bench/replay_sizes.py [rounds]`` (default 1000).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from tests.engine.helpers import random_action  # noqa: E402

from eleusis.game import (  # noqa: E402
    Action,
    Bet,
    ConfigError,
    DeclareProphet,
    Guess,
    NoPlay,
    Play,
    ProphetCall,
    State,
    apply,
    legal_actions,
    make_config,
    new_game,
)
from eleusis.replay import decode, encode  # noqa: E402
from eleusis.rules.library import RULES  # noqa: E402
from eleusis.variants.base import parse_rule  # noqa: E402

NAMES = ("Ada", "Bruno", "Chiara", "Dmitri", "Elif", "Femi", "Gus", "Hana")


def plausible_action(state: State, r: random.Random) -> Action:
    """A scientist who gets better as the round goes on; a prophet who knows the rule."""
    rule = parse_rule(state.config.rule or "true")
    line = list(state.mainline)
    skill = min(0.95, 0.35 + state.turns / 40)
    for seat in range(len(state.seats)):
        legal = legal_actions(state, seat)
        if "prophet_call" in legal.kinds:
            p = state.pending
            assert p is not None
            if p.kind == "bet":
                card, kind = p.cards[p.index], p.text[p.index]
                ok = rule.accepts(line, card)
                if kind == "A":
                    return ProphetCall(seat, ok)
                if ok:
                    return ProphetCall(seat, False, card)
                good = [c for c in state.hand(p.seat) if rule.accepts(line, c)]
                return ProphetCall(seat, False, good[0]) if good else ProphetCall(seat, True)
            if p.kind == "play":
                right = all(
                    rule.accepts(line + list(p.cards[:i]), c) for i, c in enumerate(p.cards)
                )
                return ProphetCall(seat, right if r.random() < 0.97 else not right)
            good = [c for c in state.hand(p.seat) if rule.accepts(line, c)]
            return ProphetCall(seat, False, good[0]) if good else ProphetCall(seat, True)
        if "declare_prophet" in legal.kinds and skill > 0.7 and r.random() < 0.3:
            return DeclareProphet(seat)
    seat = state.turn
    legal = legal_actions(state, seat)
    if "guess" in legal.kinds and r.random() < skill / 4:
        return Guess(seat, state.config.rule if r.random() < skill else "card is red")
    hand = list(state.hand(seat))
    good = [c for c in hand if rule.accepts(line, c)]
    if legal.bet_kinds:  # Royal Eleusis
        if good and r.random() < skill:
            return Bet(seat, (r.choice(good),), "A")
        if not good and len(hand) >= 4 and r.random() < skill:
            return Bet(seat, tuple(hand[:4]), "RRRR")
        return Bet(seat, (r.choice(hand),), "A")
    if legal.max_cards:
        if good and r.random() < skill:
            cards = [r.choice(good)]
            while len(cards) < legal.max_cards and r.random() < skill / 3:
                rest = list(hand)
                for c in cards:
                    rest.remove(c)
                nxt = [c for c in rest if rule.accepts(line + cards, c)]
                if not nxt:
                    break
                cards.append(r.choice(nxt))
            return Play(seat, tuple(cards))
        if not good and r.random() < skill and "no_play" in legal.kinds:
            return NoPlay(seat)
        return Play(seat, (r.choice(hand),))
    return random_action(state, r)


def play(variant: str, k: int, policy: str) -> State:
    r = random.Random(f"{variant}-{k}-{policy}")
    scientists = 1 if variant == "solo" else (4 if policy == "typical" else r.randint(3, 8))
    while True:
        rule = r.choice(RULES)
        if rule.extreme:
            continue
        try:
            cfg = make_config(variant, NAMES[:scientists], rule.text, r.getrandbits(63))
            break
        except ConfigError:
            continue
    state = new_game(cfg)
    for _ in range(5000):
        if state.over:
            break
        if policy == "random":
            state = apply(state, random_action(state, r))
        else:
            state = apply(state, plausible_action(state, r))
    return state


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    t0 = time.perf_counter()
    typical = [play("new_eleusis", k, "typical") for k in range(rounds)]
    sizes = sorted(len(encode(g)) for g in typical)
    print(f"New Eleusis, 4 scientists, plausible play, {rounds} rounds:")
    print(
        f"  replay length median {statistics.median(sizes):.0f} chars, 90th percentile "
        f"{sizes[int(0.9 * (len(sizes) - 1))]}, max {sizes[-1]}"
        f"  (actions: median {statistics.median(len(g.actions) for g in typical):.0f})"
    )
    for variant in ("new_eleusis", "express", "solo", "royal"):
        for policy in ("plausible", "random"):
            games = [play(variant, k, policy) for k in range(rounds)]
            longest = max(games, key=lambda g: len(encode(g)))
            text = encode(longest)
            assert decode(text) == longest
            print(
                f"{variant:12s} {policy:9s}: longest of {rounds}: {len(text)} chars "
                f"({len(longest.actions)} actions, {len(longest.seats)} seats), "
                f"median {statistics.median(len(encode(g)) for g in games):.0f}"
            )
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
