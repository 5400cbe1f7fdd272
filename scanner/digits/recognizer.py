"""The digit model: a small CNN run by OpenCV's ``cv2.dnn`` on normalised cells.

Cells are first normalised by :func:`scanner.digits.normalize.normalize_cells`; the network
(``scanner/digits/models/digits.onnx``) returns a probability for each digit and for EMPTY,
its softmax temperature-scaled on held-apart data so the probabilities are calibrated. The
writer adaptation that builds on it is :mod:`scanner.digits.adaptation`; training data and
figures are in ``scanner/digits/models/DIGITS.md``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from scanner.arrays import Floats, Image
from scanner.digits.constants import EMPTY_CLASS, MODEL_INPUT_SIDE_PX, NETWORK_BATCH, NUM_CLASSES
from scanner.digits.normalize import normalize_cells

MODEL_PATH = Path(__file__).resolve().parent / "models" / "digits.onnx"
VIEW_SHIFTS = ((1, 1), (-1, -1))
"""Each inked cell is read three times, as normalised and moved one pixel diagonally each
way (rows, columns), and its probabilities are the mean of the three: a stroke the
normalisation placed a pixel off no longer decides the reading alone. Chosen on
TRAINING-part writers the network never trained on (the 11,595 scanner-cut cells of the
calibration writers' seats on 13 TRAINING sets): digits read right 93.91 -> 94.72 %, NLL
0.278 -> 0.247, cells read wrong at p >= 0.99 20 -> 10, those read right at p >= 0.99
68.5 -> 65.9 %; the four one-pixel moves (twice the network's time) 94.62 %, 13 wrong at
p >= 0.99; all eight moves 94.81 %, 12."""


class DigitRecognizer:
    """The general digit model: ONNX CNN run by ``cv2.dnn``.

    The network has two outputs: ``probs`` (n, 11) softmax over digits and
    EMPTY, and ``embed`` (n, d) the penultimate-layer embedding.
    """

    def __init__(self, model_path: str | Path = MODEL_PATH) -> None:
        """Load the ONNX model from ``model_path``."""
        self.model_path = Path(model_path)
        if not self.model_path.is_file():
            raise FileNotFoundError(
                f"digit model {self.model_path} is missing; run training/train_digits.py")
        self._net = cv2.dnn.readNetFromONNX(str(self.model_path))
        self._lock = threading.Lock()
        self._blank: Floats | None = None

    def _run(self, inputs: Floats) -> tuple[Floats, Floats]:
        probs, embeds = [], []
        with self._lock:
            for start in range(0, len(inputs), NETWORK_BATCH):
                blob = np.ascontiguousarray(inputs[start : start + NETWORK_BATCH, None, :, :],
                                            np.float32)
                self._net.setInput(blob)
                p, e = self._net.forward(["probs", "embed"])
                probs.append(p.reshape(len(blob), NUM_CLASSES).copy())
                embeds.append(e.reshape(len(blob), -1).copy())
        return np.concatenate(probs), np.concatenate(embeds)

    def run_normalized(self, inputs: Floats) -> tuple[Floats, Floats]:
        """Run the network on normalized (n, 28, 28) inputs; return (probabilities, embeddings)."""
        if len(inputs) == 0:
            return np.zeros((0, NUM_CLASSES), np.float32), np.zeros((0, 0), np.float32)
        inputs = np.asarray(inputs, np.float32)
        # normalize_cells found no digit-like ink at all: the cell is EMPTY, and the
        # network runs only on the others (blank rows get the blank input's embedding).
        blank = ~inputs.reshape(len(inputs), -1).any(axis=1)
        inked = np.nonzero(~blank)[0]
        probs = np.zeros((len(inputs), NUM_CLASSES), np.float32)
        probs[:, EMPTY_CLASS] = 1.0
        blank_embedding = self._blank_embedding()
        embeds = np.empty((len(inputs), len(blank_embedding)), np.float32)
        embeds[blank] = blank_embedding
        if len(inked):
            p, e = self._run_viewed(inputs[inked])
            probs[inked] = p / p.sum(axis=1, keepdims=True)
            embeds[inked] = e
        return probs, embeds

    def _run_viewed(self, inputs: Floats) -> tuple[Floats, Floats]:
        """The mean of the network's probabilities on ``inputs`` and on ``inputs`` moved by
        each of :data:`VIEW_SHIFTS`, each clipped at 0, and its embeddings of ``inputs``: all
        the views in one run (a cell's output is the same in any batch)."""
        n = len(inputs)
        probs, embeds = self._run(np.concatenate(
            [inputs, *(_moved(inputs, *shift) for shift in VIEW_SHIFTS)]))
        views = np.clip(probs, 0.0, None).reshape(1 + len(VIEW_SHIFTS), n, NUM_CLASSES)
        mean: Floats = (views[0] + views[1:].sum(axis=0)) / (1 + len(VIEW_SHIFTS))
        return mean, embeds[:n]

    def _blank_embedding(self) -> Floats:
        if self._blank is None:
            side = MODEL_INPUT_SIDE_PX
            self._blank = self._run(np.zeros((1, side, side), np.float32))[1][0]
        return self._blank

    def probabilities(self, crops: Sequence[Image]) -> Floats:
        """Return (n, 11) probabilities: columns 0-9 digits, column 10 EMPTY; rows sum to 1."""
        return self.run_normalized(normalize_cells(crops))[0]


def _moved(inputs: Floats, rows: int, columns: int) -> Floats:
    """(n, h, w) ``inputs`` moved ``rows`` down and ``columns`` right, one pixel at most,
    the pixels moved in blank (nothing wraps round)."""
    out = np.zeros_like(inputs)
    h, w = inputs.shape[1:]
    out[:, max(rows, 0):h + min(rows, 0), max(columns, 0):w + min(columns, 0)] = \
        inputs[:, max(-rows, 0):h + min(-rows, 0), max(-columns, 0):w + min(-columns, 0)]
    return out


def l2_normalize(x: Floats) -> Floats:
    """Rows of ``x`` scaled to unit length (all-zero rows stay zero)."""
    unit: Floats = x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-8)
    return unit
