"""Writers whose ink the image lost: their empty fields made *doubtful*, and the sheet told why.

Each seat writes the ten digits of its calibration strip before the game
(:class:`forms.model.CalibrationCell`). A strip read as nearly blank says that seat's ink did
not reach the image (faint pencil thresholded away by a black-and-white scan), or that the seat
skipped it: either way nothing read empty in that seat's columns may pass as *empty* unseen.
When every seat's strip is lost the deal rows' ink (kept by one of them) is taken as lost too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from scanner.decode.columns import EntryDecision
from scanner.words import and_list, said
from scoring.columns import Column
from scoring.said import Param


def lost_ink_problem(faint: Sequence[str], seats: Sequence[str]) -> tuple[str, ...]:
    """The sheet's problem for the seats whose calibration strip reads blank (none: none).

    >>> lost_ink_problem(["A"], ["A", "B", "C"])[0][:60]
    "seat A's calibration digits are nearly blank in the image: i"
    """
    if not faint:
        return ()
    who = said("every_seat") if set(faint) >= set(seats) else \
        and_list([said("seat_of", seat=s) for s in faint])
    return (said("faint_seats", who=who),)


def faint_entries(entries: Mapping[Column, Sequence[EntryDecision]], faint: Sequence[str]
                  ) -> dict[Column, tuple[EntryDecision, ...]]:
    """``entries`` with each empty entry of a column written by a ``faint`` seat *doubtful*."""
    return {column: tuple(_doubtful(d, said("seat_of", seat=column.seat)) if column.seat in faint
                          else d for d in decisions)
            for column, decisions in entries.items()}


def _doubtful(decision: EntryDecision, who: Param) -> EntryDecision:
    if decision.status != "empty":
        return decision
    return replace(decision, status="doubtful", confidence=0.0,
                   note=said("lost_ink", who=who))
