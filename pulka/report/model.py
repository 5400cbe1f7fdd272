"""What an audit report says, as one frozen :class:`SheetReport` per sheet.

The report keeps two things apart: *findings* are the players' recording errors (the rules
engine's :class:`scoring.Finding`, Codex 4.2.7), *doubts* are cells the scanner could not read
with confidence (a person has to look at the ink; nobody made a mistake yet). Both are
outlined on the page images: the scanned sheet when there is a scan, otherwise the sheet as
written, filled by the computer from the record's ``written`` columns. Beside each page stands
the reference copy: the same sheet filled from the deal log as the rules write it.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from forms.identity import SheetIdentity, make_sheet_id
from forms.layout import build_layout, entry_cells, layout_by_id
from forms.model import Box, EntryCell, Layout
from forms.render.fill import FillError, fill_from_record
from forms.render.raster import render_pages
from forms.render.sheet import SheetFill, SheetRequest, render_pdf_bytes
from pulka.report import constants as k
from pulka.report.crops import crop_image
from pulka.report.text import number
from scanner.results import FieldReading, SheetScan, entry_key, ink_shares, split_crop
from scoring import (
    Column,
    Deal,
    ExpectedSheet,
    Finding,
    GameRecord,
    Settlement,
    audit,
    expected_sheet,
    parse_record,
    settle_record,
)
from scoring.columns import sheet_columns
from scoring.errors import RecordError
from scoring.notation import parse_contract

log = logging.getLogger(__name__)

Rect = tuple[float, float, float, float]
"""``(x, y, w, h)`` in millimetres from the page's top-left corner."""

KIND_TITLES = {
    "slip": "arithmetic slip in a running total",
    "wrong_amount": "wrong amount",
    "missing": "entry missing",
    "extra": "entry no deal caused",
    "correction": "corrected entry (a wrong value, then the right one)",
    "wrong_help": "pool help written to the wrong player",
}


@dataclass(frozen=True)
class Mark:
    """An outline on a page image: ``F3`` (a finding) or ``D2`` (a scan doubt)."""

    label: str
    kind: str
    """``finding`` or ``doubt``."""
    page: int
    rect_mm: Rect


@dataclass(frozen=True)
class PageImages:
    """One page of the sheet: the scanned (or as-written) image and the reference copy."""

    index: int
    kind: str
    """``triangle`` or ``deals``."""
    w_mm: float
    h_mm: float
    primary_image: bytes | None
    """The scanned page (JPEG) or the as-written copy (PNG)."""
    primary_mime: str
    reference_png: bytes
    primary_marks: tuple[Mark, ...]
    reference_marks: tuple[Mark, ...]


@dataclass(frozen=True)
class FindingView:
    """A finding with everything a judge needs beside it."""

    label: str
    finding: Finding
    title: str
    column: str
    written: str
    expected: str
    deal: int | None
    deal_text: str
    """The deal that explains it, in words and in Codex 4.2.11 notation."""
    reasons: tuple[str, ...]
    """What the rules wrote into this column for that deal (the expected entry's reasons)."""
    rule: str
    penalty: str | None
    note: str
    crop_png: bytes | None
    reading_doubtful: bool = False
    """The scanner was itself unsure of this cell: check the ink before any penalty."""


@dataclass(frozen=True)
class DoubtView:
    """A cell the scanner could not read with confidence (not a player error)."""

    label: str
    where: str
    value: str
    candidates: str
    ink_alone: str
    """What the ink alone says (its likelihoods shared out over the values the decoding
    weighed, most likely first), the counterweight to ``candidates``, which the rules shape:
    a cell read as 8 at 100 % is doubtful when its ink says 9. Empty for a deal row."""
    expected: str
    note: str
    crop_png: bytes | None


@dataclass(frozen=True)
class ColumnView:
    """One column's running totals as written and as the rules write them."""

    column: str
    written: tuple[str, ...]
    expected: tuple[str, ...]
    flagged: tuple[int, ...]
    """Written entries (1-based) named by a finding."""


@dataclass(frozen=True)
class DealView:
    """One deal of the log."""

    number: int
    dealer: str
    text: str
    notation: str


