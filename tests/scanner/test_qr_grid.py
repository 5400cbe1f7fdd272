"""The QR code read module by module on its known grid, and decoded from its modules."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest
from reportlab.graphics.barcode import qrencoder

from forms.identity import to_qr_payload
from forms.model import Region
from forms.qr import _data_positions, qr_modules, text_of_modules
from scanner.image import identify
from scanner.image.identify import _regions, _warp_red, detect_qr, read_qr_grid
from scanner.image.load import PageImage
from scanner.image.pixels import content_channel
from scanner.image.register import register
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


@pytest.mark.parametrize("turns", [None, 1])
def test_red_warp_of_the_covered_pixels_is_the_colour_warps_red_channel(turns: int | None
                                                                        ) -> None:
    # a flat scan (an affine warp) and a photo (a perspective one); regions inside the page,
    # at its corner and partly off the image (the border replicated the same way)
    image = page_bgr(3, 1) if turns is None else photo(page_bgr(3, 1), turns, seed=2)
    reg = register(PageImage(Path("p.jpg"), 0, image))
    assert (reg.affine is not None) == (turns is None)
    regions = [*_regions(reg.page_index, reg.page_w_mm, reg.page_h_mm, "qr"),
               Region(1, 0.0, 0.0, 30.0, 20.0), Region(1, -15.0, -10.0, 30.0, 20.0),
               Region(1, reg.page_w_mm - 5.0, reg.page_h_mm - 5.0, 30.0, 20.0)]
    for region in regions:
        want = content_channel(reg.warp(region.x_mm, region.y_mm, region.w_mm, region.h_mm,
                                        10.0))
        assert np.array_equal(_warp_red(reg, region, 10.0), want), region


def test_a_region_whose_ink_is_not_square_is_given_up(monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    # page 1 of a 3-player sheet: its code is in the lower of the page's two candidate
    # regions; the upper one holds the code's top part and print above it
    reg = register(PageImage(Path("p.jpg"), 0, page_bgr(3, 0)))
    lower, upper = sorted(_regions(reg.page_index, reg.page_w_mm, reg.page_h_mm, "qr"),
                          key=lambda region: -region.y_mm)
    assert read_qr_grid(reg, lower) == to_qr_payload(identity_for(3).for_page(0))

    def no_modules(values: np.ndarray) -> np.ndarray:
        raise AssertionError("modules read in a region holding no whole code")

    monkeypatch.setattr(identify, "_dark_modules", no_modules)
    assert read_qr_grid(reg, upper) is None
