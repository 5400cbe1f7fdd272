"""Stage 3, identify: which sheet, which page, which layout and rules; pages grouped by sheet.

The QR code lies in a known region (from the layouts that have this page at this paper
size; the registration knows both): each candidate region is warped upright and zxing-cpp reads
it; failing that, its modules are sampled where the layout's grid puts them and zxing-cpp
decodes them drawn clean (a coarse photo whose modules are one or two pixels); failing that,
zxing-cpp reads the whole page. When
the QR cannot be read at all, Tesseract reads the printed sheet id and the page takes its
identity from a sibling page of the same sheet whose QR was read (:func:`assemble_sheets`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import cast

import cv2
import numpy as np
import zxingcpp

from forms.identity import IdentityError, SheetIdentity, from_qr_payload
from forms.layout import PAPERS, build_layout, layout_by_id
from forms.model import Layout, Region
from forms.render.sheet import QR_QUIET_MODULES
from scanner import constants as k
from scanner.arrays import Floats, GreyImage, Mask
from scanner.errors import NoSheetFound, ScanError, TesseractMissing, UnknownLayout
from scanner.image.pixels import content_channel
from scanner.image.register import RegisteredPage
from scanner.words import said

log = logging.getLogger(__name__)

SHEET_ID_PAD_MM = (8.0, 1.0)
"""The printed id can be wider than its region: crop this much more (x, y) on each side."""
QR_GRID_MAX_SIDE_MISMATCH = 0.1
"""The ink of a code's region spans as many rows as columns (within 1 % on the sample
sheets); past this share apart it is not a whole code (the other candidate region of a page
holds a code cut off, 27 % or 14 % apart): the region is given up before any module is read."""
QR_FORMAT = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
"""zxing-cpp looks for QR codes (model 2) only."""
QR_PURE_MODULE_PX = 4
"""Pixels a module when sampled modules are drawn as a clean code for zxing-cpp."""
WARP_CROP_PAD_PX = 2
"""Image pixels kept around a region's corners when only they are warped: a linear
interpolation reads one pixel beyond its point, and a pixel centre lies half one inside."""


@dataclass(frozen=True)
class IdentifiedPage:
    """A registered page with what it says it is."""

    page: RegisteredPage
    sheet_id: str
    identity: SheetIdentity | None
    """None when only the printed sheet id could be read."""
    layout: Layout | None = field(repr=False)
    via: str
    """``qr`` or ``text``."""
    seconds: float = field(default=0.0, compare=False)


@dataclass(frozen=True)
class SheetPages:
    """The pages of one sheet, by page index, and what is wrong with the set."""

    sheet_id: str
    identity: SheetIdentity
    layout: Layout = field(repr=False)
    pages: tuple[IdentifiedPage, ...]
    missing: tuple[int, ...]
    """Page indices the layout has and no image gave."""
    duplicates: tuple[IdentifiedPage, ...]
    """Further images of a page already given (the first one is read)."""
    problems: tuple[str, ...]


@lru_cache(maxsize=16)
def _regions(page_index: int, w_mm: float, h_mm: float, attr: str) -> tuple[Region, ...]:
    found: list[Region] = []
    for players in (3, 4):
        for paper in PAPERS:
            for talon in (False, True):
                layout = build_layout(players, paper, talon)
                if page_index >= len(layout.pages):
                    continue
                page = layout.page_of(page_index)
                if (page.w_mm, page.h_mm) != (w_mm, h_mm):
                    continue
                for region in getattr(layout, attr):
                    if region.page == page_index and region not in found:
                        found.append(region)
    return tuple(found)


class Identifier:
    """Identifies the pages of one scan run.

    It remembers, per page index and paper size, the QR region last read and tries it first
    (a run is mostly sheets of one layout).
    """

    def __init__(self) -> None:
        self._last_region: dict[tuple[int, float, float], Region] = {}

    def decode_qr(self, page: RegisteredPage) -> str | None:
        """The QR text of a registered page, or None: zxing-cpp on each candidate region
        warped upright, then its modules sampled on their grid (:func:`read_qr_grid`), then
        zxing-cpp on the whole page."""
        key = (page.page_index, page.page_w_mm, page.page_h_mm)
        last = self._last_region.get(key)
        regions = sorted(_regions(*key, "qr"), key=lambda region: region != last)
        for region in regions:
            gray = _warp_red(page, region, k.QR_GRID_PX_PER_MM)
            text = read_qr(gray)
            if text is None:
                text = read_qr_grid(gray, region)
            if text is not None:
                self._last_region[key] = region
                return text
        image = page.image
        return read_qr(image if image.ndim == 2 else cast(GreyImage, cv2.cvtColor(
            image, cv2.COLOR_BGR2GRAY)))

    def identify(self, page: RegisteredPage) -> IdentifiedPage:
        """Identify one registered page; raises a :class:`ScanError` naming the file and
        page."""
        start = time.perf_counter()
        text = self.decode_qr(page)
        if text is None:
            sheet_id = _printed_id_or_refuse(page)
            log.info("%s: QR unreadable, printed sheet id %s", page.label, sheet_id)
            return IdentifiedPage(page, sheet_id, None, None, "text",
                                  time.perf_counter() - start)
        identity, layout = _identity_of(text, page)
        if identity.page != page.page_index:
            log.warning("%s: QR says page %d, markers page %d; trusting the markers",
                        page.label, identity.page + 1, page.page_index + 1)
        return IdentifiedPage(page, identity.sheet_id, identity.for_page(page.page_index),
                              layout, "qr", time.perf_counter() - start)


def identify(page: RegisteredPage) -> IdentifiedPage:
    """Identify one page on its own, with no run to remember its regions."""
    return Identifier().identify(page)


def read_qr(gray: GreyImage) -> str | None:
    """The text of the QR code zxing-cpp finds in a grey image (its bytes as UTF-8), or
    None."""
    return _utf8_text(zxingcpp.read_barcodes(gray, formats=QR_FORMAT))


def read_qr_grid(gray: GreyImage, region: Region) -> str | None:
    """The QR text read module by module where the layout puts the code, or None.

    ``gray`` is the region (the code and its quiet zone of
    :data:`forms.render.sheet.QR_QUIET_MODULES`) warped upright at :data:`QR_GRID_PX_PER_MM`.
    The extent of its ink gives the code's side and so its likely version (a region whose ink
    is not square, :data:`QR_GRID_MAX_SIDE_MISMATCH`, holds no whole code). A version is
    taken when its timing patterns (row and column 6) read as they must. A module is dark
    when its centre is darker than the mean of the :data:`QR_GRID_LOCAL_MODULES` square of
    modules around it (a photo's light falls unevenly); zxing-cpp decodes the modules drawn
    clean (:func:`_text_of_modules`), else the same from the region unsharp-masked (a blurred
    photo).
    """
    scale = k.QR_GRID_PX_PER_MM
    _, binary = cv2.threshold(cv2.blur(gray, (3, 3)), 0, 255,
                              cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    rows = np.flatnonzero(binary.mean(axis=1) > 255 * k.QR_GRID_MIN_INK_FRACTION)
    cols = np.flatnonzero(binary.mean(axis=0) > 255 * k.QR_GRID_MIN_INK_FRACTION)
    if len(rows) < 2 or len(cols) < 2:
        return None
    height, width = rows[-1] - rows[0] + 1, cols[-1] - cols[0] + 1
    if abs(height - width) > QR_GRID_MAX_SIDE_MISMATCH * max(height, width):
        return None  # not a square code: the other region of the page (a cut-off code)
    side_mm = (height + width) / 2 / scale
    if side_mm >= region.w_mm:
        return None
    # side = w * n / (n + 2 quiet) for n = 17 + 4 version modules
    modules = 2 * QR_QUIET_MODULES * side_mm / (region.w_mm - side_mm)
    estimate = round((modules - 17) / 4)
    for version in (estimate, estimate - 1, estimate + 1):
        if not 1 <= version <= 40:
            continue
        n = 17 + 4 * version
        step_px = region.w_mm / (n + 2 * QR_QUIET_MODULES) * scale
        centres = ((np.arange(n) + QR_QUIET_MODULES + 0.5) * step_px - 0.5).astype(np.float32)
        map_x, map_y = np.meshgrid(centres, centres)
        dark = _dark_modules(cast(GreyImage, cv2.remap(gray, map_x, map_y, cv2.INTER_LINEAR)))
        timing = np.arange(8, n - 8)
        wrong = np.count_nonzero(dark[6, timing] != (timing % 2 == 0)) + \
            np.count_nonzero(dark[timing, 6] != (timing % 2 == 0))
        if wrong > k.QR_GRID_MAX_TIMING_ERRORS_FRACTION * 2 * len(timing):
            continue
        text = _text_of_modules(dark)
        if text is None:
            sharp = cv2.addWeighted(gray, 1 + k.QR_SHARPEN_AMOUNT,
                                    cv2.GaussianBlur(gray, (0, 0), k.QR_SHARPEN_SIGMA_PX),
                                    -k.QR_SHARPEN_AMOUNT, 0)
            text = _text_of_modules(_dark_modules(cast(GreyImage, cv2.remap(
                sharp, map_x, map_y, cv2.INTER_LINEAR))))
        return text
    return None


def _text_of_modules(dark: Mask) -> str | None:
    """zxing-cpp's reading of modules (True = dark) drawn as a clean black-and-white code,
    :data:`QR_PURE_MODULE_PX` pixels a module, with its quiet zone."""
    pure = np.where(dark, 0, 255).astype(np.uint8)
    pure = np.pad(pure, QR_QUIET_MODULES, constant_values=255)
    pure = np.repeat(np.repeat(pure, QR_PURE_MODULE_PX, axis=0), QR_PURE_MODULE_PX, axis=1)
    return _utf8_text(zxingcpp.read_barcodes(pure, formats=QR_FORMAT,
                                             is_pure=True, try_rotate=False, try_invert=False,
                                             try_downscale=False))


def _utf8_text(barcodes: list[zxingcpp.Barcode]) -> str | None:
    """The bytes of the first valid code that holds UTF-8 text, decoded; None when none does
    (a pulka payload is UTF-8 with no ECI header, which zxing-cpp's own text would guess at)."""
    for barcode in barcodes:
        if not barcode.valid or not barcode.bytes:
            continue
        try:
            return barcode.bytes.decode("utf-8")
        except UnicodeDecodeError:
            continue
    return None


def _warp_red(page: RegisteredPage, region: Region, scale: float) -> GreyImage:
    """The red channel (:func:`content_channel`) of ``region`` warped upright at ``scale``:
    the same pixels as the colour warp's red channel, warped from the red channel of only the
    image pixels the region covers (and :data:`WARP_CROP_PAD_PX` around), a third of the
    cost of warping all three channels."""
    image = page.image
    to_image = page.homography if page.affine is None else page.affine
    x, y, w, h = region.x_mm, region.y_mm, region.w_mm, region.h_mm
    corners = np.array([[x, y, 1], [x + w, y, 1], [x, y + h, 1], [x + w, y + h, 1]],
                       np.float64) @ to_image.T
    corners = corners[:, :2] / corners[:, 2:]
    pad = WARP_CROP_PAD_PX
    x0, y0 = (max(int(np.floor(v)) - pad, 0) for v in corners.min(axis=0))
    x1 = min(int(np.ceil(corners[:, 0].max())) + pad + 1, image.shape[1])
    y1 = min(int(np.ceil(corners[:, 1].max())) + pad + 1, image.shape[0])
    if x1 <= x0 or y1 <= y0:  # the region lies off the image: warp it all (the border)
        return content_channel(page.warp(x, y, w, h, scale))
    shift = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]])
    return page.rebased(shift, content_channel(image[y0:y1, x0:x1])).warp(x, y, w, h, scale)


