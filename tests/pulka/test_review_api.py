"""pulka.review.server and pulka.store.review: the review API on a real server (127.0.0.1)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from review_fixture import SHEET1, SHEET2, TRUTH, build_store, call, serve

from pulka.cli.main import main
from pulka.review import ReviewServer
from pulka.review.server import MAX_BODY_BYTES
from pulka.store import review as review_store
from pulka.store.database import Store
from pulka.store.errors import StoreError


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ReviewServer]:
    with serve(build_store(tmp_path)) as running:
        yield running


def decide(server: ReviewServer, sheet: str, key: str, action: str, **extra: Any) -> Any:
    status, doc = call(server, "/api/decide", {"sheet": sheet, "key": key, "action": action,
                                               **extra})
    assert status == 200, doc
    return doc


def cell(db: Path, sheet: str, key: str) -> tuple[Any, ...]:
    with Store(db) as store:
        return store.conn.execute(
            "SELECT c.value_json, c.verified, c.verified_by, c.note FROM cells c JOIN sheets s "
            "ON s.id = c.sheet_id WHERE s.sheet_id = ? AND c.key = ?", (sheet, key)).fetchone()


def test_an_empty_store_shows_an_empty_queue(tmp_path: Path) -> None:
    with serve(tmp_path / "new.sqlite") as running:
        status, queue = call(running, "/api/queue")
        assert status == 200
        assert queue["sheets"] == [] and queue["total"] == 0 and queue["states"] == {}
        assert call(running, "/api/standings") == (200, {"tournaments": []})
        status, page = call(running, "/")
        assert status == 200 and b"review.js" in page


def test_the_queue_is_worst_first_grouped_by_sheet(server: ReviewServer) -> None:
    _, queue = call(server, "/api/queue")
    assert queue["total"] == 7 and queue["who"] == "anna"
    assert [g["sheet"] for g in queue["sheets"]] == [SHEET1, SHEET2]
    first = queue["sheets"][0]["cells"]
    assert [c["key"] for c in first] == ["row:17", "entry:A:whists:B:0", "entry:C:pool:2",
                                         "entry:A:mountain:2"]
    whists = first[1]
    assert whists["expected"] == 8 and whists["candidates"][1] == [8, 0.43]
    assert whists["label"] == "Иванова (A) · whists on Петренко (B) · entry 1 · deal 7"
    assert [n["n"] for n in whists["neighbours"]] == [1, 2]
    assert whists["neighbours"][0]["current"]
    assert whists["ink_alone"] == []  # the fixture's scan kept no ink for it


def test_a_cell_shows_what_its_ink_alone_says(server: ReviewServer) -> None:
    """Beside the rules-shaped confidence: the ink's likelihoods as shares, most likely first."""
    with Store(server.db) as store:
        store.conn.execute("UPDATE cells SET ink_json = ? WHERE key = 'entry:C:whists:A:0'",
                           (json.dumps([[46, 0.02], [40, 0.005], [48, 0.0]]),))
        store.conn.commit()
    _, queue = call(server, "/api/queue")
    (ink_cell,) = [c for g in queue["sheets"] for c in g["cells"]
                   if c["key"] == "entry:C:whists:A:0"]
    assert ink_cell["value"] == 40 and ink_cell["ink_alone"] == [[46, 0.8], [40, 0.2]]


def test_decisions_change_the_store_the_findings_and_the_standings(server: ReviewServer
                                                                   ) -> None:
    db = server.db
    _, before = call(server, f"/api/sheet/{SHEET1}")
    assert before["state"] == "needs_review" and len(before["findings"]) == 6
    _, standings = call(server, "/api/standings")
    before_total = {r["player"]: r["total"] for r in standings["tournaments"][0]["standings"]}

    doc = decide(server, SHEET1, "row:17", "accept", candidate=2)  # 9C, not 6C
    assert json.loads(cell(db, SHEET1, "row:17")[0]) == TRUTH["row:17"]
    assert cell(db, SHEET1, "row:17")[1:3] == (1, "anna")
    after = {r["player"]: r["total"] for r in doc["standings"]["tournaments"][0]["standings"]}
    assert after != before_total and after["Петренко"] != before_total["Петренко"]
    assert len(doc["panel"]["findings"]) < 6
    assert doc["queue"]["total"] == 6 and doc["queue"]["decided"] == 1

    decide(server, SHEET1, "entry:A:whists:B:0", "accept", candidate=2)
    doc = decide(server, SHEET1, "entry:C:pool:2", "type", value=" 20 ")
    assert cell(db, SHEET1, "entry:C:pool:2")[:2] == ("20", 1)
    assert doc["panel"]["findings"] == [] and doc["panel"]["state"] == "needs_review"
    doc = decide(server, SHEET1, "entry:A:mountain:2", "accept", candidate=1)
    assert doc["panel"]["state"] == "settled"
    rows = doc["standings"]["tournaments"][0]["standings"]
    assert {r["player"]: r["provisional"] for r in rows}["Иванова"] == 0
    with Store(db) as store:
        log = store.conn.execute("SELECT key, who, new_json FROM decisions ORDER BY id").fetchall()
        assert [r[0] for r in log] == ["row:17", "entry:A:whists:B:0", "entry:C:pool:2",
                                       "entry:A:mountain:2"]
        assert {r[1] for r in log} == {"anna"} and log[2][2] == "20"


