"""pulka.review.desk and pulka.store.sheet_list: the sheet list and the deal-row grid's
routes on a real server (127.0.0.1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from review_fixture import SHEET1, SHEET2, TOURNAMENT, build_store, call, serve

from pulka.review import ReviewServer


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ReviewServer]:
    with serve(build_store(tmp_path)) as running:
        yield running


def test_the_sheet_list_has_every_sheet_with_its_doubts(server: ReviewServer) -> None:
    status, doc = call(server, "/api/sheets")
    assert status == 200
    rows = {row["sheet"]: row for row in doc["sheets"]}
    assert set(rows) == {SHEET1, SHEET2}
    assert rows[SHEET1]["doubts"] == 4 and rows[SHEET2]["doubts"] == 3
    assert (rows[SHEET1]["round"], rows[SHEET1]["table"]) == (1, 1)
    assert rows[SHEET2]["tournament"] == TOURNAMENT
    assert rows[SHEET2]["players"][0] == "Ковальчук"


def test_a_row_has_the_printed_columns_placed_on_its_crop(server: ReviewServer) -> None:
    status, doc = call(server, f"/api/row/{SHEET1}/row:17")
    assert status == 200, doc
    groups = [(c["group"], c["seat"]) for c in doc["columns"]]
    assert groups[:3] == [("declarer", None), ("level", None), ("suit", None)]
    assert [c["heading"] for c in doc["columns"]][:4] == ["declarer", "contract", "suit",
                                                          "call A"]
    assert ("tricks", "C") in groups and groups[-2:] == [("result", None),
                                                         ("result_tricks", None)]
    shares = [(c["x0"], c["x1"]) for c in doc["columns"]]
    assert all(0 <= a < b <= 1 for a, b in shares)
    assert shares == sorted(shares)
    assert doc["dealer"] == "C" and doc["players"] == ["A", "B", "C"]
    assert doc["line"] == "B 6C pass pass"


@pytest.mark.parametrize(("typed", "line", "result"), [
    ("B 9C pass pass", "B 9C pass pass", "9♣/="),
    ("Б 9Т пас пас", "B 9C pass pass", "9♣/="),
    ("b 9 c p p", "B 9C pass pass", "9♣/="),
    ("B 6S whist pass 6 3 1", "B 6S whist pass 6 3 1", "6♠/="),
    ("распасы 3 2 5", "allpass 3 2 5", "all-pass"),
])
def test_a_typed_line_is_checked_by_the_rules(server: ReviewServer, typed: str, line: str,
                                              result: str) -> None:
    status, doc = call(server, "/api/row-check", {"sheet": SHEET1, "key": "row:17",
                                                  "text": typed})
    assert status == 200, doc
    assert doc["legal"], doc
    assert (doc["line"], doc["result"], doc["deal"]["dealer"]) == (line, result, "C")


@pytest.mark.parametrize(("typed", "reason"), [
    ("B 6S whist pass 6 3 2", "sum"),
    ("B 6S whist whist", "tricks"),
    ("B 6S whist", "give 2 calls"),
    ("Q 6S pass pass", "declarer's seat"),
])
def test_an_illegal_line_is_refused_with_the_reason(server: ReviewServer, typed: str,
                                                    reason: str) -> None:
    status, doc = call(server, "/api/row-check", {"sheet": SHEET1, "key": "row:17",
                                                  "text": typed})
    assert status == 200
    assert doc["legal"] is False and reason in doc["reason"], doc


def test_a_deal_object_is_checked_and_bad_requests_are_refused(server: ReviewServer) -> None:
    deal = {"type": "misere", "declarer": "B", "tricks": {"A": 5, "B": 1, "C": 4}}
    status, doc = call(server, "/api/row-check", {"sheet": SHEET1, "key": "row:17",
                                                  "deal": deal})
    assert status == 200 and doc["legal"] and doc["line"] == "B misere 1 4 5"
    assert call(server, "/api/row-check", {"sheet": SHEET1, "key": "row:17"})[0] == 400
    assert call(server, "/api/row-check", {"sheet": "S-NONE", "key": "row:17",
                                           "text": "x"})[0] == 404
    status, doc = call(server, "/api/row-check", {"sheet": SHEET1, "key": "entry:A:pool:0",
                                                  "text": "x"})
    assert status == 400 and "is not a deal row" in doc["error"]
    assert call(server, f"/api/row/{SHEET1}/row:999")[0] == 400
