"""The store against another writer's lock, a damaged file and numbers SQLite cannot hold:
each refused with one line naming the store or the field, never a traceback."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from pulka.cli.main import main
from pulka.store import database
from pulka.store.database import Store
from pulka.store.errors import DamagedStore, StoreBusy, StoreError
from scoring.exitcode import ExitCode


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_writer_waits_for_the_lock_then_says_so(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    Store(db).close()
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with Store(db, wait_s=0.3) as store:
            start = time.perf_counter()
            with pytest.raises(StoreBusy, match="another program") as caught:
                store.new_tournament("Kyiv Open", rounds=1, tables=1)
            assert time.perf_counter() - start >= 0.3
            assert str(db) in str(caught.value)
    finally:
        other.execute("ROLLBACK")
        other.close()
    with Store(db) as store:
        store.new_tournament("Kyiv Open", rounds=1, tables=1)
        assert store.tournament_names() == ["Kyiv Open"]


def test_the_command_line_reports_a_locked_store_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite"
    Store(db).close()
    monkeypatch.setattr(database, "BUSY_TIMEOUT_S", 0.2)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        assert main(["tournament", "new", "Kyiv Open", "--db", str(db)]) == ExitCode.BAD_INPUT
    finally:
        other.close()
    assert "is writing to the store" in one_line(capsys)


@pytest.mark.parametrize("content", [b"not a database at all" * 100,
                                     b"SQLite format 3\0" + b"\xff" * 4000])
def test_a_file_that_is_no_store_is_refused_by_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes) -> None:
    db = tmp_path / "t.sqlite"
    db.write_bytes(content)
    with pytest.raises(DamagedStore, match="not a pulka store"):
        Store(db)
    assert main(["standings", "--db", str(db)]) == ExitCode.BAD_INPUT
    assert str(db) in one_line(capsys)


def test_a_truncated_store_is_refused_by_name(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite"
    with Store(db) as store:
        store.new_tournament("Kyiv Open", rounds=20, tables=20)
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = db.read_bytes()
    db.write_bytes(data[:len(data) // 3])
    assert main(["tournament", "list", "--db", str(db)]) == ExitCode.BAD_INPUT
    assert str(db) in one_line(capsys)


@pytest.mark.parametrize("option", ["--rounds", "--tables"])
def test_a_number_too_big_for_the_store_is_refused_naming_the_field(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str) -> None:
    db = tmp_path / "t.sqlite"
    assert main(["tournament", "new", "Kyiv Open", option, "9" * 30, "--db",
                 str(db)]) == ExitCode.BAD_ARGS
    assert option.lstrip("-") in one_line(capsys)
    with Store(db) as store:
        assert store.tournament_names() == []
        with pytest.raises(StoreError, match="the draw's round"):
            store.new_tournament("X", seatings=[(2**70, 1, "ABC", ("a", "b", "c"))])
