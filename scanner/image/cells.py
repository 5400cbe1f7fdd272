"""Stage 5b, cells: cut every box of a registered page out of its raster, upright.

Each box that may hold ink is found on its own printed border within :data:`BOX_SEARCH_MM`
of its nominal place (the column and row profiles of the raster's border map, its pixels
gathered for all boxes at once, so all boxes cost a few array operations); in a grey image
the homography places it (the border map there is every dark pixel, a stroke would pull the
box onto it). Each box's ink is then cut out by :mod:`scanner.image.ink`: the printed lines
divided out, strokes on or over a border kept and given to the box they belong to. Crops are
turned upright for their writer (``rotation_deg``, :mod:`forms.model`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from forms.model import Box
from scanner import constants as k
from scanner.arrays import Doubles, GreyImage, Ints, Mask
from scanner.image.ink import cut_ink
from scanner.image.lines import settle_reach
from scanner.image.raster import BoxGeometry, PageRaster

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CellImage:
    """One box's own ink, upright for its writer."""

    box: Box
    crop: GreyImage = field(compare=False, repr=False)
    """Grey ``uint8``: the box's window (:data:`INK_SPILL_MM` around it), its own strokes
    dark on paper white, the printed lines and other boxes' strokes taken out."""
    ink_fraction: float
    """Its own strokes' pixels over the box's interior (spill counted: may pass 1)."""
    cover: float
    """The share of the box's interior its own strokes cover (filled solid: near 1)."""
    darkness: float
    """How dark the darkest ink of its interior is, as a share of the paper
    (:attr:`scanner.image.ink.BoxInk.darkness`)."""
    paper: float
    """Grey level of the paper around the box (its ring included)."""
    shift_mm: tuple[float, float]
    """How far the box was found from its nominal place (x, y)."""
    stroke_darkness: float = 0.0
    """How dark its own strokes' darkest pixel inside its interior is, as a share of the
    paper (:attr:`scanner.image.ink.BoxInk.stroke_darkness`; 0: none there)."""


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


def cut_cells(raster: PageRaster, boxes: Sequence[Box],
              source_px_per_mm: float | None = None, faint: Mask | None = None
              ) -> tuple[CellImage, ...]:
    """Find each box on its border and return its own ink, upright, with its measures.

    A box the coarse look found blank (:meth:`PageRaster.live`) is not looked at: its crop
    is paper white (one array per size, shared), its ink none. ``source_px_per_mm`` is the
    page image's own resolution (None: as fine as the raster's): a coarse page's borders are
    each settled on their own place (:func:`scanner.image.lines.settle_reach`), and its
    faint ink held to the floors of a coarse page (:data:`INK_FINE_PAGE_PX_PER_MM`); a flat
    view's (:attr:`PageRaster.flat`) in grey to a share of a photo's
    (:data:`~scanner.constants.FLAT_INK_FLOOR_SHARE`). The boxes ``faint`` marks (a faint
    seat's digit boxes) are cut at its floors (:data:`~scanner.constants.INK_FAINT_SEAT_FLOORS`)."""
    if not boxes:
        return ()
    s = raster.px_per_mm
    h, w = raster.content.shape
    search = max(1, round(k.BOX_SEARCH_MM * s))
    shapes = raster.geometry_of(boxes)
    plan = shapes.plan("cut", s, _cut_plan)
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
    cells = list(plan.blank)
    fine = (source_px_per_mm or s) >= k.INK_FINE_PAGE_PX_PER_MM
    inked, found = cut_ink(raster.content, (raster.x_mm, raster.y_mm), s, shapes,
                           np.flatnonzero(live), np.stack([dx, dy], 1), settle_reach(s, fine),
                           fine, raster.flat and not raster.colour, faint)
    crops = _upright([plan.turns[i] for i in inked.tolist()], [ink.crop for ink in found])
    for i, ink, crop, shift_x, shift_y in zip(inked.tolist(), found, crops,
                                              (dx[inked] / s).tolist(),
                                              (dy[inked] / s).tolist(), strict=True):
        cells[i] = CellImage(boxes[i], crop, ink.fill, ink.cover, ink.darkness, ink.paper,
                             (shift_x, shift_y), ink.stroke_darkness)
    return tuple(cells)


def _upright(turns: list[int], crops: list[GreyImage]) -> list[GreyImage]:
    """Each crop turned its number of quarters (``np.rot90``, as ``cv2.rotate`` turns it):
    those of one size and turn stacked and turned together."""
    groups: dict[tuple[int, tuple[int, ...]], list[int]] = {}
    for j, (turn, crop) in enumerate(zip(turns, crops, strict=True)):
        if turn:
            groups.setdefault((turn, crop.shape), []).append(j)
    out = list(crops)
    for (turn, _), members in groups.items():
        turned = np.ascontiguousarray(np.rot90(np.stack([crops[j] for j in members]), turn,
                                               axes=(1, 2)))
        for j, crop in zip(members, turned, strict=True):
            out[j] = crop
    return out


@dataclass(frozen=True)
class _CutPlan:
    """What :func:`cut_cells` needs of a page's boxes at one resolution that no image
    changes: their places (mm), quarter turns, and each box as read when blank (its window
    paper white, no ink, not moved)."""

    places: Doubles
    turns: tuple[int, ...]
    blank: tuple[CellImage, ...]


def _cut_plan(boxes: BoxGeometry, px_per_mm: float) -> _CutPlan:
    """The :class:`_CutPlan` of ``boxes`` at ``px_per_mm``."""
    places = boxes.places
    spill = 2 * round(k.INK_SPILL_MM * px_per_mm)
    widths = (np.round(places[:, 2] * px_per_mm) + spill).astype(np.int64)
    heights = (np.round(places[:, 3] * px_per_mm) + spill).astype(np.int64)
    turns = tuple((b.rotation_deg // 90) % 4 for b in boxes.boxes)
    blank = tuple(CellImage(box, _paper_white(ch, cw, t), 0.0, 0.0, 0.0, 255.0, (0.0, 0.0))
                  for box, cw, ch, t in zip(boxes.boxes, widths.tolist(), heights.tolist(), turns,
                                            strict=True))
    return _CutPlan(places, turns, blank)


@lru_cache(maxsize=64)
def _paper_white(height: int, width: int, turns: int) -> GreyImage:
    """A read-only paper-white crop ``height`` x ``width`` turned ``turns`` quarters (the
    crop of every blank box of that size)."""
    shape = (width, height) if turns % 2 else (height, width)
    white = np.full(shape, 255, np.uint8)
    white.flags.writeable = False
    return white
