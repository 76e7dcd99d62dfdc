"""Benchmark: `fide-rating recalc` of array formulas over the whole columns of a large table.

A dashboard's shape: an Excel table of ``--rows`` rows (30,000 by default) with text, number
and date columns, and about fifty array formulas over its whole columns (COUNT and MEDIAN of
IF over products of comparisons and ISNUMBER(SEARCH(...)), UNIQUE, SORT, FILTER, COUNTIFS and
SUMIFS with array criteria, SUMPRODUCT, XLOOKUP, LET). Prints the seconds ``recalc`` takes
(read, compute, write: the processor time of this process, the machine's other work left
out, and by the clock), the formula cells, and the column elements they go through a second
(each formula's table rows, once for every whole column it reads). With ``--by-kind`` each
kind of formula is also timed in a workbook of its own (the table alone timed first).

    python benchmarks/bench_arrays.py [--rows 30000] [--by-kind]
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import re
import tempfile
import time
from pathlib import Path

from openpyxl import Workbook
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.formula import ArrayFormula
from openpyxl.worksheet.table import Table

from fide_rating.engine.recalc import recalc_file

TITLES = ("Data Analyst", "Data Engineer", "Data Scientist", "Business Analyst",
          "Software Engineer", "Machine Learning Engineer", "Senior Data Analyst",
          "Senior Data Engineer", "Senior Data Scientist", "Cloud Engineer")  # fmt: skip
SCHEDULES = ("Full-time", "Contractor", "Part-time", "Internship", "Temp work",
             "Full-time and Part-time", "Full-time and Temp work", "Contractor and Temp work",
             "Per diem", "Volunteer")  # fmt: skip
COUNTRIES = tuple(f"Country {i:03d}" for i in range(40))
VIAS = tuple(f"via Board {i:03d}" for i in range(500))
COLUMNS = ("title", "schedule", "country", "via", "salary", "posted", "remote")
_T = "jobs"


def _cond(row: int) -> str:
    return (f"(jobs[title]=A{row})*(jobs[salary]<>0)*(jobs[country]=country)"
            f"*(ISNUMBER(SEARCH(type,jobs[schedule])))")  # fmt: skip


# (kind, where, formula, its spill range or None); A2:A11 hold the titles
FORMULAS: list[tuple[str, str, str, str | None]] = [
    *[
        ("count-if-search", f"B{r}", f"COUNT(IF({_cond(r)},jobs[salary]))", None)
        for r in range(2, 12)
    ],
    *[
        ("median-if-search", f"C{r}", f"MEDIAN(IF({_cond(r)},jobs[salary]))", None)
        for r in range(2, 12)
    ],
    ("search", "E2", 'SUM(--ISNUMBER(SEARCH("time",jobs[schedule])))', None),
    ("search", "E3", 'SUM(--ISNUMBER(SEARCH("data*an",jobs[title])))', None),
    ("search", "E4", 'SUM(--ISNUMBER(FIND("Data",jobs[title])))', None),
    ("search", "E5", 'SUM(--NOT(ISNUMBER(SEARCH("and",jobs[schedule]))))', None),
    ("countifs", "F2", 'COUNTIFS(jobs[title],"Data*",jobs[salary],">50000")', None),
    ("countifs", "F3", 'SUM(COUNTIFS(jobs[schedule],{"Full-time","Contractor"}))', None),
    ("countifs", "F4", 'SUM(SUMIFS(jobs[salary],jobs[title],{"Data*";"*Engineer"}))', None),
    ("countifs", "F5", 'AVERAGEIFS(jobs[salary],jobs[remote],TRUE,jobs[posted],">=45000")', None),
    ("countifs", "F6", "SUM(COUNTIF(jobs[title],A2:A11))", None),
    # a salary histogram: counts of bands, each two ordering criteria on numbers
    *[
        (
            "bands",
            f"Q{r}",
            f'COUNTIFS(jobs[salary],">="&{r * 10000},jobs[salary],"<"&{(r + 1) * 10000})',
            None,
        )
        for r in range(2, 12)
    ],
    ("if", "G2", "SUM(IF(jobs[salary]>50000,jobs[salary]))", None),
    ("if", "G3", "SUM(IF(jobs[remote],1,0))", None),
    ("if", "G4", "MAX(IF(jobs[country]=country,jobs[posted]))", None),
    ("if", "G5", "SUM(IF(ISNUMBER(jobs[salary]),jobs[salary],0))", None),
    ("sumproduct", "H2", 'SUMPRODUCT((jobs[title]="Data Analyst")*(jobs[salary]))', None),
    ("sumproduct", "H3", "SUMPRODUCT((jobs[salary]>50000)*(jobs[posted]>45000))", None),
    ("sumproduct", "H4", "SUMPRODUCT(--(LEN(jobs[via])>12))", None),
    ("sumproduct", "H5", "SUMPRODUCT(ABS(jobs[salary]-100000))", None),
    ("let", "I2", "LET(s,jobs[salary],k,s>50000,SUM(IF(k,s))/SUM(--k))", None),
    ("let", "I3", 'LET(t,jobs[title],n,SUM(--ISNUMBER(SEARCH("Engineer",t))),n/ROWS(t))', None),
    ("let", "I4", "LET(d,jobs[posted],MAX(d)-MIN(IF(d>0,d)))", None),
    ("lookup", "J2", 'XLOOKUP("Country 032",jobs[country],jobs[salary],"none")', None),
    ("lookup", "J3", 'XLOOKUP(1,(jobs[title]="Cloud Engineer")*(jobs[remote]),jobs[via])', None),
    ("lookup", "J4", 'MATCH("senior*",jobs[title],0)', None),
    ("lookup", "J5", "INDEX(jobs[via],MATCH(MAX(jobs[salary]),jobs[salary],0))", None),
    ("lookup", "J6", "SUM(--(jobs[via]=UPPER(jobs[via])))", None),
    ("dynamic", "L2", "UNIQUE(jobs[title])", "L2:L11"),
    ("dynamic", "M2", "SORT(UNIQUE(jobs[schedule]))", "M2:M11"),
    ("dynamic", "N2", "ROWS(UNIQUE(jobs[via]))", None),
    ("dynamic", "N3", "SUM(FILTER(jobs[salary],jobs[salary]>50000))", None),
    ("dynamic", "N4", 'ROWS(FILTER(jobs[title],ISNUMBER(SEARCH("senior",jobs[title]))))', None),
    ("dynamic", "N5", "COUNTA(UNIQUE(FILTER(jobs[country],jobs[remote])))", None),
    ("dynamic", "O2", 'TAKE(SORT(FILTER(jobs[salary],jobs[title]="Data Analyst"),,-1),5)', "O2:O6"),
    ("dynamic", "P2", 'SUM(--(TEXT(jobs[posted],"yyyy")="2023"))', None),
    ("dynamic", "P3", "SUM(--(YEAR(jobs[posted])=2024))", None),
    ("dynamic", "P4", 'SUM(--(LEFT(jobs[via],9)="via Board"))', None),
]

_PREFIX = {"UNIQUE": "_xlfn.UNIQUE", "SORT": "_xlfn._xlws.SORT", "FILTER": "_xlfn._xlws.FILTER",
           "XLOOKUP": "_xlfn.XLOOKUP", "LET": "_xlfn.LET", "TAKE": "_xlfn.TAKE"}  # fmt: skip
_FUNCTION = re.compile(r"\b(UNIQUE|SORT|FILTER|XLOOKUP|LET|TAKE)\(")


def _saved(formula: str) -> str:
    """A formula as Excel saves it: its newer functions with their prefixes, LET's names too."""
    text = _FUNCTION.sub(lambda m: _PREFIX[m.group(1)] + "(", formula)
    if "LET(" in text:
        text = re.sub(r"(?<=[(,])([a-z])(?=[,)>*/-])", r"_xlpm.\1", text)
    return text


