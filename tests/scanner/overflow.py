"""Writers who do not keep inside the boxes: digits of any size and place, ticks, plus signs,
loops and filled boxes, in pen or pencil, on a printed sheet scanned in grey."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from forms.layout import build_layout
from forms.model import Box, DealCell, EntryCell
from scanner.digits.recognizer import DigitRecognizer
from scanner.image.load import PageImage
from scanner.image.register import RegisteredPage, register
from tests.scanner.synth import PX_PER_MM

RECOGNIZER = DigitRecognizer()
"""The digit model the tests read with (one, loaded once)."""
PEN = 35
"""Grey level of ballpoint ink on the grey scan."""
PENCIL = 150
"""Grey level of a soft pencil (paper 255): lighter than the drop-out border's grey."""


def grey_scan(page_bgr: np.ndarray, name: str = "scan.png") -> RegisteredPage:  # type: ignore[type-arg]
    """The page as a flatbed scan in grey (the drop-out border turns grey), registered."""
    grey = cv2.cvtColor(page_bgr, cv2.COLOR_BGR2GRAY)
    return register(PageImage(Path(name), 0, cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)))


def entry_boxes(players: int, page: int, cells: int) -> list[tuple[Box, ...]]:
    """The upright (rotation 0) entries with ``cells`` digit cells on ``page``, each as its
    boxes from the left."""
    entries: dict[tuple[object, ...], list[Box]] = {}
    for box in build_layout(players).boxes_for(page):
        m = box.meaning
        if box.kind == "digit" and box.rotation_deg == 0 and isinstance(m, EntryCell):
            entries.setdefault((m.seat, m.column, m.on, m.entry), []).append(box)
    return [tuple(sorted(b, key=lambda x: x.x_mm)) for b in entries.values() if len(b) == cells]


def mark_boxes(players: int, row: int, field: str) -> list[Box]:
    """The mark boxes of one field of one deal row, from the left."""
    return sorted((b for b in build_layout(players).boxes_for(1)
                   if isinstance(b.meaning, DealCell) and b.meaning.row == row
                   and b.meaning.field == field and b.kind == "mark"), key=lambda b: b.x_mm)


def place_glyph(image: np.ndarray, box: Box, glyph: np.ndarray,  # type: ignore[type-arg]
                height: float = 0.7, centre: tuple[float, float] = (0.5, 0.5),
                bottom: float | None = None, level: int = PEN) -> None:
    """Write ``glyph`` (dark on light) ``height`` times the box's height tall, its ink box
    centred at ``centre`` (shares of the box's width and height from its top-left), or with
    its lowest ink ``bottom`` times the box's height below the box's top."""
    g = glyph.astype(np.float32)
    dark = np.clip((g.max() - g) / max(float(g.max() - g.min()), 1.0), 0.0, 1.0)
    ys, xs = np.nonzero(dark > 0.2)
    dark = dark[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    h_px = height * box.h_mm * PX_PER_MM
    scale = h_px / dark.shape[0]
    w_px = dark.shape[1] * scale
    size = (max(1, round(w_px)), max(1, round(h_px)))
    ink = np.clip(cv2.resize(dark, size, interpolation=cv2.INTER_CUBIC), 0.0, 1.0)
    cx = (box.x_mm + centre[0] * box.w_mm) * PX_PER_MM
    cy = (box.y_mm + centre[1] * box.h_mm) * PX_PER_MM
    if bottom is not None:
        cy = (box.y_mm + bottom * box.h_mm) * PX_PER_MM - h_px / 2
    _darken(image, round(cx - w_px / 2), round(cy - h_px / 2), ink, level)


def draw_mark(image: np.ndarray, box: Box, shape: str, size: float = 1.0,  # type: ignore[type-arg]
              shift: tuple[float, float] = (0.0, 0.0), level: int = PEN) -> None:
    """Draw a ``tick``, ``plus``, ``loop``, ``oval`` (a loop half as wide again as tall),
    ``cross`` or ``filled`` (a cross filled solid) mark ``size`` times the box's side, its
    centre moved by ``shift`` (shares of the side)."""
    side = box.w_mm * PX_PER_MM
    s = size * side
    canvas = np.zeros((round(3 * side), round(3 * side)), np.float32)
    c = 1.5 * side
    pen = max(2, round(0.35 * PX_PER_MM))

    def pt(x: float, y: float) -> tuple[int, int]:
        return round(c + x * s / 2), round(c + y * s / 2)

    if shape == "tick":
        cv2.polylines(canvas, [np.array([pt(-0.9, 0.0), pt(-0.3, 0.8), pt(0.9, -0.9)])], False,
                      1.0, pen, cv2.LINE_AA)
    elif shape == "plus":
        cv2.line(canvas, pt(-0.9, 0.0), pt(0.9, 0.0), 1.0, pen, cv2.LINE_AA)
        cv2.line(canvas, pt(0.0, -0.9), pt(0.0, 0.9), 1.0, pen, cv2.LINE_AA)
    elif shape == "loop":
        cv2.ellipse(canvas, pt(0.0, 0.0), (round(0.8 * s / 2), round(0.6 * s / 2)), 20, 0, 360,
                    1.0, pen, cv2.LINE_AA)
    elif shape == "oval":
        cv2.ellipse(canvas, pt(0.0, 0.0), (round(1.1 * s / 2), round(0.7 * s / 2)), 8, 0, 360,
                    1.0, pen, cv2.LINE_AA)
    else:
        cv2.line(canvas, pt(-0.8, -0.8), pt(0.8, 0.8), 1.0, pen, cv2.LINE_AA)
        cv2.line(canvas, pt(-0.8, 0.8), pt(0.8, -0.8), 1.0, pen, cv2.LINE_AA)
        if shape == "filled":
            cv2.rectangle(canvas, pt(-0.85, -0.85), pt(0.85, 0.85), 1.0, -1)
    x0 = round((box.x_mm + box.w_mm / 2 + shift[0] * box.w_mm) * PX_PER_MM - c)
    y0 = round((box.y_mm + box.h_mm / 2 + shift[1] * box.h_mm) * PX_PER_MM - c)
    _darken(image, x0, y0, canvas, level)


def _darken(image: np.ndarray, x0: int, y0: int, ink: np.ndarray,  # type: ignore[type-arg]
            level: int) -> None:
    """Lay ``ink`` (0 paper .. 1 full ink of grey ``level``) onto the page at ``x0, y0``."""
    h, w = ink.shape
    region = image[y0:y0 + h, x0:x0 + w].astype(np.float32)
    a = ink[:region.shape[0], :region.shape[1], None]
    image[y0:y0 + h, x0:x0 + w] = np.minimum(region, region * (1 - a) + level * a).astype(
        np.uint8)
