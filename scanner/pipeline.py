"""The scan pipeline: files in, one :class:`~scanner.results.SheetScan` per sheet out.

Stages, each its own module: load (:mod:`scanner.image.load`), register
(:mod:`scanner.image.register`), identify (:mod:`scanner.image.identify`), read marks and
digits (:mod:`scanner.read`), decode with the rules (:mod:`scanner.decode.sheet`), write the
sheet's folder (:mod:`scanner.output`). A file or page that cannot be read becomes one
:class:`ScanFailure` naming it, and the batch goes on. Pages are kept in memory only until
their sheet is complete, so a folder of sheets scanned in order streams. A
:class:`~scanner.timing.StageClock` handed to :func:`scan_paths` gets the time of each stage.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2

from scanner.decode.sheet import decode_sheet
from scanner.digits.recognizer import DigitRecognizer
from scanner.errors import InternalError, ScanError, ScanFailure, UnreadableImage
from scanner.image.identify import IdentifiedPage, Identifier, SheetPages, assemble_sheets
from scanner.image.load import expand_paths, iter_file
from scanner.image.register import register
from scanner.output import SheetWriter
from scanner.read import read_sheet_pages, refuse_if_no_deal_read, sheet_evidence
from scanner.results import SheetScan
from scanner.timing import StageClock
from scanner.words import said

log = logging.getLogger(__name__)


ScanOutcome = SheetScan | ScanFailure
Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class ScanState:
    """What one scan holds for its length: the digit model, the writer of the sheets'
    folders (with its crop plans) and the clock the stages are timed on."""

    recognizer: DigitRecognizer
    writer: SheetWriter
    clock: StageClock
    identifier: Identifier


def scan_paths(paths: Sequence[str | Path], out_dir: Path,
               progress: Progress | None = None,
               clock: StageClock | None = None,
               recognizer: DigitRecognizer | None = None) -> Iterator[ScanOutcome]:
    """Scan every file named (folders and globs expanded) into a folder a sheet under
    ``out_dir`` (:class:`scanner.output.SheetWriter`); yield sheets and failures.

    ``clock`` gets the time of each stage (:data:`scanner.timing.STAGES`); ``recognizer`` is
    the digit model to read with (a new one by default; a caller scanning many batches may
    keep one)."""
    state = ScanState(recognizer or DigitRecognizer(), SheetWriter(out_dir),
                      clock or StageClock(), Identifier())
    files = expand_paths(paths)
    waiting: dict[str, list[IdentifiedPage]] = {}
    for number, path in enumerate(files, 1):
        if progress:
            progress(number, len(files), str(path))
        yield from _scan_file(path, waiting, state)
    for late in state.identifier.finish_held():
        if isinstance(late, ScanError):
            yield _failure(late, late.where())
        else:
            waiting.setdefault(late.sheet_id, []).append(late)
    yield from _complete_sheets(waiting, state, only_complete=False)


def _scan_file(path: Path, waiting: dict[str, list[IdentifiedPage]],
               state: ScanState) -> Iterator[ScanOutcome]:
    """Load, register and identify one file's pages, each on its own and decoded one at a
    time (a page's failure is one :class:`ScanFailure`, the next pages follow); read each
    sheet it completes."""
    clock = state.clock
    pages = iter_file(path)
    while True:
        with clock.stage("load"):
            page = next(pages, None)
        if page is None:
            return
        if isinstance(page, ScanError):
            yield _failure(page, page.where() or path)
            continue
        try:
            with clock.stage("register"):
                registered = register(page)
            with clock.stage("identify"):
                identified = state.identifier.identify_or_hold(registered)
                claimed = state.identifier.claim_held() if identified else []
        except ScanError as error:
            yield _failure(error, page.label)
            continue
        except (cv2.error, MemoryError) as error:
            reason = said("not_registered", error=type(error).__name__)
            yield _failure(UnreadableImage(reason, page.source, page.index_in_file), page.label)
            continue
        del page
        for found in ([identified] if identified else []) + claimed:
            waiting.setdefault(found.sheet_id, []).append(found)
        yield from _complete_sheets(waiting, state, only_complete=True)


def _complete_sheets(waiting: dict[str, list[IdentifiedPage]], state: ScanState,
                     only_complete: bool) -> Iterator[ScanOutcome]:
    """Read the sheets whose pages have all arrived (or, at the end, every sheet left). A
    sheet that meets a bug in pulka is one :class:`ScanFailure` naming its files (the
    traceback logged), and the other sheets are read."""
    for sheet_id in list(waiting):
        if only_complete and not _has_every_page(waiting[sheet_id]):
            continue
        sheets, errors = assemble_sheets(waiting.pop(sheet_id))
        for error in errors:
            yield _failure(error, str(error.source or sheet_id))
        for sheet in sheets:
            try:
                yield read_sheet(sheet, state)
            except ScanError as error:
                yield _failure(error, sheet.sheet_id)
            except Exception as error:  # a bug: this sheet is reported, the batch goes on
                log.exception("reading sheet %s", sheet.sheet_id)
                files = ", ".join(p.page.label for p in sheet.pages)
                yield _failure(InternalError(said("internal_error", error=type(error).__name__),
                                             files), sheet.sheet_id)


def _has_every_page(pages: list[IdentifiedPage]) -> bool:
    layout = next((p.layout for p in pages if p.layout is not None), None)
    return layout is not None and \
        {p.page.page_index for p in pages} >= {page.index for page in layout.pages}


def _failure(error: ScanError, source: str | Path) -> ScanFailure:
    """The failure yielded (its caller says it to the user: logged at info, not twice)."""
    log.info("%s", error)
    return ScanFailure.of(error, source)


def read_sheet(sheet: SheetPages, state: ScanState) -> SheetScan:
    """Read, decode and write out one sheet whose pages are identified."""
    clock = state.clock
    start = time.perf_counter()
    # each seat's calibration strip is on the triangle page, which adapts its own zones; the
    # deal column is kept by one scorer and read with the general model (scanner.read)
    readings, lost = read_sheet_pages(sheet, state.recognizer, clock=clock)
    with clock.stage("decode"):
        evidence = sheet_evidence(sheet.identity, sheet.layout, readings, lost)
        decoded = decode_sheet(evidence)
        refuse_if_no_deal_read(readings, lost, evidence, decoded)
    with clock.stage("output"):
        scan = state.writer.write(sheet, readings, decoded, start)
    log.info("%s: %d fields, %d doubtful, %.2f s", sheet.sheet_id, len(scan.fields),
             len(scan.doubtful), scan.seconds)
    return scan
