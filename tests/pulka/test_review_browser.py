"""The review page in real headless Chromium: keys decide cells, the store and standings follow.

Needs Debian's ``chromium`` and ``chromium-driver`` and the ``selenium`` package (``.ci/run``
installs them); skipped with the reason otherwise. ``PULKA_REVIEW_SCREENSHOTS=samples/review``
keeps the screenshots of the queue and the sheet view there.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from review_fixture import SHEET1, SHEET2, TRUTH, build_store

from pulka.report import standings as ranking
from pulka.review import ReviewServer, make_server
from pulka.store.database import Store

pytestmark = pytest.mark.browser

CHROMIUM = Path(os.environ.get("PULKA_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("PULKA_CHROMEDRIVER", "/usr/bin/chromedriver"))
WINDOW = (1440, 1050)
WAIT_S = 15


def _missing() -> str | None:
    if not CHROMIUM.is_file():
        return f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium chromium-driver)"
    if not CHROMEDRIVER.is_file():
        return f"no chromedriver at {CHROMEDRIVER} (Debian: apt-get install chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "the selenium package is not installed (pip install selenium)"
    return None


@pytest.fixture
def browser() -> Iterator[Any]:
    reason = _missing()
    if reason:
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--hide-scrollbars",
                f"--window-size={WINDOW[0]},{WINDOW[1]}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    yield driver
    driver.quit()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ReviewServer]:
    running = make_server(build_store(tmp_path), who="anna")
    threading.Thread(target=running.serve_forever, args=(0.05,), daemon=True).start()
    yield running
    running.shutdown()
    running.server_close()


class Page:
    """The review page in the browser: keys, waits, what it shows."""

    def __init__(self, driver: Any, server: ReviewServer, shots: Path) -> None:
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.support.ui import WebDriverWait

        self.driver, self.server, self.shots = driver, server, shots
        self.chain = ActionChains
        self.wait = WebDriverWait(driver, WAIT_S, poll_frequency=0.02)
        driver.get(server.url)
        self.settle()

    def settle(self) -> None:
        """Wait until every key pressed has had its answer drawn."""
        self.wait.until(lambda d: d.execute_script(
            "return document.readyState === 'complete' && document.body.dataset.pending === '0'"
            " && document.querySelector('#progress').textContent !== ''"))

    def press(self, *keys: str) -> None:
        actions = self.chain(self.driver)
        for key in keys:
            actions.send_keys(key)
        actions.perform()
        self.settle()

    def text(self, selector: str) -> str:
        return str(self.driver.execute_script(
            "const n = document.querySelector(arguments[0]); return n ? n.textContent : ''",
            selector))

    def heading(self) -> str:
        return self.text("#card h2")

    def screenshot(self, name: str) -> None:
        time.sleep(2.2)  # the settlement's changed-row highlight fades
        self.driver.save_screenshot(str(self.shots / name))
        keep = os.environ.get("PULKA_REVIEW_SCREENSHOTS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            shutil.copy(self.shots / name, Path(keep) / name)


def stored(db: Path, sheet: str, key: str) -> tuple[Any, int]:
    with Store(db) as store:
        value, verified = store.conn.execute(
            "SELECT c.value_json, c.verified FROM cells c JOIN sheets s ON s.id = c.sheet_id "
            "WHERE s.sheet_id = ? AND c.key = ?", (sheet, key)).fetchone()
    return json.loads(value), verified


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

    page.press("2")  # the second candidate: 9♣, not 6♣
    assert stored(db, SHEET1, "row:17") == (TRUTH["row:17"], 1)
    assert standings(db)["Петренко"] != before["Петренко"]
    assert page.heading().startswith("Иванова (A) · whists on Петренко (B) · entry 1")
    assert "fits the rules" not in page.text(".candidates li:nth-child(1)")
    assert "Findings (2)" in page.text("#panel")
    page.screenshot("queue.png")

    page.press("2")  # 8, what the rules expect
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
    page.press("t", "3", "4", Keys.ENTER)  # typed
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

    start = time.perf_counter()
    page.press("1", "1", "1")  # three decisions in one burst: none is lost
    burst = time.perf_counter() - start
    print(f"\nreview page: 3 decisions in {burst * 1000:.0f} ms "
          f"({3 / burst:.1f} decisions/s, each saved, audited and redrawn)")
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
