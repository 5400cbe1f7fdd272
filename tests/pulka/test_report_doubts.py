"""The report's "Scan doubts" table fits its page (issue 14, item 8).

A doubtful deal row's crop is drawn across the table on a line of its own, legible, in the HTML
(measured in headless Chromium at 1366 x 768) and in the PDF (measured with pypdfium2); the text
columns keep their width and no line is taller than what it holds. The HTML table and the PDF
page go to ``$PULKA_REVIEW_SCREENSHOTS`` as PNGs when that is set (``samples/review``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from review_page import chromium, keep
from test_report import faulty_doc, scan_case  # noqa: F401 - the fixtures used below

from forms.layout import build_layout, deal_row_boxes
from pulka.report import SheetReport, build_report, render_html, render_pdf
from scanner.results import FieldReading, SheetScan

ROW = 1  # the deal row made doubtful (deal 2)
TEXT_COLUMNS = (1, 3, 4, 5, 6, 7)  # cell, read as, candidates, the ink alone, expected, note
MEASURE_JS = """
const table = document.querySelector('#doubts table');
const box = (n) => n.getBoundingClientRect();
const content = (td) => { const r = document.createRange(); r.selectNodeContents(td);
  return box(r).height; };
const aspect = (n) => n.naturalWidth / n.naturalHeight;
const img = box([...table.querySelectorAll('img')]
  .reduce((a, b) => (aspect(a) >= aspect(b) ? a : b)));
return {scroll: document.documentElement.scrollWidth, inner: innerWidth,
  table: [box(table).width, box(table).right], section: box(table.parentNode).right,
  heads: [...table.rows[0].cells].map((c) => box(c).width),
  rows: [...table.rows].slice(1).map((r) => [box(r).height,
    Math.max(...[...r.cells].map(content))]),
  crop: [img.width, img.height]};
"""
MM_PER_PT = 25.4 / 72


@pytest.fixture
def row_report(scan_case: tuple[SheetScan, Path]) -> SheetReport:  # noqa: F811
    """The scan case with one more doubt: a deal row (its crop about 16 times wider than tall)."""
    scan, folder = scan_case
    boxes = deal_row_boxes(build_layout(3), ROW)
    x, y = min(b.x_mm for b in boxes), min(b.y_mm for b in boxes)
    rect = (x, y, max(b.x_mm + b.w_mm for b in boxes) - x, max(b.y_mm + b.h_mm for b in boxes) - y)
    deal = scan.record["deals"][ROW]
    other = {**deal, "talon": {"quick_tricks": 2}}
    row = FieldReading(f"row:{ROW}", boxes[0].page, rect, "doubtful", deal, 0.55,
                       ((deal, 0.55), (other, 0.45)), deal=ROW + 1,
                       note="the talon box is smudged")
    return build_report(scan.record, replace(scan, fields=(*scan.fields, row)), folder)


@pytest.mark.browser
def test_html_doubts_fit_the_column(row_report: SheetReport, tmp_path: Path) -> None:
    html = tmp_path / "report.html"
    html.write_text(render_html(row_report), encoding="utf-8")
    with chromium((1366, 768)) as driver:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1366, "height": 768, "deviceScaleFactor": 1, "mobile": False})
        driver.get(html.as_uri())
        got: dict[str, Any] = driver.execute_script(MEASURE_JS)
        section = driver.find_element("css selector", "#doubts")
        driver.execute_script("arguments[0].scrollIntoView()", section)
        section.screenshot(str(tmp_path / "report-doubts-1366.png"))
        keep(tmp_path / "report-doubts-1366.png")
    assert got["scroll"] <= got["inner"]
    width, right = got["table"]
    assert right <= got["section"] + 0.5
    assert min(got["heads"][i] for i in TEXT_COLUMNS) >= 100, got["heads"]
    crop_w, crop_h = got["crop"]
    assert crop_w >= 0.95 * width - 20 and crop_h >= 40, got["crop"]
    for height, tallest in got["rows"]:
        assert height <= tallest + 14, got["rows"]  # the padding and borders, nothing more


def test_pdf_deal_row_crop_is_legible(row_report: SheetReport, tmp_path: Path) -> None:
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    pdf = pdfium.PdfDocument(render_pdf(row_report))
    wide = []  # (width, height) in mm of each image at least 4 times wider than tall
    for page in pdf:
        for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]):
            x, b, r, t = obj.get_bounds()
            if r - x >= 4 * (t - b):
                wide.append(((r - x) * MM_PER_PT, (t - b) * MM_PER_PT))
                assert "deal row 2" in page.get_textpage().get_text_range()  # with its line
                page.render(scale=100 / 72).to_pil().save(tmp_path / "report-doubts-pdf.png")
    assert len(wide) == 1, wide  # the deal row's crop
    crop_w, crop_h = wide[0]
    assert crop_w >= 150 and crop_h >= 8, wide
    keep(tmp_path / "report-doubts-pdf.png")
