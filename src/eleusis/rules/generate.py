"""Fresh secret rules for a "surprise me" dealer.

:func:`generate` assembles a rule from building blocks (predicates on one
card, relations between the card and the last one or two, position patterns)
whose shape grows with the difficulty (the scale of :mod:`eleusis.rules.library`):

1. one attribute of the card alone (a rank set, a rank band, a pair of suits);
2. two attributes of the card, or one plain relation with the last card;
3. a condition on the last card choosing between two card predicates, a rank
   relation with arithmetic, or a position parity;
4. two combined relations, a relation with the card two back, a position
   cycle;
5. a condition choosing between two relations, look-back 2 with arithmetic,
   a ``case`` on the last rank, a position condition choosing between relations.

Every rule returned is guaranteed:

* look-back at most 2;
* **no dead end at all** on any mainline the rule can produce (for rules that
  read ``pos``: within the first :data:`HORIZON` plays), found exactly by
  exploring the rule's reachable *abstract states* (each looked-back card
  reduced to the attributes the rule reads of it, see :func:`slot_reads`);
* an acceptance rate within :data:`GENERATED_BAND`, computed exactly on the
  same states as the mean, over the first :data:`RATE_PLAYS` plays, of the
  share of the 52 cards that are legal when each play is a uniformly chosen
  legal card;
* not equivalent (in the game sense of :func:`eleusis.rules.compare`, with the
  generated rule as the secret) to any library rule: for each library rule a
  mainline the generated rule can produce is found on which the two disagree
  on some card, an explicit counterexample; a candidate without one for every
  library rule is dropped.

It is deterministic for a given ``random.Random`` state, uses no other source
of randomness, and draws only through ``rng.random()`` (see :class:`Dice`), so
a seed gives the same rules on every Python version.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from eleusis.cards import ALL_CARDS, Card
from eleusis.rules.abstract import POS_MAX, Space, Walk, slot_attributes
from eleusis.rules.errors import RuleSyntaxError
from eleusis.rules.rule import Rule, parse

#: Acceptance rates a generated rule must have (inside the library's band, so
#: that sampling noise in :func:`eleusis.rules.analyse` keeps them in it).
GENERATED_BAND: Final = (0.15, 0.65)
#: Plays over which the acceptance rate is averaged (the first play is the starter).
RATE_PLAYS: Final = 40
#: The last plays of :data:`RATE_PLAYS` whose mean rate must also be in the
#: band, so that a rule drifting towards a narrow corner (always higher: only
#: kings in the end) is refused even when its early plays are easy.
LATE_PLAYS: Final = 10
#: Plays checked for dead ends when a rule reads ``pos`` (all plays otherwise).
HORIZON: Final = 60
#: Candidates tried before giving up (never reached in practice: about one
#: candidate in three passes).
MAX_ATTEMPTS: Final = 400
#: Largest abstract state space explored for one candidate.
MAX_STATES: Final = 1500


T = TypeVar("T")


class GenerationError(RuntimeError):
    """No acceptable rule was found within :data:`MAX_ATTEMPTS` candidates."""


@dataclass(frozen=True)
class GeneratedRule:
    """A generated rule with what the generator measured about it."""

    rule: Rule
    difficulty: int
    acceptance_rate: float
    attempts: int

    @property
    def text(self) -> str:
        """The canonical rule text."""
        return self.rule.text

    def english(self) -> str:
        """The rule as a plain English sentence."""
        return self.rule.english()


# ------------------------------------------------------------ what a rule reads
#: The kind of :func:`slot_reads` each attribute of
#: :func:`~eleusis.rules.abstract.slot_attributes` falls under ("all" and
#: anything else: ``"card"``).
_KINDS: Final = {
    "rank": "rank", "face": "rank", "numeral": "rank", "even": "rank", "odd": "rank",
    "prime": "rank", "color": "color", "red": "color", "black": "color", "suit": "suit",
}


def slot_reads(rule: Rule) -> dict[int, frozenset[str]]:
    """What the rule reads of each looked-back card ``prevK`` (k >= 1).

    Each value is a subset of ``{"rank", "suit", "color", "card"}``: ``"rank"``
    for the rank and what it decides (face, parity, prime, a rank adjective),
    ``"color"``, ``"suit"``, or ``"card"`` when the card is used whole (compared
    with a card literal, say): :func:`~eleusis.rules.abstract.slot_attributes`
    coarsened to these four. Exact for the purpose of reducing cards: two
    cards that agree on what a slot reads give the same verdict in that slot.
    """
    reads: dict[int, frozenset[str]] = {}
    for k, attrs in enumerate(slot_attributes(rule.ast)):
        if k and attrs:
            reads[k] = frozenset(_KINDS.get(a, "card") for a in attrs)
    return reads


#: The attribute :class:`~eleusis.rules.abstract.Space` keeps for each kind of
#: :func:`slot_reads` (``"all"``: the card whole).
_KIND_ATTRIBUTE: Final = {"rank": "rank", "suit": "suit", "color": "color", "card": "all"}


# ------------------------------------------------------------ exact exploration
@dataclass(frozen=True)
class Exploration:
    """The reachable abstract states of a rule (see :func:`explore`).

    ``mainlines`` holds one concrete mainline per state (a real sequence the
    rule accepts card by card), ``masks`` the legal cards there as a 52-bit
    set (bit ``card.index``), in breadth-first order from the empty mainline.
    """

    mainlines: tuple[tuple[Card, ...], ...]
    masks: tuple[int, ...]
    dead_end: tuple[Card, ...] | None
    acceptance_rate: float
    late_rate: float
    complete: bool


def explore(rule: Rule, *, horizon: int = HORIZON, max_states: int = MAX_STATES) -> Exploration:
    """Explore every abstract state the rule can reach (look-back <= 4).

    A state is the reduced last ``lookback`` cards (each reduced to what this
    and later slots read of it, see :func:`slot_reads`), plus the position when
    the rule reads ``pos`` (then only the first ``horizon`` plays are
    explored). The acceptance rate is exact: the expected share of legal cards
    over the first :data:`RATE_PLAYS` plays of a game whose every play is a
    uniformly chosen legal card (dead ends count as 0); ``late_rate`` the same
    over the last :data:`LATE_PLAYS` of them. ``complete`` is False
    if more than ``max_states`` states exist (the result is then partial).

    The walk is the shared one of :mod:`eleusis.rules.abstract`
    (:class:`~eleusis.rules.abstract.Walk`), on a
    :class:`~eleusis.rules.abstract.Space` with this function's own
    reduction: looked-back cards keep the coarse :func:`slot_reads` (a whole
    rank where only ``face`` is read) and positions stay exact, where
    ``compare`` and ``analyse`` reduce and fold as far as the rules allow.
    The states are the witnesses :func:`distinguishes` tries other rules on,
    and those may read what this rule does not: more varied states tell more
    rules apart (see :class:`~eleusis.rules.abstract.Space`).
    """
    reads = [set(a) for a in slot_attributes(rule.ast)]
    for k, kinds in slot_reads(rule).items():
        reads[k] = {_KIND_ATTRIBUTE[kind] for kind in kinds}
    space = Space((rule,), max(POS_MAX, horizon), reads=reads, fold=False)
    walk = Walk(space, (rule,), plays=horizon - 1 if rule.uses_pos else None,
                max_states=max_states, record=True)
    members = space.members
    masks: list[int] = []
    mainlines: list[tuple[Card, ...]] = []
    dead: tuple[Card, ...] | None = None
    for i, ((verdicts,), _, _) in walk:
        mask = 0
        for c, ok in zip(space.candidates, verdicts, strict=True):
            if ok:
                mask |= members[c]
        step = walk.parents[i]
        mainline = () if step is None else (*mainlines[step[0]], ALL_CARDS[step[1]])
        if mask == 0 and dead is None:
            dead = mainline
        masks.append(mask)
        mainlines.append(mainline)
    moves = walk.moves

    # Exact expected acceptance over the first RATE_PLAYS plays.
    dist: dict[int, float] = {0: 1.0}
    rates: list[float] = []
    for _ in range(RATE_PLAYS):
        step_dist: dict[int, float] = {}
        rate = 0.0
        for s, prob in dist.items():
            legal = masks[s].bit_count()
            rate += prob * legal / 52
            if legal and moves[s]:
                for t, n in moves[s]:
                    step_dist[t] = step_dist.get(t, 0.0) + prob * n / legal
        rates.append(rate)
        dist = step_dist
    late = rates[-LATE_PLAYS:]
    return Exploration(
        tuple(mainlines),
        tuple(masks),
        dead,
        sum(rates) / RATE_PLAYS,
        sum(late) / len(late),
        walk.complete,
    )


_MASKS: dict[tuple[Rule, tuple[Card, ...]], int] = {}
_MASKS_LIMIT: Final = 50_000


def _mask(rule: Rule, mainline: tuple[Card, ...]) -> int:
    """The legal cards after ``mainline`` as a 52-bit set; memoised for the short
    mainlines every exploration starts with (the empty one and single cards)."""
    key = (rule, mainline)
    if len(mainline) <= 1:
        found = _MASKS.get(key)
        if found is not None:
            return found
    mask = 0
    for i, card in enumerate(ALL_CARDS):
        if rule.accepts(mainline, card):
            mask |= 1 << i
    if len(mainline) <= 1 and len(_MASKS) < _MASKS_LIMIT:
        _MASKS[key] = mask
    return mask


def distinguishes(space: Exploration, other: Rule) -> tuple[Card, ...] | None:
    """A mainline of ``space`` on which ``other`` judges some card differently.

    Such a mainline is a counterexample to the two rules being equivalent with
    the explored rule as the secret; None if none of the explored states has one.
    """
    accepts = other.accepts
    for mainline, mask in zip(space.mainlines, space.masks, strict=True):
        if len(mainline) <= 1:
            if _mask(other, mainline) != mask:
                return mainline
            continue
        for i, card in enumerate(ALL_CARDS):
            if accepts(mainline, card) != bool(mask >> i & 1):
                return mainline
    return None


# ------------------------------------------------------------ building blocks
_SUITS: Final = ("spades", "hearts", "diamonds", "clubs")
_RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


class Dice:
    """Draws built on ``random.Random.random()`` alone.

    ``random()`` is the one method whose sequence Python promises not to change
    between versions (``randrange``, ``choice`` and ``sample`` may), so a seed
    gives the same rule under CPython 3.11 and Pyodide's 3.14.
    """

    __slots__ = ("_random",)

    def __init__(self, rng: random.Random) -> None:
        self._random = rng.random

    def random(self) -> float:
        """A float in [0, 1)."""
        return self._random()

    def below(self, n: int) -> int:
        """An integer in 0..n-1."""
        return min(int(self._random() * n), n - 1)

    def randint(self, low: int, high: int) -> int:
        """An integer in low..high (both included)."""
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        """One item of a non-empty sequence."""
        return items[self.below(len(items))]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items, in drawing order."""
        pool = list(items)
        return [pool.pop(self.below(len(pool))) for _ in range(k)]


