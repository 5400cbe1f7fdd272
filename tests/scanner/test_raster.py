"""The coarse ink test: only boxes that may hold ink are warped, and nothing inked is lost."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from forms.layout import build_layout
from forms.model import Box, EntryCell
from scanner import constants as k
from scanner.image import raster
from scanner.image.cells import cut_cells
from scanner.image.load import PageImage
from scanner.image.raster import CoarseRect, may_hold_ink, rasterize
from scanner.image.register import RegisteredPage, register
from tests.scanner.synth import PX_PER_MM, glyphs, page_bgr, photo, write_digit, write_mark

LAYOUT = build_layout(3)


def _everything(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the ink test say every box may hold ink: the whole area is warped."""
    monkeypatch.setattr(raster, "may_hold_ink",
                        lambda boxes, rect, flat=False: [True] * len(boxes))


def _inked_deal_page(seed: int) -> tuple[np.ndarray, set]:  # type: ignore[type-arg]
    img = page_bgr(3, 1)
    rng = np.random.default_rng(seed)
    boxes = LAYOUT.boxes_for(1)
    inked = set()
    for box in rng.choice([b for b in boxes if b.kind == "mark"], 40, replace=False):
        write_mark(img, box, ("marked", "cancelled")[int(rng.integers(2))])
        inked.add(box)
    g = glyphs(seed)
    for box in rng.choice([b for b in boxes if b.kind == "digit"], 15, replace=False):
        write_digit(img, box, g[int(rng.integers(10))].pop())
        inked.add(box)
    return img, inked


