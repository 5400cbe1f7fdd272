"""The review page's keys cannot put a value into a cell it was not meant for (issue 14, item 1).

A judge types "13" into a pool cell whose candidates are 79 and 19: the cell holds 13 and no
other cell changes, however fast the keys come and however slow the save is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from review_fixture import KEYS_DOUBTS, SHEET1, build_store
from review_page import Page, all_cells, browser_fixture, serving, stored

pytestmark = pytest.mark.browser

POOL = "entry:C:pool:2"  # candidates 79, 19, 20: the first in the queue
NEXT = "entry:A:whists:B:0"  # candidates 9, 8, 3: the next in the queue
SAVE_DELAY_S = 0.8


browser = browser_fixture((1400, 900))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return build_store(tmp_path, doubts=(KEYS_DOUBTS, {}))


def changed(before: dict[tuple[str, str], Any], db: Path) -> dict[tuple[str, str], Any]:
    """The cells whose value or verification differs from ``before``."""
    return {cell: now for cell, now in all_cells(db).items() if before[cell] != now}


def test_typing_13_saves_13_and_nothing_else(browser: Any, db: Path, tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    with serving(db) as server:
        page = Page(browser, server, tmp_path)
        assert page.heading().startswith("Sidorov (C) · pool · entry 3")
        assert "79" in page.text(".candidates li:nth-child(1)")
        assert "19" in page.text(".candidates li:nth-child(2)")
        before = all_cells(db)
        page.press("1", "3", Keys.ENTER)
        assert changed(before, db) == {(SHEET1, POOL): (13, 1)}
        assert page.heading().startswith("Иванова (A) · whists on Петренко (B) · entry 1")
        assert page.typed() == ""
        assert page.text("#last").startswith("Saved Sidorov (C) · pool · entry 3 · deal 11: "
                                              "13 (typed)")


def test_keys_during_a_slow_save_never_reach_another_cell(browser: Any, db: Path,
                                                          tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    with serving(db, post_delay_s=SAVE_DELAY_S) as server:
        page = Page(browser, server, tmp_path)
        before = all_cells(db)
        # "13" saved, then "14", Enter, "b", "x" and Space at once, while the save is held
        page.keys("1", "3", Keys.ENTER, "1", "4", Keys.ENTER, "b", "x", " ")
        assert browser.execute_script("return document.body.dataset.pending") == "1"
        assert "saving" in browser.find_element("css selector", "#card").get_attribute("class")
        page.settle()
        assert changed(before, db) == {(SHEET1, POOL): (13, 1)}
        assert stored(db, SHEET1, NEXT) == (9, 0)
        assert page.heading().startswith("Иванова (A) · whists on Петренко (B) · entry 1")
        assert page.typed() == ""  # nothing typed into the next cell either
        assert "6 key(s) pressed while saving were not applied" in page.text("#status")
        assert int(browser.execute_script("return document.body.dataset.refused")) == 6


def test_a_candidate_by_its_letter_enter_and_undo(browser: Any, db: Path,
                                                 tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    with serving(db) as server:
        page = Page(browser, server, tmp_path)
        assert [page.text(f".candidates li:nth-child({i}) kbd") for i in (1, 2, 3)] == [
            "a", "b", "c"]
        page.press("b")
        assert stored(db, SHEET1, POOL) == (19, 1)
        assert ": 19 (candidate b)" in page.text("#last")
        page.press("u")
        assert stored(db, SHEET1, POOL) == (79, 0)
        assert page.text("#last").startswith("Undone")
        assert page.heading().startswith("Sidorov (C) · pool · entry 3")
        page.press(Keys.ENTER)  # nothing typed: the first candidate
        assert stored(db, SHEET1, POOL) == (79, 1)
        assert ": 79 (candidate a)" in page.text("#last")
        page.ctrl("z")
        assert stored(db, SHEET1, POOL) == (79, 0)
        page.press("4", "x")  # a letter inside a number is refused, not typed or decided
        assert page.typed() == "4"
        assert stored(db, SHEET1, POOL) == (79, 0)
        assert "not part of a number" in page.text("#status")


def test_a_key_held_down_decides_once(browser: Any, db: Path, tmp_path: Path) -> None:
    """The keyboard's auto-repeat of a held Enter or letter never decides the next cell."""
    with serving(db) as server:
        page = Page(browser, server, tmp_path)
        before = all_cells(db)
        for key, code, repeat in (("b", 66, False), ("b", 66, True), ("b", 66, True),
                                  ("Enter", 13, True), ("Enter", 13, True)):
            event = {"key": key, "code": "Key" + key.upper() if len(key) == 1 else key,
                     "windowsVirtualKeyCode": code, "autoRepeat": repeat}
            browser.execute_cdp_cmd("Input.dispatchKeyEvent", {**event, "type": "keyDown"})
            page.settle()
        assert changed(before, db) == {(SHEET1, POOL): (19, 1)}
        assert page.heading().startswith("Иванова (A) · whists on Петренко (B) · entry 1")


def test_a_skipped_cell_is_said_so_in_words(browser: Any, db: Path, tmp_path: Path) -> None:
    """Space skips the cell: the line above the card names it and says it comes back last,
    and nothing more (it read "comes back lastnull": the undo hint, absent for a skip, was
    written out as null)."""
    with serving(db) as server:
        page = Page(browser, server, tmp_path)
        page.press(" ")
        assert page.text("#last") == "Skipped Sidorov (C) · pool · entry 3 · deal 11: " \
            "comes back last"
        assert stored(db, SHEET1, POOL) == (79, 0)
