"""Judging cards: the values, the missing-card semantics, undefined values."""

from __future__ import annotations

import itertools
import random

import pytest

from eleusis.cards import ALL_CARDS, Card, parse_cards
from eleusis.rules import parse


def c(code: str) -> Card:
    return Card.parse(code)


def ml(text: str) -> list[Card]:
    return parse_cards(text)


def test_alternate_colors_lets_any_card_start() -> None:
    rule = parse("card.color != prev.color")
    assert all(rule.accepts([], card) for card in ALL_CARDS)
    assert rule.accepts(ml("7S"), c("3H"))
    assert not rule.accepts(ml("7S"), c("3C"))


def test_pos_is_decided_before_prev_is_touched() -> None:
    rule = parse("if pos == 1 then card is A else card.rank >= prev.rank")
    assert rule.accepts([], c("AS"))
    assert not rule.accepts([], c("2S"))
    assert rule.accepts(ml("AS"), c("2H"))
    assert not rule.accepts(ml("AS 5H"), c("4H"))


def test_missing_card_touched_late_accepts() -> None:
    rule = parse("card is red and prev2.rank > 5")
    assert not rule.accepts(ml("7S"), c("3C"))  # decided before prev2 is touched
    assert rule.accepts(ml("7S"), c("3H"))  # touches the missing prev2: accepted
    assert not rule.accepts(ml("2S 7S"), c("3H"))


def test_lookback_slots_are_the_last_cards() -> None:
    rule = parse("card.rank == prev.rank + prev2.rank - prev3.rank")
    assert not rule.accepts(ml("KC 10S 2H 5D"), c("3S"))  # 5 + 2 - 10 = -3
    line = ml("4S 2H 5D")
    assert rule.accepts(line, c("3C"))  # 5 + 2 - 4
    assert not rule.accepts(line, c("4C"))
    assert rule.accepts(tuple(line), c("3C"))


def test_rank_arithmetic_and_sets() -> None:
    primes = parse("card.rank in {2, 3, 5, 7, J, K}")
    assert [card.rank for card in ALL_CARDS[:13] if primes.accepts([], card)] == [
        2, 3, 5, 7, 11, 13]
    rng = parse("card.rank in 5..9")
    assert [r for r in range(1, 14) if rng.accepts([], Card.parse(f"{r}S" if 2 <= r <= 10
                                                                 else "AS"))] == [5, 6, 7, 8, 9]
    diff = parse("card.rank - prev.rank in {-1, 1}")
    assert diff.accepts(ml("7S"), c("6H")) and diff.accepts(ml("7S"), c("8H"))
    assert not diff.accepts(ml("7S"), c("9H"))


def test_attributes_match_cards_module() -> None:
    for name in ("red", "black", "face", "numeral", "even", "odd", "prime"):
        rule = parse(f"card is {name}")
        attr = parse(f"card.{name}")
        for card in ALL_CARDS:
            assert rule.accepts([], card) == getattr(card, name), (name, card)
            assert attr.accepts([], card) == getattr(card, name)


def test_next_and_pick_and_wrap() -> None:
    cycle = parse("card.suit == next(prev.suit, [hearts, clubs, diamonds, spades])")
    assert cycle.accepts(ml("7H"), c("2C"))
    assert cycle.accepts(ml("7S"), c("2H"))
    assert not cycle.accepts(ml("7S"), c("2C"))
    pick = parse("card.rank == pick(pos, [A, 3])")
    line: list[Card] = []
    for want in (1, 3, 1, 3, 1):
        assert [r for r in (1, 3) if pick.accepts(line, Card.parse(f"{'A' if r == 1 else 3}S"))] \
            == [want]
        line.append(c("AS" if want == 1 else "3S"))
    wrap = parse("card.rank == wrap(prev.rank + 1)")
    assert wrap.accepts(ml("KS"), c("AH"))
    assert wrap.accepts(ml("5S"), c("6H"))
    assert parse("wrap(0) == K and wrap(14) == A and wrap(-1) == Q").accepts([], c("2S"))


def test_undefined_values_reject() -> None:
    mod = parse("card.rank % (prev.rank - 7) == 0")
    assert not mod.accepts(ml("7S"), c("2H"))  # % 0 at run time: rejected
    assert mod.accepts(ml("9S"), c("2H"))
    assert not parse("not (card.rank % (prev.rank - 7) == 1)").accepts(ml("7S"), c("2H"))
    nxt = parse("card.suit == next(prev.suit, [hearts, clubs])")
    assert not nxt.accepts(ml("7S"), c("2H"))  # spades not in the list: rejected
    assert nxt.accepts(ml("7H"), c("2C"))
    # the missing card is met first: accepted
    assert parse("prev.rank > 0 and card.rank % 0 == 1".replace("% 0", "% (card.rank - "
                                                                "card.rank)")).accepts([], c("2H"))


