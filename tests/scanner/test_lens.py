"""A phone's barrel distortion: measured on the markers, taken out before boxes are read."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from forms.layout import build_layout
from forms.render.raster import render_pages
from samplegen.capture import capture
from scanner import constants as k
from scanner.image.lens import undistort_image, undistort_points
from scanner.image.load import PageImage
from scanner.image.register import register
from tests.scanner.synth import sheet_pdf

DPI = 200


def _seen(page_to_image: np.ndarray, barrel: float, shape: tuple[int, ...],
          points_mm: np.ndarray) -> np.ndarray:
    """Where the camera put page points (mm) in the distorted photo: the capture's
    homography, then its lens (samplegen.capture._lens) inverted by fixed-point rounds."""
    page_px = points_mm.reshape(-1, 1, 2) * DPI / 25.4
    flat = cv2.perspectiveTransform(page_px, page_to_image).reshape(-1, 2)
    h, w = shape[:2]
    centre, r2max = np.array([w / 2, h / 2]), (w / 2) ** 2 + (h / 2) ** 2
    seen = flat.copy()
    for _ in range(30):
        seen = centre + (flat - centre) / (1 + barrel * np.sum((seen - centre) ** 2, axis=1,
                                                                  keepdims=True) / r2max)
    return seen


@pytest.mark.parametrize("seed", [1, 2])
def test_a_tilted_photos_boxes_land_where_the_camera_put_them(seed: int) -> None:
    rgb = next(render_pages(sheet_pdf(3), DPI, pages=[1]))
    shot = capture("phone-tilted", rgb, DPI, random.Random(seed))
    barrel = next(step for step in shot.steps if step["name"] == "lens")["barrel"]
    assert barrel > 0.035  # a strong lens: the page's middle a millimetre off four markers
    image = cv2.cvtColor(shot.image, cv2.COLOR_RGB2BGR)
    reg = register(PageImage(Path("photo.jpg"), 0, image))
    boxes = build_layout(3).boxes_for(1)
    centres = np.array([(b.x_mm + b.w_mm / 2, b.y_mm + b.h_mm / 2) for b in boxes])
    truth = undistort_points(_seen(shot.page_to_image, barrel, image.shape, centres),
                             reg.barrel, image.shape)
    error_mm = np.linalg.norm(reg.to_image(centres) - truth, axis=1) / reg.px_per_mm
    assert reg.barrel == pytest.approx(barrel, abs=0.004)
    assert error_mm.max() < 0.25


def test_a_scan_is_left_as_it_is() -> None:
    rgb = next(render_pages(sheet_pdf(3), DPI, pages=[0]))
    shot = capture("flatbed-grey", rgb, DPI, random.Random(1), sheet_seed=1)
    reg = register(PageImage(Path("scan.png"), 0, shot.image))
    assert reg.barrel == 0.0 and reg.image is shot.image


def test_the_undistorted_image_puts_each_pixel_where_the_points_go() -> None:
    rng = np.random.default_rng(0)
    image = np.zeros((600, 800), np.uint8)
    seen = np.array([[60.0, 50.0], [700.0, 540.0], [400.0, 300.0], [730.0, 80.0]])
    for x, y in seen:
        cv2.circle(image, (round(x), round(y)), 6, 255, -1)
    image = (image.astype(np.float64) + rng.normal(0, 1, image.shape)).clip(0, 255)
    straight = undistort_image(image.astype(np.uint8), 0.08)
    for x, y in undistort_points(seen, 0.08, image.shape):
        x0, y0 = max(round(x) - 12, 0), max(round(y) - 12, 0)
        ys, xs = np.nonzero(straight[y0:round(y) + 13, x0:round(x) + 13] > 128)
        assert math.hypot(xs.mean() + x0 - x, ys.mean() + y0 - y) < 0.6


@pytest.mark.parametrize("interpolation", [cv2.INTER_LINEAR, cv2.INTER_CUBIC])
@pytest.mark.parametrize("outline", [
    [[60.0, 15.0], [610.0, 40.0], [580.0, 470.0], [30.0, 430.0]],  # a tilted page in the frame
    [[-80.0, -30.0], [700.0, 10.0], [650.0, 530.0], [-20.0, 500.0]],  # over the frame's edges
])
def test_a_page_is_undistorted_to_the_same_pixels_as_the_whole_frame(
        interpolation: int, outline: list[list[float]]) -> None:
    image = np.random.default_rng(1).integers(0, 256, (481, 643, 3), np.uint8)
    whole = undistort_image(image, 0.06, interpolation)
    part = undistort_image(image, 0.06, interpolation, np.array(outline))
    inside = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(inside, [np.round(np.array(outline)).astype(np.int32)], 1)
    assert np.array_equal(part[inside == 1], whole[inside == 1])
    same = (part == whole).all(axis=2)
    seen = (part == image).all(axis=2)
    assert (same | seen).all() and seen[0, 0] != (outline[0][0] < 0)


def test_a_photo_registered_reads_the_same_page_as_the_whole_frame_undistorted() -> None:
    rgb = next(render_pages(sheet_pdf(3), DPI, pages=[1]))
    shot = capture("phone-tilted", rgb, DPI, random.Random(1))
    image = cv2.cvtColor(shot.image, cv2.COLOR_RGB2BGR)
    reg = register(PageImage(Path("photo.jpg"), 0, image))
    assert reg.barrel > 0.0
    coarse = reg.px_per_mm < k.WORK_PX_PER_MM  # resampled bicubic, as register does
    whole = undistort_image(image, reg.barrel, cv2.INTER_CUBIC if coarse else cv2.INTER_LINEAR)
    page = (0.0, 0.0, reg.page_w_mm, reg.page_h_mm, k.WORK_PX_PER_MM)
    assert np.array_equal(reg.warp(*page), replace(reg, image=whole).warp(*page))
