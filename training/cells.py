"""One training cell: a glyph or nothing drawn into a cell-sized canvas with augmentation.

Geometry (size, rotation, shear, width, elastic distortion, pen width, place), printed-border
remnants, specks and smudges, then :func:`capture`: paper, blur, coarse sampling, low
resolution, noise and JPEG.
"""

from __future__ import annotations

import cv2
import numpy as np

from scanner.digits.constants import CELL_HEIGHT_300DPI_PX, CELL_WIDTH_300DPI_PX

#: Share of cells whose digit is sampled at 8-16 px tall and smoothed back up: a 4 mm
#: digit on a 150 dpi scan, or on a phone photo of the whole table from afar, is 16-24 px
#: tall, and small or hurried digits are smaller still.
COARSE_SAMPLING_FRACTION = 0.3


def _elastic(ink: np.ndarray, rng: np.random.Generator, amount_px: float) -> np.ndarray:
    """Smooth random elastic distortion (displacements up to about ``amount_px``)."""
    h, w = ink.shape
    field = cv2.resize(
        rng.normal(0, amount_px, (2, 4, 4)).astype(np.float32).transpose(1, 2, 0),
        (w, h),
        interpolation=cv2.INTER_CUBIC,
    )
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    return cv2.remap(ink, xx + field[..., 0], yy + field[..., 1], cv2.INTER_LINEAR, borderValue=0)


def _ink_map(glyph: np.ndarray) -> np.ndarray:
    g = glyph.astype(np.float32)
    return np.clip((g.max() - g) / max(float(g.max() - g.min()), 1.0), 0, 1)


def _paper(rng: np.random.Generator, h: int, w: int) -> tuple[np.ndarray, float]:
    """Paper brightness with a random light gradient; returns (paper, its level)."""
    level = rng.uniform(170, 250)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2) * rng.uniform(0, 40) / max(h, w)
    return np.clip(level + gx * (xx - w / 2) + gy * (yy - h / 2), 60, 255), level


def _distractors(
    ink: np.ndarray, rng: np.random.Generator, p_line: float, p_speck: float, p_smudge: float
) -> None:
    """Add printed-border remnants, specks and light smudges to an ink map in place."""
    h, w = ink.shape
    if rng.random() < p_line:
        for _ in range(rng.integers(1, 3)):
            t = int(rng.integers(1, max(2, int(0.06 * min(h, w))) + 1))
            strength = rng.uniform(0.2, 1.0)
            side = rng.integers(4)
            a, b = sorted(rng.uniform(0, 1, 2))
            if rng.random() < 0.5:
                a, b = 0.0, 1.0
            if side == 0:
                ink[:t, int(a * w) : int(b * w) + 1] = np.maximum(
                    ink[:t, int(a * w) : int(b * w) + 1], strength
                )
            elif side == 1:
                ink[-t:, int(a * w) : int(b * w) + 1] = np.maximum(
                    ink[-t:, int(a * w) : int(b * w) + 1], strength
                )
            elif side == 2:
                ink[int(a * h) : int(b * h) + 1, :t] = np.maximum(
                    ink[int(a * h) : int(b * h) + 1, :t], strength
                )
            else:
                ink[int(a * h) : int(b * h) + 1, -t:] = np.maximum(
                    ink[int(a * h) : int(b * h) + 1, -t:], strength
                )
    if rng.random() < p_speck:
        for _ in range(rng.integers(1, 4)):
            r = rng.uniform(0.5, 0.03 * min(h, w) + 0.5)
            cv2.circle(
                ink,
                (int(rng.integers(w)), int(rng.integers(h))),
                max(1, int(r)),
                float(rng.uniform(0.3, 1)),
                -1,
            )
    if rng.random() < p_smudge:
        blob = np.zeros_like(ink)
        cv2.ellipse(
            blob,
            (int(rng.integers(w)), int(rng.integers(h))),
            (int(rng.uniform(0.1, 0.4) * w), int(rng.uniform(0.1, 0.4) * h)),
            float(rng.uniform(0, 180)),
            0,
            360,
            float(rng.uniform(0.05, 0.15)),
            -1,
        )
        ink += cv2.GaussianBlur(blob, (0, 0), 0.1 * min(h, w))


