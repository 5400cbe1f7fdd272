"""A phone lens's barrel distortion, measured on the page's markers and composed into its warps.

The model is the one-term radial one about the frame's centre: a point seen at ``d`` lies,
undistorted, at ``c + (d - c) * (1 + b * |d - c|^2 / R^2)`` (``c`` the centre, ``R`` the
half-diagonal). Its ``b`` is the one whose undistorted marker corners fit one homography best
(a search over :data:`~scanner.constants.LENS_BARREL_RANGE`). A homography from four corner
markers alone puts the middle of a distorted page's boxes a millimetre or more off; with ``b``
composed into each warp's map (:class:`Lens`, :func:`remap_on_grid`), the boxes lie where the
layout says, resampled once from the image as it was taken.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
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


@dataclass(frozen=True)
class Lens:
    """A view's lens: a point at ``p`` of the undistorted frame of ``shape`` (pixels) is seen
    at pixel ``to_image @ distort(p)`` of the image warped from (``to_image``, 3x3 affine: a
    halving's scale, a crop's shift; the identity on the full frame). The image itself is
    never resampled to take the lens out: each warp composes it into its one map."""

    barrel: float
    shape: tuple[int, int]
    to_image: Doubles = field(default_factory=lambda: np.eye(3), compare=False, repr=False)

    def seen(self, points: Doubles) -> Doubles:
        """Where the (n, 2) points of the undistorted frame are seen in the image."""
        bent = distort_points(points, self.barrel, self.shape)
        return bent @ self.to_image[:2, :2].T + self.to_image[:2, 2]

    def straight(self, points: Doubles) -> Doubles:
        """Where the (n, 2) image points lie in the undistorted frame (:meth:`seen`
        inverted)."""
        inverse = np.linalg.inv(self.to_image)
        frame = points @ inverse[:2, :2].T + inverse[:2, 2]
        return undistort_points(cast(Doubles, frame), self.barrel, self.shape)

    def rebased(self, to_image: Doubles) -> Lens:
        """The lens seen in an image whose pixels are this one's mapped by ``to_image``."""
        return replace(self, to_image=to_image @ self.to_image)


def grid_nodes(width: int, height: int) -> tuple[Doubles, Doubles]:
    """The columns and rows (output pixels) of the nodes a ``width`` x ``height`` warp's map
    is solved on (:func:`remap_on_grid`): every :data:`~scanner.constants.LENS_MAP_STEP_PX`,
    node i at pixel ``(i - 1) * step + (step - 1) / 2`` (a resize by ``step`` puts it exactly
    there), with a node before and after the output (that keeps the resize's own edge, where
    it repeats its last node, out of it)."""
    step = k.LENS_MAP_STEP_PX
    gx = (np.arange(-(-width // step) + 2, dtype=np.float64) - 1) * step + (step - 1) / 2
    gy = (np.arange(-(-height // step) + 2, dtype=np.float64) - 1) * step + (step - 1) / 2
    return gx, gy


def remap_on_grid(image: Image, seen: Doubles, size: tuple[int, int],
                  interpolation: int) -> Image:
    """The ``size`` (width, height) image whose grid nodes (:func:`grid_nodes`) are seen at
    the pixels ``seen`` (rows x columns x 2) of ``image``, the pixels between interpolated
    (the distortion and the perspective bend less than 0.01 px over a step), resampled once
    with the OpenCV ``interpolation``; what falls outside ``image`` repeats its edge."""
    step = k.LENS_MAP_STEP_PX
    width, height = size
    rows, cols = seen.shape[:2]
    big = cv2.resize(seen.astype(np.float32), (cols * step, rows * step),
                     interpolation=cv2.INTER_LINEAR)[step:step + height, step:step + width]
    no_second_map: npt.NDArray[np.float32] = np.empty((0, 0), np.float32)  # map1 holds x, y
    return cast(Image, cv2.remap(image, big, no_second_map, interpolation,
                                 borderMode=cv2.BORDER_REPLICATE))


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