def _rank_set(rng: Dice, low: int, high: int) -> str:
    size = rng.randint(low, high)
    ranks = sorted(rng.sample(range(1, 14), size))
    return "{" + ", ".join(_RANKS[r - 1] for r in ranks) + "}"


def _join(rng: Dice, left: str, right: str) -> str:
    """``left and right`` or ``left or right``, each side kept whole."""
    return f"({left}) {rng.choice(['and', 'or'])} ({right})"


_SUIT_KINDS: Final = (0, 3, 8)
_RANK_KINDS: Final = (1, 2, 4, 5, 6, 7, 9)


def card_pred(rng: Dice, x: str = "card", family: str = "") -> str:
    """A predicate on one card ``x`` reading one attribute, kept away from extremes.

    ``family`` ``"suit"`` (color or suit) or ``"rank"`` (anything the rank
    decides) restricts which attribute; empty for any.
    """
    if family == "suit":
        kind = rng.choice(_SUIT_KINDS)
    elif family == "rank":
        kind = rng.choice(_RANK_KINDS)
    else:
        kind = rng.below(10)
    if kind == 0:
        return f"{x} is {rng.choice(['red', 'black'])}"
    if kind == 1:
        return f"{x} is {rng.choice(['odd', 'even'])}"
    if kind == 2:
        return f"{x} is {rng.choice(['prime', 'not prime', 'face'])}"
    if kind == 3:
        a, b = rng.sample(_SUITS, 2)
        return f"{x}.suit in {{{a}, {b}}}"
    if kind == 4:
        return f"{x}.rank <= {rng.randint(4, 9)}"
    if kind == 5:
        return f"{x}.rank >= {rng.randint(5, 10)}"
    if kind == 6:
        low = rng.randint(2, 7)
        return f"{x}.rank in {low}..{min(12, low + rng.randint(3, 6))}"
    if kind == 7:
        m = rng.choice([3, 4])
        return f"{x}.rank % {m} {rng.choice(['==', '!='])} {rng.below(m)}"
    if kind == 8:
        return f"{x} is {rng.choice(_SUITS)}"
    return f"{x}.rank in {_rank_set(rng, 4, 8)}"


