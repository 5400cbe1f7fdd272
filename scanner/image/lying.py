"""Stage 5c, ink on the lines: writing that lies on the boxes' printed border lines.

A writer whose digits spill over the boxes draws a "1" along the line between two boxes (or
along an entry's outer border, or in the gap between two entries of a column): the stroke
has next to nothing inside any box's interior, so :mod:`scanner.image.ink` takes it for print
beside the boxes, and the box it belongs to reads blank (training tr11: "16" read 6, "19"
read 9, "11" read 1; TRAINING seed 442 sheet 003: a "12" whose 1 stood in the gap before it,
read 2). Such a stroke (mostly within the boxes' rectangles or the gaps between entries,
dark as a pen, whole in its window) goes whole to one box beside it: the one holding no
other stroke, a digit a box. Only where the page's lines are faint (the
drop-out print's red channel: :attr:`scanner.image.lines.Cleared.faint`): where they show
darker, a line not quite divided out leaves pieces as dark as a pen along the same lines
(training tr7 and tr11: phantom 1s past a column's end).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np

from forms.geometry.constants import ENTRY_GAP_MM
from forms.model import Box, EntryCell
from scanner import constants as k
from scanner.arrays import Doubles, GreyImage, Ints, Mask
from scanner.image.raster import BoxGeometry


@dataclass(frozen=True)
class Borders:
    """What tells writing on the boxes' border lines where it goes, for one raster."""

    frames: GreyImage
    """1 on a pixel within a box's rectangle grown by :data:`LINE_BAND_MM`, or in a gap
    between two entries of a column (:func:`_frame_map`)."""
    writable: Mask
    """Per box: a digit box (a stroke on a border may be its digit)."""
    centres: Doubles
    """Per box: its centre (mm)."""
    entry_of: Ints
    """Per box: its entry (one number shared by an entry's digit boxes), or -1."""
    units: Mask
    """Per box: the last digit box of its entry, where a written number's units stand."""


@dataclass(frozen=True)
class Lying:
    """The windows' view of it: the raster's :class:`Borders`, and per window its
    ``frames`` and its ``dark`` ink (darker than
    :data:`~scanner.constants.INK_BORDER_MIN_CONTRAST` of its paper)."""

    borders: Borders
    frames: GreyImage
    dark: Mask


def page_borders(geometry: BoxGeometry, px_per_mm: float, x0: float, y0: float,
                 shape: tuple[int, int]) -> Borders:
    """The :class:`Borders` of a raster (origin ``x0, y0`` mm, ``shape``) of ``geometry``'s
    boxes (its frames made once per raster place and size)."""
    p = geometry.places
    frames = geometry.plan(f"frames {x0} {y0} {shape}", px_per_mm,
                           lambda g, ppm: _frame_map(g, ppm, x0, y0, shape))
    return Borders(frames, np.array([b.kind == "digit" for b in geometry.boxes], bool),
                   p[:, :2] + p[:, 2:] / 2,
                   *geometry.plan("entries", px_per_mm, lambda g, _: _entries(g.boxes)))


def _entries(boxes: Sequence[Box]) -> tuple[Ints, Mask]:
    """:attr:`Borders.entry_of` and :attr:`Borders.units` of ``boxes``."""
    entry_of = np.full(len(boxes), -1, np.int64)
    ids: dict[tuple[object, ...], int] = {}
    last: dict[int, tuple[int, int]] = {}  # per entry: its highest position and that box
    for i, box in enumerate(boxes):
        meaning = box.meaning
        if box.kind == "digit" and isinstance(meaning, EntryCell):
            entry = ids.setdefault((meaning.seat, meaning.column, meaning.on, meaning.entry),
                                   len(ids))
            entry_of[i] = entry
            last[entry] = max(last.get(entry, (-1, -1)), (meaning.position, i))
    units = np.zeros(len(boxes), bool)
    units[[i for _, i in last.values()]] = True
    return entry_of, units


def _frame_map(geometry: BoxGeometry, px_per_mm: float, x0: float, y0: float,
               shape: tuple[int, int]) -> GreyImage:
    """:attr:`Borders.frames` of a raster (origin ``x0, y0`` mm, ``shape``), the gaps
    between two entries of a column (:data:`~forms.geometry.constants.ENTRY_GAP_MM`)
    filled: a "1" spilled out of its box lies there, clear of both entries' lines."""
    frames = np.zeros(shape, np.uint8)
    for r0, r1, c0, c1 in geometry.pixel_rects(px_per_mm, x0, y0, k.LINE_BAND_MM):
        frames[r0:r1, c0:c1] = 1
    side = max(3, round(ENTRY_GAP_MM * px_per_mm) | 1)
    return cast(GreyImage, cv2.morphologyEx(frames, cv2.MORPH_CLOSE,
                                            np.ones((side, side), np.uint8)))


