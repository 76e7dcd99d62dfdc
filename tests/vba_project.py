"""The VBA modules of a workbook's ``xl/vbaProject.bin``, read as Excel reads them: the
compound file (MS-CFB), the project's ``dir`` stream and each module's compressed source
(MS-OVBA 2.4.1). Enough to read what a macro workbook holds, nothing written."""

from __future__ import annotations

import struct
from dataclasses import dataclass

FREE, END_OF_CHAIN = 0xFFFFFFFF, 0xFFFFFFFE


@dataclass(frozen=True, slots=True)
class Module:
    name: str
    stream: str
    document: bool  # a sheet's or the workbook's module, not a standard one
    source: str


class CompoundFile:
    """The streams of an MS-CFB file (version 3 or 4), by their path (``VBA/dir``)."""

    def __init__(self, data: bytes) -> None:
        if data[:8] != bytes.fromhex("d0cf11e0a1b11ae1"):
            raise ValueError("not a compound file")
        self.data = data
        self.sector = 1 << struct.unpack_from("<H", data, 0x1E)[0]
        self.mini = 1 << struct.unpack_from("<H", data, 0x20)[0]
        (first_dir,) = struct.unpack_from("<I", data, 0x30)
        self.cutoff, first_minifat, _, first_difat, difat_count = struct.unpack_from(
            "<IIIII", data, 0x38
        )
        difat = list(struct.unpack_from("<109I", data, 0x4C))
        sector = first_difat
        for _ in range(difat_count):
            entries = struct.unpack_from(f"<{self.sector // 4}I", self._at(sector))
            difat.extend(entries[:-1])
            sector = entries[-1]
        self.fat: list[int] = []
        for s in difat:
            if s not in (FREE, END_OF_CHAIN):
                self.fat.extend(struct.unpack_from(f"<{self.sector // 4}I", self._at(s)))
        directory = self._chain(first_dir)
        self.entries = [directory[i : i + 128] for i in range(0, len(directory), 128)]
        root = self.entries[0]
        self.ministream = self._chain(struct.unpack_from("<I", root, 116)[0])
        minifat = self._chain(first_minifat) if first_minifat != END_OF_CHAIN else b""
        self.minifat = list(struct.unpack(f"<{len(minifat) // 4}I", minifat))
        self.streams: dict[str, bytes] = {}
        self._walk(struct.unpack_from("<I", root, 76)[0], "")

    def _at(self, sector: int) -> bytes:
        start = (sector + 1) * self.sector
        return self.data[start : start + self.sector]

    def _chain(self, sector: int) -> bytes:
        out = bytearray()
        seen = 0
        while sector not in (END_OF_CHAIN, FREE):
            out += self._at(sector)
            sector = self.fat[sector]
            seen += 1
            if seen > len(self.fat):
                raise ValueError("a sector chain loops")
        return bytes(out)

    def _mini_chain(self, sector: int, size: int) -> bytes:
        out = bytearray()
        while sector not in (END_OF_CHAIN, FREE) and len(out) < size:
            out += self.ministream[sector * self.mini : (sector + 1) * self.mini]
            sector = self.minifat[sector]
        return bytes(out[:size])

    def _walk(self, index: int, prefix: str) -> None:
        if index == FREE:
            return
        entry = self.entries[index]
        (length,) = struct.unpack_from("<H", entry, 64)
        name = entry[: max(length - 2, 0)].decode("utf-16-le")
        kind = entry[66]
        left, right, child = struct.unpack_from("<III", entry, 68)
        start, size = struct.unpack_from("<IQ", entry, 116)
        size &= 0xFFFFFFFF if self.sector == 512 else size
        path = f"{prefix}{name}"
        if kind == 2:  # a stream
            read = self._mini_chain if size < self.cutoff else None
            self.streams[path] = read(start, size) if read else self._chain(start)[:size]
        elif kind == 1:  # a storage
            self._walk(child, f"{path}/")
        self._walk(left, prefix)
        self._walk(right, prefix)


def decompress(data: bytes) -> bytes:
    """MS-OVBA 2.4.1.3.1: a CompressedContainer to its bytes."""
    if not data or data[0] != 1:
        raise ValueError("not a compressed container")
    out = bytearray()
    pos = 1
    while pos < len(data):
        (header,) = struct.unpack_from("<H", data, pos)
        end = pos + (header & 0x0FFF) + 3
        pos += 2
        chunk_start = len(out)
        if not header & 0x8000:  # stored: 4096 bytes as they are
            out += data[pos : pos + 4096]
            pos += 4096
            continue
        while pos < end:
            flags = data[pos]
            pos += 1
            for bit in range(8):
                if pos >= end:
                    break
                if not flags >> bit & 1:
                    out.append(data[pos])
                    pos += 1
                    continue
                (token,) = struct.unpack_from("<H", data, pos)
                pos += 2
                done = len(out) - chunk_start
                bits = max((done - 1).bit_length(), 4)
                length_mask = 0xFFFF >> bits
                length = (token & length_mask) + 3
                offset = (token >> (16 - bits)) + 1
                for _ in range(length):
                    out.append(out[-offset])
    return bytes(out)


def modules(vba_project: bytes) -> list[Module]:
    """Every module of a ``vbaProject.bin``, with its source (MS-OVBA 2.3.4.2)."""
    cfb = CompoundFile(vba_project)
    folder = next(p.rsplit("/", 1)[0] for p in cfb.streams if p.endswith("/dir"))
    dir_stream = decompress(cfb.streams[f"{folder}/dir"])
    codepage = 1252
    found: list[Module] = []
    name = stream = ""
    offset, document = 0, False
    pos = 0
    while pos < len(dir_stream):
        record, size = struct.unpack_from("<HI", dir_stream, pos)
        pos += 6
        if record == 0x0009:  # PROJECTVERSION: its size field says 4, six bytes follow
            size = 6
        value = dir_stream[pos : pos + size]
        pos += size
        if record == 0x0003:
            (codepage,) = struct.unpack("<H", value)
        elif record == 0x0019:
            name = value.decode(f"cp{codepage}")
        elif record == 0x001A:
            stream = value.decode(f"cp{codepage}")
        elif record == 0x0031:
            (offset,) = struct.unpack("<I", value)
        elif record == 0x0022:
            document = True
        elif record == 0x0021:
            document = False
        elif record == 0x002B:  # a module's terminator
            source = decompress(cfb.streams[f"{folder}/{stream}"][offset:])
            found.append(Module(name, stream, document, source.decode(f"cp{codepage}")))
            name = stream = ""
            offset, document = 0, False
    return found


def project_text(vba_project: bytes) -> str:
    """The ``PROJECT`` stream (MS-OVBA 2.3.1): the project's modules as Excel lists them."""
    cfb = CompoundFile(vba_project)
    return cfb.streams["PROJECT"].decode("cp1252")
