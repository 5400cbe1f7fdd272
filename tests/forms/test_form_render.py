"""Rendered sheets read back: markers, QR identity, cell borders where the layout says."""

from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from conftest import aruco_ids, dropout_mask, gray_of, identity_for, rendered

from forms.geometry import constants as g
from forms.geometry import deal_column
from forms.identity import from_qr_payload
from forms.labels import LANGUAGES
from forms.layout import build_layout, mm_to_px
from scanner.image.identify import read_qr

DPI = 300
TOLERANCE_MM = 0.3
CASES = [(players, lang) for players in (3, 4) for lang in LANGUAGES]


def _border_offsets_mm(mask: np.ndarray, layout, page: int) -> list[float]:
    """For every edge of every box, how far the printed line lies from the layout (mm)."""
    px = DPI / 25.4
    search = int(round(0.55 * px))  # neighbouring boxes are 0.8 mm apart
    errors = []
    for box in layout.boxes_for(page):
        x0, y0 = box.x_mm * px, box.y_mm * px
        x1, y1 = (box.x_mm + box.w_mm) * px, (box.y_mm + box.h_mm) * px
        ya, yb = int(y0 + (y1 - y0) * 0.3), int(y0 + (y1 - y0) * 0.7)
        xa, xb = int(x0 + (x1 - x0) * 0.3), int(x0 + (x1 - x0) * 0.7)
        for expected, vertical in ((x0, True), (x1, True), (y0, False), (y1, False)):
            c = int(round(expected))
            if vertical:
                strip = mask[ya:yb, c - search:c + search + 1].sum(axis=0)
            else:
                strip = mask[c - search:c + search + 1, xa:xb].sum(axis=1)
            if strip.sum() == 0:
                errors.append(99.0)
                continue
            positions = np.arange(c - search, c + search + 1) + 0.5
            found = float((positions * strip).sum() / strip.sum())
            errors.append(abs(found - expected) / px)
    return errors


@pytest.mark.slow
@pytest.mark.parametrize(("players", "lang"), CASES)
def test_markers_qr_and_borders(players: int, lang: str) -> None:
    layout = build_layout(players)
    _, images = rendered(players, lang)
    for page, rgb in enumerate(images):
        gray = gray_of(rgb)
        found = aruco_ids(gray)
        expected = {m.aruco_id: m for m in layout.markers if m.page == page}
        assert set(found) == set(expected), f"page {page}: markers {sorted(found)}"
        for aruco_id, corners in found.items():
            marker = expected[aruco_id]
            top_left = np.array([mm_to_px(marker.x_mm, DPI), mm_to_px(marker.y_mm, DPI)])
            assert np.abs(corners[0] - top_left).max() / (DPI / 25.4) < TOLERANCE_MM + 0.2
        text = read_qr(gray)
        assert text, f"page {page}: QR not decoded"
        assert from_qr_payload(text) == identity_for(players).for_page(page)
        errors = _border_offsets_mm(dropout_mask(rgb), layout, page)
        assert max(errors) <= TOLERANCE_MM, (
            f"page {page}: {sum(e > TOLERANCE_MM for e in errors)} of {len(errors)} borders off")


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_black_and_white_print_keeps_borders_visible(players: int) -> None:
    """A grey print of the drop-out colour is still a visible line (the scanner uses geometry)."""
    layout = build_layout(players)
    _, images = rendered(players, "en")
    gray = gray_of(images[0])
    box = layout.boxes_for(0)[0]
    x = int(round(mm_to_px(box.x_mm, DPI)))
    ymid = int(round(mm_to_px(box.y_mm + box.h_mm / 2, DPI)))
    assert gray[ymid, x - 2:x + 3].min() < 215
    red = images[0][ymid, x - 2:x + 3, 0]
    assert red.min() > 200  # the red channel drops it out


def test_letter_paper_renders() -> None:
    layout = build_layout(3, "Letter")
    pdf, images = rendered(3, "en", "Letter", 100, (0,))
    assert images[0].shape[:2] == (round(279.4 / 25.4 * 100), round(215.9 / 25.4 * 100))
    assert layout.pages[1].w_mm == pytest.approx(279.4)
    assert pdf.startswith(b"%PDF")


