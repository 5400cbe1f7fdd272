"""scanner.results: the pulka-scan/1 document holds every field of every dataclass, in order,
and reads back to the same scan."""

from __future__ import annotations

import json
from dataclasses import fields

from scanner.results import SCAN_FORMAT, FieldReading, ScannedPage, SheetScan


def _scan() -> SheetScan:
    entry = FieldReading("entry:A:pool:0", 0, (1.0, 2.0, 3.0, 4.0), "doubtful", 12, 0.5,
                         ((12, 0.5), (17, 0.25)), 12, 3, "", "S1/crops/page-1.jpg#xywh=0,0,8,8",
                         ((12, 0.75), (17, 0.125)))
    row = FieldReading("row:0", 1, (5.0, 6.0, 7.0, 8.0), "read", {"type": "allpass"}, 1.0,
                       deal=1, crop="S1/page-2.jpg#xywh=1,2,3,4")
    page = ScannedPage(0, "in/page-0.jpg", "S1/page-1.jpg", 0.01, ("only 150 dpi",))
    return SheetScan("S1", {"sheet_id": "S1", "seats": ["A", "B", "C"]}, "L3", (page,),
                     (entry, row), {"format": "pulka-record/1"}, (2,), ("a problem",), 0.5,
                     {"note": 1})


def test_the_document_names_every_field_in_order() -> None:
    scan = _scan()
    doc = scan.to_json()
    assert list(doc) == [f.name for f in fields(SheetScan)] + ["format"]
    assert doc["format"] == SCAN_FORMAT
    assert [list(p) for p in doc["pages"]] == [[f.name for f in fields(ScannedPage)]]
    assert [list(f) for f in doc["fields"]] == [[f.name for f in fields(FieldReading)]] * 2
    assert doc["fields"][0]["ink"] == ((12, 0.75), (17, 0.125))


def test_the_document_reads_back_to_the_scan() -> None:
    scan = _scan()
    assert SheetScan.from_json(json.loads(json.dumps(scan.to_json()))) == scan
