"""pulka.review.judging: the judge's routes as the server answers them (no browser)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from review_fixture import DOUBTS1, SHEET1, build_store, call, serve

from pulka.review import ReviewServer
from pulka.store.database import Store
from pulka.store.rulings import findings

WRONG = ("entry:A:whists:B:0", "entry:C:pool:2")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ReviewServer]:
    db = build_store(tmp_path, doubts=({key: DOUBTS1[key] for key in WRONG}, {}))
    with serve(db, who="anna") as running:
        yield running


def keys(server: ReviewServer) -> list[str]:
    with Store(server.db) as store:
        return [f.key for f in findings(store, SHEET1)]


def test_a_finding_that_waits_takes_no_ruling(server: ReviewServer) -> None:
    status, doc = call(server, "/api/rule", {"sheet": SHEET1, "finding": keys(server)[0],
                                             "action": "apply"})
    assert status == 400 and "waits for review" in doc["error"]
    status, doc = call(server, "/api/signoff", {"sheet": SHEET1})
    assert status == 400 and "2 doubtful cells" in doc["error"]


def test_a_ruling_answers_with_the_panel(server: ReviewServer) -> None:
    with Store(server.db) as store:
        for key in WRONG:
            store.verify_cell(SHEET1, key, DOUBTS1[key][0], "anna")
    first, second = keys(server)
    status, doc = call(server, "/api/rule", {"sheet": SHEET1, "finding": first,
                                             "action": "apply"})
    assert status == 200 and doc["ruled"]["action"] == "apply" and doc["ruled"]["by"] == "anna"
    ruled = {f["finding_key"]: f["ruling"] for f in doc["panel"]["findings"]}
    assert ruled[first]["action"] == "apply" and ruled[second] is None
    status, doc = call(server, "/api/rule", {"sheet": SHEET1, "finding": second,
                                             "action": "misread", "value": "20"})
    assert status == 200 and [f["finding_key"] for f in doc["panel"]["findings"]] == [first]
    status, doc = call(server, "/api/signoff", {"sheet": SHEET1})
    assert status == 200 and doc["panel"]["signed_off"]["by"] == "anna"


@pytest.mark.parametrize(("body", "says"), [
    ({"sheet": SHEET1, "finding": "x", "action": "fine"}, "use one of apply, waive, misread"),
    ({"sheet": SHEET1, "finding": "x", "action": "misread"}, "a misread needs the cell's value"),
    ({"sheet": SHEET1, "finding": 3, "action": "waive"}, "field finding"),
    ({"sheet": SHEET1, "finding": "nope", "action": "waive"}, "has no finding 'nope'"),
    ({"sheet": "S-NOPE", "finding": "1", "action": "waive"}, "no sheet 'S-NOPE'"),
])
def test_bad_rulings_are_refused_in_one_line(server: ReviewServer, body: dict[str, object],
                                             says: str) -> None:
    status, doc = call(server, "/api/rule", body)
    assert status == 400 and says in doc["error"]


def test_rulings_need_the_token_and_the_report_is_served_alone(server: ReviewServer) -> None:
    status, _ = call(server, "/api/rule", {"sheet": SHEET1, "finding": "1", "action": "waive"},
                     headers={"X-Pulka-Token": "forged"})
    assert status == 403
    status, body = call(server, f"/report/{SHEET1}")
    assert status == 200 and b"waits for review" in body
    assert call(server, "/report/S-NOPE")[0] == 404