def _chars(pdf: bytes, page: int) -> list[tuple[str, float, float, float]]:
    """Every printed character of a page: itself, its font size (pt) and its centre (mm from
    the top-left)."""
    document = pdfium.PdfDocument(pdf)
    text = document[page].get_textpage()
    height = document[page].get_height()
    out = []
    for i in range(text.count_chars()):
        char = chr(pdfium_c.FPDFText_GetUnicode(text.raw, i))
        if char.isspace():
            continue
        left, bottom, right, top = text.get_charbox(i)
        out.append((char, pdfium_c.FPDFText_GetFontSize(text.raw, i),
                    (left + right) / 2 / 72 * 25.4, (height - (top + bottom) / 2) / 72 * 25.4))
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_deal_pages_name_the_players_and_print_legibly(lang: str) -> None:
    layout = build_layout(3)
    pdf, images = rendered(3, lang)
    names = next(lb for lb in layout.labels if lb.page == 1 and lb.key == "seat_names")
    document = pdfium.PdfDocument(pdf)
    h = document[1].get_height()
    to_pt = 72 / 25.4
    header = document[1].get_textpage().get_text_bounded(
        names.x_mm * to_pt, h - (names.y_mm + 2) * to_pt, (names.x_mm + names.width_mm) * to_pt,
        h - (names.y_mm - 4) * to_pt)
    for seat, name in zip(layout.seats, identity_for(3).names, strict=False):
        assert f"{seat} · {name}" in header
    x0, y0 = int(mm_to_px(names.x_mm, DPI)), int(mm_to_px(names.y_mm - 3, DPI))
    ink = gray_of(images[1])[y0:y0 + int(mm_to_px(4, DPI)), x0:x0 + int(mm_to_px(60, DPI))]
    assert (ink < 100).mean() > 0.02  # the names are on the raster too
    text = document[1].get_textpage().get_text_range()
    assert "4.2.7" in text and "4.2.9" in text
    specimen_top = deal_column.rows_top_mm() - g.DEAL_ROW_PITCH_MM - 1.5
    sheet_id = next(r for r in layout.sheet_id_text if r.page == 1)
    sizes = [size for _, size, x, y in _chars(pdf, 1)
             if not specimen_top <= y <= deal_column.rows_top_mm()
             and not (sheet_id.y_mm <= y <= sheet_id.y_mm + sheet_id.h_mm and x >= sheet_id.x_mm)]
    assert len(sizes) > 300 and min(sizes) >= 7.0


def test_triangle_page_has_result_boxes_and_signature_lines() -> None:
    layout = build_layout(3)
    _, images = rendered(3, "ru")
    gray = gray_of(images[0])
    for box in layout.result_boxes:
        x0, y0 = int(round(mm_to_px(box.x_mm, DPI))), int(round(mm_to_px(box.y_mm, DPI)))
        x1 = int(round(mm_to_px(box.x_mm + box.w_mm, DPI)))
        y1 = int(round(mm_to_px(box.y_mm + box.h_mm, DPI)))
        assert gray[y0 - 1:y0 + 2, x0 + 5:x1 - 5].min(axis=0).max() < 128  # top edge, all along
        assert gray[y0 + 5:y1 - 5, x1 - 1:x1 + 2].min(axis=1).max() < 128  # right edge
        assert gray[y0 + 5:y1 - 5, x0 + 5:x1 - 5].min() > 200  # empty inside
    for line in (ln for ln in layout.lines if ln.width_mm == g.SIGNATURE_LINE_W_MM):
        y = int(round(mm_to_px(line.y1_mm, DPI)))
        xs = slice(int(mm_to_px(line.x1_mm, DPI)) + 3, int(mm_to_px(line.x2_mm, DPI)) - 3)
        assert gray[y - 2:y + 3, xs].min(axis=0).max() < 128
