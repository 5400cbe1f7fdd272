"""The rules engine of pulka: score, close and settle a Preferans pulka exactly.

Pure Python, standard library only. The path of a game through it::

    record = parse_record(json.load(file))        # scoring.record
    sheet = expected_sheet(record)                 # scoring.sheet: running totals per column
    findings = audit(record, sheet)                # scoring.audit: what was written wrong
    settlement = settle_record(record, sheet)      # scoring.settlement: Codex 4.2.12-4.2.14
"""

from __future__ import annotations

from scoring.audit import Finding, audit
from scoring.columns import Column
from scoring.deals import Deal
from scoring.errors import (
    IllegalDealError,
    InvalidNotationError,
    RecordError,
    RuleSetError,
    ScoringError,
)
from scoring.record import GameRecord, parse_record, record_problems
from scoring.rules import RuleSet
from scoring.settlement import Settlement, settle
from scoring.sheet import ExpectedSheet, SheetEntry, expected_sheet

__all__ = [
    "Column", "Deal", "ExpectedSheet", "Finding", "GameRecord", "IllegalDealError",
    "InvalidNotationError", "RecordError", "RuleSet", "RuleSetError", "ScoringError",
    "Settlement", "SheetEntry", "audit", "expected_sheet", "parse_record", "record_problems",
    "settle", "settle_record",
]


def settle_record(record: GameRecord, sheet: ExpectedSheet | None = None) -> Settlement:
    """Settle a game from its deal log: the columns as written during play (RECORD.md)."""
    sheet = sheet or expected_sheet(record)
    rules = record.rules
    return settle(record.seats, sheet.totals, rules.pool_point_whists, rules.stake)
