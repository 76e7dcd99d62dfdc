"""The trigonometric and hyperbolic functions (of Excel's math and trigonometry category), with
Excel's own figures where they differ from the exact ones.

Excel reduces the angle of SIN, COS, TAN, COT, CSC and SEC by multiples of pi/2 taken to 64
bits (the x87 processor's pi, 0xC90FDAA22168C235 x 2^-62, about 5.0e-20 above pi): SIN(PI())
is 1.22514845490862E-16 where the double nearest pi gives 1.2246467991473532E-16, and
SIN(2^20) differs from the exact sine in the 14th digit. An angle of 2^27 or more is #NUM!
(COS(2^27-1) is computed). The inverse hyperbolic functions are Excel's logarithms
(ASINH(1E-12) is 1.000088900581841E-12). Every figure here agrees with the values Excel saved
in IronCalc's TRIGONOMETRIC.xlsx and TAN.xlsx to the last digit.

May import: :mod:`fide_rating.engine.formula` (values), :mod:`.base` and the standard library.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

from ..formula.coerce import CODE_PAGE
from ..formula.values import DIV0, NUM, Book, Result
from .base import Impl, define

HALF_PI = Fraction(0xC90FDAA22168C235, 2**63)
"""pi/2 as Excel reduces angles by it: the 64-bit pi of the x87 processor, halved."""

MAC = "mac_roman"  # the code page of a workbook Excel for the Mac saved (:mod:`..recalc`)

LARGEST_ANGLE = 2.0**27
"""The angles SIN, COS, TAN, COT, CSC and SEC take are below this in absolute value."""


def reduced(x: float) -> tuple[int, float]:
    """``x`` as ``k`` quarter turns (0 to 3) and what is left, from -pi/4 to pi/4: the
    subtraction exact, the quarter turn :data:`HALF_PI`."""
    if abs(x) <= 0.785:  # below pi/4: nothing to take away
        return 0, x
    exact = Fraction(x)
    k = round(exact / HALF_PI)
    return k % 4, float(exact - k * HALF_PI)


def sine(x: float) -> float:
    """SIN as Excel computes it."""
    k, r = reduced(x)
    return (math.sin(r), math.cos(r), -math.sin(r), -math.cos(r))[k]


def cosine(x: float) -> float:
    """COS as Excel computes it: Excel for the Mac takes the angle as it is (its COS(PI()/2)
    is 6.123233995736766E-17 where Excel for Windows has 6.1257422745431E-17, and its TAN is
    Windows' one: IronCalc's COS.xlsx and TAN.xlsx, saved by it minutes apart)."""
    if CODE_PAGE.get() == MAC:
        return math.cos(x)
    k, r = reduced(x)
    return (math.cos(r), -math.sin(r), -math.cos(r), math.sin(r))[k]


def tangent(x: float) -> float:
    """TAN as Excel computes it: near its poles the cotangent of what is left."""
    k, r = reduced(x)
    return math.tan(r) if k % 2 == 0 else -1 / math.tan(r)


def _math1(f: Callable[[float], float], bounded: bool = False) -> Impl:
    """A function of one number: a domain error or an overflow #NUM!, a pole #DIV/0!; with
    ``bounded``, an angle of 2^27 or more #NUM!."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
        x = args[0]
        if bounded and abs(x) >= LARGEST_ANGLE:
            return NUM
        try:
            y = float(f(x))
        except (ValueError, OverflowError):
            return NUM
        except ZeroDivisionError:
            return DIV0
        return y if math.isfinite(y) else NUM

    return impl


def _reciprocal(f: Callable[[float], float]) -> Callable[[float], float]:
    """1/f(x), 0 where f overflows (CSCH and SECH of 1E13 are 0)."""

    def g(x: float) -> float:
        try:
            return 1 / f(x)
        except OverflowError:
            return 0.0

    return g


_SQUARE_OVERFLOWS = 1e150  # beyond it x*x overflows: ln(2x), the same to the last digit


def _asinh(x: float) -> float:
    if abs(x) > _SQUARE_OVERFLOWS:
        return math.copysign(math.log(2) + math.log(abs(x)), x)
    return math.copysign(math.log(abs(x) + math.sqrt(x * x + 1)), x)


def _acosh(x: float) -> float:
    if x > _SQUARE_OVERFLOWS:
        return math.log(2) + math.log(x)
    return math.log(x + math.sqrt(x * x - 1))


def _acot(x: float) -> float:
    """From 0 to pi: pi/2 at 0."""
    if x == 0:
        return math.pi / 2
    return math.atan(1 / x) if x > 0 else math.pi + math.atan(1 / x)


def _acoth(x: float) -> float:
    if abs(x) <= 1:
        raise ValueError("outside the domain")
    return math.copysign(0.5 * math.log1p(2 / (abs(x) - 1)), x)


define("SIN", "n")(_math1(sine, bounded=True))
define("COS", "n")(_math1(cosine, bounded=True))
define("TAN", "n")(_math1(tangent, bounded=True))
define("COT", "n")(_math1(lambda x: cosine(x) / sine(x), bounded=True))
define("CSC", "n")(_math1(lambda x: 1 / sine(x), bounded=True))
define("SEC", "n")(_math1(lambda x: 1 / cosine(x), bounded=True))
define("ASIN", "n")(_math1(math.asin))  # outside -1 to 1: math's domain error, #NUM!
define("ACOS", "n")(_math1(lambda x: math.pi / 2 - math.asin(x)))
define("ATAN", "n")(_math1(math.atan))
define("ACOT", "n")(_math1(_acot))
define("SINH", "n")(_math1(math.sinh))
define("COSH", "n")(_math1(math.cosh))
define("TANH", "n")(_math1(math.tanh))
define("COTH", "n")(_math1(lambda x: 1 / math.tanh(x)))
define("CSCH", "n")(_math1(_reciprocal(math.sinh)))
define("SECH", "n")(_math1(_reciprocal(math.cosh)))
define("ASINH", "n")(_math1(_asinh))
define("ACOSH", "n")(_math1(_acosh))
define("ATANH", "n")(_math1(math.atanh))
define("ACOTH", "n")(_math1(_acoth))
define("DEGREES", "n")(_math1(math.degrees))
define("RADIANS", "n")(_math1(math.radians))
