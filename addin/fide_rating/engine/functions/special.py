"""The special functions under the statistical distributions, in pure Python (the engine runs
in Pyodide too): the normal distribution and its inverse, the regularized incomplete gamma
and beta functions, the densities of the Poisson and binomial distributions, and one root
finder for the inverses.

The densities follow Loader's saddle-point method ("Fast and Accurate Computation of Binomial
Probabilities", 2000; R's ``dbinom_raw`` and ``dpois_raw``): the deviance ``bd0`` and
Stirling's error ``stirlerr`` keep the exponent exact where ``x log(x/m) + m - x`` would
cancel, so that a density is good to a few units in the last place. The incomplete gamma
function is its series below ``x = a + 1`` and its continued fraction above it, the
incomplete beta function its continued fraction (modified Lentz, Numerical Recipes 6.2 and
6.4), each with that density as its prefactor. Every function here returns its lower tail and
its upper tail apart, each computed, so that an upper tail is never ``1 - p`` of a ``p``
near 1.

May import: the standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import Decimal, localcontext

_EPS = 2.220446049250313e-16
_TINY = 1e-300
_LN_SQRT_2PI = 0.5 * math.log(2 * math.pi)
_SQRT2 = math.sqrt(2.0)
_SMALL = 1e-8  # a density this far in a tail is computed from its powers ...
_FAR_BELOW = 1e-290  # ... while they are plain numbers


def _stirlerr_halves() -> tuple[float, ...]:
    """Stirling's error at 0, 0.5, 1, ... 15 (``ln Γ(n+1) - (n+½) ln n + n - ln √(2π)``),
    computed once in 40-digit decimals so that the table is exact to the last bit."""
    pi = Decimal("3.14159265358979323846264338327950288419716939937511")
    out = [0.0]
    with localcontext() as ctx:
        ctx.prec = 40
        half_ln_2pi = (2 * pi).ln() / 2
        for nn in range(1, 31):
            n = Decimal(nn) / 2
            if nn % 2 == 0:
                ln_gamma = Decimal(math.factorial(nn // 2)).ln()
            else:  # Γ(k + 3/2) = (2k+2)! / (4^(k+1) (k+1)!) √π
                k = nn // 2
                exact = Decimal(math.factorial(2 * k + 2)) / (
                    Decimal(4) ** (k + 1) * Decimal(math.factorial(k + 1))
                )
                ln_gamma = exact.ln() + pi.ln() / 2
            out.append(float(ln_gamma - (n + Decimal("0.5")) * n.ln() + n - half_ln_2pi))
    return tuple(out)


_STIRLERR = _stirlerr_halves()


def stirlerr(n: float) -> float:
    """Stirling's error ``ln Γ(n+1) - (n+½) ln n + n - ln √(2π)`` for n ≥ 0."""
    if n <= 15.0:
        nn = n + n
        if nn == int(nn):
            return _STIRLERR[int(nn)]
        return math.lgamma(n + 1.0) - (n + 0.5) * math.log(n) + n - _LN_SQRT_2PI
    nn = n * n
    s0, s1, s2, s3, s4 = 1 / 12, 1 / 360, 1 / 1260, 1 / 1680, 1 / 1188
    if n > 500:
        return (s0 - s1 / nn) / n
    if n > 80:
        return (s0 - (s1 - s2 / nn) / nn) / n
    if n > 35:
        return (s0 - (s1 - (s2 - s3 / nn) / nn) / nn) / n
    return (s0 - (s1 - (s2 - (s3 - s4 / nn) / nn) / nn) / nn) / n


def bd0(x: float, m: float) -> float:
    """The deviance ``x ln(x/m) + m - x``, without its cancellation where x is near m."""
    if abs(x - m) < 0.1 * (x + m):
        v = (x - m) / (x + m)
        s = (x - m) * v
        ej = 2 * x * v
        v2 = v * v
        for j in range(1, 1000):
            ej *= v2
            s1 = s + ej / (2 * j + 1)
            if s1 == s:
                return s1
            s = s1
        return s
    return x * math.log(x / m) + m - x


