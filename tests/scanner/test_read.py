"""Reading a page: cells cut upright, marks, digits (general and adapted), time budget."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from forms.layout import build_layout, calibration_cells
from forms.model import Box, DealCell, EntryCell
from scanner.constants import EMPTY_MAX_INK_FRACTION
from scanner.decode.entries import BLANK_CELL
from scanner.digits.adaptation import WriterAdaptation
from scanner.digits.recognizer import DigitRecognizer
from scanner.image.cells import cut_cells
from scanner.image.load import PageImage
from scanner.image.marks import choice_group, mark_thresholds
from scanner.image.raster import rasterize
from scanner.image.register import register
from scanner.read import EMPTY, column_evidence, read_page
from scoring.columns import Column
from tests.scanner.synth import PX_PER_MM, glyphs, page_bgr, photo, write_digit, write_mark

LAYOUT = build_layout(3)
RECOGNIZER = DigitRecognizer()


def _triangle(seed: int = 0) -> tuple[np.ndarray, dict]:  # type: ignore[type-arg]
    img = page_bgr(3, 0)
    g = glyphs(seed)
    truth = {}
    rng = np.random.default_rng(seed)
    for seat in LAYOUT.seats:
        for box in calibration_cells(LAYOUT, seat):
            write_digit(img, box, g[box.meaning.digit].pop())  # type: ignore[union-attr]
    entries = [b for b in LAYOUT.boxes_for(0) if isinstance(b.meaning, EntryCell)
               and b.kind == "digit"]
    for box in rng.choice(len(entries), 60, replace=False):
        d = int(rng.integers(10))
        write_digit(img, entries[box], g[d].pop())
        truth[entries[box]] = d
    return img, truth


@pytest.mark.slow
def test_triangle_digits_read_with_rotation_and_adaptation() -> None:
    img, truth = _triangle()
    reg = register(PageImage(Path("t.png"), 0, photo(img, 1, seed=2)))
    reading = read_page(reg, LAYOUT, RECOGNIZER)
    assert reading.adapted_seats == ("A", "B", "C")
    best = {c.box: c.best for c in reading.cells}
    right = sum(best[b] == d for b, d in truth.items())
    assert right / len(truth) >= 0.9, right
    others = [c for c in reading.cells if c.box not in truth
              and c.box.meaning.__class__.__name__ == "EntryCell"]
    assert np.mean([c.best == EMPTY for c in others]) > 0.99
    assert all(abs(sum(c.probabilities) - 1) < 1e-3 for c in reading.cells)


def test_cells_upright_and_marks() -> None:
    """On a photo of a deal page, one choice crossed in a mark group (or a cancel and the
    choice made instead, or none) reads as written, and the digit cells stand upright."""
    img = page_bgr(3, 1)
    boxes = LAYOUT.boxes_for(1)
    groups: dict[object, list[Box]] = {}
    for box in (b for b in boxes if b.kind == "mark"):
        groups.setdefault(choice_group(box), []).append(box)
    states = {}
    for i, group in enumerate(list(groups.values())[:24]):
        chosen = dict(enumerate(("cancelled", "marked") if i % 4 == 3 else ("marked",)))
        chosen = {} if i % 4 == 0 else chosen
        for n, box in enumerate(group):
            states[box] = chosen.get(n, "empty")
            if states[box] != "empty":
                write_mark(img, box, states[box])
    reg = register(PageImage(Path("d.jpg"), 0, photo(img, 2, seed=5)))
    reading = read_page(reg, LAYOUT, RECOGNIZER)
    got = {m.box: m.state for m in reading.marks}
    wrong = [b for b, s in states.items() if got[b] != s]
    assert not wrong, wrong[:3]
    assert all(m.state == "empty" for m in reading.marks if m.box not in states)
    assert all(isinstance(c.box.meaning, DealCell) for c in reading.cells)


def test_thresholds_follow_the_sheet() -> None:
    groups = [n // 5 for n in range(100)] + list(range(20)) + [20, 21, 22]
    thin_fills = [0.0] * 100 + [0.08] * 20 + [0.7] * 3
    thick_fills = [0.0] * 100 + [0.3] * 20 + [0.95] * 3
    thin = mark_thresholds(thin_fills, thin_fills, groups)
    thick = mark_thresholds(thick_fills, thick_fills, groups)
    assert thin.marked < 0.08 < thin.cancelled < 0.7
    assert thick.marked < 0.3 < thick.cancelled < 0.95


def test_black_and_white_border_is_cut_off() -> None:
    import cv2

    gray = cv2.cvtColor(cv2.cvtColor(page_bgr(3, 0), cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    reg = register(PageImage(Path("bw.png"), 0, gray))
    boxes = LAYOUT.boxes_for(0)
    raster = rasterize(reg, boxes)
    assert not raster.colour
    cells = cut_cells(raster, boxes)
    assert max(c.ink_fraction for c in cells) < 0.006


@pytest.mark.slow
def test_one_network_pass_reads_like_each_writer_apart() -> None:
    """The page's cells run through the network together (calibration cells once, for the
    adaptation and as cells); each cell reads as when its writer's cells are read on their own,
    with an adaptation built from that writer's calibration crops."""
    img, truth = _triangle(seed=1)
    reg = register(PageImage(Path("t.png"), 0, img))
    reading = read_page(reg, LAYOUT, RECOGNIZER)
    assert reading.adapted_seats == ("A", "B", "C")
    cells = {c.box: c for c in cut_cells(rasterize(reg, LAYOUT.boxes_for(0)),
                                         LAYOUT.boxes_for(0))}
    got = {c.box: c.probabilities for c in reading.cells}
    for seat in LAYOUT.seats:
        calibration = {b.meaning.digit: cells[b].crop  # type: ignore[union-attr]
                       for b in calibration_cells(LAYOUT, seat)}
        adaptation = WriterAdaptation.from_calibration(calibration, RECOGNIZER)
        assert adaptation.active
        own = [c for c in cells.values() if c.box.kind == "digit"
               and c.ink_fraction > EMPTY_MAX_INK_FRACTION
               and getattr(c.box.meaning, "seat", None) == seat]
        assert len(own) > 10
        alone = adaptation.probabilities([c.crop for c in own])
        for c, row in zip(own, alone, strict=True):
            np.testing.assert_allclose(got[c.box], row, atol=1e-6)


