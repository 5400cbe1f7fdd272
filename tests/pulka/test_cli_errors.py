"""One error model: every library error carries its exit code, ``pulka`` maps it in one place."""

from __future__ import annotations

from pathlib import Path

import pytest

from pulka.cli import show
from pulka.cli.main import main
from pulka.store.database import Store
from scanner.errors import NotAnImage, ScanFailure, TesseractMissing
from scoring.errors import RecordError
from scoring.exitcode import ExitCode, PulkaError


@pytest.mark.parametrize(("error", "code"), [
    (TesseractMissing("tesseract is not installed", "a.png"), ExitCode.MISSING_DEPENDENCY),
    (NotAnImage("not an image", "notes.txt"), ExitCode.BAD_INPUT),
    (RecordError("not a number", "deals[3].tricks"), ExitCode.BAD_INPUT),
])
def test_an_error_from_any_library_becomes_its_exit_code_and_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        error: PulkaError, code: ExitCode) -> None:
    def fail(_: object) -> ExitCode:
        raise error

    monkeypatch.setattr(show, "run", fail)
    assert main(["show", "--db", str(tmp_path / "t.sqlite"), "S1"]) == code
    err = capsys.readouterr().err
    assert err == f"pulka show: {error}\n"
    assert "Traceback" not in err


def test_a_sheet_the_store_does_not_have_is_a_bad_argument(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite"
    with Store(db) as store:
        store.new_tournament("Kyiv Open", rounds=1, tables=1)
    assert main(["show", "--db", str(db), "NOPE"]) == ExitCode.BAD_ARGS
    assert capsys.readouterr().err.count("\n") == 1


def test_a_scan_failure_keeps_the_errors_exit_code() -> None:
    failure = ScanFailure.of(TesseractMissing("tesseract is not installed", "a.png"), "a.png")
    assert failure.exit_code is ExitCode.MISSING_DEPENDENCY
    assert failure.message.startswith("a.png: tesseract is not installed")
