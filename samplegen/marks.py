"""Marks in a choice box as people make them: crosses, ticks, plus signs, loops, scribbles.

Each :data:`MARK_SHAPES` entry is a mark style: its strokes in a unit square centred on 0
(x right, y down), its size range as a fraction of the box's shorter side (60-140 %), how far
off centre it may sit and how far it may be turned. A box is *cancelled* the sheet's own way:
crossed, then filled (``cancel-zigzag``: a zigzag scribble over it; ``cancel-solid``: filled
in solid). The drawing is a darkness map of the box plus ``pad`` pixels on every side, so a mark
may go over the border. Which style belongs to which part is :mod:`samplegen.split`'s.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np

from samplegen.handwriting import draw_strokes
from scanner.arrays import Doubles, Floats

Shape = list[list[tuple[float, float]]]


@dataclass(frozen=True)
class MarkShape:
    """A mark style: strokes and how they vary."""

    strokes: Shape
    size_range: tuple[float, float]
    """Size as a fraction of the box's shorter side."""
    offset: float
    """Largest move of the centre, as a fraction of the side."""
    turn_deg: float


def _ellipse(rx: float, ry: float, a0: float, a1: float) -> list[tuple[float, float]]:
    angles = np.deg2rad(np.linspace(a0, a1, 28))
    return [(rx * float(np.cos(a)), ry * float(np.sin(a))) for a in angles]


def _zigzag(n: int) -> list[tuple[float, float]]:
    return [(-0.5 if i % 2 == 0 else 0.5, -0.5 + i / n) for i in range(n + 1)]


def _coil(turns: int) -> list[tuple[float, float]]:
    t = np.linspace(0, 2 * np.pi * turns, 24 * turns)
    return [(-0.45 + 0.9 * float(a) / t[-1] + 0.18 * float(np.cos(a)), 0.3 * float(np.sin(a)))
            for a in t]


MARK_SHAPES = {
    "x-neat": MarkShape([[(-0.5, -0.5), (0.5, 0.5)], [(0.5, -0.5), (-0.5, 0.5)]],
                        (0.6, 0.85), 0.08, 10),
    "x-hasty": MarkShape([[(-0.45, -0.55), (0.55, 0.5)], [(0.4, -0.5), (-0.55, 0.45)]],
                         (0.85, 1.3), 0.2, 20),
    "tick-short": MarkShape([[(-0.45, 0.0), (-0.12, 0.4), (0.5, -0.45)]], (0.6, 0.9), 0.1, 10),
    "tick-long": MarkShape([[(-0.4, 0.05), (-0.2, 0.45), (0.5, -0.55)]], (0.85, 1.3), 0.2, 15),
    "plus-upright": MarkShape([[(0.0, -0.5), (0.0, 0.5)], [(-0.5, 0.0), (0.5, 0.0)]],
                              (0.6, 0.9), 0.1, 6),
    "plus-tilted": MarkShape([[(0.05, -0.5), (-0.05, 0.5)], [(-0.5, 0.05), (0.5, -0.08)]],
                             (0.8, 1.3), 0.2, 18),
    "loop-circle": MarkShape([_ellipse(0.45, 0.45, -80, 300)], (0.6, 0.95), 0.1, 0),
    "loop-oval": MarkShape([_ellipse(0.55, 0.35, 20, 410)], (0.85, 1.3), 0.2, 30),
    "scribble-zigzag": MarkShape([_zigzag(3)], (0.6, 0.9), 0.1, 15),
    "scribble-coil": MarkShape([_coil(2)], (0.8, 1.3), 0.2, 20),
    # the training part's marks larger than the box and off centre, as people make them
    "tick-sprawl": MarkShape([[(-0.5, -0.05), (-0.15, 0.5), (0.45, -0.5)]], (0.9, 1.4), 0.22,
                             20),
    "loop-sprawl": MarkShape([_ellipse(0.47, 0.42, -30, 340)], (0.9, 1.4), 0.22, 25),
}
"""The mark styles (not the cancelling ones) by name; each spans about one unit, so its size
range is its size as a fraction of the box. A scribble stays an open line (a box filled in is
the legend's cancel)."""
CANCEL_STYLES = ("cancel-zigzag", "cancel-solid")
WOBBLE = 0.02
"""Tremor of a stroke point, a fraction of the side."""
FILL_INSET = 0.06
"""A solid fill stays this fraction of the side inside the box."""


def _transform(shape: MarkShape, side: float, centre: Doubles, rng: random.Random
               ) -> list[Doubles]:
    size = rng.uniform(*shape.size_range) * side
    turn = np.deg2rad(rng.uniform(-shape.turn_deg, shape.turn_deg))
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    move = np.array([rng.uniform(-shape.offset, shape.offset) * side for _ in range(2)])
    out = []
    for stroke in shape.strokes:
        pts = np.array(stroke, float)
        pts = pts + np.array([[rng.uniform(-WOBBLE, WOBBLE) for _ in range(2)] for _ in pts])
        out.append((pts * size) @ rot.T + centre + move)
    return out


def draw_mark(style: str, size: tuple[int, int], pad: int, pen_px: float,
              rng: random.Random, first: str = "x-neat") -> Floats:
    """A mark of ``style`` in a box of ``size`` (w, h), on a canvas ``pad`` px wider each side;
    a cancelling style first makes the mark ``first``, then fills the box."""
    w, h = size
    canvas = (w + 2 * pad, h + 2 * pad)
    centre = np.array([pad + w / 2, pad + h / 2])
    side = float(min(w, h))
    if style in CANCEL_STYLES:
        return _cancelled(style, first, size, pad, pen_px, rng)
    return draw_strokes(canvas, _transform(MARK_SHAPES[style], side, centre, rng), pen_px)


def _cancelled(style: str, first: str, size: tuple[int, int], pad: int, pen_px: float,
               rng: random.Random) -> Floats:
    """The mark ``first``, then the box filled in."""
    w, h = size
    cross = draw_mark(first, size, pad, pen_px, rng)
    if style == "cancel-zigzag":
        centre = np.array([pad + w / 2, pad + h / 2])
        zig = MarkShape([_zigzag(max(4, int(h / max(pen_px * 0.8, 1.0))))], (0.85, 0.95),
                        0.03, 4)
        strokes = _transform(zig, float(min(w, h)), centre, rng)
        fill = draw_strokes((cross.shape[1], cross.shape[0]), strokes, pen_px * 1.3)
    else:
        fill = np.zeros_like(cross)
        ix, iy = round(FILL_INSET * w * rng.uniform(0.5, 1.5)), round(FILL_INSET * h)
        fill[pad + iy:pad + h - iy, pad + ix:pad + w - ix] = rng.uniform(0.85, 1.0)
        fill = cast(Floats, cv2.GaussianBlur(fill, (0, 0), max(0.5, pen_px / 3)))
    return np.maximum(cross, fill)
