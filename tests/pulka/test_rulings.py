"""pulka.store.rulings and the commands on it: findings that wait for review, rulings, sign-off,
each through a real SQLite file (the commands in-process, one in a real subprocess)."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from pulka import i18n
from pulka.cli.main import main
from pulka.store.database import Store
from pulka.store.rulings import findings, sign_off, signoff
from pulka.store.schema import MIGRATIONS, SCHEMA_VERSION, SheetState, schema_version
from samplegen.scans import synthetic_sheet
from scanner.results import CellStatus
from scoring import RuleSet
from tests.pulka.judge_fixture import ROW, misread_row

RULES = RuleSet.preset("sochi", 3, 10)


def test_a_doubtful_deal_row_makes_no_player_error_until_verified(tmp_path: Path) -> None:
    path, sheet_id, read, true = misread_row(tmp_path)
    with Store(path) as store:
        waiting = findings(store, sheet_id)
        summary = store.sheet_summary(sheet_id)
        assert waiting and {f.status for f in waiting} == {"waits_for_review"}
        assert all(f.penalty is None for f in waiting) and any(f.deal == 6 for f in waiting)
        assert summary["state"] == SheetState.NEEDS_REVIEW
        assert [f["status"] for f in summary["findings"]] == ["waits_for_review"] * len(waiting)
        # verified as read: the same findings become the players' errors
        assert store.verify_cell(sheet_id, ROW, read, "judge") == SheetState.AUDITED
        errors = findings(store, sheet_id)
        assert [f.key for f in errors] == [f.key for f in waiting]
        assert {f.status for f in errors} == {"error"}
        assert any(f.penalty for f in errors)
        # verified as written: they disappear
        assert store.verify_cell(sheet_id, ROW, true, "judge") == SheetState.SETTLED
        assert findings(store, sheet_id) == []


def test_a_finding_rests_on_its_own_cell_not_on_a_later_one(tmp_path: Path) -> None:
    sheet = synthetic_sheet(random.Random(1), RULES, "Open", 1, 1, ("X", "Y", "Z"), errors=2)
    sheet_id = sheet.scan.sheet_id

    def column_keys(f: Any) -> list[str]:
        head = f"entry:{f.seat}:{f.column}" + (f":{f.on}:" if f.on else ":")
        return sorted((k.key for k in sheet.scan.fields if k.key.startswith(head)),
                      key=lambda key: int(key.rsplit(":", 1)[1]))

    def status_with_doubt(store: Store, key: str, finding_key: str) -> str:
        fields = tuple(replace(f, status=CellStatus.DOUBTFUL) if f.key == key else f
                       for f in sheet.scan.fields)
        store.import_scan(replace(sheet.scan, fields=fields))
        return {f.key: f.status for f in findings(store, sheet_id)}[finding_key]

    with Store(tmp_path / "t.sqlite") as store:
        store.import_scan(sheet.scan)
        target = next(f for f in findings(store, sheet_id)
                      if f.entry is not None and f.entry < len(column_keys(f)))
        assert target.status == "error"
        keys = column_keys(target)
        assert status_with_doubt(store, keys[target.entry], target.key) == "error"
        assert status_with_doubt(store, keys[target.entry - 1], target.key) \
            == "waits_for_review"


def pulka(*argv: str | Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def audited(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    """A store whose sheet has the players' errors: the misread row verified as read."""
    path, sheet_id, read, _ = misread_row(tmp_path)
    code, out, _ = pulka("rule", sheet_id, "1", "apply", "--judge", "Ivanov", "--db", path,
                         capsys=capsys)
    assert code != 0  # it waits for review: no ruling yet
    with Store(path) as store:
        store.verify_cell(sheet_id, ROW, read, "Ivanov")
    return path, sheet_id


def provisional(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, int]:
    """Each player's sheets not yet final, as ``pulka standings --json`` says."""
    code, out, _ = pulka("standings", "--db", path, "--json", capsys=capsys)
    return {row["player"]: row["provisional"] for row in json.loads(out)["standings"]}


def test_rule_apply_waive_and_sign_off_on_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, sheet_id = audited(tmp_path, capsys)
    code, out, _ = pulka("show", sheet_id, "--db", path, "--json", capsys=capsys)
    before = json.loads(out)
    listed = before["findings"]
    penal = next(f for f in listed if f["penalty"])
    code, _, err = pulka("signoff", sheet_id, "--judge", "Ivanov", "--db", path, capsys=capsys)
    assert code == 2 and "without a ruling" in err and "Traceback" not in err
    code, out, _ = pulka("rule", sheet_id, str(penal["number"]), "apply", "--judge", "Ivanov",
                         "--db", path, capsys=capsys)
    assert code == 0 and "apply by Ivanov" in out
    assert f"({penal['message'].split(';')[0]}" in out  # the finding, in English here
    code, out, _ = pulka("show", sheet_id, "--db", path, "--json", capsys=capsys)
    after = json.loads(out)
    ruled = {f["key"]: f["ruling"] for f in after["findings"]}
    assert ruled[penal["key"]]["action"] == "apply" and ruled[penal["key"]]["by"] == "Ivanov"
    writer = penal["seat"]
    results = {s: Fraction(v["result"]) for s, v in after["settlement"].items()}
    assert results[writer] < Fraction(before["settlement"][writer]["result"])
    assert sum(results.values()) == 0
    for f in after["findings"]:
        if f["ruling"] is None:
            assert pulka("rule", sheet_id, str(f["number"]), "waive", "--judge", "Ivanov",
                         "--db", path, capsys=capsys)[0] == 0
    waived = json.loads(pulka("show", sheet_id, "--db", path, "--json", capsys=capsys)[1])
    assert waived["settlement"] == after["settlement"]
    assert provisional(path, capsys) == {"Ann": 1, "Bob": 1, "Cy": 1}
    code, out, _ = pulka("signoff", sheet_id, "--judge", "Ivanov", "--db", path, capsys=capsys)
    assert code == 0 and "signed off by Ivanov" in out
    assert provisional(path, capsys) == {"Ann": 0, "Bob": 0, "Cy": 0}  # final
    code, out, _ = pulka("show", sheet_id, "--db", path, capsys=capsys)
    assert "signed off by Ivanov" in out and "penalty applied by Ivanov" in out


