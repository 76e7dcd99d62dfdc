"""Text functions (Excel's category): LEN, UPPER, LOWER, PROPER, TRIM, CLEAN, VALUE,
NUMBERVALUE, LEFT, RIGHT, MID, CONCAT, TEXTJOIN, EXACT, FIND, SEARCH, SUBSTITUTE, REPLACE,
REPT, CODE, CHAR, UNICODE, UNICHAR, T, TEXT, FIXED, DOLLAR, TEXTSPLIT, TEXTBEFORE, TEXTAFTER,
ARRAYTOTEXT and VALUETOTEXT (the REGEX functions: :mod:`.regex`).

LEFTB, RIGHTB, MIDB, LENB, FINDB, SEARCHB and REPLACEB count bytes where Excel's default
editing language is one of double-byte characters (Chinese, Japanese, Korean), and characters
otherwise (Excel's documentation): a workbook does not record that language, and recalc
computes them as in a single-byte language, as LEFT, RIGHT, MID, LEN, FIND, SEARCH and REPLACE.

May import: :mod:`fide_rating.engine.formula` (values and coercions), :mod:`.base`,
:mod:`.numfmt` and the standard library.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal

from ..formula.coerce import CODE_PAGE, exact, read_number, text_of
from ..formula.values import (
    MAX_TEXT,
    NA,
    VALUE,
    Book,
    Result,
    Value,
    XlError,
    as_grid,
    scalar,
)
from .base import Impl, define, flatten, wildcards
from .information import first_cell
from .numfmt import format_text

CALC = XlError("#CALC!")


def _text1(f: Callable[[str], Value]) -> Impl:
    def impl(book: Book, sh: str, r: int, c: int, args: list[str]) -> Result:
        return f(args[0])

    return impl


def _proper(t: str) -> str:
    """Each run of letters with its first letter capitalised, the others lower case."""
    return re.sub(r"[^\W\d_]+", lambda m: m.group()[0].upper() + m.group()[1:].lower(), t)


define("LEN", "s", also=("LENB",))(_text1(lambda t: float(len(t))))
define("UPPER", "s")(_text1(str.upper))
define("LOWER", "s")(_text1(str.lower))
define("PROPER", "s")(_text1(_proper))
define("TRIM", "s")(_text1(lambda t: " ".join(part for part in t.split(" ") if part)))
define("CLEAN", "s")(_text1(lambda t: "".join(ch for ch in t if ord(ch) >= 32)))


@define("T", "r")
def _t(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """A text as itself, anything else the empty text; an error stays one."""
    v = first_cell(book, args[0])
    return v if isinstance(v, str | XlError) else ""


@define("VALUE", "v")
def _value(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """A text as the number (or date, or time) it shows (:mod:`..formula.coerce`); a number
    as itself, a blank as 0; a logical is #VALUE!."""
    v = args[0]
    if v is None:
        return 0.0
    if isinstance(v, bool):
        return VALUE
    if isinstance(v, float):
        return v
    found = read_number(str(v))
    return VALUE if found is None else found