def _two_families(rng: Dice) -> tuple[str, str]:
    return ("suit", "rank") if rng.random() < 0.5 else ("rank", "suit")


def _branches(rng: Dice, family: str = "") -> tuple[str, str]:
    """Two different card predicates for the two branches of an ``if``."""
    first = card_pred(rng, family=family)
    second = card_pred(rng, family=family)
    while second == first:
        second = card_pred(rng, family=family)
    return first, second


def relation(rng: Dice) -> str:
    """A relation between the card and the last card."""
    kind = rng.below(9)
    if kind == 0:
        attr = rng.choice(["color", "suit", "even", "face", "prime"])
        return f"card.{attr} {rng.choice(['==', '!='])} prev.{attr}"
    if kind == 1:
        return f"card.rank {rng.choice(['>=', '<=', '>', '<', '!='])} prev.rank"
    if kind == 2:
        return f"abs(card.rank - prev.rank) {rng.choice(['<=', '>='])} {rng.randint(2, 5)}"
    if kind == 3:
        low = rng.randint(1, 5)
        return f"wrap(card.rank - prev.rank) in {low}..{low + rng.randint(2, 5)}"
    if kind == 4:
        m = rng.choice([3, 4, 5])
        return f"(card.rank + prev.rank) % {m} {rng.choice(['==', '!='])} {rng.below(m)}"
    if kind == 5:
        return f"card.rank + prev.rank {rng.choice(['>=', '<='])} {rng.randint(10, 18)}"
    if kind == 6:
        order = rng.sample(_SUITS, 4)
        return f"card.suit == next(prev.suit, [{', '.join(order)}])"
    if kind == 7:
        m = rng.choice([3, 4])
        classes = rng.sample(range(m), m)
        return f"card.rank % {m} == next(prev.rank % {m}, [{', '.join(map(str, classes))}])"
    return _join(rng, "card.color == prev.color", card_pred(rng))


