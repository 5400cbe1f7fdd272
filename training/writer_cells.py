"""Digit cells written by the open generator's TRAINING writers and cut as the scanner cuts them.

Each writer is a :class:`samplegen.writers.OpenHand` over one glyph source of the TRAINING part
of :mod:`samplegen.split` (a handwriting font or a pen-stroke style; never MNIST, an
EVALUATION source, a reserved font or UCI): its own specimens, ink (pencil grain and
faintness, blue ballpoint, felt-tip, black), pen, slant, digits 55-110 % of the box height
off centre and, for half of the writers, now and then 10-30 % over the border. It writes into
the middle box of a strip of three printed digit boxes (drop-out border), its neighbours
written too, so a neighbour's stroke may enter the box. The box is then cut like
:mod:`scanner.image.cells` does: at :data:`scanner.constants.WORK_PX_PER_MM`,
:data:`scanner.constants.BOX_INSET_MM` inside the border (with a registration error), in
the red channel of a colour capture or the grey level of a grey one.

The TRAINING part's sources are split once more by writer source: :data:`CALIBRATION_SOURCES`
never train the network; they fit the softmax and adaptation temperatures only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import cv2
import numpy as np

from forms.geometry.constants import CELL_H_MM, CELL_W_MM, DROPOUT_RGB
from forms.layout import mm_to_px
from forms.model import Box, CalibrationCell
from samplegen.fonts import available, font_glyphs
from samplegen.split import DIGIT_SETS, Part, names
from samplegen.strokes import STYLES, stroke_glyphs
from samplegen.writers import HEIGHT_RANGE, INKS, OpenHand
from scanner import constants as k
from scanner.arrays import GreyImage
from scanner.digits.constants import EMPTY_CLASS
from training.cells import capture

CALIBRATION_SOURCES = ("femkeklaver", "kristi", "gaegu", "itim", "strokes-quick")
"""TRAINING sources held out from fitting: the temperatures are fitted on their writers."""
SPECIMENS = 4
"""Specimens of each digit one writer draws from (as samplegen.profiles)."""
DPI_RANGE = (110.0, 320.0)
"""Resolution the page is written at before it is warped to the scanner's working one."""
REGISTRATION_MM = 0.35
"""Largest error of a box's found place, each side."""
GREY_SHARE = 0.3
"""Share of cells cut from a grey capture (printed border visible) instead of the red channel."""
NEIGHBOUR_SHARE = 0.7
"""Chance that each neighbour box holds a digit."""
BORDER_MM = 0.25
"""Printed cell border width."""


@dataclass(frozen=True)
class WriterCells:
    """Normalisable cell crops with their labels and writer numbers."""

    cells: list[GreyImage]
    labels: list[int]
    writers: list[int]


def writer_sources(part: str) -> tuple[str, ...]:
    """The TRAINING glyph sources here, ``fit`` (training the network) or ``calibration``."""
    training = names("glyphs", Part.TRAINING)
    here = available(tuple(s for s in training if s not in STYLES and s not in DIGIT_SETS))
    here += tuple(s for s in training if s in STYLES)
    held = tuple(s for s in here if s in CALIBRATION_SOURCES)
    return held if part == "calibration" else tuple(s for s in here if s not in held)


def make_writer(source: str, rng: random.Random) -> OpenHand:
    """One writer of ``source``: specimens, ink, pen, size and slant drawn as the open
    generator draws them."""
    glyphs = (stroke_glyphs(source, rng, SPECIMENS) if source in STYLES
              else font_glyphs(source, rng, SPECIMENS))
    ink = rng.choice(list(INKS))
    low = rng.uniform(HEIGHT_RANGE[0], HEIGHT_RANGE[1] - 0.25)
    return OpenHand(seat="a", source=source, glyphs=glyphs, ink=ink,
                    pen_mm=rng.uniform(*INKS[ink].pen_mm),
                    pressure=rng.uniform(*INKS[ink].pressure),
                    height=(low, min(HEIGHT_RANGE[1], low + rng.uniform(0.1, 0.3))),
                    slant=rng.uniform(-0.15, 0.05), spills=rng.random() < 0.5,
                    mark_style="x-neat", cancel_style="cancel-zigzag")


def _strip(dpi: float) -> tuple[np.ndarray, list[Box]]:
    """A page with three printed digit boxes side by side, a box's height of paper around."""
    boxes = [Box(0, CELL_W_MM * (i + 1), CELL_H_MM, CELL_W_MM, CELL_H_MM, 0, "digit",
                 CalibrationCell("a", i)) for i in range(3)]
    w, h = round(mm_to_px(5 * CELL_W_MM, dpi)), round(mm_to_px(3 * CELL_H_MM, dpi))
    page = np.ones((h, w, 3), np.float32)
    line = max(1, round(mm_to_px(BORDER_MM, dpi)))
    colour = tuple(float(c) for c in DROPOUT_RGB)
    for box in boxes:
        x0, y0 = round(mm_to_px(box.x_mm, dpi)), round(mm_to_px(box.y_mm, dpi))
        x1, y1 = round(mm_to_px(box.x_mm + box.w_mm, dpi)), round(mm_to_px(box.y_mm + box.h_mm,
                                                                          dpi))
        cv2.rectangle(page, (x0, y0), (x1, y1), colour, line)
    return page, boxes


def _cut(page: np.ndarray, box: Box, dpi: float, rng: random.Random) -> GreyImage:
    """The box as the scanner cuts it: warped to its working resolution, inside the border."""
    scale = k.WORK_PX_PER_MM / mm_to_px(1.0, dpi)
    grey = page @ np.array([0.299, 0.587, 0.114], np.float32) if rng.random() < GREY_SHARE \
        else page[:, :, 0]
    warped = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    inset = k.BOX_INSET_MM
    edges = [v + rng.uniform(-REGISTRATION_MM, REGISTRATION_MM) for v in (
        box.x_mm + inset, box.y_mm + inset, box.x_mm + box.w_mm - inset,
        box.y_mm + box.h_mm - inset)]
    x0, y0, x1, y1 = (max(0, round(v * k.WORK_PX_PER_MM)) for v in edges)
    return np.asarray(warped[y0:y1, x0:x1], np.float32)


def writer_cell(hand: OpenHand, digit: int | None, rng: random.Random) -> GreyImage:
    """``hand`` writes ``digit`` (None: nothing) into the middle box; the crop, captured."""
    dpi = rng.uniform(*DPI_RANGE)
    page, boxes = _strip(dpi)
    for side in (boxes[0], boxes[2]):
        if rng.random() < NEIGHBOUR_SHARE:
            hand.digit(page, side, str(rng.randrange(10)), dpi, rng)
    if digit is not None:
        hand.digit(page, boxes[1], str(digit), dpi, rng)
    crop = _cut(page, boxes[1], dpi, rng)
    nprng = np.random.default_rng(rng.getrandbits(32))
    level = nprng.uniform(170, 250)
    return capture(level * crop, 1.0 - crop, nprng)


def render_writers(sources: tuple[str, ...], writers_per_source: int, per_digit: int,
                   seed: int) -> WriterCells:
    """``writers_per_source`` writers of each source, each writing every digit
    ``per_digit`` times and one empty box a digit."""
    rng = random.Random(seed)
    out = WriterCells([], [], [])
    number = 0
    for source in sources:
        for _ in range(writers_per_source):
            hand = make_writer(source, rng)
            for digit in [*range(10)] * per_digit + [None] * 10:
                out.cells.append(writer_cell(hand, digit, rng))
                out.labels.append(EMPTY_CLASS if digit is None else digit)
                out.writers.append(number)
            number += 1
    return out
