"""Stage 5c, ink: each box's own ink, out to wherever its writer's strokes reach.

Writers put digits 55-110 % of a box's height, off centre and over its border, and ticks
larger than the box, so a box is read over a window :data:`INK_SPILL_MM` wider than it on
every side, in three steps:

1. The printed lines are taken out by what they are (:mod:`scanner.image.lines`): each box
   border is divided out by its own light transmittance across it, so ink that crosses or
   lies on a line keeps its darkness. Where the page's borders lie off their bands (a far
   photo's registration), the boxes first follow them (:mod:`scanner.image.drift`).
2. Ink is what is darker than the window's paper by a share of the window's own darkest ink,
   never less than :data:`INK_MIN_CONTRAST`: contrast normalised per box, so a faint pencil
   reads as a pen, and its crop is stretched to a pen's contrast. A window whose darkest ink
   is under a floor holds none; on a quiet page (:func:`quiet_page`) the floors are
   the lowest wherever its borders lie. A stroke is the fainter ink
   joined (a thin stroke's anti-aliased parts) around some of the darker.
3. Each connected stroke goes to the box holding most of its pixels inside boxes; a stroke
   no box holds most of (two digits run together), or one whose part in another box that
   box's window does not reach (two digits joined over their border), is split along the
   boxes' borders, its pixels outside every box going to the nearest box. A stroke lying
   wholly on a border line is what is left of the line, and a speck is noise: both are
   dropped, unless it is dark writing along the line (:mod:`scanner.image.lying`): then it
   goes whole to a box beside it. A mark's stroke is counted by the box each of its pixels
   is nearest, not only inside the boxes: a loop 130 % of its box lies mostly outside it.
4. A mark box whose ink lies wholly in its half next to another inked mark box is read
   again over a window that holds both: its own window showed only the part of the
   neighbour's mark within :data:`INK_SPILL_MM` of it, which looked like a stroke of its own.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import NamedTuple, cast

import cv2
import numpy as np

from forms.model import Box, EntryCell
from scanner import constants as k
from scanner.arrays import Doubles, Floats, GreyImage, Ints, Mask
from scanner.image.drift import box_drift
from scanner.image.lines import border_lines, clear_lines, windows
from scanner.image.lying import Borders, Lying, border_neighbours, give_lying, page_borders
from scanner.image.pixels import close_ellipse, rank_values
from scanner.image.raster import BoxGeometry

_CROSS_3X3 = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
NOISE_MIN_BOXES = 20
"""A page's noise is taken over this many column boxes, or none (:func:`page_noise`)."""


@dataclass(frozen=True)
class BoxInk:
    """The ink of one box: its window with only its own strokes, and two measures."""

    crop: GreyImage
    """The box's window, dark ink on paper white, its strokes only (contrast stretched)."""
    fill: float
    """Its strokes' pixels over the box's interior (spill counted: may pass 1)."""
    cover: float
    """The share of the box's interior its own strokes cover (a box filled solid: near 1)."""
    darkness: float
    """How dark the darkest ink of the box's interior is, as a share of the paper (before the
    contrast is stretched: a printed line's faint remnant is light, a pen's mark dark)."""
    paper: float
    """Grey level of the paper in the window."""
    stroke_darkness: float
    """How dark the darkest pixel of the box's own strokes inside its interior is, as a share
    of the paper (0: none there): unlike :attr:`darkness`, as dark for a lone thin "1" as for
    a loop, however few pixels it covers."""


def owner_map(geometry: BoxGeometry, px_per_mm: float, x0: float, y0: float,
              shape: tuple[int, int]) -> Ints:
    """For each pixel of a raster (origin ``x0, y0`` mm, ``shape``), the index of the box
    whose interior (:data:`BOX_INSET_MM` inside its border) it lies in, or the index of the
    nearest interior plus the number of boxes (int32): a stroke on a border or in the gap
    beside a box is not in it."""
    labels = np.zeros(shape, np.int32)
    for i, (r0, r1, c0, c1) in enumerate(geometry.pixel_rects(px_per_mm, x0, y0,
                                                              -k.BOX_INSET_MM)):
        labels[r0:r1, c0:c1] = i + 1
    outside = (labels == 0).astype(np.uint8)
    _, nearest = cv2.distanceTransformWithLabels(outside, cv2.DIST_L2, 3,
                                                 labelType=cv2.DIST_LABEL_PIXEL)
    lut = np.zeros(int(nearest.max()) + 1, np.int32)
    lut[nearest[outside == 0]] = labels[outside == 0]
    owners = cast(Ints, lut[nearest] - 1)
    owners[outside > 0] += len(geometry.boxes)
    return owners


