"""The rule library: metadata, canonical texts, oracles, playability, distinctness.

Each library rule is pinned by an independent oracle (``library_oracles.py``,
written from the English description) on every context up to its look-back:
all 52 judged cards after every looked-back card, with a slot reduced to one
suit's 13 cards when both the oracle (by declaration) and the rule (checked on
its text) read only that slot's rank, to 4 cards when both read only its suit,
to 1 card when neither reads it. Rules reading ``pos`` are checked at every
position 1..20. Short mainlines (the missing-card semantics) are included. A
random sample of unreduced contexts guards the declarations.
"""

from __future__ import annotations

import importlib.util
import itertools
import random
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from eleusis.cards import ALL_CARDS, Card, Suit
from eleusis.rules import Rule, parse
from eleusis.rules.compare import compare
from eleusis.rules.generate import distinguishes, explore
from eleusis.rules.library import (
    ACCEPTANCE_BAND,
    RULES,
    LibraryRule,
    by_difficulty,
    get,
    random_rule,
)


def _load_oracles() -> ModuleType:
    path = Path(__file__).with_name("library_oracles.py")
    spec = importlib.util.spec_from_file_location("eleusis_library_oracles", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


oracles = _load_oracles()
ORACLES = oracles.ORACLES
READS: dict[str, tuple[str, ...]] = oracles.READS

IDS = [r.name for r in RULES]

#: Every example rule of the seeds, by library name.
SEED_EXAMPLES = {
    # seed 000: Eleusis Express
    "suit-cycle-shdc": "card.suit == next(prev.suit, [spades, hearts, diamonds, clubs])",
    "odd-red-even-black": "if prev is odd then card is red else card is black",
    # seed 001
    "alternate-colors": "card.color != prev.color",
    "each-higher": "card.rank > prev.rank",
    "seed-primes": "card.rank in {2, 3, 5, 7, J}",
    "plus-one-or-minus-two": "card.rank == prev.rank + 1 or card.rank == prev.rank - 2",
    "suit-cycle-hcds": "card.suit == next(prev.suit, [hearts, clubs, diamonds, spades])",
    # seed 001 and 003
    "higher-unless-face": "if prev is face then card is numeral else card.rank > prev.rank",
    # seed 004: Royal Eleusis
    "odd-black-else-red": "if prev is odd then card is black else card is red",
    "black-up-red-down": (
        "if prev is black then card.rank >= prev.rank else card.rank <= prev.rank"
    ),
    "same-suit-or-rank": "card.suit == prev.suit or card.rank == prev.rank",
    "primes-alternate": "card.prime != prev.prime",
    "too-complicated": None,
    "cyclic-ace-three": "card.rank == pick(pos, [1, 3])",
    "acyclic-odd-steps": None,
    "finite-odd-run": None,
    "odd-only": "card is odd",
}


# ------------------------------------------------------------------ metadata
def test_at_least_120_rules() -> None:
    assert len(RULES) >= 120


def test_names_are_unique_slugs() -> None:
    assert len(set(IDS)) == len(IDS)
    for name in IDS:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name), name


def test_titles_texts_descriptions_unique() -> None:
    for attr in ("title", "text", "description"):
        values = [getattr(r, attr) for r in RULES]
        duplicates = {v for v in values if values.count(v) > 1}
        assert not duplicates, (attr, duplicates)


@pytest.mark.parametrize("entry", RULES, ids=IDS)
def test_metadata(entry: LibraryRule) -> None:
    assert entry.difficulty in range(1, 6)
    assert entry.source
    assert entry.title and entry.title == entry.title.strip()
    assert entry.description.endswith(".") and len(entry.description) >= 12
    assert entry.extreme == ("extreme" in entry.tags)
    if entry.extreme:
        assert entry.source.startswith("seed"), "only the seeds' examples may be extreme"


@pytest.mark.parametrize("entry", RULES, ids=IDS)
def test_text_is_canonical(entry: LibraryRule) -> None:
    rule = entry.rule
    assert isinstance(rule, Rule)
    assert str(rule) == entry.text
    assert parse(str(rule)) == rule
    assert entry.rule is rule  # parsed once
    assert rule.lookback <= 3
    assert rule.english()


