"""Import a batch into the store: images scanned on all cores, scan documents read back.

What a folder holds decides what is done with it (folders are walked recursively):

* a folder with a ``scan.json`` (``pulka-scan/1``, what ``pulka import --out`` writes for each
  sheet) is a scan already made: the document is imported, the folder's images are not
  scanned again;
* every other image (JPEG, PNG, TIFF, PDF) is scanned by :func:`scanner.pipeline.scan_paths`,
  the images of one folder together (the pages of one sheet must share a folder), folders
  spread over worker processes (``concurrent.futures``, *spawn*: OpenCV and ``fork`` do not
  mix). Only this process writes to the store, one transaction per sheet.

An image file whose content hash the store holds (every page of it in a sheet stored whole) is
skipped, so a re-run after an interruption, or after the next round, scans only what is new; a
page of a known sheet read from another image is reported, and replaces the old one (cells a
person verified keep their values). A file that cannot be read is
reported (one line) and the rest goes on; one the scanner refused is remembered
(:mod:`pulka.store.refused`) and not scanned again by the same reader while its folder holds
nothing new.

``PULKA_TEST_SLOW_IMPORT=SECONDS`` (for tests only) sleeps after each sheet is committed, so a
test can kill an import half-way.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from pulka.i18n import current_language, use_language
from pulka.notes import said
from pulka.report.said_text import SaidFormatter, log_line
from pulka.store.database import Store
from pulka.store.gate import held_reason, refusal, sheet_states
from pulka.store.hashes import file_hash, page_hash
from pulka.store.refused import forget_refused, refused_files, remember_refused
from pulka.store.schema import SheetState
from scanner import words as scan_words
from scanner.errors import ScanError, ScanFailure
from scanner.image.load import IMAGE_SUFFIXES
from scanner.results import SCAN_FORMAT, SheetScan, scan_json_path
from scoring.exitcode import ExitCode
from scoring.said import Said

log = logging.getLogger(__name__)

SCAN_DOCUMENT = "scan.json"
MAX_SCAN_DOCUMENT_BYTES = 64 * 1024 * 1024
"""Largest ``scan.json`` read (a sheet's is well under 1 MiB)."""
SLOW_ENV = "PULKA_TEST_SLOW_IMPORT"
IMPORT_FORMAT = "pulka-import/1"
Progress = Callable[[int, int, str], None]


@dataclass
class ImportReport:
    """What an import did."""

    sheets: int = 0
    states: dict[str, int] = field(default_factory=dict)
    skipped: int = 0
    """Images already in the store (their sheet complete)."""
    changed: list[str] = field(default_factory=list)
    """Pages stored before from another image, one line each."""
    failures: list[ScanFailure] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    """Sheets not stored (blank, another tournament, an id stored with another identity)."""
    notes: list[str] = field(default_factory=list)
    """What the store noticed (a printed name taken as the draw's), one line each."""
    held: dict[str, str] = field(default_factory=dict)
    """Sheets stored but not scored yet, by id: what to scan first."""
    seconds: float = 0.0

    @property
    def needs_review(self) -> bool:
        """Whether a person must look at something: a sheet needing review, or refused."""
        return bool(self.refused or self.states.get(SheetState.NEEDS_REVIEW)
                    or self.states.get(SheetState.AUDITED))

    def to_json(self) -> dict[str, Any]:
        """The ``pulka-import/1`` document ``pulka import --json`` prints."""
        return {"format": IMPORT_FORMAT, "sheets": self.sheets, "states": self.states,
                "skipped": self.skipped, "changed": self.changed, "refused": self.refused,
                "notes": self.notes, "held": self.held,
                "failures": [{"source": f.source, "message": f.message} for f in self.failures],
                "seconds": round(self.seconds, 3)}


@dataclass(frozen=True)
class Inputs:
    """The files of a batch, sorted into scan documents and images."""

    documents: list[Path]
    images: list[Path]


class ScanDocumentError(ScanError):
    """A ``scan.json`` that cannot be read or does not follow ``pulka-scan/1``."""

    default_advice = said("rescan_or_restore")


def read_scan_document(path: Path) -> SheetScan:
    """A ``scan.json`` read back, every field checked; :class:`ScanDocumentError` names the
    file and the field otherwise."""
    try:
        if path.stat().st_size > MAX_SCAN_DOCUMENT_BYTES:
            raise ScanDocumentError(said("document_too_big", limit=MAX_SCAN_DOCUMENT_BYTES),
                                    path, advice=scan_words.said("leave_out"))
        return SheetScan.from_json(json.loads(path.read_text(encoding="utf-8")))
    except OSError as error:
        raise ScanDocumentError(said("document_unread", error=error.strerror), path) from None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError) as error:
        problem = said("nested_too_deep") if isinstance(error, RecursionError) else str(error)
        raise ScanDocumentError(said("document_invalid", format=SCAN_FORMAT, problem=problem),
                                path) from None


def pipeline_available() -> bool:
    """Whether this pulka has the scan pipeline (``scanner.pipeline``)."""
    return importlib.util.find_spec("scanner.pipeline") is not None


