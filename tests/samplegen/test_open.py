"""The open profile: a part's sheets are written and captured with that part's sources only,
writers go over the borders, marks of every kind, inks and captures as issue 13 lists them."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from forms.layout import box_rect_px, build_layout
from pulka.cli.main import main
from samplegen.capture import CAPTURE_PROFILES, PhoneProfile, capture
from samplegen.games import fitting_game
from samplegen.marks import MARK_SHAPES, draw_mark
from samplegen.profiles import ProfileError, SheetPlan, plan_sheets
from samplegen.sheets import SampleTruth, make_sample
from samplegen.split import Part, part_of
from samplegen.strokes import stroke_glyphs
from samplegen.writers import INKS, OpenHand
from scoring import RuleSet

DPI = 100
INK_DIFF = 40


def _sheet(plan: SheetPlan, out: Path, seed: int = 5, players: int = 3) -> SampleTruth:
    rng = random.Random(seed)
    game = fitting_game(RuleSet.preset("sochi", players, 10), rng)
    return make_sample(game, out, {}, rng, dpi=DPI, plan=plan)


@pytest.mark.parametrize("part", list(Part))
def test_a_parts_sheets_use_that_parts_sources_only(part: Part, tmp_path: Path) -> None:
    plans = plan_sheets("open", part, 8)
    truth = _sheet(plans[2], tmp_path)
    seats = truth.writers["seats"].values()
    assert {part_of("glyphs", w["source"]) for w in seats} == {part}
    assert {part_of("marks", w["mark_style"]) for w in seats} == {part}
    assert {part_of("marks", w["cancel_style"]) for w in seats} == {part}
    assert part_of("captures", truth.writers["plan"]["capture"]) == part
    assert {part_of("captures", p.capture) for p in plans} == {part}
    assert {part_of("marks", p.marks) for p in plans} == {part}


def test_the_legacy_profile_is_the_training_part_only() -> None:
    assert {p.capture for p in plan_sheets("legacy", Part.TRAINING, 3)} == {
        "legacy-clean", "legacy-scan", "legacy-photo"}
    with pytest.raises(ProfileError, match="--profile open"):
        plan_sheets("legacy", Part.EVALUATION, 1)


def test_a_plan_whose_fonts_are_missing_says_what_to_run(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PULKA_FONT_CACHE", str(tmp_path / "empty"))
    plan = SheetPlan("open", Part.EVALUATION, "font", "flatbed-bw", "x-hasty", "black")
    with pytest.raises(ProfileError, match="python -m samplegen.fonts"):
        _sheet(plan, tmp_path / "out")
    assert {p.family for p in plan_sheets("open", Part.EVALUATION, 4)} == {"strokes", "uci"}


def test_writers_go_over_box_borders(tmp_path: Path) -> None:
    plan = SheetPlan("open", Part.EVALUATION, "strokes", "flatbed-grey", "x-hasty", "black")
    truth = _sheet(plan, tmp_path, seed=2, players=4)
    layout = build_layout(4)
    outside = 0
    for page, (image, blank) in enumerate(zip(truth.images, truth.blank, strict=True)):
        ink = np.abs(image.astype(np.int16) - blank.astype(np.int16)).max(axis=2) > INK_DIFF
        for box in layout.boxes:
            if box.page == page:
                x0, y0, x1, y1 = box_rect_px(box, DPI)
                ink[y0:y1, x0:x1] = False
        outside += int(ink.sum())
    assert outside > 200


def _darkness(style: str, seed: int = 1) -> tuple[np.ndarray, int]:
    pad = 12
    return draw_mark(style, (30, 30), pad, 2.0, random.Random(seed)), pad


def _far_outside(dark: np.ndarray, pad: int, beyond: int) -> float:
    """Ink more than ``beyond`` px outside the box."""
    inner = dark.copy()
    inner[pad - beyond:-(pad - beyond), pad - beyond:-(pad - beyond)] = 0
    return float(inner.sum())


@pytest.mark.parametrize("style", sorted(MARK_SHAPES))
def test_every_mark_style_leaves_ink_and_the_big_ones_go_over_the_border(style: str) -> None:
    dark, pad = _darkness(style)
    assert dark[pad:-pad, pad:-pad].sum() > 20
    over = max(_far_outside(_darkness(style, seed)[0], pad, 5) for seed in range(12))
    assert (over > 0) == (MARK_SHAPES[style].size_range[1] > 1.0)


@pytest.mark.parametrize("style, low, high", [("cancel-solid", 0.7, 1.0),
                                              ("cancel-zigzag", 0.3, 0.95),
                                              ("x-neat", 0.05, 0.35)])
def test_a_cancelled_box_is_filled_and_a_cross_is_not(style: str, low: float,
                                                      high: float) -> None:
    dark, pad = _darkness(style)
    assert low < float((dark[pad:-pad, pad:-pad] > 0.5).mean()) < high


def _written(ink: str) -> np.ndarray:
    """Eights written into the first digit boxes of a white page in ``ink``."""
    pressure = INKS[ink].pressure
    hand = OpenHand("A", "strokes-school", stroke_glyphs("strokes-school", random.Random(1), 2),
                    ink, pen_mm=0.5, pressure=sum(pressure) / 2, height=(0.7, 0.9), slant=0.0,
                    spills=False, mark_style="x-neat", cancel_style="cancel-zigzag")
    page = np.ones((1169, 827, 3), np.float32)
    boxes = [b for b in build_layout(3).boxes if b.page == 0 and b.kind == "digit"][:20]
    rng = random.Random(2)
    for box in boxes:
        hand.digit(page, box, "8", DPI, rng)
    return page


def test_pencil_is_fainter_than_felt_tip_and_blue_is_blue() -> None:
    darkness = {}
    for ink in ("pencil", "felt-tip", "blue-ballpoint"):
        page = _written(ink)
        inked = page.min(axis=2) < 0.9
        darkness[ink] = float(1 - page[inked].mean())
        if ink == "blue-ballpoint":
            blue, red = page[inked][:, 2].mean(), page[inked][:, 0].mean()
            assert blue > red + 0.1
    assert darkness["pencil"] < 0.6 * darkness["felt-tip"]


def _page() -> np.ndarray:
    page = np.full((1169, 827, 3), 255, np.uint8)  # A4 at 100 dpi
    cv2.rectangle(page, (50, 50), (777, 1119), (0, 0, 0), 3)
    return page


@pytest.mark.parametrize("name", sorted(n for n, p in CAPTURE_PROFILES.items()
                                        if isinstance(p, PhoneProfile)))
def test_a_phone_photo_holds_the_page_at_the_profiles_size(name: str) -> None:
    profile = CAPTURE_PROFILES[name]
    assert isinstance(profile, PhoneProfile)
    result = capture(name, _page(), 100, random.Random(7))
    h, w = result.image.shape[:2]
    camera = result.steps[0]
    assert camera["name"] == "camera" and result.format == "jpg"
    assert profile.tilt_deg[0] <= camera["tilt_deg"] <= profile.tilt_deg[1]
    if profile.page_dpi is not None:
        assert profile.page_dpi[0] <= camera["page_dpi"] <= profile.page_dpi[1]
    else:
        assert profile.frame_px[0] <= max(w, h) <= profile.frame_px[1] + 10
    corners = np.array([[0, 0, 1], [827, 0, 1], [827, 1169, 1], [0, 1169, 1]], float)
    projected = corners @ result.page_to_image.T
    xy = projected[:, :2] / projected[:, 2:]
    assert (xy >= 0).all() and (xy[:, 0] <= w).all() and (xy[:, 1] <= h).all()


@pytest.mark.parametrize("name, channels", [("flatbed-grey", 2), ("flatbed-bw", 2),
                                            ("flatbed-colour", 3)])
def test_a_flatbed_scan_is_grey_black_and_white_or_colour(name: str, channels: int) -> None:
    result = capture(name, _page(), 100, random.Random(3), sheet_seed=9)
    again = capture(name, _page(), 100, random.Random(4), sheet_seed=9)
    assert result.image.ndim == channels
    assert result.steps[0]["dpi"] == again.steps[0]["dpi"]
    if name == "flatbed-bw":
        assert set(np.unique(result.image)) <= {0, 255}


def test_pulka_samples_makes_an_evaluation_part(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["samples", "--random", "1", "--profile", "open", "--part", "evaluation",
                 "--dpi", "72", "--pool", "10", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert printed.count(" x ") == 3
    truth = (tmp_path / "sample-001" / "truth.json").read_text(encoding="utf-8")
    assert '"part": "evaluation"' in truth


@pytest.mark.parametrize("args, message", [
    (["--part", "evaluation"], "needs --profile open"),
    (["--profile", "open", "--scan"], "leave out --scan"),
])
def test_pulka_samples_refuses_mixed_options(args: list[str], message: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["samples", "--random", "1", "--out", str(tmp_path), *args]) == 2
    assert message in capsys.readouterr().err
