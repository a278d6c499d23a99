"""The sliced preparation builds exactly what the one-shot build builds."""

from __future__ import annotations

import pytest

from eleusis.ai import Scientist
from eleusis.ai.inference import LEVEL_MASS, _make_initial, initial_steps
from eleusis.ai.space import _build, _build_steps, build_space, build_space_steps
from eleusis.cards import Card


def test_the_sliced_build_gives_the_same_space_in_the_same_order() -> None:
    items = list(_build_steps(3, 1e-6))  # any measurable time uses the budget
    assert items.count(None) >= 10  # it did pause, many times
    sliced = items[-1]
    assert sliced is not None
    whole = _build(3)
    assert sliced.bits == whole.bits
    assert sliced.level == whole.level
    assert sliced.recipe == whole.recipe
    assert sliced.level_end == whole.level_end
    assert sliced.weight == whole.weight
    assert [a.text for a in sliced.atoms] == [a.text for a in whole.atoms]
    assert [c.text for c in sliced.conds] == [c.text for c in whole.conds]


def test_the_sliced_prior_is_the_one_shot_prior() -> None:
    space = build_space(3)
    fams = (True, True, True, True)
    sliced = [x for x in _make_initial(space, LEVEL_MASS, 0, fams, 1e-6)]
    assert sliced.count(None) >= 1
    whole = [x for x in _make_initial(space, LEVEL_MASS, 0, fams, None)]
    assert whole[:-1] == [] and whole[-1] == sliced[-1]
    # the cached steps answer at once the second time
    first = list(initial_steps(space, LEVEL_MASS, 0, fams, 1.0))
    assert list(initial_steps(space, LEVEL_MASS, 0, fams, 1.0)) == [first[-1]]


def test_build_space_steps_ends_with_the_cached_space() -> None:
    space = build_space(2)
    assert list(build_space_steps(2, 5.0)) == [space]
    with pytest.raises(ValueError):
        build_space_steps(4)
    with pytest.raises(ValueError):
        build_space_steps(3, 0.0)


def test_prepare_steps_then_a_scientist_decides_as_usual() -> None:
    steps = list(Scientist.prepare_steps("strong", 2.0))
    assert steps[-1] is True and not any(steps[:-1])
    with pytest.raises(ValueError):
        Scientist.prepare_steps("grandmaster")
    with pytest.raises(ValueError):
        Scientist.prepare_steps("strong", -1.0)
    a = Scientist("strong", 3)
    b = Scientist("strong", 3)
    line = [Card.parse("7H")]
    hand = [Card.parse(x) for x in ("2H", "3S", "KD", "10C")]
    assert a.choose_card(line, hand) == b.choose_card(line, hand)
    assert a.belief.prior == b.belief.prior


def test_the_columns_give_every_hypothesis_its_own_verdict() -> None:
    import random

    from eleusis.ai.blocks import ROWS_BITS
    from eleusis.ai.space import columns, columns_steps

    space = build_space(3)
    cols = columns(space)
    assert list(columns_steps(space, 1.0)) == [cols]  # cached
    rng = random.Random(4)
    for _ in range(6):
        bit = rng.randrange(ROWS_BITS)
        acc = cols.accepting(space, bit)
        want = sum(1 << h for h, b in enumerate(space.bits) if (b >> bit) & 1)
        assert acc == want, bit
