"""Stage 2, register: find the page's ArUco markers and map page millimetres to image pixels.

Markers (DICT_4X4_50, ``id = 4 * page + corner``, :class:`forms.model.Marker`) are found in a
copy reduced to :data:`DETECT_MAX_SIDE_PX`, their corners refined at full resolution, and all
found corners (16 with four markers) fit one homography. The ids tell the page index and the
rotation, so pages may come in any order and any way up. With fewer than three markers the
paper's outline stands in, oriented by the marker(s) still visible. The fit error, the
resolution, blur (marker edge sharpness) and glare are measured; a page too poor to read
raises :class:`scanner.errors.PoorQuality` with a plain sentence.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from forms.layout import PAPERS, build_layout
from forms.model import Marker
from scanner import scan_constants as k
from scanner.errors import NoSheetFound, PoorQuality
from scanner.load import PageImage

log = logging.getLogger(__name__)

Frame = tuple[float, float, tuple[Marker, ...]]
"""A candidate page: width and height in mm and its four markers."""


@dataclass(frozen=True)
class RegisteredPage:
    """A page image with its mapping from page millimetres to image pixels."""

    source: Path
    index_in_file: int
    page_index: int
    """The sheet's page, from the marker ids (0 = the triangle)."""
    page_w_mm: float
    page_h_mm: float
    homography: np.ndarray = field(compare=False, repr=False)
    """3x3, page mm (x right, y down) to image px."""
    px_per_mm: float
    fit_error_px: float
    fit_error_mm: float
    markers_found: tuple[int, ...]
    method: str
    """``markers`` or ``outline``."""
    sharpness: float
    warnings: tuple[str, ...]
    image: np.ndarray = field(compare=False, repr=False)
    timings_s: dict[str, float] = field(compare=False, default_factory=dict)

    @property
    def label(self) -> str:
        """``file, page N`` for messages."""
        return f"{self.source}, page {self.index_in_file + 1}"

    def warp(self, x_mm: float, y_mm: float, w_mm: float, h_mm: float,
             px_per_mm: float, image: np.ndarray | None = None) -> np.ndarray:
        """Return the page rectangle upright at ``px_per_mm`` (of ``image``, by default the page).

        Pixel ``(i, j)`` of the result is centred at ``(x_mm + (j + 0.5) / px_per_mm, ...)``.
        """
        src = self.image if image is None else image
        s = 1.0 / px_per_mm
        to_mm = np.array([[s, 0, x_mm + s / 2], [0, s, y_mm + s / 2], [0, 0, 1]])
        m = self.homography @ to_mm
        size = (max(1, round(w_mm * px_per_mm)), max(1, round(h_mm * px_per_mm)))
        return cv2.warpPerspective(src, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)

    def to_image(self, points_mm: np.ndarray) -> np.ndarray:
        """Map (n, 2) page millimetres to image pixels."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)


@lru_cache(maxsize=16)
def page_frames(page_index: int) -> tuple[Frame, ...]:
    """Every page size (and its markers) a known layout has at ``page_index``."""
    frames: dict[tuple[float, float], tuple[Marker, ...]] = {}
    for players in (3, 4):
        for paper in PAPERS:
            layout = build_layout(players, paper)
            if page_index < len(layout.pages):
                page = layout.page_of(page_index)
                markers = tuple(m for m in layout.markers if m.page == page_index)
                frames.setdefault((page.w_mm, page.h_mm), markers)
    return tuple((w, h, m) for (w, h), m in frames.items())


@lru_cache(maxsize=1)
def _detector() -> cv2.aruco.ArucoDetector:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    params.adaptiveThreshWinSizeMin = k.DETECT_THRESHOLD_WINDOWS_PX[0]
    params.adaptiveThreshWinSizeMax = k.DETECT_THRESHOLD_WINDOWS_PX[1]
    params.adaptiveThreshWinSizeStep = k.DETECT_THRESHOLD_WINDOWS_PX[1] - \
        k.DETECT_THRESHOLD_WINDOWS_PX[0]
    return cv2.aruco.ArucoDetector(dictionary, params)


def to_gray(image: np.ndarray) -> np.ndarray:
    """Grey levels of a BGR (or already grey) image."""
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def content_channel(image: np.ndarray) -> np.ndarray:
    """The red channel of a BGR image (grey as is): ink and markers stay dark, the drop-out
    borders and tints turn nearly white, so they neither hide nor imitate markers or digits."""
    return image if image.ndim == 2 else cv2.extractChannel(image, 2)


def detect_markers(gray: np.ndarray, max_side_px: int = k.DETECT_MAX_SIDE_PX,
                   refine: bool = True) -> dict[int, np.ndarray]:
    """Return ``{aruco_id: (4, 2) corners in full-resolution px}`` (ArUco corner order)."""
    scale = min(1.0, max_side_px / max(gray.shape))
    small = gray if scale >= 1.0 else cv2.resize(gray, None, fx=scale, fy=scale,
                                                 interpolation=cv2.INTER_AREA)
    corners, ids, _ = _detector().detectMarkers(small)
    if ids is None:
        return {}
    found: dict[int, np.ndarray] = {}
    for marker_id, quad in zip(ids.ravel(), corners, strict=True):
        pts = quad.reshape(4, 2).astype(np.float32)
        pts = (pts + 0.5) / scale - 0.5
        if refine:
            win = max(2, round(k.CORNER_REFINE_WINDOW_PX / min(scale * 2, 1.0)))
            criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 20, 0.05)
            pts = cv2.cornerSubPix(gray, pts.reshape(-1, 1, 2).copy(), (win, win), (-1, -1),
                                   criteria).reshape(4, 2)
        found.setdefault(int(marker_id), pts)
    return found


def _marker_mm(marker: Marker) -> np.ndarray:
    x, y, s = marker.x_mm, marker.y_mm, marker.size_mm
    return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float64)


def _fit(src_mm: np.ndarray, dst_px: np.ndarray) -> tuple[np.ndarray, float]:
    h, _ = cv2.findHomography(src_mm, dst_px, 0)
    if h is None:
        return np.eye(3), float("inf")
    proj = cv2.perspectiveTransform(src_mm.reshape(-1, 1, 2), h).reshape(-1, 2)
    return h, float(np.sqrt(np.mean(np.sum((proj - dst_px) ** 2, axis=1))))


def local_px_per_mm(h: np.ndarray, x_mm: float, y_mm: float) -> float:
    """Image pixels per page millimetre at one point (square root of the Jacobian)."""
    p = np.array([[x_mm, y_mm], [x_mm + 1, y_mm], [x_mm, y_mm + 1]], np.float64)
    q = cv2.perspectiveTransform(p.reshape(-1, 1, 2), h).reshape(-1, 2)
    j = np.array([q[1] - q[0], q[2] - q[0]])
    return float(np.sqrt(abs(np.linalg.det(j))))


def _outline(gray: np.ndarray) -> np.ndarray | None:
    """The paper's four corners (clockwise from the image top-left) or None."""
    scale = min(1.0, 800 / max(gray.shape))
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    _, binary = cv2.threshold(cv2.GaussianBlur(small, (5, 5), 0), 0, 255,
                              cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    biggest = max(contours, key=cv2.contourArea)
    if cv2.contourArea(biggest) < k.OUTLINE_MIN_AREA_FRACTION * small.size:
        return None
    quad = cv2.approxPolyDP(biggest, 0.02 * cv2.arcLength(biggest, True), True)
    if len(quad) != 4:
        return None
    pts = quad.reshape(4, 2).astype(np.float64) / scale
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    return pts[np.argsort(angles)]  # clockwise in image coordinates (y down)


def _register_outline(gray: np.ndarray, found: dict[int, np.ndarray], frame: Frame,
                      label: str) -> tuple[np.ndarray, float]:
    quad = _outline(gray)
    if quad is None:
        raise NoSheetFound(f"only {len(found)} of the 4 corner markers are visible and the "
                           f"paper's edge cannot be seen", label, advice="uncover the corner "
                           "squares (a finger, a shadow, a fold) and retake the photo")
    w, h, markers = frame
    by_id = {m.aruco_id: m for m in markers}
    corners_mm = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    mk_mm = np.concatenate([_marker_mm(by_id[i]) for i in found if i in by_id])
    mk_px = np.concatenate([found[i] for i in found if i in by_id]).astype(np.float64)
    best: tuple[np.ndarray, float] = (np.eye(3), float("inf"))
    for shift in range(4):
        src = np.concatenate([corners_mm, mk_mm])
        dst = np.concatenate([np.roll(quad, -shift, axis=0), mk_px])
        hom, _ = _fit(src, dst)
        proj = cv2.perspectiveTransform(mk_mm.reshape(-1, 1, 2), hom).reshape(-1, 2)
        err = float(np.sqrt(np.mean(np.sum((proj - mk_px) ** 2, axis=1))))
        if err < best[1]:
            best = (hom, err)
    return best


def _sharpness(page: RegisteredPage, gray: np.ndarray, frame: Frame) -> float:
    """Median over the found markers of their edge sharpness (see BLUR_MIN_SHARPNESS)."""
    values = []
    for m in frame[2]:
        if m.aruco_id not in page.markers_found:
            continue
        patch = page.warp(m.x_mm - 0.5, m.y_mm - 0.5, m.size_mm + 1, m.size_mm + 1,
                          k.QUALITY_PX_PER_MM, gray).astype(np.float32)
        lo, hi = np.percentile(patch, (5, 95))
        if hi - lo < 40:
            continue
        gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3) / 8.0
        gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3) / 8.0
        mag = np.hypot(gx, gy)
        values.append(float(np.percentile(mag, 97)) / float(hi - lo))
    return float(np.median(values)) if values else 0.0


