"""What the standings are made of, read from the store: each seat's settlement on each sheet."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from fractions import Fraction

from pulka.store.schema import SheetState


@dataclass(frozen=True)
class SeatResult:
    """One player's settlement on one sheet (Codex 4.1.3's tie-break figures beside it)."""

    player: str
    round: int | None
    result: Fraction
    remises: int
    allpass: Fraction
    state: SheetState
    signed_off: bool = False
    """A judge signed the sheet off (:mod:`pulka.store.rulings`): its result is final."""


@dataclass(frozen=True)
class StandingsRows:
    """A tournament's settled seats (overall or one round), its players and sheet states."""

    tournament: str
    results: tuple[SeatResult, ...]
    players: frozenset[str]
    """Everyone who played a sheet or is in the draw (of the round)."""
    states: dict[str, int]
    rounds: frozenset[int]
    """The tournament's rounds (just the one asked for, with a round)."""


def standings_rows(conn: sqlite3.Connection, tournament_id: int,
                   round_: int | None = None) -> StandingsRows:
    """The settled seats of a tournament (of one round when ``round_`` is given)."""
    (name,) = conn.execute("SELECT name FROM tournaments WHERE id = ?",
                           (tournament_id,)).fetchone()
    where, args = "s.tournament_id = ?", [tournament_id]
    if round_ is not None:
        where, args = where + " AND s.round = ?", [*args, round_]
    results = tuple(
        SeatResult(player, number, Fraction(result), remises, Fraction(allpass),
                   SheetState(state), bool(signed))
        for player, number, result, remises, allpass, state, signed in conn.execute(
            "SELECT p.name, s.round, st.result, st.remises, st.allpass, s.state, "
            "EXISTS (SELECT 1 FROM signoffs so WHERE so.sheet_id = s.id) "
            "FROM settlements st JOIN sheets s ON s.id = st.sheet_id "
            "JOIN sheet_players sp ON sp.sheet_id = s.id AND sp.seat = st.seat "
            f"JOIN players p ON p.id = sp.player_id WHERE {where}", args))
    players = {r[0] for r in conn.execute(
        "SELECT p.name FROM sheet_players sp JOIN sheets s ON s.id = sp.sheet_id "
        f"JOIN players p ON p.id = sp.player_id WHERE {where}", args)}
    round_filter = "" if round_ is None else " AND r.number = ?"
    players |= {r[0] for r in conn.execute(
        "SELECT p.name FROM table_seats ts JOIN tables tb ON tb.id = ts.table_id "
        "JOIN rounds r ON r.id = tb.round_id JOIN players p ON p.id = ts.player_id "
        f"WHERE r.tournament_id = ?{round_filter}",
        [tournament_id] + ([] if round_ is None else [round_]))}
    states = dict(conn.execute(f"SELECT s.state, count(*) FROM sheets s WHERE {where} "
                               "GROUP BY s.state", args).fetchall())
    rounds = {round_} if round_ is not None else {r[0] for r in conn.execute(
        "SELECT number FROM rounds WHERE tournament_id = ?", (tournament_id,))}
    return StandingsRows(name, results, frozenset(players), states, frozenset(rounds))
