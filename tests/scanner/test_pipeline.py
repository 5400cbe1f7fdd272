"""The scan pipeline's glue: a library call leaves the process as it found it."""

from __future__ import annotations

import gc
from pathlib import Path

from scanner.pipeline import ScanFailure, scan_paths


def test_a_scan_leaves_the_garbage_collector_alone(tmp_path: Path) -> None:
    (tmp_path / "a.jpg").write_bytes(b"not an image")
    (tmp_path / "b.jpg").write_bytes(b"not one either")
    before = gc.get_threshold()
    during = []
    for outcome in scan_paths([tmp_path], tmp_path / "out"):
        assert isinstance(outcome, ScanFailure)
        during.append(gc.get_threshold())
    assert during == [before, before]
    assert gc.get_threshold() == before
