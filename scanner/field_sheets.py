"""Field sheets: the ink crops of a page's fields, packed into one JPEG a page.

People check a field by looking at its ink, so a scan keeps a crop of every field that is not
empty: in colour at :data:`~scanner.constants.CROP_PX_PER_MM`, turned upright for its writer
(``rotation_deg`` of :class:`forms.model.Box`), on the pixel grid a whole page warped at that
resolution would have. All the crops of a page go into one image,
``<sheet folder>/crops/page-<n>.jpg`` (a *field sheet*: one file a page, since creating a
file costs about as much as warping a crop), and a field's crop is named by that file and
its pixel rectangle in it, in W3C Media Fragments syntax
(``S-3F9A1C/crops/page-1.jpg#xywh=0,144,200,72``, :func:`scanner.results.crop_ref`).

Neighbouring fields of one group (a column's entries, the deal rows of a page) are warped as
one *block*, the smallest rectangle holding them, as long as that adds little blank paper
(:data:`~scanner.constants.BLOCK_MAX_BLANK_SHARE`); a field's crop is its own rectangle of the
block. Blocks are placed on a grid of :data:`~scanner.constants.ALIGN_PX` pixels, so no
block's JPEG blocks hold another's ink.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import cv2
import numpy as np

from scanner import constants as k
from scanner.arrays import Image
from scanner.image.register import RegisteredPage
from scanner.results import crop_ref

JPEG_QUALITY = [cv2.IMWRITE_JPEG_QUALITY, k.OUTPUT_JPEG_QUALITY]

Rect = tuple[int, int, int, int]
"""x0, y0, x1, y1 in pixels (x1, y1 excluded)."""

_TURNS = {90: cv2.ROTATE_90_COUNTERCLOCKWISE, 180: cv2.ROTATE_180,
          270: cv2.ROTATE_90_CLOCKWISE}


@dataclass(frozen=True)
class CropRequest:
    """A field to keep the ink of: where it lies on its page (millimetres, margin included),
    how its writer turned the sheet, and the group whose neighbouring fields may share a
    block (a column, the deal rows)."""

    key: str
    page: int
    rect_mm: tuple[float, float, float, float]
    rotation_deg: int
    group: str


@dataclass
class _Block:
    """Neighbouring fields warped together: their page, their writer's turn, the block's
    pixel rectangle on the crop grid, and each field's."""

    page: int
    rotation_deg: int
    rect: Rect
    members: list[tuple[str, Rect]] = field(default_factory=list)


def write_field_sheets(requests: Sequence[CropRequest], pages: Mapping[int, RegisteredPage],
                       folder: Path, out_dir: Path) -> dict[str, str]:
    """Write one field sheet per page with fields into ``folder/crops``; return each field's
    crop (:func:`scanner.results.crop_ref`, the path relative to ``out_dir``) by key."""
    blocks: dict[int, list[_Block]] = {}
    for block in _blocks(requests, pages):
        blocks.setdefault(block.page, []).append(block)
    crops: dict[str, str] = {}
    for page_index, page_blocks in sorted(blocks.items()):
        page = pages[page_index]
        images = [_warp_block(page, block) for block in page_blocks]
        places, width, height = _pack([(im.shape[1], im.shape[0]) for im in images])
        sheet = np.full((height, width, *images[0].shape[2:]), 255, images[0].dtype)
        path = folder / "crops" / f"page-{page_index + 1}.jpg"
        relative = path.relative_to(out_dir).as_posix()
        for block, image, (x, y) in zip(page_blocks, images, places, strict=True):
            sheet[y:y + image.shape[0], x:x + image.shape[1]] = image
            for key, rect in block.members:
                mx, my, mw, mh = _upright(block, rect)
                crops[key] = crop_ref(relative, (x + mx, y + my, mw, mh))
        cv2.imwrite(str(path), sheet, JPEG_QUALITY)
    return crops