def build(path: Path, rows: int, kinds: set[str] | None = None) -> tuple[int, int]:
    """The workbook at ``path``: the table on one sheet, the formulas (of ``kinds``, or all)
    on another. Its formula cells and the column elements they read."""
    rnd = random.Random(1)
    wb = Workbook()
    data = wb.active
    assert data is not None
    data.title = "Data"
    data.append(list(COLUMNS))
    first = dt.date(2022, 1, 1)
    for _ in range(rows):
        salary = rnd.choice((None, 0, rnd.randint(30000, 250000), rnd.randint(30000, 250000)))
        data.append([rnd.choice(TITLES), rnd.choice(SCHEDULES), rnd.choice(COUNTRIES),
                     rnd.choice(VIAS), salary, first + dt.timedelta(days=rnd.randint(0, 1000)),
                     rnd.random() < 0.3])  # fmt: skip
    table = Table(displayName=_T, ref=f"A1:G{rows + 1}")
    data.add_table(table)
    sheet = wb.create_sheet("Dashboard")
    for i, title in enumerate(TITLES):
        sheet.cell(i + 2, 1, title)
    sheet["R1"], sheet["R2"] = "Country 007", "Full-time"
    wb.defined_names["country"] = DefinedName("country", attr_text="Dashboard!$R$1")
    wb.defined_names["type"] = DefinedName("type", attr_text="Dashboard!$R$2")
    cells = elements = 0
    for kind, where, formula, spill in FORMULAS:
        if kinds is not None and kind not in kinds:
            continue
        sheet[where] = ArrayFormula(spill or where, "=" + _saved(formula))
        cells += 1
        elements += rows * max(1, formula.count("jobs["))
    wb.save(path)
    return cells, elements


def timed(path: Path, out: Path) -> tuple[float, float, int, int]:
    """Seconds of processor time to recompute (this process's: the machine's other work
    left out), seconds of the clock, the formula cells and those computed."""
    start, clock = time.process_time(), time.perf_counter()
    done = recalc_file(path, output=out, force=True)
    return (time.process_time() - start, time.perf_counter() - clock, done.formulas,
            done.computed)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=30000)
    parser.add_argument("--by-kind", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fide-bench-") as tmp:
        work = Path(tmp)
        whole = work / "arrays.xlsx"
        cells, elements = build(whole, args.rows)
        seconds, clock, formulas, computed = timed(whole, work / "out.xlsx")
        print(f"{args.rows:,} rows, {cells} array formulas ({formulas} formula cells, "
              f"{computed} computed): {seconds:.2f} s of processor time ({clock:.2f} s by "
              f"the clock), {elements / seconds / 1e6:.2f} million column elements a "
              "second")  # fmt: skip
        if args.by_kind:
            alone = work / "table.xlsx"
            build(alone, args.rows, set())
            base, _, _, _ = timed(alone, work / "out-table.xlsx")
            print(f"{'the table alone':<20} {base:8.2f} s")
            for kind in dict.fromkeys(k for k, *_ in FORMULAS):
                path = work / f"{kind}.xlsx"
                n, els = build(path, args.rows, {kind})
                t, _, _, _ = timed(path, work / f"out-{kind}.xlsx")
                rate = els / max(t - base, 1e-9) / 1e6
                print(f"{kind:<20} {t:8.2f} s  {n:3d} formulas  "
                      f"{rate:8.2f} million elements a second beyond the table")  # fmt: skip


if __name__ == "__main__":
    main()