def poisson_density(x: float, mean: float) -> float:
    """``mean^x e^-mean / Γ(x+1)`` for real x ≥ 0 (the Poisson density at an integer)."""
    if mean == 0:
        return 1.0 if x == 0 else 0.0
    if x == 0:
        return math.exp(-mean)
    if x < 0 or not math.isfinite(mean):
        return 0.0
    return math.exp(-stirlerr(x) - bd0(x, mean)) / math.sqrt(2 * math.pi * x)


def binomial_density(x: float, n: float, p: float, q: float) -> float:
    """``Γ(n+1)/(Γ(x+1)Γ(n-x+1)) p^x q^(n-x)`` for real 0 ≤ x ≤ n, q being 1 - p given
    apart (the binomial density at an integer)."""
    if p == 0:
        return 1.0 if x == 0 else 0.0
    if q == 0:
        return 1.0 if x == n else 0.0
    if x == 0:
        if n == 0:
            return 1.0
        return math.exp(-bd0(n, n * q) - n * p if p < 0.1 else n * math.log(q))
    if x == n:
        return math.exp(-bd0(n, n * p) - n * q if q < 0.1 else n * math.log(p))
    if x < 0 or x > n:
        return 0.0
    lc = stirlerr(n) - stirlerr(x) - stirlerr(n - x) - bd0(x, n * p) - bd0(n - x, n * q)
    return math.exp(lc) / math.sqrt(2 * math.pi * x * (n - x) / n)


# --- the normal distribution ---------------------------------------------------------------


_Coefficients = tuple[tuple[float, ...], tuple[float, ...]]

# W. J. Cody's rational Chebyshev approximations of Φ (ACM TOMS 19, 1993, Algorithm 715,
# ANORM): the centre |z| ≤ 0.67448975, the middle |z| ≤ √32, and the tail
_CODY_CENTRE: _Coefficients = (
    (2.2352520354606839287, 161.02823106855587881, 1067.6894854603709582,
     18154.981253343561249, 0.065682337918207449113),
    (47.20258190468824187, 976.09855173777669322, 10260.932208618978205,
     45507.789335026729956),
)  # fmt: skip
_CODY_MIDDLE: _Coefficients = (
    (0.39894151208813466764, 8.8831497943883759412, 93.506656132177855979,
     597.27027639480026226, 2494.5375852903726711, 6848.1904505362823326,
     11602.651437647350124, 9842.7148383839780218, 1.0765576773720192317e-8),
    (22.266688044328115691, 235.38790178262499861, 1519.377599407554805,
     6485.558298266760755, 18615.571640885098091, 34900.952721145977266,
     38912.003286093271411, 19685.429676859990727),
)  # fmt: skip
_CODY_TAIL: _Coefficients = (
    (0.21589853405795699, 0.1274011611602473639, 0.022235277870649807,
     0.001421619193227893466, 2.9112874951168792e-5, 0.02307344176494017303),
    (1.28426009614491121, 0.468238212480865118, 0.0659881378689285515,
     0.00378239633202758244, 7.29751555083966205e-5),
)  # fmt: skip


def normal_cdf(z: float) -> float:
    """Φ(z), the standard normal distribution's lower tail, as Excel's saved values show it
    computes it: Cody's ANORM for z ≤ 0, with exp(-z²/2) taken whole (not split as R's pnorm
    splits it: Φ(-10) is 7.619853024160475e-24, 7e-15 below the exact value), and 1 - Φ(-z)
    above 0 (Φ(1e-6) is 0.5000003989422803, one unit below the nearest)."""
    if z > 0:
        return 1.0 - normal_cdf(-z)
    if math.isnan(z):
        return z
    y = -z
    if y <= 0.67448975:
        top_c, bottom_c = _CODY_CENTRE
        xsq = z * z if y > _EPS / 2 else 0.0
        top, bottom = top_c[4] * xsq, xsq
        for a, b in zip(top_c[:3], bottom_c[:3], strict=True):
            top, bottom = (top + a) * xsq, (bottom + b) * xsq
        return 0.5 + z * (top + top_c[3]) / (bottom + bottom_c[3])
    if y <= 32**0.5:
        top_c, bottom_c = _CODY_MIDDLE
        top, bottom = top_c[8] * y, y
        for a, b in zip(top_c[:7], bottom_c[:7], strict=True):
            top, bottom = (top + a) * y, (bottom + b) * y
        ratio = (top + top_c[7]) / (bottom + bottom_c[7])
    else:
        top_c, bottom_c = _CODY_TAIL
        xsq = 1.0 / (y * y)
        top, bottom = top_c[5] * xsq, xsq
        for a, b in zip(top_c[:4], bottom_c[:4], strict=True):
            top, bottom = (top + a) * xsq, (bottom + b) * xsq
        ratio = (1.0 / math.sqrt(2 * math.pi) - xsq * (top + top_c[4]) / (bottom + bottom_c[4])) / y
    return math.exp(-y * y * 0.5) * ratio


