"""The Bessel functions of Excel's Engineering category: BESSELJ, BESSELY, BESSELI, BESSELK.

Excel computes them with the polynomial and rational approximations of Abramowitz and Stegun
(9.4, 9.8) and Numerical Recipes (2nd ed., 6.5 and 6.6: J and Y of order 0 and 1 as rational
functions below 8 and Hankel's asymptotic form above; I and K of order 0 and 1 as polynomials;
higher orders by recurrence, downward from an even order ACC = 40 above for J and I, upward
for Y and K), good to about 8 digits: its saved values are these approximations to the bit,
and so are ours. J of |x| of 8 or more is the exception: Excel's J0 there has two coefficients
of its own, and its J1 a term more (below): BESSELJ(10,1) is 0.0434722496522542 in Excel,
0.0434727461688614 in truth, 0.0434727463393427 by Numerical Recipes.

The order is truncated (below 0: ``#NUM!``); Y and K need x above 0 (else ``#NUM!``); a
logical given is ``#VALUE!`` (an Analysis ToolPak function).

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base`, :mod:`.financial` and the
standard library.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..formula.values import NUM, Book, Result, Value, XlError
from .base import define
from .financial import atp_numbers

_ACC = 40.0  # Numerical Recipes' accuracy constant for the downward recurrences
_BIG, _SMALL = 1.0e10, 1.0e-10  # its rescaling of the recurrences


def _horner(coefficients: tuple[float, ...], y: float) -> float:
    """c0 + c1 y + c2 y^2 ..., evaluated from the highest term as the sources write it."""
    total = coefficients[-1]
    for c in reversed(coefficients[:-1]):
        total = c + y * total
    return total


# J0 and Y0, J1 and Y1 below 8: rational functions of x^2 (Numerical Recipes 6.5)
_J0_P = (57568490574.0, -13362590354.0, 651619640.7, -11214424.18, 77392.33017, -184.9052456)
_J0_Q = (57568490411.0, 1029532985.0, 9494680.718, 59272.64853, 267.8532712, 1.0)
_J1_P = (72362614232.0, -7895059235.0, 242396853.1, -2972611.439, 15704.48260, -30.16036606)
_J1_Q = (144725228442.0, 2300535178.0, 18583304.74, 99447.43394, 376.9991397, 1.0)
_Y0_P = (-2957821389.0, 7062834065.0, -512359803.6, 10879881.29, -86327.92757, 228.4622733)
_Y0_Q = (40076544269.0, 745249964.8, 7189466.438, 47447.26470, 226.1030244, 1.0)
_Y1_P = (-0.4900604943e13, 0.1275274390e13, -0.5153438139e11, 0.7349264551e9,
         -0.4237922726e7, 0.8511937935e4)  # fmt: skip
_Y1_Q = (0.2499580570e14, 0.4244419664e12, 0.3733650367e10, 0.2245904002e8, 0.1020426050e6,
         0.3549632885e3, 1.0)  # fmt: skip
# from 8 on: Hankel's asymptotic form, P and Q polynomials in (8/x)^2
_P0 = (1.0, -0.1098628627e-2, 0.2734510407e-4, -0.2073370639e-5, 0.2093887211e-6)
_Q0 = (-0.1562499995e-1, 0.1430488765e-3, -0.6911147651e-5, 0.7621095161e-6, -0.934945152e-7)
# Excel's J0 has two coefficients of its own, P's second with two digits swapped
# (-0.1098628267e-2) and Q's last -0.934935152e-7: its BESSELJ(10,0) and BESSELJ(32,0) are
# these to the bit (IronCalc's BESSEL.xlsx); its Y0 has Numerical Recipes' coefficients
_P0_J = (1.0, -0.1098628267e-2, *_P0[2:])
_Q0_J = (*_Q0[:4], -0.934935152e-7)
_P1 = (1.0, 0.183105e-2, -0.3516396496e-4, 0.2457520174e-5, -0.240337019e-6)
_Q1 = (0.04687499995, -0.2002690873e-3, 0.8449199096e-5, -0.88228987e-6, 0.105787412e-6)
# Excel's J1 has P's third coefficient twice (1, 0.183105e-2, -0.3516396496e-4,
# -0.3516396496e-4, 0.2457520174e-5, -0.240337019e-6): its BESSELJ(10,1) and BESSELJ(32,1) are
# these to the bit, and so are its J7(10) and J10(32) from them (IronCalc's BESSEL.xlsx); its
# Y1 has Numerical Recipes' five (BESSELY(10,1) and BESSELY(32,1) there)
_P1_J = (*_P1[:3], *_P1[2:])
_TWO_OVER_PI = 0.636619772  # Numerical Recipes' 2/pi, and its pi/4 and 3pi/4 below


def _hankel(
    ax: float, p: tuple[float, ...], q: tuple[float, ...], phase: float
) -> tuple[float, float]:
    """sqrt(2/(pi x)) (P cos(x - phase) - z Q sin(...)) and (P sin + z Q cos), for J and Y."""
    z = 8.0 / ax
    y = z * z
    xx = ax - phase
    a1, a2 = _horner(p, y), _horner(q, y)
    root = math.sqrt(_TWO_OVER_PI / ax)
    return (root * (math.cos(xx) * a1 - z * math.sin(xx) * a2),
            root * (math.sin(xx) * a1 + z * math.cos(xx) * a2))  # fmt: skip


def _j0(x: float) -> float:
    ax = abs(x)
    if ax < 8.0:
        y = x * x
        return _horner(_J0_P, y) / _horner(_J0_Q, y)
    return _hankel(ax, _P0_J, _Q0_J, 0.785398164)[0]


def _j1(x: float) -> float:
    ax = abs(x)
    if ax < 8.0:
        y = x * x
        return x * _horner(_J1_P, y) / _horner(_J1_Q, y)
    found = _hankel(ax, _P1_J, _Q1, 2.356194491)[0]
    return -found if x < 0 else found


def _y0(x: float) -> float:
    if x < 8.0:
        y = x * x
        return _horner(_Y0_P, y) / _horner(_Y0_Q, y) + _TWO_OVER_PI * _j0(x) * math.log(x)
    return _hankel(x, _P0, _Q0, 0.785398164)[1]


def _y1(x: float) -> float:
    if x < 8.0:
        y = x * x
        return (x * _horner(_Y1_P, y) / _horner(_Y1_Q, y)
                + _TWO_OVER_PI * (_j1(x) * math.log(x) - 1.0 / x))  # fmt: skip
    return _hankel(x, _P1, _Q1, 2.356194491)[1]


def _bessel_j(n: int, x: float) -> float:
    """J_n: upward from J0 and J1 where |x| > n, else Miller's downward recurrence from an
    even order ACC above n, normalised by J0 + 2 J2 + 2 J4 ... = 1."""
    if n == 0:
        return _j0(x)
    if n == 1:
        return _j1(x)
    ax = abs(x)
    if ax == 0:
        return 0.0
    tox = 2.0 / ax
    if ax > n:
        before, found = _j0(ax), _j1(ax)
        for j in range(1, n):
            before, found = found, j * tox * found - before
    else:
        top = 2 * ((n + int(math.sqrt(_ACC * n))) // 2)
        odd = False
        above = found = total = 0.0
        current = 1.0
        for j in range(top, 0, -1):
            below = j * tox * current - above
            above, current = current, below
            if abs(current) > _BIG:
                current *= _SMALL
                above *= _SMALL
                found *= _SMALL
                total *= _SMALL
            if odd:
                total += current
            odd = not odd
            if j == n:
                found = above
        found /= 2.0 * total - current
    return -found if x < 0 and n & 1 else found


def _bessel_y(n: int, x: float) -> float:
    """Y_n, upward from Y0 and Y1."""
    if n == 0:
        return _y0(x)
    if n == 1:
        return _y1(x)
    tox = 2.0 / x
    before, found = _y0(x), _y1(x)
    for j in range(1, n):
        before, found = found, j * tox * found - before
    return found


# I0, I1 (Abramowitz and Stegun 9.8.1 to 9.8.4) and K0, K1 (9.8.5 to 9.8.8)
_I0_SMALL = (1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.360768e-1, 0.45813e-2)
_I0_LARGE = (0.39894228, 0.1328592e-1, 0.225319e-2, -0.157565e-2, 0.916281e-2, -0.2057706e-1,
             0.2635537e-1, -0.1647633e-1, 0.392377e-2)  # fmt: skip
_I1_SMALL = (0.5, 0.87890594, 0.51498869, 0.15084934, 0.2658733e-1, 0.301532e-2, 0.32411e-3)
_I1_LARGE = (0.39894228, -0.3988024e-1, -0.362018e-2, 0.163801e-2, -0.1031555e-1, 0.2282967e-1,
             -0.2895312e-1, 0.1787654e-1, -0.420059e-2)  # fmt: skip
_K0_SMALL = (-0.57721566, 0.42278420, 0.23069756, 0.3488590e-1, 0.262698e-2, 0.10750e-3, 0.74e-5)
_K0_LARGE = (1.25331414, -0.7832358e-1, 0.2189568e-1, -0.1062446e-1, 0.587872e-2, -0.251540e-2,
             0.53208e-3)  # fmt: skip
_K1_SMALL = (1.0, 0.15443144, -0.67278579, -0.18156897, -0.1919402e-1, -0.110404e-2, -0.4686e-4)
_K1_LARGE = (1.25331414, 0.23498619, -0.3655620e-1, 0.1504268e-1, -0.780353e-2, 0.325614e-2,
             -0.68245e-3)  # fmt: skip


def _i0(x: float) -> float:
    ax = abs(x)
    if ax < 3.75:
        y = x / 3.75
        return _horner(_I0_SMALL, y * y)
    return (math.exp(ax) / math.sqrt(ax)) * _horner(_I0_LARGE, 3.75 / ax)


def _i1(x: float) -> float:
    ax = abs(x)
    if ax < 3.75:
        y = x / 3.75
        found = ax * _horner(_I1_SMALL, y * y)
    else:
        found = _horner(_I1_LARGE, 3.75 / ax) * (math.exp(ax) / math.sqrt(ax))
    return -found if x < 0 else found


def _bessel_i(n: int, x: float) -> float:
    """I_n: downward from an order ACC above n, normalised by I0."""
    if n == 0:
        return _i0(x)
    if n == 1:
        return _i1(x)
    if x == 0:
        return 0.0
    tox = 2.0 / abs(x)
    above = found = 0.0
    current = 1.0
    for j in range(2 * (n + int(math.sqrt(_ACC * n))), 0, -1):
        above, current = current, above + j * tox * current
        if abs(current) > _BIG:
            found *= _SMALL
            current *= _SMALL
            above *= _SMALL
        if j == n:
            found = above
    found *= _i0(x) / current
    return -found if x < 0 and n & 1 else found


def _k0(x: float) -> float:
    if x <= 2.0:
        return -math.log(x / 2.0) * _i0(x) + _horner(_K0_SMALL, x * x / 4.0)
    return (math.exp(-x) / math.sqrt(x)) * _horner(_K0_LARGE, 2.0 / x)


def _k1(x: float) -> float:
    if x <= 2.0:
        return math.log(x / 2.0) * _i1(x) + (1.0 / x) * _horner(_K1_SMALL, x * x / 4.0)
    return (math.exp(-x) / math.sqrt(x)) * _horner(_K1_LARGE, 2.0 / x)


def _bessel_k(n: int, x: float) -> float:
    """K_n, upward from K0 and K1."""
    if n == 0:
        return _k0(x)
    if n == 1:
        return _k1(x)
    tox = 2.0 / x
    before, found = _k0(x), _k1(x)
    for j in range(1, n):
        before, found = found, before + j * tox * found
    return found


def _bessel(f: Callable[[int, float], float], positive: bool) -> Callable[..., Result]:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        found = atp_numbers([0.0 if v is None else v for v in args])
        if isinstance(found, XlError):
            return found
        x, order = found
        n = math.trunc(order)
        if n < 0 or (positive and x <= 0):
            return NUM
        try:
            value = f(n, x)
        except (OverflowError, ValueError, ZeroDivisionError):
            return NUM
        return value if math.isfinite(value) else NUM

    return impl


define("BESSELJ", "v v", single=True)(_bessel(_bessel_j, False))
define("BESSELY", "v v", single=True)(_bessel(_bessel_y, True))
define("BESSELI", "v v", single=True)(_bessel(_bessel_i, False))
define("BESSELK", "v v", single=True)(_bessel(_bessel_k, True))
