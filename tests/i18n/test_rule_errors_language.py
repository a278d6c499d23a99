"""The rule language's errors, the dealer's aid and the round's end in the player's language.

A rule is written in the same keywords in every language, but what is said
about it is not: a syntax or type error, the aid for a written rule (too
permissive, dead end), a challenge the page cannot make, a notebook entry
it refuses, why a round ended. Every syntax error message of the parser has
an input below that reaches it (checked by recording the messages looked up
while the inputs are read), and each input's error in Polish, French and
Italian is a translation: not the English one, with no English words left
outside the quoted rule text.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file

from eleusis import narrate
from eleusis.cards import Card
from eleusis.challenge import ChallengeError, make_challenge
from eleusis.game import Guess, State, Variant, apply, make_config, new_game
from eleusis.i18n import set_language
from eleusis.notebook import Notebook, NotebookError
from eleusis.rules import RuleSyntaxError, analyse, parse
from eleusis.rules.compare import Counterexample
from eleusis.rules.parse import check_tree
from eleusis.rules.syntax import ListLit, Num, SetLit
from eleusis_web.viewmodel import analysis, english_reading, last_guess, rule_check

ROOT = Path(__file__).resolve().parents[2]

#: One or more inputs for every message of the parser and its checker.
BAD_RULES: tuple[str, ...] = (
    "card = red", "card ! red", "card.rank / 2 == 1", "card is red ^", "card.rank == 1001",
    "prev9 is red", "3x is red", "crad is red", "blurb is red",
    "if card is red card is black else true", "if card is red then true",
    "case card.suit hearts then true else false",
    "case card.rank when 5 then true when 5 then false else true",
    "case card.rank when 5 true else false", "case card.rank when 5 then true",
    "case card.rank when prev then true else false",
    "card.rank < 5 < 7", "card is red)", "card is red card", "card is 14", "card is QS",
    "card is +", "card.rank % 0 == 1", "card.5 == 1", "card.rank in 3..prev.rank",
    "card.rank in 5..hearts", "card.rank in 9..5", "card.rank in hearts..5",
    "(card is red", "card.rank ==", "card is red and if true then true else false",
    "card.rank == )", "abs == 1", "min(1,2,3,4,5,6,7,8,9,10,11,12,13,14) == 1",
    "abs(1 2) == 1", "abs(1, 2) == 1", "gcd(1) == 1", "card.rank in {}",
    "card.rank in {" + ", ".join(str(i) for i in range(1, 62)) + "}",
    "card.rank in {1 2}", "card.rank in {if true then 1 else 2}", "card.rank in {1..3}",
    "card.rank == next(1, [])",
    "card.rank == next(1, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1])",
    "card.rank == next(1, [1 2])", "card.rank == next(1, [prev])",
    "", "card is red" + " and card is red" * 60, "card.rank == " + "1+" * 200 + "1",
    "(" * 26 + "card is red" + ")" * 26, "not " * 25 + "card is red",
    "card.rank + 1", "-card is red", "card.rank + hearts == 1",
    "card == 1", "card.rank < hearts", "card.rank in hearts", "card.rank in [hearts, clubs]",
    "not 1", "card is red and 1", "if 1 then true else false", "if true then 1 else false",
    "case {1, 2} when 1 then true else false", "card.rank in {{1}, 2}",
    "card.rank in {1, hearts}", "card.suit is face", "card.rank is red",
    "card.rank == abs(hearts)", "card.rank == next(1, 2)", "card.suit == next(1, [hearts])",
    "card.rank == pick(hearts, [1, 2])", "if true then {1} else {2}",
    "card.rank == 1 \n and card.rank = 2", "card.color == 1",
    "card.rank in {red, black}", "card.rank in {true}", "card.rank in {QS}",
    "card.rank in {hearts}", "card.rank in [QS]", "card.rank in [red]", "card.rank in [true]",
    "card.suit in [1, 2]",
    "case card.rank when 1 then true when 2 then 1 else false",
    "case card.suit when 1 then true else false",
)

#: English words no message of the three languages uses (outside the quoted rule text).
ENGLISH = frozenset({
    "the", "expected", "found", "must", "cannot", "but", "this", "after", "write", "rule",
    "value", "number", "while", "with", "using", "should", "empty", "too", "unknown", "range",
    "only", "each", "every", "branch", "which", "column", "line", "constant", "between",
    "holds", "nothing", "missing", "allowed", "looks", "far", "neither",
})


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def error_of(text: object) -> RuleSyntaxError:
    try:
        parse(text)  # type: ignore[arg-type]
    except RuleSyntaxError as err:
        return err
    raise AssertionError(f"{text!r} was accepted")


def english_words(message: str) -> set[str]:
    """The words of ``message`` from :data:`ENGLISH`, quoted rule text left out."""
    unquoted = re.sub(r"'[^']*'|\{[^}]*\}|\[[^\]]*\]", " ", message)
    return {w for w in re.findall(r"[a-z]+", unquoted.lower()) if w in ENGLISH}


def _messages_of(path: Path) -> set[str]:
    keywords = {"_": None, "N_": None, "ngettext": (1, 2)}
    return {msg if isinstance(msg, str) else msg[0]
            for _line, msg, _comments, _context in extract_from_file("python", path, keywords)}


def test_every_message_of_the_parser_has_an_input_that_reaches_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    parser, errors = sys.modules["eleusis.rules.parse"], sys.modules["eleusis.rules.errors"]
    looked_up: set[str] = set()

    def recording(lookup: Callable[..., str]) -> Callable[..., str]:
        def record(*args: object) -> str:
            looked_up.add(str(args[0]))
            return lookup(*args)
        return record

    monkeypatch.setattr(parser, "_", recording(parser._))
    monkeypatch.setattr(parser, "ngettext", recording(parser.ngettext))
    monkeypatch.setattr(errors, "_", recording(errors._))
    for text in BAD_RULES:
        error_of(text)
    error_of(3)  # a rule that is not a text
    with pytest.raises(RuleSyntaxError):  # only a tree built in code can hold this
        check_tree(ListLit((SetLit((Num(1, at=0),), at=0),), at=0))
    written = (_messages_of(ROOT / "src/eleusis/rules/parse.py")
               | _messages_of(ROOT / "src/eleusis/rules/errors.py"))
    assert len(written) > 80
    assert written - looked_up == set()


@pytest.mark.parametrize("lang", ["pl", "fr", "it"])
def test_each_syntax_error_is_said_in_the_players_language(lang: str) -> None:
    english = {text: str(error_of(text)) for text in BAD_RULES}
    assert all(english_words(said) for said in english.values())  # the check bites
    set_language(lang)
    left = []
    for text in BAD_RULES:
        said = str(error_of(text))
        if said == english[text] or english_words(said):
            left.append(f"{text!r}: {said!r}")
    assert left == []


def test_a_syntax_error_in_polish_points_at_the_column_in_polish() -> None:
    set_language("pl")
    err = error_of("card.rank == 1 \n and card.rank = 2")
    assert str(err).startswith("pojedyncze '=' nie jest operatorem: aby porównać, napisz '==' "
                               "(wiersz 2, kolumna 16)")
    assert err.line == 2 and err.column == 16
    assert rule_check("card.suit == 3")[0].startswith(
        "nie można porównać wartości typu „kolor” z wartością typu „liczba” za pomocą '=='")


def test_a_limit_is_known_by_its_kind_not_its_words() -> None:
    set_language("fr")
    assert error_of("card is red" + " and card is red" * 60).limit
    assert error_of("card.rank == " + "1+" * 200 + "1").limit
    assert not error_of("card is 14").limit


@pytest.mark.parametrize("lang", ["pl", "fr", "it"])
def test_the_dealers_aid_speaks_the_players_language(lang: str) -> None:
    set_language(lang)
    aid = analysis("card is red or card is black")  # everything goes: too permissive
    assert aid is not None and not aid.playable
    restrictive = analyse(parse("card == AS"))
    positional = analyse(parse("if pos is even then card is red else card.color != prev.color"))
    lines = [*aid.lines, *restrictive.warnings, *positional.notes]
    assert len(lines) == 4
    assert all(not english_words(line) for line in lines), lines


def test_a_challenge_the_page_cannot_make_says_why_in_polish() -> None:
    set_language("pl")
    with pytest.raises(ChallengeError, match=r"^nie da się odczytać reguły: nieznane słowo"):
        make_challenge("crad is red", 1, "Ada")
    with pytest.raises(ChallengeError, match=r"^tą regułą nie da się grać: tajna reguła nie "
                                              r"przyjmuje żadnej karty"):
        make_challenge("card is red and card is black", 1, "Ada")
    with pytest.raises(ChallengeError, match=r"^imię autora jest puste"):
        make_challenge("card is red", 1, "   ")


def test_the_notebook_refuses_an_empty_candidate_in_italian() -> None:
    set_language("it")
    with pytest.raises(NotebookError, match=r"^una regola candidata è vuota$"):
        Notebook().add("   ")


@pytest.mark.parametrize("lang", ["pl", "fr", "it"])
def test_why_a_round_ended_is_said_in_the_players_language(lang: str) -> None:
    set_language(lang)
    for reason in narrate.WHY:
        said = narrate.why(reason)
        assert said != reason and not english_words(said), (reason, said)
    assert narrate.why("a reason from a newer version") == "a reason from a newer version"


def _counterexamples() -> list[str]:
    cards = [Card.parse(c) for c in ("7S", "KH", "2D", "3C", "4H", "5S", "6D", "8C", "9H",
                                     "10S", "JD", "QC")]
    return [Counterexample(tuple(line), Card.parse("3D"), not yours, yours).sentence
            for line in ((), cards[:2], cards) for yours in (True, False)]


def test_a_counterexample_is_said_as_the_engine_wrote_it_in_english() -> None:
    sentences = _counterexamples()
    assert any("cards ending in" in s for s in sentences)  # the long form is among them
    assert [narrate.counterexample(s) for s in sentences] == sentences
    assert narrate.counterexample("a sentence of a newer version") == (
        "a sentence of a newer version")


@pytest.mark.parametrize("lang", ["pl", "fr", "it"])
def test_a_wrong_guess_is_answered_in_the_players_language(lang: str) -> None:
    set_language(lang)
    for sentence in _counterexamples():
        said = narrate.counterexample(sentence)
        assert said != sentence and not english_words(said), said
        assert "3♦" in said  # the card the rules disagree on
    state = _solo_after_a_wrong_guess()
    text, right = last_guess(state.events, 0)
    assert right is False and not english_words(text), text


def test_a_wrong_guess_in_polish_reads_as_polish() -> None:
    set_language("pl")
    text, _right = last_guess(_solo_after_a_wrong_guess().events, 0)
    assert text == "Źle. Po 3♦ twoja reguła przyjmuje 2♠, a tajna reguła ją odrzuca."


def _solo_after_a_wrong_guess() -> State:
    state = new_game(make_config(Variant.SOLO, ["You"], "card is red", 1))
    return apply(state, Guess(0, "card is red or card.rank == 2"))


def test_a_switch_of_language_says_the_same_findings_in_the_new_one() -> None:
    english = analysis("card is red or card is black")
    set_language("it")
    italian = analysis("card is red or card is black")
    assert english is not None and italian is not None
    assert english.lines != italian.lines and not any(map(english_words, italian.lines))


def test_words_the_english_reader_cannot_read_are_answered_in_polish_without_english_forms(
) -> None:
    assert english_reading("card.suit == 3") is not None  # English: forms to try
    set_language("pl")
    reading = english_reading("card.suit == 3")
    assert reading is not None and reading.rules == () and reading.suggestions == ()
    assert reading.message.startswith("Zdania są czytane tylko po angielsku")
    understood = english_reading("red cards only")  # English words still read, said in Polish
    assert understood is not None and len(understood.rules) == 1
    assert understood.rules[0][1].startswith("Karta może zostać zagrana")
