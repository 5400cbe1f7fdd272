"""Recognize one handwritten digit per score-sheet cell.

Every cell crop goes through :func:`normalize_cell` (local contrast, border and
speck removal, MNIST-style 28x28 layout), then a small CNN run by OpenCV's
``cv2.dnn`` from ``scanner/models/digits.onnx`` returns a probability for each
digit and for EMPTY. No deep-learning framework is needed at scan time.

:class:`WriterAdaptation` adapts the recognizer to one player's hand from the
digits that player wrote on the sheet's calibration strip: a nearest-neighbour
vote on the CNN embedding of the player's own digits, combined with the
general model. See ``scanner/models/DIGITS.md`` for training data and figures.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from scanner.digit_constants import (
    ADAPT_MIN_DIGITS,
    ADAPT_MIN_MODEL_PROBABILITY,
    ADAPT_TEMPERATURE,
    ADAPT_WEIGHT,
    BACKGROUND_KERNEL_FRACTION,
    EDGE_BAND_FRACTION,
    EMPTY_CLASS,
    INK_RELATIVE_THRESHOLD,
    LINE_MAX_THICKNESS_FRACTION,
    LINE_MIN_LENGTH_FRACTION,
    MIN_DIGIT_HEIGHT_FRACTION,
    MIN_INK_AREA_FRACTION,
    MIN_INK_CONTRAST_FRACTION,
    MODEL_DIGIT_BOX_PX,
    MODEL_INPUT_SIDE_PX,
    NUM_CLASSES,
    SPECK_MAX_GAP_FRACTION,
    SPECK_RELATIVE_AREA,
)

MODEL_PATH = Path(__file__).resolve().parent / "models" / "digits.onnx"
_BATCH = 256


def _as_gray(image: np.ndarray) -> np.ndarray:
    if image.ndim == 3:
        code = cv2.COLOR_BGRA2GRAY if image.shape[2] == 4 else cv2.COLOR_BGR2GRAY
        image = cv2.cvtColor(image, code)
    if image.dtype != np.uint8:
        image = np.clip(image, 0, 255).astype(np.uint8)
    return image


def ink_contrast(gray: np.ndarray) -> np.ndarray:
    """Return each pixel's darkness relative to the local paper, in [0, 1] (float32).

    The paper brightness is estimated by a grayscale closing (which erases
    strokes thinner than the kernel) and smoothing, so uneven light and
    shadows across the cell do not count as ink.
    """
    g = _as_gray(gray).astype(np.float32)
    h, w = g.shape
    k = max(3, int(BACKGROUND_KERNEL_FRACTION * min(h, w)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    background = cv2.morphologyEx(g, cv2.MORPH_CLOSE, kernel, borderType=cv2.BORDER_REPLICATE)
    background = cv2.blur(background, (k, k))
    background = np.maximum(background, g)
    return np.clip((background - g) / np.maximum(background, 16.0), 0.0, 1.0)


def _ink_mask(contrast: np.ndarray) -> np.ndarray:
    """Binary mask of the digit's ink: thresholded, without border remnants and specks."""
    h, w = contrast.shape
    peak = float(np.percentile(contrast, 99.7))
    if peak < MIN_INK_CONTRAST_FRACTION:
        return np.zeros((h, w), np.uint8)
    threshold = max(INK_RELATIVE_THRESHOLD * peak, 0.5 * MIN_INK_CONTRAST_FRACTION)
    mask = (contrast > threshold).astype(np.uint8)
    # Rows/columns in the outer band that are mostly ink are printed-border remnants.
    by, bx = int(EDGE_BAND_FRACTION * h) + 1, int(EDGE_BAND_FRACTION * w) + 1
    for rows in (slice(0, by), slice(h - by, h)):
        mask[rows][mask[rows].mean(axis=1) >= LINE_MIN_LENGTH_FRACTION] = 0
    for cols in (slice(0, bx), slice(w - bx, w)):
        mask[:, cols][:, mask[:, cols].mean(axis=0) >= LINE_MIN_LENGTH_FRACTION] = 0
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    band_x, band_y = EDGE_BAND_FRACTION * w, EDGE_BAND_FRACTION * h
    keep: list[int] = []
    for i in range(1, n):
        x, y, bw, bh, _area = stats[i]
        x1, y1 = x + bw, y + bh
        inside_band = x1 <= band_x or x >= w - band_x or y1 <= band_y or y >= h - band_y
        touches_lr = x <= 1 or x1 >= w - 1
        touches_tb = y <= 1 or y1 >= h - 1
        vertical_line = touches_lr and bw <= LINE_MAX_THICKNESS_FRACTION * w and bh >= LINE_MIN_LENGTH_FRACTION * h
        horizontal_line = touches_tb and bh <= LINE_MAX_THICKNESS_FRACTION * h and bw >= LINE_MIN_LENGTH_FRACTION * w
        if not (inside_band or vertical_line or horizontal_line):
            keep.append(i)
    if not keep:
        return np.zeros((h, w), np.uint8)
    largest = max(keep, key=lambda i: stats[i][4])
    lx, ly, lw, lh, larea = stats[largest]
    gap = SPECK_MAX_GAP_FRACTION * h
    kept = []
    for i in keep:
        x, y, bw, bh, area = stats[i]
        dx = max(lx - (x + bw), x - (lx + lw), 0)
        dy = max(ly - (y + bh), y - (ly + lh), 0)
        if area >= SPECK_RELATIVE_AREA * larea or max(dx, dy) <= gap:
            kept.append(i)
    out = np.isin(labels, kept).astype(np.uint8)
    ys = np.nonzero(out.any(axis=1))[0]
    if out.sum() < MIN_INK_AREA_FRACTION * h * w or ys[-1] - ys[0] + 1 < MIN_DIGIT_HEIGHT_FRACTION * h:
        return np.zeros((h, w), np.uint8)
    return out


