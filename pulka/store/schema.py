"""The tournament store's tables, as SQL, and the migrations that build them.

``PRAGMA user_version`` holds the schema version; :func:`migrate` runs every migration above
it, each in one transaction with its version bump, so a file is always at a whole version.
A new version appends a script to :data:`MIGRATIONS` (never edits an old one).

The tables, by what they hold:

* ``tournaments``, ``rounds``, ``tables``, ``table_seats``, ``players``: the draw;
* ``sheets``: one per printed sheet (sheet id unique), with its layout id, rule set id and
  settings, seats and names, its state and counts, the record as scanned and as rebuilt;
* ``sheet_players``: who sat in which seat of a sheet;
* ``pages``: one per page image, unique by content hash;
* ``cells``: one per field read (``entry:...``, ``row:...``), with the verified-by-a-person flag
  and an entry's ink evidence (``ink_json``, version 2);
* ``findings``, ``settlements``: what the rules engine said about the rebuilt record;
* ``decisions``: every value a person set, with the old value (the review log);
* ``rulings``, ``signoffs``: a judge's ruling on each finding, and the sheet signed off
  (version 4);
* ``tournaments.language``: the tournament's own language (version 5);
* ``cells.note_json``, ``findings.note_json``: a note's code and parameters (version 6).
"""

from __future__ import annotations

import logging
import sqlite3
from enum import StrEnum

from scanner.results import CellStatus
from scoring.exitcode import PulkaError

log = logging.getLogger(__name__)


class FindingStatus(StrEnum):
    """Whether a finding is a player's error or rests on a field nobody verified yet."""

    ERROR = "error"
    WAITS = "waits_for_review"


class RulingAction(StrEnum):
    """A judge's ruling on a finding: its 4.2.7 penalty applied, or waived."""

    APPLY = "apply"
    WAIVE = "waive"


class SheetState(StrEnum):
    """Where a stored sheet stands (:func:`pulka.store.refresh.refresh` decides it)."""

    READ = "read"
    NEEDS_REVIEW = "needs_review"
    AUDITED = "audited"
    SETTLED = "settled"


SHEET_STATES = tuple(str(state) for state in SheetState)
CELL_STATUSES = tuple(str(status) for status in CellStatus)

_V1 = f"""
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    rounds INTEGER,
    tables INTEGER,
    created_at TEXT NOT NULL
);
CREATE TABLE rounds (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    UNIQUE (tournament_id, number)
);
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    UNIQUE (tournament_id, name)
);
CREATE TABLE tables (
    id INTEGER PRIMARY KEY,
    round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    UNIQUE (round_id, number)
);
CREATE TABLE table_seats (
    table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat TEXT NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE sheets (
    id INTEGER PRIMARY KEY,
    sheet_id TEXT NOT NULL UNIQUE,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    table_id INTEGER REFERENCES tables(id),
    round INTEGER,
    table_number INTEGER,
    continuation INTEGER NOT NULL DEFAULT 0,
    layout_id TEXT NOT NULL,
    rules_id TEXT NOT NULL,
    rules_json TEXT NOT NULL,
    seats TEXT NOT NULL,
    names_json TEXT NOT NULL,
    identity_json TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'read' CHECK (state IN {SHEET_STATES}),
    findings_count INTEGER NOT NULL DEFAULT 0,
    doubtful_count INTEGER NOT NULL DEFAULT 0,
    missing_pages_json TEXT NOT NULL DEFAULT '[]',
    problems_json TEXT NOT NULL DEFAULT '[]',
    scan_record_json TEXT NOT NULL,
    record_json TEXT,
    record_error TEXT,
    finished INTEGER,
    scan_path TEXT,
    imported_at TEXT NOT NULL,
    refreshed_at TEXT
);
CREATE INDEX sheets_by_tournament ON sheets (tournament_id, round);
CREATE TABLE sheet_players (
    sheet_id INTEGER NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
    seat TEXT NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (sheet_id, seat)
);
CREATE TABLE pages (
    id INTEGER PRIMARY KEY,
    sheet_id INTEGER NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
    page_index INTEGER NOT NULL,
    source TEXT NOT NULL,
    content_hash TEXT NOT NULL UNIQUE,
    image TEXT,
    fit_error_mm REAL,
    warnings_json TEXT NOT NULL DEFAULT '[]',
    imported_at TEXT NOT NULL,
    UNIQUE (sheet_id, page_index)
);
CREATE TABLE cells (
    id INTEGER PRIMARY KEY,
    sheet_id INTEGER NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    page INTEGER NOT NULL,
    rect_json TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN {CELL_STATUSES}),
    value_json TEXT NOT NULL,
    confidence REAL NOT NULL,
    candidates_json TEXT NOT NULL DEFAULT '[]',
    expected_json TEXT NOT NULL DEFAULT 'null',
    deal INTEGER,
    note TEXT NOT NULL DEFAULT '',
    crop TEXT,
    verified INTEGER NOT NULL DEFAULT 0 CHECK (verified IN (0, 1)),
    verified_by TEXT,
    verified_at TEXT,
    UNIQUE (sheet_id, key)
);
CREATE TABLE findings (
    id INTEGER PRIMARY KEY,
    sheet_id INTEGER NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    deal INTEGER,
    seat TEXT NOT NULL,
    column_kind TEXT NOT NULL,
    on_seat TEXT,
    entry INTEGER,
    written TEXT,
    expected TEXT,
    rule TEXT NOT NULL,
    penalty TEXT,
    note TEXT NOT NULL DEFAULT '',
    message TEXT NOT NULL
);
CREATE INDEX findings_by_sheet ON findings (sheet_id);
CREATE TABLE settlements (
    sheet_id INTEGER NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
    seat TEXT NOT NULL,
    result TEXT NOT NULL,
    rounded INTEGER NOT NULL,
    codex_integer INTEGER NOT NULL,
    money TEXT,
    remises INTEGER NOT NULL DEFAULT 0,
    allpass TEXT NOT NULL DEFAULT '0',
    PRIMARY KEY (sheet_id, seat)
);
CREATE TABLE decisions (
    id INTEGER PRIMARY KEY,
    sheet_id INTEGER NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    who TEXT NOT NULL,
    at TEXT NOT NULL,
    old_json TEXT NOT NULL,
    new_json TEXT NOT NULL
);
"""

