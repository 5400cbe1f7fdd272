"""Fault injection into image and PDF loading: every damaged or hostile file is refused by
name, from its header, without decoding a bomb, hanging on a pipe or stopping the batch."""

from __future__ import annotations

import random
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.errors import ScanError, ScanFailure
from scanner.image.load import PageImage, expand_paths, iter_file, iter_pages
from scanner.pipeline import scan_paths
from tests.hostile.images import BAD_FILES, pdf_with_box, pdf_with_boxes

SAMPLE_PAGE = Path(__file__).parents[2] / "samples" / "scans" / "sochi-3-scan" / "page-0.jpg"


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_each_bad_file_is_refused_by_name(tmp_path: Path, name: str) -> None:
    path = BAD_FILES[name](tmp_path)
    start = time.perf_counter()
    results = list(iter_file(path))
    assert time.perf_counter() - start < 10
    errors = [r for r in results if isinstance(r, ScanError)]
    pages = [r for r in results if isinstance(r, PageImage)]
    if name == "flipped.jpg" and pages:  # JPEG decoders read damaged data as noise
        return
    assert len(errors) == 1 and not pages, results
    assert name in str(errors[0]) and "\n" not in str(errors[0])


def test_sizes_are_read_from_the_header(tmp_path: Path) -> None:
    bomb = str(next(iter_file(BAD_FILES["bomb.png"](tmp_path))))
    assert "more than 120000000 pixels" in bomb
    assert "14400" not in bomb
    huge = str(next(iter_file(BAD_FILES["huge-page.pdf"](tmp_path))))
    assert "60000 x 60000 pixels" in huge and "page 1" in huge
    thin = str(next(iter_file(BAD_FILES["thin.png"](tmp_path))))
    assert "too small to hold a sheet" in thin
    many = str(next(iter_file(BAD_FILES["many-pages.pdf"](tmp_path))))
    assert "2001 pages, more than 2000" in many
    huge = str(next(iter_file(BAD_FILES["huge.jpg"](tmp_path))))
    assert "3221225472 bytes, more than 2147483648" in huge


def test_a_bad_page_does_not_lose_the_others(tmp_path: Path) -> None:
    pdf = tmp_path / "three.pdf"
    pdf.write_bytes(pdf_with_boxes([(14_400, 842), (595, 842), (595, 842)]))
    kinds = [type(r).__name__ for r in iter_file(pdf)]
    assert kinds == ["UnreadableImage", "PageImage", "PageImage"]
    tiff = tmp_path / "mixed.tif"
    cv2.imwritemulti(str(tiff), [np.full((200, 150, 3), 200, np.uint8),
                                 np.full((1, 150, 3), 200, np.uint8),
                                 np.full((300, 150, 3), 90, np.uint8)])
    results = list(iter_file(tiff))
    assert [type(r).__name__ for r in results] == ["PageImage", "UnreadableImage", "PageImage"]
    assert "page 2" in str(results[1])
    assert isinstance(results[2], PageImage) and results[2].image.shape == (300, 150, 3)


def test_every_page_of_a_long_pdf_in_order(tmp_path: Path) -> None:
    pdf = tmp_path / "long.pdf"
    pdf.write_bytes(pdf_with_boxes([(14_400, 14_400) if i == 50 else (100, 100)
                                    for i in range(120)]))
    results = list(iter_file(pdf))
    assert [r.index_in_file for r in results if isinstance(r, PageImage)] == \
        [i for i in range(120) if i != 50]
    assert [str(r).split(": ")[0] for r in results if isinstance(r, ScanError)] == \
        [f"{pdf}, page 51"]


def test_pages_are_decoded_one_at_a_time(tmp_path: Path) -> None:
    pdf = tmp_path / "many.pdf"
    pdf.write_bytes(pdf_with_box(595, 842, pages=5))
    pages = iter_file(pdf)
    first = next(pages)
    assert isinstance(first, PageImage) and first.index_in_file == 0
    # the generator holds only the page it yielded: the rest are rendered when asked for
    assert [p.index_in_file for p in pages if isinstance(p, PageImage)] == [1, 2, 3, 4]


def test_a_folder_of_bad_files_names_each_once(tmp_path: Path) -> None:
    for make in BAD_FILES.values():
        make(tmp_path)
    names = {p.name for p in expand_paths([tmp_path])}
    assert names == set(BAD_FILES)
    results = list(iter_pages([tmp_path]))
    for name in BAD_FILES:
        if name != "flipped.jpg":
            assert sum(name in str(r) for r in results if isinstance(r, ScanError)) == 1, name


def _damaged(data: bytes, rng: random.Random) -> bytes:
    """A copy of ``data`` truncated, with bytes flipped, or with a block zeroed."""
    kind = rng.choice(("truncate", "flip", "zero"))
    out = bytearray(data)
    if kind == "truncate":
        return bytes(out[: rng.randrange(1, len(out))])
    if kind == "flip":
        for _ in range(rng.randrange(1, 40)):
            out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
        return bytes(out)
    start = rng.randrange(len(out))
    out[start:start + rng.randrange(1, 5000)] = b"\x00" * len(out[start:start + 5000])
    return bytes(out[: len(data)])


@pytest.mark.slow
def test_damaged_copies_of_a_real_page_never_crash_the_scan(tmp_path: Path) -> None:
    rng = random.Random(18)
    data = SAMPLE_PAGE.read_bytes()
    for index in range(12):
        (tmp_path / f"damaged-{index:02d}.jpg").write_bytes(_damaged(data, rng))
    outcomes = list(scan_paths([tmp_path], tmp_path / "out"))
    failures = [o for o in outcomes if isinstance(o, ScanFailure)]
    named = {f.source.split(",")[0] for f in failures}
    assert len(named) == len(failures)  # one line per file at most
    assert all("\n" not in f.message for f in failures)


def test_a_path_that_names_nothing_is_one_line_and_the_batch_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pulka.cli.main import main

    missing, pattern = tmp_path / "missing.jpg", str(tmp_path / "*.tif")
    results = list(iter_pages([missing, pattern, SAMPLE_PAGE]))
    assert [str(r) for r in results[:2]] == [
        f"{missing}: does not exist; check the path",
        f"{pattern}: does not exist; check the path"]
    assert isinstance(results[2], PageImage)
    assert main(["scan", str(missing), "--out", str(tmp_path / "out")]) == 3
    err = capsys.readouterr().err
    assert err.count(str(missing)) == 1 and "Traceback" not in err
