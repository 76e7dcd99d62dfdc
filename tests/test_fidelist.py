"""FIDE's published rating list: the text and XML layouts (plain and zipped), bad lines with
their line numbers, the index file made once and reused."""

from __future__ import annotations

import errno
import io
import os
import stat
import struct
import sys
import tempfile
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
