"""The audit report in Russian and Ukrainian: no English catalogue id left in its HTML or PDF
text, the document's language declared, and ``--lang`` / ``LANG`` choosing it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from test_report import NAMES, faulty_doc, scan_case  # noqa: F401 - the fixtures

from pulka import i18n
from pulka.cli.main import main
from pulka.report import SheetReport, build_report, render_html, render_pdf
from scanner.results import SheetScan

PLACEHOLDER = re.compile(r"\{\w*\}")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use_language("en")


def english_phrases() -> set[str]:
    """The English catalogue's ids cut at their placeholders, each part of two words or more
    (a single word may be a proper name or a code: ``A``, ``ms``, ``Sochi``)."""
    with i18n.catalogue_path("en").open("rb") as stream:
        catalog = read_po(stream, locale="en")
    phrases = set()
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for msgid in ids:
            for part in PLACEHOLDER.split(str(msgid).replace("[[", "{").replace("]]", "}")):
                words = LATIN_WORD.findall(part)
                if len(words) >= 2:
                    phrases.add(" ".join(words))
    return phrases


class _Text(HTMLParser):
    """What a reader of the HTML sees: text, titles, alt texts, outside style and script."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.hidden += tag in ("style", "script")
        self.parts += [v for k, v in attrs if k in ("alt", "aria-label", "title") and v]

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in ("style", "script")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def html_text(html: str) -> str:
    reader = _Text()
    reader.feed(html)
    return " ".join(reader.parts)


def pdf_text(data: bytes) -> str:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    return "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))


def scoring_texts(report: SheetReport) -> list[str]:
    """Texts the rules engine makes (scoring/, English until it gives codes): the rules'
    description, each finding's rule, reasons, note and penalty, each deal's Codex notation."""
    texts = [report.rules]
    for view in report.findings:
        texts += [view.rule, view.note, view.penalty or "", "; ".join(view.reasons)]
    texts += [d.notation for d in report.deals]
    return [t for t in texts if t]


def leftovers(text: str, report: SheetReport) -> list[str]:
    plain = " ".join(LATIN_WORD.findall(_without(text, scoring_texts(report))))
    return sorted(p for p in english_phrases() if re.search(rf"\b{re.escape(p)}\b", plain))


def _without(text: str, parts: list[str]) -> str:
    flat = re.sub(r"\s+", " ", text)
    for part in sorted(parts, key=len, reverse=True):
        flat = flat.replace(re.sub(r"\s+", " ", part), " ")
    return flat


@pytest.fixture(scope="module")
def reports(faulty_doc: dict[str, Any],  # noqa: F811 - the imported fixture
            scan_case: tuple[SheetScan, Path]  # noqa: F811
            ) -> Iterator[dict[str, list[tuple[SheetReport, str, str]]]]:
    """Each language's reports (from a record, and from a scan with a doubt): report, HTML
    and PDF text."""
    made = {}
    for language in ("ru", "uk", "en"):
        i18n.use_language(language)
        made[language] = [(r, render_html(r), pdf_text(render_pdf(r))) for r in (
            build_report(faulty_doc), build_report(scan_case[0].record, *scan_case))]
    i18n.use_language("en")
    yield made


def test_the_check_sees_english(reports: dict[str, list[tuple[SheetReport, str, str]]]
                                ) -> None:
    report, html, pdf = reports["en"][1]
    assert "Player errors" in leftovers(html_text(html), report)
    assert "Scan doubts" in leftovers(pdf, report)
    assert "Reference copy computer from the deal log" in leftovers(pdf, report)


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_no_english_catalogue_id_left(reports: dict[str, list[tuple[SheetReport, str, str]]],
                                      language: str) -> None:
    for report, html, pdf in reports[language]:
        assert f'<html lang="{language}">' in html
        assert leftovers(html_text(html), report) == []
        assert leftovers(pdf, report) == []


@pytest.mark.parametrize(("language", "words"), [
    ("ru", ("Ошибки игроков", "Сомнения сканера", "Расчёт (Кодекс 4.2.12–4.2.14)",
            "Способ 2 (4.2.14): средняя гора", "сдача", "висты на", "ставка 0,5 за вист")),
    ("uk", ("Помилки гравців", "Сумніви сканера", "Розрахунок (Кодекс 4.2.12–4.2.14)",
            "Спосіб 2 (4.2.14): середня гора", "роздача", "вісти на", "ставка 0,5 за віст")),
])
def test_the_report_speaks_the_language(
        reports: dict[str, list[tuple[SheetReport, str, str]]], language: str,
        words: tuple[str, ...]) -> None:
    report, html, pdf = reports[language][1]
    for text in (html_text(html), re.sub(r"\s+", " ", pdf)):
        for word in words:
            assert word in text, (language, word)
        assert NAMES["A"] in text


def test_lang_option_and_environment_choose_the_reports_language(
        faulty_doc: dict[str, Any], tmp_path: Path,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "game.json"
    record.write_text(json.dumps(faulty_doc, ensure_ascii=False), encoding="utf-8")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert main(["audit", str(record), "--html", str(tmp_path / "ru")]) == 1
    assert '<html lang="ru">' in (tmp_path / "ru" / "game.html").read_text(encoding="utf-8")
    assert main(["--lang", "uk", "audit", str(record), "--html", str(tmp_path / "uk")]) == 1
    page = (tmp_path / "uk" / "game.html").read_text(encoding="utf-8")
    assert '<html lang="uk">' in page and "Помилки гравців" in page


@pytest.mark.parametrize(("language", "words"), [
    ("ru", ("Способ 1 (4.2.14)", "Остаток по 4.2.12", "висты на A", "деньги", "-164,00")),
    ("uk", ("Спосіб 1 (4.2.14)", "Залишок за 4.2.12", "вісти на A", "гроші", "-164,00")),
])
def test_settle_prints_the_settlement_in_the_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str,
        words: tuple[str, ...]) -> None:
    record = Path(__file__).parents[2] / "samples" / "reports" / "sochi-3-errors.json"
    assert main(["--lang", language, "settle", str(record)]) == 0
    out = capsys.readouterr().out
    for word in words:
        assert word in out
    plain = " ".join(LATIN_WORD.findall(out))
    assert [p for p in english_phrases() if re.search(rf"\b{re.escape(p)}\b", plain)] == []
