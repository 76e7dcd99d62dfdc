"""Complex numbers and the Bessel functions: Excel's reference examples (support.microsoft.com,
each function's page, the texts as the page shows them) and values Excel saved in IronCalc's
function tests (the PyPI sdist ironcalc 0.9.1, ``xlsx/tests/calc_tests/ENGINEERING/``,
workbooks saved by Excel)."""

from __future__ import annotations

import pytest

from fide_rating.engine.formula.values import DIV0, NUM, VALUE
from test_formula import ev


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("=COMPLEX(3,4)", "3+4i"),
        ('=COMPLEX(3,4,"j")', "3+4j"),
        ("=COMPLEX(0,1)", "i"),
        ("=COMPLEX(1,0)", "1"),
        ('=IMABS("5+12i")', 13.0),
        ('=IMAGINARY("3+4i")', 4.0),
        ('=IMAGINARY("0-j")', -1.0),
        ("=IMAGINARY(4)", 0.0),
        ('=IMCONJUGATE("3+4i")', "3-4i"),
        ('=IMCOS("1+i")', "0.833730025131149-0.988897705762865i"),
        ('=IMDIV("-238+240i","10+24i")', "5+12i"),
        ('=IMEXP("1+i")', "1.46869393991589+2.28735528717884i"),
        ('=IMLN("3+4i")', "1.6094379124341+0.927295218001612i"),
        ('=IMLOG10("3+4i")', "0.698970004336019+0.402719196273373i"),
        ('=IMLOG2("3+4i")', "2.32192809488736+1.33780421245098i"),
        ('=IMPOWER("2+3i",3)', "-46+9.00000000000001i"),
        ('=IMPRODUCT("3+4i","5-3i")', "27+11i"),
        ('=IMPRODUCT("1+2i",30)', "30+60i"),
        ('=IMREAL("6-9i")', 6.0),
        ('=IMSIN("4+3i")', "-7.61923172032141-6.548120040911i"),
        ('=IMSQRT("1+i")', "1.09868411346781+0.455089860562227i"),
        ('=IMSUB("13+4i","5+3i")', "8+i"),
        ('=IMSUM("3+4i","5-3i")', "8+i"),
        ('=IMTAN("4+3i")', "0.00490825806749606+1.00070953606723i"),
        ("=BESSELJ(1.9,2)", pytest.approx(0.329925829, rel=1e-8)),
        ("=BESSELY(2.5,1)", pytest.approx(0.145918138, rel=1e-8)),
        ("=BESSELI(1.5,1)", pytest.approx(0.981666428, rel=1e-8)),
        ("=BESSELK(1.5,1)", pytest.approx(0.277387804, rel=1e-8)),
    ],
)
def test_excels_reference_examples(formula: str, expected: object) -> None:
    assert ev(formula) == expected, formula


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        # COMPLEXs.xlsx, Sheet1 rows 13, 16, 19 and 22: the parts as Excel writes them
        ("=COMPLEX(1.2E-45,-3)", "1.2E-45-3i"),
        ("=COMPLEX(1E-16,0)", "0.0000000000000001"),
        ("=COMPLEX(1E-20,0)", "1E-20"),
        ("=IMARGUMENT(COMPLEX(0,0))", DIV0),
        ("=COMPLEX(1,2,0)", VALUE),
        # Sheet1!T2 and T16: cot as 1/tan, to Excel's digits, and 1E+16 for 1E-16
        ("=IMREAL(IMCOT(COMPLEX(12,6)))", -1.11281895226721e-05),
        ("=IMREAL(IMCOT(COMPLEX(1E-16,0)))", 1e16),
        ('=IMCOT("4+3i")', "0.00490118239430447-0.999266927805902i"),  # Sheet1!T25, U25
        # Sheet2!C8 and C10: a blank is 0 in IMPRODUCT
        ("=IMPRODUCT(7,Z1)", "0"),
        # BESSEL.xlsx: the approximations Excel computes, to the bit
        ("=BESSELI(0.2,0)", 1.0100250221205638),  # BESSELI!B3
        ("=BESSELI(0.2,10)", 2.7582381618461844e-17),  # BESSELI!F3
        ("=BESSELI(0.2,-1)", NUM),  # BESSELI!D3
    ],
)
def test_values_excel_saved(formula: str, expected: object) -> None:
    assert ev(formula) == expected, formula


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ('=IMREAL("3+4k")', NUM),
        ('=IMREAL("3+4i")', 3.0),
        ("=IMREAL(TRUE)", VALUE),
        ('=IMSUM("1+i","1+j")', VALUE),
        ('=IMSUM("1+i","1+i")', "2+2i"),
        ('=IMDIV("1+i",0)', NUM),
        ('=IMLN("0")', NUM),
        ("=BESSELJ(1.5,-1)", NUM),
        ("=BESSELJ(1.5,0)", pytest.approx(0.5118276717, rel=1e-8)),
        ("=BESSELY(0,1)", NUM),
        ("=BESSELY(0.001,1)", pytest.approx(-636.6221672, rel=1e-8)),
        ("=BESSELK(0,1)", NUM),
        ("=BESSELJ(TRUE,1)", VALUE),
    ],
)
def test_each_side_of_the_boundaries(formula: str, expected: object) -> None:
    assert ev(formula) == expected, formula
