"""A person's decision decodes the sheet's other entries again (pulka.store.redecode).

The sheet: a random game, its columns read from synthetic ink (:mod:`tests.scanner.evidence`)
and decoded against a deal log with one row misread (a contract one level off). The entry the
misread deal feeds is written with a digit the ink leaves unsure, so against the misread deal
it is doubtful; once a person corrects the row, the rules expect the true value, and the entry
becomes read without anyone touching it.
"""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pulka.store import review as review_store
from pulka.store.database import Store
from pulka.store.redecode import redecode_sheet
from pulka.store.schema import MIGRATIONS, SCHEMA_VERSION, schema_version
from scanner.decode.columns import decode_column
from scanner.decode.past_pool import column_ceiling
from scanner.decode.redecode import expected_for
from scanner.results import FieldReading, SheetScan, entry_key, row_key
from scanner.words import said
from scoring import RuleSet, expected_sheet, parse_record
from scoring.columns import Column
from scoring.random_games import random_record, written_columns
from tests.scanner.evidence import entry_cells, sheet_evidence

RULES = RuleSet.preset("sochi", 3, 20)
SEATS = ("A", "B", "C")


def _misread(deal: dict[str, Any]) -> dict[str, Any] | None:
    """The deal with its contract one level lower (the declarer still makes it), if any."""
    contract = deal.get("contract", "")
    if deal.get("type") != "contract" or not contract[:1].isdigit() or contract[0] == "6":
        return None
    return {**deal, "contract": str(int(contract[0]) - 1) + contract[1:]}


def _case() -> tuple[dict[str, Any], int, dict[str, Any], tuple[str, str, str | None], int]:
    """A game, the row misread, the misread deal, the column and entry the deal feeds."""
    for seed in range(200):
        doc = random_record(RULES, random.Random(seed))
        true_sheet = expected_sheet(parse_record(doc))
        for k, deal in enumerate(doc["deals"]):
            wrong = _misread(deal)
            if wrong is None:
                continue
            deals = [*doc["deals"][:k], wrong, *doc["deals"][k + 1:]]
            wrong_sheet = expected_for(deals, RULES, SEATS)
            if wrong_sheet is None:
                continue
            for column in true_sheet.totals:
                ours = [e for e in true_sheet.column(column) if e.deal is not None]
                theirs = [e for e in wrong_sheet.column(column) if e.deal is not None]
                n = next((i for i, e in enumerate(ours) if e.deal == k + 1), None)
                if n is None or len(ours) != len(theirs) or n + 1 >= len(ours) \
                        or ours[n].total == theirs[n].total or ours[n].total < 10 \
                        or any(e.total.denominator != 1 for e in ours):
                    continue
                doc["written"] = written_columns(true_sheet)
                return doc, k, wrong, column, n
    raise AssertionError("no game with a deal to misread")


def _scan(doc: dict[str, Any], k: int, wrong: dict[str, Any], column: Any, n: int) -> SheetScan:
    """The scan of the sheet with row ``k`` misread as ``wrong`` (doubtful)."""
    evidence = sheet_evidence(doc, sure=0.999)
    true = int(expected_sheet(parse_record(doc)).column(column)[n].total)
    wrong_digit = (true % 10 + 3) % 10
    cells = list(evidence.columns[column])
    cells[n] = entry_cells(true, 3, sure=0.999, confuse={2: wrong_digit})  # 60:40 wrong
    columns = {**evidence.columns, column: tuple(cells)}
    deals = [*doc["deals"][:k], wrong, *doc["deals"][k + 1:]]
    sheet = expected_for(deals, RULES, SEATS)
    assert sheet is not None
    fields = []
    for (seat, kind, on), entries in columns.items():
        column_of = Column(seat, kind, on)
        for index, d in enumerate(decode_column(entries, sheet.column(column_of),
                                                column_ceiling(column_of, RULES))):
            if d.status != "empty":
                fields.append(FieldReading(
                    entry_key(seat, kind, on, index), 0, (0.0, 0.0, 8.0, 5.0), d.status,
                    d.value, round(d.confidence, 6),
                    tuple((v, round(p, 6)) for v, p in d.candidates), d.expected, d.deal,
                    d.note, None, tuple((v, float(f"{p:.6g}")) for v, p in d.ink)))
    for row, deal in enumerate(deals):
        doubtful = row == k
        fields.append(FieldReading(
            row_key(row), 1, (10.0, 20.0 + 5 * row, 100.0, 5.0),
            "doubtful" if doubtful else "read", deal, 0.55 if doubtful else 0.999,
            ((wrong, 0.55), (doc["deals"][k], 0.45)) if doubtful else (), None, row + 1))
    identity = {"sheet_id": "S-REDECODE", "tournament": "Open", "round": 1, "table": 1,
                "page": 0, "continuation": 0, "layout_id": "synthetic",
                "rules_id": RULES.id, "rules": RULES.settings(), "seats": list(SEATS),
                "names": ["X", "Y", "Z"], "date": ""}
    record = {"format": "pulka-record/1", "rules": RULES.settings(), "seats": list(SEATS),
              "deals": deals}
    return SheetScan("S-REDECODE", identity, "synthetic", (), tuple(fields), record)


