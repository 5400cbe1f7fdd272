"""A ``scan.json`` edited or damaged by hand: refused with one line naming the file and field."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pulka.cli.main import main
from pulka.store.database import Store
from samplegen.scans import synthetic_tournament
from scanner.results import SheetScan
from scoring.exitcode import ExitCode

Edit = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Edit:
    """An edit that sets the value at a dotted path (numbers index lists)."""
    def edit(doc: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        here: Any = doc
        for part in parents:
            here = here[int(part)] if isinstance(here, list) else here[part]
        if isinstance(here, list):
            here[int(last)] = value
        else:
            here[last] = value
    return edit


DAMAGE = [
    ("pages", _set("pages", "page-1.jpg"), "pages"),
    ("a page as a string", _set("pages.0", "page-1.jpg"), "pages[0]"),
    ("a null page index", _set("pages.0.index", None), "pages[0].index"),
    ("fields as an object", _set("fields", {"key": "row:0"}), "fields"),
    ("a key of nothing", _set("fields.0.key", "cell:1"), "fields[0].key"),
    ("an unknown status", _set("fields.0.status", "maybe"), "fields[0].status"),
    ("a string confidence", _set("fields.0.confidence", "high"), "fields[0].confidence"),
    ("rect_mm of three", _set("fields.0.rect_mm", [1, 2, 3]), "fields[0].rect_mm"),
    ("a huge round", _set("identity.round", 10**30), "identity.round"),
    ("a huge pool", _set("identity.rules.pool", 10**40), "identity.rules.pool"),
    ("seats of objects", _set("identity.seats", [{"a": 1}]), "identity.seats[0]"),
    ("identity as a string", _set("identity", "S1"), "identity"),
    ("missing pages of nulls", _set("missing_pages", [None, 1]), "missing_pages[0]"),
    ("deals as an object", _set("record.deals", {"0": {}}), "record.deals"),
    ("a sheet id as a number", _set("sheet_id", 7), "sheet_id"),
    ("deep nesting", _set("extra", json.loads("[" * 60 + "]" * 60)), "extra"),
]


@pytest.fixture(name="scan_file")
def _scan_file(tmp_path: Path) -> Path:
    synthetic_tournament(random.Random(5), "Open", 1, 1, folder=tmp_path / "in")
    (path,) = (tmp_path / "in").rglob("scan.json")
    return path


@pytest.mark.parametrize(("name", "edit", "field"), DAMAGE, ids=[d[0] for d in DAMAGE])
def test_a_damaged_scan_document_is_refused_by_file_and_field(
        tmp_path: Path, scan_file: Path, capsys: pytest.CaptureFixture[str],
        name: str, edit: Edit, field: str) -> None:
    doc = json.loads(scan_file.read_text(encoding="utf-8"))
    edit(doc)
    scan_file.write_text(json.dumps(doc), encoding="utf-8")
    db = tmp_path / "t.sqlite"
    assert main(["import", str(tmp_path / "in"), "--db", str(db)]) == ExitCode.PARTIAL
    err = capsys.readouterr().err
    (line,) = err.splitlines()
    assert line.startswith(f"pulka import: {scan_file}: not a readable pulka-scan/1 document")
    assert f"field {field}" in line, line
    with Store(db) as store:
        assert store.sheet_ids() == []


@pytest.mark.parametrize("text", ["\"a string\"", "[1, 2]", "null", "{\"format\": 5}",
                                  "1" * 5000, "[" * 100_000, "\xff\xfe"])
def test_a_document_that_is_no_scan_at_all_is_refused(
        tmp_path: Path, scan_file: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    scan_file.write_bytes(text.encode("latin-1"))
    assert main(["import", str(tmp_path / "in"), "--db", str(tmp_path / "t.sqlite")]) == 5
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"pulka import: {scan_file}: not a readable pulka-scan/1 document")


def test_an_intact_document_still_reads_back(scan_file: Path) -> None:
    doc = json.loads(scan_file.read_text(encoding="utf-8"))
    assert SheetScan.from_json(doc).to_json()["sheet_id"] == doc["sheet_id"]
