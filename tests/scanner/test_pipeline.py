"""The scan pipeline's glue: a library call leaves the process as it found it."""

from __future__ import annotations

import gc
import shutil
from pathlib import Path

import pytest

from scanner import pipeline
from scanner.decode.sheet import DecodedSheet, SheetEvidence, decode_sheet
from scanner.pipeline import ScanFailure, scan_paths
from scoring.exitcode import ExitCode

SCANS = Path(__file__).parents[2] / "samples" / "scans"


def test_a_scan_leaves_the_garbage_collector_alone(tmp_path: Path) -> None:
    (tmp_path / "a.jpg").write_bytes(b"not an image")
    (tmp_path / "b.jpg").write_bytes(b"not one either")
    before = gc.get_threshold()
    during = []
    for outcome in scan_paths([tmp_path], tmp_path / "out"):
        assert isinstance(outcome, ScanFailure)
        during.append(gc.get_threshold())
    assert during == [before, before]
    assert gc.get_threshold() == before


def test_a_bug_met_reading_one_sheet_is_reported_and_the_batch_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """TRAINING part, a far photo, seed 104: decoding one sheet stopped with an IndexError,
    and the whole batch with it. A bug met reading a sheet is now one failure naming that
    sheet's files and saying the fault is pulka's; the next sheet is read."""
    for name in ("sochi-3-scan", "leningrad-4-photo"):
        for page in sorted((SCANS / name).glob("page-*")):
            shutil.copy(page, tmp_path / f"{name}-{page.name}")

    def failing_for_three(evidence: SheetEvidence) -> DecodedSheet:
        if len(evidence.seats) == 3:
            raise IndexError("list index out of range")
        return decode_sheet(evidence)

    monkeypatch.setattr(pipeline, "decode_sheet", failing_for_three)
    outcomes = list(scan_paths(sorted(tmp_path.glob("*-page-*")), tmp_path / "out"))
    failures = [o for o in outcomes if isinstance(o, ScanFailure)]
    assert [type(o).__name__ for o in outcomes].count("SheetScan") == 1
    assert len(failures) == 1
    assert "sochi-3-scan-page-0" in failures[0].message
    assert "pulka failed while reading this sheet (IndexError): an error in pulka itself" in \
        failures[0].message
    assert failures[0].exit_code == ExitCode.INTERNAL
