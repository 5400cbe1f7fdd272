"""bench.reader_eval --family and --ink: a run asks for one glyph family or one ink, the
TRAINING part's coarse digits only where that part has them, and a family the part lacks or an
ink it has not is refused in a sentence."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bench.reader_eval import open_plans
from samplegen.split import Part


def test_a_family_asked_for_plans_that_family_only() -> None:
    plans = open_plans(Part.TRAINING, 6, None, None, "blocks")
    assert {p.family for p in plans} == {"blocks"} and len(plans) == 6
    filtered = open_plans(Part.EVALUATION, 2, "flatbed-grey", None, "uci")
    assert {(p.family, p.capture) for p in filtered} == {("uci", "flatbed-grey")}


def test_a_family_the_part_lacks_is_refused_in_a_sentence() -> None:
    with pytest.raises(SystemExit, match="no glyph source of the family 'blocks'"):
        open_plans(Part.EVALUATION, 1, None, None, "blocks")
    run = subprocess.run([sys.executable, "-m", "bench.reader_eval", "--family", "coarse",
                          "--sheets", "1", "--legacy", "0"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    assert "family 'coarse'" in run.stderr and "Traceback" not in run.stderr


def test_an_ink_asked_for_plans_that_ink_only_and_an_unknown_one_is_refused() -> None:
    plans = open_plans(Part.TRAINING, 8, None, None, None, "pencil")
    assert {p.ink for p in plans} == {"pencil"} and len(plans) == 8
    assert len({p.capture for p in plans}) > 1  # every capture still met
    with pytest.raises(SystemExit, match="ink 'biro'"):
        open_plans(Part.TRAINING, 1, None, None, None, "biro")
