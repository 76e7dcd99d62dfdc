"""The continuous distributions (Excel's Statistical category, and their Compatibility
forms): normal, lognormal, Student's t, chi-squared, F, gamma, beta, exponential, Weibull;
their inverses; CONFIDENCE, FISHER, GAUSS, PHI and the gamma function.

Excel's function reference is the specification: the argument checks and the error each
gives (``#NUM!`` outside a parameter's domain; degrees of freedom truncated to integers, as
Excel truncates them), the 2010 functions (NORM.DIST ...) and their older names (NORMDIST
...) one implementation each. The figures come from :mod:`.special`; an inverse is the root
of its distribution, to the last digit the distribution gives (Excel's own inverses stop a
few units in the 16th digit short of the root: ``NORM.S.INV(NORM.S.DIST(1,TRUE))`` is
0.9999999999999996 in Excel's saved values).

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base`, :mod:`.special` and the
standard library.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..formula.values import DIV0, NUM, Book, Result, Value
from .base import Impl, define
from .special import (
    bd0,
    beta_pdf,
    beta_tails,
    gamma_pdf,
    gamma_tails,
    invert,
    lgamma,
    normal_cdf,
    normal_inv,
    normal_pdf,
    stirlerr,
)

Dist = Callable[..., float | None]  # the figure, or None for #NUM!


def numeric(f: Dist) -> Impl:
    """A function of numbers (and logicals): None, an overflow or a NaN is #NUM!."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        try:
            x = f(*args)
        except (OverflowError, ValueError, ZeroDivisionError):
            return NUM
        return NUM if x is None or not math.isfinite(x) else x

    return impl


def _df(v: float, least: float = 1.0) -> float | None:
    """Degrees of freedom as Excel takes them: truncated, at least ``least``, at most 10^10."""
    n = float(math.trunc(v))
    return n if least <= n <= 1e10 else None


# --- the normal and lognormal distributions ---------------------------------------------------


def _norm_dist(x: float, mean: float, sd: float, cumulative: bool) -> float | None:
    if sd <= 0:
        return None
    z = (x - mean) / sd
    return normal_cdf(z) if cumulative else normal_pdf(z) / sd


def _norm_inv(p: float, mean: float, sd: float) -> float | None:
    if not 0 < p < 1 or sd <= 0:
        return None
    return mean + sd * normal_inv(p)


define("NORM.DIST", "n n n b", also=("NORMDIST",))(numeric(_norm_dist))
define("NORM.INV", "n n n", also=("NORMINV",))(numeric(_norm_inv))
define("NORM.S.DIST", "n b")(numeric(lambda z, cum: _norm_dist(z, 0.0, 1.0, cum)))
define("NORMSDIST", "n")(numeric(normal_cdf))
define("NORM.S.INV", "n", also=("NORMSINV",))(numeric(lambda p: _norm_inv(p, 0.0, 1.0)))
define("PHI", "n")(numeric(normal_pdf))
define("GAUSS", "n")(numeric(lambda z: normal_cdf(z) - 0.5))


_LN10 = math.log(10)


def _lognorm_dist(x: float, mean: float, sd: float, cumulative: bool) -> float | None:
    """The lognormal distribution, ln x taken as log10(x) · ln 10 as Excel's saved values show
    it (LOGNORM.DIST(1E-10,0,1,TRUE) is Φ(-23.02585092994046), one unit off ln 1E-10)."""
    if x <= 0 or sd <= 0:
        return None
    z = (math.log10(x) * _LN10 - mean) / sd
    return normal_cdf(z) if cumulative else normal_pdf(z) / (sd * x)


def _lognorm_inv(p: float, mean: float, sd: float) -> float | None:
    if not 0 < p < 1 or sd <= 0:
        return None
    return math.exp(mean + sd * normal_inv(p))


define("LOGNORM.DIST", "n n n b")(numeric(_lognorm_dist))
define("LOGNORMDIST", "n n n")(numeric(lambda x, m, s: _lognorm_dist(x, m, s, True)))
define("LOGNORM.INV", "n n n", also=("LOGINV",))(numeric(_lognorm_inv))


