"""Least-squares fits (Excel's Statistical category): LINEST, with its statistics, and TREND,
and their exponential forms LOGEST and GROWTH (the same fit of ln y),
for one or several x variables, in exact arithmetic.

May import: :mod:`fide_rating.engine.formula` (values), :mod:`.base` and the standard library.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ..formula.values import NA, NUM, REF, VALUE, Book, Result, Unsupported, Value, XlError, as_grid
from .base import define


def _is_number(v: object) -> bool:
    return isinstance(v, float | int) and not isinstance(v, bool)


@dataclass
class _Fit:
    """A least-squares fit of y on k x variables, in exact arithmetic (the floats given are
    exact binary fractions; the answer is rounded once, at the end)."""

    slopes: list[Fraction]  # one an x variable, in the order given
    intercept: Fraction
    inverse: list[list[Fraction]]  # (X'X)^-1 of the (centred, with a constant) x's
    means: list[Fraction]
    n: int
    k: int
    const: bool
    ss_reg: Fraction
    ss_resid: Fraction


def _variables(book: Book, ys_arg: Result, xs_arg: Result | None
               ) -> tuple[list[float], list[list[float]], bool] | XlError:  # fmt: skip
    """The known y's, the x variables (each a list as long as the y's) and whether the y's are
    a column; the x's 1, 2, 3 ... when left out. With the y's in a column each column of the
    x's is a variable, in a row each row; x's shaped like the y's are one variable."""
    ys_grid = as_grid(book, ys_arg)
    column = len(ys_grid[0]) == 1
    ys = [v for line in ys_grid for v in line]
    if xs_arg is None:
        variables: list[list[Value]] = [[float(i) for i in range(1, len(ys) + 1)]]
    else:
        xs_grid = as_grid(book, xs_arg)
        if (len(xs_grid), len(xs_grid[0])) == (len(ys_grid), len(ys_grid[0])):
            variables = [[v for line in xs_grid for v in line]]
        elif column and len(ys_grid) > 1 and len(xs_grid) == len(ys_grid):
            variables = [[line[j] for line in xs_grid] for j in range(len(xs_grid[0]))]
        elif len(ys_grid) == 1 and len(ys_grid[0]) > 1 and len(xs_grid[0]) == len(ys):
            variables = [list(line) for line in xs_grid]
        else:
            return REF
    for v in (*ys, *(x for var in variables for x in var)):
        if isinstance(v, XlError):
            return v
        if not _is_number(v):
            return VALUE
    return ([float(y) for y in ys],  # type: ignore[arg-type]
            [[float(x) for x in var] for var in variables], column)  # type: ignore[arg-type]  # fmt: skip


def _inverse(a: list[list[Fraction]]) -> list[list[Fraction]] | None:
    """The inverse of a square matrix by Gauss-Jordan elimination; None when singular."""
    k = len(a)
    m = [[*row, *(Fraction(int(i == j)) for j in range(k))] for i, row in enumerate(a)]
    for col in range(k):
        pivot = next((r for r in range(col, k) if m[r][col] != 0), None)
        if pivot is None:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        lead = m[col][col]
        m[col] = [v / lead for v in m[col]]
        for r in range(k):
            if r != col and m[r][col] != 0:
                factor = m[r][col]
                m[r] = [v - factor * w for v, w in zip(m[r], m[col], strict=True)]
    return [row[k:] for row in m]


def _fit(ys: list[float], variables: list[list[float]], const: bool) -> _Fit:
    n, k = len(ys), len(variables)
    y = [Fraction(v) for v in ys]
    xs = [[Fraction(v) for v in var] for var in variables]
    means = [sum(var, Fraction(0)) / n for var in xs] if const else [Fraction(0)] * k
    y_mean = sum(y, Fraction(0)) / n if const else Fraction(0)
    centred = [[v - mean for v in var] for var, mean in zip(xs, means, strict=True)]
    a = [[sum((p * q for p, q in zip(u, w, strict=True)), Fraction(0)) for w in centred]
         for u in centred]  # fmt: skip
    inverse = _inverse(a)
    if inverse is None:  # Excel leaves some out; which, its reference does not say
        raise Unsupported("LINEST or TREND of x variables that depend on each other")
    b = [sum(((p * (q - y_mean)) for p, q in zip(u, y, strict=True)), Fraction(0))
         for u in centred]  # fmt: skip
    slopes = [sum((inverse[i][j] * b[j] for j in range(k)), Fraction(0)) for i in range(k)]
    intercept = y_mean - sum((m * mean for m, mean in zip(slopes, means, strict=True)),
                             Fraction(0))  # fmt: skip
    fitted = [intercept + sum((m * var[i] for m, var in zip(slopes, xs, strict=True)),
                              Fraction(0)) for i in range(n)]  # fmt: skip
    ss_resid = sum(((v - f) ** 2 for v, f in zip(y, fitted, strict=True)), Fraction(0))
    ss_reg = sum(((f - y_mean) ** 2 for f in fitted), Fraction(0))
    return _Fit(slopes, intercept, inverse, means, n, k, const, ss_reg, ss_resid)


