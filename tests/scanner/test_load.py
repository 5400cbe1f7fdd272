"""Loading: formats, folders, globs, and one clear error per bad file."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.errors import NotAnImage, UnreadableImage
from scanner.image.load import expand_paths, iter_pages, load_file
from tests.scanner.synth import page_bgr, sheet_pdf


def test_formats_and_pages(tmp_path: Path) -> None:
    page = page_bgr(3, 1)
    small = cv2.resize(page, None, fx=0.3, fy=0.3)
    cv2.imwrite(str(tmp_path / "a.jpg"), small)
    cv2.imwrite(str(tmp_path / "b.png"), small)
    cv2.imwritemulti(str(tmp_path / "c.tif"), [small, small])
    (tmp_path / "d.pdf").write_bytes(sheet_pdf(3))
    (tmp_path / "notes.txt").write_text("hello")
    files = expand_paths([tmp_path])
    assert [f.name for f in files] == ["a.jpg", "b.png", "c.tif", "d.pdf"]
    counts = {f.name: len(load_file(f)) for f in files}
    assert counts == {"a.jpg": 1, "b.png": 1, "c.tif": 2, "d.pdf": 3}
    pdf_page = load_file(tmp_path / "d.pdf")[1]
    assert pdf_page.image.shape == page.shape and pdf_page.dpi_hint == 300
    assert np.abs(pdf_page.image.astype(int) - page.astype(int)).mean() < 1.0  # BGR order
    assert len(expand_paths([str(tmp_path / "*.png")])) == 1


def test_bad_files_each_say_why(tmp_path: Path) -> None:
    ok = tmp_path / "ok.jpg"
    cv2.imwrite(str(ok), np.full((100, 80, 3), 200, np.uint8))
    data = ok.read_bytes()
    (tmp_path / "cut.jpg").write_bytes(data[: len(data) // 2])
    (tmp_path / "text.png").write_text("not an image")
    (tmp_path / "bad.pdf").write_bytes(b"%PDF-1.4\n garbage")
    with pytest.raises(UnreadableImage, match="cut.jpg.*truncated"):
        load_file(tmp_path / "cut.jpg")
    with pytest.raises(NotAnImage, match="text.png"):
        load_file(tmp_path / "text.png")
    with pytest.raises(UnreadableImage, match="bad.pdf"):
        load_file(tmp_path / "bad.pdf")
    with pytest.raises(NotAnImage, match="missing.jpg: does not exist"):
        load_file(expand_paths([tmp_path / "missing.jpg"])[0])
    results = list(iter_pages(sorted(tmp_path.iterdir())))
    assert sum(isinstance(r, Exception) for r in results) == 3
    assert sum(not isinstance(r, Exception) for r in results) == 1
