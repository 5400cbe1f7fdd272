"""The audit report as a PDF (ReportLab), with the same content as the HTML.

Text pages are A4 portrait. The triangle page of the sheet is shown on a landscape page, the
scanned (or as-written) copy beside the reference copy; a contracts page goes on a portrait
page, one copy above the other. Fonts are the DejaVu family that prints the sheets
(:func:`forms.render.sheet.register_fonts`): Cyrillic names and ♠♣♦♥ come out right.
"""

from __future__ import annotations

import io
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    Image,
    KeepTogether,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from forms.render.sheet import register_fonts
from pulka.i18n import _, current_language, ngettext
from pulka.report import constants as k
from pulka.report.crops import is_wide
from pulka.report.model import SheetReport
from pulka.report.pages import Mark, PageImages
from pulka.report.tables import Table as TextTable
from pulka.report.tables import (
    columns_table,
    deals_table,
    doubt_header,
    doubt_row,
    doubts_lead,
    finding_fields,
    finding_heading,
    findings_lead,
    no_scan_text,
    penalty_label,
    settlement_lead,
    settlement_tables,
    settlement_title,
    stake_text,
    summary_line,
)

MARGIN_MM = 12
FONT, BOLD = "DejaVuSans", "DejaVuSans-Bold"
RED, AMBER = colors.Color(*k.FINDING_RGB), colors.Color(*k.DOUBT_RGB)
GREY = colors.Color(0.36, 0.39, 0.44)
LINE = colors.Color(0.84, 0.85, 0.87)


def _styles() -> dict[str, ParagraphStyle]:
    base = ParagraphStyle("body", fontName=FONT, fontSize=9, leading=12)
    return {
        "body": base,
        "small": ParagraphStyle("small", parent=base, fontSize=7.5, leading=9.5),
        "muted": ParagraphStyle("muted", parent=base, textColor=GREY),
        "h1": ParagraphStyle("h1", parent=base, fontName=BOLD, fontSize=17, leading=21,
                             spaceAfter=4),
        "h2": ParagraphStyle("h2", parent=base, fontName=BOLD, fontSize=13, leading=16,
                             spaceBefore=12, spaceAfter=5),
        "h3": ParagraphStyle("h3", parent=base, fontName=BOLD, fontSize=10, leading=13,
                             spaceBefore=6, spaceAfter=3),
        "red": ParagraphStyle("red", parent=base, fontName=BOLD, textColor=RED),
        "cell": ParagraphStyle("cell", parent=base, fontSize=8, leading=10),
        "num": ParagraphStyle("num", parent=base, fontSize=8, leading=10, alignment=2),
        "cellb": ParagraphStyle("cellb", parent=base, fontName=BOLD, fontSize=8, leading=10),
    }


class PageImage(Flowable):  # type: ignore[misc]
    """A page image at a given width with its outlines drawn over it in millimetres."""

    def __init__(self, page: PageImages, image: bytes, marks: tuple[Mark, ...],
                 width: float, caption: str) -> None:
        super().__init__()
        self.page, self.image, self.marks, self.caption = page, image, marks, caption
        self.scale = width / page.w_mm  # points per page millimetre
        self.width, self.image_height = width, page.h_mm * self.scale
        self.height = self.image_height + 12

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        """The size it takes: fixed by the width it was given."""
        return self.width, self.height

    def draw(self) -> None:
        """The image, a thin frame, the outlines with their labels, the caption."""
        c, s = self.canv, self.scale
        top = self.height
        c.drawImage(ImageReader(io.BytesIO(self.image)), 0, 12, self.width, self.image_height)
        c.setStrokeColor(LINE)
        c.setLineWidth(0.5)
        c.rect(0, 12, self.width, self.image_height, stroke=1, fill=0)
        pad = k.OUTLINE_PAD_MM
        for mark in self.marks:
            colour = RED if mark.kind == "finding" else AMBER
            x, y, w, h = mark.rect_mm
            c.setStrokeColor(colour)
            c.setLineWidth(max(0.8, k.OUTLINE_MM * s))
            c.rect((x - pad) * s, top - (y + h + pad) * s, (w + 2 * pad) * s, (h + 2 * pad) * s,
                   stroke=1, fill=0)
            c.setFillColor(colour)
            c.setFont(BOLD, 7)
            label_y = top - (y - pad) * s + 2 if y > 6 else top - (y + h + pad) * s - 8
            c.drawString((x - pad) * s, label_y, mark.label)
        c.setFillColor(GREY)
        c.setFont(FONT, 7.5)
        c.drawString(0, 2, self.caption)


