"""The UCI handwritten digits as a glyph source of the EVALUATION part: 8 x 8 blocks of 0-16
(``sklearn.datasets.load_digits``: 1,797 digits of writers the digit model never saw), each
enlarged into a glyph the open generator's writers draw like any other; and the TRAINING
part's coarse digits, other writers reduced the same way (:func:`blocks_glyphs`).

The independent evaluation writes whole sheets with them (issue 13: "the UCI digits stay
evaluation-only"), so the evaluation part does too: they are never trained, calibrated or
tuned on (:mod:`samplegen.split`). The data set names no writer, so a seat's specimens are
drawn at random from the whole set: one seat writes like several people, and its calibration
strip tells the reader less about its entries than a real writer's would.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import cast

import cv2
import numpy as np

from samplegen.glyphs import load_heldout_arrays
from scanner.arrays import Floats, GreyImage, Ints

UCI_SOURCE = "uci"
"""The glyph source's name (:data:`samplegen.split.GLYPH_SOURCES`)."""
BLOCKS_SOURCE = "mnist-blocks"
"""The TRAINING part's coarse digits: the held-out MNIST glyphs (the legacy profile's writers,
never trained on) reduced as the UCI digits were (:func:`coarse_blocks`)."""
GLYPH_PX = 64
"""Side of a glyph: the 8 x 8 block enlarged eight times."""
BLUR_PX = 2.0
"""Gaussian blur after the enlargement, so the blocks' steps become round strokes."""
INK_FROM, INK_SPAN = 0.35, 0.3
"""Ink darkness: 0 below ``INK_FROM`` of the full count, 1 from ``INK_FROM + INK_SPAN``
(solid strokes with soft edges, as a pen writes them)."""


def uci_available() -> bool:
    """Whether scikit-learn, which ships the UCI digits, is installed."""
    try:
        import sklearn.datasets  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        return False
    return True


@lru_cache(maxsize=1)
def _digits() -> tuple[Floats, Ints]:
    from sklearn.datasets import load_digits

    data = load_digits()
    return data.images.astype(np.float32) / 16.0, data.target.astype(np.intp)


def uci_glyph(block: Floats) -> GreyImage:
    """One 8 x 8 UCI block (0-1, ink high) as a glyph: dark ink on light paper."""
    big = cv2.GaussianBlur(cv2.resize(block.astype(np.float32), (GLYPH_PX, GLYPH_PX),
                                      interpolation=cv2.INTER_CUBIC), (0, 0), BLUR_PX)
    ink = np.clip((big - INK_FROM) / INK_SPAN, 0.0, 1.0)
    return (255 - 255 * ink).astype(np.uint8)


BITMAP_PX, BLOCK_PX = 32, 4
"""The UCI digits' own preprocessing (NIST): a digit's bitmap scaled to 32 px high, centred in
32 x 32, counted in 4 x 4 blocks of on pixels."""


def coarse_blocks(glyph: GreyImage) -> Floats:
    """Any digit glyph (dark ink on light paper) reduced as the UCI digits were: its ink
    thresholded, scaled to :data:`BITMAP_PX` high (its width in proportion, at most as wide),
    centred, then each :data:`BLOCK_PX` square's share of ink pixels (8 x 8, 0-1). Training
    draws the MNIST training digits so (:mod:`training.dataset`), never the UCI digits."""
    side = BITMAP_PX // BLOCK_PX
    ink = (255.0 - glyph.astype(np.float32)) / 255.0 > 0.5
    ys, xs = np.nonzero(ink)
    if not len(ys):
        return np.zeros((side, side), np.float32)
    bitmap = np.zeros((BITMAP_PX, BITMAP_PX), np.float32)
    box = ink[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1].astype(np.float32)
    width = max(1, min(BITMAP_PX, round(box.shape[1] * BITMAP_PX / box.shape[0])))
    scaled = cv2.resize(box, (width, BITMAP_PX), interpolation=cv2.INTER_AREA) >= 0.5
    left = (BITMAP_PX - width) // 2
    bitmap[:, left: left + width] = scaled
    return cast(Floats, bitmap.reshape(side, BLOCK_PX, side, BLOCK_PX).mean(axis=(1, 3)))


def _drawn(labels: Ints, rng: random.Random, specimens: int,
           glyph_of: Callable[[int], GreyImage]) -> dict[int, list[GreyImage]]:
    """``specimens`` glyphs of each digit: the set's items of that label drawn at random
    (their indices), each made a glyph by ``glyph_of``."""
    return {digit: [glyph_of(i) for i in rng.sample(np.flatnonzero(labels == digit).tolist(),
                                                     specimens)]
            for digit in range(10)}


def uci_glyphs(rng: random.Random, specimens: int = 4) -> dict[int, list[GreyImage]]:
    """``specimens`` glyphs of each digit, drawn at random from the UCI digits."""
    blocks, labels = _digits()
    return _drawn(labels, rng, specimens, lambda i: uci_glyph(blocks[i]))


def blocks_glyphs(rng: random.Random, specimens: int = 4) -> dict[int, list[GreyImage]]:
    """``specimens`` coarse glyphs of each digit: held-out MNIST digits drawn at random,
    reduced to 8 x 8 blocks and enlarged as the UCI digits are."""
    images, labels = load_heldout_arrays()
    return _drawn(labels, rng, specimens, lambda i: uci_glyph(coarse_blocks(images[i])))
