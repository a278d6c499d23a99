"""Exact comparison: rare differences found, equivalences proved, shortest counterexamples."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence

import pytest
from lang_random import TreeMaker

from eleusis.cards import ALL_CARDS, Card, parse_cards
from eleusis.rules import Comparison, Rule, RuleSyntaxError, compare, parse
from eleusis.rules.abstract import POS_MAX, pos_profile
from eleusis.rules.syntax import Or


def replay(secret: Rule, guess: Rule, result: Comparison, start: Sequence[Card] = ()) -> None:
    """The counterexample really is one: the secret rule accepts its mainline card by
    card from ``start`` on, and the two rules disagree on its card."""
    ce = result.counterexample
    assert ce is not None
    line = list(ce.mainline)
    assert line[: len(start)] == list(start)
    for i in range(len(start), len(line)):
        assert secret.accepts(line[:i], line[i]), (i, line)
    assert secret.accepts(line, ce.card) == ce.secret_accepts
    assert guess.accepts(line, ce.card) == ce.guess_accepts
    assert ce.secret_accepts != ce.guess_accepts


def brute(secret: Rule, guess: Rule, max_pos: int) -> int | None:
    """Independent check for look-back <= 1: BFS over concrete (last card, pos).

    Returns the length of the shortest mainline before a disagreement, or None.
    """
    assert secret.lookback <= 1 and guess.lookback <= 1
    track_pos = secret.uses_pos or guess.uses_pos
    filler = ALL_CARDS[0]
    start: tuple[Card | None, int] = (None, 1)
    seen = {start}
    queue = deque([start])
    while queue:
        last, pos = queue.popleft()
        line = [filler] * (pos - 2) + [last] if last is not None else []
        for card in ALL_CARDS:
            s = secret.accepts(line, card)
            if s != guess.accepts(line, card):
                return len(line)
            if s and pos < max_pos:
                nxt = (card, pos + 1 if track_pos else 2)
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
    return None


def test_rare_difference_is_found() -> None:
    secret, guess = parse("card is red or pos > 30"), parse("card is red")
    result = compare(secret, guess)
    assert not result.equivalent and result.exact
    assert result.counterexample is not None
    assert len(result.counterexample.mainline) == 30
    assert result.counterexample.card.black
    replay(secret, guess, result)
    assert "your rule rejects" in result.counterexample.sentence
    assert "the secret rule accepts it" in result.counterexample.sentence


def test_pos_beyond_the_longest_game_cannot_matter() -> None:
    assert compare(parse("card is red or pos > 300"), parse("card is red")).equivalent
    assert not compare(parse("card is red or pos == 200"), parse("card is red")).equivalent
    assert compare(parse("card is red or pos == 20"), parse("card is red"), max_pos=19).equivalent


def test_equivalent_rules_written_differently() -> None:
    pairs = [
        ("card.color != prev.color",
         "card is red and prev is black or card is black and prev is red"),
        ("card.rank == prev.rank + 1 or card.rank == prev.rank - 2",
         "card.rank - prev.rank in {1, -2}"),
        ("card.rank in {2, 3, 5, 7, J, K}", "card is prime"),
        ("card.rank == pick(pos, [1, 3])", "if pos % 2 == 1 then card is A else card.rank == 3"),
        ("card is odd", "not (card.rank % 2 == 0)"),
        ("card.suit == next(prev.suit, [hearts, clubs, diamonds, spades])",
         "case prev.suit when hearts then card is clubs when clubs then card is diamonds "
         "when diamonds then card is spades else card is hearts"),
        # under the secret rule the mainline only climbs, so prev2 is always lower
        ("card.rank > prev.rank", "card.rank > prev.rank and card.rank > prev2.rank"),
        ("card.rank == wrap(prev.rank + 1)",
         "card.rank == prev.rank + 1 or prev is K and card is A"),
    ]
    for s, g in pairs:
        result = compare(parse(s), parse(g))
        assert result.equivalent and result.exact, (s, g, result)
        assert result.counterexample is None
        assert result.sentence == "your rule is equivalent to the secret rule"


def test_not_symmetric_reachability() -> None:
    # equivalent on the mainlines the *secret* produces, not on the guess's
    secret, guess = parse("card.rank > prev.rank"), parse("card.rank > prev.rank and "
                                                         "card.rank > prev2.rank")
    assert compare(secret, guess).equivalent
    result = compare(guess, secret)
    assert result.equivalent  # the guess also only climbs
    secret2 = parse("card.rank != prev.rank")
    result = compare(secret2, parse("card.rank != prev.rank and card.rank != prev2.rank"))
    assert not result.equivalent
    replay(secret2, parse("card.rank != prev.rank and card.rank != prev2.rank"), result)


def test_difference_only_at_the_first_card_vanishes_later() -> None:
    secret = parse("if pos == 1 then card is A else card.rank >= prev.rank")
    guess = parse("card.rank >= prev.rank")
    first = compare(secret, guess)
    assert not first.equivalent
    assert first.counterexample is not None
    assert first.counterexample.mainline == ()
    assert first.counterexample.sentence.startswith("as the first card your rule accepts")
    replay(secret, guess, first)
    later = parse_cards("AS 3H")
    assert compare(secret, guess, later).equivalent


def test_from_a_mainline_the_counterexample_extends_it() -> None:
    secret, guess = parse("card.rank >= prev.rank"), parse("card.rank >= prev.rank and "
                                                          "card.rank != 9")
    start = parse_cards("2S 5H 7C")
    result = compare(secret, guess, start)
    assert not result.equivalent
    replay(secret, guess, result, start)
    assert result.counterexample is not None
    assert result.counterexample.card.rank == 9
    assert result.counterexample.mainline == tuple(start)
    # from a mainline at 10, 9 can never come again
    assert compare(secret, guess, parse_cards("2S 10H")).equivalent


def test_lookback_two_and_three_pairs() -> None:
    secret = parse("card.rank + prev.rank + prev2.rank + prev3.rank > 20")
    guess = parse("card.rank + prev.rank + prev2.rank + prev3.rank >= 20")
    result = compare(secret, guess)
    assert not result.equivalent and result.exact
    replay(secret, guess, result)
    a = parse("card.suit == prev.suit or card.rank == prev2.rank")
    b = parse("card.rank == prev2.rank or prev.suit == card.suit")
    assert compare(a, b).equivalent
    c = parse("card.suit == prev.suit or card.rank == prev2.rank or card == prev2")
    assert compare(a, c).equivalent  # card == prev2 implies equal ranks
    d = parse("card.suit == prev.suit or card.rank == prev2.rank and card.rank != 7")
    result = compare(a, d)
    assert not result.equivalent
    replay(a, d, result)
    assert result.counterexample is not None
    assert len(result.counterexample.mainline) == 2


def test_sampled_fallback_is_flagged() -> None:
    secret = parse("card.rank + prev.rank + prev2.rank + prev3.rank > 20")
    guess = parse("card.rank + prev.rank + prev2.rank + prev3.rank >= 20")
    result = compare(secret, guess, budget=5_000)
    assert not result.exact
    assert "random games" in result.note
    assert not result.equivalent
    replay(secret, guess, result)
    same = compare(secret, parse("card.rank + prev.rank + prev2.rank + prev3.rank >= 21"),
                   budget=5_000)
    assert same.equivalent and not same.exact
    assert "sampling" in same.sentence


def test_whole_cards_compared_for_equality_stay_exact_on_a_small_budget() -> None:
    """Three whole cards looked back used to exceed the budget; only the patterns
    of equal and different cards matter, and the search walks those."""
    secret = parse("card != prev and card != prev2 and card != prev3")
    guess = parse("card != prev and card != prev2")
    result = compare(secret, guess, budget=5_000)
    assert result.exact and not result.equivalent
    replay(secret, guess, result)
    assert result.counterexample is not None
    assert len(result.counterexample.mainline) == 3
    same = compare(secret, parse("not (card == prev or card == prev2 or card == prev3)"),
                   budget=5_000)
    assert same.equivalent and same.exact


def test_pos_profiles() -> None:
    assert pos_profile(parse("card is red or pos > 30").ast) == (31, 1)
    assert pos_profile(parse("card.rank == pick(pos, [1, 3, 5])").ast) == (1, 3)
    assert pos_profile(parse("pos % 4 == 1 and card is red or pos % 6 == 0").ast) == (1, 12)
    assert pos_profile(parse("card.rank == wrap(pos)").ast) == (1, 13)
    assert pos_profile(parse("card.rank == pos - prev.rank").ast) is not None
    assert pos_profile(parse("(pos * pos) % 7 == card.rank").ast) is None


def test_pos_rules_match_brute_force() -> None:
    pairs = [
        ("card.rank == pos - prev.rank", "card.rank == pos - prev.rank and pos < 27"),
        ("card.rank == pos - prev.rank", "card.rank == pos - prev.rank and pos < 26"),
        ("abs(pos - 12) < 3 or card is red", "card is red or pos in 10..14"),
        ("abs(pos - 12) < 3 or card is red", "card is red or pos in 10..13"),
        ("(pos * pos) % 7 == 1 or card is red", "card is red or pos % 7 in {1, 6}"),
        ("(pos * pos) % 7 == 1 or card is red", "card is red or pos % 7 in {1, 5}"),
        ("card.rank == wrap(pos + prev.rank)", "card.rank == wrap(pos + prev.rank + 13)"),
        ("(pos is even) == card.red", "card.color == pick(pos, [black, red])"),
        ("case pos when 3 then card is K else card.rank > prev.rank or pos > 9",
         "if pos == 3 then card is K else card.rank > prev.rank or pos >= 10"),
    ]
    for s, g in pairs:
        secret, guess = parse(s), parse(g)
        result = compare(secret, guess, max_pos=30)
        expected = brute(secret, guess, 30)
        assert result.equivalent == (expected is None), (s, g)
        if expected is not None:
            replay(secret, guess, result)
            assert result.counterexample is not None
            assert len(result.counterexample.mainline) == expected, (s, g)


def test_random_pairs_match_brute_force() -> None:
    rng = random.Random(77)
    checked = differ = 0
    while checked < 60:
        maker = TreeMaker(rng, lookback=1, pos=False)
        secret_tree = maker.bool_(rng.randint(1, 3))
        mode = rng.randrange(3)
        if mode == 0:
            guess_tree = Or((secret_tree, maker.bool_(rng.randint(0, 2))))
        elif mode == 1:
            guess_tree = maker.bool_(rng.randint(1, 3))
        else:
            guess_tree = Or((secret_tree, parse("card == prev and card.rank == 13").ast))
        try:
            secret, guess = Rule.from_tree(secret_tree), Rule.from_tree(guess_tree)
        except RuleSyntaxError:
            continue
        result = compare(secret, guess)
        expected = brute(secret, guess, POS_MAX)
        assert result.exact
        assert result.equivalent == (expected is None), (secret.text, guess.text)
        if expected is not None:
            differ += 1
            replay(secret, guess, result)
            assert result.counterexample is not None
            assert len(result.counterexample.mainline) == expected
        checked += 1
    assert 5 < differ < 60


@pytest.mark.parametrize("text", ["card is red", "card.rank > prev.rank", "pos > 3 and prev is K"])
def test_a_rule_equals_itself(text: str) -> None:
    rule = parse(text)
    assert compare(rule, rule).equivalent
    assert bool(compare(rule, rule))
    assert compare(rule, parse(f"not not ({text})")).equivalent


def test_sentence_for_long_mainlines_shows_the_end() -> None:
    secret, guess = parse("card is red or pos > 30"), parse("card is red")
    result = compare(secret, guess)
    assert result.counterexample is not None
    sentence = result.counterexample.sentence
    assert sentence.startswith("after 30 cards ending in ")
    assert sentence.split(", your rule ")[0].split()[-6:] == [
        c.symbol for c in result.counterexample.mainline[-6:]]


def brute_pos(secret: Rule, guess: Rule, max_pos: int) -> int | None:
    """Independent check for look-back 0: walk every position up to ``max_pos``."""
    assert secret.lookback == 0 and guess.lookback == 0
    filler = ALL_CARDS[0]
    for pos in range(1, max_pos + 1):
        line = [filler] * (pos - 1)
        alive = False
        for card in ALL_CARDS:
            s = secret.accepts(line, card)
            if s != guess.accepts(line, card):
                return pos - 1
            alive = alive or s
        if not alive:
            return None
    return None


def test_random_pos_rules_match_brute_force() -> None:
    """The position folding (threshold and period read from the syntax) is sound."""
    rng = random.Random(2024)
    checked = differ = 0
    while checked < 120:
        maker = TreeMaker(rng, lookback=0, pos=True)
        secret_tree = maker.bool_(rng.randint(1, 3))
        guess_tree = Or((secret_tree, maker.bool_(rng.randint(1, 3)))) if rng.random() < 0.6 \
            else maker.bool_(rng.randint(1, 3))
        try:
            secret, guess = Rule.from_tree(secret_tree), Rule.from_tree(guess_tree)
        except RuleSyntaxError:
            continue
        if not (secret.uses_pos or guess.uses_pos):
            continue
        result = compare(secret, guess)
        expected = brute_pos(secret, guess, POS_MAX)
        assert result.equivalent == (expected is None), (secret.text, guess.text)
        if expected is not None:
            differ += 1
            assert result.counterexample is not None
            assert len(result.counterexample.mainline) == expected, (secret.text, guess.text)
            replay(secret, guess, result)
        checked += 1
    assert 10 < differ < 120
