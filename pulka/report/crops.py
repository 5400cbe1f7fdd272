"""A field's ink crop as a picture, for reports and the review page.

A scan names a field's crop as an image path with, since field sheets
(:mod:`scanner.field_sheets`), a pixel rectangle of it: ``S1/crops/page-1.jpg#xywh=0,144,200,72``
(:func:`scanner.results.split_crop`); an older scan names a file of the field's own, the
whole of which is the crop. A field sheet holds every crop of its page, so the last few read
are kept decoded (:data:`DECODED_SHEETS`): a report or a reviewer going through a sheet's
fields decodes each sheet once.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path
from typing import Any

DECODED_SHEETS = 6
"""Images kept decoded, newest first (a page's field sheet: 1-3 Mpx, 3-9 MiB)."""
JPEG_QUALITY = 95
"""A crop cut from a field sheet is sent again as JPEG at this quality (the field sheet's
own is 90): near the sheet's pixels, a tenth of the bytes of a PNG of a photo."""


def crop_image(path: Path, rect: tuple[int, int, int, int] | None) -> Any:
    """The crop as an RGB PIL image: the image at ``path`` cut to ``rect`` (x, y, w, h
    pixels), or all of it when ``rect`` is None. Raises ``OSError`` when the file cannot be
    read, ``ValueError`` when ``rect`` is not inside it."""
    stat = path.stat()
    image = _decoded(path, stat.st_mtime_ns, stat.st_size)
    if rect is None:
        return image.copy()
    x, y, w, h = rect
    if x + w > image.width or y + h > image.height:
        raise ValueError(f"{path}: the crop {w}x{h} at ({x}, {y}) is not inside its "
                         f"{image.width}x{image.height} image")
    return image.crop((x, y, x + w, y + h))


def is_wide(image: bytes, ratio: float) -> bool:
    """Whether an encoded image (PNG, JPEG) is at least ``ratio`` times wider than tall.

    >>> from PIL import Image
    >>> buffer = io.BytesIO()
    >>> Image.new("L", (800, 60)).save(buffer, "PNG")
    >>> is_wide(buffer.getvalue(), 4.0), is_wide(buffer.getvalue(), 20.0)
    (True, False)
    """
    from PIL import Image

    with Image.open(io.BytesIO(image)) as opened:
        width, height = opened.size
    return width >= ratio * max(1, height)


def crop_jpeg(path: Path, rect: tuple[int, int, int, int]) -> bytes:
    """The crop's JPEG bytes (:func:`crop_image`, at :data:`JPEG_QUALITY`)."""
    buffer = io.BytesIO()
    crop_image(path, rect).save(buffer, "JPEG", quality=JPEG_QUALITY)
    return buffer.getvalue()


@lru_cache(maxsize=DECODED_SHEETS)
def _decoded(path: Path, mtime_ns: int, size: int) -> Any:
    """The image at ``path``, decoded to RGB; its time and size key the cache, so an image
    written again is read again."""
    from PIL import Image

    with Image.open(path) as image:
        return image.convert("RGB")
