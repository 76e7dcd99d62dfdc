"""The function record, and what the functions share: how arguments reach them, flattening.

Each standard function is one :class:`Function`: Excel's facts about it (its name, least and
most arguments, category, whether it is volatile: :mod:`.catalogue`), the class of each of its
parameters, and its implementation. The classes decide, in one place (:func:`bind`), what an
argument becomes before the implementation sees it, as LibreOffice's parameter classes do
(``formula/paramclass.hxx``) after Excel's own token classes:

* a *value* (``n`` a number, ``s`` a text, ``b`` a logical, ``v`` any value, ``e`` any value
  or error): a range given there is implicitly intersected with the formula's row or column
  (``#VALUE!`` where it does not meet them) in an ordinary formula, and iterated element by
  element in an array formula (the result is then an array); an error given there is the
  result, except for ``e``, and so is a value that cannot be converted, the arguments taken
  from the left (``FLOOR("x",#N/A)`` is #VALUE!, ``FLOOR(#N/A,"x")`` #N/A, as Excel saves
  them); it is converted as arithmetic converts it
  (:mod:`fide_rating.engine.formula.coerce`): a text that reads as a number is that number,
  a number becomes text as Excel's General format shows it, a blank is 0, ``""`` or FALSE;
* a *reference* (``r``): stays a range (an :class:`Area`), so a single cell given there is a
  one-cell range: ``SUM(A1)`` skips a text in A1 as ``SUM(A1:A2)`` does, ``ROW(C12)`` is 12;
  ``x``, a reference or an array: a range stays one, and an expression there is computed
  element by element even in an ordinary formula (``LOOKUP(2,1/(A1:A9="x"),B1:B9)``,
  ``INDEX(A1:A9*2,3)``), as for LibreOffice's reference parameters that force an array;
* an *array* (``a``): a range becomes the array of its values, operators in it work element
  by element (``SUMPRODUCT((A1:A9>0)*B1:B9)``);
* *lazy* (``f``): the argument unevaluated, for the functions that evaluate one branch only
  (IF, IFERROR, CHOOSE ...).

The functions that came from the Analysis ToolPak add-in (EDATE, EOMONTH, YEARFRAC,
CONVERT, the base conversions ...) take one cell where a value goes: a range of several is
#VALUE!, even in an array formula (their record says ``single``).

An error given itself for a reference or an array (``VLOOKUP(x,#REF!,2)``, not an error
inside a range) is the result too, but for the functions whose record says they judge errors
themselves (COUNT, COUNTA, ISREF ...).

A ``?`` after a value class makes an argument written but empty (``OFFSET(A1,1,1,,2)``) the
same as one left out: the implementation gets None and applies its default. Arguments left out
at the end always arrive as None, up to the parameters the record lists.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.catalogue` and the standard
library.
"""

from __future__ import annotations

import datetime as _dt
import math
import random
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ..formula.coerce import cancelled, number, rows_of, text_of, truth
from ..formula.values import (
    MAX_TEXT,
    VALUE,
    Area,
    Book,
    Cut,
    Fn,
    Result,
    Unsupported,
    Value,
    XlError,
    as_grid,
    check_size,
    element,
    scalar,
)
from .catalogue import CATALOGUE
from .wildcard import Wildcard, compiled


class Draws(Protocol):
    """Where RAND, RANDBETWEEN and RANDARRAY draw from: a ``random.Random``, or the module."""

    def random(self) -> float: ...

    def randint(self, a: int, b: int, /) -> int: ...


# what the volatile functions give: TODAY and NOW the computer's clock, the random functions
# the random module's generator, unless set (recalc --as-of; draws that can be repeated)
MOMENT: ContextVar[_dt.datetime | None] = ContextVar("MOMENT", default=None)
DRAWS: ContextVar[Draws | None] = ContextVar("DRAWS", default=None)


def now() -> _dt.datetime:
    return MOMENT.get() or _dt.datetime.now()


def draws() -> Draws:
    # unset: the random module's own generator, which each forked worker seeds anew
    return DRAWS.get() or random


Impl = Callable[[Book, str, int, int, list[Any]], Result]

