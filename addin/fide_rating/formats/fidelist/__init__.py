"""FIDE's published rating list: the combined text list and the XML list, plain or zipped.

FIDE publishes every month one list of all players with their standard, rapid and blitz
ratings (``players_list_foa.txt``, about 1.9 million lines; ``players_list_xml_foa.xml``).
:func:`open_list` reads a list once into an index file next to it (fixed-width records and
the FIDE IDs sorted): later runs open the index in a fraction of a second and look players up
without reading the list again. The index is keyed on the list's content, not only its time,
and used only when it is the user's own and its keyed digests are right (:mod:`.cache`); where
the list's folder is read-only it goes to the user's private folder, and where it cannot be
written anywhere (a read-only medium, no private folder), the list is read into memory and
:attr:`FideList.warnings` says so. Only a regular file is read as a list. Bad lines are
reported with their line number and the rest is read, like the TRF reader; a list cut off (a
broken download), a line or player longer than any of FIDE's, or a zip that unpacks to more than
4 GiB is refused (:class:`ListFileError`, naming the file and where), never read in part as if
it were whole.

The parts, each read in one sitting:

* :mod:`.common`: the player (:class:`ListedPlayer`), the problems, the limits, and what
  reading a list gathers for its index;
* :mod:`.content`: what an index knows of its list's content (stamp, fingerprint);
* :mod:`.textlist`: the text list's columns, a line read and written, its two readers;
* :mod:`.xmllist`: the XML list's readers (one C-speed match where it is provably right),
  and what a worker of the parallel reader does;
* :mod:`.xmlparse`: the XML list read by an XML parser, for everything else;
* :mod:`.build`: reading a whole list (plain or zipped; a large XML list on every processor);
* :mod:`.cache`: where an index is kept (next to the list, or in the user's private folder)
  and why it is trusted (the user's own file, its keyed digests right);
* :mod:`.index`: the index file, :class:`FideList` and :func:`open_list`.

May import: the standard library, :mod:`fide_rating.files` and
:mod:`fide_rating.rules.errors` only.
"""

from __future__ import annotations

from .build import read_players
from .common import (
    MAX_ERRORS,
    RECORD,
    WIDTH,
    ListedPlayer,
    ListError,
    ListFileError,
    Progress,
)
from .index import INDEX_SUFFIX, FideList, build_index, index_path, open_list
from .textlist import COLUMNS, HEADER, SPANS, format_line, parse_line, spans_of
from .xmllist import declared_entities
from .xmlparse import XML_FIELDS

__all__ = [
    "COLUMNS",
    "HEADER",
    "INDEX_SUFFIX",
    "MAX_ERRORS",
    "RECORD",
    "SPANS",
    "WIDTH",
    "XML_FIELDS",
    "FideList",
    "ListError",
    "ListFileError",
    "ListedPlayer",
    "Progress",
    "build_index",
    "declared_entities",
    "format_line",
    "index_path",
    "open_list",
    "parse_line",
    "read_players",
    "spans_of",
]
