"""Stage 2's checks of a registered page: resolution, marker fit, blur and glare.

:func:`check_quality` raises :class:`scanner.errors.PoorQuality` with a plain sentence when a
page is too poor to read (too coarse, folded, blurred) and keeps a warning for what only asks
for a check (low resolution, a loose fit, a covered marker, slight blur, glare on a photo).
Blur is the markers' edge sharpness on patches warped from the full image; glare is measured
on the first halving.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, cast

import cv2
import numpy as np

from scanner import constants as k
from scanner.arrays import Doubles, Floats, GreyImage, Ints
from scanner.errors import PoorQuality
from scanner.image.pixels import content_channel, rank_values, to_gray
from scanner.words import said

if TYPE_CHECKING:
    from scanner.image.homography import Frame
    from scanner.image.register import RegisteredPage

log = logging.getLogger(__name__)


def _sharpness(page: RegisteredPage, frame: Frame) -> float:
    """Median over the found markers of their edge sharpness (see BLUR_MIN_SHARPNESS).

    The markers of a page are one size: their patches are stacked, so each percentile is
    taken once for all of them (:func:`_percentiles`)."""
    found = [m for m in frame[2] if m.aruco_id in page.markers_found]
    if not found:
        return 0.0
    patches = np.stack([content_channel(page.warp(m.x_mm - 0.5, m.y_mm - 0.5, m.size_mm + 1,
                                                  m.size_mm + 1, k.QUALITY_PX_PER_MM))
                        for m in found])
    lo, hi = _percentiles(patches.reshape(len(found), -1), (5.0, 95.0))
    contrasted = np.flatnonzero(hi - lo >= 40)
    if not len(contrasted):
        return 0.0
    mags = []
    for i in contrasted.tolist():
        gx = cv2.Sobel(patches[i], cv2.CV_32F, 1, 0, ksize=3, scale=1 / 8)
        gy = cv2.Sobel(patches[i], cv2.CV_32F, 0, 1, ksize=3, scale=1 / 8)
        mags.append(cv2.magnitude(gx, gy).ravel())
    (edges,) = _percentiles(np.stack(mags), (97.0,))
    values = edges / (hi - lo)[contrasted]
    return float(np.median(values))


def _percentiles(rows: GreyImage | Floats, qs: tuple[float, ...]) -> list[Doubles]:
    """The ``q``-th percentiles of each row of ``rows``, for each ``q`` (numpy's linear
    interpolation between the two nearest ranks), from one partial sort of the rows, or of
    grey levels from their histograms (:func:`scanner.image.pixels.rank_values`)."""
    n = rows.shape[1]
    ranks = [q / 100 * (n - 1) for q in qs]
    below = [int(r) for r in ranks]
    kth = sorted({i for b in below for i in (b, min(b + 1, n - 1))})
    values: dict[int, Ints | Floats]  # the dtype test tells grey levels from float32 magnitudes
    if rows.dtype == np.uint8:
        values = dict(zip(kth, rank_values(cast(GreyImage, rows), kth), strict=True))
    else:
        ordered = np.partition(cast(Floats, rows), kth, axis=1)
        values = {i: ordered[:, i] for i in kth}
    out = []
    for rank, b in zip(ranks, below, strict=True):
        lo = values[b].astype(np.float64)
        hi = values[min(b + 1, n - 1)].astype(np.float64)
        out.append(lo + (hi - lo) * (rank - b))
    return out


def _median_level(gray: GreyImage) -> int:
    """The median grey level of a ``uint8`` image (from its histogram)."""
    hist = cv2.calcHist([gray], [0], None, [256], [0, 256]).ravel()
    return int(np.searchsorted(np.cumsum(hist), gray.size / 2))


def _glare(page: RegisteredPage) -> str | None:
    """A warning when a saturated blob (every channel at least :data:`GLARE_LEVEL`) larger
    than :data:`GLARE_MIN_AREA_MM2` lies on a photo. Measured on the first halving: further
    ones round the 2x2 means of near-white paper up to white again and again, which joins
    small blobs into a large one. The blobs are labelled within the bounding box of the
    saturated pixels only (the same blobs and areas)."""
    smallest = page.halvings[-1] if page.halvings else page.image
    if _median_level(to_gray(smallest)) >= k.GLARE_PAPER_MAX_LEVEL:
        return None  # a scan: the paper itself is saturated
    image, scale = (page.halvings[0], 0.5) if page.halvings else (page.image, 1.0)
    channels = image.shape[2] if image.ndim == 3 else 1
    sat = cv2.inRange(image, np.full(channels, k.GLARE_LEVEL, np.uint8),
                      np.full(channels, 255, np.uint8))
    mm2_per_px = 1.0 / (page.px_per_mm * scale) ** 2
    if cv2.countNonZero(sat) * mm2_per_px <= k.GLARE_MIN_AREA_MM2:
        return None  # not enough saturated pixels for one blob that large
    left, top, width, height = cv2.boundingRect(sat)
    _, _, stats, centroids = cv2.connectedComponentsWithStats(
        sat[top:top + height, left:left + width], connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA]  # label 0 is the background
    if not len(areas) or areas.max() * mm2_per_px <= k.GLARE_MIN_AREA_MM2:
        return None
    biggest = 1 + int(np.argmax(areas))
    centre = (centroids[biggest] + (left, top) + 0.5) / scale - 0.5
    x, y = page.to_mm(centre).reshape(2)
    return said("glare", where=page.label, x=round(float(x)), y=round(float(y)))




def check_quality(reg: RegisteredPage, frame: Frame) -> RegisteredPage:
    """``reg`` with its sharpness and warnings, or :class:`PoorQuality` naming the file and
    page when it is too coarse, folded or blurred to read (limits in :mod:`scanner.constants`)."""
    label, warnings = reg.label, list[str]()
    if reg.px_per_mm < k.MIN_PX_PER_MM:
        raise PoorQuality(said("too_coarse", page=reg.page_index + 1,
                               dpi=round(reg.px_per_mm * 25.4),
                               need=round(k.MIN_PX_PER_MM * 25.4)), reg.source,
                          reg.index_in_file, advice=said("closer"))
    if reg.px_per_mm < k.WARN_PX_PER_MM:
        warnings.append(said("low_dpi", where=label, dpi=round(reg.px_per_mm * 25.4)))
    if reg.fit_error_mm > k.MAX_FIT_ERROR_MM:
        raise PoorQuality(said("folded", off=f"{reg.fit_error_mm:.1f}"), reg.source,
                          reg.index_in_file, advice=said("flatten"))
    if reg.fit_error_mm > k.WARN_FIT_ERROR_MM:
        warnings.append(said("loose_fit", where=label, fit=f"{reg.fit_error_mm:.2f}"))
    if reg.method == "outline":
        warnings.append(said("marker_covered", where=label))
    sharp = _sharpness(reg, frame)
    if sharp < k.BLUR_MIN_SHARPNESS:
        raise PoorQuality(said("blurred", page=reg.page_index + 1, sharpness=f"{sharp:.2f}"),
                          reg.source, reg.index_in_file, advice=said("hold_still"))
    if sharp < k.BLUR_WARN_SHARPNESS:
        warnings.append(said("slightly_blurred", where=label))
    glare = _glare(reg)
    if glare:
        warnings.append(glare)
    for text in warnings:
        log.warning("%s", text)
    return replace(reg, sharpness=sharp, warnings=tuple(warnings))
