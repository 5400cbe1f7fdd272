"""Rasterising PDFs with pypdfium2."""

from __future__ import annotations

import numpy as np
from conftest import identity_for

from forms.layout import build_layout
from forms.render.raster import page_count, render_pages, save_png
from forms.render.sheet import SheetRequest, render_pdf_bytes


def test_pages_sizes_and_colour_order(tmp_path) -> None:
    layout = build_layout(3)
    pdf = render_pdf_bytes([SheetRequest(layout, identity_for(3), "en")])
    assert page_count(pdf) == len(layout.pages)
    rgb = next(render_pages(pdf, dpi=50, pages=[0]))
    assert rgb.shape[2] == 3
    assert abs(rgb.shape[0] - 297 / 25.4 * 50) <= 1 and abs(rgb.shape[1] - 210 / 25.4 * 50) <= 1
    # the pink sign cells: red stays high, green drops (RGB order, not BGR)
    reds = rgb[(rgb[:, :, 0] > 240) & (rgb[:, :, 1] < 235) & (rgb[:, :, 1] > 200)]
    assert len(reds) > 100
    grey = list(render_pages(pdf, dpi=30, grey=True))
    assert len(grey) == 3 and grey[1].ndim == 2 and grey[1].shape[1] > grey[1].shape[0]
    save_png(grey[0], tmp_path / "p.png")
    assert (tmp_path / "p.png").stat().st_size > 1000
    assert rgb.dtype == np.uint8
