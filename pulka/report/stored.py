"""The report of a sheet as the store has it now: verified cells, findings that wait for
review, the judge's rulings (an applied penalty in the settlement) and the sign-off."""

from __future__ import annotations

import logging
from pathlib import Path

from forms.layout import layout_by_id
from pulka.report.model import Judged, SheetReport, build_report
from pulka.store.stored_sheet import StoredSheet
from scanner.results import SheetScan

log = logging.getLogger(__name__)


def stored_report(stored: StoredSheet, scan_dir: Path | None) -> SheetReport:
    """Build one stored sheet's report; ``scan_dir`` is the folder its image paths are
    relative to. A sheet of a layout this pulka does not print is drawn as written."""
    signed = stored.signoff
    scan: SheetScan | None = stored.scan
    try:
        layout_by_id(stored.scan.layout_id)
    except KeyError:
        log.warning("sheet %s: layout %s unknown here; the report draws the sheet as written",
                    stored.scan.sheet_id, stored.scan.layout_id)
        scan = None
    judged = Judged(stored.doubts, stored.rulings,
                    "" if signed is None else f"signed off by {signed.who} at {signed.at}")
    return build_report(dict(stored.record), scan, scan_dir, name=stored.scan.sheet_id,
                        source=stored.scan_path or "the store", judged=judged)
