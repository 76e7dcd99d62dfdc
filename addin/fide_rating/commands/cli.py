"""``fide-rating``: the command line. Each command lives in its own module (its arguments and
what it does, side by side); this one assembles them and turns what goes wrong into a message
and an exit status."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .. import __version__
from ..rules.errors import FideInputError
from . import (
    build_lite,
    build_oxt,
    check,
    console,
    editions,
    event,
    export_trf,
    fill,
    import_trf,
    initial,
    period,
    recalc,
    report,
    template,
)

# in the order of --help
COMMANDS = (event, initial, editions, template, recalc, report, import_trf, export_trf, check,
            fill, period, build_lite, build_oxt)  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fide-rating",
        description="The FIDE Rating Regulations (handbook B.02, every edition since 2005) for "
        "arbiters and rating officers: calculations, crosstable templates, headless "
        "recalculation of workbooks, TRF files and whole rating periods. "
        "Run fide-rating COMMAND --help for a command's options and examples.",
    )
    parser.add_argument("--version", action="version", version=f"fide-rating {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub)
    return parser


def _tolerant_console() -> None:
    """A name the console cannot show (Cyrillic on a Latin-1 console) is replaced by ?, never
    a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")


def main(argv: Sequence[str] | None = None) -> int:
    _tolerant_console()
    args = build_parser().parse_args(argv)
    try:
        status = int(args.run(args))
    except KeyboardInterrupt:  # Ctrl-C: one line, not a traceback (files.atomic, workers.forked)
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