def render_pdf(report: SheetReport) -> bytes:
    """The whole report as PDF bytes."""
    register_fonts()
    styles = _styles()
    buffer = io.BytesIO()
    portrait_size, landscape_size = A4, landscape(A4)
    doc = BaseDocTemplate(buffer, pagesize=portrait_size, lang=current_language(),
                          title=_("Audit report · {name}").format(name=report.name),
                          author="pulka", leftMargin=MARGIN_MM * mm, rightMargin=MARGIN_MM * mm,
                          topMargin=MARGIN_MM * mm, bottomMargin=MARGIN_MM * mm)
    m = MARGIN_MM * mm

    def frame(size: tuple[float, float], ident: str) -> Frame:
        return Frame(m, m, size[0] - 2 * m, size[1] - 2 * m, id=ident, leftPadding=0,
                     rightPadding=0, topPadding=0, bottomPadding=0)

    def footer(canvas, document) -> None:  # type: ignore[no-untyped-def]
        canvas.saveState()
        canvas.setFont(FONT, 7)
        canvas.setFillColor(GREY)
        canvas.drawString(m, m / 2, _("pulka audit report · {name} · page {page}").format(
            name=report.name, page=document.page))
        canvas.restoreState()

    doc.addPageTemplates([
        PageTemplate("portrait", [frame(portrait_size, "p")], onPage=footer,
                     pagesize=portrait_size),
        PageTemplate("landscape", [frame(landscape_size, "l")], onPage=footer,
                     pagesize=landscape_size)])
    story: list[Flowable] = []
    story += _head(report, styles)
    story += _findings(report, styles)
    story += _doubts(report, styles)
    story += _sheet(report, styles, portrait_size, landscape_size)
    story += _tables(report, styles)
    doc.build(story)
    return buffer.getvalue()


def write_pdf(report: SheetReport, path: Path) -> Path:
    """Write the report's PDF; returns the path."""
    path.write_bytes(render_pdf(report))
    return path


def _p(text: str, style: ParagraphStyle) -> Paragraph:
    return Paragraph(escape(text), style)


def _head(report: SheetReport, styles: dict[str, ParagraphStyle]) -> list[Flowable]:
    source = _("scanned sheet") if report.scanned else _("record file (no scan)")
    lines = [_p(_("Pulka audit report · {name}").format(name=report.name), styles["h1"])]
    meta = (_("sheet {id}").format(id=report.sheet_id) + " · " if report.sheet_id else "") \
        + source + (f" ({report.source})" if report.source else "")
    lines.append(_p(meta, styles["muted"]))
    stake = " · " + _("stake {stake} a whist").format(stake=stake_text(report.stake)) \
        if report.stake else ""
    finished = "" if report.finished else " · " + _("game not finished")
    finished += f" · {report.signed_off}" if report.signed_off else ""
    deals = ngettext("{n} deal", "{n} deals", len(report.deals)).format(n=len(report.deals))
    lines.append(_p(f"{report.rules}{stake}{finished} · {deals}", styles["body"]))
    lines.append(_p(_("Players:") + " " + ", ".join(report.player(s) for s in report.seats),
                    styles["body"]))
    lines.append(Spacer(1, 4))
    lines.append(_p(summary_line(report), styles["red"] if report.findings else styles["h3"]))
    for warning in (*report.warnings, *report.scan_problems):
        lines.append(_p(_("Warning: {text}").format(text=warning), styles["body"]))
    return lines


def _grid(style: list[tuple[object, ...]] | None = None) -> TableStyle:
    return TableStyle([("GRID", (0, 0), (-1, -1), 0.4, LINE),
                       ("VALIGN", (0, 0), (-1, -1), "TOP"),
                       ("LEFTPADDING", (0, 0), (-1, -1), 3),
                       ("RIGHTPADDING", (0, 0), (-1, -1), 3), *(style or [])])


