"""A one-digit total whose ink the reader lost, read where the next total stands read.

The rules' value over ink that reads it with one of its digits left out is read where the
entries after it confirm it (:data:`~scanner.decode.confirmed.LOST_DIGIT_READ`): the reader
lost the digit, not the writer. Over ink read blank the rules' value stays doubtful
(``ink_overruled``): nothing tells a lost total from a box the writer skipped or a total
left out. For a one-digit total the blank is that one digit lost, and the next entry tells:
a column is written box after box, so where the next box holds the next total, read as the
rules expect it, this box held a total (a skipped box or a total left out would put the next
total here and the later ones a box off), and the totals before and after it fix its value.
Where the next entry is itself in doubt (its ink reading another value), the deal log that
makes both may be misread, and the entry stays doubtful (TRAINING part, a far pencil photo,
seed 171: a pool's first total lost, the next, a writer's wrong 8, read the rules' 6).
TRAINING part, 52 sets (seeds 271-345, 832 sheets): of the 47 such entries doubtful at
:data:`~scanner.decode.confirmed.LOST_DIGIT_READ` or more, 27 stood before an entry read,
every one right (5 alone in doubt on their sheet); 4 of the other 20 were wrong. Read again
with this rule: doubtful fields 2,483 -> 2,465, sheets needing no person 316 -> 321, no
field wrong more.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from scanner.decode.confirmed import LOST_DIGIT_READ

if TYPE_CHECKING:  # the column decoder imports this module
    from scanner.decode.columns import EntryDecision


def lost_before_read(decisions: Sequence[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` with each one-digit total the rules made over ink read blank, at
    :data:`~scanner.decode.confirmed.LOST_DIGIT_READ` or more, *read* where the next entry
    is read as the rules expect it (module doc)."""
    marked = list(decisions)
    for k, (here, after) in enumerate(itertools.pairwise(decisions)):
        if _blank_overruled(here) and after.status == "read" and after.value is not None \
                and after.value == after.expected and after.deal != here.deal:
            marked[k] = replace(here, status="read")
    return marked


def _blank_overruled(decision: EntryDecision) -> bool:
    """Whether ``decision`` is a doubtful one-digit total the rules made over blank ink."""
    return decision.status == "doubtful" and getattr(decision.note, "code", None) == \
        "ink_overruled" and decision.value is not None and 0 <= decision.value <= 9 \
        and bool(decision.ink) and decision.ink[0][0] is None \
        and decision.confidence >= LOST_DIGIT_READ
