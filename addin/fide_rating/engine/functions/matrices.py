"""The matrix functions of Excel's Math and trigonometry category beside MMULT: MDETERM,
MINVERSE and MUNIT.

Excel's function reference is the specification: a matrix is a square array of numbers (an
empty cell or a text in it is ``#VALUE!``, and so is a matrix that is not square); a singular
matrix has no inverse (``#NUM!``). As Excel says of MDETERM, the figures are those of
floating-point elimination (an LU decomposition with partial pivoting), good to about 16 digits: the
determinant of a singular matrix may differ from zero by 1E-16.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base` and the standard library.
"""

from __future__ import annotations

import math

from ..formula.values import NUM, VALUE, Book, Result, Value, XlError
from .base import define


def _square(grid: list[list[Value]]) -> list[list[float]] | XlError:
    """The numbers of a square array; an error in it is the result, anything else but a
    number, or a shape that is not square, #VALUE!."""
    if len(grid) != len(grid[0]):
        return VALUE
    out: list[list[float]] = []
    for line in grid:
        row: list[float] = []
        for v in line:
            if isinstance(v, XlError):
                return v
            if not isinstance(v, float | int) or isinstance(v, bool):
                return VALUE
            row.append(float(v))
        out.append(row)
    return out


@define("MDETERM", "a")
def _mdeterm(book: Book, sh: str, r: int, c: int, args: list[list[list[Value]]]) -> Result:
    """The determinant: the product of the pivots of the elimination, its sign turned at
    each exchange of rows."""
    m = _square(args[0])
    if isinstance(m, XlError):
        return m
    n = len(m)
    det = 1.0
    for col in range(n):
        pivot = max(range(col, n), key=lambda i: abs(m[i][col]))
        if m[pivot][col] == 0:
            return 0.0
        if pivot != col:
            m[col], m[pivot] = m[pivot], m[col]
            det = -det
        lead = m[col][col]
        det *= lead
        for i in range(col + 1, n):
            factor = m[i][col] / lead
            if factor:
                m[i] = [a - factor * b for a, b in zip(m[i], m[col], strict=True)]
    return det if math.isfinite(det) else NUM


def _lu(m: list[list[float]]) -> tuple[list[list[float]], list[int]] | None:
    """The LU decomposition of m with partial pivoting, in place (L below the diagonal, its
    ones not kept, U on and above it), and the rows' order; None when singular."""
    n = len(m)
    order = list(range(n))
    for k in range(n):
        pivot = max(range(k, n), key=lambda i: abs(m[i][k]))
        if m[pivot][k] == 0:
            return None
        m[k], m[pivot] = m[pivot], m[k]
        order[k], order[pivot] = order[pivot], order[k]
        for i in range(k + 1, n):
            m[i][k] /= m[k][k]
            factor = m[i][k]
            row, top = m[i], m[k]
            for j in range(k + 1, n):
                row[j] -= factor * top[j]
    return m, order


@define("MINVERSE", "a")
def _minverse(book: Book, sh: str, r: int, c: int, args: list[list[list[Value]]]) -> Result:
    """The inverse: the LU decomposition, then each column of the identity solved forward
    and back (Excel's saved values show these digits, a 20 by 20 Smith-Wilson calibration's
    to the bit); singular: #NUM!."""
    m = _square(args[0])
    if isinstance(m, XlError):
        return m
    n = len(m)
    found = _lu(m)
    if found is None:
        return NUM
    lu, order = found
    out: list[list[Value]] = [[0.0] * n for _ in range(n)]
    for col in range(n):
        b = [1.0 if order[i] == col else 0.0 for i in range(n)]
        for i in range(n):
            for j in range(i):
                b[i] -= lu[i][j] * b[j]
        for i in reversed(range(n)):
            for j in range(i + 1, n):
                b[i] -= lu[i][j] * b[j]
            b[i] /= lu[i][i]
        for i in range(n):
            out[i][col] = b[i]
    if any(not math.isfinite(v) for row in out for v in row):  # type: ignore[arg-type]
        return NUM
    return out


@define("MUNIT", "n")
def _munit(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    """The identity matrix of the given size (at least 1, else #VALUE!)."""
    n = math.trunc(args[0])
    if n < 1:
        return VALUE
    if n * n > 1_048_576:
        return NUM
    return [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
