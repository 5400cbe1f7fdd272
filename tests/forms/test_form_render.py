"""Rendered sheets read back: markers, QR identity, cell borders where the layout says."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import aruco_ids, dropout_mask, gray_of, identity_for, rendered

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
