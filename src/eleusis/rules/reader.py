"""Reading a rule written in plain English: a controlled English for guesses.

:func:`from_english` reads sentences such as "red cards only", "alternate
colors", "each card higher than the last", "same suit or same rank as the
last card", "if the last card was odd play a red card, otherwise black", "no
two face cards in a row", "the card's rank is prime", "the sum of the last two
ranks is prime", "the suit matches one of the last two cards", "the two ranks
are coprime" or "the rank divided by 4, rounded down", and every sentence
:meth:`Rule.english` writes, into a rule of the rule language.

It is a small grammar, not a list of patterns:

* a **tokenizer** splits the text into words, numbers and punctuation, and a
  **lexicon** maps phrases of one or more words to the concepts they name,
  synonyms included ("the previous card", "the one before", "the last card"
  all name ``prev``; "must be", "should be", "was" all name "is");
* a **parser** finds *every* reading of the token list (it backtracks and
  keeps all of them): sentences, "if ... otherwise ...", "depending on ...",
  clauses joined by "and"/"or" with commas and parentheses, clauses whose
  subject or comparison is left out ("red or a face card", "same suit or
  same rank as the last card"), values with arithmetic, and a few idioms of
  the game ("alternate colors", "no two ... in a row", "X must follow Y");
* each reading is checked as a rule (types, limits), readings that give the
  same verdicts everywhere (:func:`compare`) are merged, and if more than one
  remains the text is **ambiguous**: :class:`Reading` then carries every
  candidate and no rule, so a guess is never judged on a misreading.

>>> from_english("red cards only").rule
parse('card is red')
>>> from_english("each card higher than the last").rule
parse('card.rank > prev.rank')
>>> r = from_english("the card is red and odd or a face card")
>>> r.rule is None, len(r.candidates)
(True, 2)
"""

from __future__ import annotations

import difflib
import functools
import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields, replace
from typing import Final, TypeVar, cast

from eleusis.cards import ALL_CARDS, Card, Color, Suit
from eleusis.rules.compare import compare
from eleusis.rules.errors import RuleSyntaxError
from eleusis.rules.rule import Rule
from eleusis.rules.syntax import (
    ATTRIBUTES,
    MAX_DEPTH,
    And,
    Arith,
    Attr,
    BoolLit,
    Call,
    CardLit,
    Case,
    Cmp,
    ColorLit,
    If,
    In,
    Is,
    ListLit,
    Neg,
    Node,
    Not,
    Num,
    Or,
    Pos,
    RangeLit,
    Ref,
    SetLit,
    SuitLit,
)

#: Longest text read, in characters (a guess is a sentence, not an essay).
MAX_TEXT: Final = 2000
#: Most clauses joined by "and"/"or" in one list (a rule of 600 characters
#: holds at most about 50).
MAX_CLAUSES: Final = 60
#: Most partial readings explored before the text is called too tangled.
MAX_WORK: Final = 60_000


@dataclass(frozen=True, slots=True)
class Reading:
    """What :func:`from_english` made of a text.

    ``rule`` is the rule the text was read as, or ``None`` when the text was
    not understood or is ambiguous. ``candidates`` holds the different rules
    an ambiguous text could mean (empty otherwise); ``suggestions`` the
    nearest forms to try when the text was not understood; ``message`` says
    what went wrong in a player's words (empty when understood).
    """

    text: str
    rule: Rule | None
    candidates: tuple[Rule, ...] = ()
    suggestions: tuple[str, ...] = ()
    message: str = ""

    @property
    def understood(self) -> bool:
        """Whether the text was read as exactly one rule."""
        return self.rule is not None

    @property
    def ambiguous(self) -> bool:
        """Whether the text could mean several different rules."""
        return len(self.candidates) > 1

    def __bool__(self) -> bool:
        return self.rule is not None


# ---------------------------------------------------------------- lexicon


@dataclass(frozen=True, slots=True)
class Tok:
    """One concept token: ``kind`` names the concept, ``value`` its detail."""

    kind: str
    value: object
    text: str


