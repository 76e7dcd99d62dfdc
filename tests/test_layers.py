"""The package's layers: what the add-ins pack is self-contained and needs only the standard
library; the top-level package is the rules core's API. (The import contracts between the
layers are checked by ``lint-imports`` in the test command, from pyproject.toml.)"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import fide_rating
from fide_rating.cells.calc.build import CORE_MODULES

PACKAGE = Path(fide_rating.__file__).resolve().parent


def imports_of(source: str, module: str) -> list[str]:
    """The absolute names of the modules a module's source imports (relative ones resolved)."""
    out = []
    package = module.rpartition(".")[0] if not module.endswith("__init__") else module[:-9]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
                if node.module is None:
                    out += [f"{target}.{alias.name}" for alias in node.names]
                else:
                    out.append(target)
            elif node.module != "__future__":
                out.append(node.module or "")
    return out


def outside(packed: set[str], imported: str) -> bool:
    """Whether an import needs something that neither the standard library nor the packed
    files provide."""
    top = imported.split(".", maxsplit=1)[0]
    if top != "fide_rating":
        return top not in sys.stdlib_module_names
    return imported not in packed and f"{imported}.__init__" not in packed


def _module(name: str) -> str:
    return "fide_rating." + name.removesuffix(".py").replace("/", ".")


def test_the_check_can_fail() -> None:
    packed = {"fide_rating.rules.tables", "fide_rating.__init__"}
    assert outside(packed, "openpyxl")
    assert outside(packed, "fide_rating.engine.recalc")
    assert not outside(packed, "fractions")
    assert not outside(packed, "fide_rating.rules.tables")
    assert imports_of("from ..engine import recalc\n", "fide_rating.rules.tables") == [
        "fide_rating.engine"
    ]
    assert imports_of("from . import tables\n", "fide_rating.rules.__init__") == [
        "fide_rating.rules.tables"
    ]


@pytest.mark.parametrize("name", [n for n in CORE_MODULES if n.endswith(".py")])
def test_packed_modules_are_self_contained(name: str) -> None:
    """Everything the .oxt and the xlwings Lite bundle carry imports only the standard library
    and other packed files: the add-ins load these modules alone."""
    packed = {_module(n) for n in CORE_MODULES if n.endswith(".py")}
    source = (PACKAGE / name).read_text(encoding="utf-8")
    bad = [m for m in imports_of(source, _module(name)) if outside(packed, m)]
    assert bad == [], f"{name} imports {bad}"


def test_every_rules_module_is_packed() -> None:
    rules = {f"rules/{p.name}" for p in (PACKAGE / "rules").glob("*.py")}
    assert rules <= set(CORE_MODULES)


def test_top_level_is_the_rules_api() -> None:
    source = (PACKAGE / "__init__.py").read_text(encoding="utf-8")
    found = imports_of(source, "fide_rating.__init__")
    assert found
    assert all(m.startswith("fide_rating.rules.") or m.split(".")[0] in sys.stdlib_module_names
               for m in found), found  # fmt: skip
