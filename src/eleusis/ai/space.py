"""The hypothesis space: rules generated from the grammar's building blocks.

Levels (the prior spreads its mass equally over levels, then uniformly
within a level, so the tens of thousands of large rules never drown the
hundred-odd small ones):

1. one block (``card is red``, ``card.suit != prev.suit``, ``card.rank in 5..9``);
2. two blocks joined by ``and`` / ``or``;
3. ``if C then A else B`` with ``C`` a natural condition on the previous card
   or on the card, and ``A``, ``B`` blocks.

Position-periodic rules (``if pos % 2 == 0 then A else B``, ``case pos % 3``)
are not enumerated: :mod:`eleusis.ai.inference` treats them as products of
this space, one factor per position class, which is exact and costs nothing.

Hypotheses are deduplicated by behaviour (their context bit set, see
:mod:`eleusis.ai.blocks`); the first, simplest, text of a behaviour is kept.
The space is built once per process and cached; it never reads the rule
library, the rule generator, or any secret rule.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from math import fsum

from eleusis.ai.blocks import (
    CONTEXT_BITS,
    FINE_TEXTS,
    FULL52,
    FULL_ROWS,
    NCARDS,
    ROWS_BITS,
    Block,
    b_and,
    b_ite,
    b_or,
    card_blocks,
    card_conditions,
    iter_rel_blocks,
    prev_conditions,
)

#: The rule that accepts every card everywhere (``true``), as a context bit set.
FULL_BITS = (1 << CONTEXT_BITS) - 1

#: Recipe tags: how a hypothesis is built from blocks.
ATOM, AND, OR, ITE = 0, 1, 2, 3

_CORE_CARD = frozenset({
    "card is red", "card is black", "card is spades", "card is hearts", "card is diamonds",
    "card is clubs", "card is even", "card is odd", "card is face", "card is numeral",
    "card is prime", "card is not prime",
})


#: Families of blocks and the prior weight of each family (shared by its
#: members): a rule-maker is as likely to think "the card's colour" as "the
#: card's rank is exactly k", but the latter comes in 13 versions.
_FAMILIES: tuple[tuple[str, float], ...] = (
    (r"true$", 0.5),
    (r"card is (red|black)$", 1.0),
    (r"card is (spades|hearts|diamonds|clubs)$", 1.0),
    (r"card is not (spades|hearts|diamonds|clubs)$", 0.7),
    (r"card\.suit in ", 0.6),
    (r"card is (even|odd)$", 1.0),
    (r"card is (face|numeral)$", 1.0),
    (r"card is (not )?prime$", 0.7),
    (r"card\.rank == \d+$", 1.0),
    (r"card\.rank != \d+$", 0.5),
    (r"card\.rank >= \d+$", 0.8),
    (r"card\.rank <= \d+$", 0.8),
    (r"card\.rank in \d", 0.7),
    (r"card\.rank % \d == \d$", 0.6),
    (r"card\.(color) [!=]= prev", 1.0),
    (r"card\.(suit) [!=]= prev", 1.0),
    (r"card\.(rank) [!=]= prev\.rank$", 1.0),
    (r"card\.(even) [!=]= prev", 1.0),
    (r"card\.(face) [!=]= prev", 0.8),
    (r"card\.(prime) [!=]= prev", 0.6),
    (r"\(card\.suit in", 0.6),
    (r"card\.rank [<>]=? prev\.rank$", 1.0),
    (r"card\.rank == prev\.rank [+-]", 0.7),
    (r"card\.rank == wrap", 0.5),
    (r"abs\(.*<=", 0.6),
    (r"abs\(.*>", 0.4),
    (r"\(card\.rank \+ prev\.rank\) %", 0.4),
    (r"card\.rank \+ prev\.rank [<>]", 0.5),
    (r"abs\(.*==", 0.5),
    (r"card\.suit == next", 0.7),
    (r"card\.rank \+ prev\.rank (not )?in", 0.3),
    (r"card\.rank \* prev\.rank [<>]", 0.5),
    (r"\(card\.rank \* prev\.rank\) %", 0.3),
    (r"(card|prev)\.rank - (card|prev)\.rank in", 0.3),
    (r"(card|prev)\.rank % (card|prev)\.rank", 0.3),
)


#: The prior weight of the family of fine bounds (:data:`blocks.FINE_TEXTS`).
_FINE_WEIGHT = 0.5


def atom_weights(atoms: tuple[Block, ...]) -> list[float]:
    """Prior weight of each block: its family's weight shared by the family."""
    fam_of: list[int] = []
    for a in atoms:
        if a.text in FINE_TEXTS:
            fam_of.append(len(_FAMILIES))  # every other bound: one family
            continue
        for k, (pat, _) in enumerate(_FAMILIES):
            if re.match(pat, a.text):
                fam_of.append(k)
                break
        else:
            fam_of.append(-1)
    sizes: dict[int, int] = {}
    for k in fam_of:
        sizes[k] = sizes.get(k, 0) + 1
    weight = [w for _, w in _FAMILIES] + [_FINE_WEIGHT]
    return [(weight[k] if k >= 0 else 0.5) / sizes[k] for k in fam_of]


