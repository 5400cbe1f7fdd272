"""The scan pipeline: files in, one :class:`~scanner.results.SheetScan` per sheet out.

Stages (each its own module): load (:mod:`scanner.image.load`) → register
(:mod:`scanner.image.register`)
→ identify (:mod:`scanner.image.identify`) → read marks and digits (:mod:`scanner.read`) → decode
with the rules (:mod:`scanner.decode.sheet`) → results (:mod:`scanner.results`). A file that cannot
be read becomes one :class:`ScanFailure` naming it, and the batch goes on. Pages are kept in
memory only until their sheet is complete, so a folder of sheets scanned in order streams.

Intermediate files have predictable names under ``out_dir/<sheet id>/``: ``page-<n>.jpg``
(the straightened page at :data:`~scanner.results.STRAIGHT_PAGE_DPI`, in grey levels, warped
from the smallest halving of the image that is fine enough, :func:`_straight_page`),
``crops/page-<n>.jpg`` (the field sheet of page n: the ink of each of its fields, in colour,
packed into one image; a field's crop is a rectangle of it, :mod:`scanner.field_sheets`; a
deal row read with confidence is a rectangle of its straightened page instead, see
:func:`_fields`) and
``scan.json`` (compact: an indented one takes Python's pure-Python JSON encoder, ten times
slower than its C one). The images are JPEG: a photo's noise makes PNG 10-20 times slower
to write (and 5 times bigger), which would cost more than reading the sheet; people and
reports look at them, the scanner never reads them back. A
:class:`~scanner.timing.StageClock` handed to :func:`scan_paths` gets the time of each
stage.
"""

from __future__ import annotations

import gc
import json
import logging
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

import cv2

from forms.identity import SheetIdentity
from forms.layout import entry_cells
from forms.model import Box, DealCell, Layout
from scanner.arrays import GreyImage
from scanner.decode.columns import EntryCells
from scanner.decode.deals import RowEvidence
from scanner.decode.sheet import DecodedSheet, SheetEvidence, decode_sheet
from scanner.errors import ScanError, UnreadableImage
from scanner.field_sheets import CropRequest, pixel_rect, write_field_sheets
from scanner.image.identify import IdentifiedPage, SheetPages, assemble_sheets, identify
from scanner.image.load import expand_paths, iter_file
from scanner.image.pixels import to_gray
from scanner.image.register import RegisteredPage, register
from scanner.memory import reuse_freed_memory
from scanner.read import PageReading, read_page
from scanner.results import (
    STRAIGHT_PAGE_DPI,
    FieldReading,
    ScannedPage,
    SheetScan,
    crop_ref,
    entry_key,
    row_key,
    scan_json_path,
)
from scanner.timing import StageClock
from scoring.columns import Column

log = logging.getLogger(__name__)

CROP_MARGIN_MM = 1.0
"""Paper kept around a field's boxes in its crop."""
JPEG_QUALITY = [cv2.IMWRITE_JPEG_QUALITY, 90]
"""The straightened page: written once, looked at by people and reports."""
GC_YOUNG_THRESHOLD = 10_000
"""New container objects between two runs of the garbage collector while scanning
(:func:`_fewer_collections`; Python's default is 700)."""
STRAIGHT_PAGE_MIN_SHARE = 0.9
"""The straightened page is warped from the smallest halving of the image that has at
least this share of its resolution (a 200-dpi image halved is 99 dpi for a 100-dpi page)."""


@dataclass(frozen=True)
class ScanFailure:
    """A file (or page) that could not be read, with the one-line reason."""

    source: str
    message: str
    exit_code_name: str = "BAD_INPUT"


ScanOutcome = SheetScan | ScanFailure
Progress = Callable[[int, int, str], None]


