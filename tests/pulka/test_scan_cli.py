"""``pulka scan`` on a batch with bad files: one clear line per file, the good sheets kept."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from pulka.cli.main import main

SAMPLE = Path(__file__).parents[2] / "samples" / "scans" / "sochi-3-scan"


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    folder = tmp_path / "batch"
    good = folder / "good"
    good.mkdir(parents=True)
    for page in sorted(SAMPLE.glob("page-*")):
        shutil.copy(page, good / page.name)
    (folder / "notes.jpg").write_text("not an image at all", encoding="utf-8")
    jpeg = (SAMPLE / "page-0.jpg").read_bytes()
    (folder / "truncated.jpg").write_bytes(jpeg[: len(jpeg) // 2])
    noise = np.random.default_rng(1).integers(0, 255, (1400, 1000, 3), dtype=np.uint8)
    cv2.imwrite(str(folder / "holiday.png"), noise)
    cv2.imwrite(str(folder / "blank.png"), np.full((1400, 1000, 3), 250, np.uint8))
    return folder


def test_a_batch_goes_on_past_bad_files(batch: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["scan", str(batch), "--out", str(out)]) == 5  # PARTIAL
    err = capsys.readouterr().err
    for name in ("notes.jpg", "truncated.jpg", "holiday.png", "blank.png"):
        lines = [line for line in err.splitlines()
                 if name in line and line.startswith("pulka scan:")]
        assert len(lines) == 1, (name, err)
    assert "Traceback" not in err
    records = list(out.glob("*/record.json"))
    assert len(records) == 1
    truth = json.loads((SAMPLE / "truth.json").read_text(encoding="utf-8"))
    assert json.loads(records[0].read_text(encoding="utf-8"))["deals"] == \
        truth["record"]["deals"]
    assert "1 sheet read" in err and "4 files failed" in err


def test_a_missing_page_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "partial"
    folder.mkdir()
    for page in ("page-0.jpg", "page-1.jpg"):
        shutil.copy(SAMPLE / page, folder / page)
    main(["scan", str(folder), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert "page 3 of 3 is missing; scan it too" in err
