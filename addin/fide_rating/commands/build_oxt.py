"""``fide-rating build-oxt``: build the LibreOffice Calc add-in (.oxt)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .console import FORCE, Commands, command, output


def register(sub: Commands) -> None:
    p = command(
        sub,
        "build-oxt",
        "Writes dist/fide-rating.oxt unless -o names another file. Runs on Linux: it needs "
        "LibreOffice and its SDK's unoidl-write (Debian: libreoffice-dev; set FIDE_LO_PROGRAM "
        "to LibreOffice's program folder if it is elsewhere). The extension it builds runs on "
        "any system. Maintainers refresh the shipped copy, release/fide-rating.oxt, with the "
        "second example whenever the functions change (a test says when).",
        ["-o dist/fide-rating.oxt", "-o release/fide-rating.oxt --force"],
    )
    p.add_argument(
        "-o",
        "--output",
        default="dist/fide-rating.oxt",
        help="the extension file to write (default: dist/fide-rating.oxt)",
    )
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    from ..cells.calc.build import main as build_main

    output(Path(args.output), args, suffixes=(".oxt",))
    return build_main(["-o", args.output])
