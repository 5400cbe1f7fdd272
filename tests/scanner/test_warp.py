"""Warping a registered page: the affine shortcut for flat scans, and warps from halvings; the
pixel helpers they share."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.image.load import PageImage
from scanner.image.pixels import close_ellipse, content_channel, halvings
from scanner.image.register import register
from tests.scanner.synth import page_bgr, photo

SRC = Path("p.png")


def test_a_flat_scan_warps_as_an_affine_map_with_the_same_pixels() -> None:
    reg = register(PageImage(SRC, 0, page_bgr(3, 1)))
    assert reg.affine is not None
    fast = reg.warp(20.0, 30.0, 120.0, 80.0, 10.0)
    slow = replace(reg, affine=None).warp(20.0, 30.0, 120.0, 80.0, 10.0)
    diff = np.abs(fast.astype(int) - slow.astype(int))
    assert fast.shape == slow.shape and diff.mean() < 0.05 and diff.max() <= 8


def test_a_photo_keeps_its_perspective() -> None:
    reg = register(PageImage(SRC, 0, photo(page_bgr(3, 1), 1, seed=2)))
    assert reg.affine is None


def test_halvings_stop_at_the_detection_size() -> None:
    image = np.zeros((2480, 3508, 3), np.uint8)
    sizes = [h.shape[:2] for h in halvings(image, 1000)]
    assert sizes == [(1240, 1754), (620, 877)]


@pytest.mark.parametrize("side", [1, 3, 5, 7, 9, 11, 13, 15, 21])
def test_the_ellipse_closing_is_opencvs_bit_for_bit(side: int) -> None:
    rng = np.random.default_rng(side)
    for shape in ((1, 1), (1, 30), (30, 1), (6, 9), (120, 47)):
        image = rng.integers(0, 256, shape).astype(np.uint8)
        image[rng.random(shape) < 0.6] = 255  # paper, and strokes narrower than the ellipse
        ellipse = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))
        assert np.array_equal(close_ellipse(image, side),
                              cv2.morphologyEx(image, cv2.MORPH_CLOSE, ellipse))


def test_the_coarse_warp_is_the_full_warp_smoothed() -> None:
    reg = register(PageImage(SRC, 0, photo(page_bgr(3, 1), 0, seed=3)))
    ppm = 100 / 25.4
    image, scale = reg.coarse(0.9 * ppm)
    assert scale == 0.5 and image is reg.halvings[0]  # 300 dpi: halved once gives 150 dpi
    coarse = reg.warp_coarse(0.0, 0.0, reg.page_w_mm, reg.page_h_mm, ppm, 0.9 * ppm)
    full = reg.warp(0.0, 0.0, reg.page_w_mm, reg.page_h_mm, ppm)
    assert coarse.shape == full.shape
    # the same page in the same place: blurred alike, they differ by a few grey levels
    a, b = (cv2.GaussianBlur(x, (0, 0), 1.5).astype(int) for x in (coarse, full))
    assert np.abs(a - b).mean() < 3


def test_the_coarse_red_warp_is_the_colour_warps_red_channel() -> None:
    for reg in (register(PageImage(SRC, 0, photo(page_bgr(3, 1), 0, seed=4))),
                register(PageImage(SRC, 0, page_bgr(3, 1)))):
        args = (12.0, 20.0, 150.0, 90.0, 2.0, 1.8)
        red = reg.warp_coarse(*args, channel=content_channel)
        assert red.ndim == 2
        assert np.array_equal(red, cv2.extractChannel(reg.warp_coarse(*args), 2))


def test_small_blocks_of_a_photo_warp_as_affine_maps_with_nearly_the_same_pixels(
        monkeypatch: pytest.MonkeyPatch) -> None:
    reg = register(PageImage(SRC, 0, photo(page_bgr(3, 1), 0, seed=5)))
    assert reg.affine is None
    rects = [(30.0, 40.0, 9.0, 7.0), (100.0, 150.0, 40.0, 12.0), (0.0, 0.0, 190.0, 270.0)]
    perspective = []
    real = cv2.warpPerspective
    monkeypatch.setattr(cv2, "warpPerspective",
                        lambda *a, **kw: perspective.append(a[2]) or real(*a, **kw))
    many = reg.warp_many(rects, 8.0)
    # a block of a few millimetres is all but flat; the whole page is bent
    assert (72, 56) not in perspective and (1520, 2160) in perspective
    monkeypatch.undo()
    for rect, block in zip(rects, many, strict=True):
        one = reg.warp(*rect, 8.0)
        diff = np.abs(block.astype(int) - one.astype(int))
        assert block.shape == one.shape and diff.mean() < 0.5
    # the whole page is bent by the perspective: warped as one, the same pixels
    assert np.array_equal(many[2], reg.warp(*rects[2], 8.0))
    flat = register(PageImage(SRC, 0, page_bgr(3, 1)))
    assert all(np.array_equal(a, flat.warp(*r, 8.0))
               for a, r in zip(flat.warp_many(rects, 8.0), rects, strict=True))
