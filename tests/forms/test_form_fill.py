"""Filling a sheet from a record: the clean hand writes the expected sheet and the deal rows."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from forms.layout import build_layout, entry_cells
from forms.model import DealCell, EntryCell
from forms.render.fill import FillError, _write_total, deal_values, fill_from_record
from scoring import expected_sheet, parse_record

DATA = Path(__file__).resolve().parent.parent / "data" / "forms"


def _record(players: int):
    return parse_record(json.loads((DATA / f"game{players}.json").read_text("utf-8")))


@pytest.mark.parametrize("players", [3, 4])
def test_columns_read_back_as_the_expected_totals(players: int) -> None:
    record = _record(players)
    layout = build_layout(players, talon=record.rules.talon_prize)
    fills = fill_from_record(record, layout)
    assert len(fills) == 1
    values = fills[0].values
    sheet = expected_sheet(record)
    for (seat, kind, on), entries in entry_cells(layout).items():
        expected = [int(e.total) for e in sheet.entries
                    if (e.column.seat, e.column.kind, e.column.on) == (seat, kind, on)]
        read = []
        for entry in entries:
            text = "".join(values.get(b, "") for b in entry)
            if text:
                read.append(int(text))
        assert read == expected, (seat, kind, on)
    rows = {b.meaning.row for b in values if isinstance(b.meaning, DealCell)}
    assert rows == set(range(len(record.deals)))
    assert all(isinstance(b.meaning, EntryCell | DealCell) or b.kind == "digit" for b in values)


def test_deal_row_of_a_misere_and_an_allpass() -> None:
    record = _record(3)
    for deal in record.deals:
        values = deal_values(deal, talon=False)
        if deal.kind == "allpass":
            assert values[("declarer", "allpass")] == "x"
            assert not any(k[0] == "result" for k in values)
        else:
            assert sum(1 for k in values if k[0] == "result") == 1


def test_overflow_goes_to_a_continuation_sheet() -> None:
    record = _record(4)
    layout = build_layout(4, talon=record.rules.talon_prize)
    deals = record.deals * 2
    from dataclasses import replace
    long_game = replace(record, deals=deals)
    fills = fill_from_record(long_game, layout, expected_sheet(record))
    assert len(fills) == 2
    assert any(isinstance(b.meaning, DealCell) for b in fills[1].values)


def test_totals_that_do_not_fit() -> None:
    cells = entry_cells(build_layout(3))[("A", "pool", None)][0]
    with pytest.raises(FillError, match="needs 3 digits"):
        _write_total({}, cells, Fraction(120), "A pool entry 1")
    with pytest.raises(FillError, match="no sign cell"):
        _write_total({}, cells, Fraction(-1), "A pool entry 1")
    mountain = entry_cells(build_layout(3))[("A", "mountain", None)][0]
    page: dict = {}
    _write_total(page, mountain, Fraction(-12), "A mountain")
    assert [page.get(b, "") for b in mountain] == ["-", "", "1", "2"]


def test_players_must_match() -> None:
    with pytest.raises(FillError, match="for 3 players"):
        fill_from_record(_record(3), build_layout(4))
