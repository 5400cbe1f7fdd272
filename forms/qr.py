"""QR code modules for the sheet identity: ReportLab's encoder, a fast mask choice.

ReportLab's pure-Python encoder picks the best of the eight mask patterns by drawing all eight
and scoring each (0.25 s a code). A fixed mask is fast but not safe: in a trial, OpenCV's
``QRCodeDetector`` failed on some payloads with mask 0 or 5 at 300 dpi. So the data modules are
placed once, the eight masks applied with numpy and scored with the standard penalty rules
(ISO/IEC 18004 §7.8.3: runs, 2x2 blocks, finder-like patterns, dark balance); the best one
gets its format bits. The Reed-Solomon generator polynomial depends only on the number of
error-correction bytes and is cached, and the check bytes are computed with log tables
(ReportLab's recursive polynomial division was half of the remaining time); both replace
ReportLab's own functions when this module is imported.

>>> modules = qr_modules("pulka")
>>> len(modules), len(modules[0])
(21, 21)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray
from reportlab.graphics.barcode import qrencoder  # type: ignore[import-untyped]

from forms.model import Layout

_error_polynomial = lru_cache(maxsize=None)(qrencoder.QRUtil.getErrorCorrectPolynomial)
qrencoder.QRUtil.getErrorCorrectPolynomial = staticmethod(_error_polynomial)

_EXP = qrencoder.EXP_TABLE
_LOG = qrencoder.LOG_TABLE


def _remainder(data: list[int], ec_count: int) -> list[int]:
    """Reed-Solomon check bytes of one block: polynomial division in GF(256) with log tables.

    Gives the same bytes as ReportLab's recursive ``QRPolynomial.mod``, ten times faster
    (``tests/forms/test_form_qr.py`` compares whole codes).
    """
    generator = _error_polynomial(ec_count).num  # leading coefficient 1
    logs = [_LOG[c] for c in generator[1:]]
    remainder = [0] * ec_count
    for byte in data:
        factor = byte ^ remainder[0]
        remainder = remainder[1:] + [0]
        if factor:
            lf = _LOG[factor]
            for i, lg in enumerate(logs):
                remainder[i] ^= _EXP[(lg + lf) % 255]
    return remainder


def _create_bytes(buffer: Any, rs_blocks: Any) -> list[int]:
    """ReportLab's ``QRCode.createBytes`` with :func:`_remainder` for the check bytes."""
    offset = 0
    dcdata: list[list[int]] = []
    ecdata: list[list[int]] = []
    for block in rs_blocks:
        dc_count = block.dataCount
        dcdata.append(list(buffer.buffer[offset:offset + dc_count]))
        offset += dc_count
        ecdata.append(_remainder(dcdata[-1], block.totalCount - dc_count))
    out: list[int] = []
    for blocks in (dcdata, ecdata):
        for i in range(max(len(b) for b in blocks)):
            out += [b[i] for b in blocks if i < len(b)]
    return out


REPORTLAB_CREATE_BYTES = qrencoder.QRCode.createBytes
"""ReportLab's own function, kept for the test that compares the two."""
qrencoder.QRCode.createBytes = staticmethod(_create_bytes)

_FINDER_LIKE = np.array([1, 0, 1, 1, 1, 0, 1], dtype=np.int8)


def qr_modules(payload: str) -> list[list[bool]]:
    """Return the QR code's modules (True = dark), error correction M, no quiet zone."""
    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(payload)
    code.version = code.calculate_version()
    code.makeImpl(False, 0)
    first = np.array(code.modules, dtype=bool)
    n = first.shape[0]
    data = _data_modules(code.version, n)
    masks = _mask_patterns(n)
    unmasked = first ^ (masks[0] & data)
    candidates = np.where(data, unmasked ^ masks, first)
    best = int(np.argmin(_penalties(candidates)))
    if best:
        code.modules = candidates[best].tolist()
        code.setupTypeInfo(False, best)  # the format bits name the mask
    return [[bool(m) for m in row] for row in code.modules]


@lru_cache(maxsize=16)
def _data_modules(version: int, n: int) -> NDArray[Any]:
    """Where the data modules of a version lie (True), the function patterns excluded."""
    code = qrencoder.QRCode(version, qrencoder.QRErrorCorrectLevel.M)
    code.moduleCount = n
    code.modules = [[None] * n for _ in range(n)]
    code.setupPositionProbePattern(0, 0)
    code.setupPositionProbePattern(n - 7, 0)
    code.setupPositionProbePattern(0, n - 7)
    code.setupPositionAdjustPattern()
    code.setupTimingPattern()
    code.setupTypeInfo(True, 0)
    if version >= 7:
        code.setupTypeNumber(True)
    return np.array([[m is None for m in row] for row in code.modules], dtype=bool)


