"""bench.digits_sheets as a person runs it: several sets' folders at once, their cells scored
together; a folder without TRAINING sheets refused in a sentence naming it."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from samplegen.games import fitting_game
from samplegen.glyphs import default_glyphs
from samplegen.profiles import plan_sheets
from samplegen.sheets import make_sample
from samplegen.split import Part
from scoring import RuleSet
from training.sheet_cells import sheet_cells


def _run(*folders: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.digits_sheets", *map(str, folders)],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_two_sets_are_scored_together_and_an_empty_folder_is_refused(tmp_path: Path) -> None:
    plan = plan_sheets("open", Part.TRAINING, 4)[0]
    sets = []
    for seed in (1, 2):
        rng = random.Random(seed)
        folder = tmp_path / f"set{seed}" / "000-sheet"
        make_sample(fitting_game(RuleSet.preset("sochi", 3, 10), rng), folder,
                    default_glyphs(), rng, dpi=200, plan=plan)
        sets.append(folder.parent)
    cells = sum(len(sheet_cells(s / "000-sheet").crops) for s in sets)
    run = _run(*sets)
    assert run.returncode == 0, run.stderr
    total = [line for line in run.stdout.splitlines() if "| all |" in line]
    assert sum(int(line.split("|")[4]) for line in total) == cells
    empty = tmp_path / "nothing"
    empty.mkdir()
    refused = _run(sets[0], empty)
    assert refused.returncode != 0 and str(empty) in refused.stderr
    assert "Traceback" not in refused.stderr
