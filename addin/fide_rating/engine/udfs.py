"""The workbook's own xlwings functions (user-defined functions), from the Python modules the
user names: a cell that calls one is computed as classic xlwings computes it in Excel.

Only the files named are imported (never a module found beside a workbook). Their
``@xw.func``, ``@xw.arg``, ``@xw.ret`` and ``@xw.sub`` are, while each file is imported,
classic xlwings' decorators (:func:`func` and its kin: the metadata ``__xlfunc__`` of
``xlwings/udfs.py``, which imports only on Windows; elsewhere xlwings' own decorators leave a
function bare). A call goes as ``xlwings.udfs.call_udf`` takes it, with what Excel hands a
classic function through COM: numbers as float, texts, logicals, a blank or an error cell as
None, a date-formatted cell as a datetime, a range as a tuple of rows; each argument then
through xlwings' converters (``xlwings.conversion.read``: ndim, transpose, dates, empty,
numbers, dict, numpy and pandas), the result through ``xlwings.conversion.write`` into one
value or an array. A function that raises gives its cell a short error text and a line in the
report; what only Excel has (the calling range, Excel's objects, ``xw.Book.caller()``) leaves
the cell not computed, with the reason.

May import: :mod:`fide_rating.engine.formula`, :mod:`fide_rating.engine.package`,
:mod:`fide_rating.files`, the rules core's errors, the standard library and, when modules
are named, xlwings.
"""

from __future__ import annotations

import datetime as _dt
import html
import inspect
import math
import re
import sys
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, redirect_stdout
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, get_args, get_origin, get_type_hints

from ..files import read_regular
from ..rules.errors import FideInputError
from .formula import Area, Fn, Result, Unsupported, Value, XlError, col_letters, col_number
from .formula.coerce import DATE_OFFSET
from .formula.values import MAX_TEXT, VALUE, values_of
from .package import sheet_parts

# --- classic xlwings' decorators (xlwings 0.37, xlwings/udfs.py) -----------------------------

_DECORATORS = ("func", "sub", "arg", "ret", "script")


def _signature(f: Callable[..., Any]) -> tuple[list[str], list[Any], str | None]:
    """The parameters of a function, the defaults of the last ones, its ``*args``."""
    names: list[str] = []
    defaults: list[Any] = []
    vararg = None
    for p in inspect.signature(f).parameters.values():
        if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD:
            names.append(p.name)
            if p.default is not inspect.Parameter.empty:
                defaults.append(p.default)
        elif p.kind is inspect.Parameter.VAR_POSITIONAL:
            names.append(p.name)
            vararg = p.name
        else:
            raise Exception("xlwings does not support UDFs with keyword arguments")
    return names, defaults, vararg


def _hinted(hint: Any) -> tuple[Any, list[Any]]:
    """The top-level type of a type hint and its ``Annotated`` extras."""
    if get_origin(hint) is Annotated:
        base, *extras = get_args(hint)
        return get_origin(base) or base, extras
    return get_origin(hint) or hint, []


def _category(kwargs: dict[str, Any]) -> int | str:
    category = kwargs.get("category")
    if category is None:
        return "xlwings"
    if isinstance(category, int):
        if 1 <= category <= 14:
            return category
        raise Exception(
            "There is only 14 build-in categories available in Excel. "
            "Please use a string value to specify a custom category."
        )
    if isinstance(category, str):
        return category[:255]
    raise Exception(
        f"Category {category} should either be a predefined Excel category (int value) "
        "or a custom one (str value)."
    )


def _flag(kwargs: dict[str, Any], key: str, default: bool) -> bool:
    value = kwargs.get(key, default)
    if not isinstance(value, bool):
        raise Exception(f'{key} only takes boolean values. ("{value}" provided).')
    return value