@lru_cache(maxsize=16)
def _mask_patterns(n: int) -> NDArray[Any]:
    """The eight mask patterns as ReportLab defines them, shape (8, n, n)."""
    return np.array([[[bool(qrencoder.QRUtil.getMask(k)(i, j)) for j in range(n)] for i in range(n)]
                     for k in range(8)], dtype=bool)


def _penalties(stack: NDArray[np.bool_]) -> NDArray[np.int64]:
    """Standard mask penalties of a stack of codes, shape (k, n, n), all at once."""
    score = np.zeros(stack.shape[0], dtype=np.int64)
    for grid in (stack, stack.transpose(0, 2, 1)):
        g = grid.astype(np.int8)
        fives = np.lib.stride_tricks.sliding_window_view(g, 5, axis=2)
        same = fives.min(axis=3) == fives.max(axis=3)
        starts = same[:, :, 1:] & ~same[:, :, :-1]
        runs = starts.sum(axis=(1, 2)) + same[:, :, 0].sum(axis=1)
        score += same.sum(axis=(1, 2)) + 2 * runs
        windows = np.lib.stride_tricks.sliding_window_view(g, 7, axis=2)
        score += 40 * np.all(windows == _FINDER_LIKE, axis=3).sum(axis=(1, 2))
    block = stack[:, :-1, :-1]
    below, right, corner = stack[:, 1:, :-1], stack[:, :-1, 1:], stack[:, 1:, 1:]
    same4 = (block == below) & (block == right) & (block == corner)
    score += 3 * same4.sum(axis=(1, 2))
    dark = stack.mean(axis=(1, 2)) * 100
    score += 10 * (np.abs(dark - 50) // 5).astype(np.int64)
    return score


def _penalty(m: NDArray[np.bool_]) -> int:
    """Standard mask penalty of one code (lower is better)."""
    score = 0
    for grid in (m, m.T):
        g = grid.astype(np.int8)
        # runs of 5 or more: a run of length L scores L - 2 = (L - 4 windows of 5) + 2
        fives = np.lib.stride_tricks.sliding_window_view(g, 5, axis=1)
        same = fives.min(axis=2) == fives.max(axis=2)
        starts = same[:, 1:] & ~same[:, :-1]
        score += int(same.sum()) + 2 * (int(starts.sum()) + int(same[:, 0].sum()))
        windows = np.lib.stride_tricks.sliding_window_view(g, 7, axis=1)
        hits = np.all(windows == _FINDER_LIKE, axis=2)
        score += 40 * int(hits.sum())
    block = m[:-1, :-1]
    same = (block == m[1:, :-1]) & (block == m[:-1, 1:]) & (block == m[1:, 1:])
    score += 3 * int(same.sum())
    dark = m.mean() * 100
    score += 10 * int(abs(dark - 50) // 5)
    return score


def read_qr(gray: NDArray[np.uint8]) -> str:
    """Decode the QR code in a grey ``uint8`` image; ``""`` when none decodes.

    Pass the QR region with a few millimetres around it (:func:`qr_crop`), not the whole page:
    on a whole A4 page at 300 dpi the detectors take 1-2.5 s, on the crop 0.05-0.1 s.
    OpenCV's classic ``QRCodeDetector`` misses the finder patterns of some crisp renders at
    300 dpi (in a trial, 3 of 6 pages; it can even raise inside ``convexHull``); its
    ArUco-based ``QRCodeDetectorAruco`` read all of them. So this tries the ArUco-based one,
    then the classic one, then the classic one on a slightly blurred image.
    """
    import cv2

    for detector, image in ((cv2.QRCodeDetectorAruco(), gray), (cv2.QRCodeDetector(), gray),
                            (cv2.QRCodeDetector(), cv2.GaussianBlur(gray, (3, 3), 0))):
        try:
            text, _, _ = detector.detectAndDecode(image)
        except cv2.error:
            continue
        if text:
            return str(text)
    return ""


def qr_crop(image: NDArray[Any], layout: Layout, page: int, dpi: float,
            margin_mm: float = 4.0) -> NDArray[Any]:
    """The QR region of a page image rendered (or registered) at ``dpi``, with a margin."""
    region = next(q for q in layout.qr if q.page == page)
    px = dpi / 25.4
    x0, y0 = int((region.x_mm - margin_mm) * px), int((region.y_mm - margin_mm) * px)
    x1 = int((region.x_mm + region.w_mm + margin_mm) * px)
    y1 = int((region.y_mm + region.h_mm + margin_mm) * px)
    return image[max(y0, 0):y1, max(x0, 0):x1]
