"""The "surprise me" generator and the exact state exploration it relies on."""

from __future__ import annotations

import random
from typing import NoReturn

import pytest

from eleusis.cards import ALL_CARDS, Card, parse_cards
from eleusis.rules import Rule, parse
from eleusis.rules.compare import compare
from eleusis.rules.generate import (
    GENERATED_BAND,
    HORIZON,
    GeneratedRule,
    candidate,
    check,
    distinguishes,
    explore,
    generate,
    generate_many,
    slot_reads,
)
from eleusis.rules.library import ACCEPTANCE_BAND, RULES

PER_DIFFICULTY = 40  # 200 generated rules in all


# ---------------------------------------------------------------- slot_reads
@pytest.mark.parametrize(
    ("text", "reads"),
    [
        ("card is red", {}),
        ("card.color != prev.color", {1: {"color"}}),
        ("card.suit == prev2.suit or prev is face", {1: {"rank"}, 2: {"suit"}}),
        ("prev is hearts and prev.rank > 3", {1: {"suit", "rank"}}),
        ("card == prev", {1: {"card"}}),
        ("prev is not red", {1: {"color"}}),
        ("prev is K", {1: {"rank"}}),
    ],
)
def test_slot_reads(text: str, reads: dict[int, set[str]]) -> None:
    assert slot_reads(parse(text)) == {k: frozenset(v) for k, v in reads.items()}


# ---------------------------------------------------------------- explore
def test_explore_rates_are_exact() -> None:
    assert explore(parse("card is red")).acceptance_rate == pytest.approx(0.5)
    # First play free (52 of 52), then always 26 of 52.
    alternate = explore(parse("card.color != prev.color"))
    assert alternate.acceptance_rate == pytest.approx((1 + 39 * 0.5) / 40)
    assert alternate.late_rate == pytest.approx(0.5)
    assert alternate.dead_end is None and alternate.complete
    assert len(alternate.masks) == 3  # empty, after red, after black


def test_explore_finds_dead_ends() -> None:
    space = explore(parse("card.rank > prev.rank"))
    assert space.dead_end is not None and space.dead_end[-1].rank == 13
    finite = explore(parse("pos <= 3 and card.rank == pos"))
    assert finite.dead_end == tuple(parse_cards("AS 2S 3S"))
    # Beyond the horizon a position rule is not explored.
    late = explore(parse(f"pos <= {HORIZON} or card is red"))
    assert late.dead_end is None


def test_explore_mainlines_are_legal_and_masks_right() -> None:
    rule = parse("if prev.rank > prev2.rank then card is red else card.suit == prev.suit")
    space = explore(rule)
    assert space.complete and len(space.mainlines) > 10
    for mainline, mask in zip(space.mainlines, space.masks, strict=True):
        assert all(rule.accepts(mainline[:i], c) for i, c in enumerate(mainline))
        expected = sum(1 << c.index for c in ALL_CARDS if rule.accepts(mainline, c))
        assert mask == expected


def test_distinguishes_gives_a_real_counterexample() -> None:
    secret, guess = parse("card is red or pos > 30"), parse("card is red")
    space = explore(secret)
    mainline = distinguishes(space, guess)
    assert mainline is not None and len(mainline) == 30
    assert any(secret.accepts(mainline, c) != guess.accepts(mainline, c) for c in ALL_CARDS)
    same = explore(parse("card.color != prev.color"))
    assert distinguishes(same, parse("card.red != prev.red")) is None


# ---------------------------------------------------------------- generate
@pytest.fixture(scope="module")
def generated() -> dict[int, list[GeneratedRule]]:
    return {d: list(generate_many(d, random.Random(1000 + d), PER_DIFFICULTY)) for d in range(1, 6)}


def test_deterministic_for_a_seed() -> None:
    for d in range(1, 6):
        first = [generate(d, random.Random(7)).text for _ in range(3)]
        rng_a, rng_b = random.Random(42), random.Random(42)
        a = [generate(d, rng_a).text for _ in range(5)]
        b = [generate(d, rng_b).text for _ in range(5)]
        assert a == b
        assert len(set(first)) == 1
    assert rng_a.random() == rng_b.random()  # the two generators advanced alike


def test_generate_rejects_bad_difficulty() -> None:
    for bad in (0, 6, 2.5, "3"):
        with pytest.raises(ValueError, match="difficulty must be"):
            generate(bad, random.Random(0))  # type: ignore[arg-type]