VALUES = frozenset("nsbve")  # the value classes, by the type they convert to
# functions that give a reference: over an array of positions in an ordinary formula Excel
# gives what its references allow, which is not settled here (reported, not guessed)
_REFERENCES = frozenset({"INDEX", "OFFSET", "INDIRECT"})
_STRICT = frozenset("nsbv")  # value classes whose errors are the result
_ARRAY = (Area, list)  # a range or an array (``Area | list`` made anew at every test)


@dataclass(frozen=True, slots=True)
class Function:
    """One standard function: Excel's facts about it, its parameters' classes and the
    implementation (None: Excel has it, the engine does not compute it, and says so)."""

    name: str
    least: int
    most: int
    category: str
    volatile: bool
    params: tuple[str, ...] = ()
    repeat: int = 1  # how many of the last parameters repeat (SUMIFS: range and criteria)
    impl: Impl | None = None
    union: bool = False  # a union given for a reference is its ranges one by one: SUM((A,B))
    errors: bool = False  # an error given for a reference or array is its to judge (COUNT)
    single: bool = False  # a range of several cells for a value is #VALUE! (the Analysis ToolPak's)

    def kind(self, i: int) -> str:
        """The class of argument ``i`` (0-based), the last ``repeat`` ones repeating."""
        n = len(self.params)
        if i < n:
            return self.params[i]
        if not n:
            return "v"
        return self.params[n - self.repeat + (i - n) % self.repeat]


FUNCTIONS: dict[str, Function] = {
    name: Function(name, e.least, e.most, e.category, e.volatile) for name, e in CATALOGUE.items()
}
"""Every function Excel knows, by name: those with an implementation are computed."""


def define(
    name: str,
    params: str,
    *,
    also: tuple[str, ...] = (),
    repeat: int = 1,
    union: bool = False,
    errors: bool = False,
    single: bool = False,
) -> Callable[[Impl], Impl]:
    """Give ``name`` (and the names in ``also``, which Excel computes alike) its parameters'
    classes, one letter each, space-separated (``"n s? r"``), and its implementation."""
    kinds = tuple(params.split())
    for k in kinds:
        if k.rstrip("?") not in VALUES | {"r", "x", "a", "f"}:
            raise ValueError(f"expected parameter classes n s b v e r x a f, got {k!r}")

    def deco(f: Impl) -> Impl:
        for n in (name, *also):
            known = FUNCTIONS.get(n)
            if known is None:
                raise ValueError(f"expected a function of Excel's catalogue, got {n!r}")
            FUNCTIONS[n] = replace(
                known,
                params=kinds,
                repeat=repeat,
                impl=f,
                union=union,
                errors=errors,
                single=single,
            )
        return f

    return deco


# --- binding: arguments as the parameters' classes make them -------------------------------

_BLANK: dict[str, Value] = {"n": 0.0, "s": "", "b": False, "v": None, "e": None}


def convert(kind: str, v: Value) -> Value:
    """A value as parameter class ``kind`` takes it (an XlError when it cannot)."""
    if kind == "n":
        return number(v)
    if kind == "s":
        return text_of(v)
    if kind == "b":
        return _LOGICAL(v)
    return v


