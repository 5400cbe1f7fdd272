"""The value a *doubtful* total shows where its reading would make its column fall.

A pool or whists column's running totals only rise (RULES.md §6: every deal adds to them).
A doubtful entry whose value lies below a total its column read before it is a reading
that lost a digit far more often than a total the writer let fall (a 14 read 4, its 1 on
the border or too faint for the capture). Such an entry shows the likeliest of its
candidates that keeps the column rising, where one is: not below the column's last total
read before it, not above the first read after it. It stays *doubtful*, its note and its
ink unchanged: this decides only the value a person is shown first, and which total the
audit checks (a value the ink lost a digit of, shown as the player's, blames the player).

TRAINING part, the 54 sets of seeds 271-347 (864 sheets): 38 doubtful entries lay below
their column's last total read; 10 showed the writer's value (a total written lower, each
with no rising candidate), 28 another. Shown so: 24 right (+14), none of the 10 lost. A
total read after an entry is no such guide: of 21 doubtful entries above their column's
next total read, 18 showed the writer's value (that next total was the misread one); shown
within it, 9 would have.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from scanner.decode.columns import only_rises
from scanner.decode.entries import EntryDecision
from scoring.columns import Column


def rising_value_shown(entries: Mapping[Column, Sequence[EntryDecision]]
                       ) -> dict[Column, tuple[EntryDecision, ...]]:
    """``entries`` with each *doubtful* value of a column that only rises, below a total the
    column read before it, replaced by its likeliest candidate that keeps the column
    rising (module doc)."""
    return {column: _rising(decisions) if only_rises(column) else tuple(decisions)
            for column, decisions in entries.items()}


def _rising(decisions: Sequence[EntryDecision]) -> tuple[EntryDecision, ...]:
    read = [d.value if d.status == "read" else None for d in decisions]
    shown = list(decisions)
    for index, decision in enumerate(decisions):
        floor = max((v for v in read[:index] if v is not None), default=None)
        if decision.status != "doubtful" or decision.value is None or floor is None \
                or decision.value >= floor:
            continue
        ceiling = min((v for v in read[index + 1:] if v is not None), default=None)
        rising = [(value, p) for value, p in decision.candidates if value is not None
                  and value >= floor and (ceiling is None or value <= ceiling)]
        if rising:
            value, p = max(rising, key=lambda pair: pair[1])
            others = tuple(pair for pair in decision.candidates if pair[0] != value)
            shown[index] = replace(decision, value=value, confidence=p,
                                   candidates=((value, p), *others))
    return tuple(shown)
