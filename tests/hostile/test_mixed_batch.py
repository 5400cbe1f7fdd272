"""``pulka scan`` on good sheets mixed with every kind of bad file, in several orders: every
good sheet read, every bad file named on one line, exit status 5 (some failed)."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from PIL import Image

from pulka.cli.main import main
from tests.hostile.images import BAD_FILES

SCANS = Path(__file__).parents[2] / "samples" / "scans"


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    """A folder of one sample scan's pages (JPEG), one sheet made now by the sample
    generator (a 3-page PDF) and every bad file; the truth of the two sheets' deals."""
    folder = tmp_path_factory.mktemp("mixed")
    for page in sorted((SCANS / "sochi-3-scan").glob("page-*.jpg")):
        shutil.copy(page, folder / f"sochi-{page.name}")
    made = tmp_path_factory.mktemp("made")
    assert main(["samples", "--random", "1", "--players", "4", "--variant", "leningrad",
                 "--pool", "10", "--scan", "--seed", "18", "--out", str(made)]) == 0
    sheet = next(p for p in made.rglob("truth.json")).parent
    pages = [Image.open(p).convert("RGB") for p in sorted(sheet.glob("page-*.png"))]
    pages[0].save(folder / "made.pdf", save_all=True, append_images=pages[1:], resolution=200)
    for make in BAD_FILES.values():
        make(folder)
    truth = {
        "sochi": json.loads((SCANS / "sochi-3-scan" / "truth.json").read_text("utf-8")),
        "made": json.loads((sheet / "truth.json").read_text("utf-8"))}
    return folder, truth


def _orders(folder: Path) -> list[list[Path]]:
    files = sorted(p for p in folder.iterdir() if not p.is_dir())
    shuffled = files[:]
    random.Random(18).shuffle(shuffled)
    return [files, files[::-1], shuffled]


@pytest.mark.slow
@pytest.mark.parametrize("order", [0, 1, 2, "folder"])
def test_every_good_sheet_read_every_bad_file_named_once(
        batch: tuple[Path, dict[str, dict[str, object]]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str], order: int | str) -> None:
    folder, truth = batch
    paths = [folder] if order == "folder" else _orders(folder)[int(order)]
    out = tmp_path / "out"
    assert main(["scan", *map(str, paths), "--out", str(out)]) == 5
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("pulka scan: ")]
    for name in BAD_FILES:
        if name == "album.png" and order != "folder":
            continue  # a folder is given only inside the folder scanned
        named = [line for line in lines if f"{folder / name}" in line]
        assert len(named) == 1, (name, named)
    records = {}
    for path in out.glob("*/record.json"):
        record = json.loads(path.read_text("utf-8"))
        records[len(record["seats"])] = record["deals"]
    assert sorted(records) == [3, 4]
    assert records[3] == truth["sochi"]["record"]["deals"]  # type: ignore[index]
    assert len(records[4]) == len(truth["made"]["record"]["deals"])  # type: ignore[index]
