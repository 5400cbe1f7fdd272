"""Re-running ``pulka import`` on a folder already imported: keyed by each image file's content,
it scans nothing again; a changed image of a known page is reported; a verified cell stays."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from pulka.cli.main import main
from pulka.store.database import Store
from pulka.store.importer import pipeline_available
from samplegen.scans import synthetic_tournament
from scoring.exitcode import ExitCode

SAMPLE = Path(__file__).parents[2] / "samples" / "scans" / "sochi-3-scan"

needs_pipeline = pytest.mark.skipif(not pipeline_available(), reason="needs the scan pipeline")


def imported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["import", str(tmp_path / "in"), "--db", str(tmp_path / "t.sqlite"),
                 "--out", str(tmp_path / "out"), "--jobs", "1"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.slow
@needs_pipeline
def test_a_rerun_scans_nothing_and_a_changed_page_is_reported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "in").mkdir()
    for image in sorted(SAMPLE.glob("page-*.jpg")):
        shutil.copy(image, tmp_path / "in" / image.name)
    code, out, _ = imported(tmp_path, capsys)
    assert code in (ExitCode.OK, ExitCode.FINDINGS) and "imported 1 sheet" in out, out
    with Store(tmp_path / "t.sqlite") as store:
        (sheet,) = store.sheet_ids()
        key = "entry:A:pool:0"
        store.verify_cell(sheet, key, 999, "anna")

    # the same folder again, renamed files too: nothing scanned, nothing changed
    (tmp_path / "in" / "page-0.jpg").rename(tmp_path / "in" / "first.jpg")
    code, out, err = imported(tmp_path, capsys)
    assert "imported 0 sheets" in out and "skipped 3 images already imported" in out, out
    assert err == ""

    # a new image of page 1 (the same photo, re-saved): scanned, reported, the cell kept
    changed = tmp_path / "in" / "first.jpg"
    image = cv2.imread(str(changed))
    assert image is not None
    assert cv2.imwrite(str(changed), image, [cv2.IMWRITE_JPEG_QUALITY, 93])
    code, out, err = imported(tmp_path, capsys)
    assert "imported 1 sheet" in out and "skipped 2 images already imported" in out, err
    assert f"sheet {sheet} page 1 was imported before from another image" in err, err
    with Store(tmp_path / "t.sqlite") as store:
        (value, by) = store.conn.execute(
            "SELECT value_json, verified_by FROM cells WHERE key = ?", (key,)).fetchone()
        assert (value, by) == ("999", "anna")
        assert store.known_files() and len(store.sheet_ids()) == 1


def test_a_dangling_link_and_a_pipe_are_reported_and_the_good_sheet_stored(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    synthetic_tournament(random.Random(3), "Open", 1, 1, folder=tmp_path / "in")
    odd = tmp_path / "in" / "odd"
    odd.mkdir()
    (odd / "gone.png").symlink_to(tmp_path / "nowhere.png")
    os.mkfifo(odd / "pipe.png")
    code, out, err = imported(tmp_path, capsys)
    assert code == ExitCode.PARTIAL and "imported 1 sheet" in out, (out, err)
    lines = err.splitlines()
    assert len(lines) == 2 and all("not a regular file" in line for line in lines), err
    assert "gone.png" in err and "pipe.png" in err


@needs_pipeline
def test_a_refused_image_is_not_scanned_again_until_its_folder_changes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    synthetic_tournament(random.Random(3), "Open", 1, 1, folder=tmp_path / "in")
    other = tmp_path / "in" / "holiday"
    other.mkdir()
    photo = np.full((900, 700, 3), 200, np.uint8)
    cv2.circle(photo, (350, 450), 200, (40, 90, 160), -1)
    assert cv2.imwrite(str(other / "beach.jpg"), photo)
    code, out, err = imported(tmp_path, capsys)
    assert code == ExitCode.PARTIAL and "imported 1 sheet" in out, (out, err)
    assert "beach.jpg" in err and "earlier import" not in err, err

    code, out, err = imported(tmp_path, capsys)
    assert code == ExitCode.PARTIAL and "1 file failed" in out, (out, err)
    (line,) = err.splitlines()
    assert "beach.jpg" in line and "refused by an earlier import" in line, err
    with Store(tmp_path / "t.sqlite") as store:
        (source,) = store.conn.execute("SELECT source FROM refused_files").fetchone()
    assert source.endswith("beach.jpg")

    # a new image in its folder: the folder is read again, the refused file with it
    assert cv2.imwrite(str(other / "beach-2.jpg"), photo[::-1])
    code, out, err = imported(tmp_path, capsys)
    assert "beach.jpg" in err and "beach-2.jpg" in err and "earlier import" not in err, err

    # --rescan reads it anyway
    main(["import", str(tmp_path / "in"), "--db", str(tmp_path / "t.sqlite"),
          "--out", str(tmp_path / "out"), "--jobs", "1", "--rescan"])
    err = capsys.readouterr().err
    assert "beach.jpg" in err and "earlier import" not in err, err
