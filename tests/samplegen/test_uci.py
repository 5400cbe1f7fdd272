"""The UCI digits as glyphs: each specimen is a UCI digit of its label, dark ink on light
paper, enlarged from its 8 x 8 block, a seat's specimens drawn at random; the TRAINING part's
coarse digits, held-out MNIST reduced the same way."""

from __future__ import annotations

import random

import numpy as np
from sklearn.datasets import load_digits

from samplegen.glyphs import load_heldout_arrays
from samplegen.uci import GLYPH_PX, blocks_glyphs, coarse_blocks, uci_glyph, uci_glyphs


def test_each_specimen_is_a_uci_digit_of_its_label() -> None:
    data = load_digits()
    glyphs = uci_glyphs(random.Random(1), 3)
    assert sorted(glyphs) == list(range(10))
    for digit, specimens in glyphs.items():
        assert len(specimens) == 3
        of_label = {uci_glyph(b / 16.0).tobytes() for b in data.images[data.target == digit]}
        assert all(g.tobytes() in of_label for g in specimens)


def test_a_glyph_is_dark_strokes_on_white_paper() -> None:
    block = np.zeros((8, 8))
    block[1:7, 3:5] = 1.0  # a "1": one upright stroke two blocks wide
    glyph = uci_glyph(block)
    assert glyph.shape == (GLYPH_PX, GLYPH_PX) and glyph.dtype == np.uint8
    assert glyph[GLYPH_PX // 2, GLYPH_PX // 2] == 0
    assert glyph[GLYPH_PX // 2, 2] == 255 and glyph[2, GLYPH_PX // 2] == 255


def test_two_seats_draw_other_specimens() -> None:
    first, second = uci_glyphs(random.Random(1)), uci_glyphs(random.Random(2))
    assert any(a.tobytes() != b.tobytes()
               for d in range(10) for a, b in zip(first[d], second[d], strict=True))


def test_any_digit_is_reduced_to_blocks_as_the_uci_digits_were() -> None:
    glyph = np.full((40, 60), 255, np.uint8)
    glyph[5:35, 28:32] = 0  # a "1": 30 px high, 4 px wide, off the glyph's centre
    blocks = coarse_blocks(glyph)
    assert blocks.shape == (8, 8)
    assert set(np.unique(blocks * 16).tolist()) <= set(range(17))
    inked = np.flatnonzero(blocks.sum(axis=0))
    assert blocks[:, inked].sum(axis=1).min() > 0  # every row of its height, scaled to 32 px
    assert inked.tolist() == [3, 4]  # centred, its width in proportion
    assert not coarse_blocks(np.full((28, 28), 255, np.uint8)).any()


def test_the_coarse_training_digits_are_held_out_mnist_of_their_label_in_blocks() -> None:
    images, labels = load_heldout_arrays()
    glyphs = blocks_glyphs(random.Random(4), 2)
    for digit, specimens in glyphs.items():
        of_label = {uci_glyph(coarse_blocks(g)).tobytes() for g in images[labels == digit]}
        assert len(specimens) == 2 and all(g.tobytes() in of_label for g in specimens)
