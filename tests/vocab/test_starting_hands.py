"""The committed class order and the top-percent rule. (The order against the exact enumeration that
made it is ``tests/odds/test_preflop.py::test_the_committed_class_order_is_the_exact_equity_order``.)"""

from __future__ import annotations

from fractions import Fraction

import pytest

from twoplustwo.odds import preflop
from twoplustwo.vocab.combos import CLASS_SIZE, HAND_CLASSES
from twoplustwo.vocab.starting_hands import CLASS_ORDER, GAMES_VS_RANDOM, POINTS, top_classes


def test_the_table_is_a_strict_order_of_every_class() -> None:
    assert GAMES_VS_RANDOM == preflop.GAMES_VS_RANDOM
    assert sorted(CLASS_ORDER) == sorted(HAND_CLASSES) and len(CLASS_ORDER) == 169
    assert len(POINTS) == 169 and all(isinstance(p, int) for p in POINTS)
    # No ties, so the HAND_CLASSES tie-break never applies.
    assert all(a > b for a, b in zip(POINTS, POINTS[1:]))
    assert 0 < POINTS[-1] and POINTS[0] < 2 * GAMES_VS_RANDOM
    assert CLASS_ORDER[:3] == ("AA", "KK", "QQ") and CLASS_ORDER[-1] == "32o"


def test_top_classes_walks_the_order() -> None:
    sizes = [int(CLASS_SIZE[HAND_CLASSES.index(name)]) for name in CLASS_ORDER]
    before = 0
    for k, size in enumerate(sizes):
        # Just above the combos before class k takes it; exactly at them does not.
        at = Fraction(before * 100, 1326)
        assert len(top_classes(at)) == k
        assert len(top_classes(at + Fraction(1, 10**9))) == k + 1
        before += size
    assert before == 1326 and len(top_classes(Fraction(100))) == 169
    got = top_classes(Fraction(50))
    assert [HAND_CLASSES[c] for c in got] == list(CLASS_ORDER[: len(got)])


@pytest.mark.parametrize("bad", [Fraction(-1, 10**9), Fraction(100) + Fraction(1, 10**9), Fraction(101)])
def test_top_classes_refuses_a_percent_outside_0_100(bad: Fraction) -> None:
    with pytest.raises(ValueError, match="a percent must be at least 0 and at most 100"):
        top_classes(bad)