def _flag(args: list[Result], i: int, default: bool) -> bool:
    v = args[i] if i < len(args) else None
    return default if v is None else v != 0


@define("LINEST", "x x? n? n?")
def _linest(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The least-squares fit: the slopes (the last x variable's first) and the intercept, and
    with ``stats`` their standard errors, r² and the standard error of y, F and the degrees of
    freedom, the regression and residual sums of squares, in Excel's five rows."""
    found = _variables(book, args[0], args[1] if len(args) > 1 and args[1] is not None else None)
    const = _flag(args, 2, True)
    stats = _flag(args, 3, False)
    if isinstance(found, XlError):
        return found
    ys, variables, _ = found
    fit = _fit(ys, variables, const)
    top: list[Value] = [*(float(m) for m in reversed(fit.slopes)), float(fit.intercept)]
    if not stats:
        return [top]
    width = len(fit.slopes) + 1
    df = fit.n - fit.k - (1 if const else 0)

    def row(*values: Value) -> list[Value]:
        return [*values, *([NA] * (width - len(values)))]

    if df <= 0:
        return [top, row(*([NUM] * width)), row(1.0, NUM), row(NUM, float(df)),
                row(float(fit.ss_reg), float(fit.ss_resid))]  # fmt: skip
    variance = fit.ss_resid / df
    errors: list[Value] = [math.sqrt(float(fit.inverse[i][i] * variance))
                           for i in reversed(range(len(fit.slopes)))]  # fmt: skip
    if const:
        spread = Fraction(1, fit.n) + sum(
            (fit.means[i] * fit.inverse[i][j] * fit.means[j]
             for i in range(width - 1) for j in range(width - 1)), Fraction(0))  # fmt: skip
        errors.append(math.sqrt(float(spread * variance)))
    else:
        errors.append(NA)
    total = fit.ss_reg + fit.ss_resid
    r2 = float(fit.ss_reg / total) if total else 1.0
    f_stat: Value = float(fit.ss_reg / fit.k / variance) if variance and fit.k else NUM
    return [top, errors, row(r2, math.sqrt(float(variance))), row(f_stat, float(df)),
            row(float(fit.ss_reg), float(fit.ss_resid))]  # fmt: skip


@define("TREND", "x x? x? n?")
def _trend(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The least-squares fit's values at ``new_x`` (the known x's when left out): one value a
    point, a point being a row of the x's (y's in a column) or a column (y's in a row)."""
    known_x = args[1] if len(args) > 1 and args[1] is not None else None
    found = _variables(book, args[0], known_x)
    const = _flag(args, 3, True)
    if isinstance(found, XlError):
        return found
    ys, variables, column = found
    fit = _fit(ys, variables, const)
    if len(args) > 2 and args[2] is not None:
        new = as_grid(book, args[2])
    elif known_x is not None:
        new = as_grid(book, known_x)
    else:
        new = [[x] for x in variables[0]] if column else [list(variables[0])]
    for line in new:
        for x in line:
            if isinstance(x, XlError):
                return x
            if not _is_number(x):
                return VALUE

    def at(point: list[Value]) -> Value:
        total = fit.intercept + sum((m * Fraction(float(x))  # type: ignore[arg-type]
                                     for m, x in zip(fit.slopes, point, strict=True)),
                                    Fraction(0))  # fmt: skip
        return float(total)

    if len(fit.slopes) == 1:
        return [[at([x]) for x in line] for line in new]
    if column:
        if len(new[0]) != len(fit.slopes):
            return REF
        return [[at(list(line))] for line in new]
    if len(new) != len(fit.slopes):
        return REF
    return [[at([line[j] for line in new]) for j in range(len(new[0]))]]


def _logs(book: Book, ys: Result) -> list[list[Value]] | XlError:
    """The known y's as their natural logarithms, in their shape (a y ≤ 0: #NUM!)."""
    out: list[list[Value]] = []
    for line in as_grid(book, ys):
        row: list[Value] = []
        for y in line:
            if isinstance(y, XlError):
                return y
            if not _is_number(y):
                return VALUE
            if y <= 0:  # type: ignore[operator]
                return NUM
            row.append(math.log(y))  # type: ignore[arg-type]
        out.append(row)
    return out


@define("LOGEST", "x x? n? n?")
def _logest(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The exponential curve y = b·m1^x1·m2^x2...: LINEST of ln y, its first row (the m's
    and b) raised to e, the statistics those of ln y, as Excel gives them."""
    logs = _logs(book, args[0])
    if isinstance(logs, XlError):
        return logs
    fitted = _linest(book, sh, r, c, [logs, *args[1:]])
    if not isinstance(fitted, list):
        return fitted
    top = [math.exp(v) if isinstance(v, float) else v for v in fitted[0]]
    return [top, *fitted[1:]]


@define("GROWTH", "x x? x? n?")
def _growth(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The exponential curve's values at ``new_x``: e to TREND of ln y."""
    logs = _logs(book, args[0])
    if isinstance(logs, XlError):
        return logs
    fitted = _trend(book, sh, r, c, [logs, *args[1:]])
    if not isinstance(fitted, list):
        return fitted
    return [[math.exp(v) if isinstance(v, float) else v for v in line] for line in fitted]
