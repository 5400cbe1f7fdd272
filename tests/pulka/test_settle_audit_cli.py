"""``pulka settle`` and ``pulka audit``: in-process and as a real subprocess."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from pulka.cli.main import main
from scoring import RuleSet, expected_sheet, parse_record
from scoring.random_games import inject_errors, random_record, written_columns

EXAMPLE = Path(__file__).parents[2] / "samples" / "records" / "record_md_example.json"


def test_settle_json_matches_record_md(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settle", str(EXAMPLE), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "pulka-settlement/1"
    assert doc["result"] == {"A": "-122/3", "B": "-104/3", "C": "226/3"}
    assert doc["rounded"] == {"A": -40, "B": -35, "C": 75}
    assert doc["columns"]["C"] == {"pool": 14, "mountain": 5, "whists": {"A": 4, "B": 8}}


def test_settle_table_shows_both_variants(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settle", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "Variant 1 (4.2.14)" in out and "Variant 2 (4.2.14)" in out
    assert "-40 2/3" in out


def test_audit_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = random_record(RuleSet.preset("sochi", 3, 10), random.Random(3))
    doc["written"] = written_columns(expected_sheet(parse_record(doc)))
    clean = tmp_path / "clean.json"
    clean.write_text(json.dumps(doc))
    assert main(["audit", str(clean)]) == 0
    faulty_doc, injected = inject_errors(doc, 2, random.Random(1))
    faulty = tmp_path / "faulty.json"
    faulty.write_text(json.dumps(faulty_doc))
    assert main(["audit", str(faulty), "--json"]) == 1
    report = json.loads(capsys.readouterr().out.splitlines()[-1])
    found = {(f["seat"], f["column"], f["on"]) for f in report["findings"]}
    for error in injected:
        assert (error.column.seat, error.column.kind, error.column.on) in found
    assert all(f["note_code"] for f in report["findings"])  # machine output keeps codes
    reasons = [r for e in report["expected"] for r in e["reason_codes"]]
    assert reasons and all(r["code"] and r["message"] for r in reasons)


@pytest.mark.parametrize(("content", "message"), [
    ("{", "not JSON"),
    ('{"format": "pulka-record/1"}', "rules: expected an object of settings"),
    ("\udcff", "cannot be read"),
])
def test_bad_input_is_one_line_and_exit_3(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content.encode("utf-8", "surrogateescape"))
    assert main(["settle", str(path)]) == 3
    err = capsys.readouterr().err
    assert message in err and str(path) in err and len(err.strip().splitlines()) == 1


def test_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "/nonexistent/game.json"]) == 3
    assert "no such file" in capsys.readouterr().err


def test_audit_without_written_is_bad_input(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    doc = json.loads(EXAMPLE.read_text())
    del doc["written"]
    path = tmp_path / "nowritten.json"
    path.write_text(json.dumps(doc))
    assert main(["audit", str(path)]) == 3
    assert "no 'written' columns" in capsys.readouterr().err


def test_real_subprocess() -> None:
    done = subprocess.run([sys.executable, "-m", "pulka", "settle", str(EXAMPLE), "--json"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rounded"]["C"] == 75