#: Arithmetic relations (sums, distances, steps of 3, wrapping) are kept out of
#: the branches of ``if/then/else``: rare there, and they would double the space.
_ARITH = re.compile(r"abs\(|[+*] prev|prev\.rank [+-] 3|wrap\(|rank - |rank % ")


@dataclass(frozen=True)
class Space:
    """An immutable, deduplicated list of hypotheses, ordered by level.

    ``bits[i]`` is hypothesis ``i`` as a context bit set; ``level[i]`` its
    size level (1..3); ``recipe[i]`` how to write it (tags above, indices into
    ``atoms`` and ``conds``). ``level_end[k]`` is the number of hypotheses of
    level at most ``k`` (the space of a weaker scientist is a prefix).
    ``weight[k][i]`` is the prior weight of behaviour ``i`` within level ``k``
    (the sum over all the texts of level ``k`` that behave like it: a
    behaviour reachable in many natural ways is more likely), normalised so
    each level sums to 1.
    """

    atoms: tuple[Block, ...]
    conds: tuple[Block, ...]
    bits: tuple[int, ...]
    level: bytes
    recipe: tuple[tuple[int, ...], ...]
    level_end: tuple[int, ...]
    weight: tuple[tuple[float, ...], ...]

    def __len__(self) -> int:
        return len(self.bits)

    def text(self, i: int) -> str:
        """Hypothesis ``i`` as a rule-language text."""
        r = self.recipe[i]
        a = self.atoms
        if r[0] == ATOM:
            return a[r[1]].text
        if r[0] == AND:
            return f"{a[r[1]].text} and {a[r[2]].text}"
        if r[0] == OR:
            return f"{a[r[1]].text} or {a[r[2]].text}"
        return f"if {self.conds[r[1]].text} then {a[r[2]].text} else {a[r[3]].text}"

    def english(self, i: int) -> str:
        """Hypothesis ``i`` in plain English."""
        r = self.recipe[i]
        a = self.atoms
        if r[0] == ATOM:
            return a[r[1]].english
        if r[0] == AND:
            return f"{a[r[1]].english}, and {a[r[2]].english}"
        if r[0] == OR:
            return f"either {a[r[1]].english}, or {a[r[2]].english}"
        return (f"if {self.conds[r[1]].english}, {a[r[2]].english}; "
                f"otherwise {a[r[3]].english}")

    def is_compound(self, i: int) -> bool:
        """Whether the text needs parentheses inside a larger rule."""
        return self.recipe[i][0] != ATOM