def simple_relation(rng: Dice) -> str:
    """A plain relation with the last card on one attribute (difficulty 2)."""
    kind = rng.below(3)
    if kind == 0:
        attr = rng.choice(["color", "suit", "even", "face", "prime"])
        return f"card.{attr} {rng.choice(['==', '!='])} prev.{attr}"
    if kind == 1:
        return f"card.rank {rng.choice(['>=', '<=', '!='])} prev.rank"
    return f"card.suit == next(prev.suit, [{', '.join(rng.sample(_SUITS, 4))}])"


def _two_relations(rng: Dice) -> tuple[str, str]:
    first, second = relation(rng), relation(rng)
    while second == first:
        second = relation(rng)
    return first, second


def relation2(rng: Dice) -> str:
    """A relation between the card and the card two back."""
    kind = rng.below(4)
    if kind == 0:
        attr = rng.choice(["color", "suit"])
        return f"card.{attr} {rng.choice(['==', '!='])} prev2.{attr}"
    if kind == 1:
        return f"card.rank {rng.choice(['>=', '<='])} prev2.rank"
    if kind == 2:
        return f"abs(card.rank - prev2.rank) {rng.choice(['<=', '>='])} {rng.randint(2, 5)}"
    attr = rng.choice(["even", "face", "prime"])
    return f"card.{attr} {rng.choice(['==', '!='])} prev2.{attr}"


