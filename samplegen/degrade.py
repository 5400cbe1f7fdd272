"""What a phone camera or a flatbed scanner does to a clean page image.

:func:`photo`: the page lies on a table and is taken at an angle: a perspective warp (random
corner displacement), a rotation by any angle (often a quarter turn or upside down), the page
smaller in a larger picture of the table, shadow and uneven light, blur, sensor noise, JPEG.
:func:`scan`: a small rotation and scale on the scanner bed, noise, JPEG or PNG, sometimes a
black-and-white print-and-scan (a threshold), sometimes a low resolution (150 dpi).

Each returns a :class:`Degraded`: the image, the steps with their parameters (for the truth
file), and ``page_to_image``, the homography from clean page pixels to image pixels. The page's
four ArUco markers stay inside the image: geometric changes only move the page within a canvas
large enough to hold all of it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, cast

import cv2
import numpy as np

from scanner.arrays import Doubles, Floats, Image

# --- photo -------------------------------------------------------------------------------
PHOTO_CORNER_SHIFT_FRACTION = 0.06
"""Largest move of a page corner by the perspective, as a fraction of the page's shorter side."""
PHOTO_QUARTER_TURN_PROBABILITY = 0.5
"""Chance that the photo is near a quarter turn (0/90/180/270 deg) rather than any angle."""
PHOTO_NEAR_QUARTER_DEG = 8.0
PHOTO_MARGIN_FRACTION_RANGE = (0.04, 0.15)
"""Table visible around the page, as a fraction of the page's longer side."""
PHOTO_BLUR_SIGMA_PX_RANGE = (0.3, 1.2)
"""Gaussian blur, in pixels of the image (at the page's dpi)."""
PHOTO_NOISE_SIGMA_RANGE = (2.0, 7.0)
"""Sensor noise, grey levels (0..255)."""
PHOTO_SHADOW_DEPTH_RANGE = (0.55, 0.85)
"""Brightness under the shadow (1 = no shadow)."""
PHOTO_LIGHT_FALLOFF_RANGE = (0.75, 0.95)
"""Brightness at the darkest corner of the uneven light."""
PHOTO_JPEG_QUALITY_RANGE = (60, 85)
TABLE_COLOURS = ((120, 86, 60), (160, 120, 80), (70, 70, 75), (190, 185, 170), (40, 60, 45))
"""Table surfaces (RGB): dark wood, light wood, grey, beige, green cloth."""
LIGHT_GRID_PX = 8
"""Spacing of the grid the lighting field is computed on (it is smooth)."""
WARM_TINT_RANGE = (0.0, 0.08)
"""Warm light: blue channel lowered by up to this fraction."""

# --- scan --------------------------------------------------------------------------------
SCAN_ROTATION_DEG = 3.0
SCAN_SCALE_RANGE = (0.98, 1.02)
SCAN_BED_MARGIN_MM = 6.0
"""Scanner lid around the page (keeps corners inside when the page is turned)."""
SCAN_LID_GREY_RANGE = (228, 250)
SCAN_NOISE_SIGMA_RANGE = (1.0, 3.5)
SCAN_JPEG_QUALITY_RANGE = (75, 92)
SCAN_JPEG_PROBABILITY = 0.6
SCAN_BW_PROBABILITY = 0.3
SCAN_BW_THRESHOLD_RANGE = (135, 165)
"""Grey level below which a black-and-white print-and-scan makes black."""
SCAN_LOW_DPI = 150
SCAN_LOW_DPI_PROBABILITY = 0.35


@dataclass(frozen=True)
class Degraded:
    """A degraded page: the image (RGB or grey uint8), what was done, and where the page went."""

    image: Image
    steps: list[dict[str, Any]]
    page_to_image: Doubles
    format: str
    """``jpg`` or ``png``: how the image is to be saved."""
    jpeg_quality: int | None


def _rotation_about(angle_deg: float, cx: float, cy: float, scale: float = 1.0) -> Doubles:
    """3x3 matrix turning the image clockwise by ``angle_deg`` (y down) about (cx, cy)."""
    m = cv2.getRotationMatrix2D((cx, cy), -angle_deg, scale)
    return np.vstack([m, [0.0, 0.0, 1.0]])


def _project(matrix: Doubles, points: Doubles) -> Doubles:
    pts = np.hstack([points, np.ones((len(points), 1))]) @ matrix.T
    projected: Doubles = pts[:, :2] / pts[:, 2:]
    return projected


