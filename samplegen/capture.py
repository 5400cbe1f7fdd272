"""Capture profiles of the open generator: phone photos and flatbed scans as people take them.

A :class:`PhoneProfile` puts the page on a textured table and takes it with a phone: the page
fills part of a 1600-4000 px frame (or lands at a given low resolution, 80-110 dpi), the camera
tilted up to 25 degrees (a perspective) and turned, barrel lens distortion, vignetting, a shadow
band and uneven light, a colour cast, slight motion blur, sensor noise, JPEG 60-90.
A :class:`FlatbedProfile` scans it at 150-300 dpi, skewed up to 3 degrees, sometimes upside
down, in colour, grey, or thresholded to black and white. Which profile belongs to which part is
:mod:`samplegen.split`'s; the legacy ones are :mod:`samplegen.degrade`'s.

``page_to_image`` of a photo is the homography before the lens distortion (exact at the
frame's centre, off by the distortion toward its edges).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, cast

import cv2
import numpy as np

from samplegen import degrade
from scanner.arrays import Doubles, Floats, Image

A4_LONG_MM = 297.0
FRAME_ASPECT = 4 / 3


@dataclass(frozen=True)
class PhoneProfile:
    """Ranges a phone photo is drawn from."""

    frame_px: tuple[int, int]
    """The frame's longer side."""
    fill: tuple[float, float]
    """The page's longer side as a fraction of the frame's (ignored with ``page_dpi``)."""
    page_dpi: tuple[float, float] | None
    tilt_deg: tuple[float, float]
    turn_deg: float
    """Largest turn away from a quarter turn."""
    barrel: tuple[float, float]
    """Radial distortion at the frame's corner, a fraction of the radius."""
    vignette: tuple[float, float]
    """Darkening at the frame's corner."""
    motion_px: tuple[float, float]
    jpeg: tuple[int, int]


@dataclass(frozen=True)
class FlatbedProfile:
    """Ranges a flatbed scan is drawn from."""

    dpi: tuple[int, ...]
    skew_deg: float
    upside_down: float
    """Chance that the page lies upside down."""
    mode: str
    """``colour``, ``grey`` or ``bw``."""
    jpeg: tuple[int, int]


CAPTURE_PROFILES: dict[str, PhoneProfile | FlatbedProfile] = {
    "phone-near": PhoneProfile((3000, 4000), (0.85, 0.95), None, (0, 12), 6, (0.0, 0.03),
                               (0.05, 0.2), (0.0, 1.5), (70, 90)),
    "phone-tilted": PhoneProfile((1600, 4000), (0.7, 0.95), None, (8, 25), 12, (0.02, 0.06),
                                 (0.1, 0.35), (0.5, 3.0), (60, 85)),
    "phone-far": PhoneProfile((1600, 2200), (0.7, 0.95), (80, 110), (0, 15), 8, (0.0, 0.04),
                              (0.05, 0.3), (0.0, 1.5), (60, 90)),
    "phone-steep": PhoneProfile((2000, 3600), (0.75, 0.92), None, (10, 30), 10, (0.01, 0.05),
                                (0.1, 0.3), (0.3, 2.5), (62, 88)),
    "phone-distant": PhoneProfile((1600, 2400), (0.7, 0.95), (75, 120), (0, 12), 8,
                                  (0.0, 0.03), (0.05, 0.25), (0.0, 1.2), (62, 88)),
    "flatbed-colour": FlatbedProfile((200, 300), 3.0, 0.2, "colour", (80, 92)),
    "flatbed-mono": FlatbedProfile((150, 240, 300), 2.5, 0.3, "grey", (72, 90)),
    "flatbed-threshold": FlatbedProfile((150, 240, 300), 2.5, 0.3, "bw", (0, 0)),
    "flatbed-grey": FlatbedProfile((150, 200, 300), 3.0, 0.3, "grey", (75, 92)),
    "flatbed-bw": FlatbedProfile((150, 200, 300), 3.0, 0.3, "bw", (0, 0)),
}
"""The open generator's capture profiles by name."""


def capture(name: str, image: Image, dpi: float, rng: random.Random, sheet_seed: int = 0
            ) -> degrade.Degraded:
    """The clean page ``image`` (RGB uint8 at ``dpi``) as capture profile ``name`` takes it;
    ``sheet_seed`` draws what is the same for every page of a sheet (a scanner's dpi)."""
    profile = CAPTURE_PROFILES[name]
    if isinstance(profile, PhoneProfile):
        return phone(image, dpi, profile, rng)
    return flatbed(image, dpi, profile, rng, random.Random(sheet_seed).choice(profile.dpi))


def _tilt(angle_deg: float, axis_deg: float, focal: float, cx: float, cy: float) -> Doubles:
    """The homography of a camera turned by ``angle_deg`` about an in-plane axis."""
    a, t = math.radians(axis_deg), math.radians(angle_deg)
    ux, uy = math.cos(a), math.sin(a)
    rot, _ = cv2.Rodrigues(np.array([ux * t, uy * t, 0.0]))
    k = np.array([[focal, 0, cx], [0, focal, cy], [0, 0, 1.0]])
    return cast(Doubles, k @ rot @ np.linalg.inv(k))