def ink_fraction(gray: np.ndarray) -> float:
    """Return the fraction of the cell covered by digit ink (after border/speck removal)."""
    mask = _ink_mask(ink_contrast(gray))
    return float(mask.mean()) if mask.size else 0.0


def normalize_cell(gray: np.ndarray) -> np.ndarray:
    """Turn one cell's interior crop into the model input.

    Args:
        gray: grayscale (or BGR) crop, dark ink on light paper, any size.

    Returns:
        A 28x28 float32 image in [0, 1], ink bright on black (MNIST style): the
        ink bounding box scaled so its longer side is 20 px, centred by mass.
        All zeros when the cell holds no digit-like ink.
    """
    side, box = MODEL_INPUT_SIDE_PX, MODEL_DIGIT_BOX_PX
    out = np.zeros((side, side), np.float32)
    contrast = ink_contrast(gray)
    mask = _ink_mask(contrast)
    ys, xs = np.nonzero(mask)
    if len(ys) == 0:
        return out
    peak = float(np.percentile(contrast[mask > 0], 95))
    soft = np.clip(contrast / max(peak, 1e-3), 0.0, 1.0)
    soft *= cv2.dilate(mask, np.ones((3, 3), np.uint8)).astype(np.float32)
    crop = soft[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    ch, cw = crop.shape
    scale = box / max(ch, cw)
    nh, nw = max(1, round(ch * scale)), max(1, round(cw * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    crop = np.clip(cv2.resize(crop, (nw, nh), interpolation=interp), 0.0, 1.0)
    total = float(crop.sum())
    if total <= 0:
        return out
    cy = float((crop.sum(axis=1) * np.arange(nh)).sum()) / total
    cx = float((crop.sum(axis=0) * np.arange(nw)).sum()) / total
    y0 = int(np.clip(round(side / 2 - cy - 0.5), 0, side - nh))
    x0 = int(np.clip(round(side / 2 - cx - 0.5), 0, side - nw))
    out[y0 : y0 + nh, x0 : x0 + nw] = crop
    return out


class DigitRecognizer:
    """The general digit model: ONNX CNN run by ``cv2.dnn``.

    The network has two outputs: ``probs`` (n, 11) softmax over digits and
    EMPTY, and ``embed`` (n, d) the penultimate-layer embedding.
    """

    def __init__(self, model_path: str | Path = MODEL_PATH) -> None:
        """Load the ONNX model from ``model_path``."""
        self.model_path = Path(model_path)
        if not self.model_path.is_file():
            raise FileNotFoundError(f"digit model {self.model_path} is missing; run training/train_digits.py")
        self._net = cv2.dnn.readNetFromONNX(str(self.model_path))
        self._lock = threading.Lock()

    @staticmethod
    @lru_cache(maxsize=1)
    def default() -> DigitRecognizer:
        """Return the recognizer for the committed model, loaded once."""
        return DigitRecognizer()

    def _run(self, inputs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        probs, embeds = [], []
        with self._lock:
            for start in range(0, len(inputs), _BATCH):
                blob = np.ascontiguousarray(inputs[start : start + _BATCH, None, :, :], np.float32)
                self._net.setInput(blob)
                p, e = self._net.forward(["probs", "embed"])
                probs.append(p.reshape(len(blob), NUM_CLASSES).copy())
                embeds.append(e.reshape(len(blob), -1).copy())
        return np.concatenate(probs), np.concatenate(embeds)

    def run_normalized(self, inputs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Run the network on normalized (n, 28, 28) inputs; return (probabilities, embeddings)."""
        if len(inputs) == 0:
            return np.zeros((0, NUM_CLASSES), np.float32), np.zeros((0, 0), np.float32)
        inputs = np.asarray(inputs, np.float32)
        probs, embeds = self._run(inputs)
        probs = np.clip(probs, 0.0, None)
        probs /= probs.sum(axis=1, keepdims=True)
        # normalize_cell found no digit-like ink at all: the cell is EMPTY.
        blank = ~inputs.reshape(len(inputs), -1).any(axis=1)
        probs[blank] = 0.0
        probs[blank, EMPTY_CLASS] = 1.0
        return probs, embeds

    def probabilities(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """Return (n, 11) probabilities: columns 0-9 digits, column 10 EMPTY; rows sum to 1."""
        return self.run_normalized(np.stack([normalize_cell(c) for c in crops]) if len(crops) else [])[0]

    def features(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """Return (n, d) L2-normalized embeddings of the crops (for writer adaptation)."""
        if not len(crops):
            return np.zeros((0, 0), np.float32)
        _, embeds = self.run_normalized(np.stack([normalize_cell(c) for c in crops]))
        return _l2(embeds)


def _l2(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-8)


@dataclass(frozen=True)
class WriterAdaptation:
    """The general model adapted to one writer by their calibration digits.

    ``prototypes`` are the L2-normalized embeddings of the usable calibration
    samples and ``prototype_labels`` their digits. With fewer than
    ``ADAPT_MIN_DIGITS`` usable digits the adaptation is inactive and
    :meth:`probabilities` equals the general model's.
    """

    recognizer: DigitRecognizer
    prototypes: np.ndarray
    prototype_labels: np.ndarray
    weight: float = ADAPT_WEIGHT
    temperature: float = ADAPT_TEMPERATURE

    @classmethod
    def from_calibration(
        cls,
        samples: Mapping[int, np.ndarray | Sequence[np.ndarray]],
        recognizer: DigitRecognizer | None = None,
    ) -> WriterAdaptation:
        """Build from ``{digit: crop}`` or ``{digit: [crops]}`` of one writer.

        Samples the model reads as EMPTY, or to which it gives less than
        ``ADAPT_MIN_MODEL_PROBABILITY`` for their stated digit, are dropped.
        """
        recognizer = recognizer or DigitRecognizer.default()
        crops: list[np.ndarray] = []
        labels: list[int] = []
        for digit, value in samples.items():
            if not 0 <= int(digit) <= 9:
                raise ValueError(f"calibration digit {digit!r} is not 0-9")
            items = [value] if isinstance(value, np.ndarray) else list(value)
            for crop in items:
                if crop is not None and np.asarray(crop).size:
                    crops.append(np.asarray(crop))
                    labels.append(int(digit))
        if not crops:
            return cls(recognizer, np.zeros((0, 0), np.float32), np.zeros(0, np.int64))
        probs, embeds = recognizer.run_normalized(np.stack([normalize_cell(c) for c in crops]))
        lab = np.asarray(labels, np.int64)
        ok = (probs.argmax(axis=1) != EMPTY_CLASS) & (probs[np.arange(len(lab)), lab] >= ADAPT_MIN_MODEL_PROBABILITY)
        return cls(recognizer, _l2(embeds[ok]), lab[ok])

    @property
    def active(self) -> bool:
        """Whether enough usable calibration digits were found to adapt."""
        return len(np.unique(self.prototype_labels)) >= ADAPT_MIN_DIGITS

    def combine(self, probs: np.ndarray, embeds: np.ndarray) -> np.ndarray:
        """Combine general-model probabilities with the writer's nearest-neighbour vote."""
        if not self.active or len(probs) == 0:
            return probs
        sims = _l2(embeds) @ self.prototypes.T  # (n, k) cosine similarities
        vote = np.zeros((len(probs), 10), np.float64)
        w = np.exp((sims - sims.max(axis=1, keepdims=True)) / self.temperature)
        for j, digit in enumerate(self.prototype_labels):
            vote[:, digit] = np.maximum(vote[:, digit], w[:, j])
        present = np.zeros(10, bool)
        present[self.prototype_labels] = True
        # Digits without a calibration sample get the mean vote: no evidence either way.
        vote[:, ~present] = vote[:, present].mean(axis=1, keepdims=True)
        vote /= vote.sum(axis=1, keepdims=True)
        digits = probs[:, :10].astype(np.float64) * np.power(vote + 1e-6, self.weight)
        digits /= np.maximum(digits.sum(axis=1, keepdims=True), 1e-12)
        out = np.empty_like(probs, dtype=np.float64)
        out[:, :10] = digits * (1.0 - probs[:, EMPTY_CLASS : EMPTY_CLASS + 1])
        out[:, EMPTY_CLASS] = probs[:, EMPTY_CLASS]
        return out.astype(np.float32)

    def probabilities(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """Return (n, 11) probabilities adapted to this writer; rows sum to 1."""
        if not len(crops):
            return np.zeros((0, NUM_CLASSES), np.float32)
        probs, embeds = self.recognizer.run_normalized(np.stack([normalize_cell(c) for c in crops]))
        return self.combine(probs, embeds)