def test_generated_rules_meet_the_guarantees(generated: dict[int, list[GeneratedRule]]) -> None:
    low, high = GENERATED_BAND
    library_texts = {entry.text for entry in RULES}
    for d, rules in generated.items():
        assert len({g.text for g in rules}) == PER_DIFFICULTY
        for g in rules:
            rule = g.rule
            assert g.difficulty == d
            assert rule.lookback <= 2
            assert parse(g.text) == rule and g.text not in library_texts
            assert low <= g.acceptance_rate <= high
            assert g.english()
            # The exact exploration again, from scratch.
            space = explore(rule)
            assert space.complete and space.dead_end is None
            assert low <= space.late_rate <= high
            assert space.acceptance_rate == g.acceptance_rate


def test_generated_rules_have_no_dead_end_in_60_random_plays(
    generated: dict[int, list[GeneratedRule]],
) -> None:
    """Independent of the exploration: play random games with accepts alone."""
    rng = random.Random(5)
    for rules in generated.values():
        for g in rules:
            mainline: list[Card] = []
            for _ in range(60):
                legal = [c for c in ALL_CARDS if g.rule.accepts(mainline, c)]
                assert legal, (g.text, mainline)
                mainline.append(rng.choice(legal))


def test_generated_rules_differ_from_the_library_by_compare(
    generated: dict[int, list[GeneratedRule]],
) -> None:
    """The exact comparison agrees on a sample: every library rule is a wrong guess."""
    library = [entry.rule for entry in RULES]
    for rules in generated.values():
        for g in rules[:3]:
            for other in library:
                assert not compare(g.rule, other).equivalent, (g.text, str(other))


def test_generated_rules_are_varied(generated: dict[int, list[GeneratedRule]]) -> None:
    for d, rules in generated.items():
        lookbacks = {g.rule.lookback for g in rules}
        if d == 1:
            assert lookbacks == {0}
        if d >= 3:
            assert 1 in lookbacks
        if d >= 4:
            assert any(g.rule.uses_pos or g.rule.lookback == 2 for g in rules)


def test_check_refuses_each_failure() -> None:
    assert check(parse("card.suit != prev3.suit")) is None  # look-back 3
    assert check(parse("card.rank > prev.rank")) is None  # dead end
    assert check(parse("card is not hearts")) is None  # too permissive (0.75)
    assert check(parse("card is 7")) is None  # too restrictive
    assert check(parse("card.color != prev.color")) is None  # in the library
    assert check(parse("card.red != prev.red")) is None  # equivalent to a library rule
    assert check(parse("card.rank in {A, 3, 6, 10, Q}")) is not None


def test_candidates_all_parse() -> None:
    rng = random.Random(3)
    for d in range(1, 6):
        for _ in range(40):
            assert isinstance(parse(candidate(d, rng)), Rule)


def test_analyse_agrees_on_the_band(generated: dict[int, list[GeneratedRule]]) -> None:
    from eleusis.rules.analyse import analyse

    low, high = ACCEPTANCE_BAND
    for rules in generated.values():
        for g in rules[:4]:
            result = analyse(g.rule, rng=random.Random(0))
            assert low <= result.acceptance_rate <= high, (g.text, result.acceptance_rate)
            assert result.dead_end is None


def test_rule_type() -> None:
    g = generate(3, random.Random(0))
    assert isinstance(g.rule, Rule) and g.text == str(g.rule) and g.attempts >= 1


class _OnlyRandom(random.Random):
    """A generator that refuses every draw but ``random()``."""

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise AssertionError("only random() is stable across Python versions")

    randrange = randint = choice = sample = choices = shuffle = getrandbits = _refuse  # type: ignore[assignment]


def test_draws_only_through_random_so_seeds_hold_across_versions() -> None:
    for d in range(1, 6):
        assert generate(d, _OnlyRandom(9)).text == generate(d, random.Random(9)).text


def test_pinned_outputs() -> None:
    """Same seed, same rules, on every Python (random() is a stable sequence)."""
    assert [generate(d, random.Random(2024)).text for d in range(1, 6)] == [
        "card.rank <= 8",
        "if card is face then card is black else card.suit in {diamonds, spades}",
        "card.suit == next(prev.suit, [hearts, clubs, spades, diamonds])",
        "abs(card.rank - prev2.rank) <= 2",
        "(card.rank + prev.rank + prev2.rank) % 4 == 0",
    ]
