"""``fide-rating editions``: the editions of the regulations, with their sources."""

from __future__ import annotations

import argparse

from ..rules.editions import EDITIONS
from .console import Commands, command, say


def register(sub: Commands) -> None:
    p = command(
        sub,
        "editions",
        "list the editions of the regulations",
        "Each edition's name, the date from which it applies (by tournament start date), "
        "its 350/400-point cap and the FIDE handbook text it follows.",
        [""],
    )
    p.set_defaults(run=main)


def main(_: argparse.Namespace) -> int:
    for e in EDITIONS:
        say(f"{e.name}  in force from {e.effective.isoformat()}  cap {e.cap}  {e.source}")
    return 0
