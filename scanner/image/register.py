"""Stage 2, register: map page millimetres to image pixels from the page's ArUco markers.

The colour image is halved (2x2 box filter) until its longer side is at most
:data:`~scanner.constants.DETECT_MAX_SIDE_PX`; the halvings are kept
(:attr:`RegisteredPage.halvings`) for whatever later wants the page coarse. The markers
(:mod:`scanner.image.markers`) tell the page index and its rotation, so pages may come in any
order and any way up, and all their corners fit one homography (:mod:`scanner.image.homography`;
a phone's lens is composed into every warp of the page, :mod:`scanner.image.lens`). With
fewer than three markers the paper's outline stands in, oriented by the marker(s) still
visible. Fit error, resolution, blur and glare are checked by :mod:`scanner.image.quality`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from scanner import constants as k
from scanner.arrays import Doubles, Floats, GreyImage, Image
from scanner.errors import NoSheetFound
from scanner.image.homography import (
    fit_frames,
    local_px_per_mm,
    page_frames,
    without_lens,
)
from scanner.image.lens import Lens, grid_nodes, remap_on_grid
from scanner.image.load import PageImage
from scanner.image.markers import find_markers
from scanner.image.pixels import halvings
from scanner.image.quality import check_quality
from scanner.words import said

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RegisteredPage:
    """A page image with its mapping from page millimetres to image pixels."""

    source: Path
    index_in_file: int
    page_index: int
    """The sheet's page, from the marker ids (0 = the triangle)."""
    page_w_mm: float
    page_h_mm: float
    homography: Doubles = field(compare=False, repr=False)
    """3x3, page mm (x right, y down) to image px."""
    px_per_mm: float
    fit_error_px: float
    fit_error_mm: float
    markers_found: tuple[int, ...]
    method: str
    """``markers`` or ``outline``."""
    sharpness: float
    warnings: tuple[str, ...]
    image: Image = field(compare=False, repr=False)
    timings_s: dict[str, float] = field(compare=False, default_factory=dict)
    halvings: tuple[Image, ...] = field(compare=False, repr=False, default=())
    """The image halved once, twice, ... (2x2 box filter): ``halvings[i]`` has pixel
    ``(x, y)`` centred at full-resolution ``((x + 0.5) * 2 ** (i + 1) - 0.5, ...)``."""
    affine: Doubles | None = field(compare=False, repr=False, default=None)
    """3x3, the affine map (last row 0 0 1) closest to :attr:`homography` over the page,
    when it is nowhere more than :data:`AFFINE_MAX_ERROR_PX` image pixels off and there is
    no :attr:`lens` (a flat scan); None for a view in perspective (a photo)."""
    lens: Lens | None = field(compare=False, repr=False, default=None)
    """The lens the page is seen through (:mod:`scanner.image.lens`): :attr:`homography`
    maps to the undistorted frame, the lens from there to :attr:`image`; None when the
    homography alone maps to :attr:`image`."""
    corners: dict[int, Floats] = field(compare=False, repr=False, default_factory=dict)
    """The corners (4 x 2 image px) of each marker found, by ArUco id: what the page is
    registered on (:func:`register_on_paper`)."""

    @property
    def barrel(self) -> float:
        """The lens distortion of the view; 0 when none is taken out."""
        return 0.0 if self.lens is None else self.lens.barrel

    def coarse(self, px_per_mm: float) -> tuple[Image, float]:
        """The smallest of the image and its halvings with at least ``px_per_mm`` here, and
        its scale to the full image (1, 1/2, 1/4, ...)."""
        image, scale = self.image, 1.0
        for half in self.halvings:
            if self.px_per_mm * scale / 2 < px_per_mm:
                break
            image, scale = half, scale / 2
        return image, scale

    def warp_coarse(self, x_mm: float, y_mm: float, w_mm: float, h_mm: float,
                    px_per_mm: float, min_px_per_mm: float,
                    channel: Callable[[Image], GreyImage] | None = None) -> Image:
        """:meth:`warp` from the smallest halving with at least ``min_px_per_mm`` (a coarse
        picture of the page for people, smooth, at a fraction of the full warp's cost); with
        ``channel`` (:func:`scanner.image.pixels.content_channel`,
        :func:`scanner.image.pixels.to_gray`),
        of that one channel of the halving, made before the warp: the same levels as the
        colour warp's channel, a quarter to a third cheaper."""
        image, scale = self.coarse(min_px_per_mm)
        if channel is not None:
            image = channel(image)
        if scale == 1.0:
            return self.warp(x_mm, y_mm, w_mm, h_mm, px_per_mm, image)
        # pixel centres: x_half = (x + 0.5) * scale - 0.5
        to_half = np.array([[scale, 0, 0.5 * scale - 0.5], [0, scale, 0.5 * scale - 0.5],
                            [0, 0, 1]])
        return self.rebased(to_half, image).warp(x_mm, y_mm, w_mm, h_mm, px_per_mm)

    def rebased(self, to_image: Doubles, image: Image) -> RegisteredPage:
        """The page registered on ``image``, whose pixels are this image's mapped by the 3x3
        affine ``to_image`` (a halving's scale, a crop's shift): its lens, else its
        homography and affine map, composed with it."""
        if self.lens is not None:
            return replace(self, image=image, lens=self.lens.rebased(to_image))
        return replace(self, homography=to_image @ self.homography, image=image,
                       affine=None if self.affine is None else to_image @ self.affine)

    def interpolation(self, px_per_mm: float) -> int:
        """The OpenCV interpolation a warp to ``px_per_mm`` takes: bicubic when it enlarges
        the page (a coarse photo: linear blurs its thin strokes between the pixels), bilinear
        when it does not."""
        return cv2.INTER_CUBIC if px_per_mm > self.px_per_mm else cv2.INTER_LINEAR

    @property
    def label(self) -> str:
        """``file, page N`` for messages."""
        return said("file_page", file=str(self.source), page=self.index_in_file + 1)

    def warp(self, x_mm: float, y_mm: float, w_mm: float, h_mm: float,
             px_per_mm: float, image: Image | None = None) -> Image:
        """Return the page rectangle upright at ``px_per_mm`` (of ``image``, by default the page).

        Pixel ``(i, j)`` of the result is centred at ``(x_mm + (j + 0.5) / px_per_mm, ...)``.
        A flat view (a scan, :attr:`affine`) is warped as an affine map, a third cheaper than
        a perspective one; a view through a :attr:`lens` is remapped, the homography and the
        lens in one map.
        """
        src = self.image if image is None else image
        if self.lens is not None:
            return self._through_lens([(x_mm, y_mm, w_mm, h_mm)], px_per_mm, src)[0]
        s = 1.0 / px_per_mm
        to_mm = np.array([[s, 0, x_mm + s / 2], [0, s, y_mm + s / 2], [0, 0, 1]])
        size = _pixels(w_mm, h_mm, px_per_mm)
        flags = self.interpolation(px_per_mm) | cv2.WARP_INVERSE_MAP
        if self.affine is not None:
            return cast(Image, cv2.warpAffine(src, (self.affine @ to_mm)[:2], size, flags=flags,
                                              borderMode=cv2.BORDER_REPLICATE))
        return cast(Image, cv2.warpPerspective(src, self.homography @ to_mm, size, flags=flags,
                                               borderMode=cv2.BORDER_REPLICATE))

    def warp_many(self, rects: Sequence[tuple[float, float, float, float]],
                  px_per_mm: float) -> list[Image]:
        """:meth:`warp` of each rectangle ``(x_mm, y_mm, w_mm, h_mm)``.

        In a view in perspective (a photo) a rectangle is warped as the affine map closest
        to the homography over it (least squares on a 3x3 grid of its pixels) when that map
        is nowhere on the grid more than :data:`AFFINE_MAX_ERROR_PX` image pixels off: the
        perspective bends a whole page, hardly a block of it, and an affine warp costs half.
        Through a lens the affine map is fitted to where the lens puts the grid; the
        rectangles it does not fit are remapped together (:meth:`_through_lens`).
        """
        if self.affine is not None or not rects:
            return [self.warp(*rect, px_per_mm) for rect in rects]
        s = 1.0 / px_per_mm
        sizes = [_pixels(w, h, px_per_mm) for _, _, w, h in rects]
        to_mm = np.zeros((len(rects), 3, 3))
        to_mm[:, 0, 0] = to_mm[:, 1, 1] = s
        to_mm[:, :2, 2] = np.array([(x + s / 2, y + s / 2) for x, y, _, _ in rects])
        to_mm[:, 2, 2] = 1.0
        maps = self.homography @ to_mm  # output pixel -> image pixel, one per rectangle
        # the 3x3 grid of each rectangle's pixels, in shares of its size (u, v, 1)
        u, v = np.meshgrid([0.0, 0.5, 1.0], [0.0, 0.5, 1.0])
        unit = np.stack([u.ravel(), v.ravel(), np.ones(9)], axis=1)
        spans = np.array([(max(w - 1, 1), max(h - 1, 1)) for w, h in sizes], np.float64)
        grid = unit[None, :, :] * np.concatenate([spans, np.ones((len(rects), 1))], axis=1
                                                 )[:, None, :]
        mapped = grid @ maps.transpose(0, 2, 1)
        mapped = mapped[..., :2] / mapped[..., 2:]
        if self.lens is not None:
            mapped = self.lens.seen(mapped.reshape(-1, 2)).reshape(mapped.shape)
        fit = np.linalg.pinv(unit) @ mapped  # the affine map in shares of the size, 3x2
        error = np.abs(unit @ fit - mapped).max(axis=(1, 2))
        affines = fit.transpose(0, 2, 1) / np.concatenate([spans, np.ones((len(rects), 1))],
                                                          axis=1)[:, None, :]
        flags = self.interpolation(px_per_mm) | cv2.WARP_INVERSE_MAP
        bent = [i for i, err in enumerate(error.tolist()) if err > k.AFFINE_MAX_ERROR_PX]
        warped: dict[int, Image] = {}
        if self.lens is not None:  # through the lens, all together
            warped = dict(zip(bent, self._through_lens([rects[i] for i in bent], px_per_mm,
                                                       self.image), strict=True))
        for i, size in enumerate(sizes):
            if i in warped:
                continue
            if i in bent:
                warped[i] = cast(Image, cv2.warpPerspective(
                    self.image, maps[i], size, flags=flags, borderMode=cv2.BORDER_REPLICATE))
            else:
                warped[i] = cast(Image, cv2.warpAffine(
                    self.image, affines[i], size, flags=flags, borderMode=cv2.BORDER_REPLICATE))
        return [warped[i] for i in range(len(rects))]

    def _through_lens(self, rects: Sequence[tuple[float, float, float, float]],
                      px_per_mm: float, src: Image) -> list[Image]:
        """:meth:`warp` of each rectangle ``(x_mm, y_mm, w_mm, h_mm)`` of ``src`` through
        the lens, the homography and the lens in one map: where all their grid nodes
        (:func:`~scanner.image.lens.grid_nodes`) are seen is worked out at once."""
        s = 1.0 / px_per_mm
        sizes, shapes, nodes = [], [], []
        for x, y, w, h in rects:
            size = _pixels(w, h, px_per_mm)
            gx, gy = grid_nodes(*size)
            sizes.append(size)
            shapes.append((len(gy), len(gx), 2))
            nodes.append(np.stack(np.meshgrid(x + (gx + 0.5) * s, y + (gy + 0.5) * s),
                                  axis=-1).reshape(-1, 2))
        if not rects:
            return []
        seen = np.split(self.to_image(np.concatenate(nodes)),
                        np.cumsum([len(n) for n in nodes])[:-1])
        interpolation = self.interpolation(px_per_mm)
        return [remap_on_grid(src, where.reshape(shape), size, interpolation)
                for where, shape, size in zip(seen, shapes, sizes, strict=True)]

    def to_image(self, points_mm: npt.ArrayLike) -> Doubles:
        """Map (n, 2) page millimetres to image pixels (through the lens when there is one)."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        frame = cast(Doubles, cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2))
        return frame if self.lens is None else self.lens.seen(frame)

    def to_mm(self, points_px: npt.ArrayLike) -> Doubles:
        """Map (n, 2) image pixels to page millimetres (:meth:`to_image` inverted)."""
        pts = np.asarray(points_px, np.float64).reshape(-1, 2)
        frame = pts if self.lens is None else self.lens.straight(pts)
        return cast(Doubles, cv2.perspectiveTransform(
            frame.reshape(-1, 1, 2), np.linalg.inv(self.homography)).reshape(-1, 2))


def _pixels(w_mm: float, h_mm: float, px_per_mm: float) -> tuple[int, int]:
    """The size (width, height) in pixels of a warp of ``w_mm`` x ``h_mm`` at
    ``px_per_mm``, at least one pixel each way."""
    return max(1, round(w_mm * px_per_mm)), max(1, round(h_mm * px_per_mm))


def flat_affine(h: Doubles, w_mm: float, h_mm: float,
                max_error_px: float = k.AFFINE_MAX_ERROR_PX) -> Doubles | None:
    """The affine map (3x3, last row 0 0 1) closest to the homography ``h`` (page mm to
    image px) over a ``w_mm`` x ``h_mm`` page, fitted and checked on a 5x5 grid of it; None
    when some point is off by more than ``max_error_px`` image pixels."""
    u, v = np.meshgrid(np.linspace(0, w_mm, 5), np.linspace(0, h_mm, 5))
    points = np.stack([u.ravel(), v.ravel(), np.ones(u.size)], axis=1)
    mapped = points @ h.T
    mapped = mapped[:, :2] / mapped[:, 2:]
    fit, *_ = np.linalg.lstsq(points, mapped, rcond=None)
    if np.abs(points @ fit - mapped).max() > max_error_px:
        return None
    return np.vstack([fit.T, [0.0, 0.0, 1.0]])


def register(page: PageImage, paper: tuple[float, float] | None = None) -> RegisteredPage:
    """Register one page image; raises NoSheetFound or PoorQuality naming the file and page.

    The page size whose markers fit best is taken, or ``paper`` (width, height in mm) when
    given: the size the sheet's identity says (on a far photo the markers' corners are too
    coarse to tell A4 from Letter)."""
    t0 = time.perf_counter()
    levels = halvings(page.image)
    found, page_index = find_markers(page.image, levels)
    t_detect = time.perf_counter() - t0
    if not found:
        raise NoSheetFound(said("no_markers"), page.source, page.index_in_file)
    pages = sorted({i // 4 for i in found})
    if len(pages) > 1:
        log.warning("%s: markers of pages %s; reading page %d", page.label,
                    ", ".join(str(p + 1) for p in pages), page_index + 1)
        found = {i: c for i, c in found.items() if i // 4 == page_index}
    reg = _fitted(page, found, page_index, tuple(levels), paper)
    reg.timings_s.update(detect=t_detect, register=time.perf_counter() - t0)
    return reg


def register_on_paper(page: RegisteredPage, paper: tuple[float, float]) -> RegisteredPage:
    """The page registered again on ``paper`` (width, height in mm) from the marker corners
    found the first time (:attr:`RegisteredPage.corners`): the image is not searched again."""
    t0 = time.perf_counter()
    reg = _fitted(PageImage(page.source, page.index_in_file, page.image), page.corners,
                  page.page_index, page.halvings, paper)
    reg.timings_s.update(detect=0.0, register=time.perf_counter() - t0)
    return reg


def _fitted(page: PageImage, found: dict[int, Floats], page_index: int,
            levels: tuple[Image, ...], paper: tuple[float, float] | None) -> RegisteredPage:
    """The page whose markers ``found`` (image px, by id) are those of ``page_index``,
    registered on the page size that fits them best (or ``paper``), its lens taken into its
    map and its quality checked."""
    frames = tuple(f for f in page_frames(page_index) if paper in (None, f[:2]))
    if not frames:
        raise NoSheetFound(said("unknown_page", page=page_index + 1), page.source,
                           page.index_in_file)
    small, small_scale = (levels[-1], 0.5 ** len(levels)) if levels else (page.image, 1.0)
    hom, err_px, frame, method = fit_frames(found, frames, (small, small_scale), page.label)
    lens = None
    if method == "markers":
        lens, hom, err_px = without_lens(page.image.shape, found, frame, hom, err_px)
    w, h = frame[0], frame[1]
    ppm = local_px_per_mm(hom, w / 2, h / 2)
    reg = RegisteredPage(page.source, page.index_in_file, page_index, w, h, hom, ppm, err_px,
                         err_px / ppm, tuple(sorted(found)), method, 0.0, (), page.image,
                         halvings=levels,
                         affine=flat_affine(hom, w, h) if lens is None else None, lens=lens,
                         corners=found)
    return check_quality(reg, frame)