def _glare(image: np.ndarray, page: RegisteredPage) -> str | None:
    # reduced by a whole factor (OpenCV's fast box filter: a third of the time of any factor)
    factor = max(1, -(-max(image.shape[:2]) // 600))
    h, w = image.shape[0] // factor, image.shape[1] // factor
    small = image if factor == 1 else cv2.resize(image[:h * factor, :w * factor], (w, h),
                                                 interpolation=cv2.INTER_AREA)
    small_scale = 1.0 / factor
    gray = to_gray(small)
    if float(np.median(gray)) >= k.GLARE_PAPER_MAX_LEVEL:
        return None  # a scan: the paper itself is saturated
    sat = (small.min(axis=2) if small.ndim == 3 else small) >= k.GLARE_LEVEL
    n, _, stats, centroids = cv2.connectedComponentsWithStats(sat.astype(np.uint8), 8)
    mm2_per_px = 1.0 / (page.px_per_mm * small_scale) ** 2
    blobs = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] * mm2_per_px
             > k.GLARE_MIN_AREA_MM2]
    if not blobs:
        return None
    biggest = max(blobs, key=lambda i: stats[i, cv2.CC_STAT_AREA])
    inv = np.linalg.inv(page.homography)
    c = cv2.perspectiveTransform((centroids[biggest] / small_scale).reshape(1, 1, 2), inv)
    x, y = c.reshape(2)
    return (f"{page.label} has glare near {x:.0f} mm from the left, {y:.0f} mm from the top: "
            f"retake the photo without a direct light")