def _fit(matrix: Doubles, w: int, h: int, margin: float) -> tuple[Doubles, int, int]:
    """Shift ``matrix`` so the page's image starts ``margin`` px inside a canvas; its size."""
    corners = _project(matrix, np.array([[0, 0], [w, 0], [w, h], [0, h]], float))
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    shift = np.array([[1, 0, margin - lo[0]], [0, 1, margin - lo[1]], [0, 0, 1]], float)
    size = np.ceil(hi - lo + 2 * margin).astype(int)
    return shift @ matrix, int(size[0]), int(size[1])


def _warp(image: Image, matrix: Doubles, size: tuple[int, int],
          background: Floats) -> Floats:
    """The page warped onto ``background`` (same size as the canvas)."""
    warped = cv2.warpPerspective(image, matrix, size, flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    mask = cv2.warpPerspective(np.full(image.shape[:2], 255, np.uint8), matrix, size,
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    alpha = (mask.astype(np.float32) / 255.0)[:, :, None]
    if image.ndim == 2:
        warped = warped[:, :, None]
    out = warped.astype(np.float32) * alpha + background.astype(np.float32) * (1 - alpha)
    return out[:, :, 0] if image.ndim == 2 else out


def _table(w: int, h: int, rng: random.Random, np_rng: np.random.Generator) -> Floats:
    colour = np.array(rng.choice(TABLE_COLOURS), np.float32)
    small = np_rng.normal(0.0, 1.0, (max(2, h // 64), max(2, w // 64))).astype(np.float32)
    texture = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) * 10.0
    grain = np_rng.standard_normal((h, w), dtype=np.float32) * 4.0
    return np.clip(colour[None, None, :] + (texture + grain)[:, :, None], 0, 255)


def _lighting(h: int, w: int, rng: random.Random) -> tuple[Floats, dict[str, Any]]:
    """A brightness field: a soft-edged shadow across the picture and uneven light.

    It is smooth, so it is computed on a grid :data:`LIGHT_GRID_PX` apart and enlarged.
    """
    step = LIGHT_GRID_PX
    yy, xx = np.mgrid[0:h + step:step, 0:w + step:step].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    nx, ny = math.cos(angle), math.sin(angle)
    along = (xx - w / 2) * nx + (yy - h / 2) * ny
    offset = rng.uniform(0.15, 0.45) * max(w, h)
    softness = rng.uniform(0.02, 0.08) * max(w, h)
    depth = rng.uniform(*PHOTO_SHADOW_DEPTH_RANGE)
    shadow = 1 - (1 - depth) / (1 + np.exp(-(along - offset) / softness))
    lx, ly = rng.uniform(0, w), rng.uniform(0, h)
    falloff = rng.uniform(*PHOTO_LIGHT_FALLOFF_RANGE)
    dist = np.hypot(xx - lx, yy - ly) / math.hypot(w, h)
    light = 1 - (1 - falloff) * np.clip(dist / 0.8, 0, 1) ** 1.5
    params = {"shadow_direction_deg": round(math.degrees(angle), 1),
              "shadow_offset_px": round(offset, 1), "shadow_depth": round(depth, 3),
              "light_centre_px": [round(lx, 1), round(ly, 1)], "light_falloff": round(falloff, 3)}
    size = (xx.shape[1] * step, xx.shape[0] * step)
    field = cv2.resize((shadow * light).astype(np.float32), size, interpolation=cv2.INTER_LINEAR)
    return field[:h, :w], params


def photo(image: Image, dpi: float, rng: random.Random) -> Degraded:
    """A phone photo of the page on a table (``image``: RGB uint8 of the clean page)."""
    np_rng = np.random.default_rng(rng.getrandbits(32))
    h, w = image.shape[:2]
    if rng.random() < PHOTO_QUARTER_TURN_PROBABILITY:
        angle = rng.choice([0, 90, 180, 270]) + rng.uniform(-PHOTO_NEAR_QUARTER_DEG,
                                                            PHOTO_NEAR_QUARTER_DEG)
    else:
        angle = rng.uniform(0, 360)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    shift = PHOTO_CORNER_SHIFT_FRACTION * min(w, h)
    moves = np.array([[rng.uniform(-shift, shift) for _ in range(2)] for _ in range(4)],
                     np.float32)
    perspective = cv2.getPerspectiveTransform(src, src + moves)
    matrix = _rotation_about(angle, w / 2, h / 2) @ perspective
    margin = rng.uniform(*PHOTO_MARGIN_FRACTION_RANGE) * max(w, h)
    matrix, cw, ch = _fit(matrix, w, h, margin)
    steps: list[dict[str, Any]] = [
        {"name": "perspective", "corner_shift_px": np.round(moves, 1).tolist()},
        {"name": "rotation", "angle_deg": round(angle % 360, 2)},
        {"name": "table", "margin_px": round(margin, 1), "size_px": [cw, ch]}]
    out = _warp(image, matrix, (cw, ch), _table(cw, ch, rng, np_rng))
    field, light = _lighting(ch, cw, rng)
    tint = rng.uniform(*WARM_TINT_RANGE)
    out = out * field[:, :, None] * np.array([1.0, 1.0 - tint / 2, 1.0 - tint], np.float32)
    steps.append({"name": "light", **light, "warm_tint": round(tint, 3)})
    sigma = rng.uniform(*PHOTO_BLUR_SIGMA_PX_RANGE) * dpi / 200
    out = cast(Floats, cv2.GaussianBlur(out, (0, 0), sigma))
    noise = rng.uniform(*PHOTO_NOISE_SIGMA_RANGE)
    out += np_rng.standard_normal(out.shape, dtype=np.float32) * noise
    steps += [{"name": "blur", "sigma_px": round(sigma, 3)},
              {"name": "noise", "sigma": round(noise, 2)}]
    quality = rng.randint(*PHOTO_JPEG_QUALITY_RANGE)
    steps.append({"name": "jpeg", "quality": quality})
    return Degraded(np.clip(out + 0.5, 0, 255).astype(np.uint8), steps, matrix, "jpg", quality)


@dataclass(frozen=True)
class ScanSettings:
    """What the scanner is set to, the same for every page of a sheet."""

    bw: bool
    """Black and white: a threshold, as a b/w print-and-scan makes."""
    low_res: bool
    """Scan at :data:`SCAN_LOW_DPI`."""
    jpeg_quality: int | None
    """``None``: PNG."""
    threshold: int = 150

    @classmethod
    def random(cls, rng: random.Random) -> ScanSettings:
        """Settings drawn at random (b/w, low resolution, JPEG quality or PNG)."""
        bw = rng.random() < SCAN_BW_PROBABILITY
        low_res = rng.random() < SCAN_LOW_DPI_PROBABILITY
        jpeg = rng.random() < SCAN_JPEG_PROBABILITY and not bw
        return cls(bw, low_res, rng.randint(*SCAN_JPEG_QUALITY_RANGE) if jpeg else None,
                   rng.randint(*SCAN_BW_THRESHOLD_RANGE))


def scan(image: Image, dpi: float, rng: random.Random,
         settings: ScanSettings | None = None) -> Degraded:
    """A flatbed scan of the page; ``settings`` are drawn at random when ``None``."""
    settings = ScanSettings.random(rng) if settings is None else settings
    np_rng = np.random.default_rng(rng.getrandbits(32))
    h, w = image.shape[:2]
    angle = rng.uniform(-SCAN_ROTATION_DEG, SCAN_ROTATION_DEG)
    scale = rng.uniform(*SCAN_SCALE_RANGE)
    margin = SCAN_BED_MARGIN_MM * dpi / 25.4
    matrix, cw, ch = _fit(_rotation_about(angle, w / 2, h / 2, scale), w, h, margin)
    lid = rng.randint(*SCAN_LID_GREY_RANGE)
    out = _warp(image, matrix, (cw, ch), np.full((ch, cw, 3), lid, np.float32))
    steps: list[dict[str, Any]] = [
        {"name": "rotation", "angle_deg": round(angle, 3)},
        {"name": "scale", "factor": round(scale, 4)},
        {"name": "bed", "margin_px": round(margin, 1), "lid_grey": lid, "size_px": [cw, ch]}]
    noise = rng.uniform(*SCAN_NOISE_SIGMA_RANGE)
    out += np_rng.standard_normal(out.shape, dtype=np.float32) * noise
    steps.append({"name": "noise", "sigma": round(noise, 2)})
    if settings.low_res and dpi > SCAN_LOW_DPI:
        factor = SCAN_LOW_DPI / dpi
        size = (max(1, round(cw * factor)), max(1, round(ch * factor)))
        out = cast(Floats, cv2.resize(out, size, interpolation=cv2.INTER_AREA))
        matrix = np.diag([size[0] / cw, size[1] / ch, 1.0]) @ matrix
        steps.append({"name": "low_resolution", "dpi": SCAN_LOW_DPI})
    pixels = np.clip(out + 0.5, 0, 255).astype(np.uint8)
    if settings.bw:
        grey = cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY)
        pixels = np.where(grey < settings.threshold, 0, 255).astype(np.uint8)
        steps.append({"name": "black_and_white", "threshold": settings.threshold})
        return Degraded(pixels, steps, matrix, "png", None)
    if settings.jpeg_quality is not None:
        steps.append({"name": "jpeg", "quality": settings.jpeg_quality})
        return Degraded(pixels, steps, matrix, "jpg", settings.jpeg_quality)
    steps.append({"name": "png"})
    return Degraded(pixels, steps, matrix, "png", None)
