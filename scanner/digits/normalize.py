"""Cell normalisation: a digit cell's crop turned into the model's 28 x 28 input.

Local contrast against the paper (uneven light and shadow do not count as ink), printed
border remnants and specks removed, the ink box scaled to
:data:`~scanner.digits.constants.MODEL_DIGIT_BOX_PX` and centred by mass (MNIST layout).
Crops of one size are processed as one stacked batch; each crop's result does not depend
on the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import cv2
import numpy as np
import numpy.typing as npt

from scanner.arrays import Doubles, Floats, GreyImage, Image, Ints, Mask
from scanner.digits.constants import (
    BACKGROUND_KERNEL_FRACTION,
    EDGE_BAND_FRACTION,
    INK_RELATIVE_THRESHOLD,
    LINE_MAX_THICKNESS_FRACTION,
    LINE_MIN_LENGTH_FRACTION,
    MIN_DIGIT_HEIGHT_FRACTION,
    MIN_INK_AREA_FRACTION,
    MIN_INK_CONTRAST_FRACTION,
    MODEL_DIGIT_BOX_PX,
    MODEL_INPUT_SIDE_PX,
    NORMALIZE_BATCH,
    SPECK_MAX_GAP_FRACTION,
    SPECK_RELATIVE_AREA,
)

_DILATE_3X3 = np.ones((3, 3), np.uint8)
_INT64_MAX = np.iinfo(np.int64).max


def _as_gray(image: npt.NDArray[Any]) -> GreyImage:
    """Grey ``uint8`` levels of a grey, BGR or BGRA crop (of any dtype: clipped to 0..255)."""
    if image.ndim == 3:
        code = cv2.COLOR_BGRA2GRAY if image.shape[2] == 4 else cv2.COLOR_BGR2GRAY
        image = cast(npt.NDArray[Any], cv2.cvtColor(image, code))
    if image.dtype != np.uint8:
        image = np.clip(image, 0, 255).astype(np.uint8)
    return image


def _replicate_pad(stack: Floats, p: int) -> Floats:
    """``np.pad(stack, ((0, 0), (p, p), (p, p)), mode="edge")`` for (n, h, w) cells, by slices
    (without ``np.pad``'s overhead): each cell's edge pixels repeated outwards."""
    n, h, w = stack.shape
    out = np.empty((n, h + 2 * p, w + 2 * p), stack.dtype)
    out[:, p : p + h, p : p + w] = stack
    out[:, :p, p : p + w] = stack[:, :1]
    out[:, p + h :, p : p + w] = stack[:, -1:]
    out[:, :, :p] = out[:, :, p : p + 1]
    out[:, :, p + w :] = out[:, :, p + w - 1 : p + w]
    return out


def _contrast_stack(stack: GreyImage) -> Floats:
    """Ink contrast of (n, h, w) uint8 cells of one size, as (n, h, w) float32 in [0, 1].

    The paper brightness is estimated at half resolution (2x2 block means): a
    grayscale closing with a square kernel (it erases strokes thinner than the
    kernel; OpenCV runs it as separable passes) and a box blur, then brought
    back to full size by pixel repetition (an odd last row or column repeats the
    one before). Each cell is taken as extended by replicating its edges, as far as
    the filters reach. The cells are stacked into one tall image, so one call of each
    filter serves the batch and every cell sees only its own pixels.

    Each cell is padded by half the kernel only, not the filters' whole reach, and kept
    apart from the next cell by as many rows of values neutral to each filter (-inf for
    the dilation, +inf for the erosion): beyond that frame, the dilation of the
    edge-replicated cell repeats the frame's edge, which every window clipped at the frame
    holds, so the erosion gives the same values as on the fully padded cell; and the box
    blur of the cell reads the closing no farther than the frame. The block means are
    multiples of 1/4 below 256, so the blur's sums are exact in any order.
    """
    n, h, w = stack.shape
    h2, w2 = max(h // 2, 1), max(w // 2, 1)
    g = stack.astype(np.float32)
    if h >= 2 and w >= 2:  # exact 2x2 block means (sums of whole grey levels), within each cell
        small = (g[:, 0 : 2 * h2 : 2, 0 : 2 * w2 : 2] + g[:, 1 : 2 * h2 : 2, 0 : 2 * w2 : 2]
                 + g[:, 0 : 2 * h2 : 2, 1 : 2 * w2 : 2] + g[:, 1 : 2 * h2 : 2, 1 : 2 * w2 : 2])
        small *= 0.25
    else:
        small = g[:, :h2, :w2]
    k = max(3, int(BACKGROUND_KERNEL_FRACTION * min(h, w) / 2) | 1)
    p = k // 2
    framed, rows = h2 + 2 * p, h2 + 3 * p  # each cell's frame, then p rows before the next one
    tall = np.empty((n, rows, w2 + 2 * p), np.float32)
    tall[:, :framed] = _replicate_pad(small, p)
    tall[:, framed:] = -np.inf  # neutral for the dilation
    kernel = np.ones((k, k), np.uint8)  # cv2.MORPH_RECT
    dilated = cv2.dilate(tall.reshape(n * rows, -1), kernel).reshape(tall.shape)
    dilated[:, framed:] = np.inf  # neutral for the erosion
    closed = cv2.erode(dilated.reshape(n * rows, -1), kernel).reshape(tall.shape)
    closed[:, framed:] = 0.0  # finite: the blur keeps running sums
    background = cv2.blur(closed.reshape(n * rows, -1), (k, k)).reshape(tall.shape)
    # Back to full size by pixel repetition (each value written into its 2x2 block).
    doubled = np.empty((n, h2, 2, w2, 2), np.float32)
    doubled[...] = background[:, p : p + h2, None, p : p + w2, None]
    full = doubled.reshape(n, 2 * h2, 2 * w2)
    if full.shape[1:] != (h, w):
        full = np.empty((n, h, w), np.float32)
        full[:, : 2 * h2, : 2 * w2] = doubled.reshape(n, 2 * h2, 2 * w2)
        full[:, 2 * h2 :, : 2 * w2] = full[:, 2 * h2 - 1 : 2 * h2, : 2 * w2]
        full[:, :, 2 * w2 :] = full[:, :, 2 * w2 - 1 : 2 * w2]
    np.maximum(full, g, out=full)
    contrast = full - g
    contrast /= np.maximum(full, 16.0, out=full)
    return contrast


def _percentile_rows(values: Floats, q: float) -> Floats:
    """``np.percentile(values, q, axis=1)`` (linear interpolation).

    The two ranks read off each row sorted: NumPy's vectorised sort takes a tenth of the
    time of a partition of a cell's contrast, nearly all of it the paper's zeros.
    """
    m = values.shape[1]
    pos = q / 100.0 * (m - 1)
    lo = int(pos)
    ordered = np.sort(values, axis=1)
    low = ordered[:, lo]
    high = ordered[:, lo + 1] if lo + 1 < m else low
    return low + (pos - lo) * (high - low)


def _masked_percentile(values: Floats, masks: GreyImage, q: float) -> Doubles:
    """Per row, ``np.percentile`` (linear interpolation) of the values where the mask is set.

    ``values`` (k, ...) in [0, 1], ``masks`` of the same shape; every mask must be non-empty.
    """
    k = len(values)
    flat = np.where(masks.reshape(k, -1) > 0, values.reshape(k, -1), -1.0)
    flat.sort(axis=1)
    count = np.count_nonzero(masks.reshape(k, -1), axis=1)
    pos = q / 100.0 * (count - 1)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, count - 1)
    start = flat.shape[1] - count  # the masked values are the largest, sorted at the end
    rows = np.arange(k)
    low, high = flat[rows, start + lo], flat[rows, start + hi]
    percentiles: Doubles = low + (pos - lo) * (high - low)
    return percentiles


def _masks_stack(contrast: Floats) -> tuple[GreyImage, Ints, Mask]:
    """Digit ink masks of (n, h, w) contrast maps: thresholded, without border remnants and specks.

    Returns (masks (n, h, w) uint8, boxes (n, 4) x0, y0, x1, y1 of the kept ink,
    found (n,) bool: whether the cell holds digit-like ink; masks are zero where not).
    """
    n, h, w = contrast.shape
    mask = _thresholded(contrast)
    # One labelling for the batch: cells stacked with a blank row between them.
    tall = np.zeros((n, h + 1, w), np.uint8)
    tall[:, :h] = mask
    num, labels, stats, _ = cv2.connectedComponentsWithStats(tall.reshape(n * (h + 1), w),
                                                             connectivity=8)
    if num <= 1:
        return np.zeros((n, h, w), np.uint8), np.zeros((n, 4), np.int64), np.zeros(n, bool)
    x, y, bw, bh, area = stats[1:].astype(np.int64).T
    cell = y // (h + 1)
    y = y - cell * (h + 1)
    keep = _digit_components(x, y, bw, bh, area, cell, n, h, w)
    boxes, found = _ink_boxes(x, y, x + bw, y + bh, area, cell, keep, n, h, w)
    keep &= found[cell]
    lut = np.zeros(num, np.uint8)
    lut[1:][keep] = 1
    return lut.take(np.asarray(labels, np.int32)).reshape(n, h + 1, w)[:, :h], boxes, found


def _thresholded(contrast: Floats) -> Mask:
    """Each cell's ink: contrast above a share of its peak, without the rows and columns of
    the outer band that are mostly ink (printed-border remnants)."""
    n, h, w = contrast.shape
    peak = _percentile_rows(contrast.reshape(n, h * w), 99.7)
    threshold = np.maximum(INK_RELATIVE_THRESHOLD * peak, 0.5 * MIN_INK_CONTRAST_FRACTION)
    threshold[peak < MIN_INK_CONTRAST_FRACTION] = np.inf
    mask: Mask = contrast > threshold[:, None, None].astype(np.float32)
    by, bx = int(EDGE_BAND_FRACTION * h) + 1, int(EDGE_BAND_FRACTION * w) + 1
    for rows in (mask[:, :by], mask[:, h - by :]):
        rows[rows.sum(axis=2) >= LINE_MIN_LENGTH_FRACTION * w] = False
    for cols in (mask[:, :, :bx], mask[:, :, w - bx :]):
        full = cols.sum(axis=1) >= LINE_MIN_LENGTH_FRACTION * h
        cols.transpose(0, 2, 1)[full] = False
    return mask


def _digit_components(x: Ints, y: Ints, bw: Ints, bh: Ints, area: Ints, cell: Ints,
                      n: int, h: int, w: int) -> Mask:
    """Which connected components (boxes in their cell, area, cell) are digit ink: not in
    the edge band, not a border line, and the largest of their cell or near it or big."""
    x1, y1 = x + bw, y + bh
    band_x, band_y = EDGE_BAND_FRACTION * w, EDGE_BAND_FRACTION * h
    inside_band = (x1 <= band_x) | (x >= w - band_x) | (y1 <= band_y) | (y >= h - band_y)
    vertical_line = (((x <= 1) | (x1 >= w - 1)) & (bw <= LINE_MAX_THICKNESS_FRACTION * w)
                     & (bh >= LINE_MIN_LENGTH_FRACTION * h))
    horizontal_line = (((y <= 1) | (y1 >= h - 1)) & (bh <= LINE_MAX_THICKNESS_FRACTION * h)
                       & (bw >= LINE_MIN_LENGTH_FRACTION * w))
    keep: Mask = ~(inside_band | vertical_line | horizontal_line)
    # The largest kept component of each cell (the first in label order on ties).
    order = np.lexsort((-np.where(keep, area, -1), cell))
    ordered = cell[order]
    first = order[np.concatenate(([True], ordered[1:] != ordered[:-1]))]
    big = np.full(n, -1, np.int64)
    big[cell[first]] = np.where(keep[first], first, -1)
    b = big[cell]
    keep &= b >= 0
    gap = np.maximum(np.maximum(np.maximum(x[b] - x1, x - x1[b]),
                                np.maximum(y[b] - y1, y - y1[b])), 0)
    keep &= (area >= SPECK_RELATIVE_AREA * area[b]) | (gap <= SPECK_MAX_GAP_FRACTION * h)
    return keep


def _ink_boxes(x: Ints, y: Ints, x1: Ints, y1: Ints, area: Ints, cell: Ints, keep: Mask,
               n: int, h: int, w: int) -> tuple[Ints, Mask]:
    """Each cell's box (x0, y0, x1, y1) of its kept components, and whether that ink is a
    digit (enough of it, tall enough); the box is zeros where not."""
    kc = cell[keep]
    ink_area = np.bincount(kc, weights=area[keep], minlength=n)
    boxes = np.zeros((n, 4), np.int64)
    boxes[:, :2] = _INT64_MAX
    np.minimum.at(boxes[:, 0], kc, x[keep])
    np.minimum.at(boxes[:, 1], kc, y[keep])
    np.maximum.at(boxes[:, 2], kc, x1[keep])
    np.maximum.at(boxes[:, 3], kc, y1[keep])
    found: Mask = ((ink_area > 0) & (ink_area >= MIN_INK_AREA_FRACTION * h * w)
                   & (boxes[:, 3] - boxes[:, 1] >= MIN_DIGIT_HEIGHT_FRACTION * h))
    boxes[~found] = 0
    return boxes, found


def _as_stack(crops: Sequence[Image]) -> dict[tuple[int, ...], tuple[list[int], GreyImage]]:
    """Group crops by size: {(h, w): (indices, (n, h, w) uint8 stack)}; empty crops are left out."""
    grays = [_as_gray(np.asarray(c)) for c in crops]
    groups: dict[tuple[int, ...], list[int]] = {}
    for i, g in enumerate(grays):
        if g.size:
            groups.setdefault(g.shape, []).append(i)
    return {shape: (idx, np.stack([grays[i] for i in idx])) for shape, idx in groups.items()}


def normalize_cells(crops: Sequence[Image]) -> Floats:
    """The model input of each crop (grey or BGR, dark ink on light paper, any size), as one
    (n, 28, 28) float32 array in [0, 1]: ink bright on black, the ink box scaled so its longer
    side is :data:`~scanner.digits.constants.MODEL_DIGIT_BOX_PX` and centred by mass; all
    zeros for a cell without digit-like ink. Crops of one size are processed as one batch."""
    side = MODEL_INPUT_SIDE_PX
    out = np.zeros((len(crops), side, side), np.float32)
    targets: list[Ints] = []
    scaled: list[Floats] = []
    sizes: list[Ints] = []
    for idx, stack in _as_stack(crops).values():
        for start in range(0, len(idx), NORMALIZE_BATCH):
            contrast = _contrast_stack(stack[start : start + NORMALIZE_BATCH])
            masks, boxes, found = _masks_stack(contrast)
            cells = np.nonzero(found)[0]
            if not len(cells):
                continue
            if len(cells) < len(found):
                contrast, masks, boxes = contrast[cells], masks[cells], boxes[cells]
            scratch, size = _scaled_ink(_soft_ink(contrast, masks), boxes)
            targets.append(np.asarray(idx)[start + cells])
            scaled.append(scratch)
            sizes.append(size)
    if targets:  # the scaled digits of every size placed together
        _place_centred(out, np.concatenate(targets), np.concatenate(scaled),
                       np.concatenate(sizes))
    return out


def _soft_ink(contrast: Floats, masks: GreyImage) -> Floats:
    """Contrast relative to its 95th percentile in the mask, on the mask grown by a pixel."""
    peaks = _masked_percentile(contrast, masks, 95)
    gain = (1.0 / np.maximum(peaks, 1e-3)).astype(np.float32)[:, None, None]
    soft: Floats = np.minimum(contrast * gain, 1.0)
    n, h, w = masks.shape
    tall = np.zeros((n, h + 1, w), np.uint8)
    tall[:, :h] = masks
    grown = cast(GreyImage, cv2.dilate(tall.reshape(-1, w), _DILATE_3X3)).reshape(n, h + 1, w)
    soft *= grown[:, :h]
    return soft


def _scaled_ink(soft: Floats, boxes: Ints) -> tuple[Floats, Ints]:
    """Each ink box scaled so its longer side is the model's digit box, at the top left of
    an input-sized image; and each one's (height, width). ``np.round`` rounds half to even,
    as Python's ``round`` does."""
    side = MODEL_INPUT_SIDE_PX
    x0, y0, x1, y1 = boxes.T
    scale = MODEL_DIGIT_BOX_PX / np.maximum(y1 - y0, x1 - x0)
    sizes = np.maximum(1, np.round(np.stack([y1 - y0, x1 - x0], axis=1) * scale[:, None]))
    sizes = sizes.astype(np.int64)
    scratch = np.zeros((len(soft), side, side), np.float32)
    for i, (bx0, by0, bx1, by1, (nh, nw), shrink) in enumerate(
            zip(*boxes.T.tolist(), sizes.tolist(), (scale < 1).tolist(), strict=True)):
        interp = cv2.INTER_AREA if shrink else cv2.INTER_LINEAR
        scratch[i, :nh, :nw] = cv2.resize(soft[i, by0:by1, bx0:bx1], (nw, nh),
                                          interpolation=interp)
    np.clip(scratch, 0.0, 1.0, out=scratch)
    return scratch, sizes


def _place_centred(out: Floats, targets: Ints, scratch: Floats, sizes: Ints) -> None:
    """Write each scaled digit into its row of ``out``, its centre of mass at the centre."""
    side = MODEL_INPUT_SIDE_PX
    mass = scratch.sum(axis=(1, 2))
    ramp = np.arange(side, dtype=np.float32)
    cy = scratch.sum(axis=2) @ ramp / np.maximum(mass, 1e-12)
    cx = scratch.sum(axis=1) @ ramp / np.maximum(mass, 1e-12)
    y0s = np.clip(np.round(side / 2 - cy - 0.5), 0, side - sizes[:, 0]).astype(np.int64)
    x0s = np.clip(np.round(side / 2 - cx - 0.5), 0, side - sizes[:, 1]).astype(np.int64)
    for i, (target, (nh, nw), top, left, inked) in enumerate(zip(
            targets.tolist(), sizes.tolist(), y0s.tolist(), x0s.tolist(),
            (mass > 0).tolist(), strict=True)):
        if inked:
            out[target, top : top + nh, left : left + nw] = scratch[i, :nh, :nw]
