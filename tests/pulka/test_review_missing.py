"""The review server's ``/api/missing``: per round, the tables without a sheet and the games
held for a page not scanned, as the review page reads them."""

from __future__ import annotations

import random
from pathlib import Path

from day_sheets import without_page
from review_fixture import call, serve

from pulka.store.database import Store
from samplegen.scans import synthetic_tournament


def test_missing_tables_and_held_sheets_are_served(tmp_path: Path) -> None:
    draw, sheets = synthetic_tournament(random.Random(51), "Open", 1, 3)
    db = tmp_path / "t.sqlite"
    with Store(db) as store:
        store.new_tournament("Open", 1, 3, [(r, t, "ABC", n) for r, t, n in draw])
        store.import_scan(sheets[0].scan)
        store.import_scan(without_page(sheets[1].scan, 0))
    with serve(db) as server:
        status, doc = call(server, "/api/missing")
        held = sheets[1].scan.sheet_id
        assert status == 200 and doc == {"format": "pulka-missing/1", "tournaments": [
            {"name": "Open", "missing": [{"round": 1, "tables": [3], "held": [
                {"table": 2, "sheet_id": held, "scan": f"scan page 1 of sheet {held}"}]}]}]}
        status, doc = call(server, "/api/missing?tournament=Cup")
        assert status == 404 and "no tournament 'Cup'" in doc["error"]
