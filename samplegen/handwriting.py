"""A simulated pen: handwritten digit images, hand-drawn crosses, scribbles and minus signs.

Every drawing is a *darkness* map (0 = paper, 1 = full ink) the size of one box, first made
upright in the writer's own frame, then turned by the box's ``rotation_deg`` so it stands toward
its writer (:mod:`forms.model`), and finally multiplied onto the page in the writer's ink colour
(:func:`apply_ink`). Each seat writes with one :class:`WriterStyle`: its own few specimens of
each digit, one pen width, one ink, one slant, so a reader can adapt to that hand from the
calibration strip.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np

from forms.layout import box_rect_px, mm_to_px
from forms.model import Box
from scanner.arrays import Doubles, Floats, GreyImage

# --- the writer's hand -----------------------------------------------------------------
GLYPHS_PER_DIGIT = 4
"""Specimens of each digit one writer draws from (a consistent hand)."""
HEIGHT_FRACTION_RANGE = (0.55, 0.85)
"""Digit height as a fraction of the cell height (writer frame)."""
HEIGHT_JITTER = 0.05
"""Per-digit variation of the height fraction around the writer's own."""
ASPECT_JITTER_RANGE = (0.85, 1.2)
"""Width stretch of one digit."""
MAX_WIDTH_FRACTION = 0.88
"""A digit never gets wider than this fraction of the cell."""
CELL_MARGIN_FRACTION = 0.07
"""Ink keeps this fraction of the cell's side away from the border (the truth says 'inside')."""
SLANT_RANGE = (-0.25, 0.08)
"""Shear of the writer's digits (negative: leaning right, as most hands do)."""
TILT_JITTER_DEG = 4.0
PEN_MM_RANGE = (0.28, 0.6)
"""Ballpoint stroke width."""
NATIVE_STROKE_FRACTION = 0.12
"""Stroke width of a scaled MNIST digit, as a fraction of its height."""
PRESSURE_RANGE = (0.82, 1.0)
INK_COLOURS = {
    "blue": (0.08, 0.15, 0.58),
    "dark-blue": (0.1, 0.12, 0.38),
    "black": (0.1, 0.1, 0.12),
}
SUPERSAMPLE = 4
"""Crosses and strokes are drawn this many times larger, then shrunk (antialiasing)."""
CROSS_INSET_RANGE = (0.1, 0.24)
"""How far a cross's ends stay inside its box, as a fraction of the side."""
CROSS_BEND = 0.16
"""Bow of a cross's stroke, as a fraction of the side."""
CROSS_TURN_DEG = 12.0
"""A cross is turned by up to this much."""
CROSS_WOBBLE = 0.025
"""Tremor of a stroke, as a fraction of the side."""


@dataclass(frozen=True)
class WriterStyle:
    """One player's hand: specimens per digit, pen width, ink, size, slant."""

    seat: str
    glyph_indices: dict[int, tuple[int, ...]]
    ink: str
    pen_mm: float
    height_fraction: float
    slant: float
    pressure: float

    @property
    def ink_rgb(self) -> tuple[float, float, float]:
        """The ink's colour (RGB 0..1)."""
        return INK_COLOURS[self.ink]

    def to_json(self) -> dict[str, object]:
        """The style as JSON (the glyph indices of each digit in the glyph set)."""
        return {"seat": self.seat, "ink": self.ink, "ink_rgb": list(self.ink_rgb),
                "pen_mm": round(self.pen_mm, 3), "height_fraction": round(self.height_fraction, 3),
                "slant": round(self.slant, 3), "pressure": round(self.pressure, 3),
                "glyphs": {str(d): list(ix) for d, ix in sorted(self.glyph_indices.items())}}


