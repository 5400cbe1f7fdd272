"""QR modules: the mask choice and decoding of rendered sheets."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import identity_for

from forms.identity import from_qr_payload, to_qr_payload
from forms.layout import build_layout
from forms.qr import _penalty, qr_crop, qr_modules, read_qr
from forms.render.raster import render_pages
from forms.render.sheet import SheetRequest, render_pdf_bytes


def test_modules_are_square_and_deterministic() -> None:
    payload = to_qr_payload(identity_for(4))
    modules = qr_modules(payload)
    assert len(modules) == len(modules[0]) and len(modules) in range(45, 62)
    assert modules == qr_modules(payload)


def test_penalty_prefers_balanced_patterns() -> None:
    flat = np.zeros((21, 21), dtype=bool)
    rng = np.random.default_rng(0)
    assert _penalty(flat) > _penalty(rng.random((21, 21)) < 0.5)


@pytest.mark.slow
def test_many_sheets_decode_at_200_and_300_dpi() -> None:
    from dataclasses import replace
    layout = build_layout(3)
    base = identity_for(3)
    requests = [SheetRequest(layout, replace(base, sheet_id=f"R1-T{i:02d}-X{i}",
                                             names=(f"Игрок {i}", "Петренко", f"P{i}")), "ru")
                for i in range(4)]
    pdf = render_pdf_bytes(requests)
    for dpi in (200, 300):
        for index, gray in enumerate(render_pages(pdf, dpi, grey=True)):
            page = index % len(layout.pages)
            text = read_qr(qr_crop(gray, layout, page, dpi))
            identity = requests[index // len(layout.pages)].identity.for_page(page)
            assert from_qr_payload(text) == identity, (dpi, index)


def test_fast_reed_solomon_matches_reportlab() -> None:
    import random

    from reportlab.graphics.barcode import qrencoder as q

    from forms.qr import REPORTLAB_CREATE_BYTES

    rng = random.Random(0)
    for _ in range(60):
        text = "".join(rng.choice('abcЖЩ{}"[],0123456789') for _ in range(rng.randint(1, 300)))
        for level in (q.QRErrorCorrectLevel.M, q.QRErrorCorrectLevel.L, q.QRErrorCorrectLevel.H):
            code = q.QRCode(None, level)
            code.addData(text)
            version = code.calculate_version()
            fast = q.QRCode.createData(version, level, code.dataList)
            q.QRCode.createBytes = REPORTLAB_CREATE_BYTES
            try:
                slow = q.QRCode.createData(version, level, code.dataList)
            finally:
                from forms import qr
                q.QRCode.createBytes = staticmethod(qr._create_bytes)
            assert fast == slow


def test_stacked_penalties_match_single_ones() -> None:
    from forms.qr import _penalties

    rng = np.random.default_rng(3)
    stack = rng.random((8, 33, 33)) < rng.uniform(0.2, 0.8, size=(8, 1, 1))
    assert list(_penalties(stack)) == [_penalty(m) for m in stack]
