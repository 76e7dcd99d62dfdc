"""Information functions (Excel's category): NA, the IS functions (ISFORMULA among them), N,
TYPE, ERROR.TYPE.

May import: :mod:`fide_rating.engine.formula` (values and coercions), :mod:`.base` and the
standard library.
"""

from __future__ import annotations

from collections.abc import Callable

from ..formula.coerce import number
from ..formula.parser import col_letters
from ..formula.values import NA, VALUE, Area, Book, Result, Unsupported, Value, XlError
from .base import Impl, define


@define("NA", "")
def _na(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return NA


def _is(test: Callable[[Value], bool]) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        return test(args[0])

    return impl


define("ISBLANK", "e")(_is(lambda v: v is None))
define("ISNUMBER", "e")(_is(lambda v: isinstance(v, float | int) and not isinstance(v, bool)))
define("ISTEXT", "e")(_is(lambda v: isinstance(v, str)))
define("ISNONTEXT", "e")(_is(lambda v: not isinstance(v, str)))
define("ISLOGICAL", "e")(_is(lambda v: isinstance(v, bool)))
define("ISERROR", "e")(_is(lambda v: isinstance(v, XlError)))
define("ISERR", "e")(_is(lambda v: isinstance(v, XlError) and v != NA))
define("ISNA", "e")(_is(lambda v: v == NA))


@define("ISFORMULA", "r")
def _isformula(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """Whether the (first) cell referred to holds a formula; not a reference: #VALUE!."""
    ref = args[0]
    if not isinstance(ref, Area):
        return VALUE
    return book.computed(ref.sheet, ref.r1, ref.c1)


@define("ISREF", "r", errors=True)
def _isref(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    return isinstance(args[0], Area)


def first_cell(book: Book, v: Result) -> Value:
    """The value of a reference's first cell (N and T take that of a range, in an array
    formula too: Excel's saved values)."""
    if isinstance(v, Area):
        return book.value(v.sheet, v.r1, v.c1)
    if isinstance(v, list):
        return v[0][0]
    return v


@define("N", "r")
def _n(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """A number as itself, TRUE as 1, anything else 0; an error stays one."""
    v = first_cell(book, args[0])
    if isinstance(v, XlError):
        return v
    return 1.0 * v if isinstance(v, float | int) else 0.0


_CODES = {"#NULL!": 1, "#DIV/0!": 2, "#VALUE!": 3, "#REF!": 4, "#NAME?": 5, "#NUM!": 6,
          "#N/A": 7, "#GETTING_DATA": 8, "#SPILL!": 9, "#CALC!": 14}  # fmt: skip


@define("ERROR.TYPE", "e")
def _error_type(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """The number of an error (1 #NULL! ... 7 #N/A); #N/A for a value that is not one."""
    v = args[0]
    code = _CODES.get(v.code) if isinstance(v, XlError) else None
    return NA if code is None else float(code)


@define("TYPE", "r", errors=True)
def _type(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """1 a number (or a blank), 2 a text, 4 a logical, 16 an error, 64 an array."""
    v = args[0]
    if isinstance(v, Area):
        if v.rows > 1 or v.cols > 1:
            raise Unsupported("TYPE of a range of several cells")
        v = book.value(v.sheet, v.r1, v.c1)
    if isinstance(v, list):
        return 64.0
    if isinstance(v, bool):
        return 4.0
    if isinstance(v, str):
        return 2.0
    if isinstance(v, XlError):
        return 16.0
    return 1.0


def _parity(odd: bool) -> Impl:
    """ISEVEN and ISODD: the number truncated (a blank is 0); a logical is #VALUE!."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        v = args[0]
        if isinstance(v, bool):
            return VALUE
        x = number(v)
        return x if isinstance(x, XlError) else (int(x) % 2 == 1) == odd

    return impl


define("ISEVEN", "v", single=True)(_parity(False))
define("ISODD", "v", single=True)(_parity(True))


@define("CELL", "s r")
def _cell(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """What CELL says of a reference's first cell: its ``address`` (``$A$1``), ``row``,
    ``col``, ``contents`` or ``type`` (``b`` blank, ``l`` a text, ``v`` anything else). The
    kinds that depend on formats, widths, the file's place or the last cell changed are
    reported."""
    kind, ref = args
    assert isinstance(kind, str)
    what = kind.strip().lower()
    if ref is None or not isinstance(ref, Area):
        if isinstance(ref, XlError):
            return ref
        raise Unsupported(f"CELL({kind!r}) of the cell last changed")
    if what == "row":
        return float(ref.r1)
    if what == "col":
        return float(ref.c1)
    if what == "address":
        if ref.sheet.upper() != sh.upper():
            raise Unsupported('CELL("address") of another sheet\'s cell')
        return f"${col_letters(ref.c1)}${ref.r1}"
    v = book.value(ref.sheet, ref.r1, ref.c1)
    if what == "contents":
        return v
    if what == "type":
        return "b" if v is None else "l" if isinstance(v, str) else "v"
    if what in ("filename", "format", "color", "parentheses", "prefix", "protect", "width"):
        raise Unsupported(f"CELL({kind!r}), which depends on what the file does not say")
    return VALUE