def register(page: PageImage, context: object = None) -> RegisteredPage:
    """Register one page image; raises NoSheetFound or PoorQuality naming the file and page."""
    del context
    t0 = time.perf_counter()
    label = page.label
    gray = content_channel(page.image)
    found = detect_markers(gray)
    if not found and max(gray.shape) > k.DETECT_MAX_SIDE_PX:
        found = detect_markers(gray, 2 * k.DETECT_MAX_SIDE_PX)
    t_detect = time.perf_counter() - t0
    if not found:
        raise NoSheetFound("no pulka corner markers found: not a pulka sheet, or a blank or "
                           "cut-off photo", page.source, page.index_in_file)
    pages = [i // 4 for i in found]
    page_index = max(set(pages), key=pages.count)
    if len(set(pages)) > 1:
        log.warning("%s: markers of pages %s; reading page %d", label, sorted(set(pages)),
                    page_index + 1)
        found = {i: c for i, c in found.items() if i // 4 == page_index}
    frames = page_frames(page_index)
    if not frames:
        raise NoSheetFound(f"markers say page {page_index + 1}, which no known layout has",
                           page.source, page.index_in_file)
    best: tuple[np.ndarray, float, Frame] | None = None
    method = "markers"
    for frame in frames:
        if len(found) >= k.MIN_MARKERS_FOR_HOMOGRAPHY:
            by_id = {m.aruco_id: m for m in frame[2]}
            ids = [i for i in found if i in by_id]
            src = np.concatenate([_marker_mm(by_id[i]) for i in ids])
            dst = np.concatenate([found[i] for i in ids]).astype(np.float64)
            hom, err = _fit(src, dst)
        else:
            method = "outline"
            hom, err = _register_outline(gray, found, frame, label)
        if best is None or err < best[1]:
            best = (hom, err, frame)
    assert best is not None
    hom, err_px, frame = best
    w, h = frame[0], frame[1]
    ppm = local_px_per_mm(hom, w / 2, h / 2)
    reg = RegisteredPage(page.source, page.index_in_file, page_index, w, h, hom, ppm, err_px,
                         err_px / ppm, tuple(sorted(found)), method, 0.0, (), page.image)
    reg = _check_quality(reg, gray, frame)
    reg.timings_s.update(detect=t_detect, register=time.perf_counter() - t0)
    return reg


def _check_quality(reg: RegisteredPage, gray: np.ndarray, frame: Frame) -> RegisteredPage:
    label, warnings = reg.label, []
    if reg.px_per_mm < k.MIN_PX_PER_MM:
        raise PoorQuality(f"the sheet is only {reg.px_per_mm * 25.4:.0f} dpi, too coarse to "
                          f"read", reg.source, reg.index_in_file, advice="scan at 300 dpi or "
                          "photograph the sheet closer, filling the frame")
    if reg.px_per_mm < k.WARN_PX_PER_MM:
        warnings.append(f"{label} is only {reg.px_per_mm * 25.4:.0f} dpi: check its readings")
    if reg.fit_error_mm > k.MAX_FIT_ERROR_MM:
        raise PoorQuality(f"the corner markers do not fit the printed sheet (off by "
                          f"{reg.fit_error_mm:.1f} mm): the paper is folded or curled",
                          reg.source, reg.index_in_file, advice="flatten the sheet and retake "
                          "the photo")
    if reg.fit_error_mm > k.WARN_FIT_ERROR_MM:
        warnings.append(f"{label}: the markers fit to {reg.fit_error_mm:.2f} mm only (a "
                        f"curled page?): check its readings")
    if reg.method == "outline":
        warnings.append(f"{label}: a corner marker is covered; the page was placed by its "
                        f"outline")
    sharp = _sharpness(reg, gray, frame)
    if sharp < k.BLUR_MIN_SHARPNESS:
        raise PoorQuality(f"page {reg.page_index + 1} of the sheet is blurred (sharpness "
                          f"{sharp:.2f})", reg.source, reg.index_in_file,
                          advice="retake the photo, holding the camera still and focused")
    if sharp < k.BLUR_WARN_SHARPNESS:
        warnings.append(f"{label} is slightly blurred: check its readings")
    glare = _glare(reg.image, reg)
    if glare:
        warnings.append(glare)
    for text in warnings:
        log.warning("%s", text)
    from dataclasses import replace

    return replace(reg, sharpness=sharp, warnings=tuple(warnings))
