"""Rules said in plain English and read back: ``english()`` and ``from_english``."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from lang_random import TreeMaker

from eleusis.rules import Rule, RuleSyntaxError, compare, from_english, library, parse
from eleusis.rules.__main__ import main
from eleusis.rules.generate import candidate

CORPUS = Path(__file__).parent / "data" / "english_corpus.tsv"


def _generated(count: int, seed: int) -> list[Rule]:
    rng = random.Random(seed)
    return [parse(candidate(d, rng)) for d in range(1, 6) for _ in range(count)]


def _random_trees(count: int, seed: int) -> list[Rule]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        # every construct of the language, gcd, //, sets of card values and
        # "is prime" on a number included
        tree = TreeMaker(rng, lookback=rng.randint(0, 4)).bool_(rng.randint(0, 3))
        try:
            out.append(Rule.from_tree(tree))
        except RuleSyntaxError:
            continue
    return out


def _reads_back(rule: Rule) -> None:
    sentence = rule.english()
    reading = from_english(sentence)
    assert reading.rule is not None, (rule.text, sentence, reading.message,
                                      [c.text for c in reading.candidates])
    assert compare(rule, reading.rule).equivalent, (rule.text, sentence, reading.rule.text)


@pytest.mark.parametrize("entry", library.RULES, ids=lambda e: e.name)
def test_every_library_sentence_reads_back(entry: library.LibraryRule) -> None:
    _reads_back(entry.rule)


def test_generated_sentences_read_back() -> None:
    for rule in _generated(12, seed=21):
        _reads_back(rule)


def test_random_rule_sentences_read_back() -> None:
    for rule in _random_trees(80, seed=7):
        _reads_back(rule)


#: Shapes an ungrammatical or ambiguous sentence shows.
_BAD: dict[str, re.Pattern[str]] = {
    "dangling verb": re.compile(r"\b(is|is not|are|than|of|as|from)( and| or|[,;.)])"),
    "doubled word": re.compile(r"\b(\w+) \1\b"),
    "connective in a bare 'exactly when'": re.compile(
        r"exactly when [^();,]* (and|or) [^();,]*\b(and|or)\b"),
}


def _check_grammar(rule: Rule) -> None:
    sentence = rule.english()
    for name, pattern in _BAD.items():
        assert not pattern.search(sentence), (name, rule.text, sentence)
    depth = 0
    for ch in sentence:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        assert depth >= 0, (rule.text, sentence)
    assert depth == 0, (rule.text, sentence)
    assert sentence.count("either ") <= sentence.count(", but not both"), sentence
    assert sentence.count("neither ") == sentence.count(" nor "), sentence


def test_sentences_have_no_known_bad_shapes() -> None:
    rules = [e.rule for e in library.RULES] + _generated(20, seed=3) + _random_trees(300, 5)
    for rule in rules:
        _check_grammar(rule)


def test_the_reported_sentence_is_now_one_clause() -> None:
    sentence = parse("card.even == prev.even and card.color != prev.color").english()
    assert sentence == ("A card may be played when the card has the same parity as the last "
                        "card and the card has a different color from the last card.")
    nested = parse("card.face == prev.face and card.rank != prev.rank").english()
    assert nested.startswith("A card may be played when (the card is a face card (J, Q, K) "
                             "exactly when the last card is a face card) and ")


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("red cards only", "card is red"),
        ("alternate colors", "card.color != prev.color"),
        ("each card higher than the last", "card.rank > prev.rank"),
        ("same suit or same rank as the last card",
         "card.suit == prev.suit or card.rank == prev.rank"),
        ("if the last card was odd play a red card, otherwise black",
         "if prev is odd then card is red else card is black"),
        ("no two face cards in a row", "not (card is face and prev is face)"),
        ("the card's rank is prime", "card is prime"),
        ("Same colour as the card two back", "card.color == prev2.color"),
        ("a face card must be followed by a numeral card",
         "if prev is face then card is numeral else true"),
        ("the card's rank is 6 or lower", "card.rank <= 6"),
        ("the card is an ace, a jack, a queen or a king", "card.rank in {A, J, Q, K}"),
        ("same suit as the second-to-last card", "card.suit == prev2.suit"),
        ("aces and face cards", "card.rank in {A, J, Q, K}"),
        ("red and odd", "card is red and card is odd"),
        ("anything but hearts", "card is not hearts"),
        ("if the card is red it must be odd, otherwise it must be even",
         "if card is red then card is odd else card is even"),
        ("if the last card is red, the card must be higher; if it is black, lower",
         "if prev is red then card.rank > prev.rank else card.rank < prev.rank"),
        ("two kings may not be played in a row", "not (card is K and prev is K)"),
        ("the card and the last card differ in rank by at most 3",
         "abs(card.rank - prev.rank) <= 3"),
        # the constructs added to the language later
        ("the rank is a prime number", "card is prime"),
        ("the sum of the last two ranks is prime", "prev.rank + prev2.rank is prime"),
        ("if the position is prime play a red card, otherwise black",
         "if pos is prime then card is red else card is black"),
        ("the suit matches one of the last two cards", "card.suit in {prev.suit, prev2.suit}"),
        ("same color as one of the last three cards",
         "card.color in {prev.color, prev2.color, prev3.color}"),
        ("the card has the same suit as both of the last two cards",
         "card.suit == prev.suit and card.suit == prev2.suit"),
        ("a different rank from the last two cards", "card.rank not in {prev.rank, prev2.rank}"),
        ("the card's rank is the last card's rank plus 1 or the last card's rank minus 1",
         "card.rank in {prev.rank + 1, prev.rank - 1}"),
        ("the card's rank and the last card's rank are coprime", "gcd(card.rank, prev.rank) == 1"),
        ("the gcd of the card's rank and the last card's rank is more than 1",
         "gcd(card.rank, prev.rank) > 1"),
        ("the card's rank divided by 4, rounded down, is the same as the last card's rank "
         "divided by 4, rounded down", "card.rank // 4 == prev.rank // 4"),
        ("half the card's rank, rounded down, is odd", "card.rank // 2 is odd"),
    ],
)
def test_common_phrasings(text: str, rule: str) -> None:
    reading = from_english(text)
    assert reading.rule is not None, reading.message
    assert compare(parse(rule), reading.rule).equivalent, reading.rule.text


@pytest.mark.parametrize(
    "text",
    ["the card is red and odd or a face card",       # (red and odd) or face / red and (...)
     "odd and face cards",                           # odd face cards, or either kind
     "the card is not red or odd",                   # not (red or odd), or (not red) or odd
     "if the card is a club, play a red card",       # the card on the table, or the one played
     "the card is higher than the last card and it is red",  # "it": which card?
     "cards must be different from the last card",  # another rank, or another card
     "if the card is red, then black",               # the card on the table, or the one played
     "play a card of the same color unless it is a face card",  # "it": which card?
     "the card is red or odd and the last card is black"],
)
def test_ambiguous_text_gives_candidates_not_a_pick(text: str) -> None:
    reading = from_english(text)
    assert reading.rule is None and reading.ambiguous
    assert not any(compare(a, b).equivalent
                   for i, a in enumerate(reading.candidates) for b in reading.candidates[i + 1:])


def test_the_sum_of_two_ranks_being_prime_is_not_read_as_a_rank_set() -> None:
    # "is a prime number" on a sum reaching 26 means 17, 19 and 23 too (the language's
    # "is prime" on a number), not the prime ranks {2, 3, 5, 7, 11, 13}
    rule = from_english("the sum of the card's rank and the last card's rank is prime").rule
    assert rule is not None and rule.text == "card.rank + prev.rank is prime"


def test_a_different_suit_from_one_of_the_last_cards_is_not_guessed() -> None:
    # "different from one of" says too little: never read as "from all of them"
    reading = from_english("the card has a different suit from one of the last two cards")
    assert reading.rule is None


def test_text_not_understood_gets_forms_to_try() -> None:
    reading = from_english("the card is purple")
    assert reading.rule is None and not reading.candidates
    assert "purple" in reading.message
    assert reading.suggestions and all(from_english(s).rule for s in reading.suggestions)


@pytest.mark.parametrize("text", ["", "   ", "(((((", "and or and", "x" * 5000, "is is is",
                                  "(" * 300 + "red" + ")" * 300, "\x00", "é 中文 ✓"])
def test_bad_input_is_refused_plainly(text: str) -> None:
    reading = from_english(text)
    assert reading.rule is None and reading.message


def test_a_reading_over_the_language_limits_says_so() -> None:
    reading = from_english(" or ".join(["red"] * 55))
    assert reading.rule is None and "too long" in reading.message


def test_deep_parentheses_within_the_limit_are_read() -> None:
    reading = from_english("(" * 20 + "red cards only" + ")" * 20)
    assert reading.rule is not None and reading.rule.text == "card is red"


def test_corpus_is_never_misread_and_mostly_understood() -> None:
    understood = total = 0
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        _, text, rule = line.split("\t")
        total += 1
        reading = from_english(text)
        if reading.rule is None:
            continue
        assert compare(parse(rule), reading.rule).equivalent, (text, reading.rule.text, rule)
        understood += 1
    assert total >= 150
    assert understood / total >= 0.8


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["english", "alternate colors"]) == 0
    out = capsys.readouterr().out
    assert "card.color != prev.color" in out and "different color" in out
    assert main(["english", "the card is purple"]) == 2
    assert "purple" in capsys.readouterr().err
    assert main(["english", "odd and face cards"]) == 2
    assert "it could mean" in capsys.readouterr().err
