"""The game's own random number generator: SplitMix64, unbiased ``below`` and Fisher–Yates.

Why not :mod:`random`: ``random.Random.shuffle`` and ``randrange`` are not
promised to give the same sequence across Python versions, and a game played
in CPython 3.11 must be replayed identically by Pyodide's CPython 3.14. So the
engine owns the whole algorithm here, in plain integer arithmetic:

* the generator is SplitMix64 (Steele, Lea and Flood 2014): the state is one
  64-bit integer, so it sits in the game state as a plain ``int`` and a state
  can be copied, hashed and serialised for free;
* :func:`below` draws an integer in ``0..n-1`` without modulo bias, by
  rejection (Lemire's "nearly divisionless" idea in its simple form);
* :func:`shuffle` is the Fisher–Yates shuffle, from the last index down.

All functions are pure: they take a state and return ``(value, new_state)``.

>>> v, s = next_u64(42)
>>> v
13679457532755275413
>>> shuffled, _ = shuffle(list(range(5)), 7)
>>> sorted(shuffled) == list(range(5))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeVar

T = TypeVar("T")

MASK64: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for a game seed (any int; reduced to 64 bits)."""
    return seed & MASK64


def next_u64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: a 64-bit output and the next state."""
    state = (state + _GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31), state


def below(n: int, state: int) -> tuple[int, int]:
    """An integer uniformly in ``0..n-1`` (``n >= 1``), without modulo bias."""
    if n < 1:
        raise ValueError(f"below() needs n >= 1, not {n}")
    # Reject the top sliver of 2**64 that would make some residues more likely.
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        value, state = next_u64(state)
        if value < limit:
            return value % n, state


def shuffle(items: Sequence[T], state: int) -> tuple[list[T], int]:
    """A Fisher–Yates shuffled copy of ``items`` and the next state."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, state = below(i + 1, state)
        out[i], out[j] = out[j], out[i]
    return out, state
