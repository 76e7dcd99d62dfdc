"""Classic xlwings on Linux: its real UDF code (VBA generation, import, conversion, call) with
only the Windows modules (pywin32, ctypes' windll) stubbed.

Run as a script by tests/test_xlwings_classic.py: reads the calls as JSON on stdin, prints
the VBA module that ``Import Functions`` writes, the ``MacroOptions`` calls it makes, and what
each call returns to Excel.
"""

from __future__ import annotations

import contextlib
import ctypes
import datetime as dt
import json
import sys
import types
from pathlib import Path
from typing import Any
from unittest import mock

# mypy: disable-error-code="no-untyped-call,assignment,misc"


class _Windows(types.ModuleType):
    """A stand-in for a pywin32 module: every attribute is a mock."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return mock.MagicMock(name=f"{self.__name__}.{name}")


class TimeType(dt.datetime):
    """pywin32's COM date (a datetime subclass): how Excel's dates arrive."""


for _name in ("pywintypes", "pythoncom", "win32api", "win32con", "win32gui", "win32process",
              "win32timezone", "win32event", "win32com", "win32com.client",
              "win32com.client.gencache", "win32com.client.dynamic", "win32com.server",
              "win32com.server.dispatcher", "win32com.server.policy",
              "win32com.server.util"):  # fmt: skip
    sys.modules[_name] = _Windows(_name)
sys.modules["pywintypes"].TimeType = TimeType  # type: ignore[attr-defined]
sys.modules["pythoncom"].__file__ = "pythoncom.pyd"
ctypes.windll = ctypes.oledll = mock.MagicMock(name="ctypes.windll")  # type: ignore[attr-defined]
_pydll = ctypes.PyDLL
ctypes.PyDLL = lambda name, *a, **k: (
    mock.MagicMock() if name == "pythoncom.pyd" else _pydll(name, *a, **k)
)

import xlwings  # noqa: E402
import xlwings._xlwindows as xlwindows  # noqa: E402
from xlwings import udfs  # noqa: E402

# what xlwings' own __init__ does on Windows: the COM engine and the classic decorators
xlwings.engines.add(xlwings.main.Engine(impl=xlwindows.engine))
xlwings.func, xlwings.arg, xlwings.ret = udfs.xlfunc, udfs.xlarg, udfs.xlret
sys.modules["xlwings.com_server"] = types.SimpleNamespace(loop=None)

MODULE = "fide_rating.excel"  # what the README tells users to enter as UDF module
MISSING = -2147352572  # an omitted argument (VT_ERROR DISP_E_PARAMNOTFOUND)
ERRORS = {code: number for number, code in xlwindows.cell_errors.items()}


def com(value: Any) -> Any:
    """A JSON case argument as COM hands it to Python."""
    if isinstance(value, list):
        return tuple(tuple(com(c) for c in line) for line in value)
    if isinstance(value, dict):
        if "omit" in value:
            return MISSING
        if "date" in value:
            day = dt.date.fromisoformat(value["date"])
            return TimeType(day.year, day.month, day.day)
        return ERRORS[value["error"]]
    return value


def main() -> None:
    cases = json.load(sys.stdin)
    # xlwings' own import of the UDF module (importlib, by the name typed in UDF Modules); no
    # workbook handle, which it would only search for code embedded in sheets
    load = udfs.get_udf_module
    udfs.get_udf_module = lambda name, book: load(name, None)
    workbook = mock.MagicMock(name="Workbook")
    workbook.Name = "Book1.xlsm"
    workbook.Application.Version = "16.0"
    vba: list[str] = []

    def imported(path: str) -> None:
        vba.append(Path(path).read_text())

    workbook.VBProject.VBComponents.Import.side_effect = imported
    with contextlib.redirect_stdout(sys.stderr):  # it prints what it imported
        udfs.import_udfs(MODULE, workbook)
    options = [dict(c.kwargs) for c in workbook.Application.MacroOptions.call_args_list]
    results = []
    for name, args in cases:
        out = udfs.call_udf(MODULE, name, tuple(com(a) for a in args), None, None)
        results.append(out)
    module = udfs.udf_modules[MODULE]["module"]
    json.dump({"vba": vba[0], "macro_options": options, "results": results,
               "module": module.__name__, "file": module.__file__}, sys.stdout)  # fmt: skip


if __name__ == "__main__":
    main()
