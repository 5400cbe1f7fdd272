"""Stage 8, output: the one writer of a sheet's folder under the output folder.

A sheet read becomes ``OUT/<sheet id>/`` holding ``page-<n>.jpg`` (the straightened page,
grey, at :data:`~scanner.results.STRAIGHT_PAGE_DPI`), ``crops/page-<n>.jpg`` (the field
sheets, :mod:`scanner.field_sheets`), ``scan.json`` (``pulka-scan/1``, compact) and
``record.json`` (``pulka-record/1``). The sheet id comes from the page and is untrusted: it
must match :data:`forms.identity.SHEET_ID_PATTERN` before it names a folder, and every path
written is checked to lie inside the output folder. Nothing is overwritten: a sheet whose
folder exists already (the same page scanned twice, two games on copies of one printed
sheet) is written beside it as ``<sheet id>~2``, ``~3``, ... and the scan says so.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

import cv2

from forms.identity import SheetIdentity, is_sheet_id
from forms.layout import entry_cells
from forms.model import Box, DealCell, Layout
from scanner import constants as k
from scanner.arrays import GreyImage
from scanner.decode.sheet import DecodedSheet
from scanner.errors import ScanError
from scanner.field_sheets import CropRequest, pixel_rect, write_field_sheets
from scanner.image.identify import SheetPages
from scanner.image.pixels import to_gray
from scanner.image.register import RegisteredPage
from scanner.read import PageReading
from scanner.results import (
    RECORD_FILE,
    SCAN_FILE,
    STRAIGHT_PAGE_DPI,
    CellStatus,
    FieldReading,
    ScannedPage,
    SheetScan,
    crop_ref,
    entry_key,
    row_key,
)
from scanner.words import said
from scoring.columns import Column

JPEG_QUALITY = [cv2.IMWRITE_JPEG_QUALITY, k.OUTPUT_JPEG_QUALITY]
COPY_MARK = "~"
"""Joins a sheet id and the number of its copy in a folder name: ``S-3F9A1C~2``."""


@dataclass(frozen=True)
class CropPlan:
    """Where each field of a layout lies: the crop requests of its entries (by column, in
    entry order) and of its deal rows (by row)."""

    entries: dict[Column, tuple[CropRequest, ...]]
    rows: dict[int, CropRequest]


_PLANS_MAX = 64
"""Layouts whose crop plans are kept (past this many they are worked out again)."""
_plans: dict[str, tuple[Layout, CropPlan]] = {}


class SheetWriter:
    """Writes each sheet read into its own new folder under ``out_dir``."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self._root = out_dir.resolve()

    def write(self, sheet: SheetPages, readings: dict[int, PageReading],
              decoded: DecodedSheet, started: float) -> SheetScan:
        """Write a sheet's folder and return its scan; ``started`` is when reading the sheet
        began (``time.perf_counter``)."""
        name, folder = self._new_folder(sheet)
        (folder / "crops").mkdir()
        pages = tuple(self._save_page(folder, readings[i].page) for i in sorted(readings))
        fields = self._fields(sheet.layout, decoded, readings, pages, folder)
        problems = sheet.problems + decoded.problems
        if name != sheet.sheet_id:
            problems += (said("kept_beside", sheet=sheet.sheet_id, out=str(self.out_dir),
                              name=name),)
        scan = SheetScan(sheet.sheet_id, _identity_json(sheet.identity), sheet.layout.id, pages,
                         fields, decoded.record(), sheet.missing, problems,
                         round(time.perf_counter() - started, 3))
        self._confined(folder / SCAN_FILE).write_text(
            json.dumps(scan.to_json(), ensure_ascii=False, separators=(",", ":")),
            encoding="utf-8")
        self._confined(folder / RECORD_FILE).write_text(
            json.dumps(scan.record, ensure_ascii=False, indent=1), encoding="utf-8")
        return scan

    def _new_folder(self, sheet: SheetPages) -> tuple[str, Path]:
        """A folder of the sheet's own, made now: named by its id, or ``<id>~<n>`` for the
        first ``n`` whose folder does not exist yet."""
        if not is_sheet_id(sheet.sheet_id):
            raise ScanError(said("not_pulka_id", sheet=repr(sheet.sheet_id)),
                            sheet.pages[0].page.source, advice=said("printed_only"))
        self._root.mkdir(parents=True, exist_ok=True)
        copy = 1
        while True:
            name = sheet.sheet_id if copy == 1 else f"{sheet.sheet_id}{COPY_MARK}{copy}"
            folder = self.out_dir / name
            try:
                self._confined(folder).mkdir()
            except FileExistsError:
                copy += 1
                continue
            return name, folder

    def _confined(self, path: Path) -> Path:
        """``path``, refused unless it resolves to a place inside the output folder."""
        if not path.resolve().is_relative_to(self._root):
            raise ScanError(said("outside_out", path=str(path), out=str(self.out_dir)),
                            advice=said("no_links"))
        return path

    def _save_page(self, folder: Path, page: RegisteredPage) -> ScannedPage:
        """Write the straightened page image (:func:`_straight_page`); describe it."""
        path = self._confined(folder / f"page-{page.page_index + 1}.jpg")
        if not cv2.imwrite(str(path), _straight_page(page), JPEG_QUALITY):
            raise ScanError(said("cannot_write", path=str(path)), advice=said("writable"))
        source = str(page.source) + (f"#{page.index_in_file + 1}" if page.index_in_file else "")
        return ScannedPage(page.page_index, source, path.relative_to(self.out_dir).as_posix(),
                           round(page.fit_error_mm, 3), page.warnings)

    def _fields(self, layout: Layout, decoded: DecodedSheet, readings: dict[int, PageReading],
                pages: Sequence[ScannedPage], folder: Path) -> tuple[FieldReading, ...]:
        """One field reading per non-empty (or doubtful) entry and deal row, with its crop;
        an empty entry with a note too (a total the writer left out: the reviewer sees why).

        Entries and doubtful rows are cropped into their page's field sheet; a deal row read
        with confidence is a rectangle of its straightened page instead (nobody has to look
        at it closely, and rows are most of a field sheet's pixels)."""
        plan = _crop_plan(layout)
        entries = [(place, decision)
                   for column, places in plan.entries.items()
                   for place, decision in zip(places, decoded.entries.get(column, ()),
                                              strict=False)
                   if decision.status != "empty" or decision.note]
        rows = [(plan.rows[row.row], row) for row in decoded.rows
                if row.status != "empty" and row.row in plan.rows
                and plan.rows[row.row].page in readings]
        crops = write_field_sheets([place for place, _ in entries]
                                   + [place for place, row in rows if row.status != "read"],
                                   {i: r.page for i, r in readings.items()}, folder,
                                   self.out_dir)
        images = {page.index: page.image for page in pages}
        for place, row in rows:
            if row.status == "read":
                x0, y0, x1, y1 = pixel_rect(readings[place.page].page, place.rect_mm,
                                            STRAIGHT_PAGE_DPI / 25.4)
                crops[place.key] = crop_ref(images[place.page], (x0, y0, x1 - x0, y1 - y0))
        fields = [FieldReading(
            place.key, place.page, place.rect_mm, CellStatus(decision.status), decision.value,
            round(decision.confidence, 6),
            tuple((v, round(p, 6)) for v, p in decision.candidates), decision.expected,
            decision.deal, decision.note, crops[place.key],
            tuple((v, float(f"{p:.6g}")) for v, p in decision.ink))
            for place, decision in entries]
        fields.extend(FieldReading(
            place.key, place.page, place.rect_mm, CellStatus(row.status), row.deal,
            round(row.confidence, 6), tuple((d, round(p, 6)) for d, p in row.candidates),
            None, row.row + 1, row.note, crops[place.key])
            for place, row in rows)
        return tuple(fields)