def test_every_seed_example_is_in_the_library() -> None:
    for name, text in SEED_EXAMPLES.items():
        entry = get(name)
        assert entry.source.startswith("seed"), name
        if text is not None:
            assert entry.rule == parse(text), name


def test_get_and_by_difficulty() -> None:
    assert get("alternate-colors").text == "card.color != prev.color"
    with pytest.raises(KeyError, match="no library rule named 'nope'"):
        get("nope")
    total = 0
    for d in range(1, 6):
        rules = by_difficulty(d)
        assert rules and all(r.difficulty == d for r in rules)
        total += len(rules)
    assert total == len(RULES)
    for bad in (0, 6, -1):
        with pytest.raises(ValueError, match=r"difficulty must be 1\.\.5"):
            by_difficulty(bad)


def test_random_rule_is_playable_and_seeded() -> None:
    for d in range(1, 6):
        picks = [random_rule(d, random.Random(seed)) for seed in range(30)]
        assert all(p.difficulty == d and not p.extreme for p in picks)
        assert len({p.name for p in picks}) > 1
        again = [random_rule(d, random.Random(seed)) for seed in range(30)]
        assert picks == again


# ---------------------------------------------------------------- oracles
_RANK_ATTRS = {"rank", "face", "numeral", "even", "odd", "prime"}
_RANK_ADJS = {"A", "J", "Q", "K", *(str(n) for n in range(2, 11))}
_SUIT_ATTRS = {"suit", "color", "red", "black"}
_SUIT_ADJS = {"spades", "hearts", "diamonds", "clubs", "♠", "♥", "♦", "♣", "red", "black"}
_SLOT = re.compile(r"\b(prev[234]?)\b(\.(\w+)|\s+is\s+(not\s+)?(\S+))?")


def text_reads(text: str) -> dict[int, set[str]]:
    """What the rule text reads of each looked-back slot: {k: {"rank"|"suit"|"card"}}.

    Syntactic and conservative: a slot used other than through an attribute or
    an ``is`` adjective counts as reading the whole card.
    """
    reads: dict[int, set[str]] = {}
    for m in _SLOT.finditer(text):
        k = 1 if m.group(1) == "prev" else int(m.group(1)[4:])
        attr = m.group(3) or m.group(5)
        if attr in _RANK_ATTRS or (m.group(5) and attr in _RANK_ADJS):
            kind = "rank"
        elif attr in _SUIT_ATTRS or (m.group(5) and attr in _SUIT_ADJS):
            kind = "suit"
        else:
            kind = "card"
        reads.setdefault(k, set()).add(kind)
    return reads


def test_text_reads_parser() -> None:
    assert text_reads("card.color != prev.color") == {1: {"suit"}}
    assert text_reads("if prev2 is not face then prev is hearts else card is red") == {
        1: {"suit"},
        2: {"rank"},
    }
    assert text_reads("card == prev") == {1: {"card"}}
    assert text_reads("prev.rank > 3 and prev is red") == {1: {"rank", "suit"}}


_SPADES = tuple(c for c in ALL_CARDS if c.suit is Suit.SPADES)
_SEVENS = tuple(c for c in ALL_CARDS if c.rank == 7)
_FILLER = Card.parse("5D")
_REPS: dict[str, tuple[Card, ...]] = {
    "none": (_FILLER,),
    "rank": _SPADES,
    "suit": _SEVENS,
    "card": ALL_CARDS,
}


def slot_kinds(entry: LibraryRule) -> tuple[str, ...]:
    """The declared reads of each slot, checked against the rule text."""
    declared = READS[entry.name]
    rule = entry.rule
    assert len(declared) == rule.lookback, (declared, rule.lookback)
    found = text_reads(entry.text)
    kinds = []
    for k, kind in enumerate(declared, start=1):
        used = found.get(k, set())
        if kind == "none":
            assert not used, (k, used)
        elif kind in ("rank", "suit"):
            assert used <= {kind}, (k, used)
        else:
            assert kind == "card", kind
        kinds.append(kind)
    return tuple(kinds)


