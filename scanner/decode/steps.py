"""The steps of a written column: each total less the one written before it, the amount the
writer added for that deal. A writer's slip carried on (4.2.7: every later total is written
on from the slipped one) puts every later total off the rules' totals by the slip, but leaves
each later step right; so the steps check a deal's reading where an earlier slip makes the
running totals themselves favour a reading that catches the slip up."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from scanner.decode.entries import EntryCells

STEP_START_READINGS = 4
"""How many of the entry before's likeliest values a step is weighed from (its ink's)."""


def step_log_likelihood(entries: Sequence[EntryCells], position: int,
                        amount: int | Fraction) -> float | None:
    """The log-likelihood of the ink of entries ``position - 1`` and ``position`` of a
    column when the writer added ``amount`` between them, from the likeliest value the first
    may hold (nothing before the first entry: 0); ``None`` where the entry before reads no
    value likeliest (nothing to step from) or ``position`` is past the column's boxes.

    >>> one, two, empty = [0.0] * 11, [0.0] * 11, [0.0] * 11
    >>> one[1] = two[2] = empty[10] = 1.0
    >>> column = [EntryCells((empty, one)), EntryCells((empty, two))]
    >>> [round(step_log_likelihood(column, 1, amount), 1) for amount in (1, 2)]
    [0.0, -13.8]
    """
    if position >= len(entries):
        return None
    if position == 0:
        starts: list[tuple[int, float]] = [(0, 0.0)]
    else:
        before = entries[position - 1]
        starts = [(value, before.spelling.log_probability(value))
                  for value in before.likeliest[:STEP_START_READINGS] if value is not None]
    spelling = entries[position].spelling
    return max((weight + spelling.log_probability(
        int(start + amount) if (start + amount) == int(start + amount) else None)
        for start, weight in starts), default=None)
