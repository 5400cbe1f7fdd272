"""The review page in Russian and Ukrainian, in real headless Chromium: the page's own words
come from the catalogue (plural forms by the browser's rules), keys still decide, and no
English catalogue id is left on it (the store's cell labels and finding messages excepted:
they are the store's, English until it gives codes)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from review_fixture import DOUBTS1, SHEET1, build_store
from review_page import Page, browser_fixture, serving, stored
from test_i18n_cli import ENGINE_WORDS
from test_i18n_report import LATIN_WORD, english_phrases

from pulka import i18n
from pulka.review import ReviewServer

pytestmark = pytest.mark.browser

WINDOW = (1440, 1050)
WORDS = {
    "ru": {"progress": "проверить: 7 на 2 листах", "tabs": ("Очередь", "Лист"),
           "card": ("Прочитано как", "Варианты", "Введите значение"), "skip": "пропустить",
           "saved": "Сохранено", "undone": "Отменено", "legend": "сомнительно",
           "sheets": {1: "на 1 листе", 2: "на 2 листах", 5: "на 5 листах",
                      11: "на 11 листах", 21: "на 21 листе", 22: "на 22 листах",
                      25: "на 25 листах"}},
    "uk": {"progress": "перевірити: 7 на 2 аркушах", "tabs": ("Черга", "Аркуш"),
           "card": ("Прочитано як", "Варіанти", "Введіть значення"), "skip": "пропустити",
           "saved": "Збережено", "undone": "Скасовано", "legend": "сумнівно",
           "sheets": {1: "на 1 аркуші", 2: "на 2 аркушах", 5: "на 5 аркушах",
                      11: "на 11 аркушах", 21: "на 21 аркуші", 22: "на 22 аркушах",
                      25: "на 25 аркушах"}},
}
STORE_MADE = "#card h2, .findings, #last, .where, .group h3 small, svg title"
"""Parts of the page whose text the store writes: cell labels (the card's heading, the sheet
view's outline titles), finding messages, sheet and tournament names."""


browser = browser_fixture(WINDOW)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ReviewServer]:
    with serving(build_store(tmp_path)) as running:
        yield running


def open_in(page: Page, language: str) -> None:
    page.driver.get(f"{page.server.url}?lang={language}")
    page.settle()


def page_words(page: Page, skipped: str = STORE_MADE) -> str:
    """The page's visible text, titles and labels, without the parts the store writes."""
    return str(page.driver.execute_script(
        "const skip = [...document.querySelectorAll(arguments[0])];"
        "const kept = (n) => !skip.some((s) => s.contains(n));"
        "const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);"
        "const out = [document.title];"
        "while (walker.nextNode()) if (kept(walker.currentNode)) "
        "  out.push(walker.currentNode.textContent);"
        "for (const n of document.querySelectorAll('[title], [aria-label], [placeholder]')) "
        "  if (kept(n)) out.push(n.title, n.getAttribute('aria-label'), n.placeholder);"
        "return out.filter(Boolean).join(' ');", skipped))


def english_left(text: str) -> list[str]:
    plain = " ".join(LATIN_WORD.findall(text))
    return sorted(p for p in english_phrases() if re.search(rf"\b{re.escape(p)}\b", plain))


def test_english_is_seen_when_it_is_there(browser: Any, server: ReviewServer,
                                          tmp_path: Path) -> None:
    page = Page(browser, server, tmp_path)
    assert browser.execute_script("return document.documentElement.lang") == "en"
    assert "Type a value" in english_left(page_words(page))


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_the_review_page_speaks_the_language(browser: Any, server: ReviewServer,
                                             tmp_path: Path, language: str) -> None:
    words = WORDS[language]
    page = Page(browser, server, tmp_path)
    open_in(page, language)
    assert browser.execute_script("return document.documentElement.lang") == language
    assert page.text("#progress").startswith(words["progress"])
    assert (page.text("#to-queue"), page.text("#to-sheet")) == words["tabs"]
    for word in words["card"]:
        assert word in page.text("#card")
    assert words["skip"] in page.text("#keys")
    assert english_left(page_words(page)) == []
    # Lindqvist: +309 whists in the Codex 4.2.12 integer form, the exact 308.67 in the title
    assert "+309" in page.text(".standings")
    assert page.driver.execute_script(
        "return document.querySelector('.standings td.num[title]').title") == "308,67"
    for n, text in words["sheets"].items():
        assert browser.execute_script(
            "return tn('in {n} sheet', 'in {n} sheets', arguments[0])", n) == text
    page.screenshot(f"review-queue-{language}.png")

    page.press("b")  # the second candidate, as in English
    assert stored(server.db, SHEET1, "row:17")[1] == 1
    assert page.text("#last").startswith(words["saved"])
    assert browser.execute_script("return document.querySelector('#last').dataset.verb") \
        == "saved"
    page.ctrl("z")
    assert page.text("#last").startswith(words["undone"])
    assert english_left(page_words(page)) == []

    page.press("v")
    page.wait.until(lambda d: d.execute_script("return !!document.querySelector('.legend')"))
    assert words["legend"] in page.text(".legend")
    assert english_left(page_words(page)) == []


