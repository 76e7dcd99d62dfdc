"""Classic xlwings (Excel on Windows), proven with its own code: the VBA module that *Import
Functions* writes is parsed with a VBA grammar, its MacroOptions are held to Excel's limits,
and every function is called through xlwings' classic conversion (COM values in, what Excel
gets back out). Only the Windows modules are stubbed (tests/hosts/classic_driver.py).

The README's set-up steps are checked against the installed xlwings: the settings it names
are the ones xlwings' VBA reads, the ribbon names are its ribbon's, the commands exist, and
``xlwings addin install`` writes the interpreter line the README shows."""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import subprocess
import sys
import zipfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import xlwings
from antlr4 import CommonTokenStream, InputStream
from antlr4.error.ErrorListener import ErrorListener
from antlr4_vba.vba_ccLexer import vba_ccLexer
from antlr4_vba.vba_ccParser import vba_ccParser
from antlr4_vba.vbaLexer import vbaLexer
from antlr4_vba.vbaParser import vbaParser

from fide_rating.cells import REGISTRY
from host_cases import CASES, expected, to_json

DRIVER = Path(__file__).parent / "hosts" / "classic_driver.py"
ROOT = Path(__file__).resolve().parent.parent
XLWINGS = Path(xlwings.__file__).parent
UDF_MODULE = "fide_rating.excel"  # what the README has users type, and the driver imports

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
    assert "Function FIDE_EDITION(Optional start, Optional rating_type)" in vba
    assert syntax_errors(vba, vba_ccLexer, vba_ccParser) == []
    for excel in (True, False):
        assert syntax_errors(compiled(vba, excel=excel)) == []


def test_the_parse_fails_on_a_reserved_parameter_name() -> None:
    """The failure of the issue: a parameter named date makes the whole module a syntax
    error, and with it every function."""
    vba = run()["vba"].replace("Optional start,", "Optional date,").replace("(start,", "(date,")
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


def test_xlwings_imports_the_udf_module_by_the_name_users_type() -> None:
    """xlwings' own get_udf_module (importlib) found ``fide_rating.excel`` by that name."""
    assert run()["module"] == UDF_MODULE
    assert Path(run()["file"]).parts[-2:] == ("fide_rating", "excel.py")


def classic_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    head = "### Excel on Windows with classic xlwings\n"
    return text[text.index(head) :].split("\n### ", 1)[0]


@cache
def settings_xlwings_reads() -> frozenset[str]:
    """Every name the add-in's VBA asks GetConfig for (file, sheet or ribbon setting)."""
    vba = "\n".join(p.read_text(encoding="utf-8", errors="replace")
                    for p in (XLWINGS / "addin").glob("*.bas"))  # fmt: skip
    return frozenset(k.upper() for k in re.findall(r'GetConfig\("([^"]+)"', vba))


def test_the_settings_named_are_the_ones_xlwings_reads() -> None:
    pairs = re.findall(r'^\s*"([^"]+)","([^"]*)"\s*$', classic_section(), re.MULTILINE)
    named = {key for key, _ in pairs}
    assert named == {"INTERPRETER_WIN", "UDF MODULES"}
    assert named <= settings_xlwings_reads()
    assert dict(pairs)["UDF MODULES"] == UDF_MODULE
    assert f"*UDF Modules* `{UDF_MODULE}`" in classic_section()
    # the check can fail: the underscore spelling the README once had is not read
    assert "UDF_MODULES" not in settings_xlwings_reads()
    # the quickstart workbook's own settings sheet spells them so too
    with zipfile.ZipFile(XLWINGS / "quickstart.xlsm") as book:
        strings = book.read("xl/sharedStrings.xml").decode("utf-8")
    assert "UDF Modules" in strings and "Interpreter_Win" in strings
    assert '"_xlwings.conf"' in book_sheets() and "`_xlwings.conf`" in classic_section()


def book_sheets() -> str:
    with zipfile.ZipFile(XLWINGS / "quickstart.xlsm") as book:
        return book.read("xl/workbook.xml").decode("utf-8")


