"""Tests of transductive writer adaptation (``WriterAdaptation.combine_batch``).

The embeddings and general-model probabilities are constructed by hand, so the tests
check the mechanism (which references vote for which cell), not the trained model.
"""

from __future__ import annotations

import numpy as np

from scanner.digits.adaptation import WriterAdaptation
from scanner.digits.constants import EMPTY_CLASS, NUM_CLASSES
from scanner.digits.recognizer import DigitRecognizer

DIM = 16


def _probs(rows: list[dict[int, float]]) -> np.ndarray:
    """General-model probability rows from {class: probability}; the rest shared evenly."""
    out = np.zeros((len(rows), NUM_CLASSES), np.float32)
    for i, row in enumerate(rows):
        rest = (1.0 - sum(row.values())) / (NUM_CLASSES - len(row))
        out[i] = rest
        for k, v in row.items():
            out[i, k] = v
    return out


def _unit(*weights: tuple[int, float]) -> np.ndarray:
    v = np.zeros(DIM, np.float32)
    for axis, w in weights:
        v[axis] = w
    return v / np.linalg.norm(v)


def _writer() -> WriterAdaptation:
    """Calibration references: digit d along axis d. The writer's usual "4" (axis 12) is
    nearer to the calibration "9" (axis 9) than to the calibration "4"."""
    refs = np.stack([_unit((d, 1.0)) for d in range(10)])
    refs[4] = _unit((4, 1.0), (12, 0.2))
    refs[9] = _unit((9, 1.0), (12, 0.6))
    return WriterAdaptation(DigitRecognizer(), refs, np.arange(10))


def test_batch_of_one_equals_calibration_only() -> None:
    """A cell never votes for itself: alone in its batch it is adapted as by ``combine``."""
    adapt = _writer()
    probs = _probs([{4: 0.97}])
    embeds = _unit((12, 1.0))[None]
    np.testing.assert_allclose(adapt.combine_batch(probs, embeds),
                               adapt.combine(probs, embeds), atol=1e-6)


def test_confident_cells_of_the_batch_decide_an_ambiguous_one() -> None:
    adapt = _writer()
    usual_four = _unit((12, 1.0), (4, 0.5))
    ambiguous = _unit((12, 1.0), (4, 0.3), (9, 0.3))  # nearer the calibration "9" than "4"
    probs = _probs([{4: 0.45, 9: 0.5}] + [{4: 0.99}] * 6)
    embeds = np.stack([ambiguous] + [usual_four] * 6)
    alone = adapt.combine(probs[:1], embeds[:1])
    assert alone[0].argmax() == 9  # the calibration "9" is the nearest reference
    batch = adapt.combine_batch(probs, embeds)
    assert batch[0].argmax() == 4  # the writer's confidently read 4s look just like it
    np.testing.assert_allclose(batch.sum(axis=1), 1.0, atol=1e-5)


def test_unsure_cells_do_not_become_references() -> None:
    adapt = _writer()
    probs = _probs([{4: 0.45, 9: 0.5}] + [{4: 0.5, 9: 0.45}] * 6)
    embeds = np.stack([_unit((12, 1.0))] * 7)
    no_rounds = WriterAdaptation(adapt.recognizer, adapt.prototypes, adapt.prototype_labels,
                                 transductive_probability=1.1)
    np.testing.assert_allclose(adapt.combine_batch(probs, embeds),
                               no_rounds.combine_batch(probs, embeds), atol=1e-6)


def test_empty_keeps_its_probability() -> None:
    adapt = _writer()
    probs = _probs([{EMPTY_CLASS: 0.6, 4: 0.3}, {4: 0.99}, {4: 0.99}])
    embeds = np.stack([_unit((12, 1.0))] * 3)
    out = adapt.combine_batch(probs, embeds)
    assert abs(out[0, EMPTY_CLASS] - 0.6) < 1e-6
