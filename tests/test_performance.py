from __future__ import annotations

import pytest

import fide_rating as fr


@pytest.mark.parametrize(("points", "rp"), [(4, 2228), (5, 2300), (6, 2372), (8, 2540)])
def test_seed_001_example_3(points: int, rp: int) -> None:
    scores = [1] * points + [0] * (10 - points)
    assert fr.performance([2300] * 10, scores) == rp


def test_mean_rounded_half_up() -> None:
    assert fr.performance([2000, 2001], [0.5, 0.5]) == 2001  # 2000.5 -> 2001
    assert fr.performance([2000, None, 2001], [0.5, 1, 0.5]) == 2001
    with pytest.raises(fr.FideInputError, match="rated opponent"):
        fr.performance([None], [1])


@pytest.mark.parametrize(
    ("before", "after"),
    [(1000, 1400), (1500, 1700), (1999, 1999), (2000, 2000), (1001, 1401), (1998, 1999)],
)
def test_adjust_2024(before: int, after: int) -> None:
    # 0.6 x 1001 + 800 = 1400.6 -> 1401; 0.6 x 1998 + 800 = 1998.8 -> 1999
    assert fr.adjust_2024(before) == after
