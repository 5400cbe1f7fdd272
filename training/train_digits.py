"""Train the score-sheet digit recognizer and write ``scanner/digits/models/digits.onnx``.

Run from the repository root::

    python training/train_digits.py              # about 15 minutes on 2 shared CPUs
    python -m bench.digits_eval --write-report    # DIGITS.md

Training data (only from the TRAINING part of ``samplegen.split``): MNIST less its held-out
and calibration parts (:mod:`training.sources`), handwriting and print fonts and stroke
skeletons drawn with augmentation (:mod:`training.cells`), and cells written by the open
generator's TRAINING writers and cut as the scanner cuts them (:mod:`training.writer_cells`)
and, with ``--sheets``, the digit cells the scanner itself cuts from TRAINING-part sample sheets
(:mod:`training.sheet_cells`; make them with ``python -m bench.reader_eval --part training
--out DIR``).
Whole writer sources (``CALIBRATION_SOURCES``) and the MNIST calibration split are held out:
the softmax temperature (built into the exported graph) and the writer-adaptation output
temperature are fitted on them only (:mod:`training.calibrate`): on the calibration writers'
sheet cells when ``--sheets`` is given (the cells the scanner reads), else on the MNIST split
and the simulated calibration writers. No EVALUATION source, reserved
font or UCI digit enters training, calibration or any choice. Needs PyTorch (CPU), onnx,
mlxtend, Pillow, OpenCV, numpy.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from samplegen.glyphs import HELDOUT_GLYPHS_PATH  # noqa: E402
from training.calibrate import (  # noqa: E402
    figures,
    fit_adaptation_temperature,
    fit_temperature,
    model_logits,
)
from training.dataset import build_dataset, build_writer_cells  # noqa: E402
from training.model import export_onnx, train  # noqa: E402
from training.sheet_cells import Harvest, harvest, training_sheets  # noqa: E402
from training.sources import (  # noqa: E402
    calibration_split,
    font_glyphs,
    load_mnist,
    print_fonts,
    training_fonts,
)
from training.writer_cells import CALIBRATION_SOURCES, writer_sources  # noqa: E402

SEED = 20240601
MODEL_DIR = ROOT / "scanner" / "digits" / "models"


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=SEED, help="seed of the training cells and"
                        " of training (the calibration cells always use the default's)")
    parser.add_argument("--mnist-copies", type=int, default=8)
    parser.add_argument("--font-copies", type=int, default=10)
    parser.add_argument("--empties", type=int, default=4000)
    parser.add_argument("--strokes", type=int, default=4000,
                        help="cells drawn from stroke skeletons")
    parser.add_argument("--writers", type=int, default=12,
                        help="writers of each TRAINING writer source")
    parser.add_argument("--writer-copies", type=int, default=10,
                        help="times each writer writes every digit")
    parser.add_argument("--sheets", type=Path, action="append", default=[],
                        help="folder of TRAINING-part sample sheets (reader_eval --out "
                        "DIR/samples) whose scanner-cut cells to add (again: more folders)")
    parser.add_argument("--sheet-copies", type=int, default=4,
                        help="times each scanner-cut sheet cell enters training")
    parser.add_argument("--out", type=Path, default=MODEL_DIR / "digits.onnx")
    parser.add_argument("--cache", type=Path,
                        help="reuse (or save) the rendered cells in this .npz file")
    return parser.parse_args()


def _save_heldout(images: np.ndarray, labels: np.ndarray) -> None:
    """Write the held-out glyphs unless the file already holds exactly these."""
    from samplegen.glyphs import load_heldout_arrays

    if HELDOUT_GLYPHS_PATH.is_file():
        old_images, old_labels = load_heldout_arrays()
        if np.array_equal(old_images, images) and np.array_equal(old_labels, labels):
            return
    HELDOUT_GLYPHS_PATH.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(HELDOUT_GLYPHS_PATH, images=images, labels=labels.astype(np.uint8))


def _render(args: argparse.Namespace, info: dict[str, Any]) -> dict[str, np.ndarray]:
    """Every training and calibration cell, normalised (or read from ``--cache``)."""
    tr_x, tr_y, held_x, held_y = load_mnist()
    _save_heldout(held_x, held_y)
    tr_x, tr_y, cal_x, cal_y = calibration_split(tr_x, tr_y)
    fonts, font_labels, font_names = font_glyphs(training_fonts())
    pfonts, pfont_labels, pfont_names = font_glyphs(print_fonts())
    info.update(fonts=font_names, print_fonts=pfont_names, n_mnist_train=len(tr_x),
                n_calibration_mnist=len(cal_x), n_heldout=len(held_x))
    if args.cache and args.cache.is_file():
        with np.load(args.cache) as data:
            return dict(data)
    x, y = build_dataset(tr_x, tr_y, fonts + pfonts, font_labels + pfont_labels, args.seed,
                         args.mnist_copies, args.font_copies, args.empties, args.strokes)
    wx, wy, _ = build_writer_cells(writer_sources("fit"), args.writers, args.writer_copies,
                                   args.seed)
    mx, my = build_dataset(cal_x, cal_y, [], [], SEED + 10**6, 3, 0, 500, 0)
    cwx, cwy, cww = build_writer_cells(writer_sources("calibration"), args.writers,
                                       max(2, args.writer_copies // 2), SEED + 10**6)
    fit, held = _sheet_cells(args, info)
    copies = args.sheet_copies
    cells = dict(x=np.concatenate([x, wx, *[fit.x] * copies]),
                 y=np.concatenate([y, wy, *[fit.y] * copies]), mx=mx, my=my,
                 cwx=cwx, cwy=cwy, cww=cww, n_writer_cells=np.asarray(len(wx)),
                 n_sheet_cells=np.asarray(len(fit.y) * copies), sx=held.x, sy=held.y,
                 sw=held.writers)  # the calibration writers' sheet cells, if any, calibrate
    if args.cache:
        np.savez(args.cache, **cells)
    return cells


def _sheet_cells(args: argparse.Namespace, info: dict[str, Any]) -> tuple[Harvest, Harvest]:
    """The scanner-cut cells of the ``--sheets`` folders: those of fitting writers and those
    of :data:`CALIBRATION_SOURCES` writers (held out)."""
    folders: list[Path] = []
    for root in args.sheets:
        found = training_sheets(root)
        folders += found
        if not found:
            raise SystemExit(f"train_digits: {root} holds no TRAINING-part sample sheet; make "
                             "some with python -m bench.reader_eval --part training --out DIR")
    cells = harvest(folders) if folders else Harvest(
        np.zeros((0, 28, 28), np.float32), np.zeros(0, np.int64), np.zeros(0, str),
        np.zeros(0, np.int64))
    held = np.isin(cells.sources, CALIBRATION_SOURCES)
    info.update(n_sheets=len(folders), n_sheet_cells_fit=int((~held).sum()),
                n_sheet_cells_calibration=int(held.sum()),
                sheets=", ".join(str(root) for root in args.sheets))
    return cells.part(~held), cells.part(held)


def _calibration_cells(cells: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The cells the softmax temperature is fitted on: the calibration writers' cells as the
    scanner cuts them from sample sheets where there are any (what the scanner reads), else
    the MNIST calibration split and the simulated calibration writers."""
    if len(cells["sy"]):
        return cells["sx"], cells["sy"]
    return (np.concatenate([cells["mx"], cells["cwx"]]),
            np.concatenate([cells["my"], cells["cwy"]]))