def bind(spec: Function, args: list[Fn], missing: list[bool], array: bool) -> Fn:
    """The closure calling ``spec`` with the compiled ``args`` (``missing``: written empty),
    each made what its parameter's class says; in an array formula, iterated over the arrays
    given for value parameters."""
    impl = spec.impl
    assert impl is not None
    kinds: list[str] = []
    compiled: list[Fn] = []
    for i, (f, empty) in enumerate(zip(args, missing, strict=True)):
        kind = spec.kind(i)
        optional = kind.endswith("?")
        kind = kind.rstrip("?")
        if empty and kind in VALUES:
            # written but empty: the parameter's default (with ?), else a blank's value
            compiled.append(_constant(None if optional else _BLANK[kind]))
            kinds.append("o")
            continue
        compiled.append(f)
        kinds.append(kind)
    for _ in range(len(args), len(spec.params)):  # left out at the end: None
        compiled.append(lambda book, sh, r, c: None)
        kinds.append("o")
    strict = _STRICT if spec.errors else _STRICT | {"r", "x", "a"}
    if all(k in ("r", "x", "o") for k in kinds):  # references only (SUM, COUNTIF): no conversion
        name = spec.name
        if spec.errors:
            return lambda b, sh, r, c: impl(
                b, sh, r, c, [whole(g(b, sh, r, c), name) for g in compiled]
            )

        def refs(book: Book, sh: str, r: int, c: int) -> Result:
            values = [f(book, sh, r, c) for f in compiled]
            for i, v in enumerate(values):
                if isinstance(v, XlError):  # SUM(#REF!), VLOOKUP(x,#REF!,2): the error
                    return v
                if isinstance(v, Cut):
                    values[i] = whole(v, name)
            out = impl(book, sh, r, c, values)
            return VALUE if out.__class__ is str and len(out) > MAX_TEXT else out

        return refs
    if all(k in ("f", "o") for k in kinds) and not array:  # IF, CHOOSE ...: unevaluated
        return lambda book, sh, r, c: impl(book, sh, r, c, compiled)
    plan = list(zip(compiled, kinds, strict=True))
    # what each argument's class asks of its value, decided once here, not at each call (an
    # array formula calls once for each of an array's elements)
    steps = [(_step(k, strict), f) for f, k in plan]
    single = spec.single
    # branches chosen by a value (IF's condition, IFERROR's value, CHOOSE's index): computed
    # only when chosen where that value is one (IFS and SWITCH choose by branches themselves)
    branches = "f" in kinds and any(k in VALUES for k in kinds)

    def once(book: Book, sh: str, r: int, c: int, raw: list[Result], lazy: bool = False) -> Result:
        """The call with every argument evaluated, taken from the left: an error, or a value
        that cannot be converted, is the result (FLOOR("x",#N/A) is #VALUE!); ``lazy``: the
        branches (IF's, CHOOSE's ...) left for the function to compute as it chooses."""
        out: list[Any] = []
        for v, (step, f) in zip(raw, steps, strict=True):
            if step is _PASS:
                out.append(v)
            elif step is _LAZY:
                out.append(f if lazy else _constant(v))  # type: ignore[arg-type]
            else:
                x = step(v)
                if isinstance(x, XlError):
                    return x
                out.append(x)
        result = impl(book, sh, r, c, out)
        if result.__class__ is str and len(result) > MAX_TEXT:
            return VALUE  # a text longer than Excel's longest (SUBSTITUTE, TEXT ...)
        return result

    def elementwise(book: Book, sh: str, r: int, c: int, raw: list[Result], grids: list[Any],
                    shaped: list[tuple[int, int]]) -> Result:  # fmt: skip
        """A call with arrays for value parameters (in an array formula, or an array given
        in an ordinary one): once for each element, the arrays stretched to a common size as
        Excel stretches them. An argument the same in every element (a single value) is
        converted once; an error there is the result of every element where no argument on
        its left has one."""
        rows, cols = max(s[0] for s in shaped), max(s[1] for s in shaped)
        check_size(rows, cols)
        fixed: list[Any] = []
        error: XlError | None = None
        moving: list[tuple[int, Any, Any]] = []  # the arguments varying: place, step, array
        for k, (v, g, (step, _)) in enumerate(zip(raw, grids, steps, strict=True)):
            if g is not None and (len(g) != 1 or len(g[0]) != 1):
                fixed.append(None)
                if error is None:  # those right of an error are never looked at
                    moving.append((k, step, g))
                continue
            x: Any = v if g is None else g[0][0]
            if step is _LAZY:
                x = _constant(x)
            elif step is not _PASS:
                x = step(x)
                if isinstance(x, XlError) and error is None:
                    error = x
            fixed.append(x)
        if not moving:  # one value each (1 x 1), or an error on the left of every array
            x = error if error is not None else _result(book, sh, r, c, impl(book, sh, r, c, fixed))
            return [[x] * cols for _ in range(rows)]
        # each varying argument's values, one for each element, row by row
        flat = [_flat(g, rows, cols) for _, _, g in moving]
        places = [(k, step) for k, step, _ in moving]
        if len(places) == 1:
            k, step = places[0]
            results = [_call(book, sh, r, c, fixed, k, step, v, error, impl) for v in flat[0]]
        else:
            results = []
            for picked in zip(*flat, strict=True):
                args = fixed.copy()
                for (k, step), v in zip(places, picked, strict=True):
                    y: Any = _converted(step, v)
                    if step is not _PASS and isinstance(y, XlError):
                        break  # a value that cannot be converted (an error passes as itself)
                    args[k] = y
                else:
                    if error is not None:
                        y = error
                    else:
                        y = impl(book, sh, r, c, args)
                        if y.__class__ is str and len(y) > MAX_TEXT:
                            y = VALUE
                        elif isinstance(y, _ARRAY):
                            y = scalar(book, y, r, c)
                results.append(y)
        return rows_of(results, cols)

    def run(book: Book, sh: str, r: int, c: int) -> Result:
        raw: list[Result] = []
        for f, kind in plan:
            if kind == "f" and (branches or not array):
                raw.append(None)  # a branch: computed below if at all
                continue
            v = f(book, sh, r, c)
            if kind not in VALUES and isinstance(v, Cut):
                # read whole; taken a value at a time, the rows held are taken, as before
                v = whole(v, spec.name)
            if kind == "a" and not isinstance(v, XlError):
                v = as_grid(book, v)
            elif kind in VALUES and single and isinstance(v, Area | list):
                v = one_cell(book, v)
            elif kind in VALUES and not array and isinstance(v, Area):
                v = scalar(book, v, r, c)  # a range in an ordinary formula: intersected
            raw.append(v)
        # an array (not a range) given for a value is computed element by element in an
        # ordinary formula too: SUM(COUNTIF(A1:A9,{"a","b"})), SUM(CHOOSE({1,2},5,7))
        each = array or any(isinstance(v, list) for v, k in zip(raw, kinds, strict=True)
                            if k in VALUES)  # fmt: skip
        if each and not array and spec.name in _REFERENCES:
            raise Unsupported(f"{spec.name} of an array of positions in an ordinary formula")
        if each and branches:
            if not any(isinstance(v, Area | list) for v, k in zip(raw, kinds, strict=True)
                       if k in VALUES):  # fmt: skip
                # one condition: only the branch it chooses is computed, as it is (Excel's
                # IF(TRUE,{1,2},{3;4}) is {1,2}; a LAMBDA recurs through IF in a name)
                return once(book, sh, r, c, raw, lazy=True)
            raw = [f(book, sh, r, c) if k == "f" else v
                   for v, (f, k) in zip(raw, plan, strict=True)]  # fmt: skip
        if each:
            grids = [as_grid(book, v) if k in VALUES | {"f"} and isinstance(v, Area | list)
                     else None for v, k in zip(raw, kinds, strict=True)]  # fmt: skip
            shaped = [(len(g), len(g[0])) for g in grids if g and g[0]]
            if shaped:
                if any(isinstance(g, Cut) for g in grids):
                    return past_held(book, sh, r, c, raw, grids)
                return elementwise(book, sh, r, c, raw, grids, shaped)
        return once(book, sh, r, c, raw, lazy=not array)

    def past_held(book: Book, sh: str, r: int, c: int, raw: list[Result],
                  grids: list[Any]) -> Result:  # fmt: skip
        """Element by element over whole columns (or rows) cut at the last used row: the
        rows held, then the function once more over what is past them (each cut range's
        tail), which is the tail of the result (IF(A:A="",1) is 1 in every blank row past
        the last used one). With any other array beside them, the rows held only."""
        cuts = [g for g in grids if isinstance(g, Cut)]
        full = cuts[0].full
        alone = all(
            g is None or isinstance(g, Cut) or (len(g) == 1 and len(g[0]) == 1) for g in grids
        )
        if not alone or any(g.full != full or not g or not g[0] for g in cuts):
            held = [g.padded(len(g), len(g[0]) if g else 0) if isinstance(g, Cut) else g
                    for g in grids]  # fmt: skip
            shaped = [(len(g), len(g[0])) for g in held if g and g[0]]
            return elementwise(book, sh, r, c, raw, held, shaped)
        rows, cols = max(len(g) for g in cuts), max(len(g[0]) for g in cuts)
        held = [g.padded(rows, cols) if isinstance(g, Cut) else g for g in grids]
        out = elementwise(book, sh, r, c, raw, held, [(rows, cols)])
        tails = [[[g.tail]] if isinstance(g, Cut) else g for g in grids]
        tail = elementwise(book, sh, r, c, raw, tails, [(1, 1)])
        if not isinstance(out, list) or not isinstance(tail, list):
            return out
        return Cut(out, full, tail[0][0])

    return run