def _crop_plan(layout: Layout) -> CropPlan:
    """The layout's crop plan (:func:`crop_plan`), worked out once per layout object (it
    walks every box of the layout) and kept for every writer."""
    known = _plans.get(layout.id)
    if known is not None and known[0] is layout:
        return known[1]
    plan = crop_plan(layout)
    if len(_plans) >= _PLANS_MAX:
        _plans.clear()
    _plans[layout.id] = (layout, plan)
    return plan


def _straight_page(page: RegisteredPage) -> GreyImage:
    """The page straightened at :data:`~scanner.results.STRAIGHT_PAGE_DPI` in grey levels
    (the field sheets keep the colour), warped from the smallest halving of the image with
    :data:`~scanner.constants.STRAIGHT_PAGE_MIN_SHARE` of that resolution."""
    px_per_mm = STRAIGHT_PAGE_DPI / 25.4
    return page.warp_coarse(0.0, 0.0, page.page_w_mm, page.page_h_mm, px_per_mm,
                            k.STRAIGHT_PAGE_MIN_SHARE * px_per_mm, channel=to_gray)


def _union(boxes: Sequence[Box]) -> tuple[float, float, float, float]:
    """The rectangle (x, y, w, h, mm) holding ``boxes`` and
    :data:`~scanner.constants.CROP_MARGIN_MM` around."""
    margin = k.CROP_MARGIN_MM
    x0 = min(b.x_mm for b in boxes) - margin
    y0 = min(b.y_mm for b in boxes) - margin
    x1 = max(b.x_mm + b.w_mm for b in boxes) + margin
    y1 = max(b.y_mm + b.h_mm for b in boxes) + margin
    return (round(x0, 2), round(y0, 2), round(x1 - x0, 2), round(y1 - y0, 2))


def crop_plan(layout: Layout) -> CropPlan:
    """The crop requests of every entry and deal row of ``layout``."""
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
    return CropPlan(entries, rows)


def _identity_json(identity: SheetIdentity) -> dict[str, Any]:
    """The identity as JSON values: its fields, the seats and names as lists, a one-level
    copy of its rules (all a rule set has)."""
    doc = {f.name: getattr(identity, f.name) for f in dataclass_fields(identity)}
    doc["rules"] = {name: list(value) if isinstance(value, list) else value
                    for name, value in identity.rules.items()}
    doc["seats"] = list(identity.seats)
    doc["names"] = list(identity.names)
    return doc
