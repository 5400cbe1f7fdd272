"""The tesseract wrapper: version probe, printed sheet id, batched digits."""

from __future__ import annotations

from pathlib import Path

import pytest

from samplegen.glyphs import default_glyphs, glyph_to_cell
from scanner.image.identify import read_printed_id
from scanner.image.load import PageImage
from scanner.image.register import register
from scanner.tesseract import read_digits, tesseract_version
from tests.scanner.synth import page_bgr

pytestmark = pytest.mark.tesseract


def test_version() -> None:
    assert tesseract_version() >= (4, 0)


def test_printed_sheet_id() -> None:
    reg = register(PageImage(Path("d.png"), 0, page_bgr(3, 1)))
    assert read_printed_id(reg) == "R2-T07-ABC3EF"


def test_digits_batched_align_with_cells() -> None:
    g = default_glyphs()
    crops = [glyph_to_cell(g[d][0]) for d in range(10)]
    out = read_digits(crops)
    assert len(out) == 10 and all(s == "" or s.isdigit() for s in out)
