"""Stage 5c, drift: how far a coarse photo's printed lines lie from the layout's places.

A page photographed from afar (75-120 dpi) is registered to within a pixel of its own, which
is two or three of the raster's, and where the phone's lens is too weak for the page's four
markers to show it, it is not taken out: the box borders lie up to 0.4 mm off where the
layout puts them, up to 2 mm on a page seen through a stronger lens (barrel 0.02-0.03 at
the frame's corner), by an amount that changes smoothly over the page. A border then lies
half outside the band it is divided out over, or wholly beside it, and what is left of it
reads as a stroke: a "1" in an empty box, a minus in an empty sign cell, a cross in every
mark box of a row.

Each printed line's own place is its darkest row across it, measured on its light level along
it (writing lying on the line does not count); a line that does not show (paper left white,
a drop-out border) tells nothing. The lines are looked for no further than
:data:`~scanner.constants.DRIFT_REACH_MM` from where they are expected (further, a line is
taken for its neighbour's), first at the layout's places: a smooth surface (quadratic over
the page) fitted to their offsets, the lines far off it left out, says where they lie, and
they are looked for again around it until it settles (at most
:data:`~scanner.constants.DRIFT_ROUNDS` times), so a drift larger than the reach is followed
from where it is small. What the surface leaves is
the median over the lines of a tile (:data:`~scanner.constants.DRIFT_TILE_MM` square), so a
line taken for its neighbour's border is outvoted; a box moves by the surface and its tile's
median (the page's median where its tile holds no line).
"""

from __future__ import annotations

import numpy as np

from scanner import constants as k
from scanner.arrays import Doubles, GreyImage, Ints, Mask
from scanner.image.lines import Profile, profiles

DRIFT_OUTLIER = 2.5
"""A line's offset more than this many times the surface's median residual off it (and more
than a pixel and a half) is left out of the surface's next fit: a line taken for its
neighbour's."""
DRIFT_SETTLED_PX = 0.5
"""The surface is settled when fitting it again moves no line by this much: the lines would be
looked for where they were (TRAINING part's far photos: two to four rounds)."""
DRIFT_SURFACE_STEP = 4
"""The surface is fitted to every this-many-th line (a page has a thousand or more of each
way: a quarter of them fit six terms as well, at a quarter of the cost); the tiles' medians
take them all."""
DRIFT_FIT_ROUNDS = 3
"""Least-squares fits of a surface, each without the lines the fit before found far off."""
DRIFT_MIN_LINES = 12
"""Fewer lines than this (a page of a few boxes) fit no surface: the tiles alone speak."""


def line_offsets(found: list[Profile], reach_px: int) -> tuple[Doubles, Doubles]:
    """Each line's place along and across it (its middle: the window's row ``reach_px + 1``
    is where the layout puts it) and its offset from there in pixels, for the lines that show
    (darker than :data:`~scanner.constants.LINE_FAINT_TRANSMITTANCE` at their darkest row).
    The darkest row is taken over three rows (a blurred line is two or three wide)."""
    places, offsets = [], []
    for r0s, c0s, blocks, transmit in found:
        length = blocks.shape[2]
        smooth = (transmit[:, :-2] + transmit[:, 1:-1] + transmit[:, 2:]) / 3.0
        darkest = smooth.argmin(axis=1)
        shows = smooth.min(axis=1) < k.LINE_FAINT_TRANSMITTANCE
        places.append(np.stack([r0s + reach_px + 1, c0s + length / 2.0], 1)[shows])
        offsets.append((darkest + 1 - (reach_px + 1))[shows])
    if not places:
        return np.zeros((0, 2)), np.zeros(0)
    return np.concatenate(places).astype(np.float64), np.concatenate(offsets).astype(np.float64)


_TILE_ROW = 1 << 20
"""A tile's key is its row times this plus its column (a page has a few dozen of either)."""


def tile_drift(places: Doubles, offsets: Doubles, at: Doubles, tile_px: float) -> Doubles:
    """The drift at each of the points ``at`` (row, column): the median offset of the lines
    (``places``: row, column) in its tile, or of all of them where its tile holds none
    (none at all: 0)."""
    if not len(offsets):
        return np.zeros(len(at))
    page = float(np.median(offsets))
    tiles = np.floor(places / tile_px).astype(np.int64)
    keys = tiles[:, 0] * _TILE_ROW + tiles[:, 1]
    order = np.argsort(keys, kind="stable")
    unique, starts = np.unique(keys[order], return_index=True)
    medians = np.array([np.median(part) for part in np.split(offsets[order], starts[1:])])
    wanted = np.floor(at / tile_px).astype(np.int64)
    want = wanted[:, 0] * _TILE_ROW + wanted[:, 1]
    slot = np.minimum(np.searchsorted(unique, want), len(unique) - 1)
    drift: Doubles = np.where(unique[slot] == want, medians[slot], page)
    return drift