def test_floor_modulo_and_case() -> None:
    rule = parse("(card.rank - 10) % 4 == 3")
    assert rule.accepts([], c("9S"))  # -1 % 4 == 3
    case = parse("case card.rank % 3 when 0 then card is red when 1 then card is black "
                 "else card is face")
    assert case.accepts([], c("3H")) and not case.accepts([], c("3S"))
    assert case.accepts([], c("4S")) and not case.accepts([], c("4H"))
    assert case.accepts([], c("JH")) and not case.accepts([], c("5H"))


def test_card_equality_and_membership() -> None:
    rule = parse("card != prev and card not in {QS, 7H}")
    assert not rule.accepts(ml("3D"), c("3D"))
    assert rule.accepts(ml("3D"), c("3H"))
    assert not rule.accepts(ml("3D"), c("QS"))
    assert parse("card == Q♠").accepts([], c("QS"))


def test_the_too_complicated_law() -> None:
    rule = parse(
        "case (prev.rank * prev2.rank * prev3.rank) % 4 "
        "when 0 then card is red or card.rank > 6 "
        "when 1 then card is black or card is face "
        "when 2 then card is even or card.rank < 6 "
        "else card is odd or card.rank == 10"
    )
    rng = random.Random(4)
    for _ in range(300):
        line = [rng.choice(ALL_CARDS) for _ in range(rng.randint(3, 6))]
        card = rng.choice(ALL_CARDS)
        product = line[-1].rank * line[-2].rank * line[-3].rank % 4
        expected = [
            card.red or card.rank > 6,
            card.black or card.face,
            card.even or card.rank < 6,
            card.odd or card.rank == 10,
        ][product]
        assert rule.accepts(line, card) == expected
    assert rule.accepts(line[:2], card)  # prev3 missing


@pytest.mark.parametrize(
    ("text", "oracle"),
    [
        ("if prev is black then card.rank >= prev.rank else card.rank <= prev.rank",
         lambda p, x: x.rank >= p.rank if p.black else x.rank <= p.rank),
        ("card.suit == prev.suit or card.rank == prev.rank",
         lambda p, x: x.suit == p.suit or x.rank == p.rank),
        ("card.prime != prev.prime", lambda p, x: x.prime != p.prime),
        ("if prev is odd then card is red else card is black",
         lambda p, x: x.red if p.odd else x.black),
        ("if prev is face then card is numeral else card.rank > prev.rank",
         lambda p, x: x.numeral if p.face else x.rank > p.rank),
    ],
)
def test_lookback_one_examples_against_oracles(text: str, oracle: object) -> None:
    rule = parse(text)
    assert callable(oracle)
    for prev, card in itertools.product(ALL_CARDS, ALL_CARDS):
        assert rule.accepts([prev], card) == oracle(prev, card), (prev, card)
    assert all(rule.accepts([], card) for card in ALL_CARDS)


def test_judge_all_matches_accepts() -> None:
    rule = parse("card.rank > prev.rank or card.suit == prev2.suit")
    line = ml("4S 9H")
    assert rule.judge_all(ALL_CARDS, (line[-1], line[-2]), 3) == tuple(
        rule.accepts(line, x) for x in ALL_CARDS)
    assert rule.judge_all(ALL_CARDS, (line[-1], None), 2) == tuple(
        rule.accepts(line[1:], x) for x in ALL_CARDS)


def test_hoisted_parts_follow_each_mainline() -> None:
    # the part that does not read `card` is computed once per batch, never reused
    # across mainlines, and its missing-card or undefined outcome recurs correctly
    rule = parse("(prev2.rank * prev.rank) % (prev.rank - 7) == 0 or card is red")
    assert rule.judge_all(ALL_CARDS, (c("7S"), c("2S")), 3) == (False,) * 52  # % 0: reject
    assert rule.judge_all(ALL_CARDS, (c("7S"), None), 2) == (True,) * 52  # prev2 missing
    assert rule.judge_all(ALL_CARDS, (c("9S"), c("2S")), 3) == (True,) * 52  # 18 % 2 == 0
    assert rule.judge_all(ALL_CARDS, (c("8S"), c("3S")), 3) == (True,) * 52  # 24 % 1 == 0
    assert rule.judge_all(ALL_CARDS, (c("10S"), c("2S")), 3) == tuple(x.red for x in ALL_CARDS)
    for _ in range(3):
        assert not rule.accepts(ml("2S 7S"), c("3H"))
        assert rule.accepts(ml("7S"), c("3C"))
        assert not rule.accepts(ml("2S 10S"), c("3C"))
        assert rule.accepts(ml("2S 10S"), c("3D"))