@dataclass(frozen=True)
class SheetReport:
    """The whole audit report of one sheet."""

    name: str
    sheet_id: str
    source: str
    seats: tuple[str, ...]
    names: Mapping[str, str]
    rules: str
    rules_id: str
    stake: Fraction | None
    finished: bool
    scanned: bool
    pages: tuple[PageImages, ...]
    findings: tuple[FindingView, ...]
    doubts: tuple[DoubtView, ...]
    columns: tuple[ColumnView, ...]
    deals: tuple[DealView, ...]
    settlement: Settlement
    warnings: tuple[str, ...] = ()
    scan_problems: tuple[str, ...] = ()

    def player(self, seat: str) -> str:
        """``A · Иванова`` (or just ``A``)."""
        name = self.names.get(seat)
        return f"{seat} · {name}" if name else seat


def build_report(record_doc: dict[str, Any], scan: SheetScan | None = None,
                 scan_dir: Path | None = None, name: str | None = None,
                 source: str = "") -> SheetReport:
    """Audit and settle a record (and its scan, if any) and gather the report."""
    record = parse_record(record_doc)
    sheet = expected_sheet(record)
    findings = audit(record, sheet)
    settlement = settle_record(record, sheet)
    layout = layout_by_id(scan.layout_id) if scan is not None else build_layout(
        record.rules.players, "A4", record.rules.talon_prize)
    fields = {f.key: f for f in scan.fields} if scan is not None else {}
    scan_images = _scan_images(scan, scan_dir)
    deals = {d.number: d for d in record.deals}
    views = tuple(_finding_view(f"F{i}", f, sheet, deals, record, fields, scan_images, layout,
                                scan_dir) for i, f in enumerate(findings, 1))
    doubt_fields = scan.doubtful if scan is not None else ()
    doubts = tuple(_doubt_view(f"D{i}", f, record, scan_images, layout, scan_dir)
                   for i, f in enumerate(doubt_fields, 1))
    finding_rects = ((v.label, _finding_rect(v.finding, layout, fields)) for v in views)
    marks = [Mark(label, "finding", *rect) for label, rect in finding_rects if rect is not None]
    marks += [Mark(d.label, "doubt", f.page, tuple(f.rect_mm))  # type: ignore[arg-type]
              for d, f in zip(doubts, doubt_fields, strict=True)]
    reference_marks = [Mark(v.label, "finding", *rect) for v in views
                       if (rect := _expected_rect(v.finding, sheet, layout)) is not None]
    pages = _pages(record, sheet, layout, scan, scan_images, marks, reference_marks)
    sheet_id = scan.sheet_id if scan is not None else ""
    return SheetReport(
        name=name or sheet_id or "report", sheet_id=sheet_id, source=source,
        seats=record.seats, names=dict(record.names), rules=record.rules.describe(),
        rules_id=record.rules.id, stake=record.rules.stake, finished=sheet.finished,
        scanned=scan is not None, pages=pages, findings=views, doubts=doubts,
        columns=_columns(record, sheet, findings), deals=tuple(_deal_view(d)
                                                               for d in record.deals),
        settlement=settlement, warnings=sheet.warnings,
        scan_problems=scan.problems if scan is not None else ())


# --- findings and doubts -----------------------------------------------------------------


def _finding_view(label: str, finding: Finding, sheet: ExpectedSheet, deals: dict[int, Deal],
                  record: GameRecord, fields: dict[str, FieldReading],
                  scan_images: dict[int, Any], layout: Layout,
                  scan_dir: Path | None) -> FindingView:
    deal = deals.get(finding.deal) if finding.deal is not None else None
    reasons: tuple[str, ...] = ()
    for entry in sheet.column(finding.column):
        if entry.deal == finding.deal and finding.deal is not None:
            reasons = entry.reasons
    field = fields.get(_field_key(finding)) if finding.entry is not None else None
    crop = None
    if field is not None:
        crop = _crop(field, scan_images, layout, scan_dir)
    return FindingView(
        label=label, finding=finding, title=KIND_TITLES.get(finding.kind, finding.kind),
        column=_column_text(finding.column, record),
        written="nothing" if finding.written is None else number(finding.written),
        expected="no entry" if finding.expected is None else number(finding.expected),
        deal=finding.deal, deal_text=_deal_text(deal) if deal is not None else
        ("end of game" if finding.deal is None else f"deal {finding.deal}"),
        reasons=reasons, rule=finding.rule, penalty=finding.penalty, note=finding.note,
        crop_png=crop, reading_doubtful=field is not None and field.status == "doubtful")


