"""What ``pulka import`` refuses and what it lets in on purpose (pulka.store.gate): a sheet id
stored with another identity (``--replace``), another tournament's sheets
(``--tournament``); names against the draw and seating changes (pulka.store.seating)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from day_sheets import write_scan

from pulka.cli.main import main
from pulka.store.database import Store
from samplegen.scans import synthetic_sheet, synthetic_tournament
from scoring.rules import RuleSet

RULES = RuleSet.preset("sochi", 3, 10)


def run(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([*args, "--db", str(db)])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_sheet_id_stored_with_another_identity_is_refused_unless_replaced(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scan = synthetic_sheet(random.Random(41), RULES, "Open", 1, 2, ("X", "Y", "Z")).scan
    write_scan(scan, tmp_path / "a")
    other = replace(scan, identity={**scan.identity, "table": 3})
    write_scan(other, tmp_path / "b")
    db = tmp_path / "t.sqlite"
    assert run(db, capsys, "import", str(tmp_path / "a"))[0] == 0
    code, out, err = run(db, capsys, "import", str(tmp_path / "b"))
    assert code == 1 and "imported 0 sheets" in out and "1 sheet refused" in out
    assert (f"sheet {scan.sheet_id} is stored already with another identity (table 3, "
            f"stored 2): not replaced") in err, err
    code, out, err = run(db, capsys, "import", str(tmp_path / "b"), "--replace", "--json")
    assert code == 0 and json.loads(out)["refused"] == [] and err == ""
    with Store(db) as store:
        assert store.sheet_summary(scan.sheet_id)["table"] == 3


def test_another_tournament_is_started_only_when_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    synthetic_tournament(random.Random(42), "Open", 1, 1, folder=tmp_path / "open")
    synthetic_tournament(random.Random(43), "Cup", 1, 1, folder=tmp_path / "cup")
    db = tmp_path / "t.sqlite"
    run(db, capsys, "import", str(tmp_path / "open"))
    code, _, err = run(db, capsys, "import", str(tmp_path / "cup"))
    assert code == 1 and "is of tournament 'Cup', the store holds 'Open'" in err, err
    code, _, err = run(db, capsys, "import", str(tmp_path / "cup"), "--tournament", "Cup")
    assert code == 0 and err == ""
    code, out, _ = run(db, capsys, "tournament", "list", "--json")
    assert [t["name"] for t in json.loads(out)["tournaments"]] == ["Open", "Cup"]


def test_a_name_printed_otherwise_is_the_draws_player_or_reported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite"
    draw = tmp_path / "draw.csv"
    draw.write_text("round,table,A,B,C\n1,1,Иванов Андрей,Петров Борис,Сидоров Олег\n",
                    encoding="utf-8")
    assert run(db, capsys, "tournament", "new", "Open", "--draw", str(draw))[0] == 0
    names = ("Иванов А.", "Козлов Глеб", "Сидоров Олег")
    write_scan(synthetic_sheet(random.Random(44), RULES, "Open", 1, 1, names).scan,
               tmp_path / "in")
    code, _, err = run(db, capsys, "import", str(tmp_path / "in"))
    assert "seat A: the printed name 'Иванов А.' is taken as the draw's 'Иванов Андрей'" in err
    assert ("seat B: the printed name 'Козлов Глеб' is not the draw's 'Петров Борис'; counted "
            "for 'Петров Борис'") in err, err
    with Store(db) as store:
        players = [r[0] for r in store.conn.execute("SELECT name FROM players ORDER BY id")]
    assert players == ["Иванов Андрей", "Петров Борис", "Сидоров Олег"]


def test_a_seat_changed_settles_the_table_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    draw, sheets = synthetic_tournament(random.Random(45), "Open", 1, 2,
                                        folder=tmp_path / "in")
    db = tmp_path / "t.sqlite"
    run(db, capsys, "import", str(tmp_path / "in"))
    seated = draw[1][2][1]
    code, out, _ = run(db, capsys, "tournament", "seat", "--round", "1", "--table", "2",
                       "--seat", "B", "--player", "Substitute")
    assert code == 0 and f"settled again: {sheets[1].scan.sheet_id}" in out, out
    code, out, _ = run(db, capsys, "standings", "--json")
    players = {row["player"] for row in json.loads(out)["standings"]}
    assert "Substitute" in players and seated not in players
    code, _, err = run(db, capsys, "tournament", "seat", "--round", "1", "--table", "9",
                       "--seat", "B", "--player", "X")
    assert code == 2 and "no table 9 in round 1" in err, err
    code, _, err = run(db, capsys, "tournament", "seat", "--round", "1", "--table", "1",
                       "--seat", "D", "--player", "X")
    assert code == 2 and "round 1 table 1 has no seat 'D' (seats A, B, C)" in err, err