def normal_pdf(z: float) -> float:
    return math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)


# Wichura's AS 241 (Applied Statistics 37, 1988, 477-484), PPND16: rational functions of
# degree 7 for the centre (|p - ½| ≤ 0.425), the tail and the far tail
_CENTRE = (
    (3.3871328727963666080, 1.3314166789178437745e2, 1.9715909503065514427e3,
     1.3731693765509461125e4, 4.5921953931549871457e4, 6.7265770927008700853e4,
     3.3430575583588128105e4, 2.5090809287301226727e3),
    (1.0, 4.2313330701600911252e1, 6.8718700749205790830e2, 5.3941960214247511077e3,
     2.1213794301586595867e4, 3.9307895800092710610e4, 2.8729085735721942674e4,
     5.2264952788528545610e3),
)  # fmt: skip
_TAIL = (
    (1.42343711074968357734, 4.63033784615654529590, 5.76949722146069140550,
     3.64784832476320460504, 1.27045825245236838258, 2.41780725177450611770e-1,
     2.27238449892691845833e-2, 7.74545014278341407640e-4),
    (1.0, 2.05319162663775882187, 1.67638483018380384940, 6.89767334985100004550e-1,
     1.48103976427480074590e-1, 1.51986665636164571966e-2, 5.47593808499534494600e-4,
     1.05075007164441684324e-9),
)  # fmt: skip
_FAR = (
    (6.65790464350110377720, 5.46378491116411436990, 1.78482653991729133580,
     2.96560571828504891230e-1, 2.65321895265761230930e-2, 1.24266094738807843860e-3,
     2.71155556874348757815e-5, 2.01033439929228813265e-7),
    (1.0, 5.99832206555887937690e-1, 1.36929880922735805310e-1, 1.48753612908506148525e-2,
     7.86869131145613259100e-4, 1.84631831751005468180e-5, 1.42151175831644588870e-7,
     2.04426310338993978564e-15),
)  # fmt: skip


def _ratio(coefficients: tuple[tuple[float, ...], tuple[float, ...]], x: float) -> float:
    top = bottom = 0.0
    for a, b in zip(reversed(coefficients[0]), reversed(coefficients[1]), strict=True):
        top = top * x + a
        bottom = bottom * x + b
    return top / bottom


def normal_inv(p: float) -> float:
    """The z with Φ(z) = p, for 0 < p < 1, by AS 241 (good to about 1 part in 10^16), as
    Excel's saved values show it computes NORM.S.INV: near p = ½, where z is small, the
    digits are AS 241's, not the root's."""
    q = p - 0.5
    if abs(q) <= 0.425:
        return q * _ratio(_CENTRE, 0.180625 - q * q)
    r = math.sqrt(-math.log(p if q < 0 else 1.0 - p))
    z = _ratio(_TAIL, r - 1.6) if r <= 5 else _ratio(_FAR, r - 5.0)
    return -z if q < 0 else z


# --- the incomplete gamma function -----------------------------------------------------------


def gamma_tails(a: float, x: float) -> tuple[float, float]:
    """The regularized incomplete gamma functions (P(a, x), Q(a, x)), each computed, for
    a > 0 and x ≥ 0: P is the gamma distribution's lower tail at x (scale 1)."""
    if x <= 0:
        return 0.0, 1.0
    if not math.isfinite(x):
        return 1.0, 0.0
    if x < a + 1:  # the series converges fast below the mean, the fraction above it
        p = _gamma_series(a, x)
        return p, 1.0 - p if p < 0.9 else _gamma_fraction(a, x)
    q = _gamma_fraction(a, x)
    return (1.0 - q if q < 0.9 else _gamma_series(a, x)), q


