"""The one wrapper around the ``tesseract`` binary (through pytesseract).

Tesseract reads two things: the printed sheet id beside the QR code, when the QR code is
damaged, and, for the benchmark only, digit cells beside the CNN classifier. One pytesseract
call costs 0.1-1 s (a process start and the model load), so :func:`read_digits` pastes many
cells into one strip image and reads it in one call, then gives each character back to the
cell under it by its box.
"""

from __future__ import annotations

import logging
import re
import shutil
from collections.abc import Sequence
from functools import lru_cache
from typing import cast

import cv2
import numpy as np

from scanner.arrays import GreyImage, Image
from scanner.errors import TesseractMissing
from scanner.words import said

log = logging.getLogger(__name__)

MIN_VERSION = (4, 0)
SHEET_ID_ALPHABET = "0123456789ABCDEFRSTC-"
"""Characters of :func:`forms.identity.make_sheet_id` ids (prefix ``R..-T..`` or ``S``, hex
digits, ``-C<n>``)."""
SHEET_ID_PATTERN = re.compile(r"^(S|R\d+-T\d{2,})-[0-9A-F]{6}(-C\d+)?$")
STRIP_GAP_PX = 24
"""White space between two cells pasted into one strip."""
STRIP_CELL_HEIGHT_PX = 48
"""Height each cell is scaled to in the strip (Tesseract likes 30-50 px text)."""
STRIP_MAX_CELLS = 40
"""Cells per strip: one line of text, so ``--psm 7`` applies."""
TIMEOUT_S = 30


@lru_cache(maxsize=1)
def tesseract_version() -> tuple[int, ...]:
    """Return the installed tesseract's version, e.g. ``(5, 3, 0)``.

    Raises :class:`TesseractMissing` with install advice when it is absent or too old.
    """
    try:
        import pytesseract
    except ImportError:
        raise TesseractMissing(said("no_pytesseract"), advice=said("pip_pytesseract")) from None
    if shutil.which(pytesseract.pytesseract.tesseract_cmd) is None:
        raise TesseractMissing(said("no_tesseract"))
    try:
        version = pytesseract.get_tesseract_version()
    except (pytesseract.TesseractNotFoundError, OSError) as error:
        raise TesseractMissing(said("tesseract_fails", error=str(error))) from None
    parts = tuple(int(p) for p in re.findall(r"\d+", str(version))[:3])
    if parts[:2] < MIN_VERSION:
        raise TesseractMissing(said("tesseract_old", version=str(version),
                                    minimum=".".join(map(str, MIN_VERSION))))
    log.debug("tesseract %s", version)
    return parts


def _config(psm: int, whitelist: str) -> str:
    return f"--psm {psm} --oem 1 -c tessedit_char_whitelist={whitelist}"


def _pad(gray: GreyImage, px: int = 16) -> GreyImage:
    return cast(GreyImage, cv2.copyMakeBorder(gray, px, px, px, px, cv2.BORDER_CONSTANT,
                                              value=255))


def read_sheet_id(region: Image) -> str | None:
    """Read the printed sheet id from its upright region image; None if it is not legible."""
    import pytesseract

    tesseract_version()
    gray = region if region.ndim == 2 else cv2.cvtColor(region, cv2.COLOR_BGR2GRAY)
    _, binary = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    text = pytesseract.image_to_string(_pad(cast(GreyImage, binary)),
                                       config=_config(7, SHEET_ID_ALPHABET), timeout=TIMEOUT_S)
    text = re.sub(r"\s+", "", text).upper()
    if SHEET_ID_PATTERN.match(text):
        return text
    log.info("sheet id text read as %r, which is not a sheet id", text)
    return None


def _strip(crops: Sequence[Image]) -> tuple[GreyImage, list[tuple[int, int]]]:
    """Paste cells side by side; return the strip and each cell's column span."""
    h = STRIP_CELL_HEIGHT_PX
    parts: list[GreyImage] = [np.full((h, STRIP_GAP_PX), 255, np.uint8)]
    spans, x = [], STRIP_GAP_PX
    for crop in crops:
        g = crop if crop.ndim == 2 else cast(GreyImage, cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY))
        w = max(1, round(g.shape[1] * h / max(g.shape[0], 1)))
        g = cast(GreyImage, cv2.resize(g, (w, h), interpolation=cv2.INTER_AREA))
        # OpenCV's stub requires a destination array; None (a new array) is what cv2 accepts
        g = cv2.normalize(g, None, 0, 255, cv2.NORM_MINMAX)  # type: ignore[call-overload]
        parts += [g, np.full((h, STRIP_GAP_PX), 255, np.uint8)]
        spans.append((x, x + w))
        x += w + STRIP_GAP_PX
    return _pad(np.hstack(parts)), spans


def read_digits(crops: Sequence[Image]) -> list[str]:
    """Read one digit per cell crop (upright, dark on light); ``""`` where none is read.

    Cells are read :data:`STRIP_MAX_CELLS` at a time as one line of text.
    """
    import pytesseract

    tesseract_version()
    out: list[str] = []
    for start in range(0, len(crops), STRIP_MAX_CELLS):
        chunk = crops[start:start + STRIP_MAX_CELLS]
        strip, spans = _strip(chunk)
        boxes = pytesseract.image_to_boxes(strip, config=_config(7, "0123456789"),
                                           timeout=TIMEOUT_S)
        found = [""] * len(chunk)
        height = strip.shape[0]
        del height
        for line in boxes.splitlines():
            parts = line.split()
            if len(parts) < 5 or not parts[0].isdigit():
                continue
            centre = (int(parts[1]) + int(parts[3])) / 2 - 16  # the strip's padding
            for i, (x0, x1) in enumerate(spans):
                if x0 - STRIP_GAP_PX / 2 <= centre < x1 + STRIP_GAP_PX / 2 and not found[i]:
                    found[i] = parts[0]
                    break
        out += found
    return out
