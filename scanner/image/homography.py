"""Stage 2's fits: a page's homography from its markers' corners (or the paper's outline
when markers are hidden), on each page size a layout has, and the lens the markers show.

A corner misplaced by a blot is left out of the fit (:func:`fit_homography`); the size whose
markers fit best is the page's (:func:`fit_frames`); the lens is kept only when it explains
far more of the fit's error than noise would (:func:`without_lens`,
:mod:`scanner.image.lens`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import cast

import cv2
import numpy as np

from forms.layout import PAPERS, build_layout
from forms.model import Marker
from scanner import constants as k
from scanner.arrays import Doubles, Floats, GreyImage, Image
from scanner.errors import NoSheetFound
from scanner.image.lens import (
    Lens,
    estimate_barrel,
    lens_is_significant,
    lens_move_px,
    undistort_points,
)
from scanner.image.pixels import content_channel
from scanner.words import said

Frame = tuple[float, float, tuple[Marker, ...]]
"""A candidate page: width and height in mm and its four markers."""


@lru_cache(maxsize=16)
def page_frames(page_index: int) -> tuple[Frame, ...]:
    """Every page size (and its markers) a known layout has at ``page_index``."""
    frames: dict[tuple[float, float], tuple[Marker, ...]] = {}
    for players in (3, 4):
        for paper in PAPERS:
            layout = build_layout(players, paper)
            if page_index < len(layout.pages):
                page = layout.page_of(page_index)
                markers = tuple(m for m in layout.markers if m.page == page_index)
                frames.setdefault((page.w_mm, page.h_mm), markers)
    return tuple((w, h, m) for (w, h), m in frames.items())


def marker_mm(marker: Marker) -> Doubles:
    """A marker's four corners (mm), clockwise from its top left, as ArUco gives them."""
    x, y, s = marker.x_mm, marker.y_mm, marker.size_mm
    return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float64)


def fit_homography(src_mm: Doubles, dst_px: Doubles) -> tuple[Doubles, float]:
    """The homography of ``src_mm`` onto ``dst_px`` and its RMS error (px), fitted again
    without the points off by more than :data:`CORNER_OUTLIER_FACTOR` times the median
    error and :data:`CORNER_OUTLIER_MIN_PX` (a marker corner misplaced by a blot or a
    printed line beside it) while :data:`CORNER_OUTLIER_MIN_KEPT` are left."""
    found, _ = cv2.findHomography(src_mm, dst_px, 0)
    if found is None:
        return np.eye(3), float("inf")
    h = cast(Doubles, found)
    errors = _errors(h, src_mm, dst_px)
    far = errors > max(k.CORNER_OUTLIER_MIN_PX, k.CORNER_OUTLIER_FACTOR * float(np.median(errors)))
    if far.any() and np.count_nonzero(~far) >= k.CORNER_OUTLIER_MIN_KEPT:
        kept, _ = cv2.findHomography(src_mm[~far], dst_px[~far], 0)
        if kept is not None:
            h = cast(Doubles, kept)
            errors = _errors(h, src_mm[~far], dst_px[~far])
    return h, float(np.sqrt(np.mean(errors ** 2)))


def _errors(h: Doubles, src_mm: Doubles, dst_px: Doubles) -> Doubles:
    """How far (px) each of ``src_mm`` lands from its ``dst_px`` under ``h``."""
    proj = cv2.perspectiveTransform(src_mm.reshape(-1, 1, 2), h).reshape(-1, 2)
    return cast(Doubles, np.hypot(*(proj - dst_px).T))


def local_px_per_mm(h: Doubles, x_mm: float, y_mm: float) -> float:
    """Image pixels per page millimetre at one point (square root of the Jacobian)."""
    p = np.array([[x_mm, y_mm], [x_mm + 1, y_mm], [x_mm, y_mm + 1]], np.float64)
    q = cv2.perspectiveTransform(p.reshape(-1, 1, 2), h).reshape(-1, 2)
    j = np.array([q[1] - q[0], q[2] - q[0]])
    return float(np.sqrt(abs(np.linalg.det(j))))