def test_the_catalogue_route(server: ReviewServer) -> None:
    import json
    import urllib.error
    import urllib.request

    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{server.url}api/catalogue?lang=de", timeout=10)
    assert refused.value.code == 400
    assert "not a language pulka speaks" in json.loads(refused.value.read())["error"]
    with urllib.request.urlopen(f"{server.url}api/catalogue?lang=uk", timeout=10) as answer:
        assert json.loads(answer.read())["messages"]["Queue"] == "Черга"
    i18n.use_language("ru")  # what `pulka --lang ru review` (or LANG) chose
    try:
        with urllib.request.urlopen(f"{server.url}api/catalogue", timeout=10) as answer:
            assert json.loads(answer.read())["lang"] == "ru"
    finally:
        i18n.use_language("en")


def test_each_request_is_answered_in_the_language_its_page_asks(server: ReviewServer) -> None:
    """Two pages, ru and uk, on one English server: each cell note in its page's language."""
    import json
    import urllib.error
    import urllib.request

    def queue_notes(language: str) -> list[str]:
        asked = urllib.request.Request(f"{server.url}api/queue",
                                       headers={"X-Pulka-Lang": language})
        with urllib.request.urlopen(asked, timeout=10) as answer:
            groups = json.loads(answer.read())["sheets"]
        return [c["note"] for g in groups for c in g["cells"] if c["note"]]

    english, russian, ukrainian = queue_notes("en"), queue_notes("ru"), queue_notes("uk")
    assert "the ink says 9; the rules expected 8" in english
    assert english != russian != ukrainian and not set(english) & set(russian)
    assert i18n.current_language() == "en"
    with pytest.raises(urllib.error.HTTPError) as refused:
        queue_notes("de")
    with refused.value:
        assert refused.value.code == 400


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_a_server_speaking_the_language_labels_cells_and_findings_in_it(
        browser: Any, tmp_path: Path, language: str) -> None:
    """``pulka --lang uk review``: the store's parts of the page (the card's cell label, the
    findings) in the server's language too; the rules engine's reasons stay its own."""
    i18n.use_language(language)
    try:
        with serving(build_store(tmp_path)) as server:
            page = Page(browser, server, tmp_path)
            assert browser.execute_script("return document.documentElement.lang") == language
            findings = page.text(".findings")
            assert {"ru": "сдача 18 (строка 18)", "uk": "роздача 18 (рядок 18)"}[language] \
                in page.text("#card h2")
            assert {"ru": "ожидалось", "uk": "очікувалося"}[language] in findings
            assert english_left(ENGINE_WORDS.sub(" ", page.text("#card h2") + " " + findings)) \
                == []
            page.screenshot(f"review-server-{language}.png")
    finally:
        i18n.use_language("en")


GRID_WORDS = {"ru": {"headings": ["играет", "контракт", "масть", "ответ A"],
                     "save": "Сохранить эту сдачу", "legal": "по правилам:",
                     "list": "Листы (2)", "columns": "Тур"},
              "uk": {"headings": ["грає", "контракт", "масть", "відп. A"],
                     "save": "Зберегти цю роздачу", "legal": "за правилами:",
                     "list": "Аркуші (2)", "columns": "Тур"}}
LINE_CODES = "#verdict"
"""The verdict's deal line is the one-line form's codes (``B 6C pass pass``), not words."""


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_the_grid_card_and_the_sheet_list_speak_the_language(
        browser: Any, tmp_path: Path, language: str) -> None:
    """``pulka --lang ru review`` on a doubtful deal row: the grid's headings are the sheet's
    own labels, its buttons and verdict the catalogue's; the sheet list (key l) too."""
    words = GRID_WORDS[language]
    i18n.use_language(language)
    try:
        db = build_store(tmp_path, doubts=({"row:17": DOUBTS1["row:17"]}, {}))
        with serving(db) as server:
            page = Page(browser, server, tmp_path)
            page.wait.until(lambda d: words["legal"] in page.text("#verdict"))
            headings = [h.text for h in browser.find_elements("css selector",
                                                              "#row-grid .col .heading")]
            assert headings[:4] == words["headings"]
            assert page.text("#grid-save") == words["save"]
            assert english_left(page_words(page, f"{STORE_MADE}, {LINE_CODES}")) == []
            page.press("l")
            page.wait.until(lambda d: words["list"] in page.text("#sheet-list h2"))
            assert words["columns"] in page.text("#sheet-list thead")
            assert english_left(page_words(page)) == []
            page.screenshot(f"review-grid-list-{language}.png")
    finally:
        i18n.use_language("en")
