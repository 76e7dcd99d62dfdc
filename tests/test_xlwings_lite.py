"""xlwings Lite, proven in real Pyodide: the ``build-lite`` bundle is loaded under node (npm
``pyodide``) with xlwings' pure-Python wheel from PyPI, its custom-functions metadata is held
to Office.js' rules, and every call, shaped as Office.js hands it over, is compared value by
value with the same call in CPython. Set up by scripts/test.sh (npm ci, the wheel); runs in CI.
"""

from __future__ import annotations

import ast
import base64
import io
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import xlwings

from fide_rating.cells import PREFIX, REGISTRY
from fide_rating.cells.lite import bundle
from host_cases import CASES, OMIT, Arg, Date, Err, serial

HERE = Path(__file__).parent
LITE = HERE / "hosts" / "lite"
DRIVER = HERE / "hosts" / "lite_driver.py"
WHEELS = HERE.parent / ".cache" / "wheels"
RELEASE = HERE.parent / "release" / "xlwings-lite" / "main.py"
WHEEL = WHEELS / f"xlwings-{xlwings.__version__}-py3-none-any.whl"
ENV = {"XLWINGS_ON_SERVER": "true", "XLWINGS_LICENSE_KEY": "noncommercial"}

# Office.js' error types (Excel.ErrorCellValueType) for the error cells of the cases
ERROR_TYPES = {"#N/A": "NotAvailable", "#VALUE!": "Value", "#REF!": "Ref", "#DIV/0!": "Div0",
               "#NUM!": "Num", "#NAME?": "Name", "#NULL!": "Null"}  # fmt: skip


def _cell(value: object) -> object:
    """A cell as Office.js passes it: null for a blank, a date as its serial number, an
    error as an error object."""
    if isinstance(value, Date):
        return serial(value.day)
    if isinstance(value, Err):
        return {"type": "Error", "basicType": "Error", "basicValue": value.code,
                "errorType": ERROR_TYPES[value.code]}  # fmt: skip
    return value


def officejs(arg: Arg) -> object:
    """An argument as Office.js passes it to a matrix parameter (xlwings declares them all so):
    a 2-D array, a single value as [[value]], an omitted argument as null."""
    if arg is OMIT:
        return None
    if isinstance(arg, list):
        return [[_cell(c) for c in line] for line in arg]
    return [[_cell(arg)]]


def _missing(what: str) -> None:
    message = f"{what}: run bash scripts/test.sh once (it sets up the xlwings Lite test)"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@cache
