"""The tournament store: one SQLite file with the draw, every sheet read, and what the rules say.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as folder:
...     with Store(pathlib.Path(folder) / "t.sqlite") as store:
...         tournament = store.new_tournament("Kyiv Open", rounds=2, tables=3)
...         store.tournament_names()
['Kyiv Open']

Every write is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``): an import killed half-way
leaves each sheet either wholly stored or not at all. A re-import never changes a cell a
person verified (the SDAPS rule); a page is known by its content's hash. WAL mode: readers
never wait for an import. Tables and migrations: :mod:`pulka.store.schema`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pulka.store.errors import GuardedConnection, StoreError, sqlite_errors, whole_number
from pulka.store.hashes import PageHash, page_hash
from pulka.store.redecode import redecode_sheet
from pulka.store.refresh import now, refresh
from pulka.store.rows import CellRow, ImageRef, named_rows, note_json, sentences_json
from pulka.store.schema import SheetState, migrate
from pulka.store.seating import change_seat, drawn_names, seat_players, table_of
from pulka.store.standings import StandingsRows, standings_rows
from pulka.store.summary import sheet_summary
from scanner.results import ScannedPage, SheetScan
from scoring.limits import MAX_ROUND, MAX_TABLE

DEFAULT_DB = Path("pulka.sqlite")
BUSY_TIMEOUT_S = 10.0
"""How long a writer waits for another one (the review page during an import)."""
NO_TOURNAMENT = ""
"""The tournament name of sheets printed outside a tournament."""


class Store:
    """One store file; use it as a context manager (it closes the connection)."""

    def __init__(self, path: str | Path = DEFAULT_DB, wait_s: float | None = None) -> None:
        self.path = Path(path)
        self.wait_s = BUSY_TIMEOUT_S if wait_s is None else wait_s
        with sqlite_errors(self.path, self.wait_s):
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=self.wait_s,
                                   factory=GuardedConnection)
        conn.store_path, conn.wait_s = self.path, self.wait_s
        self.conn: sqlite3.Connection = conn
        self.notes: list[str] = []
        """What the store noticed while it wrote (a printed name taken as the draw's), one
        line each, for the command to print; whoever prints them clears the list."""
        try:
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA foreign_keys = ON")
            self.conn.execute("PRAGMA synchronous = NORMAL")
            migrate(self.conn)
        except BaseException:
            self.conn.close()
            raise

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed whole, or rolled back whole."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    # -- the draw ----------------------------------------------------------------------

    def new_tournament(self, name: str, rounds: int | None = None, tables: int | None = None,
                       seatings: Sequence[tuple[int, int, Sequence[str], Sequence[str]]] = (),
                       language: str | None = None) -> int:
        """Create a tournament with its rounds, tables and, from a draw, who sits where.

        ``seatings`` are ``(round, table, seats, names)``; ``language`` is the tournament's
        own (``ru``, ``uk``, ``en``); raises :class:`StoreError` when the name is taken.
        """
        whole_number("rounds", rounds, MAX_ROUND)
        whole_number("tables", tables, MAX_TABLE)
        for round_, table, _, _ in seatings:
            whole_number("the draw's round", round_, MAX_ROUND)
            whole_number("the draw's table", table, MAX_TABLE)
        with self.transaction() as conn:
            if conn.execute("SELECT 1 FROM tournaments WHERE name = ?", (name,)).fetchone():
                raise StoreError(f"tournament {name!r} already exists in {self.path}")
            tid = self._tournament(conn, name, rounds, tables)
            conn.execute("UPDATE tournaments SET language = ? WHERE id = ?", (language, tid))
            for round_ in range(1, (rounds or 0) + 1):
                for table in range(1, (tables or 0) + 1):
                    self._table(conn, tid, round_, table)
            for round_, table, seats, names in seatings:
                table_pk = self._table(conn, tid, round_, table)
                for seat, player in zip(seats, names, strict=True):
                    if player:
                        conn.execute("INSERT OR REPLACE INTO table_seats VALUES (?, ?, ?)",
                                     (table_pk, seat, self._player(conn, tid, player)))
        return tid

    def table_seating(self, tournament: str | None, round_: int,
                      table: int) -> tuple[str, dict[str, str]] | None:
        """The tournament's name and who sits where (names by seat) at one table of one round
        (``None`` when the store has no such table); raises :class:`StoreError` as
        :meth:`tournament_id` does."""
        tid = self.tournament_id(tournament)
        name = self.conn.execute("SELECT name FROM tournaments WHERE id = ?", (tid,)).fetchone()
        table_pk = table_of(self.conn, tid, round_, table)
        if table_pk is None:
            return None
        return str(name[0]), drawn_names(self.conn, table_pk)

    def seat(self, tournament: str | None, round_: int, table: int, seat: str,
             player: str) -> list[str]:
        """Seat ``player`` at one seat of one table (a substitute, a wrong table): the draw
        and the table's stored sheets change, and those sheets are settled again; return
        their ids. :class:`StoreError` names a table or seat that is not there."""
        tid = self.tournament_id(tournament)
        with self.transaction() as conn:
            sheets = change_seat(conn, tid, round_, table, seat,
                                 self._player(conn, tid, player))
            for sheet_pk in sheets:
                refresh(conn, sheet_pk)
            return [str(r[0]) for r in conn.execute(
                f"SELECT sheet_id FROM sheets WHERE id IN ({', '.join('?' * len(sheets))}) "
                f"ORDER BY sheet_id", sheets)]

    def tournament_names(self) -> list[str]:
        """Every tournament in the store, oldest first."""
        return [r[0] for r in self.conn.execute("SELECT name FROM tournaments ORDER BY id")]

    def tournament_id(self, name: str | None) -> int:
        """The tournament by name; with ``None``, the only one there is."""
        if name is None:
            rows = self.conn.execute("SELECT id, name FROM tournaments ORDER BY id").fetchall()
            if len(rows) != 1:
                names = ", ".join(repr(r[1]) for r in rows) or "none"
                raise StoreError(f"{self.path} has {len(rows)} tournaments ({names}); name one "
                                 f"with --tournament")
            return int(rows[0][0])
        row = self.conn.execute("SELECT id FROM tournaments WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise StoreError(f"no tournament {name!r} in {self.path}; known: "
                             f"{', '.join(map(repr, self.tournament_names())) or 'none'}")
        return int(row[0])

    def tournament_language(self, name: str | None) -> str | None:
        """The language stored with the tournament ``name`` (with ``None``: the only one
        there is); None when it has none, or no such single tournament exists."""
        rows = self.conn.execute("SELECT language FROM tournaments WHERE name = ? OR ? IS NULL",
                                 (name, name)).fetchall()
        return str(rows[0][0]) if len(rows) == 1 and rows[0][0] else None

    def _tournament(self, conn: sqlite3.Connection, name: str, rounds: int | None = None,
                    tables: int | None = None) -> int:
        row = conn.execute("SELECT id FROM tournaments WHERE name = ?", (name,)).fetchone()
        if row:
            return int(row[0])
        cursor = conn.execute("INSERT INTO tournaments (name, rounds, tables, created_at) "
                              "VALUES (?, ?, ?, ?)", (name, rounds, tables, now()))
        return int(cursor.lastrowid or 0)

    def _table(self, conn: sqlite3.Connection, tid: int, round_: int, table: int) -> int:
        conn.execute("INSERT OR IGNORE INTO rounds (tournament_id, number) VALUES (?, ?)",
                     (tid, round_))
        (round_pk,) = conn.execute("SELECT id FROM rounds WHERE tournament_id = ? AND number = ?",
                                   (tid, round_)).fetchone()
        conn.execute("INSERT OR IGNORE INTO tables (round_id, number) VALUES (?, ?)",
                     (round_pk, table))
        (table_pk,) = conn.execute("SELECT id FROM tables WHERE round_id = ? AND number = ?",
                                   (round_pk, table)).fetchone()
        return int(table_pk)

    def _player(self, conn: sqlite3.Connection, tid: int, name: str) -> int:
        conn.execute("INSERT OR IGNORE INTO players (tournament_id, name) VALUES (?, ?)",
                     (tid, name))
        (pk,) = conn.execute("SELECT id FROM players WHERE tournament_id = ? AND name = ?",
                             (tid, name)).fetchone()
        return int(pk)

    # -- sheets --------------------------------------------------------------------------

    def known_files(self) -> set[str]:
        """Content hashes of the image files every page of which belongs to a sheet stored
        whole (no page missing): a re-run of an import skips them."""
        return {r[0] for r in self.conn.execute(
            "SELECT p.file_hash FROM pages p JOIN sheets s ON s.id = p.sheet_id "
            "WHERE p.file_hash IS NOT NULL GROUP BY p.file_hash "
            "HAVING max(s.missing_pages_json != '[]') = 0")}

    def changed_pages(self, scan: SheetScan) -> list[ScannedPage]:
        """The pages of a scan that the store holds for its sheet from another image."""
        stored = dict(self.conn.execute(
            "SELECT p.page_index, p.content_hash FROM pages p JOIN sheets s "
            "ON s.id = p.sheet_id WHERE s.sheet_id = ?", (scan.sheet_id,)).fetchall())
        return [page for page in scan.pages if page.index in stored
                and stored[page.index] != page_hash(page, scan.sheet_id).content]

    def import_scan(self, scan: SheetScan, scan_path: str | Path | None = None) -> SheetState:
        """Store one sheet's scan and score it, in one transaction; return its state.

        The sheet is found by its id (created on the first import, updated after); a page
        with a content hash already stored is not stored twice; a cell a person verified
        keeps its value; cells of pages this scan does not have are kept.
        """
        with self.transaction() as conn:
            sheet_pk = self._upsert_sheet(conn, scan, scan_path)
            for page in scan.pages:
                self._store_page(conn, sheet_pk, page, page_hash(page, scan.sheet_id))
            self._store_cells(conn, sheet_pk, scan)
            # cells a person verified before a re-scan: the new entries decoded against them
            verified = conn.execute("SELECT 1 FROM cells WHERE sheet_id = ? AND verified = 1 "
                                    "LIMIT 1", (sheet_pk,)).fetchone()
            if verified is not None:
                redecode_sheet(conn, sheet_pk)
            return refresh(conn, sheet_pk)

    @staticmethod
    def _store_page(conn: sqlite3.Connection, sheet_pk: int, page: ScannedPage,
                    digest: PageHash) -> None:
        """One page row: a page with the same content elsewhere moves here."""
        conn.execute("DELETE FROM pages WHERE content_hash = ? AND NOT "
                     "(sheet_id = ? AND page_index = ?)", (digest.content, sheet_pk, page.index))
        conn.execute(
            "INSERT INTO pages (sheet_id, page_index, source, content_hash, file_hash, image, "
            "fit_error_mm, warnings_json, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (sheet_id, page_index) DO UPDATE SET source = excluded.source, "
            "content_hash = excluded.content_hash, file_hash = excluded.file_hash, "
            "image = excluded.image, fit_error_mm = excluded.fit_error_mm, "
            "warnings_json = excluded.warnings_json, imported_at = excluded.imported_at",
            (sheet_pk, page.index, page.source, digest.content, digest.file, page.image,
             page.fit_error_mm, sentences_json(page.warnings), now()))

    def _upsert_sheet(self, conn: sqlite3.Connection, scan: SheetScan,
                      scan_path: str | Path | None) -> int:
        identity = scan.identity
        tid = self._tournament(conn, str(identity.get("tournament") or NO_TOURNAMENT))
        round_, table = identity.get("round"), identity.get("table")
        table_pk = self._table(conn, tid, round_, table) if round_ and table else None
        seats = tuple(identity.get("seats") or scan.record.get("seats") or ())
        names = list(identity.get("names") or ("",) * len(seats))
        rules = identity.get("rules") or scan.record.get("rules") or {}
        existing = conn.execute("SELECT id, missing_pages_json FROM sheets WHERE sheet_id = ?",
                                (scan.sheet_id,)).fetchone()
        stored_pages = set() if existing is None else {r[0] for r in conn.execute(
            "SELECT page_index FROM pages WHERE sheet_id = ?", (existing[0],))}
        scanned = {p.index for p in scan.pages}
        missing = sorted(set(scan.missing_pages) - stored_pages - scanned)
        values = (tid, table_pk, round_, table, int(identity.get("continuation") or 0),
                  scan.layout_id, str(identity.get("rules_id") or ""),
                  json.dumps(rules, ensure_ascii=False), "".join(seats),
                  json.dumps(names, ensure_ascii=False),
                  json.dumps(identity, ensure_ascii=False), json.dumps(missing),
                  sentences_json(scan.problems),
                  json.dumps(scan.record, ensure_ascii=False),
                  None if scan_path is None else str(scan_path), now())
        columns = ("tournament_id, table_id, round, table_number, continuation, layout_id, "
                   "rules_id, rules_json, seats, names_json, identity_json, missing_pages_json, "
                   "problems_json, scan_record_json, scan_path, imported_at")
        if existing is None:
            cursor = conn.execute(f"INSERT INTO sheets (sheet_id, {columns}) VALUES "
                                  f"(?, {', '.join('?' * 16)})", (scan.sheet_id, *values))
            sheet_pk = int(cursor.lastrowid or 0)
        else:
            sheet_pk = int(existing[0])
            assignments = ", ".join(f"{c.strip()} = ?" for c in columns.split(","))
            conn.execute(f"UPDATE sheets SET {assignments}, state = 'read' WHERE id = ?",
                         (*values, sheet_pk))
        self.notes += seat_players(conn, sheet_pk, tid, table_pk, seats, names,
                                   f"sheet {scan.sheet_id}",
                                   lambda player: self._player(conn, tid, player))
        return sheet_pk

    def _store_cells(self, conn: sqlite3.Connection, sheet_pk: int, scan: SheetScan) -> None:
        verified = {r[0] for r in conn.execute(
            "SELECT key FROM cells WHERE sheet_id = ? AND verified = 1", (sheet_pk,))}
        pages = sorted({p.index for p in scan.pages} | {f.page for f in scan.fields})
        keys = {f.key for f in scan.fields}
        stale = [r[0] for r in conn.execute(
            f"SELECT key FROM cells WHERE sheet_id = ? AND verified = 0 AND page IN "
            f"({', '.join('?' * len(pages))})", (sheet_pk, *pages)) if r[0] not in keys]
        conn.executemany("DELETE FROM cells WHERE sheet_id = ? AND key = ?",
                         [(sheet_pk, key) for key in stale])
        conn.executemany(
            "INSERT INTO cells (sheet_id, key, page, rect_json, status, value_json, confidence, "
            "candidates_json, expected_json, deal, note, note_json, crop, ink_json) "
            f"VALUES ({', '.join('?' * 14)}) ON CONFLICT (sheet_id, key) DO UPDATE "
            "SET page = excluded.page, rect_json = excluded.rect_json, status = excluded.status, "
            "value_json = excluded.value_json, confidence = excluded.confidence, "
            "candidates_json = excluded.candidates_json, "
            "expected_json = excluded.expected_json, deal = excluded.deal, "
            "note = excluded.note, note_json = excluded.note_json, crop = excluded.crop, "
            "ink_json = excluded.ink_json",
            [(sheet_pk, f.key, f.page, json.dumps(list(f.rect_mm)), f.status,
              json.dumps(f.value, ensure_ascii=False), f.confidence,
              json.dumps([list(c) for c in f.candidates], ensure_ascii=False),
              json.dumps(f.expected, ensure_ascii=False), f.deal, f.note, note_json(f.note), f.crop,
              json.dumps([list(c) for c in f.ink]) if f.ink else None)
             for f in scan.fields if f.key not in verified])

    def _sheet_pk(self, sheet_id: str) -> int:
        row = self.conn.execute("SELECT id FROM sheets WHERE sheet_id = ?",
                                (sheet_id,)).fetchone()
        if row is None:
            raise StoreError(f"no sheet {sheet_id!r} in {self.path}; `pulka import` it first")
        return int(row[0])

    def verify_cell(self, sheet_id: str, key: str, value: Any, who: str) -> SheetState:
        """A person's value for one cell: saved at once, logged, the sheet scored again.

        Returns the sheet's new state; the other entries are decoded again against it (and
        the deal log as it stands); a later re-scan leaves this cell alone.
        """
        if not who:
            raise StoreError("a verified value needs the name of who verified it")
        with self.transaction() as conn:
            sheet_pk = self._sheet_pk(sheet_id)
            row = conn.execute("SELECT value_json FROM cells WHERE sheet_id = ? AND key = ?",
                               (sheet_pk, key)).fetchone()
            if row is None:
                raise StoreError(f"sheet {sheet_id} has no cell {key!r}")
            new = json.dumps(value, ensure_ascii=False)
            stamp = now()
            conn.execute("UPDATE cells SET value_json = ?, verified = 1, verified_by = ?, "
                         "verified_at = ? WHERE sheet_id = ? AND key = ?",
                         (new, who, stamp, sheet_pk, key))
            conn.execute("INSERT INTO decisions (sheet_id, key, who, at, old_json, new_json) "
                         "VALUES (?, ?, ?, ?, ?, ?)", (sheet_pk, key, who, stamp, row[0], new))
            return refresh(conn, sheet_pk, redecode=True)

    def sheet_ids(self, tournament: str | None = None) -> list[str]:
        """Every sheet id (of one tournament), by round and table."""
        sql = "SELECT s.sheet_id FROM sheets s JOIN tournaments t ON t.id = s.tournament_id"
        args: tuple[Any, ...] = ()
        if tournament is not None:
            sql, args = sql + " WHERE t.name = ?", (tournament,)
        return [r[0] for r in self.conn.execute(
            sql + " ORDER BY s.round, s.table_number, s.sheet_id", args)]

    def state_counts(self, tournament: str | None = None) -> dict[str, int]:
        """How many sheets are in each state."""
        sql = ("SELECT s.state, count(*) FROM sheets s JOIN tournaments t "
               "ON t.id = s.tournament_id")
        args: tuple[Any, ...] = ()
        if tournament is not None:
            sql, args = sql + " WHERE t.name = ?", (tournament,)
        return dict(self.conn.execute(sql + " GROUP BY s.state", args).fetchall())

    def sheet_summary(self, sheet_id: str) -> dict[str, Any]:
        """Everything ``pulka show`` tells about one sheet, as JSON-ready values."""
        return sheet_summary(self.conn, self._sheet_pk(sheet_id))

    def standings_rows(self, tournament: str | None = None, round_: int | None = None
                       ) -> StandingsRows:
        """A tournament's settled seats (:func:`pulka.report.standings.rank` ranks them)."""
        return standings_rows(self.conn, self.tournament_id(tournament), round_)

    def image_ref(self, sheet_id: str, kind: str, which: str) -> ImageRef:
        """Where a sheet's page image (``kind`` ``page``, ``which`` its index) or a cell's
        crop (``crop``, ``which`` its key) is; its parts ``None`` when the store has none."""
        row = self.conn.execute("SELECT id, scan_path FROM sheets WHERE sheet_id = ?",
                                (sheet_id,)).fetchone()
        if row is None:
            return ImageRef(None, None)
        found = None
        if kind == "page" and which.isdigit() and len(which) < 6:
            found = self.conn.execute("SELECT image FROM pages WHERE sheet_id = ? AND "
                                      "page_index = ?", (row[0], int(which))).fetchone()
        elif kind == "crop":
            found = self.conn.execute("SELECT crop FROM cells WHERE sheet_id = ? AND key = ?",
                                      (row[0], which)).fetchone()
        return ImageRef(row[1], found[0] if found else None)

    def cell(self, sheet_id: str, key: str) -> CellRow:
        """One stored cell; :class:`StoreError` naming it when there is none."""
        rows = named_rows(self.conn, "SELECT * FROM cells WHERE sheet_id = ? AND key = ?",
                          (self._sheet_pk(sheet_id), key))
        if not rows:
            raise StoreError(f"sheet {sheet_id} has no cell {key!r}")
        return CellRow.from_row(rows[0])
