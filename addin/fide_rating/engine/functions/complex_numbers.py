"""The complex numbers of Excel's Engineering category: COMPLEX and the IM functions.

A complex number is a text, ``x+yi`` or ``x+yj`` (``3+4i``, ``-2.5j``, ``i``, ``1E-20-3i``);
a number given is its real part. Excel's function reference is the specification: a text
that is not a complex number is ``#NUM!``, a logical ``#VALUE!``, and so is a suffix other
than ``i`` or ``j``, or two numbers with different suffixes. Each part of a result is written
to 15 significant digits, in decimals from 1E-18 (Excel writes ``1E-16`` as
``0.0000000000000001``) and in Excel's scientific form beyond. IMPOWER and IMSQRT are
computed in polar form, as Excel does (``IMPOWER("2+3i",3)`` is ``-46+9.00000000000001i``).

May import: :mod:`fide_rating.engine.formula` (values and coercions), :mod:`.base` and the
standard library.
"""

from __future__ import annotations

import cmath
import math
import re
from collections.abc import Callable
from decimal import Decimal

from ..formula.values import DIV0, NUM, VALUE, Book, Result, Value, XlError, as_grid
from .base import Impl, define

_NUMBER = r"(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_COMPLEX = re.compile(rf"(?P<re>[+-]?{_NUMBER})?(?:(?P<im>[+-]?(?:{_NUMBER})?)(?P<suffix>[ij]))?")

Parsed = tuple[complex, str]  # the number and its suffix ("" when it has none)


def parse(v: Value) -> Parsed | XlError:
    """A complex number given to an IM function."""
    if isinstance(v, XlError):
        return v
    if isinstance(v, bool):
        return VALUE
    if v is None:
        return 0j, ""
    if isinstance(v, float | int):
        return complex(v), ""
    text = str(v)
    found = _COMPLEX.fullmatch(text)
    if not text or found is None or (found["re"] is None and found["suffix"] is None):
        return NUM
    real = float(found["re"]) if found["re"] else 0.0
    if found["suffix"] is None:
        return complex(real, 0.0), ""
    part = found["im"]
    if found["re"] and part in ("", None):  # "3i" is read as 3 imaginary, not 3 + i
        return complex(0.0, real), found["suffix"]
    imag = -1.0 if part == "-" else 1.0 if part in ("", "+", None) else float(part)
    return complex(real, imag), found["suffix"]


def _part(x: float) -> str:
    """One part of a complex number as Excel writes it: 15 significant digits."""
    text = f"{x:.15g}"
    if "e" not in text:
        return text
    mantissa, _, power = text.partition("e")
    exponent = int(power)
    if -18 <= exponent < 15:
        return format(Decimal(text), "f")
    return f"{mantissa}E{'-' if exponent < 0 else '+'}{abs(exponent):02d}"


def write(z: complex, suffix: str) -> Result:
    """A complex number as Excel writes it (``12+6i``, ``-i``, ``5``, ``0``)."""
    if not (math.isfinite(z.real) and math.isfinite(z.imag)):
        return NUM
    real, imag = z.real + 0.0, z.imag + 0.0  # no "-0"
    if imag == 0:
        return _part(real)
    unit = suffix or "i"
    im = "" if imag == 1 else "-" if imag == -1 else _part(imag)
    if real == 0:
        return im + unit
    return _part(real) + ("" if imag < 0 else "+") + im + unit


def _suffix(*suffixes: str) -> str | XlError:
    """The suffix of a result: the arguments' one, the same for all (else #VALUE!)."""
    given = {s for s in suffixes if s}
    if len(given) > 1:
        return VALUE
    return given.pop() if given else "i"


