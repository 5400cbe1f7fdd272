"""scanner.field_sheets: every field's crop is a rectangle of its page's field sheet, holding
that field's ink as a crop warped on its own would; the crop fragments parse back."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from forms.layout import layout_by_id
from scanner.constants import ALIGN_PX, CROP_PX_PER_MM
from scanner.field_sheets import _blocks, _pack, _upright, _warp_block
from scanner.image.identify import identify
from scanner.image.load import load_file
from scanner.image.register import register
from scanner.output import crop_plan
from scanner.pipeline import scan_paths
from scanner.results import SheetScan, crop_ref, split_crop

SAMPLES = Path(__file__).parents[2] / "samples" / "scans"
TURN_BACK = {90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180,
             270: cv2.ROTATE_90_COUNTERCLOCKWISE}


@pytest.fixture(scope="module")
def scans(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[SheetScan, Path]]:
    """The flatbed scan (3 players) and the photo (4 players: writers on every side, a view
    in perspective), scanned."""
    out = tmp_path_factory.mktemp("scans")
    found = [s for s in scan_paths([SAMPLES / "sochi-3-scan", SAMPLES / "leningrad-4-photo"],
                                   out) if isinstance(s, SheetScan)]
    assert len(found) == 2
    return [(scan, out) for scan in found]


def test_each_crop_shows_its_field_on_the_straightened_page(
        scans: list[tuple[SheetScan, Path]]) -> None:
    """A field's crop, cut by its fragment and turned back as printed, is its part of the
    straightened page (at the page's resolution, in grey levels), and a written field's crop
    in a field sheet holds ink (in its red channel, where the drop-out print is light)."""
    for scan, out in scans:
        plan = crop_plan(layout_by_id(scan.layout_id))
        turns = {r.key: r.rotation_deg for rs in plan.entries.values() for r in rs}
        pages = {p.index: cv2.imread(str(out / p.image), cv2.IMREAD_UNCHANGED)
                 for p in scan.pages}
        assert all(page.ndim == 2 for page in pages.values())  # the pages are grey
        images = {p.index: p.image for p in scan.pages}
        sheets: dict[str, np.ndarray] = {}
        written = rows_from_pages = 0
        for field in scan.fields:
            assert field.crop is not None
            name, rect = split_crop(field.crop)
            # a deal row read with confidence is cut from its straightened page
            from_page = field.kind == "row" and field.status == "read"
            assert rect is not None and name == (
                images[field.page] if from_page
                else f"{scan.sheet_id}/crops/page-{field.page + 1}.jpg")
            rows_from_pages += from_page
            if name not in sheets:
                sheets[name] = cv2.imread(str(out / name))
            x, y, w, h = rect
            crop = sheets[name][y:y + h, x:x + w]
            assert crop.shape[:2] == (h, w)
            turn = turns.get(field.key, 0)
            if turn:
                crop = cv2.rotate(crop, TURN_BACK[turn])
            page = pages[field.page]
            scale = page.shape[1] / layout_by_id(scan.layout_id).pages[field.page].w_mm
            grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
            difference, correlation = _match(grey, page, field.rect_mm, scale)
            assert difference < 14, field.key
            assert correlation is None or correlation > 0.7, field.key
            if not from_page and field.status == "read" and field.value not in (None, 0):
                written += 1
                assert (crop[:, :, 2] < 190).sum() > 40, f"{field.key}: no ink in its crop"
        assert written > 20 and rows_from_pages > 5


def _match(crop: np.ndarray, page: np.ndarray, rect_mm: tuple[float, float, float, float],
           scale: float) -> tuple[float, float | None]:
    """How well a crop, brought to the page image's scale, matches the page where its field
    lies: the least mean absolute difference over shifts of up to a page pixel (the two
    grids are rounded apart), and the correlation there (None where the page is blank)."""
    x, y, w, h = (round(v * scale) for v in rect_mm)
    small = cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA).astype(float)
    best: tuple[float, float | None] = (np.inf, None)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            region = page[max(y + dy, 0):y + dy + h, max(x + dx, 0):x + dx + w].astype(float)
            if region.shape != small.shape:
                continue
            difference = float(np.abs(small - region).mean())
            if difference < best[0]:
                blank = region.std() < 20
                best = (difference,
                        None if blank else float(np.corrcoef(small.ravel(), region.ravel())[0, 1]))
    return best


@pytest.mark.parametrize("sample", ["sochi-3-scan", "leningrad-4-photo"])
def test_a_block_holds_what_each_field_warped_alone_would(sample: str) -> None:
    """Cut from its block, a field's crop is the crop warped on its own (up to OpenCV's
    1/32-pixel sampling grid): for every turn, flat and in perspective."""
    pages = [identify(register(p)) for p in load_file(SAMPLES / sample / "page-0.jpg")]
    page = pages[0].page
    assert pages[0].layout is not None
    plan = crop_plan(pages[0].layout)
    requests = [r for rs in plan.entries.values() for r in rs[:4] if r.page == page.page_index]
    assert {r.rotation_deg for r in requests} >= {90, 180, 270}
    blocks = _blocks(requests, {page.page_index: page})
    assert len(blocks) < len(requests)
    s = CROP_PX_PER_MM
    for block in blocks:
        image = _warp_block(page, block)
        for key, (x0, y0, x1, y1) in block.members:
            x, y, w, h = _upright(block, (x0, y0, x1, y1))
            alone = page.warp(x0 / s, y0 / s, (x1 - x0) / s, (y1 - y0) / s, s)
            if block.rotation_deg:
                alone = cv2.rotate(alone, {90: cv2.ROTATE_90_COUNTERCLOCKWISE,
                                           180: cv2.ROTATE_180,
                                           270: cv2.ROTATE_90_CLOCKWISE}[block.rotation_deg])
            cut = image[y:y + h, x:x + w]
            assert cut.shape == alone.shape, key
            difference = np.abs(cut.astype(int) - alone)
            assert difference.max() <= 16 and (difference > 0).mean() < 0.02, key


def test_packed_blocks_neither_overlap_nor_leave_the_sheet() -> None:
    rng = random.Random(5)
    sizes = [(rng.randint(1, 600), rng.randint(1, 300)) for _ in range(40)] + [(2300, 90)]
    places, width, height = _pack(sizes)
    canvas = np.zeros((height, width), np.uint8)
    for (x, y), (w, h) in zip(places, sizes, strict=True):
        assert x % ALIGN_PX == 0 and y % ALIGN_PX == 0
        assert x + w <= width and y + h <= height
        assert not canvas[y:y + h, x:x + w].any()
        canvas[y:y + h, x:x + w] = 1
    assert canvas.sum() / canvas.size > 0.5  # not mostly blank paper


@pytest.mark.parametrize(("crop", "expected"), [
    ("S1/crops/page-1.jpg#xywh=0,144,200,72", ("S1/crops/page-1.jpg", (0, 144, 200, 72))),
    ("S1/crops/page-1.jpg#xywh=pixel:3,4,5,6", ("S1/crops/page-1.jpg", (3, 4, 5, 6))),
    ("S1/crops/page-1.jpg#t=1&xywh=3,4,5,6", ("S1/crops/page-1.jpg", (3, 4, 5, 6))),
    ("S1/crops/row_3.jpg", ("S1/crops/row_3.jpg", None)),
])
def test_crop_fragments_parse(crop: str, expected: tuple[str, object]) -> None:
    assert split_crop(crop) == expected


@pytest.mark.parametrize("crop", ["a.jpg#", "a.jpg#xywh=1,2,3", "a.jpg#xywh=1,2,0,4",
                                  "a.jpg#xywh=-1,2,3,4", "a.jpg#xywh=percent:1,2,3,4",
                                  "a.jpg#t=5"])
def test_a_fragment_without_a_pixel_rectangle_is_refused(crop: str) -> None:
    with pytest.raises(ValueError, match="no xywh"):
        split_crop(crop)


def test_crop_ref_round_trips() -> None:
    assert split_crop(crop_ref("S2/crops/page-3.jpg", (16, 32, 7, 9))) == \
        ("S2/crops/page-3.jpg", (16, 32, 7, 9))
