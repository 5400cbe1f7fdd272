"""scanner.output: a sheet's folder is confined to the output folder and never overwritten."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from forms.identity import SheetIdentity
from forms.layout import build_layout
from pulka.cli.main import main
from samplegen.glyphs import default_glyphs
from samplegen.sheets import make_sample
from scanner.pipeline import ScanFailure, scan_paths
from scanner.results import SheetScan, scan_folder
from scoring import RuleSet, parse_record
from scoring.random_games import random_record


def _sheet(folder: Path, sheet_id: str | None, seed: int) -> Path:
    """A filled sample sheet in ``folder``; printed with ``sheet_id`` in its QR when given."""
    doc = random_record(RuleSet.preset("sochi", 3, 10), random.Random(seed))
    identity = None
    if sheet_id is not None:
        rules = parse_record(doc).rules
        layout = build_layout(rules.players, "A4", rules.talon_prize)
        identity = SheetIdentity(sheet_id, "t", None, None, 0, 0, layout.id, rules.id,
                                 rules.settings(), layout.seats, ("",) * len(layout.seats))
    make_sample(doc, folder, default_glyphs(), random.Random(seed), identity=identity)
    return folder


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _sheet(tmp_path_factory.mktemp("good"), None, 3)


def _files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("hostile", ["../../x", "ABSOLUTE"])
def test_a_sheet_id_naming_a_path_is_refused_and_nothing_is_written_outside(
        tmp_path: Path, hostile: str) -> None:
    sheet_id = str(tmp_path / "escaped") if hostile == "ABSOLUTE" else hostile
    sample = _sheet(tmp_path / "work" / "sample", sheet_id, 5)
    out = tmp_path / "work" / "deep" / "out"
    before = _files(tmp_path)
    outcomes = list(scan_paths([sample], out))
    assert len(outcomes) == 1 and isinstance(outcomes[0], ScanFailure)
    assert repr(sheet_id) in outcomes[0].message
    assert "page-0" in outcomes[0].message  # the file it came from
    assert _files(tmp_path) == before  # nothing written anywhere, inside out or outside it
    assert not (tmp_path / "escaped").exists() and not (tmp_path / "x").exists()


def test_a_sheet_read_twice_is_kept_beside_the_first_never_over_it(
        tmp_path: Path, good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = shutil.copytree(good, tmp_path / "copy")
    out = tmp_path / "out"
    assert main(["scan", str(good), str(copy), "--out", str(out)]) in (0, 1)
    sheet_id = json.loads((good / "truth.json").read_text(encoding="utf-8"))["sheet_id"]
    assert sorted(p.name for p in out.iterdir()) == [sheet_id, f"{sheet_id}~2"]
    first = (out / sheet_id / "scan.json").read_bytes()
    err = capsys.readouterr().err
    assert f"{sheet_id}~2" in err and "2 sheets read" in err
    # a later run into the same folder keeps both, and writes a third beside them
    scans = [s for s in scan_paths([good], out) if isinstance(s, SheetScan)]
    assert [scan_folder(s) for s in scans] == [f"{sheet_id}~3"]
    assert (out / sheet_id / "scan.json").read_bytes() == first
    for name in (sheet_id, f"{sheet_id}~2", f"{sheet_id}~3"):
        doc = json.loads((out / name / "scan.json").read_text(encoding="utf-8"))
        assert all(page["image"].startswith(f"{name}/") for page in doc["pages"])
        assert all(f["crop"].startswith(f"{name}/") for f in doc["fields"])
        assert json.loads((out / name / "record.json").read_text(encoding="utf-8"))["deals"]
    assert any(sheet_id in problem and f"{sheet_id}~3" in problem
               for problem in scans[0].problems)