def window_ink(clean: GreyImage, bands: GreyImage | None, owners: Ints, boxes: Ints,
               boxes_count: int, origins: Ints, size: tuple[int, int], interiors: Ints,
               px_per_mm: float, crops: bool, floor: float = k.INK_MIN_PEAK_CONTRAST,
               borders: Borders | None = None, only_borders: Mask | None = None,
               local_floor: float = k.INK_MIN_LOCAL_CONTRAST,
               least: float = k.INK_MIN_CONTRAST, box_windows: Ints | None = None,
               nearest: bool = False) -> list[BoxInk]:
    """The :class:`BoxInk` of each of ``boxes`` (indices, as in :func:`owner_map`'s
    ``owners``, of ``boxes_count`` boxes), its window of ``size`` (rows, columns) at
    ``origins`` (row, column) in the cleared raster; the box lies :data:`INK_SPILL_MM` in
    from the window's edges, ``interiors`` (rows0, rows1, cols0, cols1 in the window) is the
    interior its fill and cover are measured over. Without ``crops`` each crop is the
    window as it is (a mark box's: only its measures are read). A window whose darkest ink
    is lighter than ``floor`` of its paper (``local_floor`` of the paper right around it)
    holds none; one marked in ``only_borders`` holds
    only the writing on its border lines that ``borders`` gives it. No pixel lighter than
    ``least`` of its paper is ink. ``box_windows``: every box's window in the raster (rows0,
    rows1, cols0, cols1), for :func:`_assign`'s strokes out of their box's reach;
    ``nearest``: mark boxes' windows (:func:`_assign`)."""
    grey, keep, paper, peak = window_strokes(clean, bands, owners, boxes, boxes_count, origins,
                                             size, interiors[0], px_per_mm, floor, borders,
                                             only_borders, local_floor, least, box_windows,
                                             nearest)
    n = len(boxes)
    a, b, c, d = interiors[0].tolist()
    shown = _stretched(grey, keep, paper, peak) if crops else grey
    inside = np.where(keep[:, a:b, c:d], grey[:, a:b, c:d], 255).reshape(n, -1).min(axis=1)
    strokes = np.maximum(1.0 - inside / paper, 0.0)
    out = []
    for j, (a, b, c, d) in enumerate(interiors.tolist()):
        area = max((b - a) * (d - c), 1)
        own = keep[j]
        out.append(BoxInk(shown[j], float(np.count_nonzero(own)) / area,
                          float(np.count_nonzero(own[a:b, c:d])) / area, float(peak[j]),
                          float(paper[j]), float(strokes[j])))
    return out


def window_strokes(clean: GreyImage, bands: GreyImage | None, owners: Ints, boxes: Ints,
                   boxes_count: int, origins: Ints, size: tuple[int, int], interior: Ints,
                   px_per_mm: float, floor: float, borders: Borders | None,
                   only_borders: Mask | None, local_floor: float, least: float,
                   box_windows: Ints | None, nearest: bool = False
                   ) -> tuple[GreyImage, Mask, Floats, Floats]:
    """The windows of :func:`window_ink` (its arguments; ``interior``: every window's) as
    grey levels, the mask of each one's own strokes, its paper and its darkest ink's
    contrast."""
    n = len(boxes)
    grey = windows(clean, origins, size)
    # every other row and column: levels enough; the darkest ink from the box's interior
    # alone (a printed line beside the box is darker than a pencil)
    sample = grey[:, ::2, ::2].reshape(n, -1)
    a, b, c, d = interior.tolist()  # the same for every window of one size
    inner = grey[:, a:b:2, c:d:2].reshape(n, -1)
    (light,) = rank_values(sample, (int(k.PAPER_PERCENTILE / 100 * (sample.shape[1] - 1)),))
    (darkest,) = rank_values(inner, (int((100 - k.INK_PEAK_PERCENTILE) / 100
                                         * (inner.shape[1] - 1)),))
    paper: Floats = np.maximum(light, 1).astype(np.float32)
    peak: Floats = (1.0 - darkest / paper).astype(np.float32)
    level = np.maximum(k.INK_PEAK_SHARE * peak, least)
    level[(peak < floor)
          | (_local_peak(grey, interior, px_per_mm) < local_floor)] = 1.0
    if only_borders is not None:
        level[only_borders] = 1.0
    faint = np.maximum(k.INK_FAINT_PEAK_SHARE * peak, least)
    ink = grey < (paper * (1.0 - faint))[:, None, None]
    strong = grey < (paper * (1.0 - level))[:, None, None]
    in_band = None if bands is None else windows(bands, origins, size)
    lying = None if borders is None else Lying(
        borders, windows(borders.frames, origins, size),
        grey < (paper * (1.0 - k.INK_BORDER_MIN_CONTRAST))[:, None, None])
    keep = _own_strokes(ink, strong, windows(owners, origins, size), in_band, boxes,
                        boxes_count,
                        k.INK_SPECK_MM2 * px_per_mm ** 2,
                        2 * max(1, round(k.LINE_BAND_MM * px_per_mm)) + 1, lying,
                        None if box_windows is None else (origins, box_windows), nearest)
    return grey, keep, paper, peak


