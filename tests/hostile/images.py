"""Damaged and hostile image and PDF files, made at test time (no binaries in the repository).

Each maker writes one file into a folder and returns its path; :data:`BAD_FILES` lists them
by name, so a test can try every one and a mixed batch can hold them all.
"""

from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Callable
from functools import cache
from pathlib import Path

import cv2
import numpy as np


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + \
        struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


@cache
def _bomb_bytes(side: int) -> bytes:
    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    rows = (b"\x00" + b"\xff" * ((side + 7) // 8)) * 1000
    compressor = zlib.compressobj(9)
    body = b"".join(compressor.compress(rows) for _ in range(side // 1000)) + compressor.flush()
    return b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + _png_chunk(b"IDAT", body) + \
        _png_chunk(b"IEND", b"")


def png_bomb(folder: Path, side: int = 40_000) -> Path:
    """A 1-bit PNG of ``side`` x ``side`` white pixels: some 200 KB on disk."""
    path = folder / "bomb.png"
    path.write_bytes(_bomb_bytes(side))
    return path


def pdf_with_box(width_pt: float, height_pt: float, pages: int = 1) -> bytes:
    """A minimal valid PDF of empty pages with the media box given."""
    return pdf_with_boxes([(width_pt, height_pt)] * pages)


def pdf_with_boxes(boxes: list[tuple[float, float]]) -> bytes:
    """A minimal valid PDF of empty pages, one per media box (width, height in points)."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [" + b" ".join(f"{3 + i} 0 R".encode()
                                                       for i in range(len(boxes)))
               + f"] /Count {len(boxes)} >>".encode()]
    objects += [f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w} {h}] >>".encode()
                for w, h in boxes]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n" \
        .encode()
    return out


def _good_jpeg() -> bytes:
    ok, data = cv2.imencode(".jpg", np.full((300, 200, 3), 200, np.uint8))
    assert ok
    return bytes(data)


def _write(name: str, data: bytes) -> Callable[[Path], Path]:
    def make(folder: Path) -> Path:
        path = folder / name
        path.write_bytes(data)
        return path
    return make


def _fifo(folder: Path) -> Path:
    path = folder / "pipe.png"
    os.mkfifo(path)
    return path


def _dangling(folder: Path) -> Path:
    path = folder / "gone.jpg"
    path.symlink_to(folder / "nothing-here.jpg")
    return path


def _folder(folder: Path) -> Path:
    path = folder / "album.png"
    path.mkdir()
    return path


def _sparse(folder: Path) -> Path:
    """A JPEG's first bytes in a sparse file of 3 GiB (no disk used)."""
    path = folder / "huge.jpg"
    with path.open("wb") as file:
        file.write(_JPEG[:1024])
        file.truncate(3 * 1024**3)
    return path


def _thin(folder: Path) -> Path:
    path = folder / "thin.png"
    cv2.imwrite(str(path), np.full((1, 2000, 3), 255, np.uint8))
    return path


def _tiff_with_bad_page(folder: Path) -> Path:
    path = folder / "mixed.tif"
    cv2.imwritemulti(str(path), [np.full((200, 150, 3), 200, np.uint8),
                                 np.full((1, 150, 3), 200, np.uint8)])
    return path


_JPEG = _good_jpeg()
_FLIPPED = bytearray(_JPEG)
for _i in range(200, len(_FLIPPED) - 10, 7):
    _FLIPPED[_i] ^= 0xFF

BAD_FILES: dict[str, Callable[[Path], Path]] = {
    "bomb.png": png_bomb,
    "huge-page.pdf": _write("huge-page.pdf", pdf_with_box(14_400, 14_400)),
    "thin.png": _thin,
    "huge.jpg": _sparse,
    "many-pages.pdf": _write("many-pages.pdf", pdf_with_box(595, 842, pages=2001)),
    "thin-page.pdf": _write("thin-page.pdf", pdf_with_box(595, 0.1)),
    "pipe.png": _fifo,
    "gone.jpg": _dangling,
    "album.png": _folder,
    "empty.jpg": _write("empty.jpg", b""),
    "cut.jpg": _write("cut.jpg", _JPEG[: len(_JPEG) // 2]),
    "flipped.jpg": _write("flipped.jpg", bytes(_FLIPPED)),
    "text.png": _write("text.png", b"this is not an image\n" * 20),
    "cut.pdf": _write("cut.pdf", pdf_with_box(595, 842)[:120]),
    "garbage.pdf": _write("garbage.pdf", b"%PDF-1.4\n" + bytes(range(256)) * 8),
    "cut.tif": _write("cut.tif", b"II*\x00" + b"\x08\x00\x00\x00" + b"\x00" * 6),
}
"""Every kind of bad file, by name: each must be refused with one line naming it."""