def _findings(report: SheetReport, styles: dict[str, ParagraphStyle]) -> list[Flowable]:
    story: list[Flowable] = [
        _p(_("Player errors (findings)"), styles["h2"]), _p(findings_lead(), styles["muted"])]
    if not report.findings:
        story.append(_p(_("None: every written total agrees with the rules."), styles["body"]))
    for view in report.findings:
        rows = [[_p(label, styles["cellb"]),
                 _p(text, styles["red"] if label == penalty_label() and view.penalty
                    else styles["cell"])] for label, text in finding_fields(view)]
        fields = Table(rows, colWidths=[34 * mm, 104 * mm],
                       style=TableStyle([("LINEBELOW", (0, 0), (-1, -1), 0.3, LINE),
                                         ("VALIGN", (0, 0), (-1, -1), "TOP")]))
        crop: Flowable = _p(_("(no ink: record file)") if not report.scanned
                            else _("(no crop)"), styles["small"])
        if view.crop_png is not None:
            crop = _image(view.crop_png, 40 * mm, 22 * mm)
        body = Table([[crop, fields]], colWidths=[44 * mm, 142 * mm],
                     style=TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                                       ("LINEBEFORE", (0, 0), (0, -1), 3, RED)]))
        story.append(KeepTogether([_p(finding_heading(view), styles["h3"]), body]))
    return story


def _image(data: bytes, max_w: float, max_h: float) -> Image:
    reader = ImageReader(io.BytesIO(data))
    w, h = reader.getSize()
    scale = min(max_w / w, max_h / h)
    return Image(io.BytesIO(data), w * scale, h * scale)


def _doubts(report: SheetReport, styles: dict[str, ParagraphStyle]) -> list[Flowable]:
    story: list[Flowable] = [
        _p(_("Scan doubts"), styles["h2"]), _p(doubts_lead(), styles["muted"])]
    if not report.scanned:
        story.append(_p(no_scan_text(), styles["body"]))
        return story
    if not report.doubts:
        story.append(_p(_("None: every cell was read with confidence."), styles["body"]))
        return story
    story.append(_doubt_table(report, styles))
    return story


DOUBT_COLUMNS_MM = (9, 28, 28, 30, 36, 20, 14, 21)
"""Widths of the doubts table's columns (label, cell, ink, read as, candidates, the ink
alone, rules expect, note); together the text width of an A4 page."""
DEAL_COLUMNS_MM = (17, 19, 120, 30)
"""Widths of the deal log's columns (deal, dealer, what happened, result): the first two hold
their headings unbroken in ru and uk at the table's type size."""
ENTRY_CROP_MM = (28, 12)
"""Largest width and height of an entry's crop, in the ink column."""
WIDE_CROP_MAX_H_MM = 30
"""Largest height of a wide crop (a deal row's), drawn across the table under its line."""


def _doubt_table(report: SheetReport, styles: dict[str, ParagraphStyle]) -> Table:
    rows: list[list[object]] = [[_p(h, styles["cellb"]) for h in doubt_header()]]
    spans: list[tuple[object, ...]] = []
    across = (sum(DOUBT_COLUMNS_MM) - 3) * mm
    for view in report.doubts:
        cells = doubt_row(view)
        wide = view.crop_png is not None and is_wide(view.crop_png, k.WIDE_CROP_RATIO)
        ink: object = "-"
        if view.crop_png is not None:
            ink = _p(_("below"), styles["small"]) if wide else _image(
                view.crop_png, ENTRY_CROP_MM[0] * mm, ENTRY_CROP_MM[1] * mm)
        rows.append([_p(c, styles["cell"]) for c in cells[:2]] + [ink]
                    + [_p(c, styles["cell"]) for c in cells[2:]])
        if wide and view.crop_png is not None:
            spans += [("SPAN", (0, len(rows)), (-1, len(rows))),  # the crop across the table,
                      ("NOSPLIT", (0, len(rows) - 1), (-1, len(rows)))]  # on its line's page
            rows.append([_image(view.crop_png, across, WIDE_CROP_MAX_H_MM * mm)]
                        + [""] * (len(DOUBT_COLUMNS_MM) - 1))
    return Table(rows, colWidths=[w * mm for w in DOUBT_COLUMNS_MM], repeatRows=1,
                 style=_grid([("BACKGROUND", (0, 0), (-1, 0), colors.whitesmoke), *spans]))


