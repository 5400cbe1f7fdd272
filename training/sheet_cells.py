"""Digit cells cut by the scanner itself from sample sheets of the TRAINING part, with the
truth's labels.

Each sheet folder (``page-*`` images and ``truth.json``, as :func:`samplegen.sheets.make_sample`
writes them) is registered, identified and read exactly as ``pulka scan`` does (a page whose QR
code will not decode matched to its siblings', :meth:`Identifier.identify_all`; each sheet
read by :func:`scanner.read.read_sheet_pages`: a far photo's boxes cut at a coarse page's
floors, a black-and-white page's dots joined where its strokes broke, a faint seat's boxes
cut again); every digit cell the classifier would see (ink above
:data:`scanner.constants.EMPTY_MAX_INK_FRACTION`) is kept with the truth's digit, or EMPTY where
nothing was written (specks, a neighbour's spill, border remnants). Each cell carries the glyph
source of the seat that wrote it, so whole writer sources can be held out for calibration.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from forms.model import CalibrationCell, EntryCell
from scanner import constants as k
from scanner.arrays import Floats, GreyImage
from scanner.digits.constants import EMPTY_CLASS
from scanner.digits.normalize import normalize_cells
from scanner.digits.recognizer import DigitRecognizer
from scanner.errors import ScanError
from scanner.image.identify import Identifier, assemble_sheets
from scanner.image.load import load_file
from scanner.image.register import register
from scanner.read import read_sheet_pages

Place = tuple[int, float, float]


@dataclass(frozen=True)
class SheetCells:
    """Cut digit cells with their labels (0-9, EMPTY), each one's writer source and seat."""

    crops: list[GreyImage]
    labels: list[int]
    sources: list[str]
    seats: list[str]


def _place(page: int, x_mm: float, y_mm: float) -> Place:
    return page, round(x_mm, 2), round(y_mm, 2)


def training_sheets(root: Path) -> list[Path]:
    """The sample-sheet folders under ``root`` whose writers are the open generator's TRAINING
    part (legacy sheets and coarse ``blocks`` ones are left out: their glyphs are the held-out
    MNIST digits)."""
    out = []
    for truth in sorted(root.glob("*/truth.json")):
        plan = json.loads(truth.read_text(encoding="utf-8"))["writers"].get("plan") or {}
        if plan.get("profile") == "open" and plan.get("part") == "training" \
                and plan.get("family") != "blocks":
            out.append(truth.parent)
    return out


def _truth(folder: Path) -> tuple[dict[Place, str], dict[str, str], str]:
    """The written character of every digit box, each seat's glyph source, the deal keeper."""
    truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    chars = {_place(c["page"], c["box"][0], c["box"][1]): c["char"] for c in truth["cells"]}
    writers = truth["writers"]
    sources = {seat: hand["source"] for seat, hand in writers["seats"].items()}
    return chars, sources, writers["deals"]


def sheet_cells(folder: Path, recognizer: DigitRecognizer | None = None) -> SheetCells:
    """The digit cells of one sample sheet as the scanner reads them with ``recognizer`` (by
    default the committed model, which decides where a sheet's ink is lost and its boxes
    cut again), none if it is refused."""
    chars, sources, keeper = _truth(folder)
    out = SheetCells([], [], [], [])
    try:
        scanned = [register(page) for path in sorted(folder.glob("page-*"))
                   for page in load_file(path)]
    except ScanError:
        return out
    pages, _ = Identifier().identify_all(scanned)
    sheets, _ = assemble_sheets(pages)
    for sheet in sheets:
        readings, _ = read_sheet_pages(sheet, recognizer or DigitRecognizer(), keep_crops=True)
        for reading in readings.values():
            for cell in reading.cells:
                char = chars.get(_place(cell.box.page, cell.box.x_mm, cell.box.y_mm))
                if cell.box.kind != "digit" or cell.crop is None or char is None \
                        or cell.ink_fraction <= k.EMPTY_MAX_INK_FRACTION:
                    continue
                if char and not char.isdigit():
                    continue
                meaning = cell.box.meaning
                seat = meaning.seat if isinstance(meaning, EntryCell | CalibrationCell) \
                    else keeper
                out.crops.append(cell.crop)
                out.labels.append(int(char) if char else EMPTY_CLASS)
                out.sources.append(sources.get(seat, ""))
                out.seats.append(seat)
    return out


@dataclass(frozen=True)
class Harvest:
    """Normalised cells of many sheets: inputs, labels, writer sources and writer numbers (one
    per seat of a sheet)."""

    x: Floats
    y: npt.NDArray[np.int64]
    sources: npt.NDArray[np.str_]
    writers: npt.NDArray[np.int64]

    def part(self, keep: npt.NDArray[np.bool_]) -> Harvest:
        """The cells where ``keep`` is true."""
        return Harvest(self.x[keep], self.y[keep], self.sources[keep], self.writers[keep])


def harvest(folders: list[Path], workers: int = 1) -> Harvest:
    """Every sheet's cells, normalised; digits that normalisation erases entirely are dropped,
    as in :mod:`training.dataset`."""
    from multiprocessing import get_context

    with get_context("fork").Pool(workers) as pool:
        made = pool.map(sheet_cells, folders, chunksize=1)
    x = normalize_cells([c for m in made for c in m.crops]).reshape(-1, 28, 28)
    seats = [(i, seat) for i, m in enumerate(made) for seat in m.seats]
    numbers = {key: n for n, key in enumerate(dict.fromkeys(seats))}
    out = Harvest(np.asarray(x, np.float32), np.asarray([v for m in made for v in m.labels],
                                                        np.int64),
                  np.asarray([s for m in made for s in m.sources]),
                  np.asarray([numbers[key] for key in seats], np.int64))
    return out.part((out.y == EMPTY_CLASS) | out.x.reshape(len(out.x), 28 * 28).any(axis=1))
