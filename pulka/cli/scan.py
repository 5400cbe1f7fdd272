"""``pulka scan FILES... [--out DIR] [--json]``: read filled sheets into records.

Each sheet becomes ``OUT/<sheet id>/scan.json`` (``pulka-scan/1``: every field with its
status, confidence, candidates and crop) beside its straightened pages and field sheets, and
``OUT/<sheet id>/record.json`` (``pulka-record/1``, ready for ``pulka audit`` and
``pulka settle``), written by :mod:`scanner.output`; a sheet already there is kept, and the
new reading goes beside it in ``OUT/<sheet id>~2``. A file that cannot be read is named on
stderr with the reason, and the batch goes on; the summary line says how many sheets were
read and how many cells need a person.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from pulka.cli.progress import ProgressBar
from pulka.i18n import N_, _, ngettext
from pulka.report.said_text import said_text
from scanner.errors import ScanFailure
from scanner.pipeline import scan_paths
from scanner.results import RECORD_FILE, SheetScan, scan_folder
from scoring.exitcode import ExitCode

NAME = "scan"
HELP = N_("read filled sheets (JPEG, PNG, TIFF, PDF; files or folders) into game records")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka scan``."""
    parser.add_argument("files", nargs="+", type=Path, help=_("images, PDFs or folders"))
    parser.add_argument("--out", type=Path, default=Path("scans"),
                        help=_("output folder (default ./scans)"))
    parser.add_argument("--json", action="store_true",
                        help=_("print one pulka-scan/1 document per sheet (JSON lines)"))


def run(args: argparse.Namespace) -> ExitCode:
    """Exit 0 when every sheet was read with nothing doubtful, 1 with doubtful cells,
    5 when some files could not be read, 3 when none could."""
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    sheets: list[SheetScan] = []
    failures: list[ScanFailure] = []
    bar = ProgressBar("scan")

    def say(text: str) -> None:
        bar.close()
        print(text, file=sys.stderr)

    try:
        for outcome in scan_paths(args.files, args.out, bar.update):
            if isinstance(outcome, ScanFailure):
                failures.append(outcome)
                say(f"pulka scan: {said_text(outcome.message)}")
                continue
            sheets.append(outcome)
            record_path = args.out / scan_folder(outcome) / RECORD_FILE
            if args.json:
                print(json.dumps(outcome.to_json(), ensure_ascii=False))
            else:
                deals, doubts = len(outcome.record["deals"]), len(outcome.doubtful)
                say(f"{outcome.sheet_id}: "
                    + ngettext("{n} deal", "{n} deals", deals).format(n=deals) + ", "
                    + ngettext("{n} doubtful", "{n} doubtful", doubts).format(n=doubts)
                    + f", {outcome.seconds:.1f} s -> {record_path}")
            for problem in outcome.problems:
                say(f"pulka scan: {said_text(problem)}")
    finally:
        bar.close()
    doubtful = sum(len(s.doubtful) for s in sheets)
    print("pulka scan: " + ", ".join([
        ngettext("{n} sheet read", "{n} sheets read", len(sheets)).format(n=len(sheets)),
        ngettext("{n} cell doubtful", "{n} cells doubtful", doubtful).format(n=doubtful),
        ngettext("{n} file failed", "{n} files failed", len(failures)).format(n=len(failures)),
        f"{time.perf_counter() - start:.1f} s"]), file=sys.stderr)
    if failures:
        return ExitCode.PARTIAL if sheets else failures[0].exit_code
    return ExitCode.FINDINGS if doubtful else ExitCode.OK
