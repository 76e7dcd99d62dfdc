"""Workbook cells that call every spreadsheet function with normal and bad inputs, and what the
Python library gives for the same values (as LibreOffice and Excel pass them)."""

from __future__ import annotations

import datetime as dt

from openpyxl import Workbook

from fide_rating.cells import call

OPP = [1063, 1299, 1413, 1872, 1851, 1427, 1682]
DATA: dict[str, list[object]] = {
    "A": [float(o) for o in OPP],
    "B": [1.0, 1.0, 1.0, 0.5, 0.0, 1.0, 1.0],
    "C": ["1", 1.0, "1", "½", 0.0, "+", "="],
    "D": [1.0, 1.0, "2", 0.5, 0.0, 1.0, 1.0],
    "E": [1902.0, 1877.0, 1884.0, 2012.0, 1832.0],
    "F": ["½", 0.5, 1.0, 0.0, 1.0],
    "G": [dt.datetime(2023, 6, 1)],
    "H": [2300.0, None, 2300.0, 0.0],
}
SERIAL = {dt.datetime(2023, 6, 1): 45078.0}


def col(letter: str, rows: int | None = None) -> tuple[tuple[object, ...], ...]:
    """A column range as LibreOffice passes it: rows of one cell, blanks as empty text."""
    values = DATA[letter][:rows] if rows else DATA[letter]
    return tuple((_passed(v),) for v in values)


def _passed(value: object) -> object:
    """A cell value as LibreOffice hands it to an add-in: blank as "", a date as its serial."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return SERIAL[value]
    return value


def rng(letter: str, rows: int | None = None) -> str:
    n = rows or len(DATA[letter])
    return f"Data!{letter}1:{letter}{n}"


# (formula as in an .xlsx, the function and the arguments the Python side receives)
CASES: list[tuple[str, tuple[object, ...]]] = [
    ('FIDE_EXPECT(2600,2500,,"2012-07")', ("FIDE_EXPECT", 2600.0, 2500.0, None, "2012-07")),
    (f"FIDE_EXPECT(2000,{rng('A')})", ("FIDE_EXPECT", 2000.0, col("A"))),
    (
        f'FIDE_EXPECT(2000,{rng("A")},{rng("C")},"2022-01")',
        ("FIDE_EXPECT", 2000.0, col("A"), col("C"), "2022-01"),
    ),
    (
        f'FIDE_CHANGE(2000,{rng("A")},{rng("B")},20,"2022-01")',
        ("FIDE_CHANGE", 2000.0, col("A"), col("B"), 20.0, "2022-01"),
    ),
    (
        f"FIDE_CHANGE(2000,{rng('A')},{rng('C')},20,Data!G1)",
        ("FIDE_CHANGE", 2000.0, col("A"), col("C"), 20.0, 45078.0),
    ),
    (
        f"FIDE_CHANGE(2000,{rng('A')},{rng('D')},20)",
        ("FIDE_CHANGE", 2000.0, col("A"), col("D"), 20.0),
    ),
    (
        f"FIDE_CHANGE(2000,{rng('A')},{rng('B', 6)},20)",
        ("FIDE_CHANGE", 2000.0, col("A"), col("B", 6), 20.0),
    ),
    (
        f"FIDE_CHANGE(2000.5,{rng('A')},{rng('B')},20)",
        ("FIDE_CHANGE", 2000.5, col("A"), col("B"), 20.0),
    ),
    (f"FIDE_CHANGE(2000,{rng('A')},{rng('B')})", ("FIDE_CHANGE", 2000.0, col("A"), col("B"))),
    (
        f'FIDE_CHANGE(2000,{rng("A")},{rng("B")},20,"2023-01")',
        ("FIDE_CHANGE", 2000.0, col("A"), col("B"), 20.0, "2023-01"),
    ),
    ("FIDE_DP(0.8)", ("FIDE_DP", 0.8)),
    ("FIDE_DP(1.5)", ("FIDE_DP", 1.5)),
    ('FIDE_DP(1,"2005-07")', ("FIDE_DP", 1.0, "2005-07")),
    (
        f'FIDE_INITIAL({rng("E")},{rng("F")},"2024-03")',
        ("FIDE_INITIAL", col("E"), col("F"), "2024-03"),
    ),
    (f"FIDE_INITIAL({rng('E', 3)},{rng('F', 3)})", ("FIDE_INITIAL", col("E", 3), col("F", 3))),
    (
        f'FIDE_INITIAL({rng("E")},{rng("F")},"2012-07",TRUE())',
        ("FIDE_INITIAL", col("E"), col("F"), "2012-07", 1.0),
    ),
    (
        'FIDE_K(2100,12,2008,FALSE(),39,"2025-05-01")',
        ("FIDE_K", 2100.0, 12.0, 2008.0, 0.0, 39.0, "2025-05-01"),
    ),
    ("FIDE_K(2450,50,1990,TRUE())", ("FIDE_K", 2450.0, 50.0, 1990.0, 1.0)),
    ('FIDE_K(2000,10,1990,"maybe")', ("FIDE_K", 2000.0, 10.0, 1990.0, "maybe")),
    (f"FIDE_PERF({rng('H')},{rng('B', 4)})", ("FIDE_PERF", col("H"), col("B", 4))),
    ("FIDE_ROUND(-2.5)", ("FIDE_ROUND", -2.5)),
    ("FIDE_ROUND(2.5)", ("FIDE_ROUND", 2.5)),
    ('FIDE_ROUND("abc")', ("FIDE_ROUND", "abc")),
    ("FIDE_ADJUST2024(1500)", ("FIDE_ADJUST2024", 1500.0)),
    ("FIDE_ADJUST2024(5000)", ("FIDE_ADJUST2024", 5000.0)),
    ("FIDE_EDITION()", ("FIDE_EDITION",)),
    ("FIDE_EDITION(Data!G1)", ("FIDE_EDITION", 45078.0)),
    ('FIDE_EDITION("soon")', ("FIDE_EDITION", "soon")),
]


def expected() -> list[object]:
    """What the Python library gives for each case, as a cell shows it."""
    out: list[object] = []
    for _, (name, *args) in CASES:
        value = call(str(name), *args)
        out.append(float(value) if isinstance(value, int) else value)
    return out


def workbook() -> Workbook:
    """Sheet "Calc" column A: the cases; sheet "Data": the ranges they use."""
    wb = Workbook()
    calc = wb.active
    assert calc is not None
    calc.title = "Calc"
    data = wb.create_sheet("Data")
    for letter, values in DATA.items():
        for row, value in enumerate(values, start=1):
            if value is not None:
                data[f"{letter}{row}"] = value
    for row, (formula, _) in enumerate(CASES, start=1):
        calc[f"A{row}"] = f"={formula}"
    return wb
