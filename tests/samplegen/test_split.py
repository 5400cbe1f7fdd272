"""The split: every source in one part, the parts share no font, style or glyph, and the
reserved fonts are never a source."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import numpy as np
import pytest

from samplegen import fonts
from samplegen.capture import CAPTURE_PROFILES
from samplegen.marks import CANCEL_STYLES, MARK_SHAPES
from samplegen.profiles import LEGACY_CAPTURES, family_sources
from samplegen.split import (
    CAPTURES,
    FORBIDDEN_FONTS,
    GLYPH_SOURCES,
    MARK_STYLES,
    Part,
    is_forbidden,
    names,
)
from samplegen.strokes import STYLES, stroke_glyphs
from samplegen.uci import BLOCKS_SOURCE, UCI_SOURCE, blocks_glyphs, uci_glyphs


def test_no_font_source_is_reserved() -> None:
    candidates = [*GLYPH_SOURCES, *fonts.DEBIAN_FONTS, *fonts.DEBIAN_FONTS.values(),
                  *fonts.NPM_FONTS]
    candidates += [p.name for part in Part for p in fonts.part_files(part)]
    if fonts.cache_dir().is_dir():
        candidates += [p.name for p in fonts.cache_dir().iterdir()]
    assert [c for c in candidates if is_forbidden(c)] == []


@pytest.mark.parametrize("name", [*FORBIDDEN_FONTS, "patrick-hand-sc", "Caveat Brush",
                                  "IndieFlower-Regular.ttf", "kalam-latin-400-normal.woff",
                                  "Nanum Pen Script"])
def test_reserved_fonts_and_their_variants_are_recognised(name: str) -> None:
    assert is_forbidden(name)


@pytest.mark.parametrize("name", ["handlee", "rock-salt", "comic-neue", "strokes-round",
                                  "mnist", "uci", "lucida-handwriting"])
def test_other_sources_are_not_reserved(name: str) -> None:
    assert not is_forbidden(name)


def test_a_reserved_font_is_refused_before_anything_is_fetched(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def no_npm(*args: object, **kwargs: object) -> None:
        raise AssertionError("npm was run for a reserved font")

    monkeypatch.setattr(fonts.subprocess, "run", no_npm)
    with pytest.raises(fonts.FontError, match="reserved"):
        fonts.fetch_fonts(("patrick-hand-sc",), tmp_path)
    with pytest.raises(fonts.FontError, match="reserved"):
        fonts.font_path("caveat")
    assert list(tmp_path.iterdir()) == []


def test_every_source_is_in_exactly_one_part() -> None:
    assert set(GLYPH_SOURCES) == {"mnist", BLOCKS_SOURCE, UCI_SOURCE, *fonts.DEBIAN_FONTS,
                                  *fonts.NPM_FONTS, *STYLES}
    assert set(MARK_STYLES) == {*MARK_SHAPES, *CANCEL_STYLES}
    assert set(CAPTURES) == {*CAPTURE_PROFILES, *LEGACY_CAPTURES}
    for kind in ("glyphs", "marks", "captures"):
        training, evaluation = set(names(kind, Part.TRAINING)), set(names(kind, Part.EVALUATION))
        assert training and evaluation and not training & evaluation


@pytest.mark.parametrize("family", ["x", "tick", "plus", "loop", "scribble", "cancel"])
def test_each_kind_of_mark_is_in_both_parts_in_different_styles(family: str) -> None:
    for part in Part:
        assert [m for m in names("marks", part) if m.startswith(family + "-")], (family, part)
    shapes = {part: [MARK_SHAPES[m] for m in names("marks", part)
                     if m.startswith(family + "-") and m in MARK_SHAPES] for part in Part}
    assert not [s for s in shapes[Part.TRAINING] if s in shapes[Part.EVALUATION]]


def test_each_kind_of_capture_is_in_both_parts() -> None:
    for prefix in ("phone-", "flatbed-"):
        for part in Part:
            assert [c for c in names("captures", part) if c.startswith(prefix)], (prefix, part)


def test_stroke_writer_styles_of_the_two_parts_use_different_forms() -> None:
    def forms(part: Part) -> set[tuple[object, ...]]:
        return {(s.one, s.seven_bar, s.four_open, s.nine_hooked) for n, s in STYLES.items()
                if GLYPH_SOURCES[n] == part}

    assert not forms(Part.TRAINING) & forms(Part.EVALUATION)
    assert len(forms(Part.TRAINING)) + len(forms(Part.EVALUATION)) == len(STYLES)


def _digests(part: Part) -> set[str]:
    out = set()
    for name in names("glyphs", part):
        if name in STYLES:
            glyphs = stroke_glyphs(name, random.Random(3), 2)
        elif name == UCI_SOURCE:
            glyphs = uci_glyphs(random.Random(3), 2)
        elif name == BLOCKS_SOURCE:
            glyphs = blocks_glyphs(random.Random(3), 2)
        elif name in fonts.available((name,)):
            glyphs = fonts.font_glyphs(name, random.Random(3), 2)
        else:
            continue
        out |= {hashlib.sha1(g.tobytes()).hexdigest() for gs in glyphs.values() for g in gs}
    return out


def test_the_parts_share_no_glyph_and_no_font_file() -> None:
    assert not _digests(Part.TRAINING) & _digests(Part.EVALUATION)
    files = {part: {hashlib.sha1(p.read_bytes()).hexdigest() for p in fonts.part_files(part)}
             for part in Part}
    assert not files[Part.TRAINING] & files[Part.EVALUATION]


def test_both_parts_can_write_with_pen_strokes_here() -> None:
    for part in Part:
        assert family_sources("strokes", part)


def test_digit_training_draws_on_training_fonts_only() -> None:
    from training.sources import training_fonts

    used = set(training_fonts())
    assert used <= set(fonts.part_files(Part.TRAINING))
    assert not used & set(fonts.part_files(Part.EVALUATION))


def test_digit_training_fits_and_calibrates_on_disjoint_training_writer_sources() -> None:
    from training.writer_cells import CALIBRATION_SOURCES, writer_sources

    fit, calibration = set(writer_sources("fit")), set(writer_sources("calibration"))
    assert fit and calibration and not fit & calibration
    assert {GLYPH_SOURCES[s] for s in fit | calibration} == {Part.TRAINING}
    assert calibration <= set(CALIBRATION_SOURCES)
    assert not [s for s in fit | calibration
                if is_forbidden(s) or s in ("mnist", BLOCKS_SOURCE, UCI_SOURCE)]


def test_the_networks_fonts_leave_out_the_calibration_writers() -> None:
    from training.sources import print_fonts, training_fonts
    from training.writer_cells import writer_sources

    held = {f for s in writer_sources("calibration") if s not in STYLES
            for f in fonts.font_files(s)}
    assert held and not held & set(training_fonts())
    evaluation = {p.name for p in fonts.part_files(Part.EVALUATION)}
    assert not [p for p in print_fonts() if is_forbidden(p.name) or p.name in evaluation]


def test_a_training_writer_writes_with_its_own_training_source_into_a_cut_cell() -> None:
    from training.writer_cells import make_writer, writer_cell

    rng = random.Random(3)
    hand = make_writer("strokes-school", rng)
    cell = writer_cell(hand, 7, rng)
    blank = writer_cell(hand, None, random.Random(4))
    assert hand.source == "strokes-school" and GLYPH_SOURCES[hand.source] == Part.TRAINING
    assert cell.dtype == np.uint8 and 30 <= cell.shape[0] <= 60 and 20 <= cell.shape[1] <= 45
    assert blank.shape[0] > blank.shape[1]


def test_the_uci_digits_are_an_evaluation_source_only() -> None:
    assert GLYPH_SOURCES[UCI_SOURCE] == Part.EVALUATION
    assert family_sources("uci", Part.EVALUATION) == (UCI_SOURCE,)
    assert family_sources("uci", Part.TRAINING) == ()
    assert UCI_SOURCE not in fonts.NPM_FONTS


def test_the_coarse_training_digits_are_written_only_where_a_run_asks_for_them() -> None:
    from samplegen.profiles import ProfileError, plan_sheets

    assert GLYPH_SOURCES[BLOCKS_SOURCE] == Part.TRAINING
    assert BLOCKS_SOURCE not in fonts.NPM_FONTS
    assert "blocks" not in {p.family for part in Part for p in plan_sheets("open", part, 12)}
    asked = plan_sheets("open", Part.TRAINING, 6, ("blocks",))
    assert {p.family for p in asked} == {"blocks"}
    assert len({p.capture for p in asked}) == 6
    with pytest.raises(ProfileError, match="'blocks'"):
        plan_sheets("open", Part.EVALUATION, 1, ("blocks",))