@define("COMPLEX", "n n s?", single=True)
def _complex(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    real, imag, suffix = args
    assert isinstance(real, float) and isinstance(imag, float)
    unit = "i" if suffix in (None, "") else suffix
    if unit not in ("i", "j"):
        return VALUE
    return write(complex(real, imag), str(unit))


def _unary(f: Callable[[complex], complex | float], text: bool = True) -> Impl:
    """An IM function of one complex number: a complex result (its suffix kept), or a
    number; a result that is not finite, or a domain error, is #NUM!."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        found = parse(args[0])
        if isinstance(found, XlError):
            return found
        z, suffix = found
        try:
            out = f(z)
        except (ValueError, ZeroDivisionError, OverflowError):
            return NUM
        if isinstance(out, complex):
            return write(out, suffix or "i") if text else NUM
        return out if math.isfinite(out) else NUM

    return impl


def _polar_sqrt(z: complex) -> complex:
    r, theta = abs(z), math.atan2(z.imag, z.real)
    return cmath.rect(math.sqrt(r), theta / 2)


def _log(base: float) -> Callable[[complex], complex]:
    def f(z: complex) -> complex:
        if z == 0:
            raise ValueError
        return cmath.log(z) / math.log(base)

    return f


def _nonzero(f: Callable[[complex], complex]) -> Callable[[complex], complex]:
    def g(z: complex) -> complex:
        found = f(z)
        if found == 0:
            raise ZeroDivisionError
        return 1 / found

    return g


def _cot(z: complex) -> complex:
    """cot z as 1 / tan z: Excel's digits, and 1E+16 for 1E-16."""
    t = cmath.tan(z)
    if t == 0:
        raise ZeroDivisionError
    return 1 / t


_UNARY: dict[str, Callable[[complex], complex | float]] = {
    "IMREAL": lambda z: z.real,
    "IMAGINARY": lambda z: z.imag,
    "IMABS": abs,
    "IMCONJUGATE": lambda z: z.conjugate(),
    "IMSQRT": _polar_sqrt,
    "IMEXP": cmath.exp,
    "IMLN": _log(math.e),
    "IMLOG10": _log(10.0),
    "IMLOG2": _log(2.0),
    "IMSIN": cmath.sin,
    "IMCOS": cmath.cos,
    "IMTAN": cmath.tan,
    "IMSINH": cmath.sinh,
    "IMCOSH": cmath.cosh,
    "IMSEC": _nonzero(cmath.cos),
    "IMSECH": _nonzero(cmath.cosh),
    "IMCSC": _nonzero(cmath.sin),
    "IMCSCH": _nonzero(cmath.sinh),
    "IMCOT": _cot,
}
for _name, _f in _UNARY.items():
    define(_name, "v", single=True)(_unary(_f))


@define("IMARGUMENT", "v", single=True)
def _imargument(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    found = parse(args[0])
    if isinstance(found, XlError):
        return found
    z = found[0]
    return DIV0 if z == 0 else math.atan2(z.imag, z.real)


@define("IMPOWER", "v n", single=True)
def _impower(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    """z to a real power, in polar form: |z|^n (cos nθ + i sin nθ)."""
    found = parse(args[0])
    if isinstance(found, XlError):
        return found
    (z, suffix), n = found, args[1]
    assert isinstance(n, float)
    if z == 0:
        return NUM if n <= 0 else "0"
    theta = math.atan2(z.imag, z.real)
    try:
        size = abs(z) ** n
    except OverflowError:
        return NUM
    return write(complex(size * math.cos(n * theta), size * math.sin(n * theta)), suffix)


def _pair(f: Callable[[complex, complex], complex]) -> Impl:
    """IMSUB and IMDIV: two complex numbers, their suffixes alike."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
        a, b = parse(args[0]), parse(args[1])
        if isinstance(a, XlError):
            return a
        if isinstance(b, XlError):
            return b
        suffix = _suffix(a[1], b[1])
        if isinstance(suffix, XlError):
            return suffix
        try:
            return write(f(a[0], b[0]), suffix)
        except ZeroDivisionError:
            return NUM

    return impl


def _divide(a: complex, b: complex) -> complex:
    """(a + bi) / (c + di) as Excel's reference writes it."""
    den = b.real * b.real + b.imag * b.imag
    if den == 0:
        raise ZeroDivisionError
    return complex((a.real * b.real + a.imag * b.imag) / den,
                   (a.imag * b.real - a.real * b.imag) / den)  # fmt: skip


define("IMSUB", "v v", single=True)(_pair(lambda a, b: a - b))
define("IMDIV", "v v", single=True)(_pair(_divide))


def _many(product: bool) -> Impl:
    """IMSUM and IMPRODUCT: complex numbers typed in or in ranges (a blank cell is 0, as
    Excel's saved values show: IMPRODUCT(7,A1) with A1 blank is 0)."""

    def impl(book: Book, sh: str, r: int, c: int, args: list[Result]) -> Result:
        total = complex(1 if product else 0)
        suffixes: list[str] = []
        for a in args:
            values = [v for line in as_grid(book, a) for v in line] if a is not None else []
            for v in values:
                found = parse(v)
                if isinstance(found, XlError):
                    return found
                z, suffix = found
                suffixes.append(suffix)
                total = total * z if product else total + z
        unit = _suffix(*suffixes)
        return unit if isinstance(unit, XlError) else write(total, unit)

    return impl


define("IMSUM", "x", union=True)(_many(False))
define("IMPRODUCT", "x", union=True)(_many(True))
