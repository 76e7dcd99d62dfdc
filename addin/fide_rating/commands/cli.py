"""``fide-rating``: the command line. Each command lives in its own module (its arguments and
what it does, side by side); this one assembles them and turns what goes wrong into a message
and an exit status."""

from __future__ import annotations

import argparse
import importlib
import sys
import textwrap
from collections.abc import Sequence

from .. import __version__
from ..files import remove_unfinished
from ..rules.errors import FideInputError
from . import console
from .index import COMMANDS, MODULE


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every command in full, or (``only``) that command in full
    and the others by their summary alone, so that only the module of the command run is
    loaded."""
    parser = argparse.ArgumentParser(
        prog="fide-rating",
        description=textwrap.fill(
            "The FIDE Rating Regulations (handbook B.02, every edition since 2005) for "
            "arbiters and rating officers: calculations, crosstable templates, headless "
            "recalculation of workbooks, TRF files and whole rating periods. "
            "Run fide-rating COMMAND --help for a command's options and examples.",
            79,
        ),
        epilog=console.EXIT_STATUS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"fide-rating {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module, summary in COMMANDS:
        if only is None or name == only:
            importlib.import_module(f"{__package__}.{module}").register(sub)
        else:
            sub.add_parser(name, help=summary, add_help=False)
    return parser


def _command_of(argv: Sequence[str]) -> str:
    """The command named on the command line ("" when there is none: --help, --version)."""
    first = next((a for a in argv if not a.startswith("-")), "")
    return first if first in MODULE else ""


def _tolerant_console() -> None:
    """A name the console cannot show (Cyrillic on a Latin-1 console) is replaced by ?, never
    a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")


def main(argv: Sequence[str] | None = None) -> int:
    _tolerant_console()
    given = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(_command_of(given) or "-").parse_args(given)
    try:
        status = int(args.run(args))
    except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback (files.atomic, workers.forked)
        remove_unfinished()  # a temporary file the interrupt caught before atomic() could
        console.say("fide-rating: interrupted; no file was left half-written", err=True)
        status = 130  # 128 + SIGINT, as a Unix tool stopped with Ctrl-C
    except FideInputError as error:
        console.say(f"fide-rating: {error}", err=True)
        status = 2
    except OSError as error:  # a file that cannot be read or written: say which and why
        where = f"{console.shown(error.filename)}: " if error.filename else ""
        console.say(f"fide-rating: {where}{error.strerror or error}", err=True)
        status = 2
    return console.finish(status)


if __name__ == "__main__":
    sys.exit(main())
