"""Issue 16's Done-when for the command line: a judge's day (``i18n_day.py``: help, errors,
import, show, standings, tournament list and seat, audit with its HTML and PDF report, settle)
run in Russian and in Ukrainian leaves no English catalogue id in what it prints, in the HTML
report's text or in the PDF's (pypdfium2), except proper names and codes; argparse's own
words too. What still comes in English is named here, and only that is left out of the
check: the scanner's page warnings."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from i18n_day import faulty_record, run_day
from test_i18n_report import LATIN_WORD, english_phrases, html_text, pdf_text

from pulka import i18n
from pulka.cli.main import main
from pulka.report import build_report
from pulka.report.finding_text import stored_finding_text
from pulka.store.summary import sheet_summary

ENGINE_WORDS = re.compile(r"(page \d+ is only \d+ dpi: check its readings|misère/-?\d+)")
"""English that is not pulka's catalogue's: the scanner's page warnings (scan.json, no codes
yet) and a deal's Codex notation (``misère/-1``, a code)."""


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use_language("en")


@pytest.fixture(scope="module")
def days(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict[str, str]]]:
    made = {}
    for language in ("ru", "uk", "en"):
        folder = tmp_path_factory.mktemp(language)
        made[language] = (folder, run_day(folder, language))
    return made


def leftovers(text: str) -> list[str]:
    plain = " ".join(LATIN_WORD.findall(ENGINE_WORDS.sub(" ", text)))
    return sorted(p for p in english_phrases() if re.search(rf"\b{re.escape(p)}\b", plain))


def test_the_check_sees_english(days: dict[str, tuple[Path, dict[str, str]]]) -> None:
    outputs = days["en"][1]
    assert "show this help message and exit" in outputs["help"]
    assert "the following arguments are required" in outputs["error-missing-argument"]
    assert "doubtful cells check them on the review page" in leftovers(outputs["show-doubtful"])
    assert "take back" in leftovers(outputs["show"])
    assert "name one of them" in leftovers(outputs["error-round"])


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_no_english_left_in_the_day(days: dict[str, tuple[Path, dict[str, str]]],
                                    language: str) -> None:
    folder, outputs = days[language]
    for name, text in outputs.items():
        assert leftovers(text) == [], name
        assert "usage:" not in text and "error:" not in text and "options:" not in text, name
    html = (folder / "reports" / "game.html").read_text(encoding="utf-8")
    assert f'<html lang="{language}">' in html
    assert leftovers(html_text(html)) == []
    assert leftovers(pdf_text((folder / "reports" / "game.pdf").read_bytes())) == []


@pytest.mark.parametrize(("language", "words"), [
    ("ru", {"help": "показать эту справку и выйти", "show": "штраф: вернуть 1",
            "show-doubtful": "сомнительные клетки",
            "standings": "висты", "tournament-list": "2 листа", "audit-record": "ошибки записи",
            "error-round": "назовите один из них"}),
    ("uk", {"help": "показати цю довідку й вийти", "show": "штраф: повернути 1",
            "show-doubtful": "сумнівні клітинки",
            "standings": "вісти", "tournament-list": "2 аркуші", "audit-record": "помилки запису",
            "error-round": "назвіть один із них"}),
])
def test_the_day_speaks_the_language(days: dict[str, tuple[Path, dict[str, str]]],
                                     language: str, words: dict[str, str]) -> None:
    outputs = days[language][1]
    for name, word in words.items():
        assert word in outputs[name], name


def test_a_stored_finding_reads_as_its_stored_sentence_in_english(
        days: dict[str, tuple[Path, dict[str, str]]]) -> None:
    conn = sqlite3.connect(days["en"][0] / "t.sqlite")
    summaries = [sheet_summary(conn, pk) for pk in (1, 2)]
    findings = [(f, s["columns"]) for s in summaries for f in s["findings"]]
    assert any(f["penalty"] for f, _ in findings)
    for finding, columns in findings:
        assert stored_finding_text(finding, columns) == finding["message"]


def _first_page_text(pdf: Path) -> str:
    return pdf_text(pdf.read_bytes())


def test_print_follows_the_chosen_language(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    for name in i18n.ENVIRONMENT_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    sheet = ["print", "--players", "3", "--tournament", "Open", "-o"]
    assert main(["--lang", "uk", *sheet, str(tmp_path / "uk.pdf")]) == 0
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert main([*sheet, str(tmp_path / "ru.pdf")]) == 0
    assert main([*sheet, str(tmp_path / "en.pdf"), "--lang", "en"]) == 0
    assert "Турнір: Open" in _first_page_text(tmp_path / "uk.pdf")
    assert "Турнир: Open" in _first_page_text(tmp_path / "ru.pdf")
    assert "Tournament: Open" in _first_page_text(tmp_path / "en.pdf")


def test_the_reports_drawn_sheet_speaks_the_reports_language(tmp_path: Path) -> None:
    doc = json.loads(faulty_record(tmp_path).read_text(encoding="utf-8"))
    drawn = {}
    for language in ("en", "ru"):
        i18n.use_language(language)
        drawn[language] = [p.primary_image for p in build_report(doc).pages]
    assert drawn["en"] != drawn["ru"]
