"""FIDE's published rating list: the text and XML layouts (plain and zipped), bad lines with
their line numbers, the index file made once and reused."""

from __future__ import annotations

import os
import tempfile
import zipfile
from pathlib import Path

import pytest

from fide_rating.formats import fidelist
from fide_rating.formats.fidelist import (
    HEADER,
    ListedPlayer,
    ListFileError,
    build,
    format_line,
    open_list,
)

# lines in the published layout, as FIDE writes them (numbers left-aligned, 0 for none)
CARLSEN = ("1503014        Carlsen, Magnus                                              NOR M   "
           "GM                           2823  0   10 2801  12  10 2860  0   10 1990      ")  # fmt: skip
POLGAR = ("700070         Polgar, Judit                                                HUN F   "
          "GM                           2675  0   10 2646  0   20 2630  0   20 1976  wi  ")  # fmt: skip
JUNIOR = ("4199999        Neumann, Nora                                                AUT F   "
          "     WCM                     1654  9   40 0     0   0  1590  7   40 2012  w   ")  # fmt: skip
UNRATED = (
    "4188888".ljust(15)
    + "Lang, Leo".ljust(61)
    + "AUT M"
    + " " * 32
    + ("0     0   0  0     0   0  0     0   0  0     " + " " * 4)
)
LINES = [CARLSEN, POLGAR, JUNIOR, UNRATED]


def write_text(path: Path, lines: list[str], newline: str = "\r\n") -> Path:
    path.write_bytes((newline.join([HEADER, *lines]) + newline).encode("latin-1"))
    return path


def xml_of(lines: list[str]) -> str:
    """The same players in FIDE's XML layout (empty elements written <title></title>)."""
    out = ["<playerslist>"]
    for line in lines:
        p = fidelist.parse_line(line, fidelist.SPANS)
        assert isinstance(p, ListedPlayer)
        values = [p.fide_id, p.name, p.federation, p.sex, p.title, p.women_title,
                  p.other_titles, "", p.rating or 0, p.games, p.k or 0, p.rapid or 0,
                  p.rapid_games, p.rapid_k or 0, p.blitz or 0, p.blitz_games, p.blitz_k or 0,
                  p.born or 0, p.flag]  # fmt: skip
        out.append("<player>")
        out += [f"  <{k}>{v}</{k}>" for k, v in zip(fidelist.XML_FIELDS, values, strict=True)]
        out.append("</player>")
    out.append("</playerslist>")
    return "\n".join(out) + "\n"


def test_the_published_line_read_and_written_back() -> None:
    p = fidelist.parse_line(CARLSEN, fidelist.SPANS)
    assert p == ListedPlayer(1503014, "Carlsen, Magnus", "NOR", "M", "GM", "", "", 2823, 0, 10,
                             2801, 12, 10, 2860, 0, 10, 1990, "")  # fmt: skip
    for line in LINES:
        found = fidelist.parse_line(line, fidelist.SPANS)
        assert isinstance(found, ListedPlayer) and format_line(found) == line


@pytest.mark.parametrize("kind", ["txt", "txt-lf", "xml", "txt-zip", "xml-zip"])
def test_every_layout_gives_the_same_players(kind: str, tmp_path: Path) -> None:
    if kind.startswith("xml"):
        source = tmp_path / "players_list_xml_foa.xml"
        source.write_text(xml_of(LINES), encoding="utf-8")
    else:
        source = write_text(tmp_path / "players_list_foa.txt", LINES,
                            "\n" if kind == "txt-lf" else "\r\n")  # fmt: skip
    if kind.endswith("zip"):
        zipped = tmp_path / "players_list.zip"
        with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as z:
            z.write(source, source.name)
        source.unlink()
        source = zipped
    with open_list(source) as listed:
        assert len(listed) == 4 and listed.errors == []
        polgar = listed.get(700070)
        assert polgar is not None and polgar.inactive and polgar.born == 1976
        assert (polgar.rating, polgar.k, polgar.rapid_k, polgar.flag) == (2675, 10, 20, "wi")
        junior = listed.get("4199999")
        assert junior is not None and (junior.women_title, junior.rapid, junior.k) == (
            "WCM", None, 40)  # fmt: skip
        unrated = listed.get(4188888)
        assert unrated is not None and unrated.rating is None and unrated.born is None
        assert listed.get(1) is None and listed.get("not an id") is None
        assert [p.fide_id for p in listed] == [700070, 1503014, 4188888, 4199999]  # by ID


def test_bad_lines_are_reported_with_their_line_and_the_rest_read(tmp_path: Path) -> None:
    bad_id = "ABC" + CARLSEN[3:]
    bad_rating = POLGAR[:113] + "26x5  " + POLGAR[119:]
    source = write_text(tmp_path / "list.txt", [CARLSEN, bad_id, bad_rating, JUNIOR, CARLSEN])
    with open_list(source) as listed:
        assert len(listed) == 2  # the second Carlsen is a duplicate: the first is kept
        assert [str(e) for e in listed.errors] == [
            "line 3: expected a FIDE ID (digits) in columns 1-15, got 'ABC3014'",
            "line 4: SRtng: expected a number, got '26x5'",
            "line 0: FIDE ID 1503014 is listed twice (the first one is used)",
        ]
        assert listed.get(4199999) is not None