def test_the_settings_file_is_where_the_readme_says() -> None:
    config = (XLWINGS / "addin" / "Config.bas").read_text(encoding="utf-8", errors="replace")
    assert 'Environ("USERPROFILE") & "\\." & PROJECT_NAME & "\\" & PROJECT_NAME & ".conf"' in config
    main = (XLWINGS / "addin" / "Main.bas").read_text(encoding="utf-8", errors="replace")
    assert re.search(r'PROJECT_NAME As String = "xlwings"', main)
    assert "`%USERPROFILE%\\.xlwings\\xlwings.conf`" in classic_section()


def test_the_ribbon_names_are_xlwings_own() -> None:
    with zipfile.ZipFile(XLWINGS / "addin" / "xlwings.xlam") as addin:
        ui = addin.read("customUI/customUI.xml").decode("utf-8")
    labels = {label.rstrip(":") for label in re.findall(r'label="([^"]*)"', ui)}
    section = classic_section()
    for name in ("xlwings", "Interpreter", "UDF Modules", "Import Functions"):
        assert name in labels, name
        assert f"*{name}*" in section, name
    # Import Functions refuses a workbook that is not macro-enabled
    ribbon = (XLWINGS / "addin" / "RibbonXlwings.bas").read_text(encoding="utf-8", errors="replace")
    assert '".xlsm"' in ribbon and "`.xlsm`" in section


def test_the_commands_named_exist() -> None:
    section = classic_section()
    for typed, command in (("addin install", ["addin", "install"]),
                           ("quickstart ratings", ["quickstart"])):  # fmt: skip
        assert f"`xlwings {typed}`" in section
        done = subprocess.run([sys.executable, "-m", "xlwings.cli", *command, "--help"],
                              capture_output=True, text=True, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"usage: cli.py {' '.join(command)} "), done.stdout
    assert "Trust access to the VBA project object model" in section
    cli = (XLWINGS / "cli.py").read_text(encoding="utf-8")
    assert "Trust access to the VBA project object model" in cli


def test_addin_install_writes_the_interpreter_it_ran_with(tmp_path: Path) -> None:
    """``xlwings addin install`` ends with ``config_create``, which (with no settings file yet)
    writes the Python it runs with: run that step for real into a throwaway home."""
    cli = (XLWINGS / "cli.py").read_text(encoding="utf-8")
    start = cli.index("def _addin_install")
    install = cli[start : cli.index("\ndef ", start + 1)]
    assert "config_create(None)" in install
    env = {k: v for k, v in os.environ.items() if not k.startswith("CONDA")}
    done = subprocess.run(
        [sys.executable, "-m", "xlwings.cli", "config", "create"],
        capture_output=True, text=True, check=False,
        env={**env, "HOME": str(tmp_path), "USERPROFILE": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    written = (tmp_path / ".xlwings" / "xlwings.conf").read_text(encoding="utf-8")
    # on Windows the key is the same, and the path that of the environment's python.exe
    assert written == f'"INTERPRETER_WIN","{sys.executable}"\n'
    assert re.search(r'^   `"INTERPRETER_WIN","C:\\[^"]+\\Scripts\\python\.exe"`\.$',
                     classic_section(), re.MULTILINE)  # fmt: skip


def test_the_python_the_readme_asks_for() -> None:
    """A Python that both fide-rating and the current xlwings accept."""
    section = classic_section()
    found = re.search(r"Install Python 3\.(\d+) or newer", section)
    assert found, "the README names no Python version"
    asked = (3, int(found.group(1)))
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    ours = re.search(r'^requires-python = ">=3\.(\d+)"$', pyproject, re.MULTILINE)
    theirs = re.fullmatch(r">=3\.(\d+)", importlib.metadata.metadata("xlwings")["Requires-Python"])
    assert ours and theirs
    assert asked >= (3, int(ours.group(1))) and asked >= (3, int(theirs.group(1)))
    assert 'excel = ["xlwings>=0.33"]' in pyproject and "xlwings 0.33 or newer" in section
    assert 'pip install ".[excel]"' in section