def _entries() -> list[tuple[str, str, object]]:
    """(phrase, kind, value) for every phrase of the lexicon."""
    out: list[tuple[str, str, object]] = []

    def add(kind: str, value: object, *phrases: str) -> None:
        out.extend((p, kind, value) for p in phrases)

    cardish = ["card", "one", "card played", "card laid", "card put down"]
    # the card being judged
    add("REF", 0, "card", "cards", "the card", "the cards", "this card", "each card",
        "every card", "a card", "any card", "all cards", "the next card", "next card",
        "the new card", "the played card", "the card played", "the card you play",
        "your card", "the card being played", "each card played", "every card played",
        "the card to play", "the next card played", "the current card", "the card played next",
        "the next", "the next one", "the following card", "the new one",
        "each new card", "each next card")
    lasts = ["the last", "the previous", "the preceding", "the prior", "the last played",
             "the previously played", "last", "previous", "the top", "the last legally played",
             "the last correct", "the last accepted"]
    add("REF", 1, "prev", "prev1", "the last", "the previous", "the one before",
        "the card before", "the card before it", "the one before it", "the previous one",
        "the last one", "the preceding one", "the card it follows",
        *(f"{a} {c}" for a in lasts for c in cardish),
        "the last card on the mainline", "the last card of the mainline",
        "the last card played legally", "the card played before", "the card played last",
        "the last card legally played", "the last card correctly played",
        "the card on the table", "the card it is played on", "the card on top", "previous",
        "the previous card played", "the card just played", "the card just before")
    for k, (nth, num) in enumerate(
            [("second", "two"), ("third", "three"), ("fourth", "four")], start=2):
        add("REF", k, f"prev{k}", f"the {nth} to last card", f"the {nth} last card",
            f"the {nth} previous card", f"the {nth} to last", f"the card {num} back",
            f"the card {num} cards back", f"the card {num} before", f"the {nth} to last one",
            f"the card {num} places back", f"the card {num} positions back")
    add("REF", 2, "the card before the last card", "the card before last",
        "the card before the last", "the one before the last", "the card before the previous card",
        "the one before the previous one", "the card before the previous one")
    add("CARDN", None, "card", "cards", "one", "ones")
    add("ATTR", "rank", "rank", "ranks", "value", "values", "number", "numbers", "denomination",
        "face value", "numeric value", "number value", "rank value", "numerical value")
    add("ATTR", "rank", "ranked", "valued")
    add("ATTR", "suit", "suit", "suits")
    add("ATTR", "color", "color", "colors", "colour", "colours")
    add("ATTR", "parity", "parity", "parities")
    add("POSWORD", None, "position", "place", "position in the mainline",
        "position on the mainline", "position in the line", "place in the line")
    add("POS", None, "pos", "the position", "the card's position", "its position",
        "the position of the card", "the position of the new card")
    add("POSS", None, "'s", "'")
    # adjectives of a card
    add("ADJ", "red", "red", "reds")
    add("ADJ", "black", "black", "blacks")
    add("ADJ", "face", "face", "a face card", "face card", "face cards", "a court card",
        "court card", "court cards", "court", "a picture card", "picture card",
        "picture cards", "picture", "a face", "faces", "a royal", "royal", "royals",
        "a face card (j, q, k)", "face card (j, q, k)", "face cards (j, q, k)")
    add("ADJ", "numeral", "numeral", "numerals", "a numeral card", "numeral card",
        "numeral cards", "a number card", "number card", "number cards", "a pip card",
        "pip card", "pip cards", "a spot card",
        "spot cards", "non face", "nonface", "a non face card",
        "a numeral card (a to 10)", "numeral card (a to 10)", "numeral cards (a to 10)")
    add("ADJ", "even", "even", "evens", "even ranked", "even numbered", "an even card",
        "even card", "even cards", "an even number", "even number", "even numbers",
        "of even rank", "with an even rank", "with even rank", "even valued")
    add("ADJ", "odd", "odd", "odds", "odd ranked", "odd numbered", "an odd card", "odd card",
        "odd cards", "an odd number", "odd number", "odd numbers", "of odd rank",
        "with an odd rank", "with odd rank", "odd valued")
    add("ADJ", "prime", "prime", "primes", "prime ranked", "a prime", "prime numbered",
        "prime number", "prime numbers", "a prime number", "a prime card", "prime card",
        "prime cards", "of prime rank", "with a prime rank", "prime ranked (2, 3, 5, 7, j, k)",
        "prime (2, 3, 5, 7, j, k)")
    add("ADJ", "notprime", "non prime", "nonprime", "nonprimes", "non primes",
        "not prime ranked", "composite", "non prime ranked")
    for suit in Suit:
        noun = suit.noun
        add("SUIT", suit, noun, noun[:-1], f"a {noun[:-1]}", f"{noun[:-1]} card",
            f"{noun[:-1]} cards", f"a {noun[:-1]} card", suit.symbol)
    add("SUIT", Suit.SPADES, "♤")
    add("SUIT", Suit.HEARTS, "♡")
    add("SUIT", Suit.DIAMONDS, "♢")
    add("SUIT", Suit.CLUBS, "♧")
    words = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
             "eleven", "twelve", "thirteen"]
    plurals = ["", "", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
               "nines", "tens"]
    for n in range(2, 11):
        add("NUM", (n, False), words[n], plurals[n], f"a {words[n]}", f"an {words[n]}",
            f"{n}s", f"a {n}", f"an {n}")
    add("NUM", (1, False), "one")
    add("NUM", (11, False), "eleven")
    add("NUM", (12, False), "twelve")
    add("NUM", (13, False), "thirteen")
    for value, name in ((1, "ace"), (11, "jack"), (12, "queen"), (13, "king")):
        article = "an" if value == 1 else "a"
        add("NUM", (value, True), name, f"{name}s", f"{article} {name}")
        if value != 1:
            add("NUM", (value, True), name[0])
    add("NUM", (1, True), "aces")
    # verbs
    add("IS", None, "is", "are", "was", "were", "be", "must be", "should be", "has to be",
        "have to be", "needs to be", "need to be", "will be", "is to be", "must", "should",
        "has to", "have to", "needs to", "need to", "can only be", "may only be", "is always",
        "must always be", "are always", "be always", "must be either", "is either",
        "be either", "should be either", "are either", "must either be", "has to be either")
    add("ISNOT", None, "is not", "are not", "was not", "were not", "must not be",
        "cannot be", "can not be", "should not be", "may not be", "is never", "are never",
        "must never be", "can never be", "never", "not be", "is no", "are no", "must not",
        "cannot", "may not", "should not", "not")
    add("HAS", None, "has", "have", "must have", "should have", "has to have",
        "have to have", "needs to have", "need to have", "with", "of", "is of", "are of",
        "must be of", "should be of", "shares", "share", "must share", "that has",
        "which has", "having", "in")
    add("HASNOT", None, "does not have", "do not have", "must not have", "cannot have",
        "can not have", "should not have", "may not have", "never has", "has no", "have no",
        "is not of", "must not be of", "does not share", "must not share")
    add("NOTTRUE", None, "it is not true that", "it is not the case that", "it's not true that",
        "not", "it is false that")
    add("AND", None, "and", "but", "and also", "while", "as well as")
    add("OR", None, "or", "or else")
    add("EITHER", None, "either")
    add("NEITHER", None, "neither")
    add("NOR", None, "nor")
    add("BOTH", None, "both")
    add("BNB", None, "but not both", "and not both")
    add("IFF", None, "exactly when", "if and only if", "iff", "precisely when", "just when",
        "exactly if")
    add("IF", None, "if", "when", "whenever", "where")
    add("THEN", None, "then")
    add("OTHERWISE", None, "otherwise", "else", "if not", "in all other cases",
        "in every other case", "in any other case", "in other cases", "other than that")
    add("IFINSTEAD", None, "if instead", "else if", "otherwise if", "elif", "or if",
        "and if")
    add("UNLESS", None, "unless", "except when", "except if")
    add("INWHICHCASE", None, "in which case", "then")
    add("DEPENDING", None, "depending on", "according to")
    add("WHENITIS", None, "when it is", "when it's", "if it is", "if it's", "for")
    # comparisons
    for op, phrases in {
        ">": ["greater than", "higher than", "larger than", "bigger than", "more than",
              "above", "over", "exceeds", "exceed", "higher", "greater", "larger", "bigger",
              "higher in rank than", "of higher rank than", "of a higher rank than",
              "of higher value than", "of a higher value than", "with a higher rank than",
              "with a higher value than", "a higher rank than", "a higher value than",
              "ranked higher than", "strictly higher than", "strictly greater than", ">",
              "of higher rank", "of higher value", "a higher rank", "a higher value"],
        "<": ["less than", "lower than", "smaller than", "fewer than", "below", "under",
              "lower", "smaller", "less", "lower in rank than", "of lower rank than",
              "of a lower rank than", "of lower value than", "of a lower value than",
              "with a lower rank than", "with a lower value than", "a lower rank than",
              "a lower value than", "ranked lower than", "strictly lower than",
              "strictly less than", "<", "of lower rank", "of lower value", "a lower rank",
              "a lower value"],
        ">=": ["at least", "no less than", "not less than", "no lower than", "not lower than",
               "greater than or equal to", "higher than or equal to", "at least as high as",
               "equal or higher", "equal to or higher than", "equal to or greater than",
               "the same or higher", "the same or higher than", "higher or equal to",
               "higher or equal", "of equal or higher value", "of equal or higher rank",
               "of equal or higher value than", "of equal or higher rank than",
               "equal or higher than", "as high as or higher than", "no smaller than", ">=",
               "≥"],
        "<=": ["at most", "no more than", "not more than", "no higher than", "not higher than",
               "less than or equal to", "lower than or equal to", "at most as high as",
               "equal or lower", "equal to or lower than", "equal to or less than",
               "the same or lower", "the same or lower than", "lower or equal to",
               "lower or equal", "of equal or lower value", "of equal or lower rank",
               "of equal or lower value than", "of equal or lower rank than",
               "equal or lower than", "as low as or lower than", "no bigger than",
               "no greater than", "<=", "≤"],
        "==": ["equal to", "equals", "equal", "the same as", "=", "==", "match", "matches",
               "must match"],
        "!=": ["different from", "different to", "different than", "not equal to",
               "unequal to", "other than", "!=", "≠", "differs from", "differ from"],
    }.items():
        add("CMP", op, *phrases)
    add("ORCMP", "<=", "or less", "or lower", "or below", "or fewer", "or smaller", "or under",
        "and below", "and lower", "and under", "and down", "or lower value", "or less value")
    add("ORCMP", ">=", "or more", "or higher", "or above", "or greater", "or bigger", "and up",
        "and above", "and higher", "or over", "and over")
    add("ONEOF", None, "one of", "in", "among", "any of", "in the set", "one of the ranks",
        "one of the suits", "one of the values")
    add("NOTONEOF", None, "not one of", "none of", "not in", "not among", "not any of")
    add("BETWEEN", None, "between", "from", "in the range", "in the range from",
        "in the range of", "ranging from")
    add("TO", None, "to", "and", "through", "thru", "..", "-")
    add("GLOSS", None, "(inclusive)", "inclusive", "inclusively", "(both included)",
        "both included", "(k + 1 is a)", "(k+1 is a)")
    add("MULTOF", None, "a multiple of", "divisible by", "evenly divisible by",
        "multiple of", "a multiple of the number")
    add("LEAVES", True, "leaves a remainder of", "leaves remainder", "leaves a remainder",
        "has a remainder of", "gives a remainder of")
    add("LEAVES", False, "does not leave a remainder of", "doesn't leave a remainder of")
    add("WHENDIV", None, "when divided by", "after division by", "divided by", "modulo", "mod")
    add("REMWHEN", None, "the remainder when", "the remainder of", "the remainder after")
    add("DIVBY", None, "is divided by", "divided by", "by")
    add("PLUS", None, "plus", "+", "added to")
    add("MINUS", None, "minus", "-")
    add("TIMES", None, "times", "*", "multiplied by")
    add("MOD", None, "modulo", "mod", "%")
    add("SUMOF", None, "the sum of", "the total of", "sum of")
    add("ABSOF", None, "the absolute value of", "absolute value of", "the size of")
    add("DIFFOF", None, "the difference between", "the difference of",
        "the distance between", "the gap between")
    add("MINOF", None, "the smaller of", "the smallest of", "the lower of", "the lowest of",
        "the minimum of", "the min of")
    add("MAXOF", None, "the larger of", "the largest of", "the higher of", "the highest of",
        "the maximum of", "the max of")
    add("GCDOF", None, "the greatest common divisor of", "the gcd of", "gcd of",
        "the greatest common factor of", "the highest common factor of",
        "the largest common divisor of")
    add("QUOTOF", None, "the quotient of", "the quotient when", "the integer quotient of",
        "the whole quotient of")
    add("ROUNDDOWN", None, "(rounded down)", "rounded down", ", rounded down",
        ", rounded down ,",
        "(rounded down to a whole number)", "rounded down to a whole number")
    add("HALFOF", None, "half of", "half", "half the")
    add("COPRIME", True, "have no common divisor greater than 1",
        "have no common divisor other than 1", "have no common factor greater than 1",
        "have no common factor other than 1", "are coprime", "are relatively prime",
        "are coprime to each other", "share no common factor", "share no divisor",
        "have no common factor", "have no common divisor")
    add("COPRIMEWITH", None, "coprime with", "coprime to", "relatively prime to",
        "relatively prime with")
    add("COPRIME", False, "have a common divisor greater than 1",
        "have a common factor greater than 1", "are not coprime", "share a common factor",
        "share a divisor", "have a common factor", "have a common divisor")
    for n, w in ((2, "two"), (3, "three"), (4, "four")):
        groups = [f"the last {w} cards", f"the previous {w} cards", f"the {w} previous cards",
                  f"the {w} last cards", f"the last {n} cards", f"the previous {n} cards",
                  f"the {w} cards before it", f"the {w} cards before", f"the last {w}"]
        add("LASTN", (n, "all"), *groups, *(f"each of {g}" for g in groups),
            *(f"all of {g}" for g in groups), *(f"both of {g}" for g in groups if n == 2),
            *(f"both {g[4:]}" for g in groups if n == 2))
        add("LASTN", (n, "any"), *(f"any of {g}" for g in groups))
        add("LASTN", (n, "one"), *(f"one of {g}" for g in groups),
            *(f"either of {g}" for g in groups if n == 2), *(f"either {g[4:]}" for g in groups
                                                            if n == 2))
        for attr, plural in (("rank", "ranks"), ("suit", "suits"), ("color", "colors")):
            named = [f"the last {w} {plural}", f"the previous {w} {plural}",
                     f"the {plural} of the last {w} cards",
                     f"the {plural} of the previous {w} cards", f"the last {n} {plural}"]
            add("LASTNATTR", (n, attr), *named)
            add("LASTNATTRQ", (n, attr, "all"), *named, *(f"each of {g}" for g in named),
                *(f"all of {g}" for g in named), *(f"both of {g}" for g in named if n == 2),
                *(f"both {g[4:]}" for g in named if n == 2))
            add("LASTNATTRQ", (n, attr, "any"), *(f"any of {g}" for g in named))
            add("LASTNATTRQ", (n, attr, "one"), *(f"one of {g}" for g in named),
                *(f"either of {g}" for g in named if n == 2))
    add("WRAPPED", None, "wrapped into a..k", "wrapped into a .. k", "wrapped around",
        "wrapped", "wrapped into a to k")
    add("ONEAFTER", None, "the one after", "the suit after", "the value after", "the rank after",
        "the one that follows", "the next after")
    add("INCYCLE", None, "in the cycle", "in the order", "in the sequence", "in the cyclic order",
        "the order", "the cycle", "the sequence", "the cyclic order")
    add("ENTRYFOR", None, "the entry for", "the item for", "the entry at")
    add("INSEQ", None, "in the repeating sequence", "of the repeating sequence",
        "in the repeating pattern")
    add("ARROW", None, "→", "->", "then")
    add("ELLIPSIS", None, "…", "...", "and so on", "etc", "etc.")
    add("SAME", None, "the same", "same", "a matching", "matching", "identical",
        "the identical", "an identical")
    add("DIFFERENT", None, "a different", "different", "another", "a differing", "an other")
    add("AS", None, "as", "to", "like", "than", "from")
    add("SAMECARD", None, "the same card as")
    add("PLAY", None, "play", "plays", "play only", "you must play", "you may play",
        "you can play", "you may only play", "you can only play", "only play",
        "players must play", "a player must play", "the player must play", "must play",
        "playing", "place", "lay", "put", "you play", "you may play only")
    add("ALTERNATE", None, "alternate", "alternating", "alternates", "alternate between",
        "alternating between", "must alternate", "should alternate", "alternate in",
        "alternation of", "the alternation of", "take turns", "must alternate between",
        "alternate in", "alternates between")
    add("INAROW", None, "in a row", "consecutively", "back to back", "one after another",
        "one after the other", "in succession", "running", "together", "next to each other",
        "in sequence", "side by side")
    add("CONSECUTIVE", None, "consecutive", "successive", "adjacent")
    add("NO", None, "no", "never", "there are never", "there are no", "there can be no",
        "there must be no", "never play", "do not play", "don't play", "you may not play",
        "you cannot play", "you can't play", "not")
    add("FOLLOW", True, "must follow", "follows", "follow", "should follow", "comes after",
        "come after", "must come after", "is played after", "must be played after",
        "can only follow", "may only follow", "goes after", "must go after",
        "always follows")
    add("FOLLOW", False, "cannot follow", "can not follow", "may not follow",
        "must not follow", "never follows", "can never follow", "does not follow",
        "should not follow", "is never played after", "must not be played after",
        "cannot be played after", "can't follow")
    add("FOLLOWEDBY", True, "must be followed by", "is followed by", "is always followed by",
        "should be followed by", "are followed by", "are always followed by",
        "must always be followed by")
    add("FOLLOWEDBY", False, "cannot be followed by", "must not be followed by",
        "is never followed by", "may not be followed by", "can never be followed by")
    add("AFTER", None, "after", "following", "after playing", "after each", "after every",
        "after any")
    add("TREND", ">", "go up", "goes up", "increase", "increases", "rise", "rises", "ascend",
        "ascends", "are increasing", "are ascending", "is increasing", "in ascending order",
        "in increasing order", "go upward", "climb", "climbs", "keep rising",
        "are played in ascending order", "are played in increasing order",
        "keep increasing", "ascending order", "increasing order", "are in ascending order",
        "go in ascending order", "must go up", "must increase", "must rise")
    add("TREND", "<", "go down", "goes down", "decrease", "decreases", "fall", "falls",
        "descend", "descends", "are decreasing", "are descending", "is decreasing",
        "in descending order", "in decreasing order", "drop", "drops", "keep falling",
        "are played in descending order", "are played in decreasing order",
        "descending order", "decreasing order", "are in descending order",
        "go in descending order", "must go down", "must decrease", "must fall")
    add("TREND", ">=", "never go down", "never goes down", "never decrease",
        "never decreases", "do not decrease", "does not decrease", "never fall")
    add("TREND", "<=", "never go up", "never goes up", "never increase", "never increases",
        "do not increase", "does not increase", "never rise")
    add("WITHIN", None, "within", "at most a distance of", "no further than")
    add("OFF", None, "away from", "of", "from", "apart from")
    add("STEP", None, "rank", "ranks", "step", "steps", "point", "points", "higher rank")
    add("TRUE", None, "every card is accepted", "any card is accepted",
        "any card may be played", "any card can be played", "all cards are accepted")
    add("ANYTHING", None, "any card", "anything", "anything goes", "every card", "all cards",
        "any card at all", "everything", "any")
    add("EXCEPT", None, "except", "but", "other than", "apart from", "besides", "except for",
        "but not", "excluding", "save")
    add("FALSE", None, "no card is accepted", "no card may be played",
        "nothing is accepted", "no card can be played")
    add("NOTPLAYABLE", None, "may not be played", "cannot be played", "must not be played",
        "are not allowed", "is not allowed", "are forbidden", "is forbidden", "may not come",
        "cannot come", "must not come", "may not be", "cannot be", "must not be",
        "are never played", "can never be played", "may never be played")
    add("ISNEITHER", None, "is neither", "must be neither", "are neither", "be neither",
        "should be neither", "has to be neither", "was neither")
    add("DIFFERIN", None, "differs in", "differ in", "must differ in", "is different in",
        "are different in", "must be different in", "varies in")
    add("BY", None, "by")
    add("LEAD", None, "a card may be played when", "a card can be played when",
        "a card is accepted when", "a card is accepted if", "a card may be played if",
        "a card can be played if", "cards may be played when", "the rule is",
        "the secret rule is", "rule", "the rule", "my guess is", "i guess", "i think",
        "i think that", "guess", "the rule is that", "a card is right when",
        "a card is correct when", "a card is legal when", "a card is legal if",
        "a play is legal when", "a play is correct if", "the card is accepted if",
        "the card is accepted when", "play so that", "the law is", "law", "so that",
        "such that", "cards are accepted when", "cards are accepted if", "accept",
        "accept a card if", "accept a card when", "the dealer accepts a card when",
        "valid cards are", "legal cards are", "a valid card is", "a legal card is",
        "it is correct when", "a card is valid when", "a card is valid if")
    add("ONLY", None, "only", "always", "just", "simply", "exactly", "each time",
        "every time", "each turn", "every turn", "each play", "exclusively", "all", "legally",
        "correctly", "has to", "please", "any", "each", "every")
    add("REL", None, "that", "which", "who", "whose")
    add("ART", None, "a", "an", "the")
    add("INDEF", None, "a", "an")
    add("PLAYABLE", None, "may be played", "can be played", "is allowed", "are allowed",
        "is accepted", "are accepted", "is legal", "are legal", "is valid", "are valid",
        "is right", "are right", "is correct", "are correct", "is playable", "are playable",
        "is fine", "are fine", "is ok", "are ok", "is good", "are good", "may follow",
        "can follow", "is always right", "are always right", "are always accepted",
        "is always accepted", "may be played next", "are welcome")
    add("ITS", None, "it", "its")
    add("ROWCOUNT", 2, "two", "2")
    add("ROWCOUNT", 3, "three", "3")
    add("THEREFORE", None, "so", "and so", "so that")
    add("GIVES", None, "gives")
    add("ANYELSE", None, "anything else gives")
    return out


def _lexicon() -> dict[tuple[str, ...], list[tuple[str, object]]]:
    table: dict[tuple[str, ...], list[tuple[str, object]]] = {}
    for phrase, kind, value in _entries():
        key = tuple(_raw_words(phrase))
        entry = (kind, value)
        if entry not in table.setdefault(key, []):
            table[key].append(entry)
    return table


_RAW: Final = re.compile(
    r"(?P<card>(?:10|[2-9])[shdc](?![a-z])|(?:10|[2-9]|[ajqk])[♠♥♦♣♤♡♢♧])"
    r"|(?P<num>\d+)"
    r"|(?P<word>[a-z]+)"
    r"|(?P<poss>'s(?![a-z])|')"
    r"|(?P<op>==|!=|<=|>=|->|\.\.\.|\.\.|[<>=+*%(){}\[\],;:.?!→…/≠≤≥♠♥♦♣♤♡♢♧-])"
    r"|(?P<space>\s+)"
)
_CONTRACTIONS: Final = (("can't", "cannot"), ("won't", "will not"), ("n't", " not"),
                        ("it's", "it is"), ("’", "'"), ("‘", "'"), ("colour", "color"),
                        ("“", ""), ("”", ""), ('"', ""))


