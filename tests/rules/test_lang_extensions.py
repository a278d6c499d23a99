"""The rule language's sharp edges (reversed ranges, repeated 'when', range ends)
and what it can now say directly: sets of positions, gcd, //, sets of card values."""

from __future__ import annotations

import math

import pytest

from eleusis.cards import ALL_CARDS, Suit, parse_cards
from eleusis.rules import Rule, RuleSyntaxError, compare, parse
from eleusis.rules.abstract import POS_MAX

PRIMES_TO_200 = [n for n in range(2, POS_MAX + 1) if all(n % d for d in range(2, n))]


def _error(text: str) -> RuleSyntaxError:
    with pytest.raises(RuleSyntaxError) as info:
        parse(text)
    return info.value


def _round_trip(rule: Rule) -> None:
    assert parse(rule.text) == rule
    assert parse(str(rule)).text == rule.text


# ---------------------------------------------------------------- reversed ranges


@pytest.mark.parametrize(("text", "shown", "fixed"), [
    ("card.rank in 9..5", "9..5", "5..9"),
    ("card.rank in K..2", "K..2", "2..K"),
    ("card.rank - prev.rank not in 3..-3", "3..-3", "-3..3"),
])
def test_a_reversed_range_is_refused_with_the_fix(text: str, shown: str, fixed: str) -> None:
    err = _error(text)
    assert f"the range {shown} is empty" in err.message
    assert f"write the smaller end first, {fixed}" in err.message
    assert err.column == text.index(shown) + 1


def test_ranges_in_order_are_kept() -> None:
    assert parse("card.rank in 5..9").accepts([], parse_cards("7H")[0])
    assert parse("card.rank in 5..5").text == "card.rank in 5..5"
    assert parse("card.rank - prev.rank in -3..3").text == "card.rank - prev.rank in -3..3"


# ---------------------------------------------------------------- repeated 'when'


@pytest.mark.parametrize(("text", "label"), [
    ("case card.rank when 5 then true when 5 then false else true", "5"),
    ("case card.rank when A then true when 1 then false else true", "1"),
    ("case card.suit when hearts then true when ♥ then false else true", "hearts"),
    ("case card when 7H then true when 7♥ then false else false", "7H"),
    ("case prev.rank % 3 when 0 then card is red when 1 then card is black "
     "when 0 then card is face else true", "0"),
])
def test_a_case_that_repeats_a_label_is_refused(text: str, label: str) -> None:
    err = _error(text)
    assert f"'when {label}' repeats the 'when' at column" in err.message
    assert "each value may appear once" in err.message


def test_a_case_with_distinct_labels_is_kept() -> None:
    rule = parse("case card.rank when 5 then true when 6 then false else true")
    assert rule.english().count("when it is") == 2


# ---------------------------------------------------------------- range ends


@pytest.mark.parametrize("text", [
    "card.rank in prev.rank..K",
    "card.rank in 1..prev.rank",
    "card.rank in (1 + 2)..9",
    "pos in 1..pos",
])
def test_a_range_with_computed_ends_says_ranges_hold_constants(text: str) -> None:
    err = _error(text)
    assert "a range holds constants at both ends" in err.message
    assert "after a complete rule" not in err.message


# ---------------------------------------------------------------- sets of positions


def test_prime_positions_as_a_set_and_as_an_adjective() -> None:
    assert len(PRIMES_TO_200) == 46
    as_set = parse("if pos in {" + ", ".join(map(str, PRIMES_TO_200)) + "} then card is red "
                   "else card is black")
    as_adjective = parse("if pos is prime then card is red else card is black")
    _round_trip(as_set)
    _round_trip(as_adjective)
    red, black = parse_cards("2H 2S")
    for n in range(POS_MAX):
        line = [red] * n
        assert as_adjective.accepts(line, red) == (n + 1 in PRIMES_TO_200)
        assert as_set.accepts(line, black) == (n + 1 not in PRIMES_TO_200)
    result = compare(as_set, as_adjective)
    assert result.equivalent and result.exact
    near = parse("if pos in {" + ", ".join(map(str, PRIMES_TO_200[:-1])) + "} then card is red "
                 "else card is black")
    result = compare(as_set, near)
    assert not result.equivalent and result.exact
    assert result.counterexample is not None
    assert len(result.counterexample.mainline) == PRIMES_TO_200[-1] - 1
    assert "prime number" in as_adjective.english()


def test_is_prime_on_numbers() -> None:
    rule = parse("(card.rank + prev.rank) is prime")
    for a in ALL_CARDS[::5]:
        for b in ALL_CARDS[::3]:
            n = a.rank + b.rank
            assert rule.accepts([b], a) == all(n % d for d in range(2, n))
    assert parse("card.rank - 20 is not prime").accepts([], ALL_CARDS[0])  # negatives: no
    assert "'blue'" in _error("pos is blue").message


# ---------------------------------------------------------------- gcd and coprime