def make_writers(seats: tuple[str, ...], glyphs: dict[int, list[GreyImage]],
                 rng: random.Random) -> dict[str, WriterStyle]:
    """A style per seat; the seats' digit specimens are disjoint where the set allows."""
    shuffled = {d: rng.sample(range(len(imgs)), len(imgs)) for d, imgs in glyphs.items()}
    inks = list(INK_COLOURS)
    writers = {}
    for k, seat in enumerate(seats):
        indices = {}
        for d, order in shuffled.items():
            share = order[k::len(seats)] or order
            indices[d] = tuple(share[:GLYPHS_PER_DIGIT])
        writers[seat] = WriterStyle(
            seat=seat, glyph_indices=indices, ink=rng.choice(inks),
            pen_mm=rng.uniform(*PEN_MM_RANGE), height_fraction=rng.uniform(*HEIGHT_FRACTION_RANGE),
            slant=rng.uniform(*SLANT_RANGE), pressure=rng.uniform(*PRESSURE_RANGE))
    return writers


# --- drawings in the writer's frame ------------------------------------------------------


def _writer_size(box: Box, dpi: float) -> tuple[int, int]:
    """(width, height) in pixels of the box as its writer sees it."""
    x0, y0, x1, y1 = box_rect_px(box, dpi)
    w, h = x1 - x0, y1 - y0
    return (h, w) if box.rotation_deg in (90, 270) else (w, h)


def _ink_of(glyph: GreyImage) -> Floats:
    """The glyph's darkness, cropped to its ink bounding box."""
    g = glyph.astype(np.float32)
    lo, hi = float(g.min()), float(g.max())
    dark = np.clip((hi - g) / max(hi - lo, 1.0), 0.0, 1.0)
    ys, xs = np.nonzero(dark > 0.1)
    if not len(ys):
        return np.zeros((1, 1), np.float32)
    return dark[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]


def draw_digit(glyph: GreyImage, size: tuple[int, int], style: WriterStyle, dpi: float,
               rng: random.Random) -> Floats:
    """A digit specimen placed into a cell of ``size`` (w, h): scaled, slanted, moved, inked."""
    cw, ch = size
    frac = np.clip(style.height_fraction + rng.uniform(-HEIGHT_JITTER, HEIGHT_JITTER),
                   *HEIGHT_FRACTION_RANGE)
    big = shape_digit(glyph, round(frac * ch), round(MAX_WIDTH_FRACTION * cw), style.slant,
                      style.pen_mm, dpi, rng)
    return _place(big, cw, ch, rng) * style.pressure


def shape_digit(glyph: GreyImage, height_px: int, max_width_px: int, slant: float,
                pen_mm: float, dpi: float, rng: random.Random) -> Floats:
    """A specimen's darkness scaled to ``height_px``, slanted, tilted and drawn with the pen."""
    ink = _ink_of(glyph)
    bh, bw = ink.shape
    th = max(3, height_px)
    tw = max(2, round(th * bw / bh * rng.uniform(*ASPECT_JITTER_RANGE)))
    tw = min(tw, max_width_px)
    pad = max(2, th // 4)
    big: Floats = np.zeros((th + 2 * pad, tw + 2 * pad), np.float32)
    interp = cv2.INTER_AREA if th < bh else cv2.INTER_CUBIC
    big[pad:pad + th, pad:pad + tw] = np.clip(cv2.resize(ink, (tw, th), interpolation=interp), 0, 1)
    # slant and tilt about the centre
    angle = np.deg2rad(rng.uniform(-TILT_JITTER_DEG, TILT_JITTER_DEG))
    c, s = np.cos(angle), np.sin(angle)
    shear = np.array([[1.0, slant], [0.0, 1.0]]) @ np.array([[c, -s], [s, c]])
    centre = np.array([big.shape[1] / 2, big.shape[0] / 2])
    matrix = np.hstack([shear, (centre - shear @ centre)[:, None]])
    big = cast(Floats, cv2.warpAffine(big, matrix, (big.shape[1], big.shape[0]),
                                      flags=cv2.INTER_LINEAR))
    return _pen_width(big, th, pen_mm, dpi)


def _pen_width(dark: Floats, height_px: int, pen_mm: float, dpi: float) -> Floats:
    """Thicken or thin the strokes to the writer's pen."""
    change = mm_to_px(pen_mm, dpi) - NATIVE_STROKE_FRACTION * height_px
    n = int(round(change / 2))
    if n == 0:
        return dark
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * abs(n) + 1, 2 * abs(n) + 1))
    if n > 0:
        return cast(Floats, cv2.dilate(dark, kernel))
    thinner = cast(Floats, cv2.erode(dark, kernel))
    return thinner if thinner.sum() > 0.4 * dark.sum() else dark


