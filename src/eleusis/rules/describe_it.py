"""Rules said in Italian (:mod:`eleusis.rules.describe`).

The suit is *il seme* (picche, cuori, quadri, fiori), the colour *il
colore* (rosso, nero), the rank *il valore*; the ranks are asso, fante,
donna, re (J, Q, K as printed on the cards). Prepositions join the article
that follows ("della carta", "dal valore", "al valore") and adjectives agree
with their noun ("la carta è rossa", "il colore è rosso").

>>> from eleusis.rules import parse
>>> parse("card.suit != prev.suit").describe("it")
'Una carta può essere giocata quando la carta ha un seme diverso da quello della carta precedente.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from eleusis.rules.describe import NP, Grammar

_ARTICLES: Final = (("il ", "l"), ("lo ", "llo"), ("la ", "lla"), ("l'", "ll'"), ("i ", "i"),
                    ("gli ", "gli"), ("le ", "lle"))


def _join(prep: str, text: str) -> str:
    """A preposition (di, a, da) joined with the article that follows: della, al, dall'."""
    base = {"di": "de", "a": "a", "da": "da"}[prep]
    for article, tail in _ARTICLES:
        if text.startswith(article):
            joined = base + tail
            rest = text[len(article):]
            return f"{joined}{rest}" if joined.endswith("'") else f"{joined} {rest}"
    return f"{prep} {text}"


def _and(words: Sequence[str]) -> str:
    return ", ".join(words[:-1]) + f" e {words[-1]}" if len(words) > 1 else words[0]


_REFS: Final = {
    0: "la carta",
    1: "la carta precedente",
    2: "la penultima carta",
    3: "la terzultima carta",
    4: "la quartultima carta",
}
_RANKS: Final = {1: "asso", 11: "fante", 12: "donna", 13: "re"}
_RANK_ARTICLE: Final = {1: "un asso", 8: "un 8", 11: "un fante", 12: "una donna", 13: "un re"}
_SUITS: Final = {"S": "picche", "H": "cuori", "D": "quadri", "C": "fiori"}
_ATTRS: Final = {"rank": "il valore", "suit": "il seme", "color": "il colore"}
_COLORS: Final = {"red": {"m": "rosso", "f": "rossa"}, "black": {"m": "nero", "f": "nera"}}
_KINDS: Final = {
    "face": ("una figura (J, Q, K)", "una figura"),
    "numeral": ("una carta numerica (dall'asso al 10)", "una carta numerica"),
    "even": ("di valore pari", "di valore pari"),
    "odd": ("di valore dispari", "di valore dispari"),
    "prime": ("di valore primo (2, 3, 5, 7, J, K)", "di valore primo"),
    "spades": ("di picche", "di picche"),
    "hearts": ("di cuori", "di cuori"),
    "diamonds": ("di quadri", "di quadri"),
    "clubs": ("di fiori", "di fiori"),
}
_SAME: Final = {"color": ("lo stesso colore", "un colore diverso"),
                "parity": ("la stessa parità", "una parità diversa"),
                "rank": ("lo stesso valore", "un valore diverso"),
                "suit": ("lo stesso seme", "un seme diverso")}


def _agree(word: str, np: NP) -> str:
    """An adjective agreeing with ``np`` (diverso -> diversa, compreso -> compresa)."""
    return word[:-1] + "a" if np.gender == "f" else word


def _is(positive: bool) -> str:
    return "è" if positive else "non è"