def _check_export(model: Any, x: np.ndarray, path: Path) -> float:
    """Largest difference between cv2.dnn's and PyTorch's probabilities on a few cells."""
    import torch

    with torch.no_grad():
        ref = model(torch.from_numpy(x[:64, None]))[0].numpy()
    net = cv2.dnn.readNetFromONNX(str(path))
    net.setInput(x[:64, None])
    return float(np.abs(ref - net.forward("probs").reshape(ref.shape)).max())


def main() -> None:
    """Render the cells, train, calibrate on held-out writers, export, record."""
    args = _arguments()
    logging.basicConfig(level=logging.ERROR)  # the scanner's per-page warnings on --sheets
    t_start = time.time()
    cv2.setRNGSeed(args.seed)
    info: dict[str, Any] = dict(seed=args.seed, epochs=args.epochs, **{
        k: getattr(args, k) for k in ("mnist_copies", "font_copies", "empties", "strokes",
                                      "writers", "writer_copies", "sheet_copies")})
    info.update(fit_sources=writer_sources("fit"), calibration_sources=writer_sources(
        "calibration"))
    cells = _render(args, info)
    x, y = cells["x"], cells["y"]
    t_data = time.time() - t_start
    print(f"{len(x)} training cells ({int(cells['n_writer_cells'])} from writers, "
          f"{int(cells['n_sheet_cells'])} cut from sheets) in "
          f"{t_data:.0f} s; per class {np.bincount(y).tolist()}", flush=True)
    model = train(x, y, args.epochs, args.seed)
    cal_x, cal_y = _calibration_cells(cells)
    temperature, calib = fit_temperature(model, cal_x, cal_y)
    parts = {name: figures(model_logits(model, cells[f"{key}x"]), cells[f"{key}y"], temperature)
             for name, key in (("writers", "cw"), ("mnist", "m"), ("sheets", "s"))
             if len(cells[f"{key}y"])}
    print(f"temperature {temperature:.3f}: {calib}; {parts}", flush=True)
    model.temperature.fill_(temperature)
    export_onnx(model, args.out)
    info.update(calibration=calib, calibration_parts=parts, data_s=t_data,
                train_s=time.time() - t_start, torch_diff=_check_export(model, x, args.out),
                counts=np.bincount(y, minlength=11).tolist(), n_calibration_cells=len(cal_y),
                params=sum(p.numel() for p in model.parameters()),
                mlxtend=version("mlxtend"), torch_threads=1,
                command=" ".join(["python", *sys.argv]))
    key = "s" if len(cells["sy"]) else "cw"
    info["adapt_calibration"] = fit_adaptation_temperature(args.out, cells[f"{key}x"],
                                                           cells[f"{key}y"], cells[f"{key}w"])
    print(f"adaptation: {info['adapt_calibration']}", flush=True)
    path = args.out.with_name(f"{args.out.stem}_training.json")
    path.write_text(json.dumps(info, indent=1) + "\n")


if __name__ == "__main__":
    main()