class _Clock:
    """Says when a slice of work has used its time budget (then restarts it)."""

    __slots__ = ("budget", "start", "ticks")

    def __init__(self, budget_ms: float | None) -> None:
        self.budget = None if budget_ms is None else budget_ms / 1000.0
        self.start = time.perf_counter()
        self.ticks = 0

    def due(self) -> bool:
        """Whether the budget is used (checked cheaply: the clock every 32 ticks)."""
        if self.budget is None:
            return False
        self.ticks += 1
        if self.ticks & 31:
            return False
        return time.perf_counter() - self.start >= self.budget

    def restart(self) -> None:
        """A new slice begins."""
        self.start = time.perf_counter()


def _build_steps(max_level: int, budget_ms: float | None) -> Iterator[Space | None]:
    """Build the space, yielding None each time a slice has used ``budget_ms``.

    The last item is the space. With ``budget_ms=None`` it never yields None:
    the one-shot build is this same code, so both give the same space.
    """
    clock = _Clock(budget_ms)
    atoms = tuple(card_blocks())
    if clock.budget is not None:
        yield None
        clock.restart()
    rels: list[Block] = []
    for blk in iter_rel_blocks():
        rels.append(blk)
        if clock.budget is not None and time.perf_counter() - clock.start >= clock.budget:
            yield None
            clock.restart()
    atoms = atoms + tuple(rels)
    conds = tuple(prev_conditions() + card_conditions(atoms))
    seen: dict[int, int] = {}
    bits: list[int] = []
    level: list[int] = []
    recipe: list[tuple[int, ...]] = []
    level_end: list[int] = [0]
    wts: list[list[float]] = [[], [], [], []]
    aw = atom_weights(atoms)

    def add(b: int, lev: int, rec: tuple[int, ...], w: float) -> None:
        if lev > 1 and not b & FULL_ROWS:
            # "no card may follow any card", spelt ~1,700 ways as a pair or a
            # split ("card is red and card is black"...): summed, those
            # spellings made it the leading idea whenever plays kept being
            # refused. It is no rule a dealer writes (the game refuses a rule
            # that cannot be played); "a rule I cannot write" holds that mass.
            return
        k = seen.get(b)
        if k is None:
            k = seen[b] = len(bits)
            bits.append(b)
            level.append(lev)
            recipe.append(rec)
        row = wts[lev]
        if len(row) <= k:
            row.extend([0.0] * (k + 1 - len(row)))
        row[k] += w

    def full(rows: int, t52: int, ab52: int) -> int:
        return rows | ((t52 | ab52) << ROWS_BITS)

    for i, a in enumerate(atoms):
        add(a.bits, 1, (ATOM, i), aw[i])
    level_end.append(len(bits))
    if max_level >= 2:
        n = len(atoms)
        arith = [a.kind == "rel" and bool(_ARITH.search(a.text)) for a in atoms]
        ranges = [a.text.startswith("card.rank in") for a in atoms]
        fine = [a.text in FINE_TEXTS for a in atoms]
        always = [not a.bits ^ FULL_BITS for a in atoms]
        for i in range(n):
            ai = atoms[i]
            for j in range(i + 1, n):
                aj = atoms[j]
                if ai.text.startswith("card.rank in") and aj.text.startswith("card.rank in"):
                    continue  # two rank ranges: rarely natural, and many
                if always[i] or always[j]:
                    continue  # "true" and ...: the other block alone
                if fine[i] or fine[j]:
                    continue  # one of many bounds: single blocks only
                if (arith[i] or ranges[i]) and (arith[j] or ranges[j]):
                    continue  # arithmetic with arithmetic or a rank range: rare, and many
                x = b_and(ai, aj, "", "")
                w = aw[i] * aw[j]
                add(full(x.rows, x.t52, x.ab52), 2, (AND, i, j), w)
                if clock.due():
                    yield None
                    clock.restart()
                if ai.text.startswith("card.rank in") or aj.text.startswith("card.rank in"):
                    continue  # "a rank range, or else ...": rare, and many
                y = b_or(ai, aj, "", "")
                add(full(y.rows, y.t52, y.ab52), 2, (OR, i, j), w)
        level_end.append(len(bits))
    if max_level >= 3:
        branch = [k for k, a in enumerate(atoms)
                  if (a.kind == "rel" and not _ARITH.search(a.text)) or a.text in _CORE_CARD]
        # (conds and branches never include "true": it is no condition)
        for ck, c in enumerate(conds):
            for i in branch:
                for j in branch:
                    if i == j:
                        continue
                    if c.kind == "card" and atoms[i].kind == "card" and atoms[j].kind == "card" \
                            and c.text == atoms[i].text:
                        continue
                    x = b_ite(c, atoms[i], atoms[j], "", "")
                    add(full(x.rows, x.t52, x.ab52), 3, (ITE, ck, i, j), aw[i] * aw[j])
                    if clock.due():
                        yield None
                        clock.restart()
        level_end.append(len(bits))
    n = len(bits)
    weight = []
    for row in wts:
        row.extend([0.0] * (n - len(row)))
        total = fsum(row)
        if clock.budget is not None:
            yield None
            clock.restart()
        weight.append(tuple(w / total for w in row) if total else tuple(row))
        if clock.budget is not None:
            yield None
            clock.restart()
    yield Space(atoms, conds, tuple(bits), bytes(level), tuple(recipe), tuple(level_end),
                tuple(weight))


