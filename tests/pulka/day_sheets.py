"""Sheets of a tournament day for the store's tests: a game split onto a continuation sheet,
a page left unscanned, a blank sheet, a sheet given another identity (synthetic scans from
:mod:`samplegen.scans`, no images)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from forms.identity import SheetIdentity
from pulka.store.database import Store
from pulka.store.rebuild import parse_key
from samplegen.scans import synthetic_tournament
from scanner.results import FieldReading, ScannedPage, SheetScan, entry_key, row_key


@contextmanager
def two_rounds_stored(db: Path) -> Iterator[Store]:
    """A store at ``db`` holding "Open": a synthetic draw of two rounds of four tables (seed
    11, two recording errors a sheet), every sheet imported and kept as ``store.sheets``."""
    draw, sheets = synthetic_tournament(random.Random(11), "Open", rounds=2, tables=4,
                                        errors=2)
    with Store(db) as opened:
        opened.new_tournament("Open", 2, 4, [(r, t, "ABC", n) for r, t, n in draw])
        for sheet in sheets:
            opened.import_scan(sheet.scan)
        opened.sheets = sheets  # type: ignore[attr-defined]
        yield opened


def with_identity(scan: SheetScan, identity: SheetIdentity) -> SheetScan:
    """The scan as if read from the printed sheet ``identity`` (pages named after its id)."""
    doc = {"sheet_id": identity.sheet_id, "tournament": identity.tournament,
           "round": identity.round, "table": identity.table, "page": 0,
           "continuation": identity.continuation, "layout_id": scan.layout_id,
           "rules_id": identity.rules_id, "rules": dict(identity.rules),
           "seats": list(identity.seats), "names": list(identity.names), "date": identity.date}
    pages = tuple(replace(p, source=p.source.replace(scan.sheet_id, identity.sheet_id),
                          image=p.image.replace(scan.sheet_id, identity.sheet_id))
                  for p in scan.pages)
    return replace(scan, sheet_id=identity.sheet_id, identity=doc, pages=pages)


def _part(scan: SheetScan, keep: dict[str, int], continuation: int,
          rows: range) -> SheetScan:
    """One sheet of a split game: the rows in ``rows`` and each column's entries from
    ``keep[column]`` on (``continuation`` 1), or before it (0), numbered from 0 again."""
    fields = []
    for f in scan.fields:
        where = parse_key(f.key)
        if isinstance(where, int):
            if where in rows:
                fields.append(replace(f, key=row_key(where - rows.start)))
            continue
        seat, kind, on, n = where
        cut = keep[f"{seat}:{kind}:{on}"]
        if (n >= cut) == bool(continuation):
            fields.append(replace(f, key=entry_key(seat, kind, on, n - cut * continuation)))
    sheet_id = scan.sheet_id + (f"-C{continuation}" if continuation else "")
    pages = tuple(ScannedPage(p.index, f"{sheet_id}-page-{p.index}.png",
                              f"{sheet_id}/page-{p.index}.png", p.fit_error_mm)
                  for p in scan.pages)
    record = {**scan.record, "deals": scan.record["deals"][rows.start:rows.stop]}
    identity = {**scan.identity, "sheet_id": sheet_id, "continuation": continuation}
    return SheetScan(sheet_id, identity, scan.layout_id, pages, tuple(fields), record)


def split_game(scan: SheetScan) -> tuple[SheetScan, SheetScan]:
    """A game's scan as its first sheet and continuation 1: half the deal rows on each, each
    column's entries split after its first half (running totals go on on the second)."""
    deals = len(scan.record["deals"])
    columns: dict[str, int] = {}
    for f in scan.fields:
        where = parse_key(f.key)
        if not isinstance(where, int):
            seat, kind, on, _ = where
            columns[f"{seat}:{kind}:{on}"] = columns.get(f"{seat}:{kind}:{on}", 0) + 1
    keep = {column: (count + 1) // 2 for column, count in columns.items()}
    half = deals // 2
    return (_part(scan, keep, 0, range(0, half)), _part(scan, keep, 1, range(half, deals)))


def without_page(scan: SheetScan, page: int) -> SheetScan:
    """The scan with one page not scanned (its cells gone, the page named missing)."""
    return replace(scan, pages=tuple(p for p in scan.pages if p.index != page),
                   fields=tuple(f for f in scan.fields if f.page != page),
                   missing_pages=(page,))


def only_page(scan: SheetScan, page: int) -> SheetScan:
    """The scan of one page alone, as a later scan of a page missing before."""
    others = tuple(p.index for p in scan.pages if p.index != page)
    return replace(scan, pages=tuple(p for p in scan.pages if p.index == page),
                   fields=tuple(f for f in scan.fields if f.page == page), missing_pages=others)


def blank(scan: SheetScan) -> SheetScan:
    """The scan of the sheet left empty: every field read empty, no deal."""
    fields = tuple(FieldReading(f.key, f.page, f.rect_mm, f.status, None, 0.99, deal=f.deal)
                   for f in scan.fields)
    pages = tuple(replace(p, source=f"blank-{p.source}") for p in scan.pages)
    return replace(scan, fields=fields, pages=pages, record={**scan.record, "deals": []})


def write_scan(scan: SheetScan, folder: Path) -> Path:
    """The scan written as ``folder/scan.json`` (what ``pulka import`` reads back)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "scan.json"
    doc: dict[str, Any] = scan.to_json()
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path
