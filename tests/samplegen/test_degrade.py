"""Photo and scan degradations keep the page's four ArUco markers readable, where the
homography in the truth says they are."""

from __future__ import annotations

import random
from functools import lru_cache

import cv2
import numpy as np
import pytest

from forms.identity import SheetIdentity
from forms.layout import build_layout, mm_to_px
from samplegen import degrade
from samplegen.sheets import render_blank
from scoring import RuleSet

DPI = 100
CORNER_TOLERANCE_PX = 4.0


@lru_cache(maxsize=1)
def _blank_page() -> np.ndarray:
    layout = build_layout(3)
    rules = RuleSet.preset("sochi", 3, 20)
    identity = SheetIdentity("S-TEST01", "", None, None, 0, 0, layout.id, rules.id,
                             rules.settings(), layout.seats, ("", "", ""))
    return render_blank(layout, identity, DPI)[0]


def _markers(image: np.ndarray) -> dict[int, np.ndarray]:
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}


def _check_markers(result: degrade.Degraded, dpi: float) -> None:
    found = _markers(result.image)
    layout = build_layout(3)
    page_markers = [m for m in layout.markers if m.page == 0]
    assert set(found) == {m.aruco_id for m in page_markers}, result.steps
    for marker in page_markers:
        x, y, s = (mm_to_px(v, dpi) for v in (marker.x_mm, marker.y_mm, marker.size_mm))
        expected = np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]]) - 0.5
        pts = np.hstack([expected, np.ones((4, 1))]) @ result.page_to_image.T
        pts = pts[:, :2] / pts[:, 2:]
        error = np.linalg.norm(pts - found[marker.aruco_id], axis=1).max()
        assert error < CORNER_TOLERANCE_PX * result.image.shape[1] / 1000 + 2, result.steps


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_photo_keeps_markers_where_the_homography_says(seed: int) -> None:
    result = degrade.photo(_blank_page(), DPI, random.Random(seed))
    assert result.format == "jpg" and 60 <= (result.jpeg_quality or 0) <= 85
    assert result.image.shape[0] > _blank_page().shape[0] * 0.9
    names = [s["name"] for s in result.steps]
    assert names == ["perspective", "rotation", "table", "light", "blur", "noise", "jpeg"]
    _, jpeg = cv2.imencode(".jpg", result.image, [cv2.IMWRITE_JPEG_QUALITY,
                                                   result.jpeg_quality or 80])
    decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    _check_markers(degrade.Degraded(decoded, result.steps, result.page_to_image, "jpg", None),
                   DPI)


def test_photo_turns_any_way() -> None:
    angles = {round(degrade.photo(_blank_page()[::8, ::8], DPI / 8, random.Random(s))
                    .steps[1]["angle_deg"] / 90) % 4 for s in range(12)}
    assert angles == {0, 1, 2, 3}


@pytest.mark.parametrize("bw, low_res", [(False, False), (True, False), (False, True)])
def test_scan_keeps_markers(bw: bool, low_res: bool) -> None:
    dpi = 200 if low_res else DPI
    page = _blank_page() if not low_res else cv2.resize(
        _blank_page(), None, fx=dpi / DPI, fy=dpi / DPI, interpolation=cv2.INTER_CUBIC)
    settings = degrade.ScanSettings(bw, low_res, None if bw else 80, 150)
    result = degrade.scan(page, dpi, random.Random(9), settings)
    angle = result.steps[0]["angle_deg"]
    assert abs(angle) <= degrade.SCAN_ROTATION_DEG
    if bw:
        assert result.image.ndim == 2 and set(np.unique(result.image)) <= {0, 255}
        assert result.format == "png"
    if low_res:
        assert result.steps[-2]["name"] == "low_resolution" or \
            result.steps[-1]["name"] == "low_resolution"
        assert result.image.shape[1] < page.shape[1]
    _check_markers(result, dpi)


def test_degradations_are_deterministic() -> None:
    page = _blank_page()[::4, ::4]
    a = degrade.photo(page, DPI / 4, random.Random(3))
    b = degrade.photo(page, DPI / 4, random.Random(3))
    assert np.array_equal(a.image, b.image) and a.steps == b.steps
    c = degrade.scan(page, DPI / 4, random.Random(3))
    d = degrade.scan(page, DPI / 4, random.Random(3))
    assert np.array_equal(c.image, d.image) and c.steps == d.steps
