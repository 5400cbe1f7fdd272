"""pulka report: each sheet's report rebuilt from the store as it stands (issue 14 item 6)."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from pulka.cli.main import main
from pulka.report.stored import stored_report
from pulka.store.database import Store
from pulka.store.rebuild import rebuild_record
from pulka.store.rulings import findings, rule, sign_off
from pulka.store.stored_sheet import stored_sheet
from scanner.results import SheetScan
from tests.pulka.judge_fixture import ROW, misread_row


def test_a_report_before_review_has_no_player_error(tmp_path: Path) -> None:
    path, sheet_id, _, _ = misread_row(tmp_path)
    with Store(path) as store:
        report = stored_report(stored_sheet(store, sheet_id), None)
    assert report.findings and all(v.waits and v.penalty is None for v in report.findings)


def test_the_report_follows_the_judge(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    path, sheet_id, read, _ = misread_row(tmp_path)
    with Store(path) as store:
        store.verify_cell(sheet_id, ROW, read, "Ivanov")
        penal = next(f for f in findings(store, sheet_id) if f.penalty)
        rule(store, sheet_id, str(penal.number), "apply", "Ivanov")
        for f in findings(store, sheet_id):
            if f.ruling is None:
                rule(store, sheet_id, str(f.number), "waive", "Ivanov")
        sign_off(store, sheet_id, "Ivanov")
        settled = {s: Fraction(v["result"])
                   for s, v in store.sheet_summary(sheet_id)["settlement"].items()}
        report = stored_report(stored_sheet(store, sheet_id), None)
    assert not any(v.waits for v in report.findings)
    rulings = [v.ruling for v in report.findings]
    assert sum(r.startswith("penalty applied by Ivanov") for r in rulings) == 1
    assert all(r.startswith("penalty waived by Ivanov") for r in rulings
               if not r.startswith("penalty applied"))
    assert dict(report.settlement.result) == settled
    assert main(["report", sheet_id, "--db", str(path), "--out", str(tmp_path / "out")]) == 0
    html = (tmp_path / "out" / f"{sheet_id}.html").read_text(encoding="utf-8")
    assert "signed off by Ivanov" in html and "penalty applied by Ivanov" in html
    assert (tmp_path / "out" / f"{sheet_id}.pdf").read_bytes().startswith(b"%PDF")
    capsys.readouterr()


def test_report_of_an_unknown_sheet_is_one_line(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path, _, _, _ = misread_row(tmp_path)
    assert main(["report", "S-NOPE", "--db", str(path), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "no sheet 'S-NOPE'" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


def _scan_with_doubts(tmp_path: Path) -> Path:
    """A stored fixture sheet's scan.json with doubtful cells, its record as read."""
    from review_fixture import DOUBTS1, SHEET1, build_store

    build_store(tmp_path, doubts=(DOUBTS1, {}))
    scan_json = tmp_path / "scans" / SHEET1 / "scan.json"
    scan = SheetScan.from_json(json.loads(scan_json.read_text(encoding="utf-8")))
    record = rebuild_record(scan.identity, scan.record, ((f.key, f.value) for f in scan.fields))
    scan_json.write_text(json.dumps(replace(scan, record=record).to_json(), ensure_ascii=False),
                         encoding="utf-8")  # the record as read, its doubtful values in it
    return scan_json


def test_pulka_audit_of_a_scan_shows_findings_on_doubtful_cells_waiting(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from review_fixture import SHEET1

    scan_json = _scan_with_doubts(tmp_path)
    assert main(["audit", str(scan_json), "--html", str(tmp_path / "html")]) == 1
    capsys.readouterr()
    html = (tmp_path / "html" / f"{SHEET1}.html").read_text(encoding="utf-8")
    assert html.count("waits for review · ") >= 2
    assert "it rests on a doubtful reading and waits for review" in html


def test_pulka_audits_text_and_json_give_no_penalty_for_a_finding_on_a_doubtful_cell(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The text and the JSON of ``pulka audit`` said such findings' 4.2.7 penalties as a
    player's (main: "penalty: take back ..." on every finding): they wait for a person, as
    the report, the store and ``pulka show`` say."""
    scan_json = _scan_with_doubts(tmp_path)
    assert main(["audit", str(scan_json)]) == 1
    lines = [line for line in capsys.readouterr().out.splitlines()
             if line.startswith("  waits for review: ")]
    assert len(lines) >= 2 and not any("penalty:" in line for line in lines)
    assert main(["audit", str(scan_json), "--json"]) == 1
    findings = json.loads(capsys.readouterr().out)["findings"]
    waiting = [f for f in findings if f["status"] == "waits_for_review"]
    assert len(waiting) >= 2 and all(f["penalty"] is None for f in waiting)
    assert {f["status"] for f in findings} <= {"waits_for_review", "error"}
