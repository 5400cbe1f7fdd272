"""``pulka samples --draw``: the sheets of a printed tournament batch, filled; its arguments."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from pulka.cli.main import main
from pulka.cli.print_sheets import _requests, add_arguments

DRAW = "round,table,A,B,C\n1,1,Anna,Bohdan,Cyril\n2,3,Cyril,-,Anna\n"


def printed_identities(draw: Path, tournament: str) -> list:
    """The identities ``pulka print --draw`` puts in the QR codes."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--players", "3", "--draw", str(draw), "--tournament", tournament,
                              "-o", "unused.pdf"])
    return [request.identity for request in _requests(args)]


def test_fills_the_sheets_pulka_print_prints(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    draw = tmp_path / "draw.csv"
    draw.write_text(DRAW)
    assert main(["samples", "--draw", str(draw), "--tournament", "Open", "--dpi", "72",
                 "--errors", "1", "--errors-every", "2", "--scan", "--photo-every", "2",
                 "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "r1-t01" in out and "scan" in out and "r2-t03" in out and "photo" in out
    first = json.loads((tmp_path / "out" / "r1-t01" / "truth.json").read_text())
    second = json.loads((tmp_path / "out" / "r2-t03" / "truth.json").read_text())
    printed = printed_identities(draw, "Open")
    assert [first["sheet_id"], second["sheet_id"]] == [i.sheet_id for i in printed]
    assert first["record"]["names"] == {"A": "Anna", "B": "Bohdan", "C": "Cyril"}
    assert second["record"]["names"] == {"A": "Cyril", "C": "Anna"}
    assert not first["errors"] and len(second["errors"]) == 1
    assert first["pages"][0]["degradations"][0]["name"] == "rotation"  # a scan
    assert second["pages"][0]["file"].endswith(".jpg")


@pytest.mark.parametrize("extra, code, words", [
    ([], 2, "--draw needs --tournament"),
    (["--tournament", "Open", "--photo", "--photo-every", "2"], 2, "leave out --photo-every"),
    (["--tournament", "Open", "--photo-every", "0"], 2, "--photo-every must be 1 or more"),
    (["--tournament", "Open", "--errors-every", "-1"], 2, "--errors-every must be 1 or more"),
    (["--tournament", "Open", "--players", "4"], 3, "missing D"),
])
def test_draw_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str],
                        code: int, words: str) -> None:
    draw = tmp_path / "draw.csv"
    draw.write_text(DRAW)
    assert main(["samples", "--draw", str(draw), "--out", str(tmp_path / "out"),
                 *extra]) == code
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_tournament_goes_with_draw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["samples", "--random", "1", "--tournament", "Open", "--out",
                 str(tmp_path)]) == 2
    assert "--tournament goes with --draw" in capsys.readouterr().err
