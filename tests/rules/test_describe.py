"""Rules said in Polish, French and Italian (``Rule.describe``).

Every rule of the library, every generated rule and random rule trees of
every construct are said in each language: a whole sentence, with no phrase
missing and no English word left over. A few sentences are checked word for
word, for the grammar (cases, genders, contractions).
"""

from __future__ import annotations

import random
import re

import pytest
from lang_random import TreeMaker

from eleusis.rules import Rule, RuleSyntaxError, parse
from eleusis.rules.generate import candidate
from eleusis.rules.languages import languages
from eleusis.rules.library import RULES

LANGS = ("pl", "fr", "it")

#: Words of the English sentences that no other language uses.
_ENGLISH_WORDS = """
the card cards is are and or if when otherwise rank suit color last hearts spades diamonds
clubs jack queen king ace red black even odd prime face numeral of than between same
different position sum remainder divided times not true false either neither nor exactly
depending instead else then accepted played may be one inclusive greatest common divisor
smaller larger smallest largest wrapped repeating sequence entry after least most less greater
multiple leaves whether it has have from second third fourth any every no gives anything
"""
ENGLISH = frozenset(_ENGLISH_WORDS.split())
#: English spellings that are also words of a language (Polish "to", French "as").
SHARED = {"pl": {"to", "as"}, "fr": {"as", "suit", "position", "multiple"}, "it": set()}


def _leftovers(sentence: str, lang: str) -> set[str]:
    words = {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿĄ-ž']+", sentence)}
    return (words & ENGLISH) - SHARED[lang]


def _check(rule: Rule, lang: str) -> None:
    sentence = rule.describe(lang)
    assert sentence[0].isupper() and sentence.endswith("."), sentence
    assert "None" not in sentence and "  " not in sentence and "{" not in sentence, sentence
    assert sentence.count("(") == sentence.count(")"), sentence
    assert not _leftovers(sentence, lang), (rule.text, sentence, _leftovers(sentence, lang))


def test_the_languages() -> None:
    assert languages() == ("en", "pl", "fr", "it")
    assert parse("card is red").describe() == parse("card is red").english()
    assert parse("card is red").describe("de") == parse("card is red").english()


@pytest.mark.parametrize("lang", LANGS)
def test_every_library_rule(lang: str) -> None:
    for entry in RULES:
        _check(parse(entry.text), lang)


@pytest.mark.parametrize("lang", LANGS)
def test_generated_rules(lang: str) -> None:
    rng = random.Random(7)
    for difficulty in range(1, 6):
        for _ in range(40):
            _check(parse(candidate(difficulty, rng)), lang)


@pytest.mark.parametrize("lang", LANGS)
def test_random_trees_of_every_construct(lang: str) -> None:
    rng = random.Random(11)
    said = 0
    for _ in range(400):
        tree = TreeMaker(rng, lookback=rng.randint(0, 4)).bool_(rng.randint(0, 4))
        try:
            rule = Rule.from_tree(tree)
        except RuleSyntaxError:
            continue
        _check(rule, lang)
        said += 1
    assert said > 200


@pytest.mark.parametrize(
    ("text", "lang", "sentence"),
    [
        ("card is red", "pl", "Karta może zostać zagrana, gdy karta jest czerwona."),
        ("card.color != prev.color", "pl",
         "Karta może zostać zagrana, gdy karta ma inną barwę niż poprzednia karta."),
        ("card.suit == prev.suit", "pl",
         "Karta może zostać zagrana, gdy karta ma ten sam kolor co poprzednia karta."),
        ("card.rank > prev.rank", "pl",
         "Karta może zostać zagrana, gdy wartość karty jest większa niż wartość poprzedniej "
         "karty."),
        ("card.suit != prev2.suit", "pl",
         "Karta może zostać zagrana, gdy karta ma inny kolor niż przedostatnia karta."),
        ("prev2 is K", "pl", "Karta może zostać zagrana, gdy przedostatnia karta jest królem."),
        ("card.rank in 5..9", "pl", "Karta może zostać zagrana, gdy wartość karty mieści się "
         "w przedziale od 5 do 9 (włącznie)."),
        ("if prev is black then card is red else card is black", "pl",
         "Jeśli poprzednia karta jest czarna, to karta jest czerwona; w przeciwnym razie karta "
         "jest czarna."),
        ("card.rank % 3 == 0", "pl", "Karta może zostać zagrana, gdy wartość karty dzieli się "
         "przez 3."),
        ("case card.rank % 3 when 0 then card is red else card is black", "pl",
         "W zależności od reszty z dzielenia wartości karty przez 3: gdy jest to 0, karta jest "
         "czerwona; w pozostałych przypadkach karta jest czarna."),
        ("card.suit == next(prev.suit, [hearts, spades])", "pl",
         "Karta może zostać zagrana, gdy kolor karty jest taki sam jak element następujący po "
         "kolorze poprzedniej karty w cyklu kier → pik → kier."),
        ("card is red", "fr", "Une carte peut être jouée quand la carte est rouge."),
        ("card is black", "fr", "Une carte peut être jouée quand la carte est noire."),
        ("prev.color == black", "fr",
         "Une carte peut être jouée quand la couleur de la carte précédente est noire."),
        ("card.rank >= 8", "fr",
         "Une carte peut être jouée quand la valeur de la carte est d'au moins 8."),
        ("if prev is face then card is numeral else card.rank > prev.rank", "fr",
         "Si la carte précédente est une figure (V, D, R), la carte est une carte numérale "
         "(de l'as au 10)\u00a0; sinon la valeur de la carte est supérieure à la valeur de la "
         "carte précédente."),
        ("card.rank == abs(prev.rank - 7)", "fr", "Une carte peut être jouée quand la valeur de "
         "la carte est égale à la valeur absolue de (la valeur de la carte précédente moins 7)."),
        ("card != 8C", "fr", "Une carte peut être jouée quand la carte n'est pas la même "
         "carte que le 8 de trèfle."),  # (no elision before a number: "le huit")
        ("card != AH", "fr", "Une carte peut être jouée quand la carte n'est pas la même "
         "carte que l'as de cœur."),
        ("card is red", "it", "Una carta può essere giocata quando la carta è rossa."),
        ("prev.color == black", "it",
         "Una carta può essere giocata quando il colore della carta precedente è nero."),
        ("card.suit == prev.suit", "it",
         "Una carta può essere giocata quando la carta ha lo stesso seme della carta "
         "precedente."),
        ("card.rank < prev2.rank", "it", "Una carta può essere giocata quando il valore della "
         "carta è minore del valore della penultima carta."),
        ("prev is Q", "it", "Una carta può essere giocata quando la carta precedente è una "
         "donna."),
    ],
)
def test_grammar(text: str, lang: str, sentence: str) -> None:
    assert parse(text).describe(lang) == sentence


def test_rule_keywords_stay_the_same() -> None:
    """A rule's text does not depend on the language it is said in."""
    rule = parse("card.suit != prev.suit")
    for lang in LANGS:
        rule.describe(lang)
    assert rule.text == "card.suit != prev.suit"