def scan_paths(paths: Sequence[str | Path], out_dir: Path,
               progress: Progress | None = None,
               clock: StageClock | None = None) -> Iterator[ScanOutcome]:
    """Scan every file named (folders and globs expanded); yield sheets and failures.

    ``clock`` gets the time of each stage (:data:`scanner.timing.STAGES`). Memory a sheet
    frees is kept for the next (:func:`scanner.memory.reuse_freed_memory`), and the garbage
    collector runs less often while it scans (:func:`_fewer_collections`)."""
    clock = clock or StageClock()
    reuse_freed_memory()
    files = expand_paths(paths)
    waiting: dict[str, list[IdentifiedPage]] = {}
    with _fewer_collections():
        yield from _scan_files(files, waiting, out_dir, progress, clock)


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """Run the ``with`` block with the cyclic garbage collector's first threshold at
    :data:`GC_YOUNG_THRESHOLD` (restored after).

    A sheet makes some ten thousand container objects that live until it is read (box
    readings, candidates), so at Python's default of 700 the collector ran 14 times a sheet
    and walked the long-lived objects (layouts, the digit model's tables) into its older
    generations: 15.6 ms CPU a sheet on the 12 sample sheets at 200 dpi, against 3.6 ms so.
    Reference counting still frees all acyclic garbage at once; cycles wait a little
    longer. The setting holds while the caller handles each sheet yielded, and ends when
    the scan does (or its generator is closed)."""
    young, *older = gc.get_threshold()
    gc.set_threshold(max(young, GC_YOUNG_THRESHOLD), *older)
    try:
        yield
    finally:
        gc.set_threshold(young, *older)


def _scan_files(files: list[Path], waiting: dict[str, list[IdentifiedPage]], out_dir: Path,
                progress: Progress | None, clock: StageClock) -> Iterator[ScanOutcome]:
    """:func:`scan_paths` of the files expanded: each file, and each page of a file, on its
    own (pages decoded one at a time); a failure is one :class:`ScanFailure` and the rest go
    on."""
    for number, path in enumerate(files, 1):
        if progress:
            progress(number, len(files), str(path))
        pages = iter_file(path)
        while True:
            with clock.stage("load"):
                page = next(pages, None)
            if page is None:
                break
            if isinstance(page, ScanError):
                yield _failure(page, page.where() or path)
                continue
            try:
                with clock.stage("register"):
                    registered = register(page)
                with clock.stage("identify"):
                    identified = identify(registered)
            except ScanError as error:
                yield _failure(error, page.label)
                continue
            except (cv2.error, MemoryError) as error:
                reason = type(error).__name__
                yield _failure(UnreadableImage(f"the page cannot be registered ({reason})",
                                               page.source, page.index_in_file), page.label)
                continue
            finally:
                del page
            waiting.setdefault(identified.sheet_id, []).append(identified)
            yield from _complete_sheets(waiting, out_dir, True, clock)
    yield from _complete_sheets(waiting, out_dir, False, clock)


def _complete_sheets(waiting: dict[str, list[IdentifiedPage]], out_dir: Path,
                     only_complete: bool, clock: StageClock) -> Iterator[ScanOutcome]:
    """Read the sheets whose pages have all arrived (or, at the end, every sheet left)."""
    for sheet_id in list(waiting):
        if only_complete and not _has_every_page(waiting[sheet_id]):
            continue
        sheets, errors = assemble_sheets(waiting.pop(sheet_id))
        for error in errors:
            yield _failure(error, str(error.source or sheet_id))
        for sheet in sheets:
            try:
                yield read_sheet(sheet, out_dir, clock)
            except ScanError as error:
                yield _failure(error, sheet.sheet_id)


def _has_every_page(pages: list[IdentifiedPage]) -> bool:
    layout = next((p.layout for p in pages if p.layout is not None), None)
    return layout is not None and \
        {p.page.page_index for p in pages} >= {page.index for page in layout.pages}


def _failure(error: ScanError, source: str | Path) -> ScanFailure:
    """The failure yielded (its caller says it to the user: logged at info, not twice)."""
    log.info("%s", error)
    return ScanFailure(str(source), str(error), error.exit_code_name)


def read_sheet(sheet: SheetPages, out_dir: Path, clock: StageClock | None = None) -> SheetScan:
    """Read, decode and write out one sheet whose pages are identified."""
    clock = clock or StageClock()
    start = time.perf_counter()
    layout = sheet.layout
    # each seat's calibration strip is on the triangle page, which adapts its own zones; the
    # deal column is kept by one scorer and read with the general model (scanner.read)
    readings = {p.page.page_index: read_page(p.page, layout, clock=clock) for p in sheet.pages}
    identity = sheet.identity
    with clock.stage("decode"):
        rules = identity.rule_set()
        names = {seat: name for seat, name in zip(identity.seats, identity.names, strict=False)
                 if name}
        evidence = SheetEvidence(rules, identity.seats, _rows(layout, readings),
                                 _columns(layout, readings), names)
        decoded = decode_sheet(evidence)
    with clock.stage("output"):
        scan = write_scan(sheet, readings, decoded, out_dir, start)
    log.info("%s: %d fields, %d doubtful, %.2f s", sheet.sheet_id, len(scan.fields),
             len(scan.doubtful), scan.seconds)
    return scan


