"""Who sat where: the names printed on a sheet matched to the draw's players, and seating
changes (a substitute, a player at the wrong table) that re-settle the table's sheets.

The draw (``table_seats``) decides who played a seat; a printed name only checks it. A printed
name that is the draw's player written differently (``Иванов А.`` for ``Иванов Андрей``) is
that player, and said so; one that is somebody else is reported and the draw's player kept.
Without a draw for the seat, a printed name that fits exactly one player of the tournament is
that player; otherwise it is a new player.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Sequence

from pulka.i18n import _
from pulka.store.errors import StoreError

_WORD = re.compile(r"[^\W_]+")


def name_words(name: str) -> list[str]:
    """A name's words (letters and digits), case and ``ё`` folded, punctuation off.

    >>> name_words("Иванов А."), name_words("  Pyotr  Ivanov-Ёлкин 2")
    (['иванов', 'а'], ['pyotr', 'ivanov', 'елкин', '2'])
    """
    return _WORD.findall(name.casefold().replace("ё", "е"))


def same_person(printed: str, drawn: str) -> bool:
    """Whether two spellings can name one person: the same surname (the first word), and each
    further word of the shorter the longer's, or its initial (one letter).

    >>> same_person("Иванов А.", "Иванов Андрей"), same_person("Иванов Б.", "Иванов Андрей")
    (True, False)
    >>> same_person("Петров", "Иванов Андрей"), same_person("ИВАНОВ", "Иванов Андрей")
    (False, True)
    >>> same_person("Player 1", "Player 10")
    False
    """
    short, long_ = sorted((name_words(printed), name_words(drawn)), key=len)
    if not short or short[0] != long_[0]:
        return False
    return all(a == b or (len(a) == 1 and a.isalpha() and b.startswith(a))
               for a, b in zip(short[1:], long_[1:], strict=False))


def drawn_names(conn: sqlite3.Connection, table_pk: int | None) -> dict[str, str]:
    """The draw's player of each seat at one table (names by seat)."""
    if table_pk is None:
        return {}
    return dict(conn.execute(
        "SELECT ts.seat, p.name FROM table_seats ts JOIN players p ON p.id = ts.player_id "
        "WHERE ts.table_id = ?", (table_pk,)).fetchall())


def player_for(conn: sqlite3.Connection, tid: int, printed: str, drawn: str | None,
               where: str) -> tuple[str, str | None]:
    """The player who sat in a seat, and a note when the printed name is not the draw's.

    ``where`` names the sheet and seat in the note.
    """
    if drawn:
        if not printed or printed == drawn:
            return drawn, None
        if same_person(printed, drawn):
            return drawn, _("{where}: the printed name {printed!r} is taken as the draw's "
                            "{drawn!r}").format(where=where, printed=printed, drawn=drawn)
        return drawn, _("{where}: the printed name {printed!r} is not the draw's {drawn!r}; "
                        "counted for {drawn!r} (if {printed!r} sat there, run pulka tournament "
                        "seat)").format(where=where, printed=printed, drawn=drawn)
    known = [r[0] for r in conn.execute("SELECT name FROM players WHERE tournament_id = ?",
                                        (tid,))]
    if printed in known:
        return printed, None
    fits = [name for name in known if same_person(printed, name)]
    if len(fits) == 1:
        return fits[0], _("{where}: the printed name {printed!r} is taken as {name!r}").format(
            where=where, printed=printed, name=fits[0])
    if len(fits) > 1:
        return printed, _("{where}: the printed name {printed!r} fits {n} players ({names}); "
                          "stored as a player of its own: run pulka tournament seat to name who "
                          "sat there").format(where=where, printed=printed, n=len(fits),
                                              names=", ".join(map(repr, fits)))
    return printed, None


def seat_players(conn: sqlite3.Connection, sheet_pk: int, tid: int, table_pk: int | None,
                 seats: Sequence[str], names: Sequence[str], place: str,
                 player_pk: Callable[[str], int]) -> list[str]:
    """Store who sat in each seat of a sheet; return the notes on printed names."""
    drawn = drawn_names(conn, table_pk)
    notes = []
    for seat, name in zip(seats, names, strict=False):
        fallback = drawn.get(seat) or f"{place} {seat}"
        player, note = player_for(conn, tid, name, drawn.get(seat),
                                  _("{sheet} seat {seat}").format(sheet=place, seat=seat)) \
            if name else (fallback, None)
        if note:
            notes.append(note)
        conn.execute("INSERT OR REPLACE INTO sheet_players VALUES (?, ?, ?)",
                     (sheet_pk, seat, player_pk(player)))
    return notes


def table_of(conn: sqlite3.Connection, tid: int, round_: int, table: int) -> int | None:
    """The row id of one table of one round (``None`` when the tournament has none)."""
    row = conn.execute("SELECT tb.id FROM tables tb JOIN rounds r ON r.id = tb.round_id "
                       "WHERE r.tournament_id = ? AND r.number = ? AND tb.number = ?",
                       (tid, round_, table)).fetchone()
    return None if row is None else int(row[0])


def change_seat(conn: sqlite3.Connection, tid: int, round_: int, table: int, seat: str,
                player: int) -> list[int]:
    """Seat a player at ``seat`` of one table, in the draw and on the table's stored sheets;
    return those sheets (to be settled again). :class:`StoreError` names a table or seat
    that is not there."""
    table_pk = table_of(conn, tid, round_, table)
    if table_pk is None:
        raise StoreError(f"the tournament has no table {table} in round {round_}; "
                         f"see pulka tournament list")
    sheets = [(int(pk), str(seats)) for pk, seats in conn.execute(
        "SELECT id, seats FROM sheets WHERE table_id = ?", (table_pk,))]
    known = sheets[0][1] if sheets else "".join(drawn_names(conn, table_pk)) or "ABCD"
    if seat not in known:
        raise StoreError(f"round {round_} table {table} has no seat {seat!r} (seats "
                         f"{', '.join(known)})")
    conn.execute("INSERT OR REPLACE INTO table_seats VALUES (?, ?, ?)", (table_pk, seat, player))
    conn.executemany("UPDATE sheet_players SET player_id = ? WHERE sheet_id = ? AND seat = ?",
                     [(player, pk, seat) for pk, _ in sheets])
    return [pk for pk, _ in sheets]
