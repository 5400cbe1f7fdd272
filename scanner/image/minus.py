"""A sign cell's minus, told by its shape: a thin stroke across the middle of the box.

A sign cell holds a minus or nothing, and its amount of ink alone does not tell which on a
coarse or noisy page: what is left of the box's own border after it is divided out, JPEG
noise or a neighbour's stray stroke give a blank sign cell as much ink as a written dash.
A written minus is a stroke across the middle of its box: the widest stroke among the box's
middle rows (:data:`~scanner.constants.MINUS_CORE_ROWS`; a border's remnant lies along the
box's edge, outside them), clear of its side borders, spans a good part of the box's width
and is thin. On the training part a written minus spans 0.56-0.78 of the box's width and
0.08-0.25 of its height; a border's remnant or noise at most 0.25 of the width, or is as
tall as the middle rows.
"""

from __future__ import annotations

import cv2
import numpy as np

from forms.model import Box
from scanner import constants as k
from scanner.arrays import GreyImage

INK_LEVEL = 192
"""A crop's pixel darker than this is ink (crops are its own strokes stretched dark on
paper white, :mod:`scanner.image.ink`; the halo a pixel around a stroke is lighter)."""


def box_interior(crop: GreyImage, box: Box) -> GreyImage:
    """The box's own pixels of its upright ``crop`` (the box and
    :data:`~scanner.constants.INK_SPILL_MM` around it): the scale is the crop's own."""
    h, w = crop.shape
    upright_w, upright_h = (box.h_mm, box.w_mm) if box.rotation_deg % 180 else (box.w_mm,
                                                                               box.h_mm)
    px_per_mm = (h + w) / (upright_w + upright_h + 4 * k.INK_SPILL_MM)
    m = round(k.INK_SPILL_MM * px_per_mm)
    return crop[m:max(h - m, m + 1), m:max(w - m, m + 1)]


def minus_share(crop: GreyImage, box: Box) -> float:
    """How much the ink of a sign cell (its upright ``crop``) looks like a minus, 0 to 1: the
    widest stroke of the box's middle (:data:`~scanner.constants.MINUS_CORE_ROWS` of its
    height, :data:`~scanner.constants.MINUS_CORE_COLUMNS` of its width) wide enough
    (:data:`~scanner.constants.MINUS_WIDTH`) and thin enough
    (:data:`~scanner.constants.MINUS_HEIGHT`), each a ramp between its two shares."""
    interior = box_interior(crop, box)
    h, w = interior.shape
    r0, r1 = (round(f * h) for f in k.MINUS_CORE_ROWS)
    c0, c1 = (round(f * w) for f in k.MINUS_CORE_COLUMNS)
    core = (interior[r0:r1, c0:c1] < INK_LEVEL).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=8)
    if count <= 1:
        return 0.0
    widest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_WIDTH]))
    width = stats[widest, cv2.CC_STAT_WIDTH] / w
    height = stats[widest, cv2.CC_STAT_HEIGHT] / h
    wide = _ramp(width, *k.MINUS_WIDTH)
    thin = 1.0 - _ramp(height, *k.MINUS_HEIGHT)
    return min(wide, thin)


def _ramp(value: float, low: float, high: float) -> float:
    """0 at ``low`` or below, 1 at ``high`` or above, linear between."""
    return float(np.clip((value - low) / (high - low), 0.0, 1.0))