def collect(paths: Sequence[Path], out_dir: Path | None = None) -> Inputs:
    """Scan documents and images named by ``paths`` (files, or folders walked).

    Raises FileNotFoundError naming a path that is not there.
    """
    documents: list[Path] = []
    images: list[Path] = []
    skip = out_dir.resolve() if out_dir is not None else None
    for path in paths:
        if path.is_file():
            (documents if path.suffix.lower() == ".json" else images).append(path)
            continue
        if not path.is_dir():
            raise FileNotFoundError(f"{path}: no such file or folder")
        for folder, subfolders, files in os.walk(path):
            here = Path(folder)
            subfolders.sort()
            if skip is not None and here.resolve() == skip:
                subfolders.clear()
                continue
            if SCAN_DOCUMENT in files:
                documents.append(here / SCAN_DOCUMENT)
                continue
            images += [here / f for f in sorted(files) if Path(f).suffix.lower() in IMAGE_SUFFIXES]
    return Inputs(documents, images)


def scan_group(paths: list[str], out_dir: str) -> list[dict[str, Any]]:
    """Scan one folder's images (in a worker process); outcomes as JSON-ready dicts."""
    from scanner.pipeline import scan_paths

    outcomes: list[dict[str, Any]] = []
    for outcome in scan_paths([Path(p) for p in paths], Path(out_dir)):
        if isinstance(outcome, SheetScan):
            where = scan_json_path(Path(out_dir), outcome)
            if not where.is_file():
                where.parent.mkdir(parents=True, exist_ok=True)
                where.write_text(json.dumps(outcome.to_json(), ensure_ascii=False),
                                 encoding="utf-8")
            outcomes.append({"scan": outcome.to_json(), "path": str(where)})
        else:
            outcomes.append({"failure": outcome})
    return outcomes


def _groups(images: list[Path]) -> list[list[Path]]:
    by_folder: dict[Path, list[Path]] = {}
    for image in images:
        by_folder.setdefault(image.parent, []).append(image)
    return list(by_folder.values())


def _worker_logging(level: int, language: str) -> None:
    """A worker logs as the command line set the parent up (``-v``, the language), to the
    same stderr."""
    use_language(language)
    handler = logging.StreamHandler()
    handler.setFormatter(SaidFormatter(log_line("import", level)))
    logging.basicConfig(level=level, handlers=[handler])


def _outcomes(groups: list[list[Path]], out_dir: Path, jobs: int
              ) -> Iterator[tuple[list[Path], list[dict[str, Any]] | BaseException]]:
    """Each group's outcomes as its scan finishes (any order with several jobs)."""
    if jobs <= 1 or len(groups) <= 1:
        for group in groups:
            try:
                yield group, scan_group([str(p) for p in group], str(out_dir))
            except Exception as error:  # noqa: BLE001 - one group's bug must not stop the batch
                yield group, error
        return
    level = logging.getLogger().getEffectiveLevel()
    with ProcessPoolExecutor(max_workers=min(jobs, len(groups)), mp_context=get_context("spawn"),
                             initializer=_worker_logging,
                             initargs=(level, current_language())) as pool:
        futures: dict[Future[list[dict[str, Any]]], list[Path]] = {
            pool.submit(scan_group, [str(p) for p in group], str(out_dir)): group
            for group in groups}
        for future in as_completed(futures):
            try:
                yield futures[future], future.result()
            except Exception as error:  # noqa: BLE001 - reported per file, the batch goes on
                yield futures[future], error


@dataclass(frozen=True)
class Admission:
    """Which sheets an import may store beyond the usual (``pulka import`` options)."""

    tournament: str | None = None
    """A tournament the store does not hold yet whose sheets may start it."""
    replace: bool = False
    """Store a sheet whose id the store holds with another identity in its place."""


def import_paths(store: Store, paths: Sequence[Path], out_dir: Path, jobs: int = 0,
                 rescan: bool = False, progress: Progress | None = None,
                 admission: Admission = Admission()) -> ImportReport:
    """Import every scan document and image under ``paths`` into ``store``.

    Without ``rescan``, an image file whose content the store already holds (every page of
    it in a sheet stored whole) is skipped, whatever its name or folder. Blank sheets, sheets
    of a tournament the store does not hold, and sheet ids stored with another identity are
    refused (:mod:`pulka.store.gate`), unless ``admission`` lets them in.
    """
    start = time.perf_counter()
    inputs = collect(paths, out_dir)
    report = ImportReport()
    if not rescan and inputs.images:
        inputs = Inputs(inputs.documents, _new_images(store, inputs.images, report))
    batch = _Batch(store, report, progress, len(inputs.documents) + len(inputs.images))
    batch.admission = admission
    for document in inputs.documents:
        try:
            batch.store(read_scan_document(document), document)
        except ScanDocumentError as error:
            report.failures.append(ScanFailure.of(error, document))
        batch.advance(1, str(document))
    if inputs.images:
        out_dir.mkdir(parents=True, exist_ok=True)
    for group, result in _outcomes(_groups(inputs.images), out_dir, jobs or os.cpu_count() or 1):
        batch.scanned(group, result)
    _final_states(store, batch.stored, report)
    report.seconds = time.perf_counter() - start
    return report


