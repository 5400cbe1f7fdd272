"""``pulka audit FILE... [--json] [--html DIR] [--pdf DIR] [--report DIR]``.

Check what the players wrote against the rules. A FILE is a game record (``pulka-record/1``)
or a scanned sheet (``pulka-scan/1``, the ``scan.json`` that ``pulka scan --out DIR`` writes).
Text or JSON goes to stdout as before; ``--html``/``--pdf`` also write an audit report per
sheet for people (``--report DIR`` writes both), named by the sheet id or the file name.

A scanned sheet's finding that rests on a doubtful field waits for a person: it is marked
so (``status`` ``waits_for_review`` in the JSON, ``error`` otherwise) and carries no penalty
until then, as the store, ``pulka show`` and the report say it.

Exit 0 when everything written agrees, 1 with findings, 3 on bad input.
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pulka.errors import PulkaCommandError
from pulka.i18n import N_, _
from pulka.records import load_json_file, load_record
from pulka.report.finding_text import findings_text
from pulka.report.text import settlement_text, totals_text
from pulka.store.doubts import scan_doubts
from pulka.store.refresh import judged_findings
from pulka.store.schema import FindingStatus
from scoring import GameRecord, RecordError, audit, expected_sheet, parse_record, settle_record
from scoring.exitcode import ExitCode
from scoring.jsonio import audit_json
from scoring.rulings import Doubts

NAME = "audit"
HELP = N_("audit game records or scanned sheets against the rules (Codex 4.2.7); write reports")

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka audit``."""
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE",
                        help=_("a pulka-record/1 JSON file with 'written', or a pulka-scan/1 "
                             "scan.json"))
    parser.add_argument("--json", action="store_true",
                        help=_("print pulka-audit/1 JSON (one line per file)"))
    parser.add_argument("--html", type=Path, metavar="DIR",
                        help=_("write a self-contained HTML report per sheet into DIR"))
    parser.add_argument("--pdf", type=Path, metavar="DIR",
                        help=_("write a PDF report per sheet into DIR"))
    parser.add_argument("--report", type=Path, metavar="DIR",
                        help=_("write both the HTML and the PDF report into DIR"))


@dataclass(frozen=True)
class _Input:
    path: Path
    doc: dict[str, Any]
    """The record document (a scan's decoded record for a scan)."""
    record: GameRecord
    scan: Any = None
    """The :class:`scanner.results.SheetScan`, for a scan."""

    def doubts(self) -> Doubts:
        """The scan's doubtful fields (none for a record): a finding that rests on one waits
        for a person, its penalty not yet given (:func:`scoring.rulings.rests_on`), as the
        store and the report say it."""
        return Doubts() if self.scan is None else scan_doubts(self.scan.fields)


def run(args: argparse.Namespace) -> ExitCode:
    """Read every file first (a bad one stops before any work), then audit each."""
    inputs = [_load(path) for path in args.files]
    html_dir = args.html or args.report
    pdf_dir = args.pdf or args.report
    any_findings = False
    for number, item in enumerate(inputs):
        record = item.record
        sheet = expected_sheet(record)
        judged = judged_findings(audit(record, sheet), item.doubts())
        findings = [finding for finding, _status in judged]
        settlement = settle_record(record, sheet)
        any_findings = any_findings or bool(findings)
        if args.json:
            doc = audit_json(findings, settlement, sheet)
            for row, (_finding, status) in zip(doc["findings"], judged, strict=True):
                row["status"] = status.value
            print(json.dumps(doc, ensure_ascii=False))
        else:
            if len(inputs) > 1:
                print(("\n" if number else "") + f"== {item.path} ==")
            print(findings_text(findings, [status is FindingStatus.WAITS
                                           for _finding, status in judged]))
            print()
            print(totals_text(record, sheet))
            print()
            print(settlement_text(settlement))
        if html_dir is not None or pdf_dir is not None:
            _write_report(item, html_dir, pdf_dir)
    return ExitCode.FINDINGS if any_findings else ExitCode.OK


def _load(path: Path) -> _Input:
    doc = load_json_file(path)
    scan = None
    if isinstance(doc, dict) and doc.get("format") == "pulka-scan/1":
        from scanner.results import SheetScan

        try:
            scan = SheetScan.from_json(doc)
            record = parse_record(scan.record)
        except (KeyError, TypeError, ValueError) as error:
            message = str(error) if isinstance(error, RecordError) else \
                _("not a readable {format} document ({error})").format(
                    format="pulka-scan/1", error=error)
            raise PulkaCommandError(f"{path}: {message}", ExitCode.BAD_INPUT) from None
        doc = scan.record
    else:
        record = load_record(path)
    if record.written is None:
        raise PulkaCommandError(_("{file}: the record has no 'written' columns to audit; use "
                                  "'pulka settle' to settle it").format(file=path))
    return _Input(path, doc, record, scan)


def _write_report(item: _Input, html_dir: Path | None, pdf_dir: Path | None) -> None:
    from pulka.report import build_report, report_stem, write_html, write_pdf

    start = time.perf_counter()
    scan = item.scan
    name = scan.sheet_id if scan is not None else item.path.stem
    report = build_report(item.doc, scan, item.path.parent if scan is not None else None,
                          name=name, source=str(item.path))
    stem = report_stem(report.name)
    for folder, write, suffix in ((html_dir, write_html, "html"), (pdf_dir, write_pdf, "pdf")):
        if folder is None:
            continue
        try:
            folder.mkdir(parents=True, exist_ok=True)
            written = write(report, folder / f"{stem}.{suffix}")
        except OSError as error:
            raise PulkaCommandError(_("{folder}: cannot write the report ({reason})").format(
                folder=folder, reason=error.strerror),
                                    ExitCode.BAD_ARGS) from None
        log.info("%s: report %s", item.path, written)
    log.info("%s: report in %.2f s", item.path, time.perf_counter() - start)
