"""What every command shares: its output file checked, figures printed as FIDE prints them,
names shown safely, a progress bar, CSV files that Excel opens inert, the common options.

May import: the rules core, :mod:`fide_rating.files`, the file formats and the standard library.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import datetime as _dt
import io
import os
import re
import signal
import sys
import textwrap
from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeAlias

from ..files import dangling, write_text
from ..rules.errors import FideInputError
from ..rules.rounding import fide_round

if TYPE_CHECKING:
    from ..events.event import Event

# --- figures --------------------------------------------------------------------------------


def fmt(x: Fraction, places: int = 2) -> str:
    """A fixed-point figure as FIDE prints it: exact for the whole hundredths most figures are,
    rounded at the last place (half away from zero, as 8.3.4 rounds) for the others (Ra)."""
    scaled = fide_round(Fraction(x) * 10**places)
    sign = "-" if scaled < 0 else ""
    whole, frac = divmod(abs(scaled), 10**places)
    return f"{sign}{whole}.{frac:0{places}d}"


def split(text: str) -> list[object]:
    """A comma-separated argument (``--opponents 1063,1299``) as its items."""
    return [t.strip() for t in text.split(",")]


# --- names and messages ---------------------------------------------------------------------

# What a name may not bring to a terminal or a CSV file raw: the control characters (C0, DEL,
# C1: ESC, OSC, BEL...), the line and paragraph separators, and the bidirectional controls that
# make text show in another order than it is (U+202E shows event<RLO>gsm.xlsx as eventxslx.msg):
# ALM U+061C, LRM and RLM U+200E/F, LRE RLE PDF LRO RLO U+202A-E, LRI RLI FSI PDI U+2066-9.
_CONTROL = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def _escape(match: re.Match[str]) -> str:
    return repr(match.group())[1:-1]  # \n, \x1b, \u202e


def escaped(text: str) -> str:
    """``text`` with every character of :data:`_CONTROL` written as its escape (``\\u202e``)."""
    return _CONTROL.sub(_escape, text) if _CONTROL.search(text) else text


def shown(name: object) -> str:
    """A name (a file's, a player's) as a message shows it: as it is, or quoted with its control
    and bidirectional characters escaped when it holds any, so that a newline in a file name
    cannot print a line of its own (``'a\\nok b'``), nor a right-to-left override show its
    name backwards (``'event\\u202egsm.xlsx'``)."""
    text = str(name)
    if not _CONTROL.search(text):
        return text
    return "'" + _CONTROL.sub(_escape, text.replace("'", "\\'")) + "'"


# 128 + SIGPIPE: the status of a Unix tool whose output was closed (``| head``)
CLOSED_OUTPUT = 128 + int(getattr(signal, "SIGPIPE", 13))
_output_closed = False


def _close_output() -> None:
    """The reader of our output is gone: what is still written (and the last flush) goes
    nowhere, and the command does its work to the end (the files it was asked for)."""
    global _output_closed  # noqa: PLW0603 - one console per process
    _output_closed = True
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def say(text: str = "", *, err: bool = False) -> None:
    """One line of a command's output: a control or bidirectional character left in it (from a
    name that was not passed through :func:`shown`) is escaped, never written to the terminal
    raw. A closed
    output (``| head``) does not stop the command."""
    text = escaped(text)
    if err:
        with contextlib.suppress(BrokenPipeError):
            print(text, file=sys.stderr)
        return
    if _output_closed:
        return
    try:
        print(text)
    except BrokenPipeError:
        _close_output()


def finish(status: int) -> int:
    """The command's exit status, once its output is flushed: ``CLOSED_OUTPUT`` (141) when
    the output was closed before the end, as a Unix tool's, the files written all the same."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _close_output()
    except (OSError, ValueError):
        pass
    return CLOSED_OUTPUT if _output_closed else status


