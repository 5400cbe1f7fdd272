"""Where a scan's time goes: seconds per stage, summed over a run.

:func:`scanner.pipeline.scan_paths` and :func:`scanner.read.read_page` take a
:class:`StageClock` and time each stage with it: wall time and the calling thread's CPU time
(which other processes on the machine do not inflate). ``bench/scan_bench.py`` prints it.

>>> clock = StageClock()
>>> with clock.stage("load"):
...     pass
>>> sorted(clock.wall) == ["load"] and clock.cpu["load"] >= 0.0
True
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

STAGES = ("load", "register", "identify", "warp", "cut", "marks", "digits", "decode",
          "output")
"""The stages in pipeline order: decode the files; find the markers and check quality; read
the QR; warp the writing area; find and cut the boxes; read the marks; read the digits;
decode with the rules; write the page images, crops and scan.json."""


class StageClock:
    """Seconds per stage: ``wall`` and ``cpu`` (this thread's), by stage name."""

    def __init__(self) -> None:
        self.wall: defaultdict[str, float] = defaultdict(float)
        self.cpu: defaultdict[str, float] = defaultdict(float)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Add the time spent in the ``with`` block to stage ``name``."""
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            yield
        finally:
            self.cpu[name] += time.thread_time() - cpu
            self.wall[name] += time.perf_counter() - wall

    def add(self, other: StageClock) -> None:
        """Add the times of ``other`` to this clock's."""
        for name, seconds in other.wall.items():
            self.wall[name] += seconds
        for name, seconds in other.cpu.items():
            self.cpu[name] += seconds
