"""A phone lens's barrel distortion, measured on the page's markers and taken out of the image.

The model is the one-term radial one about the frame's centre: a point seen at ``d`` lies,
undistorted, at ``c + (d - c) * (1 + b * |d - c|^2 / R^2)`` (``c`` the centre, ``R`` the
half-diagonal). Its ``b`` is the one whose undistorted marker corners fit one homography best
(a search over :data:`~scanner.constants.LENS_BARREL_RANGE`). A homography from four corner
markers alone puts the middle of a distorted page's boxes a millimetre or more off; with ``b``
taken out, the boxes lie where the layout says.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from scanner import constants as k
from scanner.arrays import Doubles, Image


def _centre(shape: tuple[int, ...]) -> tuple[Doubles, float]:
    """The frame's centre (pixel coordinates) and its squared half-diagonal."""
    h, w = shape[0], shape[1]
    centre = np.array([(w - 1) / 2, (h - 1) / 2], np.float64)
    return centre, float(centre @ centre)


def undistort_points(points: Doubles, barrel: float, shape: tuple[int, ...]) -> Doubles:
    """Where the (n, 2) image points of a frame of ``shape`` lie without the distortion."""
    centre, r2max = _centre(shape)
    off = points - centre
    return cast(Doubles, centre + off * (1 + barrel * np.sum(off ** 2, axis=1,
                                                                 keepdims=True) / r2max))


def distort_points(points: Doubles, barrel: float, shape: tuple[int, ...]) -> Doubles:
    """Where the (n, 2) points of the undistorted frame of ``shape`` are seen with the
    distortion (:func:`undistort_points` inverted, solved in :data:`LENS_SOLVE_ROUNDS`)."""
    centre, r2max = _centre(shape)
    off = points - centre
    seen = off.copy()
    for _ in range(k.LENS_SOLVE_ROUNDS):  # seen * (1 + b |seen|^2 / R^2) = off
        seen = off / (1 + barrel * np.sum(seen ** 2, axis=1, keepdims=True) / r2max)
    return seen + centre


def estimate_barrel(fit: Callable[[Doubles], float], points: Doubles,
                    shape: tuple[int, ...]) -> tuple[float, float]:
    """The distortion ``b`` and its fit error: ``fit`` gives the error of the homography
    through ``points`` (image px, a frame of ``shape``) undistorted by a trial ``b``."""
    lo, hi = k.LENS_BARREL_RANGE
    step = k.LENS_BARREL_STEP
    best = min((fit(undistort_points(points, b, shape)), b)
               for b in np.arange(lo, hi + step / 2, step).tolist())
    for _ in range(k.LENS_REFINE_ROUNDS):  # halve the step around the best
        step /= 2
        best = min([best] + [(fit(undistort_points(points, b, shape)), b)
                             for b in (best[1] - step, best[1] + step)])
    return best[1], best[0]


def undistort_image(image: Image, barrel: float, interpolation: int = cv2.INTER_LINEAR,
                    outline: Doubles | None = None) -> Image:
    """``image`` with the distortion ``barrel`` taken out (the same size; what falls outside
    the frame repeats its edge), resampled with the OpenCV ``interpolation``; with
    ``outline`` (a convex polygon, px of the result: :func:`page_outline`), only within it,
    band by band of :data:`~scanner.constants.LENS_BAND_PX` rows, the rest left as it is
    seen. Every pixel taken out is the one the whole frame's undistortion gives."""
    h, w = image.shape[:2]
    if outline is None:
        return _remapped(image, barrel, interpolation, (0, 0, w, h))
    x0, y0, x1, y1 = _box(outline, shape=(h, w))
    out = image.copy()
    for top in range(y0, y1, k.LENS_BAND_PX):
        bottom = min(top + k.LENS_BAND_PX, y1)
        left, right = _box(_clip_rows(outline, top - 1.0, float(bottom)), shape=(h, w))[::2]
        if right > left:
            out[top:bottom, left:right] = _remapped(image, barrel, interpolation,
                                                    (left, top, right, bottom))
    return out