def reason(error: BaseException) -> str:
    """What went wrong, in words: a file's error without Python's ``[Errno 2]`` and repeated
    file name, another library's exception by what it means."""
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error)


def problems(name: object, errors: Sequence[object], most: int = 50, *, kind: str = "") -> None:
    """A file's problems (or, with ``kind="warning"``, its warnings) on stderr, the first
    ``most`` of them."""
    lead = f"{shown(name)}: {kind + ': ' if kind else ''}"
    for error in errors[:most]:
        say(f"{lead}{error}", err=True)
    if len(errors) > most:
        say(f"{lead}... and {len(errors) - most} more {kind or 'problem'}s", err=True)


class Progress:
    """A one-line progress bar on a terminal; silent when the output is not one."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.live = stream.isatty() and total > 1
        self.done = 0

    def show(self, label: str) -> None:
        if self.live:
            width = 30
            filled = width * self.done // self.total
            bar = "#" * filled + "." * (width - filled)
            label = shown(label)[:40]
            self.stream.write(f"\r[{bar}] {self.done}/{self.total} {label:<40}")
            self.stream.flush()

    def step(self) -> None:
        self.done += 1

    def clear(self) -> None:
        if self.live:
            self.stream.write("\r" + " " * 90 + "\r")
            self.stream.flush()


# --- files written --------------------------------------------------------------------------


def _same(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def output(
    path: Path, args: argparse.Namespace, *inputs: Path, suffixes: tuple[str, ...] = ()
) -> Path:
    """The file a command writes: never one of its inputs, an existing file only with --force,
    a file (not a folder) with the expected extension, never a symbolic link to nothing (not
    even with --force: it would write where the user did not say)."""
    where = dangling(path)
    if where is not None:
        raise FideInputError(
            f"the output is a symbolic link to a missing file ({shown(where)}), never written "
            f"through: remove the link or choose another name: {shown(path)}"
        )
    if path.is_dir() or str(path).endswith(("/", os.sep)):
        raise FideInputError(f"expected a file name for the output, got the folder: {shown(path)}")
    if suffixes and path.suffix.lower() not in suffixes:
        raise FideInputError(
            f"expected an output file ending in {' or '.join(suffixes)}, got: {shown(path)}"
        )
    for source in inputs:
        if _same(path, source):
            raise FideInputError(
                f"the output is this command's own input, choose another file: {shown(path)}"
            )
    if path.exists() and not getattr(args, "force", False):
        raise FideInputError(f"the output exists, add --force to replace it: {shown(path)}")
    return path


# A CSV cell that Excel or LibreOffice would read as a formula (OWASP, "CSV injection"): text
# beginning with one of these. Numbers we computed ("-9.70") are numbers, and stay as they are.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def inert(text: str) -> str:
    """A CSV field as data: text that a spreadsheet would take for a formula gets a leading
    apostrophe (OWASP's advice); a number stays a number."""
    if text.startswith(_FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def csv_field(text: str) -> str:
    """A CSV field as written: :func:`inert`, then its control and bidirectional characters
    :func:`escaped` (a name's ESC or RLO reaches no terminal that shows the file)."""
    return escaped(inert(text))


def csv_text(head: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A CSV file's text, every field made :func:`inert` and :func:`escaped`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([csv_field(str(h)) for h in head])
    for row in rows:
        writer.writerow([csv_field("" if v is None else str(v)) for v in row])
    return buffer.getvalue()


def write_csv(path: Path, head: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    """A CSV file written atomically, its fields inert and escaped (:func:`csv_field`)."""
    write_text(path, csv_text(head, rows))


# --- the parser -----------------------------------------------------------------------------

FORCE = "replace the output file if it exists (never the command's own input)"
LIST_HELP = (
    "the rating list: FIDE's (players_list_foa.txt, players_list_xml_foa.xml or their zip; "
    "indexed next to the file on first use) or a rating-list workbook (templates/"
    "rating-list.xlsx, or the next list that `period` wrote); players found by FIDE ID take "
    "its rating and K"
)
EDITION = (
    'edition name such as "2024-03", or the tournament start date YYYY-MM-DD (default: newest)'
)

EXIT_STATUS = (
    "exit status: 0 done; 1 done, with problems in the input said above (a bad file among\n"
    "several, a rule that fails, a player not computed); 2 nothing done (a wrong argument, a\n"
    "file that cannot be read or written); 130 interrupted (Ctrl-C)"
)

Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def command(
    sub: Commands, name: str, description: str, examples: Sequence[str]
) -> argparse.ArgumentParser:
    """A subcommand with its one-line summary (:data:`.index.SUMMARY`), its description and
    examples in --help."""
    from .index import SUMMARY

    summary = SUMMARY[name]
    return sub.add_parser(
        name,
        help=summary,
        description=textwrap.fill(f"{summary[:1].upper()}{summary[1:]}. {description}", 79),
        epilog="examples:\n"
        + "\n".join(f"  fide-rating {name} {e}" for e in examples)
        + "\n\n"
        + EXIT_STATUS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def list_options(
    p: argparse.ArgumentParser,
    *,
    required: bool = False,
    what: str = "",
    from_file: bool = False,
    from_workbook: bool = False,
) -> None:
    """``--list`` (a rating list) and ``--rating-type`` (which of its ratings; with
    ``from_file``, default None: the event's own, from its TRF's record 222 or its workbook's
    Event sheet; with ``from_workbook``, default None: each workbook's Event sheet)."""
    p.add_argument("--list", required=required, help=LIST_HELP + what)
    if from_file:
        why = (
            "the event's rating type: which of the list's ratings and K (default: the "
            "workbook's Event sheet, or the TRF's encoded time control, TRF-2026 record 222, "
            "else standard)"
        )
    elif from_workbook:
        why = (
            "which of the list's ratings and K (default: the workbook's rating type, its Event "
            "sheet's B8, else standard)"
        )
    else:
        why = "which of the list's ratings and K (default: standard)"
    p.add_argument(
        "--rating-type",
        choices=("standard", "rapid", "blitz"),
        default=None if from_file or from_workbook else "standard",
        help=why,
    )


def start_option(p: argparse.ArgumentParser) -> None:
    """``--start``: the event's start date, for a file whose record 042 is missing or cannot
    be read for sure."""
    p.add_argument(
        "--start",
        type=date_arg,
        metavar="YYYY-MM-DD",
        help="the event's start date, where the file's (record 042) is missing or could be "
        "read otherwise (05/06/2020); it chooses the edition",
    )


def date_arg(text: str) -> _dt.date:
    """A date as arbiters write it on the command line: ``2025-10-01``, ``2025/10/01``,
    ``01.10.2025`` (day first, as dots are), ``October 1, 2025``, or any form that reads only
    one way; a form with two readings (``10/01/2025``) is refused with both."""
    from ..formats.trf_records import date_readings

    readings = date_readings(text.strip())
    if len(readings) == 1:
        return readings[0][0]
    dotted = [day for day, form in readings if form == "DD.MM.YYYY"]
    if dotted:
        return dotted[0]
    if not readings:
        raise argparse.ArgumentTypeError(
            f"expected a date such as 2025-10-01 or 01.10.2025, got {text!r}"
        )
    both = " or ".join(f"{day.isoformat()} ({form})" for day, form in readings)
    raise argparse.ArgumentTypeError(
        f"expected a date that reads one way, such as 2025-10-01, got {text!r}: it could be {both}"
    )


def read_shown(source: Path, start: _dt.date | None = None) -> Event:
    """The event of a TRF or a crosstable workbook (:func:`fide_rating.events.event.read_event`),
    its problems and warnings on stderr."""
    from ..events.event import read_event

    event = read_event(source, start)
    problems(source, event.errors)
    problems(source, event.warnings, kind="warning")
    return event
