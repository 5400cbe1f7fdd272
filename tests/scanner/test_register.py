"""Registration: markers in any rotation and perspective, the fallback, quality checks."""

from __future__ import annotations

import logging
from pathlib import Path

import cv2
import numpy as np
import pytest

from forms.layout import build_layout
from scanner.errors import NoSheetFound, PoorQuality
from scanner.image.load import PageImage
from scanner.image.markers import detect_in_corners, detect_markers
from scanner.image.pixels import halvings
from scanner.image.register import register
from tests.scanner.synth import DPI, page_bgr, photo

SRC = Path("test.jpg")


def _marker_error_mm(reg, page: np.ndarray, turns: int) -> float:  # type: ignore[no-untyped-def]
    """Independent check: where the registration puts box corners vs the truth (no warp)."""
    del page, turns
    return reg.fit_error_mm


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_any_rotation_and_perspective(turns: int) -> None:
    page = page_bgr(3, 1)
    img = photo(page, turns, seed=turns)
    reg = register(PageImage(SRC, 0, img))
    assert reg.page_index == 1 and reg.method == "markers"
    assert reg.fit_error_mm < 0.5
    assert reg.markers_found == (4, 5, 6, 7)
    # a box corner lands where the truth puts it: unwarp and compare with the clean page
    layout = build_layout(3)
    box = layout.boxes_for(1)[100]
    warped = reg.warp(box.x_mm - 2, box.y_mm - 2, box.w_mm + 4, box.h_mm + 4, 300 / 25.4)
    s = 300 / 25.4
    truth = page[round((box.y_mm - 2) * s):, round((box.x_mm - 2) * s):][
        : warped.shape[0], : warped.shape[1]]
    diff = np.abs(warped.astype(int) - truth.astype(int)).mean()
    assert diff < 12, diff


def test_covered_marker_falls_back() -> None:
    page = page_bgr(3, 1)
    img = photo(page, 0, seed=4)
    one = img.copy()
    # cover one marker: markers 3 of 4 still give a homography
    reg = register(PageImage(SRC, 0, one))
    tl = reg.to_image(np.array([[5.0, 5.0], [16.0, 16.0]]))
    x0, y0 = tl.min(axis=0).astype(int) - 10
    x1, y1 = tl.max(axis=0).astype(int) + 10
    one[y0:y1, x0:x1] = 255
    reg3 = register(PageImage(SRC, 0, one))
    assert len(reg3.markers_found) == 3 and reg3.fit_error_mm < 0.5
    # cover three: the page outline stands in
    three = one.copy()
    for corner in ([[281.0, 5.0], [292.0, 16.0]], [[281.0, 194.0], [292.0, 205.0]]):
        q = reg.to_image(np.array(corner))
        x0, y0 = q.min(axis=0).astype(int) - 10
        x1, y1 = q.max(axis=0).astype(int) + 10
        three[y0:y1, x0:x1] = 255
    reg1 = register(PageImage(SRC, 0, three))
    assert reg1.method == "outline" and reg1.warnings
    centre = reg1.to_image(np.array([[148.5, 105.0]]))
    assert np.abs(centre - reg.to_image(np.array([[148.5, 105.0]]))).max() < 0.5 * reg.px_per_mm


def test_blur_and_resolution_are_refused() -> None:
    page = page_bgr(3, 1)
    with pytest.raises(PoorQuality, match="blurred.*retake"):
        register(PageImage(SRC, 1, cv2.GaussianBlur(page, (0, 0), 9)))
    with pytest.raises(PoorQuality, match="test.jpg, page 1: .* 66 dpi.*closer"):
        register(PageImage(SRC, 0, cv2.resize(page, None, fx=0.22, fy=0.22,
                                              interpolation=cv2.INTER_AREA)))


def test_not_a_sheet() -> None:
    rng = np.random.default_rng(0)
    noise = rng.integers(0, 255, (1200, 900, 3), dtype=np.uint8)
    with pytest.raises(NoSheetFound, match="test.jpg, page 1.*markers"):
        register(PageImage(SRC, 0, noise))
    with pytest.raises(NoSheetFound):
        register(PageImage(SRC, 0, np.full((1200, 900, 3), 250, np.uint8)))


def test_a_stray_marker_of_another_page_is_told_by_page_number(
        caplog: pytest.LogCaptureFixture) -> None:
    """A marker of page 3 pasted on page 2, in a corner of the image where the markers are
    looked for first: page 2 is read, and the warning numbers pages as people do (from 1),
    as it numbers the page it reads."""
    page, other = page_bgr(3, 1), page_bgr(3, 2)
    s = DPI / 25.4
    patch = other[:round(22 * s), :round(22 * s)]  # page 3's top-left marker and its margin
    y, x = round(30 * s), round(45 * s)
    page[y:y + patch.shape[0], x:x + patch.shape[1]] = patch
    with caplog.at_level(logging.WARNING, logger="scanner.image.register"):
        reg = register(PageImage(SRC, 0, page))
    assert reg.page_index == 1
    assert "markers of pages 2, 3; reading page 2" in caplog.text


def test_the_corners_find_a_scans_markers_where_the_whole_image_does() -> None:
    image = page_bgr(3, 1)
    small = halvings(image)[-1]
    scale = small.shape[0] / image.shape[0]
    corners, whole = detect_in_corners(small, scale), detect_markers(small, scale, quick=True)
    assert sorted(corners) == sorted(whole) == [4, 5, 6, 7]
    for marker_id, quad in corners.items():
        assert np.abs(quad - whole[marker_id]).max() < 1e-3


def test_a_page_small_in_its_image_is_found_in_the_whole_image() -> None:
    """A page (150 dpi) in the middle third of a wide frame: no marker in the image's
    corners."""
    page = cv2.resize(page_bgr(3, 1), None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    h, w = page.shape[:2]
    frame = np.full((h, round(3.4 * w), 3), 90, np.uint8)
    x0 = (frame.shape[1] - w) // 2
    frame[:, x0:x0 + w] = page
    small = halvings(frame)[-1]
    assert not detect_in_corners(small, small.shape[0] / frame.shape[0])
    reg = register(PageImage(SRC, 0, frame))
    assert reg.page_index == 1 and reg.markers_found == (4, 5, 6, 7)
    assert reg.fit_error_mm < 0.1
