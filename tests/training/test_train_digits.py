"""The training command's use of sample sheets: a folder without TRAINING-part sheets is
refused in one sentence, and the temperature is fitted on the held-out writers' sheet cells."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pytest

from training.train_digits import _calibration_cells, _sheet_cells


def test_a_folder_without_training_sheets_is_refused_naming_it(tmp_path: Path) -> None:
    args = argparse.Namespace(sheets=[tmp_path], sheet_copies=1)
    with pytest.raises(SystemExit, match=str(tmp_path)):
        _sheet_cells(args, {})


def test_no_sheets_gives_no_sheet_cells() -> None:
    fit, held = _sheet_cells(argparse.Namespace(sheets=[], sheet_copies=1), {})
    assert len(fit.y) == len(held.y) == 0


def _cells(sheets: int) -> dict[str, np.ndarray]:
    def part(n: int, label: int) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros((n, 28, 28), np.float32), np.full(n, label, np.int64)

    (mx, my), (cwx, cwy), (sx, sy) = part(3, 1), part(4, 2), part(sheets, 3)
    return dict(mx=mx, my=my, cwx=cwx, cwy=cwy, sx=sx, sy=sy)


def test_temperature_cells_are_the_sheet_cells_when_there_are_any() -> None:
    x, y = _calibration_cells(_cells(5))
    assert len(x) == 5 and set(y.tolist()) == {3}
    x, y = _calibration_cells(_cells(0))
    assert len(x) == 7 and set(y.tolist()) == {1, 2}
