"""Classic xlwings (Excel on Windows), proven with its own code: the VBA module that *Import
Functions* writes is parsed with a VBA grammar, its MacroOptions are held to Excel's limits,
and every function is called through xlwings' classic conversion (COM values in, what Excel
gets back out). Only the Windows modules are stubbed (tests/hosts/classic_driver.py)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from antlr4 import CommonTokenStream, InputStream
from antlr4.error.ErrorListener import ErrorListener
from antlr4_vba.vba_ccLexer import vba_ccLexer
from antlr4_vba.vba_ccParser import vba_ccParser
from antlr4_vba.vbaLexer import vbaLexer
from antlr4_vba.vbaParser import vbaParser

from fide_rating.cells import REGISTRY
from host_cases import CASES, expected, to_json

DRIVER = Path(__file__).parent / "hosts" / "classic_driver.py"

# MS-VBAL 3.3.5.2 (reserved identifiers) and the VBA keywords a parameter cannot be named
VBA_RESERVED = frozenset(
    [
        "abs",
        "addressof",
        "and",
        "any",
        "array",
        "as",
        "attribute",
        "base",
        "boolean",
        "byref",
        "byte",
        "byval",
        "call",
        "case",
        "cbool",
        "cbyte",
        "ccur",
        "cdate",
        "cdbl",
        "cdec",
        "cdecl",
        "circle",
        "cint",
        "clng",
        "clnglng",
        "clngptr",
        "close",
        "compare",
        "const",
        "csng",
        "cstr",
        "currency",
        "cvar",
        "cverr",
        "date",
        "debug",
        "declare",
        "defbool",
        "defbyte",
        "defcur",
        "defdate",
        "defdbl",
        "defint",
        "deflng",
        "deflnglng",
        "deflngptr",
        "defobj",
        "defsng",
        "defstr",
        "defvar",
        "dim",
        "do",
        "doevents",
        "double",
        "each",
        "else",
        "elseif",
        "empty",
        "end",
        "endif",
        "enum",
        "eqv",
        "erase",
        "error",
        "event",
        "exit",
        "explicit",
        "false",
        "fix",
        "for",
        "friend",
        "function",
        "get",
        "global",
        "gosub",
        "goto",
        "if",
        "imp",
        "implements",
        "in",
        "input",
        "inputb",
        "int",
        "integer",
        "is",
        "lbound",
        "len",
        "lenb",
        "let",
        "lib",
        "like",
        "lock",
        "long",
        "longlong",
        "longptr",
        "loop",
        "lset",
        "me",
        "mod",
        "new",
        "next",
        "not",
        "nothing",
        "null",
        "object",
        "on",
        "open",
        "option",
        "optional",
        "or",
        "paramarray",
        "preserve",
        "print",
        "private",
        "ptrsafe",
        "public",
        "pset",
        "put",
        "raiseevent",
        "redim",
        "rem",
        "resume",
        "return",
        "rset",
        "scale",
        "seek",
        "select",
        "set",
        "sgn",
        "shared",
        "single",
        "spc",
        "static",
        "step",
        "stop",
        "string",
        "sub",
        "tab",
        "then",
        "to",
        "true",
        "type",
        "typeof",
        "ubound",
        "unlock",
        "until",
        "variant",
        "vb_name",
        "wend",
        "while",
        "with",
        "withevents",
        "write",
        "xor",
    ]
)
VBA_NAME_MAX = 255  # identifiers
VBA_LINE_MAX = 1023  # a physical line of a module
MACRO_OPTIONS_TEXT_MAX = 255  # Description and each ArgumentDescription


@cache
def run() -> dict[str, Any]:
    cases = json.dumps([[name, [to_json(a) for a in args]] for name, args in CASES])
    done = subprocess.run(
        [sys.executable, str(DRIVER)], input=cases, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)  # type: ignore[no-any-return]


class _Errors(ErrorListener):  # type: ignore[misc]
    def __init__(self) -> None:
        self.found: list[str] = []

    def syntaxError(self, recognizer: Any, symbol: Any, line: int, column: int, msg: str,  # noqa: N802
                    e: Any) -> None:  # fmt: skip
        self.found.append(f"line {line}:{column}: {msg}")


def syntax_errors(text: str, lexer: Any = vbaLexer, parser: Any = vbaParser) -> list[str]:
    errors = _Errors()
    lex = lexer(InputStream(text))
    lex.removeErrorListeners()
    lex.addErrorListener(errors)
    parse = parser(CommonTokenStream(lex))
    parse.removeErrorListeners()
    parse.addErrorListener(errors)
    parse.startRule()
    return errors.found


def compiled(text: str, *, excel: bool) -> str:
    """The module as VBA compiles it with ``#Const App = "Microsoft Excel"`` (or another app):
    the conditional-compilation lines resolved."""
    out, stack = [], []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("#Const"):
            continue
        if s.startswith("#If "):
            assert s == '#If App = "Microsoft Excel" Then', s
            stack.append(excel)
        elif s == "#Else":
            stack[-1] = not stack[-1]
        elif s == "#End If":
            stack.pop()
        elif all(stack):
            out.append(line)
    assert not stack
    return "\n".join(out) + "\n"


def test_the_vba_module_is_valid_vba() -> None:
    vba = run()["vba"]
    assert "Function FIDE_EDITION(Optional start)" in vba
    assert syntax_errors(vba, vba_ccLexer, vba_ccParser) == []
    for excel in (True, False):
        assert syntax_errors(compiled(vba, excel=excel)) == []


def test_the_parse_fails_on_a_reserved_parameter_name() -> None:
    """The failure of the issue: a parameter named date makes the whole module a syntax
    error, and with it every function."""
    vba = run()["vba"].replace("Optional start)", "Optional date)").replace("(start)", "(date)")
    assert syntax_errors(compiled(vba, excel=True))


def test_the_vba_module_keeps_excels_limits() -> None:
    vba = run()["vba"]
    assert max(map(len, vba.splitlines())) <= VBA_LINE_MAX
    for options in run()["macro_options"]:
        assert len(options["Description"]) <= MACRO_OPTIONS_TEXT_MAX
        assert all(len(t) <= MACRO_OPTIONS_TEXT_MAX for t in options["ArgumentDescriptions"])
    assert len(run()["macro_options"]) == len(REGISTRY)


def test_help_texts_are_not_cut() -> None:
    """xlwings cuts a description at 255 characters: ours fit, so none is cut."""
    for fn in REGISTRY:
        assert len(fn.help) <= MACRO_OPTIONS_TEXT_MAX, fn.name
        assert all(len(p.help) <= MACRO_OPTIONS_TEXT_MAX for p in fn.params), fn.name


@pytest.mark.parametrize("fn", REGISTRY, ids=lambda f: f.name)
def test_names_every_host_accepts(fn: Any) -> None:
    # VBA (classic xlwings), Office.js custom functions (xlwings Lite), UNO IDL (Calc)
    assert re.fullmatch(r"[A-Z][A-Z0-9_.]{2,}", fn.name) and len(fn.name) <= VBA_NAME_MAX
    assert not re.fullmatch(r"[A-Z]{1,3}[0-9]+|R[0-9]+C[0-9]+", fn.name)  # not a cell address
    names = [p.name for p in fn.params]
    assert len(set(names)) == len(names)
    for name in names:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", name), name
        assert name.lower() not in VBA_RESERVED, f"{fn.name}({name}): reserved in VBA"
        assert len(name) <= VBA_NAME_MAX


def test_the_reserved_word_check_can_fail() -> None:
    assert "date" in VBA_RESERVED and "currency" in VBA_RESERVED and "start" not in VBA_RESERVED


@pytest.mark.parametrize("i", range(len(CASES)), ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)])
def test_every_call_through_classic_xlwings(i: int) -> None:
    name, args = CASES[i]
    got = run()["results"][i]
    assert isinstance(got, list) and len(got) == 1 and len(got[0]) == 1  # one cell
    want = expected(name, args)
    value = got[0][0]
    if isinstance(want, str):
        assert value == want
    else:
        assert isinstance(value, int | float) and value == pytest.approx(want, abs=1e-12)
