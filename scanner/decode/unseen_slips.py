"""Totals read as a slip carried on, short of a digit, from a slip the ink does not show.

A writer's slip is carried on: every later total of the column is off by the slip's amount,
and the decoding reads them so where the ink says so (:mod:`scanner.decode.confirmed`). The
slip itself must be in the ink, though. Where the entry that starts it is *doubtful* and its
ink reads likeliest something else (nothing, or another value: the rules' path chose the
slip because the later totals fit it), a total read as carried on from it with fewer digits
than the right total rests on a slip nobody wrote: a writer who slips adds a wrong amount
and keeps the column's digits, a capture that loses a leading 1 loses it in every box (a
far photo of pencil, TRAINING part, a fresh set, seed 355 sheet 004: a pool written 10, 16,
18, the 10 read as nothing, the 16 and 18 read 6 and 8; the rules' path made the first 2,
a slip, and read 6 and 8 at 0.9992 and 0.9994 as carried on from it, silently). Such a
total, up to the first one that is the right total again, is *doubtful*.

On 32 TRAINING sets (seeds 354-385, 512 sheets) these two were the only totals read so.
Without the digits' count, four right totals more were doubtful (in three columns whose
slip, 11 for 4, 11 for 10 and 33 for 29, read unsure, the writer carried on with as many
digits as the right totals), each on a sheet a person already looks at.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from scanner.decode.entries import EntryDecision
from scanner.words import said, value_said
from scoring.sheet import SheetEntry


def carried_on_unseen(decisions: Sequence[EntryDecision], expected: Sequence[SheetEntry]
                      ) -> list[EntryDecision]:
    """``decisions`` with each total read as carried on from a slip its ink does not show,
    short of a digit of its right total, made *doubtful* (module doc); ``expected``: the
    column's right totals by the deal log."""
    right: dict[int | None, Fraction] = {entry.deal: entry.total for entry in expected
                                         if entry.deal is not None}
    marked = list(decisions)
    start: EntryDecision | None = None
    for k, decision in enumerate(decisions):
        if decision.value is None:
            continue
        total = right.get(decision.deal)
        if total is None or decision.value == total:
            start = None
        elif decision.status == "doubtful" and decision.ink and \
                decision.ink[0][0] != decision.value:
            start = start or decision
        elif start is not None and decision.status == "read" and \
                len(str(abs(decision.value))) < len(str(abs(total))):
            marked[k] = replace(decision, status="doubtful", note=said(
                "carried_on_unseen", value=value_said(decision.value),
                slip=value_said(start.value)))
    return marked
