"""A 3-round tournament run through the command line on one SQLite file, with the day's
mistakes (issue 15, "Done when"): a draw as a Russian spreadsheet writes it, a re-import, a
page scanned later, a blank sheet, another tournament's sheet, a name printed otherwise than in
the draw, a replacement sheet printed with --round/--table, a game on a continuation sheet, a
substitute; the store, the standings and the messages checked."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from day_sheets import blank, only_page, split_game, with_identity, without_page, write_scan

from forms.identity import SheetIdentity, from_qr_payload
from forms.render.batch import Seating, batch_requests
from forms.render.raster import render_pages
from pulka.cli.main import main
from pulka.store.database import Store
from samplegen.scans import synthetic_sheet
from scanner.image.identify import read_qr
from scanner.results import SheetScan
from scoring.rules import RuleSet

CUP = "Кубок Днепра"
RULES = RuleSet.preset("sochi", 3, 10)
PEOPLE = ("Иванов Андрей", "Петров Борис", "Сидорова Вера", "Козлов Глеб", "Новикова Дарья",
          "Морозов Егор")
DRAW = [(1, 1, (0, 1, 2)), (1, 2, (3, 4, 5)), (2, 1, (0, 3, 4)), (2, 2, (1, 2, 5)),
        (3, 1, (0, 4, 5)), (3, 2, (1, 2, 3))]
SUBSTITUTE = "Лебедев Олег"


class Day:
    """The tournament's store and the command line run on it."""

    def __init__(self, folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.folder = folder
        self.db = folder / "t.sqlite"
        self.capsys = capsys
        self.rng = random.Random(15)
        seatings = [Seating(r, t, tuple(PEOPLE[i] for i in who)) for r, t, who in DRAW]
        self.printed = {(r.identity.round, r.identity.table): r.identity
                        for r in batch_requests(seatings, RULES, CUP, "ru")}

    def run(self, *args: str) -> tuple[int, str, str]:
        code = main([*args, "--db", str(self.db)])
        out, err = self.capsys.readouterr()
        return code, out, err

    def sheet(self, identity: SheetIdentity) -> SheetScan:
        scan = synthetic_sheet(self.rng, RULES, CUP, identity.round, identity.table,
                               identity.names).scan
        return with_identity(scan, identity)

    def write(self, scan: SheetScan, *where: str) -> None:
        write_scan(scan, self.folder.joinpath(*where))


def write_draw(path: Path, encoding: str, separator: str) -> None:
    headings = ("round", "table", "A", "B", "C") if encoding == "utf-8" else \
        ("тур", "стол", "А", "Б", "В")
    lines = [separator.join(headings)]
    lines += [separator.join((str(r), str(t), *(PEOPLE[i] for i in who))) for r, t, who in DRAW]
    path.write_bytes("\r\n".join(lines).encode(encoding))


DRAWS = [pytest.param("utf-8", ",", id="utf8-comma"),
         pytest.param("cp1251", ";", id="cp1251-semicolon")]


@pytest.mark.parametrize(("encoding", "separator"), DRAWS)
def test_a_tournament_day(tmp_path: Path, capsys: pytest.CaptureFixture[str], encoding: str,
                          separator: str) -> None:
    day = Day(tmp_path, capsys)
    write_draw(tmp_path / "draw.csv", encoding, separator)
    code, out, err = day.run("tournament", "new", CUP, "--draw", str(tmp_path / "draw.csv"))
    assert code == 0 and "6 players" in out, (out, err)
    round_one(day)
    round_two(day)
    round_three(day)
    the_end(day)


def round_one(day: Day) -> None:
    """Both tables imported, then the same folder again: nothing doubles."""
    for table in (1, 2):
        day.write(day.sheet(day.printed[(1, table)]), "r1", f"t{table}")
    code, out, err = day.run("import", str(day.folder / "r1"))
    assert code == 0 and "imported 2 sheets" in out and err == "", (out, err)
    code, out, _ = day.run("import", str(day.folder / "r1"), "--json")
    report = json.loads(out)
    assert report["format"] == "pulka-import/1" and report["refused"] == []
    with Store(day.db) as store:
        assert len(store.sheet_ids()) == 2
        assert store.conn.execute("SELECT count(*) FROM players").fetchone()[0] == 6


def round_two(day: Day) -> None:
    """A page not scanned, a blank sheet, another tournament's sheet, a printed name."""
    first = day.sheet(day.printed[(2, 1)])
    held = first.sheet_id
    day.write(without_page(first, 1), "r2", "t1")
    named = day.printed[(2, 2)]
    abbreviated = SheetIdentity(named.sheet_id, CUP, 2, 2, 0, 0, named.layout_id,
                                named.rules_id, named.rules, named.seats,
                                ("Петров Б.", "Сидорова В.", "Морозов Егор"))
    day.write(day.sheet(abbreviated), "r2", "t2")
    day.write(blank(day.sheet(day.printed[(2, 2)])), "r2", "blank")
    foreign = synthetic_sheet(day.rng, RULES, "Другой турнир", 2, 1, PEOPLE[:3]).scan
    day.write(foreign, "r2", "foreign")
    code, out, err = day.run("import", str(day.folder / "r2"))
    assert code == 1 and "imported 2 sheets" in out and "2 sheets refused" in out, out
    assert "is blank (no deal, no entry written): not a game, not stored" in err, err
    assert "is of tournament 'Другой турнир'" in err, err
    assert 'pulka import --tournament "Другой турнир"' in err, err
    assert "'Петров Б.' is taken as the draw's 'Петров Борис'" in err, err
    assert f"sheet {held} is held, not scored: scan page 2 of sheet {held}" in err, err
    code, out, _ = day.run("standings")
    assert code == 0 and f"missing: round 2: table 1: scan page 2 of sheet {held}" in out, out
    code, out, _ = day.run("show", held)
    assert code == 1 and "missing page 2" in out and "page 1: " in out, out
    code, out, _ = day.run("tournament", "list", "--json")
    (listed,) = json.loads(out)["tournaments"]
    assert listed["name"] == CUP and listed["missing"][0]["held"][0]["sheet_id"] == held
    # the page scanned later completes the sheet
    day.write(only_page(first, 1), "r2-late", "t1")
    code, out, err = day.run("import", str(day.folder / "r2-late"))
    assert code == 0 and "1 settled" in out and err == "", (out, err)
    with Store(day.db) as store:
        assert store.tournament_names() == [CUP]
        assert store.conn.execute("SELECT count(*) FROM players").fetchone()[0] == 6


def replacement(day: Day) -> SheetIdentity:
    """Round 3 table 1's sheet printed again from the store, its QR code read back."""
    pdf = day.folder / "replacement.pdf"
    code, out, _ = day.run("print", "--players", "3", "--pool", "10", "--tournament", CUP,
                           "--round", "3", "--table", "1", "-o", str(pdf))
    assert code == 0 and "1 sheet" in out, out
    page = next(render_pages(pdf, dpi=150, grey=True, pages=[0]))
    text = read_qr(page)
    assert text is not None
    return from_qr_payload(text)


def round_three(day: Day) -> None:
    """A replacement sheet, a game on two sheets (the continuation's file first), a
    substitute."""
    printed = replacement(day)
    assert printed.sheet_id == day.printed[(3, 1)].sheet_id
    day.write(day.sheet(printed), "r3", "t1")
    first, second = split_game(day.sheet(day.printed[(3, 2)]))
    day.write(second, "r3", "a-continued")
    day.write(first, "r3", "t2")
    code, out, err = day.run("import", str(day.folder / "r3"))
    assert code == 0 and "imported 3 sheets" in out and err == "", (out, err)
    code, out, _ = day.run("show", first.sheet_id)
    assert f"one game on sheets {first.sheet_id}, {second.sheet_id}" in out, out
    code, out, _ = day.run("tournament", "seat", "--round", "3", "--table", "1", "--seat", "B",
                           "--player", SUBSTITUTE)
    assert code == 0 and f"settled again: {printed.sheet_id}" in out, out


def the_end(day: Day) -> None:
    """Every game counted once, the substitute's round for him, nothing missing."""
    code, out, _ = day.run("standings", "--json")
    rows = {row["player"]: row for row in json.loads(out)["standings"]}
    assert code == 0 and set(rows) == {*PEOPLE, SUBSTITUTE}
    assert rows[SUBSTITUTE]["sheets"] == 1 and rows["Новикова Дарья"]["sheets"] == 2
    assert all(rows[p]["sheets"] == 3 for p in PEOPLE if p != "Новикова Дарья")
    code, out, _ = day.run("standings")
    assert out.rstrip().endswith("missing: nothing"), out
    code, out, err = day.run("standings", "--round", "9")
    assert code == 2 and "--round 9: the tournament has rounds 1, 2, 3" in err, err
    with Store(day.db) as store:
        assert len(store.sheet_ids()) == 7 and store.state_counts() == {"settled": 7}
        assert store.conn.execute("SELECT count(*) FROM settlements").fetchone()[0] == 6 * 3
