"""Any text gives a Rule or a RuleSyntaxError; random trees print and read back."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lang_random import TreeMaker

from eleusis.cards import ALL_CARDS
from eleusis.rules import Rule, RuleSyntaxError, parse
from eleusis.rules.printer import to_text

SEEDS = [
    "card.color != prev.color",
    "if prev is face then card is numeral else card.rank > prev.rank",
    "card.rank in {2, 3, 5, 7, J, K}",
    "card.suit == next(prev.suit, [hearts, clubs, diamonds, spades])",
    "case (prev.rank * prev2.rank) % 4 when 0 then card is red else card is odd",
    "card.rank == pick(pos, [1, 3]) or card == 7♥ and card.rank in 5..9",
    "card.suit in {prev.suit, prev2.suit} or gcd(card.rank, prev.rank // 2) == 1",
    "pos is prime and pos in {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43}",
    "not (card is red) and -prev.rank < min(3, abs(prev2.rank - 4))",
]
PIECES = [
    "card", "prev", "prev4", "prev5", "pos", ".rank", ".suit", ".", "..", "(", ")", "{", "}",
    "[", "]", ",", "==", "!=", "<", ">=", "=", "!", "+", "-", "--", "*", "%", "% 0", "if",
    "then", "elif", "else", "case", "when", "and", "or", "not", "in", "is", "red", "K", "QS",
    "7♥", "♣", "hearts", "true", "1000", "1001", "99999999999999999999", "next(", "pick(",
    "wrap(", "min(", "gcd(", "//", "/", "// 0", "9..5", "{prev.suit, ", "when 5 then true ",
    "\n", "\t", " ", "é", "\x00", "😀", "\u202e", "'", '"', "\\",
]
ALPHABET = st.sampled_from(list("cardpevosintfhlumxyz0123456789 .()[]{},=!<>+-*%♥♠\n"))


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A seed rule with pieces inserted, deleted or replaced."""
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 6))):
        i = draw(st.integers(0, len(text)))
        action = draw(st.integers(0, 2))
        if action == 0:
            text = text[:i] + draw(st.sampled_from(PIECES)) + text[i:]
        elif action == 1:
            j = draw(st.integers(i, min(len(text), i + 8)))
            text = text[:i] + text[j:]
        else:
            text = text[:i] + draw(st.sampled_from(PIECES)) + text[i + 1 :]
    return text


@st.composite
def nested(draw: st.DrawFn) -> str:
    """Deep nesting of every kind, sometimes past the limit."""
    depth = draw(st.integers(0, 400))
    opener, closer = draw(st.sampled_from([
        ("(", ")"), ("not ", ""), ("-", ""), ("- ", ""), ("abs(", ")"), ("[", "]"), ("{", "}"),
        ("if card is red then ", " else false"), ("card.rank + (", ")"), ("wrap(", ")"),
    ]))
    core = draw(st.sampled_from(["card is red", "1", "card.rank > 3", "", "pos"]))
    return opener * depth + core + closer * draw(st.integers(0, depth))


TEXTS = st.one_of(
    st.text(max_size=80),
    st.text(alphabet=ALPHABET, max_size=120),
    st.lists(st.sampled_from(PIECES), max_size=40).map(" ".join),
    st.lists(st.sampled_from(PIECES), max_size=40).map("".join),
    mutated(),
    nested(),
    st.integers(0, 10**40).map(lambda n: f"card.rank == {n}"),
    st.sampled_from(["", " ", "\n\n", "\t \r", "\u00a0", "--", "-- x\n"]),
    st.text(alphabet=st.sampled_from(" \t\n\r\u2003"), max_size=700),
)


def _check(text: str) -> None:
    try:
        rule = parse(text)
    except RuleSyntaxError as err:
        assert err.message
        assert err.column >= 1 and err.line >= 1
        str(err)
        return
    assert isinstance(rule, Rule)
    assert parse(rule.text) == rule
    line = list(ALL_CARDS[:3])
    for card in ALL_CARDS[::7]:
        assert rule.accepts(line, card) in (True, False)
        assert rule.accepts([], card) in (True, False)
    rule.english()


@settings(max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck))
@given(TEXTS)
def test_any_text_gives_a_rule_or_a_syntax_error(text: str) -> None:
    _check(text)


def test_random_trees_round_trip_through_text() -> None:
    rng = random.Random(20240611)
    checked = 0
    for i in range(1500):
        maker = TreeMaker(rng, lookback=rng.randint(0, 4), pos=rng.random() < 0.5)
        tree = maker.bool_(rng.randint(0, 5))
        text = to_text(tree)
        try:
            rule = parse(text)
        except RuleSyntaxError as err:
            assert "too" in err.message, (text, err.message)  # only limits may refuse
            continue
        assert rule.ast == tree, (i, text)
        assert parse(rule.text) == rule
        assert Rule.from_tree(tree) == rule
        checked += 1
    assert checked > 1000
