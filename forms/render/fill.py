"""Filling a sheet from a game record in a clean computer hand (``pulka print --record``).

The filled sheet is the reference copy for the audit report and a test fixture for the
scanner: every column's running totals as :func:`scoring.sheet.expected_sheet` writes them, in
the order written (Codex 4.2.1, 4.2.5), the end-of-game corrections included; the
contract/result column from the deal log (Codex 4.2.11); the calibration strips with 0..9.

Entries beyond a column's cells, and deals beyond the rows, go on continuation sheets
(``fills[1]``, ``fills[2]``, ...). A total is written right-aligned in its digit cells; a
negative mountain gets ``-`` in its sign cell. A total that is not whole (a half whist of a
3-player talon prize) is written rounded toward zero, with a warning in the log.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Mapping
from fractions import Fraction

from forms.layout import calibration_cells, entry_cells
from forms.model import Box, DealCell, Layout
from forms.render.sheet import SheetFill
from scoring.deals import Deal
from scoring.exitcode import PulkaError
from scoring.record import GameRecord
from scoring.sheet import ExpectedSheet, expected_sheet

log = logging.getLogger(__name__)


class FillError(PulkaError, ValueError):
    """A record that does not fit the sheet's cells (too many deals, entries or digits); the
    message names the column."""


def fill_from_record(record: GameRecord, layout: Layout,
                     sheet: ExpectedSheet | None = None) -> list[SheetFill]:
    """What the clean hand writes on each sheet of the game (first, then continuations)."""
    if record.rules.players != layout.players:
        raise FillError(f"the record is for {record.rules.players} players, the layout for "
                        f"{layout.players}")
    sheet = expected_sheet(record) if sheet is None else sheet
    to_layout = dict(zip(record.seats, layout.seats, strict=True))  # any letters, clockwise
    pages: dict[int, dict[Box, str]] = defaultdict(dict)
    columns = entry_cells(layout)
    for seat in layout.seats:
        for digit, box in enumerate(calibration_cells(layout, seat)):
            pages[0][box] = str(digit)
    written: dict[tuple[str, str, str | None], int] = defaultdict(int)
    for entry in sheet.entries:
        col = entry.column
        key = (to_layout[col.seat], col.kind, None if col.on is None else to_layout[col.on])
        cells = columns[key]
        index = written[key]
        written[key] += 1
        sheet_no, slot = divmod(index, len(cells))
        _write_total(pages[sheet_no], cells[slot], entry.total, f"{col} entry {index + 1}")
    rows = layout.counts["deal_rows"]
    by_row: dict[int, list[Box]] = defaultdict(list)
    for box in layout.boxes:
        if isinstance(box.meaning, DealCell):
            by_row[box.meaning.row].append(box)
    for index, deal in enumerate(record.deals):
        sheet_no, row = divmod(index, rows)
        boxes = {(b.meaning.field, b.meaning.option): b for b in by_row[row]}  # type: ignore[union-attr]
        for field_option, value in deal_values(deal, layout.talon, to_layout).items():
            pages[sheet_no][boxes[field_option]] = value
        printed_dealer = layout.seats[row % layout.players]
        if to_layout[deal.dealer] != printed_dealer:
            log.warning("deal %d: dealt by %s, the sheet prints %s (play rotates from A)",
                        deal.number, deal.dealer, printed_dealer)
    return [SheetFill(pages[k]) for k in range(max(pages) + 1)]


def _write_total(page: dict[Box, str], cells: tuple[Box, ...], total: Fraction,
                 where: str) -> None:
    value = int(total)  # toward zero
    if value != total:
        log.warning("%s: %s is not whole; the sheet shows %d", where, total, value)
    signed = cells[0].kind == "sign"
    digit_cells = cells[1:] if signed else cells
    if value < 0 and not signed:
        raise FillError(f"{where}: {value} is negative, and this column has no sign cell")
    text = str(abs(value))
    if len(text) > len(digit_cells):
        raise FillError(f"{where}: {value} needs {len(text)} digits, the sheet has "
                        f"{len(digit_cells)}; write it on a sheet with wider columns")
    if signed and value < 0:
        page[cells[0]] = "-"
    for box, char in zip(digit_cells[len(digit_cells) - len(text):], text, strict=True):
        page[box] = char


def deal_values(deal: Deal, talon: bool, seats: Mapping[str, str] | None = None
                ) -> dict[tuple[str, str], str]:
    """The row of one deal: ``(field, option) -> "x"`` for marks, a digit for cells;
    ``seats`` maps the record's seat letters to the sheet's (A, B, C, D) where they differ.

    >>> from scoring.rules import RuleSet
    >>> from scoring.deals import make_deal
    >>> deal = make_deal(RuleSet.preset("sochi", 3, 20), ("A", "B", "C"), number=1,
    ...     dealer="A", kind="contract", declarer="B", contract="8H",
    ...     defence={"C": "whist", "A": "pass"}, tricks={"B": 7, "C": 2, "A": 1})
    >>> sorted(deal_values(deal, talon=False))[:4]
    [('call', 'A:pass'), ('call', 'C:whist'), ('declarer', 'B'), ('level', '8')]
    >>> values = deal_values(deal, talon=False)
    >>> values[("result", "-")], values[("result_tricks", "1")]
    ('x', '1')
    """
    values: dict[tuple[str, str], str] = {}
    letter = (lambda seat: seats.get(seat, seat)) if seats else (lambda seat: seat)
    if deal.kind == "allpass":
        values[("declarer", "allpass")] = "x"
    else:
        assert deal.declarer is not None
        values[("declarer", letter(deal.declarer))] = "x"
        if deal.kind == "misere":
            values[("level", "misere")] = "x"
        else:
            assert deal.contract is not None
            values[("level", str(deal.contract.level))] = "x"
            values[("suit", deal.contract.suit.value)] = "x"
            if talon and deal.talon_quick_tricks:
                values[("talon", "0")] = str(deal.talon_quick_tricks)
        for seat, call in deal.defence:
            values[("call", f"{letter(seat)}:{call}")] = "x"
        over = deal.tricks_over() or 0
        values[("result", "=" if over == 0 else "-" if over < 0 else "+")] = "x"
        if over:
            text = str(abs(over)).rjust(2)
            for pos, char in enumerate(text):
                if char != " ":
                    values[("result_tricks", str(pos))] = char
    for seat, tricks in deal.tricks or ():
        text = str(tricks).rjust(2)
        for pos, char in enumerate(text):
            if char != " ":
                values[("tricks", f"{letter(seat)}:{pos}")] = char
    return values