def _finish(ink: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Composite an ink map onto paper, then :func:`capture` it."""
    h, w = ink.shape
    paper, level = _paper(rng, h, w)
    darkest = rng.uniform(0, 0.55 * level)
    return capture(paper - np.clip(ink, 0, 1) * (paper - darkest), ink, rng)


def capture(img: np.ndarray, ink: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A grey cell (float, paper bright) as a camera or scanner gives it: blur, coarse
    sampling of the digit (``ink``: its darkness map), low resolution, noise and JPEG."""
    h, w = img.shape
    if rng.random() < 0.6:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.5))
    if rng.random() < COARSE_SAMPLING_FRACTION:  # the digit at 8-16 px, smoothed back up
        ys, xs = np.nonzero(ink > 0.1)
        if len(ys):
            f = rng.uniform(8, 16) / (ys.max() - ys.min() + 1)
            small = cv2.resize(
                img, (max(3, int(w * f)), max(3, int(h * f))), interpolation=cv2.INTER_AREA
            )
            img = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
            img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 2.0) / f / 6)
    elif rng.random() < 0.35:  # low-resolution capture (phone photo, distant scan)
        f = rng.uniform(0.12, 0.5)
        small = cv2.resize(
            img, (max(4, int(w * f)), max(5, int(h * f))), interpolation=cv2.INTER_AREA
        )
        img = cv2.resize(
            small, (w, h), interpolation=[cv2.INTER_LINEAR, cv2.INTER_CUBIC][rng.integers(2)]
        )
        if rng.random() < 0.5:
            img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 2.0))
    img = img + rng.normal(0, rng.uniform(0, 8), img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        img = cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE)
    return img


def digit_cell(glyph: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Draw one glyph into a random cell-sized canvas with augmentation."""
    scale_dpi = rng.uniform(0.5, 1.3)
    h, w = (
        int(CELL_HEIGHT_300DPI_PX * scale_dpi),
        int(CELL_WIDTH_300DPI_PX * scale_dpi * rng.uniform(0.9, 1.4)),
    )
    ink = _ink_map(glyph)
    ys, xs = np.nonzero(ink > 0.05)
    ink = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    ink = cv2.copyMakeBorder(ink, 4, 4, 4, 4, cv2.BORDER_CONSTANT, value=0)
    # Geometry at a working size where the digit is 64 px tall.
    k = 64.0 / max(ink.shape[0] - 8, 1)
    # Width: digits squeezed into narrow cells or spread across wide ones.
    ink = cv2.resize(ink, None, fx=k * rng.uniform(0.7, 1.5), fy=k, interpolation=cv2.INTER_LINEAR)
    ink = cv2.copyMakeBorder(ink, 16, 16, 16, 16, cv2.BORDER_CONSTANT, value=0)
    ih, iw = ink.shape
    m = cv2.getRotationMatrix2D((iw / 2, ih / 2), rng.uniform(-10, 10), 1.0)
    m[0, 1] += rng.uniform(-0.2, 0.2)
    ink = cv2.warpAffine(ink, m, (iw, ih), flags=cv2.INTER_LINEAR)
    if rng.random() < 0.5:
        ink = _elastic(ink, rng, rng.uniform(1.5, 5.0))
    # Stroke width: thinner or (often much) thicker pens.
    r = rng.choice([-2, -1, 0, 0, 1, 2, 3, 4, 5, 6])
    if r:
        kern = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * abs(r) + 1, 2 * abs(r) + 1))
        ink = (cv2.dilate if r > 0 else cv2.erode)(ink, kern)
    ys, xs = np.nonzero(ink > 0.1)
    if len(ys) == 0:
        return digit_cell(glyph, rng)
    ink = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    dh = int(np.clip(rng.uniform(0.45, 0.88) * h, 6, h - 2))
    dw = max(1, min(int(round(ink.shape[1] * dh / ink.shape[0])), w - 2))
    ink = np.clip(cv2.resize(ink, (dw, dh), interpolation=cv2.INTER_AREA), 0, 1)
    canvas = np.zeros((h, w), np.float32)
    y0 = int(rng.integers(0, h - dh + 1)) if rng.random() < 0.5 else (h - dh) // 2
    x0 = int(np.clip((w - dw) // 2 + rng.normal(0, 0.12 * w), 0, w - dw))
    canvas[y0 : y0 + dh, x0 : x0 + dw] = ink * rng.uniform(0.75, 1.0)
    _distractors(canvas, rng, 0.3, 0.15, 0.1)
    return _finish(canvas, rng)


def empty_cell(rng: np.random.Generator) -> np.ndarray:
    """A cell without a digit: paper, noise, border remnants, specks, smudges."""
    scale_dpi = rng.uniform(0.5, 1.3)
    h, w = (
        int(CELL_HEIGHT_300DPI_PX * scale_dpi),
        int(CELL_WIDTH_300DPI_PX * scale_dpi * rng.uniform(0.9, 1.4)),
    )
    canvas = np.zeros((h, w), np.float32)
    _distractors(canvas, rng, 0.6, 0.5, 0.3)
    return _finish(canvas, rng)
