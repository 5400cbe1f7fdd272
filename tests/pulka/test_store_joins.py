"""Continuation sheets joined into one game before the rules engine, and games held for a page
or a sheet not scanned (pulka.store.joins)."""

from __future__ import annotations

import random
from pathlib import Path

from day_sheets import split_game, without_page

from pulka.store.database import Store
from samplegen.scans import synthetic_sheet
from scoring.rules import RuleSet

RULES = RuleSet.preset("sochi", 3, 10)
NAMES = ("Anna", "Boris", "Clara")


def settlement(store: Store, sheet_id: str) -> dict[str, str]:
    return {seat: v["result"] for seat, v in store.sheet_summary(sheet_id)["settlement"].items()}


def test_a_game_on_two_sheets_is_settled_once_whatever_the_order(tmp_path: Path) -> None:
    whole = synthetic_sheet(random.Random(31), RULES, "Open", 1, 1, NAMES).scan
    first, second = split_game(whole)
    with Store(tmp_path / "whole.sqlite") as store:
        assert store.import_scan(whole) == "settled"
        expected = settlement(store, whole.sheet_id)
        deals = store.sheet_summary(whole.sheet_id)["deals"]
    with Store(tmp_path / "t.sqlite") as store:
        # the continuation first: held until its first sheet comes
        assert store.import_scan(second) == "needs_review"
        summary = store.sheet_summary(second.sheet_id)
        assert summary["held"] == f"scan sheet {whole.sheet_id} (not imported)"
        assert not summary["settlement"] and not summary["findings"]
        assert store.import_scan(first) == "settled"
        joined = store.sheet_summary(first.sheet_id)
        assert joined["game"] == [first.sheet_id, second.sheet_id]
        assert joined["deals"] == deals and settlement(store, first.sheet_id) == expected
        assert store.sheet_summary(second.sheet_id)["state"] == "settled"
        assert not store.sheet_summary(second.sheet_id)["settlement"]
        rows = store.standings_rows("Open").results
        assert len(rows) == 3  # one sheet's seats: the long game counts once


def test_a_sheet_missing_a_page_is_held_not_audited_then_completed(tmp_path: Path) -> None:
    scan = synthetic_sheet(random.Random(32), RULES, "Open", 1, 1, NAMES, errors=0).scan
    with Store(tmp_path / "t.sqlite") as store:
        assert store.import_scan(without_page(scan, 1)) == "needs_review"
        summary = store.sheet_summary(scan.sheet_id)
        assert summary["held"] == f"scan page 2 of sheet {scan.sheet_id}"
        assert summary["findings"] == [] and summary["settlement"] == {}
        assert store.import_scan(scan) == "settled"
        assert store.sheet_summary(scan.sheet_id)["held"] is None
