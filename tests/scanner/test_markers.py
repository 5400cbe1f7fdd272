"""The corner markers of a steep phone photo: each corner where the marker's edges cross, so
the lens is measured and the page's boxes land where the camera put them."""

from __future__ import annotations

import random
from pathlib import Path
from typing import cast

import cv2
import numpy as np
import pytest

from forms.layout import build_layout
from forms.render.raster import render_pages
from samplegen.capture import capture
from scanner.arrays import Doubles, Image
from scanner.image.lens import lens_is_significant
from scanner.image.load import PageImage
from scanner.image.register import register
from tests.scanner.synth import sheet_pdf
from tests.scanner.test_lens import DPI, _seen


def _steep_photo(seed: int) -> tuple[Image, Doubles, float]:
    """The triangle page taken by the steep-photo capture (tilted 10-30 degrees, a lens,
    blur, JPEG as saved): the image, its page-to-image homography and its lens."""
    rgb = next(render_pages(sheet_pdf(3), DPI, pages=[0]))
    shot = capture("phone-steep", rgb, DPI, random.Random(seed))
    barrel = next(step for step in shot.steps if step["name"] == "lens")["barrel"]
    _, jpeg = cv2.imencode(".jpg", cv2.cvtColor(shot.image, cv2.COLOR_RGB2BGR),
                           [cv2.IMWRITE_JPEG_QUALITY, shot.jpeg_quality or 90])
    image = cast(Image, cv2.imdecode(jpeg, cv2.IMREAD_COLOR))
    return image, shot.page_to_image, float(barrel)


@pytest.mark.parametrize("seed", [4, 7, 8])
def test_a_steep_photos_boxes_land_within_a_fifth_of_a_millimetre(seed: int) -> None:
    image, page_to_image, barrel = _steep_photo(seed)
    reg = register(PageImage(Path("steep.jpg"), 0, image))
    boxes = build_layout(3).boxes_for(0)
    centres = np.array([(b.x_mm + b.w_mm / 2, b.y_mm + b.h_mm / 2) for b in boxes])
    truth = _seen(page_to_image, barrel, image.shape, centres)
    error_mm = np.linalg.norm(reg.to_image(centres) - truth, axis=1) / reg.px_per_mm
    assert reg.barrel == pytest.approx(barrel, abs=0.006)
    assert error_mm.max() < 0.25


def test_the_lens_is_kept_when_it_takes_far_more_than_noise_would() -> None:
    # four markers (16 corners): a term that halves the error of noisy corners is real; one
    # that takes a tenth of a scan's tiny error is noise, and so is one that makes it worse
    assert lens_is_significant(2.0, 1.0, 16)
    assert not lens_is_significant(0.12, 0.11, 16)
    assert not lens_is_significant(1.0, 1.2, 16)
    assert not lens_is_significant(2.0, 1.0, 4)  # one marker: nothing left to test it on
