"""Print beside a box, light next to its writer's hand, is not read as a digit
(scanner.image.light_ink): issue 13, class 1 (ink cut out of the boxes) on far photos."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench.reader_eval import make_sheet
from forms.layout import build_layout, entry_cells
from forms.model import Box, CalibrationCell
from samplegen.profiles import SheetPlan
from samplegen.split import Part
from scanner.image.cells import CellImage
from scanner.image.light_ink import LIGHT_EMPTY_PROBABILITY, as_light, light_cells
from scanner.pipeline import scan_paths
from scanner.results import SheetScan

LAYOUT = build_layout(3)


def _cell(box: Box, darkness: float, ink: float = 0.2, cover: float | None = None
          ) -> CellImage:
    return CellImage(box, np.full((4, 4), 255, np.uint8), ink,
                     ink if cover is None else cover, darkness, 230.0, (0.0, 0.0), darkness)


def _seat_boxes(seat: str) -> list[Box]:
    return [box for (s, _, _), entries in entry_cells(LAYOUT).items() if s == seat
            for boxes in entries for box in boxes if box.kind == "digit"]


def _writer(cell: CellImage) -> str:
    return str(getattr(cell.box.meaning, "seat", ""))


def test_a_box_far_lighter_than_its_writers_hand_is_light() -> None:
    """Seat A writes at darkness 0.9; a box of A's holding ink at 0.3 (a caption's print on
    a far photo) is light. Seat B writes in faint pencil at 0.3 throughout: none of B's is
    light, nor a box without ink, nor a calibration box, nor a box whose strokes lie wholly
    outside its interior (a "1" drawn down its border: no interior ink to judge)."""
    a, b = _seat_boxes("A"), _seat_boxes("B")
    calibration = next(box for box in LAYOUT.boxes if isinstance(box.meaning, CalibrationCell)
                       and box.meaning.seat == "A")
    cells = ([_cell(box, 0.9) for box in a[:6]] + [_cell(a[6], 0.3), _cell(a[7], 0.1, 0.0)]
             + [_cell(calibration, 0.2), _cell(a[8], 0.0, cover=0.0)]
             + [_cell(box, 0.3) for box in b[:6]])
    assert light_cells(cells, _writer) == {6}


def test_a_writer_with_few_boxes_inked_has_no_light_box() -> None:
    """Under five boxes with ink a writer's hand is not known: nothing is light."""
    a = _seat_boxes("A")
    cells = [_cell(box, 0.9) for box in a[:3]] + [_cell(a[3], 0.2)]
    assert light_cells(cells, _writer) == frozenset()


def test_a_box_no_darker_than_the_pages_noise_is_light() -> None:
    """A pencil photo whose empty boxes' grain reaches 0.15 of the paper (steep, shadowed,
    colour cast: TRAINING part, seed 195 sheet 008 read "233" in empty boxes): a column box
    whose strokes reach only 0.18 is light (under 1.35 times the page's noise); the writer's
    own 0.26 is not, nor is any box where the page's noise is low (a clean capture)."""
    a = _seat_boxes("A")
    empty = [_cell(box, 0.15, 0.0, 0.0) for box in a[10:40]]
    cells = [_cell(box, 0.26) for box in a[:4]] + [_cell(a[4], 0.18)] + empty
    assert light_cells(cells, _writer) == {4}
    clean = [_cell(box, 0.03, 0.0, 0.0) for box in a[10:40]]
    assert light_cells([*cells[:5], *clean], _writer) == frozenset()


def test_a_box_no_darker_than_its_writers_noise_is_light_where_the_page_is_clean() -> None:
    """A faint seat's boxes cut again at the faint floors take in the grain of the shadow
    over its zone (TRAINING part, seed 500 sheet 004: a steep pencil photo, seat A's blank
    boxes at 0.09-0.11 of the paper, 50 of them cut as strokes and read "888", "833"), while
    the other seats' blank boxes, cut at the page's floors, hold nothing: the page's noise
    is nil there. Seat A's own noise makes its 0.115 stroke light and leaves its writing at
    0.2; seat B's stroke as light is read, B's boxes being quiet."""
    a, b = _seat_boxes("A"), _seat_boxes("B")
    grain = [_cell(box, 0.094, 0.0, 0.0) for box in a[10:40]]
    quiet = [_cell(box, 0.0, 0.0, 0.0) for box in [*b[10:40], *_seat_boxes("C")[:40]]]
    cells = [_cell(box, 0.2) for box in a[:4]] + [_cell(a[4], 0.115)] + grain + \
        [_cell(box, 0.2) for box in b[:4]] + [_cell(b[4], 0.115)] + quiet
    assert light_cells(cells, _writer) == {4}


def test_a_light_box_reads_empty_its_digits_kept_beneath() -> None:
    row = as_light([0.0] * 4 + [0.6, 0.2] + [0.0] * 4 + [0.2])
    assert row[10] == LIGHT_EMPTY_PROBABILITY
    assert row[4] == pytest.approx(3 * row[5])
    assert sum(row) == pytest.approx(1.0)


@pytest.mark.slow
def test_a_far_photos_caption_and_line_beside_a_box_are_not_read_as_digits(
        tmp_path: Path) -> None:
    """Issue 13, class 1: a TRAINING-part far photo (sheet 003 of ``reader_eval --part
    training --capture phone-distant --seed 187``). The caption under the first whists boxes
    (``висты на B``) and a line's remnant beside a box were cut out with the boxes' ink,
    stretched to a pen's contrast and read as digits: written 2, 2 and 14 read 482, 12 and
    414 (the rules held the values, each field doubtful). Their ink is light beside the
    writer's: each entry's ink now reads as written."""
    folder = tmp_path / "sheet"
    make_sheet(folder, SheetPlan("open", Part.TRAINING, "strokes", "phone-distant",
                                 "scribble-zigzag", "black"), 187, 3)
    (scan,) = scan_paths([folder], tmp_path / "out")
    assert isinstance(scan, SheetScan)
    fields = {f.key: f for f in scan.fields}
    for key, written in (("entry:C:whists:B:0", 2), ("entry:B:whists:C:0", 2),
                         ("entry:C:whists:B:1", 14)):
        assert fields[key].ink[0][0] == written, (key, fields[key].ink[:2])
        assert fields[key].status == "read", (key, fields[key].note)


@pytest.mark.slow
def test_a_quiet_far_photos_faint_pencil_is_cut_at_the_lowest_floors(tmp_path: Path) -> None:
    """Issue 13, classes 7 and 8: a far pencil photo (sheet 010 of ``reader_eval --part
    training --capture phone-distant --seed 199``, 88-110 dpi). Seat D's pencil reaches
    0.14-0.2 of the paper, under the floors such a page needs where noise may be as dark;
    its empty boxes are 0.06. Its pool, written 12, 14, 16, lost its 1s (and the whole
    4): read 2, nothing, 6. The page is quiet (``scanner.constants.QUIET_PAGE_NOISE``), so
    those boxes are cut again at the lowest floors: the ink reads what was written."""
    folder = tmp_path / "sheet"
    make_sheet(folder, SheetPlan("open", Part.TRAINING, "font", "phone-distant", "loop-circle",
                                   "black"), 199, 10)
    (scan,) = [s for s in scan_paths([folder], tmp_path / "out") if isinstance(s, SheetScan)]
    fields = {f.key: f for f in scan.fields}
    for index, written in ((2, 12), (3, 14), (4, 16)):
        key = f"entry:D:pool:{index}"
        assert fields[key].ink[0][0] == written, (key, fields[key].ink[:2])
