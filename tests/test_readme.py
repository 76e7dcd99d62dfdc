"""The README as a newcomer follows it: its Python examples run as written, the set-up lines of
the command line run on a new virtual environment and print what the README shows, and every
file, setting, version and option its set-up and host steps name is the one the scripts, the
shipped files and the commands really have."""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest
import xlwings

import conformance
import trf_corpus
from fide_rating.cells.calc import office
from fide_rating.cells.functions import fide_expect
from fide_rating.commands.cli import build_parser
from fide_rating.formats import templates as tpl
from fide_rating.formats import xlsm
from test_release_wheel import BUILD, SHIPPED

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
TEXT = README.read_text(encoding="utf-8")


def section(heading: str) -> str:
    """A section of the README: from its heading to the next heading of its level or above."""
    level = heading.split(" ", 1)[0]
    start = TEXT.index(f"\n{heading}\n") + 1
    rest = TEXT[start + len(heading) + 1 :]
    ends = [m.start() for m in re.finditer(rf"^#{{1,{len(level)}}} ", rest, re.MULTILINE)]
    return TEXT[start : start + len(heading) + 1 + (ends[0] if ends else len(rest))]


def blocks(text: str, language: str) -> list[str]:
    """The fenced code blocks of ``language`` ("" for a block without one), in order."""
    found: list[str] = []
    inside: str | None = None
    lines: list[str] = []
    indent = 0
    for line in text.splitlines():
        fence = re.fullmatch(r"( *)```(\w*)", line)
        if fence is None:
            lines.append(line[indent:])
        elif inside is None:
            inside, lines, indent = fence.group(2), [], len(fence.group(1))
        else:
            if inside == language:
                found.append("\n".join(lines) + "\n")
            inside = None
    return found


def test_readme_examples() -> None:
    failures, tried = doctest.testfile(str(README), module_relative=False)
    assert tried >= 9
    assert failures == 0


def test_the_section_reader_can_fail() -> None:
    assert section("## Get it").startswith("## Get it\n")
    assert "## Two commands" not in section("## Get it")
    assert "### The command line on any computer" in section("## Get it")
    with pytest.raises(ValueError):
        section("## No such section")
    assert blocks("```sh\na\n```\n```\nb\n```\n", "") == ["b\n"]
    assert blocks("```sh\na\n```\n```\nb\n```\n", "sh") == ["a\n"]


def test_every_file_the_table_names_is_shipped() -> None:
    table = section("## Get it")
    named = re.findall(r"`((?:release|templates)/[^`]*)`", table)
    assert f"release/{SHIPPED.name}" in named
    for name in named:
        assert (ROOT / name).exists(), name
    for link in re.findall(r"\]\(#([a-z0-9-]+)\)", table):
        anchors = {
            re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.*)$", TEXT, re.M)
        }
        assert link in anchors, link


def test_each_system_has_its_lines() -> None:
    text = section("### The command line on any computer")
    windows, unix = blocks(text, "bat")[0], blocks(text, "sh")[0]
    wheel = SHIPPED.name
    assert windows.splitlines()[:2] == [
        "py -m venv .venv",
        rf".venv\Scripts\python -m pip install {wheel}",
    ]
    assert windows.splitlines()[2].startswith(r".venv\Scripts\fide-rating.exe event ")
    assert unix.splitlines()[:2] == [
        "python3 -m venv .venv",
        f".venv/bin/python -m pip install {wheel}",
    ]
    assert unix.splitlines()[2].startswith(".venv/bin/fide-rating event ")
    # the command's name is the wheel's console script (pip makes the .exe of it on Windows)
    with zipfile.ZipFile(SHIPPED) as z:
        scripts = z.read(f"{BUILD.dist_info()}/entry_points.txt").decode()
    assert re.search(r"^fide-rating = ", scripts, re.M)
    assert f"`pipx install {wheel}`" in text
    for activate in (r"`.venv\Scripts\activate`", "`source .venv/bin/activate`"):
        assert activate in text


