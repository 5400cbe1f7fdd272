"""Decode the running totals of one column with the rules as evidence, not as a mould.

For each written entry the rules expect a value: the writer's own previous total plus the
amount of the deal that comes next in this column (or, after a slip, the right running total).
The reading chosen maximises P(ink | value) x P(value | rules): the prior gives the expected
values most of the weight (players mostly write right) and every other value a little. So an
ambiguous 16-or-18 becomes the 18 the rules expect, while a clear 16 stays 16: a recording
error, kept for the audit. A value that disagrees with the rules is *read* only when the ink
alone is clearly sure of it; otherwise it is *doubtful*, with its candidates.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from scanner.numbers import PROBABILITY_FLOOR, number_candidates, spelled_probability
from scoring.sheet import SheetEntry

PRIOR_RIGHT_STEP = 0.95
"""Prior that an entry is the writer's previous total plus the deal's amount (or that an
entry is empty once the column has nothing more to write)."""
PRIOR_RIGHT_TOTAL = 0.01
"""Prior that an entry is the right running total although the previous one was off."""
PRIOR_SKIPPED = 0.004
"""Prior that the writer skipped an entry and wrote the next deal's."""
OTHER_VALUES = 200
"""The rest of the prior is spread over this many other values a player might write."""
READ_POSTERIOR = 0.995
"""A reading at or above this posterior is *read*; below it, *doubtful*."""
INK_CLEAR = 0.999
"""A value the rules do not expect is *read* (and kept) when the ink alone gives it this much;
the rules then do not override it: it is a recording error, for the audit."""


@dataclass(frozen=True)
class EntryCells:
    """The recognizer's view of one written entry: digit cells left to right, and the
    probability that its sign cell holds a minus (``None`` without a sign cell)."""

    cells: tuple[Sequence[float], ...]
    minus: float | None = None


@dataclass(frozen=True)
class EntryInk:
    """An entry's ink as a scan kept it, without its cells: P(ink | value) for the values
    :func:`decode_column` weighed (``EntryDecision.ink``). A value not kept gets
    :meth:`probability`'s bound: no more than the least likely value kept (nor than
    :data:`~scanner.numbers.PROBABILITY_FLOOR`)."""

    likelihood: Mapping[int | None, float]

    def probability(self, value: int | None) -> float:
        """P(ink | value), from what was kept."""
        if value in self.likelihood:
            return self.likelihood[value]
        return min([PROBABILITY_FLOOR, *self.likelihood.values()])


@dataclass(frozen=True)
class EntryPinned:
    """An entry whose value is known (a person verified it): decoded as that value, read
    with confidence 1, and the writer's previous total for the entries after it."""

    value: int | None


ColumnEntry = EntryCells | EntryInk | EntryPinned
"""What :func:`decode_column` takes for one entry."""


@dataclass(frozen=True)
class EntryDecision:
    """The decoded value of one entry and how sure it is."""

    status: str
    """``read``, ``doubtful`` or ``empty``."""
    value: int | None
    confidence: float
    candidates: tuple[tuple[int | None, float], ...]
    expected: int | None = None
    """The value the rules expected here, if any."""
    deal: int | None = None
    """The deal the rules tie this entry to."""
    note: str = ""
    ink: tuple[tuple[int | None, float], ...] = ()
    """P(ink | value) for the values weighed, most likely first: the ink's own say, before
    the rules' prior (what :class:`EntryInk` takes back to decode the entry again)."""


def value_probability(entry: EntryCells, value: int | None) -> float:
    """P(ink | value) for one entry (:func:`scanner.numbers.spelled_probability`)."""
    return spelled_probability(entry.cells, value, entry.minus)


def decode_column(entries: Sequence[ColumnEntry], expected: Sequence[SheetEntry]
                  ) -> list[EntryDecision]:
    """Decode a column's written entries in order, against its expected entries.

    An entry is its cells (a scan), the ink kept from them (:class:`EntryInk`, decoding a
    stored sheet again) or a value a person verified (:class:`EntryPinned`).
    """
    decisions: list[EntryDecision] = []
    previous = 0
    j = 0  # the next expected entry
    ended = False
    for entry in entries:
        expectations = _expectations(previous, expected, j)
        if ended:  # after an empty entry the writer has stopped: the rules expect no more
            expectations = [_Expectation(None, j, PRIOR_RIGHT_STEP)]
        decision = _pinned(entry, expectations) if isinstance(entry, EntryPinned) \
            else _decide(entry, expectations)
        if decision.value is None:
            ended = True
            decisions.append(decision)
            continue
        matched = [e.index for e in expectations if e.value == decision.value]
        k = min(matched) if matched else j
        deal = expected[k].deal if k < len(expected) else None
        decisions.append(replace(decision, deal=deal))
        j = k + 1
        previous = decision.value
    return decisions


