"""A ReportLab canvas with one page's coordinates: millimetres from the top-left corner."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from forms.model import Page


class PageCanvas:
    """Coordinate helpers for one page: millimetres from top-left to PDF points."""

    def __init__(self, canvas: Canvas, page: Page) -> None:
        self.c, self.page = canvas, page

    def pt(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """A point in PDF points (origin bottom-left)."""
        return x_mm * mm, (self.page.h_mm - y_mm) * mm

    def rect(self, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
        """A rectangle (x, y, w, h in mm from the top-left) as ReportLab's x, y, w, h."""
        return x * mm, (self.page.h_mm - y - h) * mm, w * mm, h * mm


def cross(c: Canvas, x: float, y: float, w: float, h: float, inset: float) -> None:
    """Draw an X in the rectangle (PDF points), ``inset`` from its sides."""
    c.line(x + inset, y + inset, x + w - inset, y + h - inset)
    c.line(x + inset, y + h - inset, x + w - inset, y + inset)
