"""Rules said in French (:mod:`eleusis.rules.describe`).

The suit is *l'enseigne* (pique, cœur, carreau, trèfle), kept apart from the
colour (*la couleur*, rouge ou noire); the rank is *la valeur*; ranks are
named as on French cards (as, valet, dame, roi; V, D, R). Prepositions
contract with the article that follows ("de la carte", "du reste", "au
plus"), adjectives agree with their noun, and a space comes before ``:``
and ``;`` as French typography wants (a no-break space, so the sign never
starts a line).

>>> from eleusis.rules import parse
>>> parse("card.suit == prev.suit").describe("fr")
'Une carte peut être jouée quand la carte a la même enseigne que la carte précédente.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from eleusis.rules.describe import NP, Grammar

NBSP: Final = "\u00a0"
_VOWELS: Final = "aeiouyéèêâàîôûh"


def _de(text: str) -> str:
    """``de`` before a noun phrase, contracted: du, des, d'."""
    if text.startswith("le "):
        return "du " + text[3:]
    if text.startswith("les "):
        return "des " + text[4:]
    if text[:1].lower() in _VOWELS and not text.startswith("huit"):
        return "d'" + text
    return "de " + text


def _a(text: str) -> str:
    """``à`` before a noun phrase, contracted: au, aux."""
    if text.startswith("le "):
        return "au " + text[3:]
    if text.startswith("les "):
        return "aux " + text[4:]
    return "à " + text


def _is(positive: bool) -> str:
    return "est" if positive else "n'est pas"


def _and(words: Sequence[str]) -> str:
    return ", ".join(words[:-1]) + f" et {words[-1]}" if len(words) > 1 else words[0]


