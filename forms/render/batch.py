"""Tournament batches: one sheet per table and round, names from the draw.

The draw is a CSV file with a header ``round,table,A,B,C`` (``D`` too for 4 players): one line
per table and round, the players' names by seat (seats clockwise). Every sheet gets a unique,
reproducible sheet id (:func:`forms.identity.make_sheet_id` salted with the tournament name).
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from forms.identity import SheetIdentity, make_sheet_id
from forms.layout import build_layout
from forms.render.sheet import SheetRequest
from scoring.rules import RuleSet


class DrawError(ValueError):
    """A draw CSV that cannot be used; the message names the file, the line and the field."""


@dataclass(frozen=True)
class Seating:
    """One table in one round: who sits where."""

    round: int
    table: int
    names: tuple[str, ...]


def read_draw(path: str | Path, players: int) -> list[Seating]:
    """Read a draw CSV; every problem raises :class:`DrawError` naming the line."""
    seats = "ABCD"[:players]
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise DrawError(f"{path}: cannot read the draw ({error.strerror})") from None
    reader = csv.DictReader(text.splitlines())
    header = [h.strip() for h in reader.fieldnames or []]
    wanted = ["round", "table", *seats]
    missing = [h for h in wanted if h not in header]
    if missing:
        raise DrawError(f"{path}: header must be {','.join(wanted)}; missing "
                        f"{', '.join(missing)}")
    seatings: list[Seating] = []
    seen: dict[tuple[int, int], int] = {}
    for number, row in enumerate(reader, start=2):
        row = {(k or "").strip(): (v or "").strip() for k, v in row.items()}
        if not any(row.values()):
            continue
        where = f"{path} line {number}"
        try:
            round_, table = int(row["round"]), int(row["table"])
        except ValueError:
            raise DrawError(f"{where}: round and table must be whole numbers, got "
                            f"{row['round']!r} and {row['table']!r}") from None
        if round_ < 1 or table < 1:
            raise DrawError(f"{where}: round and table count from 1")
        for seat in seats:
            if not row.get(seat):
                raise DrawError(f"{where}: round {round_}, table {table} has no name for seat "
                                f"{seat}; fill it in (or write a dash for an empty seat)")
        if (round_, table) in seen:
            raise DrawError(f"{where}: round {round_}, table {table} is already on line "
                            f"{seen[(round_, table)]}")
        seen[(round_, table)] = number
        names = tuple("" if row[s] == "-" else row[s] for s in seats)
        seatings.append(Seating(round_, table, names))
    if not seatings:
        raise DrawError(f"{path}: the draw has no tables")
    return seatings


def blank_seatings(rounds: int, tables: int, players: int) -> list[Seating]:
    """Seatings without names for ``rounds`` x ``tables`` sheets."""
    return [Seating(r, t, ("",) * players) for r in range(1, rounds + 1)
            for t in range(1, tables + 1)]


def batch_requests(seatings: list[Seating], rules: RuleSet, tournament: str, lang: str,
                   paper: str = "A4", date: str = "",
                   continuation: int = 0) -> Iterator[SheetRequest]:
    """One sheet request per seating, each with a unique sheet id.

    A seating's sheet has the same identity whichever seatings are printed with it; with
    ``continuation`` ``n`` each is continuation ``n`` of that sheet (the same id, ``-C<n>``).
    """
    layout = build_layout(rules.players, paper, rules.talon_prize)
    ids: set[str] = set()
    for seating in seatings:
        sheet_id = make_sheet_id(tournament, seating.round, seating.table, rules.id,
                                 seating.names, salt=tournament)
        if sheet_id in ids:  # pragma: no cover - round/table pairs are unique
            raise DrawError(f"sheet id {sheet_id} repeats; check the draw")
        ids.add(sheet_id)
        identity = SheetIdentity(
            sheet_id=sheet_id, tournament=tournament, round=seating.round,
            table=seating.table, page=0, continuation=0, layout_id=layout.id,
            rules_id=rules.id, rules=rules.settings(), seats=layout.seats,
            names=seating.names, date=date)
        yield SheetRequest(layout, identity.continued(continuation), lang)
