"""Golden cases from the seeds and RULES.md §10, one JSON file each (tests/data/cases)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from scoring import audit, expected_sheet, parse_record, settle_record
from scoring.jsonio import columns_json

CASES = sorted((Path(__file__).parent.parent / "data" / "cases").glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    record = parse_record(case["record"])
    sheet = expected_sheet(record)
    settlement = settle_record(record, sheet)
    expect = case["expect"]
    if "result" in expect:
        assert {s: str(v) for s, v in settlement.result.items()} == \
            {s: str(Fraction(v)) for s, v in expect["result"].items()}, case["source"]
    if "columns" in expect:
        assert columns_json(record.seats, sheet.totals) == expect["columns"], case["source"]
    if "rounded" in expect:
        assert settlement.rounded == expect["rounded"]
    if "codex_integer" in expect:
        assert settlement.codex_integer == expect["codex_integer"]
    if record.written is not None:
        assert [str(f) for f in audit(record, sheet)] == expect.get("findings", [])


def test_there_are_cases() -> None:
    assert len(CASES) >= 30
