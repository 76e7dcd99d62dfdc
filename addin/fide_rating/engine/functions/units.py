"""CONVERT (Excel's Engineering category): a number from one unit of measure to another.

The units are those of Excel's function reference, by their exact definitions: the
international yard and pound (1959), the US survey foot, the standard gravity 9.80665 m/s²,
the international table calorie and BTU, the US gallon of 231 cubic inches, the imperial
gallon of 4.54609 litres. Units are case-sensitive; a metric prefix (``k``, ``m``, ``da`` or
``e`` ...) goes before the units Excel allows it on (its saved values show more than its
reference lists: ``Pmph``, ``Zparsec``), a binary one (``ki``, ``Mi`` ...) before ``bit``
and ``byte``; an area or volume unit of a length takes its
prefix squared or cubed (``km2``). An unknown unit, or two of different kinds, is #N/A.

Units whose factor rests on a measured constant take Excel's figures, as its saved values show
them: the atomic mass unit 1.660538782e-24 g and the electronvolt 1.602176487e-19 J (CODATA
2006), the parsec 3.26156377694566 light years, the millimetre of mercury 133.322 Pa.

May import: :mod:`fide_rating.engine.formula.values`, :mod:`.base` and the standard library.
"""

from __future__ import annotations

from fractions import Fraction as F  # noqa: N817 - the tables read better with it

from ..formula.coerce import number
from ..formula.values import NA, VALUE, Book, Result, Value, XlError
from .base import define

_LBM = F("0.45359237")  # kg
_FT = F("0.3048")  # m
_IN = F("0.0254")
_GN = F("9.80665")  # m/s²
_LBF = _LBM * _GN  # N
_GAL = 231 * _IN**3  # m³
_UK_GAL = F("0.00454609")
_SURVEY_FT = F(1200, 3937)
_LY = F(9460730472580800)  # m: the speed of light over a Julian year
_HP = 550 * _FT * _LBF  # W

# kind -> {unit: factor to the kind's base unit}, exact
_LENGTHS = {"m": F(1), "mi": F("1609.344"), "Nmi": F(1852), "in": _IN, "ft": _FT, "yd": 3 * _FT,
            "ang": F("1e-10"), "ell": 45 * _IN, "ly": _LY, "Picapt": _IN / 72, "Pica": _IN / 72,
            "pica": _IN / 6, "survey_mi": 5280 * _SURVEY_FT}  # fmt: skip
_UNITS: dict[str, dict[str, F]] = {
    "mass": {"g": F(1), "sg": 1000 * _LBF / _FT, "lbm": 1000 * _LBM, "ozm": 1000 * _LBM / 16,
             "grain": F("0.06479891"), "cwt": 100_000 * _LBM, "shweight": 100_000 * _LBM,
             "uk_cwt": 112_000 * _LBM, "lcwt": 112_000 * _LBM, "hweight": 112_000 * _LBM,
             "stone": 14_000 * _LBM, "ton": 2_000_000 * _LBM, "uk_ton": 2_240_000 * _LBM,
             "LTON": 2_240_000 * _LBM, "brton": 2_240_000 * _LBM},
    "length": _LENGTHS,
    "time": {"yr": F("365.25") * 86400, "day": F(86400), "d": F(86400), "hr": F(3600),
             "mn": F(60), "min": F(60), "sec": F(1), "s": F(1)},
    "pressure": {"Pa": F(1), "p": F(1), "atm": F(101325), "at": F(101325),
                 "psi": _LBF / _IN**2, "Torr": F(101325, 760)},
    "force": {"N": F(1), "dyn": F("1e-5"), "dy": F("1e-5"), "lbf": _LBF, "pond": _GN / 1000},
    "energy": {"J": F(1), "e": F("1e-7"), "c": F("4.184"), "cal": F("4.1868"),
               "HPh": _HP * 3600, "hh": _HP * 3600, "Wh": F(3600), "wh": F(3600),
               "flb": _FT * _LBF, "BTU": F("1055.05585262"), "btu": F("1055.05585262")},
    "power": {"W": F(1), "w": F(1), "HP": _HP, "h": _HP, "PS": 75 * _GN},
    "magnetism": {"T": F(1), "ga": F("1e-4")},
    "volume": {"l": F("1e-3"), "L": F("1e-3"), "lt": F("1e-3"), "tsp": _GAL / 768,
               "tspm": F("5e-6"), "tbs": _GAL / 256, "oz": _GAL / 128, "cup": _GAL / 16,
               "pt": _GAL / 8, "us_pt": _GAL / 8, "uk_pt": _UK_GAL / 8, "qt": _GAL / 4,
               "uk_qt": _UK_GAL / 4, "gal": _GAL, "uk_gal": _UK_GAL, "barrel": 42 * _GAL,
               "bushel": F("2150.42") * _IN**3, "GRT": 100 * _FT**3, "regton": 100 * _FT**3,
               "MTON": 40 * _FT**3},
    "area": {"ar": F(100), "ha": F(10_000), "Morgen": F(2500), "uk_acre": 4840 * (3 * _FT) ** 2,
             "us_acre": 43560 * _SURVEY_FT**2},
    "information": {"bit": F(1), "byte": F(8)},
    "speed": {"admkn": 6080 * _FT / 3600, "kn": F(1852, 3600), "m/h": F(1, 3600),
              "m/hr": F(1, 3600), "m/s": F(1), "m/sec": F(1), "mph": F("1609.344") / 3600},
}  # fmt: skip
for _name, _factor in _LENGTHS.items():  # areas and volumes of the lengths: m2, ft^3 ...
    for _power, _kind in ((2, "area"), (3, "volume")):
        for _written in (f"{_name}{_power}", f"{_name}^{_power}"):
            _UNITS[_kind][_written] = _factor**_power
