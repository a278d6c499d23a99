"""The families beyond the enumerated space, the outside model, honest explanations."""

from __future__ import annotations

import random
from functools import cache

import pytest

from eleusis.ai import Scientist
from eleusis.ai.families import ExtraCandidate
from eleusis.cards import ALL_CARDS, Card
from eleusis.rules import parse


@cache
def _parse(text: str):  # type: ignore[no-untyped-def]
    return parse(text)


def _judge(rule_text: str, line: list[Card], card: Card, pos: int | None = None) -> bool:
    """The rule's verdict on ``card`` after ``line`` (position: the next one)."""
    rule = _parse(rule_text)
    slots = [card, *(line[-k] if len(line) >= k else None for k in range(1, rule.lookback + 1))]
    return bool(rule.judge(slots, len(line) + 1 if pos is None else pos))


def _watch(rule_text: str, n: int, seed: int = 1, level: str = "strong",
           accept_bias: float = 0.5) -> tuple[Scientist, list[Card]]:
    """A scientist that saw ``n`` random cards judged by ``rule_text``.

    Half of the cards (``accept_bias``) are drawn among those the rule
    accepts, so the mainline grows as in a game.
    """
    rng = random.Random(seed)
    sci = Scientist(level, seed)
    line: list[Card] = []

    def ok(card: Card) -> bool:
        return _judge(rule_text, line, card)

    starter = next(c for c in ALL_CARDS if ok(c))
    sci.observe_starter(starter)
    line.append(starter)
    for _ in range(n):
        good = [c for c in ALL_CARDS if ok(c)]
        card = rng.choice(good) if good and rng.random() < accept_bias else rng.choice(ALL_CARDS)
        accepted = ok(card)
        sci.observe(line, card, accepted)
        if accepted:
            line.append(card)
    return sci, line


def _same_verdicts(a: str, b: str, line: list[Card], seed: int = 5) -> bool:
    """Do two rules judge alike on random continuations of ``line`` (look-back 4)?"""
    rng = random.Random(seed)
    for _ in range(300):
        tail = [*line[-4:], *rng.sample(ALL_CARDS, 3)]
        card = rng.choice(ALL_CARDS)
        pos = len(line) + 4
        if _judge(a, tail, card, pos) != _judge(b, tail, card, pos):
            return False
    return True


@pytest.mark.parametrize("rule", [
    "if prev.rank >= 8 then card.rank <= 5 else card is red",      # a split on the last card
    "card.suit != prev.suit and card.suit != prev2.suit",          # two cards back
    "card.color != prev.color or card.color != prev2.color",       # not three of a color
    "card.rank in {1, 3, 6, 10}",                                  # an unusual set of ranks
])
def test_rules_beyond_the_enumerated_space_are_found(rule: str) -> None:
    sci, line = _watch(rule, 70)
    ranked = sci.ranked(line)
    assert ranked, rule
    texts = [c.text(sci.belief.space) for c, _ in ranked[:3]]
    for text in texts:
        assert parse(text)  # a rule a player (and the exact compare) can read
    # the rule, or one that judges alike wherever the mainline can go, is a top idea
    assert any(_same_verdicts(text, rule, line) for text in texts), (rule, texts)
    assert ranked[0][1] > 0.3


def test_a_family_candidate_says_what_it_accepts() -> None:
    sci, line = _watch("card.rank in {1, 3, 6, 10}", 70)
    top = sci.ranked(line)[0][0]
    assert isinstance(top, ExtraCandidate)
    text = top.text(sci.belief.space)
    for card in ALL_CARDS:
        assert top.accepts(sci.belief.space, line, card) == _judge(text, line, card)


def test_a_rule_outside_the_space_is_not_trusted() -> None:
    # a fixed sequence of ranks by position: nothing the scientist can write
    rule = "card.rank == pick(pos, [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9])"
    sci, line = _watch(rule, 40, accept_bias=0.4)
    assert sci.outside_probability() > 0.5
    assert sci.consider_guess(line, 10) is None


def test_a_simple_rule_leaves_no_room_outside() -> None:
    sci, line = _watch("card is red", 25)
    assert sci.outside_probability() < 0.01
    assert sci.consider_guess(line, 10) is not None


def test_probabilities_still_sum_to_one() -> None:
    sci, line = _watch("card.suit != prev.suit and card.suit != prev2.suit", 15)
    post, _ = sci.belief.family_posterior()
    assert abs(sum(post) - 1.0) < 1e-9
    probs = sci.acceptance(line, list(ALL_CARDS))
    assert all(0.0 <= p <= 1.0 for p in probs.values())


def test_explanations_are_honest_early_and_without_tautologies() -> None:
    # every card accepted: "any card", never "red or black"; ideas from the first plays on
    sci, line = _watch("true", 2)
    hyps = sci.explain(line)
    assert hyps
    assert hyps[0].text == "true" and hyps[0].english == "any card is accepted"
    sci, line = _watch("true", 12)
    for h in sci.explain(line):
        assert "card is red or card is black" not in h.text
        assert "either the card is red, or the card is black" not in h.english
