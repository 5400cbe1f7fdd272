"""The scan pipeline's glue: what it sets for the length of a scan, and restores."""

from __future__ import annotations

import gc
from pathlib import Path

from scanner.pipeline import GC_YOUNG_THRESHOLD, ScanFailure, scan_paths


def test_the_collector_runs_less_often_while_scanning_and_as_before_after(
        tmp_path: Path) -> None:
    (tmp_path / "a.jpg").write_bytes(b"not an image")
    (tmp_path / "b.jpg").write_bytes(b"not one either")
    before = gc.get_threshold()
    during = []
    for outcome in scan_paths([tmp_path], tmp_path / "out"):
        assert isinstance(outcome, ScanFailure)
        during.append(gc.get_threshold())
    assert len(during) == 2
    assert all(seen == (max(before[0], GC_YOUNG_THRESHOLD), *before[1:]) for seen in during)
    assert gc.get_threshold() == before
    # a scan given up half way (its generator closed) restores it too
    scan = scan_paths([tmp_path], tmp_path / "out")
    next(scan)
    assert gc.get_threshold()[0] == max(before[0], GC_YOUNG_THRESHOLD)
    scan.close()
    assert gc.get_threshold() == before