def contexts(entry: LibraryRule) -> Iterator[tuple[Card, ...]]:
    """Every mainline to check: each length up to the look-back (or position 20)."""
    kinds = slot_kinds(entry)
    rule = entry.rule
    longest = 19 if rule.uses_pos else rule.lookback
    for length in range(longest + 1):
        seen = min(length, len(kinds))
        older = (_FILLER,) * (length - seen)
        # slots nearest first: kinds[0] is prev
        pools = [_REPS[kinds[k]] for k in range(seen)][::-1]
        for combo in itertools.product(*pools):
            yield older + combo


@pytest.mark.parametrize("entry", RULES, ids=IDS)
def test_rule_matches_its_oracle_everywhere(entry: LibraryRule) -> None:
    rule, oracle = entry.rule, ORACLES[entry.name]
    checked = 0
    for mainline in contexts(entry):
        for card in ALL_CARDS:
            got = rule.accepts(mainline, card)
            if got != oracle(mainline, card):
                shown = " ".join(map(str, mainline)) or "(empty)"
                pytest.fail(f"{entry.name}: after {shown} on {card}: rule says {got}")
            checked += 1
    assert checked >= 52


@pytest.mark.parametrize("entry", RULES, ids=IDS)
def test_rule_matches_its_oracle_on_random_contexts(entry: LibraryRule) -> None:
    rng = random.Random(entry.name)
    rule, oracle = entry.rule, ORACLES[entry.name]
    for _ in range(300):
        mainline = tuple(rng.choice(ALL_CARDS) for _ in range(rng.randrange(25)))
        card = rng.choice(ALL_CARDS)
        assert rule.accepts(mainline, card) == oracle(mainline, card), (mainline, card)


def test_every_rule_has_an_oracle() -> None:
    assert set(ORACLES) == set(IDS)
    assert set(READS) == set(IDS)


# ------------------------------------------------------- playability, distinctness
_SPACES = {entry.name: explore(entry.rule, max_states=20_000) for entry in RULES}


@pytest.mark.parametrize("entry", RULES, ids=IDS)
def test_playable_unless_flagged_extreme(entry: LibraryRule) -> None:
    space = _SPACES[entry.name]
    assert space.complete
    low, high = ACCEPTANCE_BAND
    rates = (space.acceptance_rate, space.late_rate)
    playable = space.dead_end is None and all(low <= rate <= high for rate in rates)
    assert playable != entry.extreme, (space.dead_end, rates)


def test_no_two_library_rules_are_equivalent() -> None:
    """With each rule as the secret, every other rule is told apart.

    A quick screen looks for a disagreement on the secret's reachable states
    (an explicit counterexample); pairs it cannot separate go to ``compare``.
    """
    rules = [entry.rule for entry in RULES]
    compared = 0
    for entry, secret in zip(RULES, rules, strict=True):
        space = _SPACES[entry.name]
        for other in rules:
            if other is secret:
                continue
            mainline = distinguishes(space, other)
            if mainline is None:
                compared += 1
                verdict = compare(secret, other)
                assert not verdict.equivalent, (str(secret), str(other))
            else:
                assert _differs_after(secret, other, mainline)
    assert compared < len(rules)  # the screen does almost all the work


def _differs_after(secret: Rule, other: Rule, mainline: tuple[Card, ...]) -> bool:
    legal = all(secret.accepts(mainline[:i], c) for i, c in enumerate(mainline))
    differs = any(secret.accepts(mainline, c) != other.accepts(mainline, c) for c in ALL_CARDS)
    return legal and differs


def test_analyse_warns_exactly_on_the_extreme_examples() -> None:
    from eleusis.rules.analyse import TOO_PERMISSIVE, TOO_RESTRICTIVE, analyse

    assert (TOO_RESTRICTIVE, TOO_PERMISSIVE) == ACCEPTANCE_BAND
    for entry in RULES:
        result = analyse(entry.rule, rng=random.Random(0))
        assert bool(result.warnings) == entry.extreme, (entry.name, result.warnings)