def _field_key(finding: Finding) -> str:
    column = finding.column
    return entry_key(column.seat, column.kind, column.on, (finding.entry or 1) - 1)


def _doubt_view(label: str, field: FieldReading, record: GameRecord,
                scan_images: dict[int, Any], layout: Layout,
                scan_dir: Path | None) -> DoubtView:
    candidates = ", ".join(f"{_value_text(v)} ({p:.0%})" for v, p in field.candidates[:4])
    return DoubtView(
        label=label, where=_field_where(field, record), value=_value_text(field.value),
        candidates=candidates, ink_alone=_ink_alone(field),
        expected="" if field.expected is None else _value_text(field.expected),
        note=field.note, crop_png=_crop(field, scan_images, layout, scan_dir))


def _ink_alone(field: FieldReading) -> str:
    """``9 (97 %), 8 (3 %)``: what the ink alone says (:func:`scanner.results.ink_shares`)."""
    return ", ".join(f"{_value_text(v)} ({p:.0%})" for v, p in ink_shares(field.ink))


def _field_where(field: FieldReading, record: GameRecord) -> str:
    parts = field.key.split(":")
    if parts[0] == "row":
        return f"deal row {int(parts[1]) + 1}"
    if parts[0] == "entry" and len(parts) in (4, 5):
        on = parts[3] if len(parts) == 5 else None
        column = Column(parts[1], parts[2], on)  # type: ignore[arg-type]
        return f"{_column_text(column, record)}, entry {int(parts[-1]) + 1}"
    return field.key


def _value_text(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, dict):
        return _raw_deal_text(value)
    if isinstance(value, float | Fraction):
        return number(Fraction(value).limit_denominator(1000))
    return str(value)


def _raw_deal_text(deal: dict[str, Any]) -> str:
    """A deal as a scan reads it (RECORD.md form) in the words of :func:`_deal_text`, every
    part shown (candidates of a doubtful row may differ in any one of them):
    ``B plays 7♦, A passes, C whists; tricks A 0, B 8, C 2; talon 1 quick trick``."""
    kind = deal.get("type", "")
    try:
        bid = "misère" if kind == "misere" else str(parse_contract(deal.get("contract", "")))
    except RecordError:
        bid = str(deal.get("contract", "?"))
    tricks = deal.get("tricks")
    body = _play_text(kind, deal.get("declarer", "?"), bid,
                      sorted(deal.get("defence", {}).items()),
                      sorted(tricks.items()) if tricks else None)
    quick = deal.get("talon", {}).get("quick_tricks", 0)
    if quick:
        body += f"; talon {quick} quick trick{'s' if quick > 1 else ''}"
    return body


def _column_text(column: Column, record: GameRecord) -> str:
    name = record.names.get(column.seat)
    who = f"{column.seat} ({name})" if name else column.seat
    if column.kind == "whists":
        return f"{who}: whists on {column.on}"
    return f"{who}: {column.kind}"


def _deal_text(deal: Deal) -> str:
    """``deal 5 (dealt by A): B plays 6♠, C whists, A passes; tricks B 6, C 3, A 1 → 6♠/=``."""
    head = f"deal {deal.number} (dealt by {deal.dealer})"
    bid = "misère" if deal.kind == "misere" else str(deal.bid)
    body = _play_text(deal.kind, deal.declarer, bid, deal.defence, deal.tricks)
    if deal.tricks is None and deal.kind != "allpass":
        body += "; not played"
    return f"{head}: {body} → {deal.result_notation()}"


_CALLS = {"whist": "whists", "pass": "passes", "halfwhist": "half-whists"}


def _play_text(kind: str, declarer: str | None, bid: str,
               defence: Iterable[tuple[str, str]],
               tricks: Iterable[tuple[str, int]] | None) -> str:
    """``B plays 6♠, C whists, A passes; tricks B 6, C 3, A 1`` (``all-pass; tricks ...``)."""
    body = "all-pass" if kind == "allpass" else f"{declarer} plays {bid}" + "".join(
        f", {seat} {_CALLS.get(call, call)}" for seat, call in defence)
    if tricks is not None:
        body += "; tricks " + ", ".join(f"{s} {n}" for s, n in tricks)
    return body


