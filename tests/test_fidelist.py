"""FIDE's published rating list: the text and XML layouts (plain and zipped), bad lines with
their line numbers, the index file made once and reused."""

from __future__ import annotations

import errno
import hashlib
import io
import os
import stat
import struct
import sys
import tempfile
import threading
import time
import zipfile
import zlib
from pathlib import Path
from typing import Any

import pytest

from fide_rating.formats import fidelist
from fide_rating.formats.fidelist import (
    HEADER,
    ListedPlayer,
    ListFileError,
    build,
    cache,
    content,
    format_line,
    open_list,
)
from fide_rating.rules.errors import FideInputError

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


@pytest.fixture(autouse=True)
def private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's private folder, in the test's own folder (the user's is not touched); the
    one in the temporary folder after it, as the program looks."""
    home = tmp_path / "home" / ".cache" / "fide-rating"
    monkeypatch.setattr(
        cache, "homes",
        lambda: [home, Path(tempfile.gettempdir()) / f"fide-rating-{cache.me()}"],
    )  # fmt: skip
    return home


def stamp(path: Path) -> dict[str, int]:
    with path.open("rb") as f:
        return content.stamp_of(f.fileno())


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


def in_ranges(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    """Any XML list read on every processor, each worker ``size`` bytes of it."""
    monkeypatch.setattr(build, "PARALLEL_XML", 0)
    monkeypatch.setattr(build, "RANGE", size)


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
    in_ranges(monkeypatch, 150)  # ranges far shorter than a player
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


# --- a list checked to its end ---------------------------------------------------------------


def zipped(path: Path, name: str, data: bytes) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(name, data)
    return path


def refused(source: Path, match: str) -> str:
    """The list is refused with a message naming it, and no index is left behind."""
    with pytest.raises(ListFileError, match=match) as caught:
        open_list(source)
    assert str(caught.value).startswith(f"{source}: ")
    assert not fidelist.index_path(source).exists()
    return str(caught.value)


@pytest.mark.parametrize("newline", ["\r\n", "\n"])
@pytest.mark.parametrize("header", ["published", "moved"])
def test_a_text_list_cut_off_inside_a_line_is_refused(
    newline: str, header: str, tmp_path: Path
) -> None:
    """A broken download ends inside a line: Polgar's rating cut to its first two digits (26)
    or her flag to "w" (no longer inactive) must not be read as if the list were whole."""
    head = HEADER if header == "published" else HEADER.replace("OTit ", "OTit  ")
    lines = [line if header == "published" else line[:94] + " " + line[94:]
             for line in (CARLSEN, JUNIOR, POLGAR)]  # fmt: skip
    whole = (newline.join([head, *lines]) + newline).encode("latin-1")
    source = tmp_path / "players_list_foa.txt"
    for cut in (115, 159):
        source.write_bytes(whole[: whole.rindex(b"700070") + cut])
        refused(source, rf"line 4: the list ends inside this line .* got {cut} ending")
    source.write_bytes(whole.rstrip(b"\r\n"))  # a whole last line without its line end: read
    with open_list(source) as listed:
        polgar = listed.get(700070)
        assert len(listed) == 3 and polgar is not None and polgar.flag == "wi"


@pytest.mark.parametrize("parallel", [False, True])
def test_an_xml_list_cut_off_is_refused(
    parallel: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if parallel:
        in_ranges(monkeypatch, 150)
    whole = xml_of(LINES).encode()
    source = tmp_path / "players_list_xml_foa.xml"
    inside = whole.rindex(b"<rating>")
    source.write_bytes(whole[:inside])
    refused(source, rf"ends at byte {inside:,} inside a <player> \(a broken download\?\)")
    closed = whole.rindex(b"</player>") + len(b"</player>\n")
    source.write_bytes(whole[:closed])
    refused(source, rf"ends at byte {closed:,} without </playerslist>")
    zipped(tmp_path / "players_list_xml.zip", source.name, whole[:inside])
    refused(tmp_path / "players_list_xml.zip", "inside a <player>")


def test_a_zip_cut_off_or_short_of_its_list_is_refused(tmp_path: Path) -> None:
    many = [CARLSEN[:7].replace("1503014", str(1_000_000 + i)) + CARLSEN[7:] for i in range(3000)]
    text = ("\r\n".join([HEADER, *many]) + "\r\n").encode("latin-1")
    source = zipped(tmp_path / "players_list.zip", "players_list_foa.txt", text)
    whole = source.read_bytes()
    source.write_bytes(whole[: len(whole) // 2])  # the download broke off half way
    refused(source, f"the zip file is cut off .* got {len(whole) // 2:,} bytes without it")
    # the directory says the list is longer than it is (its CRC that of what is there)
    directory = whole.rindex(b"PK\x01\x02")
    size = int.from_bytes(whole[directory + 24 : directory + 28], "little")
    lying = bytearray(whole)
    lying[directory + 24 : directory + 28] = (size + 1000).to_bytes(4, "little")
    source.write_bytes(bytes(lying))
    refused(source, f"the list in the zip ends after {size:,} of its {size + 1000:,} bytes")


def test_a_line_longer_than_any_of_the_list_is_refused(tmp_path: Path) -> None:
    long = CARLSEN[:113] + "2823  " * 1000  # read before as a player with no rating at all
    source = write_text(tmp_path / "players_list_foa.txt", [POLGAR, long, JUNIOR])
    refused(source, r"line 3: expected a line of at most 1,000 bytes \(FIDE's have 162\), got a")
    moved = HEADER.replace("OTit ", "OTit  ")  # the reader of any header, line by line
    source.write_bytes("\r\n".join([moved, long, ""]).encode("latin-1"))
    refused(source, "line 2: expected a line of at most 1,000 bytes")
    source.write_bytes(b"ID Number" + b" " * 5000)  # no line end at all
    refused(source, "line 1: expected a line of at most 1,000 bytes")


@pytest.mark.parametrize("parallel", [False, True])
def test_a_player_longer_than_any_of_the_list_is_refused(
    parallel: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if parallel:
        in_ranges(monkeypatch, 1000)
    body = xml_of(LINES)
    long = body.replace("<name>Polgar, Judit</name>", "<name>" + "Polgar " * 5000 + "</name>")
    source = tmp_path / "players_list_xml_foa.xml"
    source.write_text(long, encoding="utf-8")  # read before: a name of 35,000 characters cut
    at = long.index("<player>", long.index("1503014"))  # Polgar's
    refused(source, rf"byte {at:,}: expected a <player> element of at most 16,384 bytes")


def huge_zip(path: Path, name: str, head: bytes, fill: bytes, gib: int, tail: bytes) -> Path:
    """A zip of one member: ``head``, ``gib`` GiB of the byte ``fill``, then ``tail``, written
    streaming (a few MB). The member's CRC is left 0 (computing it would read 3 GiB): a reader
    that got to the end would call the zip damaged, not name the line."""

    def deflated(data: bytes, flush: int) -> bytes:  # raw deflate, byte-aligned after a flush
        compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
        return compressor.compress(data) + compressor.flush(flush)

    start, mib = deflated(head, zlib.Z_FULL_FLUSH), deflated(fill * (1 << 20), zlib.Z_FULL_FLUSH)
    end = deflated(tail, zlib.Z_FINISH)
    packed = len(start) + (gib << 10) * len(mib) + len(end)
    size = len(head) + (gib << 30) + len(tail)
    entry = struct.pack("<HHHHHIII", 20, 0, 8, 0, 33, 0, packed, size)
    with path.open("wb") as out:
        out.write(b"PK\x03\x04" + entry + struct.pack("<HH", len(name), 0) + name.encode())
        out.write(start)
        for _ in range(gib << 10):
            out.write(mib)
        out.write(end)
        directory = out.tell()
        out.write(b"PK\x01\x02" + struct.pack("<H", 20) + entry)
        out.write(struct.pack("<HHHHHII", len(name), 0, 0, 0, 0, 0, 0) + name.encode())
        listed = out.tell() - directory
        out.write(b"PK\x05\x06" + struct.pack("<HHHHIIH", 0, 0, 1, 1, listed, directory, 0))
    return path


@pytest.mark.parametrize("kind", ["txt", "xml", "txt-sparse"])
def test_one_line_of_gigabytes_is_refused_at_once(kind: str, tmp_path: Path) -> None:
    """A 3 MB zip unpacking to one 3 GiB line (or a 1.5 GiB line in a file) was read for
    minutes into ever more memory: it is refused within its first MiBs, naming where."""
    if kind == "txt-sparse":
        if sys.platform == "win32":
            pytest.skip("a sparse file is written out in full on Windows")
        source = tmp_path / "players_list_foa.txt"
        with source.open("wb") as f:
            f.write(HEADER.encode() + b"\r\n1503014        ")
            f.truncate(3 << 29)  # 1.5 GiB of NUL characters, not on disk
            f.seek(0, os.SEEK_END)
            f.write(b"\r\n")
    elif kind == "txt":
        head = HEADER.encode() + b"\r\n1503014        Carlsen, "
        source = huge_zip(tmp_path / "players_list.zip", "players_list_foa.txt", head, b"A",
                          3, b"\r\n")  # fmt: skip
    else:
        head = b"<playerslist>\n<player><fideid>1503014</fideid><name>Carlsen, "
        source = huge_zip(tmp_path / "players_list_xml.zip", "players_list_xml_foa.xml", head,
                          b"A", 3, b"</name></player>\n</playerslist>\n")  # fmt: skip
    used = source.stat().st_blocks * 512 if kind == "txt-sparse" else source.stat().st_size
    assert used < 4 << 20  # on disk: a few MB
    started = time.perf_counter()
    message = refused(source, "line 2: expected a line of at most" if kind != "xml" else
                      "byte 14: expected a <player> element of at most")  # fmt: skip
    assert time.perf_counter() - started < 5, message  # the unguarded reader: minutes


@pytest.mark.parametrize(
    "doctype",
    [
        '<!DOCTYPE x [<!ENTITY a "b">]>',  # any entity
        '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>',  # XXE
        '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>',
    ],
)
def test_a_document_type_is_refused_plain_or_zipped(doctype: str, tmp_path: Path) -> None:
    body = (doctype + xml_of(LINES)).encode()
    source = tmp_path / "players_list_xml_foa.xml"
    source.write_bytes(body)
    refused(source, "entity declaration: refused")
    refused(zipped(tmp_path / "players_list_xml.zip", source.name, body), "entity declaration")


# --- the index keyed on the list's content ---------------------------------------------------


def test_an_edited_list_with_its_time_put_back_is_read_anew(tmp_path: Path) -> None:
    source = write_text(tmp_path / "players_list_foa.txt", LINES)
    before = source.stat()
    with open_list(source) as first:
        polgar = first.get(700070)
        assert polgar is not None and polgar.rating == 2675
    source.write_bytes(source.read_bytes().replace(b"2675  0", b"2676  0"))  # same size
    os.utime(source, ns=(before.st_atime_ns, before.st_mtime_ns))  # and the same time
    assert source.stat().st_size == before.st_size
    with open_list(source) as edited:
        polgar = edited.get(700070)
        assert polgar is not None and polgar.rating == 2676


@pytest.mark.skipif(sys.platform == "win32", reason="Windows keeps no change time")
def test_an_edit_between_the_sampled_blocks_is_found_by_the_change_time(tmp_path: Path) -> None:
    """A list far larger than the blocks sampled on every open: an edit between them, its
    time put back, is found as the change time differs, and the whole list's fingerprint."""
    many = [POLGAR.replace("700070 ", str(1_000_000 + i)[:7]) for i in range(20_000)]
    source = write_text(tmp_path / "players_list_foa.txt", many)
    size = source.stat().st_size
    assert size > 2 * content.SAMPLES * content.SAMPLE
    step = (size - content.SAMPLE) // (content.SAMPLES - 1)
    line = (step * 10 + step // 2) // fidelist.RECORD  # midway between two sampled blocks
    with open_list(source) as first:
        assert first.get(1_000_000 + line - 1) is not None
    before = source.stat()
    sampled = stamp(source)["sample"]
    data = bytearray(source.read_bytes())
    at = line * fidelist.RECORD + 113  # the line's standard rating (after the header)
    assert data[at : at + 4] == b"2675"
    data[at : at + 4] = b"2676"
    source.write_bytes(bytes(data))
    os.utime(source, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert stamp(source)["sample"] == sampled  # the edit is not in a sampled block
    with open_list(source) as edited:
        changed = edited.get(1_000_000 + line - 1)
        assert changed is not None and changed.rating == 2676


def test_a_touched_list_keeps_its_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = write_text(tmp_path / "players_list_foa.txt", LINES)
    open_list(source).close()
    index = fidelist.index_path(source)
    made = index.stat().st_ino
    later = source.stat().st_mtime_ns + 10**9
    os.utime(source, ns=(later, later))  # the same list, a new time: read once more, not
    hashed: list[int] = []  # indexed anew

    def fingerprint_of(listed: int, block: int) -> list[int]:
        hashed.append(os.fstat(listed).st_ino)
        return content.fingerprint_of(listed, block)

    monkeypatch.setattr(fidelist.index, "fingerprint_of", fingerprint_of)
    with open_list(source) as touched:
        assert len(touched) == 4
    with open_list(source) as again:  # its stamp renewed: the list is not read again
        assert len(again) == 4
    assert index.stat().st_ino == made and hashed == [source.stat().st_ino]


# --- a list on a read-only medium ------------------------------------------------------------


def recorder(shown: list[tuple[int, int]]) -> fidelist.Progress:
    return lambda done, total: shown.append((done, total))


def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A folder for the list (the medium), and the temporary folder."""
    media, temporary = tmp_path / "media", tmp_path / "tmp"
    media.mkdir()
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    return media, temporary


def no_folder(*args: object, **kwargs: object) -> str:
    raise OSError(errno.EROFS, os.strerror(errno.EROFS))


def read_only(monkeypatch: pytest.MonkeyPatch, *folders: Path, code: int = errno.EROFS) -> None:
    """Files cannot be made in these folders (as on a read-only medium: root can write
    anywhere else, so the test does not rely on permissions)."""
    make = tempfile.mkstemp

    def mkstemp(suffix: str = "", prefix: str = "", dir: str | Path | None = None) -> Any:
        if dir is not None and Path(dir) in folders:
            raise OSError(code, os.strerror(code), str(dir))
        return make(suffix, prefix, dir)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)


@pytest.mark.parametrize("kind", ["txt", "xml-zip"])
def test_a_list_where_no_index_can_be_written_is_read_into_memory(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, private: Path
) -> None:
    media, temporary = folders(tmp_path, monkeypatch)
    if kind == "txt":
        source = write_text(media / "players_list_foa.txt", LINES)
    else:  # read on every processor, unpacked into a temporary folder: here on one
        in_ranges(monkeypatch, 150)
        monkeypatch.setattr(tempfile, "mkdtemp", no_folder)
        source = zipped(media / "players_list_xml.zip", "players_list_xml_foa.xml",
                        xml_of(LINES).encode())  # fmt: skip
    folder, _ = cache.private_folder()
    assert folder == private and cache.user_key(private) is not None  # made by an earlier run
    read_only(monkeypatch, media, private)
    for _ in range(2):  # and again: nothing was kept
        shown: list[tuple[int, int]] = []
        with open_list(source, recorder(shown)) as listed:
            assert listed.warnings == [
                "the list's index could not be written (next to the list: read-only file "
                f"system; in {private}: read-only file system): the list was read into "
                "memory, and is read again on every use"
            ]
            assert len(listed) == 4 and listed.errors == [] and shown
            polgar = listed.get(700070)
            assert polgar is not None and polgar.flag == "wi"
            assert [p.fide_id for p in listed] == [700070, 1503014, 4188888, 4199999]
            out = io.BytesIO()
            assert listed.write_text(out, {}) == 4
    assert sorted(p.name for p in media.iterdir()) == [source.name]
    assert [p.name for p in private.iterdir()] == ["key"]
    assert list(temporary.iterdir()) == []


@pytest.mark.parametrize("code", [errno.EROFS, errno.EACCES])
def test_a_list_in_a_read_only_folder_is_indexed_once_in_the_private_folder(
    code: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, private: Path
) -> None:
    media, temporary = folders(tmp_path, monkeypatch)
    source = write_text(media / "players_list_foa.txt", LINES)
    read_only(monkeypatch, media, code=code)
    read = []
    for _ in range(2):
        shown: list[tuple[int, int]] = []
        with open_list(source, recorder(shown)) as listed:
            assert len(listed) == 4 and listed.warnings == []
            assert listed.index is not None and listed.index.parent == private
        read.append(bool(shown))
    assert read == [True, False]  # the second open found its index in the private folder
    names = sorted(p.name for p in private.iterdir())
    assert names[1:] == ["key"] and names[0].endswith("-players_list_foa.txt.fide-rating-index")
    assert stat.S_IMODE(private.stat().st_mode) == 0o700
    assert stat.S_IMODE((private / names[0]).stat().st_mode) == 0o600
    assert list(temporary.iterdir()) == [] and list(media.iterdir()) == [source]


def test_a_command_says_the_list_was_read_into_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    private: Path,
) -> None:  # fmt: skip
    from fide_rating.commands import lists

    source = write_text(tmp_path / "players_list_foa.txt", LINES)
    assert cache.user_key(cache.private_folder()[0] or tmp_path) is not None
    read_only(monkeypatch, tmp_path, private)
    with lists.open_list(source) as listed:
        assert len(listed) == 4
    assert capsys.readouterr().err == (
        f"{source}: the list's index could not be written (next to the list: read-only file "
        f"system; in {private}: read-only file system): the list was read into memory, and "
        "is read again on every use\n"
    )


def test_a_zip_unpacking_to_more_than_any_list_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = zipped(tmp_path / "players_list.zip", "players_list_foa.txt",
                    ("\r\n".join([HEADER, *LINES]) + "\r\n").encode("latin-1"))  # fmt: skip
    monkeypatch.setattr(build, "MAX_UNPACKED", 600)  # 4 GiB: a zip64 to make otherwise
    refused(source, "expected a list of at most 600 bytes in the zip .* got players_list_foa")


# --- only regular files; the index kept where only the user writes, and checked --------------


@pytest.mark.skipif(sys.platform == "win32", reason="no named pipes, devices or links to them")
@pytest.mark.parametrize("kind", ["pipe", "device", "link to a device", "folder"])
def test_a_special_file_given_as_the_list_is_refused_at_once(kind: str, tmp_path: Path) -> None:
    source = tmp_path / "players_list_foa.txt"
    if kind == "pipe":
        os.mkfifo(source)
    elif kind == "folder":
        source.mkdir()
    elif kind == "device":
        source = Path(os.devnull)
    else:
        source.symlink_to("/dev/zero")
    said = {"pipe": "a named pipe", "folder": "a folder"}.get(kind, "a device")
    caught: list[BaseException] = []

    def run() -> None:
        try:
            open_list(source)
        except BaseException as error:  # looked at below
            caught.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(20)
    if worker.is_alive():  # a reader blocked on the pipe: let it go, then fail
        os.close(os.open(source, os.O_RDWR | os.O_NONBLOCK))
        pytest.fail("open_list waited for a writer to the named pipe")
    assert len(caught) == 1 and isinstance(caught[0], FideInputError), caught
    assert str(caught[0]).startswith(f"{source}: {said}, not a file")


def made_by_an_earlier_run(source: Path) -> Path:
    """The list indexed once; its index's path."""
    with open_list(source) as listed:
        assert listed.index is not None
        return listed.index


def edited(index: Path, old: bytes, new: bytes) -> None:
    data = index.read_bytes()
    assert data.count(old) == 1
    index.write_bytes(data.replace(old, new))


@pytest.mark.skipif(sys.platform == "win32", reason="links need rights on Windows")
@pytest.mark.parametrize("place", ["next to the list", "private folder"])
@pytest.mark.parametrize("target", ["a file", "a missing file"])
def test_a_link_planted_at_the_index_name_is_never_written_through(
    place: str, target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, private: Path
) -> None:
    """Another user plants a link where the index will be written: the victim's file stays as
    it was (or is not made), the index is written as a file of its own."""
    media = tmp_path / "media"
    media.mkdir()
    source = write_text(media / "players_list_foa.txt", LINES)
    victim = tmp_path / "victim" / "notes.txt"
    victim.parent.mkdir()
    if target == "a file":
        victim.write_bytes(b"my notes")
    if place == "next to the list":
        index = fidelist.index_path(source)
    else:
        read_only(monkeypatch, media)
        folder, _ = cache.private_folder()
        assert folder == private
        index = fidelist.index.private_index(private, source)
    index.symlink_to(victim)
    with open_list(source) as listed:
        polgar = listed.get(700070)
        assert polgar is not None and polgar.rating == 2675 and listed.index == index
    assert not index.is_symlink() and index.is_file()
    assert (victim.read_bytes() if target == "a file" else victim.exists()) in (b"my notes", False)


def test_an_index_in_the_shared_temporary_folder_is_never_looked_at(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where an earlier version put the index of a list in a read-only folder (a name anyone
    could work out): an index planted there, with a rating edited, is not used."""
    media, temporary = folders(tmp_path, monkeypatch)
    source = write_text(media / "players_list_foa.txt", LINES)
    planted = temporary / f"{'0' * 16}-players_list_foa.txt.fide-rating-index"
    built = made_by_an_earlier_run(source)
    planted.write_bytes(built.read_bytes().replace(b"2675  0", b"2990  0"))
    built.unlink()
    digest = hashlib.sha256(str(source.resolve()).encode()).hexdigest()[:16]
    old = temporary / f"{digest}-players_list_foa.txt.fide-rating-index"  # the old name
    old.write_bytes(planted.read_bytes())
    read_only(monkeypatch, media)
    with open_list(source) as listed:
        polgar = listed.get(700070)
        assert polgar is not None and polgar.rating == 2675
        assert listed.index is not None and temporary not in listed.index.parents


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root")
def test_an_index_another_user_planted_next_to_the_list_is_not_used(
    tmp_path: Path, private: Path
) -> None:
    """A shared folder (sticky, as /tmp): another user plants an index with Polgar's rating
    edited (2675 to 2990) under the index's name. It is not read, not replaced (it is his),
    and the user's own goes to the private folder."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    source = write_text(shared / "players_list_foa.txt", LINES)
    index = made_by_an_earlier_run(source)
    edited(index, b"2675  0", b"2990  0")
    os.chown(index, 12345, 12345)
    planted = index.read_bytes()
    with open_list(source) as listed:
        polgar = listed.get(700070)
        assert polgar is not None and polgar.rating == 2675
        assert listed.index is not None and listed.index.parent == private
    assert index.read_bytes() == planted and index.stat().st_uid == 12345


@pytest.mark.parametrize("part", ["head", "stamp", "fences", "another key"])
def test_an_index_not_signed_with_the_users_key_is_made_anew(
    part: str, tmp_path: Path, private: Path
) -> None:
    """An index made with another key (another user's, or one forged), or with its head, its
    stamp or the first FIDE ID of its blocks changed, is not used: the list is read again."""
    source = write_text(tmp_path / "players_list_foa.txt", LINES)
    index = made_by_an_earlier_run(source)
    data = bytearray(index.read_bytes())
    fences = data.index(b"\n", data.index(b'"salt"')) + 2 * cache.TAG_BYTES + 2
    if part == "head":  # the problems' count, a figure of the head
        data[:] = data.replace(b'"error_count": 0', b'"error_count": 9')
    elif part == "stamp":  # the stamp of another list (its size)
        size = str(source.stat().st_size).encode()
        data[:] = data.replace(b'"size": ' + size, b'"size": ' + str(int(size) + 1).encode())
    elif part == "fences":  # the first key: Polgar's made Carlsen's
        assert int.from_bytes(data[fences : fences + 8], "little") >> 32 == 700070
        data[fences : fences + 8] = (1503014 << 32).to_bytes(8, "little")
    else:
        (private / cache.KEY_NAME).write_bytes(os.urandom(cache.KEY_BYTES))
    index.write_bytes(bytes(data))
    shown: list[tuple[int, int]] = []
    with open_list(source, recorder(shown)) as listed:
        assert shown  # read again
        carlsen = listed.get(1503014)
        assert carlsen is not None and carlsen.rating == 2823 and listed.error_count == 0
        assert listed.get(700070) is not None


def test_a_key_edited_in_the_index_is_found_before_it_is_used(tmp_path: Path) -> None:
    """The keys (the FIDE ID above the record's position): Carlsen's made to point at Polgar's
    record. The look-up fails (never Polgar's rating as Carlsen's), the index is removed."""
    source = write_text(tmp_path / "players_list_foa.txt", LINES)
    index = made_by_an_earlier_run(source)
    data = bytearray(index.read_bytes())
    keys = data.index(b"\n", data.index(b'"salt"')) + 2 * cache.TAG_BYTES + 2 + 8 + 16
    polgar, carlsen = (int.from_bytes(data[at : at + 8], "little") for at in (keys, keys + 8))
    assert (polgar >> 32, carlsen >> 32) == (700070, 1503014)
    data[keys + 8 : keys + 16] = (1503014 << 32 | polgar & 0xFFFFFFFF).to_bytes(8, "little")
    index.write_bytes(bytes(data))
    with (
        open_list(source) as listed,
        pytest.raises(ListFileError, match="does not hold what it was made with"),
    ):
        listed.get(1503014)
    assert not index.exists()


def test_a_rating_edited_in_the_index_is_found_before_it_is_used(tmp_path: Path) -> None:
    """An index of the user's own whose head is right, a rating edited among its records: the
    look-up fails (never "2990 on the list"), the index is removed and made anew."""
    source = write_text(tmp_path / "players_list_foa.txt", LINES)
    index = made_by_an_earlier_run(source)
    edited(index, b"2675  0", b"2990  0")
    with (
        open_list(source) as listed,
        pytest.raises(ListFileError, match="does not hold what it was made with"),
    ):
        listed.get(700070)
    assert not index.exists()
    with open_list(source) as listed:
        polgar = listed.get(700070)
        assert polgar is not None and polgar.rating == 2675
    edited(index, b"2675  0", b"2990  0")
    with open_list(source) as listed, pytest.raises(ListFileError, match=str(index)):
        listed.write_text(io.BytesIO(), {})  # every record checked before one is copied


class Counted:
    """An index file read through, the bytes read counted."""

    def __init__(self, f: Any, count: list[int]) -> None:
        self._f, self._count = f, count

    def read(self, n: int) -> bytes:
        data = self._f.read(n)
        self._count.append(len(data))
        return bytes(data)

    def readline(self, limit: int) -> bytes:
        data = self._f.readline(limit)
        self._count.append(len(data))
        return bytes(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._f, name)


@pytest.mark.parametrize("kind", ["2 GiB", "pipe", "link to a device", "folder"])
def test_an_index_is_read_no_further_than_a_list_needs(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file under the index's name: 2 GiB of one line (sparse), a named pipe, a link to
    /dev/zero, a folder. The first 1 MiB at most is read of the first, nothing of the
    others; the list is read and its index made in the private folder or next to it."""
    if kind != "2 GiB" and sys.platform == "win32":
        pytest.skip("no named pipes or devices")
    source = write_text(tmp_path / "players_list_foa.txt", LINES)
    index = fidelist.index_path(source)
    if kind == "2 GiB":
        with index.open("wb") as f:
            f.write(fidelist.index._MAGIC + b"{" * 300)
            f.truncate(2 << 30)
    elif kind == "pipe":
        os.mkfifo(index)
    elif kind == "folder":
        index.mkdir()
        (index / "inside").write_bytes(b"x")
    else:
        index.symlink_to("/dev/zero")
    count: list[int] = []
    opened = cache.open_own

    def open_own(path: Path) -> Any:
        f = opened(path)
        return None if f is None else Counted(f, count)

    monkeypatch.setattr(fidelist.index, "open_own", open_own)
    with open_list(source) as listed:
        polgar = listed.get(700070)
        assert polgar is not None and polgar.rating == 2675
    assert sum(count) <= (1 << 20) + 1024 and (kind == "2 GiB") == bool(count)


@pytest.mark.parametrize("case", ["open to others", "a link", "another user's", "none at all"])
def test_a_private_folder_that_is_not_the_users_own_is_not_used(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, private: Path
) -> None:
    """The private folder is used only when it is the user's own and no one else can write
    it: else the next one (in the temporary folder), else none, and the list is read into
    memory, saying why. Another user is played by the program taking the user for another
    (every file and folder made here is then that other user's)."""
    if case == "a link" and sys.platform == "win32":
        pytest.skip("links need rights on Windows")
    media, temporary = folders(tmp_path, monkeypatch)
    source = write_text(media / "players_list_foa.txt", LINES)
    read_only(monkeypatch, media)
    real = cache.me()
    if case == "another user's":
        assert real is not None
        monkeypatch.setattr(cache, "me", lambda: real + 1)
    second = temporary / f"fide-rating-{cache.me()}"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for folder in (private, second):
        folder.parent.mkdir(parents=True, exist_ok=True)
        if case == "a link":
            folder.symlink_to(elsewhere, target_is_directory=True)
            break  # the second one is made and used
        folder.mkdir()
        if case != "another user's":
            folder.chmod(0o777)
        if case == "open to others":
            break
    with open_list(source) as listed:
        polgar = listed.get(700070)
        assert polgar is not None and polgar.rating == 2675
        if case in ("open to others", "a link"):
            assert listed.warnings == [] and listed.index is not None
            assert listed.index.parent == second
            assert stat.S_IMODE(second.stat().st_mode) == 0o700
        else:
            why = (
                f"owned by another user (user ID {real})" if case == "another user's"
                else "writable by others (mode 777)"
            )  # fmt: skip
            assert listed.warnings == [
                "the list's index could not be written (no private folder for its key "
                f"({private}: {why}; {second}: {why})): the list was read into memory, and "
                "is read again on every use"
            ]
            assert listed.index is None
    assert list(elsewhere.iterdir()) == []  # nothing written through the link
    assert list(media.iterdir()) == [source]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root")
def test_a_private_folder_another_user_made_first_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, private: Path
) -> None:
    media, temporary = folders(tmp_path, monkeypatch)
    source = write_text(media / "players_list_foa.txt", LINES)
    read_only(monkeypatch, media)
    private.mkdir(parents=True, mode=0o700)
    os.chown(private, 12345, 12345)
    with open_list(source) as listed:
        assert listed.index is not None and listed.index.parent.parent == temporary
    assert list(private.iterdir()) == []


def _open_in_a_process(source: str) -> tuple[int | None, int, str]:
    with open_list(Path(source)) as listed:
        polgar = listed.get(700070)
        return (None if polgar is None else polgar.rating), len(listed), str(listed.index)


def _key_in_a_process(folder: str) -> bytes | None:
    return cache.user_key(Path(folder))


@pytest.mark.skipif(sys.platform == "win32", reason="fork")
def test_runs_at_once_index_one_list_and_make_one_key(tmp_path: Path, private: Path) -> None:
    """Eight runs at once on a list not yet indexed, the user's key not yet made: each reads
    the list right, one key is made and kept, and the index left is whole."""
    import multiprocessing

    many = [POLGAR.replace("700070 ", str(1_000_000 + i)[:7]) for i in range(3000)]
    source = write_text(tmp_path / "players_list_foa.txt", [*many, POLGAR])
    private.mkdir(parents=True, mode=0o700)
    with multiprocessing.get_context("fork").Pool(8) as pool:
        keys = pool.map(_key_in_a_process, [str(private)] * 8)
        results = pool.map(_open_in_a_process, [str(source)] * 8)
    assert len(set(keys)) == 1 and keys[0] == (private / cache.KEY_NAME).read_bytes()
    assert results == [(2675, 3001, str(fidelist.index_path(source)))] * 8
    shown: list[tuple[int, int]] = []
    with open_list(source, recorder(shown)) as listed:
        assert not shown and len(listed) == 3001  # the index left is used
        assert len(list(listed)) == 3001  # every record's digest right
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


def test_a_rating_or_id_with_a_digit_int_refuses_is_a_problem_not_a_traceback(
    tmp_path: Path,
) -> None:
    """``str.isdigit`` takes ``²`` (Latin-1 byte 0xB2): a rating ``2²10`` or such a FIDE ID
    is reported with its line, the rest read."""
    rating = POLGAR[:113] + "2\xb210  " + POLGAR[119:]
    fide_id = "4\xb2" + JUNIOR[2:]
    source = write_text(tmp_path / "players_list_foa.txt", [CARLSEN, rating, fide_id])
    with open_list(source) as listed:
        assert [str(e) for e in listed.errors] == [
            "line 3: SRtng: expected a number, got '2²10'",
            "line 4: expected a FIDE ID (digits) in columns 1-15, got '4²99999'",
        ]
        assert len(listed) == 1 and listed.get(1503014) is not None
    xml = tmp_path / "players_list_xml_foa.xml"
    xml.write_text(xml_of([CARLSEN, POLGAR]).replace("<rating>2675<", "<rating>2²10<"))
    with open_list(xml) as listed:
        assert [str(e) for e in listed.errors] == [
            "line 2: player 700070: <rating> expected a number, got '2²10'"
        ]
        assert len(listed) == 1


@pytest.mark.parametrize("kind", ["encrypted", "compression"])
def test_a_zip_entry_that_cannot_be_unpacked_is_refused_naming_it(
    kind: str, tmp_path: Path
) -> None:
    source = zipped(tmp_path / "players_list.zip", "players_list_foa.txt",
                    ("\r\n".join([HEADER, *LINES]) + "\r\n").encode("latin-1"))  # fmt: skip
    data = bytearray(source.read_bytes())
    for signature, flags in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # both headers
        at = data.index(signature)
        if kind == "encrypted":
            data[at + flags] |= 1
        else:  # a method zipfile does not know (AES: 99)
            data[at + flags + 2 : at + flags + 4] = (99).to_bytes(2, "little")
    source.write_bytes(bytes(data))
    refused(source, "players_list_foa.txt in the zip is encrypted: expected FIDE's list as "
            "published" if kind == "encrypted" else "players_list_foa.txt in the zip cannot "
            "be unpacked: expected FIDE's list as published \\(deflated\\), got")  # fmt: skip


# --- the XML list read as XML ----------------------------------------------------------------


POLGAR_RATING = "<rating>2675</rating>"


def by_a_parser(document: bytes) -> dict[int, int | None]:
    """FIDE ID -> standard rating, as the standard library's XML parser reads the document
    (players in no namespace, fields in no namespace, text only, each once)."""
    import xml.etree.ElementTree as ET

    out: dict[int, int | None] = {}
    for player in ET.fromstring(document).findall("player"):
        texts = {child.tag: "".join(child.itertext()) for child in player}
        assert len(texts) == len(player) and all(len(child) == 0 for child in player)
        rating = texts.get("rating", "").strip()
        out[int(texts["fideid"])] = int(rating) or None if rating else None
    return out


# each: the XML list with Polgar's rating (or her player, or the list's start) written so,
# and her rating as an XML parser reads it
READ_AS_XML = {
    "a comment after the rating": (
        POLGAR_RATING,
        POLGAR_RATING + "<!-- <rating>1000</rating> -->",
        2675,
    ),
    "a comment before it": (POLGAR_RATING, "<!-- <rating>1000</rating> -->" + POLGAR_RATING, 2675),
    "a player in a comment": (
        "<player>\n  <fideid>700070",
        "<!-- <player><fideid>700070</fideid><name>X</name><rating>1000</rating></player>\n</player> --><player>\n  <fideid>700070",
        2675,
    ),
    "a CDATA section after it": (
        POLGAR_RATING,
        POLGAR_RATING + "<![CDATA[<rating>1000</rating>]]>",
        2675,
    ),
    "the rating in a CDATA section": (POLGAR_RATING, "<rating><![CDATA[2675]]></rating>", 2675),
    "a </player> in a CDATA section": (
        POLGAR_RATING,
        POLGAR_RATING
        + "<o_title2><![CDATA[</player><player><fideid>700070</fideid><name>Y</name><rating>1000</rating></player>]]></o_title2>",
        2675,
    ),
    "a processing instruction": (
        POLGAR_RATING,
        POLGAR_RATING + "<?pi <rating>1000</rating> ?>",
        2675,
    ),
    "character references": (POLGAR_RATING, "<rating>&#50;&#x36;75</rating>", 2675),
    "an entity in the name": ("Polgar, Judit", "Polgar &amp; &lt;Judit&gt;", 2675),
    "an attribute": ("<player>\n  <fideid>700070", '<player id="x">\n  <fideid>700070', 2675),
    "an attribute on the rating": (POLGAR_RATING, '<rating kind="standard">2675</rating>', 2675),
    "white space in the tags": (POLGAR_RATING, "<rating >2675</rating\n>", 2675),
    "an empty rating": (POLGAR_RATING, "<rating/>", None),
    "a field FIDE may add": (POLGAR_RATING, POLGAR_RATING + "<arena>x</arena>", 2675),
    "a rating in another namespace, declared on the list": (
        "<playerslist>",
        '<playerslist xmlns:f="urn:x">',
        2675,
    ),
    "a comment before the first player": ("<playerslist>", "<playerslist><!-- <player> -->", 2675),
    "an XML declaration and a byte order mark": (
        "<playerslist>",
        '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<playerslist>',
        2675,
    ),
    "a comment after the list": ("</playerslist>", "</playerslist><!-- <player> -->", 2675),
}


def as_list(tmp_path: Path, old: str, new: str, zip_it: bool = False) -> tuple[Path, bytes]:
    body = xml_of(LINES)
    assert body.count(old) == 1
    document = body.replace(old, new).encode()
    source = tmp_path / "players_list_xml_foa.xml"
    source.write_bytes(document)
    if zip_it:
        source = zipped(tmp_path / "players_list_xml.zip", source.name, document)
        (tmp_path / "players_list_xml_foa.xml").unlink()
    return source, document


READERS = ["serial", "ranges of 150 bytes", "ranges of 1000 bytes", "zipped, in ranges"]


def reading(monkeypatch: pytest.MonkeyPatch, reader: str) -> bool:
    """The reader set up; whether the list is zipped."""
    if reader != "serial":
        in_ranges(monkeypatch, 1000 if "1000" in reader else 150)
    return reader.startswith("zipped")


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("case", list(READ_AS_XML))
def test_the_xml_list_is_read_as_an_xml_parser_reads_it(
    case: str, reader: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new, rating = READ_AS_XML[case]
    source, document = as_list(tmp_path, old, new, reading(monkeypatch, reader))
    expected = by_a_parser(document.removeprefix(b"\xef\xbb\xbf"))
    assert expected[700070] == rating  # the case is what it says
    with open_list(source) as listed:
        assert listed.errors == []
        assert {p.fide_id: p.rating for p in listed} == expected
        polgar = listed.get(700070)
        assert polgar is not None and polgar.blitz == 2630 and polgar.flag == "wi"
        if case == "an entity in the name":
            assert polgar.name == "Polgar & <Judit>"


# each: Polgar's player written so, and the problem reported for her (the rest read)
PROBLEMS = {
    "a rating given twice": (POLGAR_RATING, POLGAR_RATING + "<rating>1000</rating>",
                             "player 700070: <rating> is given twice"),
    "an element in the rating": (POLGAR_RATING, "<rating><b>1000</b></rating>",
                                 "player 700070: <rating> holds the element <b>, expected text"),
    "a rating in a namespace": (
        POLGAR_RATING, POLGAR_RATING + '<f:rating xmlns:f="urn:x">1000</f:rating>',
        "player 700070: expected FIDE's <rating>, got <rating> in the namespace 'urn:x'"),
    "a player in a namespace": (
        "<player>\n  <fideid>700070", '<player xmlns="urn:x">\n  <fideid>700070',
        "expected FIDE's <player>, got <player> in the namespace 'urn:x'"),
    "a digit int refuses, as a reference": (
        POLGAR_RATING, "<rating>2&#178;10</rating>",
        "player 700070: <rating> expected a number, got '2²10'"),
}  # fmt: skip


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("case", list(PROBLEMS))
def test_a_player_xml_reads_otherwise_than_fide_writes_is_a_problem(
    case: str, reader: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new, message = PROBLEMS[case]
    source, _ = as_list(tmp_path, old, new, reading(monkeypatch, reader))
    with open_list(source) as listed:
        assert [str(e) for e in listed.errors] == [f"line 2: {message}"]
        assert listed.get(700070) is None and len(listed) == 3


# each: the list written so, and why it is refused (an XML parser refuses it too, but a list
# in a namespace, not FIDE's, and a document type, which is never read)
NOT_XML = {
    "an entity XML does not define": ("Polgar, Judit", "Polg&aacute;r", "undefined entity"),
    "a character XML forbids": ("Polgar, Judit", "Polgar\x01", "not well-formed"),
    "a reference to one": ("Polgar, Judit", "Polgar&#x110000;", "reference to invalid character"),
    "a tag that does not close": (POLGAR_RATING, "<rating>2675</ratin>", "mismatched tag"),
    "bytes that are not UTF-8": ("Polgar, Judit", "Polg\udce1r", "not well-formed"),
    "a list in a namespace": ("<playerslist>", '<playerslist xmlns="urn:x">',
                              "expected FIDE's XML list .* in the namespace 'urn:x' as its root"),
    "a document type after a comment": (
        "<playerslist>",  # past the first 4 KiB, which are looked at before any parsing
        "<!-- <playerslist> --><!--" + "x" * 5000 + '--><!DOCTYPE p [<!ENTITY a "b">]><playerslist>',
        "document type or entity declaration"),
}  # fmt: skip


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("case", list(NOT_XML))
def test_a_list_that_is_not_well_formed_xml_is_refused_naming_where(
    case: str, reader: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new, match = NOT_XML[case]
    zip_it = reading(monkeypatch, reader)
    written = new.encode("utf-8", errors="surrogateescape")
    document = xml_of(LINES).encode().replace(old.encode(), written)
    source = tmp_path / "players_list_xml_foa.xml"
    source.write_bytes(document)
    if zip_it:
        source = zipped(tmp_path / "players_list_xml.zip", source.name, document)
    if "namespace" not in case and "document type" not in case:
        with pytest.raises(Exception, match=match):  # the standard library's parser: too
            by_a_parser(document)
    message = refused(source, match)
    if "byte" in message:  # where it goes wrong, within the player's line
        at = int(message.split("byte ")[1].split(":")[0].replace(",", ""))
        assert 0 <= at - document.index(written) < 40, message


def test_a_list_declared_in_latin_1_is_read_in_latin_1(tmp_path: Path) -> None:
    body = xml_of(LINES).replace("Polgar, Judit", "Polgár, Judit")
    source = tmp_path / "players_list_xml_foa.xml"
    source.write_bytes(b'<?xml version="1.0" encoding="ISO-8859-1"?>\n' + body.encode("latin-1"))
    with open_list(source) as listed:
        polgar = listed.get(700070)
        assert polgar is not None and polgar.name == "Polgár, Judit" and polgar.rating == 2675


@pytest.mark.parametrize("reader", ["serial", "ranges of 1000 bytes"])
def test_endless_markup_is_refused_at_once(
    reader: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A comment (with a </player> every few KiB, so that no stretch is long) that never
    ends: refused once it is longer than any player, not held in memory to its end."""
    reading(monkeypatch, reader)
    filler = ("x" * 4000 + "</player>") * 20_000  # 80 MB
    body = xml_of(LINES).replace(POLGAR_RATING, POLGAR_RATING + "<!--" + filler + "-->")
    source = tmp_path / "players_list_xml_foa.xml"
    source.write_text(body)
    refused(source, "expected a <player> element of at most 16,384 bytes")


@pytest.mark.parametrize("reader", ["serial, in reads of 700 bytes", *READERS[1:]])
def test_markup_in_every_player_is_read_as_xml(
    reader: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A comment holding a whole player, and a CDATA section holding </player>, in each of
    3,000 players (the reads and ranges cut through them): each player read as an XML
    parser reads it, and the list's fast reading taken up again between them."""
    if reader.startswith("serial"):
        monkeypatch.setattr(fidelist.xmllist, "CHUNK", 700)
    zip_it = reading(monkeypatch, reader)
    many = [POLGAR.replace("700070 ", str(1_000_000 + i)[:7]) for i in range(3000)]
    fake = (
        "<!-- </player><player><fideid>{}</fideid><name>X</name><rating>1000</rating></player> -->"
    )
    body = xml_of([CARLSEN, *many])
    parts = body.split(POLGAR_RATING)
    assert len(parts) == 3001
    body = parts[0] + "".join(
        POLGAR_RATING + (fake.format(1_000_000 + i) if i % 2 else "<o><![CDATA[</player>]]></o>")
        + part
        for i, part in enumerate(parts[1:])
    )  # fmt: skip
    document = body.encode()
    source = tmp_path / "players_list_xml_foa.xml"
    source.write_bytes(document)
    if zip_it:
        source = zipped(tmp_path / "players_list_xml.zip", source.name, document)
    expected = by_a_parser(document)
    assert len(expected) == 3001 and set(expected.values()) == {2675, 2823}
    with open_list(source) as listed:
        assert listed.errors == [] and {p.fide_id: p.rating for p in listed} == expected


def test_a_key_of_the_wrong_length_is_made_anew(tmp_path: Path, private: Path) -> None:
    source = write_text(tmp_path / "players_list_foa.txt", LINES)
    private.mkdir(parents=True, mode=0o700)
    (private / cache.KEY_NAME).write_bytes(b"short")
    with open_list(source) as listed:
        assert listed.warnings == [] and listed.index == fidelist.index_path(source)
    assert len((private / cache.KEY_NAME).read_bytes()) == cache.KEY_BYTES


@pytest.mark.parametrize("field", ["fideid", "rating"])
@pytest.mark.parametrize("reader", ["serial", "ranges of 1000 bytes"])
def test_a_number_of_5000_digits_is_a_problem_not_a_traceback(
    field: str, reader: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``int`` refuses a number of more than 4,300 digits: such a FIDE ID or rating (within
    the 16 KiB a player may take) is a problem of that player."""
    reading(monkeypatch, reader)
    old = "<fideid>700070</fideid>" if field == "fideid" else POLGAR_RATING
    new = f"<{field}>{'7' * 5000}</{field}>"
    source, _ = as_list(tmp_path, old, new)
    with open_list(source) as listed:
        said = (
            "FIDE ID 77777777777777777777... is too large" if field == "fideid"
            else f"player 700070: <rating> expected a number, got {'7' * 12!r}"
        )  # fmt: skip
        assert [str(e) for e in listed.errors] == [f"line 2: {said}"] and len(listed) == 3