# functions to which a 0, FALSE or "" past a whole column's last used row changes nothing:
# it adds nothing to a sum, and a look-up finds it only where the rows held have no match
_ZERO_BLIND = frozenset(
    {"SUM", "SUMPRODUCT", "LOOKUP", "MATCH", "XMATCH", "XLOOKUP", "VLOOKUP", "HLOOKUP", "INDEX"}
)


def whole(v: Result, name: str) -> Result:
    """An argument of the function ``name`` as it reads it: a cut range's values with its
    tail past them, to its whole size, where the tail changes what the function makes of it
    (COUNT((A:A="x")*1) counts every row; SUMPRODUCT(--(A:A="")) every blank)."""
    if isinstance(v, Cut) and _counts(v.tail, name):
        if name in _ONE_ENOUGH:  # how many times the tail comes does not matter: once
            rows, cols = len(v), len(v[0]) if v else 1
            if rows < v.full[0]:
                return v.padded(rows + 1, cols)
            return v.padded(rows, cols + 1)  # a row cut at its last used column
        return v.padded(*v.full)
    return v


# functions to which the tail past a whole column's last used row counts once at most
_ONE_ENOUGH = frozenset({"MAX", "MIN", "MAXA", "MINA", "AND", "OR"})


def _counts(tail: Value, name: str) -> bool:
    """Whether a cut range's tail (what its blank cells became) changes what the function
    ``name`` makes of it: a blank or an error never (the cells held show the error already,
    and LOOKUP(2,1/(A:A<>""),A:A) skips them), a 0, FALSE or "" but for a sum or a look-up,
    anything else always."""
    if tail is None or isinstance(tail, XlError):
        return False
    return name not in _ZERO_BLIND or tail not in ("", 0)


