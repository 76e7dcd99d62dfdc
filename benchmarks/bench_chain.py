"""Benchmark: `fide-rating recalc` of one long chain of formulas against LibreOffice headless.

A column of ``--cells`` formulas (1,000,000 by default), each the cell above plus one, filled
down as Excel saves a filled-down column (one shared formula): every formula waits on the one
before it, the worst case for a recalculation. Prints the time of each (ours: read, compute,
write the package; LibreOffice: load, recalculate, store, in one soffice started beforehand),
and our memory per formula (the peak resident size of a fresh process computing it, less that
of the same process before it read anything).

    python benchmarks/bench_chain.py [--cells 1000000] [--no-libreoffice]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
_R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'


def chain_workbook(path: Path, cells: int) -> Path:
    """A workbook whose column A is 1, then =A1+1, =A2+1 ... (one shared formula)."""
    rows = ['<row r="1"><c r="A1"><v>1</v></c></row>',
            f'<row r="2"><c r="A2"><f t="shared" ref="A2:A{cells + 1}" si="0">A1+1</f>'
            "<v>0</v></c></row>"]  # fmt: skip
    rows += [f'<row r="{r}"><c r="A{r}"><f t="shared" si="0"/><v>0</v></c></row>'
             for r in range(3, cells + 2)]  # fmt: skip
    sheet = f"<worksheet {_NS}><sheetData>{''.join(rows)}</sheetData></worksheet>"
    parts = {
        "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/'
        'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-'
        'package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/'
        'sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.'
        'worksheet+xml"/></Types>',
        "_rels/.rels": '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
        'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
        'officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
        "</Relationships>",
        "xl/workbook.xml": f'<workbook {_NS} {_R}><sheets><sheet name="Chain" sheetId="1" '
        'r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": '<Relationships xmlns="http://schemas.openxmlformats.org/'
        'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.'
        'openxmlformats.org/officeDocument/2006/relationships/worksheet" '
        'Target="worksheets/sheet1.xml"/></Relationships>',
        "xl/worksheets/sheet1.xml": sheet,
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in parts.items():
            z.writestr(name, text)
    return path


# The peak is the process's own high-water mark (VmHWM, Linux): ru_maxrss would start at the
# parent's resident size (Linux keeps it across exec), and this parent held the whole workbook
_MEASURE = """
import json, resource, sys, time
from pathlib import Path
def peak_kib():
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
from fide_rating.engine.recalc import recalc_file
loaded = peak_kib()
start = time.perf_counter()
out = recalc_file(Path(sys.argv[1]), output=Path(sys.argv[2]), force=True)
seconds = time.perf_counter() - start
peak = peak_kib()
print(json.dumps({"seconds": seconds, "kib": peak - loaded, "computed": out.computed,
                  "last": out.values[("Chain", out.computed + 1, 1)]}))
"""


def ours(path: Path, out: Path) -> dict[str, float]:
    """Recompute in a fresh process (its peak memory is the chain's alone)."""
    done = subprocess.run([sys.executable, "-c", _MEASURE, str(path), str(out)],
                          capture_output=True, text=True, check=True)  # fmt: skip
    found: dict[str, float] = json.loads(done.stdout)
    return found


def libreoffice(path: Path, out: Path, work: Path) -> float | None:
    try:
        from fide_rating.cells.calc.office import Office
    except ImportError:
        return None
    with Office(work / "profile") as office:
        start = time.perf_counter()
        doc = office.open(path)
        doc.calculateAll()
        office.store(doc, out, "Calc MS Excel 2007 XML")
        doc.close(True)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=1_000_000)
    parser.add_argument("--no-libreoffice", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fide-chain-") as tmp:
        work = Path(tmp)
        path = chain_workbook(work / "chain.xlsx", args.cells)
        got = ours(path, work / "ours.xlsx")
        assert got["computed"] == args.cells and got["last"] == args.cells + 1, got
        per_formula = got["kib"] * 1024 / args.cells
        print(f"{args.cells:,} formulas in a chain")
        each = 1e6 * got["seconds"] / args.cells
        print(
            f"fide-rating recalc   {got['seconds']:8.2f} s  {each:6.2f} us a formula, "
            f"{per_formula:5.0f} bytes a formula (peak)"
        )
        if not args.no_libreoffice:
            try:
                t_lo = libreoffice(path, work / "lo.xlsx", work)
            except Exception as error:  # no LibreOffice here: report, keep our figures
                print(f"LibreOffice not measured: {error}", file=sys.stderr)
                t_lo = None
            if t_lo is not None:
                print(
                    f"LibreOffice headless {t_lo:8.2f} s  {1e6 * t_lo / args.cells:6.2f} us a "
                    f"formula: fide-rating at {t_lo / got['seconds']:.2f}x its speed"
                )


if __name__ == "__main__":
    main()
