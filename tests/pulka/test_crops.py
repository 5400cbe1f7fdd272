"""pulka.report.crops: a crop is its rectangle of a field sheet, or a whole older crop file."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from pulka.report.crops import crop_image


def _sheet(path: Path, colour: tuple[int, int, int]) -> None:
    """A 96 x 64 field sheet: white, with a 32 x 16 block of ``colour`` at (48, 32)."""
    pixels = np.full((64, 96, 3), 255, np.uint8)
    pixels[32:48, 48:80] = colour
    Image.fromarray(pixels).save(path, "PNG")


def test_a_rectangle_is_cut_and_no_rectangle_is_the_whole_file(tmp_path: Path) -> None:
    path = tmp_path / "page-1.png"
    _sheet(path, (200, 30, 10))
    crop = crop_image(path, (48, 32, 32, 16))
    assert crop.size == (32, 16) and (np.asarray(crop) == (200, 30, 10)).all()
    assert crop_image(path, None).size == (96, 64)


def test_a_rectangle_outside_the_image_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "page-1.png"
    _sheet(path, (0, 0, 0))
    with pytest.raises(ValueError, match="not inside"):
        crop_image(path, (80, 32, 32, 16))
    with pytest.raises(OSError):
        crop_image(tmp_path / "missing.png", (0, 0, 1, 1))


def test_a_sheet_written_again_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "page-1.png"
    _sheet(path, (10, 10, 10))
    assert crop_image(path, (48, 32, 1, 1)).getpixel((0, 0)) == (10, 10, 10)
    _sheet(path, (90, 90, 90))
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert crop_image(path, (48, 32, 1, 1)).getpixel((0, 0)) == (90, 90, 90)
