"""Tournament batches: one sheet per table and round, names from the draw.

The draw is a CSV file as spreadsheets write it: UTF-8 (with or without BOM), UTF-16 or
Windows-1251; separated by commas, semicolons or tabs; a header naming the round, the table
and the seats, in English, Russian or Ukrainian (``round,table,A,B,C``; ``тур;стол;А;Б;В``),
``D``/``Г`` too for 4 players: one line per table and round, the players' names by seat
(seats clockwise). What was detected is reported (:meth:`Draw.describe`). Every sheet gets a
unique, reproducible sheet id (:func:`forms.identity.make_sheet_id` salted with the
tournament name).
"""

from __future__ import annotations

import csv
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from forms.identity import SheetIdentity, make_sheet_id
from forms.layout import build_layout
from forms.render.sheet import SheetRequest
from scoring.exitcode import PulkaError
from scoring.limits import (
    MAX_DRAW_LINES,
    MAX_NAME_CHARS,
    MAX_ROUND,
    MAX_TABLE,
    MAX_TEXT_FILE_BYTES,
)
from scoring.record import text_problem
from scoring.rules import RuleSet

if TYPE_CHECKING:
    from _csv import Reader

SEPARATORS = (",", ";", "\t")
"""Field separators a draw may use; the one that splits the header into most fields wins."""
ROUND_HEADINGS = ("round", "roundno", "тур", "тура", "раунд", "круг", "номертура")
TABLE_HEADINGS = ("table", "tableno", "стол", "стола", "стіл", "столу", "столик", "номерстола",
                  "номерстолу")
SEAT_HEADINGS = {"A": ("a", "а", "1", "player1", "игрок1", "гравець1"),
                 "B": ("b", "б", "2", "player2", "игрок2", "гравець2"),
                 "C": ("c", "в", "3", "player3", "игрок3", "гравець3"),
                 "D": ("d", "г", "4", "player4", "игрок4", "гравець4")}
"""Seat headings by the sheet's seat: Latin letters, the Cyrillic alphabet's first four
(А Б В Г), numbers. Cyrillic look-alikes of A, B, C (А В С) without a Б are read as Latin."""
LOOKALIKES = str.maketrans("авс", "abc")
MAX_PROBLEMS_SHOWN = 10
"""Bad lines named in one message."""


class DrawError(PulkaError, ValueError):
    """A draw CSV that cannot be used; the message names the file, the line and the field."""


@dataclass(frozen=True)
class Seating:
    """One table in one round: who sits where."""

    round: int
    table: int
    names: tuple[str, ...]


@dataclass(frozen=True)
class Draw:
    """A draw file read: its seatings, the table size its header gives, and how it was read."""

    seatings: list[Seating]
    players: int
    encoding: str
    separator: str

    def describe(self) -> str:
        """``read as Windows-1251, separator ';'`` for the user."""
        separator = "tab" if self.separator == "\t" else repr(self.separator)
        return f"read as {self.encoding}, separator {separator}"


def read_draw(path: str | Path, players: int | None = None) -> list[Seating]:
    """The seatings of a draw file (:func:`load_draw`)."""
    return load_draw(path, players).seatings


def load_draw(path: str | Path, players: int | None = None) -> Draw:
    """Read a draw file; ``players`` (3 or 4), when given, must match its seat columns.
    Every problem raises one :class:`DrawError` naming the file and each bad line."""
    path = Path(path)
    text, encoding = _decode(path, _read_bytes(path))
    lines = text.splitlines()
    if len(lines) > MAX_DRAW_LINES:
        raise DrawError(f"{path}: {len(lines)} lines, at most {MAX_DRAW_LINES}; is it the draw?")
    separator = max(SEPARATORS, key=lambda sep: len(lines[0].split(sep)) if lines else 0)
    rows = csv.reader(lines, delimiter=separator)
    try:
        header = next(rows, [])
    except csv.Error as error:
        raise DrawError(f"{path} line 1: {error}; is it the draw?") from None
    columns = _columns(path, header, players)
    seatings = _seatings(path, rows, columns)
    return Draw(seatings, len(columns) - 2, encoding, separator)


def _read_bytes(path: Path) -> bytes:
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise DrawError(f"{path}: not a regular file; give the draw's CSV file")
        if info.st_size > MAX_TEXT_FILE_BYTES:
            raise DrawError(f"{path}: {info.st_size} bytes, more than a draw can be "
                            f"({MAX_TEXT_FILE_BYTES}); is it the draw?")
        return path.read_bytes()
    except OSError as error:
        raise DrawError(f"{path}: cannot read the draw ({error.strerror})") from None


