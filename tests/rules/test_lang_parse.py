"""Reading rules: canonical round trips, literals, errors with their columns, limits."""

from __future__ import annotations

import pytest

from eleusis.cards import ALL_CARDS, Card, Suit
from eleusis.rules import Rule, RuleSyntaxError, parse
from eleusis.rules.syntax import Cmp, Is, Num, Or, Ref

DESIGN_EXAMPLES = [
    "card.color != prev.color",
    "if prev is face then card is numeral else card.rank > prev.rank",
    "card.rank in {2, 3, 5, 7, J, K}",
    "card.rank == prev.rank + 1 or card.rank == prev.rank - 2",
    "card.suit == next(prev.suit, [hearts, clubs, diamonds, spades])",
    "card.suit == next(prev.suit, [spades, hearts, diamonds, clubs])",
    "if prev is odd then card is red else card is black",
    "if prev is black then card.rank >= prev.rank else card.rank <= prev.rank",
    "card.suit == prev.suit or card.rank == prev.rank",
    "card.prime != prev.prime",
    "case (prev.rank * prev2.rank * prev3.rank) % 4\n"
    "  when 0 then card is red or card.rank > 6\n"
    "  when 1 then card is black or card is face\n"
    "  when 2 then card is even or card.rank < 6\n"
    "  else card is odd or card.rank == 10",
    "card.rank == pick(pos, [1, 3])",
    "card is odd",
]

MORE = [
    "card == 7♥ or card in {QS, 10H, A♠}",
    "card.rank - prev.rank in {-1, 1}",
    "card.rank in -2..A",
    "card.rank not in 5..9 and card is not hearts",
    "not not card is red",
    "-(-card.rank) == 3",
    "card.rank - (prev.rank - 1) > 0",
    "card.red or (prev.red or prev2.red)",
    "(card is red or prev is red) and pos > 3",
    "(if pos % 2 == 0 then card else prev).rank > 5",
    "min(card.rank, prev.rank, 4) == wrap(abs(prev2.rank - 20))",
    "card.suit == (case prev.rank % 3 when 0 then hearts when 1 then spades else clubs)",
    "if pos == 1 then card is A elif pos == 2 then card is K else card.rank >= prev.rank",
    "card.color == pick(pos, [red, red, black])",
    "(card.rank > 3) == prev.black",
    "card.suit is red and next(card.color, [red, black]) is black",
    "(card.rank + prev.rank) is even",
    "prev4 is K or prev3.suit == clubs",
    "true",
]


@pytest.mark.parametrize("text", DESIGN_EXAMPLES + MORE)
def test_canonical_text_round_trips(text: str) -> None:
    rule = parse(text)
    again = parse(str(rule))
    assert again == rule
    assert hash(again) == hash(rule)
    assert str(again) == str(rule) == rule.text
    assert "\n" not in rule.text


def test_canonical_form_is_lowercase_with_uppercase_rank_letters() -> None:
    rule = parse("CARD.Rank IN {j, q, k} OR Card == qs OR prev IS Hearts")
    assert rule.text == "card.rank in {J, Q, K} or card == QS or prev is hearts"


def test_suit_glyphs_and_card_codes_are_normalised() -> None:
    assert parse("card.suit == ♥").text == "card.suit == hearts"
    assert parse("card == 10♦").text == "card == 10D"
    assert parse("card == t♣").text == "card == 10C"
    assert parse("card ≠ 7h and card.rank ≤ 9").text == "card != 7H and card.rank <= 9"


def test_card_literal_round_trip_for_all_52_cards() -> None:
    for card in ALL_CARDS:
        for written in (card.code, card.symbol, card.code.lower()):
            rule = parse(f"card == {written}")
            assert rule.text == f"card == {card.code}"
            assert rule.accepts([], card)
            assert Card.parse(str(card)) == card


def test_comments_are_ignored() -> None:
    rule = parse("card is red -- only red cards\n  or card is K  -- and kings")
    assert rule.text == "card is red or card is K"


def test_parenthesised_chain_is_its_own_node() -> None:
    flat = parse("card is red or prev is red or prev2 is red")
    nested = parse("card is red or (prev is red or prev2 is red)")
    assert isinstance(flat.ast, Or) and len(flat.ast.items) == 3
    assert flat != nested
    assert nested.text == "card is red or (prev is red or prev2 is red)"


def test_rank_letter_kept_distinct_from_number() -> None:
    assert parse("card.rank == K").text == "card.rank == K"
    assert parse("card.rank == 13").text == "card.rank == 13"
    assert parse("card is 1").text == "card is A"


def test_tree_shape() -> None:
    rule = parse("card.color != prev.color")
    assert isinstance(rule.ast, Cmp)
    assert rule.ast.op == "!="
    assert rule.lookback == 1
    assert not rule.uses_pos
    assert parse("prev3 is K").lookback == 3
    assert parse("card.rank == pick(pos, [1, 3])").uses_pos
    tree = parse("prev is K").ast
    assert tree == Is(Ref(1), "K")
    assert Num(3) == Num(3, at=7)


