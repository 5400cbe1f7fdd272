"""Import a batch into the store: images scanned on all cores, scan documents read back.

What a folder holds decides what is done with it (folders are walked recursively):

* a folder with a ``scan.json`` (``pulka-scan/1``, what ``pulka import --out`` writes for each
  sheet) is a scan already made: the document is imported, the folder's images are not
  scanned again;
* every other image (JPEG, PNG, TIFF, PDF) is scanned by :func:`scanner.pipeline.scan_paths`,
  the images of one folder together (the pages of one sheet must share a folder), folders
  spread over worker processes (``concurrent.futures``, *spawn*: OpenCV and ``fork`` do not
  mix). Only this process writes to the store, one transaction per sheet.

An image whose content hash is already stored for a sheet with no page missing is skipped, so
a re-run after an interruption scans only what is left. A file that cannot be read is
reported (one line) and the rest goes on.

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

from pulka.store.database import Store, file_hash
from scanner.results import SCAN_FORMAT, SheetScan, scan_json_path

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".tif", ".tiff", ".pdf")
SCAN_DOCUMENT = "scan.json"
SLOW_ENV = "PULKA_TEST_SLOW_IMPORT"
Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class Failure:
    """A file that could not be read: one line for the user."""

    source: str
    message: str
    exit_code_name: str = "BAD_INPUT"


@dataclass
class ImportReport:
    """What an import did."""

    sheets: int = 0
    states: dict[str, int] = field(default_factory=dict)
    skipped: int = 0
    """Images already in the store (their sheet complete)."""
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0


@dataclass(frozen=True)
class Inputs:
    """The files of a batch, sorted into scan documents and images."""

    documents: list[Path]
    images: list[Path]


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
            outcomes.append({"failure": [outcome.source, outcome.message,
                                         outcome.exit_code_name]})
    return outcomes


def _groups(images: list[Path]) -> list[list[Path]]:
    by_folder: dict[Path, list[Path]] = {}
    for image in images:
        by_folder.setdefault(image.parent, []).append(image)
    return list(by_folder.values())


def _worker_logging(level: int) -> None:
    """A worker logs as the command line set the parent up (``-v``), to the same stderr."""
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")


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
                             initializer=_worker_logging, initargs=(level,)) as pool:
        futures: dict[Future[list[dict[str, Any]]], list[Path]] = {
            pool.submit(scan_group, [str(p) for p in group], str(out_dir)): group
            for group in groups}
        for future in as_completed(futures):
            try:
                yield futures[future], future.result()
            except Exception as error:  # noqa: BLE001 - reported per file, the batch goes on
                yield futures[future], error


def import_paths(store: Store, paths: Sequence[Path], out_dir: Path, jobs: int = 0,
                 rescan: bool = False, progress: Progress | None = None) -> ImportReport:
    """Import every scan document and image under ``paths`` into ``store``."""
    start = time.perf_counter()
    inputs = collect(paths, out_dir)
    report = ImportReport()
    if not rescan and inputs.images:
        known = store.known_page_hashes()
        fresh = [p for p in inputs.images if file_hash(p) not in known]
        report.skipped = len(inputs.images) - len(fresh)
        inputs = Inputs(inputs.documents, fresh)
    total = len(inputs.documents) + len(inputs.images)
    done = 0
    slow = float(os.environ.get(SLOW_ENV) or 0)

    def stored(scan: SheetScan, path: Path | str | None) -> None:
        state = store.import_scan(scan, path)
        report.sheets += 1
        report.states[state] = report.states.get(state, 0) + 1
        log.info("%s: %s", scan.sheet_id, state)
        if slow:
            time.sleep(slow)

    for document in inputs.documents:
        try:
            doc = json.loads(document.read_text(encoding="utf-8"))
            scan = SheetScan.from_json(doc)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, ValueError, KeyError,
                TypeError) as error:
            report.failures.append(Failure(str(document), f"not a readable {SCAN_FORMAT} "
                                           f"document ({error})"))
        else:
            stored(scan, document)
        done += 1
        if progress:
            progress(done, total, str(document))
    if inputs.images:
        out_dir.mkdir(parents=True, exist_ok=True)
    for group, result in _outcomes(_groups(inputs.images), out_dir, jobs or os.cpu_count() or 1):
        if isinstance(result, BaseException):
            log.debug("scan of %s failed", group[0].parent, exc_info=result)
            report.failures += [Failure(str(p), f"the scan failed ({type(result).__name__}: "
                                        f"{result}); please report it with the file",
                                        "INTERNAL") for p in group]
        else:
            for outcome in result:
                if "failure" in outcome:
                    report.failures.append(Failure(*outcome["failure"]))
                else:
                    stored(SheetScan.from_json(outcome["scan"]), outcome["path"])
        done += len(group)
        if progress:
            progress(done, total, str(group[-1].parent))
    report.seconds = time.perf_counter() - start
    return report
