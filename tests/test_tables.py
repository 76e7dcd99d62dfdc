"""Structural tests of 8.1.1 and 8.1.2 as transcribed."""

from __future__ import annotations

import itertools

import pytest

import fide_rating as fr
from fide_rating.rules.tables import DP_TABLE, PD_TABLE, PdTable

TABLES = [PD_TABLE]


def test_dp_table_complete_and_antisymmetric() -> None:
    assert sorted(DP_TABLE) == list(range(101))
    for p in range(101):
        assert DP_TABLE[p] == -DP_TABLE[100 - p]
    assert [DP_TABLE[p] for p in (100, 99, 92, 57, 50, 10, 0)] == [800, 677, 401, 50, 0, -366, -800]


def test_dp_table_strictly_increasing() -> None:
    values = [DP_TABLE[p] for p in range(101)]
    assert all(a < b for a, b in itertools.pairwise(values))


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
def test_pd_bands_contiguous_complementary_monotone(table: PdTable) -> None:
    bands = table.bands
    assert bands[0].low == 0 and bands[-1].high is None and bands[-1].low == 736
    for a, b in itertools.pairwise(bands):
        assert a.high is not None and a.high + 1 == b.low  # no gap, no overlap
        assert b.h == a.h + 1  # one hundredth per band
    for band in bands:
        assert band.h + band.l == 100
    assert [b.h for b in bands] == list(range(50, 101))


def test_every_edition_reads_the_english_table() -> None:
    """The Polish translation of B.02 2005 prints 316-326 -> .87 and 327-344 -> .88; Elo's table
    (1978, 2.11) and FIDE's English texts print 316-328 and 329-344: the English text decides."""
    assert {e.pd_table for e in fr.EDITIONS} == {PD_TABLE}
    assert [PD_TABLE.pd_high(d) for d in (315, 316, 326, 327, 328, 329, 344, 345)] == [
        86, 87, 87, 87, 87, 88, 88, 89
    ]  # fmt: skip


# every band edge of 8.1.2 from both sides
EDGES = [(b.low, b.h) for b in PD_TABLE.bands]


@pytest.mark.parametrize(("low", "h"), EDGES)
def test_every_band_edge_both_sides(low: int, h: int) -> None:
    assert PD_TABLE.pd_high(low) == h
    if low > 0:
        assert PD_TABLE.pd_high(low - 1) == h - 1


def test_beyond_last_band() -> None:
    assert PD_TABLE.pd_high(735) == 99
    assert PD_TABLE.pd_high(736) == 100
    assert PD_TABLE.pd_high(3000) == 100
