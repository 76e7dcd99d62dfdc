"""The names a formula gives values to, and the functions it calls as values: LET, LAMBDA
(called where written, through a defined name or a LET name), ISOMITTED, the LAMBDA helper
functions (MAP, REDUCE ...; :mod:`.functions.lambdas`), and SHEET and SHEETS, which need the
workbook's order of sheets. A part of the compiler (:class:`.compiler.Compiler` is one).

May import: :mod:`fide_rating.engine.formula`, :mod:`fide_rating.engine.functions` and the
standard library.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from .formula.parser import drive, parse
from .formula.values import NA, NAME, REF, VALUE, Area, Book, Fn, Result, Unsupported, XlError
from .functions import FUNCTIONS
from .functions.lambdas import HELPERS, OMITTED, Frames, Lambda

_Compiling = Generator[Any, Fn, Fn]  # a step of compiling: asks for its children's closures


class Scopes:
    """The compiler's LET and LAMBDA scopes and the calls of function values."""

    names: dict[str, str]
    local: dict[str, dict[str, str]]
    sheets: list[str]
    macros: bool
    _naming: set[str]
    # the names LET and LAMBDA give values to, the innermost last: each scope's names, its
    # frames (one list of values per computation under way), and for a LAMBDA's parameters
    # their places (ISOMITTED reads them as given)
    _scopes: list[tuple[dict[str, Fn], Frames, dict[str, int] | None]]

    if TYPE_CHECKING:

        def _node(self, n: tuple[Any, ...], array: bool, reference: bool = False) -> _Compiling: ...

        def name(self, text: str, *, reference: bool = False) -> Fn: ...

        def through_sheets(self, node: tuple[Any, ...]) -> list[tuple[Any, ...]]: ...

        def function(
            self, name: str, args: list[tuple[Any, ...]], *, array: bool, reference: bool = False
        ) -> _Compiling: ...

    def _bound(self, text: str) -> Fn | None:
        """A name LET or LAMBDA gives a value to, from the innermost out; None for any
        other."""
        key = _local(text)
        for scope, _, _ in reversed(self._scopes):
            if key in scope:
                return scope[key]
        return None

    def let(self, args: list[tuple[Any, ...]], *, array: bool) -> _Compiling:
        """LET(name1, value1, ..., calculation): each value computed once, in order (a value
        may use the names before it), then the calculation with the names standing for them.
        Excel writes the names ``_xlpm.name``."""
        if len(args) < 3 or len(args) % 2 == 0:
            raise Unsupported("LET takes names with their values, then a calculation")
        frames: Frames = []  # one a computation (a cell's LET may run another's)
        scope: dict[str, Fn] = {}
        values: list[Fn] = []
        self._scopes.append((scope, frames, None))
        try:
            for i in range(0, len(args) - 1, 2):
                if args[i][0] != "name" or "!" in args[i][1]:
                    raise Unsupported("a LET name that is not a name")
                # a reference stays one: LET(x, A1, ISREF(x)) is TRUE
                values.append((yield self._node(args[i + 1], array, True)))
                scope[_local(args[i][1])] = _slot(frames, len(values) - 1)
            calc = yield self._node(args[-1], array)
        finally:
            self._scopes.pop()

        def run(book: Book, sh: str, r: int, c: int) -> Result:
            frame: list[Result] = []
            frames.append(frame)
            try:
                for f in values:
                    frame.append(f(book, sh, r, c))
                return calc(book, sh, r, c)
            finally:
                frames.pop()

        return run

    def lambda_(self, args: list[tuple[Any, ...]], *, array: bool) -> _Compiling:
        """LAMBDA(parameter1, ..., calculation): a function value (:class:`Lambda`) holding
        the calculation compiled with the parameters as names, and the values of the LET
        names and parameters around it as they are when it is made."""
        if not args:
            raise Unsupported("LAMBDA takes its parameters, then a calculation")
        params, required = args[:-1], 0
        index: dict[str, int] = {}
        for i, p in enumerate(params):
            if p[0] != "name" or "!" in p[1] or _local(p[1]) in index:
                raise Unsupported("a LAMBDA parameter that is not a name of its own")
            index[_local(p[1])] = i
            if not p[1].upper().startswith("_XLOP."):  # [b]: an optional parameter
                required = i + 1
        frames: Frames = []
        around = [scope[1] for scope in self._scopes]
        scope = {k: _parameter(frames, i) for k, i in index.items()}
        self._scopes.append((scope, frames, index))
        try:
            body = yield self._node(args[-1], array)
        finally:
            self._scopes.pop()
        n = len(params)

        def make(book: Book, sh: str, r: int, c: int) -> Result:
            captured = [(f, f[-1]) for f in around if f]
            return Lambda(n, required, body, frames, captured)

        return make

    def eta(self, text: str, array: bool) -> Fn:
        """A function named where a LAMBDA goes (``BYROW(A1:C3, SUM)``, saved
        ``_xleta.SUM``): the LAMBDA calling it with the arguments it is given, as many as the
        function takes; #NAME? for a function Excel does not know."""
        name = text.upper().removeprefix("_XLETA.")
        spec = FUNCTIONS.get(name)
        if spec is None:
            return lambda book, sh, r, c: NAME
        least, most = spec.least, min(spec.most, 253)
        frames: Frames = []
        index = {f"_XLETA.{i}": i for i in range(most)}
        scope = {k: _parameter(frames, i) for k, i in index.items()}
        by_count: dict[int, Fn] = {}

        def body(book: Book, sh: str, r: int, c: int) -> Result:
            frame = frames[-1]
            n = next((i for i, v in enumerate(frame) if v is OMITTED), len(frame))
            found = by_count.get(n)
            if found is None:  # compiled once for each number of arguments it is given
                args = [("name", f"_xleta.{i}") for i in range(n)]
                scopes, self._scopes = self._scopes, [(scope, frames, index)]
                try:
                    found = by_count[n] = drive(self.function(name, args, array=array))
                finally:
                    self._scopes = scopes
            return found(book, sh, r, c)

        return lambda book, sh, r, c: Lambda(most, least, body, frames, [], name)

    def invoke(self, callee: Fn, args: list[tuple[Any, ...]], *, array: bool) -> _Compiling:
        """A function value called with ``args``: each computed (a reference stays one,
        ``LAMBDA(x,ISREF(x))(A1)`` is TRUE), one written empty is omitted; anything but a
        LAMBDA called is #VALUE!, and so is an error."""
        compiled = []
        for a in args:
            compiled.append(None if a[0] == "missing" else (yield self._node(a, array, True)))

        def run(book: Book, sh: str, r: int, c: int) -> Result:
            f: Any = callee(book, sh, r, c)
            if not isinstance(f, Lambda):
                return f if isinstance(f, XlError) else VALUE
            return f(book, sh, r, c, [OMITTED if g is None else g(book, sh, r, c)
                                      for g in compiled])  # fmt: skip

        return run

    def named_lambda(self, name: str) -> Fn:
        """A defined name called as a function (``CountWords(A1)``): its LAMBDA; one the name
        calls again within its own definition (recursion) is found when it runs."""
        upper = name.upper()
        defined = self.names.get(upper) or next(iter(self.local.get(upper, {}).values()), "")
        try:
            tree = parse(defined.lstrip("="), 1, 1)
        except Unsupported:
            tree = ("err", NAME)
        # a LAMBDA, or what may give one: a LET, a call of one, another name (an alias)
        if not (tree[0] == "call" and tree[1] in ("LAMBDA", "LET")) and tree[0] not in (
            "invoke",
            "name",
        ):
            if self.macros:
                raise Unsupported(
                    f"{name} is not an Excel function (one of the workbook's macros?)"
                )
            raise Unsupported(f"{name} is a defined name that is not a LAMBDA, called as one")
        if not any(k.partition("|")[0].partition("@")[0] == upper for k in self._naming):
            return self.name(name)
        found: list[Fn] = []

        def late(book: Book, sh: str, r: int, c: int) -> Result:
            if not found:
                found.append(self.name(name))
            return found[0](book, sh, r, c)

        return late

    def isomitted(self, args: list[tuple[Any, ...]]) -> Fn:
        """ISOMITTED(value): TRUE for a LAMBDA parameter given no argument, FALSE for
        anything else."""
        if len(args) != 1:
            raise Unsupported(f"ISOMITTED takes 1 argument, the formula gives it {len(args)}")
        if args[0][0] == "name":
            key = _local(args[0][1])
            for scope, frames, index in reversed(self._scopes):
                if key in scope:
                    if index is None:
                        break
                    k = index[key]
                    return lambda book, sh, r, c: frames[-1][k] is OMITTED
        return lambda book, sh, r, c: False

    def helper(self, name: str, args: list[tuple[Any, ...]]) -> _Compiling:
        """MAP, REDUCE, SCAN, BYROW, BYCOL, MAKEARRAY: their arguments computed as arrays
        (a range stays a range), then the function (:mod:`.functions.lambdas`)."""
        least, most, impl = HELPERS[name]
        if not least <= len(args) <= most:
            raise Unsupported(f"{name} takes {least} to {most} arguments, the formula gives it "
                              f"{len(args)}")  # fmt: skip
        compiled = []
        for a in args:
            compiled.append(None if a[0] == "missing" else (yield self._node(a, True, True)))

        def run(book: Book, sh: str, r: int, c: int) -> Result:
            values = []
            for g in compiled:
                v = OMITTED if g is None else g(book, sh, r, c)
                if isinstance(v, XlError) and not isinstance(v, Lambda):
                    return v
                values.append(v)
            return impl(book, sh, r, c, values)

        return run

    def sheet_number(self, name: str, args: list[tuple[Any, ...]]) -> _Compiling:
        """SHEET([value]): the number of the formula's sheet, of a reference's sheet or of the
        sheet a text names, in the workbook's order (hidden and chart sheets counted); #N/A
        for a text naming no sheet (or any other value), #REF! for a reference to a sheet
        that is not there. SHEETS([reference]): the sheets of a 3-D reference, 1 for any other
        reference, the workbook's sheets without one; #VALUE! for a value."""
        if len(args) > 1:
            raise Unsupported(f"{name} takes 0 to 1 argument, the formula gives it {len(args)}")
        if not self.sheets:
            raise Unsupported(f"{name} without the workbook's order of sheets")
        order = {s.upper(): i + 1.0 for i, s in enumerate(self.sheets)}
        count = float(len(self.sheets))
        if not args or args[0][0] == "missing":
            if name == "SHEETS":
                return lambda book, sh, r, c: count
            return lambda book, sh, r, c: order.get(sh.upper(), NA)
        node = args[0]
        if node[0] in ("cell", "area") and node[1] and ":" in node[1]:  # Sheet1:Sheet3!A1
            each = self.through_sheets(node)
            if each[0][0] == "err":
                return lambda book, sh, r, c: REF
            if name == "SHEETS":
                n = float(len(each))
                return lambda book, sh, r, c: n
            node = each[0]
        of = yield self._node(node, False, True)

        def run(book: Book, sh: str, r: int, c: int) -> Result:
            v = of(book, sh, r, c)
            if isinstance(v, XlError):
                return v
            if name == "SHEETS":
                return 1.0 if isinstance(v, Area) else VALUE
            if isinstance(v, Area):
                return order.get(v.sheet.upper(), REF)
            return order.get(v.upper(), NA) if isinstance(v, str) else NA

        return run


def _local(text: str) -> str:
    """A LET name's or a LAMBDA parameter's key: Excel writes ``_xlpm.x`` (``_xlop.x`` for an
    optional parameter's own name)."""
    return text.upper().removeprefix("_XLPM.").removeprefix("_XLOP.")


def _slot(frames: Frames, k: int) -> Fn:
    """A LET name: its value in the computation under way."""
    return lambda book, sh, r, c: frames[-1][k]


def _parameter(frames: Frames, k: int) -> Fn:
    """A LAMBDA's parameter: its argument in the call under way (one omitted reads as a
    blank)."""

    def read(book: Book, sh: str, r: int, c: int) -> Result:
        v = frames[-1][k]
        return None if v is OMITTED else v

    return read
