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

Reading goes the other way for a code whose modules are already known (the scanner samples
them where the layout and the page's homography put them): :func:`text_of_modules` reads
the format bits, unmasks the data modules in ReportLab's own placement order, corrects each
Reed-Solomon block (Berlekamp-Massey, Chien search, Forney) and parses the segments; no
image processing, a few milliseconds. :func:`read_qr` finds and reads a code in an image
with OpenCV's detectors.

>>> modules = qr_modules("pulka")
>>> len(modules), len(modules[0])
(21, 21)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray
from reportlab.graphics.barcode import qrencoder

from forms.model import Layout

_error_polynomial = lru_cache(maxsize=None)(qrencoder.QRUtil.getErrorCorrectPolynomial)
qrencoder.QRUtil.getErrorCorrectPolynomial = staticmethod(_error_polynomial)

_EXP = qrencoder.EXP_TABLE
_LOG = qrencoder.LOG_TABLE
_EXP_ARRAY = np.array(_EXP[:255], np.int64)
_LOG_ARRAY = np.array(_LOG, np.int64)


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


_FORMAT_LEVELS = (qrencoder.QRErrorCorrectLevel.L, qrencoder.QRErrorCorrectLevel.M,
                  qrencoder.QRErrorCorrectLevel.Q, qrencoder.QRErrorCorrectLevel.H)


@lru_cache(maxsize=1)
def _format_words() -> tuple[tuple[int, int, int], ...]:
    """Every valid 15-bit format word with its error-correction level and mask."""
    return tuple((qrencoder.QRUtil.getBCHTypeInfo((level << 3) | mask), level, mask)
                 for level in _FORMAT_LEVELS for mask in range(8))


def _format_bits(dark: NDArray[np.bool_]) -> tuple[int, int]:
    """The two copies of the format word, as ReportLab's ``setupTypeInfo`` places them."""
    n = dark.shape[0]
    first = second = 0
    for i in range(15):
        row = i if i < 6 else i + 1 if i < 8 else n - 15 + i
        col = n - i - 1 if i < 8 else 15 - i if i < 9 else 14 - i
        first |= int(dark[row, 8]) << i
        second |= int(dark[8, col]) << i
    return first, second


@lru_cache(maxsize=16)
def _data_positions(version: int) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Rows and columns of the data modules in the order ReportLab fills them."""
    code = qrencoder.QRCode(version, qrencoder.QRErrorCorrectLevel.M)
    code.moduleCount = 17 + 4 * version
    cols, rows = zip(*code._dataPosIterator(), strict=True)
    return np.array(rows, np.intp), np.array(cols, np.intp)


@lru_cache(maxsize=64)
def _block_orders(version: int, level: int) -> tuple[tuple[NDArray[np.intp], int], ...]:
    """Each Reed-Solomon block of a code: where its bytes (data, then check bytes) lie in
    the interleaved codewords, and how many are data. The codewords hold the first data
    byte of every block in turn, then the second, ..., then the check bytes the same way."""
    blocks = qrencoder.QRRSBlock.getRSBlocks(version, level)
    places: list[list[int]] = [[] for _ in blocks]
    index = 0
    for counts in ([b.dataCount for b in blocks],
                   [b.totalCount - b.dataCount for b in blocks]):
        for i in range(max(counts)):
            for part, count in zip(places, counts, strict=True):
                if i < count:
                    part.append(index)
                    index += 1
    return tuple((np.array(part, np.intp), block.dataCount)
                 for part, block in zip(places, blocks, strict=True))


def _rs_correct(block: list[int], ec_count: int) -> list[int] | None:
    """The block (data then check bytes) with up to ``ec_count // 2`` byte errors corrected,
    or None when it has more. QR's code: GF(256) mod 0x11d, generator roots a^0..a^(ec-1),
    the first byte the highest power."""
    exp, log = _EXP, _LOG
    n = len(block)

    def mul(a: int, b: int) -> int:
        return 0 if a == 0 or b == 0 else exp[(log[a] + log[b]) % 255]

    def poly_eval(poly: list[int], x: int) -> int:  # poly lowest power first
        y = 0
        for c in reversed(poly):
            y = mul(y, x) ^ c
        return y

    # S_j = r(a^j), r(x) = sum of byte k times x^(n - 1 - k): all at once with log tables
    coded = np.array(block, np.int64)
    nonzero = np.flatnonzero(coded)
    if not len(nonzero):
        return block
    powers = (np.arange(ec_count)[:, None] * (n - 1 - nonzero)[None, :]
              + _LOG_ARRAY[coded[nonzero]][None, :]) % 255
    syndromes = np.bitwise_xor.reduce(_EXP_ARRAY[powers], axis=1).tolist()
    if not any(syndromes):
        return block
    # Berlekamp-Massey: the error locator, lowest power first
    locator, previous = [1], [1]
    length, shift, last = 0, 1, 1
    for i in range(ec_count):
        delta = syndromes[i]
        for j in range(1, length + 1):
            if j < len(locator):
                delta ^= mul(locator[j], syndromes[i - j])
        if delta == 0:
            shift += 1
            continue
        scale = mul(delta, exp[(255 - log[last]) % 255])
        update = [0] * shift + [mul(scale, c) for c in previous]
        grown = [a ^ b for a, b in zip(locator + [0] * (len(update) - len(locator)),
                                      update + [0] * (len(locator) - len(update)),
                                      strict=True)]
        if 2 * length <= i:
            previous, length, last, shift = locator, i + 1 - length, delta, 1
        else:
            shift += 1
        locator = grown
    while len(locator) > 1 and locator[-1] == 0:
        locator.pop()
    errors = len(locator) - 1
    if errors != length or 2 * errors > ec_count:
        return None
    # Chien search: byte k (from the start) is power n - 1 - k
    places = [k for k in range(n) if poly_eval(locator, exp[(255 - (n - 1 - k)) % 255]) == 0]
    if len(places) != errors:
        return None
    # Forney: the error values (roots b = 0)
    omega = [0] * errors
    for i in range(errors):
        for j in range(i + 1):
            if j < len(locator):
                omega[i] ^= mul(syndromes[i - j], locator[j])
    derivative = [locator[i] if i % 2 else 0 for i in range(1, len(locator))]
    fixed = list(block)
    for k in places:
        x_inv = exp[(255 - (n - 1 - k)) % 255]
        x = exp[(n - 1 - k) % 255]
        denominator = poly_eval(derivative, x_inv)
        if denominator == 0:
            return None
        value = mul(mul(x, poly_eval(omega, x_inv)), exp[(255 - log[denominator]) % 255])
        fixed[k] ^= value
    return fixed


def _parse_segments(data: bytes, version: int) -> bytes | None:
    """The bytes of the byte-mode segments (numeric and alphanumeric ones as ASCII); None
    for any other mode."""
    bits = f"{int.from_bytes(data, 'big'):0{8 * len(data)}b}" if data else ""
    out = bytearray()
    pos = 0

    def take(count: int) -> int:
        nonlocal pos
        if pos + count > len(bits):
            raise IndexError
        value = int(bits[pos:pos + count], 2) if count else 0
        pos += count
        return value

    size = 0 if version < 10 else 1 if version < 27 else 2
    try:
        while pos + 4 <= len(bits):
            mode = take(4)
            if mode == 0:
                break
            if mode == qrencoder.QR8bitByte.mode:
                count = take(qrencoder.QR8bitByte.lengthbits[size])
                out += take(8 * count).to_bytes(count, "big")  # all its bytes at once
            elif mode == qrencoder.QRNumber.mode:
                count = take(qrencoder.QRNumber.lengthbits[size])
                for start in range(0, count, 3):
                    digits = min(3, count - start)
                    out += f"{take((4, 7, 10)[digits - 1]):0{digits}d}".encode()
            elif mode == qrencoder.QRAlphaNum.mode:
                chars = qrencoder.QRAlphaNum.chars
                count = take(qrencoder.QRAlphaNum.lengthbits[size])
                for start in range(0, count, 2):
                    if count - start >= 2:
                        pair = take(11)
                        out += (chars[pair // 45] + chars[pair % 45]).encode()
                    else:
                        out += chars[take(6)].encode()
            else:
                return None
    except (IndexError, ValueError):
        return None
    return bytes(out)


def text_of_modules(dark: NDArray[np.bool_]) -> str | None:
    """Decode a QR code from its modules (True = dark, no quiet zone); None when they do
    not hold a readable code (a format word more than 3 bits off, a block past correction,
    a segment mode not used here, or bytes that are not UTF-8).

    >>> text_of_modules(np.array(qr_modules("pulka"), dtype=bool))
    'pulka'
    """
    n = dark.shape[0]
    version = (n - 17) // 4
    if dark.shape != (n, n) or n != 17 + 4 * version or not 1 <= version <= 40:
        return None
    first, second = _format_bits(dark)
    distance, level, mask = min((min(bin(w ^ first).count("1"), bin(w ^ second).count("1")),
                                 lv, mk) for w, lv, mk in _format_words())
    if distance > 3:
        return None
    rows, cols = _data_positions(version)
    bits = dark[rows, cols] ^ _mask_patterns(n)[mask][rows, cols]
    codewords = np.packbits(bits)
    data = bytearray()
    for order, data_count in _block_orders(version, level):
        block = codewords[order].tolist()
        fixed = _rs_correct(block, len(block) - data_count)
        if fixed is None:
            return None
        data += bytes(fixed[:data_count])
    payload = _parse_segments(bytes(data), version)
    if payload is None:
        return None
    try:
        return payload.decode("utf-8")
    except UnicodeDecodeError:
        return None


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
