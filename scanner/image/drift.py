"""Stage 5c, drift: how far a coarse photo's printed lines lie from the layout's places.

A page photographed from afar (75-120 dpi) is registered to within a pixel of its own, which
is two or three of the raster's: its box borders lie up to 0.4 mm off where the layout puts
them, by an amount that changes smoothly over the page (none at one edge, 3 raster pixels at
the other on the training part's phone-distant sheets). A border then lies half outside the
band it is divided out over, and what is left of it reads as a stroke: a "1" in an empty box,
a minus in an empty sign cell.

Each printed line's own place is its darkest row across it, measured on its light level along
it (writing lying on the line does not count); a line that does not show (paper left white,
a drop-out border) tells nothing. The drift of a region is the median over the lines of its
tile (:data:`~scanner.constants.DRIFT_TILE_MM` square), so a line taken for its neighbour's
border is outvoted; a box moves by the drift of the tile it lies in (the page's median where
its tile holds no line).
"""

from __future__ import annotations

import numpy as np

from scanner import constants as k
from scanner.arrays import Doubles, GreyImage, Ints
from scanner.image.lines import Profile, profiles


def line_offsets(found: list[Profile], reach_px: int) -> tuple[Doubles, Doubles]:
    """Each line's place along and across it (its middle: the window's row ``reach_px + 1``
    is where the layout puts it) and its offset from there in pixels, for the lines that show
    (:data:`~scanner.constants.LINE_INVISIBLE_TRANSMITTANCE` or darker at their darkest row).
    The darkest row is taken over three rows (a blurred line is two or three wide)."""
    places, offsets = [], []
    for r0s, c0s, blocks, transmit in found:
        length = blocks.shape[2]
        smooth = (transmit[:, :-2] + transmit[:, 1:-1] + transmit[:, 2:]) / 3.0
        darkest = smooth.argmin(axis=1)
        shows = smooth.min(axis=1) < k.LINE_INVISIBLE_TRANSMITTANCE
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


def box_drift(content: GreyImage, horizontal: Ints, vertical: Ints, centres: Doubles,
              px_per_mm: float) -> Doubles:
    """Each box's drift (``dx, dy`` pixels) at its ``centres`` (row, column) of the raster
    ``content``: the ``horizontal`` lines' offsets (rows ``row, c0, length``) move boxes up or
    down, the ``vertical`` ones' (``column, r0, length``) left or right."""
    reach = max(1, round(k.DRIFT_REACH_MM * px_per_mm))
    tile = k.DRIFT_TILE_MM * px_per_mm
    rows, dy = line_offsets(profiles(content, horizontal, reach), reach)
    cols, dx = line_offsets(profiles(content.T, vertical, reach), reach)
    return np.stack([tile_drift(cols, dx, centres[:, ::-1], tile),
                     tile_drift(rows, dy, centres, tile)], 1)