def one_cell(book: Book, v: Area | list[list[Value]]) -> Value:
    """A range given to a function of the Analysis ToolPak (EDATE, CONVERT ...): its one
    cell's value; several cells are #VALUE!, in an array formula too (Excel's saved values)."""
    if isinstance(v, Area):
        return book.value(v.sheet, v.r1, v.c1) if v.rows == v.cols == 1 else VALUE
    return v[0][0] if len(v) == 1 and len(v[0]) == 1 else VALUE


def _constant(v: Value) -> Fn:
    return lambda book, sh, r, c: v


def _flat(g: list[list[Value]], rows: int, cols: int) -> list[Value]:
    """An array stretched to ``rows`` x ``cols`` as :func:`element` stretches it, its values
    row by row."""
    if len(g) == rows and len(g[0]) == cols:
        return [v for line in g for v in line] if cols > 1 else [line[0] for line in g]
    if len(g) == 1 and len(g[0]) == cols:
        return g[0] * rows
    if len(g[0]) == 1 and len(g) == rows:
        return [line[0] for line in g for _ in range(cols)]
    return [element(g, i, j) for i in range(rows) for j in range(cols)]


def _result(book: Book, sh: str, r: int, c: int, x: Result) -> Value:
    """An element's result as one value (a text too long for Excel #VALUE!)."""
    if x.__class__ is str and len(x) > MAX_TEXT:
        return VALUE
    if isinstance(x, _ARRAY):
        return scalar(book, x, r, c)
    return x


def _converted(step: Any, v: Value) -> Any:
    """An element as its parameter's class takes it (an error where it cannot be; given
    as it is for a class that takes errors), the common cases (a number already a float, a
    text already a text) without a call."""
    if step is _NUMBER:
        return v if v.__class__ is float else number(v)
    if step is _TEXT:
        return v if v.__class__ is str else text_of(v)
    if step is _LAZY:
        return _constant(v)
    if step is _LOGICAL:
        return v if v.__class__ is bool else truth(v)
    if step is _PASS:
        return v
    return step(v)


def _call(book: Book, sh: str, r: int, c: int, fixed: list[Any], k: int, step: Any, v: Value,
          error: XlError | None, impl: Impl) -> Value:  # fmt: skip
    """One element's call where one argument (``k``) varies: ``v`` as its class takes it."""
    x: Any = _converted(step, v)
    if step is not _PASS and isinstance(x, XlError):
        return x  # a value that cannot be converted (an error passes as itself)
    if error is not None:
        return error
    args = fixed.copy()
    args[k] = x
    x = impl(book, sh, r, c, args)
    if x.__class__ is str and len(x) > MAX_TEXT:
        return VALUE
    if isinstance(x, _ARRAY):
        return scalar(book, x, r, c)
    return x  # type: ignore[no-any-return]