def _build(max_level: int) -> Space:
    """The one-shot build (the same code as the sliced one, never pausing)."""
    for space in _build_steps(max_level, None):
        if space is not None:
            return space
    raise AssertionError("the build ends with the space")  # pragma: no cover


@dataclass(frozen=True)
class Columns:
    """The space transposed by building block: which hypotheses use which block.

    Each field maps a block (or condition) index to the set of hypotheses,
    as an integer with bit ``h`` for hypothesis ``h``, whose recipe uses it
    in that role. Every hypothesis's verdict on one context (with a previous
    card) is a function of its blocks' verdicts there, so the set of
    hypotheses accepting a context is a few dozen unions of these sets
    (:meth:`accepting`) instead of one test per hypothesis.
    """

    atom: tuple[int, ...]
    and1: tuple[int, ...]
    and2: tuple[int, ...]
    or1: tuple[int, ...]
    or2: tuple[int, ...]
    cond: tuple[int, ...]
    then: tuple[int, ...]
    other: tuple[int, ...]
    ite_all: int

    def accepting(self, space: Space, bit: int) -> int:
        """The hypotheses accepting context ``bit`` (``bit < ROWS_BITS``), as a bit set."""
        atoms = space.atoms
        on = [(a.rows >> bit) & 1 for a in atoms]
        a_all = and1 = and2 = or1 = or2 = then = other = 0
        for k, v in enumerate(on):
            if v:
                a_all |= self.atom[k]
                and1 |= self.and1[k]
                and2 |= self.and2[k]
                or1 |= self.or1[k]
                or2 |= self.or2[k]
                then |= self.then[k]
                other |= self.other[k]
        c_true = 0
        for k, c in enumerate(space.conds):
            if (c.rows >> bit) & 1:
                c_true |= self.cond[k]
        c_false = self.ite_all & ~c_true
        return a_all | (and1 & and2) | or1 | or2 | (c_true & then) | (c_false & other)


