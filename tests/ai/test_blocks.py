"""The fast representation agrees with the rule language.

Every building block, every condition and a sample of every level of the
hypothesis space, written as a rule text and parsed by :mod:`eleusis.rules`,
accepts exactly the cards its context bit set says, in every context (with a
previous card, and at position 1 where touching ``prev`` accepts).
"""

from __future__ import annotations

import random

import pytest

from eleusis.ai.blocks import CONTEXT_BITS, context_index
from eleusis.ai.inference import Candidate
from eleusis.ai.space import build_space
from eleusis.cards import ALL_CARDS, Card
from eleusis.rules import parse

PREVS: list[Card | None] = [None, *ALL_CARDS]


def _verdict_bits(text: str, pos_for_prev: int = 2) -> int:
    rule = parse(text)
    bits = 0
    for p in PREVS:
        for c in ALL_CARDS:
            slots = (c, p) if rule.lookback else (c,)
            pos = 1 if p is None else pos_for_prev
            if rule.judge(slots, pos):
                bits |= 1 << context_index(p, c)
    return bits


@pytest.fixture(scope="module")
def space():  # type: ignore[no-untyped-def]
    return build_space(3)


def test_every_block_matches_its_text(space) -> None:  # type: ignore[no-untyped-def]
    for block in space.atoms:
        assert _verdict_bits(block.text) == block.bits, block.text


def test_every_condition_matches_its_text(space) -> None:  # type: ignore[no-untyped-def]
    for cond in space.conds:
        assert _verdict_bits(cond.text) == cond.bits, cond.text


def test_sampled_hypotheses_of_every_level_match(space) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(7)
    ends = space.level_end
    for lv in (1, 2, 3):
        for i in rng.sample(range(ends[lv - 1], ends[lv]), 15):
            assert space.level[i] == lv
            assert _verdict_bits(space.text(i)) == space.bits[i], space.text(i)


def test_bit_sets_fit_the_contexts(space) -> None:  # type: ignore[no-untyped-def]
    assert max(b.bit_length() for b in space.bits) <= CONTEXT_BITS
    assert len(set(space.bits)) == len(space.bits), "deduplicated by behaviour"


def test_periodic_candidates_parse_and_agree_by_position(space) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(3)
    ones = range(space.level_end[0], space.level_end[1])
    for family, k in ((1, 2), (2, 3)):
        parts = tuple(rng.sample(ones, k))
        cand = Candidate(family, parts)
        rule = parse(cand.text(space))
        for pos in range(2, 9):
            bits = cand.branch_bits(space, pos % 6)
            for p in rng.sample(ALL_CARDS, 6):
                for c in ALL_CARDS:
                    want = bool((bits >> context_index(p, c)) & 1)
                    assert rule.judge((c, p), pos) == want, (cand.text(space), pos, p, c)


def test_english_is_given_for_every_recipe_kind(space) -> None:  # type: ignore[no-untyped-def]
    for i in (0, space.level_end[1], space.level_end[2]):
        assert space.english(i) and space.english(i)[0].islower()


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError):
        build_space(4)


def test_prev2_candidates_read_the_card_two_back(space) -> None:  # type: ignore[no-untyped-def]
    from eleusis.ai.inference import LAG2, Belief

    belief = Belief(space, family_prior=(0.9, 0.05, 0.03, 0.02))
    assert belief.lag2
    rng = random.Random(9)
    for i in rng.sample(belief.lag2, 8):
        cand = Candidate(LAG2, (i,))
        rule = parse(cand.text(space))
        assert "prev2" in rule.text and rule.lookback == 2
        for p2 in rng.sample(ALL_CARDS, 5):
            for c in ALL_CARDS:
                want = bool((space.bits[i] >> context_index(p2, c)) & 1)
                # prev (in between) is read by no prev2 rule: any card will do
                assert rule.judge((c, ALL_CARDS[0], p2), 3) == want, cand.text(space)
