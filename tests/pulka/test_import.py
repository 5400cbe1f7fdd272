"""``pulka import``: scan documents and images into the store, re-runs, an import killed half-way,
and the end-to-end path from printed sheets to standings."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from pulka.cli import main
from pulka.importer import SLOW_ENV, collect, pipeline_available
from pulka.sample_scans import synthetic_tournament
from pulka.store import Store
from pulka.store_refresh import parse_key
from scoring import parse_record, settle_record

ROOT = Path(__file__).parents[2]


def table_counts(db: Path) -> dict[str, int]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                for t in ("sheets", "pages", "cells", "settlements", "sheet_players")}
    finally:
        conn.close()


def test_import_scan_documents_twice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, sheets = synthetic_tournament(random.Random(21), "Open", 1, 4, folder=tmp_path / "in",
                                     errors=1)
    db = tmp_path / "t.sqlite"
    assert main(["import", str(tmp_path / "in"), "--db", str(db)]) == 0
    assert "imported 4 sheets" in capsys.readouterr().out
    first = table_counts(db)
    assert first["sheets"] == 4 and first["pages"] == 8
    assert first["cells"] == sum(len(s.scan.fields) for s in sheets)
    assert main(["import", str(tmp_path / "in"), "--db", str(db)]) == 0
    assert table_counts(db) == first


def test_bad_files_are_reported_and_the_rest_imported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    synthetic_tournament(random.Random(22), "Open", 1, 2, folder=tmp_path / "in")
    bad = tmp_path / "in" / "broken" / "scan.json"
    bad.parent.mkdir()
    bad.write_text("{not json")
    db = tmp_path / "t.sqlite"
    assert main(["import", str(tmp_path / "in"), "--db", str(db)]) == 5  # PARTIAL
    captured = capsys.readouterr()
    assert f"{bad}: not a readable pulka-scan/1 document" in captured.err
    assert "imported 2 sheets" in captured.out and "1 files failed" in captured.out
    assert table_counts(db)["sheets"] == 2


def test_import_argument_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "t.sqlite")
    assert main(["import", str(tmp_path / "nowhere"), "--db", db]) == 2
    (tmp_path / "empty").mkdir()
    assert main(["import", str(tmp_path / "empty"), "--db", db]) == 2
    assert main(["import", str(tmp_path / "empty"), "--db", db, "--jobs", "-1"]) == 2
    if not pipeline_available():
        (tmp_path / "empty" / "photo.jpg").write_bytes(b"\xff\xd8\xff")
        assert main(["import", str(tmp_path / "empty"), "--db", db]) == 4
        assert "no scan pipeline" in capsys.readouterr().err


def test_collect_skips_images_beside_a_scan_document_and_the_out_folder(tmp_path: Path) -> None:
    synthetic_tournament(random.Random(23), "Open", 1, 1, folder=tmp_path / "in")
    (tmp_path / "in" / "photos").mkdir()
    (tmp_path / "in" / "photos" / "a.jpg").write_bytes(b"x")
    (tmp_path / "in" / "out" / "S-1").mkdir(parents=True)
    (tmp_path / "in" / "out" / "S-1" / "page-0.png").write_bytes(b"x")
    inputs = collect([tmp_path / "in"], tmp_path / "in" / "out")
    assert [p.name for p in inputs.documents] == ["scan.json"]
    assert inputs.images == [tmp_path / "in" / "photos" / "a.jpg"]


def test_killed_import_loses_nothing_and_duplicates_nothing(tmp_path: Path) -> None:
    sheets_n = 10
    _, sheets = synthetic_tournament(random.Random(24), "Open", 2, sheets_n // 2,
                                     folder=tmp_path / "in", errors=1)
    db = tmp_path / "t.sqlite"
    command = [sys.executable, "-m", "pulka", "import", str(tmp_path / "in"), "--db", str(db)]
    env = {**os.environ, SLOW_ENV: "0.5"}
    process = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    stored = 0
    try:
        while time.monotonic() < deadline and process.poll() is None:
            try:
                stored = table_counts(db)["sheets"]
            except sqlite3.OperationalError:  # not created yet
                stored = 0
            if stored >= 1:
                break
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
    finally:
        process.communicate(timeout=30)
    assert process.returncode == -signal.SIGKILL
    half = table_counts(db)
    assert 1 <= half["sheets"] < sheets_n
    # every sheet stored is stored whole: its pages, cells and settlement
    fields = {s.scan.sheet_id: len(s.scan.fields) for s in sheets}
    conn = sqlite3.connect(db)
    try:
        for sheet_id, cells, pages, seats in conn.execute(
                "SELECT s.sheet_id, (SELECT count(*) FROM cells c WHERE c.sheet_id = s.id), "
                "(SELECT count(*) FROM pages p WHERE p.sheet_id = s.id), "
                "(SELECT count(*) FROM settlements t WHERE t.sheet_id = s.id) FROM sheets s"):
            assert (cells, pages, seats) == (fields[sheet_id], 2, 3)
    finally:
        conn.close()
    rerun = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                           check=False)
    assert rerun.returncode == 0, rerun.stderr
    after = table_counts(db)
    assert after == {"sheets": sheets_n, "pages": 2 * sheets_n, "cells": sum(fields.values()),
                     "settlements": 3 * sheets_n, "sheet_players": 3 * sheets_n}


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([sys.executable, "-m", "pulka", *args], cwd=cwd, text=True,
                            capture_output=True, timeout=1200, check=False)
    assert result.returncode in (0, 1, 5), result.stderr
    return result


@pytest.mark.slow
@pytest.mark.skipif(not pipeline_available(), reason="needs the scan pipeline "
                    "(scanner.pipeline.scan_paths), not in this pulka yet")
def test_end_to_end_samples_to_standings(tmp_path: Path) -> None:
    """Sample sheets in handwriting (some with recording errors, some photographed), imported,
    and the store's settlements and findings compared with the truth of the same games.

    ``pulka samples`` fills sheets of its own (tournament "pulka samples", no round or table),
    so each player is a seat of one sheet; when it can fill a printed tournament batch
    (``pulka print --tables 4 --rounds 2 --draw``), this test should fill that instead.
    """
    _run("samples", "--random", "4", "--seed", "5", "--errors", "2", "--out", "clean",
         cwd=tmp_path)
    _run("samples", "--random", "4", "--seed", "4", "--photo", "--out", "photo", cwd=tmp_path)
    result = _run("import", "clean", "photo", "--db", "t.sqlite", cwd=tmp_path)
    assert "imported 8 sheets" in result.stdout, result.stdout + result.stderr
    truths = [json.loads(p.read_text()) for p in sorted(tmp_path.glob("*/sample-*/truth.json"))]
    assert len(truths) == 8
    with Store(tmp_path / "t.sqlite") as store:
        states: Counter[str] = Counter()
        misread: list[str] = []
        for truth in truths:
            if truth["sheet_id"] not in store.sheet_ids():
                states["not imported"] += 1  # no page's QR code could be read
                continue
            states[review_with_truth(store, truth)] += 1
            summary = store.sheet_summary(truth["sheet_id"])
            if summary["missing_pages"]:
                states["pages missing"] += 1  # a photo to retake: the batch goes on
                continue
            assert summary["state"] in ("settled", "audited"), summary["record_error"]
            expected = settle_record(parse_record(truth["record"])).result
            stored = json.loads(store.conn.execute(
                "SELECT record_json FROM sheets WHERE sheet_id = ?",
                (truth["sheet_id"],)).fetchone()[0])
            if stored["deals"] != truth["record"]["deals"]:
                misread.append(truth["sheet_id"])  # a row read wrong with confidence
                continue
            assert {s: Fraction(v["result"]) for s, v in summary["settlement"].items()} == \
                expected, truth["sheet_id"]
            found = {(f["seat"], f["column"], f["on"]) for f in summary["findings"]}
            for error in truth["errors"]:
                assert column_of(error["column"]) in found, (truth["sheet_id"], error)
        # the scanner's share, not the store's: rows read wrong without doubt (2 of the 4
        # clean sheets when this was written); the store is checked on every other sheet
        assert len(misread) <= 2, f"deal rows misread with confidence on {misread}"
        compared = len(truths) - len(misread) - states["not imported"] - states["pages missing"]
        assert compared >= 2, (states, misread)
        standings = store.standings("pulka samples")
        assert sum(r.total for r in standings.rows) == 0
        assert len(standings.rows) == 3 * 8


def column_of(column: Any) -> tuple[str, str, str | None]:
    """A truth file's column: ``"A whists on B"``, ``"A pool"`` or ``[seat, kind, on]``."""
    if isinstance(column, list):
        return column[0], column[1], column[2]
    parts = column.split()
    return parts[0], parts[1], parts[3] if len(parts) > 3 else None


def review_with_truth(store: Store, truth: dict[str, Any]) -> str:
    """Play the person on the review page: each doubtful cell gets its true value."""
    record = truth["record"]
    state = store.sheet_summary(truth["sheet_id"])["state"]
    for cell in store.sheet_summary(truth["sheet_id"])["doubtful"]:
        where = parse_key(cell["key"])
        if isinstance(where, int):
            deals = record["deals"]
            value = deals[where] if where < len(deals) else None
        else:
            seat, kind, on, n = where
            column = record["written"][seat]["whists"][on] if on else \
                record["written"][seat][kind]
            value = column[n] if n < len(column) else None
        store.verify_cell(truth["sheet_id"], cell["key"], value, "test")
    return state