def columns_steps(space: Space, budget_ms: float | None = 10.0) -> Iterator[Columns | None]:
    """Build the :class:`Columns` of ``space`` in slices (None between them), cached."""
    hit = _COLUMNS.get(id(space))
    if hit is not None and hit[0] is space:
        yield hit[1]
        return
    budget = None if budget_ms is None else budget_ms / 1000.0
    t0 = time.perf_counter()
    n = len(space)
    na, nc = len(space.atoms), len(space.conds)
    nbytes = (n + 7) // 8
    groups = [[bytearray(nbytes) for _ in range(na)] for _ in range(7)]
    conds = [bytearray(nbytes) for _ in range(nc)]
    ite_all = bytearray(nbytes)
    g_atom, g_and1, g_and2, g_or1, g_or2, g_then, g_other = groups
    for lo in range(0, n, 2048):
        for h in range(lo, min(n, lo + 2048)):
            r = space.recipe[h]
            byte, b = h >> 3, 1 << (h & 7)
            tag = r[0]
            if tag == ATOM:
                g_atom[r[1]][byte] |= b
            elif tag == AND:
                g_and1[r[1]][byte] |= b
                g_and2[r[2]][byte] |= b
            elif tag == OR:
                g_or1[r[1]][byte] |= b
                g_or2[r[2]][byte] |= b
            else:
                conds[r[1]][byte] |= b
                g_then[r[2]][byte] |= b
                g_other[r[3]][byte] |= b
                ite_all[byte] |= b
        if budget is not None and time.perf_counter() - t0 >= budget:
            yield None
            t0 = time.perf_counter()

    done: list[tuple[int, ...]] = []
    for rows in (g_atom, g_and1, g_and2, g_or1, g_or2, conds, g_then, g_other):
        done.append(tuple(int.from_bytes(r, "little") for r in rows))
        if budget is not None and time.perf_counter() - t0 >= budget:
            yield None
            t0 = time.perf_counter()
    cols = Columns(done[0], done[1], done[2], done[3], done[4], done[5], done[6], done[7],
                   int.from_bytes(ite_all, "little"))
    _COLUMNS[id(space)] = (space, cols)
    yield cols


def columns(space: Space) -> Columns:
    """The :class:`Columns` of ``space`` (built in one go the first time, then cached)."""
    for cols in columns_steps(space, None):
        if cols is not None:
            return cols
    raise AssertionError("the steps end with the columns")  # pragma: no cover


_COLUMNS: dict[int, tuple[Space, Columns]] = {}
_BUILT: dict[int, Space] = {}
_SINGLE_ROWS: dict[int, tuple[Space, tuple[tuple[int, ...], ...]]] = {}


def single_rows(space: Space) -> tuple[tuple[int, ...], ...]:
    """For each single block (level 1), its 53 rows: ``rows[a][p]`` is the
    52-bit set of cards block ``a`` accepts after card ``p`` (row 52: at
    position 1). Small integers, cheaper to read than the big bit sets;
    built once per space (a few milliseconds) and cached."""
    hit = _SINGLE_ROWS.get(id(space))
    if hit is None or hit[0] is not space:
        rows = tuple(tuple((space.bits[a] >> (NCARDS * p)) & FULL52 for p in range(NCARDS + 1))
                     for a in range(space.level_end[1]))
        hit = _SINGLE_ROWS[id(space)] = (space, rows)
    return hit[1]


def build_space(max_level: int = 3) -> Space:
    """The space of hypotheses up to ``max_level`` (1..3), built once and cached."""
    if max_level not in (1, 2, 3):
        raise ValueError(f"max_level must be 1, 2 or 3, not {max_level!r}")
    hit = _BUILT.get(max_level)
    if hit is None:
        hit = _BUILT[max_level] = _build(max_level)
    return hit


def build_space_steps(max_level: int = 3, budget_ms: float = 10.0) -> Iterator[Space | None]:
    """The same space as :func:`build_space`, built in slices of about ``budget_ms``.

    Yields None after each slice and the space last (at once when it is
    cached), then stops; the space is cached like :func:`build_space`'s.
    A page drives it from its event loop (one ``next()`` per timer tick), so
    no single task blocks the page: the space takes ~0.3 s in all, in
    slices of ``budget_ms`` (plus one block or one pair of blocks).
    """
    if max_level not in (1, 2, 3):
        raise ValueError(f"max_level must be 1, 2 or 3, not {max_level!r}")
    if budget_ms <= 0:
        raise ValueError(f"budget_ms must be positive, not {budget_ms!r}")
    return _cached_steps(max_level, budget_ms)


def _cached_steps(max_level: int, budget_ms: float) -> Iterator[Space | None]:
    hit = _BUILT.get(max_level)
    if hit is not None:
        yield hit
        return
    for space in _build_steps(max_level, budget_ms):
        if space is not None:
            _BUILT.setdefault(max_level, space)
            yield _BUILT[max_level]
            return
        yield None