def _remapped(image: Image, barrel: float, interpolation: int,
              region: tuple[int, int, int, int]) -> Image:
    """The pixels ``x0, y0, x1, y1`` of ``image`` undistorted, their source solved on a grid
    of :data:`~scanner.constants.LENS_MAP_STEP_PX` and interpolated between, the same for
    any region."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = region
    step = k.LENS_MAP_STEP_PX
    # node i of a row lies at pixel (i - 1) * step + (step - 1) / 2: a resize by ``step``
    # puts it exactly there; a node before and after the region's and one more on each
    # side keep the resize's own edge (it repeats its last node) out of the region
    first_x, first_y = x0 // step, y0 // step
    gx = (np.arange(first_x, min(-(-w // step) + 2, (x1 - 1) // step + 3)) - 1) * step \
        + (step - 1) / 2
    gy = (np.arange(first_y, min(-(-h // step) + 2, (y1 - 1) // step + 3)) - 1) * step \
        + (step - 1) / 2
    u = np.stack(np.meshgrid(gx, gy), axis=-1).reshape(-1, 2)
    seen = distort_points(u, barrel, image.shape)
    grid = seen.reshape(len(gy), len(gx), 2).astype(np.float32)
    left, top = x0 - first_x * step + step, y0 - first_y * step + step
    big = cv2.resize(grid, (len(gx) * step, len(gy) * step), interpolation=cv2.INTER_LINEAR
                     )[top:top + y1 - y0, left:left + x1 - x0]
    no_second_map: npt.NDArray[np.float32] = np.empty((0, 0), np.float32)  # map1 holds x, y
    return cast(Image, cv2.remap(image, big, no_second_map, interpolation,
                                 borderMode=cv2.BORDER_REPLICATE))


def page_outline(homography: Doubles, page_mm: tuple[float, float], margin_mm: float
                 ) -> Doubles:
    """The corners (4 x 2 px) of a page of ``page_mm`` and ``margin_mm`` around it, placed
    by ``homography`` (page mm to px)."""
    w, h = page_mm
    corners = np.array([[-margin_mm, -margin_mm], [w + margin_mm, -margin_mm],
                        [w + margin_mm, h + margin_mm], [-margin_mm, h + margin_mm]])
    return cast(Doubles, cv2.perspectiveTransform(corners.reshape(-1, 1, 2), homography
                                                  ).reshape(-1, 2))


def _clip_rows(polygon: Doubles, lo: float, hi: float) -> Doubles:
    """The points that bound a convex ``polygon`` between the rows ``lo`` and ``hi``: its
    corners there and where its edges cross them."""
    ends = np.roll(polygon, -1, axis=0)
    points = [polygon[(polygon[:, 1] >= lo) & (polygon[:, 1] <= hi)]]
    for y in (lo, hi):
        dy = ends[:, 1] - polygon[:, 1]
        share = np.divide(y - polygon[:, 1], dy, out=np.full(len(dy), -1.0), where=dy != 0)
        crossing = (share >= 0) & (share <= 1)
        points.append(polygon[crossing] + share[crossing, None] * (ends - polygon)[crossing])
    return np.concatenate(points)


def _box(points: Doubles, shape: tuple[int, int]) -> tuple[int, int, int, int]:
    """The pixel box (``x0, y0, x1, y1``, within a frame of ``shape``) that holds ``points``
    (empty when there are none)."""
    if not len(points):
        return 0, 0, 0, 0
    x0, y0 = np.floor(points.min(axis=0)).astype(int).tolist()
    x1, y1 = np.ceil(points.max(axis=0)).astype(int).tolist()
    return (min(max(x0, 0), shape[1]), min(max(y0, 0), shape[0]),
            max(min(x1 + 1, shape[1]), 0), max(min(y1 + 1, shape[0]), 0))


def lens_is_significant(straight_px: float, bent_px: float, points: int) -> bool:
    """Whether the one lens term takes significantly more of the markers' fit error (RMS,
    image px, over ``points`` corners) than their noise would by chance: the F statistic of
    the term (the error it takes, over the error left per remaining degree of freedom: two
    per corner, less the homography's eight and the term) is at least
    :data:`LENS_MIN_F`. Noisy corners of a blurred photo keep a strong lens; a scan's
    corners, their error all noise, keep none.

    >>> lens_is_significant(2.43, 1.67, 16), lens_is_significant(0.12, 0.11, 16)
    (True, False)
    """
    freedom = 2 * points - 9
    if freedom <= 0 or bent_px >= straight_px:
        return False
    return (straight_px ** 2 / max(bent_px, 1e-9) ** 2 - 1.0) * freedom >= k.LENS_MIN_F


def lens_move_px(straight: Doubles, bent: Doubles, barrel: float, page_mm: tuple[float, float],
                 shape: tuple[int, ...]) -> float:
    """How far (image px, the most on a 5 x 5 grid over a page of ``page_mm``) its points seen
    through the lens ``barrel`` and homography ``bent`` lie from where the ``straight``
    homography puts them: what taking the lens out changes."""
    u, v = np.meshgrid(np.linspace(0, page_mm[0], 5), np.linspace(0, page_mm[1], 5))
    points = np.stack([u.ravel(), v.ravel()], axis=1).reshape(-1, 1, 2)
    flat = cv2.perspectiveTransform(points, straight).reshape(-1, 2)
    seen = distort_points(cast(Doubles, cv2.perspectiveTransform(points, bent).reshape(-1, 2)),
                          barrel, shape)
    return float(np.hypot(*(seen - flat).T).max())
