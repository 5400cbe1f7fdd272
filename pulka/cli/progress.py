"""A one-line progress bar on stderr, drawn only when stderr is a terminal (OCRmyPDF's habit)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

BAR_WIDTH = 30
"""Characters of the bar."""
REDRAW_S = 0.1
"""Least seconds between two redraws."""


class ProgressBar:
    """``update(done, total, label)`` redraws the line; ``close()`` ends it."""

    def __init__(self, title: str, stream: TextIO | None = None) -> None:
        self.title = title
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self.start = time.perf_counter()
        self._last = 0.0
        self._drawn = False

    def update(self, done: int, total: int, label: str = "") -> None:
        """Redraw (at most every :data:`REDRAW_S`, and always at the end)."""
        if not self.enabled:
            return
        now = time.perf_counter()
        if done < total and now - self._last < REDRAW_S:
            return
        self._last = now
        filled = BAR_WIDTH * done // max(total, 1)
        rate = done / max(now - self.start, 1e-9)
        text = (f"\r{self.title} [{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{total} "
                f"{rate:.1f}/s {label[-30:]}")
        self.stream.write(text.ljust(100)[:100])
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """End the line, if one was drawn."""
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False
