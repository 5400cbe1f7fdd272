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
                    region: tuple[int, int, int, int] | None = None) -> Image:
    """``image`` with the distortion ``barrel`` taken out (the same size; what falls outside
    the frame repeats its edge), resampled with the OpenCV ``interpolation``; with ``region``
    (``x0, y0, x1, y1`` pixels of the result), only there, the rest left as it is seen. The
    source of each pixel is solved on a grid of :data:`~scanner.constants.LENS_MAP_STEP_PX`
    and interpolated between: a region gets the same pixels as the whole frame does."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = (0, 0, w, h) if region is None else region
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
    out = np.empty_like(image)
    out[:y0], out[y1:], out[y0:y1, :x0], out[y0:y1, x1:] = \
        image[:y0], image[y1:], image[y0:y1, :x0], image[y0:y1, x1:]
    cv2.remap(image, big, no_second_map, interpolation, dst=out[y0:y1, x0:x1],
              borderMode=cv2.BORDER_REPLICATE)
    return out


def page_region(homography: Doubles, page_mm: tuple[float, float], margin_mm: float,
                shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The pixel box (``x0, y0, x1, y1``, within a frame of ``shape``) that holds a page of
    ``page_mm`` and ``margin_mm`` around it, placed by ``homography`` (page mm to px)."""
    w, h = page_mm
    corners = np.array([[-margin_mm, -margin_mm], [w + margin_mm, -margin_mm],
                        [w + margin_mm, h + margin_mm], [-margin_mm, h + margin_mm]])
    px = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), homography).reshape(-1, 2)
    x0, y0 = np.floor(px.min(axis=0)).astype(int).tolist()
    x1, y1 = np.ceil(px.max(axis=0)).astype(int).tolist()
    return (min(max(x0, 0), shape[1] - 1), min(max(y0, 0), shape[0] - 1),
            max(min(x1 + 1, shape[1]), 1), max(min(y1 + 1, shape[0]), 1))


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