class ItalianGrammar(Grammar):
    """Italian: articulated prepositions, adjectives that agree."""

    # --- noun phrases
    def ref(self, k: int) -> NP:
        return NP({"nom": _REFS[k]}, "f")

    def pos(self) -> NP:
        return NP({"nom": "la posizione della carta"}, "f", extra={"kind": "num"})

    def card(self, name_words: str) -> NP:
        article = "l'" if name_words.startswith(("asso", "8")) else "il "
        return NP({"nom": f"{article}{name_words}"}, "m")

    def card_words(self, rank: int, suit: str) -> str:
        return f"{_RANKS.get(rank, str(rank))} di {_SUITS[suit]}"

    def attr(self, name: str, owner: NP) -> NP:
        return NP({"nom": f"{_ATTRS[name]} {_join('di', owner.nom)}"}, "m",
                  extra={"kind": "num" if name == "rank" else name})

    def number(self, value: int) -> NP:
        return NP({"nom": str(value)}, "m", extra={"kind": "num"})

    def rank(self, value: int) -> NP:
        return NP({"nom": _RANKS.get(value, str(value))}, "m", extra={"kind": "num"})

    def suit(self, letter: str) -> NP:
        return NP({"nom": _SUITS[letter]}, "m", extra={"kind": "lit-suit"})

    def color(self, value: str) -> NP:
        return NP({"nom": _COLORS[value]["m"]}, "m", extra={"kind": "lit-color", **_COLORS[value]})

    def boolean(self, value: bool) -> NP:
        return NP({"nom": "vero" if value else "falso"}, "m", extra={"kind": "lit-bool"})

    def whether(self, owner: NP, adj: str) -> NP:
        return NP({"nom": f"il fatto che {self.is_adj(owner, adj, False)}"}, "m",
                  extra={"kind": "bool"})

    def expr(self, text: str) -> NP:
        return NP({"nom": text}, "f" if text.startswith("la ") else "m", extra={"kind": "num"})

    def case(self, np: NP, case: str) -> str:
        return np.nom

    def _n(self, np: NP) -> str:
        return f"({np.nom})" if np.compound else np.nom

    # --- computations
    def negative(self, x: NP) -> str:
        return f"meno {self._n(x)}"

    def arith(self, op: str, left: NP, right: NP) -> str:
        if op == "%":
            return f"il resto della divisione {_join('di', self._n(left))} per {self._n(right)}"
        if op == "//":
            return (f"il quoziente intero della divisione {_join('di', self._n(left))} "
                    f"per {self._n(right)}")
        word = {"+": "più", "-": "meno", "*": "per"}[op]
        return f"{self._n(left)} {word} {self._n(right)}"

    def total(self, terms: Sequence[NP]) -> str:
        return f"la somma {_join('di', _and([self._n(t) for t in terms]))}"

    def absolute(self, x: NP) -> str:
        return f"il valore assoluto {_join('di', self._n(x))}"

    def extreme(self, which: str, args: Sequence[NP]) -> str:
        word = {("min", True): "il minore", ("max", True): "il maggiore",
                ("min", False): "il minimo", ("max", False): "il massimo"}[
            (which, len(args) == 2)]
        return f"{word} tra {_and([self._n(a) for a in args])}"

    def wrap(self, x: NP) -> str:
        return f"il valore ottenuto riportando {self._n(x)} nell'intervallo A..K (K + 1 dà A)"

    def gcd(self, args: Sequence[NP]) -> str:
        return f"il massimo comun divisore {_join('di', _and([self._n(a) for a in args]))}"

    def next_in(self, x: NP, cycle: str) -> str:
        return f"l'elemento che segue {self._n(x)} nel ciclo {cycle}"

    def pick(self, x: NP | None, seq: str) -> str:
        if x is None:
            return ("l'elemento che corrisponde alla posizione della carta nella sequenza "
                    f"ripetuta {seq}")
        return f"l'elemento di posto {self._n(x)} nella sequenza ripetuta {seq}"

    def range_np(self, lo: NP, hi: NP) -> str:
        return f"da {lo.nom} a {hi.nom}"

    def listing(self, items: Sequence[NP]) -> str:
        return ", ".join(i.nom for i in items)

    def and_list(self, words: Sequence[str]) -> str:
        return _and(words)

    def value_if(self, arms: Sequence[tuple[str, NP]], other: NP) -> str:
        parts = [f"{'se' if i == 0 else 'altrimenti se'} {c} allora {t.nom}"
                 for i, (c, t) in enumerate(arms)]
        return ", ".join(parts) + f", altrimenti {other.nom}"

    def value_case(self, subject: NP, arms: Sequence[tuple[NP, NP]], other: NP) -> str:
        listed = ", ".join(f"{lit.nom} dà {t.nom}" for lit, t in arms)
        return f"a seconda {_join('di', subject.nom)}: {listed}, ogni altro valore dà {other.nom}"

    # --- clauses
    def is_adj(self, subject: NP, adj: str, negated: bool, short: bool = False) -> str:
        if adj in _COLORS:
            return f"{subject.nom} {_is(not negated)} {_COLORS[adj][subject.gender]}"
        return f"{subject.nom} {_is(not negated)} {_KINDS[adj][1 if short else 0]}"

    def is_rank(self, subject: NP, value: int, negated: bool) -> str:
        return f"{subject.nom} {_is(not negated)} {_RANK_ARTICLE.get(value, f'un {value}')}"

    def number_is(self, subject: NP, adj: str, negated: bool) -> str:
        kind = {"even": "un numero pari", "odd": "un numero dispari",
                "prime": "un numero primo"}.get(adj)
        if kind is not None:
            return f"{subject.nom} {_is(not negated)} {kind}"
        if adj in _COLORS:
            return f"{subject.nom} {_is(not negated)} {_COLORS[adj][subject.gender]}"
        if adj in ("spades", "hearts", "diamonds", "clubs"):
            return f"{subject.nom} {_is(not negated)} {_SUITS[adj[0].upper()]}"
        return self.is_adj(subject, adj, negated)

    def compare(self, op: str, left: NP, right: NP) -> str:
        kind = right.extra.get("kind", "")
        if kind == "lit-color" and op in ("==", "!="):
            return f"{left.nom} {_is(op == '==')} {right.extra[left.gender]}"
        if kind in ("lit-suit", "lit-bool") and op in ("==", "!="):
            return f"{left.nom} {_is(op == '==')} {right.nom}"
        if op == "==":
            return f"{left.nom} è uguale {_join('a', right.nom)}"
        if op == "!=":
            return f"{left.nom} è {_agree('diverso', left)} {_join('da', right.nom)}"
        if op == "<=":
            return f"{left.nom} è al massimo {right.nom}"
        if op == ">=":
            return f"{left.nom} è almeno {right.nom}"
        word = "minore" if op == "<" else "maggiore"
        return f"{left.nom} è {word} {_join('di', right.nom)}"

    def same(self, a: NP, b: NP, noun: str, equal: bool) -> str:
        same, other = _SAME[noun]
        if equal:
            return f"{a.nom} ha {same} {_join('di', b.nom)}"
        return f"{a.nom} ha {other} da quello {_join('di', b.nom)}"

    def same_adj(self, a: NP, b: NP, adj: str, equal: bool) -> str:
        return (f"{self.is_adj(a, adj, False)} se e solo se "
                f"{self.is_adj(b, adj, not equal, short=True)}")

    def same_card(self, a: NP, b: NP, equal: bool) -> str:
        if equal:
            return f"{a.nom} è la stessa carta {_join('di', b.nom)}"
        return f"{a.nom} è una carta diversa {_join('da', b.nom)}"

    def multiple(self, x: NP, m: int, negated: bool) -> str:
        return f"{x.nom} {_is(not negated)} un multiplo di {m}"

    def remainder(self, x: NP, m: int, r: int, negated: bool) -> str:
        verb = "non dà" if negated else "dà"
        return f"{x.nom} {verb} resto {r} nella divisione per {m}"

    def coprime(self, args: Sequence[NP], equal: bool) -> str:
        listed = _and([self._n(a) for a in args])
        if equal:
            return f"{listed} non hanno divisori comuni maggiori di 1"
        return f"{listed} hanno un divisore comune maggiore di 1"

    def iff(self, a: str, b: str) -> str:
        return f"{a} se e solo se {b}"

    def xor(self, a: str, b: str) -> str:
        return f"o {a} o {b}, ma non entrambe le cose"

    def neither(self, a: str, b: str) -> str:
        return f"è falso affermare che {a}, ed è falso affermare che {b}"

    def not_true(self, a: str) -> str:
        return f"è falso affermare che {a}"

    def join(self, word: str, items: Sequence[str]) -> str:
        return (" e " if word == "and" else " o ").join(items)

    def between(self, x: NP, lo: NP, hi: NP, negated: bool) -> str:
        return (f"{x.nom} {_is(not negated)} {_agree('compreso', x)} tra {lo.nom} e {hi.nom} "
                "(estremi inclusi)")

    def one_of(self, x: NP, items: str, negated: bool) -> str:
        if negated:
            return f"{x.nom} non è nessuno dei valori seguenti: {items}"
        return f"{x.nom} è uno dei valori seguenti: {items}"

    def equal_any(self, x: NP, items: Sequence[NP], negated: bool) -> str:
        if negated:
            return (f"{x.nom} è {_agree('diverso', x)} "
                    + " e ".join(_join('da', self._n(i)) for i in items))
        return f"{x.nom} è uguale " + " o ".join(_join('a', self._n(i)) for i in items)

    def holds(self, x: NP) -> str:
        return f"{x.nom} è vero"

    def all_cards(self, accepted: bool) -> str:
        return "ogni carta è accettata" if accepted else "nessuna carta è accettata"

    def bool_if(self, arms: Sequence[tuple[str, str]], other: str) -> str:
        parts = [f"{'se' if i == 0 else 'altrimenti se'} {c} allora {t}"
                 for i, (c, t) in enumerate(arms)]
        return ", ".join(parts) + f", altrimenti {other}"

    def bool_case(self, subject: NP, arms: Sequence[tuple[NP, str]], other: str) -> str:
        listed = "; ".join(f"quando è {lit.nom}, {t}" for lit, t in arms)
        return f"a seconda {_join('di', subject.nom)}: {listed}; altrimenti {other}"

    # --- sentences
    def every_card(self, accepted: bool) -> str:
        return self.all_cards(accepted)

    def may_play(self, clause: str) -> str:
        return f"una carta può essere giocata quando {clause}"

    def if_sentence(self, arms: Sequence[tuple[str, str]], other: str) -> str:
        parts = [f"{'se' if i == 0 else 'se invece'} {c}, {t}" for i, (c, t) in enumerate(arms)]
        return "; ".join(parts) + f"; altrimenti {other}"

    def case_sentence(self, subject: NP, arms: Sequence[tuple[NP, str]], other: str) -> str:
        return self.bool_case(subject, arms, other)
