"""A batch of workbooks recomputed on every processor: outcomes in the order given, a bad file
reported in its place, the same outcomes as one process gives."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import openpyxl
import pytest

from fide_rating.commands.cli import main
from fide_rating.engine.batch import Failure, recalc_files, workers_for


def _workbooks(folder: Path, count: int, bad: int) -> list[Path]:
    folder.mkdir()
    paths = []
    for i in range(count):
        path = folder / f"w{i:02d}.xlsx"
        if i == bad:
            path.write_text("not a workbook")
        else:
            wb = openpyxl.Workbook()
            ws = wb.active
            assert ws is not None
            ws["A1"] = i
            ws["A2"] = "=A1*2+SUM(A1:A1)"
            wb.save(path)
        paths.append(path)
    return paths


def test_outcomes_come_back_in_the_order_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                              ) -> None:  # fmt: skip
    monkeypatch.setattr("fide_rating.engine.batch.load", lambda: 0.0)  # the pool, however busy
    paths = _workbooks(tmp_path / "in", 8, bad=3)
    assert workers_for(len(paths)) >= 2 or pytest.skip("one processor, or no fork, here")
    got = list(recalc_files(paths, out_dir=tmp_path / "out"))
    assert [source for source, _ in got] == paths
    for i, (_, outcome) in enumerate(got):
        if i == 3:
            assert isinstance(outcome, Failure) and outcome.known
            assert "not a workbook" in outcome.message
        else:
            assert not isinstance(outcome, Failure)
            assert outcome.computed == 1 and outcome.problems == []
            out = openpyxl.load_workbook(tmp_path / "out" / paths[i].name, data_only=True)
            assert out.active is not None and out.active["A2"].value == 3 * i


def test_one_process_where_fork_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:  # fmt: skip
    monkeypatch.setattr("fide_rating.engine.batch.mp.get_all_start_methods", lambda: ["spawn"])
    assert workers_for(100) == 1
    monkeypatch.setattr("fide_rating.engine.batch.os.cpu_count", lambda: 1)
    assert workers_for(100) == 1
    paths = _workbooks(tmp_path / "in", 5, bad=0)
    got = list(recalc_files(paths, out_dir=tmp_path / "out"))
    assert [source for source, _ in got] == paths
    assert isinstance(got[0][1], Failure)
    assert all(not isinstance(o, Failure) and o.computed == 1 for _, o in got[1:])


@pytest.mark.parametrize(
    ("cores", "busy", "workers"),
    [(2, 0.0, 2), (2, 1.0, 2), (2, 1.9, 1), (2, 5.0, 1), (4, 1.5, 3), (4, 0.2, 4), (16, 0.0, 8),
     (1, 0.0, 1)],
)  # fmt: skip
def test_the_workers_are_the_processors_the_load_leaves_idle(
    monkeypatch: pytest.MonkeyPatch, cores: int, busy: float, workers: int
) -> None:
    """A worker a processor nothing else wants, this process's own counted: on two processors
    with a load of 2 or more, one process (a pool there ran at 0.92x one process)."""
    monkeypatch.setattr("fide_rating.engine.batch.processors", lambda: cores)
    monkeypatch.setattr("fide_rating.engine.batch.load", lambda: busy)
    if "fork" in multiprocessing.get_all_start_methods():
        assert workers_for(100) == workers
    assert workers_for(3) == 1  # a small batch: one process


def test_the_command_prints_in_the_order_given(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    paths = _workbooks(tmp_path / "in", 6, bad=4)
    code = main(["recalc", *map(str, paths), "-o", str(tmp_path / "out")])
    out, err = capsys.readouterr()
    assert code == 1
    printed = [line.split()[1] for line in out.splitlines() if line.startswith("ok ")]
    assert printed == [str(p) for i, p in enumerate(paths) if i != 4]
    assert "FAILED" in err and "w04.xlsx" in err and "5 recalculated, 1 failed" in out
