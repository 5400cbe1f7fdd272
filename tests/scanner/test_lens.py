"""A phone's barrel distortion: measured on the markers, composed into each warp of the page."""

from __future__ import annotations

import math
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from forms.layout import build_layout
from forms.render.raster import render_pages
from samplegen.capture import capture
from scanner.image.lens import (
    Lens,
    estimate_barrel,
    grid_nodes,
    remap_on_grid,
    undistort_points,
)
from scanner.image.load import PageImage
from scanner.image.pixels import halvings
from scanner.image.register import RegisteredPage, register
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
    truth = _seen(shot.page_to_image, barrel, image.shape, centres)
    error_mm = np.linalg.norm(reg.to_image(centres) - truth, axis=1) / reg.px_per_mm
    assert reg.barrel == pytest.approx(barrel, abs=0.004)
    assert error_mm.max() < 0.25
    assert np.abs(reg.to_mm(reg.to_image(centres)) - centres).max() < 1e-4


def test_a_scan_is_left_as_it_is() -> None:
    rgb = next(render_pages(sheet_pdf(3), DPI, pages=[0]))
    shot = capture("flatbed-grey", rgb, DPI, random.Random(1), sheet_seed=1)
    reg = register(PageImage(Path("scan.png"), 0, shot.image))
    assert reg.barrel == 0.0 and reg.lens is None and reg.image is shot.image


def test_a_photo_is_kept_as_taken_and_its_lens_warped_with_the_page() -> None:
    rgb = next(render_pages(sheet_pdf(3), DPI, pages=[1]))
    shot = capture("phone-tilted", rgb, DPI, random.Random(1))
    image = cv2.cvtColor(shot.image, cv2.COLOR_RGB2BGR)
    reg = register(PageImage(Path("photo.jpg"), 0, image))
    assert reg.lens is not None and reg.affine is None
    assert reg.image is image  # not resampled before the page is warped


def test_a_map_solved_on_the_grid_puts_each_pixel_where_the_points_go() -> None:
    rng = np.random.default_rng(0)
    image = np.zeros((600, 800), np.uint8)
    seen = np.array([[60.0, 50.0], [700.0, 540.0], [400.0, 300.0], [730.0, 80.0]])
    for x, y in seen:
        cv2.circle(image, (round(x), round(y)), 6, 255, -1)
    image = (image.astype(np.float64) + rng.normal(0, 1, image.shape)).clip(0, 255)
    lens = Lens(0.08, (600, 800))
    gx, gy = grid_nodes(800, 600)
    nodes = np.stack(np.meshgrid(gx, gy), axis=-1).reshape(-1, 2)
    seen_at = lens.seen(nodes).reshape(len(gy), len(gx), 2)
    straight = remap_on_grid(image.astype(np.uint8), seen_at, (800, 600), cv2.INTER_LINEAR)
    for x, y in undistort_points(seen, 0.08, image.shape):
        x0, y0 = max(round(x) - 12, 0), max(round(y) - 12, 0)
        ys, xs = np.nonzero(straight[y0:round(y) + 13, x0:round(x) + 13] > 128)
        assert math.hypot(xs.mean() + x0 - x, ys.mean() + y0 - y) < 0.6


def _dotted_page() -> tuple[RegisteredPage, np.ndarray]:
    """A 200 x 150 mm page seen at 4 px/mm through a strong lens (0.08) with a dot at every
    20 mm, its image drawn where the lens puts them, and the dots' page millimetres."""
    spots = np.stack(np.meshgrid(np.arange(20.0, 200.0, 20.0), np.arange(20.0, 150.0, 20.0)),
                     axis=-1).reshape(-1, 2)
    homography = np.array([[4.0, 0.0, 50.0], [0.0, 4.0, 40.0], [0.0, 0.0, 1.0]])
    lens = Lens(0.08, (700, 900))
    image = np.zeros((700, 900), np.uint8)
    for x, y in lens.seen(spots * 4.0 + (50.0, 40.0)):
        cv2.circle(image, (round(x * 16), round(y * 16)), 5 * 16, 255, -1, cv2.LINE_AA, 4)
    page = RegisteredPage(Path("dots.png"), 0, 0, 200.0, 150.0, homography, 4.0, 0.0, 0.0,
                          (), "markers", 1.0, (), image, halvings=tuple(halvings(image)),
                          lens=lens)
    return page, spots


def _centre_px(image: np.ndarray, near: tuple[float, float], reach: int) -> np.ndarray:
    """The centroid (px) of the bright pixels within ``reach`` of ``near``."""
    x0, y0 = round(near[0]) - reach, round(near[1]) - reach
    patch = image[y0:y0 + 2 * reach + 1, x0:x0 + 2 * reach + 1].astype(np.float64)
    ys, xs = np.mgrid[:patch.shape[0], :patch.shape[1]]
    return np.array([(xs * patch).sum() + x0 * patch.sum(),
                     (ys * patch).sum() + y0 * patch.sum()]) / patch.sum()


@pytest.mark.parametrize("px_per_mm", [8.0, 2.0])
def test_each_warp_through_the_lens_puts_a_page_point_where_the_page_says(
        px_per_mm: float) -> None:
    page, spots = _dotted_page()
    whole = page.warp(0.0, 0.0, 200.0, 150.0, px_per_mm)
    coarse = page.warp_coarse(0.0, 0.0, 200.0, 150.0, px_per_mm, px_per_mm)
    blocks = page.warp_many([(x - 4.0, y - 4.0, 8.0, 8.0) for x, y in spots], px_per_mm)
    reach = round(4 * px_per_mm) - 1
    off = 0.06 * px_per_mm  # 0.06 mm: the drawn dots' own bend through the lens, and less
    for (x, y), block in zip(spots, blocks, strict=True):
        want = np.array([x, y]) * px_per_mm - 0.5
        assert np.linalg.norm(_centre_px(whole, tuple(want), reach) - want) < off
        assert np.linalg.norm(_centre_px(coarse, tuple(want), reach) - want) < off
        middle = np.array([4.0, 4.0]) * px_per_mm - 0.5
        assert np.linalg.norm(_centre_px(block, tuple(middle), reach) - middle) < off


def test_the_lens_search_finds_a_smooth_errors_least_in_two_dozen_fits() -> None:
    # a 2 x 2 px frame: centre (0.5, 0.5), squared half-diagonal 0.5; a point 1 px right of
    # the centre is undistorted by b to x = 1.5 + 2 b
    tried: list[float] = []

    def fit(points: np.ndarray) -> float:  # least at b = 0.0371
        tried.append((float(points[0, 0]) - 1.5) / 2)
        return (tried[-1] - 0.0371) ** 2

    barrel, _ = estimate_barrel(fit, np.array([[1.5, 0.5]]), (2, 2))
    assert barrel == pytest.approx(0.0371, abs=0.00025)
    assert len(tried) <= 23