def _metadata(f: Callable[..., Any]) -> dict[str, Any]:
    """``f.__xlfunc__`` as classic xlwings first writes it."""
    hints = get_type_hints(f, include_extras=True)
    names, defaults, vararg = _signature(f)
    if vararg and defaults:
        raise Exception(
            "xlwings does not support UDFs with both optional and variable length arguments"
        )
    required = len(names) - len(defaults)
    args: list[dict[str, Any]] = []
    for pos, name in enumerate(names):
        info: dict[str, Any] = {"name": name, "pos": pos, "vba": None,
                                "doc": f"Positional argument {pos + 1}",
                                "vararg": name == vararg, "options": {}}  # fmt: skip
        if name in hints:
            kind, extras = _hinted(hints[name])
            if kind is not _dt.datetime and kind is not _dt.date:  # pywin32 gives datetimes
                info["options"]["convert"] = kind
                for key, value in (extras[0] if extras else {}).items():
                    if key == "doc":
                        info["doc"] = value
                    else:
                        info["options"][key] = value
        if pos >= required:
            info["optional"] = defaults[pos - required]
        args.append(info)
    doc = f"Python function '{f.__name__}' defined in '{f.__code__.co_filename}'."
    ret: dict[str, Any] = {"doc": doc if f.__doc__ is None else f.__doc__, "options": {}}
    if "return" in hints:
        kind, extras = _hinted(hints["return"])
        ret["options"]["convert"] = kind
        if extras:
            ret["options"].update(extras[0])
    return {"name": f.__name__, "sub": False, "args": args,
            "argmap": {a["name"]: a for a in args}, "ret": ret}  # fmt: skip


def func(f: Callable[..., Any] | None = None, **kwargs: Any) -> Any:
    """Classic ``@xw.func``: the function's metadata, its category and modes."""

    def inner(f: Callable[..., Any]) -> Callable[..., Any]:
        if not hasattr(f, "__xlfunc__"):
            f.__xlfunc__ = _metadata(f)  # type: ignore[attr-defined]
        info: dict[str, Any] = f.__xlfunc__  # type: ignore[attr-defined]
        info["category"] = _category(kwargs)
        info["call_in_wizard"] = _flag(kwargs, "call_in_wizard", True)
        info["volatile"] = _flag(kwargs, "volatile", False)
        mode = kwargs.get("async_mode")
        if mode not in (None, "threading"):
            raise Exception('The only supported async_mode mode is currently "threading".')
        info["async_mode"] = mode
        return f

    return inner if f is None else inner(f)


def sub(f: Callable[..., Any] | None = None, **kwargs: Any) -> Any:
    """Classic ``@xw.sub``: a macro, run by Excel's macro dialog, never from a cell."""

    def inner(f: Callable[..., Any]) -> Callable[..., Any]:
        f = func(**kwargs)(f)
        f.__xlfunc__["sub"] = True  # type: ignore[attr-defined]
        return f

    return inner if f is None else inner(f)


def ret(convert: Any = None, **kwargs: Any) -> Callable[[Callable[..., Any]], Any]:
    """Classic ``@xw.ret``: the result's converter and options."""
    if convert is not None:
        kwargs["convert"] = convert

    def inner(f: Callable[..., Any]) -> Callable[..., Any]:
        func(f).__xlfunc__["ret"]["options"].update(kwargs)
        return f

    return inner


def arg(name: str, convert: Any = None, **kwargs: Any) -> Callable[[Callable[..., Any]], Any]:
    """Classic ``@xw.arg``: an argument's converter and options (``vba=`` and ``doc=`` kept
    apart: a VBA expression Excel evaluates instead of a worksheet argument)."""
    if convert is not None:
        kwargs["convert"] = convert

    def inner(f: Callable[..., Any]) -> Callable[..., Any]:
        argmap = func(f).__xlfunc__["argmap"]
        if name.lstrip("*") not in argmap:
            raise Exception(f"Invalid argument name '{name}'.")
        info = argmap[name.lstrip("*")]
        for special in ("vba", "doc"):
            if special in kwargs:
                info[special] = kwargs.pop(special)
        info["options"].update(kwargs)
        return f

    return inner


