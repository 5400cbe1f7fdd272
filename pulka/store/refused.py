"""Image files the scanner refused, remembered so that a re-run of an import does not scan
them again: the same file refused by the same reader is reported with the reason it was given,
and read anew only when the reader changed (a new pulka) or ``pulka import --rescan`` asks.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from functools import cache
from pathlib import Path

import scanner
from pulka.store.refresh import now
from scanner.errors import ScanFailure
from scanner.jsoncheck import sentence
from scoring.exitcode import ExitCode
from scoring.said import said_json


@cache
def reader_identity() -> str:
    """SHA-256 of the scanner's code and models: a file refused by another reader is read
    again."""
    digest = hashlib.sha256()
    root = Path(scanner.__file__).parent
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".onnx", ".json")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def refused_files(conn: sqlite3.Connection) -> dict[str, ScanFailure]:
    """The files this reader refused before, by content hash, with the failure it gave."""
    rows = conn.execute("SELECT file_hash, source, message_json, exit_code FROM refused_files "
                        "WHERE reader = ?", (reader_identity(),))
    return {digest: ScanFailure(source, sentence(json.loads(message), "message"),
                                ExitCode(code))
            for digest, source, message, code in rows}


def remember_refused(conn: sqlite3.Connection, digest: str, path: Path,
                     failure: ScanFailure) -> None:
    """Keep ``failure`` of the file ``path`` with content hash ``digest`` (one transaction)."""
    with conn:
        conn.execute(
            "INSERT INTO refused_files (file_hash, source, message_json, exit_code, reader, at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (file_hash) DO UPDATE SET "
            "source = excluded.source, message_json = excluded.message_json, "
            "exit_code = excluded.exit_code, reader = excluded.reader, at = excluded.at",
            (digest, str(path), json.dumps(said_json(failure.message), ensure_ascii=False),
             int(failure.exit_code), reader_identity(),
             now()))


def forget_refused(conn: sqlite3.Connection, digests: list[str]) -> None:
    """Forget the refusals of files that have now been read (one transaction)."""
    with conn:
        conn.executemany("DELETE FROM refused_files WHERE file_hash = ?",
                         [(d,) for d in digests])