def _dark_modules(values: GreyImage | Floats) -> Mask:
    """Modules darker than the mean of the modules around them (True = dark)."""
    values = values.astype(np.float32)
    side = k.QR_GRID_LOCAL_MODULES
    return values < cast(Floats, cv2.blur(values, (side, side), borderType=cv2.BORDER_REFLECT))


def read_printed_id(page: RegisteredPage) -> str | None:
    """Read the sheet id printed beside the QR code with Tesseract (None if illegible)."""
    from scanner import tesseract

    px, py = SHEET_ID_PAD_MM
    for region in _regions(page.page_index, page.page_w_mm, page.page_h_mm, "sheet_id_text"):
        crop = page.warp(region.x_mm - px, region.y_mm - py, region.w_mm + 2 * px,
                         region.h_mm + 2 * py, k.SHEET_ID_PX_PER_MM)
        text = tesseract.read_sheet_id(crop)
        if text:
            return text
    return None


def _identity_of(text: str, page: RegisteredPage) -> tuple[SheetIdentity, Layout]:
    """The sheet identity a page's QR text holds and its layout; raises a
    :class:`ScanError` naming the file and page when it is no pulka identity or an unknown
    layout."""
    where = (page.source, page.index_in_file)
    try:
        identity = from_qr_payload(text)
    except IdentityError as error:
        raise NoSheetFound(said("not_identity", error=str(error)), *where) from None
    try:
        return identity, layout_by_id(identity.layout_id)
    except KeyError:
        raise UnknownLayout(said("layout_unknown", sheet=identity.sheet_id,
                                 layout=repr(identity.layout_id)), *where) from None


