"""``pulka layout``: the geometry as JSON, and a summary for people."""

from __future__ import annotations

import json

import pytest

from forms.layout import build_layout
from pulka.cli.main import main


@pytest.mark.parametrize("players", [3, 4])
def test_json(players: int, capsys) -> None:
    assert main(["layout", "--players", str(players), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["id"] == build_layout(players).id and doc["players"] == players
    assert doc["format"] == "pulka-layout/1"


def test_summary_and_talon(capsys) -> None:
    assert main(["layout", "--players", "3", "--talon", "--paper", "Letter"]) == 0
    out = capsys.readouterr().out
    assert build_layout(3, "Letter", True).id in out and "deal rows: 44" in out