# --- the modules named ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Function:
    """An xlwings function of a module the user named."""

    name: str  # the Python name, which classic xlwings registers in Excel
    call: Callable[..., Any]
    info: dict[str, Any]  # its __xlfunc__
    module: Path


MAX_MODULE = 16 * 2**20  # bytes of one module's source


def load(paths: Sequence[Path]) -> dict[str, Function]:
    """The xlwings functions of the modules at ``paths``, by upper-case name (formulas name
    them in any case). Each file is imported once, in the order given, its folder searched
    for the modules it imports; one that fails is a :class:`FideInputError` naming it."""
    try:
        import xlwings
    except ImportError:
        raise FideInputError(
            "xlwings functions need the xlwings package (pip install xlwings), which is not "
            "installed"
        ) from None
    found: dict[str, Function] = {}
    once = {path.resolve(): path for path in reversed(paths)}  # a module named twice: once
    for i, path in enumerate(p for p in paths if once.get(p.resolve()) is p):
        source = read_regular(path, MAX_MODULE, lambda mib: f"{mib:.0f} MiB, not a module")
        stem = re.sub(r"\W", "_", path.stem)
        module = types.ModuleType(f"fide_rating_udfs_{i}_{stem}")
        module.__file__ = str(path)
        sys.modules[module.__name__] = module  # dataclasses and typing look modules up
        try:
            with _classic(xlwings), _searched(path.parent):
                exec(compile(source, str(path), "exec"), module.__dict__)
        except (Exception, SystemExit) as error:
            sys.modules.pop(module.__name__, None)
            raise FideInputError(f"{path} cannot be imported: {_said(error)}") from None
        for attr in dir(module):
            f = getattr(module, attr)
            info = getattr(f, "__xlfunc__", None)
            if not callable(f) or not isinstance(info, dict) or "args" not in info:
                continue
            key = str(info["name"]).upper()
            other = found.get(key)
            if other is not None and other.call is not f:
                raise FideInputError(
                    f"two modules define the function {info['name']}: {other.module} and {path}"
                )
            found[key] = Function(str(info["name"]), f, info, path)
    return found


def _said(error: BaseException) -> str:
    """An exception in one line: its type and the first line of its message."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


@contextmanager
def _classic(xlwings: Any) -> Iterator[None]:
    """xlwings' decorators as classic xlwings has them, while a module is imported."""
    missing = object()
    before = {name: xlwings.__dict__.get(name, missing) for name in _DECORATORS}
    mine = {"func": func, "sub": sub, "arg": arg, "ret": ret, "script": sub}
    for name in _DECORATORS:
        setattr(xlwings, name, mine[name])
    try:
        yield
    finally:
        for name, was in before.items():
            if was is missing:
                delattr(xlwings, name)
            else:
                setattr(xlwings, name, was)


@contextmanager
def _searched(folder: Path) -> Iterator[None]:
    sys.path.insert(0, str(folder))
    try:
        yield
    finally:
        if str(folder) in sys.path:
            sys.path.remove(str(folder))


# --- what Excel hands a function through COM, and takes back ---------------------------------

_OLE = _dt.datetime(1899, 12, 30)  # day 0 of a COM date
_DAY = _dt.timedelta(days=1)
_BUILTIN_DATES = frozenset([*range(14, 23), *range(27, 37), *range(45, 48), *range(50, 59)])
_LITERAL = re.compile(r'"[^"]*"|\\.|_.|\*.|\[(?![hms]+\])[^\]]*\]', re.IGNORECASE)


def is_date_format(number_format: int, code: str | None) -> bool:
    """Whether a cell of this number format (a built-in id, or a custom code) shows a date or
    a time: Excel then hands its value through COM as a date."""
    if code is None:
        return number_format in _BUILTIN_DATES
    return re.search(r"[dmyhs]", _LITERAL.sub("", code), re.IGNORECASE) is not None


