"""``fide-rating build-oxt``: build the LibreOffice Calc add-in (.oxt)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .console import FORCE, Commands, command, output


def register(sub: Commands) -> None:
    p = command(
        sub,
        "build-oxt",
        "build the LibreOffice Calc add-in (.oxt)",
        "Needs LibreOffice and its SDK's unoidl-write (Debian: libreoffice-dev).",
        ["-o dist/fide-rating.oxt"],
    )
    p.add_argument("-o", "--output", default="dist/fide-rating.oxt", help="the extension file")
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    from ..cells.calc.build import main as build_main

    output(Path(args.output), args, suffixes=(".oxt",))
    return build_main(["-o", args.output])
