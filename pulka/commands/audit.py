"""``pulka audit FILE [--json]``: check what the players wrote against the rules."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pulka.exitcodes import ExitCode, PulkaCommandError
from pulka.records import load_record
from pulka.text_report import columns_table, findings_text, settlement_text
from scoring import audit, expected_sheet, settle_record
from scoring.jsonio import audit_json

NAME = "audit"
HELP = "audit a game record's written columns against the rules (Codex 4.2.7)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka audit``."""
    parser.add_argument("file", type=Path, help="a pulka-record/1 JSON file with 'written'")
    parser.add_argument("--json", action="store_true", help="print pulka-audit/1 JSON")


def run(args: argparse.Namespace) -> ExitCode:
    """Exit 0 when everything written agrees, 1 with findings, 3 on bad input."""
    record = load_record(args.file)
    if record.written is None:
        raise PulkaCommandError(f"{args.file}: the record has no 'written' columns to audit; "
                                "use 'pulka settle' to settle it")
    sheet = expected_sheet(record)
    findings = audit(record, sheet)
    settlement = settle_record(record, sheet)
    if args.json:
        print(json.dumps(audit_json(findings, settlement, sheet), ensure_ascii=False))
    else:
        print(findings_text(findings))
        print()
        print(columns_table(record, sheet))
        print()
        print(settlement_text(settlement))
    return ExitCode.FINDINGS if findings else ExitCode.OK
