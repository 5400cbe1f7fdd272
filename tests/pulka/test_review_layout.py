"""The review page fits the screen (issue 14, item 8): no sideways scroll at common sizes.

Measured in real headless Chromium with long Cyrillic and Latin names in the standings, on the
queue (a deal row's card and an entry's card) and the sheet view. The screenshots at 1366 x 768
and 1920 x 1080 go to ``$PULKA_REVIEW_SCREENSHOTS`` when that is set (``samples/review``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from review_fixture import DOUBTS1, DOUBTS2, build_store
from review_page import Page, chromium, serving

pytestmark = pytest.mark.browser

SIZES = ((1366, 768), (1400, 900), (1920, 1080))
SHOT_SIZES = ((1366, 768), (1920, 1080))
LONG_NAMES = ["Александра Ковальчук-Петренко", "Maximilian Lindqvist-Andersson",
              "Жан-Батист Мерсье-Дюбуа"]
OVERFLOW_JS = """
const width = window.innerWidth;
const wide = [...document.querySelectorAll('body *')]
  .filter((n) => n.getBoundingClientRect().right > width + 0.5)
  .map((n) => `${n.tagName.toLowerCase()}${n.id ? '#' + n.id : ''}.${n.className}`);
return [document.documentElement.scrollWidth, width, wide.slice(0, 5)];
"""


def fits(driver: Any, where: str) -> None:
    scroll_width, width, wide = driver.execute_script(OVERFLOW_JS)
    assert scroll_width <= width, f"{where}: {scroll_width} px wide in {width} ({wide})"


def test_no_sideways_scroll(tmp_path: Path) -> None:
    with chromium(SIZES[0]) as driver:
        for width, height in SIZES:
            folder = tmp_path / f"{width}x{height}"
            folder.mkdir()
            db = build_store(folder, doubts=(DOUBTS1, DOUBTS2), names2=LONG_NAMES)
            with serving(db) as server:
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
                page = Page(driver, server, folder)
                assert driver.execute_script("return [innerWidth, innerHeight]") == [width,
                                                                                      height]
                assert page.heading() == "deal 18 (row 18)"
                fits(driver, f"{width}x{height}, a deal row's card")
                if (width, height) in SHOT_SIZES:
                    page.screenshot(f"queue-{width}x{height}.png")
                page.press("s")
                assert "entry" in page.heading()
                fits(driver, f"{width}x{height}, an entry's card")
                page.press("v")
                page.wait.until(lambda d: d.find_elements("css selector", "rect.cell"))
                fits(driver, f"{width}x{height}, the sheet view")
