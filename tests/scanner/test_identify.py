"""Identification: the QR identity round-trips (coarse photos too); pages group into sheets;
unknown layouts; a page with nothing readable is refused with what to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from forms.layout import build_layout
from scanner.errors import NoSheetFound, UnknownLayout
from scanner.image.identify import Identifier, assemble_sheets, identify
from scanner.image.load import PageImage, load_file
from scanner.image.register import register
from tests.scanner.synth import PX_PER_MM, coarse_photo, identity_for, page_bgr, photo, sheet_pdf


def test_qr_identity_round_trips_and_sheets_assemble(tmp_path: Path) -> None:
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(sheet_pdf(3))
    pages = [identify(register(p)) for p in load_file(pdf)]
    want = identity_for(3)
    assert [p.identity for p in pages] == [want.for_page(i) for i in range(3)]
    assert pages[0].identity is not None and pages[0].identity.names[0] == "Иванова"
    sheets, errors = assemble_sheets([pages[2], pages[0], pages[0]])
    assert not errors and sheets[0].missing == (1,)
    assert len(sheets[0].duplicates) == 1
    assert any("page 2 of 3 is missing" in p for p in sheets[0].problems)


def test_photo_is_identified() -> None:
    page = identify(register(PageImage(Path("p.jpg"), 0, photo(page_bgr(3, 0), 3))))
    assert page.via == "qr" and page.identity is not None and page.identity.page == 0


def test_unknown_layout(tmp_path: Path) -> None:
    pdf = tmp_path / "other.pdf"
    pdf.write_bytes(sheet_pdf(3, layout_id="0123456789"))
    first = load_file(pdf)[1]
    with pytest.raises(UnknownLayout, match="other.pdf, page 2.*0123456789"):
        identify(register(first))


@pytest.mark.parametrize("page, seed", [(0, 1), (1, 3), (2, 5)])
def test_cyrillic_names_survive_a_coarse_phone_photo(page: int, seed: int) -> None:
    # segno's code printed, rendered at 120 dpi, photographed by samplegen.degrade (tilt,
    # light, blur, noise, JPEG), registered and read by zxing-cpp
    image = coarse_photo(3, page, seed)
    found = identify(register(PageImage(Path("photo.jpg"), 0, image)))
    assert found.via == "qr" and found.identity == identity_for(3).for_page(page)
    assert found.identity.names[:2] == ("Иванова", "Петренко")


def test_one_identifier_reads_a_run_of_mixed_layouts() -> None:
    # the region last read comes first, and a page of another layout still finds its own
    identifier = Identifier()
    for players in (4, 3, 4, 3):
        image = photo(page_bgr(players, 0), 0, seed=players)
        found = identifier.identify(register(PageImage(Path("p.jpg"), 0, image)))
        assert found.identity == identity_for(players).for_page(0)


@pytest.mark.tesseract
def test_a_page_with_no_readable_id_is_refused_with_what_to_do() -> None:
    image = page_bgr(3, 1)
    layout = build_layout(3)
    for region in (*layout.qr, *layout.sheet_id_text):
        if region.page == 1:
            x0, y0 = round(region.x_mm * PX_PER_MM), round(region.y_mm * PX_PER_MM)
            x1 = round((region.x_mm + region.w_mm) * PX_PER_MM)
            y1 = round((region.y_mm + region.h_mm) * PX_PER_MM)
            image[y0 - 20:y1 + 20, x0 - 60:x1 + 60] = 255
    with pytest.raises(NoSheetFound, match=r"^scan\.jpg, page 3: neither its QR code nor its "
                                           r"printed sheet id can be read .*; scan it at 300 "
                                           r"dpi or take the photo closer"):
        identify(register(PageImage(Path("scan.jpg"), 2, image)))
