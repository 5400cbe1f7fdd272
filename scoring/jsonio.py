"""JSON at the boundary: ``pulka-settlement/1`` and audit findings (RECORD.md).

>>> from fractions import Fraction
>>> fraction_json(Fraction(-122, 3)), fraction_json(Fraction(4))
('-122/3', '4')
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from scoring.audit import Finding
from scoring.columns import Column
from scoring.said import said_json
from scoring.settlement import Settlement
from scoring.sheet import ExpectedSheet

SETTLEMENT_FORMAT = "pulka-settlement/1"
AUDIT_FORMAT = "pulka-audit/1"


def fraction_json(value: Fraction) -> str:
    """An exact rational as RECORD.md writes it: an integer, or ``p/q`` in lowest terms
    (which is how :class:`~fractions.Fraction` prints itself)."""
    return str(value)


def number_json(value: Fraction) -> int | str:
    """A column total: a JSON integer when whole, else the ``p/q`` string."""
    return value.numerator if value.denominator == 1 else fraction_json(value)


def columns_json(seats: tuple[str, ...], totals: dict[Column, Fraction]) -> dict[str, Any]:
    """Final totals per seat: ``{"A": {"pool": 2, "mountain": 3, "whists": {"B": 0}}}``."""
    return {seat: {"pool": number_json(totals.get(Column(seat, "pool"), Fraction(0))),
                   "mountain": number_json(totals.get(Column(seat, "mountain"), Fraction(0))),
                   "whists": {other: number_json(totals.get(Column(seat, "whists", other),
                                                            Fraction(0)))
                              for other in seats if other != seat}}
            for seat in seats}


def settlement_json(settlement: Settlement, sheet: ExpectedSheet) -> dict[str, Any]:
    """The ``pulka-settlement/1`` document (RECORD.md), with the project's extra fields."""
    seats = settlement.seats
    doc: dict[str, Any] = {
        "format": SETTLEMENT_FORMAT,
        "columns": columns_json(seats, settlement.columns),
        "result": {s: fraction_json(settlement.result[s]) for s in seats},
        "rounded": dict(settlement.rounded),
        "codex_integer": dict(settlement.codex_integer),
        "finished": sheet.finished,
    }
    if settlement.money is not None:
        doc["money"] = {s: fraction_json(settlement.money[s]) for s in seats}
    if sheet.warnings:
        doc["warnings"] = list(sheet.warnings)
    return doc


def finding_json(finding: Finding) -> dict[str, Any]:
    """One audit finding as JSON."""
    column = finding.column
    return {
        "kind": finding.kind, "deal": finding.deal, "seat": column.seat,
        "column": column.kind, "on": column.on, "entry": finding.entry,
        "written": None if finding.written is None else number_json(finding.written),
        "expected": None if finding.expected is None else number_json(finding.expected),
        "rule": finding.rule, "penalty": finding.penalty, "note": finding.note,
        "message": str(finding), "note_code": finding.note_code,
        "note_args": [said_json(arg) for arg in finding.note_args],
    }


def audit_json(findings: list[Finding], settlement: Settlement,
               sheet: ExpectedSheet) -> dict[str, Any]:
    """``pulka-audit/1``: the findings, the expected sheet and the settlement."""
    return {
        "format": AUDIT_FORMAT,
        "findings": [finding_json(f) for f in findings],
        "expected": [{"deal": e.deal, "seat": e.column.seat, "column": e.column.kind,
                      "on": e.column.on, "amount": number_json(e.amount),
                      "total": number_json(e.total), "reasons": list(e.reasons),
                      "reason_codes": [said_json(r) for r in e.reasons]}
                     for e in sheet.entries],
        "settlement": settlement_json(settlement, sheet),
    }
