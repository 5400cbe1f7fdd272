"""The sheet's QR code: segno's modules, printed where the layout says, read back by zxing-cpp."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import zxingcpp
from conftest import gray_of, identity_for, rendered

from forms.identity import from_qr_payload, to_qr_payload
from forms.layout import build_layout
from forms.qr import qr_modules
from forms.render.raster import render_pages
from forms.render.sheet import QR_QUIET_MODULES, SheetRequest, render_pdf_bytes
from scanner.image.identify import read_qr


def test_modules_are_square_and_deterministic() -> None:
    payload = to_qr_payload(identity_for(4))
    modules = qr_modules(payload)
    assert len(modules) == len(modules[0]) and len(modules) in range(45, 62)
    assert modules == qr_modules(payload)


def test_the_modules_are_a_code_zxing_reads() -> None:
    payload = to_qr_payload(identity_for(3))
    pure = np.pad(np.where(np.array(qr_modules(payload)), 0, 255).astype(np.uint8), 4,
                  constant_values=255)
    image = np.repeat(np.repeat(pure, 5, axis=0), 5, axis=1)
    assert read_qr(image) == payload


@pytest.mark.parametrize("players", [3, 4])
def test_code_is_printed_in_its_region_inside_its_quiet_zone(players: int) -> None:
    dpi = 300
    layout = build_layout(players)
    _, images = rendered(players, "ru")
    for page, rgb in enumerate(images):
        region = next(q for q in layout.qr if q.page == page)
        n = len(qr_modules(to_qr_payload(identity_for(players).for_page(page))))
        module_mm = region.w_mm / (n + 2 * QR_QUIET_MODULES)
        (code,) = zxingcpp.read_barcodes(gray_of(rgb), try_rotate=False)
        corners = [code.position.top_left, code.position.bottom_right]
        found_mm = [(p.x * 25.4 / dpi, p.y * 25.4 / dpi) for p in corners]
        want_mm = [(region.x_mm + QR_QUIET_MODULES * module_mm,
                    region.y_mm + QR_QUIET_MODULES * module_mm),
                   (region.x_mm + region.w_mm - QR_QUIET_MODULES * module_mm,
                    region.y_mm + region.h_mm - QR_QUIET_MODULES * module_mm)]
        assert np.abs(np.subtract(found_mm, want_mm)).max() < module_mm, (page, found_mm)


@pytest.mark.slow
def test_cyrillic_identities_read_back_from_printed_pages_at_200_and_300_dpi() -> None:
    layout = build_layout(3)
    base = identity_for(3)
    requests = [SheetRequest(layout, replace(base, sheet_id=f"R1-T{i:02d}-X{i}",
                                             names=(f"Игрок {i}", "Петренко", f"Щёголев{i}")),
                             "ru")
                for i in range(4)]
    pdf = render_pdf_bytes(requests)
    for dpi in (200, 300):
        for index, gray in enumerate(render_pages(pdf, dpi, grey=True)):
            page = index % len(layout.pages)
            identity = requests[index // len(layout.pages)].identity.for_page(page)
            assert from_qr_payload(read_qr(gray) or "") == identity, (dpi, index)