def runs(tmp: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The driver's output in Pyodide and in CPython."""
    # the file users take (release/xlwings-lite/main.py), which must be the current bundle
    assert RELEASE.read_text(encoding="utf-8") == bundle(), (
        "run python -m fide_rating.cells.generate"
    )
    shutil.copyfile(RELEASE, tmp / "main.py")
    cases = tmp / "cases.json"
    cases.write_text(json.dumps([[n, [officejs(a) for a in args]] for n, args in CASES]))
    node = subprocess.run(
        ["node", str(LITE / "run.mjs"), str(WHEEL), str(tmp / "main.py"), str(DRIVER),
         str(cases)],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert node.returncode == 0, node.stderr[-3000:]
    cpython = subprocess.run(
        [sys.executable, str(DRIVER), str(tmp)],
        input=cases.read_text(),
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **ENV},
    )
    assert cpython.returncode == 0, cpython.stderr[-3000:]
    return json.loads(node.stdout), json.loads(cpython.stdout)


@pytest.fixture(scope="module")
def lite(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    if shutil.which("node") is None:
        _missing("node is not installed")
    if not (LITE / "node_modules" / "pyodide").is_dir():
        _missing("the npm package pyodide is not installed in tests/hosts/lite")
    if not WHEEL.exists():
        _missing(f"{WHEEL.name} is not downloaded")
    return runs(tmp_path_factory.mktemp("lite"))


def test_it_really_ran_in_pyodide(lite: tuple[dict[str, Any], dict[str, Any]]) -> None:
    pyodide, cpython = lite
    assert pyodide["platform"] == "emscripten" and cpython["platform"] != "emscripten"
    assert pyodide["xlwings"] == cpython["xlwings"] == xlwings.__version__


def test_metadata_keeps_office_js_rules(lite: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """Custom functions' JSON metadata: ids A-Z, 0-9, _ and . from a letter, 3 characters at
    least, unique; names the same and not a cell address; parameters named, unique, optional
    ones last; only the documented dimensionalities and types."""
    meta = lite[0]["meta"]
    assert meta == lite[1]["meta"]
    functions = meta["functions"]
    assert {f["id"] for f in functions} == {f.name for f in REGISTRY}
    assert len({f["id"] for f in functions}) == len(functions)
    for f in functions:
        for key in ("id", "name"):
            assert re.fullmatch(r"[A-Z][A-Z0-9_.]{2,}", f[key]), f[key]
            assert not re.fullmatch(r"[A-Z]{1,3}[0-9]+|R[0-9]+C[0-9]+", f[key])
        assert 0 < len(f["description"]) <= 255
        assert f["result"]["dimensionality"] in ("scalar", "matrix")
        assert f["result"]["type"] in ("boolean", "number", "string", "any")
        names = [p["name"] for p in f["parameters"]]
        assert len(set(names)) == len(names) and all(re.fullmatch(r"[a-z_][a-z0-9_]*", n)
                                                     for n in names)  # fmt: skip
        optional = [bool(p.get("optional")) for p in f["parameters"]]
        assert optional == sorted(optional), f"{f['id']}: an optional parameter before a required"
        for p in f["parameters"]:
            assert p["dimensionality"] in ("scalar", "matrix") and p["type"] in (
                "boolean", "number", "string", "any")  # fmt: skip


def test_every_call_agrees_with_cpython(lite: tuple[dict[str, Any], dict[str, Any]]) -> None:
    pyodide, cpython = lite
    assert len(pyodide["results"]) == len(cpython["results"]) == len(CASES)
    assert {name for name, _ in CASES} == {f.name for f in REGISTRY}
    for (name, args), got, want in zip(CASES, pyodide["results"], cpython["results"],
                                       strict=True):  # fmt: skip
        value = want["value"][0][0]
        if isinstance(value, str) and value.startswith(PREFIX):
            # CPython returns the text; Pyodide raises it, which Lite shows as #VALUE! with the
            # message on hover: an error dependent formulas see, never a number
            assert got == {"error": value, "type": "FideCellError"}, (name, args)
        else:
            assert got == want, (name, args)


def test_errors_are_raised_never_returned(lite: tuple[dict[str, Any], dict[str, Any]]) -> None:
    errors = [r for r in lite[0]["results"] if "error" in r]
    assert len(errors) >= 10
    for r in lite[0]["results"]:
        if "value" in r:
            assert not str(r["value"][0][0]).startswith(PREFIX)


def outside_imports(source: str) -> set[str]:
    """The top-level packages a module imports that Lite does not provide: neither the
    standard library nor xlwings nor the bundle's own fide_rating (relative imports are)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - {"xlwings", "fide_rating", "__future__"}


def test_the_bundle_needs_no_requirements() -> None:
    """The README's "requirements.txt: nothing needs adding": main.py and every module it
    carries import only the standard library, xlwings and each other."""
    tree = ast.parse(RELEASE.read_text(encoding="utf-8"))
    [code] = [ast.literal_eval(n.value) for n in tree.body
              if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "_CODE"]  # fmt: skip
    assert outside_imports(RELEASE.read_text(encoding="utf-8")) == set()
    with zipfile.ZipFile(io.BytesIO(base64.b64decode(code))) as z:
        modules = [n for n in z.namelist() if n.endswith(".py")]
        assert "fide_rating/excel.py" in modules and len(modules) > 10
        for name in modules:
            assert outside_imports(z.read(name).decode("utf-8")) == set(), name
    assert outside_imports("import numpy\nfrom pandas import DataFrame\n") == {"numpy", "pandas"}
    readme = (HERE.parent / "README.md").read_text(encoding="utf-8")
    lite = readme[readme.index("### Excel with xlwings Lite") :].split("\n### ", 1)[0]
    assert "`requirements.txt`: leave it as it\n   is; nothing needs adding" in lite
    assert "[`release/xlwings-lite/main.py`](release/xlwings-lite/main.py)" in lite
