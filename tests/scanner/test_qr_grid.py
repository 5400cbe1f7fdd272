"""The QR code read in its known region: by zxing-cpp, and module by module on its grid."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from forms.identity import to_qr_payload
from forms.model import Region
from scanner import constants as k
from scanner.image import qr_region
from scanner.image.identify import Identifier, _regions
from scanner.image.load import PageImage
from scanner.image.pixels import content_channel
from scanner.image.qr_region import read_qr, read_qr_grid, warp_red
from scanner.image.register import RegisteredPage, register
from tests.scanner.synth import coarse_photo, identity_for, page_bgr, photo


def _regions_of(reg: RegisteredPage) -> list[Region]:
    return list(_regions(reg.page_index, reg.page_w_mm, reg.page_h_mm, "qr"))


@pytest.mark.parametrize("players, page, turns", [(3, 0, 0), (4, 0, 1), (3, 1, 2), (4, 2, 3)])
def test_zxing_and_the_grid_read_the_region_the_code_is_in(players: int, page: int,
                                                             turns: int) -> None:
    image = photo(page_bgr(players, page), turns, seed=players + page)
    reg = register(PageImage(Path("p.jpg"), 0, image))
    want = to_qr_payload(identity_for(players).for_page(page))
    read = []
    for region in _regions_of(reg):
        gray = warp_red(reg, region, k.QR_GRID_PX_PER_MM)
        read.append((read_qr(gray), read_qr_grid(gray, region)))
    assert (want, want) in read and all(pair in ((None, None), (want, want)) for pair in read)


def test_grid_reads_a_blurred_photo() -> None:
    image = cv2.GaussianBlur(photo(page_bgr(3, 1), 0, seed=5), (0, 0), 1.6)
    reg = register(PageImage(Path("p.jpg"), 0, image))
    read = [read_qr_grid(warp_red(reg, r, k.QR_GRID_PX_PER_MM), r) for r in _regions_of(reg)]
    assert to_qr_payload(identity_for(3).for_page(1)) in read


def test_a_coarse_phone_photo_reads_on_the_grid() -> None:
    # a 120 dpi photo whose 0.37 mm modules are under two pixels: the grid knows where each
    # module lies, so it reads where a detector has to find the code first
    reg = register(PageImage(Path("photo.jpg"), 0, coarse_photo(3, 0, seed=0)))
    want = to_qr_payload(identity_for(3).for_page(0))
    read = [read_qr_grid(warp_red(reg, r, k.QR_GRID_PX_PER_MM), r) for r in _regions_of(reg)]
    assert want in read
    assert Identifier().decode_qr(reg) == want


@pytest.mark.parametrize("turns", [None, 1])
def test_red_warp_of_the_covered_pixels_is_the_colour_warps_red_channel(turns: int | None
                                                                        ) -> None:
    # a flat scan (an affine warp) and a photo (a perspective one); regions inside the page,
    # at its corner and partly off the image (the border replicated the same way)
    image = page_bgr(3, 1) if turns is None else photo(page_bgr(3, 1), turns, seed=2)
    reg = register(PageImage(Path("p.jpg"), 0, image))
    assert (reg.affine is not None) == (turns is None)
    regions = [*_regions_of(reg), Region(1, 0.0, 0.0, 30.0, 20.0),
               Region(1, -15.0, -10.0, 30.0, 20.0),
               Region(1, reg.page_w_mm - 5.0, reg.page_h_mm - 5.0, 30.0, 20.0)]
    for region in regions:
        want = content_channel(reg.warp(region.x_mm, region.y_mm, region.w_mm, region.h_mm,
                                        10.0))
        assert np.array_equal(warp_red(reg, region, 10.0), want), region


def test_a_region_whose_ink_is_not_square_is_given_up(monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    # page 1 of a 3-player sheet: its code is in the lower of the page's two candidate
    # regions; the upper one holds the code's top part and print above it
    reg = register(PageImage(Path("p.jpg"), 0, page_bgr(3, 0)))
    lower, upper = sorted(_regions_of(reg), key=lambda region: -region.y_mm)
    scale = k.QR_GRID_PX_PER_MM
    assert read_qr_grid(warp_red(reg, lower, scale), lower) == to_qr_payload(
        identity_for(3).for_page(0))

    def no_modules(values: np.ndarray) -> np.ndarray:
        raise AssertionError("modules read in a region holding no whole code")

    monkeypatch.setattr(qr_region, "_dark_modules", no_modules)
    assert read_qr_grid(warp_red(reg, upper, scale), upper) is None