def _deal_view(deal: Deal) -> DealView:
    text = _deal_text(deal)
    return DealView(deal.number, deal.dealer, text.split(": ", 1)[1].rsplit(" → ", 1)[0],
                    deal.result_notation())


def _columns(record: GameRecord, sheet: ExpectedSheet, findings: list[Finding]
             ) -> tuple[ColumnView, ...]:
    written = record.written or {}
    views = []
    for column in sheet_columns(record.seats):
        if column not in written and not sheet.column(column):
            continue
        flagged = tuple(sorted(f.entry for f in findings
                               if f.column == column and f.entry is not None))
        views.append(ColumnView(
            _column_text(column, record), tuple(number(v) for v in written.get(column, ())),
            tuple(number(e.total) for e in sheet.column(column)
                  if e.deal is not None), flagged))
    return tuple(views)


# --- where things are on the pages ---------------------------------------------------------


def _union(boxes: tuple[Box, ...]) -> Rect:
    x0 = min(b.x_mm for b in boxes)
    y0 = min(b.y_mm for b in boxes)
    x1 = max(b.x_mm + b.w_mm for b in boxes)
    y1 = max(b.y_mm + b.h_mm for b in boxes)
    return (x0, y0, x1 - x0, y1 - y0)


def _entry_rect(layout: Layout, column: Column, index: int) -> tuple[int, Rect] | None:
    """Page and rectangle of a column's entry ``index`` (0-based) on the first sheet."""
    cells = entry_cells(layout).get((column.seat, column.kind, column.on))
    if not cells or not 0 <= index < len(cells):
        return None
    return cells[index][0].page, _union(cells[index])


def _finding_rect(finding: Finding, layout: Layout, fields: dict[str, FieldReading]
                  ) -> tuple[int, Rect] | None:
    """Where the written entry of a finding stands on the scanned (or as-written) page."""
    if finding.entry is None:
        return None
    field = fields.get(_field_key(finding))
    if field is not None:
        return field.page, tuple(field.rect_mm)  # type: ignore[return-value]
    return _entry_rect(layout, finding.column, finding.entry - 1)


def _expected_rect(finding: Finding, sheet: ExpectedSheet, layout: Layout
                   ) -> tuple[int, Rect] | None:
    """Where the rules write the entry of a finding's deal on the reference copy."""
    for index, entry in enumerate(sheet.column(finding.column)):
        if finding.deal is not None and entry.deal == finding.deal:
            return _entry_rect(layout, finding.column, index)
    return None


# --- images ------------------------------------------------------------------------------


def _scan_images(scan: SheetScan | None, scan_dir: Path | None) -> dict[int, Any]:
    """Straightened page images of a scan, by page index (PIL images)."""
    from PIL import Image

    images: dict[int, Any] = {}
    if scan is None:
        return images
    for page in scan.pages:
        path = _scan_file(page.image, scan_dir)
        try:
            images[page.index] = Image.open(path).convert("RGB")
        except OSError as error:
            log.warning("page %d image %s cannot be read (%s)", page.index, path, error)
    return images


def _scan_file(name: str, scan_dir: Path | None) -> Path:
    """A scan's file: its paths are relative to the scan's output folder, which is the
    folder of ``scan.json`` or the one above it (``out/<sheet id>/scan.json``)."""
    path = Path(name)
    if path.is_absolute() or scan_dir is None:
        return path
    for folder in (scan_dir, scan_dir.parent):
        if (folder / path).exists():
            return folder / path
    return scan_dir / path


def _crop(field: FieldReading, scan_images: dict[int, Any], layout: Layout,
          scan_dir: Path | None) -> bytes | None:
    """The ink of one cell: the scanner's crop if it kept one (a rectangle of a field sheet,
    or a file of its own in older scans: :func:`pulka.report.crops.crop_image`), else cut from the
    page."""
    from PIL import Image

    if field.crop:
        try:
            name, rect = split_crop(field.crop)
            return _png(crop_image(_scan_file(name, scan_dir), rect), colours=0)
        except (OSError, ValueError) as error:
            log.debug("crop %s not readable (%s); cutting from the page", field.crop, error)
    image = scan_images.get(field.page)
    if image is None or field.page >= len(layout.pages):
        return None
    page = layout.pages[field.page]
    sx, sy = image.width / page.w_mm, image.height / page.h_mm
    x, y, w, h = field.rect_mm
    m = k.CROP_MARGIN_MM
    box = (max(0, round((x - m) * sx)), max(0, round((y - m) * sy)),
           min(image.width, round((x + w + m) * sx)), min(image.height, round((y + h + m) * sy)))
    if box[2] <= box[0] or box[3] <= box[1]:
        return None
    crop = image.crop(box)
    scale = k.CROP_HEIGHT_PX / max(1, crop.height)
    size = (max(1, round(crop.width * scale)), k.CROP_HEIGHT_PX)
    crop = crop.resize(size, Image.Resampling.LANCZOS)
    return _png(crop, colours=0)