def _local_peak(grey: GreyImage, interior: Ints, px_per_mm: float) -> Floats:
    """Each window's darkest ink (:data:`~scanner.constants.INK_PEAK_PERCENTILE` of its
    interior, rows ``a:b``, columns ``c:d``) as a share of the paper right around it: the
    windows' closing over :data:`~scanner.constants.INK_LOCAL_PAPER_MM`, taken stacked (the
    interiors lie further from a window's edge than the closing reaches), over the interiors
    and as far around them as the closing reaches only (its dilation's and its erosion's
    radius): what lies farther out takes no part."""
    n, hh, ww = grey.shape
    side = max(3, round(k.INK_LOCAL_PAPER_MM * px_per_mm) | 1)
    a, b, c, d = interior.tolist()
    reach = 2 * (side // 2)
    # rows are cut only where both ends keep clear of the next window (stacked, they meet)
    r0, r1 = (a - reach, b + reach) if a >= reach and hh - b >= reach else (0, hh)
    c0, c1 = max(c - reach, 0), min(d + reach, ww)
    near = np.ascontiguousarray(grey[:, r0:r1, c0:c1])
    paper = close_ellipse(near.reshape(-1, c1 - c0), side).reshape(near.shape)
    ratio = np.minimum(255.0 * grey[:, a:b:2, c:d:2]
                       / np.maximum(paper[:, a - r0:b - r0:2, c - c0:d - c0:2], 1),
                       255.0).astype(np.uint8)
    flat = ratio.reshape(n, -1)
    (darkest,) = rank_values(flat, (int((100 - k.INK_PEAK_PERCENTILE) / 100
                                        * (flat.shape[1] - 1)),))
    local: Floats = (1.0 - darkest / 255.0).astype(np.float32)
    return local


def _stretched(grey: GreyImage, keep: Mask, paper: Floats, peak: Floats) -> GreyImage:
    """Each window's own strokes (and a pixel around them) dark on paper white, stretched so
    its darkest ink reaches :data:`INK_STRETCH_TARGET`; the rest paper white (worked out
    only where the strokes are)."""
    n, hh, ww = keep.shape
    grown = cv2.dilate(keep.reshape(-1, ww).view(np.uint8), _CROSS_3X3)
    gain = np.clip(k.INK_STRETCH_TARGET / np.maximum(peak, 1e-3), 1.0, k.INK_STRETCH_MAX)
    scale = 255.0 * gain / paper
    at = np.flatnonzero(grown)
    window = at // (hh * ww)
    dark = np.minimum((paper[window] - grey.ravel().take(at)) * scale[window], 255.0)
    out = np.full((n, hh, ww), 255, np.uint8)
    out.ravel()[at] = (255.0 - np.maximum(dark, 0.0)).astype(np.uint8)
    return out


def _own_strokes(ink: Mask, strong: Mask, owners: Ints, bands: GreyImage | None,
                 boxes: Ints, boxes_count: int, speck_px: float, line_px: int,
                 lying: Lying | None = None, placed: tuple[Ints, Ints] | None = None,
                 nearest: bool = False) -> Mask:
    """For each window (of ``ink``, ``strong``, ``owners``, ``bands`` stacks), the ink of the
    strokes its box owns (a stroke is ``ink`` joined, holding some ``strong`` ink): one
    labelling for the stack (windows kept apart by a blank row), each stroke's box by
    :func:`_assign` (given ``placed``: the windows' origins, every box's window), then
    (given ``lying``) the writing on border lines by
    :func:`~scanner.image.lying.give_lying`."""
    n, hh, ww = ink.shape
    tall = np.zeros((n, hh + 1, ww), np.uint8)
    tall[:, :hh] = ink
    count, labels, found, _ = cv2.connectedComponentsWithStats(tall.reshape(-1, ww),
                                                               connectivity=8)
    at = np.flatnonzero(ink)  # the labelled pixels, window by window (flat indices)
    # a window's pixel lies as many rows further in the stack as windows before it
    comp = labels.ravel().take(at + at // (hh * ww) * ww).astype(np.int64)
    raw = owners.ravel().take(at).astype(np.int64)
    goes = _assign(comp, raw % boxes_count, raw < boxes_count, strong.ravel().take(at),
                   None if bands is None else bands.ravel().take(at), cast(Ints, found),
                   count, speck_px, line_px,
                   None if placed is None else Reach(at, ink.shape, *placed), nearest)
    own = np.repeat(boxes, np.count_nonzero(ink.reshape(n, -1), axis=1))
    if lying is not None:
        give_lying(goes, comp, raw, own, at, cast(Ints, found), speck_px, lying)
    keep = np.zeros(ink.shape, bool)
    keep.ravel()[at] = goes == own
    return keep


class Reach(NamedTuple):
    """Where a stack of windows' ink pixels lie in the raster, and how far each box's crop
    reaches."""

    at: Ints
    """The ink pixels of the stack of windows (flat indices, in order)."""
    shape: tuple[int, ...]
    """The stack's shape (windows, rows, columns)."""
    origins: Ints
    """Each window's first row and column in the raster."""
    windows: Ints
    """Every box's window in the raster: rows0, rows1, cols0, cols1."""

    def places(self, pixels: Ints) -> tuple[Ints, Ints]:
        """The raster rows and columns of the ink pixels ``pixels`` (indices)."""
        window, row, col = np.unravel_index(self.at[pixels], self.shape)
        return self.origins[window, 0] + row, self.origins[window, 1] + col


def _assign(comp: Ints, owner: Ints, inside: Mask, strong: Mask, band: GreyImage | None,
            stats: Ints, count: int, speck_px: float, line_px: int,
            reach: Reach | None = None, nearest: bool = False) -> Ints:
    """The box each ink pixel goes to (-1: none), given the stroke (``comp``) it is in, the
    box it lies in or is nearest (``owner``, ``inside`` it or not), whether it is ``strong``
    ink and in a border's ``band``. A stroke goes whole to the box holding the largest share
    of its pixels inside boxes; when that share is under :data:`INK_SPLIT_SHARE` (two digits
    run together), or when that box's window does not reach its pixels inside other boxes
    (given ``reach``, :func:`_out_of_reach`), each box holding :data:`INK_SPLIT_MIN_SHARE` of
    it keeps its own pixels. With ``nearest`` (mark boxes: a loop 130 % of its box lies
    mostly outside it) every pixel of a stroke counts for the box it lies in or is nearest,
    and only whether it lies beside the boxes is told from its pixels inside them (TRAINING
    part, seed 315: a loop joined to the cancelled box beside it held 78 pixels inside its
    own box against the fill's 196, and went with the fill).
    Specks (under ``speck_px``), strokes without strong ink, line remnants (at most
    ``line_px`` across, nearly all in a band) and print beside the boxes go nowhere; a
    stroke joined to that print (a pen run over a column's line) keeps its part inside a
    box, given to that box, when it is :data:`~scanner.constants.INK_JOINED_MIN_SPECKS`
    specks or more."""
    boxes_count = int(owner.max(initial=0)) + 1
    area = np.maximum(stats[:, cv2.CC_STAT_AREA], 1).astype(np.float64)
    counted = np.ones_like(inside) if nearest else inside
    keys, counts = np.unique(comp[counted] * boxes_count + owner[counted], return_counts=True)
    if not len(keys):  # no stroke reaches into a box
        return np.full(len(comp), -1, np.int64)
    k_comp = keys // boxes_count
    order = np.lexsort((counts, k_comp))
    last = order[np.r_[k_comp[order][1:] != k_comp[order][:-1], True]]
    best = np.full(count, -1, np.int64)
    best[k_comp[last]] = keys[last] % boxes_count
    held_counted = cast(Doubles, np.bincount(k_comp, weights=counts, minlength=count))
    share = np.ones(count)
    share[k_comp[last]] = counts[last] / held_counted[k_comp[last]]
    in_band = (np.zeros(count) if band is None
               else np.bincount(comp, weights=band, minlength=count) / area)
    held = np.bincount(comp, weights=strong, minlength=count)
    thin = np.minimum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    noise = (area < speck_px) | (held == 0) | (
        (in_band >= k.INK_LINE_REMNANT_SHARE) & (thin <= line_px))
    held_inside = np.bincount(comp, weights=inside, minlength=count)
    beside = held_inside / area < k.INK_MIN_INSIDE_SHARE
    best[noise | beside] = -1
    mine = comp * boxes_count + owner
    at = np.minimum(np.searchsorted(keys, mine), max(len(keys) - 1, 0))
    part = np.where(keys[at] == mine, counts[at], 0) / np.maximum(held_counted[comp], 1)
    fair = part >= k.INK_SPLIT_MIN_SHARE
    split = share[comp] < k.INK_SPLIT_SHARE
    given_whole = fair & ~split & (owner != best[comp]) & (best[comp] >= 0) & counted
    if reach is not None and given_whole.any():
        split |= _out_of_reach(comp, best, counted, given_whole, reach, held_counted)[comp]
    split &= fair
    goes: Ints = np.where(split & (best[comp] >= 0), owner, best[comp])
    # writing joined to print beside the boxes (a stroke over a column's line): its part
    # inside a box stays that box's
    joined = beside & ~noise & (held_inside >= k.INK_JOINED_MIN_SPECKS * speck_px)
    goes[joined[comp] & inside] = owner[joined[comp] & inside]
    return goes


def _out_of_reach(comp: Ints, best: Ints, inside: Mask, given_whole: Mask, reach: Reach,
                  held_inside: Doubles) -> Mask:
    """For each stroke, whether :data:`~scanner.constants.INK_UNSEEN_SHARE` or more of its
    pixels inside boxes lies out of the window of the box it goes to whole (``best``): that
    box's crop cannot show them, so they are lost to every box (two digits joined over the
    border between their boxes, the second reaching past the first's window). Only the
    strokes with pixels ``given_whole`` to a box they do not lie in are looked at;
    ``held_inside``: each stroke's pixels inside boxes."""
    looked = np.isin(comp, np.unique(comp[given_whole])) & inside
    pixels = np.flatnonzero(looked)
    row, col = reach.places(pixels)
    box = reach.windows[best[comp[pixels]]]
    unseen = (row < box[:, 0]) | (row >= box[:, 1]) | (col < box[:, 2]) | (col >= box[:, 3])
    reaches_out: Mask = np.bincount(comp[pixels], weights=unseen, minlength=len(held_inside)) \
        >= np.maximum(k.INK_UNSEEN_SHARE * held_inside, 1.0)
    return reaches_out


def cut_ink(content: GreyImage, origin_mm: tuple[float, float], px_per_mm: float,
            geometry: BoxGeometry, live: Ints, shifts: Doubles, settle: int = 0,
            fine: bool = False, flat: bool = False, faint_boxes: Mask | None = None
            ) -> tuple[Ints, list[BoxInk]]:
    """The boxes cut (the ``live`` boxes of ``geometry``, indices, then their
    :func:`border_neighbours`) and the :class:`BoxInk` of each, in the raster ``content``
    (its top-left at ``origin_mm``), each box moved by its ``shifts`` row (``dx, dy``
    pixels, every box's), each border settled within ``settle`` pixels of its place
    (:func:`scanner.image.lines.clear_lines`); a neighbour holds only writing on its border
    lines, and only where the page's lines are faint (the drop-out print's red channel:
    no remnant of them can pass for writing). A ``fine`` page image
    (:data:`~scanner.constants.INK_FINE_PAGE_PX_PER_MM`) keeps fainter strokes where the
    borders drop out; on a ``flat`` view (a flatbed scan in grey) every floor is
    :data:`~scanner.constants.FLAT_INK_FLOOR_SHARE` of a photo's. On a quiet page
    (:data:`~scanner.constants.QUIET_PAGE_NOISE`) a box that higher floors left without ink
    is cut again at a fine page's. The boxes ``faint_boxes`` marks (per box of ``geometry``: a
    faint seat's) are cut at :data:`~scanner.constants.INK_FAINT_SEAT_FLOORS`."""
    s, (h, w) = px_per_mm, content.shape
    m = round(k.INK_SPILL_MM * s)
    p = geometry.places
    band = max(1, round(k.LINE_BAND_MM * s))
    sizes = np.stack([np.round(p[:, 3] * s), np.round(p[:, 2] * s)], 1).astype(np.int64) + 2 * m
    starts = _window_starts(geometry, origin_mm, s, shifts, sizes, (h, w))
    near = _near(starts[live], sizes[live], starts + m, sizes - 2 * m)
    horizontal, vertical = border_lines(geometry, *origin_mm, s, shifts, near)
    clean, bands, inside, faint = clear_lines(content, horizontal, vertical, band, settle)
    # a faint stroke is told from a border's remnant only where no remnant is left (a page
    # whose lines lie off their places keeps the higher floor when the boxes follow them)
    clean_floor = k.INK_MIN_PEAK_CONTRAST_FINE if fine else k.INK_MIN_PEAK_CONTRAST_CLEAN
    floor = clean_floor if inside else k.INK_MIN_PEAK_CONTRAST
    local_floor = k.INK_MIN_LOCAL_CONTRAST_FINE if fine else k.INK_MIN_LOCAL_CONTRAST
    share = k.FLAT_INK_FLOOR_SHARE if flat else 1.0
    floor, local_floor, least = floor * share, local_floor * share, k.INK_MIN_CONTRAST * share
    if not inside:  # the boxes follow the lines where they lie (scanner.image.drift)
        shifts = shifts + box_drift(content, horizontal, vertical, starts + sizes / 2.0, s)
        starts = _window_starts(geometry, origin_mm, s, shifts, sizes, (h, w))
        horizontal, vertical = border_lines(geometry, *origin_mm, s, shifts, near)
        clean, bands, _, faint = clear_lines(content, horizontal, vertical, band, settle)
    # writing on the border lines, where no remnant of them can pass for it (module doc)
    borders = page_borders(geometry, s, *origin_mm, (h, w)) if faint else None
    extra = live[:0] if borders is None else border_neighbours(geometry, live,
                                                               borders.writable)
    only_borders = np.r_[np.zeros(len(live), bool), np.ones(len(extra), bool)]
    live = np.r_[live, extra]
    owners = geometry.plan(f"owners {origin_mm} {content.shape}", s,
                           lambda g, ppm: owner_map(g, ppm, *origin_mm, (h, w)))
    inset = round(m + k.BOX_INSET_MM * s)
    interiors = np.stack([np.full(len(sizes), inset), sizes[:, 0] - inset,
                          np.full(len(sizes), inset), sizes[:, 1] - inset], 1)
    box_windows = np.concatenate([starts[:, :1], starts[:, :1] + sizes[:, :1],
                                  starts[:, 1:], starts[:, 1:] + sizes[:, 1:]], axis=1)
    out: list[BoxInk | None] = [None] * len(live)

    floors_of: dict[int, tuple[float, float, float]] = {}

    def cut(places: list[int], floors: tuple[float, float, float]) -> None:
        """Cut the boxes ``live[places]`` (by window size) with these floors (the window's
        darkest ink, the paper around it, a pixel) into ``out``."""
        by_size: dict[tuple[int, int, bool], list[int]] = {}
        for j in places:
            floors_of[j] = floors
            i = int(live[j])
            mark = geometry.boxes[i].kind == "mark"
            by_size.setdefault((int(sizes[i, 0]), int(sizes[i, 1]), mark), []).append(j)
        for (rows, cols, mark), members in by_size.items():
            chosen = live[members]
            found = window_ink(clean, bands, owners, chosen, len(p), starts[chosen],
                               (rows, cols), interiors[chosen], s, not mark, floors[0],
                               None if mark else borders,
                               only_borders[members], floors[1], floors[2], box_windows,
                               mark)
            for j, one in zip(members, found, strict=True):
                out[j] = one

    seat_faint = np.zeros(len(live), bool) if faint_boxes is None else faint_boxes[live]
    cut(np.flatnonzero(~seat_faint).tolist(), (floor, local_floor, least))
    faint_peak, faint_local, faint_pixel = k.INK_FAINT_SEAT_FLOORS
    cut(np.flatnonzero(seat_faint).tolist(),
        (faint_peak * share, faint_local * share, faint_pixel * share))
    quiet = (k.INK_MIN_PEAK_CONTRAST_FINE * share, k.INK_MIN_LOCAL_CONTRAST_FINE * share, least)
    if (floor > quiet[0] or local_floor > quiet[1]) and \
            quiet_page(_all_boxes(geometry, live, out)):
        cut([j for j, one in enumerate(out) if one is not None and one.fill == 0.0
             and one.darkness >= quiet[0] and not seat_faint[j]], quiet)

    for j, beside in _marks_beside_marks(geometry, live, out, starts, sizes, m).items():
        i, one = int(live[j]), out[j]
        _, own, _, _ = window_strokes(clean, bands, owners, live[[j]], len(p), starts[[i]],
                                      (int(sizes[i, 0]), int(sizes[i, 1])), interiors[i], s,
                                      floors_of[j][0], None, only_borders[[j]],
                                      floors_of[j][1], floors_of[j][2], box_windows, True)
        toward = [b for b in beside
                  if _near_half_only(own[0], interiors[i], starts[b] - starts[i])]
        if toward and one is not None:  # read over a window that holds the marks beside it
            top = starts[[i, *toward]].min(axis=0)
            size = (starts + sizes)[[i, *toward]].max(axis=0) - top
            (wide,) = window_ink(clean, bands, owners, live[[j]], len(p), top[None],
                                 (int(size[0]), int(size[1])),
                                 (interiors[i] + np.repeat(starts[i] - top, 2))[None], s,
                                 False, floors_of[j][0], None, only_borders[[j]],
                                 floors_of[j][1], floors_of[j][2], box_windows, True)
            out[j] = replace(one, fill=wide.fill, cover=wide.cover,
                             stroke_darkness=wide.stroke_darkness)
    return live, [o for o in out if o is not None]


def _marks_beside_marks(geometry: BoxGeometry, live: Ints, inks: list[BoxInk | None],
                        starts: Ints, sizes: Ints, spill: int) -> dict[int, list[int]]:
    """For each mark box of ``live`` (its place there) holding ink, the other inked mark
    boxes (indices in ``geometry``) whose box its window (``starts``, ``sizes``: every box's,
    ``spill`` pixels around it) reaches into."""
    inked = [j for j, one in enumerate(inks) if one is not None and one.fill > 0.0
             and geometry.boxes[int(live[j])].kind == "mark"]
    if len(inked) < 2:
        return {}
    boxes = live[inked]
    lo, hi = starts[boxes], starts[boxes] + sizes[boxes]
    meets: Mask = np.asarray(((lo[None, :, :] + spill < hi[:, None, :])
                              & (lo[:, None, :] < hi[None, :, :] - spill)).all(axis=2))
    np.fill_diagonal(meets, False)
    return {j: [int(b) for b in boxes[row]] for j, row in zip(inked, meets, strict=True)
            if row.any()}


def _near_half_only(own: Mask, interior: Ints, toward: Ints) -> bool:
    """Whether a box's own strokes (``own``, its window's) hold no pixel of the half of its
    ``interior`` away from a box ``toward`` (that box's window's offset from its own, rows
    and columns): a mark 60-130 % of its box and off centre crosses into the box beside it,
    and a window holds only the part of it within :data:`INK_SPILL_MM`, which then looks
    like the box's own stroke. A mark of the box's own reaches its far half."""
    a, b, c, d = interior.tolist()
    axis = int(abs(toward[1]) > abs(toward[0]))
    low, high = (a, b) if axis == 0 else (c, d)
    middle = (low + high) // 2
    far = (low, middle) if toward[axis] > 0 else (middle, high)
    part = own[far[0]:far[1], c:d] if axis == 0 else own[a:b, far[0]:far[1]]
    return not part.any()


def _all_boxes(geometry: BoxGeometry, live: Ints, inks: list[BoxInk | None]
               ) -> list[tuple[Box, float]]:
    """Every box of ``geometry`` with its interior's darkest ink: ``inks``' for the boxes
    ``live``, none (0) for the others (the coarse look found them blank)."""
    darkness = dict.fromkeys(range(len(geometry.boxes)), 0.0)
    darkness |= {int(i): one.darkness for i, one in zip(live, inks, strict=True)
                 if one is not None}
    return [(box, darkness[i]) for i, box in enumerate(geometry.boxes)]


def quiet_page(boxes: list[tuple[Box, float]]) -> bool:
    """Whether a page (each box with its darkness) is quiet: on a page with column boxes
    (:data:`NOISE_MIN_BOXES` or more) their median darkest ink (:func:`page_noise`; a box the
    coarse look found blank counts 0) under :data:`~scanner.constants.QUIET_PAGE_NOISE`, on
    a page without them (a deal page) its mark boxes' under
    :data:`~scanner.constants.QUIET_DEAL_PAGE_NOISE` (as many of them or more). A column page
    whose boxes are mostly blank to the coarse look is quiet, whatever its marks hold (before
    the forty-ninth round its median of 0 sent it to the deal page's test, and its crossed
    boxes made it noisy: a distant pencil photo of 119 dpi, TRAINING seed 482 sheet 023, lost
    a seat's faint strokes once its faint borders were divided out).

    >>> from forms.model import Box, DealCell, EntryCell
    >>> mark = Box(0, 0.0, 0.0, 4.2, 4.2, 0, "mark", DealCell(0, "level", "6"))
    >>> quiet_page([(mark, 0.0)] * 30), quiet_page([(mark, 0.12)] * 30)
    (True, False)
    >>> digit = Box(1, 0.0, 0.0, 4.2, 4.2, 0, "digit", EntryCell("A", "pool", None, 0, 0))
    >>> quiet_page([(digit, 0.0)] * 30 + [(mark, 0.12)] * 30)
    True
    """
    noise = _column_noise(boxes)
    if noise is not None:
        return noise < k.QUIET_PAGE_NOISE
    marks = [d for box, d in boxes if box.kind == "mark"]
    return len(marks) >= NOISE_MIN_BOXES and statistics.median(marks) < k.QUIET_DEAL_PAGE_NOISE


def page_noise(boxes: Iterable[tuple[Box, float]]) -> float:
    """The median darkest ink of a page's column boxes (given with each box's darkness;
    :data:`NOISE_MIN_BOXES` or more, else 0): most of them are empty, so it is the paper's
    grain, the JPEG's and a shadow's within a box."""
    noise = _column_noise(boxes)
    return 0.0 if noise is None else noise


def _column_noise(boxes: Iterable[tuple[Box, float]]) -> float | None:
    """The median darkest ink of the column boxes (running totals' digit boxes) of
    ``boxes``; None for fewer than :data:`NOISE_MIN_BOXES` of them."""
    darkness = [d for box, d in boxes
                if box.kind == "digit" and isinstance(box.meaning, EntryCell)]
    return statistics.median(darkness) if len(darkness) >= NOISE_MIN_BOXES else None


def _window_starts(geometry: BoxGeometry, origin_mm: tuple[float, float], px_per_mm: float,
                   shifts: Doubles, sizes: Ints, shape: tuple[int, int]) -> Ints:
    """Each box's window's first row and column in the raster (``shape``), each box moved
    by its ``shifts`` row (``dx, dy`` pixels), the window :data:`INK_SPILL_MM` around it."""
    m = round(k.INK_SPILL_MM * px_per_mm)
    p = geometry.places
    xs = (p[:, 0] - origin_mm[0]) * px_per_mm + shifts[:, 0]
    ys = (p[:, 1] - origin_mm[1]) * px_per_mm + shifts[:, 1]
    starts = np.stack([np.round(ys), np.round(xs)], 1).astype(np.int64) - m
    clipped: Ints = np.clip(starts, 0, np.maximum(np.array(shape) - sizes, 0))
    return clipped


def _near(starts: Ints, sizes: Ints, box_starts: Ints, box_sizes: Ints) -> Ints:
    """The indices of the boxes (``box_starts``, ``box_sizes``: row, column) overlapping any
    of the windows (``starts``, ``sizes``)."""
    overlap = ((box_starts[None, :, 0] < (starts[:, 0] + sizes[:, 0])[:, None])
               & (starts[:, None, 0] < (box_starts[:, 0] + box_sizes[:, 0])[None, :])
               & (box_starts[None, :, 1] < (starts[:, 1] + sizes[:, 1])[:, None])
               & (starts[:, None, 1] < (box_starts[:, 1] + box_sizes[:, 1])[None, :]))
    near: Ints = np.flatnonzero(overlap.any(axis=0))
    return near