def test_gcd_and_coprime() -> None:
    coprime = parse("gcd(card.rank, prev.rank) == 1")
    common = parse("gcd(card.rank, prev.rank, 6) > 1")
    _round_trip(coprime)
    _round_trip(common)
    for a in ALL_CARDS[::3]:
        for b in ALL_CARDS[::4]:
            assert coprime.accepts([b], a) == (math.gcd(a.rank, b.rank) == 1)
            assert common.accepts([b], a) == (math.gcd(a.rank, b.rank, 6) > 1)
    assert coprime.english() == ("A card may be played when the card's rank and the last "
                                 "card's rank have no common divisor greater than 1.")
    assert "greatest common divisor of" in common.english()
    assert "gcd takes 2 or more arguments" in _error("gcd(card.rank) == 1").message
    assert "must be a number" in _error("gcd(card.suit, 2) == 1").message
    # exact: coprime with the position against its spelled-out form
    spelled = parse("if pos % 2 == 1 and pos % 3 != 0 then card is red else card is black")
    via_gcd = parse("if gcd(pos, 6) == 1 then card is red else card is black")
    result = compare(spelled, via_gcd)
    assert result.equivalent and result.exact


# ---------------------------------------------------------------- integer division


def test_integer_division() -> None:
    halves = parse("card.rank // 2 == prev.rank // 2")
    _round_trip(halves)
    for a in ALL_CARDS[::3]:
        for b in ALL_CARDS[::5]:
            assert halves.accepts([b], a) == (a.rank // 2 == b.rank // 2)
    assert parse("(card.rank - 7) // 2 == -3").accepts([], parse_cards("2S")[0])  # floor
    assert "'// 0' divides by zero" in _error("card.rank // 0 == 1").message
    assert "write '//'" in _error("card.rank / 2 == 3").message
    # a divisor that is 0 when the rule runs rejects the card, as '%' does
    zero = parse("card.rank // (prev.rank - prev.rank) == 1 or true")
    assert not zero.accepts(parse_cards("5H"), parse_cards("3C")[0])
    assert "divided by 2 (rounded down)" in halves.english()
    # exact on positions: pos // 2 is a staircase, so positions are kept exact
    a = parse("if pos // 2 % 2 == 0 then card is red else card is black")
    b = parse("if pos % 4 in {0, 1} then card is red else card is black")
    result = compare(a, b)
    assert result.equivalent and result.exact
    c = parse("if pos // 2 % 2 == 0 or pos == 150 then card is red else card is black")
    result = compare(a, c)
    assert not result.equivalent and result.exact
    assert result.counterexample is not None
    assert len(result.counterexample.mainline) == 149


# ---------------------------------------------------------------- sets of card values


def test_sets_built_from_card_fields() -> None:
    rule = parse("card.suit in {prev.suit, prev2.suit}")
    _round_trip(rule)
    spelled = parse("card.suit == prev.suit or card.suit == prev2.suit")
    for line in (parse_cards("5H"), parse_cards("5C 5H"), parse_cards("2D 5C 5H")):
        for card in ALL_CARDS:
            assert rule.accepts(line, card) == spelled.accepts(line, card)
    # lazy, left to right: a missing prev2 accepts only when prev did not match
    assert rule.accepts(parse_cards("5H"), parse_cards("7H")[0])
    assert rule.accepts(parse_cards("5H"), parse_cards("7S")[0])
    assert not rule.accepts(parse_cards("5C 5H"), parse_cards("7S")[0])
    result = compare(rule, spelled)
    assert result.equivalent and result.exact
    result = compare(rule, parse("card.suit in {prev.suit, prev3.suit}"))
    assert not result.equivalent and result.exact
    assert rule.english() == ("A card may be played when the card's suit is equal to the last "
                              "card's suit or to the second-to-last card's suit.")
    negated = parse("card.suit not in {prev.suit, prev2.suit}")
    assert "is different from the last card's suit and from" in negated.english()
    assert not negated.accepts(parse_cards("5C 5H"), parse_cards("7C")[0])


def test_mixed_sets_and_their_types() -> None:
    rule = parse("card.rank in {prev.rank + 1, prev.rank - 1, K}")
    _round_trip(rule)
    assert rule.accepts(parse_cards("5H"), parse_cards("6C")[0])
    assert rule.accepts(parse_cards("5H"), parse_cards("KC")[0])
    assert not rule.accepts(parse_cards("5H"), parse_cards("7C")[0])
    assert parse("card in {prev, QS}").accepts(parse_cards("2D"), parse_cards("QS")[0])
    assert parse("card.rank in {-(3), 2}").text == "card.rank in {-3, 2}"
    assert parse("card.rank in {-prev.rank, 2}").text == "card.rank in {-prev.rank, 2}"
    assert "every item of this set must be a suit" in _error(
        "card.suit in {prev.suit, 3}").message
    assert "not ranges" in _error("card.rank in {1..3, 5}").message
    assert "a set cannot hold a set of numbers" in _error("card.rank in {{1}}").message
    assert parse("card.rank in {(if card is red then 1 else 2)}").accepts(
        [], parse_cards("2S")[0])
    suits = {Suit.HEARTS, Suit.CLUBS}
    two = parse("card.suit in {hearts, prev.suit}")
    for card in ALL_CARDS:
        assert two.accepts(parse_cards("9C"), card) == (card.suit in suits)