def _terms(at: Doubles, scale: float) -> Doubles:
    """The terms (1, x, y, x², xy, y²) of the drift's surface at points ``at`` (row, column
    pixels), in units of ``scale`` pixels."""
    y, x = at[:, 0] / scale, at[:, 1] / scale
    return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], 1)


def _surface(places: Doubles, offsets: Doubles, scale: float) -> Doubles:
    """The coefficients of the surface that fits the ``offsets`` at ``places`` best: least
    squares, fitted again without the offsets far off it (:data:`DRIFT_OUTLIER`)."""
    terms = _terms(places, scale)
    coef: Doubles = np.zeros(terms.shape[1])
    keep: Mask = np.ones(len(offsets), bool)
    for _ in range(DRIFT_FIT_ROUNDS):
        if keep.sum() < DRIFT_MIN_LINES:
            break
        coef = np.linalg.lstsq(terms[keep], offsets[keep], rcond=None)[0].astype(np.float64)
        residual = np.abs(terms @ coef - offsets)
        keep = residual <= max(1.5, DRIFT_OUTLIER * float(np.median(residual[keep])))
    return coef


def _largest_change(places: Doubles, change: Doubles, scale: float) -> float:
    """The most a change of the surface moves any of the lines at ``places``, in pixels."""
    return float(np.abs(_terms(places, scale) @ change).max()) if len(places) else 0.0


def _offsets_around(content: GreyImage, lines: Ints, surface: Doubles, scale: float,
                    reach: int) -> tuple[Doubles, Doubles]:
    """:func:`line_offsets` of ``lines``, each looked for within ``reach`` pixels of where the
    ``surface`` puts it: their places and their offsets from the layout's places."""
    middles = np.stack([lines[:, 0], lines[:, 1] + lines[:, 2] / 2.0], 1).astype(np.float64)
    moved = lines.copy()
    moved[:, 0] += np.round(_terms(middles, scale) @ surface).astype(np.int64)
    places, offsets = line_offsets(profiles(content, moved, reach), reach)
    # each line was moved by the surface at its place, rounded (a pixel's move hardly
    # changes the surface)
    back = np.round(_terms(places, scale) @ surface)
    places[:, 0] -= back
    return places, offsets + back


def box_drift(content: GreyImage, horizontal: Ints, vertical: Ints, centres: Doubles,
              px_per_mm: float) -> Doubles:
    """Each box's drift (``dx, dy`` pixels) at its ``centres`` (row, column) of the raster
    ``content``: the ``horizontal`` lines' offsets (rows ``row, c0, length``) move boxes up or
    down, the ``vertical`` ones' (``column, r0, length``) left or right."""
    reach = max(1, round(k.DRIFT_REACH_MM * px_per_mm))
    tile = k.DRIFT_TILE_MM * px_per_mm
    scale = 100.0 * px_per_mm  # a decimetre: the surface's terms are of order 1
    across = content.T  # the vertical lines, as rows
    surface_y: Doubles = np.zeros(6)
    surface_x: Doubles = np.zeros(6)
    some_h, some_v = horizontal[::DRIFT_SURFACE_STEP], vertical[::DRIFT_SURFACE_STEP]
    for _ in range(k.DRIFT_ROUNDS):
        rows, dy = _offsets_around(content, some_h, surface_y, scale, reach)
        cols, dx = _offsets_around(across, some_v, surface_x, scale, reach)
        fitted_y, fitted_x = _surface(rows, dy, scale), _surface(cols, dx, scale)
        change = max(_largest_change(rows, fitted_y - surface_y, scale),
                     _largest_change(cols, fitted_x - surface_x, scale))
        surface_y, surface_x = fitted_y, fitted_x
        if change < DRIFT_SETTLED_PX:  # the lines were looked for where they lie
            break
    rows, dy = _offsets_around(content, horizontal, surface_y, scale, reach)
    cols, dx = _offsets_around(across, vertical, surface_x, scale, reach)
    by_column = centres[:, ::-1]
    drift_x = _terms(by_column, scale) @ surface_x + tile_drift(
        cols, dx - _terms(cols, scale) @ surface_x, by_column, tile)
    drift_y = _terms(centres, scale) @ surface_y + tile_drift(
        rows, dy - _terms(rows, scale) @ surface_y, centres, tile)
    return np.stack([drift_x, drift_y], 1)