@pytest.fixture(scope="module")
def case() -> tuple[dict[str, Any], int, dict[str, Any], Any, int, SheetScan]:
    doc, k, wrong, column, n = _case()
    return doc, k, wrong, column, n, _scan(doc, k, wrong, column, n)


def cells(store: Store) -> dict[str, tuple[Any, ...]]:
    """key -> (value, status, confidence, candidates, expected, deal, note, verified,
    verified by, verified at); probabilities to 4 places (a decoding from the kept ink, which
    is rounded, may come back a millionth off)."""
    return {r[0]: (json.loads(r[1]), r[2], round(r[3], 4),
                   [[v, round(p, 4)] for v, p in json.loads(r[4])], json.loads(r[5]), r[6],
                   r[7], r[8], r[9], r[10])
            for r in store.conn.execute(
                "SELECT key, value_json, status, confidence, candidates_json, expected_json, "
                "deal, note, verified, verified_by, verified_at FROM cells")}


def test_correcting_a_deal_row_decodes_the_entry_it_feeds(tmp_path: Path, case: Any) -> None:
    doc, k, wrong, column, n, scan = case
    target = entry_key(*column, n)
    true = int(expected_sheet(parse_record(doc)).column(column)[n].total)
    with Store(tmp_path / "t.sqlite") as store:
        store.import_scan(scan)
        before = cells(store)
        # against the misread deal the entry is doubtful (its value may already be right: the
        # column's later entries weigh on it)
        assert before[target][1] == "doubtful"
        assert redecode_sheet(store.conn, 1) == 0  # the scan's own decoding, from its ink

        state = review_store.decide(store, scan.sheet_id, row_key(k), doc["deals"][k], "anna")
        after = cells(store)
        assert after[target][:2] == (true, "read") and after[target][7] == 0
        assert after[target][4] == true  # the rules now expect it
        assert "ink unsure" in after[target][6]
        assert not any(c[1] == "doubtful" and not c[7] for c in after.values())
        assert state == "settled"
        summary = store.sheet_summary(scan.sheet_id)
        record = json.loads(store.conn.execute("SELECT record_json FROM sheets").fetchone()[0])
        assert record["written"] == doc["written"] and not summary["findings"]

        # undo: the row is misread again, and so the entry doubtful again, as scanned
        assert review_store.undo_last(store, "anna") is not None
        assert cells(store) == before


def test_verified_entries_are_never_decoded_again(tmp_path: Path, case: Any) -> None:
    doc, k, wrong, column, n, scan = case
    target, later = entry_key(*column, n), entry_key(*column, n + 1)
    entries = expected_sheet(parse_record(doc)).column(column)
    true, written_next = int(entries[n].total), int(entries[n + 1].total)
    with Store(tmp_path / "t.sqlite") as store:
        store.import_scan(scan)
        # a person says the doubtful entry is one more than the truth
        review_store.decide(store, scan.sheet_id, target, true + 1, "boris")
        pinned = cells(store)[target]
        assert pinned[:2] == (true + 1, "doubtful") and pinned[7:9] == (1, "boris")
        review_store.decide(store, scan.sheet_id, row_key(k), doc["deals"][k], "anna")
        after = cells(store)
        assert after[target] == pinned  # never touched by the decoding
        # the next entry is decoded from the verified value: the rules expect the writer's
        # step from it, and the clear ink of the true total is read as written
        assert after[later][:2] == (written_next, "read")
        assert after[later][4] == true + 1 + entries[n + 1].amount
        review_store.decide(store, scan.sheet_id, target, true, "boris")
        assert (cells(store)[later][0], cells(store)[later][4]) == (written_next, written_next)