def test_rule_is_frozen_and_hashable() -> None:
    rule = parse("card is red")
    with pytest.raises(AttributeError):
        rule.text = "x"  # type: ignore[misc]
    assert len({rule, parse("CARD IS RED"), parse("card is black")}) == 2
    assert Rule.from_tree(rule.ast) == rule
    assert repr(rule) == "parse('card is red')"


def _error(text: str) -> RuleSyntaxError:
    with pytest.raises(RuleSyntaxError) as info:
        parse(text)
    return info.value


@pytest.mark.parametrize(
    ("text", "words", "column"),
    [
        ("card.suit == 3", "cannot compare a suit with a number", 11),
        ("card.rank == red", "cannot compare a number with a color", 11),
        ("card.rank", "must be true or false", 1),
        ("  pos + 1", "must be true or false", 3),
        ("prev5.rank > 3", "looks back too far", 1),
        ('wrap("x") == 1', "unexpected character", 6),
        ("wrap(hearts) == 1", "must be a number", 6),
        ("card.rank % 0 == 1", "divides by zero", 13),
        ("card.rank == 1001", "too large", 14),
        ("card.rank < prev.rank < 5", "cannot be chained", 23),
        ("card is 7H", "'is' takes a property", 9),
        ("crad is red", "did you mean 'card'", 1),
        ("card.rank ==", "ends too early", 13),
        ("card.rank = 3", "'=='", 11),
        ("card.suit in {1, 2}", "cannot look for a suit in a set of numbers", 11),
        ("next(card.suit, {hearts}) == hearts", "must be a list", 17),
        ("card.rank in 5..hearts", "range", 17),
        ("if card is red then 1 else hearts", "same kind of value", 28),
        ("if card is red then card is K", "'else'", 30),
        ("card is red and if prev is red then true else false", "parentheses", 17),
        ("card.rank > prev.suit", "compares numbers", 13),
        ("card.rank in {}", "empty set", 15),
        ("abs(1, 2) == 1", "abs takes 1 argument", 1),
        ("card.rank == 5 card is red", "after a complete rule", 16),
        ("(card is red", "expected ')'", 13),
        ("card is red)", "closes nothing", 12),
        ("card.rnk == 3", "did you mean 'rank'", 6),
        ("card.5 == 3", "expected an attribute", 6),
        ("card is tall", "unknown word 'tall'", 9),
        ("card is pos", "after 'is' write a property", 9),
        ("7x == 3", "neither a number nor a card", 1),
        ("pos.rank == 1", "must be a card", 1),
        ("card is red\nand prev.rank == hearts", "cannot compare", 15),
    ],
)
def test_errors_name_the_problem_and_the_column(text: str, words: str, column: int) -> None:
    err = _error(text)
    assert words in err.message
    assert err.column == column
    assert isinstance(err, ValueError)
    shown = str(err)
    assert err.message in shown
    assert shown.rstrip().endswith("^")


def test_error_excerpt_has_caret_under_column() -> None:
    err = _error("card.rank == red")
    lines = str(err).split("\n")
    assert lines[0] == "cannot compare a number with a color using '==' (column 11)"
    assert lines[1] == "  card.rank == red"
    assert lines[2] == "  " + " " * 10 + "^"


def test_error_on_second_line_reports_line() -> None:
    err = _error("card is red\nand prev.rank == hearts")
    assert err.line == 2
    assert "line 2, column 15" in str(err)
    assert "and prev.rank == hearts" in str(err)


@pytest.mark.parametrize("text", ["", "   ", "\n\t", "-- only a comment"])
def test_empty_rules_are_refused(text: str) -> None:
    assert "empty" in _error(text).message


def test_limits() -> None:
    assert "too long" in _error("card is red or " * 40 + "card is red").message
    deep = "(" * 25 + "card is red" + ")" * 25
    assert "nested too deeply" in _error(deep).message
    assert parse("(" * 20 + "card is red" + ")" * 20).text == "card is red"
    assert "nested too deeply" in _error("not " * 25 + "card is red").message
    many = " or ".join(["pos in {1,2,3,4,5,6,7,8,9,10,11,12,13}"] * 12)
    assert "too big" in _error(many).message
    assert "at most 13 items" in _error("card.rank in [" + ", ".join(["1"] * 14) + "]").message
    assert parse("card.rank in [" + ", ".join(["1"] * 13) + "]").lookback == 0
    assert "at most 60 items" in _error("pos in {" + ", ".join(["1"] * 61) + "}").message
    assert parse("pos in {" + ", ".join(["1"] * 60) + "}").lookback == 0
    assert "too large" in _error("card.rank == " + "9" * 500).message
    assert parse("card.rank < 1000").text == "card.rank < 1000"
    assert "looks back too far" in _error("prev9 is red").message
    assert parse("prev1 is red").text == "prev is red"


def test_tree_height_limit_counts_long_chains() -> None:
    text = "card.rank + " + " + ".join(["1"] * 30) + " > 3"
    assert "nested too deeply" in _error(text).message


def test_non_text_input_is_refused() -> None:
    with pytest.raises(RuleSyntaxError):
        parse(42)  # type: ignore[arg-type]


def test_suits_are_values() -> None:
    rule = parse("card.suit == hearts")
    assert rule.accepts([], Card(5, Suit.HEARTS))
    assert not rule.accepts([], Card(5, Suit.SPADES))