def _printed_id_or_refuse(page: RegisteredPage) -> str:
    """The printed sheet id of a page whose QR code cannot be read; raises
    :class:`NoSheetFound` naming the file and page when Tesseract cannot read it either."""
    where = (page.source, page.index_in_file)
    try:
        sheet_id = read_printed_id(page)
    except TesseractMissing as error:
        raise NoSheetFound(said("id_not_tried", problem=error.problem), *where,
                           advice=error.advice) from None
    if sheet_id is None:
        raise NoSheetFound(said("id_unreadable", dpi=round(page.px_per_mm * 25.4)), *where,
                           advice=said("closer_filling"))
    return sheet_id


def assemble_sheets(pages: Sequence[IdentifiedPage]) -> tuple[list[SheetPages],
                                                              list[ScanError]]:
    """Group pages by sheet id; report missing and duplicate pages per sheet.

    A page identified only by its printed id takes the identity of a sibling whose QR was
    read; a sheet none of whose QR codes was read is an error (returned, not raised).
    """
    by_sheet: dict[str, list[IdentifiedPage]] = {}
    for page in pages:
        by_sheet.setdefault(page.sheet_id, []).append(page)
    sheets: list[SheetPages] = []
    errors: list[ScanError] = []
    for sheet_id, members in by_sheet.items():
        known = next((p for p in members if p.identity is not None), None)
        if known is None or known.identity is None or known.layout is None:
            first = members[0].page
            errors.append(UnknownLayout(said("no_qr", sheet=sheet_id), first.source,
                                        first.index_in_file, advice=said("clean_qr")))
            continue
        layout, identity = known.layout, known.identity
        chosen: dict[int, IdentifiedPage] = {}
        duplicates: list[IdentifiedPage] = []
        problems: list[str] = []
        for p in members:
            index = p.page.page_index
            if p.identity is None:
                p = IdentifiedPage(p.page, sheet_id, identity.for_page(index), layout, p.via,
                                   p.seconds)
            if index in chosen:
                duplicates.append(p)
                problems.append(said("page_twice", sheet=sheet_id, page=index + 1,
                                     first=chosen[index].page.label, second=p.page.label))
            else:
                chosen[index] = p
        missing = tuple(pg.index for pg in layout.pages if pg.index not in chosen)
        for index in missing:
            problems.append(said("page_missing", sheet=sheet_id, page=index + 1,
                                 pages=len(layout.pages)))
        for text in problems:
            log.warning("%s", text)
        sheets.append(SheetPages(sheet_id, identity, layout,
                                 tuple(chosen[i] for i in sorted(chosen)), missing,
                                 tuple(duplicates), tuple(problems)))
    return sheets, errors