def com_date(serial: float) -> _dt.datetime | float:
    """A date-formatted cell's serial as COM gives it: a datetime to the millisecond (the
    1900 system's first two months a day off COM's, as Excel converts them)."""
    offset = DATE_OFFSET.get()
    if serial < 0 or serial >= 2958466:  # not a day Excel shows: the number
        return serial
    days = serial + offset if offset or serial >= 61 else serial + 1
    return _OLE + _dt.timedelta(milliseconds=round(days * 86_400_000))


def serial(when: _dt.date) -> float:
    """A date a function returns as the workbook's serial number."""
    moment = when if isinstance(when, _dt.datetime) else _dt.datetime.combine(when, _dt.time())
    days = (moment.replace(tzinfo=None) - _OLE) / _DAY
    offset = DATE_OFFSET.get()
    value = days - offset if offset else days - (days < 61)
    if value < (0 if offset else 1):
        raise ValueError(f"the date {when} is before the workbook's first day")
    return value


class _Classic:
    """The values xlwings' Windows engine cleans and prepares (``_xlwindows``), as an
    engine of xlwings' conversion: the converters run unchanged over it."""

    name = "fide-rating recalc"
    type = "desktop"

    @staticmethod
    def clean_value_data(
        data: list[list[Any]],
        datetime_builder: Callable[..., Any],
        empty_as: Any,
        number_builder: Callable[[float], Any] | None,
        err_to_str: bool,
    ) -> list[list[Any]]:
        def clean(v: Any) -> Any:
            if v is None or v == "":
                return empty_as
            if isinstance(v, _dt.datetime):
                return datetime_builder(year=v.year, month=v.month, day=v.day, hour=v.hour,
                                        minute=v.minute, second=v.second,
                                        microsecond=v.microsecond, tzinfo=None)  # fmt: skip
            if isinstance(v, XlError):
                return v.code if err_to_str else None
            if number_builder is not None and isinstance(v, float):
                return number_builder(v)
            return v

        return [[clean(v) for v in row] for row in data]

    @staticmethod
    def prepare_xl_data_element(x: Any, options: Any) -> Any:
        np = sys.modules.get("numpy")
        pd = sys.modules.get("pandas")
        if pd is not None and x is pd.NaT:
            return ""
        if np is not None and isinstance(x, np.datetime64):
            from xlwings import utils

            to_datetime: Any = utils.np_datetime_to_datetime  # untyped
            x = to_datetime(x)
        if isinstance(x, _dt.date):
            return x.to_pydatetime() if hasattr(x, "to_pydatetime") else x
        if pd is not None:
            try:
                if bool(pd.isna(x)):
                    return ""
            except (TypeError, ValueError):  # not one value
                pass
        if isinstance(x, float) and math.isnan(x):
            return ""
        if np is not None and isinstance(x, np.number):
            return float(x)
        return "" if x is None else x


_ENGINE = _Classic.name


def _engine() -> Any:
    """xlwings' conversion, with the classic values' engine among its engines."""
    import xlwings
    from xlwings import conversion
    from xlwings.main import Engine

    if _ENGINE not in {e.name for e in xlwings.engines}:
        xlwings.engines.add(Engine(impl=_Classic()))
    return conversion


# --- the cells that call them ---------------------------------------------------------------

ERROR = "#PYTHON!"  # the start of a cell's text when a function raised


