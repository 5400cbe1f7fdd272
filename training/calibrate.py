"""Calibration: the softmax and writer-adaptation temperatures, fitted on held-apart writers.

Both are fitted (minimum negative log-likelihood) on cells the network never trained on: the
calibration writers of :mod:`training.writer_cells` (whole glyph sources held out from
fitting) and, for the softmax, the MNIST calibration split too. Never on an EVALUATION source
or on UCI.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from scanner.digits.constants import ADAPT_OUTPUT_TEMPERATURE, EMPTY_CLASS

Pages = list[list[tuple[np.ndarray, np.ndarray, np.ndarray]]]


def model_logits(model: Any, x: np.ndarray) -> np.ndarray:
    """The network's logits for normalised cells ``x``."""
    import torch

    model.eval()
    with torch.no_grad():
        return np.concatenate([model.logits(torch.from_numpy(x[i: i + 512, None])).numpy()
                               for i in range(0, len(x), 512)]).astype(np.float64)


def softmax(logits: np.ndarray, t: float) -> np.ndarray:
    """Probabilities at temperature ``t``."""
    z = logits / t
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)


def _nll(p: np.ndarray, y: np.ndarray) -> float:
    return float(-np.log(np.maximum(p[np.arange(len(y)), y], 1e-12)).mean())


def figures(logits: np.ndarray, y: np.ndarray, t: float) -> dict[str, float]:
    """Accuracy, NLL and ECE of cells at temperature 1 and ``t``."""
    from bench.digits_eval import expected_calibration_error

    before, after = softmax(logits, 1.0), softmax(logits, t)
    return dict(n=len(y), acc=float((logits.argmax(1) == y).mean()), temperature=t,
                nll_before=_nll(before, y), nll_after=_nll(after, y),
                ece_before=expected_calibration_error(before, y),
                ece_after=expected_calibration_error(after, y))


def fit_temperature(model: Any, x: np.ndarray, y: np.ndarray) -> tuple[float, dict[str, float]]:
    """The softmax temperature of minimum NLL on held-apart cells, and their figures."""
    logits = model_logits(model, x)
    grid = np.exp(np.linspace(np.log(0.3), np.log(5.0), 200))
    t_best = float(grid[int(np.argmin([_nll(softmax(logits, t), y) for t in grid]))])
    return t_best, figures(logits, y, t_best)


def _writer_pages(probs: np.ndarray, y: np.ndarray, writers: np.ndarray, trials: int,
                  seed: int) -> tuple[np.ndarray, Pages]:
    """Each writer's digits split into a pool (30 %) and a test part; per trial, each
    writer's test digits cut into pages, each page with one pool digit per class (that the
    model does not read as EMPTY) as its calibration references."""
    from bench.digits_eval import PAGE_DIGITS

    rng = np.random.default_rng(seed)
    pools, tests = {}, []
    for w in np.unique(writers):
        mine = rng.permutation(np.nonzero(writers == w)[0])
        pools[w], test = mine[: int(0.3 * len(mine))], mine[int(0.3 * len(mine)):]
        tests.append(test)
    pages: Pages = []
    for _ in range(trials):
        trial = []
        for w, test in zip(pools, tests, strict=True):
            pool = pools[w]
            for page in np.array_split(rng.permutation(test), max(1, len(test) // PAGE_DIGITS)):
                pick = np.array([rng.choice(pool[y[pool] == d]) for d in range(10)
                                 if (y[pool] == d).any()], np.int64)
                ok = (probs[pick].argmax(1) != EMPTY_CLASS) & (probs[pick, y[pick]] >= 0.05)
                trial.append((page, pick[ok], y[pick][ok]))
        pages.append(trial)
    return np.concatenate(tests), pages


def fit_adaptation_temperature(model_path: Path, x: np.ndarray, y: np.ndarray,
                               writers: np.ndarray, trials: int = 10, seed: int = 7
                               ) -> dict[str, float | bool]:
    """Fit ``ADAPT_OUTPUT_TEMPERATURE`` on the calibration writers, one writer a page.

    As the scanner adapts (``WriterAdaptation.combine_batch``): each page holds one writer's
    digits and is adapted to one calibration digit per class of the same writer. The fitted
    temperature minimises the mean NLL; the value in use is kept unless the fit lowers the NLL
    by more than one standard error (of the mean over test digits).
    """
    from scanner.digits.recognizer import DigitRecognizer

    rec = DigitRecognizer(model_path)
    digit = y != EMPTY_CLASS
    x, y, writers = x[digit], y[digit], writers[digit]
    probs, embeds = rec.run_normalized(x)
    test, pages = _writer_pages(probs, y, writers, trials, seed)

    def run(t: float) -> tuple[float, float, float, float]:
        return _adapted(rec, probs, embeds, y, test, pages, t)

    grid = np.exp(np.linspace(np.log(0.5), np.log(8.0), 24))
    fits = [run(float(t)) for t in grid]
    best = int(np.argmin([f[0] for f in fits]))
    in_use = run(ADAPT_OUTPUT_TEMPERATURE)
    kept = in_use[0] - fits[best][0] <= fits[best][3]
    t_use = ADAPT_OUTPUT_TEMPERATURE if kept else float(grid[best])
    before, after = run(1.0), run(t_use)
    return dict(temperature=t_use, fitted=float(grid[best]), nll_fitted=fits[best][0],
                nll_se=fits[best][3], kept=bool(kept), n_test=len(test),
                writers=len(np.unique(writers)), trials=trials, acc=after[2],
                nll_before=before[0], nll_after=after[0], ece_before=before[1],
                ece_after=after[1])


def _adapted(rec: Any, probs: np.ndarray, embeds: np.ndarray, y: np.ndarray, test: np.ndarray,
             pages: Pages, t: float) -> tuple[float, float, float, float]:
    """Mean NLL, ECE and accuracy of the adapted pages over trials, and the NLL's standard
    error."""
    from bench.digits_eval import expected_calibration_error
    from scanner.digits.adaptation import WriterAdaptation
    from scanner.digits.recognizer import l2_normalize

    nll, ece, acc = [], [], []
    for trial in pages:
        p = np.zeros((len(y), probs.shape[1]), np.float64)
        for page, refs, labels in trial:
            adapt = WriterAdaptation(rec, l2_normalize(embeds[refs]), labels,
                                     output_temperature=t)
            p[page] = adapt.combine_batch(probs[page], embeds[page])
        p, truth = p[test], y[test]
        nll.append(-np.log(np.maximum(p[np.arange(len(test)), truth], 1e-12)))
        ece.append(expected_calibration_error(p, truth))
        acc.append(float((p.argmax(1) == truth).mean()))
    per_digit = np.mean(nll, axis=0)
    se = float(per_digit.std(ddof=1) / np.sqrt(len(per_digit)))
    return float(per_digit.mean()), float(np.mean(ece)), float(np.mean(acc)), se
