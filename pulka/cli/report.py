"""``pulka report [SHEET...] --out DIR [--db FILE]``: audit reports rebuilt from the store.

Each sheet's HTML and PDF report as the store has it now: the cells a person verified, the
findings that wait for review, the judge's rulings (an applied penalty in the settlement) and
the sign-off. With no SHEET, every sheet of the store. ``pulka audit`` reports on a
``scan.json`` as scanned; this one on the sheet after review.

Example::

    pulka report R2-T07-3F9A1C --out reports/
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from pulka.cli.store_options import add_db_argument, open_store
from pulka.errors import PulkaCommandError
from pulka.i18n import N_, _
from pulka.report import report_stem, write_html, write_pdf
from pulka.report.stored import stored_report
from pulka.review.files import scan_root
from pulka.store.stored_sheet import stored_sheet
from scoring.exitcode import ExitCode

NAME = "report"
HELP = N_("write each stored sheet's HTML and PDF report as the store has it now (after review)")

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka report``."""
    parser.add_argument("sheets", nargs="*", metavar="SHEET",
                        help=_("sheet ids (default: every sheet in the store)"))
    parser.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help=_("the folder the reports go to (<sheet id>.html and .pdf)"))
    add_db_argument(parser)


def run(args: argparse.Namespace) -> ExitCode:
    """Read every named sheet first (an unknown one stops before any work), then write."""
    with open_store(args.db, create=False) as store:
        ids = [s.strip().upper() for s in args.sheets] or store.sheet_ids()
        sheets = [stored_sheet(store, sheet_id) for sheet_id in ids]
    if not sheets:
        raise PulkaCommandError(_("{db} has no sheets yet; `pulka import` them first").format(
            db=args.db),
                                ExitCode.BAD_ARGS)
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        for stored in sheets:
            report = stored_report(stored, scan_root(stored.scan_path, args.db))
            stem = report_stem(report.name)
            write_html(report, args.out / f"{stem}.html")
            write_pdf(report, args.out / f"{stem}.pdf")
            print(f"{stored.scan.sheet_id}: {args.out / stem}.html, .pdf")
    except OSError as error:
        raise PulkaCommandError(_("{folder}: cannot write the reports ({reason})").format(
            folder=args.out, reason=error.strerror),
                                ExitCode.BAD_ARGS) from None
    return ExitCode.OK