def condition2(rng: Dice) -> str:
    """A condition on the last two cards."""
    kind = rng.below(3)
    if kind == 0:
        attr = rng.choice(["color", "suit", "even"])
        return f"prev.{attr} == prev2.{attr}"
    if kind == 1:
        return f"prev.rank {rng.choice(['>', '<', '>='])} prev2.rank"
    return f"(prev.rank + prev2.rank) % {rng.choice([2, 3])} == 0"


def _pick_list(rng: Dice, items: Sequence[str], length: int) -> str:
    chosen = [rng.choice(items) for _ in range(length)]
    while len(set(chosen)) == 1:
        chosen = [rng.choice(items) for _ in range(length)]
    return "[" + ", ".join(chosen) + "]"


def position_pattern(rng: Dice) -> str:
    """A pattern by position on the mainline (pos 1 is the starter)."""
    kind = rng.below(3)
    if kind == 0:
        return f"card.color == pick(pos, {_pick_list(rng, ['red', 'black'], rng.randint(3, 4))})"
    if kind == 1:
        return f"card.suit == pick(pos, {_pick_list(rng, _SUITS, rng.randint(2, 3))})"
    caps = [str(rng.randint(4, 12)) for _ in range(rng.randint(2, 4))]
    return f"card.rank <= pick(pos, [{', '.join(caps)}])"


