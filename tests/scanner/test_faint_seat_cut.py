"""A seat whose calibration strip a grey or colour capture lost (a faint pencil) has its
boxes cut again at the faint floors, on a fine page only, and its entries confirmed only by
ink that reads the rules' value surely (issue 13, class 7: a person reads that pencil)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench.reader_eval import make_sheet
from forms.layout import build_layout
from forms.model import Box, EntryCell
from samplegen.profiles import SheetPlan
from samplegen.split import Part
from scanner.image.load import PageImage
from scanner.image.register import register
from scanner.pipeline import scan_paths
from scanner.read import EMPTY, LostInk, read_page
from scanner.results import SheetScan
from tests.scanner.overflow import RECOGNIZER, entry_boxes, place_glyph
from tests.scanner.synth import glyphs, page_bgr

LAYOUT = build_layout(4)
FAINTEST_PENCIL = 230
"""Grey level of a pencil barely pressed (paper 255): 0.1 of the paper below it, under
every floor of a photo (0.12)."""


def _faint_entries() -> tuple[np.ndarray, list[tuple[Box, ...]], str]:  # type: ignore[type-arg]
    """A colour page with ten two-digit entries of one seat in the faintest pencil, their
    boxes and the seat."""
    img, g = page_bgr(4, 0), glyphs(21)
    entries = entry_boxes(4, 0, 3)[:10]
    for i, (_, tens, units) in enumerate(entries):
        place_glyph(img, tens, g[1 + i % 9].pop(), level=FAINTEST_PENCIL)
        place_glyph(img, units, g[i % 10].pop(), level=FAINTEST_PENCIL)
    meaning = entries[0][1].meaning
    assert isinstance(meaning, EntryCell)
    return img, entries, meaning.seat


def _digits_read(img: np.ndarray, entries: list[tuple[Box, ...]],  # type: ignore[type-arg]
                 faint_seats: tuple[str, ...]) -> int:
    """How many of the 20 written digits read right."""
    reading = read_page(register(PageImage(Path("photo.png"), 0, img)), LAYOUT, RECOGNIZER,
                        faint_seats=faint_seats)
    cells = {c.box: c for c in reading.cells}
    read = [cells[b].best for e in entries for b in e[1:]]
    want = [d for i in range(len(entries)) for d in (1 + i % 9, i % 10)]
    return sum(a == b != EMPTY for a, b in zip(read, want, strict=True))


def test_a_faint_seats_pencil_is_cut_at_the_faint_floors() -> None:
    """Pencil 0.1 below the paper is no ink at a photo's floors; cut at a faint seat's
    (``scanner.constants.INK_FAINT_SEAT_FLOORS``), its digits are read."""
    img, entries, seat = _faint_entries()
    assert _digits_read(img, entries, ()) == 0
    assert _digits_read(img, entries, (seat,)) >= 18


def test_only_a_fine_grey_or_colour_capture_is_cut_again() -> None:
    """A black-and-white capture's lost strip is read with its dots joined instead; a far
    photo's grain is as dark as a faint pencil; a sheet cut again is not cut a third time."""
    fine = register(PageImage(Path("photo.png"), 0, page_bgr(4, 0)))
    assert LostInk(("A",), False, fine, False).recut
    assert not LostInk((), False, fine, False).recut
    assert not LostInk(("A",), False, fine, True).recut
    assert not LostInk(("A",), False, fine, False, cut_faint=True).recut
    coarse = register(PageImage(Path("far.jpg"), 0, page_bgr(4, 0)[::3, ::3].copy()))
    assert coarse.px_per_mm < fine.px_per_mm / 2
    assert not LostInk(("A",), False, coarse, False).recut


@pytest.mark.slow
def test_a_steep_photos_faint_pencil_seat_is_read_at_the_faint_floors(tmp_path: Path) -> None:
    """TRAINING part, seed 477 sheet 004 (a steep phone photo, 150-160 dpi): seat A writes
    outlined digits in pencil, 0.07-0.14 below the paper, and its calibration strip is lost.
    Its whists on C, 16, 64, 72, 84, 100, 124, 138, 140, read as dots: the ink gave 16 alone
    its likeliest value, and five entries showed 1, 25, 41 or nothing. Cut again at the faint
    floors, the ink reads 16, 64, 84, 124 and 138 likeliest and every entry shows its
    written value, still asked: the ink reads none of them at 0.9
    (``scanner.decode.faint.CONFIRMED_CUT_FAINT_SHARE``)."""
    folder = tmp_path / "sheet"
    make_sheet(folder, SheetPlan("open", Part.TRAINING, "font", "phone-steep",
                                   "scribble-zigzag", "pencil"), 477, 4)
    (scan,) = [s for s in scan_paths([folder], tmp_path / "out") if isinstance(s, SheetScan)]
    fields = {f.key: f for f in scan.fields}
    written = (16, 64, 72, 84, 100, 124, 138, 140)
    column = [fields[f"entry:A:whists:C:{i}"] for i in range(len(written))]
    assert [f.value for f in column] == list(written)
    assert sum(f.ink[0][0] == v for f, v in zip(column, written, strict=True)) >= 5
