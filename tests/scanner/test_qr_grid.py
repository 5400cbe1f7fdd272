"""The QR code read module by module on its known grid, and decoded from its modules."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest
from reportlab.graphics.barcode import qrencoder

from forms.identity import to_qr_payload
from forms.qr import _data_positions, qr_modules, text_of_modules
from scanner.identify import _regions, detect_qr, read_qr_grid
from scanner.load import PageImage
from scanner.register import register
from tests.scanner.synth import identity_for, page_bgr, photo


def _flip_codewords(dark: np.ndarray, count: int, rng: random.Random) -> np.ndarray:
    """``dark`` with one module flipped in each of ``count`` distinct codewords."""
    n = dark.shape[0]
    version = (n - 17) // 4
    rows, cols = _data_positions(version)
    blocks = qrencoder.QRRSBlock.getRSBlocks(version, qrencoder.QRErrorCorrectLevel.M)
    total = sum(b.totalCount for b in blocks)
    out = dark.copy()
    for codeword in rng.sample(range(total), count):
        bit = 8 * codeword + rng.randrange(8)
        out[rows[bit], cols[bit]] ^= True
    return out


def test_modules_decode_with_errors_up_to_capacity() -> None:
    rng = random.Random(0)
    for trial in range(120):
        text = "".join(rng.choice('abcЖЩ{}"[],0123456789') for _ in range(rng.randint(1, 250)))
        dark = np.array(qr_modules(text), dtype=bool)
        version = (dark.shape[0] - 17) // 4
        blocks = qrencoder.QRRSBlock.getRSBlocks(version, qrencoder.QRErrorCorrectLevel.M)
        # at most this many errors in all, so at most that many in any one block
        capacity = min((b.totalCount - b.dataCount) // 2 for b in blocks)
        assert text_of_modules(_flip_codewords(dark, trial % (capacity + 1), rng)) == text


def test_the_sheet_identity_decodes() -> None:
    payload = to_qr_payload(identity_for(4))
    assert text_of_modules(np.array(qr_modules(payload), dtype=bool)) == payload


def test_not_a_code() -> None:
    rng = np.random.default_rng(0)
    assert text_of_modules(rng.random((45, 45)) < 0.5) is None
    assert text_of_modules(np.zeros((44, 44), dtype=bool)) is None


@pytest.mark.parametrize("players, page, turns", [(3, 0, 0), (4, 0, 1), (3, 1, 2), (4, 2, 3)])
def test_grid_reads_what_the_detectors_read(players: int, page: int, turns: int) -> None:
    image = photo(page_bgr(players, page), turns, seed=players + page)
    reg = register(PageImage(Path("p.jpg"), 0, image))
    regions = list(_regions(reg.page_index, reg.page_w_mm, reg.page_h_mm, "qr"))
    read = [read_qr_grid(reg, region) for region in regions]
    want = to_qr_payload(identity_for(players).for_page(page))
    assert want in read and all(text in (None, want) for text in read)
    assert detect_qr(reg, regions) == want


def test_grid_reads_a_blurred_photo() -> None:
    image = cv2.GaussianBlur(photo(page_bgr(3, 1), 0, seed=5), (0, 0), 1.6)
    reg = register(PageImage(Path("p.jpg"), 0, image))
    regions = _regions(reg.page_index, reg.page_w_mm, reg.page_h_mm, "qr")
    assert to_qr_payload(identity_for(3).for_page(1)) in [read_qr_grid(reg, r) for r in regions]
