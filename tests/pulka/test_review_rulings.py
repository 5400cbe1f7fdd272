"""The judge's findings panel in real headless Chromium (issue 14, items 2, 3, 6): findings that
wait for review until their cells are decided, a penalty applied and one waived by key, the
sheet signed off, and its report as the store has it now."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from review_fixture import DOUBTS1, SHEET1, build_store
from review_page import Page, browser_fixture, serving

from pulka.store.database import Store
from pulka.store.rulings import findings, signoff

pytestmark = pytest.mark.browser

WRONG = ("entry:A:whists:B:0", "entry:C:pool:2")
"""Read 9 and 26 (the first candidates), written 8 and 20: accepted as read, two errors."""


browser = browser_fixture((1400, 900))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return build_store(tmp_path, doubts=({key: DOUBTS1[key] for key in WRONG}, {}))


def panel_findings(page: Page) -> list[dict[str, Any]]:
    """What the panel shows of each finding: its status, mark and buttons."""
    return list(page.driver.execute_script(
        "return [...document.querySelectorAll('#panel .findings li')].map((li) => ({"
        "status: li.dataset.status, marked: li.classList.contains('marked'),"
        "state: li.querySelector('.finding-state').textContent,"
        "apply: !li.querySelector('button[data-action=apply]').disabled}))"))


def results(db: Path) -> dict[str, Fraction]:
    with Store(db) as store:
        return {seat: Fraction(row["result"]) for seat, row
                in store.sheet_summary(SHEET1)["settlement"].items()}


def test_apply_waive_and_sign_off_by_keys(browser: Any, db: Path, tmp_path: Path) -> None:
    with serving(db) as server:
        page = Page(browser, server, tmp_path)
        waiting = panel_findings(page)
        assert [f["status"] for f in waiting] == ["waits_for_review"] * 2
        assert not any(f["apply"] or f["marked"] for f in waiting)
        page.press("p")  # on the card: no ruling while the cells wait
        with Store(db) as store:
            assert all(f.ruling is None for f in findings(store, SHEET1))
        page.press("a")
        page.press("a")  # both cells accepted as read: the findings are the players' errors
        shown = panel_findings(page)
        assert [f["status"] for f in shown] == ["error"] * 2 and shown[0]["marked"]
        assert "penalty proposed" in shown[0]["state"]
        before = results(db)
        page.press("p")
        page.press("w")
        with Store(db) as store:
            ruled = [(f.ruling, f.ruled_by) for f in findings(store, SHEET1)]
        assert ruled == [("apply", "anna"), ("waive", "anna")]
        after = results(db)  # B writes 1 on A (take back 1 overstated whist, Codex 4.2.7)
        assert after["A"] - before["A"] == -1 and after["B"] - before["B"] == 1
        assert "penalty applied by anna" in page.text("#panel .findings li:nth-child(1)")
        page.press("o")
        with Store(db) as store:
            signed = signoff(store, SHEET1)
        assert signed is not None and signed.who == "anna"
        assert page.text("#signed").startswith("Signed off by anna")
        page.screenshot("review-rulings.png")
        href = page.driver.execute_script("return document.querySelector('#report-link').href")
        page.driver.get(href)
        report = page.driver.find_element("tag name", "body").text
        assert "penalty applied by anna" in report and "signed off by anna" in report
        assert "penalty waived by anna" in report


def test_misread_by_button_corrects_the_cell(browser: Any, db: Path, tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    with serving(db) as server:
        page = Page(browser, server, tmp_path)
        page.press("a")
        page.press("a")
        page.driver.execute_script(
            "document.querySelector('#panel .findings li button[data-action=misread]').click()")
        page.press("8", Keys.ENTER)
        with Store(db) as store:
            value = store.cell(SHEET1, WRONG[0]).value
            left = [f.column for f in findings(store, SHEET1)]
        assert value == 8 and left == ["pool"]
        assert len(panel_findings(page)) == 1