_REFS: Final = {
    0: "la carte",
    1: "la carte précédente",
    2: "l'avant-dernière carte",
    3: "l'antépénultième carte",
    4: "la quatrième carte avant la fin",
}
_RANKS: Final = {1: "as", 11: "valet", 12: "dame", 13: "roi"}
_RANK_ARTICLE: Final = {1: "un as", 8: "un 8", 11: "un valet", 12: "une dame", 13: "un roi"}
_SUITS: Final = {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"}
_ATTRS: Final = {"rank": ("la valeur", "f"), "suit": ("l'enseigne", "f"),
                 "color": ("la couleur", "f")}
_COLORS: Final = {"red": {"m": "rouge", "f": "rouge"}, "black": {"m": "noir", "f": "noire"}}
_KINDS: Final = {
    "face": ("une figure (V, D, R)", "une figure"),
    "numeral": ("une carte numérale (de l'as au 10)", "une carte numérale"),
    "even": ("de valeur paire", "de valeur paire"),
    "odd": ("de valeur impaire", "de valeur impaire"),
    "prime": ("de valeur première (2, 3, 5, 7, V, R)", "de valeur première"),
    "spades": ("un pique", "un pique"),
    "hearts": ("un cœur", "un cœur"),
    "diamonds": ("un carreau", "un carreau"),
    "clubs": ("un trèfle", "un trèfle"),
}
#: Heads of computed values and their gender (for the adjective that follows).
_HEADS: Final = {"le reste": "m", "le quotient": "m", "la somme": "f", "la valeur": "f",
                 "le plus": "m", "le rang": "m", "l'élément": "m", "l'enseigne": "f",
                 "la ": "f"}


def _agree(word: str, np: NP) -> str:
    """An adjective agreeing with ``np`` (égal -> égale, compris -> comprise)."""
    if np.gender != "f":
        return word
    return {"égal": "égale", "différent": "différente", "inférieur": "inférieure",
            "supérieur": "supérieure", "compris": "comprise"}.get(word, word)


class FrenchGrammar(Grammar):
    """French: articles that contract, adjectives that agree."""

    # --- noun phrases
    def ref(self, k: int) -> NP:
        return NP({"nom": _REFS[k]}, "f")

    def pos(self) -> NP:
        return NP({"nom": "la position de la carte"}, "f", extra={"kind": "num"})

    def card(self, name_words: str) -> NP:
        # "l'as", but "le 8" (said "le huit": no elision before a number)
        return NP({"nom": f"l'{name_words}" if name_words.startswith("as")
                   else f"le {name_words}"}, "m")

    def card_words(self, rank: int, suit: str) -> str:
        return f"{_RANKS.get(rank, str(rank))} de {_SUITS[suit]}"

    def attr(self, name: str, owner: NP) -> NP:
        noun, gender = _ATTRS[name]
        return NP({"nom": f"{noun} {_de(owner.nom)}"}, gender,
                  extra={"kind": "num" if name == "rank" else name})

    def number(self, value: int) -> NP:
        return NP({"nom": str(value)}, "m", extra={"kind": "num"})

    def rank(self, value: int) -> NP:
        return NP({"nom": _RANKS.get(value, str(value))}, "m", extra={"kind": "num"})

    def suit(self, letter: str) -> NP:
        return NP({"nom": _SUITS[letter]}, "m", extra={"kind": "lit-suit"})

    def color(self, value: str) -> NP:
        return NP({"nom": _COLORS[value]["f"]}, "f", extra={"kind": "lit-color", **_COLORS[value]})

    def boolean(self, value: bool) -> NP:
        return NP({"nom": "vrai" if value else "faux"}, "m", extra={"kind": "lit-bool"})

    def whether(self, owner: NP, adj: str) -> NP:
        return NP({"nom": f"le fait que {self.is_adj(owner, adj, False)}"}, "m",
                  extra={"kind": "bool"})

    def expr(self, text: str) -> NP:
        gender = next((g for head, g in _HEADS.items() if text.startswith(head)), "m")
        return NP({"nom": text}, gender, extra={"kind": "num"})

    def case(self, np: NP, case: str) -> str:
        return np.nom

    def _n(self, np: NP) -> str:
        return f"({np.nom})" if np.compound else np.nom

    # --- computations
    def negative(self, x: NP) -> str:
        return f"moins {self._n(x)}"

    def arith(self, op: str, left: NP, right: NP) -> str:
        if op == "%":
            return f"le reste de la division {_de(self._n(left))} par {self._n(right)}"
        if op == "//":
            return f"le quotient entier {_de(self._n(left))} par {self._n(right)}"
        word = {"+": "plus", "-": "moins", "*": "fois"}[op]
        return f"{self._n(left)} {word} {self._n(right)}"

    def total(self, terms: Sequence[NP]) -> str:
        return f"la somme {_de(_and([self._n(t) for t in terms]))}"

    def absolute(self, x: NP) -> str:
        return f"la valeur absolue {_de(self._n(x))}"

    def extreme(self, which: str, args: Sequence[NP]) -> str:
        word = "petit" if which == "min" else "grand"
        return f"le plus {word} des nombres {_and([self._n(a) for a in args])}"

    def wrap(self, x: NP) -> str:
        return f"le rang obtenu en ramenant {self._n(x)} dans A..K (K + 1 donne A)"

    def gcd(self, args: Sequence[NP]) -> str:
        return f"le plus grand commun diviseur {_de(_and([self._n(a) for a in args]))}"

    def next_in(self, x: NP, cycle: str) -> str:
        return f"l'élément qui suit {self._n(x)} dans le cycle {cycle}"

    def pick(self, x: NP | None, seq: str) -> str:
        if x is None:
            return f"l'élément qui correspond à la position de la carte dans la suite répétée {seq}"
        return f"l'élément de rang {self._n(x)} dans la suite répétée {seq}"

    def range_np(self, lo: NP, hi: NP) -> str:
        return f"de {lo.nom} à {hi.nom}"

    def listing(self, items: Sequence[NP]) -> str:
        return ", ".join(i.nom for i in items)

    def and_list(self, words: Sequence[str]) -> str:
        return _and(words)

    def value_if(self, arms: Sequence[tuple[str, NP]], other: NP) -> str:
        parts = [f"{self._si(c) if i == 0 else 'sinon ' + self._si(c)} alors {t.nom}"
                 for i, (c, t) in enumerate(arms)]
        return ", ".join(parts) + f", sinon {other.nom}"

    def value_case(self, subject: NP, arms: Sequence[tuple[NP, NP]], other: NP) -> str:
        listed = ", ".join(f"{lit.nom} donne {t.nom}" for lit, t in arms)
        return f"selon {subject.nom}{NBSP}: {listed}, toute autre valeur donne {other.nom}"

    @staticmethod
    def _si(clause: str) -> str:
        return f"s'{clause}" if clause.startswith(("il ", "ils ")) else f"si {clause}"

    # --- clauses
    def is_adj(self, subject: NP, adj: str, negated: bool, short: bool = False) -> str:
        verb = "n'est pas" if negated else "est"
        if adj in _COLORS:
            return f"{subject.nom} {verb} {_COLORS[adj][subject.gender]}"
        return f"{subject.nom} {verb} {_KINDS[adj][1 if short else 0]}"

    def is_rank(self, subject: NP, value: int, negated: bool) -> str:
        verb = "n'est pas" if negated else "est"
        return f"{subject.nom} {verb} {_RANK_ARTICLE.get(value, f'un {value}')}"

    def number_is(self, subject: NP, adj: str, negated: bool) -> str:
        verb = "n'est pas" if negated else "est"
        kind = {"even": "un nombre pair", "odd": "un nombre impair",
                "prime": "un nombre premier"}.get(adj)
        if kind is not None:
            return f"{subject.nom} {verb} {kind}"
        if adj in _COLORS:
            return f"{subject.nom} {verb} {_COLORS[adj][subject.gender]}"
        if adj in ("spades", "hearts", "diamonds", "clubs"):
            return f"{subject.nom} {verb} {_SUITS[adj[0].upper()]}"
        return self.is_adj(subject, adj, negated)

    def compare(self, op: str, left: NP, right: NP) -> str:
        kind = right.extra.get("kind", "")
        if kind == "lit-color" and op in ("==", "!="):
            word = right.extra[left.gender if left.gender in "mf" else "m"]
            return f"{left.nom} {_is(op == '==')} {word}"
        if kind in ("lit-suit", "lit-bool") and op in ("==", "!="):
            return f"{left.nom} {_is(op == '==')} {right.nom}"
        number = right.nom.lstrip("-").isdigit()
        if op == "==" and number:
            return f"{left.nom} est {right.nom}"
        if op in ("<=", ">=") and number:
            return f"{left.nom} est d'au {'plus' if op == '<=' else 'moins'} {right.nom}"
        if op in ("<=", ">="):
            word = "inférieur" if op == "<=" else "supérieur"
            return f"{left.nom} est {_agree(word, left)} ou {_agree('égal', left)} {_a(right.nom)}"
        if op == "==":
            return f"{left.nom} est {_agree('égal', left)} {_a(right.nom)}"
        if op == "!=":
            return f"{left.nom} est {_agree('différent', left)} {_de(right.nom)}"
        word = "inférieur" if op == "<" else "supérieur"
        return f"{left.nom} est {_agree(word, left)} {_a(right.nom)}"

    def same(self, a: NP, b: NP, noun: str, equal: bool) -> str:
        word = {"color": "la même couleur", "parity": "la même parité",
                "rank": "la même valeur", "suit": "la même enseigne"}[noun]
        verb = "a" if equal else "n'a pas"
        return f"{a.nom} {verb} {word} que {b.nom}"

    def same_adj(self, a: NP, b: NP, adj: str, equal: bool) -> str:
        return (f"{self.is_adj(a, adj, False)} si et seulement si "
                f"{self.is_adj(b, adj, not equal, short=True)}")

    def same_card(self, a: NP, b: NP, equal: bool) -> str:
        return f"{a.nom} {_is(equal)} la même carte que {b.nom}"

    def multiple(self, x: NP, m: int, negated: bool) -> str:
        return f"{x.nom} {_is(not negated)} un multiple de {m}"

    def remainder(self, x: NP, m: int, r: int, negated: bool) -> str:
        verb = "n'a pas" if negated else "a"
        return f"{x.nom} {verb} pour reste {r} dans la division par {m}"

    def coprime(self, args: Sequence[NP], equal: bool) -> str:
        listed = _and([self._n(a) for a in args])
        if equal:
            return f"{listed} n'ont aucun diviseur commun supérieur à 1"
        return f"{listed} ont un diviseur commun supérieur à 1"

    def iff(self, a: str, b: str) -> str:
        return f"{a} si et seulement si {b}"

    def xor(self, a: str, b: str) -> str:
        return f"soit {a}, soit {b}, mais pas les deux"

    def neither(self, a: str, b: str) -> str:
        return f"il est faux de dire que {a} comme de dire que {b}"

    def not_true(self, a: str) -> str:
        return f"il est faux de dire que {a}"

    def join(self, word: str, items: Sequence[str]) -> str:
        return (" et " if word == "and" else " ou ").join(items)

    def between(self, x: NP, lo: NP, hi: NP, negated: bool) -> str:
        verb = "n'est pas" if negated else "est"
        return f"{x.nom} {verb} {_agree('compris', x)} entre {lo.nom} et {hi.nom} (inclus)"

    def one_of(self, x: NP, items: str, negated: bool) -> str:
        if negated:
            return f"{x.nom} n'est aucune des valeurs suivantes{NBSP}: {items}"
        return f"{x.nom} est l'une des valeurs suivantes{NBSP}: {items}"

    def equal_any(self, x: NP, items: Sequence[NP], negated: bool) -> str:
        if negated:
            return (f"{x.nom} est {_agree('différent', x)} "
                    + " et ".join(_de(self._n(i)) for i in items))
        return f"{x.nom} est {_agree('égal', x)} " + " ou ".join(_a(self._n(i)) for i in items)

    def holds(self, x: NP) -> str:
        return f"{x.nom} est vrai"

    def all_cards(self, accepted: bool) -> str:
        return "toute carte est acceptée" if accepted else "aucune carte n'est acceptée"

    def bool_if(self, arms: Sequence[tuple[str, str]], other: str) -> str:
        parts = [f"{self._si(c) if i == 0 else 'sinon ' + self._si(c)} alors {t}"
                 for i, (c, t) in enumerate(arms)]
        return ", ".join(parts) + f", sinon {other}"

    def bool_case(self, subject: NP, arms: Sequence[tuple[NP, str]], other: str) -> str:
        listed = f"{NBSP}; ".join(f"quand c'est {lit.nom}, {t}" for lit, t in arms)
        return f"selon {subject.nom}{NBSP}: {listed}{NBSP}; sinon {other}"

    # --- sentences
    def every_card(self, accepted: bool) -> str:
        return self.all_cards(accepted)

    def may_play(self, clause: str) -> str:
        return f"une carte peut être jouée quand {clause}"

    def if_sentence(self, arms: Sequence[tuple[str, str]], other: str) -> str:
        parts = [f"{self._si(c) if i == 0 else 'si en revanche ' + c}, {t}"
                 for i, (c, t) in enumerate(arms)]
        return f"{NBSP}; ".join(parts) + f"{NBSP}; sinon {other}"

    def case_sentence(self, subject: NP, arms: Sequence[tuple[NP, str]], other: str) -> str:
        return self.bool_case(subject, arms, other)
