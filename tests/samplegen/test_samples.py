"""Sample sheets: the truth says exactly what was drawn where; errors are listed; the CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from forms.layout import build_layout, mm_to_px
from pulka.cli.main import main
from samplegen.glyphs import default_glyphs
from samplegen.sheets import SampleTruth, make_sample
from scoring import RuleSet, expected_sheet, parse_record
from scoring.random_games import random_record, written_columns

DPI = 110
INK_DIFF = 40
"""A pixel differs from the blank print by more than this (grey levels): ink."""
MIN_INK_PX = 4


def _game(variant: str = "sochi", players: int = 3, seed: int = 7) -> dict:
    return random_record(RuleSet.preset(variant, players, 10), random.Random(seed))


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> tuple[SampleTruth, Path]:
    out = tmp_path_factory.mktemp("sample")
    truth = make_sample(_game(), out, default_glyphs(), random.Random(11), errors=2, dpi=DPI)
    return truth, out


def _ink(truth: SampleTruth, page: int) -> np.ndarray:
    diff = np.abs(truth.images[page].astype(np.int16) - truth.blank[page].astype(np.int16))
    return diff.max(axis=2) > INK_DIFF


def _rect(item: dict) -> tuple[int, int, int, int]:
    x, y, w, h = item["box"]
    return (round(mm_to_px(x, DPI)), round(mm_to_px(y, DPI)), round(mm_to_px(x + w, DPI)),
            round(mm_to_px(y + h, DPI)))


def test_ink_exactly_where_the_truth_says(sample: tuple[SampleTruth, Path]) -> None:
    truth, _ = sample
    inside = [np.zeros(img.shape[:2], bool) for img in truth.images]
    inks = [_ink(truth, page) for page in range(len(truth.images))]
    written = 0
    for item in (*truth.cells, *truth.marks):
        x0, y0, x1, y1 = _rect(item)
        ink = int(inks[item["page"]][y0:y1, x0:x1].sum())
        full = item.get("char", "") != "" or item.get("state", "empty") != "empty"
        assert (ink >= MIN_INK_PX) if full else ink == 0, item
        written += full
        inside[item["page"]][y0:y1, x0:x1] = True
    assert written > 100
    for page in range(len(truth.images)):
        assert not (inks[page] & ~inside[page]).any(), f"ink outside boxes on page {page}"


def test_cells_spell_the_written_record(sample: tuple[SampleTruth, Path]) -> None:
    truth, _ = sample
    entries: dict[tuple, dict[int, str]] = {}
    for cell in truth.cells:
        m = cell["meaning"]
        if m["type"] == "entry":
            key = (m["seat"], m["column"], m["on"], m["entry"])
            entries.setdefault(key, {})[m["position"]] = cell["char"]
    for seat, cols in truth.record["written"].items():
        columns = [("pool", None, cols["pool"]), ("mountain", None, cols["mountain"])]
        columns += [("whists", on, v) for on, v in cols["whists"].items()]
        for kind, on, totals in columns:
            read = []
            for e in range(len(totals) + 1):
                chars = entries[(seat, kind, on, e)]
                text = "".join(chars[p] for p in sorted(chars))
                if text:
                    read.append(int(text))
            assert read == totals, (seat, kind, on)
    calibration = sorted((c["meaning"]["seat"], c["meaning"]["digit"], c["char"])
                         for c in truth.cells if c["meaning"]["type"] == "calibration")
    assert all(str(d) == ch for _, d, ch in calibration) and len(calibration) == 30


def test_errors_are_listed_and_written(sample: tuple[SampleTruth, Path]) -> None:
    truth, out = sample
    doc = json.loads((out / "truth.json").read_text())
    assert doc["format"] == "pulka-sample-truth/1" and len(doc["errors"]) == 2
    assert {e["kind"] for e in doc["errors"]} <= {"slip", "wrong_amount", "missing",
                                                  "correction"}
    correct = written_columns(expected_sheet(parse_record(_game())))
    assert doc["record"]["written"] != correct
    parse_record(doc["record"])
    assert [p["file"] for p in doc["pages"]] == ["page-0.png", "page-1.png", "page-2.png"]
    assert all((out / p["file"]).exists() for p in doc["pages"])
    deal_marks = [m for m in doc["marks"] if m["state"] == "marked"]
    assert len({m["meaning"]["row"] for m in deal_marks}) == len(doc["record"]["deals"])


def test_same_seed_same_sample(tmp_path: Path) -> None:
    glyphs = default_glyphs()
    a = make_sample(_game(seed=3), tmp_path / "a", glyphs, random.Random(5), dpi=72)
    b = make_sample(_game(seed=3), tmp_path / "b", glyphs, random.Random(5), dpi=72)
    da, db = a.to_json(), b.to_json()
    da.pop("seconds"), db.pop("seconds")
    assert da == db
    assert all(np.array_equal(x, y) for x, y in zip(a.images, b.images, strict=True))


def test_photo_sample_writes_jpeg_with_homography(tmp_path: Path) -> None:
    truth = make_sample(_game("leningrad", 4, 2), tmp_path, default_glyphs(), random.Random(2),
                        photo=True, errors=1, dpi=72)
    page = truth.pages[0]
    assert page["file"] == "page-0.jpg" and np.array(page["page_to_image"]).shape == (3, 3)
    image = cv2.imread(str(tmp_path / page["file"]))
    assert image.shape[:2] == (page["height_px"], page["width_px"])
    assert build_layout(4).talon and len(truth.errors) == 1


def _glyph_dir(root: Path, digits: range = range(10)) -> Path:
    glyphs = default_glyphs()
    for d in digits:
        (root / str(d)).mkdir(parents=True)
        for k, image in enumerate(glyphs[d][:3]):
            cv2.imwrite(str(root / str(d) / f"{k}.png"), cv2.resize(image, (40, 52)))
    return root


def test_cli_random_with_glyph_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    glyphs = _glyph_dir(tmp_path / "glyphs")
    assert main(["samples", "--random", "1", "--pool", "10", "--seed", "4", "--glyphs",
                 str(glyphs), "--out", str(tmp_path / "out"), "--dpi", "72", "--scan"]) == 0
    truth = json.loads((tmp_path / "out" / "sample-001" / "truth.json").read_text())
    assert truth["pages"][0]["degradations"][0]["name"] == "rotation"
    assert len({Path(p["file"]).suffix for p in truth["pages"]}) == 1, "one scanner setting"
    assert "sample-001" in capsys.readouterr().out


@pytest.mark.parametrize("case, code, words", [
    ("no_digit_folders", 2, "holds no images"),
    ("missing_digit", 2, "no images for digit(s) 9"),
    ("not_json", 3, "not JSON"),
    ("bad_record", 3, "bad.json"),
    ("negative_errors", 2, "--errors"),
])
def test_cli_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str,
                           code: int, words: str) -> None:
    record = tmp_path / "game.json"
    record.write_text(json.dumps(_game()))
    args = ["samples", "--record", str(record), "--out", str(tmp_path / "out"), "--dpi", "72"]
    if case == "no_digit_folders":
        (tmp_path / "empty").mkdir()
        args += ["--glyphs", str(tmp_path / "empty")]
    elif case == "missing_digit":
        args += ["--glyphs", str(_glyph_dir(tmp_path / "g", range(9)))]
    elif case == "not_json":
        record.write_text("{oops")
    elif case == "bad_record":
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps({"format": "pulka-record/1", "seats": ["A"]}))
        args[2] = str(bad)
    else:
        args += ["--errors", "-1"]
    assert main(args) == code
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_cli_photo_and_scan_exclude_each_other(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["samples", "--random", "1", "--out", str(tmp_path), "--photo", "--scan"])
    assert exit_info.value.code == 2


def test_recording_errors_are_drawn_so_that_the_columns_still_fit_the_sheet() -> None:
    """A Rostov game for 4 whose whists column on A holds ten entries, all the sheet has:
    the first draw of its two recording errors put a correction there, an eleventh entry,
    and the TRAINING set of seed 103 stopped with a FillError (sheet 017). The errors are
    drawn again until the columns fit; a draw that fits at once is as before."""
    from samplegen.fill import entry_values
    from samplegen.games import fitting_game
    from samplegen.sheets import prepare_record

    rng = random.Random(103 * 100_000 + 17)
    rules = RuleSet.preset("rostov", 4, 20)
    doc, injected, _ = prepare_record(fitting_game(rules, rng), 2, rng)
    assert injected
    assert entry_values(build_layout(4, "A4", rules.talon_prize), doc["written"])
