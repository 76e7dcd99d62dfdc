"""Cell values in, exact arguments of the rules core out: the coercion shared by every host.

Excel (through xlwings) passes numbers as floats, blank and error cells as ``None``, ranges as
lists (of lists) and dates as ``datetime``; LibreOffice passes blanks as ``""`` or 0, dates as
serial numbers and ranges as tuples of tuples. Everything is coerced here, once, for every host;
a value that cannot be used raises :class:`CellError`, whose message becomes the cell's text.

May import: the rules core and the standard library only (packed into the add-ins).
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from itertools import chain
from typing import TypeAlias

from ..rules.editions import (
    EDITIONS,
    LATEST,
    RATING_TYPES,
    Edition,
    edition_on,
    editions_of,
    get_edition,
)
from ..rules.errors import FideInputError
from ..rules.expected import RATING_MAX, RATING_MIN
from ..rules.rounding import exact

CellValue: TypeAlias = object
CellResult: TypeAlias = "float | int | str"
PREFIX = "#FIDE!"
_SERIAL_ZERO = _dt.date(1899, 12, 30)  # Excel (from serial 61) and LibreOffice alike


class CellError(FideInputError):
    """Bad input from a cell; ``arg`` names the spreadsheet argument."""

    def __init__(self, arg: str, message: str) -> None:
        super().__init__(f"{arg}: {message}")
        self.arg = arg


def _show(value: object) -> str:
    if isinstance(value, str):
        text = repr(value[:40])
    elif isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        text = str(int(value))
    elif isinstance(value, int) and not -(10**15) < value < 10**15:
        # str() of an int of more than 4,300 digits raises; its size says enough
        text = f"a number of {math.floor(math.log10(abs(value))) + 1} digits"
    elif isinstance(value, list | tuple):
        text = "a range"
    elif isinstance(value, Fraction | Decimal):  # its text could be thousands of digits long
        try:
            number = float(value)
        except OverflowError:
            number = math.inf
        text = f"{number:g}" if abs(number) < 1e15 else "a number of 16 digits or more"
    else:
        text = str(value)
    return text if len(text) <= 32 else text[:29] + "..."


def bad_arg(arg: str, expected: str, value: object) -> CellError:
    return CellError(arg, f"expected {expected}, got {_show(value)}")


def is_blank(value: object) -> bool:
    """A blank cell: None (Excel, also error cells) or an empty string (LibreOffice)."""
    return value is None or (isinstance(value, str) and not value.strip())


_SEQ = frozenset({list, tuple})
_PLAIN = frozenset({float, int})
# a range is a row or a column of cells, or rows of cells (2-D); no host nests deeper
DEEPEST = 2


def is_zero(value: object) -> bool:
    """LibreOffice passes a blank cell given as a single argument as 0."""
    return type(value) in (int, float) and value == 0


def cells(value: object) -> list[object]:
    """A range as a flat list in reading order (rows or columns alike); a scalar as one cell."""
    if type(value) in _SEQ:
        seq: Sequence[object] = value  # type: ignore[assignment]  # list or tuple
        # the usual shapes, a row of cells or rows of cells, in C-speed passes
        if _SEQ.isdisjoint(map(type, seq)):
            return list(seq)
        if _SEQ.issuperset(map(type, seq)):
            flat: list[object] = list(chain.from_iterable(seq))  # type: ignore[arg-type]
            if _SEQ.isdisjoint(map(type, flat)):
                return flat
    if isinstance(value, list | tuple):
        out: list[object] = []
        # by a stack, not a recursion: a crafted range nested 100,000 deep is refused, never
        # a RecursionError (nor a loop, for a list that holds itself)
        stack = [iter(value)]
        while stack:
            for item in stack[-1]:
                if isinstance(item, list | tuple):
                    if len(stack) >= DEEPEST:
                        raise RangeError(
                            f"expected a cell or a range (rows of cells), got ranges nested more "
                            f"than {DEEPEST} deep"
                        )
                    stack.append(iter(item))
                    break
                out.append(item)
            else:
                stack.pop()
        return out
    return [value]


class RangeError(FideInputError):
    """A value no spreadsheet passes: ranges nested deeper than rows of cells."""


# the error values of Excel (with the newer ones) and LibreOffice's names for them
ERROR_CODES = frozenset({
    "#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA",
    "#SPILL!", "#CALC!", "#FIELD!", "#BLOCKED!", "#CONNECT!", "#BUSY!", "#UNKNOWN!", "#PYTHON!",
    "#NAME!", "#NULL", "#N/A!",
})  # fmt: skip


def _error_code(value: object) -> str | None:
    """The error a cell value stands for: an error text (how xlwings hands over error cells
    with ``err_to_str``), one of our own ``#FIDE!`` texts (whole), or an Office.js error
    object."""
    if type(value) is str:
        if value[:1] != "#":
            return None
        text = value.strip()
        if text in ERROR_CODES:
            return text
        return text if text.startswith(PREFIX) else None
    if type(value) is dict and value.get("type") == "Error":
        return str(value.get("basicValue") or "#VALUE!")
    return None


def error_in(value: object) -> str | None:
    """The first error value in an argument (a cell or a range), or None."""
    kind = type(value)
    if kind is float or kind is int or value is None:
        return None
    if kind in _SEQ:
        if _numbers(value) is not None:  # plain numbers (the usual range): no error in it
            return None
        flat = cells(value)
        kinds = set(map(type, flat))
        if str not in kinds and dict not in kinds:
            return None
        for item in flat:
            code = _error_code(item)
            if code is not None:
                return code
        return None
    return _error_code(value)


def one_cell(value: object) -> object:
    """A one-cell range as its value (INDEX(...) in Excel, a 1 x 1 range in LibreOffice);
    anything else unchanged."""
    if type(value) in _SEQ:
        flat = cells(value)
        if len(flat) == 1:
            return flat[0]
    return value


def _whole(arg: str, value: object, expected: str) -> int:
    """A whole number from a number cell or text such as '2400'."""
    if type(value) is float and value.is_integer():
        return int(value)
    if type(value) is int:
        return value
    if isinstance(value, str):
        text = value.strip()
        try:
            number = float(text.replace(",", "."))
        except ValueError:
            raise bad_arg(arg, expected, value) from None
        if number.is_integer():
            return int(number)
    elif isinstance(value, Decimal | Fraction) and value == int(value):
        return int(value)
    raise bad_arg(arg, expected, value)


def rating(arg: str, value: object) -> int:
    """A rating: a whole number from 1 to 4000."""
    if type(value) is float and RATING_MIN <= value <= RATING_MAX and value.is_integer():
        return int(value)  # what every host passes for a rating cell
    what = f"a whole-number rating from {RATING_MIN} to {RATING_MAX}"
    if is_blank(value):
        raise CellError(arg, "missing (a rating is required)")
    if isinstance(value, bool):
        raise bad_arg(arg, what, value)
    r = _whole(arg, value, what)
    if not RATING_MIN <= r <= RATING_MAX:
        raise bad_arg(arg, what, value)
    return r


def exact_number(arg: str, value: object, low: int, high: int, what: str) -> Fraction:
    """A number from ``low`` to ``high``, exact (0.5 stays 1/2)."""
    if is_blank(value):
        raise CellError(arg, f"missing ({what} is required)")
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal | Fraction):
        raise bad_arg(arg, what, value)
    try:
        number = exact(value.replace(",", ".") if isinstance(value, str) else value)
    except FideInputError:
        raise bad_arg(arg, what, value) from None
    if not low <= number <= high:
        raise bad_arg(arg, f"{what}, from {low} to {high}", value)
    return number


def whole(arg: str, value: object, low: int, high: int, what: str) -> int:
    if type(value) is float and low <= value <= high and value.is_integer():
        return int(value)
    if is_blank(value):
        raise CellError(arg, f"missing ({what} is required)")
    if isinstance(value, bool):
        raise bad_arg(arg, what, value)
    n = _whole(arg, value, what)
    if not low <= n <= high:
        raise bad_arg(arg, what, value)
    return n


_RESULTS: dict[object, object] = {
    "1": 1, "0": 0, "0.5": 0.5, "0,5": 0.5, ".5": 0.5, ",5": 0.5, "½": 0.5, "1/2": 0.5, "=": 0.5,
    "1.0": 1, "0.0": 0, "1,0": 1, "0,0": 0,
}  # fmt: skip
# not rated: forfeits (+ -), byes (TRF H F U Z), games not rated (TRF W D L); their points
_UNPLAYED: dict[str, float] = {
    "+": 1.0, "-": 0.0, "−": 0.0, "–": 0.0, "bye": 1.0,
    "h": 0.5, "f": 1.0, "u": 1.0, "z": 0.0, "w": 1.0, "d": 0.5, "l": 0.0,
}  # fmt: skip


def result(arg: str, value: object) -> object | None:
    """A game result: 1, 0.5 or 0; ``None`` for a blank, a forfeit (+, -) or a bye."""
    if value is None:
        return None
    if isinstance(value, _dt.date):
        # Excel turns a typed 1/2 into 2 January
        raise CellError(
            arg,
            f"expected 1, 0.5 or 0, got a date ({value.day} {value:%B}): type 0.5, ½ or = for "
            "a draw (a spreadsheet reads 1/2 as a date)",
        )
    if type(value) is float or type(value) is int:
        if value in (1, 0.5, 0):
            return value
        if 3000 <= value <= 2958465 and float(value).is_integer():  # a date's serial (1908-9999)
            raise CellError(
                arg,
                f"expected 1, 0.5 or 0, got {int(value)} (a date? type 0.5, ½ or = for a draw: "
                "a spreadsheet reads 1/2 as a date)",
            )
        raise bad_arg(arg, "1, 0.5 or 0", value)
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        found = _RESULTS.get(text)
        if found is not None:
            return found
        if text.lower() in _UNPLAYED:
            return None
    raise bad_arg(arg, "1, 0.5 or 0", value)


def points(arg: str, value: object) -> float | None:
    """Tournament points of one result cell, forfeits and byes included; None for a blank."""
    played = result(arg, value)
    if played is not None:
        return float(played)  # type: ignore[arg-type]
    if isinstance(value, str) and value.strip().lower() in _UNPLAYED:
        return _UNPLAYED[value.strip().lower()]
    return None


def flag(arg: str, value: object) -> bool:
    """TRUE/FALSE, 1/0, or text yes/no/true/false."""
    if isinstance(value, bool):
        return value
    if type(value) in (int, float) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "1", "wahr", "vrai"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("false", "no", "0", "falsch", "faux"):
        return False
    if is_blank(value):
        raise CellError(arg, "missing (TRUE or FALSE is required)")
    raise bad_arg(arg, "TRUE or FALSE", value)


def date_of(arg: str, value: object) -> _dt.date:
    """A date from a datetime, a spreadsheet serial number or ISO text (2024-03-15)."""
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    if (
        isinstance(value, float | int)
        and not isinstance(value, bool)
        and 1 <= value < 2958466  # up to 9999-12-31 (a compare, never a float of a huge int)
        and (type(value) is int or math.isfinite(value))
    ):
        return _SERIAL_ZERO + _dt.timedelta(days=int(value))
    if isinstance(value, str):
        try:
            return _dt.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise bad_arg(arg, "a date", value)


_EDITION_NAMES = {e.name: e for e in EDITIONS}


def rating_type_arg(value: object, arg: str = "rating_type") -> str | None:
    """A rating type, standard, rapid or blitz (any case); None when blank."""
    if is_blank(value):
        return None
    if isinstance(value, str) and value.strip().lower() in RATING_TYPES:
        return value.strip().lower()
    raise bad_arg(arg, "standard, rapid or blitz", value)


def typed(edition: Edition, day: _dt.date | None, kind: str | None) -> Edition:
    """The edition of the rating type asked for: of the start date, or of the same date as the
    edition given."""
    if kind is None or edition.rating_type == kind:
        return edition
    try:
        return edition_on(day or edition.effective, kind)
    except FideInputError as error:
        raise CellError("rating_type", str(error)) from None


def _date_in(text: str) -> _dt.date | None:
    """The start date in an edition text such as "2025-11-10 rapid", if it has one."""
    head = text.split(maxsplit=1)[0] if text.split() else ""
    try:
        return _dt.date.fromisoformat(head) if len(head) == 10 else None
    except ValueError:
        return None


def edition_arg(value: object, arg: str = "edition") -> tuple[Edition, _dt.date | None]:
    """An edition from a name ("2024-03") or a tournament start date; the newest when blank."""
    if type(value) is str and value in _EDITION_NAMES:
        return _EDITION_NAMES[value], None
    if is_blank(value) or is_zero(value):
        return LATEST, None
    if isinstance(value, str) and value.strip() in _EDITION_NAMES:
        return _EDITION_NAMES[value.strip()], None
    if isinstance(value, str) and value.strip():
        try:  # a name with a rating type ("2024-12 rapid"), or a start date and one
            return get_edition(value), _date_in(value)
        except FideInputError:
            pass
    if isinstance(value, str) and len(value.strip()) != 10:
        names = ", ".join(e.name for e in editions_of("standard"))
        raise bad_arg(
            arg, f"an edition ({names}; rapid and blitz: 2024-12 rapid ...) or a date", value
        )
    day = date_of(arg, value)
    try:
        return edition_on(day), day
    except FideInputError:
        raise bad_arg(arg, f"a date from {EDITIONS[0].effective.isoformat()} on", value) from None


def games(
    opponents: object, results: object, *, results_given: bool
) -> tuple[list[int | None], list[object | None]]:
    """Opponent ratings and results, paired by position.

    A blank or 0 opponent is an unrated one (or no game); without ``results`` every rated
    opponent counts as played (the result then does not matter).
    """
    plain = (
        None  # results required and missing: the per-cell checks say so
        if results_given and results is None
        else plain_games(opponents, results if results_given else None)
    )
    if plain is not None:
        ratings_, res_numbers, _ = plain
        if res_numbers is None:
            return ratings_, [0.0] * len(ratings_)  # type: ignore[return-value]
        return ratings_, res_numbers  # type: ignore[return-value]  # list is invariant
    opp_cells = cells(opponents)
    res_cells = cells(results) if results_given else []
    if results_given and len(res_cells) != len(opp_cells):
        raise CellError(
            "results",
            f"expected as many cells as opponents ({len(opp_cells)}), got {len(res_cells)}",
        )
    ratings: list[int | None] = []
    for value in opp_cells:
        if is_blank(value) or value == 0:
            ratings.append(None)
        else:
            ratings.append(rating("opponents", value))
    if not results_given:
        return ratings, [0] * len(ratings)
    return ratings, [result("results", v) for v in res_cells]


def _whole_ratings(numbers: list[float | int]) -> list[int] | None:
    """Plain numbers (types checked by the caller) as ratings when every one is a whole number
    in range; else None."""
    if not numbers:
        return None
    try:
        ratings = list(map(int, numbers))
    except (ValueError, OverflowError):  # nan, inf
        return None
    if ratings != numbers or min(ratings) < RATING_MIN or max(ratings) > RATING_MAX:
        return None
    return ratings


def _numbers(value: object) -> list[float | int] | None:
    """A number, or a range (a row, a column or a block) of plain numbers, as a flat list, the
    types checked in one C-speed pass over the cells; None for anything else (blank cells, text).
    """
    if type(value) in _PLAIN:
        return [value]  # type: ignore[list-item]  # checked just above
    if type(value) in _SEQ:
        seq: Sequence[object] = value  # type: ignore[assignment]  # list or tuple
        kinds = set(map(type, seq))
        if kinds <= _PLAIN:
            return list(seq)  # type: ignore[arg-type]  # checked just above
        if kinds <= _SEQ:
            flat: list[float | int] = list(chain.from_iterable(seq))  # type: ignore[arg-type]
            if _PLAIN.issuperset(map(type, flat)):
                return flat
    return None


def plain_games(
    opponents: object, results: object
) -> tuple[list[int], list[float | int] | None, int] | None:
    """The usual case in C-speed passes: every opponent a whole number in range and, with
    ``results`` (None: not given), as many results, each 1, 0.5 or 0 as a number. Gives the
    ratings, the results and W in hundredths; None sends the cells through the per-cell checks.
    """
    opp_numbers = _numbers(opponents)
    ratings = None if opp_numbers is None else _whole_ratings(opp_numbers)
    if ratings is None:
        return None
    if results is None:
        return ratings, None, 0
    res_numbers = _numbers(results)
    if res_numbers is None or len(res_numbers) != len(ratings):
        return None
    w = _numbers_w(res_numbers)
    return None if w is None else (ratings, res_numbers, w)


def _numbers_w(numbers: list[float | int]) -> int | None:
    """W in hundredths of plain numbers (types checked by the caller) when every one is 1, 0.5
    or 0; else None."""
    ones, halves = numbers.count(1.0), numbers.count(0.5)
    if ones + halves + numbers.count(0.0) != len(numbers):
        return None
    return 100 * ones + 50 * halves
