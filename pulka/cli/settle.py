"""``pulka settle FILE [--json]``: settle a game record (Codex 4.2.12-4.2.14)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pulka.i18n import N_, _
from pulka.records import load_record
from pulka.report.text import settlement_text, totals_text
from scoring import expected_sheet, settle_record
from scoring.exitcode import ExitCode
from scoring.jsonio import settlement_json

NAME = "settle"
HELP = N_("settle a pulka-record/1 game: columns, both Codex variants, rounded results")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka settle``."""
    parser.add_argument("file", type=Path, help=_("a pulka-record/1 JSON file"))
    parser.add_argument("--json", action="store_true",
                        help=_("print pulka-settlement/1 JSON instead of tables"))


def run(args: argparse.Namespace) -> ExitCode:
    """Settle the record; exit 0, or 3 when the file is not a valid record."""
    record = load_record(args.file)
    sheet = expected_sheet(record)
    settlement = settle_record(record, sheet)
    if args.json:
        print(json.dumps(settlement_json(settlement, sheet), ensure_ascii=False))
    else:
        print(totals_text(record, sheet))
        print()
        print(settlement_text(settlement))
    return ExitCode.OK
