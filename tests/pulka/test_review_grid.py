"""A deal row corrected as a grid or typed on one line, and any sheet opened from the sheet
list, in real headless Chromium (issue 14, items 4 and 5).

Row 18 of the fixture's sheet 1 was read 6♣ (true: 9♣, both defenders passed). The judge
fixes it through the grid's buttons, or types ``Б 9Т пас пас``; the store then holds the
true deal, verified. ``PULKA_REVIEW_SCREENSHOTS=samples/review`` keeps the screenshots.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from review_fixture import DOUBTS1, SHEET1, SHEET2, TRUTH, build_store
from review_page import Page, chromium, serving, stored

from scanner.words import said

pytestmark = pytest.mark.browser

ROW = "row:17"
SIZES = ((1366, 768), (1920, 1080))


def row_store(tmp_path: Path) -> Path:
    return build_store(tmp_path, doubts=({ROW: DOUBTS1[ROW]}, {}))


def click(driver: Any, selector: str) -> None:
    driver.find_element("css selector", selector).click()


def button(group: str, option: str, seat: str = "") -> str:
    return (f'#row-grid button[data-group="{group}"][data-option="{option}"]'
            f'[data-seat="{seat}"]')


def no_sideways_scroll(driver: Any) -> None:
    wide, inner = driver.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth]")
    assert wide <= inner, f"the page is {wide} px wide in a {inner} px window"


def wait_verdict(page: Page, words: str) -> None:
    page.wait.until(lambda d: words in page.text("#verdict"))


def test_a_row_corrected_through_the_grid(tmp_path: Path) -> None:
    db = row_store(tmp_path)
    with chromium((1366, 768)) as driver, serving(db) as server:
        page = Page(driver, server, tmp_path)
        assert page.heading() == "deal 18 (row 18)"
        wait_verdict(page, "legal: B 6C pass pass")
        headings = [h.text for h in driver.find_elements("css selector",
                                                         "#row-grid .col .heading")]
        assert headings[:4] == ["declarer", "contract", "suit", "call A"]
        assert "sure" not in page.text(".value-now")
        # the declarer has no call, and a whist on a deal nobody played is refused
        assert driver.find_element("css selector", button("call", "whist", "B")).get_attribute(
            "disabled") is not None
        start = time.perf_counter()
        click(driver, button("call", "whist", "A"))
        wait_verdict(page, "not saved")
        assert driver.find_element("css selector", "#grid-save").get_attribute(
            "disabled") is not None
        click(driver, button("call", "pass", "A"))
        click(driver, button("level", "9"))
        wait_verdict(page, "legal: B 9C pass pass · 9♣/=")
        click(driver, "#grid-save")
        page.settle()
        took_ms = (time.perf_counter() - start) * 1e3
        assert stored(db, SHEET1, ROW) == (TRUTH[ROW], 1)
        assert page.text("#last").startswith("Saved deal 18 (row 18): B 9♣")
        print(f"grid correction (4 clicks, one refused choice, saved): {took_ms:.0f} ms")


def test_a_row_typed_on_one_line_in_russian(tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    db = row_store(tmp_path)
    with chromium((1366, 768)) as driver, serving(db) as server:
        page = Page(driver, server, tmp_path)
        wait_verdict(page, "legal: B 6C pass pass")
        start = time.perf_counter()
        page.press("t", *"Б 9Т пас", Keys.ENTER)
        assert stored(db, SHEET1, ROW)[1] == 0  # one call missing: refused, nothing saved
        assert "give 2 calls" in page.text("#status")
        page.press(*" пас", Keys.ENTER)
        took_ms = (time.perf_counter() - start) * 1e3
        assert stored(db, SHEET1, ROW) == (TRUTH[ROW], 1)
        print(f"one-line correction (typed twice, saved): {took_ms:.0f} ms")


def test_a_sheet_opened_from_the_list_once_the_queue_is_empty(tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    db = build_store(tmp_path, doubts=({}, {}))
    with chromium((1366, 768)) as driver, serving(db) as server:
        page = Page(driver, server, tmp_path)
        assert "Nothing left to check" in page.text("#empty")
        page.press("l")
        rows = driver.find_elements("css selector", "#sheet-list tbody tr")
        assert [r.get_attribute("data-sheet") for r in rows] == [SHEET1, SHEET2]
        assert "Ковальчук" in rows[1].text
        page.press(Keys.ARROW_DOWN, Keys.ENTER)
        assert SHEET2 in page.text("#sheet-view .where")
        assert page.text("#panel h2").startswith("This sheet")
        page.wait.until(lambda d: d.find_elements("css selector", "#sheet-view rect.cell"))
        key = "entry:B:pool:2"
        rect = driver.find_element("css selector", f'#sheet-view rect[data-key="{key}"]')
        driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', "
                              "{bubbles: true, clientX: 300, clientY: 300}))", rect)
        value = stored(db, SHEET2, key)[0]
        editor = driver.find_element("css selector", ".editor input")
        editor.clear()
        editor.send_keys(str(value), Keys.ENTER)
        page.settle()
        assert stored(db, SHEET2, key) == (value, 1)
        assert SHEET2 in page.text("#sheet-view .where")  # still on the sheet opened


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_screens_fit_the_window(tmp_path: Path, size: tuple[int, int]) -> None:
    db = row_store(tmp_path)
    with chromium(size) as driver, serving(db) as server:
        page = Page(driver, server, tmp_path)
        wait_verdict(page, "legal")
        page.wait.until(lambda d: d.execute_script(
            "const i = document.querySelector('#row-grid img'); return i && i.complete"))
        no_sideways_scroll(driver)
        page.screenshot(f"grid-card-{size[0]}x{size[1]}.png")
        page.press("l")
        no_sideways_scroll(driver)
        page.screenshot(f"sheet-list-{size[0]}x{size[1]}.png")


def test_a_row_retyped_in_the_sheet_view_on_one_line(tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    db = build_store(tmp_path, doubts=({}, {}))
    with chromium((1366, 768)) as driver, serving(db) as server:
        page = Page(driver, server, tmp_path)
        page.press("l")
        page.press(Keys.ENTER)
        assert SHEET1 in page.text("#sheet-view .where")
        page.wait.until(lambda d: d.find_elements("css selector",
                                                  f'#sheet-view rect[data-key="{ROW}"]'))
        rect = driver.find_element("css selector", f'#sheet-view rect[data-key="{ROW}"]')
        driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', "
                              "{bubbles: true, clientX: 300, clientY: 300}))", rect)
        editor = driver.find_element("css selector", ".editor input")
        page.wait.until(lambda d: editor.get_attribute("value") == "B 9C pass pass")
        editor.clear()
        editor.send_keys("Б 9Т пас", Keys.ENTER)
        page.wait.until(lambda d: "give 2 calls" in page.text("#status"))
        assert stored(db, SHEET1, ROW)[1] == 0 and driver.find_elements("css selector", ".editor")
        editor.send_keys(" пас", Keys.ENTER)
        page.wait.until(lambda d: stored(db, SHEET1, ROW)[1] == 1)
        page.settle()
        assert stored(db, SHEET1, ROW) == (TRUTH[ROW], 1)


def test_a_row_whose_ink_is_no_legal_deal_is_never_called_sure(tmp_path: Path) -> None:
    value, _, candidates, _, _ = DOUBTS1[ROW]
    note = said("not_legal")
    db = build_store(tmp_path, doubts=({ROW: (value, 0.9991, candidates, None, note)}, {}))
    with chromium((1366, 768)) as driver, serving(db) as server:
        page = Page(driver, server, tmp_path)
        shown = page.text(".value-now")
        assert "the ink is no legal deal: this is the nearest legal one" in shown
        assert "sure" not in shown and ">99%" not in shown


@pytest.mark.parametrize("language", ["en", "ru", "uk"])
def test_the_one_line_form_is_in_the_readers_words_and_reads_back(language: str) -> None:
    from pulka import i18n
    from pulka.review.desk import line_text
    from scoring.notation import parse_deal_line

    typed = ["B 7NT whist pass 6 3 1", "B misere 0 6 4", "allpass 3 2 5",
             "B 6S pass halfwhist", "C 8H whist whist 8 1 1"]
    i18n.use_language(language)
    try:
        shown = [line_text(parse_deal_line(line)) for line in typed]
    finally:
        i18n.use_language("en")
    assert [parse_deal_line(line) for line in shown] == [parse_deal_line(t) for t in typed]
    english_words = {"whist", "pass", "halfwhist", "misere", "allpass", "NT"}
    found = {w for line in shown for w in line.replace("7NT", "7 NT").split()} & english_words
    assert found == (set() if language != "en" else english_words), shown
