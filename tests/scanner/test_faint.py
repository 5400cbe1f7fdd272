"""Ink the image lost (scanner.decode.faint, scanner.read.faint_seats): faint pencil on a
black-and-white scan never leaves a field silently empty."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.reader_eval import score_sheet
from samplegen.games import fitting_game
from samplegen.glyphs import default_glyphs
from samplegen.profiles import SheetPlan
from samplegen.sheets import make_sample
from samplegen.split import Part
from scanner.decode.sheet import decode_sheet
from scanner.pipeline import scan_paths
from scanner.results import SheetScan
from scoring import RuleSet
from tests.scanner.evidence import game, sheet_evidence


def test_a_seat_whose_calibration_is_blank_has_no_field_silently_empty() -> None:
    """Every entry of a faint seat decided empty is *doubtful*, and the sheet says why."""
    doc = game()
    evidence = replace(sheet_evidence(doc, sure=0.99), faint=("B",))
    decoded = decode_sheet(evidence)
    seat_b = [d for column, ds in decoded.entries.items() if column.seat == "B" for d in ds]
    assert seat_b and all(d.status != "empty" for d in seat_b)
    assert all(d.status == "empty" for column, ds in decoded.entries.items()
               if column.seat != "B" for d in ds if d.value is None and d.expected is None)
    assert any(row.status == "empty" for row in decoded.rows)  # the scorer's rows stand
    assert decoded.problems and "seat B's calibration digits" in decoded.problems[0]


def _thresholded_pencil_sheet(folder: Path) -> Path:
    """A TRAINING-part pencil sheet, each page thresholded at grey 150 as a black-and-white
    flatbed scan does."""
    rng = random.Random(1)
    plan = SheetPlan("open", Part.TRAINING, "strokes", "flatbed-colour", "x-neat", "pencil")
    make_sample(fitting_game(RuleSet.preset("sochi", 3, 20), rng), folder, default_glyphs(),
                rng, dpi=300, plan=plan)
    for page in folder.glob("page-*"):
        grey = cv2.imread(str(page), cv2.IMREAD_GRAYSCALE)
        page.unlink()
        cv2.imwrite(str(page.with_suffix(".png")),
                    np.where(grey < 150, 0, 255).astype(np.uint8))
    return folder


@pytest.mark.slow
def test_pencil_lost_by_a_black_and_white_scan_is_doubtful_and_said(tmp_path: Path) -> None:
    """Issue 13, class 7: the strokes are gone from the image; no field passes as read or
    empty, and the sheet's problems say to scan it again in grey."""
    folder = _thresholded_pencil_sheet(tmp_path / "sheet")
    scans = [s for s in scan_paths([folder], tmp_path / "out") if isinstance(s, SheetScan)]
    assert len(scans) == 1
    truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    tally = score_sheet(truth, scans[0])
    assert tally.fields > 50 and tally.silent == 0, tally.silent_fields[:5]
    assert any("scan the sheet again in grey" in p for p in scans[0].problems)
