"""pulka.store.database: migrations, idempotent import, verified cells, transactions, summaries."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from pulka.store.database import Store
from pulka.store.errors import StoreError
from pulka.store.rebuild import parse_key, rebuild_record
from pulka.store.schema import SCHEMA_VERSION, SchemaTooNew, schema_version
from samplegen.scans import synthetic_sheet, synthetic_tournament
from scanner.results import FieldReading
from scoring import RuleSet

RULES = RuleSet.preset("sochi", 3, 10)
TABLES = ("tournaments", "rounds", "tables", "table_seats", "players", "sheets",
          "sheet_players", "pages", "cells", "findings", "settlements", "decisions")


def counts(store: Store) -> dict[str, int]:
    return {t: store.conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}


def test_migrations_from_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    path.touch()
    with Store(path) as store:
        assert schema_version(store.conn) == SCHEMA_VERSION
        names = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master "
                                                  "WHERE type = 'table'")}
        assert set(TABLES) <= names
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    with Store(path) as store:  # reopening migrates nothing
        assert schema_version(store.conn) == SCHEMA_VERSION


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(SchemaTooNew, match="update pulka"):
        Store(path)


def test_same_scan_twice_is_one_sheet(tmp_path: Path) -> None:
    sheet = synthetic_sheet(random.Random(1), RULES, "Open", 1, 1, ("X", "Y", "Z"),
                            tmp_path / "img", errors=2)
    with Store(tmp_path / "t.sqlite") as store:
        first = store.import_scan(sheet.scan)
        before = counts(store)
        assert store.import_scan(sheet.scan) == first
        assert counts(store) == before
        assert before["sheets"] == 1 and before["pages"] == 2
        assert before["cells"] == len(sheet.scan.fields)
        row = store.conn.execute("SELECT layout_id, rules_id, seats FROM sheets").fetchone()
        assert row == ("synthetic", RULES.id, "ABC")


def test_same_page_hash_is_not_duplicated(tmp_path: Path) -> None:
    sheet = synthetic_sheet(random.Random(2), RULES, "Open", 1, 1, ("X", "Y", "Z"),
                            tmp_path / "img")
    with Store(tmp_path / "t.sqlite") as store:
        store.import_scan(sheet.scan)
        files = store.known_files()
        assert len(files) == 2
        # a later scan of the same files, its pages listed in another order
        again = replace(sheet.scan, pages=tuple(reversed(sheet.scan.pages)))
        assert store.changed_pages(again) == []
        store.import_scan(again)
        assert store.known_files() == files
        assert counts(store)["pages"] == 2


def test_verified_cells_survive_reimport(tmp_path: Path) -> None:
    sheet = synthetic_sheet(random.Random(3), RULES, "Open", 1, 1, ("X", "Y", "Z"),
                            tmp_path / "img", doubtful=3)
    with Store(tmp_path / "t.sqlite") as store:
        assert store.import_scan(sheet.scan) == "needs_review"
        doubtful = sheet.scan.doubtful
        for cell in doubtful:
            state = store.verify_cell(sheet.scan.sheet_id, cell.key, cell.value, "judge")
        assert state in ("settled", "audited")
        key = next(f.key for f in sheet.scan.fields if f.kind == "entry")
        store.verify_cell(sheet.scan.sheet_id, key, 999, "judge")
        assert store.import_scan(sheet.scan) == "audited"  # the re-scan keeps 999
        value, verified, who = store.conn.execute(
            "SELECT value_json, verified, verified_by FROM cells WHERE key = ?",
            (key,)).fetchone()
        assert (value, verified, who) == ("999", 1, "judge")
        assert counts(store)["decisions"] == len(doubtful) + 1
        summary = store.sheet_summary(sheet.scan.sheet_id)
        assert not summary["doubtful"] and len(summary["verified"]) == len(doubtful) + 1
        assert any(f["written"] == "999" for f in summary["findings"])


def test_verify_cell_errors(tmp_path: Path) -> None:
    sheet = synthetic_sheet(random.Random(4), RULES, "", None, None, ("", "", ""))
    with Store(tmp_path / "t.sqlite") as store:
        store.import_scan(sheet.scan)
        with pytest.raises(StoreError, match="no cell"):
            store.verify_cell(sheet.scan.sheet_id, "row:999", None, "judge")
        with pytest.raises(StoreError, match="no sheet"):
            store.verify_cell("S-NOPE", "row:0", None, "judge")
        with pytest.raises(StoreError, match="name of who"):
            store.verify_cell(sheet.scan.sheet_id, "row:0", None, "")


def test_a_failed_import_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sheet = synthetic_sheet(random.Random(5), RULES, "Open", 1, 2, ("X", "Y", "Z"))

    def broken(conn: sqlite3.Connection, sheet_pk: int) -> str:
        raise RuntimeError("killed")

    with Store(tmp_path / "t.sqlite") as store:
        monkeypatch.setattr("pulka.store.database.refresh", broken)
        with pytest.raises(RuntimeError):
            store.import_scan(sheet.scan)
        assert counts(store) == dict.fromkeys(TABLES, 0)


def test_record_rebuilt_from_cells_is_the_scanned_record(tmp_path: Path) -> None:
    sheet = synthetic_sheet(random.Random(6), RULES, "Open", 1, 1, ("X", "Y", "Z"), errors=2)
    scan = sheet.scan
    doc = rebuild_record(scan.identity, scan.record, ((f.key, f.value) for f in scan.fields))
    assert doc["deals"] == scan.record["deals"]
    assert doc["written"] == scan.record["written"]
    assert doc["names"] == {"A": "X", "B": "Y", "C": "Z"}
    # without fields the scan's own record is used
    assert rebuild_record(scan.identity, scan.record, ())["written"] == scan.record["written"]


def test_parse_key_rejects_nonsense() -> None:
    assert parse_key("entry:B:mountain:4") == ("B", "mountain", None, 4)
    with pytest.raises(ValueError, match="neither"):
        parse_key("cell:1")


def test_a_record_the_rules_refuse_needs_review(tmp_path: Path) -> None:
    sheet = synthetic_sheet(random.Random(7), RULES, "Open", 1, 1, ("X", "Y", "Z"))
    bad = FieldReading("row:0", 1, (0, 0, 1, 1), "read", {"type": "contract",
                                                          "declarer": "Q"}, 0.99)
    scan = replace(sheet.scan, fields=(bad, *sheet.scan.fields[1:]))
    with Store(tmp_path / "t.sqlite") as store:
        assert store.import_scan(scan) == "needs_review"
        summary = store.sheet_summary(scan.sheet_id)
        assert summary["record_error"] and not summary["settlement"]


def test_missing_pages_need_review_until_scanned(tmp_path: Path) -> None:
    sheet = synthetic_sheet(random.Random(8), RULES, "Open", 1, 1, ("X", "Y", "Z"),
                            tmp_path / "img")
    first = replace(sheet.scan, pages=sheet.scan.pages[:1], missing_pages=(1,),
                    fields=tuple(f for f in sheet.scan.fields if f.page == 0))
    second = replace(sheet.scan, pages=sheet.scan.pages[1:], missing_pages=(0,),
                     fields=tuple(f for f in sheet.scan.fields if f.page == 1))
    with Store(tmp_path / "t.sqlite") as store:
        assert store.import_scan(first) == "needs_review"
        assert store.known_files() == set()  # the sheet is not whole yet
        assert store.import_scan(second) == "settled"  # page 0's cells were kept
        assert counts(store)["cells"] == len(sheet.scan.fields)
        assert len(store.known_files()) == 2


def test_tournament_draw_names_players(tmp_path: Path) -> None:
    draw, sheets = synthetic_tournament(random.Random(9), "Cup", rounds=1, tables=2)
    with Store(tmp_path / "t.sqlite") as store:
        store.new_tournament("Cup", 1, 2, [(r, t, "ABC", n) for r, t, n in draw])
        with pytest.raises(StoreError, match="already exists"):
            store.new_tournament("Cup")
        blank = replace(sheets[0].scan, identity={**sheets[0].scan.identity,
                                                  "names": ["", "", ""]})
        store.import_scan(blank)
        summary = store.sheet_summary(blank.sheet_id)
        assert tuple(summary["players"].values()) == draw[0][2]  # names from the draw
        assert counts(store)["tables"] == 2 and counts(store)["players"] == 6
        assert store.state_counts("Cup") == {summary["state"]: 1}
        assert store.sheet_ids() == [blank.sheet_id]
