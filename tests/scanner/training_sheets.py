"""A sheet of the open sample generator's TRAINING part made, read as ``pulka scan`` reads it
and scored against its truth: the tests of whole sheets a TRAINING set holds."""

from __future__ import annotations

import json
from pathlib import Path

from bench.reader_eval import Tally, make_sheet, score_sheet
from samplegen.profiles import SheetPlan
from scanner.pipeline import scan_paths
from scanner.results import FieldReading, SheetScan

SHEET_FOLDER = "sheet"
"""Where under a test's ``tmp_path`` the sheet is made (its pages and ``truth.json``)."""


def scored_sheet(tmp_path: Path, plan: SheetPlan, seed: int, index: int) -> Tally:
    """Sheet ``index`` of the set of ``seed`` made as ``plan`` says under ``tmp_path``, read
    (one sheet, not refused) and scored."""
    scan = read_sheet(tmp_path, plan, seed, index)
    truth = (tmp_path / SHEET_FOLDER / "truth.json").read_text(encoding="utf-8")
    return score_sheet(json.loads(truth), scan)


def read_sheet(tmp_path: Path, plan: SheetPlan, seed: int, index: int) -> SheetScan:
    """Sheet ``index`` of the set of ``seed``, made as ``plan`` says under ``tmp_path`` and
    read (one sheet, not refused)."""
    folder = tmp_path / SHEET_FOLDER
    make_sheet(folder, plan, seed, index)
    (scan,) = scan_paths([folder], tmp_path / "out")
    assert isinstance(scan, SheetScan), scan
    return scan


def read_field(tmp_path: Path, plan: SheetPlan, seed: int, index: int, key: str
               ) -> FieldReading:
    """Field ``key`` of sheet ``index`` of the set of ``seed``, made as ``plan`` says under
    ``tmp_path`` and read (one sheet, not refused)."""
    return next(f for f in read_sheet(tmp_path, plan, seed, index).fields if f.key == key)