def border_neighbours(geometry: BoxGeometry, live: Ints, writable: Mask) -> Ints:
    """The digit boxes (``writable``, :attr:`Borders.writable`) not among ``live``
    (indices) that share a border line with one of them: a stroke on that line may be their
    digit, though the coarse look found their interior blank."""
    p, band = geometry.places, k.LINE_BAND_MM
    digit = writable.copy()
    digit[live] = False
    others = np.flatnonzero(digit)  # only these are compared with the live boxes
    lo, hi = p[:, :2], p[:, :2] + p[:, 2:]
    touch = ((lo[None, others, :] <= hi[live, None, :] + band)
             & (lo[live, None, :] <= hi[None, others, :] + band)).all(axis=2).any(axis=0)
    found: Ints = others[touch]
    return found


def _cut(stats: Ints, window: tuple[int, int]) -> Mask:
    """Per stroke (``stats`` of the windows' labelling, windows of ``window`` rows and
    columns stacked a blank row apart): cut by its window's edge (a piece of a digit)."""
    hh, ww = window
    x, y, w, h = (stats[:, i] for i in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP,
                                         cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT))
    cut: Mask = (x == 0) | (x + w == ww) | (y % (hh + 1) == 0) | (y % (hh + 1) + h == hh)
    return cut


def give_lying(goes: Ints, comp: Ints, owners: Ints, own: Ints, at: Ints, stats: Ints,
               speck_px: float, lying: Lying) -> None:
    """Give writing on the boxes' border lines whole to a box beside it, in ``goes`` (the
    box of each ink pixel, ``at`` in the windows (flat indices), -1 none; ``comp`` its
    stroke, ``stats`` the strokes', ``owners`` as :func:`~scanner.image.ink.owner_map`'s,
    ``own`` its window's box). Such a stroke goes nowhere yet, is whole in its window (not
    :func:`_cut`), has a speck (``speck_px``) of ``dark`` ink (:class:`Lying`),
    under :data:`~scanner.constants.INK_MIN_INSIDE_SHARE` of it inside a box and
    :data:`~scanner.constants.INK_BORDER_FRAMED_SHARE` of it framed. It goes to the box
    :func:`_empty_neighbour` names among the (one or two) boxes nearest
    :data:`~scanner.constants.INK_BORDER_NEIGHBOUR_SHARE` of its pixels."""
    borders = lying.borders
    boxes_count = len(borders.writable)
    owner, inside = owners % boxes_count, owners < boxes_count
    framed, dark = lying.frames.ravel().take(at), lying.dark.ravel().take(at)
    _, hh, ww = lying.dark.shape
    out = _cut(stats, (hh, ww))
    count = len(out)
    area = np.bincount(comp, minlength=count)
    nowhere = (np.bincount(comp, weights=goes < 0, minlength=count) == area) & ~out
    on_line = (nowhere & (np.bincount(comp, weights=dark, minlength=count) >= speck_px)
               & (np.bincount(comp, weights=inside, minlength=count)
                  < k.INK_MIN_INSIDE_SHARE * area)
               & (np.bincount(comp, weights=framed, minlength=count)
                  >= k.INK_BORDER_FRAMED_SHARE * np.maximum(area, 1)))
    if not on_line.any():
        return
    holds = np.zeros(boxes_count, bool)
    holds[goes[goes == own]] = True  # the boxes a stroke went to in their own window
    chosen = on_line[comp]
    keys, counts = np.unique(comp[chosen] * boxes_count + owner[chosen], return_counts=True)
    target = np.full(count, -1, np.int64)
    for stroke in np.unique(keys // boxes_count).tolist():
        mine = keys // boxes_count == stroke
        near = (keys[mine] % boxes_count)[np.argsort(-counts[mine], kind="stable")][:2]
        shares = np.sort(counts[mine])[::-1][:2] / area[stroke]
        target[stroke] = _empty_neighbour(near[shares >= k.INK_BORDER_NEIGHBOUR_SHARE],
                                          holds, borders)
    given = target[comp]
    goes[given >= 0] = given[given >= 0]


def _empty_neighbour(near: Ints, holds: Mask, borders: Borders) -> int:
    """Of the boxes ``near`` a stroke on their border (most of its pixels first), the digit
    box that ``holds`` no ink (a digit a box); of two, the units box of an entry whose other
    boxes hold ink (a number is never written without its units: the units digit spilled
    past its entry into the gap before the next one), else the one nearer a box that holds
    ink (the rest of the number); -1 when none is empty (between two written boxes it is no
    digit of its own)."""
    empty = near[borders.writable[near] & ~holds[near]]
    short = [b for b in empty.tolist() if borders.units[b]
             and holds[borders.entry_of == borders.entry_of[b]].any()]
    if len(short) == 1:
        return int(short[0])
    if len(empty) < 2 or not holds.any():
        return int(empty[0]) if len(empty) else -1
    inked = borders.centres[holds]
    gaps = [float(np.min(np.hypot(*(inked - borders.centres[b]).T))) for b in empty.tolist()]
    return int(empty[int(np.argmin(gaps))])