def _sheet(report: SheetReport, styles: dict[str, ParagraphStyle],
           portrait_size: tuple[float, float], landscape_size: tuple[float, float]
           ) -> list[Flowable]:
    left = _("Scanned sheet (straightened)") if report.scanned else \
        _("As written (the record's columns, in a computer hand)")
    right = _("Reference copy (computer, from the deal log)")
    story: list[Flowable] = []
    m = 2 * MARGIN_MM * mm
    for page in report.pages:
        wide = page.w_mm < page.h_mm  # a portrait page: two side by side on landscape
        story += [NextPageTemplate("landscape" if wide else "portrait"), PageBreak()]
        story.append(_p(_("The sheet, page {n}: red = player error, amber = scan doubt")
                        .format(n=page.index + 1), styles["h3"]))
        size = landscape_size if wide else portrait_size
        room_w, room_h = size[0] - m, size[1] - m - 30
        if wide:
            width = min((room_w - 8) / 2, (room_h - 12) * page.w_mm / page.h_mm)
        else:
            width = min(room_w, ((room_h - 24) / 2 - 12) * page.w_mm / page.h_mm)
        figures: list[Flowable] = []
        where = _("page {n}").format(n=page.index + 1)
        if page.primary_image is not None:
            figures.append(PageImage(page, page.primary_image, page.primary_marks, width,
                                     f"{left} · {where}"))
        else:
            figures.append(_p(_("Page {n} was not scanned.").format(n=page.index + 1),
                              styles["body"]))
        figures.append(PageImage(page, page.reference_png, page.reference_marks, width,
                                 f"{right} · {where}"))
        if wide:
            story.append(Table([figures], colWidths=[width + 8] * len(figures),
                               style=TableStyle([("LEFTPADDING", (0, 0), (-1, -1), 0),
                                                 ("VALIGN", (0, 0), (-1, -1), "TOP")])))
        else:
            for figure in figures:
                story += [figure, Spacer(1, 8)]
    story += [NextPageTemplate("portrait"), PageBreak()]
    return story


def _tables(report: SheetReport, styles: dict[str, ParagraphStyle]) -> list[Flowable]:
    story: list[Flowable] = []
    columns = columns_table(report)
    story.append(_p(columns.title, styles["h2"]))
    header = (columns.header[0], _("written (entries named by a finding in red)"),
              columns.header[2])  # the PDF marks them in red, as the HTML does
    rows: list[list[object]] = [[_p(h, styles["cellb"]) for h in header]]
    for view in report.columns:
        written = " · ".join(f'<font color="#{_hex(k.FINDING_RGB)}"><b>{escape(v)}</b></font>'
                             if i in view.flagged else escape(v)
                             for i, v in enumerate(view.written, 1)) or "-"
        rows.append([_p(view.column, styles["cell"]), Paragraph(written, styles["cell"]),
                     _p(" · ".join(view.expected) or "-", styles["cell"])])
    story.append(Table(rows, colWidths=[42 * mm, 72 * mm, 72 * mm], repeatRows=1,
                       style=_grid([("BACKGROUND", (0, 0), (-1, 0), colors.whitesmoke)])))
    story.append(_p(columns.note, styles["small"]))
    deals = deals_table(report)
    story.append(_p(deals.title, styles["h2"]))
    story.append(_text_table(deals, styles, DEAL_COLUMNS_MM, numeric=False))
    head: list[Flowable] = [_p(settlement_title(), styles["h2"]),
                            _p(settlement_lead(), styles["muted"])]
    for table in settlement_tables(report):
        part: list[Flowable] = [*head, _p(table.title, styles["h3"]),
                                _text_table(table, styles)]
        head = []
        if table.note:
            part.append(_p(table.note, styles["small"]))
        story.append(KeepTogether(part))
    return story


def _text_table(table: TextTable, styles: dict[str, ParagraphStyle],
                widths_mm: tuple[float, ...] | None = None, numeric: bool = True) -> Table:
    rows: list[list[object]] = [[_p(h, styles["cellb"]) for h in table.header]]
    rows += [[_p(c, styles["cell"] if i == 0 or not numeric else styles["num"])
              for i, c in enumerate(row)] for row in table.rows]
    widths = [w * mm for w in widths_mm] if widths_mm else None
    if widths is None:
        first = 42 * mm
        rest = (186 * mm - first) / max(1, len(table.header) - 1)
        widths = [first] + [rest] * (len(table.header) - 1)
    return Table(rows, colWidths=widths, repeatRows=1,
                 style=_grid([("BACKGROUND", (0, 0), (-1, 0), colors.whitesmoke)]))


def _hex(rgb: tuple[float, float, float]) -> str:
    return "".join(f"{round(c * 255):02x}" for c in rgb)