def _gamma_series(a: float, x: float) -> float:
    """P(a, x) by its series: x^a e^-x / Γ(a+1) · Σ x^n / ((a+1)...(a+n))."""
    term = total = 1.0
    ap = a
    for _ in range(100_000):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return _series_prefix(a, x) * total


def _series_prefix(a: float, x: float) -> float:
    """``x^a e^-x / Γ(a+1)`` below the mean (x < a + 1): far in the tail (a power below
    1e-8) by the power itself while it and Γ are plain numbers, good to a few units in the
    last place where the saddle point's exponent, large there, loses digits
    (GAMMA.DIST(1E-5,9,2,TRUE) is 5.38226469068969e-54 in Excel, good to 15 digits); else
    as the Poisson density."""
    if a < 170:
        power: float = x**a
        if _FAR_BELOW < power < _SMALL:
            return power * math.exp(-x) / math.gamma(a + 1)
    return poisson_density(a, x)


def _gamma_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (modified Lentz), x^a e^-x / Γ(a) its prefactor."""
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b if b != 0 else 1 / _TINY
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPS:
            break
    return poisson_density(a, x) * a * h


def gamma_pdf(x: float, a: float) -> float:
    """The gamma distribution's density at x ≥ 0, shape a, scale 1."""
    if x == 0:
        return math.inf if a < 1 else (1.0 if a == 1 else 0.0)
    if a < 1:
        return poisson_density(a, x) * a / x
    return poisson_density(a - 1, x)


# --- the incomplete beta function ------------------------------------------------------------


def beta_tails(x: float, a: float, b: float) -> tuple[float, float]:
    """The regularized incomplete beta function and its complement (I_x(a, b),
    1 - I_x(a, b)), each computed, for a, b > 0 and 0 ≤ x ≤ 1."""
    if x <= 0:
        return 0.0, 1.0
    if x >= 1:
        return 1.0, 0.0
    y = 1.0 - x
    if x > (a + 1) / (a + b + 2):  # the fraction converges fast below the mean
        upper = _beta_fraction(y, b, a, x)
        return 1.0 - upper if upper < 0.9 else _beta_lower(x, a, b, y), upper
    lower = _beta_fraction(x, a, b, y)
    return lower, 1.0 - lower if lower < 0.9 else _beta_lower(y, b, a, x)


def _beta_lower(x: float, a: float, b: float, y: float) -> float:
    """I_x(a, b) by the fraction of the side it converges on, whichever x is."""
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _beta_fraction(y, b, a, x)
    return _beta_fraction(x, a, b, y)


def _beta_fraction(x: float, a: float, b: float, y: float) -> float:
    """I_x(a, b) by its continued fraction, y being 1 - x given apart; the prefactor
    x^a y^b / (a B(a, b)) through the binomial density, exact where it cancels."""
    qab, qap, qam = a + b, a + 1, a - 1
    c = 1.0
    d = 1 - qab * x / qap
    d = _TINY if abs(d) < _TINY else d
    d = 1 / d
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        an = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + an * d
        d = _TINY if abs(d) < _TINY else d
        c = 1 + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        h *= d * c
        an = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + an * d
        d = _TINY if abs(d) < _TINY else d
        c = 1 + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPS:
            break
    return beta_prefix(x, a, b, y) / a * h


def beta_prefix(x: float, a: float, b: float, y: float) -> float:
    """``x^a y^b / B(a, b)``, y being 1 - x."""
    if a + b < 170:  # far in a tail: by the powers, as for the gamma series' prefix
        power: float = x**a * y**b
        if _FAR_BELOW < power < _SMALL:
            return power * math.gamma(a + b) / (math.gamma(a) * math.gamma(b))
    return binomial_density(a, a + b, x, y) * a * b / (a + b)