def test_the_unix_lines_run_and_print_what_the_readme_shows(tmp_path: Path) -> None:
    """The macOS and Linux lines, run as written in a folder holding the downloaded wheel."""
    text = section("### The command line on any computer")
    lines = blocks(text, "sh")[0]
    shown = blocks(text, "")[0]
    shutil.copy(SHIPPED, tmp_path / SHIPPED.name)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", lines], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode and "pip install" in done.stderr and os.environ.get("CI") != "true":
        pytest.skip(f"pip could not install the wheel here: {done.stderr[-500:]}")
    assert done.returncode == 0, done.stderr[-2000:]
    assert shown in done.stdout, done.stdout


def test_the_example_script_says_where_the_command_is() -> None:
    script = (ROOT / "scripts" / "example.sh").read_text(encoding="utf-8")
    assert "venv=${FIDE_VENV:-.venv}" in script
    assert script.rstrip().splitlines()[-3].startswith('echo "The command is installed')
    assert "$venv/bin/fide-rating" in script and "source $venv/bin/activate" in script
    assert "`.venv/bin/fide-rating`" in section("## Two commands")


def test_the_download_is_where_the_readme_says() -> None:
    text = section("## Two commands")
    assert conformance.CACHE.relative_to(ROOT).as_posix() == ".cache/corpus"
    assert trf_corpus.CACHE.relative_to(ROOT).as_posix() == ".cache/trf-corpus"
    for folder in ("`.cache/corpus`", "`.cache/trf-corpus`", "`.cache/wheels`"):
        assert folder in text
    assert ".cache/wheels" in (ROOT / "scripts" / "test.sh").read_text(encoding="utf-8")
    said = re.search(r"`conformance: \d+ of \d+ workbooks compared`", text)
    assert said is not None
    source = (ROOT / "tests" / "test_conformance.py").read_text(encoding="utf-8")
    assert 'f"{done} of {len(jobs)} workbooks compared"' in source
    assert 'f"conformance: {text}' in source
    assert ".ci/run" not in text and "exec bash scripts/test.sh" in (
        ROOT / ".ci" / "run"
    ).read_text(encoding="utf-8")


def test_the_classic_steps_are_the_shipped_workbooks() -> None:
    text = section("### Excel on Windows with classic xlwings")
    pinned = re.findall(r"xlwings==([0-9.]+)", text)
    assert pinned and set(pinned) == {xlwings.__version__}  # the .xlsm's VBA (test_release_xlsm)
    assert f"xlwings exactly {xlwings.__version__}" in text
    assert f"install {SHIPPED.name} xlwings==" in text
    folder = ROOT / "release" / "xlwings-classic"
    rr = sorted(s.players for s in tpl.SHIPPED if s.system == "rr")
    drr = sorted(s.players for s in tpl.SHIPPED if s.system == "drr")
    assert f"round robin of N players ({rr[0]} to {rr[-1]})" in text and rr == [*range(4, 17)]
    assert f"double round robin ({drr[0]} to {drr[-1]})" in text and drr == [*range(4, 11)]
    for name in re.findall(r"`((?:rr|drr|swiss)-[0-9x]+\.xlsm)`", text):
        assert (folder / name).is_file(), name
    for key, value in xlsm.SETTINGS:
        assert f"*{key}* `{value}`" in text
    assert f"`{xlsm.CONF_SHEET}`" in text and "**ImportPythonUDFs**" in text
    assert "`xlwings quickstart NAME\n   --standalone`" in text
    assert xlsm.INTERPRETER.startswith(r"%USERPROFILE%\fide-rating-venv")
    assert r"py -m venv %USERPROFILE%\fide-rating-venv" in text


