"""A tournament's own language (issue 16): ``pulka tournament new NAME --lang uk`` stores it,
and a command on that tournament speaks it with no ``--lang`` and no locale in the
environment; ``--lang`` still wins; a store of schema version 4 gains the column."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_i18n_report import LATIN_WORD, english_phrases, pdf_text

from pulka import i18n
from pulka.cli.main import main
from pulka.i18n import ENVIRONMENT_VARIABLES
from pulka.store.database import Store
from pulka.store.schema import SCHEMA_VERSION


@pytest.fixture(autouse=True)
def no_locale(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ENVIRONMENT_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    yield
    i18n.use_language("en")


def standings(db: Path, capsys: pytest.CaptureFixture[str], *options: str) -> str:
    capsys.readouterr()
    assert main([*options, "standings", "--db", str(db)]) == 0
    return capsys.readouterr().out


def test_a_ukrainian_tournament_answers_in_ukrainian(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "pulka.sqlite"
    assert main(["tournament", "new", "Open", "--rounds", "1", "--tables", "1", "--lang", "uk",
                 "--db", str(db)]) == 0
    i18n.use_language("en")
    out = standings(db, capsys)
    assert "гравець" in out and "вісти" in out and "бракує" in out
    assert "player" not in out and "missing" not in out
    english = standings(db, capsys, "--lang", "en")
    assert "player" in english and "вісти" not in english


def test_a_new_tournament_is_not_spoken_to_in_another_ones_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "pulka.sqlite"
    assert main(["tournament", "new", "Open", "--lang", "uk", "--db", str(db)]) == 0
    i18n.use_language("en")
    capsys.readouterr()
    assert main(["tournament", "new", "Cup", "--rounds", "1", "--db", str(db)]) == 0
    assert "tournament 'Cup'" in capsys.readouterr().out


def test_a_tournament_without_a_language_keeps_the_default(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "pulka.sqlite"
    assert main(["tournament", "new", "Open", "--rounds", "1", "--tables", "1",
                 "--db", str(db)]) == 0
    assert "player" in standings(db, capsys)


def test_a_version_4_store_gains_the_language_column(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    with Store(db) as store:
        store.new_tournament("Open", 1, 1)
    conn = sqlite3.connect(db)
    conn.executescript("ALTER TABLE tournaments DROP COLUMN language; "
                       "ALTER TABLE cells DROP COLUMN note_json; "
                       "ALTER TABLE findings DROP COLUMN note_json; DROP TABLE refused_files; "
                       "PRAGMA user_version = 4;")
    conn.close()
    with Store(db) as store:
        assert store.tournament_language("Open") is None
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_the_standings_pdf_and_a_card_speak_the_tournaments_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, draw, pdf = tmp_path / "pulka.sqlite", tmp_path / "draw.csv", tmp_path / "table.pdf"
    draw.write_text("round,table,A,B,C\n1,1,Петренко,Сидоренко,Коваль\n", encoding="utf-8")
    assert main(["tournament", "new", "Open", "--draw", str(draw), "--lang", "uk",
                 "--db", str(db)]) == 0
    i18n.use_language("en")
    capsys.readouterr()
    assert main(["standings", "--db", str(db), "--pdf", str(pdf)]) == 0
    assert "аркуша ще немає" in capsys.readouterr().out
    text = pdf_text(pdf.read_bytes())
    assert "Місця за сумою вістів" in text and "гравець" in text
    assert english_left(text) == []
    capsys.readouterr()
    assert main(["standings", "--db", str(db), "--player", "Коваль"]) == 0
    card = capsys.readouterr().out
    assert "Коваль · Open" in card and english_left(card) == []


def test_its_sheets_print_in_the_tournaments_language(tmp_path: Path) -> None:
    db, draw, sheets = tmp_path / "pulka.sqlite", tmp_path / "draw.csv", tmp_path / "t.pdf"
    draw.write_text("round,table,A,B,C\n1,1,Петренко,Сидоренко,Коваль\n", encoding="utf-8")
    assert main(["tournament", "new", "Open", "--draw", str(draw), "--lang", "uk",
                 "--db", str(db)]) == 0
    i18n.use_language("en")
    assert main(["print", "--players", "3", "--tournament", "Open", "--db", str(db),
                 "--round", "1", "--table", "1", "-o", str(sheets)]) == 0
    text = pdf_text(sheets.read_bytes())
    assert "вісти на B" in text and "whists on" not in text


def english_left(text: str) -> list[str]:
    plain = " ".join(LATIN_WORD.findall(text.replace("Open", "")))
    return sorted(p for p in english_phrases() if re.search(rf"\b{re.escape(p)}\b", plain))
