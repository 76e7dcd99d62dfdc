"""Workbooks saved as .ods by a real LibreOffice with the add-in installed (so that the FIDE
functions are stored as add-in calls): ``fide-rating template --ods``."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def to_ods(paths: list[Path]) -> list[Path]:
    """The templates as .ods, saved by LibreOffice with the add-in installed (so that the
    FIDE functions are stored as add-in calls)."""
    import tempfile

    from .build import build as build_oxt
    from .office import OfficeError, office_with_addin

    out: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="fide-ods-") as tmp:
        oxt = build_oxt(Path(tmp) / "fide-rating.oxt")
        try:
            _save_ods(paths, office_with_addin(Path(tmp) / "profile", oxt), out)
        except Exception as error:  # LibreOffice's own (UNO) errors: a message, not a traceback
            if not type(error).__module__.startswith(("uno", "com.sun")):
                raise
            raise OfficeError(f"LibreOffice failed while saving the .ods copies: {error}") from None
    return out


def _save_ods(paths: list[Path], running: Any, out: list[Path]) -> None:
    with running as office:
        for path in paths:
            doc = office.open(path)
            try:
                doc.calculateAll()
                target = path.with_suffix(".ods")
                partial = target.with_name(f".{target.name}.part")
                office.store(doc, partial, "calc8")
                partial.replace(target)
                out.append(target)
            finally:
                doc.close(True)
