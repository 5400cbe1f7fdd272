"""Digit models on the cells the scanner cuts from sample sheets, per capture, side by side.

Run: ``python -m bench.digits_sheets DIR [DIR ...] [--model FILE ...]`` where each ``DIR``
holds TRAINING-part sample sheets (``python -m bench.reader_eval --part training --out OUT``
makes them under ``OUT/samples``; several sets' at once). Every digit cell the classifier
would see is cut as ``pulka scan`` reads it (:mod:`training.sheet_cells`) and read by each
model alone (no writer adaptation, no rules). Per capture and per writer group (sources the
network fits on; :data:`CALIBRATION_SOURCES`, held out from fitting) it prints: cells,
accuracy, negative log-likelihood, expected calibration error, the share read below
:data:`UNSURE_P` (likely doubtful) and the share read wrong at :data:`SURE_P` or above (a
silent error unless the rules catch it).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from bench.digits_eval import expected_calibration_error
from scanner.digits.recognizer import MODEL_PATH, DigitRecognizer
from training.sheet_cells import Harvest, harvest, training_sheets
from training.writer_cells import CALIBRATION_SOURCES

UNSURE_P = 0.9
SURE_P = 0.99
HEADER = ("| model | capture | writers | cells | right | NLL | ECE | below 0.9 | wrong at 0.99 |\n"
          "|---|---|---|---|---|---|---|---|---|")


def _captures(folders: list[Path]) -> list[str]:
    return [json.loads((f / "truth.json").read_text(encoding="utf-8"))["writers"]["plan"]
            ["capture"] for f in folders]


def row(model: str, capture: str, group: str, probs: np.ndarray, y: np.ndarray) -> str:
    """One table row: the figures of ``probs`` against labels ``y``."""
    best, pred = probs.max(axis=1), probs.argmax(axis=1)
    nll = float(-np.log(np.maximum(probs[np.arange(len(y)), y], 1e-12)).mean())
    return (f"| {model} | {capture} | {group} | {len(y)} | {100 * (pred == y).mean():.2f} % | "
            f"{nll:.3f} | {100 * expected_calibration_error(probs, y):.2f} % | "
            f"{100 * (best < UNSURE_P).mean():.2f} % | "
            f"{100 * ((best >= SURE_P) & (pred != y)).mean():.2f} % |")


def table(cells: Harvest, captures: np.ndarray, models: list[Path]) -> list[str]:
    """The rows of every model, capture and writer group."""
    held = np.isin(cells.sources, CALIBRATION_SOURCES)
    lines = [HEADER]
    for model in models:
        probs = DigitRecognizer(model).run_normalized(cells.x)[0]
        for capture in [*sorted(set(captures.tolist())), "all"]:
            here = np.ones(len(captures), bool) if capture == "all" else captures == capture
            for group, keep in (("fitted", here & ~held), ("held out", here & held)):
                if keep.any():
                    lines.append(row(model.name, capture, group, probs[keep], cells.y[keep]))
    return lines


def main() -> None:
    """Cut the sheets' cells once, read them with each model, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sheets", type=Path, nargs="+",
                        help="folders of TRAINING-part sample sheets")
    parser.add_argument("--model", type=Path, action="append",
                        help="digit model to read with (again: each in turn)")
    args = parser.parse_args()
    found = [(d, training_sheets(d)) for d in args.sheets]
    empty = [str(d) for d, sheets in found if not sheets]
    if empty:
        parser.error(f"{', '.join(empty)} holds no TRAINING-part sample sheet; make some with "
                     "python -m bench.reader_eval --part training --out DIR")
    folders = [f for _, sheets in found for f in sheets]
    made = [harvest([f]) for f in folders]
    captures = np.concatenate([np.full(len(m.y), c) for m, c in zip(made, _captures(folders),
                                                                     strict=True)])
    cells = Harvest(*(np.concatenate([getattr(m, name) for m in made])
                      for name in ("x", "y", "sources", "writers")))
    print("\n".join(table(cells, captures, args.model or [MODEL_PATH])))


if __name__ == "__main__":
    main()
