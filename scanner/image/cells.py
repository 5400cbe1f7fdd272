"""Stage 5a, cells: cut every box of a registered page out, upright, without its border.

The page's writing area is warped to :data:`WORK_PX_PER_MM` only where something may be
written: a coarse look first (:func:`may_hold_ink`: the page image box-filtered to about
2 px/mm, warped, each box's interior in the red channel against the paper around it) finds
the boxes that hold no ink, and only the blocks (:data:`TILE_PX`) that the other boxes reach
into are warped at full resolution (a blank deal page: nothing; a half-filled one: a third
of it). The rest stays paper white, and the blank boxes read as blank (no ink, paper white)
without being measured; on the 108 sample pages no box with ink was taken for blank. Each
box that may hold ink is then found on its own printed border within :data:`BOX_SEARCH_MM`
of its nominal place (the column and row profiles of a border map, its pixels gathered for
all boxes at once, so all boxes cost a few array operations). In a colour image the border
map is ``red - green`` (only the drop-out colour is redder than it is green) and cells are read in
the red channel, where the drop-out border and tints vanish; in a black-and-white image both
come from the grey levels and the border is cut off by cropping :data:`BOX_INSET_MM` inside
the box. Crops are turned upright for their writer (``rotation_deg``, :mod:`forms.model`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import cast

import cv2
import numpy as np

from forms.model import Box
from scanner import constants as k
from scanner.arrays import Doubles, GreyImage, Ints, Mask
from scanner.image.pixels import content_channel, rank_values
from scanner.image.register import RegisteredPage

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PageRaster:
    """The warped writing area of one page at the working resolution."""

    x_mm: float
    y_mm: float
    px_per_mm: float
    colour: bool
    content: GreyImage = field(compare=False, repr=False)
    """Grey levels to read ink from (red channel of a colour image)."""
    border: GreyImage = field(compare=False, repr=False)
    """High where a printed box border is."""
    warped: Mask | None = field(default=None, compare=False, repr=False)
    """Which blocks (:data:`TILE_PX` square, row by column) were warped; the rest is paper
    white. None (a raster made elsewhere): all."""
    boxes: tuple[Box, ...] = field(default=(), compare=False, repr=False)
    """The boxes rasterized."""
    maybe_inked: Mask | None = field(default=None, compare=False, repr=False)
    """For each of :attr:`boxes`, whether the coarse look (:func:`may_hold_ink`) found ink
    that may be in it; the others read as blank. None (a raster made elsewhere): all may."""

    def live(self, boxes: Sequence[Box]) -> Mask:
        """For each of ``boxes``, whether it may hold ink (a box not rasterized here may).
        The boxes rasterized, given again, are answered from :attr:`maybe_inked` without
        hashing a box (hundreds a page)."""
        if self.maybe_inked is None:
            return np.ones(len(boxes), bool)
        if tuple(boxes) == self.boxes:  # the same boxes: compared by identity, quickly
            return self.maybe_inked
        by_box = dict(zip(self.boxes, self.maybe_inked.tolist(), strict=True))
        return np.array([by_box.get(b, True) for b in boxes], bool)

    def to_px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """Page millimetres to raster pixel coordinates (pixel centres at +0.5)."""
        return ((x_mm - self.x_mm) * self.px_per_mm, (y_mm - self.y_mm) * self.px_per_mm)


@dataclass(frozen=True)
class CellImage:
    """One box's interior, upright for its writer."""

    box: Box
    crop: GreyImage = field(compare=False, repr=False)
    """Grey ``uint8``, dark ink on light paper, border cut off."""
    ink_fraction: float
    """Share of the crop clearly darker than its paper (the quick measure)."""
    paper: float
    """Grey level of the paper around the box (its ring included)."""
    shift_mm: tuple[float, float]
    """How far the box was found from its nominal place (x, y)."""


TILE_PX = 16
"""Side of the blocks of the writing area that are warped only when a box (with what is
read around it) reaches into them (2 mm at 8 px/mm: a fifth of the area on the sample
sheets; 32 px blocks warp a quarter, 6 % more time)."""
TILED_MAX_COVER = 0.85
"""Warped block by block only when the blocks with boxes that may hold ink cover at most
this share of it (else whole: one warp costs less than many)."""


