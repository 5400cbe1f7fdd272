"""scanner.results: the pulka-scan/1 document holds every field of every dataclass, in order,
and reads back to the same scan."""

from __future__ import annotations

import json
import pickle
from dataclasses import fields, replace
from typing import Any

import pytest

from scanner.jsoncheck import DocumentError
from scanner.results import SCAN_FORMAT, FieldReading, ScannedPage, SheetScan
from scanner.words import said, value_said
from scoring.said import Said


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


def _coded() -> SheetScan:
    where = said("file_page", file="in/page-0.jpg", page=1)
    scan = _scan()
    page = replace(scan.pages[0], warnings=(said("low_dpi", where=where, dpi=149),))
    note = said("ink_overruled", ink=value_said(None), value=24)
    return replace(scan, pages=(page,), fields=(replace(scan.fields[0], note=note),
                                                scan.fields[1]),
                   problems=(said("page_missing", sheet="S1", page=3, pages=3),))


def test_sentences_travel_as_codes_with_their_english() -> None:
    doc = json.loads(json.dumps(_coded().to_json()))
    assert doc["pages"][0]["warnings"][0] == {
        "code": "low_dpi", "message": "in/page-0.jpg, page 1 is only 149 dpi: check its readings",
        "params": {"dpi": 149, "where": {"code": "file_page", "message": "in/page-0.jpg, page 1",
                                          "params": {"file": "in/page-0.jpg", "page": 1}}}}
    assert doc["fields"][0]["note"]["params"]["ink"]["code"] == "nothing"
    assert doc["fields"][1]["note"] == ""
    back = SheetScan.from_json(doc)
    assert back == _coded()
    warning = back.pages[0].warnings[0]
    assert isinstance(warning, Said) and warning.params["where"].code == "file_page"
    assert back.fields[0].note.code == "ink_overruled"  # type: ignore[attr-defined]


def test_a_scan_without_codes_still_loads() -> None:
    doc = json.loads(json.dumps(_scan().to_json()))
    assert doc["problems"] == ["a problem"]
    back = SheetScan.from_json(doc)
    assert back.problems == ("a problem",) and not isinstance(back.problems[0], Said)


@pytest.mark.parametrize(("sentence", "field"), [
    ({"code": "Low DPI", "params": {}, "message": "x"}, "problems[0].code"),
    ({"code": "low_dpi", "params": {"dpi": [1]}, "message": "x"}, "problems[0].params.dpi"),
    ({"code": "low_dpi", "params": {}}, "problems[0].message"),
    ({"code": "low_dpi", "params": {"not a name": 1}, "message": "x"},
     "problems[0].params.not a name"),
])
def test_a_bad_sentence_is_named(sentence: dict[str, Any], field: str) -> None:
    doc = json.loads(json.dumps(_scan().to_json()))
    doc["problems"] = [sentence]
    with pytest.raises(DocumentError) as error:
        SheetScan.from_json(doc)
    assert error.value.where == field


def test_codes_cross_a_process_boundary() -> None:
    back = pickle.loads(pickle.dumps(_coded()))  # the import's worker processes
    warning = back.pages[0].warnings[0]
    assert warning.code == "low_dpi" and warning.params["where"].code == "file_page"
