"""Audit reports: self-contained HTML, a PDF with the same content, a real browser look."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from forms.layout import build_layout
from pulka.cli.main import main
from pulka.report import build_report, render_html, render_pdf, write_reports
from pulka.report.constants import CROP_HEIGHT_PX
from scanner.results import FieldReading, ScannedPage, SheetScan, entry_key
from scoring import RuleSet, audit, expected_sheet, parse_record
from scoring.random_games import inject_errors, random_record, written_columns

NAMES = {"A": "Иванова", "B": "Петренко", "C": "Сидоров"}


@pytest.fixture(scope="module")
def faulty_doc() -> dict[str, Any]:
    """A Sochi game for 0.5 a whist with three recording errors, names in Cyrillic."""
    rng = random.Random(7)
    rules = RuleSet.from_settings({"variant": "sochi", "players": 3, "pool": 20, "stake": "0.5"})
    doc = random_record(rules, rng)
    doc["names"] = NAMES
    doc["written"] = written_columns(expected_sheet(parse_record(doc)))
    faulty, _ = inject_errors(doc, 3, rng)
    return faulty


@pytest.fixture(scope="module")
def scan_case(faulty_doc: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
              ) -> tuple[SheetScan, Path]:
    """A synthetic scan of the faulty game: the as-written pages, one doubtful cell."""
    from PIL import Image

    folder = tmp_path_factory.mktemp("scan")
    plain = build_report(faulty_doc)
    pages = []
    for page in plain.pages:
        assert page.primary_image is not None
        name = f"page-{page.index}.png"
        (folder / name).write_bytes(page.primary_image)
        Image.open(folder / name).load()
        pages.append(ScannedPage(page.index, f"sheet.pdf#{page.index}", name, 0.3))
    record = parse_record(faulty_doc)
    finding = audit(record)[0]
    mark = plain.pages[0].primary_marks[0]
    fields = (
        FieldReading(entry_key(finding.column.seat, finding.column.kind, finding.column.on,
                               (finding.entry or 1) - 1), mark.page, mark.rect_mm, "read",
                     int(finding.written or 0), 0.97),
        FieldReading("entry:C:mountain:0", 0, (150.0, 240.0, 9.0, 6.0), "doubtful", 7, 0.41,
                     ((7, 0.41), (1, 0.38)), expected=2, note="7 or 1?",
                     ink=((1, 0.02), (7, 0.006))),
    )
    scan = SheetScan("S-TEST01", {}, build_layout(3).id, tuple(pages), fields, faulty_doc)
    return scan, folder


def test_html_is_self_contained_and_names_every_finding(faulty_doc: dict[str, Any]) -> None:
    report = build_report(faulty_doc, name="game")
    html = render_html(report)
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html)
    assert "<link" not in html and "<script" not in html
    findings = audit(parse_record(faulty_doc))
    assert len(report.findings) == len(findings) == 3
    for view in report.findings:
        assert view.written in html and view.expected in html
        assert f"Codex rule</th><td>{view.rule}" in html
        assert view.deal_text.split(" → ")[-1] in html  # the deal's Codex 4.2.11 result
    assert "Иванова" in html and "♠" in html or "♣" in html
    assert "Variant 1 (4.2.14)" in html and "Variant 2 (4.2.14)" in html
    assert "money at 0.5 a whist" in html
    assert html.count("<svg") == 2 * len(report.pages)


def test_doubts_are_kept_apart_from_findings(scan_case: tuple[SheetScan, Path]) -> None:
    scan, folder = scan_case
    report = build_report(scan.record, scan, folder)
    assert [d.label for d in report.doubts] == ["D1"]
    assert report.findings[0].crop_png is not None  # the ink cut from the scanned page
    html = render_html(report)
    findings_part = html.split('id="findings"')[1].split('id="doubts"')[0]
    doubts_part = html.split('id="doubts"')[1].split('id="sheet"')[0]
    assert "7 or 1?" in doubts_part and "7 or 1?" not in findings_part
    assert "C (Сидоров): mountain, entry 1" in doubts_part
    # beside the rules-shaped candidates, what the ink alone says (its likelihoods as shares)
    assert "the ink alone" in doubts_part and "1 (77%), 7 (23%)" in doubts_part
    assert "scan doubt" in html and 'stroke="#e68c00"' in html


@pytest.mark.parametrize(("crop", "size"), [
    ("crops/page-1.png#xywh=32,16,48,32", (48, 32)),  # a rectangle of the field sheet
    ("crops/page-1.png", (96, 64)),  # an older scan: a file of the field's own
    ("crops/page-1.png#xywh=64,16,48,32", None),  # not inside it: cut from the page
    ("crops/page-1.png#xywh=percent:0,0,9,9", None),
])
def test_a_doubt_shows_its_crop(scan_case: tuple[SheetScan, Path], tmp_path: Path,
                                crop: str, size: tuple[int, int] | None) -> None:
    import io

    from PIL import Image

    scan, folder = scan_case
    shutil.copytree(folder, tmp_path / "scan")
    (tmp_path / "scan" / "crops").mkdir()
    Image.new("RGB", (96, 64), (255, 255, 255)).save(tmp_path / "scan" / "crops" / "page-1.png")
    doubt = replace(scan.fields[1], crop=crop)
    report = build_report(scan.record, replace(scan, fields=(scan.fields[0], doubt)),
                          tmp_path / "scan")
    png = report.doubts[0].crop_png
    assert png is not None
    shown = Image.open(io.BytesIO(png)).size
    assert shown == size if size else shown[1] == CROP_HEIGHT_PX


def test_a_doubtful_deal_row_reads_as_deals_do(scan_case: tuple[SheetScan, Path]) -> None:
    """A doubtful row's candidates differ in one part (here the talon): each is written out
    in words, every part shown, never as a raw JSON object."""
    scan, folder = scan_case
    deal = scan.record["deals"][0]
    other = {**deal, "talon": {"quick_tricks": 2}}
    row = FieldReading("row:0", 1, (20.0, 30.0, 150.0, 6.0), "doubtful", deal, 0.6,
                       ((deal, 0.6), (other, 0.4)), deal=1)
    report = build_report(scan.record, replace(scan, fields=(*scan.fields, row)), folder)
    doubts = render_html(report).split('id="doubts"')[1].split('id="sheet"')[0]
    assert "{" not in doubts and "&#x27;" not in doubts
    assert "talon 2 quick tricks (40%)" in doubts


def test_pdf_has_the_pages_and_the_text(faulty_doc: dict[str, Any],
                                        scan_case: tuple[SheetScan, Path]) -> None:
    import pypdfium2 as pdfium

    for report in (build_report(faulty_doc), build_report(scan_case[0].record, *scan_case)):
        pdf = pdfium.PdfDocument(render_pdf(report))
        texts = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
        text = "\n".join(texts)
        sheet_pages = [t for t in texts if "Reference copy (computer, from the deal log)" in t]
        assert len(sheet_pages) == len(report.pages)
        assert 1 + len(report.pages) + 1 <= len(pdf) <= 1 + len(report.pages) + 4
        sizes = [tuple(round(v) for v in pdf[i].get_size()) for i in range(len(pdf))]
        assert (842, 595) in sizes and (595, 842) in sizes  # the triangle page is landscape
        for view in report.findings:
            assert view.label in text and view.rule in text
        assert "Иванова" in text and "Variant 2 (4.2.14)" in text
        assert ("D1" in text) == report.scanned


def test_cli_writes_reports_and_keeps_exit_codes(faulty_doc: dict[str, Any], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str],
                                                 scan_case: tuple[SheetScan, Path]) -> None:
    record = tmp_path / "game 7.json"
    record.write_text(json.dumps(faulty_doc, ensure_ascii=False), encoding="utf-8")
    scan, folder = scan_case
    scan_json = folder / "scan.json"
    scan_json.write_text(json.dumps(scan.to_json(), ensure_ascii=False), encoding="utf-8")
    assert main(["audit", str(record), str(scan_json), "--json",
                 "--html", str(tmp_path / "h"), "--pdf", str(tmp_path / "p")]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all(json.loads(line)["findings"] for line in lines)
    assert sorted(p.name for p in (tmp_path / "h").iterdir()) == ["S-TEST01.html",
                                                                 "game_7.html"]
    assert sorted(p.name for p in (tmp_path / "p").iterdir()) == ["S-TEST01.pdf", "game_7.pdf"]
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "pulka-scan/1", "pages": []}')
    assert main(["audit", str(bad), "--report", str(tmp_path / "r")]) == 3
    assert "bad.json" in capsys.readouterr().err


def test_write_reports(faulty_doc: dict[str, Any], tmp_path: Path) -> None:
    html, pdf = write_reports(faulty_doc, tmp_path / "out", name="Пулька 1")
    assert html.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert pdf.read_bytes().startswith(b"%PDF")


def chromium() -> str | None:
    """The headless browser, if installed (Debian package ``chromium``)."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.browser
@pytest.mark.skipif(chromium() is None, reason="chromium is not installed")
def test_html_renders_in_headless_chromium(faulty_doc: dict[str, Any], tmp_path: Path) -> None:
    from PIL import Image, ImageStat

    html, _ = write_reports(faulty_doc, tmp_path, name="browser")
    shot = tmp_path / "shot.png"
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [str(chromium()), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", f"--user-data-dir={profile}", f"--screenshot={shot}",
             "--window-size=1280,2000", html.resolve().as_uri()],
            check=True, capture_output=True, timeout=120)
    image = Image.open(shot).convert("L")
    assert image.size == (1280, 2000)
    stat = ImageStat.Stat(image)
    assert stat.stddev[0] > 20  # text, tables and sheet images, not a blank page
    dark = sum(image.histogram()[:128]) / (image.width * image.height)
    assert 0.005 < dark < 0.5
