"""Find a page's ArUco markers (DICT_4X4_50, ``id = 4 * page + corner``) in its image.

Markers are looked for in the red channel (the light-red drop-out print vanishes there) of
the smallest halving of the image: first in its four corners, where a scan's lie, then in
the whole of it, and in each larger halving, up to the image itself, while fewer than four
turn up.
Their corners are then refined at full resolution in small patches around each marker, and
taken at last where the marker's four outer edges, each fitted along its length, cross.
"""

from __future__ import annotations

from typing import cast

import cv2
import numpy as np

from scanner import constants as k
from scanner.arrays import Floats, GreyImage, Image
from scanner.image.pixels import content_channel


def _detector(quick: bool = False, share: float = 1.0) -> cv2.aruco.ArucoDetector:
    """The marker detector: with ``quick``, one adaptive-threshold window
    (:data:`DETECT_QUICK_WINDOW_PX`) and no marker smaller than
    :data:`DETECT_QUICK_MIN_PERIMETER_SHARE`, else those of
    :data:`DETECT_THRESHOLD_WINDOWS_PX` and OpenCV's smallest marker. For a corner of the
    image ``share`` of its sides, the smallest marker (a share of the longer side of what it
    is given) is scaled so that it is as many pixels as in the whole image."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    if quick:
        params.minMarkerPerimeterRate = k.DETECT_QUICK_MIN_PERIMETER_SHARE
    params.minMarkerPerimeterRate /= share
    low, high = (k.DETECT_QUICK_WINDOW_PX,) * 2 if quick else k.DETECT_THRESHOLD_WINDOWS_PX
    params.adaptiveThreshWinSizeMin = low
    params.adaptiveThreshWinSizeMax = high
    params.adaptiveThreshWinSizeStep = max(high - low, 1)
    return cv2.aruco.ArucoDetector(dictionary, params)


def detect_markers(image: Image, scale: float = 1.0,
                   quick: bool = False) -> dict[int, Floats]:
    """Return ``{aruco_id: (4, 2) corners}`` (ArUco corner order) found in the red channel
    of ``image``, the page at ``scale`` of the full image, in full-resolution px."""
    return _detect(_detector(quick), content_channel(image), scale)


def detect_in_corners(image: Image, scale: float = 1.0) -> dict[int, Floats]:
    """:func:`detect_markers` (quick) in the four corners of ``image`` only, each
    :data:`DETECT_CORNER_SHARE` of its sides, where a scan's markers lie. A marker found
    there is found where the whole image puts it (the detector's threshold and contours are
    local; its corners agree to float rounding)."""
    channel = content_channel(image)
    height, width = channel.shape
    h, w = round(height * k.DETECT_CORNER_SHARE), round(width * k.DETECT_CORNER_SHARE)
    detector = _detector(True, k.DETECT_CORNER_SHARE)
    found: dict[int, Floats] = {}
    for y0, x0 in ((0, 0), (0, width - w), (height - h, 0), (height - h, width - w)):
        corner = _detect(detector, channel[y0:y0 + h, x0:x0 + w], scale, (x0, y0))
        for marker_id, quad in corner.items():
            found.setdefault(marker_id, quad)
    return found


def _detect(detector: cv2.aruco.ArucoDetector, channel: GreyImage, scale: float,
            origin: tuple[int, int] = (0, 0)) -> dict[int, Floats]:
    """The markers ``detector`` finds in ``channel``, a part of the page at ``scale``
    whose top-left pixel is ``origin`` there, in full-resolution px."""
    corners, ids, _ = detector.detectMarkers(channel)
    if ids is None:
        return {}
    found: dict[int, Floats] = {}
    at = np.array(origin, np.float32)
    for marker_id, quad in zip(ids.ravel(), corners, strict=True):
        # pixel centres: x_full = (x + 0.5) / scale - 0.5
        found.setdefault(int(marker_id), (quad.reshape(4, 2) + at + 0.5) / scale - 0.5)
    return found


def _refine(full: Image, pts: Floats, scale: float) -> Floats:
    """The four corners moved to their sub-pixel place in the full image (its red channel),
    searched in a window that covers the error of a corner found at ``scale``."""
    win = max(2, round(k.CORNER_REFINE_WINDOW_PX / min(scale * 2, 1.0)))
    pad = 2 * win + 2
    h, w = full.shape[:2]
    x0, y0 = (max(int(v) - pad, 0) for v in pts.min(axis=0))
    x1, y1 = (int(v) + pad + 1 for v in pts.max(axis=0))
    x1, y1 = min(x1, w), min(y1, h)
    if x1 - x0 <= 2 * win + 2 or y1 - y0 <= 2 * win + 2:
        return pts
    patch = content_channel(full[y0:y1, x0:x1])
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 20, 0.05)
    local = (pts - np.array([x0, y0], np.float32)).reshape(-1, 1, 2)
    refined = cast(Floats, cv2.cornerSubPix(np.ascontiguousarray(patch), local, (win, win),
                                            (-1, -1), criteria))
    return refined.reshape(4, 2) + np.array([x0, y0], np.float32)


def _edge_points(channel: GreyImage, corners: Floats, reach: float) -> list[Floats]:
    """Sub-pixel points of each of the marker's four outer edges, from corner ``i`` to
    corner ``i + 1`` of ``corners`` (the marker clockwise in the image, dark inside): along
    the middle of the side, where each profile across it (``reach`` px each way) rises most
    steeply from the marker's black to the white around it. Corners and what is printed
    near them take no part. The profiles of the four edges are sampled in one remap (each
    profile on its own: the same values as edge by edge)."""
    offsets = np.arange(-reach, reach + 0.5, 0.5, dtype=np.float32)
    centres, outwards, grids = [], [], []
    for i in range(4):
        start, end = corners[i], corners[(i + 1) % 4]
        side = end - start
        length = float(np.hypot(*side))
        along = side / max(length, 1e-9)
        outward = np.array([along[1], -along[0]], np.float32)
        share = np.linspace(k.MARKER_EDGE_SPAN[0], k.MARKER_EDGE_SPAN[1],
                            max(4, round(length * k.MARKER_EDGE_SAMPLES_PER_PX)),
                            dtype=np.float32)
        centre = start + share[:, None] * side
        centres.append(centre)
        outwards.append(outward)
        grids.append(centre[:, None, :] + offsets[None, :, None] * outward)
    grid = np.concatenate(grids)
    profiles = cv2.remap(channel, np.ascontiguousarray(grid[..., 0]),
                         np.ascontiguousarray(grid[..., 1]), cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    rise = profiles[:, 2:] - profiles[:, :-2]
    best = np.clip(rise.argmax(axis=1), 1, rise.shape[1] - 2)
    rows = np.arange(len(best))
    left, mid, right = rise[rows, best - 1], rise[rows, best], rise[rows, best + 1]
    bend = left - 2 * mid + right
    step = np.where(bend < 0, 0.5 * (left - right) / np.where(bend < 0, bend, -1), 0.0)
    at = np.split(offsets[best + 1] + 0.5 * step, np.cumsum([len(c) for c in centres])[:-1])
    return [cast(Floats, centre + across[:, None] * outward)
            for centre, across, outward in zip(centres, at, outwards, strict=True)]


def _line(points: Floats) -> tuple[Floats, float] | None:
    """The line through ``points`` (unit normal, offset: ``normal . p = offset``), fitted
    again without the points more than :data:`MARKER_EDGE_OUTLIER_PX` off the first fit;
    None when too few are left."""
    keep = np.ones(len(points), bool)
    for _ in range(2):
        if keep.sum() < 3:
            return None
        centre = points[keep].mean(axis=0)
        _, _, vt = np.linalg.svd(points[keep] - centre)
        normal = vt[1].astype(np.float32)
        distance = np.abs((points - centre) @ normal)
        keep = distance <= k.MARKER_EDGE_OUTLIER_PX
    return normal, float(normal @ centre)


def _edge_corners(full: Image, pts: Floats, scale: float) -> Floats:
    """The four corners of a marker found at ``pts`` in the image at ``scale`` of ``full``:
    where its four outer edges cross, each a line fitted to many sub-pixel edge points
    (:func:`_edge_points`), measured twice, the second time from the first's corners. A
    blurred corner, or a line printed near it, cannot pull them. Where an edge is not found
    or a crossing lands farther than a module from ``pts``: the corners refined in their
    patches (:func:`_refine`)."""
    module = float(np.mean(np.hypot(*(np.roll(pts, -1, axis=0) - pts).T))) / 6
    reach = max(2.0, k.MARKER_EDGE_REACH_MODULES * module)
    corners = pts
    for _ in range(2):
        found = _crossings(full, corners, reach)
        if found is None or np.hypot(*(found - pts).T).max() > module:
            return _refine(full, pts, scale)
        corners = found
    return corners


def _crossings(full: Image, pts: Floats, reach: float) -> Floats | None:
    """The crossings of the four edge lines of the marker near ``pts`` (:func:`_edge_points`
    ``reach`` px across), or None where an edge is not found."""
    pad = round(reach) + 4
    h, w = full.shape[:2]
    x0, y0 = (max(int(v) - pad, 0) for v in pts.min(axis=0))
    x1, y1 = (min(int(v) + pad + 1, limit) for v, limit in zip(pts.max(axis=0), (w, h),
                                                                strict=True))
    origin = np.array([x0, y0], np.float32)
    channel = content_channel(full[y0:y1, x0:x1])
    local = pts - origin
    lines = [_line(points) for points in _edge_points(channel, local, reach)]
    corners = []
    for i in range(4):
        before, after = lines[i - 1], lines[i]
        if before is None or after is None:
            return None
        normals = np.array([before[0], after[0]], np.float64)
        if abs(np.linalg.det(normals)) < 0.5:  # not a quadrilateral's sides
            return None
        corners.append(np.linalg.solve(normals, [before[1], after[1]]))
    return cast(Floats, np.array(corners, np.float32) + origin)


def find_markers(image: Image, levels: tuple[Image, ...]) -> tuple[dict[int, Floats], int]:
    """The markers of one page and its index; corners refined at full resolution.

    Looked for in the corners of the smallest halving (:func:`detect_in_corners`), then
    (while fewer than four of one page turn up) in the whole of it with one threshold window,
    with all of them, and in each larger halving up to the image itself: a far photo's
    markers of 20-25 pixels may show only there (TRAINING part, seed 280 sheet 009: a page at
    83 dpi, two of its markers found in the halvings, four in the image).
    """
    def majority(found: dict[int, Floats]) -> tuple[int, int]:
        pages = [i // 4 for i in found]
        index = max(set(pages), key=pages.count) if pages else -1
        return pages.count(index), index

    level = len(levels)  # 0: the full image, i: levels[i - 1]
    tries = [(level, True)] + [(at, False) for at in range(level, -1, -1)]
    found = detect_in_corners(levels[-1] if level else image, 0.5 ** level)
    count, index = majority(found)
    if count < 4:  # the whole image, as though the corners had not been looked at
        found, count, index = {}, 0, -1
    else:
        tries = []
    for at, quick in tries:
        more = detect_markers(levels[at - 1] if at else image, 0.5 ** at, quick)
        if majority(more)[0] > count:
            found, level = more, at
            count, index = majority(found)
        if count >= 4:
            break
    refined = {i: _edge_corners(image, c, 0.5 ** level) for i, c in found.items()}
    return refined, index
