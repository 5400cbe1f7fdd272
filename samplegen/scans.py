"""Synthetic :class:`~scanner.results.SheetScan` values from random games, without images.

For the store's tests and benchmark: a tournament's sheets as the scanner would hand them on,
each field *read* with its true value (or *doubtful*, on request), recording errors injected
into the written columns (:func:`scoring.random_games.inject_errors`), and one small stand-in
file per page so that pages have real content hashes.
"""

from __future__ import annotations

import json
import logging
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forms.identity import make_sheet_id
from scanner.results import CellStatus, FieldReading, ScannedPage, SheetScan, entry_key, row_key
from scoring import expected_sheet, parse_record
from scoring.random_games import InjectedError, inject_errors, random_record, written_columns
from scoring.rules import RuleSet

log = logging.getLogger(__name__)

PAGES = 2
LAYOUT_ID = "synthetic"


@dataclass(frozen=True)
class SyntheticSheet:
    """A scan and its truth: the record as written (errors included) and the errors."""

    scan: SheetScan
    record: dict[str, Any]
    errors: tuple[InjectedError, ...]


def synthetic_sheet(rng: random.Random, rules: RuleSet, tournament: str, round_: int | None,
                    table: int | None, names: tuple[str, ...], folder: Path | None = None,
                    errors: int = 0, doubtful: int = 0) -> SyntheticSheet:
    """One sheet of a random game; page stand-ins are written under ``folder`` when given."""
    doc = random_record(rules, rng, deals=rng.randint(8, 20))
    record = parse_record(doc)
    written = written_columns(expected_sheet(record))
    if any(isinstance(v, float) for cols in written.values()
           for v in [*cols["pool"], *cols["mountain"], *sum(cols["whists"].values(), [])]):
        return synthetic_sheet(rng, rules, tournament, round_, table, names, folder, errors,
                               doubtful)
    doc = {**doc, "written": written}
    injected: list[InjectedError] = []
    if errors:
        doc, injected = inject_errors(doc, errors, rng)
    seats = tuple(doc["seats"])
    if any(names):
        doc["names"] = {s: n for s, n in zip(seats, names, strict=True) if n}
    sheet_id = make_sheet_id(tournament, round_, table, rules.id, names,
                             salt=f"{tournament}-{rng.getrandbits(32):08x}")
    identity = {"sheet_id": sheet_id, "tournament": tournament, "round": round_,
                "table": table, "page": 0, "continuation": 0, "layout_id": LAYOUT_ID,
                "rules_id": rules.id, "rules": rules.settings(), "seats": list(seats),
                "names": list(names), "date": ""}
    fields = [FieldReading(row_key(n), 1, (10.0, 20.0 + 5 * n, 100.0, 5.0), CellStatus.READ,
                           deal, 0.999, deal=n + 1) for n, deal in enumerate(doc["deals"])]
    for seat, cols in doc["written"].items():
        columns = [("pool", None, cols["pool"]), ("mountain", None, cols["mountain"])]
        columns += [("whists", on, values) for on, values in cols["whists"].items()]
        for kind, on, values in columns:
            fields += [FieldReading(entry_key(seat, kind, on, n), 0, (0.0, 0.0, 8.0, 5.0),
                                    CellStatus.READ, value, 0.99) for n, value in enumerate(values)]
    for index in rng.sample(range(len(fields)), min(doubtful, len(fields))):
        f = fields[index]
        fields[index] = FieldReading(f.key, f.page, f.rect_mm, CellStatus.DOUBTFUL, f.value, 0.6,
                                     ((f.value, 0.6), (None, 0.4)), deal=f.deal)
    pages = []
    for page in range(PAGES):
        source = f"{sheet_id}-page-{page}.png"
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / source
            path.write_bytes(rng.randbytes(64) + sheet_id.encode())
            source = str(path)
        pages.append(ScannedPage(page, source, f"{sheet_id}/page-{page}.png", 0.3))
    scan = SheetScan(sheet_id, identity, LAYOUT_ID, tuple(pages), tuple(fields), doc)
    return SyntheticSheet(scan, doc, tuple(injected))


def synthetic_tournament(rng: random.Random, tournament: str, rounds: int, tables: int,
                         players: int = 3, folder: Path | None = None, errors: int = 0
                         ) -> tuple[list[tuple[int, int, tuple[str, ...]]], list[SyntheticSheet]]:
    """A draw (round, table, names) of ``tables * players`` players and one sheet per table.

    Every other sheet gets ``errors`` recording errors. With ``folder``, each sheet's
    ``scan.json`` is written to ``folder/<sheet id>/scan.json`` beside its page stand-ins.
    """
    rules = RuleSet.preset("sochi", players, 10)
    people = [f"Player {n + 1:02d}" for n in range(tables * players)]
    draw = []
    sheets = []
    for round_ in range(1, rounds + 1):
        order = people[:]
        rng.shuffle(order)
        for table in range(1, tables + 1):
            names = tuple(order[(table - 1) * players:table * players])
            draw.append((round_, table, names))
            where = None if folder is None else folder / f"r{round_}-t{table:02d}"
            sheet = synthetic_sheet(rng, rules, tournament, round_, table, names, where,
                                    errors if (round_ + table) % 2 else 0)
            if where is not None:
                (where / "scan.json").write_text(json.dumps(sheet.scan.to_json()),
                                                 encoding="utf-8")
            sheets.append(sheet)
    return draw, sheets
