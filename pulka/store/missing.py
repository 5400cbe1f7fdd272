"""What a tournament still lacks, round by round: the tables from which no sheet was imported,
and the games held for a page or a sheet not scanned (:mod:`pulka.store.joins`).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from forms.identity import first_sheet_id
from pulka.i18n import _, ngettext
from pulka.store.joins import game_of

MISSING_FORMAT = "pulka-missing/1"


@dataclass(frozen=True)
class HeldGame:
    """A game stored but not scored: its table, first sheet id, and what to scan."""

    table: int | None
    sheet_id: str
    scan: str


@dataclass(frozen=True)
class RoundGaps:
    """One round's tables without a sheet and held games."""

    round: int
    tables: tuple[int, ...]
    """Tables of the draw from which no sheet was imported."""
    held: tuple[HeldGame, ...]

    def text(self) -> str:
        """One line for people.

        >>> RoundGaps(2, (3, 5), (HeldGame(1, "R2-T01-AB12CD", "scan pages 2-3 of sheet "
        ...                                 "R2-T01-AB12CD"),)).text()
        'round 2: no sheet from tables 3, 5; table 1: scan pages 2-3 of sheet R2-T01-AB12CD'
        """
        parts = []
        if self.tables:
            parts.append(ngettext("no sheet from table {list}", "no sheet from tables {list}",
                                  len(self.tables)).format(list=", ".join(map(str, self.tables))))
        parts += [_("table {n}: {what}").format(n=g.table, what=g.scan) if g.table is not None
                  else g.scan for g in self.held]
        return _("round {n}: {what}").format(n=self.round, what="; ".join(parts))

    def to_json(self) -> dict[str, object]:
        """The round in ``pulka-missing/1``."""
        return {"round": self.round, "tables": list(self.tables),
                "held": [{"table": g.table, "sheet_id": g.sheet_id, "scan": g.scan}
                         for g in self.held]}


def round_numbers(conn: sqlite3.Connection, tid: int) -> list[int]:
    """The tournament's rounds: those of its draw and those its sheets name."""
    return sorted({int(r[0]) for r in conn.execute(
        "SELECT number FROM rounds WHERE tournament_id = ? UNION "
        "SELECT round FROM sheets WHERE tournament_id = ? AND round IS NOT NULL", (tid, tid))})


def round_gaps(conn: sqlite3.Connection, tid: int, round_: int | None = None
               ) -> list[RoundGaps]:
    """The rounds (or the one asked for) that lack a sheet or hold a game, in order."""
    gaps = []
    for number in round_numbers(conn, tid):
        if round_ is not None and number != round_:
            continue
        tables = tuple(int(r[0]) for r in conn.execute(
            "SELECT tb.number FROM tables tb JOIN rounds r ON r.id = tb.round_id "
            "WHERE r.tournament_id = ? AND r.number = ? AND NOT EXISTS "
            "(SELECT 1 FROM sheets s WHERE s.table_id = tb.id) ORDER BY tb.number",
            (tid, number)))
        games: dict[str, tuple[int, int | None]] = {}
        for pk, sheet_id, table in conn.execute(
                "SELECT id, sheet_id, table_number FROM sheets WHERE tournament_id = ? "
                "AND round = ? ORDER BY table_number, sheet_id", (tid, number)):
            games.setdefault(first_sheet_id(sheet_id), (int(pk), table))
        held = tuple(HeldGame(table, first, reason) for first, (pk, table) in games.items()
                     if (reason := game_of(conn, pk).held) is not None)
        if tables or held:
            gaps.append(RoundGaps(number, tables, held))
    return gaps


def missing_document(conn: sqlite3.Connection, tournaments: dict[str, int]) -> dict[str, object]:
    """``pulka-missing/1``: what each tournament's rounds lack (tournaments by name: row id)."""
    return {"format": MISSING_FORMAT, "tournaments": [
        {"name": name, "missing": [gap.to_json() for gap in round_gaps(conn, tid)]}
        for name, tid in tournaments.items()]}