def test_illegible_skip_and_undo(server: ReviewServer) -> None:
    db = server.db
    doc = decide(server, SHEET2, "entry:B:mountain:0", "illegible")
    assert cell(db, SHEET2, "entry:B:mountain:0") == ("null", 1, "anna", "illegible")
    assert any(f["key"] is None or f["seat"] == "B" for f in doc["panel"]["findings"])
    status, undone = call(server, "/api/undo", {})
    assert status == 200 and undone["undone"] == {"sheet": SHEET2, "key": "entry:B:mountain:0",
                                                  "state": "needs_review"}
    assert cell(db, SHEET2, "entry:B:mountain:0") == ("3", 0, None, "")
    assert undone["panel"]["findings"] == []
    assert call(server, "/api/undo", {})[1]["undone"] is None  # nothing of anna's left

    doc = decide(server, SHEET2, "entry:B:mountain:0", "skip")
    keys = [c["key"] for g in doc["queue"]["sheets"] for c in g["cells"]]
    assert keys[-1] == "entry:B:mountain:0" and doc["queue"]["total"] == 7
    assert cell(db, SHEET2, "entry:B:mountain:0")[1] == 0


def test_bad_decisions_are_refused(server: ReviewServer) -> None:
    def status(body: Any) -> int:
        return call(server, "/api/decide", body)[0]

    assert status({"sheet": SHEET1, "key": "entry:C:pool:2", "action": "type",
                   "value": "twenty"}) == 400
    assert status({"sheet": SHEET1, "key": "entry:C:pool:2", "action": "accept",
                   "candidate": 9}) == 400
    assert status({"sheet": SHEET1, "key": "entry:C:pool:2", "action": "delete"}) == 400
    assert status({"sheet": SHEET1, "key": "entry:Z:pool:9", "action": "skip"}) == 404
    assert status({"sheet": "S-NOPE", "key": "row:1", "action": "skip"}) == 404
    assert status({"sheet": SHEET1, "key": "row:17", "action": "type", "value": "7"}) == 400
    assert call(server, "/api/decide", raw=b"[1]")[0] == 400
    assert call(server, "/api/decide", raw=b"{", headers={})[0] == 400
    assert call(server, "/api/decide", {"sheet": SHEET1},
                headers={"Content-Type": "text/plain"})[0] == 415
    with Store(server.db) as store:
        assert store.conn.execute("SELECT count(*) FROM decisions").fetchone()[0] == 0


def test_oversized_bodies_are_refused(server: ReviewServer) -> None:
    status, doc = call(server, "/api/decide", raw=b"{" + b" " * MAX_BODY_BYTES + b"}")
    assert status == 413 and str(MAX_BODY_BYTES) in doc["error"]


@pytest.mark.parametrize("path", [
    "/img/S-27C8C2/page/../../../../etc/passwd", "/img/S-27C8C2/crop/..%2F..%2Fscan.json",
    "/img/..%2F..%2Fetc/page/0", "/img/S-27C8C2/page/9", "/img/S-27C8C2/crop/row:0",
    "/img/S-27C8C2/file/%2Fetc%2Fpasswd", "/static/review.js", "/../pulka/store.py",
    "/review.js/../../store.py", "/api/sheet/..%2F..", "/api/nothing",
])
def test_paths_outside_the_server_are_404(server: ReviewServer, path: str) -> None:
    assert call(server, path)[0] == 404