def candidate(difficulty: int, rng: random.Random | Dice) -> str:
    """One candidate rule text of the given difficulty (not yet checked)."""
    if not isinstance(rng, Dice):
        rng = Dice(rng)
    if difficulty == 1:
        return card_pred(rng)
    if difficulty == 2:
        kind = rng.below(4)
        one, other = _two_families(rng)
        if kind == 0:
            return _join(rng, card_pred(rng, family=one), card_pred(rng, family=other))
        if kind == 1:
            yes, no = _branches(rng, other)
            return f"if ({card_pred(rng, family=one)}) then ({yes}) else ({no})"
        if kind == 2:
            attr = rng.choice(["color", "suit", "even", "face", "prime"])
            other = rng.choice(["rank", "color", "suit"])
            return (
                f"card.{attr} {rng.choice(['==', '!='])} prev.{attr} or "
                f"card.{other} == prev.{other}"
            )
        return simple_relation(rng)
    if difficulty == 3:
        kind = rng.below(4)
        if kind == 0:
            yes, no = _branches(rng)
            return f"if ({card_pred(rng, 'prev')}) then ({yes}) else ({no})"
        if kind == 1:
            return relation(rng)
        if kind == 2:
            yes, no = _branches(rng)
            return f"if pos % 2 == {rng.below(2)} then ({yes}) else ({no})"
        return _join(rng, relation(rng), card_pred(rng))
    if difficulty == 4:
        kind = rng.below(5)
        if kind == 0:
            first, second = relation(rng), relation(rng)
            while second.split()[0] == first.split()[0]:
                second = relation(rng)
            return _join(rng, first, second)
        if kind == 1:
            return f"if ({card_pred(rng, 'prev')}) then ({relation(rng)}) else ({card_pred(rng)})"
        if kind == 2:
            return relation2(rng)
        if kind == 3:
            return _join(rng, relation2(rng), card_pred(rng))
        return position_pattern(rng)
    kind = rng.below(5)
    if kind == 0:
        yes, no = _two_relations(rng)
        return f"if ({card_pred(rng, 'prev')}) then ({yes}) else ({no})"
    if kind == 1:
        yes, no = _branches(rng)
        return f"if ({condition2(rng)}) then ({yes}) else ({no})"
    if kind == 2:
        m = rng.choice([2, 3])
        return f"(card.rank + prev.rank + prev2.rank) % {m + 1} {rng.choice(['==', '!='])} 0"
    if kind == 3:
        m = rng.choice([3, 4])
        whens = " ".join(f"when {r} then {card_pred(rng)}" for r in range(m - 1))
        return f"case prev.rank % {m} {whens} else {card_pred(rng)}"
    m = rng.choice([2, 3])
    yes, no = _two_relations(rng)
    return f"if pos % {m} == 0 then ({yes}) else ({no})"


# ------------------------------------------------------------ the generator
def _library_rules() -> tuple[Rule, ...]:
    from eleusis.rules.library import RULES

    return tuple(entry.rule for entry in RULES)


def check(rule: Rule, library: Sequence[Rule] | None = None) -> Exploration | None:
    """The exploration of ``rule`` if it meets every guarantee of :func:`generate`.

    None when it does not: look-back over 2, a (reachable) dead end, a rate
    outside :data:`GENERATED_BAND`, too many states, or no counterexample
    against some library rule (``library`` defaults to the whole library).
    """
    if rule.lookback > 2 or (rule.uses_pos and rule.lookback > 1):
        return None
    space = explore(rule)
    if not space.complete or space.dead_end is not None:
        return None
    low, high = GENERATED_BAND
    if not (low <= space.acceptance_rate <= high and low <= space.late_rate <= high):
        return None
    for other in _library_rules() if library is None else library:
        if other == rule or distinguishes(space, other) is None:
            return None
    return space


def generate(difficulty: int, rng: random.Random) -> GeneratedRule:
    """A fresh rule of ``difficulty`` (1..5) meeting the guarantees above.

    Deterministic for a given state of ``rng``. Raises ``ValueError`` for a
    difficulty outside 1..5 and :class:`GenerationError` if no candidate passes
    within :data:`MAX_ATTEMPTS` (not seen in practice).
    """
    if not isinstance(difficulty, int) or difficulty not in range(1, 6):
        raise ValueError(f"difficulty must be 1..5, not {difficulty!r}")
    library = _library_rules()
    dice = Dice(rng)
    for attempt in range(1, MAX_ATTEMPTS + 1):
        text = candidate(difficulty, dice)
        try:
            rule = parse(text)
        except RuleSyntaxError:
            continue
        space = check(rule, library)
        if space is not None:
            return GeneratedRule(rule, difficulty, space.acceptance_rate, attempt)
    raise GenerationError(f"no rule of difficulty {difficulty} found in {MAX_ATTEMPTS} tries")


def generate_many(difficulty: int, rng: random.Random, count: int) -> Iterator[GeneratedRule]:
    """``count`` generated rules in a row (distinct texts), from one generator."""
    seen: set[str] = set()
    while len(seen) < count:
        found = generate(difficulty, rng)
        if found.text not in seen:
            seen.add(found.text)
            yield found