def _raw_words(text: str) -> list[str]:
    """The raw tokens of a text: lowercase words, numbers, card codes, marks."""
    low = text.lower()
    for old, new in _CONTRACTIONS:
        low = low.replace(old, new)
    low = re.sub(r"(?<=[a-z])-(?=[a-z])", " ", low)
    out: list[str] = []
    i = 0
    while i < len(low):
        m = _RAW.match(low, i)
        if m is None:
            out.append(low[i])
            i += 1
            continue
        if m.lastgroup != "space":
            out.append(m.group())
        i = m.end()
    return out


@functools.cache
def _tables() -> tuple[dict[tuple[str, ...], list[tuple[str, object]]], int]:
    """The lexicon and its longest phrase, built on first use (not at import:
    the page imports the rule package while it boots)."""
    lexicon = _lexicon()
    return lexicon, max(len(k) for k in lexicon)
_SUIT_CODES: Final = {"s": "S", "h": "H", "d": "D", "c": "C", "♠": "S", "♥": "H", "♦": "D",
                      "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}


def lattice(text: str) -> tuple[list[str], list[list[tuple[int, Tok]]]]:
    """The raw words of ``text`` and, at each word, every lexicon entry that
    starts there as ``(length in words, token)``: the parser chooses among
    them, so "the last card" can be one token or three."""
    words = _raw_words(text)
    lexicon, longest = _tables()
    starts: list[list[tuple[int, Tok]]] = []
    for i, w in enumerate(words):
        here: list[tuple[int, Tok]] = []
        for n in range(min(longest, len(words) - i), 0, -1):
            key = tuple(words[i:i + n])
            for kind, value in lexicon.get(key, ()):
                here.append((n, Tok(kind, value, " ".join(key))))
        if w.isdigit():
            here.append((1, Tok("INT", int(w), w)))
        elif w in (",", ";", ":", "(", ")", ".", "{", "}", "[", "]", "?", "!"):
            here.append((1, Tok(w, None, w)))
        elif (m := _RAW.fullmatch(w)) is not None and m.lastgroup == "card":
            here.append((1, Tok("CARD", Card.parse(w[:-1].upper() + _SUIT_CODES[w[-1]]), w)))
        starts.append(here)
    return words, starts


# ---------------------------------------------------------------- tree helpers

#: A comparison whose other side was left out ("same suit", "higher"), filled
#: in from the clause beside it or with the last card.
HOLE: Final = Ref(-1)
#: "it": a card named before, found once the sentence is read (:func:`_resolve_it`).
IT: Final = Ref(-3)


def _type(node: Node) -> str:
    if isinstance(node, Ref):
        return "card"
    if isinstance(node, Pos | Num | Neg | Arith):
        return "int"
    if isinstance(node, Attr):
        return ATTRIBUTES[node.name]
    if isinstance(node, SuitLit):
        return "suit"
    if isinstance(node, ColorLit):
        return "color"
    if isinstance(node, CardLit):
        return "card"
    if isinstance(node, Call):
        if node.name in ("next", "pick"):
            lst = node.args[1]
            assert isinstance(lst, ListLit)
            return _type(lst.items[0])
        return "int"
    if isinstance(node, If | Case):
        return _type(node.other)
    return "bool"


def _int(node: Node) -> Node | None:
    """A value as a number: a card means its rank."""
    t = _type(node)
    if t == "int":
        return node
    if t == "card" and isinstance(node, Ref):
        return Attr(node, "rank")
    return None


def _subst(node: Node, old: Node, new: Node) -> Node:
    if node == old:
        return new
    changes: dict[str, object] = {}
    for f in fields(node):
        if f.name == "at":
            continue
        value = getattr(node, f.name)
        if isinstance(value, Node):
            changes[f.name] = _subst(value, old, new)
        elif isinstance(value, tuple):
            changes[f.name] = tuple(
                tuple(_subst(x, old, new) if isinstance(x, Node) else x for x in v)
                if isinstance(v, tuple) else (_subst(v, old, new) if isinstance(v, Node) else v)
                for v in value)
    return replace(node, **changes) if changes else node  # type: ignore[arg-type]


def _has_hole(node: Node) -> bool:
    if node == HOLE:
        return True
    return any(_has_hole(c) for c in node.children())


def _refs(node: Node) -> Iterator[Ref]:
    if isinstance(node, Ref) and node.k >= 0:
        yield node
    for c in node.children():
        yield from _refs(c)


def _adj(subject: Node, adj: str, negated: bool = False) -> Node | None:
    """``subject`` is ``adj`` (an attribute, color, suit noun or rank code)."""
    t = _type(subject)
    node: Node | None = None
    if t == "card":
        node = Is(subject, "prime", True) if adj == "notprime" else Is(subject, adj)
    elif t == "int":
        if adj in ("even", "odd"):
            node = Is(subject, adj)
        elif isinstance(subject, Attr) and adj in ("prime", "notprime", "face", "numeral"):
            node = _adj(subject.obj, adj)
        elif adj in ("prime", "notprime"):
            node = Is(subject, "prime", adj == "notprime")
    elif t == "suit" and adj in ("red", "black"):
        node = Is(subject, adj)
    elif t == "suit" and adj in {s.noun for s in Suit}:
        node = Cmp("==", subject, SuitLit(Suit[adj.upper()]))
    elif t == "color" and adj in ("red", "black"):
        node = Cmp("==", subject, ColorLit(Color(adj)))
    if node is None:
        return None
    return Not(node) if negated else node


def _same_card(subject: Node, value: Node, op: str) -> Node | None:
    """``subject`` is (or is not) the very card ``value``."""
    if isinstance(subject, Ref) and isinstance(value, Ref) and subject.k >= 0:
        return Cmp(op, subject, value)
    return None


def _equal(subject: Node, value: Node, op: str = "==") -> Node | None:
    """``subject op value`` with a card read as its rank against a number."""
    ts, tv = _type(subject), _type(value)
    if op in ("==", "!=") and ts == tv and ts in ("suit", "color", "int"):
        return Cmp(op, subject, value)
    if op in ("==", "!=") and ts == "card" and tv in ("suit", "color"):
        lit = value
        if isinstance(lit, SuitLit):
            return Is(subject, lit.suit.noun, op == "!=")
        if isinstance(lit, ColorLit):
            return Is(subject, lit.color.value, op == "!=")
        return Cmp(op, Attr(subject, "suit" if tv == "suit" else "color"), value)
    if op in ("==", "!=") and ts == tv == "card" and any(
            isinstance(x, CardLit | If | Case) for x in (subject, value)):
        return Cmp(op, subject, value)
    if op in ("==", "!=") and ts in ("suit", "color") and tv == "card" and isinstance(
            value, Ref):
        return Cmp(op, subject, Attr(value, ts))
    a, b = _int(subject), _int(value)
    if a is None or b is None:
        return None
    return Cmp(op, a, b)


def _same(subject: Node, attr: str, other: Node, same: bool) -> Node | None:
    """``subject`` has the same (or a different) ``attr`` as ``other``."""
    if _type(subject) != "card" or _type(other) != "card" or not isinstance(other, Ref):
        return None
    op = "==" if same else "!="
    if attr == "parity":
        return Cmp(op, Attr(subject, "even"), Attr(other, "even"))
    return Cmp(op, Attr(subject, attr), Attr(other, attr))


# ---------------------------------------------------------------- clauses with gaps


@dataclass(frozen=True, slots=True)
class Item:
    """One clause of an and/or list: whole (``node``) or a predicate waiting
    for the subject of the clause before it (``pred``)."""

    node: Node | None
    pred: Callable[[Node], Node | None] | None = None
    subject: Node | None = None
    #: a bare kind of card ("aces", "red"), with no verb: "A and B" may be a union
    kind: bool = False
    #: for a clause said with "not", the clause without it
    positive: Node | None = None
    #: a kind of card named in the plural ("kings", "red cards"): "A and B" is a union
    plural: bool = False


Pred = Callable[[Node], "Node | None"]
NodeRes = list[tuple[Node, int]]
PredRes = list[tuple[Pred, int]]
ItemRes = list[tuple["Item", int]]
T = TypeVar("T")


class _TooMuch(Exception):
    """The text has too many readings to explore."""


class _Parser:
    """Every reading of a token lattice (backtracking, memoised by position)."""

    def __init__(self, words: list[str], starts: list[list[tuple[int, Tok]]]) -> None:
        self.words = words
        self.starts = starts
        self.n = len(words)
        self.memo: dict[tuple[str, int], list[tuple[object, int]]] = {}
        self.items_memo: dict[tuple[str, int], list[tuple[list[Item], list[str], int]]] = {}
        self.work = 0
        self.furthest = 0

    # -- terminals

    def tok(self, i: int, kind: str, value: object = None) -> list[tuple[Tok, int]]:
        """Every token of ``kind`` (and ``value`` if given) starting at ``i``."""
        self.work += 1
        if self.work > MAX_WORK:
            raise _TooMuch
        if i >= self.n:
            return []
        out = [(t, i + k) for k, t in self.starts[i]
               if t.kind == kind and (value is None or t.value == value)]
        if out:
            self.furthest = max(self.furthest, max(j for _, j in out))
        return out

    def ends(self, i: int, kind: str, value: object = None) -> list[int]:
        return [j for _, j in self.tok(i, kind, value)]

    def opt(self, i: int, *kinds: str) -> list[int]:
        """Positions after skipping any run of optional ``kinds`` tokens."""
        seen = {i}
        todo = [i]
        while todo:
            k = todo.pop()
            for kind in kinds:
                for j in self.ends(k, kind):
                    if j not in seen:
                        seen.add(j)
                        todo.append(j)
        return sorted(seen)

    def memoised(self, name: str, i: int, fn: Callable[[int], list[tuple[T, int]]]
                 ) -> list[tuple[T, int]]:
        """``fn(i)``, computed once per position (a rule that calls itself at
        the same position gets no readings: no left recursion)."""
        key = (name, i)
        if key not in self.memo:
            self.memo[key] = []
            self.memo[key] = cast(list[tuple[object, int]], _dedupe(fn(i)))
        return cast(list[tuple[T, int]], self.memo[key])

    # -- sentences

    def sentences(self, i: int) -> NodeRes:
        """One or more sentences (joined by "and"); the whole text must be used."""
        out: NodeRes = []
        for a in self.opt(i, "LEAD", "ONLY", "THEREFORE", ":"):
            for node, j in self.body(a):
                for k in self.opt(j, ".", "!", "?", "ONLY", "GLOSS", ","):
                    out.append((node, k))
                    for k2 in self.opt(k, ".", ";"):
                        if k2 == k:
                            continue
                        for more, m in self.sentences(k2):
                            assert isinstance(more, Node)
                            if not _otherwise_of_all(node, more):
                                out.append((_and(_as_node(node), more), m))
        return out

    def body(self, i: int) -> NodeRes:
        return self.memoised("body", i, self._body)

    def _body(self, i: int) -> NodeRes:
        out: NodeRes = []
        out += self.if_chain(i)
        out += self.postfix_if(i)
        out += self.case_chain(i)
        out += [(BoolLit(True), j) for j in self.ends(i, "TRUE") + self.ends(i, "ANYTHING")]
        out += [(BoolLit(False), j) for j in self.ends(i, "FALSE")]
        out += self.expr(i)
        return out

    def sep(self, i: int) -> list[int]:
        return self.opt(i, ",", ";", ".", ":", "THEN")

    def if_chain(self, i: int) -> NodeRes:
        out: NodeRes = []
        for _, a in self.tok(i, "IF"):
            for cond, b in self.expr(a):
                for c in self.sep(b):
                    for c2 in self.opt(c, "PLAY"):
                        if c2 == b and not (self.ends(b, "REF") or self.ends(b, "ITS")):
                            continue  # "if A B" only when B starts with its subject
                        for then, d in self.expr(c2):
                            arm = (cond, then)
                            found = self._if_rest(d, [arm])
                            out += found
                            if c2 != c or self._elliptic(c2):
                                out += [(x, j) for n, j in found
                                        if (x := _on_the_table(n)) is not None]
        return out

    def _if_rest(self, d: int, arms: list[tuple[Node, Node]]) -> NodeRes:
        out: NodeRes = []
        built = tuple(arms)
        out.append((If(built, BoolLit(True)), d))
        for e in self.sep(d):
            for f in self.ends(e, "OTHERWISE"):
                for g in self.opt(f, ",", "PLAY"):
                    for other, h in self.branch(g):
                        out.append((If(built, other), h))
            for f in self.ends(e, "IFINSTEAD") + (self.ends(e, "IF") if e != d else []):
                for cond, g in self.expr(f):
                    for g2 in self.sep(g):
                        for g3 in self.opt(g2, "PLAY"):
                            if g3 == g:
                                continue
                            for then, h in self.expr(g3):
                                if len(arms) < 8:
                                    out += self._if_rest(h, [*arms, (cond, then)])
        return out

    def _elliptic(self, i: int) -> bool:
        """Whether a clause at ``i`` leaves out its subject ("black", "a
        higher card", "is odd"), as a command to the player does."""
        if any(self.ends(i, k) for k in ("TRUE", "FALSE", "ANYTHING", "REF", "ITS", "NOTTRUE")):
            return False
        starts = ("INDEF", "CMP", "HAS", "SAME", "DIFFERENT", "ONEOF", "BETWEEN",
                  "IS", "ISNOT", "ONLY")
        if any(self.ends(i, k) for k in starts):
            return True
        return any(not (self.ends(j, "IS") or self.ends(j, "ISNOT"))
                   for k in ("SUIT", "NUM", "ADJ") for j in self.ends(i, k))

    def branch(self, i: int) -> NodeRes:
        """What follows "otherwise": a clause, or "(play) anything"."""
        return self.expr(i) + [(BoolLit(True), j) for j in self.ends(i, "ANYTHING")]

    def postfix_if(self, i: int) -> NodeRes:
        """"play a red card if the last card was odd, otherwise black";
        "... unless the last card was a face card, in which case ..."."""
        out: NodeRes = []
        for then, a in self.expr(i):
            for b in self.opt(a, ","):
                for c in self.ends(b, "IF"):
                    for cond0, d in self.expr(c):
                        for cond in _it_options(cond0, then):
                            out.append((If(((cond, _as_node(then)),), BoolLit(True)), d))
                            for other, h in self._otherwise(d, "OTHERWISE", then):
                                out.append((If(((cond, _as_node(then)),), other), h))
                for c in self.ends(b, "UNLESS"):
                    for cond0, d in self.expr(c):
                        for cond in _it_options(cond0, then):
                            out.append((If(((cond, BoolLit(True)),), _as_node(then)), d))
                            for other, h in self._otherwise(d, "INWHICHCASE", then):
                                out.append((If(((cond, other),), _as_node(then)), h))
        return out

    def _otherwise(self, d: int, kind: str, main: object) -> list[tuple[Node, int]]:
        """The branch after "otherwise" / "in which case"; "it" there is the
        subject of the main clause."""
        out: list[tuple[Node, int]] = []
        for e in self.sep(d):
            for f in self.ends(e, kind):
                for g in self.opt(f, ",", "PLAY"):
                    for other, h in self.branch(g):
                        out.append((_it_is(other, main), h))
        return out

    def case_chain(self, i: int) -> NodeRes:
        out: NodeRes = []
        for _, a in self.tok(i, "DEPENDING"):
            for subject, b in self.noun(a):
                assert isinstance(subject, Node)
                for c in self.opt(b, ":", ","):
                    out += self._case_arms(c, subject, [])
        return out

    def _case_arms(self, i: int, subject: Node, arms: list[tuple[Node, Node]]) -> NodeRes:
        out: NodeRes = []
        for a in self.ends(i, "WHENITIS"):
            for lit, b in self.literal(a):
                assert isinstance(lit, Node)
                for c in self.opt(b, ",", "THEN"):
                    for then, d in self.expr(c):
                        assert isinstance(then, Node)
                        for e in self.sep(d):
                            if e != d and len(arms) < 13:
                                out += self._case_arms(e, subject, [*arms, (lit, then)])
                            for f in self.ends(e, "OTHERWISE"):
                                for g in self.opt(f, ","):
                                    for other, h in self.expr(g):
                                        assert isinstance(other, Node)
                                        out.append((Case(subject, (*arms, (lit, then)),
                                                         other), h))
        return out

    # -- and / or

    def expr(self, i: int) -> NodeRes:
        return self.memoised("expr", i, self._expr)

    def _expr(self, i: int) -> NodeRes:
        out: NodeRes = []
        for node, j in self.seq(i):
            out.append((node, j))
            for k in self.opt(j, ","):
                for m in self.ends(k, "IFF"):
                    for other, e in self.seq(m):
                        out.append((Cmp("==", node, other), e))
        return out

    def seq(self, i: int) -> NodeRes:
        return self.memoised("seq", i, self._seq)

    def _seq(self, i: int) -> NodeRes:
        """Items joined by and/or/nor (with or without commas), read into every
        grouping the words allow (commas bind less than bare words)."""
        out: NodeRes = []
        for lead, a in [("", i)] + [(t.kind, j) for kind in ("EITHER", "BOTH", "NEITHER")
                                    for t, j in self.tok(i, kind)]:
            for items, conns, j in self._items(a):
                for node in _group(items, conns, lead):
                    out.append((node, j))
                    if lead == "EITHER" and isinstance(node, Or) and len(node.items) == 2:
                        for k in self.opt(j, ","):
                            for m in self.ends(k, "BNB"):
                                out.append((Cmp("!=", node.items[0], node.items[1]), m))
                first = items[0]
                if (first.positive is not None and not lead and len(items) > 1
                        and all(it.node is None and not isinstance(it.pred, _Negated)
                                for it in items[1:])):
                    # "the card is not red or odd": also "not (red or odd)"
                    unsaid = Item(first.positive, None, first.subject)
                    for node in _group([unsaid, *items[1:]], conns, lead):
                        out.append((Not(node), j))
        return out

    def _items(self, i: int) -> list[tuple[list[Item], list[str], int]]:
        key = ("items", i)
        if key in self.items_memo:
            return self.items_memo[key]
        self.memo[key] = []
        self.items_memo[key] = []
        out: list[tuple[list[Item], list[str], int]] = []
        for item, j in self.item(i):
            assert isinstance(item, Item)
            out.append(([item], [], j))
            for comma in self.opt(j, ","):
                c = "," if comma != j else ""
                if comma == j and self.ends(j, "ORCMP") and self._after_number(j):
                    continue  # "6 or lower" is one value, not "6" or "lower"
                for kind in ("AND", "OR", "NOR", ","):
                    if kind == "," and comma != j:
                        continue
                    for k in self.ends(comma if kind != "," else j, kind):
                        for k2 in self.opt(k, "ONLY"):
                            for rest, conns, e in self._items(k2):
                                if len(rest) >= MAX_CLAUSES:
                                    continue
                                conn = "LIST" if kind == "," else c + kind
                                out.append(([item, *rest], [conn, *conns], e))
                                if len(out) > 4000:
                                    raise _TooMuch
        self.items_memo[key] = out
        return out

    def _after_number(self, j: int) -> bool:
        """Whether the word before ``j`` is a number ("6", "six", "king")."""
        return j > 0 and (self.words[j - 1].isdigit() or any(
            t.kind == "NUM" and k == 1 for k, t in self.starts[j - 1]))

    def item(self, i: int) -> ItemRes:
        return self.memoised("item", i, self._item)

    def _item(self, i: int) -> ItemRes:
        out: ItemRes = []
        for a in self.ends(i, "("):
            for node, b in self.body(a):
                for b2 in self.opt(b, "ONLY", "GLOSS"):
                    for c in self.ends(b2, ")"):
                        out.append((Item(node), c))
        out += [(Item(BoolLit(True)), j) for j in self.ends(i, "TRUE")]
        for a in self.opt(i, "PLAY"):
            for b in self.ends(a, "ANYTHING"):
                for c in self.opt(b, "PLAYABLE", "ONLY"):
                    for d in self.ends(c, "EXCEPT"):
                        for pred, e in self.desc(d):
                            out.append((Item(None, _neg(pred, True)), e))
        out += [(Item(BoolLit(False)), j) for j in self.ends(i, "FALSE")]
        for a in self.ends(i, "NOTTRUE"):
            for inner, b in self.item(a):
                assert isinstance(inner, Item)
                if inner.node is not None:
                    out.append((Item(Not(inner.node)), b))
        for a in self.opt(i, "ONLY"):
            for subject, b in self.noun(a):
                assert isinstance(subject, Node)
                if isinstance(subject, Num | SuitLit | ColorLit | CardLit) and not (
                        self.ends(b, "IS") or self.ends(b, "ISNOT")):
                    continue
                for _, b2 in self.tok(b, "ISNEITHER"):
                    for p1, c1 in self._after_is(b2) + self._equality(b2):
                        for c2 in self.ends(c1, "NOR"):
                            for p2, c3 in self._after_is(c2) + self._equality(c2):
                                n1, n2 = _as_pred(p1)(subject), _as_pred(p2)(subject)
                                if n1 is not None and n2 is not None:
                                    out.append((Item(Not(Or((n1, n2))), None, subject), c3))
                for pred, c in self.predicate(b):
                    said = pred(subject)
                    if said is not None:
                        positive = pred.positive(subject) if isinstance(pred, _Negated) else None
                        out.append((Item(said, None, subject, positive=positive), c))
            heads = self.opt(a, "ONLY")
            verb = any(self.ends(x, k) for x in heads
                       for k in ("IS", "ISNOT", "HAS", "HASNOT", "CMP"))
            verb = verb or not any(self.ends(x, k) for x in heads
                                   for k in ("ADJ", "SUIT", "NUM", "ART"))
            for pred, c in self.predicate(a) + self.desc(a):
                kind = not verb and _is_kind(pred)
                plural = kind and self.words[c - 1] in _plurals()
                out.append((Item(None, pred, None, kind, plural=plural), c))
            for _, b in self.tok(a, "NO"):
                for pred, c in self.desc(b):
                    out.append((Item(None, _neg(pred, True)), c))
            for kind_, b in self.desc(a):
                if self.words[b - 1] not in ("cards", "card") or not any(
                        self.ends(b, k) for k in ("IS", "ISNOT")):
                    continue  # "red cards must be odd", not "diamonds is ..."
                for pred, c in self.predicate(b):
                    implied = _imply_same(kind_, pred)
                    if implied is not None:
                        out.append((Item(implied), c))
            for pred, b in self.desc(a):
                for c in self.ends(b, "PLAYABLE"):
                    out.append((Item(None, pred), c))
            for b in self.ends(a, "PLAY"):
                for pred, c in self.desc(b):
                    out.append((Item(None, pred), c))
                for pred, c in self.predicate(b):
                    out.append((Item(None, pred), c))
            out += [(Item(node), j) for node, j in self.idiom(a)]
        return out

    # -- idioms of the game

    def idiom(self, i: int) -> NodeRes:
        out: NodeRes = []
        out += self.alternate(i)
        out += self.no_run(i)
        out += self.follow(i)
        out += self.trend(i)
        out += self.pair_same(i)
        out += self.suit_order(i)
        out += self.coprime(i)
        return out

    def coprime(self, i: int) -> NodeRes:
        """"the card's rank and the last card's rank have no common divisor greater
        than 1", "the last two ranks are coprime"."""
        out: NodeRes = []
        lists = self._listed(i) + [(list(_group_values(t.value)), j)
                                   for t, j in self.tok(i, "LASTNATTR")]
        for terms, a in lists:
            nums = [_int(x) for x in terms]
            if any(x is None for x in nums):
                continue
            for t, b in self.tok(a, "COPRIME"):
                gcd = Call("gcd", tuple(_as_node(x) for x in nums))
                out.append((Cmp("==" if t.value else "!=", gcd, Num(1)), b))
        return out

    def _pair(self, i: int) -> list[tuple[str, int]]:
        """An attribute with two values: "colors", "red and black", "odd and even"."""
        out: list[tuple[str, int]] = []
        for t, j in self.tok(i, "ATTR"):
            if t.value in ("color", "parity"):
                out.append((str(t.value), j))
        pairs = {frozenset(("red", "black")): "color", frozenset(("odd", "even")): "parity",
                 frozenset(("face", "numeral")): "face",
                 frozenset(("prime", "notprime")): "prime"}
        for a in self.opt(i, "ART"):
            for t1, b in self.tok(a, "ADJ"):
                for c in self.opt(b, "CARDN"):
                    for sep in ("AND", "OR", "TO"):
                        for d in self.ends(c, sep):
                            for d2 in self.opt(d, "ART"):
                                for t2, e in self.tok(d2, "ADJ"):
                                    key = frozenset((str(t1.value), str(t2.value)))
                                    if key in pairs:
                                        for f in self.opt(e, "CARDN", "ATTR"):
                                            out.append((pairs[key], f))
        return out

    def _alternation(self, attr: str) -> Node:
        if attr == "color":
            return Cmp("!=", Attr(Ref(0), "color"), Attr(Ref(1), "color"))
        if attr == "parity":
            return Cmp("!=", Attr(Ref(0), "even"), Attr(Ref(1), "even"))
        return Cmp("!=", Attr(Ref(0), attr), Attr(Ref(1), attr))

    def alternate(self, i: int) -> NodeRes:
        out: NodeRes = []
        for a in self.opt(i, "PLAY", "ONLY", "ART"):
            for b in self.ends(a, "ALTERNATE"):
                for b2 in self.opt(b, "ART"):
                    for attr, c in self._pair(b2):
                        out.append((self._alternation(attr), c))
        for a in self.opt(i, "ART", "ONLY", "PLAY"):
            for attr, b in self._pair(a):
                for b2 in self.opt(b, "IS"):
                    for c in self.ends(b2, "ALTERNATE"):
                        out.append((self._alternation(attr), c))
                        for again, d in self._pair(c):  # "colors alternate between red and black"
                            if again == attr:
                                out.append((self._alternation(attr), d))
                for c in self.ends(b, "IS"):
                    for d in self.ends(c, "ALTERNATE"):
                        out.append((self._alternation(attr), d))
        return out

    def no_run(self, i: int) -> NodeRes:
        """"no two face cards in a row", "never three reds in a row",
        "no two consecutive cards of the same suit"."""
        out: NodeRes = []
        for a in [i, *self.ends(i, "NO")]:
            for t, b in self.tok(a, "ROWCOUNT"):
                count = _tok_int(t)
                for c in self.opt(b, "CONSECUTIVE", "ART"):
                    runs = self.desc(c) + [x for d0 in self.ends(c, "REF", 0)
                                           for x in self.predicate(d0)]
                    for fn, d0 in runs:
                        if a == i:  # "two kings may not be played in a row"
                            ends = [e for x in self.ends(d0, "NOTPLAYABLE")
                                    for e in self.ends(x, "INAROW")]
                        else:
                            ends = self.ends(d0, "INAROW") + ([d0] if c != b else [])
                        for e in ends:
                            nodes = [fn(Ref(k)) for k in range(count)]
                            whole = [x for x in nodes if x is not None and not _has_hole(x)]
                            if len(whole) < count:
                                out += self._same_run(nodes, count, e)
                                continue
                            out.append((Not(And(tuple(whole))), e))
        return out

    def _same_run(self, nodes: list[Node | None], count: int, e: int) -> NodeRes:
        """"no two cards of the same suit in a row": the hole is the card before."""
        out: NodeRes = []
        pairs: list[Node] = []
        for k in range(count - 1):
            node = nodes[k]
            if node is None or not _has_hole(node):
                return []
            pairs.append(_subst(node, HOLE, Ref(k + 1)))
        if isinstance(pairs[0], Cmp) and pairs[0].op == "==":
            out.append((Not(And(tuple(pairs))) if len(pairs) > 1 else Cmp(
                "!=", pairs[0].left, pairs[0].right), e))
        return out

    def follow(self, i: int) -> NodeRes:
        """"a red card must follow a black card", "after a face card play a
        numeral card", "a face card must be followed by a red card"."""
        out: list[tuple[Node | None, int]] = []
        for a in self.opt(i, "ONLY"):
            for _, b in self.tok(a, "AFTER"):
                for before, c in self.desc(b):
                    for d in self.opt(c, ",", "THEN"):
                        for e in self.opt(d, "PLAY", "ART"):
                            for then, f in self.desc(e):
                                out.append((self._imply(before, then, True), f))
                            for f0 in self.ends(e, "REF", 0):
                                for then, f in self.predicate(f0):
                                    out.append((self._imply(before, then, True), f))
            for b0 in self.opt(a, "PLAY"):
                for then, b in self.desc(b0):
                    for c in self.opt(b, "ONLY"):
                        for _, c2 in self.tok(c, "AFTER"):
                            for before, d in self.desc(c2):
                                out.append((self._imply(before, then, True), d))
            for then, b in self.desc(a):
                for t, c in self.tok(b, "FOLLOW"):
                    for before, d in self.desc(c):
                        out.append((self._imply(before, then, bool(t.value)), d))
            for _, b0 in self.tok(a, "NO"):
                for then, b in self.desc(b0):
                    for _, c in self.tok(b, "AFTER"):
                        for before, d in self.desc(c):
                            out.append((self._imply(before, then, False), d))
            for before, b in self.desc(a):
                for t, c in self.tok(b, "FOLLOWEDBY"):
                    for then, d in self.desc(c):
                        out.append((self._imply(before, then, bool(t.value)), d))
        return [(n, j) for n, j in out if n is not None]

    @staticmethod
    def _imply(before: object, then: object, positive: bool) -> Node | None:
        cond, conseq = _as_pred(before)(Ref(1)), _as_pred(then)(Ref(0))
        if cond is None or conseq is None or _has_hole(cond) or _has_hole(conseq):
            return None
        if positive:
            return If(((cond, conseq),), BoolLit(True))
        return Not(And((cond, conseq)))

    def pair_same(self, i: int) -> NodeRes:
        """"the card and the last card have the same color", "... differ in
        rank by at most 3"."""
        out: NodeRes = []
        for t1, a in self.tok(i, "REF"):
            for b in self.ends(a, "AND"):
                for t2, c in self.tok(b, "REF"):
                    first, second = Ref(_tok_int(t1)), Ref(_tok_int(t2))
                    if first == second:
                        continue
                    for pred, d in self._has(c) + self._after_is(c):
                        node = _as_pred(pred)(first)
                        if node is not None and _has_hole(node):
                            out.append((_subst(node, HOLE, second), d))
        return out

    def suit_order(self, i: int) -> NodeRes:
        """"suits follow the order hearts, clubs, diamonds, spades"."""
        out: NodeRes = []
        for a in self.opt(i, "ART", "ONLY", "PLAY"):
            for t, b in self.tok(a, "ATTR"):
                if t.value != "suit":
                    continue
                for c in self.opt(b, "IS", "ONLY"):
                    for d in self.ends(c, "FOLLOW", True) + self.ends(c, "HAS"):
                        for e in self.ends(d, "INCYCLE"):
                            for items, f in self._cycle(e):
                                node = _next_of(Ref(0), Ref(1), items)
                                if node is not None:
                                    out.append((node, f))
        return out

    def trend(self, i: int) -> NodeRes:
        """"ranks go up", "the cards must be in ascending order"."""
        out: NodeRes = []
        for a in self.opt(i, "ART", "ONLY", "PLAY"):
            starts = [a, *self.ends(a, "REF", 0)]
            for t, b in self.tok(a, "ATTR"):
                if t.value == "rank":
                    starts.append(b)
            for b in starts:
                for c in self.opt(b, "IS", "ONLY"):
                    for t, d in self.tok(c, "TREND"):
                        out.append((Cmp(str(t.value), Attr(Ref(0), "rank"),
                                        Attr(Ref(1), "rank")), d))
                        if t.value not in (">", "<"):
                            continue
                        for e in self.ends(d, "BY"):
                            for n, f in self.literal(e):
                                if isinstance(n, Num) and n.value > 0:
                                    sign = "+" if t.value == ">" else "-"
                                    out.append((Cmp("==", Attr(Ref(0), "rank"), Arith(
                                        sign, Attr(Ref(1), "rank"), n)), f))
        return out

    # -- predicates

    def desc(self, i: int) -> PredRes:
        """A kind of card ("a red face card", "hearts", "kings", "a card higher
        than the last"): a predicate on a card."""
        return self.memoised("desc", i, self._desc)

    def _desc(self, i: int) -> PredRes:
        out: PredRes = []
        for a in self.opt(i, "INDEF", "ONLY"):
            for preds, b in self._adjs(a, 0):
                out.append((_all(preds), b))
                for c in self.ends(b, "CARDN") + ([b] if self.ends(b, "HAS") else []):
                    out.append((_all(preds), c))
                    for pred, d in self._postmod(c):
                        out.append((_all([*preds, pred]), d))
            for t, c in self.tok(a, "CARDN"):
                if a != i or t.text not in ("one", "ones"):  # "one lower" is a number
                    out += self._postmod(c)
            for t, b in self.tok(a, "CMP"):
                if t.value in ("<", ">", "<=", ">="):
                    for c in self.ends(b, "CARDN"):
                        out.append((_p(lambda s, o=str(t.value): _equal(s, HOLE, o)), c))
        return out

    def _numbers(self, i: int) -> list[tuple[int, int]]:
        return [(_tok_int(t), j) for t, j in self.tok(i, "NUM") if t.text in _NUMBER_WORDS]

    def _postmod(self, i: int) -> PredRes:
        """What may follow "a card" to say which: "higher than the last",
        "of the same suit", "that is red" (a verb only after "that")."""
        out: PredRes = []
        for a in self.ends(i, "REL"):
            out += self.predicate(a)
            for t, b in self.tok(a, "ATTR"):  # "whose rank is at least 9"
                if t.value in ("rank", "suit", "color"):
                    for pred, c in self.predicate(b):
                        out.append((_p(lambda s, p=pred, at=str(t.value):
                                     _as_pred(p)(Attr(s, at)) if _type(s) == "card" else None), c))
        if any(self.ends(i, k) for k in _POSTMOD_STARTS):
            out += self.predicate(i)
        return out

    def _adjs(self, i: int, depth: int) -> list[tuple[list[Pred], int]]:
        out: list[tuple[list[Pred], int]] = []
        for pred, j in self._one_adj(i):
            out.append(([pred], j))
            if depth < 3:
                for rest, k in self._adjs(j, depth + 1):
                    out.append(([pred, *rest], k))
        return out

    def _one_adj(self, i: int) -> list[tuple[Pred, int]]:
        out: list[tuple[Pred, int]] = []
        for t, j in self.tok(i, "ADJ"):
            out.append((_adj_pred(str(t.value)), j))
        for t, j in self.tok(i, "SUIT"):
            out.append((_adj_pred(_suit_of(t).noun), j))
        for t, j in self.tok(i, "NUM"):
            if t.text != "one":
                out.append((_equal_to(_num(t)), j))
        for t, j in self.tok(i, "INT"):
            if 1 <= _tok_int(t) <= 13:
                out.append((_equal_to(_num(t)), j))
        return out

    def predicate(self, i: int) -> PredRes:
        return self.memoised("pred", i, self._predicate)

    def _predicate(self, i: int) -> PredRes:
        out: PredRes = []
        for a in self.opt(i, "ONLY"):
            for neg, b in [(False, x) for x in self.ends(a, "IS")] + [
                    (True, x) for x in self.ends(a, "ISNOT")]:
                for c in self.opt(b, "ONLY"):
                    out += [(_neg(p, neg), j) for p, j in self._after_is(c)]
                    out += [(_neg(p, neg), j) for p, j in self._equality(c)]
            out += self._after_is(a)
            out += self._has(a)
            out += self._leaves(a)
        return out

    def _equality(self, i: int) -> PredRes:
        """"is 7", "is the last card's rank plus 1", "is hearts"."""
        out: PredRes = []
        for value, j in self.noun(i):
            assert isinstance(value, Node)
            out.append((_p(lambda s, v=value: _equal(s, v)), j))
            if value not in (HOLE, IT) and not isinstance(value, Ref):
                # "is the last card's rank plus 1 or the last card's rank minus 1"
                for items, k in self._more_values(j, "OR", bare=True):
                    coll = SetLit((value, *items))
                    out.append((_p(lambda s, v=coll: _member(s, v, False)), k))
            if isinstance(value, Ref) and value != IT:
                out.append((_p(lambda s, v=value: _same_card(s, v, "==")), j))
            for t, k in self.tok(j, "ORCMP"):
                out.append((_p(lambda s, v=value, op=str(t.value): _equal(s, v, op)), k))
        for _, j in self.tok(i, "SAMECARD"):
            for value, k in self.noun(j):
                if isinstance(value, Ref | CardLit):
                    out.append((_p(lambda s, v=value: Cmp("==", s, v)
                                 if isinstance(s, Ref) else None), k))
        return out

    def _after_is(self, i: int) -> PredRes:
        """What may follow "is" (and also stand alone): adjectives, comparisons,
        lists, ranges, multiples, "the same suit as"."""
        out: PredRes = []
        for a in self.opt(i, "ART", "HAS"):
            for preds, b in self._adjs(a, 0):
                out.append((_all(preds), b))
                for c in self.ends(b, "CARDN"):
                    out.append((_all(preds), c))
        for t, a in self.tok(i, "CMP"):
            op = str(t.value)
            # "higher" may leave out what it compares with; "higher than" may not
            open_ = t.text.split()[-1] not in ("than", "to", "as", "from")
            for value, b in [*self.noun(a), *([(HOLE, a)] if open_ else [])]:
                out.append((_p(lambda s, v=value, o=op: _equal(s, v, o)), b))
                if op in ("==", "!=") and isinstance(value, Ref):
                    # "different from the last card": its rank, or another card
                    out.append((_p(lambda s, v=value, o=op: _same_card(s, v, o)), b))
                if op in ("==", "!=") and value != HOLE:
                    # "equal to a or to b", "different from a and from b"
                    for items, c in self._more_values(b, "OR" if op == "==" else "AND"):
                        alts = SetLit((value, *items))
                        out.append((_p(lambda s, v=alts, n=op == "!=": _member(s, v, n)), c))
            if op in ("==", "!="):  # "matches one of the last two cards"
                for t2, b in self.tok(a, "LASTN"):
                    g = cast(tuple[int, str], t2.value)
                    out.append((_p(lambda s, gg=g, o=op: _group_member(s, None, gg, o)), b))
                    for c in self.ends(b, "POSS"):  # "one of the last two cards' suits"
                        for t3, d in self.tok(c, "ATTR"):
                            out.append((_p(lambda s, gg=g, o=op, at=str(t3.value):
                                         _group_member(s, at, gg, o)), d))
            if op in ("==", "!="):  # "differs from both of the last two ranks"
                for t2, b in self.tok(a, "LASTNATTRQ"):
                    count, at, quant = cast(tuple[int, str, str], t2.value)
                    out.append((_p(lambda s, gg=(count, quant), o=op, at=at:
                                 _group_member(s, at, gg, o)), b))
        for a in self.ends(i, "ONEOF"):  # "is one of the last two ranks"
            for t2, b in self.tok(a, "LASTNATTR"):
                count, at = cast(tuple[int, str], t2.value)
                out.append((_p(lambda s, gg=(count, "one"), at=at:
                             _group_member(s, at, gg, "==")), b))
        for a in self.ends(i, "COPRIMEWITH"):
            for value, b in self.noun(a):
                out.append((_p(lambda s, v=value: _coprime(s, v)), b))
        for t, a in self.tok(i, "INT") + self.tok(i, "NUM"):
            step = _tok_int(t)
            for b in self.opt(a, "STEP"):
                for t2, c in self.tok(b, "CMP"):
                    if t2.value not in (">", "<"):
                        continue
                    sign = "+" if t2.value == ">" else "-"
                    for value, d in [*self.noun(c), (HOLE, c)]:
                        out.append((_p(lambda s, v=value, g=sign, n=step:
                                     _offset(s, v, g, n)), d))
        for a in self.ends(i, "WITHIN"):
            for t, b in self.tok(a, "INT") + self.tok(a, "NUM"):
                step = _tok_int(t)
                for c in self.opt(b, "STEP"):
                    for d in self.ends(c, "OFF"):
                        for value, e in self.noun(d):
                            out.append((_p(lambda s, v=value, n=step: _within(s, v, n)), e))
        for neg, kind in ((False, "ONEOF"), (True, "NOTONEOF")):
            for a in self.ends(i, kind):
                colls = self.collection(a)
                longest = max((b for _, b in colls), default=a)
                for coll, b in colls:  # a list takes every item it can: "one of 2, 3 and 5"
                    if b == longest:
                        out.append((_p(lambda s, c=coll, n=neg: _member(s, c, n)), b))
                for b in self.opt(a, "ART"):
                    for t, c in self.tok(b, "ADJ"):  # "one of the primes"
                        out.append((_neg(_adj_pred(str(t.value)), neg), c))
        for t, a in self.tok(i, "INT") + self.tok(i, "NUM"):
            for t2, b in self.tok(a, "ORCMP"):
                value = _num(t)
                out.append((_p(lambda s, v=value, o=str(t2.value): _equal(s, v, o)), b))
        for t, a in self.tok(i, "CMP"):  # "at most two away from the last card"
            for n, b in self.literal(a) + [(Num(v), b) for v, b in self._numbers(a)]:
                for c in self.opt(b, "STEP"):
                    for d in self.ends(c, "OFF"):
                        for value, e in self.noun(d):
                            if isinstance(n, Num):
                                out.append((_p(lambda s, v=value, o=str(t.value), m=n:
                                             _gap(s, v, o, m)), e))
        for a in self.ends(i, "FOLLOW", True):  # "comes after hearts in the order ..."
            for value, b in self.noun(a):
                for c in self.ends(b, "INCYCLE"):
                    for items, d in self._cycle(c):
                        out.append((_p(lambda s, v=value, it=tuple(items):
                                     _next_of(s, v, list(it))), d))
        for a in self.ends(i, "BETWEEN"):
            for lo, b in self.literal(a):
                for c in self.ends(b, "TO"):
                    for hi, d in self.literal(c):
                        for e in self.opt(d, "GLOSS"):
                            if isinstance(lo, Num) and isinstance(hi, Num):
                                rng = RangeLit(lo, hi)
                                out.append((_p(lambda s, c=rng: _member(s, c, False)), e))
        for a in self.ends(i, "MULTOF"):
            for value, b in self.literal(a):
                if isinstance(value, Num) and value.value > 0:
                    out.append((_p(lambda s, m=value: _remainder(s, m, Num(0), True)), b))
        out += self._has(i)
        for a in self.opt(i, "HAS", "ART"):
            for t, b0 in self.tok(a, "ATTR"):
                if t.value not in ("rank", "suit", "color"):
                    continue
                for b in self.opt(b0, "HAS"):
                    for pred, c in self._equality(b) + self._after_is(b):
                        out.append((_p(lambda s, p=pred, at=str(t.value):
                                     p(Attr(s, at)) if _type(s) == "card" else None), c))
        for a in self.ends(i, "DIFFERIN"):
            out += self._differ(a)
        return out

    def _differ(self, i: int) -> PredRes:
        """"differs in color from the last card", "differs in rank by at most 2
        from the last card"."""
        out: PredRes = []
        for t, a in self.tok(i, "ATTR"):
            attr = str(t.value)
            if attr not in ("rank", "suit", "color", "parity"):
                continue
            targets: list[tuple[Node, int]] = [(HOLE, a)]
            for b in self.ends(a, "AS") + self.ends(a, "OFF"):
                targets += [(v, c) for v, c in self.noun(b) if isinstance(v, Ref)]
            for value, c in targets:
                out.append((_p(lambda s, v=value, at=attr: _same(s, at, v, False)), c))
            if attr != "rank":
                continue
            for b in self.ends(a, "BY"):
                for t2, c in self.tok(b, "CMP"):
                    for n, d in self.literal(c):
                        if not isinstance(n, Num):
                            continue
                        ends: list[tuple[Node, int]] = [(HOLE, d)]
                        for e in self.ends(d, "AS") + self.ends(d, "OFF"):
                            ends += [(v, f) for v, f in self.noun(e) if isinstance(v, Ref)]
                        for value, f in ends:
                            out.append((_p(lambda s, v=value, o=str(t2.value), m=n:
                                         _gap(s, v, o, m)), f))
        return out

    def _has(self, i: int) -> PredRes:
        """"has the same suit as the last card", "a different color from ..."."""
        out: PredRes = []
        starts = [(True, x) for x in self.opt(i, "HAS", "IS", "ART")]
        starts += [(False, x) for x in self.ends(i, "HASNOT")]
        for a in self.opt(i, "IS"):
            starts += [(False, x) for x in self.ends(a, "ISNOT")]
        for positive, a in starts:
            for same, kind in ((True, "SAME"), (False, "DIFFERENT")):
                for b in self.ends(a, kind):
                    for attrs, c in self._attr_list(b):
                        targets: list[tuple[Node, int]] = [(HOLE, c)]
                        for d in self.ends(c, "AS") + self.ends(c, "CMP", "=="):
                            for value, e in self.noun(d):
                                assert isinstance(value, Node)
                                targets.append((value, e))
                        for value, e in targets:
                            out.append((_p(lambda s, v=value, at=attrs, sm=same == positive:
                                         _join_same(s, at, v, sm)), e))
                        for d in self.ends(c, "AS") + self.ends(c, "CMP", "=="):
                            for t, e in self.tok(d, "LASTN"):  # "as one of the last two"
                                g = cast(tuple[int, str], t.value)
                                if len(attrs) == 1:
                                    out.append((_p(
                                        lambda s, gg=g, at=attrs[0], sm=same == positive:
                                        _group_member(s, at, gg, "==" if sm else "!=")), e))
        return out

    def _attr_list(self, i: int) -> list[tuple[tuple[str, ...], int]]:
        out: list[tuple[tuple[str, ...], int]] = []
        for t, j in self.tok(i, "ATTR"):
            out.append(((str(t.value),), j))
            for kind in ("AND", "OR"):
                for k in self.ends(j, kind):
                    for k2 in self.opt(k, "SAME", "ART"):
                        for t2, m in self.tok(k2, "ATTR"):
                            out.append(((str(t.value), f"{kind}", str(t2.value)), m))
        return out

    def _leaves(self, i: int) -> PredRes:
        out: PredRes = []
        for t, a in self.tok(i, "LEAVES"):
            for r, b in self.literal(a):
                for c in self.ends(b, "WHENDIV"):
                    for m, d in self.literal(c):
                        if isinstance(r, Num) and isinstance(m, Num) and m.value > 0:
                            out.append((_p(lambda s, mm=m, rr=r, p=bool(t.value):
                                         _remainder(s, mm, rr, p)), d))
        return out

    # -- values

    def literal(self, i: int) -> NodeRes:
        out: NodeRes = []
        for t, j in self.tok(i, "INT"):
            out.append((Num(_tok_int(t)), j))
        for a in self.ends(i, "MINUS"):
            for t, j in self.tok(a, "INT"):
                out.append((Num(-_tok_int(t)), j))
        for t, j in self.tok(i, "NUM"):
            out.append((_num(t), j))
        for t, j in self.tok(i, "SUIT"):
            out.append((SuitLit(_suit_of(t)), j))
        for t, j in self.tok(i, "ADJ"):
            if t.value in ("red", "black"):
                out.append((ColorLit(Color(t.value)), j))
        for t, j in self.tok(i, "CARD"):
            assert isinstance(t.value, Card)
            out.append((CardLit(t.value), j))
        for a in self.opt(i, "ART"):
            for t, b in self.tok(a, "NUM") + self.tok(a, "INT"):
                rank = _tok_int(t)
                for c in self.ends(b, "HAS"):
                    for s, d in self.tok(c, "SUIT"):
                        if isinstance(rank, int) and 1 <= rank <= 13:
                            out.append((CardLit(Card(rank, _suit_of(s))), d))
        return out

    def collection(self, i: int) -> NodeRes:
        """A list of literals: "2, 3, 5 or 7", "{2, 3, 5}", "hearts and spades"."""
        out: NodeRes = []
        for a in self.opt(i, "{", "["):
            for items, b in self._lits(a, 0):
                close = self.ends(b, "}") + self.ends(b, "]") if a != i else [b]
                for c in close:
                    if items:
                        out.append((SetLit(tuple(items)), c))
        return out

    def _lits(self, i: int, depth: int) -> list[tuple[list[Node], int]]:
        out: list[tuple[list[Node], int]] = []
        for lit, j in self.literal(i):
            assert isinstance(lit, Node)
            out.append(([lit], j))
            if depth < 59:
                for k in self.ends(j, ",") + self.ends(j, "OR") + self.ends(j, "AND"):
                    for k2 in self.opt(k, "OR", "AND"):
                        for rest, m in self._lits(k2, depth + 1):
                            out.append(([lit, *rest], m))
        return out

    def noun(self, i: int) -> NodeRes:
        return self.memoised("noun", i, self._noun)

    def _noun(self, i: int) -> NodeRes:
        """A value, with arithmetic ("the card's rank plus the last card's rank")."""
        out: NodeRes = []
        for terms, ops, j in self._chain(i, 0):
            for node in _arith(terms, ops):
                out.append((node, j))
        return out

    def _chain(self, i: int, depth: int) -> list[tuple[list[Node], list[str], int]]:
        out: list[tuple[list[Node], list[str], int]] = []
        for term, j in self.term(i):
            assert isinstance(term, Node)
            out.append(([term], [], j))
            if depth > 6:
                continue
            for kind, op in (("PLUS", "+"), ("MINUS", "-"), ("TIMES", "*"), ("MOD", "%")):
                for k in self.ends(j, kind):
                    for rest, ops, m in self._chain(k, depth + 1):
                        out.append(([term, *rest], [op, *ops], m))
        return out

    def term(self, i: int) -> NodeRes:
        return self.memoised("term", i, self._term)

    def _term(self, i: int) -> NodeRes:
        out: NodeRes = []
        for base, j in self._primary(i):
            out.append((base, j))
            for k in self.ends(j, "DIVBY"):  # "the rank divided by 4, rounded down"
                for div, m in self.term(k):
                    for n in self.ends(m, "ROUNDDOWN"):
                        out += _quotient(base, div, n)
            for k in self.ends(j, "WRAPPED"):
                for k2 in self.opt(k, "GLOSS"):
                    num = _int(base)
                    if num is not None:
                        out.append((Call("wrap", (num,)), k2))
        return out

    def _primary(self, i: int) -> NodeRes:
        out: NodeRes = []
        for a in self.ends(i, "("):
            for node, b in self.noun(a):
                for c in self.ends(b, ")"):
                    out.append((node, c))
        for t, j in self.tok(i, "REF"):
            ref = Ref(_tok_int(t))
            out.append((ref, j))
            for k in self.ends(j, "POSS"):
                for t2, m in self.tok(k, "ATTR"):
                    if t2.value != "parity":
                        out.append((Attr(ref, str(t2.value)), m))
                for m in self.ends(k, "POSWORD"):
                    out.append((Pos() if ref.k == 0 else Arith("-", Pos(), Num(ref.k)), m))
        for a in self.opt(i, "ART"):
            for t, b in self.tok(a, "ATTR"):
                for c in self.ends(b, "HAS"):
                    for t2, d in self.tok(c, "REF"):
                        if t.value != "parity":
                            out.append((Attr(Ref(_tok_int(t2)), str(t.value)), d))
            for b in self.ends(a, "POSWORD"):
                out.append((Pos(), b))
            if a != i:
                for t, b in self.tok(a, "ATTR"):
                    if t.value != "parity" and not self.ends(b, "HAS"):
                        out.append((Attr(Ref(0), str(t.value)), b))
        for j in self.ends(i, "ITS"):
            out.append((IT, j))
            for t, k in self.tok(j, "ATTR"):
                if t.value != "parity":
                    out.append((Attr(IT, str(t.value)), k))
        out += [(Pos(), j) for j in self.ends(i, "POS")]
        out += self.literal(i)
        out += self._value_choice(i)
        for a in self.ends(i, "MINUS"):
            for node, b in self.term(a):
                num = _int(node)
                if num is not None:
                    out.append((Neg(num), b))
        for a in self.ends(i, "REMWHEN"):
            for x, b in self.noun(a):
                for c in self.ends(b, "DIVBY"):
                    for mod, d in self.term(c):
                        x_, m_ = _int(x), _int(mod)
                        if x_ is not None and m_ is not None:
                            out.append((Arith("%", x_, m_), d))
        for kind, name in (("SUMOF", "+"), ("MINOF", "min"), ("MAXOF", "max")):
            for a in self.ends(i, kind):
                for terms, b in self._listed(a):
                    nums = [_int(x) for x in terms]
                    if any(x is None for x in nums):
                        continue
                    if name == "+":
                        total: Node = _as_node(nums[0])
                        for addend in nums[1:]:
                            total = Arith("+", total, _as_node(addend))
                    else:
                        total = Call(name, tuple(_as_node(n) for n in nums))
                    out.append((total, b))
        for a in self.ends(i, "GCDOF"):
            groups = [(list(_group_values(t.value)), b) for t, b in self.tok(a, "LASTNATTR")]
            for terms, b in self._listed(a) + groups:
                nums = [_int(x) for x in terms]
                if all(x is not None for x in nums):
                    out.append((Call("gcd", tuple(_as_node(x) for x in nums)), b))
        for a in self.ends(i, "QUOTOF"):  # "the quotient of x divided by y (rounded down)"
            for x, b in self.noun(a):
                for c in self.ends(b, "DIVBY"):
                    for div, d in self.term(c):
                        for e in self.opt(d, "ROUNDDOWN"):
                            out += _quotient(x, div, e)
        for a in self.ends(i, "HALFOF"):  # "half of the rank, rounded down"
            for x, b in self.term(a):
                for c in self.ends(b, "ROUNDDOWN"):
                    out += _quotient(x, Num(2), c)
        for kind, name in (("SUMOF", "+"), ("MINOF", "min"), ("MAXOF", "max")):
            for a in self.ends(i, kind):  # "the sum of the last two ranks"
                for t, b in self.tok(a, "LASTNATTR"):
                    values = _group_values(t.value)
                    if _type(values[0]) != "int":
                        continue
                    total = values[0]
                    for v in values[1:]:
                        total = Arith("+", total, v)
                    out.append((total if name == "+" else Call(name, values), b))
        for a in self.ends(i, "ABSOF"):
            for x, b in self.term(a):
                num = _int(x)
                if num is not None:
                    out.append((Call("abs", (num,)), b))
        for a in self.ends(i, "DIFFOF"):
            for terms, b in self._listed(a):
                if len(terms) == 2:
                    left, right = _int(terms[0]), _int(terms[1])
                    if left is not None and right is not None:
                        out.append((Call("abs", (Arith("-", left, right),)), b))
        for a in self.ends(i, "ONEAFTER"):
            for x, b in self.term(a):
                for c in self.ends(b, "INCYCLE"):
                    for items, d in self._cycle(c):
                        out.append((Call("next", (_cycle_arg(x, items),
                                                  ListLit(tuple(items)))), d))
        for a in self.ends(i, "ENTRYFOR"):
            for x, b in self.term(a):
                for c in self.ends(b, "INSEQ"):
                    for items, d in self._lits(c, 0):
                        for e in self.opt(d, ",", "ELLIPSIS"):
                            if e != d:
                                num = _int(x)
                                period = _period(items)
                                if num is not None and period:
                                    out.append((Call("pick", (num, ListLit(tuple(period)))), e))
        return out

    def _value_choice(self, i: int) -> NodeRes:
        """"(if A then x, else y)" and "(depending on x: 1 gives a, anything
        else gives b)", as :mod:`eleusis.rules.english` writes them."""
        out: NodeRes = []
        for a in self.ends(i, "("):
            for b in self.ends(a, "IF"):
                out += self._value_arms(b, [])
            for b in self.ends(a, "DEPENDING"):
                for subject, c in self.noun(b):
                    for d in self.ends(c, ":"):
                        out += self._case_values(d, subject, [])
        return out

    def _value_arms(self, i: int, arms: list[tuple[Node, Node]]) -> NodeRes:
        out: NodeRes = []
        for cond, a in self.expr(i):
            for b in self.ends(a, "THEN"):
                for value, c in self.noun(b):
                    arm = (cond, value)
                    for d in self.ends(c, ","):
                        for e in self.ends(d, "IFINSTEAD"):
                            if len(arms) < 8:
                                out += self._value_arms(e, [*arms, arm])
                        for e in self.ends(d, "OTHERWISE"):
                            for other, f in self.noun(e):
                                for g in self.ends(f, ")"):
                                    out.append((If((*arms, arm), other), g))
        return out

    def _case_values(self, i: int, subject: Node, arms: list[tuple[Node, Node]]) -> NodeRes:
        out: NodeRes = []
        for lit, a in self.literal(i):
            for b in self.ends(a, "GIVES"):
                for value, c in self.noun(b):
                    arm = (lit, value)
                    for d in self.ends(c, ","):
                        if len(arms) < 13:
                            out += self._case_values(d, subject, [*arms, arm])
                        for e in self.ends(d, "ANYELSE"):
                            for other, f in self.noun(e):
                                for g in self.ends(f, ")"):
                                    out.append((Case(subject, (*arms, arm), other), g))
        return out

    def _listed(self, i: int) -> list[tuple[list[Node], int]]:
        """"a, b and c" (values)."""
        out: list[tuple[list[Node], int]] = []
        for first, j in self.term(i):
            assert isinstance(first, Node)
            for k in self.ends(j, "AND"):
                for last, m in self.term(k):
                    out.append(([first, last], m))
            for k in self.ends(j, ","):
                for rest, m in self._listed(k):
                    out.append(([first, *rest], m))
        return out

    def _more_values(self, i: int, conn: str, bare: bool = False
                     ) -> list[tuple[list[Node], int]]:
        """", or to b, or to c" (``conn`` "OR") or ", and from b" (``conn`` "AND"):
        the further items of a set that english() writes as a list of equalities
        (``bare``: "or b", without "to")."""
        out: list[tuple[list[Node], int]] = []
        for a in self.opt(i, ","):
            for b in self.ends(a, conn):
                for c in (self.opt(b, "AS") if bare else self.ends(b, "AS")):
                    for value, d in self.noun(c):
                        if value in (HOLE, IT) or (bare and isinstance(value, Ref)):
                            continue
                        out.append(([value], d))
                        if len(out) < 400:
                            for rest, e in self._more_values(d, conn, bare):
                                out.append(([value, *rest], e))
        return out

    def _cycle(self, i: int) -> list[tuple[list[Node], int]]:
        """"spades → hearts → diamonds → spades" (the first item repeated at
        the end, or not) or "spades, hearts, diamonds"."""
        out: list[tuple[list[Node], int]] = []
        for lit, j in self.literal(i):
            assert isinstance(lit, Node)
            out.append(([lit], j))
            for sep in ("ARROW", ","):
                for k in self.ends(j, sep):
                    for rest, m in self._cycle(k):
                        out.append(([lit, *rest], m))
        return out


# ---------------------------------------------------------------- builders


#: Subjects a predicate is tried on to tell two predicates apart.
_PROBES: Final = (Ref(0), Ref(2), Attr(Ref(0), "rank"), Attr(Ref(2), "rank"),
                  Attr(Ref(0), "suit"), Attr(Ref(0), "color"), Pos(),
                  Arith("+", Attr(Ref(0), "rank"), Num(1)))


def _signature(value: object) -> object:
    """A hashable key for a parse result: a predicate is known by what it
    says of a few probe subjects, an item by its node or predicate."""
    if isinstance(value, Item):
        return ("item", value.node, value.subject, value.kind, value.positive, value.plural,
                None if value.pred is None else _signature(value.pred))
    if callable(value):
        return ("pred", tuple(value(p) for p in _PROBES))
    return value


def _dedupe(results: list[tuple[T, int]]) -> list[tuple[T, int]]:
    seen: set[tuple[object, int]] = set()
    out: list[tuple[T, int]] = []
    for value, j in results:
        key = (_signature(value), j)
        if key in seen:
            continue
        seen.add(key)
        out.append((value, j))
    return out


def _otherwise_of_all(first: object, rest: Node) -> bool:
    """"If A, X. If B, Y. Otherwise Z.": the "otherwise" closes every "if"
    before it, so these sentences are one chain, not separate rules."""
    last = rest.items[-1] if isinstance(rest, And) else rest
    return (isinstance(first, If) and first.other == BoolLit(True)
            and isinstance(last, If) and last.other != BoolLit(True))


def _on_the_table(node: object) -> Node | None:
    """"If the card is a club, play a red card": before "play", "the card" may
    well be the card on the table; the reading with the last card instead of
    the card in every condition (``None`` when the conditions read other cards)."""
    if not isinstance(node, If):
        return None
    conds = [c for c, _ in node.arms]
    if not all(r.k == 0 for c in conds for r in _refs(c)) or not any(
            True for c in conds for _ in _refs(c)):
        return None
    return If(tuple((_subst(c, Ref(0), Ref(1)), t) for c, t in node.arms), node.other)


#: How a phrase after "a card" may start without "that": a comparison
#: ("higher than ..."), "of"/"with" ("of the same suit"), a list or a range.
_POSTMOD_STARTS: Final = ("CMP", "HAS", "SAME", "DIFFERENT", "WITHIN", "BETWEEN", "ONEOF",
                          "NOTONEOF", "INT", "NUM", "DIFFERIN", "ORCMP")


def _it_options(cond: object, main: object) -> list[Node]:
    """"X unless it is a face card": "it" may be any card X names."""
    node = _as_node(cond)
    if not any(x == IT for x in _walk(node)):
        return [node]
    refs = sorted(set(_refs(_as_node(main))) or {Ref(0)}, key=lambda r: r.k)
    return [_subst(node, IT, r) for r in refs]


def _it_is(node: object, before: object) -> Node:
    """In "X, unless C, in which case it ...", "it" is the subject of X."""
    subject = _first_ref(_as_node(before))
    return _subst(_as_node(node), IT, subject) if subject is not None else _as_node(node)


_NUMBER_WORDS: Final = frozenset(("one", "two", "three", "four", "five", "six", "seven",
                                  "eight", "nine", "ten"))


def _next_of(subject: Node, value: Node, items: list[Node]) -> Node | None:
    """``subject`` is the item after ``value`` in the cycle ``items`` (a card
    in a cycle of suits means its suit)."""
    if len(items) > 1 and items[-1] == items[0]:
        items = items[:-1]
    if not items:
        return None
    suits = _type(items[0]) == "suit"
    if isinstance(subject, Ref):
        if not suits:
            return None
        subject = Attr(subject, "suit")
    if isinstance(value, Ref):
        if not suits:
            return None
        value = Attr(value, "suit")
    return Cmp("==", subject, Call("next", (value, ListLit(tuple(items)))))


def _imply_same(kind: object, pred: object) -> Node | None:
    """"Red cards must be odd": a card of that kind must also be so."""
    cond, then = _as_pred(kind)(Ref(0)), _as_pred(pred)(Ref(0))
    if cond is None or then is None or _has_hole(cond):
        return None
    return If(((cond, then),), BoolLit(True))


def _p(fn: Callable[..., Node | None]) -> Pred:
    """A predicate written as a lambda with bound defaults (for the type checker)."""
    return fn


def _as_node(value: object) -> Node:
    assert isinstance(value, Node)
    return value


def _as_pred(value: object) -> Pred:
    assert callable(value)
    return cast(Pred, value)


def _tok_int(t: Tok) -> int:
    """The number a NUM or INT token stands for."""
    value = t.value[0] if isinstance(t.value, tuple) else t.value
    assert isinstance(value, int)
    return value


def _num(t: Tok) -> Num:
    """The number a NUM or INT token stands for, as written (a rank letter or not)."""
    letter = isinstance(t.value, tuple) and bool(t.value[1])
    return Num(_tok_int(t), letter)


def _suit_of(t: Tok) -> Suit:
    assert isinstance(t.value, Suit)
    return t.value


def _equal_to(value: Node) -> Pred:
    def apply(s: Node) -> Node | None:
        return _equal(s, value)
    return apply


def _adj_pred(adj: str) -> Pred:
    def apply(s: Node) -> Node | None:
        return _adj(s, adj)
    return apply


def _is_kind(pred: object) -> bool:
    """Whether a predicate names a kind of card (it reads the card alone)."""
    assert callable(pred)
    node = pred(Ref(0))
    return isinstance(node, Node) and not _has_hole(node) and all(
        r.k == 0 for r in _refs(node))


def _and(a: Node, b: Node) -> Node:
    left = a.items if isinstance(a, And) else (a,)
    right = b.items if isinstance(b, And) else (b,)
    return And((*left, *right))


def _all(preds: Sequence[Pred]) -> Pred:
    def apply(s: Node) -> Node | None:
        nodes = [n for n in (p(s) for p in preds) if n is not None]
        if len(nodes) < len(preds):
            return None
        return nodes[0] if len(nodes) == 1 else And(tuple(nodes))
    return apply


class _Negated:
    """A predicate said with "not" ("is not red"): keeps the positive one, so
    "is not red or odd" can also be read as "not (red or odd)"."""

    __slots__ = ("positive",)

    def __init__(self, positive: Pred) -> None:
        self.positive = positive

    def __call__(self, s: Node) -> Node | None:
        node = self.positive(s)
        return None if node is None else Not(node)


def _neg(pred: object, negated: bool) -> Pred:
    return _Negated(_as_pred(pred)) if negated else _as_pred(pred)


def _offset(subject: Node, value: Node, sign: str, step: int) -> Node | None:
    a, b = _int(subject), _int(value)
    if a is None or b is None:
        return None
    return Cmp("==", a, Arith(sign, b, Num(step)))


def _gap(subject: Node, value: Node, op: str, n: Num) -> Node | None:
    a, b = _int(subject), _int(value)
    if a is None or b is None:
        return None
    return Cmp(op, Call("abs", (Arith("-", a, b),)), n)


def _within(subject: Node, value: Node, step: int) -> Node | None:
    a, b = _int(subject), _int(value)
    if a is None or b is None:
        return None
    return Cmp("<=", Call("abs", (Arith("-", a, b),)), Num(step))


def _member(subject: Node, coll: Node, negated: bool) -> Node | None:
    items = coll.items if isinstance(coll, SetLit) else ()
    if isinstance(coll, RangeLit):
        num = _int(subject)
        return None if num is None else In(num, coll, negated)
    kinds = {_type(x) for x in items}
    if kinds == {"int"}:
        num = _int(subject)
        return None if num is None else In(num, coll, negated)
    if kinds == {"suit"}:
        if _type(subject) == "card":
            return In(Attr(subject, "suit"), coll, negated)
        return In(subject, coll, negated)
    if kinds == {"color"} and _type(subject) == "card":
        return In(Attr(subject, "color"), coll, negated)
    return In(subject, coll, negated)


def _quotient(x: Node, div: Node, end: int) -> NodeRes:
    """``x // div`` as a reading ending at ``end`` (numbers only, no division by 0)."""
    a, b = _int(x), _int(div)
    if a is None or b is None or (isinstance(b, Num) and b.value == 0):
        return []
    return [(Arith("//", a, b), end)]


def _coprime(x: Node, y: Node) -> Node | None:
    """``x`` and ``y`` have no common divisor but 1."""
    a, b = _int(x), _int(y)
    if a is None or b is None:
        return None
    return Cmp("==", Call("gcd", (a, b)), Num(1))


def _group_values(value: object) -> tuple[Node, ...]:
    """"the last two ranks": ``(prev.rank, prev2.rank)``."""
    n, attr = cast(tuple[int, str], value)
    return tuple(Attr(Ref(k), attr) for k in range(1, n + 1))


def _group_member(subject: Node, attr: str | None, group: tuple[int, str],
                  op: str) -> Node | None:
    """``subject``'s ``attr`` against the last n cards' (``group`` is (n, quantifier)):
    the same as one of them (``in``), as each of them (``and``), or different from
    all of them (``not in``). "A different suit from one of the last two cards"
    says too little to be read."""
    n, quant = group
    if isinstance(subject, Attr) and isinstance(subject.obj, Ref) and attr in (
            None, subject.name):  # "the suit matches one of the last two cards"
        attr, subject = subject.name, subject.obj
    if attr is None:
        return None
    if _type(subject) != "card" or attr not in ("rank", "suit", "color"):
        return None
    mine = Attr(subject, attr)
    theirs = tuple(Attr(Ref(k), attr) for k in range(1, n + 1))
    if op == "==":
        if quant == "all":
            return And(tuple(Cmp("==", mine, x) for x in theirs))
        return In(mine, SetLit(theirs))
    if quant == "one":
        return None
    return In(mine, SetLit(theirs), True)


def _remainder(subject: Node, m: Num, r: Node, positive: bool) -> Node | None:
    num = _int(subject)
    if num is None:
        return None
    return Cmp("==" if positive else "!=", Arith("%", num, m), r)


def _join_same(subject: Node, attrs: tuple[str, ...], other: Node, same: bool) -> Node | None:
    if len(attrs) == 1:
        return _same(subject, attrs[0], other, same)
    first = _same(subject, attrs[0], other, same)
    second = _same(subject, attrs[2], other, same)
    if first is None or second is None:
        return None
    return And((first, second)) if attrs[1] == "AND" else Or((first, second))


def _cycle_arg(x: Node, items: list[Node]) -> Node:
    if _type(x) == "card" and isinstance(x, Ref) and items and _type(items[0]) == "suit":
        return Attr(x, "suit")
    return x


def _period(items: list[Node]) -> list[Node]:
    """The shortest repeating unit of a written-out sequence."""
    n = len(items)
    for p in range(1, n + 1):
        if all(items[k] == items[k % p] for k in range(n)):
            return items[:p]
    return items


def _arith(terms: list[Node], ops: list[str]) -> list[Node]:
    """Every way to group a chain of ``+ - * %``: one when the operators are
    all the same associative one or there is a single operator."""
    nums = [_int(t) for t in terms]
    if not ops:
        return [terms[0]]
    if any(x is None for x in nums):
        return []
    values: list[Node] = [x for x in nums if x is not None]
    if len(set(ops)) == 1 and ops[0] in "+*":
        node = values[0]
        for x in values[1:]:
            node = Arith(ops[0], node, x)
        return [node]
    return list(_bracketings(values, ops))


def _bracketings(values: list[Node], ops: list[str]) -> Iterator[Node]:
    if len(values) == 1:
        yield values[0]
        return
    for k in range(len(ops)):
        for left in _bracketings(values[: k + 1], ops[:k]):
            for right in _bracketings(values[k + 1:], ops[k + 1:]):
                yield Arith(ops[k], left, right)


def _group(items: list[Item], conns: list[str], lead: str) -> list[Node]:
    """The and/or trees a list of clauses can mean.

    Commas bind less than bare words ("A and B, or C" is "(A and B) or C");
    where the words leave a mix of "and" and "or" open, every grouping is
    returned and the caller finds the text ambiguous.
    """
    nodes = _fill(items)
    if nodes is None:
        return []
    conns = list(conns)
    if "LIST" in conns and any(it.node is not None for it in items[1:]):
        return []
    for k in range(len(conns) - 1, -1, -1):
        if conns[k] == "LIST":
            later = [c for c in conns[k + 1:] if c != "LIST"]
            if not later or lead:
                return []
            conns[k] = later[0].lstrip(",")
    if (conns and all(c == "AND" for c in conns) and all(it.kind for it in items)
            and not lead):
        # "aces and face cards", "red cards and kings": kinds named in the
        # plural are a union; adjectives ("red and odd") an intersection; a
        # mix ("odd and face cards") may be either
        if all(it.plural for it in items):
            return [Or(tuple(nodes))]
        if any(it.plural for it in items):
            return [And(tuple(nodes)), Or(tuple(nodes))]
    if lead == "NEITHER":
        if conns and all(c.endswith("NOR") for c in conns):
            return [Not(Or(tuple(nodes)))]
        return []
    if any(c.endswith("NOR") for c in conns):
        return []
    if lead == "BOTH" and not (conns and all(c.endswith("AND") for c in conns)):
        return []
    if lead == "EITHER" and not (conns and all(c.endswith("OR") for c in conns)):
        return []
    return list(_trees(nodes, conns))


def _trees(nodes: list[Node], conns: list[str]) -> Iterator[Node]:
    if not conns:
        yield nodes[0]
        return
    commas = {c for c in conns if c.startswith(",")}
    if len(commas) == 1 and len(set(conns)) > 1:
        split = commas.pop()
        yield from _split(nodes, conns, split)
        return
    kinds = {c.lstrip(",") for c in conns}
    if len(kinds) == 1:
        kind = kinds.pop()
        yield (And if kind == "AND" else Or)(tuple(nodes))
        return
    for split in ("OR", "AND"):
        yield from _split(nodes, [c.lstrip(",") for c in conns], split)


def _split(nodes: list[Node], conns: list[str], split: str) -> Iterator[Node]:
    parts: list[tuple[list[Node], list[str]]] = [([nodes[0]], [])]
    for node, conn in zip(nodes[1:], conns, strict=True):
        if conn == split:
            parts.append(([node], []))
        else:
            parts[-1][0].append(node)
            parts[-1][1].append(conn)
    options = [list(_trees(ns, cs)) for ns, cs in parts]
    kind = And if split.lstrip(",") == "AND" else Or

    def combos(k: int) -> Iterator[list[Node]]:
        if k == len(options):
            yield []
            return
        for first in options[k]:
            for rest in combos(k + 1):
                yield [first, *rest]
    for chosen in combos(0):
        yield kind(tuple(chosen))


def _fill(items: list[Item]) -> list[Node] | None:
    """Give each clause without a subject the subject of the clause before it
    (or the card), and each comparison left open ("same suit") the card the
    clause beside it compares with (or the last card)."""
    nodes: list[Node] = []
    subject: Node = Ref(0)
    for item in items:
        if item.node is not None:
            nodes.append(item.node)
            if item.subject is not None:
                subject = item.subject
            continue
        assert item.pred is not None
        node = item.pred(subject)
        if node is None:
            return None
        nodes.append(node)
    others = [[r for r in _refs(n) if r.k > 0] if _has_hole(n) is False else [] for n in nodes]
    filled: list[Node] = []
    for k, node in enumerate(nodes):
        if _has_hole(node):
            later = [r for o in others[k + 1:] for r in o[:1]]
            earlier = [r for o in others[:k] for r in o[-1:]]
            target = later[0] if later else earlier[-1] if earlier else Ref(1)
            node = _subst(node, HOLE, target)
        filled.append(node)
    return filled


# ---------------------------------------------------------------- the entry point

#: Forms offered when a text is not understood (each reads back to a rule).
EXAMPLES: Final = (
    "the card is red",
    "red cards only",
    "alternate colors",
    "each card higher than the last",
    "the card has the same suit as the last card",
    "same suit or same rank as the last card",
    "the card has a different color from the last card",
    "if the last card was odd, play a red card, otherwise black",
    "no two face cards in a row",
    "the card's rank is prime",
    "the card's rank is at most 6",
    "the card's rank is between 5 and 9",
    "the card's rank is one of 2, 4, 8",
    "the card is a heart or a face card",
    "a red card must follow a black card",
    "the card's rank is one higher than the last card's rank",
    "if the card's position is odd, the card is red; otherwise the card is black",
    "the card's suit is the one after the last card's suit in the cycle "
    "spades → hearts → diamonds → clubs",
)


@functools.cache
def _plurals() -> frozenset[str]:
    """Last words of the plural names of kinds of card ("hearts", "kings", "cards")."""
    out = set()
    for phrase, kind, _ in _entries():
        last = _raw_words(phrase)[-1]
        if (kind in ("SUIT", "NUM", "CARDN", "ADJ") and last.endswith("s") and last not in (
                "is", "as", "hearts", "spades", "diamonds", "clubs")) or last in ("cards",):
            out.add(last)
    return frozenset(out | {"hearts", "spades", "diamonds", "clubs"})




def _known_words() -> frozenset[str]:
    return frozenset(w for key in _tables()[0] for w in key)


def _vocabulary() -> list[str]:
    return sorted({w for key in _tables()[0] for w in key if w.isalpha() and len(w) > 2})


def from_english(text: str) -> Reading:
    """Read ``text`` (plain English) as a rule; see the module doc.

    Never raises on any string. The reading is certain: when the words allow
    two different rules, ``rule`` is ``None`` and ``candidates`` holds both.
    """
    text = text.strip()
    if not text:
        return Reading(text, None, (), EXAMPLES[:3], "write a rule in words")
    if len(text) > MAX_TEXT:
        return Reading(text, None, (), EXAMPLES[:3],
                       f"that is too long: say the rule in at most {MAX_TEXT} characters")
    if _nesting(text) > MAX_DEPTH:
        return Reading(text, None, (), EXAMPLES[:3],
                       f"that is nested too deeply: at most {MAX_DEPTH} levels of parentheses")
    words, starts = lattice(text)
    parser = _Parser(words, starts)
    try:
        results = [node for node, j in parser.sentences(0) if j == len(words)]
    except (_TooMuch, RecursionError):
        return Reading(text, None, (), _nearest(text),
                       "that sentence has too many possible readings: say it more simply")
    limits: list[str] = []
    rules = _rules(results, limits)
    if not rules and limits:
        return Reading(text, None, (), EXAMPLES[:3],
                       f"I read that, but the game cannot take it: {limits[0]}")
    if not rules:
        return Reading(text, None, (), _nearest(text), _not_understood(words, starts, parser))
    classes: list[Rule] = []
    for rule in sorted(rules, key=lambda r: (len(r.text), r.text)):
        if not any(_same_rule(rule, other) for other in classes):
            classes.append(rule)
    if len(classes) == 1:
        return Reading(text, classes[0])
    return Reading(text, None, tuple(classes), (),
                   "that can be read in more than one way: choose one of the readings, "
                   "or add commas or parentheses")


def _nesting(text: str) -> int:
    """The deepest nesting of brackets in ``text``."""
    depth = best = 0
    for ch in text:
        if ch in "([{":
            depth += 1
            best = max(best, depth)
        elif ch in ")]}":
            depth = max(0, depth - 1)
    return best


def _same_rule(a: Rule, b: Rule) -> bool:
    """Whether two readings are the same rule: a few hundred random situations
    tell most different readings apart at once, :func:`compare` decides."""
    rng = random.Random(0)
    depth = max(a.lookback, b.lookback)
    for _ in range(300):
        slots = tuple(rng.choice(ALL_CARDS) for _ in range(depth + 1))
        pos = rng.randint(depth + 1, 60)
        if a.judge(slots, pos) != b.judge(slots, pos):
            return False
    return compare(a, b).equivalent


def _self_compared(node: Node) -> bool:
    """Whether a reading compares a value with itself ("its rank is higher
    than its rank"): when a text has other readings, this one is not meant."""
    return any(isinstance(x, Cmp) and x.left == x.right for x in _walk(node))


def _first_ref(node: Node) -> Ref | None:
    return next(iter(_refs(node)), None)


def _it_choices(node: Node) -> set[Ref]:
    """The cards "it" may stand for in ``node``: in a condition, the subject of
    the condition before ("if the last card is red ...; if it is black ...");
    in a branch, the subject of the branch before ("the card must be red,
    otherwise it must be black"), or else the subject of its condition or the
    card; elsewhere, any card named before it."""
    choices: set[Ref] = set()
    seen: list[Ref] = []
    last = {"cond": None, "then": None}  # type: dict[str, Ref | None]

    def branch(then: Node, cond_subject: Ref | None) -> None:
        if last["then"] is not None:
            visit(then, {last["then"]})
        else:
            visit(then, {cond_subject, Ref(0)} if cond_subject is not None else None)
        last["then"] = _first_ref(then) or last["then"]

    def visit(n: Node, here: set[Ref] | None) -> None:
        if n == IT:
            choices.update(here if here is not None else (set(seen) or {Ref(0)}))
            return
        if isinstance(n, Ref) and n.k >= 0:
            seen.append(n)
        if isinstance(n, If):
            subject: Ref | None = None
            for cond, then in n.arms:
                visit(cond, {last["cond"]} if last["cond"] is not None else None)
                subject = _first_ref(cond) or last["cond"]
                last["cond"] = subject
                branch(then, subject)
            branch(n.other, subject)
            return
        for c in n.children():
            visit(c, here)

    visit(node, None)
    return choices


def _resolve_it(node: Node) -> list[Node]:
    """``node`` with "it" replaced by each card it may stand for."""
    if not any(x == IT for x in _walk(node)):
        return [node]
    return [_subst(node, IT, ref) for ref in sorted(_it_choices(node), key=lambda r: r.k)]


def _walk(node: Node) -> Iterator[Node]:
    yield node
    for c in node.children():
        yield from _walk(c)


def _rules(results: list[Node], limits: list[str] | None = None) -> list[Rule]:
    """The readings that are valid rules, one per canonical text; a reading
    refused for a limit of the language (too long, too big) is noted in
    ``limits`` so the player learns why."""
    seen: dict[str, Rule] = {}
    expanded = [x for node in results if isinstance(node, Node) for x in _resolve_it(node)]
    sensible = [x for x in expanded if not _self_compared(x)]
    expanded = sensible or expanded
    for node in expanded:
        if not isinstance(node, Node) or _has_hole(node):
            continue
        try:
            rule = Rule.from_tree(_tidy(node))
        except RuleSyntaxError as err:
            if limits is not None and err.limit:
                limits.append(err.message)
            continue
        except (RecursionError, ValueError, TypeError, AssertionError):
            continue
        seen.setdefault(rule.text, rule)
        if len(seen) > 24:
            break
    return list(seen.values())


def _tidy(node: Node) -> Node:
    """An ``if`` whose last branch accepts everything is kept as written; a
    lone ``and``/``or`` of one item is its item."""
    if isinstance(node, And | Or) and len(node.items) == 1:
        return _tidy(node.items[0])
    return node


def _not_understood(words: list[str], starts: list[list[tuple[int, Tok]]],
                    parser: _Parser) -> str:
    known = _known_words()
    unknown = [w for w, s in zip(words, starts, strict=True) if not s and w not in known]
    if unknown:
        word = unknown[0]
        close = difflib.get_close_matches(word, _vocabulary(), n=1, cutoff=0.75)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        return f"I do not know the word '{word}'{hint}: try one of the forms below"
    at = min(parser.furthest, len(words) - 1)
    if parser.furthest >= len(words):
        return "I could not read that as a rule: try one of the forms below"
    return (f"I could not read that as a rule after '{' '.join(words[:at])}': "
            "try one of the forms below")


def _nearest(text: str) -> tuple[str, ...]:
    """The example forms closest to ``text`` (by shared words)."""
    low = " ".join(_raw_words(text))
    ranked = sorted(EXAMPLES, key=lambda e: -difflib.SequenceMatcher(None, low, e).ratio())
    return tuple(ranked[:3])