def _placement(w: int, h: int, dpi: float, p: PhoneProfile, rng: random.Random
               ) -> tuple[Doubles, int, int, dict[str, Any]]:
    """Page-to-frame homography and the frame size."""
    turn = rng.choice([0, 90, 180, 270]) + rng.uniform(-p.turn_deg, p.turn_deg)
    tilt = rng.uniform(*p.tilt_deg)
    axis = rng.uniform(0, 180)
    long_px = rng.uniform(*p.frame_px)
    matrix = _tilt(tilt, axis, 1.2 * max(w, h), w / 2, h / 2)
    matrix = degrade._rotation_about(turn, w / 2, h / 2) @ matrix
    corners = degrade._project(matrix, np.array([[0, 0], [w, 0], [w, h], [0, h]], float))
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    if p.page_dpi is not None:
        scale = rng.uniform(*p.page_dpi) / dpi
    else:
        scale = rng.uniform(*p.fill) * long_px / float(max(hi - lo))
    size = (hi - lo) * scale
    fw, fh = (long_px, long_px / FRAME_ASPECT) if size[0] >= size[1] else \
        (long_px / FRAME_ASPECT, long_px)
    fw, fh = int(max(fw, size[0] + 8)), int(max(fh, size[1] + 8))
    x = rng.uniform(2, fw - size[0] - 2) - lo[0] * scale
    y = rng.uniform(2, fh - size[1] - 2) - lo[1] * scale
    matrix = np.array([[scale, 0, x], [0, scale, y], [0, 0, 1.0]]) @ matrix
    steps = {"name": "camera", "turn_deg": round(turn % 360, 2), "tilt_deg": round(tilt, 2),
             "tilt_axis_deg": round(axis, 1), "frame_px": [fw, fh],
             "page_dpi": round(dpi * scale, 1)}
    return matrix, fw, fh, steps


def _lens(out: Floats, barrel: float, vignette: float) -> Floats:
    """Barrel distortion and vignetting about the frame's centre."""
    h, w = out.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy, rmax = w / 2, h / 2, math.hypot(w / 2, h / 2)
    r2 = ((xx - cx) ** 2 + (yy - cy) ** 2) / rmax ** 2
    factor = 1.0 + barrel * r2
    mapped = cv2.remap(out, cx + (xx - cx) * factor, cy + (yy - cy) * factor, cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REFLECT)
    return cast(Floats, mapped * (1.0 - vignette * r2)[:, :, None])


def _motion(out: Floats, length: float, rng: random.Random) -> Floats:
    if length < 1.0:
        return out
    size = int(math.ceil(length)) | 1
    kernel: Floats = np.zeros((size, size), np.float32)
    kernel[size // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D((size / 2 - 0.5, size / 2 - 0.5), rng.uniform(0, 180), 1.0)
    kernel = cast(Floats, cv2.warpAffine(kernel, turn, (size, size)))
    return cast(Floats, cv2.filter2D(out, -1, kernel / max(float(kernel.sum()), 1e-6)))


def phone(image: Image, dpi: float, p: PhoneProfile, rng: random.Random) -> degrade.Degraded:
    """A phone photo of the page on a table."""
    np_rng = np.random.default_rng(rng.getrandbits(32))
    h, w = image.shape[:2]
    matrix, fw, fh, camera = _placement(w, h, dpi, p, rng)
    out = degrade._warp(image, matrix, (fw, fh), degrade._table(fw, fh, rng, np_rng))
    barrel, vignette = rng.uniform(*p.barrel), rng.uniform(*p.vignette)
    out = _lens(out, barrel, vignette)
    field, light = degrade._lighting(fh, fw, rng)
    cast_rgb = np.array([rng.uniform(0.85, 1.08) for _ in range(3)], np.float32)
    out = out * field[:, :, None] * cast_rgb
    motion = rng.uniform(*p.motion_px)
    out = _motion(out, motion, rng)
    out += np_rng.standard_normal(out.shape, dtype=np.float32) * rng.uniform(2.0, 6.0)
    quality = rng.randint(*p.jpeg)
    steps = [camera, {"name": "lens", "barrel": round(barrel, 4), "vignette": round(vignette, 3)},
             {"name": "light", **light, "colour_cast": np.round(cast_rgb, 3).tolist()},
             {"name": "motion_blur", "length_px": round(motion, 2)},
             {"name": "jpeg", "quality": quality}]
    return degrade.Degraded(np.clip(out + 0.5, 0, 255).astype(np.uint8), steps, matrix, "jpg",
                            quality)


def flatbed(image: Image, dpi: float, p: FlatbedProfile, rng: random.Random, target: int
            ) -> degrade.Degraded:
    """A flatbed scan of the page at ``target`` dpi."""
    np_rng = np.random.default_rng(rng.getrandbits(32))
    h, w = image.shape[:2]
    turn = rng.uniform(-p.skew_deg, p.skew_deg) + (180 if rng.random() < p.upside_down else 0)
    margin = degrade.SCAN_BED_MARGIN_MM * target / 25.4
    rotation = degrade._rotation_about(turn, w / 2, h / 2, target / dpi)
    matrix, cw, ch = degrade._fit(rotation, w, h, margin)
    lid = rng.randint(*degrade.SCAN_LID_GREY_RANGE)
    out = degrade._warp(image, matrix, (cw, ch), np.full((ch, cw, 3), lid, np.float32))
    out += np_rng.standard_normal(out.shape, dtype=np.float32) * rng.uniform(1.0, 3.5)
    pixels = np.clip(out + 0.5, 0, 255).astype(np.uint8)
    steps: list[dict[str, Any]] = [{"name": "flatbed", "dpi": target,
                                    "turn_deg": round(turn % 360, 3), "mode": p.mode}]
    if p.mode != "colour":
        pixels = cast(Image, cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY))
    if p.mode == "bw":
        threshold = rng.randint(*degrade.SCAN_BW_THRESHOLD_RANGE)
        steps.append({"name": "black_and_white", "threshold": threshold})
        pixels = np.where(pixels < threshold, 0, 255).astype(np.uint8)
        return degrade.Degraded(pixels, steps, matrix, "png", None)
    quality = rng.randint(*p.jpeg)
    steps.append({"name": "jpeg", "quality": quality})
    return degrade.Degraded(pixels, steps, matrix, "jpg", quality)