@dataclass(frozen=True)
class _Expectation:
    value: int | None
    index: int
    """The expected entry this value would be (its position in the column)."""
    prior: float


def _expectations(previous: int, expected: Sequence[SheetEntry], j: int
                  ) -> list[_Expectation]:
    """The values the rules allow next, with their prior weights (see the constants)."""
    options: list[_Expectation] = []
    if all(entry.deal is None for entry in expected[j:]):
        options.append(_Expectation(None, j, PRIOR_RIGHT_STEP))  # nothing more to write
    for k, step_prior, total_prior in ((j, PRIOR_RIGHT_STEP, PRIOR_RIGHT_TOTAL),
                                       (j + 1, PRIOR_SKIPPED, PRIOR_SKIPPED)):
        if k >= len(expected) or expected[k].deal is None:
            continue
        for value, prior in ((previous + expected[k].amount, step_prior),
                             (expected[k].total, total_prior)):
            if value.denominator != 1:
                continue  # a half whist cannot be written in digit cells
            if all(option.value != int(value) for option in options):
                options.append(_Expectation(int(value), k, prior))
    return options


def _likelihoods(entry: EntryCells | EntryInk, values: list[int | None]
                 ) -> dict[int | None, float]:
    """P(ink | value) for the ink's likeliest values and for ``values``."""
    if isinstance(entry, EntryInk):
        ink = dict(entry.likelihood)
        for value in values:
            ink.setdefault(value, entry.probability(value))
        return ink
    ink = {c.value: c.probability for c in number_candidates(entry.cells, 8, entry.minus)}
    for value in values:
        ink.setdefault(value, value_probability(entry, value))
    return ink


def _pinned(entry: EntryPinned, expectations: list[_Expectation]) -> EntryDecision:
    """A verified entry: its value, sure; what the rules expected is still told."""
    expected_value = next((e.value for e in expectations if e.value is not None), None)
    return EntryDecision("empty" if entry.value is None else "read", entry.value, 1.0,
                         ((entry.value, 1.0),), expected_value)


def _decide(entry: EntryCells | EntryInk, expectations: list[_Expectation]) -> EntryDecision:
    """Posterior over the values: the ink's likelihood times the rules' prior."""
    ink = _likelihoods(entry, [e.value for e in expectations] + [None])
    decision = _decide_ink(ink, expectations)
    return replace(decision, ink=tuple(sorted(ink.items(), key=lambda item: -item[1])))


def _decide_ink(ink: dict[int | None, float], expectations: list[_Expectation]
                ) -> EntryDecision:
    """:func:`_decide` once the ink's likelihoods are known."""
    prior = {e.value: e.prior for e in expectations}
    expected_value = next((e.value for e in expectations if e.value is not None), None)
    ink_total = sum(ink.values())
    clear_value, clear_p = max(ink.items(), key=lambda item: item[1])
    if clear_value not in prior and clear_p / ink_total >= INK_CLEAR:
        # the ink clearly says what the rules do not expect: a recording error, kept
        ranked = sorted(((v, p / ink_total) for v, p in ink.items()), key=lambda i: -i[1])
        return EntryDecision("empty" if clear_value is None else "read", clear_value,
                             clear_p / ink_total, tuple(ranked[:4]), expected_value, None,
                             f"the ink clearly says {clear_value}; the rules expected "
                             f"{expected_value}")
    other = (1 - sum(prior.values())) / OTHER_VALUES
    posterior = {v: p * prior.get(v, other) for v, p in ink.items()}
    total = sum(posterior.values())
    ranked = sorted(((v, p / total) for v, p in posterior.items()), key=lambda item: -item[1])
    best, confidence = ranked[0]
    read = confidence >= READ_POSTERIOR
    note = ""
    if best is None:
        if None not in prior:
            note = f"empty, but the rules expected {expected_value}"
        return EntryDecision("empty" if read else "doubtful", None, confidence,
                             tuple(ranked[:4]), expected_value, None, note)
    if best not in prior:
        read = False  # not clear enough from the ink alone (see above)
        note = f"the ink says {best}; the rules expected {expected_value}"
    elif ink[best] < 0.5:
        note = f"ink unsure; the rules expect {best}"
    return EntryDecision("read" if read else "doubtful", best, confidence,
                         tuple(ranked[:4]), expected_value, None, note)


def column_log_likelihood(entries: Sequence[EntryCells], expected: Sequence[SheetEntry]
                          ) -> float:
    """How well a column's ink fits the expected entries: the log of the probability of the
    ink when the writer wrote the expected totals. Used to choose between deal readings."""
    total = 0.0
    for index, entry in enumerate(entries):
        value = int(expected[index].total) if index < len(expected) and \
            expected[index].total.denominator == 1 else None
        total += math.log(max(value_probability(entry, value), PROBABILITY_FLOOR))
    return total