def rasterize(page: RegisteredPage, boxes: Sequence[Box],
              px_per_mm: float = k.WORK_PX_PER_MM) -> PageRaster:
    """Warp the rectangle holding ``boxes`` (plus the search margin).

    Only the blocks (:data:`TILE_PX`) that a box which may hold ink (:func:`may_hold_ink`)
    reaches into are warped, each on the pixel grid of the whole rectangle, unless they
    cover nearly all of it; the rest is left paper white (nothing there is read). A photo's
    blocks are warped as affine maps where the perspective allows
    (:meth:`RegisteredPage.warp_many`)."""
    if not boxes:
        raise ValueError("no boxes to rasterize")
    pad = k.BOX_SEARCH_MM + 1.0
    places = _places(boxes)
    x0 = max(0.0, float(places[:, 0].min()) - pad)
    y0 = max(0.0, float(places[:, 1].min()) - pad)
    x1 = min(page.page_w_mm, float((places[:, 0] + places[:, 2]).max()) + pad)
    y1 = min(page.page_h_mm, float((places[:, 1] + places[:, 3]).max()) + pad)
    width = max(1, round((x1 - x0) * px_per_mm))
    height = max(1, round((y1 - y0) * px_per_mm))
    flags = may_hold_ink(page, boxes, x0, y0, x1, y1)
    inked = np.array(flags, bool)
    inked.flags.writeable = False
    kept = tuple(boxes)
    used = _used_blocks(places[inked], x0, y0, width, height,
                        px_per_mm, _reach_mm(px_per_mm))
    if used.mean() > TILED_MAX_COVER:
        used[:] = True
        runs = [(0, height, 0, width)]
    else:
        runs = _tile_runs(used, width, height)
    tiles = page.warp_many([(x0 + c0 / px_per_mm, y0 + r0 / px_per_mm, (c1 - c0) / px_per_mm,
                             (r1 - r0) / px_per_mm) for r0, r1, c0, c1 in runs], px_per_mm)
    whole = len(runs) == 1 and runs[0] == (0, height, 0, width)
    # the channels are put together tile by tile, each written into its canvas in place:
    # no full-size colour canvas
    if page.image.ndim == 3:
        redness = np.zeros((height, width), np.uint8)
        reds = _paper(height, width, whole)
        for (r0, r1, c0, c1), tile in zip(runs, tiles, strict=True):
            red = cast(GreyImage, cv2.extractChannel(tile, 2, dst=reds[r0:r1, c0:c1]))
            cv2.subtract(red, cv2.extractChannel(tile, 1), dst=redness[r0:r1, c0:c1])
        if _is_colour(page, redness, None if whole else runs, x0, y0, x1, y1, px_per_mm):
            return PageRaster(x0, y0, px_per_mm, True, reds, redness, used, kept,
                              inked)
        gray = reds  # every tile's pixels are overwritten, the rest stays paper white
        for (r0, r1, c0, c1), tile in zip(runs, tiles, strict=True):
            cv2.cvtColor(tile, cv2.COLOR_BGR2GRAY, dst=gray[r0:r1, c0:c1])
    else:
        gray = _paper(height, width, whole)
        for (r0, r1, c0, c1), tile in zip(runs, tiles, strict=True):
            gray[r0:r1, c0:c1] = tile
    return PageRaster(x0, y0, px_per_mm, False, gray, cast(GreyImage, cv2.bitwise_not(gray)),
                      used, kept, inked)


def _paper(height: int, width: int, whole: bool) -> GreyImage:
    """A grey canvas for the tiles: paper white, left unset when one tile covers it."""
    if whole:
        return np.empty((height, width), np.uint8)
    return np.full((height, width), 255, np.uint8)


def _reach_mm(px_per_mm: float) -> float:
    """How far outside a box :func:`cut_cells` reads it at ``px_per_mm``: its border
    searched :data:`BOX_SEARCH_MM` around, or its crop moved that far and widened by its
    paper ring beyond the inset, and a pixel for rounding."""
    search = max(1, round(k.BOX_SEARCH_MM * px_per_mm))
    ring = round(k.PAPER_RING_MM * px_per_mm) - k.BOX_INSET_MM * px_per_mm
    return (search + max(1.0, ring) + 1) / px_per_mm


