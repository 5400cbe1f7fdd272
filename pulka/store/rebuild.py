"""A stored sheet's ``pulka-record/1`` document, rebuilt from its cells; cell keys parsed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scoring.record import FORMAT


def parse_key(key: str) -> tuple[str, str, str | None, int] | int:
    """A cell key as (seat, column, on, entry) for an entry, or the row number for a row.

    >>> parse_key("entry:A:whists:B:3"), parse_key("entry:C:pool:0"), parse_key("row:12")
    (('A', 'whists', 'B', 3), ('C', 'pool', None, 0), 12)
    """
    parts = key.split(":")
    if parts[0] == "row" and len(parts) == 2:
        return int(parts[1])
    if parts[0] == "entry" and len(parts) == 5:
        return parts[1], parts[2], parts[3], int(parts[4])
    if parts[0] == "entry" and len(parts) == 4:
        return parts[1], parts[2], None, int(parts[3])
    raise ValueError(f"cell key {key!r} is neither entry:SEAT:COLUMN[:ON]:N nor row:N")


def rebuild_record(identity: Mapping[str, Any], scan_record: Mapping[str, Any],
                   cells: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """The ``pulka-record/1`` document of a sheet from its cells ``(key, value)``.

    Rows give the deal log (empty rows skipped), entries the written columns; when a sheet
    has no row cells (or no entry cells) the scan's record supplies that part.
    """
    seats = list(identity.get("seats") or scan_record.get("seats") or ())
    rows: dict[int, Any] = {}
    entries: dict[tuple[str, str, str | None], dict[int, Any]] = {}
    for key, value in cells:
        where = parse_key(key)
        if isinstance(where, int):
            rows[where] = value
        else:
            seat, kind, on, n = where
            entries.setdefault((seat, kind, on), {})[n] = value
    doc: dict[str, Any] = {"format": FORMAT,
                           "rules": dict(identity.get("rules") or scan_record.get("rules") or {}),
                           "seats": seats}
    names = {s: n for s, n in zip(seats, identity.get("names") or (), strict=False) if n}
    names = names or dict(scan_record.get("names") or {})
    if names:
        doc["names"] = names
    if rows:
        doc["deals"] = [rows[n] for n in sorted(rows) if rows[n] is not None]
    else:
        doc["deals"] = list(scan_record.get("deals") or [])
    if entries:
        written: dict[str, Any] = {s: {"pool": [], "mountain": [],
                                       "whists": {o: [] for o in seats if o != s}}
                                   for s in seats}
        for (seat, kind, on), values in entries.items():
            column = [values[n] for n in sorted(values) if values[n] is not None]
            if seat not in written:
                continue
            if on:
                written[seat]["whists"][on] = column
            else:
                written[seat][kind] = column
        doc["written"] = written
    elif "written" in scan_record:
        doc["written"] = scan_record["written"]
    if "end" in scan_record:
        doc["end"] = scan_record["end"]
    return doc