def _place(dark: Floats, cw: int, ch: int, rng: random.Random) -> Floats:
    """Put a drawing at a random place inside the cell's margin (shrinking it if needed)."""
    ys, xs = np.nonzero(dark > 0.02)
    canvas = np.zeros((ch, cw), np.float32)
    if not len(ys):
        return canvas
    dark = dark[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    mx, my = max(1, round(CELL_MARGIN_FRACTION * cw)), max(1, round(CELL_MARGIN_FRACTION * ch))
    room_w, room_h = cw - 2 * mx, ch - 2 * my
    h, w = dark.shape
    if w > room_w or h > room_h:
        scale = min(room_w / w, room_h / h)
        w, h = max(1, int(w * scale)), max(1, int(h * scale))
        dark = cast(Floats, cv2.resize(dark, (w, h), interpolation=cv2.INTER_AREA))
    x = mx + rng.randint(0, room_w - w)
    y = my + rng.randint(0, room_h - h)
    canvas[y:y + h, x:x + w] = dark
    return np.clip(canvas, 0.0, 1.0)


def _curve(p0: Doubles, p1: Doubles, bend: float, n: int = 12) -> Doubles:
    """Points of a slightly bowed stroke from p0 to p1 (a quadratic Bézier)."""
    mid = (p0 + p1) / 2
    d = p1 - p0
    normal = np.array([-d[1], d[0]]) / max(float(np.hypot(*d)), 1e-6)
    ctrl = mid + normal * bend
    t = np.linspace(0.0, 1.0, n)[:, None]
    points: Doubles = (1 - t) ** 2 * p0 + 2 * (1 - t) * t * ctrl + t ** 2 * p1
    return points


def draw_strokes(size: tuple[int, int], strokes: list[Doubles], pen_px: float) -> Floats:
    """Polylines (in cell pixels) drawn antialiased as a darkness map of ``size`` (w, h)."""
    w, h = size
    big = np.zeros((h * SUPERSAMPLE, w * SUPERSAMPLE), np.uint8)
    thick = max(1, round(pen_px * SUPERSAMPLE))
    for pts in strokes:
        cv2.polylines(big, [np.round(pts * SUPERSAMPLE).astype(np.int32)], False, 255, thick,
                      cv2.LINE_AA)
    return cast(Floats, cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
                / 255)


def _pen_px(style: WriterStyle, dpi: float) -> float:
    return max(1.0, mm_to_px(style.pen_mm, dpi))


def _inside(points: Doubles, w: int, h: int, margin: float) -> Doubles:
    return np.clip(points, [margin, margin], [w - 1 - margin, h - 1 - margin])


def draw_cross(size: tuple[int, int], style: WriterStyle, dpi: float,
               rng: random.Random) -> Floats:
    """Two bowed, wobbly strokes corner to corner, each end placed by a quick hand."""
    w, h = size
    pen = _pen_px(style, dpi)
    side = float(min(w, h))
    centre = np.array([w / 2, h / 2]) + [rng.uniform(-0.06, 0.06) * side for _ in range(2)]
    turn = np.deg2rad(rng.uniform(-CROSS_TURN_DEG, CROSS_TURN_DEG))
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    strokes = []
    for sx, sy in ((-1, -1), (1, -1)):
        ends = []
        for sign in (1, -1):
            reach = (0.5 - rng.uniform(*CROSS_INSET_RANGE)) * side
            ends.append(centre + rot @ (sign * reach * np.array([sx, sy], float)))
        bend = rng.uniform(-CROSS_BEND, CROSS_BEND) * side
        pts = _curve(ends[0], ends[1], bend, 16)
        wobble = rng.uniform(0.0, CROSS_WOBBLE) * side
        phase = rng.uniform(0, 2 * np.pi)
        pts = pts + wobble * np.sin(np.linspace(0, 3 * np.pi, len(pts)) + phase)[:, None]
        strokes.append(_inside(pts, w, h, pen / 2 + 1))
    return draw_strokes(size, strokes, pen) * style.pressure


def draw_cancelled(size: tuple[int, int], style: WriterStyle, dpi: float,
                   rng: random.Random) -> Floats:
    """A cross, then the box filled in with a zigzag scribble (the printed legend's 'cancelled')."""
    w, h = size
    pen = _pen_px(style, dpi)
    cross = draw_cross(size, style, dpi, rng)
    m = pen / 2 + 1
    zig = []
    n = max(4, int(h / max(pen * 0.8, 1.0)))
    for i in range(n + 1):
        y = m + (h - 1 - 2 * m) * i / n + rng.uniform(-0.3, 0.3) * pen
        x = (m + rng.uniform(0, pen)) if i % 2 == 0 else (w - 1 - m - rng.uniform(0, pen))
        zig.append((x, y))
    scribble = draw_strokes(size, [_inside(np.array(zig), w, h, m)], pen * 1.3)
    return cast(Floats, np.maximum(cross, scribble) * style.pressure)


def draw_minus(size: tuple[int, int], style: WriterStyle, dpi: float,
               rng: random.Random) -> Floats:
    """A short, slightly tilted and bowed dash at mid-height."""
    w, h = size
    pen = _pen_px(style, dpi)
    length = rng.uniform(0.4, 0.7) * w
    cx = w / 2 + rng.uniform(-0.1, 0.1) * w
    cy = h / 2 + rng.uniform(-0.1, 0.1) * h
    tilt = rng.uniform(-0.08, 0.08) * length
    p0 = np.array([cx - length / 2, cy + tilt / 2])
    p1 = np.array([cx + length / 2, cy - tilt / 2])
    stroke = _inside(_curve(p0, p1, rng.uniform(-0.5, 0.5) * pen), w, h, pen / 2 + 1)
    return draw_strokes(size, [stroke], pen) * style.pressure


# --- onto the page ----------------------------------------------------------------------


def upright_size(box: Box, dpi: float) -> tuple[int, int]:
    """The box's (width, height) in pixels as its writer sees it."""
    return _writer_size(box, dpi)


def apply_ink(page: Floats, box: Box, dark: Floats, style: WriterStyle,
              dpi: float) -> None:
    """Turn a writer-frame darkness map toward its writer and multiply it onto ``page`` (float
    RGB 0..1, changed in place)."""
    ink_around(page, box, dark, style.ink_rgb, dpi, 0)


def ink_around(page: Floats, box: Box, dark: Floats, ink_rgb: tuple[float, float, float],
               dpi: float, pad: int) -> None:
    """:func:`apply_ink` for a map of the box and ``pad`` pixels around it (clipped to the
    page): ink that goes over the border lands on the border and the neighbour box."""
    turned = np.rot90(dark, k=-(box.rotation_deg // 90) % 4)
    x0, y0, x1, y1 = box_rect_px(box, dpi)
    x0, y0 = x0 - pad, y0 - pad
    cx, cy = max(0, -x0), max(0, -y0)
    region = page[y0 + cy:y1 + pad, x0 + cx:x1 + pad]
    turned = turned[cy:cy + region.shape[0], cx:cx + region.shape[1]]
    region = region[:turned.shape[0], :turned.shape[1]]
    tint = 1.0 - np.asarray(ink_rgb, np.float32)
    region *= 1.0 - turned[:, :, None] * tint