def _decode(path: Path, data: bytes) -> tuple[str, str]:
    """The text and the name of its encoding: a BOM's, else UTF-8, else UTF-16 (NUL bytes
    between ASCII letters), else Windows-1251 (Russian Excel's CSV)."""
    if data.startswith(b"\xef\xbb\xbf"):
        candidates = [("utf-8-sig", "UTF-8 with BOM")]
    elif data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        candidates = [("utf-16", "UTF-16")]
    elif data.count(b"\x00") * 4 >= len(data) > 0:
        candidates = [("utf-16-le" if data[1:2] == b"\x00" else "utf-16-be", "UTF-16")]
    else:
        candidates = [("utf-8", "UTF-8"), ("cp1251", "Windows-1251")]
    for codec, name in candidates:
        try:
            return data.decode(codec), name
        except UnicodeDecodeError:
            continue
    raise DrawError(f"{path}: the text is neither UTF-8, UTF-16 nor Windows-1251; save the "
                    f"draw as CSV UTF-8")


def _heading(text: str) -> str:
    return "".join(ch for ch in text.strip().lower() if ch.isalnum())


def _columns(path: Path, header: list[str], players: int | None) -> dict[str, int]:
    """Where the round, the table and each seat are in a row, from the header."""
    headings = [_heading(h) for h in header]
    if "б" not in headings:
        headings = [h.translate(LOOKALIKES) if len(h) == 1 else h for h in headings]
    columns: dict[str, int] = {}
    for name, accepted in [("round", ROUND_HEADINGS), ("table", TABLE_HEADINGS),
                           *SEAT_HEADINGS.items()]:
        found = [i for i, h in enumerate(headings) if h in accepted]
        if found:
            columns[name] = found[0]
    seats = [s for s in SEAT_HEADINGS if s in columns]
    wanted = ["round", "table", *"ABCD"[:players or max(3, len(seats))]]
    missing = [h for h in wanted if h not in columns]
    if missing or seats != list("ABCD"[:len(seats)]):
        missing = missing or [s for s in "ABCD" if s not in seats][:1]
        raise DrawError(f"{path}: header must be {','.join(wanted)} (or тур;стол;А;Б;В); "
                        f"missing {', '.join(missing)}; "
                        f"the header read is {','.join(header)[:80]!r}")
    if players is not None and len(seats) != players:
        raise DrawError(f"{path}: the header has {len(seats)} seats ({', '.join(seats)}), "
                        f"the sheets are for {players} players")
    return {name: columns[name] for name in wanted}


def _seatings(path: Path, rows: Reader, columns: dict[str, int]) -> list[Seating]:
    """Every line's seating; all bad lines named in one :class:`DrawError`."""
    seatings: list[Seating] = []
    problems: list[str] = []
    seen: dict[tuple[int, int], int] = {}
    while True:
        try:
            row = next(rows)
        except StopIteration:
            break
        except csv.Error as error:
            problems.append(f"line {rows.line_num}: {error}; is it the draw?")
            break
        number = rows.line_num
        cells = {name: (row[i].strip() if i < len(row) else "") for name, i in columns.items()}
        if not any(row_cell.strip() for row_cell in row):
            continue
        try:
            seating = _seating(cells)
        except DrawError as error:
            problems.append(f"line {number}: {error}")
            continue
        key = (seating.round, seating.table)
        if key in seen:
            problems.append(f"line {number}: round {key[0]}, table {key[1]} is already on "
                            f"line {seen[key]}")
            continue
        seen[key] = number
        seatings.append(seating)
    if len(problems) == 1:
        raise DrawError(f"{path} {problems[0]}")
    if problems:
        shown = "; ".join(problems[:MAX_PROBLEMS_SHOWN])
        more = len(problems) - MAX_PROBLEMS_SHOWN
        raise DrawError(f"{path}: {len(problems)} bad lines: {shown}"
                        + (f"; and {more} more" if more > 0 else ""))
    if not seatings:
        raise DrawError(f"{path}: the draw has no tables")
    return seatings


def _seating(cells: dict[str, str]) -> Seating:
    """One line's seating from its cells by heading; a problem raises :class:`DrawError`."""
    try:
        round_, table = int(cells["round"]), int(cells["table"])
    except ValueError:
        raise DrawError(f"round and table must be whole numbers, got {cells['round'][:20]!r} "
                        f"and {cells['table'][:20]!r}") from None
    if not (1 <= round_ <= MAX_ROUND and 1 <= table <= MAX_TABLE):
        raise DrawError(f"round and table count from 1 (at most {MAX_ROUND} rounds and "
                        f"{MAX_TABLE} tables), got round {round_}, table {table}")
    seats = [name for name in cells if name not in ("round", "table")]
    for seat in seats:
        if not cells[seat]:
            raise DrawError(f"round {round_}, table {table} has no name for seat {seat}; fill "
                            f"it in (or write a dash for an empty seat)")
        problem = text_problem(cells[seat], MAX_NAME_CHARS)
        if problem:
            raise DrawError(f"round {round_}, table {table}: the name of seat {seat} {problem}")
    return Seating(round_, table, tuple("" if cells[s] == "-" else cells[s] for s in seats))


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
