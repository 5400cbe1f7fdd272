"""Stage 4, marks: each mark box is empty, marked (a cross) or cancelled (filled solid).

The legend printed on every deal page shows the two: a cross is a mark, a box filled solid
(over a cross) is a mark taken back. The fill measure is the share of a box's interior that is
ink (darker than its paper by a fixed share, as the cells' quick measure). The two thresholds
are found per sheet from the distribution of its fills (Otsu's split, kept within sane
bounds), so a thin pen, a thick marker or a grey photo each get their own, not global
constants.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from forms.model import Box
from scanner import constants as k
from scanner.arrays import Doubles, GreyImage
from scanner.image.cells import CellImage

log = logging.getLogger(__name__)

MarkState = Literal["empty", "marked", "cancelled"]


@dataclass(frozen=True)
class MarkThresholds:
    """Fill shares that split empty from marked and marked from cancelled, for one sheet."""

    marked: float = k.MARKED_DEFAULT_FILL_FRACTION
    cancelled: float = k.CANCELLED_DEFAULT_FILL_FRACTION


@dataclass(frozen=True)
class MarkReading:
    """One mark box read: its fill share, its state and how sure the reading is (0..1)."""

    box: Box
    fill: float
    state: MarkState
    confidence: float


def _otsu(values: Doubles) -> float | None:
    """Otsu's threshold of a 1-D sample, or None when it has fewer than two distinct values."""
    v = np.sort(values)
    if len(v) < 2 or v[0] == v[-1]:
        return None
    best, best_t = -1.0, None
    total, total_sum = len(v), float(v.sum())
    cum = np.cumsum(v)
    for i in range(1, total):
        if v[i] == v[i - 1]:
            continue
        w0, w1 = i / total, 1 - i / total
        m0, m1 = cum[i - 1] / i, (total_sum - cum[i - 1]) / (total - i)
        between = w0 * w1 * (m0 - m1) ** 2
        if between > best:
            best, best_t = between, (v[i - 1] + v[i]) / 2
    return best_t


def mark_thresholds(fills: Sequence[float]) -> MarkThresholds:
    """Thresholds for one sheet from all its mark fills (every page together is best).

    >>> t = mark_thresholds([0.0] * 50 + [0.2, 0.25, 0.22] * 5 + [0.9, 0.85])
    >>> bool(0.03 <= t.marked <= 0.12 and 0.4 <= t.cancelled <= 0.7)
    True
    """
    f = np.asarray(fills, np.float64)
    lo_m, hi_m = k.MARKED_MIN_FILL_FRACTION
    lo_c, hi_c = k.CANCELLED_MIN_FILL_FRACTION
    marked = k.MARKED_DEFAULT_FILL_FRACTION
    inked = f[f > lo_m]
    if len(inked) and (f <= lo_m).any():
        split = _otsu(f[f < lo_c])
        if split is not None:
            marked = min(max(split, lo_m), hi_m)
    cancelled = k.CANCELLED_DEFAULT_FILL_FRACTION
    upper = f[f > marked]
    if len(upper) >= 2:
        split = _otsu(upper)
        # only trust a split between two real groups: crosses below, solid fills above
        if split is not None and (upper < split).any() and (upper > split).any() and \
                upper[upper > split].min() - upper[upper < split].max() > 0.15:
            cancelled = min(max(split, lo_c), hi_c)
    return MarkThresholds(marked, cancelled)


def _confidence(distance: float, scale: float) -> float:
    return round(1.0 - 0.5 * math.exp(-abs(distance) / scale), 4)


def _judge(fill: float, thresholds: MarkThresholds) -> tuple[MarkState, float]:
    """The state a fill share reads as, and how sure that is (0..1)."""
    if fill < thresholds.marked:
        return "empty", _confidence(thresholds.marked - fill, 0.3 * thresholds.marked)
    if fill < thresholds.cancelled:
        return "marked", min(_confidence(fill - thresholds.marked, 0.3 * thresholds.marked),
                             _confidence(thresholds.cancelled - fill, 0.08))
    return "cancelled", _confidence(fill - thresholds.cancelled, 0.08)


def _mark_fills(cells: Sequence[CellImage]) -> list[float]:
    """The ink share of each mark box inside :data:`MARK_INSET_MM` (a further margin in from
    its crop's inset): the pixels darker than its paper by :data:`INK_MIN_RELATIVE_DARKNESS`
    (the cells' quick ink measure). Inner crops of one shape are stacked and measured
    together, a few array operations a page instead of several calls a box."""
    out = [0.0] * len(cells)
    groups: dict[tuple[int, ...], list[tuple[int, GreyImage]]] = {}
    for i, cell in enumerate(cells):
        if cell.ink_fraction <= 0:
            continue
        crop = cell.crop
        h, w = crop.shape[:2]
        extra = (k.MARK_INSET_MM - k.BOX_INSET_MM) / max(cell.box.w_mm, 1e-6)
        m = max(0, int(round(extra * w)))
        inner = crop[m:h - m, m:w - m] if h > 2 * m and w > 2 * m else crop
        if inner.size:
            groups.setdefault(inner.shape, []).append((i, inner))
    for members in groups.values():
        stack = np.stack([inner for _, inner in members]).reshape(len(members), -1)
        limits = np.array([cells[i].paper for i, _ in members]) * (
            1.0 - k.INK_MIN_RELATIVE_DARKNESS)
        counts = np.count_nonzero(stack < limits[:, None], axis=1).tolist()
        for (i, _), count in zip(members, counts, strict=True):
            out[i] = float(count) / stack.shape[1]
    return out


def read_marks(cells: Sequence[CellImage],
               thresholds: MarkThresholds | None = None) -> tuple[MarkReading, ...]:
    """Read every mark box; thresholds default to those of these cells' own fills.

    Each distinct fill is judged once: most boxes of a page hold no ink (fill 0) and read
    alike."""
    marks = [c for c in cells if c.box.kind == "mark"]
    measured = _mark_fills(marks)
    if thresholds is None:
        thresholds = mark_thresholds(measured)
    judged: dict[float, tuple[float, MarkState, float]] = {}
    readings = []
    for cell, fill in zip(marks, measured, strict=True):
        if fill not in judged:
            judged[fill] = (round(fill, 4), *_judge(fill, thresholds))
        readings.append(MarkReading(cell.box, *judged[fill]))
    return tuple(readings)


def fills(cells: Sequence[CellImage]) -> list[float]:
    """The fill share of every mark box among ``cells`` (for sheet-wide thresholds)."""
    return _mark_fills([c for c in cells if c.box.kind == "mark"])
