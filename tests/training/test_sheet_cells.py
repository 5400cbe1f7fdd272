"""Training cells cut by the scanner from sample sheets: only TRAINING-part open sheets are
taken (not the coarse ones, whose glyphs are the held-out MNIST digits), and every cell
carries the digit its writer wrote and that writer's glyph source."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from samplegen.games import fitting_game
from samplegen.glyphs import default_glyphs
from samplegen.profiles import plan_sheets
from samplegen.sheets import make_sample
from samplegen.split import Part
from scanner.digits.constants import EMPTY_CLASS
from scanner.digits.normalize import normalize_cells
from scanner.digits.recognizer import DigitRecognizer
from scoring import RuleSet
from training.sheet_cells import sheet_cells, training_sheets

DPI = 200


def _make(folder: Path, plan_part: Part | None, seed: int,
          families: tuple[str, ...] | None = None) -> Path:
    rng = random.Random(seed)
    game = fitting_game(RuleSet.preset("sochi", 3, 10), rng)
    plan = None if plan_part is None else plan_sheets("open", plan_part, 4, families)[0]
    make_sample(game, folder, default_glyphs(), rng, dpi=DPI, plan=plan)
    return folder


@pytest.mark.slow
def test_only_open_training_sheets_are_taken(tmp_path: Path) -> None:
    training = _make(tmp_path / "a-training", Part.TRAINING, 3)
    _make(tmp_path / "b-evaluation", Part.EVALUATION, 3)
    _make(tmp_path / "c-legacy", None, 3)
    _make(tmp_path / "d-blocks", Part.TRAINING, 3, ("blocks",))  # held-out MNIST, coarse
    assert training_sheets(tmp_path) == [training]


@pytest.mark.slow
def test_cells_carry_the_written_digit_and_the_writers_source(tmp_path: Path) -> None:
    folder = _make(tmp_path / "sheet", Part.TRAINING, 4)
    truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    written = sum(c["char"].isdigit() for c in truth["cells"])
    cells = sheet_cells(folder)
    labels = np.asarray(cells.labels)
    digits = int((labels != EMPTY_CLASS).sum())
    assert 0.95 * written <= digits <= written
    assert set(cells.sources) <= {w["source"] for w in truth["writers"]["seats"].values()}
    probs = DigitRecognizer().probabilities([c for c, y in zip(cells.crops, labels,
                                                                strict=True) if y != EMPTY_CLASS])
    assert (probs.argmax(axis=1) == labels[labels != EMPTY_CLASS]).mean() > 0.9
    assert normalize_cells(cells.crops).shape == (len(labels), 28, 28)
