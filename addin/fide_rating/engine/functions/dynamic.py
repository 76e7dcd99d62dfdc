"""RANDARRAY: an array of random numbers, new at every calculation (volatile, as RAND).

Excel's rules (its RANDARRAY page, and SEQUENCE's for the size): ``rows`` and ``columns``
default to 1 and are truncated, fewer than one is #CALC! (an empty array), more than
1,048,576 values #NUM!; ``min`` and ``max`` default to 0 and 1, ``max`` below ``min`` is
#VALUE!; with ``whole_number`` TRUE the numbers are whole, from ``min`` to ``max`` both
included (#VALUE! where no whole number lies between them), else from ``min`` (included) to
``max`` (excluded).

May import: :mod:`fide_rating.engine.formula` (values), :mod:`.base` and the standard library.
"""

from __future__ import annotations

import math

from ..formula.values import NUM, VALUE, Book, Result, XlError
from .base import define, draws

CALC = XlError("#CALC!")
MAX_VALUES = 1_048_576  # as SEQUENCE: more is #NUM!


@define("RANDARRAY", "n? n? n? n? b?")
def _randarray(book: Book, sh: str, r: int, c: int, args: list[float | bool | None]) -> Result:
    rows, cols, low, high, whole = args
    n = 1 if rows is None else int(rows)
    m = 1 if cols is None else int(cols)
    a = 0.0 if low is None else float(low)
    b = 1.0 if high is None else float(high)
    if n < 1 or m < 1:
        return CALC
    if n * m > MAX_VALUES:
        return NUM
    if b < a:
        return VALUE
    draw = draws()
    if whole:
        first, last = math.ceil(a), math.floor(b)
        if first > last:
            return VALUE
        return [[float(draw.randint(first, last)) for _ in range(m)] for _ in range(n)]
    return [[a + (b - a) * draw.random() for _ in range(m)] for _ in range(n)]
