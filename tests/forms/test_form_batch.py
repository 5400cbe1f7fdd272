"""Tournament batches and draw CSVs."""

from __future__ import annotations

import pytest

from forms.render.batch import DrawError, batch_requests, blank_seatings, read_draw
from scoring.rules import RuleSet


def _write(tmp_path, text: str):
    path = tmp_path / "draw.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_draw_and_unique_ids(tmp_path) -> None:
    path = _write(tmp_path, "round,table,A,B,C\n1,1,Ann,Bob,Cid\n1,2,Dan,Eve,-\n\n"
                            "2,1,Ann,Eve,Bob\n")
    seatings = read_draw(path, 3)
    assert [(s.round, s.table) for s in seatings] == [(1, 1), (1, 2), (2, 1)]
    assert seatings[1].names == ("Dan", "Eve", "")
    requests = list(batch_requests(seatings, RuleSet.preset("sochi", 3, 20), "Open", "en"))
    ids = [r.identity.sheet_id for r in requests]
    assert len(set(ids)) == 3 and ids[0].startswith("R1-T01-")
    again = list(batch_requests(seatings, RuleSet.preset("sochi", 3, 20), "Open", "en"))
    assert [r.identity.sheet_id for r in again] == ids


def test_blank_batch() -> None:
    seatings = blank_seatings(3, 4, 4)
    assert len(seatings) == 12 and seatings[-1].names == ("",) * 4
    rules = RuleSet.preset("rostov", 4, 10)
    ids = {r.identity.sheet_id for r in batch_requests(seatings, rules, "", "uk")}
    assert len(ids) == 12


@pytest.mark.parametrize(("text", "message"), [
    ("round,table,A,B\n1,1,x,y\n", "missing C"),
    ("round,table,A,B,C\n1,1,Ann,,Cid\n", "line 2: round 1, table 1 has no name for seat B"),
    ("round,table,A,B,C\none,1,a,b,c\n", "whole numbers"),
    ("round,table,A,B,C\n1,1,a,b,c\n1,1,d,e,f\n", "already on line 2"),
    ("round,table,A,B,C\n", "no tables"),
    ("round,table,A,B,C\n0,1,a,b,c\n", "count from 1"),
])
def test_bad_draws(tmp_path, text: str, message: str) -> None:
    with pytest.raises(DrawError, match=message):
        read_draw(_write(tmp_path, text), 3)


def test_missing_file(tmp_path) -> None:
    with pytest.raises(DrawError, match="cannot read"):
        read_draw(tmp_path / "nope.csv", 3)
