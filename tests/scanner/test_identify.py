"""Identification: the QR identity round-trips; pages group into sheets; unknown layouts."""

from __future__ import annotations

from pathlib import Path

import pytest

from scanner.errors import UnknownLayout
from scanner.image.identify import assemble_sheets, identify
from scanner.image.load import load_file
from scanner.image.register import register
from tests.scanner.synth import identity_for, page_bgr, photo, sheet_pdf


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
    from scanner.image.load import PageImage

    page = identify(register(PageImage(Path("p.jpg"), 0, photo(page_bgr(3, 0), 3))))
    assert page.via == "qr" and page.identity is not None and page.identity.page == 0


def test_unknown_layout(tmp_path: Path) -> None:
    pdf = tmp_path / "other.pdf"
    pdf.write_bytes(sheet_pdf(3, layout_id="0123456789"))
    first = load_file(pdf)[1]
    with pytest.raises(UnknownLayout, match="other.pdf, page 2.*0123456789"):
        identify(register(first))
