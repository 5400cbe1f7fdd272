"""Tests of the digit benchmark's sets and adaptation protocols (bench.digits_eval)."""

from __future__ import annotations

import cv2
import numpy as np

from bench.digits_eval import (
    adaptation_trials,
    heldout_cells,
    low_resolution_cells,
    run_model,
)
from scanner.digits.recognizer import DigitRecognizer


def _detail(cell: np.ndarray) -> float:
    """Mean absolute Laplacian: how much fine detail a cell holds."""
    return float(np.abs(cv2.Laplacian(cell.astype(np.float32), cv2.CV_32F)).mean())


def test_low_resolution_cells_lose_detail_but_keep_size() -> None:
    sharp, labels = heldout_cells()
    blurred, low_labels = low_resolution_cells()
    np.testing.assert_array_equal(labels, low_labels)
    assert blurred[0].shape == sharp[0].shape
    assert np.mean([_detail(c) for c in blurred[:50]]) < 0.5 * np.mean(
        [_detail(c) for c in sharp[:50]])


def test_adaptation_trials_cover_the_test_part_once_per_trial() -> None:
    cells, labels = heldout_cells()
    cells, labels = cells[::10], labels[::10]  # 100 digits, 10 of each
    rec = DigitRecognizer()
    probs, embeds = run_model(rec, cells)
    r = adaptation_trials(rec, cells, labels, probs, embeds, trials=2)
    assert r["n_test"] == 70 and r["n_pool"] == 30
    assert int(r["confusion"].sum()) == 2 * 70  # every test digit, once per trial
    for key in ("base", "mean", "page_mean", "ece", "page_ece"):
        assert 0.0 <= float(r[key]) <= 1.0, key
    assert r["page_mean"] >= 0.9
