"""Tests of the handwritten-digit recognizer (scanner.digits.recognizer), glyph loading
(samplegen.glyphs)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from samplegen.glyphs import GlyphDirError, default_glyphs, glyph_to_cell, load_glyph_dir
from scanner.arrays import Floats, GreyImage
from scanner.digits.adaptation import WriterAdaptation
from scanner.digits.constants import (
    BACKGROUND_KERNEL_FRACTION,
    CELL_HEIGHT_300DPI_PX,
    CELL_WIDTH_300DPI_PX,
    EMPTY_CLASS,
)
from scanner.digits.normalize import _as_gray, _contrast_stack, _masks_stack, normalize_cells
from scanner.digits.recognizer import MODEL_PATH, DigitRecognizer

H, W = CELL_HEIGHT_300DPI_PX, CELL_WIDTH_300DPI_PX
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def normalize_cell(gray: GreyImage) -> Floats:
    """The model input of one cell."""
    cell: Floats = normalize_cells([gray])[0]
    return cell


def ink_fraction(gray: GreyImage) -> float:
    """The share of the cell covered by digit ink (after border and speck removal)."""
    grey = _as_gray(gray)
    mask = _masks_stack(_contrast_stack(grey[None]))[0][0]
    return float(np.count_nonzero(mask)) / grey.size


@pytest.fixture(scope="module")
def rec() -> DigitRecognizer:
    return DigitRecognizer()


@pytest.fixture(scope="module")
def sample() -> tuple[list[np.ndarray], np.ndarray]:
    """200 held-out glyphs (20 per digit) drawn into cells."""
    glyphs = default_glyphs()
    cells, labels = [], []
    for d in range(10):
        for g in glyphs[d][:20]:
            cells.append(glyph_to_cell(g, height_fraction=0.7))
            labels.append(d)
    return cells, np.asarray(labels)


Sample = tuple[list[np.ndarray], np.ndarray]


def test_probabilities_shape_and_sum(rec: DigitRecognizer, sample: Sample) -> None:
    cells, _ = sample
    p = rec.probabilities(cells[:7])
    assert p.shape == (7, 11)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-5)
    assert (p >= 0).all()
    assert rec.probabilities([]).shape == (0, 11)


def test_network_rows_do_not_depend_on_the_batch(rec: DigitRecognizer, sample: Sample) -> None:
    """The network runs in small batches; each cell's row is the same as when run alone."""
    inputs = normalize_cells(sample[0][:37])
    probs, embeds = rec.run_normalized(inputs)
    for i in (0, 15, 16, 36):
        p, e = rec.run_normalized(inputs[i : i + 1])
        np.testing.assert_array_equal(p[0], probs[i])
        np.testing.assert_array_equal(e[0], embeds[i])


def test_blank_and_noisy_cells_are_empty(rec: DigitRecognizer) -> None:
    rng = np.random.default_rng(1)
    blank = np.full((H, W), 235, np.uint8)
    noisy = np.clip(rng.normal(220, 6, (H, W)), 0, 255).astype(np.uint8)
    bordered = blank.copy()
    bordered[:, :2] = 40  # remnant of the printed border
    bordered[-2:, :] = 60
    yy = np.linspace(160, 240, H)[:, None] * np.ones((1, W))  # uneven light
    p = rec.probabilities([blank, noisy, bordered, yy.astype(np.uint8)])
    assert (p[:, EMPTY_CLASS] > 0.9).all(), p[:, EMPTY_CLASS]
    assert ink_fraction(blank) == 0.0
    assert not normalize_cell(bordered).any()


def test_specks_are_empty(rec: DigitRecognizer) -> None:
    rng = np.random.default_rng(3)
    cells = []
    for _ in range(10):
        cell = np.full((H, W), 230, np.uint8)
        for _ in range(int(rng.integers(1, 4))):
            x, y = int(rng.integers(4, W - 4)), int(rng.integers(4, H - 4))
            cv2.circle(cell, (x, y), int(rng.integers(1, 3)), 40, -1)
        cells.append(cell)
    assert (rec.probabilities(cells).argmax(1) == EMPTY_CLASS).all()


