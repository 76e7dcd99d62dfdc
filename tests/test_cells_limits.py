# mypy: disable-error-code=no-untyped-call
"""Crafted cell values give a short readable text, never a traceback: ranges nested 100,000
deep (as lists, as xlwings passes ranges, and as tuples, as LibreOffice does), a list that
holds itself, integers of 5,000 digits, in every argument of every function, through the
registry as each host calls it."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from fide_rating import excel
from fide_rating.cells import BY_NAME, PREFIX, REGISTRY, call
from fide_rating.cells.coerce import DEEPEST, RangeError, cells
from fide_rating.cells.registry import FideCellError, call_raising

DEPTH = 100_000


def _nested_list(depth: int) -> list[object]:
    top: list[object] = []
    inner = top
    for _ in range(depth):
        deeper: list[object] = []
        inner.append(deeper)
        inner = deeper
    inner.append(2000.0)
    return top


def _nested_tuple(depth: int) -> tuple[object, ...]:
    value: tuple[object, ...] = (2000.0,)
    for _ in range(depth):
        value = (value,)
    return value


def _self_holding() -> list[object]:
    loop: list[object] = [2000.0]
    loop.append(loop)
    return loop


HOSTILE: dict[str, Callable[[], object]] = {
    "a list 100,000 deep (xlwings)": lambda: _nested_list(DEPTH),
    "a tuple 100,000 deep (LibreOffice)": lambda: _nested_tuple(DEPTH),
    "a list that holds itself": _self_holding,
    "an integer of 5,000 digits": lambda: 10**4999,
    "a negative integer of 5,000 digits": lambda: -(10**4999),
    "5,000 digits as text": lambda: "9" * 5000,
    "a fraction of 5,000 digits": lambda: Fraction(10**4999, 3),
}


def _libreoffice(value: object) -> object:
    """A value as the Calc add-in hands it over: ranges as tuples."""
    return tuple(value) if isinstance(value, list) else value


@pytest.mark.parametrize("what", list(HOSTILE))
def test_every_argument_of_every_function_answers_in_words(what: str) -> None:
    value = HOSTILE[what]()
    for fn in REGISTRY:
        for at, param in enumerate(fn.params):
            args: list[object] = [2000.0] * len(fn.params)
            args[at] = value
            xlwings = getattr(excel, fn.name)(*args)  # as Excel calls the xlwings function
            calc = call(BY_NAME[fn.name], *map(_libreoffice, args))  # as the .oxt does
            for out in (xlwings, calc):
                if isinstance(out, str) and out.startswith(PREFIX):
                    assert len(out) < 200 and "Error" not in out and "\n" not in out, out
                else:  # a figure only where the bad value is no argument of the figure
                    assert not isinstance(value, list | tuple) or param.kind != "range", out


MESSAGES = {
    "a list 100,000 deep (xlwings)": "opponents: expected a cell or a range (rows of cells), got "
    "ranges nested more than 2 deep",
    "a tuple 100,000 deep (LibreOffice)": "opponents: expected a cell or a range (rows of "
    "cells), got ranges nested more than 2 deep",
    "a list that holds itself": "opponents: expected a cell or a range",
    "an integer of 5,000 digits": "opponents: expected a whole-number rating from 1 to 4000, "
    "got a number of 5000 digits",
}


@pytest.mark.parametrize("what", list(MESSAGES))
def test_the_message_names_the_argument(what: str) -> None:
    value = HOSTILE[what]()
    out = call("FIDE_EXPECT", 2000.0, value)
    assert isinstance(out, str) and out.startswith(f"{PREFIX} {MESSAGES[what]}"), out
    with pytest.raises(FideCellError, match="opponents: expected"):  # xlwings Lite raises it
        call_raising("FIDE_EXPECT", 2000.0, value)


def test_a_huge_date_serial_is_no_overflow() -> None:
    assert call("FIDE_DP", 0.5, 10**4999) == (
        f"{PREFIX} edition: expected a date, got a number of 5000 digits"
    )


def test_ranges_as_deep_as_hosts_pass_them_still_work() -> None:
    """Both sides of the depth limit: rows of cells (2 deep) are a range, 3 deep is refused."""
    rows = [[1600.0, 1700.0], [1800.0, 1900.0]]
    one_by_one = sum(call("FIDE_EXPECT", 2000.0, r) for row in rows for r in row)  # type: ignore[misc]
    for given in (rows, tuple(map(tuple, rows)), [[r for row in rows for r in row]]):
        assert call("FIDE_EXPECT", 2000.0, given) == pytest.approx(one_by_one, abs=1e-9)
    assert cells([[[1.0]]][0]) == [1.0]
    with pytest.raises(RangeError):
        cells([[[1.0]]])
    assert DEEPEST == 2