@dataclass
class Session:
    """The functions for one workbook being computed, what they need of its package (the
    number formats), and what they raised."""

    functions: Mapping[str, Function]
    parts: Mapping[str, bytes]
    raised: list[tuple[str, str, str]] = field(default_factory=list)  # sheet, cell, why
    _date_styles: frozenset[int] | None = None
    _dated: dict[str, frozenset[tuple[int, int]]] = field(default_factory=dict)
    _where: dict[str, str] | None = None

    def find(self, name: str) -> Function | None:
        """The function a formula names (``_xludf.`` as Excel may write it), if any."""
        return self.functions.get(name.removeprefix("_XLUDF."))

    def dated(self, sheet: str) -> frozenset[tuple[int, int]]:
        """The cells of a sheet that show a date or time."""
        found = self._dated.get(sheet.upper())
        if found is not None:
            return found
        if self._date_styles is None:
            self._date_styles = _date_styles(self.parts.get("xl/styles.xml", b""))
        if self._where is None:
            self._where = {k.upper(): v for k, v in sheet_parts(dict(self.parts)).items()}
        part = self._where.get(sheet.upper())
        cells: set[tuple[int, int]] = set()
        if self._date_styles and part is not None:
            for attrs in _CELL.findall(self.parts.get(part, b"")):
                at, style = _REF.search(attrs), _STYLE.search(attrs)
                if at and style and int(style.group(1)) in self._date_styles:
                    cells.add((int(at.group(2)), col_number(at.group(1).decode())))
        self._dated[sheet.upper()] = found = frozenset(cells)
        return found

    def closure(self, udf: Function, args: list[Fn], missing: list[bool], array: bool) -> Fn:
        """The closure of a cell calling ``udf`` with the arguments compiled (references as
        ranges), ``missing`` telling the ones left out (``f(1,,3)``)."""
        info, name = udf.info, udf.name
        params: list[dict[str, Any]] = info["args"]
        if info.get("sub"):
            raise Unsupported(f"{name} is a macro (@xw.sub), which Excel runs, not a cell")
        for p in params:
            if p["name"] == "caller":
                raise Unsupported(f"{name} takes the calling cell as an Excel range (caller)")
            if p.get("vba"):
                raise Unsupported(f"{name} takes Excel's {p['vba']} object (vba=) as {p['name']}")
            if p["options"].get("expand"):
                raise Unsupported(f"{name} reads the range expanded from its argument {p['name']}")
        if inspect.isasyncgenfunction(udf.call):
            raise Unsupported(f"{name} streams its results (an async generator)")
        vararg = bool(params) and bool(params[-1]["vararg"])
        fixed = params[:-1] if vararg else params
        required = sum("optional" not in p for p in fixed)
        if len(args) < required or (len(args) > len(fixed) and not vararg):
            # a VBA function given too few or too many arguments: Excel's #VALUE!
            return lambda book, sheet, row, col: VALUE
        conversion = _engine()
        options = info["ret"]["options"]
        expand = options.get("expand")

        def run(book: Any, sheet: str, row: int, col: int) -> Result:
            # the arguments' cells first, outside the function's faults: a cell not computed,
            # a circle or a chain too deep is the engine's to handle
            given = [None if missing[i] else self._com(book, f(book, sheet, row, col))
                     for i, f in enumerate(args)]  # fmt: skip
            try:
                values = []
                for i, got in enumerate(given):
                    p = params[min(i, len(params) - 1)]
                    if missing[i]:
                        values.append(p.get("optional"))
                    else:
                        values.append(conversion.read(None, got, p["options"], engine_name=_ENGINE))
                values += [p.get("optional") for p in fixed[len(args) :]]
                with _no_excel(name):
                    result = udf.call(*values)
                    if inspect.iscoroutine(result):
                        import asyncio  # only for a coroutine: its import costs every start

                        result = asyncio.run(result)
                grid = conversion.write(result, None, options, engine_name=_ENGINE)
                cells = [[_cell(x) for x in line] for line in grid] or [[""]]
            except (Unsupported, RecursionError):  # Excel's part, or the engine's stack
                raise
            except (Exception, SystemExit) as error:  # the function's fault: in its cell, said
                where = f"{col_letters(col)}{row}"
                self.raised.append((sheet, where, f"{name} raised {_said(error)}"))
                return f"{ERROR} {_said(error)}"[:255]
            if expand:
                _fits(book, name, sheet, row, col, cells)
            return cells if array else cells[0][0]

        return run

    def _com(self, book: Any, v: Result) -> Any:
        """A value as COM hands it to a classic function: a range's cells (dates as datetimes)
        as one value or a tuple of rows, an array as a tuple of rows."""
        if isinstance(v, Area):
            dated = self.dated(v.sheet)
            rows = tuple(
                tuple(com_date(x) if isinstance(x, float) and (r, c) in dated else x
                      for c, x in enumerate(line, start=v.c1))
                for r, line in enumerate(values_of(book, v), start=v.r1)
            )  # fmt: skip
            return rows[0][0] if len(rows) == 1 and len(rows[0]) == 1 else rows
        if isinstance(v, list):
            return tuple(tuple(line) for line in v)
        return v


