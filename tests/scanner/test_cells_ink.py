"""Cutting the ink out of the boxes: strokes on or over a border are kept and given to the box
they belong to; faint pencil is read, never silently empty (issue 13, classes 1 and 7)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.reader_eval import make_sheet
from forms.geometry.constants import ENTRY_GAP_MM
from forms.layout import build_layout
from forms.model import Box
from samplegen.profiles import SheetPlan
from samplegen.split import Part
from scanner import constants as k
from scanner.decode.entries import INK_OUTWEIGHED, EntryCells
from scanner.decode.numbers import STRIP_GLYPH_SURE, strip_values
from scanner.image import ink
from scanner.image.load import PageImage
from scanner.image.lying import Borders, _empty_neighbour
from scanner.image.register import register
from scanner.pipeline import scan_paths
from scanner.read import EMPTY, read_page
from scanner.results import SheetScan, entry_key
from tests.scanner.overflow import PEN, PENCIL, RECOGNIZER, entry_boxes, grey_scan, place_glyph
from tests.scanner.synth import PX_PER_MM, glyphs, page_bgr

LAYOUT = build_layout(4)
FAINT_PENCIL = 209
"""Grey level of a faint pencil in a photo (paper 255): 0.18 of the paper below it."""


def _read(img: np.ndarray) -> dict:  # type: ignore[type-arg]
    reading = read_page(grey_scan(img), LAYOUT, RECOGNIZER)
    return {c.box: c for c in reading.cells}


def test_a_tall_two_on_the_bottom_line_reads_two() -> None:
    """A "2" as tall as its box, its flat base lying on the box's bottom line, is a 2, not
    the 7 that is left when the line is cut away with the base."""
    img, g = page_bgr(4, 0), glyphs(11)
    entries = entry_boxes(4, 0, 3)[:10]
    for (_, tens, units), height in zip(entries, np.linspace(0.95, 1.1, len(entries)),
                                        strict=True):
        place_glyph(img, tens, g[2].pop(), height=float(height), bottom=1.02)
        place_glyph(img, units, g[4].pop())
    cells = _read(img)
    twos = [cells[e[1]].best for e in entries]
    assert twos.count(2) >= 9, twos
    assert [cells[e[2]].best for e in entries].count(4) >= 9


def test_a_digit_over_the_right_border_belongs_to_its_box() -> None:
    """A digit 30 % of its width over its box's right border, into the next box of the
    entry, is read in its own box; the next box, empty, stays empty."""
    img, g = page_bgr(4, 0), glyphs(12)
    entries = entry_boxes(4, 0, 3)[:10]
    written = []
    for i, (_, tens, _units) in enumerate(entries):
        digit = (3, 5, 6, 8, 9)[i % 5]
        glyph = g[digit].pop()
        # the ink box's centre lies 0.2 of the digit's width short of the right border
        width = 0.8 * tens.h_mm * glyph.shape[1] / glyph.shape[0] / tens.w_mm
        place_glyph(img, tens, glyph, height=0.8, centre=(1.0 - 0.2 * width, 0.5))
        written.append(digit)
    cells = _read(img)
    got = [cells[e[1]].best for e in entries]
    assert sum(a == b for a, b in zip(got, written, strict=True)) >= 9, (got, written)
    assert all(cells[e[2]].best == EMPTY for e in entries), [cells[e[2]].best for e in entries]


JOINED = ((8, 7), (0, 7), (6, 1), (3, 4), (9, 7), (8, 1), (0, 4), (6, 7), (2, 1), (5, 7))
"""The two-digit entries written joined: a tens digit near the border, a small units one."""
JOIN_CONTRAST = 0.35
"""The joining stroke's darkness, a share of the pen's: the pen lifting off the paper."""


def test_two_digits_joined_across_their_border_are_each_read_in_its_box() -> None:
    """Issue 13, class 1: a writer who runs the pen from the tens digit into the units digit,
    over the border between their boxes, joins them into one stroke, most of it in the tens
    box: the units digit, out of the tens box's window, is still read in its own box, not
    lost with a stroke given whole to the tens box (TRAINING part, a phone photo of a
    1600 px frame: a "37" whose 7 went with the 3, its box read empty, the entry read 3)."""
    img, g = page_bgr(4, 0), glyphs(16)
    entries = entry_boxes(4, 0, 3)[:len(JOINED)]
    for (_, tens, units), (high, low) in zip(entries, JOINED, strict=True):
        before = img.copy()
        place_glyph(img, tens, g[high].pop(), height=0.9, centre=(0.62, 0.5))
        left = _ink_ends(before, img)
        before = img.copy()
        place_glyph(img, units, g[low].pop(), height=0.5)
        right = _ink_ends(before, img)
        _join(img, left[1], right[0])
    cells = _read(img)
    tens_read = [cells[e[1]].best for e in entries]
    units_read = [cells[e[2]].best for e in entries]
    assert EMPTY not in units_read, units_read
    assert sum(a == b for a, (b, _) in zip(tens_read, JOINED, strict=True)) >= 9, tens_read


Point = tuple[int, int]


def _ink_ends(before: np.ndarray, after: np.ndarray) -> tuple[Point, Point]:  # type: ignore[type-arg]
    """The leftmost and the rightmost pixel (x, y) of the ink laid between ``before`` and
    ``after``."""
    ys, xs = np.nonzero((before.astype(np.int16) - after).max(axis=2) > 60)
    lo, hi = int(xs.argmin()), int(xs.argmax())
    return (int(xs[lo]), int(ys[lo])), (int(xs[hi]), int(ys[hi]))


def _join(image: np.ndarray, start: Point, end: Point) -> None:  # type: ignore[type-arg]
    """A light stroke (the pen lifting) from ``start`` to ``end``."""
    level = round(255 - JOIN_CONTRAST * (255 - PEN))
    cv2.line(image, start, end, (level, level, level), max(1, round(0.2 * PX_PER_MM)),
             cv2.LINE_AA)


def test_pencil_digits_are_read_not_dropped() -> None:
    """Faint grey pencil, lighter than the printed border, is read as digits (or at least
    never as a sure blank)."""
    img, entries = _pencil_entries(13, PENCIL)
    cells = _read(img)
    _assert_read(cells, entries)
    assert all(cells[b].probabilities[EMPTY] < 0.5 for e in entries for b in e[1:])


def _pencil_entries(seed: int, level: int) -> tuple[np.ndarray, list[tuple[Box, ...]]]:  # type: ignore[type-arg]
    """A triangle page with ten two-digit entries written at grey ``level``, and their
    boxes."""
    img, g = page_bgr(4, 0), glyphs(seed)
    entries = entry_boxes(4, 0, 3)[:10]
    for i, (_, tens, units) in enumerate(entries):
        place_glyph(img, tens, g[1 + i % 9].pop(), level=level)
        place_glyph(img, units, g[i % 10].pop(), level=level)
    return img, entries


def _assert_read(cells: dict, entries: list[tuple[Box, ...]]) -> None:  # type: ignore[type-arg]
    """At least 18 of the 20 digits of :func:`_pencil_entries` read right, and the blank
    first cells stay blank."""
    read = [cells[b].best for e in entries for b in e[1:]]
    want = [d for i in range(len(entries)) for d in (1 + i % 9, i % 10)]
    assert sum(a == b for a, b in zip(read, want, strict=True)) >= 18, (read, want)
    assert all(cells[e[0]].best == EMPTY for e in entries)


def _colour_read(img: np.ndarray) -> dict:  # type: ignore[type-arg]
    """The page read as a colour photo or scan: its red borders drop out."""
    reading = read_page(register(PageImage(Path("photo.png"), 0, img)), LAYOUT, RECOGNIZER)
    return {c.box: c for c in reading.cells}


@pytest.mark.parametrize(("reader", "seed"), [("colour", 14), ("grey", 15)])
def test_faint_pencil_is_read_where_the_borders_drop_out_or_divide_out(reader: str,
                                                                        seed: int) -> None:
    """Issue 13, class 7: pencil whose darkest stroke is only 0.18 below the paper is read as
    digits, not a sure blank: on a colour capture, where the printed borders drop out (a
    phone photo's faint pencil, training sheet 001: seat A's pool lost whole), and on a grey
    flatbed scan, where the borders show but lie inside their bands and are divided out
    cleanly (training sheet 009 of ``--capture flatbed-mono --seed 9``: two strips lost)."""
    img, entries = _pencil_entries(seed, FAINT_PENCIL)
    _assert_read(_colour_read(img) if reader == "colour" else _read(img), entries)


LIGHT_PENCIL = 227
"""Grey level of a pencil pressed lightly (paper 255): 0.11 of the paper below it, under
every floor of a photo."""


def test_a_light_pencil_on_a_grey_flatbed_scan_is_read() -> None:
    """Issue 13, class 7: a pencil pressed lightly lies only 0.11 below the paper, under a
    photo's floors, where a photo's noise lies; a grey flatbed scan's paper is even, and
    its entries are read (TRAINING part, seed 51, sheet 032: 37 fields wrong or doubtful,
    seat A's strip and entries cut blank, though a person reads them)."""
    img, entries = _pencil_entries(17, LIGHT_PENCIL)
    _assert_read(_read(img), entries)


def _one_at(image: np.ndarray, box: Box, x_mm: float) -> None:  # type: ignore[type-arg]
    """A pen "1" (0.3 mm wide) drawn straight down at ``x_mm``, over the middle 70 % of
    ``box``'s height."""
    canvas = np.zeros(image.shape[:2], np.float32)
    x = round((x_mm * PX_PER_MM - 0.5) * 16)
    top, bottom = (round((box.y_mm + f * box.h_mm) * PX_PER_MM * 16) for f in (0.15, 0.85))
    cv2.line(canvas, (x, top), (x, bottom), 1.0, round(0.3 * PX_PER_MM), cv2.LINE_AA, shift=4)
    ink = canvas[..., None]
    image[:] = np.minimum(image, image * (1 - ink) + PEN * ink).astype(np.uint8)


def _one_on_the_line(image: np.ndarray, box: Box) -> None:  # type: ignore[type-arg]
    """A pen "1" drawn straight down the printed left border of ``box`` (:func:`_one_at`):
    nothing of it inside either box's interior."""
    _one_at(image, box, box.x_mm)


def test_a_one_on_the_line_between_two_boxes_is_the_empty_boxs_digit() -> None:
    """Issue 13, class 1: a writer who spills over the lines draws the "1" of "16" down the
    line between the tens and the units box, the 6 in the units box (training tr11 sheet
    002, seat A: whists 16 read 6, pool 19 read 9, mountain 11 read 1). The stroke has no
    pixel inside either interior; it is the empty tens box's digit, not print beside the
    boxes: the entry reads 16, its first box blank."""
    img, g = page_bgr(4, 0), glyphs(16)
    entries = entry_boxes(4, 0, 3)[:10]
    for _, _tens, units in entries:
        _one_on_the_line(img, units)
        place_glyph(img, units, g[6].pop(), centre=(0.55, 0.5))
    cells = _colour_read(img)
    read = ["".join(str(cells[b].best) if cells[b].best != EMPTY else "_" for b in e)
            for e in entries]
    assert read.count("_16") >= 9, read


def _print_showing_in_red(image: np.ndarray, share: float) -> None:  # type: ignore[type-arg]
    """The page's print made to take ``share`` of the light off the red channel too (a colour
    scanner whose red channel does not drop the red print out wholly)."""
    print_dark = (255.0 - image[..., 1]) / 255.0  # the red print's darkness, in green
    image[..., 2] = (image[..., 2] * (1.0 - share * print_dark)).astype(np.uint8)


def test_a_one_on_a_line_the_red_channel_shows_a_little_is_the_empty_boxs_digit() -> None:
    """The "1" of "16" down the line between the tens and the units box, on a colour scan
    whose red channel keeps a trace of the red print (its borders let through 0.88 of the
    light: TRAINING part, colour flatbed scans such as seed 494 sheet 003, a pool's 14 read
    4): the divided-out borders leave nothing that passes for writing there, so the stroke
    is the empty tens box's digit (:data:`~scanner.constants.LINE_DROPOUT_TRANSMITTANCE`)."""
    img, g = page_bgr(4, 0), glyphs(16)
    _print_showing_in_red(img, 0.2)
    entries = entry_boxes(4, 0, 3)[:10]
    for _, _tens, units in entries:
        _one_on_the_line(img, units)
        place_glyph(img, units, g[6].pop(), centre=(0.55, 0.5))
    cells = _colour_read(img)
    assert [_spelled(cells, e) for e in entries].count("_16") >= 9


def _spelled(cells: dict, entry: tuple[Box, ...]) -> str:  # type: ignore[type-arg]
    return "".join(str(cells[b].best) if cells[b].best != EMPTY else "_" for b in entry)


def test_a_one_spilled_into_the_gap_before_its_entry_is_its_first_digit() -> None:
    """Issue 13, class 1: a writer who spills over the lines puts the "1" of "16" left of
    the entry's tens box, in the gap between this entry and the one before (TRAINING seed 442
    sheet 003: "12" read 2, the 1 standing in the gap beside the 8 before it). Nothing of it
    lies inside a box or on a line: it is the empty tens box's digit, not print beside the
    boxes."""
    img, g = page_bgr(4, 0), glyphs(18)
    entries = entry_boxes(4, 0, 2)[:10]
    for tens, units in entries:
        _one_at(img, tens, tens.x_mm - ENTRY_GAP_MM / 2)
        place_glyph(img, units, g[6].pop())
    read = [_spelled(_colour_read(img), e) for e in entries]
    assert read.count("16") >= 9, read


def test_a_stroke_between_two_empty_boxes_is_the_units_of_an_entry_written_without_them(
        ) -> None:
    """A "41" whose 1 went past the entry's units box into the gap before the next entry, a
    "9" there in its units box (TRAINING seed 449 sheet 017: the 1 given to the next entry,
    read 149 for 49): the stroke lies between two empty boxes, the units box of an entry
    written without its units and the next entry's leading box, each as near an inked box
    of its own entry. A number is never written without its units: the stroke is the first
    entry's. Between a leading box and a units box whose entry holds no ink, the nearer
    inked box still decides."""
    # boxes: entry 0 = (0, 1), entry 1 = (2, 3), 4.5 mm apart along one row
    centres = np.array([[0.0, 0.0], [4.5, 0.0], [10.2, 0.0], [14.7, 0.0]])
    borders = Borders(np.zeros((1, 1), np.uint8), np.ones(4, bool), centres,
                      np.array([0, 0, 1, 1]), np.array([False, True, False, True]))
    near = np.array([1, 2])
    assert _empty_neighbour(near, np.array([True, False, False, True]), borders) == 1
    assert _empty_neighbour(near, np.array([False, False, False, True]), borders) == 2


def test_a_shadow_across_blank_boxes_is_no_ink() -> None:
    """A shadow's edge darkening blank boxes by a third of the paper, smoothly over a few
    millimetres, is no ink: measured against the paper right around it, it has none."""
    img = page_bgr(4, 0)
    h, w = img.shape[:2]
    ramp = np.clip((np.arange(w) - 0.4 * w) / (0.02 * w), 0, 1)  # the edge: 2 % of the width
    img[:] = (img * (1 - 0.35 * ramp)[None, :, None]).astype(np.uint8)
    cells = _colour_read(img)
    assert all(c.ink_fraction == 0.0 for c in cells.values() if c.box.kind == "digit")



@pytest.mark.slow
def test_a_stroke_run_over_a_printed_line_keeps_its_part_inside_the_box(
        tmp_path: Path) -> None:
    """Issue 13, class 1: a writer's "1" run over the column's printed line beside its box is
    one stroke with the line, mostly outside every box (training sheet 011 of ``reader_eval
    --part training --capture flatbed-mono --sheets 12 --seed 9``: D's pool entry 12 read 2,
    sure). Its part inside the box is the box's ink: the entry is not read 2, but 12, the
    writer's total past the pool of 10 (read so where its ink is as clear as
    :data:`~scanner.decode.columns.PAST_POOL_SLIP_CLEAR` asks, else shown doubtful)."""
    folder = tmp_path / "sheet"
    make_sheet(folder, SheetPlan("open", Part.TRAINING, "strokes", "flatbed-mono", "tick-short",
                                   "felt-tip"), 9, 11)
    (scan,) = [s for s in scan_paths([folder], tmp_path / "out") if isinstance(s, SheetScan)]
    entry = next(f for f in scan.fields if f.key == entry_key("D", "pool", None, 2))
    assert entry.value == 12
    assert "says 12" in entry.note


def _crammed_entries() -> list[tuple[EntryCells, int]]:
    """Eight three-box entries, each a two-digit total written small in its last box (every
    other one straddling its border with the box before), read from a grey scan: each
    entry's boxes and strip as the decoder sees them, and the value written."""
    img, g = page_bgr(4, 0), glyphs(13)
    entries = entry_boxes(4, 0, 3)[:8]
    written = []
    for i, (_, _middle, last) in enumerate(entries):
        tens, units = 1 + i % 8, (3 * i) % 10
        place_glyph(img, last, g[tens].pop(), height=0.6, centre=(0.25 - 0.1 * (i % 2), 0.5))
        place_glyph(img, last, g[units].pop(), height=0.6, centre=(0.75 - 0.1 * (i % 2), 0.5))
        written.append(10 * tens + units)
    return list(zip(_entries_read(img, entries), written, strict=True))


def _entries_read(img: np.ndarray, entries: list[tuple[Box, ...]]  # type: ignore[type-arg]
                  ) -> list[EntryCells]:
    """Each of ``entries`` (its boxes) of the page ``img`` read from a grey scan: its boxes'
    probabilities and its strip, as the decoder sees them."""
    reading = read_page(grey_scan(img), LAYOUT, RECOGNIZER)
    cells = {c.box: c.probabilities for c in reading.cells}
    out = []
    for boxes in entries:
        meaning = boxes[0].meaning
        key = (meaning.seat, meaning.column, meaning.on, meaning.entry)  # type: ignore[union-attr]
        out.append(EntryCells(tuple(cells[b] for b in boxes), None, reading.strips.get(key)))
    return out


def _strip_reads_surely(entry: EntryCells, value: int) -> bool:
    """Whether ``entry``'s strip reads ``value`` likeliest, each glyph a digit at
    :data:`~scanner.decode.numbers.STRIP_GLYPH_SURE`."""
    return entry.strip is not None and strip_values(entry.strip)[:1] == [value] and \
        min(max(glyph[:EMPTY]) for glyph in entry.strip) >= STRIP_GLYPH_SURE


def test_two_digits_crammed_into_one_box_are_read_as_one_strip() -> None:
    """A two-digit total written small, both digits in the entry's last box: no reading of
    the boxes one by one spells it (TRAINING part: a crammed "20" read "2", the rules' 20
    doubtful), the boxes read a one-digit value. The entry's boxes read as one strip of
    glyphs give the two digits in order for most of them (digits run together into a glyph
    narrower than tall are not split), and there the ink no longer outweighs the value
    written (:data:`~scanner.decode.entries.INK_OUTWEIGHED`): the rules may read it."""
    read = 0
    for entry, value in _crammed_entries():
        assert all(v is None or v < 10 for v in entry.likeliest[:1])  # the boxes' own reading
        if strip_values(entry.strip)[:1] == [value]:
            read += 1
            ink_best = max(entry.spelling.probability(v) for v in entry.likeliest)
            assert entry.spelling.probability(value) * INK_OUTWEIGHED > ink_best, value
    assert read >= 4, read


def test_two_digits_crammed_into_one_box_read_surely_as_a_strip_weigh_as_the_box_does() -> None:
    """The crammed totals above, where the strip reads both digits surely (each glyph a
    digit at :data:`~scanner.decode.numbers.STRIP_GLYPH_SURE`) and the box reads only one:
    the box cannot show two digits, so the strip's reading weighs as much as the box's and
    the ink gives the written value at least as much as any other (TRAINING part: "12",
    "16", "18" written in the units box, read 2, 6, 8 at 0.95 by the ink; the rules' value
    doubtful where the sheet has a recording error)."""
    sure = 0
    for entry, value in _crammed_entries():
        assert entry.strip is not None
        if not _strip_reads_surely(entry, value):
            continue
        sure += 1
        ink_best = max(entry.spelling.probability(v) for v in entry.likeliest)
        assert entry.spelling.probability(value) >= ink_best, value
    assert sure >= 3, sure


def test_a_tens_digit_leaning_over_the_divider_weighs_as_its_sure_strip_reads_it() -> None:
    """A two-digit total whose tens digit stands half over the divider into the units box
    (TRAINING part: a "20" whose 2 the units box shares with the 0, that box read 2, the
    entry 22 above a pool of 20 and doubtful): where the entry's strip reads the written
    value surely (each glyph a digit at :data:`~scanner.decode.numbers.STRIP_GLYPH_SURE`)
    and the boxes read another value likeliest, the ink gives the written value at least
    half of what it gives any other (before, a twentieth of the strip's own reading)."""
    img, g = page_bgr(4, 0), glyphs(15)
    entries = entry_boxes(4, 0, 3)[:12]
    written = []
    for i, (_, middle, last) in enumerate(entries):
        tens, units = 2 + i % 7, (3 * i) % 10
        place_glyph(img, middle, g[tens].pop(), height=0.8, centre=(1.0 + 0.05 * (i % 3), 0.5))
        place_glyph(img, last, g[units].pop(), height=0.7, centre=(0.65, 0.5))
        written.append(10 * tens + units)
    leaning = 0
    for entry, value in zip(_entries_read(img, entries), written, strict=True):
        if not _strip_reads_surely(entry, value) or entry.likeliest[0] == value:
            continue
        leaning += 1
        others = max(entry.spelling.probability(v) for v in entry.likeliest if v != value)
        assert 2 * entry.spelling.probability(value) >= others, (value, entry.likeliest[:2])
    assert leaning >= 3, leaning


@pytest.mark.parametrize(("px_per_mm", "size", "inset"), [(8.0, (90, 70), 19), (8.0, (40, 50), 6),
                                                         (4.0, (45, 35), 10)])
def test_the_local_paper_is_the_closing_of_the_whole_stack(
        px_per_mm: float, size: tuple[int, int], inset: int) -> None:
    """Closed over the interiors and the closing's reach only, as over the windows stacked."""
    rng = np.random.default_rng(3)
    grey = np.full((7, *size), 235, np.uint8)
    grey[rng.random(grey.shape) < 0.08] = 60  # strokes and specks, some near the edges
    hh, ww = size
    interior = np.array([inset, hh - inset, inset, ww - inset])
    side = max(3, round(k.INK_LOCAL_PAPER_MM * px_per_mm) | 1)
    ellipse = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))
    paper = cv2.morphologyEx(grey.reshape(-1, ww), cv2.MORPH_CLOSE, ellipse).reshape(grey.shape)
    a, b, c, d = inset, hh - inset, inset, ww - inset
    ratio = np.minimum(255.0 * grey[:, a:b:2, c:d:2] / np.maximum(paper[:, a:b:2, c:d:2], 1),
                       255.0).astype(np.uint8).reshape(7, -1)
    rank = int((100 - k.INK_PEAK_PERCENTILE) / 100 * (ratio.shape[1] - 1))
    want = (1.0 - np.sort(ratio, axis=1)[:, rank] / 255.0).astype(np.float32)
    assert np.array_equal(ink._local_peak(grey, interior, px_per_mm), want)
