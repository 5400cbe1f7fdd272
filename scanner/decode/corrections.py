"""A wrong total corrected in the next box (Codex 4.2.7), read as the writer wrote it.

A writer who finds a running total wrong does not cross it out: the right total is written
in the next box and the wrong one stands. Read, the column holds a value the rules do not
expect, then the very total the rules expect for the same deal. A misread of the right total
is never followed by that total again (a running total changes with every entry of its
column), so the box after it witnesses the writer's correction as entries written from a
slip witness a slip carried on: the wrong value is read where its ink gives it
:data:`~scanner.decode.confirmed.INK_CARRIED_ON` of its likelihood, as such a slip is,
never where it is the rules' value with a digit left out or its sign turned (the reader's
misreads). TRAINING part, 54 sets (seeds 271-347, 864 sheets): of the values doubtful
so, the 15 at 0.95 or more were each the writer's wrong value; below it 9 were and 5 were
misread. Read again with this rule: 18 entries read, each right; doubtful fields 2,437 ->
2,418, sheets needing no person 347 -> 354.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from scanner.decode.confirmed import INK_CARRIED_ON, short_of, sign_turned
from scanner.words import said, value_said

if TYPE_CHECKING:  # the column decoder imports this module
    from scanner.decode.columns import EntryDecision


def corrected_next(decisions: Sequence[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` with each value the rules do not expect (``ink_expected``) *read* as
    the writer's slip where the next entry is read as the rules' total for the same deal
    and the ink gives the value :data:`~scanner.decode.confirmed.INK_CARRIED_ON` of its
    likelihood (module doc)."""
    read = list(decisions)
    for k, (wrong, right) in enumerate(itertools.pairwise(decisions)):
        if wrong.value is not None and _corrected(wrong, right):
            read[k] = replace(wrong, status="read", confidence=_share(wrong),
                              note=said("ink_clearly", ink=value_said(wrong.value),
                                        expected=value_said(wrong.expected)))
    return read


def _corrected(wrong: EntryDecision, right: EntryDecision) -> bool:
    """Whether ``wrong``, doubtful against the rules, is a total ``right`` corrects."""
    return wrong.status == "doubtful" and getattr(wrong.note, "code", None) == "ink_expected" \
        and wrong.expected is not None and right.status == "read" \
        and right.value == wrong.expected and right.deal == wrong.deal \
        and _share(wrong) >= INK_CARRIED_ON \
        and not short_of(wrong.value, wrong.expected) \
        and not sign_turned(wrong.value, wrong.expected)


def _share(decision: EntryDecision) -> float:
    """The share of the ink's likelihood that ``decision``'s value holds."""
    total = sum(p for _, p in decision.ink)
    return dict(decision.ink).get(decision.value, 0.0) / total if total else 0.0
