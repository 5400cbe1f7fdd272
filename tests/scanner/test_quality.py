"""The resolution floor: coarse phone photos read where the ink allows, refused below it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.reader_eval import score_sheet
from forms.layout import build_layout
from forms.model import EntryCell
from samplegen.games import fitting_game
from samplegen.glyphs import default_glyphs
from samplegen.profiles import SheetPlan
from samplegen.sheets import make_sample
from samplegen.split import Part
from scanner.errors import PoorQuality
from scanner.image.load import PageImage
from scanner.image.register import register
from scanner.pipeline import ScanFailure, scan_paths
from scanner.read import EMPTY, read_page
from scanner.results import SheetScan
from scoring.rules import RuleSet
from tests.scanner.overflow import RECOGNIZER
from tests.scanner.synth import coarse_photo, glyphs, page_bgr, write_digit
from tests.scanner.test_far_photo import far_photo_of


def test_a_photo_at_90_dpi_is_registered_with_a_warning() -> None:
    reg = register(PageImage(Path("far.jpg"), 0, coarse_photo(3, 1, seed=3, dpi=90)))
    assert 80 < reg.px_per_mm * 25.4 < 100
    assert any("dpi: check its readings" in text for text in reg.warnings)


def test_a_photo_below_the_floor_is_refused_naming_its_page() -> None:
    image = cv2.resize(coarse_photo(3, 1, seed=3, dpi=90), None, fx=0.75, fy=0.75,
                       interpolation=cv2.INTER_AREA)
    with pytest.raises(PoorQuality, match=r"^far.jpg, page 2: page 2 of the sheet is only "
                                          r"\d+ dpi, too coarse to read \(its handwriting "
                                          r"needs 74\); take the photo closer"):
        register(PageImage(Path("far.jpg"), 1, image))


def test_a_far_photo_at_76_dpi_is_read() -> None:
    """A page the phone-distant capture takes at 76 dpi (the training part's far photos: 75-120
    dpi, a third of them refused under 79 dpi before) is read: 40 digits written in its
    entries are read right, its blank cells stay blank."""
    layout = build_layout(3)
    image, g = page_bgr(3, 0), glyphs(5)
    entries = [b for b in layout.boxes_for(0)
               if b.kind == "digit" and isinstance(b.meaning, EntryCell)]
    rng = np.random.default_rng(1)
    written = {}
    for i in rng.choice(len(entries), 40, replace=False).tolist():
        digit = int(rng.integers(10))
        write_digit(image, entries[i], g[digit].pop())
        written[entries[i]] = digit
    reg = register(PageImage(Path("far.jpg"), 0, far_photo_of(image, seed=3)))
    assert reg.px_per_mm * 25.4 < 77
    cells = {c.box: c for c in read_page(reg, layout, RECOGNIZER).cells}
    assert sum(cells[b].best == d for b, d in written.items()) >= 38
    assert sum(cells[b].best != EMPTY for b in entries if b not in written) <= 1


@pytest.mark.slow
def test_a_sheet_photographed_at_95_dpi_is_read(tmp_path: Path) -> None:
    rng = random.Random(7002)  # a sheet whose three QR codes read at 95 dpi
    plan = SheetPlan("legacy", Part.TRAINING, "mnist", "legacy-photo", "x-legacy", "legacy")
    make_sample(fitting_game(RuleSet.preset("leningrad", 4, 20), rng), tmp_path / "sheet",
                default_glyphs(), rng, dpi=95, plan=plan)
    truth = json.loads((tmp_path / "sheet" / "truth.json").read_text(encoding="utf-8"))
    outcomes = list(scan_paths([tmp_path / "sheet"], tmp_path / "out"))
    assert not [o for o in outcomes if isinstance(o, ScanFailure)]
    (scan,) = [o for o in outcomes if isinstance(o, SheetScan)]
    tally = score_sheet(truth, scan)
    assert tally.fields > 50 and tally.silent == 0
    assert tally.right >= 0.95 * tally.fields
