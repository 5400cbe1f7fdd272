"""``pulka print``: blank sheets, batches, filled sheets; one clear message per bad argument."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from forms.identity import from_qr_payload
from forms.render.raster import page_count, render_pages
from pulka.cli.main import main
from scanner.image.identify import read_qr

DATA = Path(__file__).parents[1] / "data" / "forms"


def _qr(pdf: Path, page: int = 0):
    gray = cv2.cvtColor(next(render_pages(pdf, 300, pages=[page])), cv2.COLOR_RGB2GRAY)
    return from_qr_payload(read_qr(gray))


def test_blank_sheet_with_settings(tmp_path: Path) -> None:
    out = tmp_path / "s.pdf"
    assert main(["print", "--players", "4", "--variant", "leningrad", "--pool", "30",
                 "--stake", "0.5", "--set", "stalingrad=true", "--lang", "en",
                 "--names", "Ann,Bob,Cid,Dan", "-o", str(out)]) == 0
    identity = _qr(out)
    assert identity.rules["variant"] == "leningrad" and identity.rules["pool"] == 30
    assert identity.rules["stalingrad"] is True and identity.rules["stake"] == "1/2"
    assert identity.names == ("Ann", "Bob", "Cid", "Dan")
    assert page_count(out) == 3


def test_batch_from_a_draw(tmp_path: Path) -> None:
    draw = tmp_path / "draw.csv"
    draw.write_text("round,table,A,B,C\n1,1,Ann,Bob,Cid\n1,2,Dan,Eve,Fay\n", "utf-8")
    out = tmp_path / "b.pdf"
    assert main(["print", "--players", "3", "--tournament", "Open", "--draw", str(draw),
                 "-o", str(out)]) == 0
    assert page_count(out) == 6
    second = _qr(out, 3)
    assert (second.round, second.table, second.names) == (1, 2, ("Dan", "Eve", "Fay"))


def test_blank_batch(tmp_path: Path) -> None:
    out = tmp_path / "b.pdf"
    assert main(["print", "--players", "3", "--rounds", "2", "--tables", "2", "-o",
                 str(out)]) == 0
    assert page_count(out) == 12


def test_filled_from_a_record(tmp_path: Path) -> None:
    out = tmp_path / "r.pdf"
    assert main(["print", "--record", str(DATA / "game3.json"), "-o", str(out)]) == 0
    assert _qr(out).names == ("Иванова", "Петренко", "Сидоров")


@pytest.mark.parametrize(("argv", "message"), [
    (["--players", "3", "--variant", "kiev"], "--variant: unknown variant 'kiev'"),
    (["--players", "3", "--pool", "-3"], "--pool: must be a positive whole number"),
    (["--players", "3", "--pool", "ten"], "--pool: expected a positive whole number"),
    (["--players", "3", "--set", "talon_prize=maybe"], "--set talon_prize: must be true"),
    (["--players", "3", "--set", "colour=red"], "--set 'colour=red': expected NAME=VALUE"),
    (["--players", "3", "--tables", "3"], "needs --tables and --rounds"),
    (["--players", "3", "--tables", "0", "--rounds", "1"], "--tables: must be 1 or more"),
    (["--variant", "sochi"], "--players is required"),
    (["--players", "3", "--names", "a,b"], "--names: 2 names for 3 players"),
])
def test_bad_arguments(tmp_path: Path, capsys, argv, message) -> None:
    assert main(["print", *argv, "-o", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "x.pdf").exists()


def test_draw_with_a_missing_name(tmp_path: Path, capsys) -> None:
    draw = tmp_path / "draw.csv"
    draw.write_text("round,table,A,B,C\n1,1,Ann,,Cid\n", "utf-8")
    assert main(["print", "--players", "3", "--draw", str(draw), "-o",
                 str(tmp_path / "x.pdf")]) == 3
    err = capsys.readouterr().err
    assert "draw.csv line 2: round 1, table 1 has no name for seat B" in err
    assert err.count("\n") == 1


def test_five_players_is_refused_by_a_real_subprocess(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "pulka", "print", "--players", "5", "-o",
                             str(tmp_path / "x.pdf")], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 2
    assert "argument --players: invalid choice: 5 (choose from 3, 4)" in result.stderr