def test_batched_normalization_equals_one_at_a_time() -> None:
    glyphs = default_glyphs()
    cells = [glyph_to_cell(glyphs[d][0]) for d in range(10)]
    cells += [glyph_to_cell(glyphs[d][1], 40, 60) for d in range(5)]  # another cell size
    cells.insert(3, np.full((H, W), 235, np.uint8))
    batch = normalize_cells(cells)
    assert batch.shape == (16, 28, 28)
    for cell, row in zip(cells, batch, strict=True):
        np.testing.assert_array_equal(normalize_cell(cell), row)
    assert not batch[3].any()


def _contrast_padded_whole(gray: np.ndarray) -> np.ndarray:
    """One cell's ink contrast the plain way: 2x2 means, padded by the filters' whole reach
    (closing and blur), closed, blurred, doubled back, against the cell."""
    g = gray.astype(np.float32)
    h, w = g.shape
    h2, w2 = h // 2, w // 2
    small = cv2.resize(g[: 2 * h2, : 2 * w2], (w2, h2), interpolation=cv2.INTER_AREA)
    k = max(3, int(BACKGROUND_KERNEL_FRACTION * min(h, w) / 2) | 1)
    reach = 3 * (k // 2)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    padded = np.pad(small, reach, mode="edge")
    paper = cv2.blur(cv2.morphologyEx(padded, cv2.MORPH_CLOSE, kernel), (k, k))
    paper = paper[reach : reach + h2, reach : reach + w2].repeat(2, axis=0).repeat(2, axis=1)
    paper = np.maximum(np.pad(paper, ((0, h - 2 * h2), (0, w - 2 * w2)), mode="edge"), g)
    return (paper - g) / np.maximum(paper, 16.0)


@pytest.mark.parametrize("shape", [(53, 38), (71, 53), (20, 15)])
def test_contrast_of_a_stack_equals_each_cell_padded_whole(shape: tuple[int, int]) -> None:
    """The stacked, narrowly framed filters give each cell exactly its own contrast."""
    rng = np.random.default_rng(shape[0])
    paper = rng.integers(120, 256, (9, *shape))
    strokes = rng.random((9, *shape)) < 0.1  # dark specks and edges anywhere, borders too
    cells = np.where(strokes, rng.integers(0, 80, (9, *shape)), paper).astype(np.uint8)
    got = _contrast_stack(cells)
    for cell, contrast in zip(cells, got, strict=True):
        np.testing.assert_array_equal(contrast, _contrast_padded_whole(cell))


def test_each_inked_cell_is_read_as_the_mean_of_itself_and_its_diagonal_moves(
        rec: DigitRecognizer, sample: Sample) -> None:
    """A stroke the normalisation placed a pixel off does not decide the reading alone: each
    inked cell's probabilities are the mean of the network's on the cell and on it moved one
    pixel down and right, and up and left (the moved-in edges blank); a blank cell is
    EMPTY."""
    inputs = normalize_cells(sample[0][:12])
    inputs[3] = 0.0
    net = cv2.dnn.readNetFromONNX(str(MODEL_PATH))

    def network(x: Floats) -> Floats:
        net.setInput(np.ascontiguousarray(x[:, None], np.float32))
        return np.asarray(net.forward("probs"), np.float64).reshape(len(x), 11)

    down_right, up_left = np.zeros_like(inputs), np.zeros_like(inputs)
    down_right[:, 1:, 1:], up_left[:, :-1, :-1] = inputs[:, :-1, :-1], inputs[:, 1:, 1:]
    want = (network(inputs) + network(down_right) + network(up_left)) / 3
    want /= want.sum(axis=1, keepdims=True)
    probs = rec.run_normalized(inputs)[0]
    inked = [i for i in range(12) if i != 3]
    np.testing.assert_allclose(probs[inked], want[inked], atol=1e-5)
    assert probs[3, EMPTY_CLASS] == 1.0


def test_probabilities_are_calibrated(rec: DigitRecognizer) -> None:
    """Mean confidence on held-out glyphs is within a few points of the accuracy."""
    glyphs = default_glyphs()
    cells = [glyph_to_cell(g) for d in range(10) for g in glyphs[d][20:80]]
    labels = np.repeat(np.arange(10), 60)
    p = rec.probabilities(cells)
    accuracy = (p.argmax(1) == labels).mean()
    confidence = p.max(1).mean()
    assert abs(confidence - accuracy) <= 0.03, (confidence, accuracy)
    wrong = p.argmax(1) != labels
    if wrong.any():  # no near-certain wrong answers on average
        assert p.max(1)[wrong].mean() < 0.9, p.max(1)[wrong]


def test_heldout_glyphs_accuracy(rec: DigitRecognizer, sample: Sample) -> None:
    cells, labels = sample
    acc = (rec.probabilities(cells).argmax(1) == labels).mean()
    assert acc >= 0.95, acc


def test_normalize_cell_layout() -> None:
    cell = glyph_to_cell(default_glyphs()[1][0])
    x = normalize_cell(cell)
    assert x.shape == (28, 28) and x.dtype == np.float32
    assert x.min() >= 0.0 and x.max() <= 1.0
    ys, xs = np.nonzero(x > 0.1)
    assert ys.max() - ys.min() + 1 <= 21 and xs.max() - xs.min() + 1 <= 21
    assert ink_fraction(cell) > 0.005


def _font_digit(d: int, size_px: int) -> np.ndarray:
    font = ImageFont.truetype(str(FONT), 120)
    im = Image.new("L", (120, 160), 255)
    ImageDraw.Draw(im).text((20, 5), str(d), font=font, fill=20)
    return glyph_to_cell(np.asarray(im), W, H, height_fraction=size_px / H)


@pytest.mark.skipif(not FONT.exists(), reason="DejaVu Sans not installed")
def test_rendered_font_digits_at_several_sizes(rec: DigitRecognizer) -> None:
    cells, labels = [], []
    for size in (30, 42, 55):
        for d in range(10):
            cell = _font_digit(d, size)
            # Uneven light across the cell and a little noise.
            shade = np.linspace(0, 40, W)[None, :].astype(np.int16)
            cells.append(np.clip(cell.astype(np.int16) - shade, 0, 255).astype(np.uint8))
            labels.append(d)
    acc = (rec.probabilities(cells).argmax(1) == np.asarray(labels)).mean()
    assert acc >= 0.9, acc
    small = [cv2.resize(c, (W // 2, H // 2), interpolation=cv2.INTER_AREA) for c in cells[10:20]]
    assert (rec.probabilities(small).argmax(1) == np.arange(10)).mean() >= 0.9


def test_writer_adaptation_does_not_lower_accuracy(rec: DigitRecognizer) -> None:
    glyphs = default_glyphs()
    calib = {d: glyph_to_cell(glyphs[d][50]) for d in range(10)}
    cells = [glyph_to_cell(g) for d in range(10) for g in glyphs[d][60:80]]
    labels = np.repeat(np.arange(10), 20)
    adapt = WriterAdaptation.from_calibration(calib, rec)
    assert adapt.active
    p = adapt.probabilities(cells)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-5)
    base = (rec.probabilities(cells).argmax(1) == labels).mean()
    assert (p.argmax(1) == labels).mean() >= base


def test_writer_adaptation_falls_back_on_unusable_calibration(rec: DigitRecognizer) -> None:
    blank = np.full((H, W), 235, np.uint8)
    adapt = WriterAdaptation.from_calibration({d: blank for d in range(10)}, rec)
    assert not adapt.active
    cells = [glyph_to_cell(default_glyphs()[3][0])]
    np.testing.assert_allclose(adapt.probabilities(cells), rec.probabilities(cells), atol=1e-6)
    assert not WriterAdaptation.from_calibration({}, rec).active


def _pen(*strokes: list[tuple[float, float]], shift: tuple[float, float] = (0.0, 0.0)
         ) -> GreyImage:
    """A cell with pen strokes through points given in shares of its width and height."""
    cell = np.full((H, W), 240, np.uint8)
    for points in strokes:
        xy = (np.array(points) + shift) * [W, H]
        cv2.polylines(cell, [xy.astype(np.int32)], False, 20, 4, cv2.LINE_AA)
    return cell


def _flagged_one(dx: float = 0.0, dy: float = 0.0, flag: float = 0.46) -> GreyImage:
    """A 1 whose flag runs long from the top, as some hands write it: the general model
    reads it as a 7."""
    return _pen([(0.66 - flag, 0.24), (0.68, 0.16), (0.6, 0.84)], shift=(dx, dy))


def _barred_seven(dx: float = 0.0, dy: float = 0.0) -> GreyImage:
    return _pen([(0.28, 0.2), (0.72, 0.2), (0.42, 0.82)], [(0.35, 0.5), (0.68, 0.5)],
                shift=(dx, dy))


ONES = [_flagged_one(dx, dy, f) for dx, dy, f in
        [(0.04, 0.02, 0.44), (-0.05, 0.03, 0.48), (0.02, -0.03, 0.45), (-0.02, 0.0, 0.5)]]


def test_a_writers_own_style_of_a_digit_is_learnt_from_the_strip(rec: DigitRecognizer) -> None:
    """Issue 13, class 2 (one writer's misread repeated): the model reads this writer's 1
    as 7, their strip's 1 too; the strip's sample is their 1 all the same, and their 1s read
    as 1 after it (before, it was dropped and every 1 stayed a 7), their 7 as 7."""
    assert (rec.probabilities(ONES).argmax(1) == 7).all()
    glyphs = default_glyphs()
    strip = {d: glyph_to_cell(glyphs[d][50]) for d in range(10)}
    strip.update({1: _flagged_one(), 7: _barred_seven()})
    adapt = WriterAdaptation.from_calibration(strip, rec)
    assert [style[:2] for style in adapt.own_styles] == [(1, 7)]
    read = adapt.probabilities([*ONES, _barred_seven(0.03, 0.02)]).argmax(1)
    assert read.tolist() == [1, 1, 1, 1, 7]


def test_a_digit_written_in_the_wrong_box_of_the_strip_is_not_learnt(
        rec: DigitRecognizer) -> None:
    """A 7 written in the strip's 1 box (it looks like the writer's own 7) teaches nothing:
    the writer's 7s stay 7."""
    glyphs = default_glyphs()
    strip = {d: glyph_to_cell(glyphs[d][50]) for d in range(10)}
    strip.update({1: _barred_seven(0.02, 0.01), 7: _barred_seven()})
    adapt = WriterAdaptation.from_calibration(strip, rec)
    assert adapt.own_styles == () and 1 not in adapt.prototype_labels
    sevens = [_barred_seven(dx, dy) for dx, dy in [(0.03, 0.02), (-0.03, 0.0), (0.0, 0.03)]]
    assert (adapt.probabilities(sevens).argmax(1) == 7).all()


def test_a_strip_written_out_of_order_teaches_no_style(rec: DigitRecognizer) -> None:
    """Each digit a box off: every sample reads as another digit, and none is learnt."""
    glyphs = default_glyphs()
    strip = {d: glyph_to_cell(glyphs[(d + 1) % 10][50]) for d in range(10)}
    adapt = WriterAdaptation.from_calibration(strip, rec)
    assert adapt.own_styles == () and not adapt.active


def test_load_glyph_dir(tmp_path: Path) -> None:
    for d in (3, 7):
        (tmp_path / str(d)).mkdir()
        cv2.imwrite(str(tmp_path / str(d) / "a.png"), glyph_to_cell(default_glyphs()[d][0]))
    glyphs = load_glyph_dir(tmp_path)
    assert sorted(glyphs) == [3, 7] and glyphs[3][0].ndim == 2


def test_load_glyph_dir_errors(tmp_path: Path) -> None:
    with pytest.raises(GlyphDirError, match="does not exist"):
        load_glyph_dir(tmp_path / "missing")
    (tmp_path / "x").mkdir()
    with pytest.raises(GlyphDirError, match=str(tmp_path)):
        load_glyph_dir(tmp_path)
    (tmp_path / "x").rmdir()
    (tmp_path / "4").mkdir()
    (tmp_path / "4" / "bad.png").write_bytes(b"not a png")
    with pytest.raises(GlyphDirError, match="cannot read"):
        load_glyph_dir(tmp_path)
    (tmp_path / "4" / "bad.png").unlink()
    with pytest.raises(GlyphDirError, match="no images"):
        load_glyph_dir(tmp_path)