_V2 = """
ALTER TABLE cells ADD COLUMN ink_json TEXT;
"""
"""Version 2: an entry cell keeps its ink evidence (``FieldReading.ink``, JSON ``[[value, p],
...]``; NULL for a row, or a cell imported before), so that a decision can decode the sheet's
columns again (:mod:`pulka.store.redecode`)."""

_V3 = """
ALTER TABLE pages ADD COLUMN file_hash TEXT;
CREATE INDEX pages_by_file ON pages (file_hash);
"""
"""Version 3: a page keeps its image file's content hash (``file_hash``, NULL when imported
before, or from a scan whose image is gone): what a re-run of an import compares, to skip
the files already imported (:meth:`pulka.store.database.Store.known_files`)."""

_V4 = """
ALTER TABLE findings ADD COLUMN key TEXT NOT NULL DEFAULT '';
ALTER TABLE findings ADD COLUMN status TEXT NOT NULL DEFAULT 'error'
    CHECK (status IN ('error', 'waits_for_review'));
CREATE TABLE rulings (
    id INTEGER PRIMARY KEY,
    sheet_id INTEGER NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
    finding_key TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('apply', 'waive')),
    who TEXT NOT NULL,
    at TEXT NOT NULL,
    UNIQUE (sheet_id, finding_key)
);
CREATE TABLE signoffs (
    sheet_id INTEGER PRIMARY KEY REFERENCES sheets(id) ON DELETE CASCADE,
    who TEXT NOT NULL,
    at TEXT NOT NULL
);
"""
"""Version 4: a finding's key (:func:`scoring.rulings.finding_key`) and status (an error, or
waiting for review: it rests on a doubtful field); a judge's ruling per finding (the 4.2.7
penalty applied or waived, kept under the finding's key, so it lapses when the finding
changes); a sheet's sign-off (dropped whenever the sheet is scored again)."""

_V5 = """
ALTER TABLE tournaments ADD COLUMN language TEXT;
"""
"""Version 5: a tournament's own language (``en``, ``ru``, ``uk``; NULL when created before or
without ``--lang``): what every command on it speaks unless ``--lang`` says otherwise, and
the language its sheets are printed in (:func:`pulka.i18n.choose_language`)."""

_V6 = """
ALTER TABLE cells ADD COLUMN note_json TEXT;
ALTER TABLE findings ADD COLUMN note_json TEXT;
"""
"""Version 6: a cell's note and a finding's note by code, beside their English ``note``, so
each is said in the reader's language: a cell's as :meth:`scoring.said.Said.to_json`, a
finding's as ``{"code", "args"}`` (:attr:`scoring.audit.Finding.note_code` and its
arguments, each a sentence). NULL for an empty note and for rows written before."""

_V7 = """
CREATE TABLE refused_files (
    file_hash TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    message_json TEXT NOT NULL,
    exit_code INTEGER NOT NULL,
    reader TEXT NOT NULL,
    at TEXT NOT NULL
);
"""
"""Version 7: the image files the scanner refused, by content hash, with the sentence it gave
(:meth:`scoring.said.Said.to_json`), its exit code and the reader that refused them
(:func:`pulka.store.refused.reader_identity`): a re-run of an import does not scan them again
(:mod:`pulka.store.refused`)."""

MIGRATIONS: tuple[str, ...] = (_V1, _V2, _V3, _V4, _V5, _V6, _V7)
"""Migration ``n`` (from 1) takes a file from version ``n - 1`` to ``n``."""
SCHEMA_VERSION = len(MIGRATIONS)


class SchemaTooNew(PulkaError):
    """The file was written by a newer pulka than this one (the message names the file)."""


def schema_version(conn: sqlite3.Connection) -> int:
    """The file's ``PRAGMA user_version`` (0 for a new, empty file)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def conn_path(conn: sqlite3.Connection) -> str:
    """The file a connection has open."""
    return str(conn.execute("PRAGMA database_list").fetchone()[2])


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the file up to :data:`SCHEMA_VERSION`; return the version it had.

    Each migration runs in one transaction together with its ``user_version`` bump.
    """
    start = schema_version(conn)
    if start > SCHEMA_VERSION:
        raise SchemaTooNew(f"{conn_path(conn)}: the store has schema version {start}, this "
                           f"pulka knows up to {SCHEMA_VERSION}; update pulka")
    for version in range(start + 1, SCHEMA_VERSION + 1):
        log.info("store: migrating to schema version %d", version)
        try:
            conn.executescript(f"BEGIN IMMEDIATE;\n{MIGRATIONS[version - 1]}\n"
                               f"PRAGMA user_version = {version};\nCOMMIT;")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    return start