def test_the_lite_steps_name_the_shipped_file() -> None:
    text = section("### Excel with xlwings Lite (Windows, Mac, Excel on the web)")
    assert "[`release/xlwings-lite/main.py`](release/xlwings-lite/main.py)" in text
    assert (ROOT / "release" / "xlwings-lite" / "main.py").is_file()
    assert "In **`main.py`** replace everything" in text and "tab,\n   `requirements.txt`" in text
    assert "`fide-rating build-lite -o main.py`" in text


def test_the_libreoffice_steps_match_the_shipped_extension() -> None:
    text = section("### LibreOffice Calc (Windows, macOS, Linux)")
    with zipfile.ZipFile(ROOT / "release" / "fide-rating.oxt") as oxt:
        description = ElementTree.fromstring(oxt.read("description.xml"))
    ns = {"d": "http://openoffice.org/extensions/description/2006"}
    name = description.find("d:display-name/d:name", ns)
    version = description.find("d:version", ns)
    assert name is not None and version is not None
    assert f"**{name.text}** with its version ({version.get('value')})" in text
    shown = re.search(r"`=FIDE_EXPECT\((\d+); (\d+)\)`.*?it shows \*\*([0-9.]+)\*\*", text, re.S)
    assert shown is not None
    rating, opponent, value = shown.groups()
    assert fide_expect(float(rating), float(opponent)) == float(value)
    # a throwaway profile is what the tests start LibreOffice with
    source = Path(office.__file__).read_text(encoding="utf-8")
    assert "-env:UserInstallation=" in source
    commands = re.findall(r"`([^`]*-env:UserInstallation=file:///[^`]*)`", text)
    assert len(commands) == 4  # soffice on the three systems, and unopkg into the same profile
    assert all("fide-try" in c for c in commands)
    assert commands[-1].startswith("unopkg add -env:UserInstallation=")
    assert "Minimum version: LibreOffice 25.2" in text
    assert office.MINIMUM_VERSION == (25, 2)


def test_the_template_sizes_and_options_are_the_commands() -> None:
    text = section("## Crosstable templates")
    assert "round robins for 4 to 16 players" in text and "double round robins\nfor 4 to 10" in text
    for name in re.findall(r"`((?:rr|drr)-\d+\.(?:xlsx|xlsm))`", text):
        kind = "xlsm" if name.endswith(".xlsm") else "xlsx"
        base = ROOT / ("release/xlwings-classic" if kind == "xlsm" else "templates")
        assert (base / name).is_file(), name
    assert "has 3 to 30 players" in text
    tpl.spec_for("rr", 3), tpl.spec_for("rr", 30)
    for wrong in (2, 31):
        with pytest.raises(ValueError):
            tpl.spec_for("rr", wrong)
    parsed = build_parser().parse_args(["template", "rr", "--players", "9", "--xlsm"])
    assert (parsed.system, parsed.players, parsed.xlsm, parsed.ods) == ("rr", 9, True, False)
    assert build_parser().parse_args(["template", "--all", "--ods"]).ods
    assert "a round robin of 9 plays 9 rounds" in text
    assert tpl.spec_for("rr", 9).rounds == 9 and tpl.spec_for("rr", 10).rounds == 9


def test_the_release_script_builds_what_the_readme_lists() -> None:
    script = (ROOT / "scripts" / "build-release.sh").read_text(encoding="utf-8")
    text = section("## For contributors")
    assert "bash scripts/build-release.sh" in text
    for step in ("build-oxt -o release/fide-rating.oxt", "build-lite -o release/xlwings-lite/main.py",
                 "template --all -o templates", "template --all --xlsm -o release/xlwings-classic",
                 "scripts/build_wheel.py -o release", "fide_rating.cells.generate"):  # fmt: skip
        assert step in script, step
    assert "FIDE_TRF_FILES=" in text
    for repository in ("CPPDubovSystem", "icu_tournament", "CompetiChess"):
        assert f"trf-files/{repository}" in text
