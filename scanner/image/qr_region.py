"""The QR code read in its known region of a registered page: zxing-cpp on the region warped
upright, the modules sampled on the layout's grid, and on a grid fitted to the code's own
patterns (:mod:`scanner.image.qr_fit`).
"""

from __future__ import annotations

from typing import cast

import cv2
import numpy as np
import zxingcpp

from forms.model import Region
from forms.render.sheet import QR_QUIET_MODULES
from scanner import constants as k
from scanner.arrays import Floats, GreyImage, Mask
from scanner.image.pixels import content_channel
from scanner.image.qr_fit import (
    FIT_MARGIN_MM,
    FIT_PX_PER_MM,
    QR_FORMAT,
    read_fitted,
    text_of_modules,
    utf8_text,
)
from scanner.image.register import RegisteredPage

QR_GRID_MAX_SIDE_MISMATCH = 0.1
"""The ink of a code's region spans as many rows as columns (within 1 % on the sample
sheets); past this share apart it is not a whole code (the other candidate region of a page
holds a code cut off, 27 % or 14 % apart): the region is given up before any module is read."""
WARP_CROP_PAD_PX = 2
"""Image pixels kept around a region's corners when only they are warped: a linear
interpolation reads one pixel beyond its point, and a pixel centre lies half one inside."""


def read_qr(gray: GreyImage) -> str | None:
    """The text of the QR code zxing-cpp finds in a grey image (its bytes as UTF-8), or
    None."""
    return utf8_text(zxingcpp.read_barcodes(gray, formats=QR_FORMAT))


