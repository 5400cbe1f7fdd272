"""Stage 3, identify: which sheet, which page, which layout and rules; pages grouped by sheet.

The QR code lies in a known region (from the layouts that have this page at this paper
size; the registration knows both): each candidate region is warped upright and zxing-cpp reads
it; failing that, its modules are sampled where the layout's grid puts them and zxing-cpp
decodes them drawn clean; failing that, on a grid fitted to the code's own finder and
alignment patterns with the blur taken out (:mod:`scanner.image.qr_fit`, a far photo whose
modules are one or two pixels); failing that, zxing-cpp reads the whole page. A page whose
code still will not decode is a page of a sheet read in the same run when its modules agree
with the code that sheet prints on this page, or nearly agree where that sheet still lacks
the page and no other sheet of the run comes near (:meth:`Identifier.identify_or_hold` holds
it until such a sheet is read). When nothing matches, Tesseract reads the printed sheet id and
the page takes its identity from a sibling page of the same sheet whose QR was read
(:func:`assemble_sheets`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import cast

import cv2

from forms.identity import IdentityError, SheetIdentity, from_qr_payload, to_qr_payload
from forms.layout import PAPERS, build_layout, layout_by_id
from forms.model import Layout, Region
from scanner import constants as k
from scanner.arrays import GreyImage, Mask
from scanner.errors import NoSheetFound, ScanError, TesseractMissing, UnknownLayout
from scanner.image.qr_fit import decide_modules, disagreement, fit_grid, payload_code
from scanner.image.qr_region import (
    likely_versions,
    read_fitted_region,
    read_qr,
    read_qr_grid,
    warp_fit,
    warp_red,
)
from scanner.image.register import RegisteredPage, register_on_paper
from scanner.words import said

log = logging.getLogger(__name__)

SHEET_ID_PAD_MM = (8.0, 1.0)
"""The printed id can be wider than its region: crop this much more (x, y) on each side."""
SIBLING_MAX_DISAGREEMENT = 0.25
"""A page whose code will not decode is a page of a sheet read in the run when at most this
share of the modules that depend on the sheet id (about two hundred: the id's bytes and the
error correction of their blocks) read otherwise than that sheet's code for this page would
print them: another sheet's code differs on about half of them, a blurred far photo of this
one on a few in a hundred."""
SIBLING_LACKING_MAX_DISAGREEMENT = 0.3
"""... or at most this share where the page is one its sheet still lacks and every other sheet
of the run compared with it disagrees by :data:`SIBLING_MARGIN` more. A far photo's blur at
76-91 dpi leaves a page's modules this far from its own code (TRAINING part, the 55 pages of
seven phone-distant sets whose code would not decode: their own sheet's code 0.00-0.28, two
pages over 0.25, each then missing from its sheet; every other sheet's 0.38 or more)."""
SIBLING_MARGIN = 0.1
"""How much further than the sheet a page nearly agrees with every other sheet of the run
must be (:data:`SIBLING_LACKING_MAX_DISAGREEMENT`)."""
@dataclass(frozen=True)
class IdentifiedPage:
    """A registered page with what it says it is."""

    page: RegisteredPage
    sheet_id: str
    identity: SheetIdentity | None
    """None when only the printed sheet id could be read."""
    layout: Layout | None = field(repr=False)
    via: str
    """``qr``, ``sibling`` (its code matches a sheet read in the run) or ``text``."""
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
    (a run is mostly sheets of one layout); the payload read for each sheet, to match a page
    whose own code will not decode (:data:`SIBLING_MAX_DISAGREEMENT`); and the pages held
    until such a sheet is read.
    """

    def __init__(self) -> None:
        self._last_region: dict[tuple[int, float, float], Region] = {}
        self._payloads: dict[str, str] = {}
        """A QR text read for each sheet of the run, by sheet id, the latest last."""
        self._pages: dict[str, set[int]] = {}
        """The page indices identified for each sheet of the run, by sheet id."""
        self._held: list[_Held] = []
        self._failed: list[ScanError] = []
        """Held pages claimed by a sheet whose registration on its paper then failed."""

    def decode_qr(self, page: RegisteredPage) -> str | None:
        """The QR text of a registered page, or None: zxing-cpp on each candidate region
        warped upright, then its modules sampled on the layout's grid
        (:func:`read_qr_grid`), then on a grid fitted to the code
        (:func:`read_fitted_region`), then zxing-cpp on the whole page."""
        key = (page.page_index, page.page_w_mm, page.page_h_mm)
        last = self._last_region.get(key)
        regions = sorted(_regions(*key, "qr"), key=lambda region: region != last)
        for fitted in (False, True):
            for region in regions:
                gray = warp_red(page, region, k.QR_GRID_PX_PER_MM)
                if fitted:
                    text = read_fitted_region(page, region, likely_versions(gray, region))
                else:
                    text = read_qr(gray) or read_qr_grid(gray, region)
                if text is not None:
                    self._last_region[key] = region
                    return text
        image = page.image
        return read_qr(image if image.ndim == 2 else cast(GreyImage, cv2.cvtColor(
            image, cv2.COLOR_BGR2GRAY)))

    def identify(self, page: RegisteredPage) -> IdentifiedPage:
        """Identify one registered page: by its QR code, a sheet of the run its modules
        match, or its printed sheet id; raises a :class:`ScanError` naming the file and
        page."""
        found = self.identify_or_hold(page)
        if found is not None:
            return found
        return self._by_printed_id(self._held.pop())

    def identify_or_hold(self, page: RegisteredPage) -> IdentifiedPage | None:
        """The page identified by its QR code or as a page of a sheet read earlier in the
        run; None when neither holds (the page is held: :meth:`claim_held`,
        :meth:`finish_held`). Raises a :class:`ScanError` naming the file and page when its
        code is no pulka identity."""
        start = time.perf_counter()
        text, via = self.decode_qr(page), "qr"
        if text is None:
            held = _Held(page, start)
            text, via = self._match_sibling(held), "sibling"
            if text is None:
                self._held.append(held)
                return None
        return self._identified(page, text, via, start)

    def identify_all(self, pages: Iterable[RegisteredPage]
                     ) -> tuple[list[IdentifiedPage], list[ScanError]]:
        """Every page of a batch identified as a scan of them together does it (a page whose
        code will not decode matched to a sibling read before or after it, else by its
        printed id), and the pages refused, each a :class:`ScanError` naming its file."""
        found: list[IdentifiedPage] = []
        errors: list[ScanError] = []
        for page in pages:
            try:
                identified = self.identify_or_hold(page)
            except ScanError as error:
                errors.append(error)
                continue
            found += ([identified] if identified else []) + self.claim_held()
        for late in self.finish_held():
            if isinstance(late, ScanError):
                errors.append(late)
            else:
                found.append(late)
        return found, errors

    def claim_held(self) -> list[IdentifiedPage]:
        """The held pages whose modules match a sheet read since they were held."""
        claimed, still = [], []
        for held in self._held:
            text = self._match_sibling(held)
            if text is None:
                still.append(held)
                continue
            try:
                claimed.append(self._identified(held.page, text, "sibling", held.start))
            except ScanError as error:
                self._failed.append(error)
        self._held = still
        return claimed

    def _identified(self, page: RegisteredPage, text: str, via: str, start: float
                    ) -> IdentifiedPage:
        """The page identified by the QR text ``text`` (which is remembered for its sheet),
        registered on its layout's paper (:func:`_on_paper`)."""
        identity, layout = _identity_of(text, page)
        page = _on_paper(page, layout)
        if identity.page != page.page_index:
            log.warning("%s: QR says page %d, markers page %d; trusting the markers",
                        page.label, identity.page + 1, page.page_index + 1)
        self._payloads.pop(identity.sheet_id, None)
        self._payloads[identity.sheet_id] = text
        self._pages.setdefault(identity.sheet_id, set()).add(page.page_index)
        if via == "sibling":
            log.info("%s: QR undecodable, its modules match sheet %s", page.label,
                     identity.sheet_id)
        return IdentifiedPage(page, identity.sheet_id, identity.for_page(page.page_index),
                              layout, via, time.perf_counter() - start)

    def finish_held(self) -> list[IdentifiedPage | ScanError]:
        """The pages still held at the end of the run, each identified by its printed sheet
        id or refused (:class:`NoSheetFound` naming the file and page and what to do), and
        the errors of held pages claimed since."""
        out: list[IdentifiedPage | ScanError] = list(self._failed)
        for held in self._held:
            try:
                out.append(self._by_printed_id(held))
            except ScanError as error:
                out.append(error)
        self._held, self._failed = [], []
        return out

    def _match_sibling(self, held: _Held) -> str | None:
        """The QR text this page would carry as a page of the sheet of the run whose modules
        it matches (:data:`SIBLING_MAX_DISAGREEMENT`, or :data:`SIBLING_LACKING_MAX_DISAGREEMENT`
        for a page the sheet lacks, :data:`SIBLING_MARGIN` clear of every other sheet), or
        None; each sheet is compared once a page."""
        page = held.page
        for sheet_id, payload in self._payloads.items():
            if sheet_id not in held.compared:
                held.compared[sheet_id] = _compared(held, payload)
        scores = {sheet_id: score for sheet_id, (score, _) in held.compared.items()}
        best = min(scores, key=scores.__getitem__, default=None)
        if best is None:
            return None
        score, text = held.compared[best]
        clear = all(other >= score + SIBLING_MARGIN
                    for sheet_id, other in scores.items() if sheet_id != best)
        lacking = page.page_index not in self._pages.get(best, set())
        if score <= SIBLING_MAX_DISAGREEMENT or score <= SIBLING_LACKING_MAX_DISAGREEMENT \
                and lacking and clear:
            return text
        return None

    @staticmethod
    def _by_printed_id(held: _Held) -> IdentifiedPage:
        """A held page identified by its printed sheet id, or :class:`NoSheetFound`."""
        sheet_id = _printed_id_or_refuse(held.page)
        log.info("%s: QR unreadable, printed sheet id %s", held.page.label, sheet_id)
        return IdentifiedPage(held.page, sheet_id, None, None, "text",
                              time.perf_counter() - held.start)


