"""The statistical distributions, the tests, and the other functions the engine gained:
against the values Excel saved in real workbooks, Excel's reference examples, and both sides
of every domain boundary Excel's reference gives.

EXCEL_SAVED (``tests/data/excel_saved_functions.json``) holds formulas of IronCalc's function
tests (the PyPI sdist ironcalc 0.9.1, ``xlsx/tests/calc_tests/<file>``, workbooks saved by
Excel with its cached values), each with its arguments written in from the cells it reads,
the value Excel saved, and the workbook and cell it comes from. A number agrees to one unit in the 15th significant digit,
as in the conformance corpus.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from fide_rating.engine.formula.values import DIV0, NA, NUM, VALUE, Unsupported, XlError
from test_formula import book, ev

OK = object()  # a finite number, whatever it is: the side of a boundary that is inside

EXCEL_SAVED: list[tuple[str, float | str, str, str]] = [
    (formula, expected, workbook, cell)
    for formula, expected, workbook, cell in json.loads(
        (Path(__file__).parent / "data" / "excel_saved_functions.json").read_text()
    )["cases"]
]


def _agrees(got: object, expected: float | str) -> bool:
    if isinstance(expected, str):
        return isinstance(got, XlError) and got.code == expected
    if not isinstance(got, float):
        return False
    return got == expected or abs(got - expected) <= 1e-14 * max(abs(got), abs(expected))


@pytest.mark.parametrize(("formula", "expected", "workbook", "cell"), EXCEL_SAVED)
def test_the_values_excel_saved(formula: str, expected: float | str, workbook: str,
                                cell: str) -> None:  # fmt: skip
    got = ev(formula)
    assert _agrees(got, expected), f"{workbook} {cell}: {formula} -> Excel {expected}, ours {got}"


# Excel's reference examples (support.microsoft.com, each function's page), to the digits the
# page prints
REFERENCE: list[tuple[str, float]] = [
    ("=NORM.DIST(42,40,1.5,FALSE)", 0.10934),
    ("=NORM.INV(0.908789,40,1.5)", 42.000002),
    ("=NORM.S.INV(0.908789)", 1.3333347),
    ("=NORMSDIST(1.333333)", 0.908788726),
    ("=LOGNORM.DIST(4,3.5,1.2,FALSE)", 0.0176176),
    ("=LOGNORM.INV(0.039084,3.5,1.2)", 4.0000252),
    ("=LOGNORMDIST(4,3.5,1.2)", 0.0390836),
    ("=T.DIST(60,1,TRUE)", 0.99469533),
    ("=T.DIST(8,3,FALSE)", 0.00073691),
    ("=T.DIST.2T(1.959999998,60)", 0.054644930),
    ("=T.DIST.RT(1.959999998,60)", 0.027322465),
    ("=TDIST(1.959999998,60,2)", 0.054644930),
    ("=T.INV(0.75,2)", 0.8164966),
    ("=T.INV.2T(0.546449,60)", 0.606533),
    ("=TINV(0.054645,60)", 1.959999),
    ("=CHISQ.DIST(0.5,1,TRUE)", 0.52049988),
    ("=CHISQ.DIST(2,3,FALSE)", 0.20755375),
    ("=CHISQ.DIST.RT(18.307,10)", 0.0500006),
    ("=CHIDIST(18.307,10)", 0.0500006),
    ("=CHISQ.INV(0.93,1)", 3.283020287),
    ("=CHISQ.INV(0.6,2)", 1.832581464),
    ("=CHISQ.INV.RT(0.050001,10)", 18.306973),
    ("=F.DIST(15.2069,6,4,TRUE)", 0.99),
    ("=F.DIST(15.2069,6,4,FALSE)", 0.0012238),
    ("=F.DIST.RT(15.2068649,6,4)", 0.01),
    ("=F.INV(0.01,6,4)", 0.10930991),
    ("=F.INV.RT(0.01,6,4)", 15.206865),
    ("=GAMMA.DIST(10.00001131,9,2,FALSE)", 0.032639),
    ("=GAMMA.DIST(10.00001131,9,2,TRUE)", 0.068094),
    ("=GAMMA.INV(0.068094,9,2)", 10.0000112),
    ("=GAMMA(2.5)", 1.329340388),
    ("=GAMMA(-3.75)", 0.267866129),
    ("=GAMMALN(4)", 1.791759469),
    ("=BETA.DIST(2,8,10,TRUE,1,3)", 0.6854706),
    ("=BETA.DIST(2,8,10,FALSE,1,3)", 1.4837646),
    ("=BETA.INV(0.685470581,8,10,1,3)", 2.0),
    ("=BETADIST(2,8,10,1,3)", 0.6854706),
    ("=EXPON.DIST(0.2,10,TRUE)", 0.86466472),
    ("=EXPON.DIST(0.2,10,FALSE)", 1.35335283),
    ("=WEIBULL.DIST(105,20,100,TRUE)", 0.929581),
    ("=WEIBULL.DIST(105,20,100,FALSE)", 0.035589),
    ("=CONFIDENCE.NORM(0.05,2.5,50)", 0.692952),
    ("=CONFIDENCE.T(0.05,1,50)", 0.284196855),
    ("=FISHER(0.75)", 0.9729551),
    ("=FISHERINV(0.972955)", 0.75),
    ("=GAUSS(2)", 0.47725),
    ("=PHI(0.75)", 0.301137432),
    ("=BINOM.DIST(6,10,0.5,FALSE)", 0.2050781),
    ("=BINOM.DIST.RANGE(60,0.75,48)", 0.084),
    ("=BINOM.DIST.RANGE(60,0.75,45,50)", 0.524),
    ("=BINOM.INV(6,0.5,0.75)", 4.0),
    ("=CRITBINOM(6,0.5,0.75)", 4.0),
    ("=NEGBINOM.DIST(10,5,0.25,TRUE)", 0.3135141),
    ("=NEGBINOM.DIST(10,5,0.25,FALSE)", 0.05504866),
    ("=HYPGEOM.DIST(1,4,8,20,TRUE)", 0.4654),
    ("=HYPGEOM.DIST(1,4,8,20,FALSE)", 0.3633),
    ("=POISSON.DIST(2,5,TRUE)", 0.124652),
    ("=POISSON.DIST(2,5,FALSE)", 0.084224),
    ("=PROB({0,1,2,3},{0.2,0.3,0.1,0.4},2)", 0.1),
    ("=PROB({0,1,2,3},{0.2,0.3,0.1,0.4},1,3)", 0.8),
    ("=PERMUT(100,3)", 970200.0),
    ("=PERMUTATIONA(3,2)", 9.0),
    ("=SKEW(3,4,5,2,3,4,5,6,4,7)", 0.359543),
    ("=SKEW.P(3,4,5,2,3,4,5,6,4,7)", 0.303193),
    ("=KURT(3,4,5,2,3,4,5,6,4,7)", -0.151799637),
    ("=T.TEST({3,4,5,8,9,1,2,4,5},{6,19,3,2,14,4,5,17,1},2,1)", 0.196016),
    ("=F.TEST({6,7,9,15,21},{20,28,31,38,40})", 0.64831785),
    ("=CHISQ.TEST({58,35;11,25;10,23},{45.35,47.65;17.56,18.44;16.09,16.91})", 0.0003082),
    ("=Z.TEST({3,6,7,8,6,5,4,2,1,9},4)", 0.090574),
    ("=Z.TEST({3,6,7,8,6,5,4,2,1,9},6)", 0.863043),
    ("=PERCENTRANK.INC({13,12,11,8,4,3,2,1,1,1},2)", 0.333),
    ("=PERCENTRANK.INC({13,12,11,8,4,3,2,1,1,1},5)", 0.583),
    ("=PERCENTRANK.EXC({1,2,3,6,6,6,7,8,9},7)", 0.7),
    ("=PERCENTRANK.EXC({1,2,3,6,6,6,7,8,9},5.43)", 0.381),
    ("=PERCENTRANK.EXC({1,2,3,6,6,6,7,8,9},5.43,1)", 0.3),
    ("=STEYX({2,3,9,1,8,7,5},{6,5,11,7,5,4,4})", 3.305719),
    ("=RRI(96,10000,11000)", 0.0009933),
    ("=PDURATION(2.5%,2000,2200)", 3.86),
    ("=PDURATION(0.025/12,1000,1200)", 87.6),
    ("=FVSCHEDULE(1,{0.09,0.11,0.1})", 1.33089),
    ("=ISPMT(0.1/12,1,3*12,8000000)", -64814.8),
    ("=ISPMT(0.1,1,3,8000000)", -533333.0),
    ("=CUMIPMT(0.09/12,30*12,125000,13,24,0)", -11135.23),
    ("=CUMIPMT(0.09/12,30*12,125000,1,1,0)", -937.50),
    ("=CUMPRINC(0.09/12,30*12,125000,13,24,0)", -934.1071234),
    ("=CUMPRINC(0.09/12,30*12,125000,1,1,0)", -68.27827118),
    ("=DOLLARDE(1.02,16)", 1.125),
    ("=DOLLARDE(1.1,32)", 1.3125),
    ("=DOLLARFR(1.125,16)", 1.02),
    ("=DOLLARFR(1.125,32)", 1.04),
    ("=ERF(0.745)", 0.70792892),
    ("=ERF(1)", 0.84270079),
    ("=ERFC(1)", 0.1572992),
    ("=GESTEP(5,4)", 1.0),
    ("=GESTEP(-1)", 0.0),
    ("=DELTA(5,5)", 1.0),
    ("=DELTA(0.5,0)", 0.0),
    ("=BITAND(13,25)", 9.0),
    ("=BITOR(23,10)", 31.0),
    ("=BITXOR(5,3)", 6.0),
    ("=BITLSHIFT(4,2)", 16.0),
    ("=BITRSHIFT(13,2)", 3.0),
    ('=DECIMAL("FF",16)', 255.0),
    ("=DECIMAL(111,2)", 7.0),
    ('=DECIMAL("zap",36)', 45745.0),
    ("=MULTINOMIAL(2,3,4)", 1260.0),
    ("=MDETERM({1,3,8,5;1,3,6,1;1,1,1,0;7,3,10,2})", 88.0),
    ("=MDETERM({3,6,1;1,1,0;3,10,2})", 1.0),
    ("=MDETERM({3,6;1,1})", -3.0),
    ("=SERIESSUM(PI()/4,0,2,{1,-0.5,0.041666667,-0.001388889})", 0.707103),
]


@pytest.mark.parametrize(("formula", "expected"), REFERENCE)
def test_excels_reference_examples(formula: str, expected: float) -> None:
    got = ev(formula)
    assert isinstance(got, float), formula
    digits = len(repr(abs(expected)).replace(".", "").lstrip("0").rstrip("0").split("e")[0])
    assert got == pytest.approx(expected, rel=6 * 10.0 ** -max(digits, 1), abs=1e-9), formula


def test_text_results_and_arrays_of_the_reference() -> None:
    assert ev("=BASE(7,2)") == "111"
    assert ev("=BASE(100,16)") == "64"
    assert ev("=BASE(15,2,10)") == "0000001111"
    assert ev("=LEN(BASE(7,2,255))") == 255.0  # the longest min_length
    assert ev("=INDEX(MODE.MULT(1,2,3,4,3,2,1,2,3,5,6,1),3)") == 3.0
    assert ev("=ROWS(MODE.MULT(1,2,3,4,3,2,1,2,3,5,6,1))") == 3.0
    assert ev("=INDEX(MINVERSE({4,-1;2,0}),1,2)") == 0.5
    assert ev("=INDEX(MINVERSE({4,-1;2,0}),2,1)") == -1.0
    assert ev("=SUM(MUNIT(3))") == 3.0
    assert ev("=INDEX(LOGEST({6,18,54,162}),1)") == pytest.approx(3.0, rel=1e-14)
    assert ev("=INDEX(LOGEST({6,18,54,162}),2)") == pytest.approx(2.0, rel=1e-14)
    assert ev("=GROWTH({6,18,54,162},{1,2,3,4},5)") == pytest.approx(486.0, rel=1e-14)


# both sides of each boundary Excel's reference gives: the error outside, a number inside
BOUNDARIES: list[tuple[str, object]] = [
    ("=NORM.DIST(1,0,0,TRUE)", NUM),
    ("=NORM.DIST(1,0,1E-300,TRUE)", 1.0),
    ("=NORM.INV(0,0,1)", NUM),
    ("=NORM.INV(1E-300,0,1)", OK),
    ("=NORM.INV(1,0,1)", NUM),
    ("=NORM.INV(0.9999999,0,1)", OK),
    ("=NORM.INV(0.5,0,0)", NUM),
    ("=NORM.S.INV(0)", NUM),
    ("=NORM.S.INV(1)", NUM),
    ("=NORM.S.INV(0.5)", 0.0),
    ("=LOGNORM.DIST(0,0,1,TRUE)", NUM),
    ("=LOGNORM.DIST(1E-9,0,1,TRUE)", OK),
    ("=LOGNORM.DIST(1,0,0,TRUE)", NUM),
    ("=LOGNORM.INV(0,0,1)", NUM),
    ("=LOGNORM.INV(1,0,1)", NUM),
    ("=T.DIST(1,0.99,TRUE)", NUM),
    ("=T.DIST(1,1,TRUE)", 0.75),
    ("=T.DIST.2T(-0.001,5)", NUM),
    ("=T.DIST.2T(0,5)", 1.0),
    ("=TDIST(1,5,0)", NUM),
    ("=TDIST(1,5,1)", OK),
    ("=TDIST(1,5,3)", NUM),
    ("=TDIST(-1,5,1)", NUM),
    ("=T.INV(0,5)", NUM),
    ("=T.INV(0.5,5)", 0.0),
    ("=T.INV.2T(0,5)", NUM),
    ("=T.INV.2T(1,5)", 0.0),
    ("=T.INV.2T(1.0001,5)", NUM),
    ("=CHISQ.DIST(-0.001,3,TRUE)", NUM),
    ("=CHISQ.DIST(0,3,TRUE)", 0.0),
    ("=CHISQ.DIST(1,0.9,TRUE)", NUM),
    ("=CHISQ.DIST(1,1,TRUE)", OK),
    ("=CHISQ.DIST(1,10000000000,TRUE)", OK),
    ("=CHISQ.DIST(1,10000000001,TRUE)", NUM),
    ("=CHISQ.DIST.RT(-0.001,3)", NUM),
    ("=CHISQ.DIST.RT(0,3)", 1.0),
    ("=CHISQ.INV(-0.01,3)", NUM),
    ("=CHISQ.INV(0,3)", 0.0),
    ("=CHISQ.INV(1.01,3)", NUM),
    ("=CHISQ.INV.RT(-0.01,3)", NUM),
    ("=CHISQ.INV.RT(1,3)", 0.0),
    ("=CHISQ.INV.RT(1.01,3)", NUM),
    ("=F.DIST(-0.01,6,4,TRUE)", NUM),
    ("=F.DIST(0,6,4,TRUE)", 0.0),
    ("=F.DIST(1,0.5,4,TRUE)", NUM),
    ("=F.DIST(1,6,0.5,TRUE)", NUM),
    ("=F.INV(-0.01,6,4)", NUM),
    ("=F.INV(0,6,4)", 0.0),
    ("=F.INV(1.01,6,4)", NUM),
    ("=F.INV.RT(1,6,4)", 0.0),
    ("=GAMMA.DIST(-0.01,9,2,TRUE)", NUM),
    ("=GAMMA.DIST(0,9,2,TRUE)", 0.0),
    ("=GAMMA.DIST(1,0,2,TRUE)", NUM),
    ("=GAMMA.DIST(1,9,0,TRUE)", NUM),
    ("=GAMMA.INV(-0.01,9,2)", NUM),
    ("=GAMMA.INV(0,9,2)", 0.0),
    ("=GAMMA.INV(1.01,9,2)", NUM),
    ("=GAMMA(0)", NUM),
    ("=GAMMA(-2)", NUM),
    ("=GAMMA(-0.5)", OK),
    ("=GAMMALN(0)", NUM),
    ("=GAMMALN(1E-300)", OK),
    ("=BETA.DIST(0.99,8,10,TRUE,1,3)", NUM),
    ("=BETA.DIST(1,8,10,TRUE,1,3)", 0.0),
    ("=BETA.DIST(3,8,10,TRUE,1,3)", 1.0),
    ("=BETA.DIST(3.01,8,10,TRUE,1,3)", NUM),
    ("=BETA.DIST(2,8,10,TRUE,2,2)", NUM),
    ("=BETA.DIST(0.5,0,10,TRUE)", NUM),
    ("=BETA.INV(0,8,10)", NUM),
    ("=BETA.INV(1,8,10)", NUM),
    ("=BETA.INV(0.5,8,10)", OK),
    ("=EXPON.DIST(-0.01,10,TRUE)", NUM),
    ("=EXPON.DIST(0,10,TRUE)", 0.0),
    ("=EXPON.DIST(1,0,TRUE)", NUM),
    ("=WEIBULL.DIST(-0.01,20,100,TRUE)", NUM),
    ("=WEIBULL.DIST(0,20,100,TRUE)", 0.0),
    ("=WEIBULL.DIST(1,0,100,TRUE)", NUM),
    ("=WEIBULL.DIST(1,20,0,TRUE)", NUM),
    ("=CONFIDENCE.NORM(0,2.5,50)", NUM),
    ("=CONFIDENCE.NORM(1,2.5,50)", NUM),
    ("=CONFIDENCE.NORM(0.05,0,50)", NUM),
    ("=CONFIDENCE.NORM(0.05,2.5,0.99)", NUM),
    ("=CONFIDENCE.NORM(0.05,2.5,1)", OK),
    ("=CONFIDENCE.T(0.05,1,1)", DIV0),
    ("=CONFIDENCE.T(0.05,1,2)", OK),
    ("=FISHER(-1)", NUM),
    ("=FISHER(1)", NUM),
    ("=FISHER(0.999)", OK),
    ("=BINOM.DIST(-1,10,0.5,TRUE)", NUM),
    ("=BINOM.DIST(0,10,0.5,TRUE)", OK),
    ("=BINOM.DIST(10,10,0.5,TRUE)", 1.0),
    ("=BINOM.DIST(11,10,0.5,TRUE)", NUM),
    ("=BINOM.DIST(2,10,-0.01,TRUE)", NUM),
    ("=BINOM.DIST(2,10,1,TRUE)", 0.0),
    ("=BINOM.DIST(2,10,1.01,TRUE)", NUM),
    ("=BINOM.INV(10,0.5,0)", NUM),
    ("=BINOM.INV(10,0.5,1)", NUM),
    ("=BINOM.INV(10,0.5,0.5)", 5.0),
    ("=BINOM.INV(10,1,0.5)", NUM),
    ("=NEGBINOM.DIST(2,10,0,TRUE)", NUM),
    ("=NEGBINOM.DIST(2,10,1,TRUE)", NUM),
    ("=NEGBINOM.DIST(2,0.5,0.5,TRUE)", NUM),
    ("=NEGBINOM.DIST(2,1,0.5,TRUE)", 0.875),
    ("=NEGBINOM.DIST(-1,1,0.5,TRUE)", NUM),
    ("=POISSON.DIST(-0.000001,5,TRUE)", NUM),
    ("=POISSON.DIST(0,5,FALSE)", OK),
    ("=POISSON.DIST(1,-0.01,FALSE)", NUM),
    ("=POISSON.DIST(0,0,FALSE)", 1.0),
    ("=HYPGEOM.DIST(5,4,8,20,FALSE)", NUM),
    ("=HYPGEOM.DIST(1,21,8,20,FALSE)", NUM),
    ("=HYPGEOM.DIST(1,4,21,20,FALSE)", NUM),
    ("=HYPGEOM.DIST(4,4,8,20,FALSE)", OK),
    ("=PERMUT(0,0)", NUM),
    ("=PERMUT(3,4)", NUM),
    ("=PERMUT(3,3)", 6.0),
    ("=PERMUTATIONA(-1,2)", NUM),
    ("=PERMUTATIONA(0,2)", 0.0),
    ("=BITAND(-1,1)", NUM),
    ("=BITAND(281474976710656,1)", NUM),
    ("=BITAND(281474976710655,1)", 1.0),
    ("=BITAND(1.5,1)", NUM),
    ("=BITLSHIFT(0,53)", 0.0),
    ("=BITLSHIFT(0,54)", NUM),
    ("=BITLSHIFT(1,47)", 140737488355328.0),
    ("=BITLSHIFT(1,48)", NUM),
    ("=BITRSHIFT(8,-1)", 16.0),
    ("=BASE(7,1)", NUM),
    ("=BASE(7,36)", "7"),
    ("=BASE(7,37)", NUM),
    ("=BASE(-1,2)", NUM),
    ("=BASE(7,2,256)", NUM),
    ('=DECIMAL("12",1)', NUM),
    ('=DECIMAL("12",3)', 5.0),
    ('=DECIMAL("13",3)', NUM),
    ("=MULTINOMIAL(-1,2)", NUM),
    ("=MULTINOMIAL(0,2)", 1.0),
    ("=DOLLARDE(1.02,0)", DIV0),
    ("=DOLLARDE(1.02,0.9)", DIV0),
    ("=DOLLARDE(1.02,-1)", NUM),
    ("=DOLLARDE(1.02,TRUE)", VALUE),
    ("=DOLLARDE(1.5,1)", 1.5),
    ("=PDURATION(0,2000,2200)", NUM),
    ("=PDURATION(0.025,0,2200)", NUM),
    ("=PDURATION(0.025,2000,0)", NUM),
    ("=RRI(0,10000,11000)", NUM),
    ("=RRI(1,10000,11000)", OK),
    ("=ISPMT(0.1,1,0,8000000)", DIV0),
    ("=CUMIPMT(0.0075,360,125000,0,24,0)", NUM),
    ("=CUMIPMT(0.0075,360,125000,1,361,0)", NUM),
    ("=CUMIPMT(0.0075,360,125000,25,24,0)", NUM),
    ("=CUMIPMT(0.0075,360,125000,13,24,2)", NUM),
    ("=CUMIPMT(0,360,125000,13,24,0)", NUM),
    ("=CUMIPMT(0.0075,360,125000,360,360,0)", OK),
    ("=CUMIPMT(0.0075,360,125000,1,1,TRUE)", VALUE),
    ("=SKEW(1,2)", DIV0),
    ("=SKEW(1,2,4)", OK),
    ("=SKEW(2,2,2)", DIV0),
    ("=SKEW.P(1,2)", DIV0),
    ("=SKEW.P(1,2,4)", OK),
    ("=KURT(1,2,4)", DIV0),
    ("=KURT(1,2,4,8)", OK),
    ("=PERCENTRANK.INC({1,2,3},0.99)", NA),
    ("=PERCENTRANK.INC({1,2,3},3.01)", NA),
    ("=PERCENTRANK.INC({1,2,3},3)", 1.0),
    ("=PERCENTRANK.INC({1,2,3},2,0)", NUM),
    ("=PERCENTRANK.INC({1,2,3},2,1)", 0.5),
    ("=MODE.MULT(1,2,3)", NA),
    ("=T.TEST({1,2,3},{4,5,7},3,1)", NUM),
    ("=T.TEST({1,2,3},{4,5,7},2,4)", NUM),
    ("=T.TEST({1,2,3},{4,5},2,1)", NA),
    ("=T.TEST({1,2,3},{4,5,7},2,3)", OK),
    ("=F.TEST({1},{4,5,7})", DIV0),
    ("=F.TEST({1,2},{4,5,7})", OK),
    ("=CHISQ.TEST({1,2},{1;2})", NA),
    ("=STEYX({1,2},{3,4})", DIV0),
    ("=STEYX({1,2,4},{3,4,6})", OK),
    ("=PROB({1,2},{0.5,0.6},1)", NUM),
    ("=PROB({1,2},{0.5,0.5,0},1)", NA),
    ("=PROB({1,2},{0,1},1)", NUM),
    ("=MDETERM({1,2,3;4,5,6})", VALUE),
    ("=MINVERSE({1,2;2,4})", NUM),
    ("=MINVERSE({1,2,3;4,5,6})", VALUE),
    ("=MUNIT(0)", VALUE),
    ("=MUNIT(1)", 1.0),
]


@pytest.mark.parametrize(("formula", "expected"), BOUNDARIES)
def test_each_side_of_the_domain_boundaries(formula: str, expected: object) -> None:
    got = ev(formula)
    if expected is OK:
        assert isinstance(got, float) and math.isfinite(got), f"{formula} -> {got}"
    else:
        assert got == expected, f"{formula} -> {got}"


# Where Excel's figure is its own computation's, retraced (IronCalc 0.9.1's workbooks, as
# above): each to 15 digits, and where the rule has a boundary, a value on each side of it
EXCEL_RETRACED: list[tuple[str, float, str]] = [
    # Φ by Cody's ANORM, exp(-z²/2) whole, and 1 - Φ(-z) above 0
    ("=NORM.S.DIST(1E-6,TRUE)", 0.5000003989422803, "NORM_DIST.xlsx C22"),
    ("=NORM.S.DIST(-1E-6,TRUE)", 0.4999996010577196, "NORM_DIST.xlsx E21"),
    ("=NORM.S.INV(NORM.S.DIST(1E-6,TRUE))", 9.99999999800783e-07, "NORM_DIST.xlsx D22"),
    ("=NORM.S.DIST(-10,TRUE)", 7.619853024160475e-24, "NORM_DIST.xlsx C19"),
    ("=NORM.DIST(0,40,1.5,TRUE)", 5.7347825020024226e-157, "NORM_DIST.xlsx E32"),
    ("=NORM.S.DIST(-3,TRUE)", 0.0013498980316300933, "NORM_DIST.xlsx C13"),
    ("=NORM.S.DIST(1.96,TRUE)", 0.9750021048517795, "NORM_DIST.xlsx C14"),
    # LOGNORM.DIST's ln x as log10(x) · ln 10
    ("=LOGNORM.DIST(1E-10,0,1,TRUE)", 1.284175630643432e-117, "LOGNORM.xlsx E18"),
    ("=LOGNORM.DIST(1E-5,0,1,TRUE)", 5.677979296840894e-31, "LOGNORM.xlsx E17"),
    ("=LOGNORM.INV(1.284175630643432E-117,0,1)", 9.999999999999889e-11, "LOGNORM.xlsx F18"),
    ("=LOGNORM.DIST(33.115,3.5,1.2,TRUE)", 0.4999954626755009, "LOGNORM.xlsx E16"),
    # Student's t inverse: the root of the central part above an upper tail of 1/4, of the
    # tail below it
    ("=T.INV(0.500000389989757,11)", 9.999999999666944e-07, "T_DIST.xlsx E20"),
    ("=T.INV(0.4999996092736948,12)", -9.999999999397088e-07, "T_DIST.xlsx E21"),
    ("=T.INV.2T(0.9999992217832321,10)", 9.999999999795522e-07, "T_DIST.xlsx D20"),
    ("=T.INV.2T(0.9999999,10)", 1.2849890167888884e-07, "T_DIST.xlsx D62"),
    ("=T.INV.2T(0.9999,10)", 0.00012849890213550156, "T_DIST.xlsx D63"),
    ("=CONFIDENCE.T(0.999999,1,50)", 1.781519460717496e-07, "CONFIDENCE.xlsx E8"),
    ("=T.INV(0.7886751345948129,2)", 1.0, "T_DIST.xlsx E16"),
    ("=T.INV(0.8401379221079384,100)", 1.0000000000000004, "T_DIST.xlsx E17"),
    # the incomplete gamma and beta functions' prefix far in a tail, by its powers
    ("=GAMMA.DIST(1E-5,9,2,TRUE)", 5.38226469068969e-54, "GAMMA.xlsx E16"),
    ("=T.DIST.RT(1E6,10)", 1.230468749943611e-56, "T_DIST.xlsx F18"),
    ("=T.DIST(-1E6,10,TRUE)", 1.230468749943611e-56, "T_DIST.xlsx D19"),
    ("=BETA.DIST(0.555,100,1,TRUE,0.1,1)", 2.3817091316180232e-30, "BETADIST_BETAINV.xlsx G30"),
    ("=T.DIST(1,2,TRUE)", 0.7886751345948129, "T_DIST.xlsx D16"),
    # the binomial densities' powers as exp(n ln p), far in a tail and near the middle
    ("=NEGBINOM.DIST(0,100,0.01,TRUE)", 1.0000000000000348e-200, "BINOM.xlsx NEGBINOM.DIST!E37"),
    ("=NEGBINOM.DIST(0,10,0.3,TRUE)", 5.904899999999995e-06, "BINOM.xlsx NEGBINOM.DIST!E20"),
    ("=BINOM.DIST(1,100,0.99,TRUE)", 9.90100000000073e-197, "BINOM.xlsx BINOM.DIST!E32"),
    ("=BINOM.DIST(0,10,0.3,TRUE)", 0.028247524899999994, "BINOM.xlsx BINOM.DIST!E18"),
    # GAMMALN near 1, where the logarithm of the gamma function is near 0: Excel's figure is
    # the value to the last digits (math.lgamma's missed it in the 9th)
    ("=GAMMALN(1.0000001)", -5.772155829918508e-08, "GAMMALN_GAMMALNPRECISE.xlsx B23"),
    ("=GAMMALN(0.9999999)", 5.7721574684441944e-08, "GAMMALN_GAMMALNPRECISE.xlsx B24"),
    ("=GAMMALN.PRECISE(0.9999999)", 5.7721574684441944e-08, "GAMMALN_GAMMALNPRECISE.xlsx C24"),
]


@pytest.mark.parametrize(("formula", "excel", "cell"), EXCEL_RETRACED)
def test_where_excels_computation_is_retraced(formula: str, excel: float, cell: str) -> None:
    assert _agrees(ev(formula), excel), f"{cell}: {formula} -> {ev(formula)}, Excel {excel}"


# Where Excel's own figure is not the function's value to 15 digits (IronCalc 0.9.1's
# workbooks, as above): ours is the value to the last digits, Excel's a few digits short.
EXCEL_APPROXIMATE: list[tuple[str, float, float, str]] = [
    # Student's t inverse for 1,000 degrees of freedom
    ("=T.INV.2T(0.3175524180846723,1000)", 0.9999999999999449, 1e-13, "T_DIST.xlsx D18"),
    ("=CONFIDENCE.T(0.05,1,46023)", 0.00913633574213239, 1e-11, "CONFIDENCE.xlsx E49"),
]


@pytest.mark.parametrize(("formula", "excel", "within", "cell"), EXCEL_APPROXIMATE)
def test_where_excel_is_approximate(formula: str, excel: float, within: float, cell: str) -> None:
    got = ev(formula)
    assert isinstance(got, float)
    assert got != excel and abs(got - excel) <= within * abs(excel), f"{cell}: {got}"


@pytest.mark.parametrize(
    ("x", "value"),
    [  # ln Γ(x) in 50-digit decimals, rounded to a double: near 1 and 2 from its series
        # -γe + ζ(2)e²/2 - ... (to e⁵), at 1.25, 1.75 and 2.25 from Γ(1/4) to 60 digits
        (1.0000001, -5.772155829918507e-08),
        (0.9999999, 5.772157468444193e-08),
        (2.0000001, 4.227843666532498e-08),
        (1.9999999, -4.2278430309861296e-08),
        (1.25, -0.09827183642181316),  # where the series gives way to math.lgamma
        (1.75, -0.08440112102048555),
        (2.25, 0.1248717148923966),
    ],
)
def test_the_logarithm_of_gamma_near_1_and_2(x: float, value: float) -> None:
    got = ev(f"=GAMMALN({x!r})")
    assert isinstance(got, float)
    assert abs(got - value) <= 4e-16 * abs(value), (x, got)  # two units in the last place


def test_isformula_on_both_sides() -> None:
    b = book({"A1": 1.0}, {"B1": "=A1+1", "C1": "=ISFORMULA(B1)", "D1": "=ISFORMULA(A1)",
                           "E1": "=ISFORMULA(5)"})  # fmt: skip
    assert b.value("S", 1, 3) is True
    assert b.value("S", 1, 4) is False
    assert b.value("S", 1, 5) == VALUE


def test_python_in_excel_is_reported_not_a_name_error() -> None:
    """=_xlfn._xlws.PY(...) is Excel's (Python in Excel): reported as not computed, where it
    used to be #NAME?, a value Excel never saved for it."""
    with pytest.raises(Unsupported, match="PY is an Excel function recalc does not compute"):
        ev("=_xlfn._xlws.PY(0,1,A1)")


@pytest.mark.parametrize(
    ("formula", "excel"),
    [
        ("=SKEW(1,2,3,0.12,1,2,3,3)", -0.41015281605980153),
        ("=SKEW.P(1,2,3,0.12,1,2,3,3)", -0.32885385298206216),
        ("=KURT(1,2,3,0.12,1,2,3,3)", -1.2129835263391704),
    ],
)
def test_the_shape_of_a_sample_to_excels_bit(formula: str, excel: float) -> None:
    """IronCalc 0.9.1's ``STATISTICAL/MEADIAN_KURT_SKEW_HARMEAN.xlsx``, saved by Excel: the
    mean, the squared deviations and the powers of the standardized numbers added in order
    (the exactly rounded sums give -0.410152816059801 and -0.32885385298206193)."""
    assert ev(formula) == excel
