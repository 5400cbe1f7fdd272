"""The review page driven in real headless Chromium, as a person drives it: key events only.

Shared by the browser tests. Needs Debian's ``chromium`` and ``chromium-driver`` and the
``selenium`` package (``.ci/run`` installs them); :func:`chromium` skips the test with the
reason otherwise. ``PULKA_REVIEW_SCREENSHOTS=samples/review`` keeps the screenshots there.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from pulka.review import ReviewServer, make_server
from pulka.review.server import ReviewHandler
from pulka.store.database import Store

CHROMIUM = Path(os.environ.get("PULKA_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("PULKA_CHROMEDRIVER", "/usr/bin/chromedriver"))
WAIT_S = 15


def missing() -> str | None:
    """Why a browser test cannot run here, or ``None``."""
    if not CHROMIUM.is_file():
        return f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium chromium-driver)"
    if not CHROMEDRIVER.is_file():
        return f"no chromedriver at {CHROMEDRIVER} (Debian: apt-get install chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "the selenium package is not installed (pip install selenium)"
    return None


@contextmanager
def chromium(size: tuple[int, int]) -> Iterator[Any]:
    """Headless Chromium whose page is ``size`` CSS pixels (width, height); skips without it."""
    reason = missing()
    if reason:
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--hide-scrollbars",
                f"--window-size={size[0]},{size[1]}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    try:
        yield driver
    finally:
        driver.quit()


def browser_fixture(size: tuple[int, int]) -> Any:
    """A ``browser`` fixture: :func:`chromium` at ``size`` for each test."""

    @pytest.fixture
    def browser() -> Iterator[Any]:
        with chromium(size) as driver:
            yield driver

    return browser


class TimedHandler(ReviewHandler):
    """The server's handler, each POST held back ``server.post_delay_s`` and its own time
    (without the hold) appended to ``server.post_ms``."""

    def _post(self) -> None:
        time.sleep(getattr(self.server, "post_delay_s", 0.0))
        start = time.perf_counter()
        super()._post()
        self.server.post_ms.append((time.perf_counter() - start) * 1e3)  # type: ignore[attr-defined]


@contextmanager
def serving(db: Path, post_delay_s: float = 0.0) -> Iterator[ReviewServer]:
    """The review server on a free port, deciding as "anna", in a thread of its own."""
    running = make_server(db, who="anna")
    running.RequestHandlerClass = TimedHandler
    running.post_delay_s = post_delay_s  # type: ignore[attr-defined]
    running.post_ms = []  # type: ignore[attr-defined]
    threading.Thread(target=running.serve_forever, args=(0.05,), daemon=True).start()
    try:
        yield running
    finally:
        running.shutdown()
        running.server_close()


class Page:
    """The review page in the browser: keys, waits, what it shows."""

    def __init__(self, driver: Any, server: ReviewServer, shots: Path) -> None:
        from selenium.webdriver.support.ui import WebDriverWait

        self.driver, self.server, self.shots = driver, server, shots
        self.wait = WebDriverWait(driver, WAIT_S, poll_frequency=0.02)
        driver.get(server.url)
        self.settle()

    def settle(self) -> None:
        """Wait until every key pressed has had its answer drawn."""
        self.wait.until(lambda d: d.execute_script(
            "return document.readyState === 'complete' && document.body.dataset.pending === '0'"
            " && document.querySelector('#progress').textContent !== ''"))

    def keys(self, *keys: str) -> None:
        """Press keys one after the other, as fast as a person's fingers, waiting for nothing."""
        from selenium.webdriver.common.action_chains import ActionChains

        actions = ActionChains(self.driver)
        for key in keys:
            actions.send_keys(key)
        actions.perform()

    def press(self, *keys: str) -> None:
        """Press keys, then wait for the page to draw their answers."""
        self.keys(*keys)
        self.settle()

    def ctrl(self, key: str) -> None:
        """Press Ctrl+``key``, then wait for the answer."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        ActionChains(self.driver).key_down(Keys.CONTROL).send_keys(key).key_up(
            Keys.CONTROL).perform()
        self.settle()

    def text(self, selector: str) -> str:
        return str(self.driver.execute_script(
            "const n = document.querySelector(arguments[0]); return n ? n.textContent : ''",
            selector))

    def heading(self) -> str:
        return self.text("#card h2")

    def typed(self) -> str:
        """What the card's input holds."""
        return str(self.driver.execute_script(
            "const n = document.querySelector('#typed'); return n ? n.value : ''"))

    def screenshot(self, name: str) -> Path:
        """A PNG of the window, kept under ``$PULKA_REVIEW_SCREENSHOTS`` when that is set."""
        time.sleep(2.2)  # the settlement's changed-row highlight fades
        self.driver.save_screenshot(str(self.shots / name))
        return keep(self.shots / name)


def keep(path: Path) -> Path:
    """Copy a screenshot to ``$PULKA_REVIEW_SCREENSHOTS`` when that is set."""
    folder = os.environ.get("PULKA_REVIEW_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(folder) / path.name)
    return path


def stored(db: Path, sheet: str, key: str) -> tuple[Any, int]:
    """A cell's value in the store and whether a person verified it."""
    with Store(db) as store:
        value, verified = store.conn.execute(
            "SELECT c.value_json, c.verified FROM cells c JOIN sheets s ON s.id = c.sheet_id "
            "WHERE s.sheet_id = ? AND c.key = ?", (sheet, key)).fetchone()
    return json.loads(value), verified


def all_cells(db: Path) -> dict[tuple[str, str], tuple[Any, int]]:
    """Every cell of the store: (sheet, key) -> (value, verified)."""
    with Store(db) as store:
        rows = store.conn.execute(
            "SELECT s.sheet_id, c.key, c.value_json, c.verified FROM cells c "
            "JOIN sheets s ON s.id = c.sheet_id").fetchall()
    return {(sheet, key): (json.loads(value), verified) for sheet, key, value, verified in rows}
