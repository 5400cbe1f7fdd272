"""Stage 1, load: expand paths into files and files into page images, one page at a time.

Accepts JPEG, PNG, TIFF (multi-page) and PDF (multi-page), told apart by their first bytes,
not their names. Each page becomes a :class:`PageImage` (BGR ``uint8``); EXIF orientation is
ignored because the markers tell the page's rotation. Every size is read from the file's
header and checked against :mod:`scoring.limits` before a pixel is decoded; the pages of a
PDF or TIFF are decoded and released one at a time (:func:`iter_file`), so memory stays flat
in the page count. A truncated JPEG or PNG is refused rather than read half grey; a pipe, a
device, a folder or a dangling link is refused by name without being opened.
"""

from __future__ import annotations

import glob
import logging
import stat
import time
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import cast

import cv2
import numpy as np
from PIL import Image as PILImage

from scanner.arrays import Image
from scanner.constants import PDF_RENDER_DPI
from scanner.errors import NotAnImage, ScanError, UnreadableImage
from scanner.words import said
from scoring.limits import MAX_FILE_BYTES, MAX_PAGE_PIXELS, MAX_PAGES_PER_FILE, MIN_PAGE_SIDE_PX

log = logging.getLogger(__name__)

RASTER_SUFFIXES = (".jpg", ".jpeg", ".png", ".tif", ".tiff")
"""Suffixes of the raster image files read (OpenCV decodes them)."""
IMAGE_SUFFIXES = (*RASTER_SUFFIXES, ".pdf")
"""Suffixes picked up when a folder is given (other files in it are skipped)."""
POINTS_PER_INCH = 72.0
"""A PDF page's size is in points."""
PDF_REOPEN_PAGES = 50
"""A PDF is opened again after this many pages: PDFium keeps data of every page it rendered
until its document is closed."""


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
        return said("file_page", file=str(self.source), page=self.index_in_file + 1)


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Return the files named by ``paths``: files as given, the entries of folders and their
    subfolders named like images (sorted), globs.

    An entry named like an image that is not a regular file (a pipe, a device, a dangling
    link, a folder, whose images are read as well) is kept, for :func:`iter_file` to refuse
    by name. A path that names nothing raises
    :class:`NotAnImage` naming it.
    """
    files: list[Path] = []
    for item in paths:
        path = Path(item)
        if path.is_dir():
            files += sorted(p for p in path.rglob("*")
                            if p.suffix.lower() in IMAGE_SUFFIXES)
        elif any(ch in str(item) for ch in "*?[") and not path.exists():
            matches = glob.glob(str(item))  # noqa: PTH207 - the pattern may be absolute
            files += sorted(Path(p) for p in matches if not Path(p).is_dir()) or [path]
        else:
            files.append(path)
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


def iter_file(path: str | Path) -> Iterator[PageImage | ScanError]:
    """Yield each page of one file as it is decoded, or the error of a page (the next pages
    follow) or of the whole file (nothing follows); each error names the file and page."""
    path = Path(path)
    try:
        kind = _open_kind(path)
        if kind == "pdf":
            yield from _pdf_pages(path)
        elif kind == "tiff":
            yield from _tiff_pages(path)
        else:
            yield _single_page(path, kind)
    except ScanError as error:
        yield error


def load_file(path: str | Path) -> list[PageImage]:
    """Decode every page of one file; raises the first :class:`ScanError` (naming the file)."""
    pages = []
    for page in iter_file(path):
        if isinstance(page, ScanError):
            raise page
        pages.append(page)
    return pages


def iter_pages(paths: Iterable[str | Path]) -> Iterator[PageImage | ScanError]:
    """Yield each page of each file, or the error that stopped a page or file; the batch
    goes on."""
    for path in expand_paths(paths):
        for page in iter_file(path):
            if isinstance(page, ScanError):
                log.warning("%s", page)
            yield page


def _open_kind(path: Path) -> str:
    """The file's format from its first bytes, after checking it is a regular file of a
    size :mod:`scoring.limits` allows."""
    try:
        info = path.stat()
    except FileNotFoundError:
        if path.is_symlink():
            raise NotAnImage(said("dangling_link"), path, advice=said("fix_link")) from None
        raise NotAnImage(said("no_such_file"), path, advice=said("check_path")) from None
    except OSError as error:
        raise UnreadableImage(said("cannot_read", error=error.strerror), path) from None
    if stat.S_ISDIR(info.st_mode):
        raise NotAnImage(said("folder"), path, advice=said("rename"))
    if not stat.S_ISREG(info.st_mode):
        raise NotAnImage(said("not_regular"), path, advice=said("leave_out"))
    if info.st_size == 0:
        raise UnreadableImage(said("empty_file"), path)
    if info.st_size > MAX_FILE_BYTES:
        raise UnreadableImage(said("file_too_big", size=info.st_size, limit=MAX_FILE_BYTES),
                              path, advice=said("split"))
    try:
        with path.open("rb") as file:
            head = file.read(1024)
    except OSError as error:
        raise UnreadableImage(said("cannot_read", error=error.strerror), path) from None
    kind = sniff(head)
    if kind is None:
        raise NotAnImage(said("not_image"), path)
    return kind


def _check_pixels(path: Path, index: int, width: float, height: float) -> None:
    """Refuse a page too large to decode or too small to hold a sheet, from its size."""
    if width * height > MAX_PAGE_PIXELS:
        raise UnreadableImage(said("page_too_big", width=round(width), height=round(height),
                                   limit=MAX_PAGE_PIXELS), path, index, advice=said("at_300"))
    if min(width, height) < MIN_PAGE_SIDE_PX:
        raise UnreadableImage(said("page_too_small", width=round(width), height=round(height),
                                   limit=MIN_PAGE_SIDE_PX), path, index,
                              advice=said("whole_at_300"))


def _pil_open(source: Path | BytesIO, path: Path) -> PILImage.Image:
    """Open an image lazily (the header only); a size beyond Pillow's own bomb limit is
    refused as too large, without changing Pillow's process-wide settings."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PILImage.DecompressionBombWarning)
            return PILImage.open(source)
    except PILImage.DecompressionBombError:
        raise UnreadableImage(said("image_too_big", limit=MAX_PAGE_PIXELS), path,
                              advice=said("at_300")) from None
    except (OSError, ValueError, SyntaxError) as error:
        raise UnreadableImage(said("bad_header", error=str(error)), path) from None


