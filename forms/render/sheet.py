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
from forms.labels import text
from forms.model import Box, Label, Layout, Page
from forms.qr import qr_modules

log = logging.getLogger(__name__)

DYNAMIC_LABELS = ("seat_name", "header_fields", "terms", "signatures")
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
    rl_config.useA85 = 0  # binary Flate streams: 20 % smaller, and ReportLab's ASCII85 is slow
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


# --- one page ----------------------------------------------------------------------


class _Page:
    """Coordinate helpers for one page: millimetres from top-left to PDF points."""

    def __init__(self, canvas: Canvas, page: Page) -> None:
        self.c, self.page = canvas, page

    def pt(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return x_mm * mm, (self.page.h_mm - y_mm) * mm

    def rect(self, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
        return x * mm, (self.page.h_mm - y - h) * mm, w * mm, h * mm


def _draw_page(canvas: Canvas, request: SheetRequest, page: Page, forms: set[str]) -> None:
    """Draw one page: its static part once per document as a PDF form, then the sheet's own
    QR code, ids, names, terms and fill."""
    layout, identity = request.layout, request.identity.for_page(page.index)
    canvas.setPageSize((page.w_mm * mm, page.h_mm * mm))
    p = _Page(canvas, page)
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
            _draw_label(p, label, request, identity)
    if request.fill is not None:
        _draw_fill(p, request.fill, page.index)


def _draw_static(p: _Page, request: SheetRequest, page: Page) -> None:
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
    for marker in layout.markers:
        if marker.page == page.index:
            _draw_marker(p, marker.aruco_id, marker.x_mm, marker.y_mm, marker.size_mm)
    for label in layout.labels:
        if label.page == page.index and label.key.partition(":")[0] not in DYNAMIC_LABELS:
            _draw_label(p, label, request, request.identity)
    if page.kind == "deals":
        _draw_specimen(p, request)


def _draw_boxes(p: _Page, boxes: Iterable[Box]) -> None:
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


def _draw_row_tint(p: _Page, layout: Layout) -> None:
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


def _draw_marker(p: _Page, aruco_id: int, x: float, y: float, size: float) -> None:
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


def _label_text(label: Label, request: SheetRequest, identity: SheetIdentity) -> list[str]:
    lang = request.lang
    if label.literal:
        return [label.key]
    key, _, arg = label.key.partition(":")
    names = dict(zip(identity.seats, identity.names, strict=False))
    blank = "_" * 12
    if key == "seat_name":
        return [text(lang, "seat_name", seat=arg, name=names.get(arg) or "_" * 18)]
    if key == "header_fields":
        page = str(identity.page + 1)
        if identity.continuation:
            page += " · " + text(lang, "continuation", n=identity.continuation)
        return [text(lang, "header_fields", tournament=identity.tournament or blank * 2,
                     round=identity.round if identity.round is not None else "____",
                     table=identity.table if identity.table is not None else "____",
                     date=identity.date or blank, page=page)]
    if key == "terms":
        return _terms(lang, identity)
    if key == "signatures":
        seats = "   ".join(f"{s} {'_' * 22}" for s in identity.seats)
        return [f"{text(lang, 'signatures')}   {seats}"]
    if key == "legend":
        return []
    return [text(lang, label.key)]


def _terms(lang: str, identity: SheetIdentity) -> list[str]:
    rules = identity.rule_set()
    pool = (text(lang, "by_time") if rules.pool is None
            else text(lang, "pool_size", n=rules.pool))
    stake = rules.settings()["stake"]
    stake_text = text(lang, "no_stake") if stake is None else text(lang, "stake", stake=stake)
    lines = [text(lang, "terms", variant=text(lang, f"variant:{rules.variant}"), pool=pool,
                  stake=stake_text)]
    changed = {k: v for k, v in rules.changed_settings().items() if k != "stake"}
    items = [f"{k}={_short(v)}" for k, v in sorted(changed.items())]
    while items:
        line = items.pop(0)
        while items and len(line) + len(items[0]) < 34:
            line += ", " + items.pop(0)
        lines.append(line)
    return lines[:5]


def _short(value: object) -> str:
    if value is True:
        return "on"
    if value is False:
        return "off"
    if isinstance(value, list):
        return ",".join(str(v) for v in value) + "…"
    return str(value)


def _draw_label(p: _Page, label: Label, request: SheetRequest, identity: SheetIdentity) -> None:
    c = p.c
    if label.key == "legend":
        _draw_legend(p, label, request.lang)
        return
    lines = _label_text(label, request, identity)
    bold = label.key.startswith(("seat_name", "title_"))
    c.setFont("DejaVuSans-Bold" if bold else "DejaVuSans", label.size_pt)
    c.setFillColorRGB(*(g.INK_RGB if bold else g.LABEL_RGB))
    c.saveState()
    c.translate(*p.pt(label.x_mm, label.y_mm))
    c.rotate(-label.rotation_deg)
    step = label.size_pt * 1.15
    offset = step * (len(lines) - 1) if label.key == "terms" else 0.0
    for i, line in enumerate(lines):
        y = offset - i * step
        if label.anchor == "middle":
            c.drawCentredString(0, y, line)
        elif label.anchor == "end":
            c.drawRightString(0, y, line)
        else:
            c.drawString(0, y, line)
    c.restoreState()


def _cross(c: Canvas, x: float, y: float, w: float, h: float, inset: float) -> None:
    c.line(x + inset, y + inset, x + w - inset, y + h - inset)
    c.line(x + inset, y + h - inset, x + w - inset, y + inset)


def _draw_legend(p: _Page, label: Label, lang: str) -> None:
    """Draw a valid mark (a cross) and a cancelled one (a filled box), each with its words."""
    c = p.c
    words = text(lang, "legend").replace("☒", "").split("■")
    s = g.MARK_MM
    for i, word in enumerate(words):
        x, y = label.x_mm, label.y_mm + i * (s + 1.5)
        c.setStrokeColorRGB(*g.DROPOUT_RGB)
        c.setLineWidth(g.CELL_BORDER_MM * mm)
        c.rect(*p.rect(x, y, s, s), stroke=1, fill=0)
        c.setStrokeColorRGB(*g.FILL_INK_RGB)
        c.setFillColorRGB(*g.FILL_INK_RGB)
        c.setLineWidth(0.45 * mm)
        if i == 0:
            _cross(c, *p.rect(x, y, s, s), 0.6 * mm)
        else:
            _cross(c, *p.rect(x, y, s, s), 0.6 * mm)
            c.rect(*p.rect(x + 0.4, y + 0.4, s - 0.8, s - 0.8), stroke=0, fill=1)
        c.setFillColorRGB(*g.LABEL_RGB)
        c.setFont("DejaVuSans", label.size_pt)
        c.drawString(*p.pt(x + s + 1.2, y + s - 1.0), word.strip())


def _draw_specimen(p: _Page, request: SheetRequest) -> None:
    """Draw the printed example row, above the first deal row, in grey."""
    layout = request.layout
    slots, _, _ = deal_column.row_slots(layout.players, layout.talon)
    x0 = deal_column.left_mm()
    y = deal_column.rows_top_mm() - g.DEAL_ROW_PITCH_MM - 1.2
    c = p.c
    players = layout.players
    example = deal_column.specimen_values(players, layout.talon)
    c.setFillColorRGB(*g.LABEL_RGB)
    c.setFont("DejaVuSans", 5.0)
    c.drawRightString(*p.pt(x0 + g.DEAL_NUMBER_W_MM + g.DEAL_DEALER_W_MM - 0.5, y + 4.0),
                      text(request.lang, "example") + " A")
    grey = (0.45, 0.45, 0.45)
    for s in slots:
        key = (s.field, s.option)
        if s.kind == "mark":
            bx, by, bw = x0 + s.dx_mm, y + (g.CELL_H_MM - g.MARK_MM) / 2, g.MARK_MM
            bh = bw
        else:
            bx, by, bw, bh = x0 + s.dx_mm, y, g.CELL_W_MM, g.CELL_H_MM
        c.setStrokeColorRGB(*grey)
        c.setLineWidth(0.15 * mm)
        c.setDash(0.6, 0.6)
        c.rect(*p.rect(bx, by, bw, bh), stroke=1, fill=0)
        c.setDash()
        if key in example:
            _write(c, p, bx, by, bw, bh, 0, example[key], grey)


def _write(c: Canvas, p: _Page, x: float, y: float, w: float, h: float, rotation: int,
           value: str, rgb: tuple[float, float, float]) -> None:
    """Write one character into a box, upright for its writer."""
    c.setStrokeColorRGB(*rgb)
    c.setFillColorRGB(*rgb)
    if value == "x":
        c.setLineWidth(0.4 * mm)
        _cross(c, *p.rect(x, y, w, h), 0.7 * mm)
        return
    c.saveState()
    c.translate(*p.pt(x + w / 2, y + h / 2))
    c.rotate(-rotation)
    size = min(w, h) / 0.352778 * 0.95
    c.setFont("DejaVuSans", size)
    c.drawCentredString(0, -size * 0.36, value)
    c.restoreState()


def _draw_fill(p: _Page, fill: SheetFill, page: int) -> None:
    for box, value in fill.values.items():
        if box.page == page and value:
            _write(p.c, p, box.x_mm, box.y_mm, box.w_mm, box.h_mm, box.rotation_deg, value,
                   g.FILL_INK_RGB)
