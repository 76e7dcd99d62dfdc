"""``fide-rating build-lite``: one main.py with the functions for xlwings Lite."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..cells.lite import write
from .console import FORCE, Commands, command, output, say, shown


def register(sub: Commands) -> None:
    p = command(
        sub,
        "build-lite",
        "The rules core and the FIDE_* functions in one file to paste into xlwings "
        "Lite's editor (release/xlwings-lite/main.py is a ready one).",
        ["-o main.py"],
    )
    p.add_argument("-o", "--output", default="dist/main.py", help="the file (default dist/main.py)")
    p.add_argument("--force", action="store_true", help=FORCE)
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    say(f"wrote {shown(write(output(Path(args.output), args, suffixes=('.py',))))}")
    return 0