def _dpi_of(image: PILImage.Image) -> float | None:
    dpi = image.info.get("dpi")
    try:
        value = float(dpi[0]) if dpi else 0.0
    except (TypeError, ValueError, IndexError):
        return None
    return value if value > 1.0 else None


def _single_page(path: Path, kind: str) -> PageImage:
    """A JPEG or PNG: header checked, then decoded by OpenCV."""
    data = path.read_bytes()
    tail = data[-4096:].rstrip(b"\x00\r\n ")
    if kind == "jpeg" and not tail.endswith(b"\xff\xd9"):
        raise UnreadableImage(said("jpeg_truncated"), path)
    if kind == "png" and b"IEND" not in tail[-16:]:
        raise UnreadableImage(said("png_truncated"), path)
    with _pil_open(BytesIO(data), path) as header:
        _check_pixels(path, 0, *header.size)
        dpi = _dpi_of(header)
    start = time.perf_counter()
    flags = cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION
    try:
        image = cast(Image | None, cv2.imdecode(np.frombuffer(data, np.uint8), flags))
    except cv2.error:
        image = None
    if image is None or image.size == 0:
        raise UnreadableImage(said("corrupt"), path)
    return PageImage(path, 0, image, dpi, time.perf_counter() - start)


def _tiff_pages(path: Path) -> Iterator[PageImage | ScanError]:
    """The pages of a TIFF, each size checked from its header, decoded one at a time."""
    with _pil_open(path, path) as tiff:
        count = _page_count(path, getattr(tiff, "n_frames", 1))
        dpi = _dpi_of(tiff)
        for index in range(count):
            start = time.perf_counter()
            try:
                tiff.seek(index)
                _check_pixels(path, index, *tiff.size)
                rgb = np.asarray(tiff.convert("RGB"))
            except ScanError as error:
                yield error
                continue
            except (OSError, ValueError, EOFError, SyntaxError) as error:
                yield UnreadableImage(said("tiff_page", error=str(error)), path, index)
                continue
            image = cast(Image, cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
            del rgb
            yield PageImage(path, index, image, dpi, time.perf_counter() - start)


def _page_count(path: Path, count: int) -> int:
    if count > MAX_PAGES_PER_FILE:
        raise UnreadableImage(said("too_many_pages", count=count, limit=MAX_PAGES_PER_FILE),
                              path, advice=said("split"))
    if count < 1:
        raise UnreadableImage(said("no_pages"), path)
    return count


def _pdf_pages(path: Path) -> Iterator[PageImage | ScanError]:
    """The pages of a PDF, each size checked from its media box, rendered one at a time at
    :data:`~scanner.constants.PDF_RENDER_DPI` and released before the next; the document is
    opened again every :data:`PDF_REOPEN_PAGES` pages, which frees what PDFium keeps of the
    pages it rendered."""
    import pypdfium2 as pdfium

    start, count = 0, 1
    while start < count:
        try:
            doc = pdfium.PdfDocument(str(path))
        except pdfium.PdfiumError as error:
            raise UnreadableImage(said("pdf_unopened", error=str(error)), path) from None
        try:
            count = _page_count(path, len(doc))
            for index in range(start, min(start + PDF_REOPEN_PAGES, count)):
                try:
                    yield _pdf_page(doc, path, index)
                except ScanError as error:
                    yield error
        finally:
            doc.close()
        start += PDF_REOPEN_PAGES


def _pdf_page(doc: object, path: Path, index: int) -> PageImage:
    import pypdfium2 as pdfium

    start = time.perf_counter()
    scale = PDF_RENDER_DPI / POINTS_PER_INCH
    try:
        page = cast(pdfium.PdfDocument, doc)[index]
    except pdfium.PdfiumError as error:
        raise UnreadableImage(said("page_unread", error=str(error)), path, index) from None
    try:
        width_pt, height_pt = page.get_size()
        _check_pixels(path, index, width_pt * scale, height_pt * scale)
        bitmap = page.render(scale=scale)
        array = bitmap.to_numpy()
        # pypdfium2 renders colour pages as BGR(A), which is what OpenCV wants
        image = np.ascontiguousarray(array[:, :, :3]) if array.ndim == 3 else \
            cv2.cvtColor(array, cv2.COLOR_GRAY2BGR)
        del array
        bitmap.close()
    except pdfium.PdfiumError as error:
        raise UnreadableImage(said("page_unrendered", error=str(error)), path, index) from None
    finally:
        page.close()
    return PageImage(path, index, cast(Image, image), PDF_RENDER_DPI,
                     time.perf_counter() - start)
