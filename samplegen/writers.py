"""The hands that fill a sample sheet: the legacy pen, and the open generator's writers.

A hand writes a digit or a minus into a box and makes a mark (``marked`` or ``cancelled``).
:class:`LegacyHand` is the old generator (:mod:`samplegen.handwriting`): MNIST specimens kept
inside the box, neat crosses. :class:`OpenHand` is a writer of the open generator: its glyph
source (a font or a pen-stroke style), its ink (:data:`INKS`), digits 55-110 % of the box
height placed off centre and now and then 10-30 % over the border into the neighbour box, and
its own mark style (:mod:`samplegen.marks`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from forms.layout import mm_to_px
from forms.model import Box
from samplegen.handwriting import (
    WriterStyle,
    apply_ink,
    draw_cancelled,
    draw_cross,
    draw_digit,
    draw_minus,
    ink_around,
    shape_digit,
    upright_size,
)
from samplegen.marks import draw_mark
from scanner.arrays import Floats, GreyImage


class Hand(Protocol):
    """What fills the boxes of one seat."""

    def digit(self, page: Floats, box: Box, char: str, dpi: int, rng: random.Random,
              calibration: bool = False) -> None:
        """Write ``char`` (a digit or ``-``) into ``box``."""

    def mark(self, page: Floats, box: Box, state: str, dpi: int, rng: random.Random) -> None:
        """Mark ``box`` (``marked`` or ``cancelled``)."""

    def to_json(self) -> dict[str, Any]:
        """The hand for the truth file."""


@dataclass(frozen=True)
class LegacyHand:
    """The old generator's pen (:class:`WriterStyle`) with its glyph set."""

    style: WriterStyle
    glyphs: dict[int, list[GreyImage]]

    def digit(self, page: Floats, box: Box, char: str, dpi: int, rng: random.Random,
              calibration: bool = False) -> None:
        """Write ``char`` inside the box's margin."""
        size = upright_size(box, dpi)
        if char == "-":
            dark = draw_minus(size, self.style, dpi, rng)
        else:
            d = int(char)
            choices = [i for i in self.style.glyph_indices.get(d, ())
                       if i < len(self.glyphs[d])]
            index = choices[0] if calibration else rng.choice(choices)
            dark = draw_digit(self.glyphs[d][index], size, self.style, dpi, rng)
        apply_ink(page, box, dark, self.style, dpi)

    def mark(self, page: Floats, box: Box, state: str, dpi: int, rng: random.Random) -> None:
        """A neat cross, or a cross scribbled over."""
        draw = draw_cross if state == "marked" else draw_cancelled
        apply_ink(page, box, draw(upright_size(box, dpi), self.style, dpi, rng), self.style,
                  dpi)

    def to_json(self) -> dict[str, Any]:
        """The pen and the glyph indices."""
        return {"profile": "legacy", **self.style.to_json()}


@dataclass(frozen=True)
class Ink:
    """A pen: colour, stroke width, pressure, and how grainy its line is (pencil)."""

    rgb: tuple[float, float, float]
    pen_mm: tuple[float, float]
    pressure: tuple[float, float]
    grain: float


INKS = {
    "black": Ink((0.1, 0.1, 0.12), (0.3, 0.55), (0.85, 1.0), 0.0),
    "blue-ballpoint": Ink((0.14, 0.22, 0.66), (0.25, 0.45), (0.6, 0.95), 0.15),
    "pencil": Ink((0.38, 0.38, 0.4), (0.3, 0.6), (0.35, 0.8), 0.45),
    "felt-tip": Ink((0.05, 0.06, 0.12), (0.7, 1.1), (0.95, 1.0), 0.0),
}
"""Every ink the open generator writes with (both parts); pencil from faint to firm."""
HEIGHT_RANGE = (0.55, 1.1)
"""A digit's height as a fraction of the box height."""
SPILL_RANGE = (0.1, 0.3)
"""How far a spilling digit goes over the border, a fraction of the box's side."""
SPILL_PROBABILITY = 0.3
"""Chance that one digit of a writer who spills goes over the border."""
PAD_FRACTION = 0.45
"""Canvas around a box for ink that goes over it, a fraction of its longer side."""