def beta_pdf(x: float, a: float, b: float) -> float:
    """The beta distribution's density at 0 ≤ x ≤ 1."""
    if x == 0:
        return math.inf if a < 1 else (b if a == 1 else 0.0)
    if x == 1:
        return math.inf if b < 1 else (a if b == 1 else 0.0)
    if a <= 2 or b <= 2:
        log = (a - 1) * math.log(x) + (b - 1) * math.log1p(-x) - log_beta(a, b)
        return math.exp(log)
    return (a + b - 1) * binomial_density(a - 1, a + b - 2, x, 1 - x)


def _zetas(most: int) -> tuple[float, ...]:
    """ζ(2) to ζ(most), each to the last bit: the sum of its first 40 terms and the
    Euler-Maclaurin remainder past them, in 40-digit decimals."""
    out = []
    with localcontext() as ctx:
        ctx.prec = 40
        n = Decimal(41)
        for k in range(2, most + 1):
            head = sum((Decimal(1) / Decimal(i) ** k for i in range(1, 41)), Decimal(0))
            tail = (
                n ** (1 - k) / (k - 1)
                - n**-k / 2
                + k * n ** (-k - 1) / 12
                - k * (k + 1) * (k + 2) * n ** (-k - 3) / 720
                + k * (k + 1) * (k + 2) * (k + 3) * (k + 4) * n ** (-k - 5) / 30240
                - math.prod(range(k, k + 7)) * n ** (-k - 7) / 1209600
            )
            out.append(float(head + n**-k + tail))
    return tuple(out)


_ZETAS = _zetas(32)
_EULER_GAMMA = 0.5772156649015329


def lgamma(x: float) -> float:
    """ln Γ(x) for x > 0, to the last digits near 1 and 2 as well, where it is near 0 (Excel's
    GAMMALN(1.0000001) is -5.7721558299185E-08, which math.lgamma misses in the 9th digit):
    there the series ln Γ(1+e) = -γe + Σ (-1)^k ζ(k) e^k / k, and ln Γ(2+e) = ln Γ(1+e) +
    ln(1+e); elsewhere math.lgamma."""
    e = x - 1.0 if abs(x - 1.0) <= 0.25 else x - 2.0 if abs(x - 2.0) <= 0.25 else None
    if e is None:
        return math.lgamma(x)
    total = 0.0
    for k in range(len(_ZETAS) + 1, 1, -1):  # the smallest terms first
        total += (-1) ** k * _ZETAS[k - 2] * e**k / k
    total -= _EULER_GAMMA * e
    return total + math.log1p(e) if x > 1.5 else total


def log_beta(a: float, b: float) -> float:
    return lgamma(a) + lgamma(b) - lgamma(a + b)


# --- inverses ----------------------------------------------------------------------------------


def invert(
    tail: Callable[[float], float],
    target: float,
    density: Callable[[float], float],
    start: float,
    high: float = math.inf,
    rising: bool = True,
) -> float:
    """The x in [0, high] with tail(x) = target, for a monotone tail (rising, or falling
    where ``rising`` is False) whose derivative is ``density`` (its negative when falling):
    Newton's steps from ``start``, kept inside a bracket that is halved (or, spanning
    decades, split at its geometric mean) where a step would leave it, until a step is below
    a unit in the 16th digit."""
    sign = 1.0 if rising else -1.0
    lo, hi = 0.0, high
    x = min(max(start, lo), hi)
    if not math.isfinite(hi):  # a finite bracket first: double until the tail passes
        x = max(x, 1e-300)
        while sign * (tail(x) - target) < 0:
            lo, x = x, 2 * x
            if x > 1e300:
                return math.inf
        hi = x
    for _ in range(2000):
        f = tail(x) - target
        if f == 0:
            return x
        if sign * f < 0:
            lo = x
        else:
            hi = x
        slope = sign * density(x)
        nxt = x - f / slope if slope and math.isfinite(slope) else math.nan
        if not lo < nxt < hi:
            nxt = (
                math.sqrt(lo * hi)
                if lo > 0 and hi > 4 * lo
                else (hi / 4 if lo == 0 else (lo + hi) / 2)
            )
        if abs(nxt - x) <= 1e-16 * abs(x) or hi - lo <= 2e-16 * hi:
            return nxt
        x = nxt
    return x
