"""The report of a sheet as the store has it now: verified cells, findings that wait for
review, the judge's rulings (an applied penalty in the settlement) and the sign-off."""

from __future__ import annotations

from pathlib import Path

from pulka.i18n import _
from pulka.report.judged import Judged
from pulka.report.model import SheetReport, build_report
from pulka.store.stored_sheet import StoredSheet


def stored_report(stored: StoredSheet, scan_dir: Path | None) -> SheetReport:
    """Build one stored sheet's report; ``scan_dir`` is the folder its image paths are
    relative to."""
    signed = stored.signoff
    judged = Judged(stored.doubts, stored.rulings,
                    "" if signed is None else _("signed off by {who} at {at}").format(
                        who=signed.who, at=signed.at))
    return build_report(dict(stored.record), stored.scan, scan_dir, name=stored.scan.sheet_id,
                        source=stored.scan_path or "the store", judged=judged)