def may_hold_ink(page: RegisteredPage, boxes: Sequence[Box], x0: float, y0: float,
                 x1: float, y1: float) -> list[bool]:
    """For each box, whether it may hold ink: the darkest point of its interior (the box
    :data:`INK_TEST_INSET_MM` in, clear of its border), in the rectangle ``x0..x1, y0..y1``
    warped coarse (from the smallest halving with at least :data:`INK_TEST_MIN_PX_PER_MM`,
    its red channel), is at least :data:`INK_TEST_MIN_DARKNESS` below the paper around it
    (the brightest level within :data:`INK_TEST_PAPER_MM`). The halvings are box-filtered,
    so a stroke darkens the coarse pixels it crosses rather than falling between samples."""
    _, scale = page.coarse(k.INK_TEST_MIN_PX_PER_MM)
    ppm = page.px_per_mm * scale
    red = page.warp_coarse(x0, y0, x1 - x0, y1 - y0, ppm, k.INK_TEST_MIN_PX_PER_MM,
                           channel=content_channel)
    side = 2 * round(k.INK_TEST_PAPER_MM * ppm / 2) + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))
    dark = cv2.subtract(cv2.dilate(red, kernel), red)
    h, w = dark.shape
    inset = k.INK_TEST_INSET_MM
    places = _places(boxes)
    xs = (places[:, 0] + inset - x0) * ppm
    ys = (places[:, 1] + inset - y0) * ppm
    ws = np.maximum(places[:, 2] - 2 * inset, 0.0) * ppm
    hs = np.maximum(places[:, 3] - 2 * inset, 0.0) * ppm
    c0s = np.clip(np.floor(xs).astype(np.int64), 0, w - 1)
    r0s = np.clip(np.floor(ys).astype(np.int64), 0, h - 1)
    c1s = np.minimum(np.maximum(np.ceil(xs + ws).astype(np.int64), c0s + 1), w)
    r1s = np.minimum(np.maximum(np.ceil(ys + hs).astype(np.int64), r0s + 1), h)
    # a box's darkest point is dark enough when any of its pixels is: counted from the
    # integral image of the dark-enough pixels (a box running off the rectangle is read
    # over its part inside)
    enough = cv2.integral((dark >= k.INK_TEST_MIN_DARKNESS).view(np.uint8))
    counts = enough[r1s, c1s] - enough[r0s, c1s] - enough[r1s, c0s] + enough[r0s, c0s]
    flags: list[bool] = (counts > 0).tolist()
    return flags


def _places(boxes: Sequence[Box]) -> Doubles:
    """The boxes' ``x_mm, y_mm, w_mm, h_mm``, one row each (read-only)."""
    return _geometry(boxes).places


class _Geometry:
    """What the image stages need of a page's boxes that no image changes, worked out once
    (every sheet of a layout has the same boxes): their places and, by resolution, their
    :class:`_CutPlan`."""

    def __init__(self, boxes: tuple[Box, ...]) -> None:
        self.boxes = boxes
        self.places = np.array([(b.x_mm, b.y_mm, b.w_mm, b.h_mm) for b in boxes], np.float64)
        self.places.flags.writeable = False
        self.plans: dict[float, _CutPlan] = {}

    def cut_plan(self, px_per_mm: float) -> _CutPlan:
        """The boxes' :class:`_CutPlan` at ``px_per_mm``."""
        if px_per_mm not in self.plans:
            self.plans[px_per_mm] = _cut_plan(self.boxes, self.places, px_per_mm)
        return self.plans[px_per_mm]


_RECENT: list[tuple[tuple[Box, ...], _Geometry]] = []
"""The last few box tuples given, with their geometry: a page's boxes come as one tuple to
:func:`rasterize`, :func:`may_hold_ink` and :func:`cut_cells`, and finding it by identity
spares hashing its hundreds of boxes each time."""


def _geometry(boxes: Sequence[Box]) -> _Geometry:
    """The :class:`_Geometry` of ``boxes``: by identity for a tuple seen lately, else by
    content (a layout page's boxes)."""
    for seen, geometry in _RECENT:
        if seen is boxes:
            return geometry
    geometry = _geometry_of(tuple(boxes))
    if isinstance(boxes, tuple):  # a list could change under the same identity
        _RECENT.insert(0, (boxes, geometry))
        del _RECENT[4:]
    return geometry


@lru_cache(maxsize=16)
def _geometry_of(boxes: tuple[Box, ...]) -> _Geometry:
    return _Geometry(boxes)


