"""A tournament store with doubtful cells, for the review page's tests and screenshots.

Built from ``tests/data/review/S-27C8C2`` (a real scan of ``samples/scans/sochi-3-scan``, see
the README there): the same sheet twice (two tables of one round, other names), with a few
fields made doubtful. Sheet 1's doubtful values are wrong where :data:`TRUTH` says so, so its
findings and settlement change as a person decides.
"""

from __future__ import annotations

import json
import shutil
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from pulka.review.checks import TOKEN_HEADER
from pulka.review.server import ReviewServer, make_server
from pulka.store.database import Store
from scanner.results import CellStatus, FieldReading, SheetScan
from scanner.words import said

DATA = Path(__file__).parents[1] / "data" / "review"
SOURCE = "S-27C8C2"
TOURNAMENT = "Kyiv Open"
SHEET1, SHEET2 = "S-27C8C2", "S-5E1F2A"
NAMES2 = ["Ковальчук", "Lindqvist", "Mercier"]


def _row17(contract: str) -> dict:
    return {"dealer": "C", "type": "contract", "declarer": "B", "contract": contract,
            "defence": {"A": "pass", "C": "pass"}}


# key -> (value read, confidence, candidates, expected, note); the true value is in TRUTH.
DOUBTS1 = {
    "row:17": (_row17("6C"), 0.46, [[_row17("6C"), 0.46], [_row17("9C"), 0.44],
                                    [_row17("9D"), 0.06]], None,
               said("not_legal")),
    "entry:A:whists:B:0": (9, 0.52, [[9, 0.52], [8, 0.43], [3, 0.03]], 8,
                           said("ink_expected", ink=9, expected=8)),
    "entry:C:pool:2": (26, 0.58, [[26, 0.58], [28, 0.3], [None, 0.08]], 20,
                       said("ink_expected", ink=26, expected=20)),
    "entry:A:mountain:2": (34, 0.71, [[34, 0.71], [24, 0.25], [31, 0.02]], 34, ""),
}
DOUBTS2 = {
    "entry:B:mountain:0": (3, 0.5, [[3, 0.5], [8, 0.45], [5, 0.03]], 3, ""),
    "entry:B:pool:2": (14, 0.62, [[14, 0.62], [4, 0.35]], 14, ""),
    "entry:C:whists:A:0": (40, 0.66, [[40, 0.66], [46, 0.3]], 40, ""),
}
KEYS_DOUBTS = {  # the judge's "13": a pool cell read 79, the next cell's third candidate 3
    "entry:C:pool:2": (79, 0.41, [[79, 0.41], [19, 0.4], [20, 0.1]], 20, ""),
    "entry:A:whists:B:0": DOUBTS1["entry:A:whists:B:0"],
    "entry:A:mountain:2": DOUBTS1["entry:A:mountain:2"],
}
TRUTH = {"row:17": _row17("9C"), "entry:A:whists:B:0": 8, "entry:C:pool:2": 20,
         "entry:A:mountain:2": 34, "entry:B:mountain:0": 3, "entry:B:pool:2": 14,
         "entry:C:whists:A:0": 40}


def _doubtful(scan: SheetScan, doubts: dict, sheet_id: str) -> SheetScan:
    fields = []
    for f in scan.fields:
        crop = f.crop.replace(SOURCE, sheet_id, 1) if f.crop else None
        if f.key in doubts:
            value, confidence, candidates, expected, note = doubts[f.key]
            f = FieldReading(f.key, f.page, f.rect_mm, CellStatus.DOUBTFUL, value, confidence,
                             tuple(tuple(c) for c in candidates), expected, f.deal, note, crop)
        else:
            f = replace(f, crop=crop)
        fields.append(f)
    return replace(scan, fields=tuple(fields))


def queue_of(count: int) -> dict:
    """``count`` of the sheet's entries made doubtful: each read ten more than written, at 45 %
    against 40 % for the written value (the second candidate)."""
    doc = json.loads((DATA / SOURCE / "scan.json").read_text(encoding="utf-8"))
    entries = [f for f in doc["fields"] if f["key"].startswith("entry:") and f["value"]]
    return {f["key"]: (f["value"] + 10, 0.45, [[f["value"] + 10, 0.45], [f["value"], 0.4]],
                       None, "") for f in entries[:count]}


def build_store(folder: Path, doubts: tuple[dict, dict] = (DOUBTS1, DOUBTS2),
                names2: list[str] = NAMES2) -> Path:
    """Write the scans under ``folder/scans`` and import them into ``folder/t.sqlite``.

    ``doubts`` are the doubtful cells of the two sheets, ``names2`` the second's players.
    """
    doc = json.loads((DATA / SOURCE / "scan.json").read_text(encoding="utf-8"))
    base = SheetScan.from_json(doc)
    db = folder / "t.sqlite"
    sheets = [(SHEET1, 1, list(base.identity["names"]), doubts[0]),
              (SHEET2, 2, names2, doubts[1])]
    with Store(db) as store:
        for sheet_id, table, names, doubts in sheets:
            out = folder / "scans" / sheet_id
            shutil.copytree(DATA / SOURCE, out)
            identity = {**base.identity, "sheet_id": sheet_id, "tournament": TOURNAMENT,
                        "round": 1, "table": table, "names": names}
            record = {**base.record, "names": dict(zip(base.identity["seats"], names,
                                                       strict=True))}
            pages = tuple(replace(p, image=p.image.replace(SOURCE, sheet_id, 1),
                                  source=f"{sheet_id}-{p.source}") for p in base.pages)
            scan = _doubtful(replace(base, sheet_id=sheet_id, identity=identity, pages=pages,
                                     record=record), doubts, sheet_id)
            (out / "scan.json").write_text(json.dumps(scan.to_json(), ensure_ascii=False),
                                           encoding="utf-8")
            store.import_scan(scan, out / "scan.json")
    return db


@contextmanager
def serve(db: Path, who: str = "anna") -> Iterator[ReviewServer]:
    """A review server on a free port, serving in a daemon thread until the block ends."""
    server = make_server(db, who=who)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def call(server: ReviewServer, path: str, body: Any = None,
         headers: dict[str, str] | None = None, raw: bytes | None = None) -> tuple[int, Any]:
    """A request to the server (a POST with this server's token): its status and answer."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    token = {TOKEN_HEADER: server.token} if data is not None else {}
    request = urllib.request.Request(server.url.rstrip("/") + path, data=data,
                                     headers={"Content-Type": "application/json", **token,
                                              **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            payload = response.read()
            kind = response.headers["Content-Type"]
            return response.status, json.loads(payload) if "json" in kind else payload
    except urllib.error.HTTPError as error:
        payload = error.read()
        return error.code, json.loads(payload) if payload.startswith(b"{") else payload
