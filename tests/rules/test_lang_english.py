"""Rules said in plain English."""

from __future__ import annotations

import random

import pytest
from lang_random import TreeMaker

from eleusis.rules import Rule, RuleSyntaxError, parse


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("card.color != prev.color",
         "A card may be played when the card has a different color from the last card."),
        ("if prev is black then card.rank >= prev.rank else card.rank <= prev.rank",
         "If the last card is black, the card's rank is at least the last card's rank; "
         "otherwise the card's rank is at most the last card's rank."),
        ("card.rank in {2, 3, 5, 7, J, K}",
         "A card may be played when the card's rank is one of 2, 3, 5, 7, jack, king."),
        ("if prev is odd then card is red else card is black",
         "If the last card is odd-ranked, the card is red; otherwise the card is black."),
        ("card.suit == prev.suit or card.rank == prev.rank",
         "A card may be played when the card has the same suit as the last card or the card "
         "has the same rank as the last card."),
        ("card.prime != prev.prime",
         "A card may be played when the card is prime-ranked (2, 3, 5, 7, J, K) exactly when "
         "the last card is not prime-ranked."),
        ("card is not hearts", "A card may be played when the card is not a heart."),
        ("prev2 is K", "A card may be played when the second-to-last card is a king."),
        ("card.rank in 5..9",
         "A card may be played when the card's rank is between 5 and 9 (inclusive)."),
        ("if pos == 1 then card is A else card.rank >= prev.rank",
         "If the card's position is 1, the card is an ace; otherwise the card's rank is at "
         "least the last card's rank."),
        ("true", "Every card is accepted."),
    ],
)
def test_common_forms_read_naturally(text: str, sentence: str) -> None:
    assert parse(text).english() == sentence


def test_cycles_and_picks_are_spelled_out() -> None:
    cyc = parse("card.suit == next(prev.suit, [hearts, clubs, diamonds, spades])").english()
    assert "hearts → clubs → diamonds → spades → hearts" in cyc
    pick = parse("card.rank == pick(pos, [1, 3])").english()
    assert "repeating sequence 1, 3, 1, 3, …" in pick


def test_mixed_and_or_is_bracketed() -> None:
    text = parse("card is red and (prev is K or prev is Q)").english()
    assert "the card is red and (the last card is a king or the last card is a queen)" in text
    text = parse("(card is red or prev is K) and prev is Q").english()
    assert "(the card is red or the last card is a king) and" in text


def test_every_rule_says_a_sentence() -> None:
    rng = random.Random(11)
    for _ in range(400):
        tree = TreeMaker(rng, lookback=rng.randint(0, 4)).bool_(rng.randint(0, 4))
        try:
            rule = Rule.from_tree(tree)
        except RuleSyntaxError:
            continue
        sentence = rule.english()
        assert sentence[0].isupper() and sentence.endswith(".")
        assert "None" not in sentence and "<" not in sentence.replace("<=", "")