def write_scan(sheet: SheetPages, readings: dict[int, PageReading], decoded: DecodedSheet,
               out_dir: Path, start: float) -> SheetScan:
    """Write a sheet's scan under ``out_dir/<sheet id>/`` (page images, field sheets,
    ``scan.json``) and return it; ``start`` is when reading the sheet began
    (``time.perf_counter``)."""
    layout = sheet.layout
    folder = out_dir / sheet.sheet_id
    (folder / "crops").mkdir(parents=True, exist_ok=True)
    pages = tuple(_save_page(folder, readings[i].page, out_dir) for i in sorted(readings))
    fields = _fields(layout, decoded, readings, pages, folder, out_dir)
    scan = SheetScan(sheet.sheet_id, _identity_json(sheet.identity), layout.id, pages, fields,
                     decoded.record(), sheet.missing, sheet.problems,
                     round(time.perf_counter() - start, 3))
    scan_json_path(out_dir, sheet.sheet_id).write_text(
        json.dumps(scan.to_json(), ensure_ascii=False, separators=(",", ":")),
        encoding="utf-8")
    return scan


def _p_crossed(state: str, confidence: float) -> float:
    """Probability that a mark box holds a valid cross (a cancelled box counts as not)."""
    return confidence if state == "marked" else 1.0 - confidence


def _rows(layout: Layout, readings: dict[int, PageReading]) -> tuple[RowEvidence, ...]:
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


def _columns(layout: Layout, readings: dict[int, PageReading]
             ) -> dict[Column, tuple[EntryCells, ...]]:
    """Each column's entries: digit cells left to right and the sign cell's P(minus)."""
    probabilities = {cell.box: cell.probabilities for r in readings.values() for cell in r.cells}
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
            column_entries.append(EntryCells(tuple(cells), minus))
        columns[Column(seat, kind, on)] = tuple(column_entries)
    return columns


def _save_page(folder: Path, page: RegisteredPage, out_dir: Path) -> ScannedPage:
    """Write the straightened page image (:func:`_straight_page`); describe it."""
    path = folder / f"page-{page.page_index + 1}.jpg"
    cv2.imwrite(str(path), _straight_page(page), JPEG_QUALITY)
    source = str(page.source) + (f"#{page.index_in_file + 1}" if page.index_in_file else "")
    return ScannedPage(page.page_index, source, str(path.relative_to(out_dir)),
                       round(page.fit_error_mm, 3), page.warnings)


def _straight_page(page: RegisteredPage) -> GreyImage:
    """The page straightened at :data:`STRAIGHT_PAGE_DPI` in grey levels, warped from the
    smallest halving of the image with :data:`STRAIGHT_PAGE_MIN_SHARE` of that resolution.

    Grey, not colour: a warp costs mostly per pixel, not per channel, yet the grey page
    (converted before the warp) warps a quarter faster and encodes a third faster: 11.0
    against 14.5 ms a page, written, on the 36 pages of 12 sample sheets at 200 dpi. People
    read ink and print on it as well (the drop-out red turns light grey, the ink stays dark),
    and the report's red and amber outlines stand out more. The field sheets, where a person
    decides a doubtful cell from its ink, keep their colour."""
    px_per_mm = STRAIGHT_PAGE_DPI / 25.4
    return page.warp_coarse(0.0, 0.0, page.page_w_mm, page.page_h_mm, px_per_mm,
                            STRAIGHT_PAGE_MIN_SHARE * px_per_mm, channel=to_gray)


def _union(boxes: Sequence[Box]) -> tuple[float, float, float, float]:
    """The rectangle (x, y, w, h, mm) holding ``boxes`` and :data:`CROP_MARGIN_MM` around."""
    x0 = min(b.x_mm for b in boxes) - CROP_MARGIN_MM
    y0 = min(b.y_mm for b in boxes) - CROP_MARGIN_MM
    x1 = max(b.x_mm + b.w_mm for b in boxes) + CROP_MARGIN_MM
    y1 = max(b.y_mm + b.h_mm for b in boxes) + CROP_MARGIN_MM
    return (round(x0, 2), round(y0, 2), round(x1 - x0, 2), round(y1 - y0, 2))


@dataclass(frozen=True)
class _CropPlan:
    """Where each field of a layout lies, as the crop requests of its entries (by column,
    in entry order) and of its deal rows (by row)."""

    entries: dict[Column, tuple[CropRequest, ...]]
    rows: dict[int, CropRequest]