def test_images_only_from_inside_the_scan_folder(server: ReviewServer, tmp_path: Path) -> None:
    status, body = call(server, f"/img/{SHEET1}/page/0")
    assert status == 200 and body[:3] == b"\xff\xd8\xff"  # the JPEG page
    status, body = call(server, f"/img/{SHEET1}/crop/row:17")
    assert status == 200 and body[:4] == b"\x89PNG"
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"\x89PNG secret")
    link = tmp_path / "scans" / SHEET1 / "crops" / "link.png"
    link.symlink_to(secret)
    with Store(server.db) as store:  # a store that points at a link out, or at a path up
        store.conn.execute("UPDATE cells SET crop = ? WHERE key = 'row:17'",
                           (f"{SHEET1}/crops/link.png",))
        store.conn.execute("UPDATE cells SET crop = '../secret.png' WHERE key = 'row:0'")
        store.conn.execute("UPDATE cells SET crop = ? WHERE key = 'row:1'", (str(secret),))
    for key in ("row:17", "row:0", "row:1"):
        assert call(server, f"/img/{SHEET1}/crop/{key}")[0] == 404


def test_a_crop_in_a_field_sheet_is_cut_out_of_it(server: ReviewServer, tmp_path: Path) -> None:
    """A crop naming a rectangle of its page's field sheet is served as that rectangle; one
    naming no rectangle of it (or a path out of the scan folder) is not found."""
    import cv2
    import numpy as np

    sheet = np.full((64, 96, 3), 255, np.uint8)
    sheet[16:48, 32:80] = (0, 0, 200)
    cv2.imwrite(str(tmp_path / "scans" / SHEET1 / "crops" / "page-2.jpg"), sheet)
    crops = {"row:17": "crops/page-2.jpg#xywh=32,16,48,32",
             "row:0": "crops/page-2.jpg#xywh=64,16,48,32",  # reaches out of the image
             "row:1": "crops/page-2.jpg#xywh=percent:0,0,50,50",
             "row:2": "../secret.jpg#xywh=0,0,8,8"}
    with Store(server.db) as store:
        for key, crop in crops.items():
            store.conn.execute("UPDATE cells SET crop = ? WHERE key = ?",
                               (f"{SHEET1}/{crop}", key))
    status, body = call(server, f"/img/{SHEET1}/crop/row:17")
    assert status == 200 and body[:3] == b"\xff\xd8\xff"
    image = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (32, 48, 3)
    assert image[:, :, 2].mean() > 150 and image[:, :, :2].mean() < 40  # the red block
    for key in ("row:0", "row:1", "row:2"):
        assert call(server, f"/img/{SHEET1}/crop/{key}")[0] == 404


def test_another_host_name_is_refused(server: ReviewServer) -> None:
    assert call(server, "/api/queue", headers={"Host": "evil.example:80"})[0] == 421
    assert call(server, "/api/queue", headers={"Host": "localhost"})[0] == 200


def test_undo_refuses_a_cell_changed_since_by_someone_else(tmp_path: Path) -> None:
    db = build_store(tmp_path)
    with Store(db) as store:
        review_store.decide(store, SHEET1, "entry:C:pool:2", 20, "anna")
        review_store.decide(store, SHEET1, "entry:C:pool:2", 21, "boris")
        with pytest.raises(StoreError, match="boris changed it since"):
            review_store.undo_last(store, "anna")
        assert review_store.undo_last(store, "boris") == {"sheet": SHEET1,
                                                          "key": "entry:C:pool:2",
                                                          "state": "needs_review"}
        row = store.conn.execute("SELECT value_json, verified, verified_by FROM cells "
                                 "WHERE key = 'entry:C:pool:2' AND sheet_id = 1").fetchone()
        assert row == ("20", 1, "anna")


def test_response_times(server: ReviewServer) -> None:
    times = []
    for _ in range(10):
        start = time.perf_counter()
        call(server, "/api/queue")
        times.append(time.perf_counter() - start)
    start = time.perf_counter()
    decide(server, SHEET2, "entry:C:whists:A:0", "accept", candidate=1)
    decided = time.perf_counter() - start
    assert sorted(times)[5] < 0.5 and decided < 1.0


def test_the_command_refuses_a_bad_port(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    assert main(["review", "--db", str(tmp_path / "t.sqlite"), "--port", "70000"]) == 2
    assert "--port" in capsys.readouterr().err


def test_pulka_review_prints_its_url_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    # Ctrl+C as a terminal delivers it: a shell's background job (a CI script run with "&")
    # starts with SIGINT ignored, which the child would inherit
    process = subprocess.Popen([sys.executable, "-m", "pulka", "review", "--db",
                                str(tmp_path / "new.sqlite"), "--port", "0", "--user", "anna"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        line = process.stdout.readline() if process.stdout else ""
        url = line.split()[2]
        assert url.startswith("http://127.0.0.1:") and "as anna" in line
        with urllib.request.urlopen(url + "api/queue", timeout=10) as response:
            assert json.loads(response.read())["total"] == 0
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=10)
    finally:
        process.kill()
    assert process.returncode == 0 and "stopped" in out and err == ""
