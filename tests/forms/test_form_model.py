"""The geometry values: a box's hash, computed once, agrees with its equality."""

from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys
from pathlib import Path

from forms.layout import build_layout
from forms.model import Box, EntryCell

ROOT = Path(__file__).resolve().parents[2]


def test_equal_boxes_hash_alike_and_changed_ones_do_not() -> None:
    box = build_layout(4, "A4").boxes[7]
    same = dataclasses.replace(box)
    moved = dataclasses.replace(box, x_mm=box.x_mm + 0.001)
    assert same == box and hash(same) == hash(box)
    assert moved != box and {box: 1}.get(moved) is None
    assert {same: "found"}[box] == "found"


def test_a_pickled_box_hashes_as_one_made_in_the_loading_process() -> None:
    box = Box(0, 1.0, 2.0, 4.5, 6.0, 90, "digit", EntryCell("N", "pool", None, 3, 1))
    # another process hashes strings differently: the stored hash must not travel
    code = ("import pickle, sys; from forms.model import Box, EntryCell; "
            "b = pickle.loads(sys.stdin.buffer.read()); "
            "fresh = Box(0, 1.0, 2.0, 4.5, 6.0, 90, 'digit', EntryCell('N', 'pool', None, 3, 1)); "
            "print(hash(b) == hash(fresh) and b in {fresh})")
    result = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(box),
                            capture_output=True, check=True, env={"PYTHONHASHSEED": "123",
                                                                  "PYTHONPATH": str(ROOT)})
    assert result.stdout.strip() == b"True"
