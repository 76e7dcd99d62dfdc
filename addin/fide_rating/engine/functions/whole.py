"""Whole numbers (of Excel's math and trigonometry category): FACT, FACTDOUBLE, COMBIN,
COMBINA, GCD, LCM, ROMAN and ARABIC.

May import: :mod:`fide_rating.engine.formula` (values and coercions), :mod:`.base` and the
standard library.
"""

from __future__ import annotations

import math

from ..formula.coerce import number
from ..formula.values import NA, NUM, VALUE, Area, Book, Result, Value, XlError, as_grid
from .base import define


@define("FACT", "n")
def _fact(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    """n! of n truncated; a negative n is #NUM! (170! is the largest a double holds)."""
    n = int(args[0])
    if n < 0 or n > 170:
        return NUM
    return float(math.factorial(n))


@define("FACTDOUBLE", "n", single=True)
def _factdouble(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    n = int(args[0])
    if n < -1 or n > 300:
        return NUM
    return float(math.prod(range(n, 0, -2))) if n > 0 else 1.0


@define("COMBIN", "n n")
def _combin(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    n, k = int(args[0]), int(args[1])
    if n < 0 or k < 0 or n < k:
        return NUM
    return float(math.comb(n, k))


@define("COMBINA", "n n")
def _combina(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    """The combinations with repetitions of ``k`` among ``n`` (both truncated): ``k`` may
    exceed ``n`` (COMBINA(3,10) is 66), but not 0 (COMBINA(0,3) is #NUM!): Excel's cached
    values in IronCalc's COMBIN_COMBINA.xlsx."""
    n, k = int(args[0]), int(args[1])
    if n < 0 or k < 0 or (n == 0 and k > 0):
        return NUM
    return float(math.comb(n + k - 1, k)) if n or k else 1.0


def _integers(book: Book, args: list[Result]) -> list[int] | XlError:
    """GCD's and LCM's numbers, truncated (Excel's cached values in IronCalc's GCD_LCM.xlsx):
    a text is read as arithmetic reads it, in a range too (``"8"`` is 8, ``""`` #VALUE!), a
    logical is #VALUE!; a blank cell referred to alone is left out, a blank in a range of more
    cells is 0, and an argument left out (``GCD(,5)``) is #N/A; nothing at all is #VALUE!; a
    negative number, or one of 2^53 or more, is #NUM!."""
    nums: list[float] = []
    for a in args:
        if a is None:
            return NA
        values: list[Value] = []
        if isinstance(a, Area | list):
            held = getattr(book, "held", None)
            found = held(a) if held is not None and isinstance(a, Area) else None
            if found is not None and isinstance(a, Area):
                values = list(found)
                if len(values) < a.rows * a.cols:
                    values.append(0.0)  # the blanks the sheet does not hold
            else:
                values = [v for line in as_grid(book, a) for v in line]
                if len(values) > 1:
                    values = [0.0 if v is None else v for v in values]
        else:
            values = [a]
        for v in values:
            if isinstance(v, XlError):
                return v
            if v is None:
                continue
            if isinstance(v, bool):
                return VALUE
            x = number(v)
            if isinstance(x, XlError):
                return x
            nums.append(x)
    if not nums:
        return VALUE
    if any(x < 0 or x >= 2.0**53 for x in nums):
        return NUM
    return [int(x) for x in nums]


@define("GCD", "r", union=True)
def _gcd(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    nums = _integers(book, args)
    return nums if isinstance(nums, XlError) else float(math.gcd(*nums))


@define("LCM", "r", union=True)
def _lcm(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The least common multiple; one of 2^53 or more is #NUM! (Excel's documentation)."""
    nums = _integers(book, args)
    if isinstance(nums, XlError):
        return nums
    found = 0 if 0 in nums else math.lcm(*nums)
    return NUM if found >= 2**53 else float(found)


_ROMAN = "MDCLXVI"
_ROMAN_VALUES = (1000, 500, 100, 50, 10, 5, 1)


def roman(n: int, form: int) -> str:
    """``n`` (0 to 3999) in Roman numerals: ``form`` 0 the classic form, 1 to 4 ever more
    concise (499: CDXCIX, LDVLIV, XDIX, VDIV, ID), as Excel's ROMAN: where a digit would be a
    subtraction (4 or 9 of a power of ten), the smaller numeral is taken down as far as the
    form allows while what it leaves to write stays positive."""
    out: list[str] = []
    left = n
    for i in range(4):
        index = 2 * i
        digit = left // _ROMAN_VALUES[index]
        if digit % 5 == 4:
            larger = index - 1 if digit == 4 else index - 2
            steps = 0
            while steps < form and index < len(_ROMAN) - 1:
                steps += 1
                if _ROMAN_VALUES[larger] - _ROMAN_VALUES[index + 1] <= left:
                    index += 1
                else:
                    steps = form
            out.append(_ROMAN[index] + _ROMAN[larger])
            left += _ROMAN_VALUES[index] - _ROMAN_VALUES[larger]
        else:
            if digit > 4:
                out.append(_ROMAN[index - 1])
            out.append(_ROMAN[index] * (digit % 5))
            left %= _ROMAN_VALUES[index]
    return "".join(out)


@define("ROMAN", "n v?")
def _roman(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """A number from 0 to 3999 in Roman numerals; ``form`` 0 (or TRUE, or left out) the
    classic form, 1 to 4 (or FALSE, 4) more concise ones."""
    x, form = args
    assert isinstance(x, float)
    if form is None or form is True:
        kind = 0
    elif form is False:
        kind = 4
    else:
        found = number(form)
        if isinstance(found, XlError):
            return found
        kind = int(found)
    n = int(x)
    if not 0 <= n <= 3999 or not 0 <= kind <= 4:
        return VALUE
    return roman(n, kind)


@define("ARABIC", "s")
def _arabic(book: Book, sh: str, r: int, c: int, args: list[str]) -> Result:
    """A Roman numeral's value (any case, a ``-`` in front for a negative one, the empty text
    0): each numeral added, or subtracted where a larger one follows it."""
    text = args[0].strip()
    negative = text.startswith("-")
    text = text[1:] if negative else text
    if len(text) > 255:
        return VALUE
    values = dict(zip(_ROMAN, _ROMAN_VALUES, strict=True))
    total = 0
    digits = [values.get(ch) for ch in text.upper()]
    if any(v is None for v in digits):
        return VALUE
    for i, v in enumerate(digits):
        assert v is not None
        following = digits[i + 1] if i + 1 < len(digits) else 0
        total += -v if following and v < following else v
    return float(-total if negative else total)
