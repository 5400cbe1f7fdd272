"""Draw files as spreadsheets write them (encodings, separators, Russian and Ukrainian
headings) are read and reported; broken and hostile ones are refused naming every bad line."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forms.render.batch import DrawError, Seating, load_draw
from pulka.cli.main import main

ROWS = [("1", "1", "Иванов А.", "Петренко", "Sidorov"),
        ("1", "2", "Ковальчук", "Ёлкин", "-"),
        ("2", "1", "Петренко", "Иванов А.", "Ковальчук")]
HEADERS = {"en": ("round", "table", "A", "B", "C"), "ru": ("Тур", "Стол", "А", "Б", "В"),
           "uk": ("тур", "стіл", "А", "Б", "В"), "lookalike": ("№ тура", "№ стола", "А", "В", "С")}
ENCODINGS = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8 with BOM", "utf-16": "UTF-16",
             "cp1251": "Windows-1251"}
EXPECTED = [Seating(1, 1, ("Иванов А.", "Петренко", "Sidorov")),
            Seating(1, 2, ("Ковальчук", "Ёлкин", "")),
            Seating(2, 1, ("Петренко", "Иванов А.", "Ковальчук"))]


def _draw(path: Path, encoding: str, separator: str, header: tuple[str, ...],
          rows: Sequence[tuple[str, ...]] = ROWS) -> Path:
    lines = [separator.join(header), *(separator.join(row) for row in rows)]
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode(encoding))
    return path


@pytest.mark.parametrize("header", sorted(HEADERS))
@pytest.mark.parametrize("separator", [",", ";", "\t"])
@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_spreadsheet_draws_are_read_and_reported(tmp_path: Path, encoding: str,
                                                 separator: str, header: str) -> None:
    draw = load_draw(_draw(tmp_path / "draw.csv", encoding, separator, HEADERS[header]))
    assert draw.seatings == EXPECTED and draw.players == 3
    shown = "tab" if separator == "\t" else repr(separator)
    assert draw.describe() == f"read as {ENCODINGS[encoding]}, separator {shown}"


def test_print_and_tournament_take_a_windows_1251_draw_without_players(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [(*row, name) for row, name in zip(ROWS, ("Зуев", "Яковлев", "Sidorov"),
                                               strict=True)]
    path = _draw(tmp_path / "draw.csv", "cp1251", ";", ("тур", "стол", "А", "Б", "В", "Г"),
                 rows)
    assert main(["print", "--draw", str(path), "--tournament", "Open", "-o",
                 str(tmp_path / "draw.pdf")]) == 0
    printed = capsys.readouterr()
    assert printed.out.endswith("3 sheets, 9 pages\n")
    assert printed.err == f"pulka print: {path}: read as Windows-1251, separator ';'\n"
    assert (tmp_path / "draw.pdf").stat().st_size > 1000
    assert main(["print", "--draw", str(path), "--players", "3", "-o",
                 str(tmp_path / "x.pdf")]) == 3
    assert "the header has 4 seats (A, B, C, D), the sheets are for 3 players" in \
        capsys.readouterr().err
    db = tmp_path / "t.db"
    assert main(["tournament", "new", "Open", "--draw", str(path), "--db", str(db)]) == 0
    printed = capsys.readouterr()
    assert f"2 rounds x 2 tables, 7 players from {path}" in printed.out
    assert printed.err == f"pulka tournament: {path}: read as Windows-1251, separator ';'\n"


def test_every_bad_line_is_named(tmp_path: Path) -> None:
    rows = [*ROWS, ("3", "x", "a", "b", "c"), ("4", "1", "a", "", "c"), ("1", "2", "d", "e", "f"),
            ("5", "1", "a\x00b", "b", "c"), ("6", "1", "Я" * 500, "b", "c")]
    with pytest.raises(DrawError) as caught:
        load_draw(_draw(tmp_path / "draw.csv", "utf-8", ";", HEADERS["ru"], rows))
    message = str(caught.value)
    assert message.startswith(f"{tmp_path / 'draw.csv'}: 5 bad lines: line 5: round and table")
    for text in ("line 6: round 4, table 1 has no name for seat B",
                 "line 7: round 1, table 2 is already on line 3",
                 "line 8: round 5, table 1: the name of seat A contains a control character",
                 "line 9: round 6, table 1: the name of seat A is 500 characters long"):
        assert text in message
    assert "\n" not in message


@pytest.mark.parametrize("make", ["pipe", "folder", "missing", "empty", "binary"])
def test_a_draw_that_is_no_csv_is_one_line(tmp_path: Path, make: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "draw.csv"
    if make == "pipe":
        os.mkfifo(path)
    elif make == "folder":
        path.mkdir()
    elif make == "empty":
        path.write_bytes(b"")
    elif make == "binary":
        path.write_bytes(bytes(range(256)) * 4)
    assert main(["print", "--draw", str(path), "-o", str(tmp_path / "x.pdf")]) == 3
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and str(path) in err, err


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["1", "2", "-", "x", "тур", "стол", "А", "Б", "В",
                                          "round", "table", "A", "B", "C", "D", "", '"',
                                          "Иванов", "a;b", "\x00", "99999999999999999999"]),
                         max_size=7), max_size=6),
       st.sampled_from([",", ";", "\t"]), st.sampled_from(sorted(ENCODINGS)))
def test_any_draw_is_read_or_refused(tmp_path_factory: pytest.TempPathFactory,
                                     rows: list[list[str]], separator: str,
                                     encoding: str) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "draw.csv"
    path.write_bytes("\n".join(separator.join(row) for row in rows).encode(encoding))
    try:
        draw = load_draw(path)
    except DrawError as error:
        assert "\n" not in str(error) and str(path) in str(error)
        return
    assert draw.players in (3, 4) and draw.seatings


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_are_read_or_refused(tmp_path_factory: pytest.TempPathFactory,
                                       data: bytes) -> None:
    path = tmp_path_factory.mktemp("bytes") / "draw.csv"
    path.write_bytes(data)
    with contextlib.suppress(DrawError):
        load_draw(path)
