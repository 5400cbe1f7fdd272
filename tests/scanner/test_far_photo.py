"""Pages photographed from afar (the training part's phone-distant capture, 75-120 dpi): the QR
code read on a grid fitted to its own patterns; a page whose code will not decode joins the
sheet of the run its modules match, and only that sheet."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from forms.identity import SheetIdentity, to_qr_payload
from forms.layout import build_layout
from forms.qr import qr_modules
from forms.render.raster import render_pages
from forms.render.sheet import QR_QUIET_MODULES, SheetRequest, render_pdf_bytes
from samplegen.capture import capture
from samplegen.profiles import SheetPlan
from samplegen.split import Part
from scanner.image import register as register_module
from scanner.image.identify import (
    SIBLING_LACKING_MAX_DISAGREEMENT,
    SIBLING_MAX_DISAGREEMENT,
    Identifier,
    _compared,
    _Held,
)
from scanner.image.load import PageImage
from scanner.image.register import register
from scanner.pipeline import scan_paths
from scanner.results import SheetScan
from tests.scanner.synth import DPI, PX_PER_MM, identity_for, page_bgr
from tests.scanner.training_sheets import read_field, scored_sheet

OTHER_SHEET_ID = "R2-T07-D0C3EF"


def far_photo(page: int, seed: int) -> np.ndarray:
    """Page ``page`` of the 3-player test sheet as the phone-distant capture takes it (BGR,
    through JPEG)."""
    return far_photo_of(page_bgr(3, page), seed)


def far_photo_of(image: np.ndarray, seed: int) -> np.ndarray:
    """A page rendered at :data:`DPI` (BGR) as the phone-distant capture takes it (BGR,
    through JPEG)."""
    rgb = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
    shot = capture("phone-distant", rgb, DPI, random.Random(seed))
    _, jpeg = cv2.imencode(".jpg", cv2.cvtColor(shot.image, cv2.COLOR_RGB2BGR),
                           [cv2.IMWRITE_JPEG_QUALITY, shot.jpeg_quality or 90])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


@pytest.mark.parametrize("page, seed", [(1, 4), (1, 19)])
def test_a_far_photos_code_is_read(page: int, seed: int) -> None:
    # 93 and 121 dpi: the code's 0.39 mm modules are 1.4-1.9 pixels, and the registration
    # alone puts them up to a module off
    reg = register(PageImage(Path("far.jpg"), 0, far_photo(page, seed)))
    assert reg.px_per_mm * 25.4 < 125
    assert Identifier().decode_qr(reg) == to_qr_payload(identity_for(3).for_page(page))


def _sheet_page(identity: SheetIdentity, page: int) -> np.ndarray:
    pdf = render_pdf_bytes([SheetRequest(build_layout(3), identity, "ru")])
    rgb = next(render_pages(pdf, DPI, pages=[page]))
    return cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)


def _spoil_code(image: np.ndarray, identity: SheetIdentity, page: int, share: float,
                seed: int) -> np.ndarray:
    """The page with ``share`` of its code's modules (finders spared) turned over, so that
    no reader decodes it, and its printed sheet id wiped out."""
    layout = build_layout(3)
    region = next(r for r in layout.qr if r.page == page)
    dark = np.array(qr_modules(to_qr_payload(identity.for_page(page))))
    n = len(dark)
    step = region.w_mm / (n + 2 * QR_QUIET_MODULES) * PX_PER_MM
    rng = np.random.default_rng(seed)
    out = image.copy()
    for row, col in zip(*np.nonzero(rng.random((n, n)) < share), strict=True):
        if min(row, col) < 8 or (row < 8 and col >= n - 8) or (col < 8 and row >= n - 8):
            continue  # a finder pattern
        x = round(region.x_mm * PX_PER_MM + (QR_QUIET_MODULES + col) * step)
        y = round(region.y_mm * PX_PER_MM + (QR_QUIET_MODULES + row) * step)
        tone = 255 if dark[row, col] else 0
        out[y:y + round(step), x:x + round(step)] = tone
    for text in layout.sheet_id_text:
        if text.page == page:
            x0, y0 = round((text.x_mm - 10) * PX_PER_MM), round((text.y_mm - 2) * PX_PER_MM)
            x1 = round((text.x_mm + text.w_mm + 10) * PX_PER_MM)
            y1 = round((text.y_mm + text.h_mm + 2) * PX_PER_MM)
            out[y0:y1, x0:x1] = 255
    return out


def test_a_page_whose_code_will_not_decode_joins_the_sheet_read_after_it(
        tmp_path: Path) -> None:
    # the first page's code has a fifth of its modules wrong and no printed id left: it is
    # held until the sheet's next page is read, then matched by its modules
    identity = identity_for(3)
    folder = tmp_path / "pages"
    folder.mkdir()
    cv2.imwrite(str(folder / "page-0.png"), _spoil_code(page_bgr(3, 0), identity, 0, 0.2, 1))
    for page in (1, 2):
        cv2.imwrite(str(folder / f"page-{page}.png"), page_bgr(3, page))
    outcomes = list(scan_paths([folder], tmp_path / "out"))
    assert [type(o) for o in outcomes] == [SheetScan], outcomes
    scan = outcomes[0]
    assert isinstance(scan, SheetScan)
    assert scan.sheet_id == identity.sheet_id and not scan.missing_pages


def test_a_spoilt_page_of_another_sheet_is_not_claimed() -> None:
    # the same layout, rules and names, another sheet id: its code agrees on the modules that
    # do not depend on the id, and on about half of those that do
    ours, other = identity_for(3), replace(identity_for(3), sheet_id=OTHER_SHEET_ID)
    identifier = Identifier()
    spoilt = _spoil_code(_sheet_page(other, 1), other, 1, 0.15, 2)
    assert identifier.identify_or_hold(register(PageImage(Path("x.png"), 0, spoilt))) is None
    assert identifier.identify_or_hold(register(PageImage(Path("a.png"), 0, page_bgr(3, 0))))
    assert identifier.claim_held() == []
    own = _spoil_code(page_bgr(3, 2), ours, 2, 0.15, 3)
    found = identifier.identify_or_hold(register(PageImage(Path("b.png"), 0, own)))
    assert found is not None and found.via == "sibling"
    assert found.identity == ours.for_page(2)
    assert identifier.identify_or_hold(register(PageImage(Path("y.png"), 0,
                                                          _sheet_page(other, 0)))) is not None
    claimed = identifier.claim_held()
    assert [(p.page.source, p.identity) for p in claimed] == [(Path("x.png"),
                                                               other.for_page(1))]


def test_a_far_photos_markers_found_only_in_the_image_itself_are_found() -> None:
    # at 78 dpi the halvings show three of the four markers (one is 2 px a cell there)
    reg = register(PageImage(Path("far.jpg"), 0, far_photo(0, 30)))
    assert sorted(reg.corners) == [0, 1, 2, 3]


def _nearly_ours() -> PageImage:
    """Page 3 of the test sheet with its code as far from its own as a blurred far photo's
    at 81 dpi (TRAINING part, seed 322 sheet 012: 0.28 of the id's modules read otherwise)."""
    spoilt = _spoil_code(page_bgr(3, 2), identity_for(3), 2, 0.35, 3)
    return PageImage(Path("b.png"), 0, spoilt)


def test_a_page_nearly_matching_a_sheet_that_lacks_it_joins_that_sheet() -> None:
    ours = identity_for(3)
    identifier = Identifier()
    assert identifier.identify_or_hold(register(PageImage(Path("a.png"), 0, page_bgr(3, 0))))
    page = register(_nearly_ours())
    far = _compared(_Held(page, 0.0), to_qr_payload(ours))[0]
    assert SIBLING_MAX_DISAGREEMENT < far <= SIBLING_LACKING_MAX_DISAGREEMENT
    found = identifier.identify_or_hold(page)
    assert found is not None and found.via == "sibling"
    assert found.identity == ours.for_page(2)


def test_a_page_nearly_matching_a_sheet_that_has_it_is_not_claimed() -> None:
    # the sheet's third page was read already: a second one only near its code is not taken
    identifier = Identifier()
    assert identifier.identify_or_hold(register(PageImage(Path("c.png"), 0, page_bgr(3, 2))))
    assert identifier.identify_or_hold(register(_nearly_ours())) is None


@pytest.mark.parametrize("seed", [2, 33])
def test_a_far_photo_is_registered_on_the_paper_its_identity_names(seed: int) -> None:
    # at 115-118 dpi the markers' corners fit a Letter frame better than the A4 one printed;
    # the QR code's layout says A4, and the page is registered again on it
    reg = register(PageImage(Path("far.jpg"), 0, far_photo(0, seed)))
    found = Identifier().identify(reg)
    assert found.identity == identity_for(3).for_page(0)
    assert (found.page.page_w_mm, found.page.page_h_mm) == (210.0, 297.0)


def test_a_far_photo_is_registered_again_on_the_markers_found_the_first_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # registered on Letter at first, as a far photo's markers can make it (the layout is A4)
    image = far_photo(0, 2)
    reg = register(PageImage(Path("far.jpg"), 0, image), paper=(215.9, 279.4))
    on_a4 = register(PageImage(Path("far.jpg"), 0, image), paper=(210.0, 297.0))

    def searched(*args: object) -> None:
        raise AssertionError("the image is searched for markers again")

    monkeypatch.setattr(register_module, "find_markers", searched)
    found = Identifier().identify(reg)
    assert (found.page.page_w_mm, found.page.page_h_mm) == (210.0, 297.0)
    assert np.allclose(found.page.homography, on_a4.homography)
    assert found.page.barrel == on_a4.barrel and found.page.warnings == on_a4.warnings


@pytest.mark.slow
def test_a_far_photos_deal_page_the_game_never_reached_asks_nothing(tmp_path: Path) -> None:
    """Issue 13, classes 4 and 8: a far phone photo (sheet 001 of ``reader_eval --part
    training --capture phone-distant --seed 271``) of a game of 17 deals whose second deal
    page stayed blank. At 78 dpi the printed squares of that page lie off the bands that
    take them out, their remnants read as marks, and seven of its rows as no legal deal:
    each was asked, and with them every blank row from the last deal on, 27 rows (29 fields
    asked, every field of the game right). The running totals hold no deal the log lacks,
    so those rows are stray ink: nothing is asked."""
    tally = scored_sheet(tmp_path, SheetPlan("open", Part.TRAINING, "strokes", "phone-distant",
                                             "plus-upright", "blue-ballpoint"), 271, 1)
    assert tally.silent == 0 and tally.asked_blank == 0 and tally.doubtful == 0, tally


@pytest.mark.slow
def test_a_pool_total_past_the_pool_that_lost_its_one_is_asked(tmp_path: Path) -> None:
    """Issue 13, classes 1 and 5: TRAINING part, seed 427 sheet 011 (``reader_eval --part
    training --capture phone-distant``). A pool of 10 written 4, 8, 10, 11, 12 by a slip of
    2 carried on past the pool; the 11 is doubtful (its ink passes the pool), and the 12,
    its 1 lost from the far photo, read 2 at 0.9999: the column was weighed without values
    above the pool, and 2 is the step after a reading of the 11 as 1. A total below one
    past the pool that is not the rules' total there is asked now."""
    entry = read_field(tmp_path, SheetPlan("open", Part.TRAINING, "strokes", "phone-distant",
                                           "scribble-zigzag", "black"), 427, 11, "entry:C:pool:4")
    assert entry.status == "doubtful"
    assert "below the 11 an earlier entry's ink holds past the pool" in str(entry.note)


@pytest.mark.slow
def test_a_pool_total_that_lost_its_1_is_no_writers_slip(tmp_path: Path) -> None:
    """Issue 13, classes 1 and 9: TRAINING part, seed 453 sheet 020 (``reader_eval --part
    training --capture phone-distant --marks scribble-zigzag``). B's pool written 6, then
    10 where the rules made 7 (a slip); the 10's 1 lost, its ink read 0 at 0.998, and the 0
    was read as the writer's slip, silently (the audit would blame B for a pool that fell
    to 0). A slip that drops the pool by more than its deal adds is asked now."""
    entry = read_field(tmp_path, SheetPlan("open", Part.TRAINING, "font", "phone-distant",
                                           "scribble-zigzag", "black"), 453, 20,
                       "entry:B:pool:1")
    assert entry.status == "doubtful"
    assert entry.note.code == "falls_past_deal"