@dataclass
class _Held:
    """A page whose QR code would not decode: its modules as read for a code of each
    version in each region (sampled once), and how each sheet of the run compared."""

    page: RegisteredPage
    start: float
    read: dict[tuple[Region, int], Mask | None] = field(default_factory=dict)
    compared: dict[str, tuple[float, str]] = field(default_factory=dict)
    """By sheet id: the least share of its code's id-dependent modules the page reads
    otherwise (1.0: none to compare), and the QR text it would carry as that sheet's page."""

    def modules(self, region: Region, version: int) -> Mask | None:
        """The page's modules read for a code of ``version`` in ``region``, or None when
        its finder patterns are not there."""
        key = (region, version)
        if key not in self.read:
            grid = fit_grid(warp_fit(self.page, region), region, version)
            self.read[key] = None if grid is None else decide_modules(grid)
        return self.read[key]


def _compared(held: _Held, payload: str) -> tuple[float, str]:
    """How far the held page's modules are from the code the sheet of QR text ``payload``
    prints on its page (:func:`disagreement`, the least over the page's QR regions; 1.0
    when they are not found or the text is no pulka identity), and that code's text."""
    page = held.page
    try:
        identity = from_qr_payload(payload)
        text = to_qr_payload(identity.for_page(page.page_index))
    except IdentityError:
        return 1.0, payload
    version = payload_code(text, identity.sheet_id)[0]
    scores = [disagreement(read, text, identity.sheet_id)
              for region in _regions(page.page_index, page.page_w_mm, page.page_h_mm, "qr")
              for read in [held.modules(region, version)] if read is not None]
    return min(scores, default=1.0), text


def identify(page: RegisteredPage) -> IdentifiedPage:
    """Identify one page on its own, with no run to remember its regions."""
    return Identifier().identify(page)


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


def _on_paper(page: RegisteredPage, layout: Layout) -> RegisteredPage:
    """The page registered on its layout's paper size: the markers' best fit alone can take
    A4 for Letter on a far photo (a homography maps either frame's corners close enough).
    The markers found the first time are fitted again; the image is not searched again."""
    size = layout.page_of(page.page_index)
    if (size.w_mm, size.h_mm) == (page.page_w_mm, page.page_h_mm):
        return page
    log.info("%s: registered as %g x %g mm, its layout's paper is %g x %g mm: registered "
             "again", page.label, page.page_w_mm, page.page_h_mm, size.w_mm, size.h_mm)
    return register_on_paper(page, (size.w_mm, size.h_mm))


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
