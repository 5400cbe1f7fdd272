"""Stages 4-6, read a page: marks, digits and each writer's own hand; then the sheet's
readings as the rule decoder's evidence (:func:`sheet_evidence`).

:func:`read_page` cuts every box (:mod:`scanner.image.cells`), reads the mark boxes
(:mod:`scanner.image.marks`) and classifies the digit and sign cells with
:class:`scanner.digits.recognizer.DigitRecognizer` in one network pass a page, then adapts them
in one batch per writer (:class:`scanner.digits.adaptation.WriterAdaptation`). Cells whose
quick ink measure is clearly nothing skip the classifier and get EMPTY. Each seat's
calibration strip (the ten digits it wrote before the game) adapts the recognizer to that
seat's hand for the cells of its zone; the deal column, kept by one scorer, uses the general
model (or the scorer's adaptation when ``scorer`` is given).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from forms.identity import SheetIdentity
from forms.layout import entry_cells
from forms.model import Box, CalibrationCell, DealCell, EntryCell, Layout
from scanner import constants as k
from scanner.arrays import Floats, GreyImage, Image
from scanner.decode.deals import RowEvidence
from scanner.decode.entries import EntryCells
from scanner.decode.faint import (
    StripCell,
    faint_seats,
    refuse_if_unreadable,
    rows_lost,
    share_read_surely,
    unreadable_advice,
)
from scanner.decode.presence import no_deal_read
from scanner.decode.sheet import DecodedSheet, SheetEvidence
from scanner.digits.adaptation import WriterAdaptation
from scanner.digits.normalize import normalize_cells
from scanner.digits.recognizer import DigitRecognizer
from scanner.errors import PoorQuality
from scanner.image.cells import CellImage, cut_cells
from scanner.image.identify import SheetPages
from scanner.image.light_ink import as_light, light_cells
from scanner.image.marks import MarkReading, MarkThresholds, read_marks, sheet_marks
from scanner.image.minus import minus_share
from scanner.image.raster import rasterize, seat_digit_boxes
from scanner.image.register import RegisteredPage
from scanner.image.strips import entry_strip, strip_glyphs
from scanner.timing import StageClock
from scanner.words import said
from scoring.columns import Column

log = logging.getLogger(__name__)

NUM_CLASSES = 11
EMPTY = 10
BLACK_AND_WHITE_FIRST_LOOK_STEP = 8
""":func:`is_black_and_white` looks at every this many sampled rows and columns before the
whole sample: a grey or colour capture is told from them (a scan's white margins are not)."""


@dataclass(frozen=True)
class CellReading:
    """One digit or sign cell: a probability for each digit 0-9 and for EMPTY (index 10)."""

    box: Box
    probabilities: tuple[float, ...]
    ink_fraction: float
    crop: GreyImage | None = field(default=None, compare=False, hash=False, repr=False)

    @property
    def best(self) -> int:
        """The most probable class (10 = EMPTY)."""
        return int(np.argmax(self.probabilities))


@dataclass(frozen=True)
class PageReading:
    """Everything read from one page."""

    page: RegisteredPage
    cells: tuple[CellReading, ...]
    marks: tuple[MarkReading, ...]
    quality: tuple[str, ...]
    adapted_seats: tuple[str, ...]
    """Seats whose calibration strip was usable."""
    timings_s: dict[str, float] = field(compare=False, default_factory=dict)
    strips: dict[EntryKey, tuple[tuple[float, ...], ...]] = field(default_factory=dict)
    """Each inked entry's glyphs read as one strip (:mod:`scanner.image.strips`): a
    probability for each digit and EMPTY per glyph, left to right."""


EntryKey = tuple[str, str, str | None, int]
"""An entry of a column: its seat, column kind, opponent (whists) and number."""


@lru_cache(maxsize=256)
def _empty_row(ink: float) -> tuple[float, ...]:
    """A cell whose quick ink measure is clearly nothing: EMPTY, the less sure the more ink.
    Cached: nearly every such cell has exactly no ink, and a page has hundreds."""
    p_empty = k.EMPTY_PROBABILITY - (k.EMPTY_PROBABILITY - k.EMPTY_PROBABILITY_AT_LIMIT) * min(
        1.0, ink / max(k.EMPTY_MAX_INK_FRACTION, 1e-9))
    rest = (1.0 - p_empty) / 10
    return tuple([rest] * 10 + [p_empty])


def _sign_row(cell: CellImage) -> tuple[float, ...]:
    """A sign cell holds a minus or nothing: its ink and the ink's shape decide, not the digit
    model (which takes a lone dash for a border remnant, i.e. EMPTY). Past
    :data:`EMPTY_MAX_INK_FRACTION` the minus grows likely, sure at
    :data:`SIGN_INK_SURE_FRACTION`, as far as the ink is shaped like a minus (a thin stroke
    across the box's middle, :func:`scanner.image.minus.minus_share`: a border's remnant or
    noise is not one, however much ink it leaves)."""
    span = max(k.SIGN_INK_SURE_FRACTION - k.EMPTY_MAX_INK_FRACTION, 1e-9)
    share = min(1.0, (cell.ink_fraction - k.EMPTY_MAX_INK_FRACTION) / span,
                minus_share(cell.crop, cell.box))
    p_empty = (1 - share) * k.EMPTY_PROBABILITY_AT_LIMIT + share * (1 - k.EMPTY_PROBABILITY)
    rest = (1.0 - p_empty) / 10
    return tuple([rest] * 10 + [p_empty])


def _writer(box: Box, scorer: str | None) -> str | None:
    m = box.meaning
    if isinstance(m, EntryCell | CalibrationCell):
        return m.seat
    return scorer


def adaptations(inked: Sequence[CellImage], probs: Floats, embeds: Floats,
                seats: Sequence[str], recognizer: DigitRecognizer) -> dict[str, WriterAdaptation]:
    """Each seat's adaptation from its calibration cells on this page (active ones only).

    ``inked`` are the page's digit cells the classifier reads, ``probs`` and ``embeds`` the
    general model's rows for them (:meth:`DigitRecognizer.run_normalized`): the calibration
    cells among them are read in the page's one network pass, not a second time here.
    """
    calibration: dict[str, list[int]] = {}  # each seat's calibration cells, in page order
    for i, c in enumerate(inked):
        if isinstance(c.box.meaning, CalibrationCell):
            calibration.setdefault(c.box.meaning.seat, []).append(i)
    out: dict[str, WriterAdaptation] = {}
    for seat in seats:
        rows = calibration.get(seat)
        if not rows:
            continue
        digits = [inked[i].box.meaning.digit for i in rows]  # type: ignore[union-attr]
        adaptation = WriterAdaptation.from_readings(probs[rows], embeds[rows], digits, recognizer)
        if adaptation.active:
            out[seat] = adaptation
        else:
            log.info("seat %s: calibration strip too sparse to adapt", seat)
    return out


def read_page(registered: RegisteredPage, layout: Layout, recognizer: DigitRecognizer, *,
              writers: dict[str, WriterAdaptation] | None = None,
              thresholds: MarkThresholds | None = None, scorer: str | None = None,
              keep_crops: bool = False, clock: StageClock | None = None,
              joined: bool = False, faint_seats: tuple[str, ...] = ()) -> PageReading:
    """Read every box of one registered page of ``layout``.

    ``writers`` gives adaptations learned elsewhere (the triangle page's calibration strips,
    for the deal pages), made with ``recognizer``: they combine its network rows for this
    page (another model's raise ValueError). Those found on this page are added.
    ``thresholds`` are the sheet's mark thresholds (by default this page's own). ``clock``
    gets the time of the stages (warp, cut, marks, digits), as :attr:`PageReading.timings_s`
    does. ``joined``: strokes a black-and-white page broke into dots are read joined
    (:attr:`LostInk.dots`; a page in grey or colour is read as it is). ``faint_seats``:
    seats whose digit boxes are cut at the faint floors (:attr:`LostInk.recut`).
    """
    own = StageClock()
    boxes = layout.boxes_for(registered.page_index)
    if not boxes:
        return PageReading(registered, (), (), registered.warnings, (), {})
    black_and_white = is_black_and_white(registered.image)
    with own.stage("warp"):
        faint = seat_digit_boxes(boxes, faint_seats)
        raster = rasterize(registered, boxes, joined=joined and black_and_white, faint=faint)
    with own.stage("cut"):
        cells = cut_cells(raster, boxes, registered.px_per_mm, faint)
    with own.stage("marks"):
        marks = read_marks(cells, thresholds)
    with own.stage("digits"):
        digit_cells = [c for c in cells if c.box.kind in ("digit", "sign")]
        light = frozenset() if black_and_white else light_cells(
            digit_cells, lambda c: _writer(c.box, scorer))
        rows, found, classified = _read_digits(digit_cells, layout, recognizer, writers,
                                               scorer, light)
        strips = _read_strips(digit_cells, layout, recognizer, light)
    timings = dict(own.wall)
    timings["read"] = sum(own.wall.values())
    if clock is not None:
        clock.add(own)
    readings = tuple(CellReading(c.box, row, c.ink_fraction, c.crop if keep_crops else None)
                     for c, row in zip(digit_cells, rows, strict=True))
    log.debug("%s: %d cells (%d classified), %d marks in %.3f s", registered.label,
              len(readings), classified, len(marks), timings["read"])
    return PageReading(registered, readings, marks, registered.warnings, tuple(sorted(found)),
                       timings, strips)


def _read_strips(cells: Sequence[CellImage], layout: Layout, recognizer: DigitRecognizer,
                 light: frozenset[int] = frozenset()
                 ) -> dict[EntryKey, tuple[tuple[float, ...], ...]]:
    """The glyphs of each entry of the page with ink in a digit cell, its boxes read as one
    strip (:mod:`scanner.image.strips`), each glyph read by the general model; the boxes
    at the places ``light`` in ``cells`` (print: :mod:`scanner.image.light_ink`) left
    blank."""
    by_box = {cell.box: _blank(cell) if i in light else cell for i, cell in enumerate(cells)}
    keys: list[EntryKey] = []
    glyphs: list[GreyImage] = []
    counts: list[int] = []
    for (seat, kind, on), entries in entry_cells(layout).items():
        for boxes in entries:
            digits = [by_box[box] for box in boxes if box.kind == "digit" and box in by_box]
            if not digits or all(c.ink_fraction <= k.EMPTY_MAX_INK_FRACTION for c in digits):
                continue
            strip = entry_strip([c.crop for c in digits], _offsets(digits))
            found = strip_glyphs(strip, k.WORK_PX_PER_MM)
            meaning = boxes[0].meaning
            assert isinstance(meaning, EntryCell)
            keys.append((seat, kind, on, meaning.entry))
            glyphs += found
            counts.append(len(found))
    probabilities = recognizer.run_normalized(normalize_cells(glyphs))[0]
    strips: dict[EntryKey, tuple[tuple[float, ...], ...]] = {}
    at = 0
    for key, count in zip(keys, counts, strict=True):
        strips[key] = tuple(tuple(round(float(v), 6) for v in row)
                            for row in probabilities[at:at + count])
        at += count
    return strips


def _blank(cell: CellImage) -> CellImage:
    """``cell`` holding nothing (a light box in its entry's strip)."""
    return replace(cell, crop=np.full_like(cell.crop, 255), ink_fraction=0.0, cover=0.0)


def _offsets(cells: Sequence[CellImage]) -> list[int]:
    """Where each of an entry's digit boxes' crops lies along the writer's line, in raster
    pixels from the first: the distances between the boxes' centres."""
    centres = [(c.box.x_mm + c.box.w_mm / 2, c.box.y_mm + c.box.h_mm / 2) for c in cells]
    offsets = [0.0]
    for (x0, y0), (x1, y1) in zip(centres, centres[1:], strict=False):
        offsets.append(offsets[-1] + float(np.hypot(x1 - x0, y1 - y0)))
    return [round(mm * k.WORK_PX_PER_MM) for mm in offsets]


def with_sheet_marks(readings: dict[int, PageReading]) -> dict[int, PageReading]:
    """A sheet's page readings with each page's marks judged against the sheet's
    (:func:`~scanner.image.marks.sheet_marks`): a page read alone cannot tell the print's
    remnant from a scorer's marks where it holds none of them."""
    pages = list(readings)
    judged = sheet_marks([readings[page].marks for page in pages])
    return {page: replace(readings[page], marks=marks)
            for page, marks in zip(pages, judged, strict=True)}


def _read_digits(cells: Sequence[CellImage], layout: Layout, recognizer: DigitRecognizer,
                 writers: dict[str, WriterAdaptation] | None, scorer: str | None,
                 light: frozenset[int] = frozenset()
                 ) -> tuple[list[tuple[float, ...]], dict[str, WriterAdaptation], int]:
    """The probabilities of each of ``cells`` (the page's digit and sign cells), the writers
    adapted on this page, and how many cells the classifier read; those at the places
    ``light`` (print: :mod:`scanner.image.light_ink`) read as :func:`as_light`.

    The digit cells with ink (calibration cells included) are normalised and run through the
    network together, once; each writer's adaptation then combines its cells' rows. Cells
    are kept apart by their place in ``cells``, not by their box (hashing hundreds of boxes
    a page costs more than the lists)."""
    rows: list[tuple[float, ...]] = []
    inked: list[CellImage] = []
    at: list[int] = []  # the place in ``cells`` of each of ``inked``
    for c in cells:
        if c.ink_fraction <= k.EMPTY_MAX_INK_FRACTION:
            rows.append(_empty_row(c.ink_fraction))
        elif c.box.kind == "sign":
            rows.append(_sign_row(c))
        else:
            at.append(len(rows))
            rows.append(())  # the classifier's, below
            inked.append(c)
    probs, embeds = recognizer.run_normalized(normalize_cells([c.crop for c in inked]))
    found = adaptations(inked, probs, embeds, layout.seats, recognizer)
    hands = {**(writers or {}), **found}
    groups: dict[str | None, list[int]] = {}
    for i, c in enumerate(inked):
        writer = _writer(c.box, scorer)
        groups.setdefault(writer if writer in hands else None, []).append(i)
    for writer, members in groups.items():
        if writer is None:
            adapted = probs[members]
        elif hands[writer].recognizer is recognizer:
            adapted = hands[writer].combine_batch(probs[members], embeds[members])
        else:
            raise ValueError(f"the adaptation of writer {writer} was made with another digit model "
                             f"than the page's ({hands[writer].recognizer.model_path}); "
                             "build it with the recognizer given to read_page")
        for i, p in zip(members, adapted.tolist(), strict=True):
            rows[at[i]] = as_light(p) if at[i] in light else tuple([round(v, 6) for v in p])
    return rows, found, len(inked)


@dataclass(frozen=True)
class LostInk:
    """What one reading of a sheet finds lost from the image (:mod:`scanner.decode.faint`):
    the seats whose calibration strip is lost, whether the deal rows' ink is too, the page of
    the strips (None: not read) and whether it is black and white."""

    seats: tuple[str, ...]
    rows: bool
    page: RegisteredPage | None = field(compare=False, repr=False)
    black_and_white: bool
    cut_faint: bool = False
    """Whether the faint seats' boxes were cut at the faint floors (:attr:`recut`)."""

    @property
    def dots(self) -> bool:
        """Whether the sheet is to be read again with its strokes' dots joined
        (:data:`~scanner.constants.DOTS_JOIN_MM`): a black-and-white capture that lost a
        seat's strip broke its strokes into dots."""
        return self.black_and_white and bool(self.seats)

    @property
    def fine(self) -> bool:
        """Whether the strips' page (the columns') is fine
        (:data:`~scanner.constants.INK_FINE_PAGE_PX_PER_MM`) and in grey or colour."""
        return self.page is not None and not self.black_and_white \
            and self.page.px_per_mm >= k.INK_FINE_PAGE_PX_PER_MM

    @property
    def recut(self) -> bool:
        """Whether the sheet is to be read again with the faint seats' boxes cut at the
        faint floors (:data:`~scanner.constants.INK_FAINT_SEAT_FLOORS`): a grey or colour
        capture that lost a seat's strip lost its faint pencil, and its strips' page is
        :attr:`fine` (a far photo's grain is as dark as that pencil: TRAINING part, 20 far
        photos with a faint seat, blank boxes asked 159 -> 630 at those floors)."""
        return bool(self.seats) and not self.cut_faint and self.fine


def lost_ink(readings: dict[int, PageReading], before: LostInk | None = None) -> LostInk:
    """What ``readings`` find lost from the image, with what an earlier reading of the same
    pages found (``before``: a reading with the dots joined keeps what the threshold lost as
    lost, its fields doubtful unless the rules and the ink agree)."""
    strips, page = calibration_strips(readings)
    inked = [cell for reading in readings.values() for cell in reading.cells
             if cell.ink_fraction > k.EMPTY_MAX_INK_FRACTION]
    faint = faint_seats(strips, written_ink(inked))
    if before is not None:
        faint += tuple(seat for seat in before.seats if seat not in faint)
    rows_inked = [cell for cell in inked if isinstance(cell.box.meaning, DealCell)]
    written = any(isinstance(cell.box.meaning, EntryCell) and cell.box.meaning.seat not in faint
                  for cell in inked)
    rows = rows_lost(faint, [cell.ink_fraction for cell in rows_inked], strips,
                     share_read_surely([cell.probabilities for cell in rows_inked]),
                     written) or (before is not None and before.rows)
    return LostInk(faint, rows, page, page is not None and is_black_and_white(page.image))


def read_sheet_pages(sheet: SheetPages, recognizer: DigitRecognizer, *,
                     clock: StageClock | None = None, keep_crops: bool = False
                     ) -> tuple[dict[int, PageReading], LostInk]:
    """Every page of ``sheet`` read (:func:`read_page`), its marks judged against the
    sheet's (:func:`with_sheet_marks`), and what the reading lost from the image
    (:func:`lost_ink`): a black-and-white capture that lost a seat's strip (its strokes
    broken into dots) is read again with its dots joined, a grey or colour one with that
    seat's boxes cut at the faint floors; what it lost kept lost."""

    def read_all(joined: bool, faint: tuple[str, ...] = ()) -> dict[int, PageReading]:
        return with_sheet_marks({p.page.page_index: read_page(
            p.page, sheet.layout, recognizer, keep_crops=keep_crops, clock=clock,
            joined=joined, faint_seats=faint) for p in sheet.pages})

    readings = read_all(False)
    lost = lost_ink(readings)
    if lost.dots:
        readings = read_all(True)
        lost = lost_ink(readings, lost)
    elif lost.recut:
        readings = read_all(False, lost.seats)
        lost = replace(lost_ink(readings, lost), cut_faint=True)
    return readings, lost


def sheet_evidence(identity: SheetIdentity, layout: Layout,
                   readings: dict[int, PageReading], lost: LostInk | None = None
                   ) -> SheetEvidence:
    """What a sheet's pages read say, as the rule decoder's evidence, with what they lost
    from the image (``lost``, :func:`lost_ink`; worked out here when not given); a sheet
    whose every writer's ink is lost from the image (thresholded away by a black-and-white
    scan), or its deal rows' ink, is refused
    (:func:`scanner.decode.faint.refuse_if_unreadable`,
    naming the page of the calibration strips). Blank strips on a grey or colour capture
    whose rows are blank too are an unwritten sheet, read as such."""
    names = {seat: name for seat, name in zip(identity.seats, identity.names, strict=False)
             if name}
    lost = lost or lost_ink(readings)
    page = lost.page
    if page is not None:
        refuse_if_unreadable(lost.seats, identity.seats, lost.rows, lost.black_and_white,
                             page.source, page.index_in_file)
    return SheetEvidence(identity.rule_set(), identity.seats, row_evidence(readings),
                         column_evidence(layout, readings), names, lost.seats,
                         page.label if page else "", lost.cut_faint, lost.fine)


def refuse_if_no_deal_read(readings: dict[int, PageReading], lost: LostInk,
                           evidence: SheetEvidence, decoded: DecodedSheet) -> None:
    """Raise :class:`~scanner.errors.PoorQuality` naming the deal rows' page where the rows
    hold ink and the columns totals, but not one row reads as a deal
    (:func:`~scanner.decode.presence.no_deal_read`), with the advice for rows whose ink is
    lost (:func:`~scanner.decode.faint.unreadable_advice`)."""
    if not no_deal_read(evidence.rows, [row.deal for row in decoded.rows], decoded.entries):
        return
    page = next((reading.page for reading in readings.values()
                 if any(isinstance(cell.box.meaning, DealCell) for cell in reading.cells)),
                lost.page)
    raise PoorQuality(said("no_deal_read"), page.source if page else None,
                      page.index_in_file if page else None,
                      advice=unreadable_advice(lost.black_and_white))


def is_black_and_white(image: Image) -> bool:
    """Whether a capture is thresholded to black and white (every sampled pixel 0 or 255).

    >>> is_black_and_white(np.array([[0, 255], [255, 0]], np.uint8))
    True
    """
    sample = image[::7, ::7]
    step = BLACK_AND_WHITE_FIRST_LOOK_STEP
    return all(bool(((part == 0) | (part == 255)).all())
               for part in (sample[::step, ::step], sample))


def written_ink(inked: Sequence[CellReading]) -> dict[str, list[float]]:
    """Each seat's ink (strokes' pixels over the box's interior) in the boxes of its columns
    among ``inked``, the boxes read that hold ink."""
    written: dict[str, list[float]] = {}
    for cell in inked:
        if isinstance(cell.box.meaning, EntryCell):
            written.setdefault(cell.box.meaning.seat, []).append(cell.ink_fraction)
    return written


def calibration_strips(readings: dict[int, PageReading]
                       ) -> tuple[dict[str, list[StripCell]], RegisteredPage | None]:
    """Each seat's calibration strip as read, and the page holding them (None: not read)."""
    strips: dict[str, list[StripCell]] = {}
    page = None
    for reading in readings.values():
        for cell in reading.cells:
            meaning = cell.box.meaning
            if isinstance(meaning, CalibrationCell):
                page = reading.page
                strips.setdefault(meaning.seat, []).append(
                    StripCell(meaning.digit, cell.ink_fraction, cell.probabilities))
    return strips, page


def _p_crossed(state: str, confidence: float) -> float:
    """Probability that a mark box holds a valid cross (a cancelled box counts as not)."""
    return confidence if state == "marked" else 1.0 - confidence


def row_evidence(readings: dict[int, PageReading]) -> tuple[RowEvidence, ...]:
    """The deal rows' evidence, in row order, from every deal page read."""
    marks: dict[int, dict[tuple[str, str], float]] = {}
    digits: dict[int, dict[tuple[str, str], tuple[float, ...]]] = {}
    for reading in readings.values():
        for mark in reading.marks:
            meaning = mark.box.meaning
            if isinstance(meaning, DealCell):
                marks.setdefault(meaning.row, {})[(meaning.field, meaning.option)] = \
                    _p_crossed(mark.state, mark.confidence)
        for cell in reading.cells:
            meaning = cell.box.meaning
            if isinstance(meaning, DealCell):
                digits.setdefault(meaning.row, {})[(meaning.field, meaning.option)] = \
                    cell.probabilities
    rows = sorted(set(marks) | set(digits))
    return tuple(RowEvidence(row, marks.get(row, {}), digits.get(row, {})) for row in rows)


def column_evidence(layout: Layout, readings: dict[int, PageReading]
                    ) -> dict[Column, tuple[EntryCells, ...]]:
    """Each column's entries: digit cells left to right and the sign cell's P(minus)."""
    probabilities = {cell.box: cell.probabilities for r in readings.values() for cell in r.cells}
    traced = {cell.box for r in readings.values() for cell in r.cells if cell.ink_fraction > 0}
    strips = {key: strip for r in readings.values() for key, strip in r.strips.items()}
    columns: dict[Column, tuple[EntryCells, ...]] = {}
    for (seat, kind, on), entries in entry_cells(layout).items():
        if not entries or entries[0][0] not in probabilities:
            continue  # the page holding this column was not scanned
        column_entries = []
        for boxes in entries:
            minus = None
            cells = []
            for box in boxes:
                if box.kind == "sign":
                    minus = 1.0 - probabilities[box][-1]
                else:
                    cells.append(probabilities[box])
            meaning = boxes[0].meaning
            assert isinstance(meaning, EntryCell)
            column_entries.append(EntryCells(tuple(cells), minus, strips.get(
                (seat, kind, on, meaning.entry)), any(box in traced for box in boxes)))
        columns[Column(seat, kind, on)] = tuple(column_entries)
    return columns
