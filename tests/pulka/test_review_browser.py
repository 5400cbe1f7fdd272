"""The review page in real headless Chromium: keys decide cells, the store and standings follow.

Needs Chromium, chromedriver and selenium (:mod:`review_page`); skipped with the reason
otherwise. ``PULKA_REVIEW_SCREENSHOTS=samples/review`` keeps the screenshots of the queue and
the sheet view there.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from review_fixture import SHEET1, SHEET2, TRUTH, build_store
from review_page import Page, browser_fixture, serving, stored

from pulka.report import standings as ranking
from pulka.review import ReviewServer
from pulka.store.database import Store

pytestmark = pytest.mark.browser

WINDOW = (1440, 1050)


browser = browser_fixture(WINDOW)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ReviewServer]:
    with serving(build_store(tmp_path)) as running:
        yield running


def standings(db: Path) -> dict[str, tuple[str, int]]:
    with Store(db) as store:
        rows = ranking.standings(store, "Kyiv Open").rows
    return {r.player: (str(r.total), r.provisional) for r in rows}


def test_a_person_clears_the_queue_by_keyboard(browser: Any, server: ReviewServer,
                                               tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    db = server.db
    before = standings(db)
    page = Page(browser, server, tmp_path)
    assert page.text("#progress").startswith("7 to check in 2 sheets")
    assert page.heading() == "deal 18 (row 18)"
    assert "B 9♣" in page.text(".candidates li:nth-child(2)")

    page.press("b")  # the second candidate: 9♣, not 6♣
    assert stored(db, SHEET1, "row:17") == (TRUTH["row:17"], 1)
    assert standings(db)["Петренко"] != before["Петренко"]
    assert page.heading().startswith("Иванова (A) · whists on Петренко (B) · entry 1")
    assert "fits the rules" not in page.text(".candidates li:nth-child(1)")
    assert "Findings (2)" in page.text("#panel")
    page.screenshot("queue.png")

    page.press("b")  # 8, what the rules expect
    assert stored(db, SHEET1, "entry:A:whists:B:0") == (8, 1)
    assert page.heading().startswith("Sidorov (C) · pool · entry 3")

    page.press("v")  # the sheet view: C's pool still has its finding
    page.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, 'rect[data-key="row:17"]'))
    assert browser.find_element(By.CSS_SELECTOR, 'rect[data-key="entry:C:pool:2"]'
                                ).get_attribute("class") == "cell finding current"
    assert "verified" in browser.find_element(
        By.CSS_SELECTOR, 'rect[data-key="entry:A:whists:B:0"]').get_attribute("class")
    browser.execute_script("window.scrollTo(0, 0)")
    page.screenshot("sheet.png")
    rect = browser.find_element(By.CSS_SELECTOR, 'rect[data-key="entry:C:pool:2"]')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", rect)
    rect.click()
    box = page.wait.until(lambda d: d.find_element(By.CSS_SELECTOR, ".editor input"))
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("20", Keys.ENTER)
    page.settle()
    assert stored(db, SHEET1, "entry:C:pool:2") == (20, 1)
    assert "Findings (0)" in page.text("#panel")
    page.press("v")

    assert page.heading().startswith("Иванова (A) · mountain · entry 3")
    page.press("3", "4", Keys.ENTER)  # typed
    assert stored(db, SHEET1, "entry:A:mountain:2") == (34, 1)
    assert standings(db)["Иванова"][1] == 0  # sheet 1 settled: no longer provisional

    assert page.heading().startswith("Lindqvist (B) · mountain · entry 1")
    page.press("x")
    assert stored(db, SHEET2, "entry:B:mountain:0") == (None, 1)
    assert "Findings (0)" not in page.text("#panel")
    page.press("u")
    assert stored(db, SHEET2, "entry:B:mountain:0") == (3, 0)
    assert page.heading().startswith("Lindqvist (B) · mountain · entry 1")
    page.press(" ")  # skip: it comes back last
    assert page.heading().startswith("Lindqvist (B) · pool · entry 3")

    for _ in range(3):
        page.press(Keys.ENTER)  # nothing typed: Enter accepts the first candidate
    assert stored(db, SHEET2, "entry:B:mountain:0") == (3, 1)
    assert page.text("#empty h2") == "Nothing left to check"
    with Store(db) as store:
        assert store.state_counts() == {"settled": 2}
        (decisions,) = store.conn.execute("SELECT count(*) FROM decisions").fetchone()
        assert decisions == 7
        whos = {r[0] for r in store.conn.execute("SELECT who FROM decisions")}
        assert whos == {"anna"}
    assert all(provisional == 0 for _, provisional in standings(db).values())
    assert "provisional" not in page.text("#panel")


def test_an_empty_store_says_how_to_fill_it(browser: Any, tmp_path: Path) -> None:
    """A store with no sheet yet: the page says so and how to import scans, and nothing more
    (it ended in "null": the sheet list's button, absent then, was written out)."""
    db = tmp_path / "empty.sqlite"
    with Store(db):
        pass
    with serving(db) as running:
        page = Page(browser, running, tmp_path)
        assert page.text("#empty h2") == "The store has no sheets yet"
        assert page.text("#empty").endswith("their doubtful cells appear here.")