for _written in ("Picapt2", "Picapt^2", "Picapt3", "Picapt^3"):
    _UNITS["area" if "2" in _written else "volume"][_written] = (_IN / 72) ** int(_written[-1])

_TEMPERATURES = {"C": "C", "cel": "C", "F": "F", "fah": "F", "K": "K", "kel": "K",
                 "Rank": "Rank", "Reau": "Reau"}  # fmt: skip
_UNITS["mass"]["u"] = F("1.660538782e-24")
_UNITS["energy"].update({"eV": F("1.602176487e-19"), "ev": F("1.602176487e-19")})
_UNITS["length"].update({"parsec": F("3.26156377694566") * _LY, "pc": F("3.26156377694566") * _LY})
_UNITS["pressure"]["mmHg"] = F("133.322")

_PREFIXES = {prefix: F(10) ** power for prefix, power in (
    ("Y", 24), ("Z", 21), ("E", 18), ("P", 15), ("T", 12), ("G", 9), ("M", 6), ("k", 3),
    ("h", 2), ("da", 1), ("e", 1), ("d", -1), ("c", -2), ("m", -3), ("u", -6), ("n", -9),
    ("p", -12), ("f", -15), ("a", -18), ("z", -21), ("y", -24))}  # fmt: skip
_BINARY = {
    prefix: F(2) ** (10 * (i + 1))
    for i, prefix in enumerate(("ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"))
}
# the units a metric prefix may go before, as Excel's saved values show them (its reference
# lists fewer), with the prefix's power (an area's squared, km2; a volume's cubed)
_PREFIXED = {"g": 1, "m": 1, "sec": 1, "s": 1, "Pa": 1, "p": 1, "atm": 1, "at": 1, "N": 1,
             "dyn": 1, "dy": 1, "pond": 1, "J": 1, "e": 1, "c": 1, "cal": 1, "Wh": 1, "wh": 1,
             "W": 1, "w": 1, "T": 1, "ga": 1, "l": 1, "L": 1, "lt": 1, "ang": 1, "ly": 1,
             "m2": 2, "m^2": 2, "m3": 3, "m^3": 3, "ang2": 2, "ang^2": 2, "ang3": 3,
             "ang^3": 3, "bit": 1, "byte": 1, "K": 1, "kel": 1, "m/h": 1, "m/hr": 1, "m/s": 1,
             "m/sec": 1, "u": 1, "parsec": 1, "pc": 1, "mmHg": 1, "eV": 1, "ev": 1, "ar": 1,
             "mph": 1, "uk_pt": 1}  # fmt: skip


def _exact(name: str) -> tuple[str, F] | None:
    for kind, units in _UNITS.items():
        if name in units:
            return kind, units[name]
    if name in _TEMPERATURES:
        return "temperature:" + _TEMPERATURES[name], F(1)
    return None


def _unit(name: str) -> tuple[str, F] | None:
    """A unit's kind and factor to the kind's base unit (a temperature: its scale, factor
    1 or the prefix's), or None for a unit Excel does not know: a unit as written, else a
    prefix and a unit (an area's or a volume's prefix squared or cubed)."""
    found = _exact(name)
    if found is not None:
        return found
    for prefixes in (_BINARY, _PREFIXES):
        for prefix, scale in prefixes.items():
            rest = name[len(prefix) :]
            if not name.startswith(prefix) or rest not in _PREFIXED:
                continue
            if prefixes is _BINARY and rest not in ("bit", "byte"):
                continue
            found = _exact(rest)
            if found is None:
                continue
            kind, factor = found
            return kind, factor * scale ** _PREFIXED[rest]
    return None


_ZERO_C = F("273.15")


def _to_kelvin(x: F, scale: str) -> F:
    return {"C": x + _ZERO_C, "F": (x - 32) * 5 / 9 + _ZERO_C, "K": x, "Rank": x * 5 / 9,
            "Reau": x * 5 / 4 + _ZERO_C}[scale]  # fmt: skip


def _from_kelvin(k: F, scale: str) -> F:
    return {"C": k - _ZERO_C, "F": (k - _ZERO_C) * 9 / 5 + 32, "K": k, "Rank": k * 9 / 5,
            "Reau": (k - _ZERO_C) * 4 / 5}[scale]  # fmt: skip


@define("CONVERT", "v s s", single=True)
def _convert(book: Book, sh: str, r: int, c: int, args: list[Value]) -> Result:
    value, source_name, target_name = args
    if isinstance(value, bool):
        return VALUE
    x = number(value)
    if isinstance(x, XlError):
        return x
    assert isinstance(source_name, str) and isinstance(target_name, str)
    source, target = _unit(source_name), _unit(target_name)
    if source is None or target is None:
        return NA
    (kind, factor), (kind_to, factor_to) = source, target
    exact = F(x)  # exact ratios, rounded once: 6 in is 0.5 ft, not 0.4999999999999999
    if kind.startswith("temperature:") and kind_to.startswith("temperature:"):
        kelvin = _to_kelvin(exact * factor, kind.partition(":")[2])
        return float(_from_kelvin(kelvin, kind_to.partition(":")[2]) / factor_to)
    if kind != kind_to:
        return NA
    return float(exact * factor / factor_to)
