"""A stored sheet as it stands now, for a report rebuilt from the store: its rebuilt record,
a scan made of its stored pages and cells (a verified cell as read, with the person's value),
the doubtful fields nobody verified, the rulings and the sign-off."""

from __future__ import annotations

import json
from dataclasses import dataclass

from pulka.store.database import Store
from pulka.store.doubts import field_doubts
from pulka.store.errors import StoreError
from pulka.store.joins import game_of
from pulka.store.rows import (
    CellRow,
    SignOff,
    named_rows,
    sheet_cells,
    sheet_signoff,
    stored_sentences,
)
from scanner.results import CellStatus, FieldReading, ScannedPage, SheetScan
from scoring.rulings import Doubts


@dataclass(frozen=True)
class StoredSheet:
    """What a report of one stored sheet is made from."""

    record: dict[str, object]
    scan: SheetScan
    scan_path: str | None
    """The sheet's ``scan.json`` as imported (its images' paths are relative to its folder)."""
    doubts: Doubts
    rulings: dict[str, tuple[str, str, str]]
    """Finding key -> ``(action, who, at)``."""
    signoff: SignOff | None


def stored_sheet(store: Store, sheet_id: str) -> StoredSheet:
    """One sheet as the store has it; :class:`StoreError` when its record cannot be scored."""
    sheet_pk = store._sheet_pk(sheet_id)  # noqa: SLF001 - same package, same tables
    (sheet,) = named_rows(store.conn, "SELECT * FROM sheets WHERE id = ?", (sheet_pk,))
    if sheet["record_json"] is None or sheet["record_error"]:
        raise StoreError(f"sheet {sheet_id}: the rules engine refuses its record "
                         f"({sheet['record_error'] or 'not scored'}); correct it on the "
                         "review page first")
    cells = sheet_cells(store.conn, sheet_pk)
    pages = tuple(ScannedPage(r["page_index"], r["source"], r["image"] or "",
                              r["fit_error_mm"] or 0.0, stored_sentences(r["warnings_json"]))
                  for r in named_rows(store.conn, "SELECT * FROM pages WHERE sheet_id = ? "
                                                  "ORDER BY page_index", (sheet_pk,)))
    scan = SheetScan(sheet_id, json.loads(sheet["identity_json"]), sheet["layout_id"], pages,
                     tuple(_field(c) for c in cells), json.loads(sheet["scan_record_json"]),
                     tuple(json.loads(sheet["missing_pages_json"])),
                     stored_sentences(sheet["problems_json"]))
    rulings = {r[0]: (r[1], r[2], r[3]) for r in store.conn.execute(
        "SELECT finding_key, action, who, at FROM rulings WHERE sheet_id = ?", (sheet_pk,))}
    return StoredSheet(json.loads(sheet["record_json"]), scan, sheet["scan_path"],
                       field_doubts(game_of(store.conn, sheet_pk).fields), rulings,
                       sheet_signoff(store.conn, sheet_pk))


def _field(cell: CellRow) -> FieldReading:
    """A stored cell as a field of a scan: a verified one is read, with the person's value."""
    status = CellStatus.READ if cell.verified else cell.status
    rect = tuple(cell.rect_mm)
    return FieldReading(cell.key, cell.page, (rect[0], rect[1], rect[2], rect[3]), status,
                        cell.value, cell.confidence,
                        tuple((c[0], float(c[1])) for c in cell.candidates), cell.expected,
                        cell.deal, cell.note, cell.crop, cell.ink or ())
