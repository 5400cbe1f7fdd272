# ruff: noqa: E501 (the Markdown report template has long table rows)
"""Evaluate the digit model: held-out MNIST and UCI digits, with and without writer adaptation.

Run from the repository root::

    python -m bench.digits_eval [--trials 20]

UCI digits (``sklearn.datasets.load_digits``: 1797 digits, 8x8, by writers not
in the training data) are rendered at cell scale: upscaled to 45x45 px with
cubic interpolation, smoothed, and centred in a 53x71 px cell (300 dpi).
The held-out MNIST digits are also scored at low resolution (digit 10 px tall,
enlarged back), a non-UCI check of blurred, coarse digits, and reduced as the UCI digits were
(:func:`samplegen.uci.coarse_blocks`: 8 x 8 blocks of a 32 x 32 bitmap) and drawn as they are:
what a choice made for coarse digits is measured on, the UCI digits only scored.
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
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from samplegen.glyphs import glyph_to_cell, load_heldout_arrays  # noqa: E402
from samplegen.uci import coarse_blocks  # noqa: E402
from scanner.digits.adaptation import WriterAdaptation  # noqa: E402
from scanner.digits.constants import (  # noqa: E402
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
PREVIOUS_FIGURES = dict(commit="761bd2d", heldout="98.40 %", uci="97.38 %",
                        uci_adapted="97.79 ± 0.87 %", uci_page="98.15 ± 0.18 %",
                        calibration="96.66 % (NLL 0.103)")


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


def coarse_cells() -> tuple[list[np.ndarray], np.ndarray]:
    """The held-out MNIST glyphs reduced as the UCI digits were (8 x 8 blocks of 0-16), drawn
    into cells as :func:`uci_cell` draws those."""
    images, labels = load_heldout_arrays()
    return [uci_cell(16.0 * coarse_blocks(g)) for g in images], labels


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
            "coarse_mnist": coarse_cells(), "uci": uci_cells()}
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
    from bench.digits_report import matrix_md, pct, write_report

    models = ROOT / "scanner" / "digits" / "models"
    model = args.model or models / "digits.onnx"
    info = json.loads(model.with_name(f"{model.stem}_training.json").read_text())
    if args.write_report:
        write_report(models / "DIGITS.md", info, args.trials, args.previous_model)
        return
    r = evaluate(args.trials, float(info.get("calibration", {}).get("temperature", 1.0)),
                 args.previous_model, args.model)
    for name in ("heldout_mnist", "low_res_mnist", "coarse_mnist", "uci"):
        x = r[name]
        a = x["adapt"]
        print(f"{name}: n={x['n']} accuracy {pct(x['acc'])} ({x['empty']} read as EMPTY), "
              f"ECE {pct(x['ece'])} (untempered {pct(x['ece_untempered'])}); adaptation: "
              f"test part {a['n_test']} unadapted {pct(a['base'])} -> adapted "
              f"{pct(a['mean'])} ± {100 * a['std']:.2f} (min {pct(a['min'])}, "
              f"{a['trials']} trials, ECE {pct(a['ece'])}); per page of {PAGE_DIGITS} "
              f"{pct(a['page_mean'])} ± {100 * a['page_std']:.2f} "
              f"(min {pct(a['page_min'])}, ECE {pct(a['page_ece'])})")
        print(matrix_md(x["confusion"]))
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