@define("NUMBERVALUE", "s s? s?")
def _numbervalue(book: Book, sh: str, r: int, c: int, args: list[str | None]) -> Result:
    """A text as a number with the separators given (``.`` and ``,`` when left out): spaces
    are ignored anywhere, group separators before the decimal one, and each ``%`` at the end
    divides by 100."""
    text, decimal, group = args
    assert text is not None
    point = "." if decimal is None else decimal[:1]
    grouping = "," if group is None else group[:1]
    if not point or point == grouping:
        return VALUE
    t = "".join(text.split())
    if not t:
        return 0.0
    percent = len(t) - len(t.rstrip("%"))
    t = t.rstrip("%")
    if t.count(point) > 1:
        return VALUE
    whole, sep, fraction = t.partition(point)
    if grouping and grouping in fraction:
        return VALUE
    if grouping:
        whole = whole.replace(grouping, "")
    shown = whole + ("." + fraction if sep else "")
    if not re.fullmatch(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", shown):
        return VALUE
    return float(shown) / 100.0**percent


def _cut(which: str) -> Impl:
    """LEFT, RIGHT (``num_chars`` 1 when left out) and MID."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        t = args[0]
        assert isinstance(t, str)
        if which == "MID":
            start, n = args[1], args[2]
            assert isinstance(start, float) and isinstance(n, float)
            if start < 1 or n < 0:
                return VALUE
            return t[int(start) - 1 : int(start) - 1 + int(n)]
        n = 1.0 if args[1] is None else args[1]
        assert isinstance(n, float)
        if n < 0:
            return VALUE
        k = int(n)
        return t[:k] if which == "LEFT" else (t[-k:] if k else "")

    return impl


define("LEFT", "s n", also=("LEFTB",))(_cut("LEFT"))
define("RIGHT", "s n", also=("RIGHTB",))(_cut("RIGHT"))
define("MID", "s n n", also=("MIDB",))(_cut("MID"))


@define("REPLACE", "s n n s", also=("REPLACEB",))
def _replace(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """``num_chars`` characters of ``old_text`` from ``start_num`` replaced by ``new_text``."""
    old, start, n, new = args
    assert isinstance(old, str) and isinstance(new, str)
    assert isinstance(start, float) and isinstance(n, float)
    if start < 1 or n < 0:
        return VALUE
    at = int(start) - 1
    return old[:at] + new + old[at + int(n) :]


def _joined(parts: list[str]) -> Result:
    """The texts one after the other; #VALUE! past Excel's longest text (never built)."""
    if sum(map(len, parts)) > MAX_TEXT:
        return VALUE
    return "".join(parts)


@define("CONCATENATE", "s")
def _concatenate(book: Book, sh: str, r: int, c: int, args: list[str]) -> Result:
    """Its values as texts, one after the other (a range given is implicitly intersected)."""
    return _joined(args)


@define("CONCAT", "r", union=True)
def _concat(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """Its values, ranges cell by cell, as texts one after the other."""
    out = []
    for v, _ in flatten(book, args):
        t = text_of(v)
        if isinstance(t, XlError):
            return t
        out.append(t)
    return _joined(out)


@define("TEXTJOIN", "x b r")
def _textjoin(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The texts joined by ``delimiter`` (a range of them used in turn), empty ones skipped
    with ``ignore_empty``."""
    delimiters = [text_of(v) for v, _ in flatten(book, [args[0]])]
    skip = args[1]
    texts: list[str] = []
    for v, _ in flatten(book, args[2:]):
        t = text_of(v)
        if isinstance(t, XlError):
            return t
        if skip and t == "":
            continue
        texts.append(t)
    for d in delimiters:
        if isinstance(d, XlError):
            return d
    seps = [d for d in delimiters if isinstance(d, str)] or [""]
    out: list[str] = []
    for i, t in enumerate(texts):
        if i:
            out.append(seps[(i - 1) % len(seps)])
        out.append(t)
    return _joined(out)


@define("EXACT", "s s")
def _exact(book: Book, sh: str, r: int, c: int, args: list[str]) -> Result:
    return args[0] == args[1]


@functools.lru_cache(maxsize=1024)  # SEARCH("x",A1:A30000) reads "x" in every element
def _search_tilde(pattern: str) -> str:
    """SEARCH's pattern with its tildes as Excel reads them there: a tilde before ``*``, ``?``
    or ``~`` makes it itself, a tilde before any other character is dropped (``~d`` finds
    "d"), and so is one at the end (``SEARCH("~","Hello")`` is 1): Excel's cached values in
    IronCalc's FIND_SEARCH.xlsx."""
    out: list[str] = []
    escaped = False
    for ch in pattern:
        if escaped:
            out.append("~" + ch if ch in "*?~" else ch)
            escaped = False
        elif ch == "~":
            escaped = True
        else:
            out.append(ch)
    return "".join(out)


def _position(case: bool) -> Impl:
    """FIND (case-sensitive, literal) and SEARCH (any case, wildcards): where the text starts."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        find, within, start = args
        assert isinstance(find, str) and isinstance(within, str)
        at = int(1.0 if start is None else start) - 1  # type: ignore[arg-type]
        if at < 0 or at > len(within):
            return VALUE
        found = within.find(find, at) if case else wildcards(_search_tilde(find)).search(within, at)
        return VALUE if found < 0 else float(found + 1)

    return impl


define("FIND", "s s n", also=("FINDB",))(_position(True))
define("SEARCH", "s s n", also=("SEARCHB",))(_position(False))


@define("SUBSTITUTE", "s s s n")
def _substitute(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    text, old, new, nth = args
    assert isinstance(text, str) and isinstance(old, str) and isinstance(new, str)
    if not old:
        return text
    if nth is None:
        if len(text) + text.count(old) * (len(new) - len(old)) > MAX_TEXT:
            return VALUE  # never built: 32,767 replacements of 32,767 characters each
        return text.replace(old, new)
    k = int(nth)  # type: ignore[arg-type]
    if k < 1:
        return VALUE
    at = -1
    for _ in range(k):
        at = text.find(old, at + 1)
        if at < 0:
            return text
    return text[:at] + new + text[at + len(old) :]


@define("REPT", "s n")
def _rept(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    t, n = args
    assert isinstance(t, str) and isinstance(n, float)
    if n < 0 or len(t) * int(n) > MAX_TEXT:
        return VALUE
    return t * int(n)


def _first_char(t: str) -> str | XlError:
    return t[0] if t else VALUE


@define("CODE", "s")
def _code(book: Book, sh: str, r: int, c: int, args: list[str]) -> Result:
    """The code of a text's first character in the computer's character set (Windows' or the
    Mac's Western one, by the Excel that saved the workbook)."""
    ch = _first_char(args[0])
    if isinstance(ch, XlError):
        return ch
    try:
        return float(ch.encode(CODE_PAGE.get())[0])
    except UnicodeEncodeError:
        return 63.0  # "?": Excel's code for a character outside the code page


@define("UNICODE", "s")
def _unicode(book: Book, sh: str, r: int, c: int, args: list[str]) -> Result:
    ch = _first_char(args[0])
    return ch if isinstance(ch, XlError) else float(ord(ch))


@define("CHAR", "n")
def _char(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    k = int(args[0])
    if not 1 <= k <= 255:
        return VALUE
    page = CODE_PAGE.get()  # 0x81, 0x8D ... in Windows' page: as Latin-1
    return bytes([k]).decode(page, errors="ignore") or chr(k)


@define("UNICHAR", "n")
def _unichar(book: Book, sh: str, r: int, c: int, args: list[float]) -> Result:
    k = int(args[0])
    if not 1 <= k <= 0x10FFFF:
        return VALUE
    return NA if 0xD800 <= k <= 0xDFFF else chr(k)  # a lone surrogate half: #N/A


@define("TEXT", "v s")
def _text(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """A value shown with a number format (see :mod:`.numfmt`). A text that reads as a number
    (or a date, or a time) is formatted as one; a logical is its text."""
    v, code = args
    assert isinstance(code, str)
    if isinstance(v, bool):
        return format_text("TRUE" if v else "FALSE", code)
    if isinstance(v, str):
        x = read_number(v)
        return format_text(v if x is None else x, code)
    return format_text(0.0 if v is None else float(v), code)  # type: ignore[arg-type]


def _fixed_digits(x: float, decimals: int, commas: bool) -> str:
    """A number rounded to ``decimals`` (to the left of the point when negative), with or
    without thousands separators."""
    code = ("#,##0" if commas else "0") + ("." + "0" * decimals if decimals > 0 else "")
    if decimals < 0:  # to tens, hundreds ...: halves away from zero, as ROUND
        x = float(exact(x).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP))
    shown = format_text(x, code)
    assert isinstance(shown, str)
    return shown


@define("FIXED", "n n? b?")
def _fixed(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """A number as text rounded to ``decimals`` (2 when left out; up to 127), with thousands
    separators unless ``no_commas``."""
    x, decimals, no_commas = args
    assert isinstance(x, float)
    d = 2 if decimals is None else int(decimals)  # type: ignore[arg-type]
    if d > 127:
        return VALUE
    return _fixed_digits(x, d, not no_commas)


@define("DOLLAR", "n n?")
def _dollar(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """A number as currency text, ``$1,234.57`` (negative in parentheses), as in Excel in the
    United States."""
    x, decimals = args
    assert isinstance(x, float)
    d = 2 if decimals is None else int(decimals)  # type: ignore[arg-type]
    shown = _fixed_digits(abs(x), d, True)
    return f"(${shown})" if x < 0 else f"${shown}"


# --- splitting and searching -----------------------------------------------------------------


def _delimiters(book: Book, v: Result) -> list[str] | XlError:
    out = []
    for x, _ in flatten(book, [v]):
        t = text_of(x)
        if isinstance(t, XlError):
            return t
        out.append(t)
    return out


def _splitter(delimiters: list[str], insensitive: bool) -> re.Pattern[str] | None:
    used = sorted((d for d in delimiters if d), key=len, reverse=True)
    if not used:
        return None
    return re.compile("|".join(re.escape(d) for d in used), re.I if insensitive else 0)


@define("TEXTSPLIT", "s x x? b? n? v?")
def _textsplit(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """The text cut at the column delimiters into columns and at the row delimiters into
    rows; short rows padded with ``pad_with`` (#N/A when left out)."""
    text, cols_at, rows_at, ignore, mode, pad = args
    assert isinstance(text, str)
    col_d = _delimiters(book, cols_at) if cols_at is not None else []
    row_d = _delimiters(book, rows_at) if rows_at is not None else []
    for d in (col_d, row_d):
        if isinstance(d, XlError):
            return d
    assert not isinstance(col_d, XlError) and not isinstance(row_d, XlError)
    if not any(col_d) and not any(row_d):
        return VALUE
    insensitive = bool(mode)
    by_row, by_col = _splitter(row_d, insensitive), _splitter(col_d, insensitive)
    lines = by_row.split(text) if by_row else [text]
    if ignore:
        lines = [line for line in lines if line]
    grid = []
    for line in lines:
        cells = by_col.split(line) if by_col else [line]
        if ignore:
            cells = [x for x in cells if x]
        grid.append(cells)
    if not grid:
        return VALUE
    width = max(len(line) for line in grid)
    filler: Value = NA if pad is None else pad  # type: ignore[assignment]
    return [[*line, *([filler] * (width - len(line)))] for line in grid]


def _before_after(after: bool) -> Impl:
    """TEXTBEFORE and TEXTAFTER: the text before (after) the n-th delimiter (n rounded down,
    counted from the end when negative); ``match_end`` 1 makes the end of the text (its start,
    counting from the end) one more delimiter, and any other than 0 or 1 is #VALUE!; a
    delimiter longer than the text is #VALUE! when more than two arguments are given;
    not found: ``if_not_found`` (an empty cell there is the empty text), else #N/A (Excel's
    cached values in IronCalc's TEXTBEFORE_TEXTAFTER.xlsx)."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        text, at, nth, mode, end, missing = args
        assert isinstance(text, str)
        delims = _delimiters(book, at)
        if isinstance(delims, XlError):
            return delims
        n = 1 if nth is None else math.floor(nth)  # type: ignore[arg-type]
        if n == 0 or abs(n) > len(text) + 1:
            return VALUE
        more = any(v is not None for v in (nth, mode, end, missing))
        if more and delims and min(len(d) for d in delims) > len(text):
            return VALUE
        if end is not None and end not in (0.0, 1.0):
            return VALUE
        pattern = _splitter(delims, bool(mode))
        spots: list[tuple[int, int]] = []
        if pattern is None:
            spots = [(0, 0)] if n > 0 else [(len(text), len(text))]
        else:
            spots = [(m.start(), m.end()) for m in pattern.finditer(text)]
        if end:
            spots = [*spots, (len(text), len(text))] if n > 0 else [(0, 0), *spots]
        if abs(n) > len(spots):
            if missing is None:
                return NA
            found = scalar(book, missing, r, c)
            return "" if found is None else found
        start, stop = spots[n - 1] if n > 0 else spots[n]
        return text[stop:] if after else text[:start]

    return impl


define("TEXTBEFORE", "s x n? n? n? x?")(_before_after(False))
define("TEXTAFTER", "s x n? n? n? x?")(_before_after(True))


def _as_text(v: Value, strict: bool) -> str:
    """A value as ARRAYTOTEXT and VALUETOTEXT write it: a text quoted in the strict format."""
    if isinstance(v, str):
        return '"' + v.replace('"', '""') + '"' if strict else v
    shown = text_of(v)
    return shown.code if isinstance(shown, XlError) else shown


@define("VALUETOTEXT", "e n?")
def _valuetotext(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    v, form = args
    if form not in (None, 0.0, 1.0):
        return VALUE
    return _as_text(v, form == 1.0)


@define("ARRAYTOTEXT", "x n?")
def _arraytotext(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
    """An array as text: its values separated by ``, `` (concise, ``format`` 0), or written
    as an array constant, ``{1,"a";2,"b"}`` (strict, 1)."""
    grid, form = as_grid(book, args[0]), args[1]
    if form not in (None, 0.0, 1.0):
        return VALUE
    strict = form == 1.0
    texts = [[_as_text(v, strict) for v in line] for line in grid]
    if sum(len(t) + 2 for line in texts for t in line) > MAX_TEXT + 2:
        return VALUE  # never built: longer than Excel's longest text
    if strict:
        return "{" + ";".join(",".join(line) for line in texts) + "}"
    return ", ".join(t for line in texts for t in line)
