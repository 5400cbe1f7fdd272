"""How fast the review page lets a judge decide: 20 doubtful cells, typed and picked by key.

Drives real headless Chromium through a queue of 20 cells (two sheets, each cell read ten more
than written, the written value its second candidate): every other cell typed as digits and
Enter, the others accepted by the candidate's letter. Checks that each cell holds what was
decided and prints the page's decisions per minute (the machine's part of a judge's time: key
to the next card drawn, no thinking) and the server's time per decision.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest
from review_fixture import build_store, queue_of
from review_page import Page, chromium, serving, stored

pytestmark = pytest.mark.browser

CELLS_PER_SHEET = 10


def test_twenty_decisions(tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    queue = queue_of(CELLS_PER_SHEET)
    db = build_store(tmp_path, doubts=(queue, queue))
    decided = {}
    with serving(db) as server, chromium((1400, 900)) as driver:
        page = Page(driver, server, tmp_path)
        start = time.perf_counter()
        for n in range(2 * CELLS_PER_SHEET):
            sheet, key = driver.execute_script(
                "const c = document.querySelector('#card').dataset; return [c.sheet, c.key]")
            truth = queue[key][2][1][0]
            if n % 2:
                page.press(*str(truth), Keys.ENTER)
            else:
                page.press("b")
            decided[sheet, key] = truth
        seconds = time.perf_counter() - start
        assert page.text("#empty h2") == "Nothing left to check"
        # a handler notes its time after its answer went out
        page.wait.until(lambda _: len(server.post_ms) == len(decided))  # type: ignore[attr-defined]
        server_ms = list(server.post_ms)  # type: ignore[attr-defined]
    assert len(decided) == 2 * CELLS_PER_SHEET
    assert all(stored(db, sheet, key) == (truth, 1) for (sheet, key), truth in decided.items())
    print(f"\nreview page: {len(decided)} decisions in {seconds:.2f} s, "
          f"{60 * len(decided) / seconds:.0f} decisions/min (key to next card drawn); server "
          f"{statistics.median(server_ms):.0f} ms median, {max(server_ms):.0f} ms most per "
          "decision (save, audit, settlement, queue, standings)")