def test_a_line_whose_other_titles_overflow(tmp_path: Path) -> None:
    """FIDE's list has lines one character longer: the other titles run into the next
    column, and every field after them is one column further right."""
    long = POLGAR[:94] + "SI,FI,LSI,SLI,NA" + POLGAR[109:]  # 16 characters in a 15-wide column
    assert len(long) == 163
    source = write_text(tmp_path / "list.txt", [long])
    with open_list(source) as listed:
        p = listed.get(700070)
        assert listed.errors == [] and p is not None
        assert (p.rating, p.born, p.flag) == (2675, 1976, "wi")


def test_the_index_is_made_once_and_remade_when_the_list_changes(tmp_path: Path) -> None:
    source = write_text(tmp_path / "list.txt", LINES[:2])
    with open_list(source) as first:
        assert len(first) == 2
    index = fidelist.index_path(source)
    made = index.stat().st_mtime_ns
    with open_list(source) as again:
        assert len(again) == 2
    assert index.stat().st_mtime_ns == made  # reused, not rebuilt
    write_text(source, LINES)
    os.utime(source, ns=(made + 10**9, made + 10**9))
    with open_list(source) as changed:
        assert len(changed) == 4


def test_a_header_with_moved_columns_is_read_by_its_names() -> None:
    header = HEADER.replace("OTit           FOA", "OTit            FOA")  # one column wider
    spans = fidelist.spans_of(header)
    assert spans["FOA"][0] == 110 and spans["SRtng"][0] == 114


def test_not_a_list(tmp_path: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("Tournament notes\n")
    with pytest.raises(ListFileError, match="expected FIDE's list header"):
        open_list(other)
    hostile = tmp_path / "list.xml"
    hostile.write_text('<!DOCTYPE x [<!ENTITY a "b">]><playerslist></playerslist>')
    with pytest.raises(ListFileError, match="entity declaration"):
        open_list(hostile)
    with pytest.raises(FileNotFoundError):
        open_list(tmp_path / "missing.txt")


def test_a_large_xml_list_is_read_on_every_processor_with_the_same_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "players_list_xml_foa.xml"
    body = xml_of(LINES)
    bad = body.replace("<rating>2675</rating>", "<rating>26x5</rating>")
    source.write_text(bad, encoding="utf-8")
    with open_list(source) as serial:
        expected = ([(p.fide_id, p.rating) for p in serial], [str(e) for e in serial.errors])
    fidelist.index_path(source).unlink()
    monkeypatch.setattr(build, "PARALLEL_XML", 0)
    monkeypatch.setattr(build, "RANGE", 150)  # ranges far shorter than a player
    with open_list(source) as parallel:
        assert ([(p.fide_id, p.rating) for p in parallel],
                [str(e) for e in parallel.errors]) == expected  # fmt: skip
    assert expected[1] == ["line 2: player 700070: <rating> expected a number, got '26x5'"]
    zipped = tmp_path / "players_list_xml.zip"  # unpacked into a temporary file, read in
    with zipfile.ZipFile(zipped, "w") as z:  # ranges while the rest is unpacked
        z.write(source, source.name)
    unpacked = tmp_path / "tmp"
    unpacked.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(unpacked))
    shown: list[tuple[int, int]] = []
    with open_list(zipped, lambda done, total: shown.append((done, total))) as blocks:
        assert ([(p.fide_id, p.rating) for p in blocks],
                [str(e) for e in blocks.errors]) == expected  # fmt: skip
    assert list(unpacked.iterdir()) == []  # the unpacked copy is gone
    size = len(source.read_bytes())
    assert shown[-1] == (size, size) and shown == sorted(shown)  # the progress: bytes, in order


@pytest.mark.parametrize("kind", ["txt", "xml"])
def test_progress_is_bytes_read_of_the_whole(kind: str, tmp_path: Path) -> None:
    many = [CARLSEN[:7].replace("1503014", str(1_000_000 + i)) + CARLSEN[7:] for i in range(5000)]
    if kind == "xml":
        source = tmp_path / "players_list_xml_foa.xml"
        source.write_text(xml_of(many), encoding="utf-8")
    else:
        source = write_text(tmp_path / "players_list_foa.txt", many)
    shown: list[tuple[int, int]] = []
    with open_list(source, lambda done, total: shown.append((done, total))) as listed:
        assert len(listed) == 5000
    size = source.stat().st_size
    assert shown and shown[-1] == (size, size) and shown == sorted(shown)


def test_a_damaged_zip_is_reported_not_half_read(tmp_path: Path) -> None:
    source = tmp_path / "players_list_xml.zip"
    many = [CARLSEN[:7].replace("1503014", str(1_000_000 + i)) + CARLSEN[7:] for i in range(3000)]
    with zipfile.ZipFile(source, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("players_list_xml_foa.xml", xml_of(many))
    data = bytearray(source.read_bytes())
    for i in range(2000, 2100):  # inside the compressed data: the CRC check fails
        data[i] ^= 0x55
    source.write_bytes(bytes(data))
    with pytest.raises(ListFileError, match="the zip file is damaged"):
        open_list(source)
    assert not fidelist.index_path(source).exists()