def test_adaptation_of_another_model_is_refused() -> None:
    """An adaptation combines the page's network rows with its own references, so it must
    come from the same model as the page's readings."""
    img, g = page_bgr(3, 0), glyphs(2)
    entry = next(b for b in LAYOUT.boxes_for(0) if isinstance(b.meaning, EntryCell)
                 and b.meaning.seat == "A" and b.kind == "digit")
    write_digit(img, entry, g[4].pop())
    reg = register(PageImage(Path("t.png"), 0, img))
    other = DigitRecognizer(RECOGNIZER.model_path)
    foreign = WriterAdaptation(other, np.eye(3, 128, dtype=np.float32), np.arange(3))
    with pytest.raises(ValueError, match="another digit model"):
        read_page(reg, LAYOUT, RECOGNIZER, writers={"A": foreign})
    own = WriterAdaptation(RECOGNIZER, foreign.prototypes, foreign.prototype_labels)
    assert read_page(reg, LAYOUT, RECOGNIZER, writers={"A": own}).adapted_seats == ()


def test_only_a_black_and_white_page_is_read_with_its_dots_joined() -> None:
    """A sheet read again with its dots joined (``LostInk.dots``) smooths only its
    black-and-white pages: a page in grey reads exactly as before, a thresholded one does
    not."""
    img = page_bgr(3, 1)
    for box in [b for b in LAYOUT.boxes_for(1) if b.kind == "mark"][:12]:
        write_mark(img, box, "marked")
    levels = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    grey = register(PageImage(Path("grey.png"), 0, levels))
    assert read_page(grey, LAYOUT, RECOGNIZER, joined=True).marks == \
        read_page(grey, LAYOUT, RECOGNIZER).marks
    bw = register(PageImage(Path("bw.png"), 0, np.where(levels < 150, 0, 255).astype(np.uint8)))
    assert read_page(bw, LAYOUT, RECOGNIZER, joined=True).marks != \
        read_page(bw, LAYOUT, RECOGNIZER).marks


