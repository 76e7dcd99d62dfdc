"""The discrete distributions (Excel's Statistical category, and their Compatibility forms):
binomial, negative binomial, hypergeometric and Poisson, BINOM.INV, PROB, PERMUT and
PERMUTATIONA.

Excel's function reference is the specification: counts are truncated to integers, and a
count or probability outside its domain is ``#NUM!``. A density is Loader's saddle point
(:mod:`.special`), a cumulative figure the sum of the densities, the shorter side summed
(the other by the incomplete beta or gamma function past 100,000 terms), as Excel's
saved values show it adds them; the
hypergeometric distribution is exact, in integers, up to a population of 100,000.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base`, :mod:`.special` and the
standard library.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..formula.values import DIV0, NA, NUM, Book, Result, Value, XlError, as_grid
from .base import define
from .distributions import numeric
from .special import beta_tails, binomial_density, gamma_tails, poisson_density

_TERMS = 100_000  # past this many terms a cumulative figure is a tail function's


def _whole(v: float) -> int:
    return math.trunc(v)


# --- binomial -------------------------------------------------------------------------------


def _power(x: float, n: int) -> float:
    """x^n as Excel's densities compute it, exp(n ln x): NEGBINOM.DIST(0,100,0.01,TRUE) is
    1.0000000000000348e-200 in Excel (IronCalc's STATISTICAL/BINOM.xlsx), exp(100 ln 0.01) to
    the bit, where 0.01^100 is 1.000000000000002e-200."""
    return math.exp(n * math.log(x)) if n else 1.0


def _binom_pmf(k: int, n: int, p: float) -> float:
    """The binomial density: its three factors where they are doubles (each power
    :func:`_power`), else Loader's."""
    q = 1 - p
    if n <= 1000 and p > 0 and q > 0:
        a, b = _power(p, k), _power(q, n - k)
        if a > 1e-290 and b > 1e-290:
            return math.comb(n, k) * a * b
    return binomial_density(k, n, p, q)


def _window(mean: float, sd: float, k: int) -> int:
    """The first count worth adding up to k: all of them up to 5,000 terms; past that (where
    the distribution is near normal) none of those 60 deviations below the mean, whose
    densities are below a double's least value."""
    return 0 if k < 5000 else min(k, max(0, math.floor(mean - 60 * sd)))


def _binom_cdf(k: int, n: int, p: float) -> float:
    """P(X ≤ k), X binomial of n trials of probability p."""
    if k >= n:
        return 1.0
    if k < 0:
        return 0.0
    sd = math.sqrt(n * p * (1 - p))
    if k > n * p:  # the upper side is the shorter sum
        last = n - _window(n * (1 - p), sd, n - k)
        if last - k > _TERMS:
            return beta_tails(1 - p, n - k, k + 1.0)[0]
        return 1 - math.fsum(_binom_pmf(i, n, p) for i in range(k + 1, last + 1))
    first = _window(n * p, sd, k)
    if k - first > _TERMS:
        return beta_tails(1 - p, n - k, k + 1.0)[0]
    return math.fsum(_binom_pmf(i, n, p) for i in range(first, k + 1))


def _binom_args(n: float, p: float) -> tuple[int, float] | None:
    """Trials (0 to 2^53, whole numbers a double holds) and a probability, or None."""
    trials = _whole(n)
    return None if not 0 <= trials <= 2**53 or not 0 <= p <= 1 else (trials, p)


def _binom_dist(s: float, n: float, p: float, cumulative: bool) -> float | None:
    args = _binom_args(n, p)
    k = _whole(s)
    if args is None or not 0 <= k <= args[0]:
        return None
    return _binom_cdf(k, *args) if cumulative else _binom_pmf(k, *args)


def _binom_range(n: float, p: float, s: float, s2: float | None) -> float | None:
    args = _binom_args(n, p)
    first = _whole(s)
    last = first if s2 is None else _whole(s2)
    if args is None or not 0 <= first <= args[0] or not first <= last <= args[0]:
        return None
    if last - first > _TERMS:
        return _binom_cdf(last, *args) - _binom_cdf(first - 1, *args)
    return math.fsum(_binom_pmf(i, *args) for i in range(first, last + 1))


def _binom_inv(n: float, p: float, alpha: float) -> float | None:
    """The least k whose cumulative binomial probability is at least alpha."""
    args = _binom_args(n, p)
    if args is None or not 0 < args[1] < 1 or not 0 < alpha < 1:
        return None
    trials = args[0]
    if trials > _TERMS:  # by bisection on the tail function
        lo, hi = -1, trials
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if _binom_cdf(mid, *args) >= alpha else (mid, hi)
        return float(hi)
    total = 0.0
    for k in range(trials + 1):
        total += _binom_pmf(k, *args)
        if total >= alpha * (1 - 1e-15):
            return float(k)
    return float(trials)


define("BINOM.DIST", "n n n b", also=("BINOMDIST",))(numeric(_binom_dist))
define("BINOM.DIST.RANGE", "n n n n?")(numeric(_binom_range))
define("BINOM.INV", "n n n", also=("CRITBINOM",))(numeric(_binom_inv))


def _negbinom(f: float, s: float, p: float, cumulative: bool) -> float | None:
    """The probability of f failures before the s-th success (its sum up to f)."""
    failures, successes = _whole(f), _whole(s)
    if not 0 < p < 1 or failures < 0 or successes < 1:
        return None
    if not cumulative:
        return _negbinom_pmf(failures, successes, p)
    if failures > _TERMS:
        return beta_tails(p, successes, failures + 1.0)[0]
    return math.fsum(_negbinom_pmf(i, successes, p) for i in range(failures + 1))


def _negbinom_pmf(f: int, s: int, p: float) -> float:
    """C(f+s-1, s-1) p^s (1-p)^f: its factors where they are doubles, else Loader's."""
    q = 1 - p
    if f + s <= 1000:
        a, b = _power(p, s), _power(q, f)
        if a > 1e-290 and b > 1e-290:
            return math.comb(f + s - 1, f) * a * b
    return p * binomial_density(s - 1, f + s - 1, p, q)


define("NEGBINOM.DIST", "n n n b")(numeric(_negbinom))
define("NEGBINOMDIST", "n n n")(numeric(lambda f, s, p: _negbinom(f, s, p, False)))


# --- hypergeometric and Poisson --------------------------------------------------------------


def _hypgeom(s: float, n: float, m: float, big_n: float, cumulative: bool) -> float | None:
    """The probability of s successes in a sample of n drawn from a population of N that
    holds M successes (of at most s, cumulative)."""
    k, draws, good, size = _whole(s), _whole(n), _whole(m), _whole(big_n)
    if size <= 0 or not 0 < draws <= size or not 0 < good <= size:
        return None
    if not max(0, draws - size + good) <= k <= min(draws, good):
        return None
    first = max(0, draws - size + good)
    ks = range(first, k + 1) if cumulative else range(k, k + 1)
    if size <= 100_000:
        whole = math.comb(size, draws)
        ways = sum(math.comb(good, i) * math.comb(size - good, draws - i) for i in ks)
        return float(Fraction(ways, whole))

    def log_comb(a: int, b: int) -> float:
        return math.lgamma(a + 1) - math.lgamma(b + 1) - math.lgamma(a - b + 1)

    base = log_comb(size, draws)
    return math.fsum(
        math.exp(log_comb(good, i) + log_comb(size - good, draws - i) - base) for i in ks
    )


define("HYPGEOM.DIST", "n n n n b")(numeric(_hypgeom))
define("HYPGEOMDIST", "n n n n")(numeric(lambda s, n, m, big: _hypgeom(s, n, m, big, False)))


def _poisson(x: float, mean: float, cumulative: bool) -> float | None:
    k = _whole(x)
    if x < 0 or mean < 0:
        return None
    if not cumulative:
        return poisson_density(k, mean)
    first = _window(mean, math.sqrt(mean), k)
    if k - first > _TERMS:
        return gamma_tails(k + 1.0, mean)[1]
    return math.fsum(poisson_density(i, mean) for i in range(first, k + 1))


define("POISSON.DIST", "n n b", also=("POISSON",))(numeric(_poisson))


# --- PROB, PERMUT, PERMUTATIONA -------------------------------------------------------------


@define("PROB", "a a n n?")
def _prob(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The probability that a value of ``x_range`` lies between ``lower`` and ``upper`` (is
    ``lower`` without it): the sum of the matching ``prob_range`` entries. The ranges differ
    in size: #N/A; a probability outside (0, 1], or probabilities not summing to 1: #NUM!."""
    xs = [v for line in as_grid(book, args[0]) for v in line]
    ps = [v for line in as_grid(book, args[1]) for v in line]
    lower, upper = args[2], args[3]
    assert isinstance(lower, float)
    high = lower if upper is None else upper
    assert isinstance(high, float)
    if len(xs) != len(ps):
        return NA
    total = 0.0
    inside = 0.0
    counted = 0
    for x, p in zip(xs, ps, strict=True):
        for v in (x, p):
            if isinstance(v, XlError):
                return v
        if not _is_number(x) or not _is_number(p):
            continue
        assert isinstance(p, float) and isinstance(x, float)
        if not 0 < p <= 1:
            return NUM
        counted += 1
        total += p
        if lower <= x <= high:
            inside += p
    if counted == 0:
        return DIV0
    if abs(total - 1) > 1e-7:
        return NUM
    return inside


def _is_number(v: Value) -> bool:
    return isinstance(v, float | int) and not isinstance(v, bool)


@define("PERMUT", "n n")
def _permut(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    n, k = _whole(args[0]), _whole(args[1])
    if n <= 0 or k < 0 or n < k:
        return NUM
    if math.lgamma(n + 1) - math.lgamma(n - k + 1) > 710:  # beyond a double
        return NUM
    return float(math.perm(n, k))


@define("PERMUTATIONA", "n n")
def _permutationa(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    n, k = _whole(args[0]), _whole(args[1])
    if n < 0 or k < 0:
        return NUM
    if n > 1 and k * math.log(n) > 710:  # beyond a double
        return NUM
    return float(n**k)
