"""What a game record's ``written`` part puts into each box of a printed sheet.

The convention is :mod:`forms.render.fill`'s (the clean computer hand), whose
:func:`deal_values` maps
the deal rows; the running totals are mapped here because a sample writes the record's
``written`` part (errors included), not the expected sheet. A total goes into its entry's digit
cells **right-aligned** (``14`` in a 3-digit whists entry fills cells 1 and 2); a negative
mountain gets ``-`` in its sign cell. A total that is not a whole number (a Rostov half-whist
share such as 7.5) cannot go into digit cells: it is written rounded toward zero, as
:mod:`forms.render.fill` does, and :func:`whole_written` lists each one.

>>> digits_right_aligned(14, 3)
['', '1', '4']
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from forms.layout import entry_cells
from forms.model import Box, ColumnKind, DealCell, Layout
from forms.render.fill import FillError
from forms.render.fill import deal_values as forms_deal_values
from scoring.record import GameRecord

MARK = "x"


@dataclass(frozen=True)
class Rounded:
    """A written total that had to be rounded to go into digit cells."""

    column: str
    entry: int
    value: float
    written: int


def digits_right_aligned(value: int, cells: int) -> list[str]:
    """The characters of ``abs(value)`` in ``cells`` cells, right-aligned."""
    text = str(abs(value))
    if len(text) > cells:
        raise FillError(f"{value} needs {len(text)} digit cells, the sheet has {cells}")
    return [""] * (cells - len(text)) + list(text)


def whole_written(written: dict[str, Any]) -> tuple[dict[str, Any], list[Rounded]]:
    """A copy of a record's ``written`` part with every total a whole number, and what changed."""
    rounded: list[Rounded] = []

    def fix(values: list[Any], name: str) -> list[int]:
        out = []
        for i, v in enumerate(values):
            w = math.trunc(float(v))
            if w != v:
                rounded.append(Rounded(name, i + 1, float(v), w))
            out.append(int(w))
        return out

    result = {seat: {"pool": fix(cols["pool"], f"{seat} pool"),
                     "mountain": fix(cols["mountain"], f"{seat} mountain"),
                     "whists": {o: fix(v, f"{seat} whists on {o}")
                                for o, v in cols["whists"].items()}}
              for seat, cols in written.items()}
    return result, rounded


def entry_values(layout: Layout, written: dict[str, Any]) -> dict[Box, str]:
    """The characters of every running total of ``written`` (whole numbers), by box."""
    cells = entry_cells(layout)
    values: dict[Box, str] = {}
    for seat, cols in written.items():
        columns: list[tuple[ColumnKind, str | None, Any]] = [
            ("pool", None, cols["pool"]), ("mountain", None, cols["mountain"])]
        columns += [("whists", on, v) for on, v in cols["whists"].items()]
        for kind, on, totals in columns:
            entries = cells.get((seat, kind, on), [])
            name = f"{seat} {kind}" + (f" on {on}" if on else "")
            if len(totals) > len(entries):
                raise FillError(f"column {name} has {len(totals)} entries, the sheet has room "
                                f"for {len(entries)}; use a shorter game (a smaller pool)")
            for total, boxes in zip(totals, entries, strict=False):
                signed = boxes[0].kind == "sign"
                digit_boxes = boxes[1:] if signed else boxes
                if total < 0 and not signed:
                    raise FillError(f"column {name}: negative total {total} has no sign cell")
                try:
                    chars = digits_right_aligned(int(total), len(digit_boxes))
                except FillError as error:
                    raise FillError(f"column {name}: {error}") from None
                values.update(zip(digit_boxes, chars, strict=True))
                if signed:
                    values[boxes[0]] = "-" if total < 0 else ""
    return values


def columns_fit(layout: Layout, written: dict[str, Any]) -> bool:
    """Whether every running total of ``written`` (whole numbers) fits its column's boxes
    (:func:`entry_values` finds no :class:`FillError`)."""
    try:
        entry_values(layout, written)
    except FillError:
        return False
    return True


def deal_values(layout: Layout, record: GameRecord) -> dict[Box, str]:
    """The crosses and digits of every deal row, by box (:func:`forms.render.fill.deal_values`)."""
    index = {b.meaning: b for b in layout.boxes if isinstance(b.meaning, DealCell)}
    rows = layout.counts["deal_rows"]
    if len(record.deals) > rows:
        raise FillError(f"the record has {len(record.deals)} deals, the sheet has {rows} rows; "
                        f"use a shorter game (a smaller pool)")
    values: dict[Box, str] = {}
    for row, deal in enumerate(record.deals):
        for (fld, option), char in forms_deal_values(deal, layout.talon).items():
            values[index[DealCell(row, fld, option)]] = char
    return values


def mark_groups(layout: Layout, row: int) -> dict[str, list[Box]]:
    """The mark boxes of one deal row by choice group (``declarer``, ``call:B``, ...)."""
    groups: dict[str, list[Box]] = {}
    for box in layout.boxes:
        m = box.meaning
        if box.kind == "mark" and isinstance(m, DealCell) and m.row == row:
            key = m.field + (":" + m.option.split(":")[0] if m.field == "call" else "")
            groups.setdefault(key, []).append(box)
    return groups