def _final_states(store: Store, stored: list[str], report: ImportReport) -> None:
    """The states of the sheets stored, and what holds them, once the whole batch is in
    (a continuation imported before its first sheet is held only until that comes)."""
    report.states = {}
    for state in sheet_states(store.conn, stored).values():
        report.states[state] = report.states.get(state, 0) + 1
    for sheet_id in dict.fromkeys(stored):
        held = held_reason(store.conn, sheet_id)
        if held is not None:
            report.held[sheet_id] = held


def _new_images(store: Store, images: list[Path], report: ImportReport) -> list[Path]:
    """The images whose content the store does not hold yet; one that is no regular file
    (a dangling link, a pipe) or cannot be read is reported and left out. A file this reader
    refused before is reported with its reason and left out too, unless its folder holds a new
    image (the pages of a sheet are read together: a new page may make it readable)."""
    known, refused = store.known_files(), refused_files(store.conn)
    fresh, again = [], []
    for path in images:
        digest = _readable_hash(path, report)
        if digest is None:
            continue
        if digest in known:
            report.skipped += 1
        elif digest in refused:
            again.append((path, refused[digest]))
        else:
            fresh.append(path)
    folders = {path.parent for path in fresh}
    for path, failure in again:
        if path.parent in folders:
            fresh.append(path)
        else:
            report.failures.append(ScanFailure(
                str(path), said("refused_before", text=failure.message), failure.exit_code))
    chosen = set(fresh)
    return [path for path in images if path in chosen]


def _readable_hash(path: Path, report: ImportReport) -> str | None:
    """The file's content hash, or ``None`` with the failure reported."""
    try:
        if not path.is_file():
            raise OSError(f"{path}: not a regular file (a dangling link, a pipe or a "
                          f"device); leave it out")
        return file_hash(path)
    except OSError as error:
        message = str(error) if error.strerror is None else \
            f"{path}: cannot be read ({error.strerror}); copy it again"
        report.failures.append(ScanFailure(str(path), message))
        return None


class _Batch:
    """One import's progress: what it stored, and what it reports."""

    def __init__(self, store: Store, report: ImportReport, progress: Progress | None,
                 total: int) -> None:
        self.store_ = store
        self.report = report
        self.progress = progress
        self.total = total
        self.done = 0
        self.slow = float(os.environ.get(SLOW_ENV) or 0)
        self.admission = Admission()
        self.stored: list[str] = []

    def store(self, scan: SheetScan, path: Path | str | None) -> None:
        """One sheet into the store, unless refused; a page seen before from another image,
        a printed name taken as the draw's and a sheet held are reported."""
        refused = refusal(self.store_.conn, scan, self.admission.tournament,
                          self.admission.replace)
        if refused is not None:
            self.report.refused.append(f"{scan.pages[0].source if scan.pages else path}: "
                                       f"{refused}")
            return
        for page in self.store_.changed_pages(scan):
            self.report.changed.append(
                f"{page.source}: sheet {scan.sheet_id} page {page.index + 1} was imported "
                f"before from another image; the new one replaces it (cells a person "
                f"verified are kept)")
        state = self.store_.import_scan(scan, path)
        forget_refused(self.store_.conn, [h for page in scan.pages
                                          if (h := page_hash(page, scan.sheet_id).file)])
        self.report.notes += self.store_.notes
        self.store_.notes.clear()
        self.stored.append(scan.sheet_id)
        self.report.sheets += 1
        log.info("%s: %s", scan.sheet_id, state)
        if self.slow:
            time.sleep(self.slow)

    def scanned(self, group: list[Path], result: list[dict[str, Any]] | BaseException) -> None:
        """One folder's scan outcomes: sheets stored, failures reported."""
        if isinstance(result, BaseException):
            log.debug("scan of %s failed", group[0].parent, exc_info=result)
            self.report.failures += [
                ScanFailure(str(p), f"the scan failed ({type(result).__name__}: {result}); "
                                    f"please report it with the file", ExitCode.INTERNAL)
                for p in group]
        else:
            for outcome in result:
                if "failure" in outcome:
                    self._refused(outcome["failure"])
                else:
                    self.store(SheetScan.from_json(outcome["scan"]), outcome["path"])
        self.advance(len(group), str(group[-1].parent))

    def _refused(self, failure: ScanFailure) -> None:
        """A file the scanner refused: reported, and remembered unless the scan failed."""
        self.report.failures.append(failure)
        path = _source_file(failure)
        if path.is_file() and failure.exit_code != ExitCode.INTERNAL:
            remember_refused(self.store_.conn, file_hash(path), path, failure)

    def advance(self, files: int, where: str) -> None:
        """Count files done and tell the progress bar."""
        self.done += files
        if self.progress:
            self.progress(self.done, self.total, where)


def _source_file(failure: ScanFailure) -> Path:
    """The image file a failure names."""
    named = failure.source.params.get("file") if isinstance(failure.source, Said) else None
    return Path(named if isinstance(named, str) else failure.source.partition("#")[0])
