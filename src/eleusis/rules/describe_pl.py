"""Rules said in Polish (:mod:`eleusis.rules.describe`).

Card words follow Polish card-table use: *kolor* is the suit (pik, kier,
karo, trefl), *barwa* the colour (czerwona, czarna), *wartość* the rank,
*figura* a face card, *blotka* a numeral card. Noun phrases carry their
cases (the genitive after *wartość*, the accusative after *przez*, the
locative after *po*) and their gender, so adjectives agree ("wartość karty
jest większa", "kolor karty jest inny"); a computed value of unknown gender
is said as "… to liczba większa niż 6".

>>> from eleusis.rules import parse
>>> parse("card.rank >= prev.rank").describe("pl")
'Karta może zostać zagrana, gdy wartość karty wynosi co najmniej wartość poprzedniej karty.'
>>> parse("prev2.suit != hearts").describe("pl")
'Karta może zostać zagrana, gdy kolor przedostatniej karty to nie kier.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from eleusis.rules.describe import NP, Grammar

_CASES: Final = ("nom", "gen", "acc", "loc", "ins")


def _np(forms: Sequence[str], gender: str = "f", kind: str = "") -> NP:
    return NP(dict(zip(_CASES, forms, strict=True)), gender, extra={"kind": kind})


_REFS: Final = {
    0: ("karta", "karty", "kartę", "karcie", "kartą"),
    1: ("poprzednia karta", "poprzedniej karty", "poprzednią kartę", "poprzedniej karcie",
        "poprzednią kartą"),
    2: ("przedostatnia karta", "przedostatniej karty", "przedostatnią kartę",
        "przedostatniej karcie", "przedostatnią kartą"),
    3: ("trzecia karta od końca", "trzeciej karty od końca", "trzecią kartę od końca",
        "trzeciej karcie od końca", "trzecią kartą od końca"),
    4: ("czwarta karta od końca", "czwartej karty od końca", "czwartą kartę od końca",
        "czwartej karcie od końca", "czwartą kartą od końca"),
}
_RANKS: Final = {
    1: ("as", "asa", "asa", "asie", "asem"),
    11: ("walet", "waleta", "waleta", "walecie", "waletem"),
    12: ("dama", "damy", "damę", "damie", "damą"),
    13: ("król", "króla", "króla", "królu", "królem"),
}
#: "is a 7": the rank as a card, in the instrumental (jest siódemką).
_RANK_INS: Final = {1: "asem", 2: "dwójką", 3: "trójką", 4: "czwórką", 5: "piątką",
                    6: "szóstką", 7: "siódemką", 8: "ósemką", 9: "dziewiątką",
                    10: "dziesiątką", 11: "waletem", 12: "damą", 13: "królem"}
_SUITS: Final = {"S": "pik", "H": "kier", "D": "karo", "C": "trefl"}
_RANK_LETTERS: Final = {1: "as", 11: "walet", 12: "dama", 13: "król"}
_ATTRS: Final = {
    "rank": (("wartość", "wartości", "wartość", "wartości", "wartością"), "f"),
    "suit": (("kolor", "koloru", "kolor", "kolorze", "kolorem"), "m"),
    "color": (("barwa", "barwy", "barwę", "barwie", "barwą"), "f"),
}
_COLORS: Final = {
    "red": {"m": "czerwony", "f": "czerwona", "n": "czerwone", "ins": "czerwonym"},
    "black": {"m": "czarny", "f": "czarna", "n": "czarne", "ins": "czarnym"},
}
_ADJ: Final = {"m": 0, "f": 1, "n": 2, "?": 1}
_WORDS: Final = {
    "bigger": ("większy", "większa", "większe"),
    "smaller": ("mniejszy", "mniejsza", "mniejsze"),
    "same": ("taki sam", "taka sama", "takie samo"),
    "other": ("inny", "inna", "inne"),
    "different": ("różny", "różna", "różne"),
}
#: Card kinds: (clause with "{s}", its negation, the short form said a second time).
_KINDS: Final = {
    "face": ("{s} jest figurą (J, Q, K)", "{s} nie jest figurą (J, Q, K)",
             "{s} jest figurą", "{s} nie jest figurą"),
    "numeral": ("{s} jest blotką (od asa do 10)", "{s} nie jest blotką (od asa do 10)",
                "{s} jest blotką", "{s} nie jest blotką"),
    "even": ("{s} ma parzystą wartość", "{s} nie ma parzystej wartości",
             "{s} ma parzystą wartość", "{s} nie ma parzystej wartości"),
    "odd": ("{s} ma nieparzystą wartość", "{s} nie ma nieparzystej wartości",
            "{s} ma nieparzystą wartość", "{s} nie ma nieparzystej wartości"),
    "prime": ("{s} ma wartość pierwszą (2, 3, 5, 7, J, K)",
              "{s} nie ma wartości pierwszej (2, 3, 5, 7, J, K)",
              "{s} ma wartość pierwszą", "{s} nie ma wartości pierwszej"),
}
_NUMBER_KINDS: Final = {"even": "liczba parzysta", "odd": "liczba nieparzysta",
                        "prime": "liczba pierwsza"}
_NUMBER_KINDS_INS: Final = {"even": "liczbą parzystą", "odd": "liczbą nieparzystą",
                            "prime": "liczbą pierwszą"}


#: Heads of computed values, declined: (nominative, gen, acc, loc, ins), gender.
_HEADS: Final = (
    (("reszta z dzielenia", "reszty z dzielenia", "resztę z dzielenia", "reszcie z dzielenia",
      "resztą z dzielenia"), "f"),
    (("całkowita część ilorazu", "całkowitej części ilorazu", "całkowitą część ilorazu",
      "całkowitej części ilorazu", "całkowitą częścią ilorazu"), "f"),
    (("suma liczb", "sumy liczb", "sumę liczb", "sumie liczb", "sumą liczb"), "f"),
    (("wartość bezwzględna", "wartości bezwzględnej", "wartość bezwzględną",
      "wartości bezwzględnej", "wartością bezwzględną"), "f"),
    (("mniejsza z liczb", "mniejszej z liczb", "mniejszą z liczb", "mniejszej z liczb",
      "mniejszą z liczb"), "f"),
    (("większa z liczb", "większej z liczb", "większą z liczb", "większej z liczb",
      "większą z liczb"), "f"),
    (("najmniejsza z liczb", "najmniejszej z liczb", "najmniejszą z liczb",
      "najmniejszej z liczb", "najmniejszą z liczb"), "f"),
    (("największa z liczb", "największej z liczb", "największą z liczb",
      "największej z liczb", "największą z liczb"), "f"),
    (("wynik zawinięcia", "wyniku zawinięcia", "wynik zawinięcia", "wyniku zawinięcia",
      "wynikiem zawinięcia"), "m"),
    (("największy wspólny dzielnik", "największego wspólnego dzielnika",
      "największy wspólny dzielnik", "największym wspólnym dzielniku",
      "największym wspólnym dzielnikiem"), "m"),
    (("element następujący", "elementu następującego", "element następujący",
      "elemencie następującym", "elementem następującym"), "m"),
    (("wyraz odpowiadający", "wyrazu odpowiadającego", "wyraz odpowiadający",
      "wyrazie odpowiadającym", "wyrazem odpowiadającym"), "m"),
    (("wyraz o numerze", "wyrazu o numerze", "wyraz o numerze", "wyrazie o numerze",
      "wyrazem o numerze"), "m"),
)


def _and(words: Sequence[str]) -> str:
    return ", ".join(words[:-1]) + f" i {words[-1]}" if len(words) > 1 else words[0]


class PolishGrammar(Grammar):
    """Polish: cases and genders (see the module docstring)."""

    # --- noun phrases
    def ref(self, k: int) -> NP:
        return _np(_REFS[k])

    def pos(self) -> NP:
        return _np(("pozycja karty", "pozycji karty", "pozycję karty", "pozycji karty",
                    "pozycją karty"), kind="num")

    def card(self, name_words: str) -> NP:
        return _np(tuple(f"{w} {name_words}" for w in _REFS[0]))

    def card_words(self, rank: int, suit: str) -> str:
        return f"{_RANK_LETTERS.get(rank, str(rank))} {_SUITS[suit]}"

    def attr(self, name: str, owner: NP) -> NP:
        forms, gender = _ATTRS[name]
        return _np(tuple(f"{f} {self.case(owner, 'gen')}" for f in forms), gender,
                   "num" if name == "rank" else name)

    def number(self, value: int) -> NP:
        return _np((str(value),) * 5, "?", "num")

    def rank(self, value: int) -> NP:
        if value in _RANKS:
            return _np(_RANKS[value], "m" if value != 12 else "f", "num")
        return self.number(value)

    def suit(self, letter: str) -> NP:
        return _np((_SUITS[letter],) * 5, "m", "lit-suit")

    def color(self, value: str) -> NP:
        forms = _COLORS[value]
        return NP({"nom": forms["f"]}, "f", extra={"kind": "lit-color", **forms})

    def boolean(self, value: bool) -> NP:
        if value:
            return _np(("prawda", "prawdy", "prawdę", "prawdzie", "prawdą"), "f", "lit-bool")
        return _np(("fałsz", "fałszu", "fałsz", "fałszu", "fałszem"), "m", "lit-bool")

    def whether(self, owner: NP, adj: str) -> NP:
        said = self.is_adj(owner, adj, False)
        return _np((f"to, czy {said}", f"tego, czy {said}", f"to, czy {said}",
                    f"tym, czy {said}", f"tym, czy {said}"), "n", "bool")

    def expr(self, text: str) -> NP:
        for forms, gender in _HEADS:
            if text.startswith(forms[0] + " "):
                rest = text[len(forms[0]):]
                return _np(tuple(f + rest for f in forms), gender, "num")
        return NP({"nom": text}, "?", extra={"kind": "num"})

    def case(self, np: NP, case: str) -> str:
        if case in np.forms:
            return np.forms[case]
        text = f"({np.nom})" if np.compound else np.nom
        lead = {"gen": "liczby", "acc": "liczbę", "loc": "liczbie", "ins": "liczbą"}[case]
        return f"{lead} {text}"

    def _n(self, np: NP) -> str:
        return f"({np.nom})" if np.compound else np.nom

    # --- computations
    def negative(self, x: NP) -> str:
        return f"minus {self._n(x)}"

    def arith(self, op: str, left: NP, right: NP) -> str:
        if op == "%":
            return f"reszta z dzielenia {self.case(left, 'gen')} przez {self.case(right, 'acc')}"
        if op == "//":
            return (f"całkowita część ilorazu {self.case(left, 'gen')} "
                    f"przez {self.case(right, 'acc')}")
        word = {"+": "plus", "-": "minus", "*": "razy"}[op]
        return f"{self._n(left)} {word} {self._n(right)}"

    def total(self, terms: Sequence[NP]) -> str:
        return f"suma liczb: {_and([self._n(t) for t in terms])}"

    def absolute(self, x: NP) -> str:
        return f"wartość bezwzględna {self.case(x, 'gen')}"

    def extreme(self, which: str, args: Sequence[NP]) -> str:
        two = len(args) == 2
        word = {("min", True): "mniejsza", ("max", True): "większa",
                ("min", False): "najmniejsza", ("max", False): "największa"}[(which, two)]
        return f"{word} z liczb: {_and([self._n(a) for a in args])}"

    def wrap(self, x: NP) -> str:
        return f"wynik zawinięcia {self.case(x, 'gen')} do zakresu A..K (K + 1 to A)"

    def gcd(self, args: Sequence[NP]) -> str:
        return f"największy wspólny dzielnik liczb: {_and([self._n(a) for a in args])}"

    def next_in(self, x: NP, cycle: str) -> str:
        return f"element następujący po {self.case(x, 'loc')} w cyklu {cycle}"

    def pick(self, x: NP | None, seq: str) -> str:
        if x is None:
            return f"wyraz odpowiadający pozycji karty w powtarzanym ciągu {seq}"
        return f"wyraz o numerze {self._n(x)} w powtarzanym ciągu {seq}"

    def range_np(self, lo: NP, hi: NP) -> str:
        return f"od {self.case(lo, 'gen')} do {self.case(hi, 'gen')}"

    def listing(self, items: Sequence[NP]) -> str:
        return ", ".join(i.nom for i in items)

    def and_list(self, words: Sequence[str]) -> str:
        return _and(words)

    def value_if(self, arms: Sequence[tuple[str, NP]], other: NP) -> str:
        parts = [f"{'jeśli' if i == 0 else 'a jeśli'} {c}, to {t.nom}"
                 for i, (c, t) in enumerate(arms)]
        return ", ".join(parts) + f", a w przeciwnym razie {other.nom}"

    def value_case(self, subject: NP, arms: Sequence[tuple[NP, NP]], other: NP) -> str:
        listed = ", ".join(f"{lit.nom} daje {self.case(t, 'acc')}" for lit, t in arms)
        return (f"w zależności od {self.case(subject, 'gen')}: {listed}, "
                f"każda inna wartość daje {self.case(other, 'acc')}")

    # --- clauses
    def _adj(self, word: str, np: NP) -> str:
        return _WORDS[word][_ADJ[np.gender]]

    def _subject(self, np: NP) -> tuple[str, NP]:
        """The subject and verb for a predicate adjective ("X jest"); a value of
        unknown gender becomes "X to liczba" (feminine), with no verb after."""
        if np.gender == "?":
            return f"{np.nom} to liczba", NP(np.forms, "f")
        return f"{np.nom} jest", np

    def is_adj(self, subject: NP, adj: str, negated: bool, short: bool = False) -> str:
        s = subject.nom
        if adj in _COLORS:
            word = _COLORS[adj][subject.gender if subject.gender in "mfn" else "f"]
            return f"{s} {'nie jest' if negated else 'jest'} {word}"
        if adj in ("spades", "hearts", "diamonds", "clubs"):
            suit = _SUITS[adj[0].upper()]
            return f"{s} {'nie jest' if negated else 'jest'} w kolorze {suit}"
        forms = _KINDS[adj]
        return forms[(2 if short else 0) + (1 if negated else 0)].format(s=s)

    def is_rank(self, subject: NP, value: int, negated: bool) -> str:
        return f"{subject.nom} {'nie jest' if negated else 'jest'} {_RANK_INS[value]}"

    def number_is(self, subject: NP, adj: str, negated: bool) -> str:
        if adj in _NUMBER_KINDS:
            if negated:
                return f"{subject.nom} nie jest {_NUMBER_KINDS_INS[adj]}"
            return f"{subject.nom} to {_NUMBER_KINDS[adj]}"
        if adj in _COLORS:
            verb = "nie jest" if negated else "jest"
            if subject.gender == "?":  # a computed suit: a red or black one
                return f"{subject.nom} {verb} kolorem {_COLORS[adj]['ins']}"
            return f"{subject.nom} {verb} {_COLORS[adj][subject.gender]}"
        if adj in ("spades", "hearts", "diamonds", "clubs"):
            return f"{subject.nom} to {'nie ' if negated else ''}{_SUITS[adj[0].upper()]}"
        return self.is_adj(subject, adj, negated)

    def compare(self, op: str, left: NP, right: NP) -> str:
        kind = right.extra.get("kind", "")
        if kind == "lit-color" and op in ("==", "!="):
            verb = "jest" if op == "==" else "nie jest"
            if left.gender == "?":
                return f"{left.nom} {verb} kolorem {right.extra['ins']}"
            return f"{left.nom} {verb} {right.extra[left.gender]}"
        if kind in ("lit-suit", "lit-bool") and op in ("==", "!="):
            return f"{left.nom} to {'' if op == '==' else 'nie '}{right.nom}"
        literal = right.gender != "?" or right.nom.lstrip("-").isdigit()
        if op == "==" and literal and kind == "num" and right.nom.lstrip("-").isdigit():
            return f"{left.nom} wynosi {self.case(right, 'acc')}"
        if op == "<=":
            return f"{left.nom} wynosi co najwyżej {self.case(right, 'acc')}"
        if op == ">=":
            return f"{left.nom} wynosi co najmniej {self.case(right, 'acc')}"
        text, np = self._subject(left)
        if op == "==":
            return f"{text} {self._adj('same', np)} jak {right.nom}"
        if op == "!=":
            return f"{text} {self._adj('different', np)} od {self.case(right, 'gen')}"
        word = "smaller" if op == "<" else "bigger"
        return f"{text} {self._adj(word, np)} niż {right.nom}"

    def same(self, a: NP, b: NP, noun: str, equal: bool) -> str:
        same, other = {
            "color": ("tę samą barwę", "inną barwę"),
            "parity": ("tę samą parzystość", "inną parzystość"),
            "rank": ("tę samą wartość", "inną wartość"),
            "suit": ("ten sam kolor", "inny kolor"),
        }[noun]
        if equal:
            return f"{a.nom} ma {same} co {b.nom}"
        return f"{a.nom} ma {other} niż {b.nom}"

    def same_adj(self, a: NP, b: NP, adj: str, equal: bool) -> str:
        return (f"{self.is_adj(a, adj, False)} dokładnie wtedy, gdy "
                f"{self.is_adj(b, adj, not equal, short=True)}")

    def same_card(self, a: NP, b: NP, equal: bool) -> str:
        if equal:
            return f"{a.nom} jest tą samą kartą co {b.nom}"
        return f"{a.nom} jest inną kartą niż {b.nom}"

    def multiple(self, x: NP, m: int, negated: bool) -> str:
        return f"{x.nom} {'nie dzieli się' if negated else 'dzieli się'} przez {m}"

    def remainder(self, x: NP, m: int, r: int, negated: bool) -> str:
        if negated:
            return f"{x.nom} nie daje reszty {r} z dzielenia przez {m}"
        return f"{x.nom} daje resztę {r} z dzielenia przez {m}"

    def coprime(self, args: Sequence[NP], equal: bool) -> str:
        listed = _and([self._n(a) for a in args])
        if equal:
            return f"{listed} nie mają wspólnego dzielnika większego niż 1"
        return f"{listed} mają wspólny dzielnik większy niż 1"

    def iff(self, a: str, b: str) -> str:
        return f"{a} dokładnie wtedy, gdy {b}"

    def xor(self, a: str, b: str) -> str:
        return f"albo {a}, albo {b}, ale nie jedno i drugie"

    def neither(self, a: str, b: str) -> str:
        return f"nie jest prawdą ani to, że {a}, ani to, że {b}"

    def not_true(self, a: str) -> str:
        return f"nie jest prawdą, że {a}"

    def join(self, word: str, items: Sequence[str]) -> str:
        return (" i " if word == "and" else " lub ").join(items)

    def between(self, x: NP, lo: NP, hi: NP, negated: bool) -> str:
        verb = "nie mieści się" if negated else "mieści się"
        return (f"{x.nom} {verb} w przedziale od {self.case(lo, 'gen')} "
                f"do {self.case(hi, 'gen')} (włącznie)")

    def one_of(self, x: NP, items: str, negated: bool) -> str:
        if negated:
            return f"{x.nom} nie jest żadną z wartości: {items}"
        return f"{x.nom} to jedna z wartości: {items}"

    def equal_any(self, x: NP, items: Sequence[NP], negated: bool) -> str:
        text, np = self._subject(x)
        if negated:
            return f"{text} {self._adj('other', np)} niż " + " i niż ".join(
                self._n(i) for i in items)
        return f"{text} {self._adj('same', np)} jak " + " lub jak ".join(
            self._n(i) for i in items)

    def holds(self, x: NP) -> str:
        return f"{x.nom} to prawda"

    def all_cards(self, accepted: bool) -> str:
        return "każda karta jest przyjmowana" if accepted else "żadna karta nie jest przyjmowana"

    def bool_if(self, arms: Sequence[tuple[str, str]], other: str) -> str:
        parts = [f"{'jeśli' if i == 0 else 'a jeśli'} {c}, to {t}"
                 for i, (c, t) in enumerate(arms)]
        return ", ".join(parts) + f", a w przeciwnym razie {other}"

    def bool_case(self, subject: NP, arms: Sequence[tuple[NP, str]], other: str) -> str:
        listed = "; ".join(f"gdy jest to {lit.nom}, {t}" for lit, t in arms)
        return (f"w zależności od {self.case(subject, 'gen')}: {listed}; "
                f"w pozostałych przypadkach {other}")

    # --- sentences
    def every_card(self, accepted: bool) -> str:
        return self.all_cards(accepted)

    def may_play(self, clause: str) -> str:
        return f"karta może zostać zagrana, gdy {clause}"

    def if_sentence(self, arms: Sequence[tuple[str, str]], other: str) -> str:
        parts = [f"{'jeśli' if i == 0 else 'jeśli natomiast'} {c}, to {t}"
                 for i, (c, t) in enumerate(arms)]
        return "; ".join(parts) + f"; w przeciwnym razie {other}"

    def case_sentence(self, subject: NP, arms: Sequence[tuple[NP, str]], other: str) -> str:
        return self.bool_case(subject, arms, other)
