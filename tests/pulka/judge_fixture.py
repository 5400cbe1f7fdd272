"""A stored sheet for the judge's tests: one doubtful deal row read wrong (a 9 read as 3)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from pulka.store.database import Store
from samplegen.scans import synthetic_sheet
from scanner.results import CellStatus
from scoring import RuleSet

RULES = RuleSet.preset("sochi", 3, 10)
ROW = "row:5"
"""Seed 6's sixth deal: C's 9♦ whisted by A, C taking 9 tricks (read as 3, A's 0 as 6)."""


def misread_row(tmp_path: Path) -> tuple[Path, str, dict[str, Any], dict[str, Any]]:
    """A store with one sheet whose deal row 6 is doubtful and read wrong (a 9 read as 3):
    the store's path, the sheet id, the row as read and as written."""
    sheet = synthetic_sheet(random.Random(6), RULES, "Open", 1, 1, ("Ann", "Bob", "Cy"))
    fields = list(sheet.scan.fields)
    (index,) = [i for i, f in enumerate(fields) if f.key == ROW]
    true = fields[index].value
    assert true["tricks"] == {"A": 0, "B": 1, "C": 9}
    read = {**true, "tricks": {"A": 6, "B": 1, "C": 3}}
    fields[index] = replace(fields[index], status=CellStatus.DOUBTFUL, value=read,
                            confidence=0.55, candidates=((read, 0.55), (true, 0.4)))
    path = tmp_path / "t.sqlite"
    with Store(path) as store:
        store.import_scan(replace(sheet.scan, fields=tuple(fields)))
    return path, sheet.scan.sheet_id, read, true