def test_a_version_1_file_migrates_and_keeps_its_cells(tmp_path: Path, case: Any) -> None:
    *_, scan = case
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript(f"BEGIN;\n{MIGRATIONS[0]}\nPRAGMA user_version = 1;\nCOMMIT;")
    conn.execute("INSERT INTO tournaments (name, created_at) VALUES ('Old', 'then')")
    conn.close()
    with Store(path) as store:
        assert schema_version(store.conn) == SCHEMA_VERSION == 7
        assert store.tournament_names() == ["Old"]
        store.import_scan(scan)
        inks = store.conn.execute("SELECT key, ink_json FROM cells").fetchall()
        assert all((ink is None) == key.startswith("row:") for key, ink in inks)


def test_cells_without_ink_stay_as_they_are(tmp_path: Path, case: Any) -> None:
    doc, k, wrong, column, n, scan = case
    bare = SheetScan.from_json({**scan.to_json(), "fields": [
        {key: value for key, value in f.items() if key != "ink"}
        for f in scan.to_json()["fields"]]})  # a scan.json from before the ink was kept
    with Store(tmp_path / "t.sqlite") as store:
        store.import_scan(bare)
        before = cells(store)
        review_store.decide(store, bare.sheet_id, row_key(k), doc["deals"][k], "anna")
        after = cells(store)
        assert {key: c for key, c in after.items() if key != row_key(k)} == \
            {key: c for key, c in before.items() if key != row_key(k)}


def test_a_total_the_scan_found_left_out_stays_empty_after_a_ruling(tmp_path: Path,
                                                                     case: Any) -> None:
    """A column's last total read as left out by its writer (empty, note ``unwritten``,
    scanner.decode.unwritten) is not asked again when a person's ruling on a deal row has
    the sheet decoded again: its blank boxes and the row it was judged on have not changed."""
    doc, k, wrong, column, n, scan = case
    other = next(c for c in expected_sheet(parse_record(doc)).totals
                 if c != Column(*column) and len(written_of(doc, c)) >= 2)
    values = written_of(doc, other)
    key = entry_key(other.seat, other.kind, other.on, len(values) - 1)
    left_out = FieldReading(key, 0, (0.0, 0.0, 8.0, 5.0), "empty", None, 1.0, ((None, 1.0),),
                            values[-1], None, said("unwritten", value=values[-1]), None,
                            ((None, 1.0),))
    fields = tuple(left_out if f.key == key else f for f in scan.fields)
    with Store(tmp_path / "t.sqlite") as store:
        store.import_scan(replace(scan, fields=fields))
        assert cells(store)[key][1] == "empty"
        review_store.decide(store, scan.sheet_id, row_key(k), doc["deals"][k], "anna")
        after = cells(store)[key]
        assert (after[0], after[1]) == (None, "empty")
        assert "left it out" in after[6]


def test_a_lost_box_shown_with_the_rules_total_keeps_showing_it_after_a_ruling(
        tmp_path: Path, case: Any) -> None:
    """A column's last box read blank where the image may have lost its ink, shown holding
    the rules' total (doubtful, scanner.decode.presence.rules_value_shown): a person's
    ruling on a deal row has the sheet decoded again, and the box still shows the total the
    rules expect, nothing its next candidate (main: nothing again, the first candidate a
    person accepts blaming the writer for ink the image lost)."""
    doc, k, wrong, column, n, scan = case
    other = next(c for c in expected_sheet(parse_record(doc)).totals
                 if c != Column(*column) and len(written_of(doc, c)) >= 2)
    values = written_of(doc, other)
    key = entry_key(other.seat, other.kind, other.on, len(values) - 1)
    shown = FieldReading(key, 0, (0.0, 0.0, 8.0, 5.0), "doubtful", values[-1], 0.9,
                         ((values[-1], 0.9), (None, 0.01)), values[-1], None,
                         said("expected_unread", value=values[-1]), None, ((None, 1.0),))
    fields = tuple(shown if f.key == key else f for f in scan.fields)
    with Store(tmp_path / "t.sqlite") as store:
        store.import_scan(replace(scan, fields=fields))
        review_store.decide(store, scan.sheet_id, row_key(k), doc["deals"][k], "anna")
        after = cells(store)[key]
        assert (after[0], after[1], after[4]) == (values[-1], "doubtful", values[-1])
        assert [value for value, _ in after[3]] == [values[-1], None]


def written_of(doc: dict[str, Any], column: Column) -> list[int]:
    """The values the game's ``written`` holds in ``column``."""
    written = doc["written"][column.seat]
    values: list[int] = written["whists"][column.on] if column.on else written[column.kind]
    return values
