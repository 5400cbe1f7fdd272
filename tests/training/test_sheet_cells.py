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
from scanner.constants import INK_FINE_PAGE_PX_PER_MM
from scanner.digits.constants import EMPTY_CLASS
from scanner.digits.normalize import normalize_cells
from scanner.digits.recognizer import DigitRecognizer
from scanner.image import identify as identify_module
from scanner.image.identify import Identifier, assemble_sheets, identify
from scanner.image.load import load_file
from scanner.image.register import RegisteredPage, register
from scanner.read import read_page
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


@pytest.mark.slow
def test_cells_are_the_ones_the_scanner_reads_on_a_far_photo(tmp_path: Path) -> None:
    """A far photo's page (under 5.5 px/mm) is cut at a coarse page's floors by the scanner;
    the harvest cut it at a fine page's, so the network learnt on and the bench scored cells
    the scanner never reads (border remnants in empty boxes of pencil far photos)."""
    plan = next(p for p in plan_sheets("open", Part.TRAINING, 64) if p.capture == "phone-distant")
    rng = random.Random(5)
    folder = tmp_path / "far"
    make_sample(fitting_game(RuleSet.preset("sochi", 3, 10), rng), folder, default_glyphs(),
                rng, dpi=300, plan=plan)
    pages = [identify(register(page)) for path in sorted(folder.glob("page-*"))
             for page in load_file(path)]
    (sheet,), _ = assemble_sheets(pages)
    assert min(page.page.px_per_mm for page in sheet.pages) < INK_FINE_PAGE_PX_PER_MM
    recognizer = DigitRecognizer()
    scanned = {cell.crop.tobytes() for page in sheet.pages
               for cell in read_page(page.page, sheet.layout, recognizer, keep_crops=True).cells
               if cell.crop is not None}
    harvested = sheet_cells(folder).crops
    assert harvested
    assert all(crop.tobytes() in scanned for crop in harvested)


@pytest.mark.slow
def test_a_page_whose_code_will_not_decode_alone_is_harvested_as_the_scanner_reads_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scanner matches a page whose QR code will not decode to a sibling page's code
    (a third of the far-photo sheets of four TRAINING sets); the harvest identified each page
    alone and dropped the whole sheet, so far photos were the least trained on."""
    folder = _make(tmp_path / "sheet", Part.TRAINING, 4)
    whole = len(sheet_cells(folder).crops)
    decode = Identifier.decode_qr

    def page_two_unreadable(self: Identifier, page: RegisteredPage) -> str | None:
        return None if page.page_index == 1 else decode(self, page)

    monkeypatch.setattr(Identifier, "decode_qr", page_two_unreadable)
    monkeypatch.setattr(identify_module, "read_printed_id", lambda page: None)
    assert len(sheet_cells(folder).crops) == whole > 0


@pytest.mark.slow
def test_a_thresholded_sheet_is_harvested_with_its_dots_joined_as_the_scanner_reads_it(
        tmp_path: Path) -> None:
    """A black-and-white scan that broke a seat's strokes into dots is read again by the
    scanner with its dots joined; the harvest cut it once, apart, so the network learnt on
    dotted cells the scanner does not read there."""
    plan = next(p for p in plan_sheets("open", Part.TRAINING, 64)
                if p.capture == "flatbed-threshold" and p.ink == "blue-ballpoint")
    rng = random.Random(6)
    folder = tmp_path / "bw"
    make_sample(fitting_game(RuleSet.preset("sochi", 3, 10), rng), folder, default_glyphs(),
                rng, dpi=DPI, plan=plan)
    pages, _ = Identifier().identify_all([register(page) for path in sorted(folder.glob("page-*"))
                                          for page in load_file(path)])
    (sheet,), _ = assemble_sheets(pages)
    recognizer = DigitRecognizer()

    def crops(joined: bool) -> set[bytes]:
        return {cell.crop.tobytes() for page in sheet.pages
                for cell in read_page(page.page, sheet.layout, recognizer, keep_crops=True,
                                      joined=joined).cells if cell.crop is not None}

    joined, apart = crops(True), crops(False)
    harvested = [crop.tobytes() for crop in sheet_cells(folder).crops]
    assert harvested and all(crop in joined for crop in harvested)
    assert any(crop not in apart for crop in harvested)
