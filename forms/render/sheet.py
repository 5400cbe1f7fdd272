"""Drawing a sheet with ReportLab: the layout's geometry, labels, QR codes and markers.

Cell and mark-box borders are drawn in the drop-out colour (``DROPOUT_RGB``); sign cells get a
very light drop-out tint so a writer sees where a sign goes. Zone and band lines, labels,
markers and QR codes are dark. A :class:`SheetFill` (a clean computer hand) writes characters
into boxes, each turned toward its writer. All boxes of a page are one PDF path, which keeps a
300-sheet batch fast.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO

from reportlab import rl_config
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from forms.aruco import MODULES, marker_bits
from forms.geometry import constants as g
from forms.geometry import deal_column
from forms.identity import SheetIdentity, to_qr_payload
from forms.model import Box, Layout, Page
from forms.qr import qr_modules
from forms.render.canvas import PageCanvas
from forms.render.canvas import PageCanvas as _Page
from forms.render.labels import draw_label
from forms.render.writing import draw_fill, draw_specimen

log = logging.getLogger(__name__)

DYNAMIC_LABELS = ("seat_name", "seat_names", "header_fields", "terms", "signatures")
"""Labels that differ from sheet to sheet; the rest of a page is drawn once per document."""
QR_QUIET_MODULES = 4

FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu",
             "/usr/local/share/fonts", "/Library/Fonts")
FONTS = {"Sans": "DejaVuSans.ttf", "Sans-Bold": "DejaVuSans-Bold.ttf",
         "Mono-Bold": "DejaVuSansMono-Bold.ttf"}


class FontMissingError(RuntimeError):
    """DejaVu fonts are not installed."""


@lru_cache(maxsize=1)
def register_fonts() -> None:
    """Register DejaVu (Cyrillic and suit symbols) with ReportLab, once."""
    for name, filename in FONTS.items():
        for folder in FONT_DIRS:
            path = Path(folder) / filename
            if path.exists():
                pdfmetrics.registerFont(TTFont(f"DejaVu{name}", str(path)))
                break
        else:
            raise FontMissingError(f"font {filename} not found in {', '.join(FONT_DIRS)}; "
                                   f"install it (Debian/Ubuntu: apt install fonts-dejavu-core)")


@dataclass(frozen=True)
class SheetFill:
    """What a clean computer hand writes: a character per box (``"x"`` crosses a mark box)."""

    values: Mapping[Box, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SheetRequest:
    """One sheet to print: its layout, identity, language and optional fill."""

    layout: Layout
    identity: SheetIdentity
    lang: str = "ru"
    fill: SheetFill | None = None


def render_pdf(sheets: Iterable[SheetRequest], out: str | Path | BinaryIO) -> int:
    """Write the sheets into one PDF (``out``: a path or a binary file); returns pages drawn."""
    register_fonts()
    rl_config.useA85 = 0  # binary Flate streams: smaller than ASCII85, and quicker to write
    canvas = Canvas(out if not isinstance(out, Path) else str(out), pageCompression=1)
    canvas.setTitle("pulka")
    count = 0
    forms: set[str] = set()
    for request in sheets:
        for page in request.layout.pages:
            _draw_page(canvas, request, page, forms)
            canvas.showPage()
            count += 1
    canvas.save()
    return count


def render_pdf_bytes(sheets: Iterable[SheetRequest]) -> bytes:
    """Return the PDF as bytes."""
    buffer = io.BytesIO()
    render_pdf(sheets, buffer)
    return buffer.getvalue()


def _draw_page(canvas: Canvas, request: SheetRequest, page: Page, forms: set[str]) -> None:
    """Draw one page: its static part once per document as a PDF form, then the sheet's own
    QR code, ids, names, terms and fill."""
    layout, identity = request.layout, request.identity.for_page(page.index)
    canvas.setPageSize((page.w_mm * mm, page.h_mm * mm))
    p = PageCanvas(canvas, page)
    name = f"pulka_{layout.id}_{request.lang}_{page.index}"
    if name not in forms:
        canvas.beginForm(name, 0, 0, page.w_mm * mm, page.h_mm * mm)
        _draw_static(p, request, page)
        canvas.endForm()
        forms.add(name)
    canvas.doForm(name)
    payload = to_qr_payload(identity)
    for region in layout.qr:
        if region.page == page.index:
            _draw_qr(p, payload, region.x_mm, region.y_mm, region.w_mm)
    for region in layout.sheet_id_text:
        if region.page == page.index:
            canvas.setFillColorRGB(*g.INK_RGB)
            # a monospace advance is 0.602 em: shrink long ids to the region's width
            size = min(9.5, region.w_mm * mm / (0.61 * max(len(identity.sheet_id), 1)))
            canvas.setFont("DejaVuMono-Bold", size)
            canvas.drawCentredString(*p.pt(region.x_mm + region.w_mm / 2,
                                           region.y_mm + region.h_mm - 0.6), identity.sheet_id)
    for label in layout.labels:
        if label.page == page.index and label.key.partition(":")[0] in DYNAMIC_LABELS:
            draw_label(p, label, request.lang, identity)
    if request.fill is not None:
        draw_fill(p, request.fill.values, page.index)


def _draw_static(p: PageCanvas, request: SheetRequest, page: Page) -> None:
    """What every sheet of one layout and language shares on this page."""
    canvas, layout = p.c, request.layout
    if page.kind == "deals":
        _draw_row_tint(p, layout)
    _draw_boxes(p, layout.boxes_for(page.index))
    canvas.setStrokeColorRGB(*g.LINE_RGB)
    canvas.setLineCap(1)
    for ln in layout.lines:
        if ln.page == page.index:
            canvas.setLineWidth(ln.width_mm * mm)
            canvas.line(*p.pt(ln.x1_mm, ln.y1_mm), *p.pt(ln.x2_mm, ln.y2_mm))
    for circle in layout.circles:
        if circle.page == page.index:
            canvas.setLineWidth(circle.width_mm * mm)
            canvas.circle(*p.pt(circle.cx_mm, circle.cy_mm), circle.r_mm * mm)
    canvas.setLineWidth(g.CELL_BORDER_MM * mm)
    for box in layout.result_boxes:
        if box.page == page.index:  # the judge's boxes: dark, unlike the players' fields
            canvas.rect(*p.rect(box.x_mm, box.y_mm, box.w_mm, box.h_mm), stroke=1, fill=0)
    for marker in layout.markers:
        if marker.page == page.index:
            _draw_marker(p, marker.aruco_id, marker.x_mm, marker.y_mm, marker.size_mm)
    for label in layout.labels:
        if label.page == page.index and label.key.partition(":")[0] not in DYNAMIC_LABELS:
            draw_label(p, label, request.lang, request.identity)
    if page.kind == "deals":
        draw_specimen(p, request.layout, request.lang)


def _draw_boxes(p: PageCanvas, boxes: Iterable[Box]) -> None:
    c = p.c
    c.setLineWidth(g.CELL_BORDER_MM * mm)
    c.setStrokeColorRGB(*g.DROPOUT_RGB)
    c.setFillColorRGB(*g.SIGN_TINT_RGB)
    path, signs = c.beginPath(), c.beginPath()
    for box in boxes:
        target = signs if box.kind == "sign" else path
        target.rect(*p.rect(box.x_mm, box.y_mm, box.w_mm, box.h_mm))
    c.drawPath(signs, stroke=1, fill=1)
    c.drawPath(path, stroke=1, fill=0)


def _draw_row_tint(p: PageCanvas, layout: Layout) -> None:
    """Tint every other block of five deal rows (red channel 255: a colour scan drops it)."""
    _, _, width = deal_column.row_slots(layout.players, layout.talon)
    top, pitch = deal_column.rows_top_mm(), g.DEAL_ROW_PITCH_MM
    rows = deal_column.rows_per_page(p.page.h_mm)
    p.c.setFillColorRGB(*g.ROW_TINT_RGB)
    for block in range(1, rows // 5 + 1, 2):
        n = min(5, rows - 5 * block)
        if n > 0:
            y = top + 5 * block * pitch - 0.5
            p.c.rect(*p.rect(deal_column.left_mm() - 1.0, y, width + 2.0, n * pitch), stroke=0,
                     fill=1)


def _draw_marker(p: PageCanvas, aruco_id: int, x: float, y: float, size: float) -> None:
    c = p.c
    module = size / MODULES
    c.setFillColorRGB(1, 1, 1)
    q = g.MARKER_QUIET_MM / 2
    c.rect(*p.rect(x - q, y - q, size + 2 * q, size + 2 * q), stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    path = c.beginPath()
    for r, row in enumerate(marker_bits(aruco_id)):
        for col, black in enumerate(row):
            if black:
                # a hair larger than a module, so neighbours merge without seams
                path.rect(*p.rect(x + col * module - 0.01, y + r * module - 0.01,
                                  module + 0.02, module + 0.02))
    c.drawPath(path, stroke=0, fill=1)


def _draw_qr(p: _Page, payload: str, x: float, y: float, size: float) -> None:
    """The payload's code (:func:`forms.qr.qr_modules`) in the square of side ``size`` mm at
    (x, y), :data:`QR_QUIET_MODULES` of quiet zone inside it; one rectangle per run of dark
    modules in a row."""
    c = p.c
    c.setFillColorRGB(1, 1, 1)
    c.rect(*p.rect(x, y, size, size), stroke=0, fill=1)
    modules = qr_modules(payload)
    n = len(modules)
    step = size / (n + 2 * QR_QUIET_MODULES)
    c.setFillColorRGB(0, 0, 0)
    path = c.beginPath()
    ops = path._code  # ReportLab formats each number in pure Python; 3x faster to do it here
    for r, row in enumerate(modules):
        run = None
        for col, dark in enumerate([*row, False]):
            if dark and run is None:
                run = col
            elif not dark and run is not None:
                rx, ry, rw, rh = p.rect(x + (QR_QUIET_MODULES + run) * step - 0.005,
                                        y + (QR_QUIET_MODULES + r) * step - 0.005,
                                        (col - run) * step + 0.01, step + 0.01)
                ops.append(f"{rx:.3f} {ry:.3f} {rw:.3f} {rh:.3f} re")
                run = None
    c.drawPath(path, stroke=0, fill=1)