def pixel_rect(page: RegisteredPage, rect_mm: tuple[float, float, float, float],
               px_per_mm: float = k.CROP_PX_PER_MM) -> Rect:
    """A field's rectangle (x, y, w, h, mm) on the grid of the whole page warped at
    ``px_per_mm`` (by default the crops'), cut to the page (at least one pixel)."""
    s = px_per_mm
    x, y, w, h = (round(v * s) for v in rect_mm)
    x0, y0 = max(x, 0), max(y, 0)
    x1 = max(min(x + w, round(page.page_w_mm * s)), x0 + 1)
    y1 = max(min(y + h, round(page.page_h_mm * s)), y0 + 1)
    return x0, y0, x1, y1


def _area(rect: Rect) -> int:
    return (rect[2] - rect[0]) * (rect[3] - rect[1])


def _blocks(requests: Iterable[CropRequest],
            pages: Mapping[int, RegisteredPage]) -> list[_Block]:
    """The requests gathered into blocks, in order: a field joins the last block of its
    group (same page and turn) when that adds little blank paper, else starts one."""
    blocks: list[_Block] = []
    last: dict[tuple[str, int, int], _Block] = {}
    for request in requests:
        rect = pixel_rect(pages[request.page], request.rect_mm)
        where = (request.group, request.page, request.rotation_deg)
        block = last.get(where)
        if block is not None:
            union = (min(block.rect[0], rect[0]), min(block.rect[1], rect[1]),
                     max(block.rect[2], rect[2]), max(block.rect[3], rect[3]))
            if _area(union) <= _area(block.rect) + (1 + k.BLOCK_MAX_BLANK_SHARE) * _area(rect):
                block.rect = union
                block.members.append((request.key, rect))
                continue
        block = _Block(request.page, request.rotation_deg, rect, [(request.key, rect)])
        last[where] = block
        blocks.append(block)
    return blocks


def _warp_block(page: RegisteredPage, block: _Block) -> Image:
    """A block's ink from the full image, upright for its writer."""
    s = k.CROP_PX_PER_MM
    x0, y0, x1, y1 = block.rect
    image = page.warp(x0 / s, y0 / s, (x1 - x0) / s, (y1 - y0) / s, s)
    if block.rotation_deg in _TURNS:
        image = cast(Image, cv2.rotate(image, _TURNS[block.rotation_deg]))
    return image


def _upright(block: _Block, rect: Rect) -> tuple[int, int, int, int]:
    """A member's rectangle (x, y, w, h) in its block's image turned upright."""
    x, y = rect[0] - block.rect[0], rect[1] - block.rect[1]
    w, h = rect[2] - rect[0], rect[3] - rect[1]
    bw, bh = block.rect[2] - block.rect[0], block.rect[3] - block.rect[1]
    if block.rotation_deg == 90:  # turned counter-clockwise: (x, y) -> (y, bw - 1 - x)
        return y, bw - x - w, h, w
    if block.rotation_deg == 180:
        return bw - x - w, bh - y - h, w, h
    if block.rotation_deg == 270:  # turned clockwise: (x, y) -> (bh - 1 - y, x)
        return bh - y - h, x, h, w
    return x, y, w, h


def _aligned(n: int) -> int:
    return -(-n // k.ALIGN_PX) * k.ALIGN_PX


def _pack(sizes: Sequence[tuple[int, int]]) -> tuple[list[tuple[int, int]], int, int]:
    """Places for images of these (width, height) on shelves, tallest first, each starting
    on the :data:`~scanner.constants.ALIGN_PX` grid; and the sheet's width and height. The
    shelves are as wide as the widest image or the side of a square of their total area,
    whichever is more."""
    total = sum(_aligned(w) * _aligned(h) for w, h in sizes)
    width = max(max(_aligned(w) for w, _ in sizes), _aligned(math.isqrt(total)))
    places = [(0, 0)] * len(sizes)
    x = y = shelf = 0
    for i in sorted(range(len(sizes)), key=lambda i: -sizes[i][1]):
        w, h = _aligned(sizes[i][0]), _aligned(sizes[i][1])
        if x + w > width:
            x, y, shelf = 0, y + shelf, 0
        places[i] = (x, y)
        x, shelf = x + w, max(shelf, h)
    return places, width, y + shelf
