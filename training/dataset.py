"""The training and calibration cells: every source rendered in seeded chunks and normalised.

Every cell passes through ``scanner.digits.normalize.normalize_cells``, the scanner's own
preprocessing; chunks have their own seeds, so the result does not depend on the number of
worker processes.
"""

from __future__ import annotations

import numpy as np

from scanner.digits.constants import EMPTY_CLASS
from scanner.digits.normalize import normalize_cells
from training.cells import digit_cell, empty_cell
from training.sources import stroke_glyph
from training.writer_cells import render_writers


def _render_job(job: tuple[str, int, np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Render one chunk of cells (in a worker process); ``job`` = (kind, seed, glyphs, labels)."""
    kind, seed, glyphs, labels = job
    rng = np.random.default_rng(seed)
    if kind == "empty":
        cells = [empty_cell(rng) for _ in range(len(labels))]
    elif kind == "strokes":
        cells = [digit_cell(stroke_glyph(int(d), rng), rng) for d in labels]
    else:
        cells = [digit_cell(g, rng) for g in glyphs]
    return _normalized(cells, np.asarray(labels, np.int64))


def _normalized(cells: list[np.ndarray], y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cells normalised, less the digits that preprocessing erased entirely (too faint,
    too small: they would teach "blank input = digit")."""
    x = normalize_cells(cells)
    keep = (y == EMPTY_CLASS) | x.reshape(len(x), 28 * 28).any(axis=1)
    return x[keep], y[keep]


def _writers_job(job: tuple[str, int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One source's writers (in a worker process): (x, labels, writer within the source)."""
    source, seed, writers, per_digit = job
    made = render_writers((source,), writers, per_digit, seed)
    y, w = np.asarray(made.labels, np.int64), np.asarray(made.writers, np.int64)
    x = normalize_cells(made.cells)
    keep = (y == EMPTY_CLASS) | x.reshape(len(x), 28 * 28).any(axis=1)
    return x[keep], y[keep], w[keep]


def build_writer_cells(sources: tuple[str, ...], writers: int, per_digit: int, seed: int,
                       workers: int = 2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`training.writer_cells.render_writers` for each source (its own seed), normalised:
    (x, labels, writer number over all sources)."""
    from multiprocessing import get_context

    jobs = [(source, seed + i, writers, per_digit) for i, source in enumerate(sources)]
    with get_context("fork").Pool(workers) as pool:
        parts = pool.map(_writers_job, jobs, chunksize=1)
    ids = [w + i * writers for i, (_, _, w) in enumerate(parts)]
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate(ids))


def build_dataset(
    images: np.ndarray,
    labels: np.ndarray,
    fonts: list[np.ndarray],
    font_labels: list[int],
    seed: int,
    mnist_copies: int,
    font_copies: int,
    empties: int,
    strokes: int = 0,
    workers: int = 2,
) -> tuple[np.ndarray, np.ndarray]:
    """Render all training cells and normalize them; returns (n, 28, 28) float32 and labels.

    The work is cut into fixed chunks with their own seeds, so the result does
    not depend on the number of worker processes.
    """
    from multiprocessing import get_context

    jobs: list[tuple[str, int, object, np.ndarray]] = []
    s = seed
    for _ in range(mnist_copies):
        for half in (slice(0, len(images) // 2), slice(len(images) // 2, None)):
            s += 1
            jobs.append(("digit", s, list(images[half]), labels[half]))
    for _ in range(font_copies // 5):
        s += 1
        jobs.append(("digit", s, list(fonts) * 5, np.asarray(list(font_labels) * 5)))
    for _ in range(10):
        s += 1
        jobs.append(("empty", s, None, np.full(empties // 10, EMPTY_CLASS)))
    for _ in range(strokes // 1000):
        s += 1
        jobs.append(("strokes", s, None, np.arange(1000) % 10))
    with get_context("fork").Pool(workers) as pool:
        parts = pool.map(_render_job, jobs, chunksize=1)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
