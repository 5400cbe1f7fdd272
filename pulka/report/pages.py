"""The page images of an audit report: the scanned (or as-written) sheet and the reference
copy filled by the rules, each with its outlines; ink crops and where entries stand."""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forms.identity import SheetIdentity, make_sheet_id
from forms.layout import entry_cells
from forms.model import Box, EntryCell, Layout
from forms.render.fill import FillError, fill_from_record
from forms.render.raster import render_pages
from forms.render.sheet import SheetFill, SheetRequest, render_pdf_bytes
from pulka.i18n import current_language
from pulka.report import constants as k
from pulka.report.crops import crop_image
from scanner.results import FieldReading, SheetScan, split_crop
from scoring import Column, ExpectedSheet, GameRecord

log = logging.getLogger(__name__)

Rect = tuple[float, float, float, float]
"""``(x, y, w, h)`` in millimetres from the page's top-left corner."""

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


def _union(boxes: tuple[Box, ...]) -> Rect:
    x0 = min(b.x_mm for b in boxes)
    y0 = min(b.y_mm for b in boxes)
    x1 = max(b.x_mm + b.w_mm for b in boxes)
    y1 = max(b.y_mm + b.h_mm for b in boxes)
    return (x0, y0, x1 - x0, y1 - y0)


def entry_rect(layout: Layout, column: Column, index: int) -> tuple[int, Rect] | None:
    """Page and rectangle of a column's entry ``index`` (0-based) on the first sheet."""
    cells = entry_cells(layout).get((column.seat, column.kind, column.on))
    if not cells or not 0 <= index < len(cells):
        return None
    return cells[index][0].page, _union(cells[index])


# --- images ------------------------------------------------------------------------------


def scan_images(scan: SheetScan | None, scan_dir: Path | None) -> dict[int, Any]:
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


def crop_png(field: FieldReading, scan_images: dict[int, Any], layout: Layout,
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
        image = image.quantize(colours, method=2, dither=0)  # fast octree
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


def page_images(record: GameRecord, sheet: ExpectedSheet, layout: Layout,
                scan: SheetScan | None, scanned: dict[int, Any], marks: list[Mark],
                reference_marks: list[Mark]) -> tuple[PageImages, ...]:
    """The pages worth showing: each scanned (or as-written) image beside its reference copy."""
    try:
        fills = fill_from_record(record, layout, sheet)
    except FillError as error:
        log.warning("the reference copy cannot be filled: %s", error)
        fills = [SheetFill({})]
    identity = _identity(record, layout, scan.sheet_id if scan is not None else "")
    wanted = [p.index for p in layout.pages
              if p.kind == "triangle" or p.first_row < max(1, len(record.deals))
              or any(m.page == p.index for m in marks)]
    language = current_language()  # the drawn sheet speaks the report's language
    requests = [SheetRequest(layout, identity, language, fills[0])]
    if scan is None:
        requests.append(SheetRequest(layout, identity, language,
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
        primary = scanned.get(index) if scan is not None else Image.fromarray(
            written[index])
        pages.append(PageImages(
            index, page.kind, page.w_mm, page.h_mm,
            None if primary is None else _jpeg(primary) if scan is not None else _png(primary),
            "image/jpeg" if scan is not None else "image/png",
            _png(Image.fromarray(reference[index])),
            tuple(m for m in marks if m.page == index),
            tuple(m for m in reference_marks if m.page == index)))
    return tuple(pages)