def _dotted_triangle(seed: int, keep: float) -> tuple[np.ndarray, dict[Box, int]]:
    """A triangle page written in blue (:func:`_triangle`) and thresholded to black and
    white as a light ballpoint is: the print kept whole, the strokes only where a grainy
    field (speckles about a pixel across at 300 dpi) lets ``keep`` of their pixels through,
    broken into dots."""
    img, truth = _triangle(seed)
    plain = cv2.cvtColor(page_bgr(3, 0), cv2.COLOR_BGR2GRAY)
    ink = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) < plain.astype(np.int16) - 60
    rng = np.random.default_rng(seed)
    grain = cv2.GaussianBlur(rng.normal(0, 1, plain.shape).astype(np.float32), (0, 0), 1.0)
    bw = np.where(plain < 128, 0, 255).astype(np.uint8)
    bw[ink & (grain > np.quantile(grain[ink], 1 - keep))] = 0
    return bw, truth


def test_a_stroke_broken_into_dots_is_read_with_its_dots_grown_and_joined() -> None:
    """Issue 13, class 7 (``DOTS_GROW_MM``): a light ballpoint thresholded to black and white
    keeps a dot every few tenths of a millimetre of its strokes, and smoothed alone the dots
    stay too light to pass for ink (a third of the digits read, most of the rest blank);
    grown a pixel first they join into strokes the network reads. The boxes left blank stay
    blank: growing the dots gives no ink where there was none."""
    bw, truth = _dotted_triangle(0, 0.3)
    reading = read_page(register(PageImage(Path("bw.png"), 0, bw)), LAYOUT, RECOGNIZER,
                        joined=True)
    best = {c.box: c.best for c in reading.cells}
    assert sum(best[b] == d for b, d in truth.items()) >= 0.75 * len(truth)
    others = [c for c in reading.cells if c.box not in truth
              and isinstance(c.box.meaning, EntryCell)]
    assert np.mean([c.best == EMPTY for c in others]) > 0.99


@pytest.mark.parametrize("length_px", [4, 14])
def test_an_entry_keeps_a_trace_of_ink_its_cells_read_as_blank(length_px: int) -> None:
    """Issue 13 (TRAINING seed 90: a light pencil "50" on a steep photo cut down to a speck,
    read blank and then settled as a total its writer left out, the player blamed): a stub
    of pencil in an entry box, which the model reads as blank (a border's remnant), leaves
    its entry marked as traced; no entry without ink is."""
    box = next(b for b in LAYOUT.boxes_for(0) if isinstance(b.meaning, EntryCell)
               and b.kind == "digit" and b.meaning.entry == 2)
    img = page_bgr(3, 0)
    x0, y0, w, h = (round(v * PX_PER_MM) for v in (box.x_mm, box.y_mm, box.w_mm, box.h_mm))
    cv2.line(img, (x0 + w // 2, y0 + h // 2), (x0 + w // 2, y0 + h // 2 + length_px),
             (190, 190, 190), 2, cv2.LINE_AA)
    reading = read_page(register(PageImage(Path("stub.jpg"), 0, photo(img, 0, seed=3))),
                        LAYOUT, RECOGNIZER)
    cell = next(c for c in reading.cells if c.box == box)
    assert cell.ink_fraction > 0 and cell.probabilities[EMPTY] >= BLANK_CELL
    traced = [(column, number) for column, entries in column_evidence(
        LAYOUT, {0: reading}).items() for number, entry in enumerate(entries) if entry.traced]
    meaning = box.meaning
    assert isinstance(meaning, EntryCell)
    assert traced == [(Column(meaning.seat, meaning.column, meaning.on), meaning.entry)]
