"""Stage 5a, raster: the page's writing area warped to :data:`WORK_PX_PER_MM`, only where
something may be written.

A coarse look first (:func:`may_hold_ink`: the page image box-filtered to about 2 px/mm,
warped, each box's interior in the red channel against the paper around it) finds the boxes
that hold no ink, and only the blocks (:data:`TILE_PX`) that the other boxes (with the
margin their ink may spill into) reach into are warped at full resolution (a blank deal page:
nothing; a half-filled one: a third of it). The rest stays paper white, and the blank boxes
read as blank without being measured. In a colour image the border map is ``red - green``
(only the drop-out colour is redder than it is green) and ink is read in the red channel,
where the drop-out border and tints vanish; in a grey or black-and-white image both come from
the grey levels.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeVar, cast

import cv2
import numpy as np

from forms.model import Box
from scanner import constants as k
from scanner.arrays import Doubles, Floats, GreyImage, Image, Ints, Mask
from scanner.image.pixels import content_channel, paper_field
from scanner.image.register import RegisteredPage

log = logging.getLogger(__name__)
T = TypeVar("T")


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
    geometry: BoxGeometry | None = field(default=None, compare=False, repr=False)
    """The geometry of :attr:`boxes` (None: a raster made elsewhere), handed on to the
    cutting."""
    flat: bool = False
    """Whether the page is a flat view (a flatbed scan, :attr:`RegisteredPage.affine`): in
    grey its ink is cut at :data:`~scanner.constants.FLAT_INK_FLOOR_SHARE` of a photo's
    floors."""

    def geometry_of(self, boxes: Sequence[Box]) -> BoxGeometry:
        """The :class:`BoxGeometry` of ``boxes``: this raster's own for the boxes rasterized
        (compared by identity, quickly), else :func:`geometry`."""
        if self.geometry is not None and tuple(boxes) == self.boxes:
            return self.geometry
        return geometry(boxes)

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


TILE_PX = 16
"""Side of the blocks of the writing area that are warped only when a box (with what is
read around it) reaches into them (2 mm at 8 px/mm: a fifth of the area on the sample
sheets; 32 px blocks warp a quarter, 6 % more time)."""
TILED_MAX_COVER = 0.85
"""Warped block by block only when the blocks with boxes that may hold ink cover at most
this share of it (else whole: one warp costs less than many)."""


def seat_digit_boxes(boxes: Sequence[Box], seats: Collection[str]) -> Mask | None:
    """Which of ``boxes`` are digit boxes of ``seats`` (None where no seat is named)."""
    if not seats:
        return None
    return np.array([b.kind == "digit" and getattr(b.meaning, "seat", None) in seats
                     for b in boxes], bool)


def rasterize(page: RegisteredPage, boxes: Sequence[Box],
              px_per_mm: float = k.WORK_PX_PER_MM, joined: bool = False,
              faint: Mask | None = None) -> PageRaster:
    """Warp the rectangle holding ``boxes`` (plus the search margin); ``joined``: a grey
    raster whose dark dots are grown by :data:`~scanner.constants.DOTS_GROW_MM` and then
    smoothed over :data:`~scanner.constants.DOTS_JOIN_MM` (a black-and-white capture's
    strokes broken into dots, joined). The boxes ``faint`` marks (a faint seat's digit
    boxes, :func:`seat_digit_boxes`: their ink lost from the image, under the coarse look's
    darkness) may hold ink, however blank they look.

    Only the blocks (:data:`TILE_PX`) that a box which may hold ink (:func:`may_hold_ink`)
    reaches into are warped, each on the pixel grid of the whole rectangle, unless they
    cover nearly all of it; the rest is left paper white (nothing there is read). A photo's
    blocks are warped as affine maps where the perspective allows
    (:meth:`RegisteredPage.warp_many`)."""
    if not boxes:
        raise ValueError("no boxes to rasterize")
    pad = max(k.BOX_SEARCH_MM, k.INK_SPILL_MM) + k.LINE_BAND_MM + 1.0
    shapes = geometry(boxes)
    places = shapes.places
    x0 = max(0.0, float(places[:, 0].min()) - pad)
    y0 = max(0.0, float(places[:, 1].min()) - pad)
    x1 = min(page.page_w_mm, float((places[:, 0] + places[:, 2]).max()) + pad)
    y1 = min(page.page_h_mm, float((places[:, 1] + places[:, 3]).max()) + pad)
    width = max(1, round((x1 - x0) * px_per_mm))
    height = max(1, round((y1 - y0) * px_per_mm))
    coarse = CoarseRect(page, x0, y0, x1, y1)
    flat = page.affine is not None
    flags = may_hold_ink(boxes, coarse, flat)
    inked = np.array(flags, bool)
    if faint is not None:
        inked |= faint
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
        field = _light_field(coarse, width, height)
        for (r0, r1, c0, c1), tile in zip(runs, tiles, strict=True):
            cv2.divide(tile, field[r0:r1, c0:c1], dst=tile, scale=k.PAPER_FIELD_LEVEL)
        redness = np.zeros((height, width), np.uint8)
        reds = _paper(height, width, whole)
        for (r0, r1, c0, c1), tile in zip(runs, tiles, strict=True):
            red, green = reds[r0:r1, c0:c1], np.empty((r1 - r0, c1 - c0), np.uint8)
            cv2.mixChannels([tile], [red, green], [2, 0, 1, 1])  # both channels at once
            cv2.subtract(red, green, dst=redness[r0:r1, c0:c1])
        if _is_colour(page, redness, None if whole else runs, x0, y0, x1, y1, px_per_mm):
            return PageRaster(x0, y0, px_per_mm, True, reds, redness, used, kept,
                              inked, shapes, flat)
        gray = reds  # every tile's pixels are overwritten, the rest stays paper white
        for (r0, r1, c0, c1), tile in zip(runs, tiles, strict=True):
            cv2.cvtColor(tile, cv2.COLOR_BGR2GRAY, dst=gray[r0:r1, c0:c1])
    else:
        gray = _paper(height, width, whole)
        for (r0, r1, c0, c1), tile in zip(runs, tiles, strict=True):
            gray[r0:r1, c0:c1] = tile
    if joined:
        side = 2 * round(k.DOTS_GROW_MM * px_per_mm) + 1
        gray = cast(GreyImage, cv2.erode(gray, cv2.getStructuringElement(cv2.MORPH_RECT,
                                                                         (side, side))))
        gray = cast(GreyImage, cv2.GaussianBlur(gray, (0, 0), k.DOTS_JOIN_MM * px_per_mm))
    return PageRaster(x0, y0, px_per_mm, False, gray, cast(GreyImage, cv2.bitwise_not(gray)),
                      used, kept, inked, shapes, flat)


class CoarseRect:
    """A page's rectangle ``x0..x1, y0..y1`` warped coarse: from the smallest halving with
    at least a resolution asked for, at that halving's own resolution, each warp made once
    (the ink test and the light field look at the same one)."""

    def __init__(self, page: RegisteredPage, x0: float, y0: float, x1: float,
                 y1: float) -> None:
        self.page = page
        self.rect = (x0, y0, x1 - x0, y1 - y0)
        self._warps: dict[float, Image] = {}

    def at(self, min_px_per_mm: float) -> tuple[Image, float]:
        """The rectangle warped from the smallest halving with at least ``min_px_per_mm``
        (:meth:`RegisteredPage.warp_coarse`), and its pixels per millimetre."""
        _, scale = self.page.coarse(min_px_per_mm)
        ppm = self.page.px_per_mm * scale
        if scale not in self._warps:
            self._warps[scale] = self.page.warp_coarse(*self.rect, ppm, min_px_per_mm)
        return self._warps[scale], ppm


def _light_field(rect: CoarseRect, width: int, height: int) -> Image:
    """The level of white paper at each pixel of the ``width`` x ``height`` raster of the
    rectangle, per channel: the light (the red channel's
    :func:`~scanner.image.pixels.paper_field`, where paper, drop-out print and tints are all
    bright) times each channel's share of it on the paper (its :data:`PAPER_PERCENTILE`,
    :func:`_paper_share`). Measured on the rectangle warped coarse
    (:data:`PAPER_FIELD_PX_PER_MM`). Dividing by it takes a photo's uneven light
    (vignetting, a shadow band) and colour cast out: the paper white, the drop-out print as
    red as printed, ink as dark against it as it is."""
    coarse, ppm = rect.at(k.PAPER_FIELD_PX_PER_MM)
    side = 2 * round(k.PAPER_FIELD_MM * ppm / 2) + 1
    levels = np.maximum(paper_field(content_channel(coarse), side), 1)
    light = levels.astype(np.float32)
    # a share is at most 1 and the light at most 255: each channel's level is at most 255
    channels = []
    for plane in cv2.split(coarse):
        share = _paper_share(cast(GreyImage, plane), levels)
        channels.append(levels if share == 1.0 else
                        np.maximum(light * np.float32(share), 1).astype(np.uint8))
    field = cv2.merge(channels)
    return cast(Image, cv2.resize(field, (width, height), interpolation=cv2.INTER_LINEAR))


def _paper_share(plane: GreyImage, levels: GreyImage) -> float:
    """A channel's share of the light on the paper: the :data:`PAPER_PERCENTILE` of its
    ``plane`` over the light ``levels`` (as float32), at most 1. Exactly 1, without
    ranking them, where so few of its pixels are darker than the light that both ranks the
    percentile interpolates between are shares of 1 or more (NumPy's interpolation between
    two values of at least 1 is at least 1); a margin of two ranks keeps clear of its
    rounding of the rank. Else :func:`ratio_percentile`."""
    below = np.count_nonzero(plane < levels)
    if below <= k.PAPER_PERCENTILE / 100 * (plane.size - 1) - 2:
        return 1.0
    return min(ratio_percentile(plane, levels, k.PAPER_PERCENTILE), 1.0)


def ratio_percentile(plane: GreyImage, levels: GreyImage, q: float) -> float:
    """``np.percentile(plane / levels.astype(np.float32), q)`` (``levels`` at least 1), bit
    for bit, read off the two images' joint histogram instead of ranking the ratios: the
    float32 ratios of two grey levels are at most 65,536 values, ranked once
    (:func:`_level_ratios`); the rank and the interpolation are NumPy's, in float32 as it
    takes them for a float32 array (the rank ``(n - 1) * (q / 100)``, the lerp from the
    nearer end)."""
    ratios, order = _level_ratios()
    counts = cv2.calcHist([levels, plane], [0, 1], None, [256, 256], [0, 256, 0, 256])
    at_most = np.cumsum(counts.ravel()[order].astype(np.int64))
    n = plane.size
    rank = (n - 1) * np.true_divide(q, np.float32(100))
    low = int(np.floor(rank))
    below, above = ratios[np.searchsorted(at_most, [low, min(low + 1, n - 1)], side="right")]
    t = rank - np.float32(low)
    step = above - below
    return float(above - step * (1 - t) if t >= 0.5 else below + step * t)


@lru_cache(maxsize=1)
def _level_ratios() -> tuple[Floats, Ints]:
    """Every float32 ratio of a grey level (0-255) over a light level (1-255; row ``light``,
    column ``level`` of a 256 x 256 table, row 0 as row 1), ranked: the ratios in ascending
    order and the place in the table of each."""
    grey = np.arange(256, dtype=np.float32)
    table = (grey[None, :] / np.maximum(grey, 1)[:, None]).ravel()
    order = np.argsort(table, kind="stable")
    return table[order], order


def _paper(height: int, width: int, whole: bool) -> GreyImage:
    """A grey canvas for the tiles: paper white, left unset when one tile covers it."""
    if whole:
        return np.empty((height, width), np.uint8)
    return np.full((height, width), 255, np.uint8)


def _reach_mm(px_per_mm: float) -> float:
    """How far outside a box its ink is read at ``px_per_mm``: its border searched
    :data:`BOX_SEARCH_MM` around, its window :data:`INK_SPILL_MM` beyond that, and a pixel
    for rounding."""
    search = max(1, round(k.BOX_SEARCH_MM * px_per_mm))
    return (search + round(k.INK_SPILL_MM * px_per_mm) + 1) / px_per_mm


def may_hold_ink(boxes: Sequence[Box], rect: CoarseRect, flat: bool = False) -> list[bool]:
    """For each box, whether it may hold ink: the darkest point of its interior (the box
    :data:`INK_TEST_INSET_MM` in, clear of its border), in the page's rectangle ``rect``
    warped coarse (from the smallest halving with at least :data:`INK_TEST_MIN_PX_PER_MM`,
    its red channel), is at least :data:`INK_TEST_MIN_DARKNESS` below the paper around it
    (the brightest level within :data:`INK_TEST_PAPER_MM`), or
    :data:`INK_TEST_MIN_DARKNESS_DROPOUT` where the rectangle is in colour (its drop-out
    borders gone from the red channel, a faint pencil stroke is all that darkens a box);
    paper dimmer than
    :data:`PAPER_FIELD_LEVEL` (a photo's shadow) counted as though brought up to it, so its
    ink keeps its contrast, not its levels; on a ``flat`` view (a flatbed scan) in grey the
    darkness asked is :data:`FLAT_INK_FLOOR_SHARE` of that. The halvings are box-filtered,
    so a stroke darkens the coarse pixels it crosses rather than falling between samples."""
    x0, y0 = rect.rect[:2]
    warped, ppm = rect.at(k.INK_TEST_MIN_PX_PER_MM)
    red = content_channel(warped)
    least = k.INK_TEST_MIN_DARKNESS_DROPOUT if _drops_out(warped) else \
        k.INK_TEST_MIN_DARKNESS * (k.FLAT_INK_FLOOR_SHARE if flat else 1.0)
    side = 2 * round(k.INK_TEST_PAPER_MM * ppm / 2) + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))
    paper = cv2.dilate(red, kernel)
    dark = cv2.subtract(paper, red)
    h, w = dark.shape
    inset = k.INK_TEST_INSET_MM
    places = geometry(boxes).places
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
    dim = np.minimum(paper, k.PAPER_FIELD_LEVEL).astype(np.float32)
    dark_enough = dark.astype(np.float32) * k.PAPER_FIELD_LEVEL >= least * dim
    enough = cv2.integral(dark_enough.view(np.uint8))
    counts = enough[r1s, c1s] - enough[r0s, c1s] - enough[r1s, c0s] + enough[r0s, c0s]
    flags: list[bool] = (counts > 0).tolist()
    return flags


def _drops_out(coarse: Image) -> bool:
    """Whether a coarse warp is of a colour image, whose red channel drops the print's
    borders: :data:`COLOUR_MIN_FRACTION` of its pixels redder than green by half
    :data:`COLOUR_MIN_CHROMA` (the box filter of the halvings pales thin red lines; a grey
    page kept in three channels has none)."""
    if coarse.ndim == 2:
        return False
    redness = cv2.subtract(cv2.extractChannel(coarse, 2), cv2.extractChannel(coarse, 1))
    return float(np.mean(redness > k.COLOUR_MIN_CHROMA // 2)) > k.COLOUR_MIN_FRACTION


class BoxGeometry:
    """What the image stages need of a page's boxes that no image changes, worked out once
    (every sheet of a layout has the same boxes): their places and, by name and resolution,
    the plans the stages make of them (:meth:`plan`)."""

    def __init__(self, boxes: tuple[Box, ...]) -> None:
        self.boxes = boxes
        self.places = np.array([(b.x_mm, b.y_mm, b.w_mm, b.h_mm) for b in boxes], np.float64)
        self.places.flags.writeable = False
        self._plans: dict[tuple[str, float], object] = {}

    def pixel_rects(self, px_per_mm: float, x0: float, y0: float, grow_mm: float
                    ) -> list[tuple[int, int, int, int]]:
        """Each box's rectangle grown by ``grow_mm`` on every side (shrunk where it is
        negative) in the pixels of a raster whose origin is ``x0, y0`` mm: rows ``r0:r1``,
        columns ``c0:c1``, rounded, none below 0."""
        p = self.places
        c0s = np.round((p[:, 0] - grow_mm - x0) * px_per_mm).astype(np.int64).tolist()
        r0s = np.round((p[:, 1] - grow_mm - y0) * px_per_mm).astype(np.int64).tolist()
        c1s = np.round((p[:, 0] + p[:, 2] + grow_mm - x0) * px_per_mm).astype(np.int64).tolist()
        r1s = np.round((p[:, 1] + p[:, 3] + grow_mm - y0) * px_per_mm).astype(np.int64).tolist()
        return [(max(r0, 0), max(r1, 0), max(c0, 0), max(c1, 0))
                for r0, r1, c0, c1 in zip(r0s, r1s, c0s, c1s, strict=True)]

    def plan(self, name: str, px_per_mm: float, make: Callable[[BoxGeometry, float], T]) -> T:
        """The plan ``name`` of these boxes at ``px_per_mm``, made by ``make`` the first time."""
        key = (name, px_per_mm)
        if key not in self._plans:
            self._plans[key] = make(self, px_per_mm)
        return cast(T, self._plans[key])


def geometry(boxes: Sequence[Box]) -> BoxGeometry:
    """The :class:`BoxGeometry` of ``boxes``, by their content (a layout page's boxes: its
    plans are made once a layout)."""
    return _geometry_of(tuple(boxes))


@lru_cache(maxsize=16)
def _geometry_of(boxes: tuple[Box, ...]) -> BoxGeometry:
    return BoxGeometry(boxes)


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