def _outline(small: Image, scale: float) -> Doubles | None:
    """The paper's four corners in full-resolution px (clockwise from the image top-left)
    or None; ``small`` is the page image at ``scale``."""
    gray = content_channel(small)
    if max(gray.shape) > k.OUTLINE_MAX_SIDE_PX:
        factor = k.OUTLINE_MAX_SIDE_PX / max(gray.shape)
        gray = cast(GreyImage, cv2.resize(gray, None, fx=factor, fy=factor,
                                          interpolation=cv2.INTER_AREA))
        scale *= factor
    _, binary = cv2.threshold(cv2.GaussianBlur(gray, (5, 5), 0), 0, 255,
                              cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    biggest = max(contours, key=cv2.contourArea)
    if cv2.contourArea(biggest) < k.OUTLINE_MIN_AREA_FRACTION * gray.size:
        return None
    quad = cv2.approxPolyDP(biggest, 0.02 * cv2.arcLength(biggest, True), True)
    if len(quad) != 4:
        return None
    pts = quad.reshape(4, 2).astype(np.float64) / scale
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    return pts[np.argsort(angles)]  # clockwise in image coordinates (y down)


def _register_outline(small: Image, scale: float, found: dict[int, Floats],
                      frame: Frame, label: str) -> tuple[Doubles, float]:
    quad = _outline(small, scale)
    if quad is None:
        raise NoSheetFound(said("corners_hidden", n=len(found)), label,
                           advice=said("uncover"))
    w, h, markers = frame
    by_id = {m.aruco_id: m for m in markers}
    corners_mm = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    mk_mm = np.concatenate([marker_mm(by_id[i]) for i in found if i in by_id])
    mk_px = np.concatenate([found[i] for i in found if i in by_id]).astype(np.float64)
    best: tuple[Doubles, float] = (np.eye(3), float("inf"))
    for shift in range(4):
        src = np.concatenate([corners_mm, mk_mm])
        dst = np.concatenate([np.roll(quad, -shift, axis=0), mk_px])
        hom, _ = fit_homography(src, dst)
        proj = cv2.perspectiveTransform(mk_mm.reshape(-1, 1, 2), hom).reshape(-1, 2)
        err = float(np.sqrt(np.mean(np.sum((proj - mk_px) ** 2, axis=1))))
        if err < best[1]:
            best = (hom, err)
    return best


def without_lens(shape: tuple[int, ...], found: dict[int, Floats], frame: Frame,
                  hom: Doubles, err_px: float) -> tuple[Lens | None, Doubles, float]:
    """The lens of a frame of ``shape`` whose markers are ``found``, and the homography (to
    the undistorted frame) and fit error of the markers there; None and the straight fit
    when the distortion explains too little of the straight fit's error or moves no point of
    the page :data:`LENS_MIN_MOVE_PX` from where the straight fit puts it (a scan's corners,
    fitted to a tenth of a pixel, may show a term no lens made; :mod:`scanner.image.lens`)."""
    by_id = {m.aruco_id: m for m in frame[2]}
    ids = [i for i in found if i in by_id]
    src = np.concatenate([marker_mm(by_id[i]) for i in ids])
    dst = np.concatenate([found[i] for i in ids]).astype(np.float64)
    barrel, err = estimate_barrel(lambda points: fit_homography(src, points)[1], dst, shape)
    straight = undistort_points(dst, barrel, shape)
    bent, err = fit_homography(src, straight)
    if not lens_is_significant(err_px, err, len(dst)) or \
            lens_move_px(hom, bent, barrel, frame[:2], shape) <= k.LENS_MIN_MOVE_PX:
        return None, hom, err_px
    return Lens(barrel, (shape[0], shape[1])), bent, err


def fit_frames(found: dict[int, Floats], frames: tuple[Frame, ...],
               small: tuple[Image, float], label: str) -> tuple[Doubles, float, Frame, str]:
    """The homography (page mm to image px) of the frame whose markers fit ``found`` best,
    its RMS error (px), the frame and the method: ``markers`` with at least
    :data:`MIN_MARKERS_FOR_HOMOGRAPHY` markers, else ``outline`` (the paper's outline in the
    coarse image ``small`` at its scale, oriented by the markers seen)."""
    best: tuple[Doubles, float, Frame] | None = None
    method = "markers"
    for frame in frames:
        if len(found) >= k.MIN_MARKERS_FOR_HOMOGRAPHY:
            by_id = {m.aruco_id: m for m in frame[2]}
            ids = [i for i in found if i in by_id]
            src = np.concatenate([marker_mm(by_id[i]) for i in ids])
            dst = np.concatenate([found[i] for i in ids]).astype(np.float64)
            hom, err = fit_homography(src, dst)
        else:
            method = "outline"
            hom, err = _register_outline(*small, found, frame, label)
        if best is None or err < best[1]:
            best = (hom, err, frame)
    assert best is not None
    return best[0], best[1], best[2], method