@pytest.mark.parametrize("turns", [0, 1])
def test_inked_boxes_are_found_and_read_as_before(turns: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    img, inked = _inked_deal_page(turns)
    reg = register(PageImage(Path("d.jpg"), 0, photo(img, turns, seed=7)))
    boxes = LAYOUT.boxes_for(1)
    raster = rasterize(reg, boxes)
    flags = dict(zip(boxes, may_hold_ink(boxes, CoarseRect(
        reg, raster.x_mm, raster.y_mm, raster.x_mm + raster.content.shape[1] / raster.px_per_mm,
        raster.y_mm + raster.content.shape[0] / raster.px_per_mm)),
                     strict=True))
    assert all(flags[b] for b in inked)
    assert sum(flags.values()) < 2 * len(inked)  # the blank rest is not warped
    assert raster.warped is not None and raster.warped.mean() < 0.6
    quick = {c.box: c for c in cut_cells(raster, boxes)}
    # a box found blank is paper white, even where a neighbour's block was warped over it
    assert all((quick[b].crop == 255).all() for b in boxes if not flags[b])
    _everything(monkeypatch)
    full = cut_cells(rasterize(reg, boxes), boxes)
    for c in full:
        if c.ink_fraction > 0:
            assert flags[c.box], c.box  # no box with ink is skipped
            # a photo's blocks are warped as affine maps (within AFFINE_MAX_ERROR_PX of its
            # homography), the whole area as a perspective: a stroke's edge pixels differ (a
            # tenth of them, the ink's level being a share of each window's darkest)
            assert abs(quick[c.box].ink_fraction - c.ink_fraction) < 0.01 + 0.1 * c.ink_fraction
        else:
            assert quick[c.box].ink_fraction == 0.0


def test_a_blank_page_warps_nothing() -> None:
    reg = register(PageImage(Path("d.png"), 0, page_bgr(3, 2)))
    raster = rasterize(reg, LAYOUT.boxes_for(2))
    assert raster.warped is not None and not raster.warped.any()
    assert raster.colour
    assert all(c.ink_fraction == 0.0 for c in cut_cells(raster, LAYOUT.boxes_for(2)))


def test_black_and_white_digits_are_found() -> None:
    img = page_bgr(3, 0)
    g = glyphs(3)
    entries = [b for b in LAYOUT.boxes_for(0) if isinstance(b.meaning, EntryCell)
               and b.kind == "digit"][:20]
    for box in entries:
        write_digit(img, box, g[5].pop())
    gray = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    reg = register(PageImage(Path("bw.png"), 0, gray))
    boxes = LAYOUT.boxes_for(0)
    whole = CoarseRect(reg, 0.0, 0.0, reg.page_w_mm, reg.page_h_mm)
    flags = dict(zip(boxes, may_hold_ink(boxes, whole),
                     strict=True))
    assert all(flags[b] for b in entries)
    assert sum(flags.values()) < 3 * len(entries)  # the grey borders are not taken for ink


def test_a_photo_in_a_shadow_with_a_colour_cast_is_read_in_colour() -> None:
    # the paper's light and colour divided out: the drop-out print stays red enough to be
    # told from ink and to find the boxes on, however dim and tinted the photo
    img = page_bgr(3, 1).astype(np.float32)
    h, w = img.shape[:2]
    light = np.ones((h, w), np.float32)
    light[:, : w // 2] = 0.55  # a shadow band over half the page
    img *= light[:, :, None] * np.float32([1.05, 1.1, 0.82])  # blue, green, red: a cast
    reg = register(PageImage(Path("d.jpg"), 0, photo(img.clip(0, 255).astype(np.uint8),
                                                     seed=3)))
    raster = rasterize(reg, LAYOUT.boxes_for(1))
    assert raster.colour


def test_the_raster_hands_its_boxes_geometry_on_to_the_cutting() -> None:
    reg = register(PageImage(Path("d.png"), 0, page_bgr(3, 2)))
    boxes = LAYOUT.boxes_for(2)
    made = rasterize(reg, boxes)
    assert made.geometry is not None and made.geometry.boxes == boxes
    # the same boxes, given again as another tuple or a list, take the raster's own
    assert made.geometry_of(LAYOUT.boxes_for(2)) is made.geometry
    assert made.geometry_of(list(boxes)) is made.geometry
    assert made.geometry_of(boxes[:5]).boxes == boxes[:5]


def _pencil_ones(level: int) -> tuple[RegisteredPage, list[Box]]:
    """A photo of page 1 with a pencil "1" (a stroke 2 px wide at ``level``) in each of the
    first 20 entry boxes, and those boxes."""
    img = page_bgr(3, 0)
    entries = [b for b in LAYOUT.boxes_for(0) if isinstance(b.meaning, EntryCell)
               and b.kind == "digit"][:20]
    for box in entries:
        x0, y0, w, h = (round(v * PX_PER_MM) for v in (box.x_mm, box.y_mm, box.w_mm, box.h_mm))
        cv2.line(img, (x0 + w // 2, y0 + h // 5), (x0 + w // 2 - 2, y0 + 4 * h // 5),
                 (level, level, level), 2, cv2.LINE_AA)
    return register(PageImage(Path("pencil.jpg"), 0, photo(img, 0, seed=3))), entries


def test_a_faint_thin_pencil_stroke_the_ink_cutting_keeps_is_looked_at(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 13, class 7: a pencil "1" 0.15 mm wide, 40 grey levels under the paper, on a
    photo. The cutting (everything warped) finds it as ink; the coarse look, where each of
    its pixels is the mean of 4x4, must not skip its box first (at 20 levels it skipped six
    of twenty, whose entries then read as a digit fewer or as nothing)."""
    reg, entries = _pencil_ones(215)
    boxes = LAYOUT.boxes_for(0)
    whole = CoarseRect(reg, 0.0, 0.0, reg.page_w_mm, reg.page_h_mm)
    flags = dict(zip(boxes, may_hold_ink(boxes, whole),
                     strict=True))
    _everything(monkeypatch)
    inked = [c.box for c in cut_cells(rasterize(reg, boxes), boxes)
             if c.box in entries and c.ink_fraction > 0]
    assert len(inked) >= 18
    assert [b for b in inked if not flags[b]] == []
    assert sum(flags.values()) < 2 * len(entries)  # the blank rest is not looked at


def test_a_fainter_pencil_stroke_on_a_fine_page_is_cut_as_ink(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 13, class 7: a pencil "1" 35 levels under the paper (its darkest 0.12-0.15 of
    the paper once blurred) on a photo at 290 dpi is ink, and no box without writing gets
    any (at the floors of 0.15 that a coarse page keeps, 19 of the 20 were lost)."""
    reg, entries = _pencil_ones(220)
    _everything(monkeypatch)
    boxes = LAYOUT.boxes_for(0)
    cells = cut_cells(rasterize(reg, boxes), boxes, reg.px_per_mm)
    assert sum(c.ink_fraction > 0 for c in cells if c.box in entries) >= 19
    assert [c.box for c in cells if c.box not in entries and c.ink_fraction > 0] == []


@pytest.mark.parametrize("darker", [0.0, 0.05, 0.0999, 0.1, 0.1001, 0.12, 0.5, 1.0])
def test_a_channels_paper_share_is_its_percentile_of_the_light_at_most_one(
        darker: float) -> None:
    """Exactly as ranked, on either side of the share of pixels darker than the light
    (:data:`PAPER_PERCENTILE`) where it is 1 without ranking."""
    rng = np.random.default_rng(round(darker * 10_000))
    levels = rng.integers(150, 256, (97, 61)).astype(np.uint8)
    plane = np.minimum(levels.astype(int) + rng.integers(0, 4, levels.shape), 255)
    dark = rng.random(levels.shape) < darker
    plane[dark] = (levels[dark] * rng.uniform(0.5, 0.999, int(dark.sum()))).astype(int)
    plane = plane.astype(np.uint8)
    light = levels.astype(np.float32)
    ranked = min(float(np.percentile(plane / light, k.PAPER_PERCENTILE)), 1.0)
    assert raster._paper_share(plane, levels) == ranked


@pytest.mark.parametrize("seed", range(40))
def test_the_percentile_of_two_images_ratios_is_numpys_bit_for_bit(seed: int) -> None:
    """Read off their joint histogram, at any size, level and percentile (the float32 rank
    and interpolation included)."""
    rng = np.random.default_rng(seed)
    h, w = rng.integers(1, 400, 2)
    levels = rng.integers(1 if seed % 2 else 200, 256, (h, w)).astype(np.uint8)
    plane = np.clip(levels.astype(int) + rng.integers(-60 if seed % 3 else -2, 10, (h, w)),
                    0, 255).astype(np.uint8)
    for q in (k.PAPER_PERCENTILE, 0.0, 37.5, 99.9, 100.0, rng.uniform(0, 100)):
        ranked = float(np.percentile(plane / levels.astype(np.float32), q))
        assert raster.ratio_percentile(plane, levels, q) == ranked
