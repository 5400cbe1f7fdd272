"""Stage 1, load: expand paths into files and files into page images.

Accepts JPEG, PNG, TIFF (multi-page) and PDF (multi-page), told apart by their first bytes,
not their names. Each page becomes a :class:`PageImage` (BGR ``uint8``); EXIF orientation is
ignored because the markers tell the page's rotation. A truncated JPEG or PNG is refused
rather than read half grey.
"""

from __future__ import annotations

import glob
import logging
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import cv2
import numpy as np

from scanner.arrays import Image
from scanner.constants import MAX_IMAGE_PIXELS, PDF_RENDER_DPI
from scanner.errors import NotAnImage, ScanError, UnreadableImage

log = logging.getLogger(__name__)

RASTER_SUFFIXES = (".jpg", ".jpeg", ".png", ".tif", ".tiff")
"""Suffixes of the raster image files read (OpenCV decodes them)."""
IMAGE_SUFFIXES = (*RASTER_SUFFIXES, ".pdf")
"""Suffixes picked up when a folder is given (other files in it are skipped)."""


@dataclass(frozen=True)
class PageImage:
    """One page of one input file."""

    source: Path
    index_in_file: int
    image: Image = field(compare=False, hash=False, repr=False)
    """BGR ``uint8``, as decoded."""
    dpi_hint: float | None = None
    """Resolution the file claims (PDF: the rendering dpi), if any."""
    decode_s: float = field(default=0.0, compare=False)
    """Seconds spent decoding this page."""

    @property
    def label(self) -> str:
        """``file`` or ``file, page N`` for messages."""
        return f"{self.source}, page {self.index_in_file + 1}"


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Return the files named by ``paths``: files as given, the images in folders and their
    subfolders (sorted), globs.

    A path that names nothing raises :class:`NotAnImage` naming it.
    """
    files: list[Path] = []
    for item in paths:
        path = Path(item)
        if path.is_dir():
            files += sorted(p for p in path.rglob("*")
                            if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
        elif path.is_file():
            files.append(path)
        elif any(ch in str(item) for ch in "*?["):
            files += sorted(Path(p) for p in glob.glob(str(item)) if Path(p).is_file())
        else:
            raise NotAnImage("no such file or folder", path, advice="check the path")
    return files


def sniff(head: bytes) -> str | None:
    """Return ``jpeg``, ``png``, ``tiff`` or ``pdf`` from a file's first bytes, else None."""
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return "tiff"
    if b"%PDF-" in head[:1024]:
        return "pdf"
    return None


def load_file(path: str | Path) -> list[PageImage]:
    """Decode every page of one file; raises a :class:`ScanError` naming the file."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UnreadableImage(f"cannot read the file ({error.strerror})", path) from None
    kind = sniff(data[:1024])
    if kind is None:
        raise NotAnImage("is not a JPEG, PNG, TIFF or PDF file", path)
    if kind == "pdf":
        return _load_pdf(path, data)
    if kind == "tiff":
        return _load_tiff(path, data)
    _check_complete(path, kind, data)
    return [_decode_single(path, data)]


def iter_pages(paths: Iterable[str | Path]) -> Iterator[PageImage | ScanError]:
    """Yield each page of each file, or the error that stopped a file; the batch goes on."""
    for path in expand_paths(paths):
        try:
            pages = load_file(path)
        except ScanError as error:
            log.warning("%s", error)
            yield error
            continue
        yield from pages


def _check_complete(path: Path, kind: str, data: bytes) -> None:
    tail = data[-4096:].rstrip(b"\x00\r\n ")
    if kind == "jpeg" and not tail.endswith(b"\xff\xd9"):
        raise UnreadableImage("the JPEG file is truncated (no end-of-image marker)", path)
    if kind == "png" and b"IEND" not in tail[-16:]:
        raise UnreadableImage("the PNG file is truncated (no IEND chunk)", path)


def _timed_decode(data: bytes) -> tuple[Image | None, float]:
    import time

    start = time.perf_counter()
    flags = cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION
    image = cast(Image | None, cv2.imdecode(np.frombuffer(data, np.uint8), flags))
    return image, time.perf_counter() - start


def _dpi_of(data: bytes) -> float | None:
    from io import BytesIO

    from PIL import Image

    try:
        with Image.open(BytesIO(data)) as im:
            dpi = im.info.get("dpi")
    except Exception:  # noqa: BLE001 - the hint is optional
        return None
    if not dpi:
        return None
    value = float(dpi[0])
    return value if value > 1.0 else None


def _decode_single(path: Path, data: bytes) -> PageImage:
    image, seconds = _timed_decode(data)
    if image is None or image.size == 0:
        raise UnreadableImage("the image cannot be decoded (corrupt file)", path)
    _check_size(path, 0, image)
    return PageImage(path, 0, image, _dpi_of(data), seconds)


def _check_size(path: Path, index: int, image: Image) -> None:
    if image.shape[0] * image.shape[1] > MAX_IMAGE_PIXELS:
        raise UnreadableImage(f"the image is {image.shape[1]} x {image.shape[0]} pixels, more "
                              f"than {MAX_IMAGE_PIXELS} pixels", path, index,
                              advice="scan at 300 dpi")


def _load_tiff(path: Path, data: bytes) -> list[PageImage]:
    import time

    start = time.perf_counter()
    flags = cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION
    ok, images = cv2.imdecodemulti(np.frombuffer(data, np.uint8), flags)
    seconds = time.perf_counter() - start
    if not ok or not images:
        raise UnreadableImage("the TIFF file cannot be decoded (corrupt or truncated)", path)
    dpi = _dpi_of(data)
    pages = []
    for index, image in enumerate(cast(Sequence[Image], images)):
        _check_size(path, index, image)
        pages.append(PageImage(path, index, image, dpi, seconds / len(images)))
    return pages


def _load_pdf(path: Path, data: bytes) -> list[PageImage]:
    import time

    import pypdfium2 as pdfium

    try:
        doc = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        raise UnreadableImage(f"the PDF cannot be opened ({error})", path) from None
    pages: list[PageImage] = []
    try:
        if len(doc) == 0:
            raise UnreadableImage("the PDF has no pages", path)
        for index in range(len(doc)):
            start = time.perf_counter()
            try:
                page = doc[index]
                bitmap = page.render(scale=PDF_RENDER_DPI / 72)
                array = bitmap.to_numpy()
            except pdfium.PdfiumError as error:
                raise UnreadableImage(f"the page cannot be rendered ({error})", path,
                                      index) from None
            # pypdfium2 renders colour pages as BGR(A), which is what OpenCV wants
            image = np.ascontiguousarray(array[:, :, :3]) if array.ndim == 3 else \
                cv2.cvtColor(array, cv2.COLOR_GRAY2BGR)
            bitmap.close()
            page.close()
            pages.append(PageImage(path, index, image, PDF_RENDER_DPI,
                                   time.perf_counter() - start))
    finally:
        doc.close()
    return pages