def _fits(book: Any, name: str, sheet: str, row: int, col: int, cells: list[list[Value]]) -> None:
    """A result with ``expand=`` fills the range its formula holds, or Excel would move it."""
    held = getattr(book, "spills", {}).get((sheet, row, col))
    rows, cols = (held.rows, held.cols) if held is not None else (1, 1)
    if (len(cells), len(cells[0])) != (rows, cols):
        raise Unsupported(
            f"{name} gives {len(cells)} x {len(cells[0])} values, the range holds {rows} x "
            f"{cols}: classic xlwings would resize its array formula (expand=)"
        )


@contextmanager
def _no_excel(name: str) -> Iterator[None]:
    """``xw.Book.caller()`` says that the workbook's Excel is not there, while a function
    runs: its cell is left not computed."""
    import xlwings

    def caller(cls: Any) -> Any:
        raise Unsupported(f"{name} calls xw.Book.caller(), which needs Excel")

    book: Any = xlwings.Book
    before = book.__dict__["caller"]
    setattr(book, "caller", classmethod(caller))  # noqa: B010 - the method, put back after
    try:
        with redirect_stdout(sys.stderr):  # what it prints is not the command's report
            yield
    finally:
        setattr(book, "caller", before)  # noqa: B010


def _cell(x: Any) -> Value:
    """An element of a converted result as its cell's value."""
    if x is None or isinstance(x, bool | str):
        if isinstance(x, str) and len(x) > MAX_TEXT:
            raise ValueError(f"a text of {len(x):,} characters, more than a cell holds")
        return "" if x is None else x
    if isinstance(x, int | float):
        return float(x)
    if isinstance(x, _dt.date):
        return serial(x)
    raise TypeError(f"a {type(x).__name__} cannot be a cell's value")


_CELL = re.compile(rb"<c\b([^>]*)>")
_REF = re.compile(rb'\br="([A-Z]+)([0-9]+)"')
_STYLE = re.compile(rb'\bs="([0-9]+)"')
_XFS = re.compile(rb"<cellXfs\b[^>]*>(.*?)</cellXfs>", re.S)
_XF = re.compile(rb"<xf\b([^>]*)>")
_FMT = re.compile(rb'<numFmt\b[^>]*?numFmtId="([0-9]+)"[^>]*?formatCode="([^"]*)"')
_FMT_ID = re.compile(rb'\bnumFmtId="([0-9]+)"')


def _date_styles(styles: bytes) -> frozenset[int]:
    """The cell styles (indexes of ``cellXfs``) whose number format shows a date or time."""
    codes = {int(i): html.unescape(code.decode()) for i, code in _FMT.findall(styles)}
    found = _XFS.search(styles)
    if found is None:
        return frozenset()
    dated = set()
    for i, attrs in enumerate(_XF.findall(found.group(1))):
        number = _FMT_ID.search(attrs)
        fmt = int(number.group(1)) if number else 0
        if is_date_format(fmt, codes.get(fmt)):
            dated.add(i)
    return frozenset(dated)


# the functions of the workbook being computed (set by :func:`.recalc.evaluate`)
SESSION: ContextVar[Session | None] = ContextVar("UDF_SESSION", default=None)