def likely_versions(gray: GreyImage, region: Region) -> tuple[int, ...]:
    """The versions a code in ``gray`` (``region`` warped upright at
    :data:`~scanner.constants.QR_GRID_PX_PER_MM`, the code and its quiet zone of
    :data:`forms.render.sheet.QR_QUIET_MODULES`) likely has, the likeliest first, from the
    extent of its ink; none when the ink is not square (:data:`QR_GRID_MAX_SIDE_MISMATCH`),
    so not a whole code."""
    scale = k.QR_GRID_PX_PER_MM
    _, binary = cv2.threshold(cv2.blur(gray, (3, 3)), 0, 255,
                              cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    rows = np.flatnonzero(binary.mean(axis=1) > 255 * k.QR_GRID_MIN_INK_FRACTION)
    cols = np.flatnonzero(binary.mean(axis=0) > 255 * k.QR_GRID_MIN_INK_FRACTION)
    if len(rows) < 2 or len(cols) < 2:
        return ()
    height, width = rows[-1] - rows[0] + 1, cols[-1] - cols[0] + 1
    if abs(height - width) > QR_GRID_MAX_SIDE_MISMATCH * max(height, width):
        return ()  # not a square code: the other region of the page (a cut-off code)
    side_mm = (height + width) / 2 / scale
    if side_mm >= region.w_mm:
        return ()
    # side = w * n / (n + 2 quiet) for n = 17 + 4 version modules
    modules = 2 * QR_QUIET_MODULES * side_mm / (region.w_mm - side_mm)
    estimate = round((modules - 17) / 4)
    return tuple(v for v in (estimate, estimate - 1, estimate + 1) if 1 <= v <= 40)


def read_qr_grid(gray: GreyImage, region: Region) -> str | None:
    """The QR text read module by module where the layout puts the code, or None.

    ``gray`` is the region warped upright at :data:`QR_GRID_PX_PER_MM`. Its likely
    versions come from the extent of its ink (:func:`likely_versions`). A version is
    taken when its timing patterns (row and column 6) read as they must. A module is dark
    when its centre is darker than the mean of the :data:`QR_GRID_LOCAL_MODULES` square of
    modules around it (a photo's light falls unevenly); zxing-cpp decodes the modules drawn
    clean (:func:`scanner.image.qr_fit.text_of_modules`), else the same from the region
    unsharp-masked (a blurred photo).
    """
    scale = k.QR_GRID_PX_PER_MM
    for version in likely_versions(gray, region):
        n = 17 + 4 * version
        step_px = region.w_mm / (n + 2 * QR_QUIET_MODULES) * scale
        centres = ((np.arange(n) + QR_QUIET_MODULES + 0.5) * step_px - 0.5).astype(np.float32)
        map_x, map_y = np.meshgrid(centres, centres)
        dark = _dark_modules(cast(GreyImage, cv2.remap(gray, map_x, map_y, cv2.INTER_LINEAR)))
        timing = np.arange(8, n - 8)
        wrong = np.count_nonzero(dark[6, timing] != (timing % 2 == 0)) + \
            np.count_nonzero(dark[timing, 6] != (timing % 2 == 0))
        if wrong > k.QR_GRID_MAX_TIMING_ERRORS_FRACTION * 2 * len(timing):
            continue
        text = text_of_modules(dark)
        if text is None:
            sharp = cv2.addWeighted(gray, 1 + k.QR_SHARPEN_AMOUNT,
                                    cv2.GaussianBlur(gray, (0, 0), k.QR_SHARPEN_SIGMA_PX),
                                    -k.QR_SHARPEN_AMOUNT, 0)
            text = text_of_modules(_dark_modules(cast(GreyImage, cv2.remap(
                sharp, map_x, map_y, cv2.INTER_LINEAR))))
        return text
    return None


def read_fitted_region(page: RegisteredPage, region: Region, versions: tuple[int, ...]
                 ) -> str | None:
    """The QR text read on a grid fitted to the code's own patterns
    (:func:`scanner.image.qr_fit.read_fitted`), or None."""
    return read_fitted(warp_fit(page, region), region, versions) if versions else None


def warp_fit(page: RegisteredPage, region: Region) -> GreyImage:
    """``region`` and :data:`~scanner.image.qr_fit.FIT_MARGIN_MM` around it, warped as
    :func:`scanner.image.qr_fit.fit_grid` wants it."""
    m = FIT_MARGIN_MM
    return warp_red(page, Region(region.page, region.x_mm - m, region.y_mm - m,
                                  region.w_mm + 2 * m, region.h_mm + 2 * m), FIT_PX_PER_MM)


def warp_red(page: RegisteredPage, region: Region, scale: float) -> GreyImage:
    """The red channel (:func:`content_channel`) of ``region`` warped upright at ``scale``:
    the same pixels as the colour warp's red channel, warped from the red channel of only the
    image pixels the region covers (and :data:`WARP_CROP_PAD_PX` around), a third of the
    cost of warping all three channels."""
    image = page.image
    x, y, w, h = region.x_mm, region.y_mm, region.w_mm, region.h_mm
    corners = np.array([[x, y, 1], [x + w, y, 1], [x, y + h, 1], [x + w, y + h, 1]],
                       np.float64)
    if page.affine is None:
        corners = page.to_image(corners[:, :2])
    else:
        corners = (corners @ page.affine.T)[:, :2]
    pad = WARP_CROP_PAD_PX
    x0, y0 = (max(int(np.floor(v)) - pad, 0) for v in corners.min(axis=0))
    x1 = min(int(np.ceil(corners[:, 0].max())) + pad + 1, image.shape[1])
    y1 = min(int(np.ceil(corners[:, 1].max())) + pad + 1, image.shape[0])
    if x1 <= x0 or y1 <= y0:  # the region lies off the image: warp it all (the border)
        return content_channel(page.warp(x, y, w, h, scale))
    shift = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]])
    return page.rebased(shift, content_channel(image[y0:y1, x0:x1])).warp(x, y, w, h, scale)


def _dark_modules(values: GreyImage | Floats) -> Mask:
    """Modules darker than the mean of the modules around them (True = dark)."""
    values = values.astype(np.float32)
    side = k.QR_GRID_LOCAL_MODULES
    return values < cast(Floats, cv2.blur(values, (side, side), borderType=cv2.BORDER_REFLECT))
