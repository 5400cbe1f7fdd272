"""Characters written into boxes by a clean computer hand: the printed specimen row and a
sheet's fill (:class:`forms.render.sheet.SheetFill`), each turned toward its writer."""

from __future__ import annotations

from collections.abc import Mapping

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from forms.geometry import constants as g
from forms.geometry import deal_column
from forms.labels import text
from forms.model import Box, Layout
from forms.render.canvas import PageCanvas, cross


def draw_specimen(p: PageCanvas, layout: Layout, lang: str) -> None:
    """Draw the printed example row, above the first deal row, in grey."""
    slots, _, _ = deal_column.row_slots(layout.players, layout.talon)
    x0 = deal_column.left_mm()
    y = deal_column.rows_top_mm() - g.DEAL_ROW_PITCH_MM - 1.2
    c = p.c
    players = layout.players
    example = deal_column.specimen_values(players, layout.talon)
    c.setFillColorRGB(*g.LABEL_RGB)
    c.setFont("DejaVuSans", 5.0)
    c.drawRightString(*p.pt(x0 + g.DEAL_NUMBER_W_MM + g.DEAL_DEALER_W_MM - 0.5, y + 4.0),
                      text(lang, "example") + " A")
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
            write_char(c, p, bx, by, bw, bh, 0, example[key], grey)


def write_char(c: Canvas, p: PageCanvas, x: float, y: float, w: float, h: float, rotation: int,
           value: str, rgb: tuple[float, float, float]) -> None:
    """Write one character into a box, upright for its writer."""
    c.setStrokeColorRGB(*rgb)
    c.setFillColorRGB(*rgb)
    if value == "x":
        c.setLineWidth(0.4 * mm)
        cross(c, *p.rect(x, y, w, h), 0.7 * mm)
        return
    c.saveState()
    c.translate(*p.pt(x + w / 2, y + h / 2))
    c.rotate(-rotation)
    size = min(w, h) / 0.352778 * 0.95
    c.setFont("DejaVuSans", size)
    c.drawCentredString(0, -size * 0.36, value)
    c.restoreState()


def draw_fill(p: PageCanvas, values: Mapping[Box, str], page: int) -> None:
    """Write each box's character of page ``page`` in the fill's ink."""
    for box, value in values.items():
        if box.page == page and value:
            write_char(p.c, p, box.x_mm, box.y_mm, box.w_mm, box.h_mm, box.rotation_deg, value,
                   g.FILL_INK_RGB)
