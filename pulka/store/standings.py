"""What the standings are made of, read from the store: each seat's settlement on each sheet,
a player's games for his card, and which results are final (:func:`result_is_final`)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from fractions import Fraction

from pulka.store.errors import StoreError
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
    codex_integer: int = 0
    """The Codex 4.2.12 integer form of ``result``."""
    signed_off: bool = False
    """A judge signed the sheet off (:mod:`pulka.store.rulings`)."""


def result_is_final(state: SheetState, signed_off: bool) -> bool:
    """Whether a sheet's results are final for the standings: the sheet is settled (nothing to
    check, no finding) or a judge signed it off."""
    return state is SheetState.SETTLED or signed_off


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
                   SheetState(state), integer, bool(signed))
        for player, number, result, remises, allpass, state, integer, signed in conn.execute(
            "SELECT p.name, s.round, st.result, st.remises, st.allpass, s.state, "
            "st.codex_integer, "
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


@dataclass(frozen=True)
class PlayerGame:
    """One sheet a player played: where, against whom, and his result on it."""

    sheet: str
    round: int | None
    table: int | None
    seat: str
    opponents: tuple[tuple[str, str], ...]
    """(seat, name) of the others at the table."""
    state: SheetState
    result: Fraction | None
    """Exact whists; ``None`` when the sheet has no settlement (its record was refused)."""
    codex_integer: int | None
    record: dict[str, object] | None
    """The sheet's ``pulka-record/1`` as the store rebuilt it (for the 4.2.12 remainders)."""
    signed_off: bool = False
    """A judge signed the sheet off (:mod:`pulka.store.rulings`)."""


def player_games(conn: sqlite3.Connection, tournament_id: int, player: str
                 ) -> tuple[str, tuple[PlayerGame, ...]]:
    """The tournament's name and every sheet of it that ``player`` played, by round and
    table; :class:`StoreError` when the tournament has no player of that name."""
    (name,) = conn.execute("SELECT name FROM tournaments WHERE id = ?",
                           (tournament_id,)).fetchone()
    if conn.execute("SELECT 1 FROM players WHERE tournament_id = ? AND name = ?",
                    (tournament_id, player)).fetchone() is None:
        raise StoreError(f"no player {player!r} in tournament {name!r}; `pulka standings` "
                         f"lists the players")
    games = []
    for pk, sheet, number, table, seat, state, record, signed in conn.execute(
            "SELECT s.id, s.sheet_id, s.round, s.table_number, sp.seat, s.state, "
            "s.record_json, EXISTS (SELECT 1 FROM signoffs so WHERE so.sheet_id = s.id) "
            "FROM sheet_players sp JOIN sheets s ON s.id = sp.sheet_id "
            "JOIN players p ON p.id = sp.player_id WHERE s.tournament_id = ? AND p.name = ? "
            "ORDER BY s.round, s.table_number, s.sheet_id", (tournament_id, player)):
        others = tuple((str(s), str(n)) for s, n in conn.execute(
            "SELECT sp.seat, p.name FROM sheet_players sp JOIN players p "
            "ON p.id = sp.player_id WHERE sp.sheet_id = ? AND sp.seat != ? ORDER BY sp.seat",
            (pk, seat)))
        found = conn.execute("SELECT result, codex_integer FROM settlements WHERE "
                             "sheet_id = ? AND seat = ?", (pk, seat)).fetchone()
        games.append(PlayerGame(sheet, number, table, seat, others, SheetState(state),
                                Fraction(found[0]) if found else None,
                                int(found[1]) if found else None,
                                json.loads(record) if record else None, bool(signed)))
    return str(name), tuple(games)