@dataclass(frozen=True)
class OpenHand:
    """A writer of the open generator."""

    seat: str
    source: str
    glyphs: dict[int, list[GreyImage]]
    ink: str
    pen_mm: float
    pressure: float
    height: tuple[float, float]
    slant: float
    spills: bool
    mark_style: str
    cancel_style: str

    def digit(self, page: Floats, box: Box, char: str, dpi: int, rng: random.Random,
              calibration: bool = False) -> None:
        """Write ``char``: its size in :attr:`height`, off centre, maybe over the border."""
        w, h = upright_size(box, dpi)
        pad = round(PAD_FRACTION * max(w, h))
        height = round(rng.uniform(*self.height) * h)
        if char == "-":
            style = WriterStyle(self.seat, {}, "black", self.pen_mm, 0.7, self.slant, 1.0)
            dark = draw_minus((w, h), style, dpi, rng)
            dark = np.pad(dark, pad)
        else:
            specimens = self.glyphs[int(char)]
            glyph = specimens[0] if calibration else rng.choice(specimens)
            shaped = shape_digit(glyph, height, round(1.05 * w), self.slant, self.pen_mm,
                                 dpi, rng)
            dark = _place_over(shaped, (w, h), pad, self.spills and not calibration, rng)
        ink_around(page, box, self._inked(dark, rng), INKS[self.ink].rgb, dpi, pad)

    def mark(self, page: Floats, box: Box, state: str, dpi: int, rng: random.Random) -> None:
        """The writer's mark, or the cancelling fill."""
        w, h = upright_size(box, dpi)
        pad = round(PAD_FRACTION * max(w, h))
        style = self.mark_style if state == "marked" else self.cancel_style
        dark = draw_mark(style, (w, h), pad, max(1.0, mm_to_px(self.pen_mm, dpi)), rng,
                         self.mark_style)
        ink_around(page, box, self._inked(dark, rng), INKS[self.ink].rgb, dpi, pad)

    def _inked(self, dark: Floats, rng: random.Random) -> Floats:
        """Pressure and the pen's grain."""
        grain = INKS[self.ink].grain
        if grain:
            noise = np.random.default_rng(rng.getrandbits(32)).random(dark.shape, np.float32)
            dark = dark * (1.0 - grain * noise)
        return np.clip(dark * self.pressure, 0.0, 1.0)

    def to_json(self) -> dict[str, Any]:
        """The writer's choices."""
        return {"profile": "open", "seat": self.seat, "source": self.source, "ink": self.ink,
                "pen_mm": round(self.pen_mm, 3), "pressure": round(self.pressure, 3),
                "height": [round(v, 3) for v in self.height], "slant": round(self.slant, 3),
                "spills": self.spills, "mark_style": self.mark_style,
                "cancel_style": self.cancel_style}


def _place_over(dark: Floats, size: tuple[int, int], pad: int, spill: bool,
                rng: random.Random) -> Floats:
    """The drawing on the box's padded canvas: off centre, over the border when ``spill``."""
    w, h = size
    canvas = np.zeros((h + 2 * pad, w + 2 * pad), np.float32)
    ys, xs = np.nonzero(dark > 0.02)
    if not len(ys):
        return canvas
    dark = dark[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1][:h + 2 * pad, :w + 2 * pad]
    dh, dw = dark.shape
    x = (w - dw) / 2 + rng.uniform(-0.15, 0.15) * w
    y = (h - dh) / 2 + rng.uniform(-0.12, 0.12) * h
    if spill and rng.random() < SPILL_PROBABILITY:
        over = rng.uniform(*SPILL_RANGE)
        side = rng.choice(("left", "right", "top", "bottom"))
        x = {"left": -over * w, "right": w * (1 + over) - dw}.get(side, x)
        y = {"top": -over * h, "bottom": h * (1 + over) - dh}.get(side, y)
    x0 = int(np.clip(round(x) + pad, 0, w + 2 * pad - dw))
    y0 = int(np.clip(round(y) + pad, 0, h + 2 * pad - dh))
    canvas[y0:y0 + dh, x0:x0 + dw] = dark
    return np.clip(canvas, 0.0, 1.0)
