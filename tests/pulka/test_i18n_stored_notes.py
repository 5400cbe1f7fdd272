"""The store keeps notes by code (schema 6, ``note_json``): a cell's note from the scanner and
a finding's reasons from the rules engine are said by ``pulka show`` in the reader's language;
rows stored before codes still load, and show their words as they were stored."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from review_fixture import DOUBTS1, SHEET1, build_store

from pulka import i18n
from pulka.cli.main import main
from pulka.store.database import Store
from pulka.store.review import decide, queue
from pulka.store.schema import SCHEMA_VERSION
from scanner.words import said

CELL = "entry:A:whists:B:0"


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Path]:
    doubts = dict(DOUBTS1)
    value, confidence, candidates, expected, _note = doubts[CELL]
    doubts[CELL] = (value, confidence, candidates, expected,
                    said("ink_expected", ink=9, expected=8))
    yield build_store(tmp_path, doubts=(doubts, {}))
    i18n.use_language("en")


def show(db: Path, language: str, capsys: pytest.CaptureFixture[str]) -> str:
    main(["--lang", language, "show", SHEET1, "--db", str(db)])
    return capsys.readouterr().out


@pytest.mark.parametrize(("language", "note", "reasons"), [
    ("en", "the ink says 9; the rules expected 8", ("whists for 4 tricks x 2",
                                                   "help from B (6♣ not played, all passed)")),
    ("ru", "чернила говорят 9; по правилам ожидалось 8",
     ("висты за взятки: 4 x 2", "помощь от B (6♣ не сыграна, все спасовали)")),
    ("uk", "чорнило каже 9; за правилами очікувалося 8",
     ("вісти за взятки: 4 x 2", "допомога від B (6♣ не зіграно, усі спасували)")),
])
def test_notes_and_reasons_are_said_from_their_codes(db: Path, language: str, note: str,
                                                     reasons: tuple[str, ...],
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    shown = show(db, language, capsys)
    assert note in shown
    for reason in reasons:
        assert reason in shown


def test_a_note_marked_illegible_keeps_its_code(db: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    with Store(db) as store:
        decide(store, SHEET1, CELL, None, "judge", illegible=True)
        assert store.cell(SHEET1, CELL).note == "illegible · the ink says 9; the rules expected 8"
    i18n.use_language("uk")
    with Store(db) as store:
        decide(store, SHEET1, CELL, 8, "judge")
        assert store.cell(SHEET1, CELL).note.code == "ink_expected"  # type: ignore[attr-defined]


def test_a_version_5_store_gains_the_note_codes(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.executescript("ALTER TABLE cells DROP COLUMN note_json; "
                           "ALTER TABLE findings DROP COLUMN note_json; "
                           "DROP TABLE refused_files; PRAGMA user_version = 5;")
    with Store(db) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 7
        note = store.cell(SHEET1, CELL).note
        assert note == "the ink says 9; the rules expected 8" and not hasattr(note, "code")


def test_rows_stored_before_codes_show_their_words(db: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE cells SET note_json = NULL")
        conn.execute("UPDATE findings SET note_json = NULL")
    shown = show(db, "ru", capsys)
    assert "ожидалось 8" in shown  # the finding's own words are said from its columns
    assert "whists for 4 tricks x 2" in shown
    assert "the ink says 9; the rules expected 8" in shown


def test_the_review_queue_says_a_note_in_the_language(db: Path) -> None:
    i18n.use_language("uk")
    with Store(db) as store:
        cells = [c for group in queue(store)["sheets"] for c in group["cells"]]
    (cell,) = [c for c in cells if c["key"] == CELL]
    assert cell["note"] == "чорнило каже 9; за правилами очікувалося 8"
    assert cell["note_code"] == "ink_expected"