def _step(kind: str, strict: frozenset[str]) -> Callable[[Any], Any]:
    """What a value of parameter class ``kind`` goes through before the implementation sees
    it: converted (``n``, ``s``, ``b``), checked for an error (``v``, and references and
    arrays where their errors are the result), left as it is, or made a branch (``f``)."""
    if kind == "n":
        return _NUMBER
    if kind == "s":
        return _TEXT
    if kind == "b":
        return _LOGICAL
    if kind == "f":
        return _LAZY
    return _ERRORS if kind in strict else _PASS


def _NUMBER(v: Value) -> Value:  # noqa: N802 - a marker compared by identity
    return number(v)


def _TEXT(v: Value) -> Value:  # noqa: N802
    return text_of(v)


def _LOGICAL(v: Value) -> Value:  # noqa: N802
    return truth(v)


def _ERRORS(v: Value) -> Value:  # noqa: N802 - its error is the result, else it as it is
    return v


def _PASS(v: Value) -> Value:  # noqa: N802
    return v


def _LAZY(v: Value) -> Value:  # noqa: N802 - a branch
    return v


def implemented(name: str) -> Function:
    """The record of a function the engine computes; Unsupported for any other."""
    spec = FUNCTIONS.get(name)
    if spec is None or spec.impl is None:
        raise Unsupported(f"{name} is an Excel function recalc does not compute")
    return spec


# --- what the implementations share ---------------------------------------------------------


def flatten(book: Book, args: list[Result]) -> Iterator[tuple[Value, bool]]:
    """Every value of the arguments, with whether it came from a range (ranges skip texts and
    logicals in SUM, COUNT ...). A range larger than all its sheet holds
    (``SUM(A1:XFD1048576)``) gives the cells that hold something, blanks left out: it is never
    built cell by cell."""
    held = getattr(book, "held", None)
    for a in args:
        if held is not None and isinstance(a, Area):
            found = held(a)
            if found is not None:
                for v in found:
                    yield v, True
                continue
        if isinstance(a, Area | list):
            for line in as_grid(book, a):
                for v in line:
                    yield v, True
        else:
            yield a, False


def numbers_of(book: Book, args: list[Result]) -> list[float] | XlError:
    """The numbers of arguments given to SUM, AVERAGE ...: a range's numbers (its texts,
    logicals and blanks skipped), and typed-in values converted (``SUM("3",TRUE)`` is 4); the
    first error met is the result."""
    out: list[float] = []
    for v, from_range in flatten(book, args):
        if isinstance(v, XlError):
            return v
        if from_range:
            if isinstance(v, float | int) and not isinstance(v, bool):
                out.append(float(v))
        elif v is not None:
            x = number(v)
            if isinstance(x, XlError):
                return x
            out.append(x)
    return out


def values_of(book: Book, v: Result) -> list[Value]:
    """A range's or an array's values, row by row."""
    return [x for line in as_grid(book, v) for x in line]


def wildcards(text: str) -> Wildcard:
    """Excel's wildcards as a pattern, case-insensitive: ``*`` any run, ``?`` one character,
    ``~`` before either (or before ``~``) the character itself (:mod:`.wildcard`), compiled
    once for each text."""
    return compiled(text)


def fsum(values: list[float]) -> float:
    return math.fsum(values)


def running_sum(values: Iterable[float]) -> float:
    """The numbers added one after the other, as Excel's SUM adds them: its digits, not the
    exactly rounded sum's (an Excel-saved model's ``C-SUM(D:H)+I-J`` agrees to the bit); a
    sum whose last addition cancels to within 15 digits is 0, as a formula's last addition
    is (what the numbers before it left is kept: ``SUM`` of 4147.376179014694,
    -3553.38081175597, -593.9953672587238 and 0 is -3.41e-13 in Excel)."""
    total = before = last = 0.0
    for v in values:
        before = total
        total += v
        last = v
    if total and cancelled(total, min(before, last, key=abs)):
        return 0.0  # its last addition cancelled to the last 3 bits of its smaller side
    return total