_PLANS: dict[str, tuple[Layout, _CropPlan]] = {}
"""The crop plan of each layout seen, by layout id (with the layout, to check it is the
same object): working it out walks every box of the layout, about 5 ms a sheet."""


def _crop_plan(layout: Layout) -> _CropPlan:
    """The layout's crop plan, worked out once per layout."""
    known = _PLANS.get(layout.id)
    if known is not None and known[0] is layout:
        return known[1]
    entries = {}
    for (seat, kind, on), column in entry_cells(layout).items():
        entries[Column(seat, kind, on)] = tuple(
            CropRequest(entry_key(seat, kind, on, index), boxes[0].page, _union(boxes),
                        boxes[0].rotation_deg, f"{seat}:{kind}:{on}")
            for index, boxes in enumerate(column))
    row_boxes: dict[int, list[Box]] = {}
    for box in layout.boxes:
        if isinstance(box.meaning, DealCell):
            row_boxes.setdefault(box.meaning.row, []).append(box)
    rows = {row: CropRequest(row_key(row), boxes[0].page, _union(boxes), 0, "rows")
            for row, boxes in row_boxes.items()}
    plan = _CropPlan(entries, rows)
    _PLANS[layout.id] = (layout, plan)
    return plan


def _fields(layout: Layout, decoded: DecodedSheet, readings: dict[int, PageReading],
            pages: Sequence[ScannedPage], folder: Path, out_dir: Path
            ) -> tuple[FieldReading, ...]:
    """One field reading per non-empty (or doubtful) entry and deal row, with its crop in
    its page's field sheet (:mod:`scanner.field_sheets`).

    A deal row read with confidence is cropped from its straightened page instead
    (:data:`STRAIGHT_PAGE_DPI`, grey, where its crosses and trick digits are 16-24 px tall): the
    rows are nine tenths of the field sheets' pixels (a row is a strip across the page) and
    nobody has to look at them closely; a doubtful row, which a person decides from its ink,
    keeps its crop at :data:`~scanner.field_sheets.CROP_PX_PER_MM`. Entries always do: the
    audit shows their ink beside each finding."""
    plan = _crop_plan(layout)
    entries = [(place, decision)
               for column, places in plan.entries.items()
               for place, decision in zip(places, decoded.entries.get(column, ()), strict=False)
               if decision.status != "empty"]
    rows = [(plan.rows[row.row], row) for row in decoded.rows
            if row.status != "empty" and row.row in plan.rows
            and plan.rows[row.row].page in readings]
    crops = write_field_sheets([place for place, _ in entries]
                               + [place for place, row in rows if row.status != "read"],
                               {i: r.page for i, r in readings.items()}, folder, out_dir)
    images = {page.index: page.image for page in pages}
    for place, row in rows:
        if row.status == "read":
            x0, y0, x1, y1 = pixel_rect(readings[place.page].page, place.rect_mm,
                                        STRAIGHT_PAGE_DPI / 25.4)
            crops[place.key] = crop_ref(images[place.page], (x0, y0, x1 - x0, y1 - y0))
    fields = [FieldReading(
        place.key, place.page, place.rect_mm, decision.status, decision.value,
        round(decision.confidence, 6), tuple((v, round(p, 6)) for v, p in decision.candidates),
        decision.expected, decision.deal, decision.note, crops[place.key],
        tuple((v, float(f"{p:.6g}")) for v, p in decision.ink))
        for place, decision in entries]
    fields.extend(FieldReading(
        place.key, place.page, place.rect_mm, row.status, row.deal, round(row.confidence, 6),
        tuple((d, round(p, 6)) for d, p in row.candidates), None, row.row + 1, row.note,
        crops[place.key])
        for place, row in rows)
    return tuple(fields)


def _identity_json(identity: SheetIdentity) -> dict[str, Any]:
    """The identity as JSON values: its fields, the seats and names as lists, a copy of its
    rules (one level deep, which is all a rule set has: ``dataclasses.asdict`` deep-copies
    every value, about a millisecond a sheet)."""
    doc = {f.name: getattr(identity, f.name) for f in dataclass_fields(identity)}
    doc["rules"] = {name: list(value) if isinstance(value, list) else value
                    for name, value in identity.rules.items()}
    doc["seats"] = list(identity.seats)
    doc["names"] = list(identity.names)
    return doc