def _jpeg(image: Any) -> bytes:
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "JPEG", quality=k.SCAN_JPEG_QUALITY, optimize=True)
    return buffer.getvalue()


def _png(image: Any, colours: int = k.PAGE_PNG_COLOURS) -> bytes:
    """PNG bytes; line-art pages are quantised to a small palette (a fifth of the size)."""
    if colours:
        image = image.quantize(colours, method=2, dither=0)  # fast octree: 0.05 s a page
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def _identity(record: GameRecord, layout: Layout, sheet_id: str) -> SheetIdentity:
    names = tuple(record.names.get(seat, "") for seat in record.seats)
    rules = record.rules
    return SheetIdentity(
        sheet_id=sheet_id or make_sheet_id("", None, None, rules.id, names, 0, salt="report"),
        tournament="", round=None, table=None, page=0, continuation=0, layout_id=layout.id,
        rules_id=rules.id, rules=rules.settings(), seats=layout.seats, names=names)


def _written_fill(record: GameRecord, layout: Layout, reference: SheetFill) -> SheetFill:
    """The first sheet as the players wrote it: the reference deal rows, the written totals."""
    values = {b: v for b, v in reference.values.items() if not isinstance(b.meaning, EntryCell)}
    cells = entry_cells(layout)
    for column, totals in (record.written or {}).items():
        boxes = cells.get((column.seat, column.kind, column.on), [])
        for total, entry in zip(totals, boxes, strict=False):
            signed = entry[0].kind == "sign"
            digits = entry[1:] if signed else entry
            value = int(total)
            text = str(abs(value))[-len(digits):]
            if signed and value < 0:
                values[entry[0]] = "-"
            for box, char in zip(digits[len(digits) - len(text):], text, strict=True):
                values[box] = char
    return SheetFill(values)


def _pages(record: GameRecord, sheet: ExpectedSheet, layout: Layout, scan: SheetScan | None,
           scan_images: dict[int, Any], marks: list[Mark], reference_marks: list[Mark]
           ) -> tuple[PageImages, ...]:
    try:
        fills = fill_from_record(record, layout, sheet)
    except FillError as error:
        log.warning("the reference copy cannot be filled: %s", error)
        fills = [SheetFill({})]
    identity = _identity(record, layout, scan.sheet_id if scan is not None else "")
    wanted = [p.index for p in layout.pages
              if p.kind == "triangle" or p.first_row < max(1, len(record.deals))
              or any(m.page == p.index for m in marks)]
    requests = [SheetRequest(layout, identity, "ru", fills[0])]
    if scan is None:
        requests.append(SheetRequest(layout, identity, "ru",
                                     _written_fill(record, layout, fills[0])))
    pdf = render_pdf_bytes(requests)
    count = len(layout.pages)
    reference = dict(zip(wanted, render_pages(pdf, k.PAGE_DPI, pages=wanted), strict=True))
    written: dict[int, Any] = {}
    if scan is None:
        written = dict(zip(wanted, render_pages(pdf, k.PAGE_DPI,
                                                pages=[count + i for i in wanted]), strict=True))
    from PIL import Image

    pages = []
    for index in wanted:
        page = layout.pages[index]
        primary = scan_images.get(index) if scan is not None else Image.fromarray(
            written[index])
        pages.append(PageImages(
            index, page.kind, page.w_mm, page.h_mm,
            None if primary is None else _jpeg(primary) if scan is not None else _png(primary),
            "image/jpeg" if scan is not None else "image/png",
            _png(Image.fromarray(reference[index])),
            tuple(m for m in marks if m.page == index),
            tuple(m for m in reference_marks if m.page == index)))
    return tuple(pages)

