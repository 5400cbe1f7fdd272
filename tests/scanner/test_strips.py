"""An entry's boxes read as one strip of glyphs (scanner.image.strips)."""

from __future__ import annotations

import numpy as np

from scanner.image.strips import entry_strip, strip_glyphs

PX_PER_MM = 8.0


def _paper(h: int = 48, w: int = 60) -> np.ndarray:  # type: ignore[type-arg]
    return np.full((h, w), 255, np.uint8)


def test_the_crops_are_laid_side_by_side_each_stroke_once() -> None:
    """Two boxes' crops whose windows overlap: the strip holds both boxes' strokes at their
    places, the darker pixel where they overlap."""
    first, second = _paper(), _paper()
    first[10:40, 40:44] = 30  # a stroke in the first box's right spill
    second[10:40, 30:34] = 60
    strip = entry_strip([first, second], [0, 36])
    assert strip.shape == (48, 96)
    assert strip[20, 42] == 30 and strip[20, 68] == 60 and strip[20, 5] == 255


def test_glyphs_are_cut_by_where_the_ink_lies_not_by_the_boxes() -> None:
    """Two strokes side by side are two glyphs, left to right; a stroke above another (a
    5's flag) joins it; a blob far wider than tall (two digits run together) is split; a
    speck is left out."""
    strip = _paper(48, 160)
    strip[8:40, 10:14] = 40  # a 1
    strip[8:12, 30:44] = 40  # a flag over ...
    strip[16:40, 28:42] = 40  # ... a body
    strip[12:40, 60:92] = 40  # two digits run together: 70 px wide, 28 tall, ...
    strip[12:40, 98:130] = 40
    strip[24:28, 92:98] = 40  # ... joined by a thin stroke
    strip[44, 150] = 40  # a speck
    glyphs = strip_glyphs(strip, PX_PER_MM)
    assert len(glyphs) == 4
    widths = [g.shape[1] for g in glyphs]
    assert widths[0] < 10 and 14 <= widths[1] <= 20
    assert all(32 <= w <= 42 for w in widths[2:]), widths


def test_crops_of_other_sizes_are_laid_out_without_error() -> None:
    """A crop cut smaller (a box at the raster's edge) still lies in the strip."""
    small = _paper(40, 50)
    small[5:30, 20:24] = 30
    strip = entry_strip([_paper(), small], [0, 36])
    assert strip.shape == (48, 86) and strip[10, 58] == 30
    assert len(strip_glyphs(strip, PX_PER_MM)) == 1


def test_two_digits_that_touch_are_split_though_little_wider_than_tall() -> None:
    """A "20" whose digits touch (TRAINING part: 1.1-1.25 times wider than tall, read as its
    2 while the strip kept it whole) is two glyphs; a single digit narrower than tall is
    one."""
    strip = _paper(48, 120)
    strip[10:38, 10:24] = 40  # a 2 ...
    strip[10:38, 25:40] = 40  # ... touching a 0: 30 px wide, 28 tall
    strip[14:36, 24:25] = 200  # the thin waist where they meet
    strip[10:38, 70:92] = 40  # a wide 0: 22 px wide, 28 tall
    widths = [g.shape[1] for g in strip_glyphs(strip, PX_PER_MM)]
    assert len(widths) == 3 and max(widths[:2]) < 22 and widths[2] == 26, widths


def test_two_digits_joined_only_by_their_soft_edges_are_two_glyphs() -> None:
    """A "1" written close beside an "8" (TRAINING seed 441 sheet 017: "18" in one box,
    read 8 by the boxes and by the strip, which took it for one glyph narrower than tall):
    their cores apart, only the strokes' light edge pixels between them, they are two
    glyphs, each with its own edge."""
    strip = _paper(48, 60)
    strip[8:40, 10:14] = 40  # the 1
    strip[8:40, 18:34] = 40  # the 8: the two 24 px wide, 32 tall
    strip[8:40, 14:18] = 210  # their soft edges, touching
    glyphs = strip_glyphs(strip, PX_PER_MM)
    assert [g.shape[1] for g in glyphs] == [10, 22]
    assert (glyphs[0] < 100).sum() == 32 * 4 and (glyphs[1] < 100).sum() == 32 * 16


def test_a_short_core_beside_a_digit_keeps_to_it() -> None:
    """A digit whose core breaks into a tall body and a short piece apart (a 4's crossbar
    past its stem, joined by light pixels) stays one glyph: only parts as tall as a digit
    are digits of their own."""
    strip = _paper(48, 60)
    strip[8:40, 20:26] = 40  # the stem
    strip[24:28, 30:38] = 40  # a short piece right of it ...
    strip[24:28, 26:30] = 210  # ... joined by light pixels
    assert len(strip_glyphs(strip, PX_PER_MM)) == 1


def test_a_ring_whose_arcs_are_drawn_lighter_than_its_sides_stays_one_glyph() -> None:
    """A "0" whose sides are dark and whose top and bottom arcs a lighter stroke (a pen
    lifted a little; a drawn case, not one seen on a sheet): its cores are two tall sides,
    but a stroke, not a soft edge, joins them; it is one glyph."""
    strip = _paper(48, 60)
    strip[8:40, 14:18] = 40  # the left side
    strip[8:40, 30:34] = 40  # the right side
    strip[8:11, 18:30] = 180  # the top arc, lighter
    strip[37:40, 18:30] = 180  # the bottom arc
    assert len(strip_glyphs(strip, PX_PER_MM)) == 1


def test_a_wide_digit_split_off_by_its_core_is_not_cut_again() -> None:
    """A "10" whose bold 0 is wider than tall, touching the 1 only by their soft edges
    (TRAINING seed 444 sheet 012: a "30" read as 3, 4 and 0): the core split gives the two
    digits, and the 0 is not halved as two digits run together."""
    strip = _paper(48, 80)
    strip[8:40, 10:14] = 40  # the 1
    strip[8:40, 18:56] = 40  # a 0 38 px wide, 32 tall
    strip[8:40, 14:18] = 210  # their soft edges, touching
    assert len(strip_glyphs(strip, PX_PER_MM)) == 2