@define("CONFIDENCE.NORM", "n n n", also=("CONFIDENCE",))
def _confidence_norm(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    """Half the width of the confidence interval for a mean: z(1 - α/2) σ / √n (1 - α/2 as
    written: Excel's digits for an α near 0 or 1 are those of that sum)."""
    alpha, sd, size = args
    n = math.trunc(size)
    if not 0 < alpha < 1 or sd <= 0 or n < 1:
        return NUM
    return normal_inv(1 - alpha / 2) * sd / math.sqrt(n)


@define("CONFIDENCE.T", "n n n")
def _confidence_t(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    """The same with Student's t of n - 1 degrees of freedom; one value: #DIV/0!."""
    alpha, sd, size = args
    n = math.trunc(size)
    if not 0 < alpha < 1 or sd <= 0 or n < 1:
        return NUM
    if n == 1:
        return DIV0
    return _t_inv_upper(alpha / 2, n - 1.0) * sd / math.sqrt(n)


# Excel's FISHER and FISHERINV are the formulas its reference gives, digits and all
# (FISHER(0.001) is 0.0010000003333335108, atanh's 0.0010000003333335333)
define("FISHER", "n")(numeric(lambda x: 0.5 * math.log((1 + x) / (1 - x)) if -1 < x < 1 else None))
define("FISHERINV", "n")(
    numeric(lambda y: (math.exp(2 * y) - 1) / (math.exp(2 * y) + 1) if abs(y) < 20 else
             math.copysign(1.0, y))
)  # fmt: skip


# --- the gamma function, the gamma, chi-squared and exponential distributions --------------


def _gamma(x: float) -> float | None:
    if x <= 0 and x == math.floor(x):
        return None
    return math.gamma(x)


define("GAMMA", "n")(numeric(_gamma))
define("GAMMALN", "n", also=("GAMMALN.PRECISE",))(numeric(lambda x: lgamma(x) if x > 0 else None))


def _gamma_dist(x: float, a: float, b: float, cumulative: bool) -> float | None:
    if x < 0 or a <= 0 or b <= 0:
        return None
    if cumulative:
        return gamma_tails(a, x / b)[0]
    return gamma_pdf(x / b, a) / b


def _gamma_inv_upper(q: float, a: float) -> float:
    """The x (scale 1) whose upper tail is q, 0 < q < 1."""
    return invert(lambda x: gamma_tails(a, x)[1], q, lambda x: gamma_pdf(x, a),
                  _gamma_start(1 - q, q, a), rising=False)  # fmt: skip


def _gamma_inv_lower(p: float, a: float) -> float:
    """The x (scale 1) whose lower tail is p, 0 < p < 1."""
    return invert(lambda x: gamma_tails(a, x)[0], p, lambda x: gamma_pdf(x, a),
                  _gamma_start(p, 1 - p, a))  # fmt: skip


def _gamma_start(p: float, q: float, a: float) -> float:
    """A first guess: Wilson and Hilferty's cube root of a normal deviate, or the series'
    first term where that falls below zero."""
    z = normal_inv(p) if p < 0.5 else -normal_inv(q)
    guess = a * (1 - 1 / (9 * a) + z / (3 * math.sqrt(a))) ** 3
    if guess > 0:
        return guess
    return math.exp((math.log(p) + math.lgamma(a + 1)) / a)


def _gamma_inv(p: float, a: float, b: float) -> float | None:
    if not 0 <= p < 1 or a <= 0 or b <= 0:
        return None
    if p == 0:
        return 0.0
    x = _gamma_inv_lower(p, a) if p < 0.5 else _gamma_inv_upper(1 - p, a)
    return x * b


define("GAMMA.DIST", "n n n b", also=("GAMMADIST",))(numeric(_gamma_dist))
define("GAMMA.INV", "n n n", also=("GAMMAINV",))(numeric(_gamma_inv))


def _chisq_dist(x: float, df: float, cumulative: bool) -> float | None:
    k = _df(df)
    if x < 0 or k is None:
        return None
    return _gamma_dist(x, k / 2, 2.0, cumulative)


def _chisq_dist_rt(x: float, df: float) -> float | None:
    k = _df(df)
    if x < 0 or k is None:
        return None
    return gamma_tails(k / 2, x / 2)[1]


def _chisq_inv(p: float, df: float) -> float | None:
    k = _df(df)
    if not 0 <= p <= 1 or k is None:
        return None
    return _gamma_inv(p, k / 2, 2.0)


def _chisq_inv_rt(q: float, df: float) -> float | None:
    k = _df(df)
    if not 0 < q <= 1 or k is None:
        return None
    if q == 1:
        return 0.0
    a = k / 2
    return 2 * (_gamma_inv_upper(q, a) if q < 0.5 else _gamma_inv_lower(1 - q, a))


define("CHISQ.DIST", "n n b")(numeric(_chisq_dist))
define("CHISQ.DIST.RT", "n n", also=("CHIDIST",))(numeric(_chisq_dist_rt))
define("CHISQ.INV", "n n")(numeric(_chisq_inv))
define("CHISQ.INV.RT", "n n", also=("CHIINV",))(numeric(_chisq_inv_rt))


def _expon_dist(x: float, rate: float, cumulative: bool) -> float | None:
    if x < 0 or rate <= 0:
        return None
    return -math.expm1(-rate * x) if cumulative else rate * math.exp(-rate * x)


def _weibull_dist(x: float, alpha: float, beta: float, cumulative: bool) -> float | None:
    if x < 0 or alpha <= 0 or beta <= 0:
        return None
    u = math.pow(x / beta, alpha)
    if cumulative:
        return -math.expm1(-u)
    return alpha / beta * math.pow(x / beta, alpha - 1) * math.exp(-u)


define("EXPON.DIST", "n n b", also=("EXPONDIST",))(numeric(_expon_dist))
define("WEIBULL.DIST", "n n n b", also=("WEIBULL",))(numeric(_weibull_dist))


# --- Student's t --------------------------------------------------------------------------------


def t_upper(t: float, n: float) -> float:
    """The upper tail of Student's t with n degrees of freedom, at t ≥ 0."""
    x2 = t * t
    if x2 < n:  # the argument that keeps its digits
        return 0.5 * beta_tails(x2 / (n + x2), 0.5, n / 2)[1]
    return 0.5 * beta_tails(n / (n + x2), n / 2, 0.5)[0]


def _t_pdf(t: float, n: float) -> float:
    """Student's density, as Loader's saddle point writes it (R's dt)."""
    lead = -bd0(n / 2, (n + 1) / 2) + stirlerr((n + 1) / 2) - stirlerr(n / 2)
    x2n = t * t / n
    if x2n > 1 / 2.220446049250313e-16:
        ax = abs(t)
        log_x2n = math.log(ax) - math.log(n) / 2
        u = n * log_x2n
        root = math.sqrt(n) / ax
    elif x2n > 0.2:
        log_x2n = math.log(1 + x2n) / 2
        u = n * log_x2n
        root = math.exp(-log_x2n)
    else:
        log_x2n = math.log1p(x2n) / 2
        u = -bd0(n / 2, (n + t * t) / 2) + t * t / 2
        root = math.exp(-log_x2n)
    return math.exp(lead - u) / math.sqrt(2 * math.pi) * root


def _t_cdf(t: float, n: float) -> float:
    return t_upper(-t, n) if t < 0 else 1 - t_upper(t, n)


def _t_central(t: float, n: float) -> float:
    """P(0 < T < t) of Student's t with n degrees of freedom, at t ≥ 0: ½ - the upper tail,
    each computed, so that it keeps its digits near 0."""
    x2 = t * t
    if x2 < n:
        return 0.5 * beta_tails(x2 / (n + x2), 0.5, n / 2)[0]
    return 0.5 * beta_tails(n / (n + x2), n / 2, 0.5)[1]


def _t_inv_upper(q: float, n: float) -> float:
    """The t ≥ 0 whose upper tail is q, 0 < q ≤ 1/2; above q = 1/4 the root of the central
    part ½ - q (exact there), whose digits are the root's where t is small, as Excel's
    T.INV(0.500000389989757,11) is 9.999999999666944e-07."""
    if q >= 0.5:
        return 0.0
    z = -normal_inv(q)
    start = z + (z**3 + z) / (4 * n)  # Cornish and Fisher's first term
    if q > 0.25:
        return invert(lambda t: _t_central(t, n), 0.5 - q, lambda t: _t_pdf(t, n), start)
    return invert(lambda t: t_upper(t, n), q, lambda t: _t_pdf(t, n), start, rising=False)


def _t_dist(t: float, df: float, cumulative: bool) -> float | None:
    n = _df(df)
    if n is None:
        return None
    return _t_cdf(t, n) if cumulative else _t_pdf(t, n)


def _t_dist_2t(t: float, df: float) -> float | None:
    n = _df(df)
    return None if t < 0 or n is None else 2 * t_upper(t, n)


def _t_dist_rt(t: float, df: float) -> float | None:
    n = _df(df)
    if n is None:
        return None
    return t_upper(t, n) if t >= 0 else 1 - t_upper(-t, n)


def _tdist(t: float, df: float, tails: float) -> float | None:
    n = _df(df)
    k = math.trunc(tails)
    if t < 0 or n is None or k not in (1, 2):
        return None
    return k * t_upper(t, n)


def _t_inv(p: float, df: float) -> float | None:
    n = _df(df)
    if not 0 < p < 1 or n is None:
        return None
    return -_t_inv_upper(p, n) if p < 0.5 else _t_inv_upper(1 - p, n)


def _t_inv_2t(p: float, df: float) -> float | None:
    n = _df(df)
    if not 0 < p <= 1 or n is None:
        return None
    return _t_inv_upper(p / 2, n)


define("T.DIST", "n n b")(numeric(_t_dist))
define("T.DIST.2T", "n n")(numeric(_t_dist_2t))
define("T.DIST.RT", "n n")(numeric(_t_dist_rt))
define("TDIST", "n n n")(numeric(_tdist))
define("T.INV", "n n")(numeric(_t_inv))
define("T.INV.2T", "n n", also=("TINV",))(numeric(_t_inv_2t))


# --- F --------------------------------------------------------------------------------------------


def f_tails(x: float, d1: float, d2: float) -> tuple[float, float]:
    """The F distribution's lower and upper tails at x ≥ 0."""
    u = d1 * x
    if u > d2:  # the upper tail's argument is the small one: keep its digits
        upper, lower = beta_tails(d2 / (d2 + u), d2 / 2, d1 / 2)
        return lower, upper
    return beta_tails(u / (d2 + u), d1 / 2, d2 / 2)


def _f_pdf(x: float, d1: float, d2: float) -> float:
    if x == 0:
        return math.inf if d1 < 2 else (1.0 if d1 == 2 else 0.0)
    s = d1 * x + d2
    return beta_pdf(d1 * x / s, d1 / 2, d2 / 2) * d1 * d2 / (s * s)


def _f_args(x: float, df1: float, df2: float) -> tuple[float, float] | None:
    d1, d2 = _df(df1), _df(df2)
    return None if x < 0 or d1 is None or d2 is None else (d1, d2)


def _f_dist(x: float, df1: float, df2: float, cumulative: bool) -> float | None:
    d = _f_args(x, df1, df2)
    if d is None:
        return None
    return f_tails(x, *d)[0] if cumulative else _f_pdf(x, *d)


def _f_dist_rt(x: float, df1: float, df2: float) -> float | None:
    d = _f_args(x, df1, df2)
    return None if d is None else f_tails(x, *d)[1]


def _f_inv(p: float, df1: float, df2: float, upper: bool) -> float | None:
    """The x whose lower tail (upper, for F.INV.RT) is p, by the tail that is below one
    half there (its target then exact)."""
    d = _f_args(0.0, df1, df2)
    if d is None or not 0 <= p <= 1:
        return None
    lower, above = (1 - p, p) if upper else (p, 1 - p)
    if lower == 0:
        return 0.0
    if above == 0:
        return None
    d1, d2 = d
    start = d2 / max(d2 - 2, 1.0)  # the mean
    if lower < 0.5:
        return invert(lambda x: f_tails(x, d1, d2)[0], lower, lambda x: _f_pdf(x, d1, d2), start)
    return invert(lambda x: f_tails(x, d1, d2)[1], above, lambda x: _f_pdf(x, d1, d2), start,
                  rising=False)  # fmt: skip


define("F.DIST", "n n n b")(numeric(_f_dist))
define("F.DIST.RT", "n n n", also=("FDIST",))(numeric(_f_dist_rt))
define("F.INV", "n n n")(numeric(lambda p, d1, d2: _f_inv(p, d1, d2, False)))
define("F.INV.RT", "n n n", also=("FINV",))(numeric(lambda p, d1, d2: _f_inv(p, d1, d2, True)))


# --- beta ----------------------------------------------------------------------------------------


def _beta_dist(x: float, a: float, b: float, cumulative: bool, low: float | None,
               high: float | None) -> float | None:  # fmt: skip
    lo = 0.0 if low is None else low
    hi = 1.0 if high is None else high
    if a <= 0 or b <= 0 or not lo <= x <= hi or lo == hi:
        return None
    u = (x - lo) / (hi - lo)
    if cumulative:
        return beta_tails(u, a, b)[0]
    return beta_pdf(u, a, b) / (hi - lo)


def _beta_inv(p: float, a: float, b: float, low: float | None, high: float | None) -> float | None:
    lo = 0.0 if low is None else low
    hi = 1.0 if high is None else high
    if not 0 < p < 1 or a <= 0 or b <= 0 or lo >= hi:
        return None
    mean = a / (a + b)
    if p < 0.5:
        u = invert(lambda x: beta_tails(x, a, b)[0], p, lambda x: beta_pdf(x, a, b), mean, 1.0)
    else:
        u = invert(lambda x: beta_tails(x, a, b)[1], 1 - p, lambda x: beta_pdf(x, a, b), mean,
                   1.0, rising=False)  # fmt: skip
    return lo + u * (hi - lo)


define("BETA.DIST", "n n n b n? n?")(numeric(_beta_dist))
define("BETADIST", "n n n n? n?")(
    numeric(lambda x, a, b, lo=None, hi=None: _beta_dist(x, a, b, True, lo, hi))
)
define("BETA.INV", "n n n n? n?", also=("BETAINV",))(numeric(_beta_inv))