def test_a_ruling_names_its_finding_in_the_language(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path, sheet_id = audited(tmp_path, capsys)
    code, out, _ = pulka("show", sheet_id, "--db", path, "--json", capsys=capsys)
    penal = next(f for f in json.loads(out)["findings"] if f["penalty"])
    code, out, _ = pulka("--lang", "ru", "rule", sheet_id, str(penal["number"]), "waive",
                         "--judge", "Ivanov", "--db", path, capsys=capsys)
    i18n.use_language("en")
    assert code == 0 and "записано" in out and "wrote" not in out


def test_misread_corrects_the_cell_and_drops_the_sign_off(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, sheet_id = audited(tmp_path, capsys)
    with Store(path) as store:
        for f in findings(store, sheet_id):
            pulka("rule", sheet_id, str(f.number), "waive", "--judge", "J", "--db", path,
                  capsys=capsys)
        sign_off(store, sheet_id, "J")
        assert signoff(store, sheet_id) is not None
        wrong = next(f for f in findings(store, sheet_id)
                     if f.entry is not None and f.expected is not None)
    code, _, err = pulka("rule", sheet_id, str(wrong.number), "misread", "--judge", "J",
                         "--db", path, capsys=capsys)
    assert code == 2 and "--value" in err
    code, out, err = pulka("rule", sheet_id, str(wrong.number), "misread", "--value",
                         str(wrong.expected), "--judge", "J", "--db", path, capsys=capsys)
    assert code == 0
    with Store(path) as store:
        assert wrong.key not in {f.key for f in findings(store, sheet_id)}
        assert signoff(store, sheet_id) is None


def test_bad_rulings_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, sheet_id = audited(tmp_path, capsys)
    for argv, says in ((("rule", sheet_id, "99", "apply", "--judge", "J"), "no finding '99'"),
                       (("rule", sheet_id, "1", "apply"), "--judge NAME"),
                       (("rule", sheet_id, "1", "misread", "--value", "x", "--judge", "J"),
                        "neither a number"),
                       (("rule", "S-NOPE", "1", "waive", "--judge", "J"), "no sheet")):
        code, _, err = pulka(*argv, "--db", path, capsys=capsys)
        assert code == 2 and says in err and len(err.strip().splitlines()) == 1


def test_signoff_in_a_subprocess(tmp_path: Path) -> None:
    path, sheet_id, _, true = misread_row(tmp_path)
    run = [sys.executable, "-m", "pulka", "signoff", sheet_id, "--db", str(path)]
    refused = subprocess.run(run, capture_output=True, text=True,
                             env={"PULKA_JUDGE": "Petrenko", "PATH": "", "PYTHONPATH":
                                  str(Path(__file__).parents[2])})
    assert refused.returncode == 2 and "1 doubtful cells" in refused.stderr
    with Store(path) as store:
        store.verify_cell(sheet_id, ROW, true, "Petrenko")
    done = subprocess.run([*run, "--json"], capture_output=True, text=True,
                          env={"PULKA_JUDGE": "Petrenko", "PATH": "", "PYTHONPATH":
                               str(Path(__file__).parents[2])})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["signed_off"]["by"] == "Petrenko"


def test_a_version_3_file_migrates_to_rulings(tmp_path: Path) -> None:
    path = tmp_path / "v3.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript("BEGIN;\n" + "\n".join(MIGRATIONS[:3]) + "\nPRAGMA user_version = 3;\n"
                       "INSERT INTO tournaments (name, created_at) VALUES ('Old', 'then');\n"
                       "COMMIT;")
    conn.close()
    with Store(path) as store:
        assert schema_version(store.conn) == SCHEMA_VERSION == 7
        tables = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master")}
        assert {"rulings", "signoffs", "refused_files"} <= tables
        assert store.tournament_names() == ["Old"]


def test_findings_scored_before_keys_are_scored_again(tmp_path: Path) -> None:
    path, sheet_id, read, _ = misread_row(tmp_path)
    with Store(path) as store:
        store.verify_cell(sheet_id, ROW, read, "J")
        keys = [f.key for f in findings(store, sheet_id)]
        store.conn.execute("UPDATE findings SET key = ''")  # as a version 3 file migrated
        assert [f.key for f in findings(store, sheet_id)] == keys
