"""Adapt the digit recognizer to one writer's hand.

:class:`WriterAdaptation` adapts :class:`scanner.digits.recognizer.DigitRecognizer` to one
player's hand
from the digits that player wrote on the sheet's calibration strip: a nearest-neighbour vote
on the CNN embedding of the player's own digits, combined with the general model, with the
writer's confidently read digits of the same batch added to the references. See
``scanner/digits/models/DIGITS.md`` for the protocol and figures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from scanner.arrays import Doubles, Floats, Image, Ints, Mask
from scanner.digits.constants import (
    ADAPT_MIN_DIGITS,
    ADAPT_MIN_MODEL_PROBABILITY,
    ADAPT_OUTPUT_TEMPERATURE,
    ADAPT_OWN_STYLE_MAX_DIGITS,
    ADAPT_SAME_GLYPH_COSINE,
    ADAPT_TEMPERATURE,
    ADAPT_TRANSDUCTIVE_MIN_PROBABILITY,
    ADAPT_TRANSDUCTIVE_ROUNDS,
    ADAPT_WEIGHT,
    EMPTY_CLASS,
    NUM_CLASSES,
)
from scanner.digits.normalize import normalize_cells
from scanner.digits.recognizer import DigitRecognizer, l2_normalize


def _usable_samples(probs: Floats, unit: Floats, labels: Ints
                    ) -> tuple[Mask, tuple[tuple[int, int, int], ...]]:
    """Which calibration samples (general model rows ``probs``, unit embeddings ``unit``,
    stated digits ``labels``) a writer's adaptation keeps, and the writer's own styles among
    them: (digit, the digit the model reads it as, the sample's place among those kept).

    Those the model reads as EMPTY are dropped. Those it reads as their digit (at least
    ``ADAPT_MIN_MODEL_PROBABILITY``) are kept. A sample it reads as another digit is the
    writer's own way of writing its digit (a 1 with a long flag that the model takes for a
    7), which only the strip can teach: it is kept when the writer's own sample of the digit
    it is read as is kept and is not one glyph with it (``ADAPT_SAME_GLYPH_COSINE``; one
    glyph, that digit was written in the wrong box), unless more than
    ``ADAPT_OWN_STYLE_MAX_DIGITS`` samples are read so (a strip written out of order).
    """
    read = probs.argmax(axis=1)
    inked = read != EMPTY_CLASS
    agreed = inked & (probs[np.arange(len(labels)), labels] >= ADAPT_MIN_MODEL_PROBABILITY)
    against = np.flatnonzero(inked & ~agreed)
    kept = agreed.copy()
    if len(against) > ADAPT_OWN_STYLE_MAX_DIGITS:
        return kept, ()
    for i in against.tolist():
        other = np.flatnonzero(agreed & (labels == read[i]))
        if len(other) and float((unit[other] @ unit[i]).max()) < ADAPT_SAME_GLYPH_COSINE:
            kept[i] = True
    place = np.cumsum(kept) - 1
    styles = tuple((int(labels[i]), int(read[i]), int(place[i]))
                   for i in against.tolist() if kept[i])
    return kept, styles


def _log_digits(probs: Floats) -> Doubles:
    """(n, 10) float64 log-probabilities of the digits (EMPTY left out), kept off -inf."""
    return np.log(probs[:, :10].astype(np.float64) + 1e-12)


@dataclass(frozen=True)
class WriterAdaptation:
    """The general model adapted to one writer by their calibration digits.

    ``prototypes`` are the L2-normalized embeddings of the usable calibration
    samples and ``prototype_labels`` their digits. With fewer than
    ``ADAPT_MIN_DIGITS`` usable digits the adaptation is inactive and
    :meth:`probabilities` equals the general model's.

    :meth:`probabilities` is transductive: the digits of the batch (one writer's
    cells on a page) that the general model reads with at least
    ``transductive_probability``, and the adapted model reads alike, join the writer's
    references for the others, so a writer's consistent way of drawing a digit
    outweighs one calibration sample.
    """

    recognizer: DigitRecognizer
    prototypes: Floats
    prototype_labels: Ints
    weight: float = ADAPT_WEIGHT
    temperature: float = ADAPT_TEMPERATURE
    output_temperature: float = ADAPT_OUTPUT_TEMPERATURE
    transductive_probability: float = ADAPT_TRANSDUCTIVE_MIN_PROBABILITY
    transductive_rounds: int = ADAPT_TRANSDUCTIVE_ROUNDS
    own_styles: tuple[tuple[int, int, int], ...] = ()
    """The writer's digits the general model reads as others, from the strip
    (:func:`_usable_samples`): (digit, read as, the sample's row of :attr:`prototypes`). In
    a cell that is one glyph with that sample, the model's reading says nothing between the
    two digits, and the cell's likeness to the writer's samples decides
    (:meth:`_model_evidence`)."""

    @classmethod
    def from_calibration(
        cls,
        samples: Mapping[int, Image | Sequence[Image]],
        recognizer: DigitRecognizer,
    ) -> WriterAdaptation:
        """Build from ``{digit: crop}`` or ``{digit: [crops]}`` of one writer.

        Samples the model reads as EMPTY are dropped, and so are those it reads as another
        digit unless they are the writer's own style of theirs (:func:`_usable_samples`).
        """
        crops: list[Image] = []
        labels: list[int] = []
        for digit, value in samples.items():
            if not 0 <= int(digit) <= 9:
                raise ValueError(f"calibration digit {digit!r} is not 0-9")
            items = [value] if isinstance(value, np.ndarray) else list(value)
            for crop in items:
                if crop is not None and np.asarray(crop).size:
                    crops.append(np.asarray(crop))
                    labels.append(int(digit))
        if not crops:
            return cls(recognizer, np.zeros((0, 0), np.float32), np.zeros(0, np.int64))
        probs, embeds = recognizer.run_normalized(normalize_cells(crops))
        return cls.from_readings(probs, embeds, labels, recognizer)

    @classmethod
    def from_readings(cls, probs: Floats, embeds: Floats, labels: Sequence[int],
                      recognizer: DigitRecognizer) -> WriterAdaptation:
        """Build from the general model's readings of one writer's calibration cells.

        ``probs`` and ``embeds`` are :meth:`DigitRecognizer.run_normalized` rows, one per
        cell, and ``labels`` the digits (0-9) the cells should hold: a scanned page's calibration
        cells are read with its other cells, in one network pass, and adapt from those rows
        (:meth:`from_calibration` reads its crops first). Rows the model reads as EMPTY, or
        to which it gives less than ``ADAPT_MIN_MODEL_PROBABILITY`` for their digit and that
        are not the writer's own style of it (:func:`_usable_samples`), are dropped.
        """
        lab = np.asarray(labels, np.int64)
        unit = l2_normalize(embeds)
        kept, styles = _usable_samples(probs, unit, lab)
        return cls(recognizer, unit[kept], lab[kept], own_styles=styles)

    @property
    def active(self) -> bool:
        """Whether enough usable calibration digits were found to adapt."""
        return len(np.unique(self.prototype_labels)) >= ADAPT_MIN_DIGITS

    def _model_evidence(self, probs: Floats, unit: Floats) -> Doubles:
        """The general model's digit log-probabilities (:func:`_log_digits`) of cells with
        unit embeddings ``unit``; in a cell that is one glyph with one of the writer's
        :attr:`own_styles` (``ADAPT_SAME_GLYPH_COSINE``), that style's digit raised to the
        digit the model reads it as: the model takes this writer's 1 for a 7, so its 7 there
        is as much their 1."""
        log_probs = _log_digits(probs)
        for digit, read_as, row in self.own_styles:
            alike = unit @ self.prototypes[row] >= ADAPT_SAME_GLYPH_COSINE
            log_probs[alike, digit] = np.maximum(log_probs[alike, digit],
                                                 log_probs[alike, read_as])
        return log_probs

    @staticmethod
    def _nearest(sims: Floats, labels: Ints) -> Floats:
        """(n, 10) float32: each row's highest similarity to a reference of each digit.

        ``sims`` (n, k) are the rows' cosine similarities to k references of digits
        ``labels``; -inf where a digit has no reference (or a row sees none of it).
        One maximum per run of equal labels, once the references are sorted by digit.
        """
        order = np.argsort(labels, kind="stable")
        ordered = labels[order]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        nearest = np.full((len(sims), 10), -np.inf, np.float32)
        nearest[:, ordered[starts]] = np.maximum.reduceat(sims[:, order], starts, axis=1)
        return nearest

    def _digit_logits(self, log_probs: Doubles, nearest: Floats, present: Mask) -> Doubles:
        """Adapted digit logits, log p(digit) + weight * log(vote), before the output temperature.

        ``log_probs`` (n, 10) are the general model's :func:`_log_digits`. The vote for a
        digit is the softmax-weighted similarity of the nearest reference of that digit
        (``nearest``, from :meth:`_nearest`); ``present`` (10,) bool says which digits have
        references at all. The softmax weight is monotonic in the similarity, so the weight
        of a digit's nearest reference is its largest.
        """
        best = nearest.max(axis=1, keepdims=True)
        vote = np.exp((nearest - best) / self.temperature).astype(np.float64)
        # Digits without a reference get the mean vote: no evidence either way.
        vote[:, ~present] = vote[:, present].mean(axis=1, keepdims=True)
        vote /= vote.sum(axis=1, keepdims=True)
        logits: Doubles = log_probs + self.weight * np.log(vote + 1e-6)
        return logits

    def _output(self, probs: Floats, logit: Doubles, temperature: float) -> Doubles:
        """Softmax of the digit logits at ``temperature``, scaled to the non-EMPTY share."""
        logit = logit / temperature
        digits = np.exp(logit - logit.max(axis=1, keepdims=True))
        digits /= digits.sum(axis=1, keepdims=True)
        out = np.empty_like(probs, dtype=np.float64)
        out[:, :10] = digits * (1.0 - probs[:, EMPTY_CLASS : EMPTY_CLASS + 1])
        out[:, EMPTY_CLASS] = probs[:, EMPTY_CLASS]
        return out

    def combine(self, probs: Floats, embeds: Floats) -> Floats:
        """Combine general-model probabilities with the calibration digits' vote, cell by cell."""
        if not self.active or len(probs) == 0:
            return probs
        unit = l2_normalize(embeds)
        nearest = self._nearest(unit @ self.prototypes.T, self.prototype_labels)
        logit = self._digit_logits(self._model_evidence(probs, unit), nearest,
                                   self._present(self.prototype_labels))
        return self._output(probs, logit, self.output_temperature).astype(np.float32)

    def combine_batch(self, probs: Floats, embeds: Floats) -> Floats:
        """:meth:`combine`, then again with the batch's confidently read digits as references.

        A cell counts as confidently read when the general model gives its best digit
        at least ``transductive_probability`` and the adapted model agrees; it then
        votes, with that digit, for every other cell of the batch (never for itself).
        The gate is the general model's calibrated probability, not the adapted one,
        so that the calibration digits' vote cannot confirm itself through the batch.
        Repeated ``transductive_rounds`` times (a round can change the adapted readings).
        The similarities, to the calibration digits and between the batch's cells, come
        from one matrix product.
        """
        if not self.active or len(probs) == 0:
            return probs
        unit = l2_normalize(embeds)
        refs, labels = self.prototypes, self.prototype_labels
        sims = unit @ np.concatenate([refs, unit]).T
        among = sims[:, len(refs) :]
        np.fill_diagonal(among, -np.inf)  # a cell never votes for itself
        general = probs.argmax(axis=1)
        likely = probs.max(axis=1) >= self.transductive_probability
        log_probs = self._model_evidence(probs, unit)
        own = self._nearest(sims[:, : len(refs)], labels)
        logit = self._digit_logits(log_probs, own, self._present(labels))
        for _ in range(self.transductive_rounds):
            sure = np.nonzero(likely & (logit.argmax(axis=1) == general))[0]
            if not len(sure):
                break
            nearest = np.maximum(own, self._nearest(among[:, sure], general[sure]))
            logit = self._digit_logits(log_probs, nearest,
                                       self._present(np.concatenate([labels, general[sure]])))
        return self._output(probs, logit, self.output_temperature).astype(np.float32)

    @staticmethod
    def _present(labels: Ints) -> Mask:
        """(10,) bool: the digits that have a reference among ``labels``."""
        present = np.zeros(10, bool)
        present[labels] = True
        return present

    def probabilities(self, crops: Sequence[Image]) -> Floats:
        """Return (n, 11) probabilities adapted to this writer; rows sum to 1.

        ``crops`` should be this writer's cells (e.g. all on one page): they
        adapt to each other (:meth:`combine_batch`), so a cell's probabilities
        depend on the others in the batch.
        """
        if not len(crops):
            return np.zeros((0, NUM_CLASSES), np.float32)
        probs, embeds = self.recognizer.run_normalized(normalize_cells(crops))
        return self.combine_batch(probs, embeds)
