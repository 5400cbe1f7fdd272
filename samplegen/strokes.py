"""Pen-stroke digits: each digit a few strokes, drawn in a writer style of its own.

A :class:`StrokeStyle` fixes the forms a writer uses (a 1 plain, with a flag, or with a flag
and a foot; a 7 with or without a bar; an open or closed 4; a straight or hooked 9), the slant,
the width of the digits and how unsteady the hand is. Strokes are polylines in a unit box
(x right 0..~0.6, y down 0..1); every specimen moves each point a little and is drawn with
antialiasing at :data:`RENDER_HEIGHT_PX`. Which style belongs to which part is
:mod:`samplegen.split`'s.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np

from scanner.arrays import Doubles, GreyImage

RENDER_HEIGHT_PX = 64
STROKE_FRACTION = 0.11
"""Pen width of a specimen, as a fraction of its height (what samplegen.handwriting expects)."""
SUPERSAMPLE = 4
PAD_PX = 8


@dataclass(frozen=True)
class StrokeStyle:
    """One writer's forms and hand."""

    name: str
    one: str
    """``plain``, ``flag`` or ``flag-foot``."""
    seven_bar: bool
    four_open: bool
    nine_hooked: bool
    slant_range: tuple[float, float]
    """Shear (negative: leaning right)."""
    width: float
    """Width of a digit as a fraction of its height."""
    unsteady: float
    """Largest move of one stroke point, a fraction of the height."""


STYLES = {s.name: s for s in (
    StrokeStyle("strokes-school", "plain", False, False, False, (-0.1, 0.0), 0.6, 0.02),
    StrokeStyle("strokes-continental", "flag", True, True, True, (-0.22, -0.1), 0.6, 0.025),
    StrokeStyle("strokes-quick", "flag", False, True, False, (-0.32, -0.18), 0.5, 0.035),
    StrokeStyle("strokes-engineer", "flag-foot", True, False, False, (-0.04, 0.04), 0.66, 0.015),
    StrokeStyle("strokes-round", "plain", False, True, True, (0.0, 0.08), 0.8, 0.025),
    StrokeStyle("strokes-hurried", "flag", True, False, True, (-0.38, -0.25), 0.55, 0.04),
)}
"""The pen-stroke writer styles by name."""


def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float,
         n: int = 18) -> list[tuple[float, float]]:
    """Points of an elliptic arc from ``a0`` to ``a1`` degrees (y down: 270 is the top)."""
    angles = np.deg2rad(np.linspace(a0, a1, n))
    return [(cx + rx * float(np.cos(a)), cy + ry * float(np.sin(a))) for a in angles]


Strokes = list[list[tuple[float, float]]]


def _one(style: StrokeStyle) -> Strokes:
    strokes: Strokes = [[(0.35, 0.0), (0.35, 1.0)]]
    if style.one != "plain":
        strokes[0].insert(0, (0.08, 0.28))
    if style.one == "flag-foot":
        strokes.append([(0.1, 1.0), (0.6, 1.0)])
    return strokes


def _four(style: StrokeStyle) -> Strokes:
    if style.four_open:
        return [[(0.1, 0.0), (0.02, 0.62), (0.6, 0.62)], [(0.45, 0.08), (0.45, 1.0)]]
    return [[(0.45, 0.0), (0.0, 0.68), (0.62, 0.68)], [(0.45, 0.0), (0.45, 1.0)]]


def _seven(style: StrokeStyle) -> Strokes:
    strokes: Strokes = [[(0.02, 0.0), (0.6, 0.0), (0.22, 1.0)]]
    if style.seven_bar:
        strokes.append([(0.14, 0.52), (0.52, 0.52)])
    return strokes


def _nine(style: StrokeStyle) -> Strokes:
    loop = _arc(0.3, 0.28, 0.26, 0.26, 0, 360)
    if style.nine_hooked:
        return [loop, [(0.56, 0.28), (0.55, 0.8), (0.48, 0.95), (0.33, 1.0), (0.16, 0.92)]]
    return [loop, [(0.56, 0.28), (0.5, 1.0)]]


def digit_strokes(digit: int, style: StrokeStyle) -> Strokes:
    """The strokes of ``digit`` in ``style``'s forms (unit box, before slant and width)."""
    fixed: dict[int, Strokes] = {
        0: [_arc(0.3, 0.5, 0.28, 0.5, 250, 620, 30)],
        2: [_arc(0.3, 0.28, 0.27, 0.27, 200, 380) + [(0.02, 1.0), (0.62, 1.0)]],
        3: [_arc(0.3, 0.25, 0.25, 0.25, 200, 450) + _arc(0.3, 0.74, 0.28, 0.26, 270, 520)],
        5: [[(0.56, 0.0), (0.1, 0.0), (0.06, 0.44)] + _arc(0.3, 0.7, 0.28, 0.3, 220, 520)],
        6: [[(0.5, 0.0), (0.25, 0.2), (0.08, 0.5), (0.05, 0.72)]
            + _arc(0.3, 0.74, 0.25, 0.25, 180, 540)],
        8: [_arc(0.3, 0.25, 0.22, 0.24, 90, 450), _arc(0.3, 0.74, 0.28, 0.26, 270, 630)],
    }
    if digit in fixed:
        return fixed[digit]
    return {1: _one, 4: _four, 7: _seven, 9: _nine}[digit](style)


def draw_specimen(digit: int, style: StrokeStyle, rng: random.Random) -> GreyImage:
    """One specimen of ``digit``: dark ink on light paper, :data:`RENDER_HEIGHT_PX` tall."""
    h = RENDER_HEIGHT_PX
    slant = rng.uniform(*style.slant_range)
    width = style.width * rng.uniform(0.9, 1.1)
    size = (int(h * (width + abs(slant) + 0.2)) + 2 * PAD_PX, h + 2 * PAD_PX)
    big = np.zeros((size[1] * SUPERSAMPLE, size[0] * SUPERSAMPLE), np.uint8)
    x_shift = PAD_PX + max(0.0, slant) * h
    for stroke in digit_strokes(digit, style):
        points: Doubles = np.array(stroke, float)
        points += np.array([[rng.uniform(-style.unsteady, style.unsteady) for _ in range(2)]
                            for _ in points])
        xs = points[:, 0] / 0.6 * width * h - slant * (1.0 - points[:, 1]) * h + x_shift
        ys = points[:, 1] * h + PAD_PX
        pts = np.round(np.stack([xs, ys], axis=1) * SUPERSAMPLE).astype(np.int32)
        cv2.polylines(big, [pts], False, 255, max(1, round(STROKE_FRACTION * h * SUPERSAMPLE)),
                      cv2.LINE_AA)
    dark = cast(GreyImage, cv2.resize(big, size, interpolation=cv2.INTER_AREA))
    return (255 - dark).astype(np.uint8)


def stroke_glyphs(name: str, rng: random.Random, specimens: int = 4
                  ) -> dict[int, list[GreyImage]]:
    """``specimens`` images of each digit in writer style ``name``."""
    style = STYLES[name]
    return {d: [draw_specimen(d, style, rng) for _ in range(specimens)] for d in range(10)}
