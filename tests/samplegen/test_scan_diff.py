"""Two reads of the same sample sheets compared field by field (bench.scan_diff)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.scan_diff import moves

DEAL = {"dealer": "A", "type": "allpass", "tricks": {"A": 4, "B": 3, "C": 3}}
RECORD = {"deals": [DEAL], "written": {"A": {"pool": [2, 4], "mountain": [], "whists": {}}}}


def _run(folder: Path, fields: list[dict[str, Any]] | None) -> Path:
    """A reader_eval --out folder of one sheet, read into ``fields`` (None: refused)."""
    sample = folder / "samples" / "000-open-sochi-3"
    sample.mkdir(parents=True)
    (sample / "truth.json").write_text(json.dumps({"record": RECORD}), encoding="utf-8")
    if fields is not None:
        scan = folder / "scans-0" / "000" / "S-1"
        scan.mkdir(parents=True)
        (scan / "scan.json").write_text(json.dumps({"fields": fields}), encoding="utf-8")
    return folder


def _field(key: str, status: str, value: Any, note: str = "") -> dict[str, Any]:
    return {"key": key, "status": status, "value": value, "note": {"message": note}}


def test_each_field_read_otherwise_is_one_move_named_by_the_truth(tmp_path: Path) -> None:
    """A right pool total now asked, a wrong one now asked, a blank box now asked, a total
    no longer reported; the deal row read alike (a dict with its keys in another order) and
    a field read alike do not move."""
    before = _run(tmp_path / "before", [
        _field("row:0", "read", DEAL), _field("entry:A:pool:0", "read", 2),
        _field("entry:A:pool:1", "read", 7), _field("entry:A:pool:2", "empty", None),
        _field("entry:A:mountain:0", "read", 3)])
    after = _run(tmp_path / "after", [
        _field("row:0", "read", dict(reversed(list(DEAL.items())))),
        _field("entry:A:pool:0", "doubtful", 2, "ink unsure"),
        _field("entry:A:pool:1", "doubtful", 7),
        _field("entry:A:pool:2", "doubtful", None)])
    moved = {m.key: (m.before, m.after) for m in moves(before, after)}
    assert moved == {"entry:A:pool:0": ("right-read", "right-doubtful"),
                     "entry:A:pool:1": ("wrong-read", "wrong-doubtful"),
                     "entry:A:pool:2": ("blank-empty", "blank-doubtful"),
                     "entry:A:mountain:0": ("wrong-read", "absent")}
    line = next(m for m in moves(before, after) if m.key == "entry:A:pool:0").line()
    assert line == "before/000-open-sochi-3 entry:A:pool:0 (truth 2): right-read -> " \
        "right-doubtful: ink unsure"


def test_a_sheet_refused_on_one_side_is_one_move(tmp_path: Path) -> None:
    before = _run(tmp_path / "before", None)
    after = _run(tmp_path / "after", [_field("entry:A:pool:0", "read", 2)])
    assert [(m.key, m.before, m.after) for m in moves(before, after)] == \
        [("sheet", "refused", "read")]
    assert list(moves(before, _run(tmp_path / "again", None))) == []