def _used_blocks(places: Doubles, x0: float, y0: float, width: int, height: int,
                 px_per_mm: float, pad: float) -> Mask:
    """The blocks (:data:`TILE_PX`) of the rectangle that the boxes at ``places`` (rows of
    ``x_mm, y_mm, w_mm, h_mm``), ``pad`` millimetres around, reach."""
    rows, cols = -(-height // TILE_PX), -(-width // TILE_PX)
    used = np.zeros((rows, cols), bool)
    s = px_per_mm / TILE_PX
    r0s = np.maximum(((places[:, 1] - pad - y0) * s).astype(np.int64), 0).tolist()
    c0s = np.maximum(((places[:, 0] - pad - x0) * s).astype(np.int64), 0).tolist()
    r1s = (((places[:, 1] + places[:, 3] + pad - y0) * s).astype(np.int64) + 1).tolist()
    c1s = (((places[:, 0] + places[:, 2] + pad - x0) * s).astype(np.int64) + 1).tolist()
    for r0, r1, c0, c1 in zip(r0s, r1s, c0s, c1s, strict=True):
        used[r0:r1, c0:c1] = True
    return used


def _tile_runs(used: Mask, width: int, height: int) -> list[tuple[int, int, int, int]]:
    """Pixel rectangles (rows ``r0:r1``, columns ``c0:c1``) covering the ``used`` blocks: the
    runs of each row of blocks, a run joined to the one just above it when they span the same
    columns (fewer, larger warps)."""
    # rows of blocks alike are taken together (a row of boxes spans several)
    first = np.flatnonzero(np.concatenate(([True], (used[1:] != used[:-1]).any(axis=1))))
    bands = used[first]
    # where each band's runs start and end (columns of blocks), for all bands at once
    padded = np.zeros((bands.shape[0], bands.shape[1] + 2), np.int8)
    padded[:, 1:-1] = bands
    band_at, col_at = np.nonzero(np.diff(padded, axis=1))
    ends = np.append(first[1:], used.shape[0]).tolist()
    starts = first.tolist()
    runs: list[tuple[int, int, int, int]] = []
    above: dict[tuple[int, int], int] = {}  # the band above's runs by columns -> index
    here: dict[tuple[int, int], int] = {}
    last = -1
    for band, a, b in zip(band_at[::2].tolist(), col_at[::2].tolist(),
                          col_at[1::2].tolist(), strict=True):
        if band != last:
            above, here = (here if band == last + 1 else {}), {}
            last = band
        c0, c1 = a * TILE_PX, min(b * TILE_PX, width)
        r1 = min(ends[band] * TILE_PX, height)
        if (c0, c1) in above:
            index = above[(c0, c1)]
            runs[index] = (runs[index][0], r1, c0, c1)
        else:
            index = len(runs)
            runs.append((starts[band] * TILE_PX, r1, c0, c1))
        here[(c0, c1)] = index
    return runs


def _is_colour(page: RegisteredPage, redness: GreyImage,
               runs: list[tuple[int, int, int, int]] | None, x0: float, y0: float, x1: float,
               y1: float, px_per_mm: float) -> bool:
    """Whether more than :data:`COLOUR_MIN_FRACTION` of the rectangle's pixels (every 4th
    row and column) are drop-out red. When only blocks were warped and they alone do not
    settle it, the whole rectangle is warped at a quarter of the resolution from the
    smallest halving of the image that fine (:meth:`RegisteredPage.warp_coarse`: a third
    cheaper than from the full image; the colour pages of the 72 samples keep 1.7 % red
    pixels or more, the grey ones none, against the 0.2 % that decides)."""
    sample = redness[::4, ::4]
    count = np.count_nonzero(sample > k.COLOUR_MIN_CHROMA)
    if runs is None or count / sample.size > k.COLOUR_MIN_FRACTION:
        return count / sample.size > k.COLOUR_MIN_FRACTION
    # pixel (i, j) of the sampled grid is pixel (4i, 4j) of the rectangle
    coarse = page.warp_coarse(x0 - 1.5 / px_per_mm, y0 - 1.5 / px_per_mm,
                              sample.shape[1] * 4 / px_per_mm, sample.shape[0] * 4 / px_per_mm,
                              px_per_mm / 4, px_per_mm / 4)
    redness = cast(GreyImage, cv2.subtract(cv2.extractChannel(coarse, 2),
                                           cv2.extractChannel(coarse, 1)))
    return float(np.mean(redness > k.COLOUR_MIN_CHROMA)) > k.COLOUR_MIN_FRACTION


def _edge_offsets(border: GreyImage, lo: Ints, hi: Ints, a0: Ints, a1: Ints, search: int,
                  along_x: bool) -> Ints:
    """Best shift in ``-search..search`` of two parallel border lines, per box.

    ``lo..hi`` is the span of each line (rows for vertical lines), ``a0``/``a1`` the nominal
    positions of the two lines (columns). Returns shifts in pixels (0 when no border shows).
    Each line's pixels at every shift are one block of the border map (span by shifts), taken
    for all boxes whose spans have one length at once (a few lengths) from a sliding-window
    view, and summed by a product with ones (float32: the sums, a few hundred levels below
    256, are exact): a third of the time of gathering every pixel by its own index.
    """
    d = np.arange(-search, search + 1)
    lengths = hi - lo
    source = border if along_x else border.T  # vertical lines: rows lo..hi at columns p + d
    by_length = [(length, np.flatnonzero(lengths == length))
                 for length in np.unique(lengths).tolist() if length > 0]

    def line_sum(pos: Ints) -> Doubles:
        sums = np.zeros((len(pos), len(d)), np.float32)
        for length, members in by_length:
            windows = np.lib.stride_tricks.sliding_window_view(source, (length, len(d)))
            blocks = windows[lo[members], pos[members] - search]  # (boxes, length, shifts)
            sums[members] = np.ones(length, np.float32) @ blocks.astype(np.float32)
        means: Doubles = sums / np.maximum(lengths[:, None], 1)
        return means

    score = line_sum(a0) + line_sum(a1)
    score = (score + np.roll(score, 1, axis=1) + np.roll(score, -1, axis=1)) / 3.0
    best = score.argmax(axis=1)
    peak = score[np.arange(len(best)), best]
    base = np.median(score, axis=1)
    shift: Ints = d[best]
    shift[(peak - base) < 2 * k.BORDER_MIN_RESPONSE] = 0
    return shift


_TURNS = {1: cv2.ROTATE_90_COUNTERCLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_CLOCKWISE}
"""``np.rot90(crop, turns)`` as OpenCV turns it (the same pixels, copied once)."""


def cut_cells(raster: PageRaster, boxes: Sequence[Box]) -> tuple[CellImage, ...]:
    """Find each box on its border and return its upright interior with a quick ink measure.

    A box the coarse look found blank (:meth:`PageRaster.live`) is not looked at: its crop
    is paper white (one array per size, shared), its ink none. The crop of an upright box is
    a view into the raster, not a copy."""
    if not boxes:
        return ()
    s = raster.px_per_mm
    h, w = raster.content.shape
    search = max(1, round(k.BOX_SEARCH_MM * s))
    plan = _geometry(boxes).cut_plan(s)
    xs = (plan.places[:, 0] - raster.x_mm) * s
    ys = (plan.places[:, 1] - raster.y_mm) * s
    ws = plan.places[:, 2] * s
    hs = plan.places[:, 3] * s
    live = raster.live(boxes)

    def clip(v: Doubles, hi: int) -> Ints:
        return np.clip(np.round(v).astype(np.int64), search, hi - search - 2)

    dx, dy = np.zeros(len(boxes)), np.zeros(len(boxes))
    if raster.colour and live.any():
        # a blank box is not looked for: it stays where the homography puts it
        lx, ly, lw, lh = xs[live], ys[live], ws[live], hs[live]
        span_y0, span_y1 = clip(ly + 0.25 * lh, h), clip(ly + 0.75 * lh, h)
        ldx = _edge_offsets(raster.border, span_y0, span_y1, clip(lx - 0.5, w),
                            clip(lx + lw - 0.5, w), search, True)
        span_x0, span_x1 = clip(lx + ldx + 0.25 * lw, w), clip(lx + ldx + 0.75 * lw, w)
        dy[live] = _edge_offsets(raster.border, span_x0, span_x1, clip(ly - 0.5, h),
                                 clip(ly + lh - 0.5, h), search, False)
        dx[live] = ldx
    # black and white: the border map is every dark pixel, so a digit's stroke near the edge
    # would pull the box onto it and cut the digit; the homography places boxes (a flat scan,
    # fit error a few hundredths of a millimetre)
    inset = k.BOX_INSET_MM * s
    ring = round(k.PAPER_RING_MM * s)
    inked = np.flatnonzero(live)
    cws, chs = plan.widths[inked], plan.heights[inked]
    cx0s = np.minimum(np.maximum(np.round(xs[inked] + dx[inked] + inset).astype(np.int64), 0),
                      w - cws)
    cy0s = np.minimum(np.maximum(np.round(ys[inked] + dy[inked] + inset).astype(np.int64), 0),
                      h - chs)
    crops: list[GreyImage] = []
    windows: list[GreyImage] = []
    for i, cx0, cy0, cw, ch in zip(inked.tolist(), cx0s.tolist(), cy0s.tolist(), cws.tolist(),
                                   chs.tolist(), strict=True):
        # the box and its ring lie in warped blocks (rasterize warps _reach_mm around it)
        windows.append(raster.content[max(cy0 - ring, 0):cy0 + ch + ring,
                                      max(cx0 - ring, 0):cx0 + cw + ring])
        crop = raster.content[cy0:cy0 + ch, cx0:cx0 + cw]
        turns = plan.turns[i]
        crops.append(cast(GreyImage, cv2.rotate(crop, _TURNS[turns])) if turns else crop)
    papers = _percentile_many(windows, k.PAPER_PERCENTILE)
    inks = _quick_ink_many(crops, papers)
    cells = list(plan.blank)
    for i, crop, ink, paper, shift_x, shift_y in zip(
            inked.tolist(), crops, inks, papers, (dx[inked] / s).tolist(),
            (dy[inked] / s).tolist(), strict=True):
        cells[i] = CellImage(boxes[i], crop, ink, paper, (shift_x, shift_y))
    return tuple(cells)


@dataclass(frozen=True)
class _CutPlan:
    """What :func:`cut_cells` needs of a page's boxes at one resolution that no image
    changes: their places (mm), crop sizes (px), quarter turns, and each box as read when
    blank (paper white, no ink, not moved)."""

    places: Doubles
    widths: Ints
    heights: Ints
    turns: tuple[int, ...]
    blank: tuple[CellImage, ...]


def _cut_plan(boxes: tuple[Box, ...], places: Doubles, px_per_mm: float) -> _CutPlan:
    """The :class:`_CutPlan` of ``boxes`` (at ``places``) at ``px_per_mm``."""
    inset = k.BOX_INSET_MM * px_per_mm
    widths = np.maximum(1, np.round(places[:, 2] * px_per_mm - 2 * inset)).astype(np.int64)
    heights = np.maximum(1, np.round(places[:, 3] * px_per_mm - 2 * inset)).astype(np.int64)
    turns = tuple((b.rotation_deg // 90) % 4 for b in boxes)
    blank = tuple(CellImage(box, _paper_white(ch, cw, t), 0.0, 255.0, (0.0, 0.0))
                  for box, cw, ch, t in zip(boxes, widths.tolist(), heights.tolist(), turns,
                                            strict=True))
    return _CutPlan(places, widths, heights, turns, blank)


@lru_cache(maxsize=64)
def _paper_white(height: int, width: int, turns: int) -> GreyImage:
    """A read-only paper-white crop of a ``height`` x ``width`` box turned ``turns``
    quarters (the crop of every blank box of that size)."""
    shape = (width, height) if turns % 2 else (height, width)
    white = np.full(shape, 255, np.uint8)
    white.flags.writeable = False
    return white


def _quick_ink_many(crops: Sequence[GreyImage], papers: Sequence[float]) -> list[float]:
    """Each crop's share of pixels darker than its paper by :data:`INK_MIN_RELATIVE_DARKNESS`
    (the quick ink measure), stacked by shape."""
    out = [0.0] * len(crops)
    groups: dict[tuple[int, ...], list[int]] = {}
    for i, a in enumerate(crops):
        if a.size:
            groups.setdefault(a.shape, []).append(i)
    for idx in groups.values():
        stack = np.stack([crops[i] for i in idx]).reshape(len(idx), -1)
        limit = np.array([papers[i] for i in idx]) * (1.0 - k.INK_MIN_RELATIVE_DARKNESS)
        counts = np.count_nonzero(stack < limit[:, None], axis=1)
        for j, i in enumerate(idx):
            out[i] = float(int(counts[j])) / stack.shape[1]
    return out


def _percentile_many(arrays: Sequence[GreyImage], q: float) -> list[float]:
    """The ``q``-th percentile of each ``uint8`` array (the value at rank
    ``int(q / 100 * (n - 1))`` of its ``n`` sorted values), stacked by shape: read off the
    rows' histograms (:func:`rank_values`)."""
    out = [255.0] * len(arrays)
    groups: dict[tuple[int, ...], list[int]] = {}
    for i, a in enumerate(arrays):
        if a.size:
            groups.setdefault(a.shape, []).append(i)
    for idx in groups.values():
        stack = np.stack([arrays[i] for i in idx]).reshape(len(idx), -1)
        rank = int(q / 100 * (stack.shape[1] - 1))
        (values,) = rank_values(stack, (rank,))
        for j, i in enumerate(idx):
            out[i] = float(values[j])
    return out

