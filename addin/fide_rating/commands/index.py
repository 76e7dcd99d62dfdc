"""The commands in the order of ``--help``: each one's name, module and one-line summary. The
command line loads a command's module only when that command runs, so that ``--help`` and the
quick calculations start at once.

May import: the standard library only.
"""

from __future__ import annotations

COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("event", "event", "a rated player's event, as FIDE's calculation page"),
    ("initial", "initial", "an unrated player's initial rating from one event"),
    ("editions", "editions", "list the editions of the regulations, by rating type"),
    ("template", "template", "write a crosstable template (.xlsx)"),
    ("recalc", "recalc", "recompute workbooks headless: formulas kept, values filled in"),
    (
        "report",
        "report",
        "FIDE's rating report of an event, from its TRF or its crosstable workbook",
    ),
    ("import-trf", "import_trf", "a TRF into the Swiss or round-robin template"),
    ("export-trf", "export_trf", "a crosstable workbook back into a TRF"),
    ("check", "check", "may the event be rated? B.02 sections 0 to 6"),
    ("fill", "fill", "fill a crosstable's players from a rating list"),
    ("period", "period", "a rating period: the list and the period's events to the next list"),
    ("build-lite", "build_lite", "one main.py with the functions for xlwings Lite"),
    ("build-oxt", "build_oxt", "build the LibreOffice Calc add-in (.oxt)"),
)
SUMMARY = {name: summary for name, _, summary in COMMANDS}
MODULE = {name: module for name, module, _ in COMMANDS}
