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
2,418, sheets needing no person 347 -> 354. The other half, where the wrong value is read
(a slip its ink shows clearly) and the right total stands after it where the rules, having
put the deal's total in the wrong value's box, expect nothing, is read too
(:func:`corrected_after`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace

from scanner.decode.confirmed import INK_CARRIED_ON, short_of, sign_turned
from scanner.decode.entries import EntryDecision
from scanner.words import said, value_said


def corrected_next(decisions: Sequence[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` with each value the rules do not expect (``ink_expected``) *read* as
    the writer's slip where the next entry is read as the rules' total for the same deal
    and the ink gives the value :data:`~scanner.decode.confirmed.INK_CARRIED_ON` of its
    likelihood (module doc)."""
    read = list(decisions)
    for k, (wrong, right) in enumerate(itertools.pairwise(decisions)):
        if wrong.value is not None and _corrected(wrong, right):
            read[k] = replace(wrong, status="read", confidence=wrong.ink_share,
                              note=said("ink_clearly", ink=value_said(wrong.value),
                                        expected=value_said(wrong.expected)))
    return read


def corrected_after(decisions: Sequence[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` with each value the rules expect nothing at *read* as the writer's
    correction where the entry before it is read as the writer's wrong value (a slip the
    ink shows clearly) and this one is the total the rules expect there, for the same deal,
    its ink giving it :data:`~scanner.decode.confirmed.INK_CARRIED_ON` of its likelihood:
    the correction's other half (4.2.7), seen from the right total. The wrong value went
    into the deal's place, so the rules expect nothing after it; a misread landing on the
    very total the entry before it should hold is as unlikely as a misread followed by its
    own right total (module doc). TRAINING part (the 54 sets of seeds 271-347, seeds
    348-351, legacy sets L310-L311): three entries doubtful so, each the writer's right
    total after a wrong one (a pool's 22, then 20 where the pool is 20), one of them after a
    wrong value read. Read again, the 54 sets: that one read, and a whists total read that
    another reading of a doubtful row had left unsettled, both right; nothing else moved
    (doubtful 2,398 -> 2,396, sheets with no person 358 -> 359)."""
    read = list(decisions)
    for k, (wrong, right) in enumerate(itertools.pairwise(decisions), start=1):
        if _corrects(wrong, right):
            read[k] = replace(right, status="read", confidence=right.ink_share, deal=wrong.deal,
                              note="")
    return read


def _corrects(wrong: EntryDecision, right: EntryDecision) -> bool:
    """Whether ``right``, doubtful where the rules expect nothing, is the total the rules
    expect in place of ``wrong``, read as a value they do not expect."""
    return wrong.status == "read" and wrong.value is not None \
        and wrong.expected is not None and wrong.value != wrong.expected \
        and right.status == "doubtful" and right.expected is None \
        and right.value == wrong.expected and right.ink_share >= INK_CARRIED_ON


def _corrected(wrong: EntryDecision, right: EntryDecision) -> bool:
    """Whether ``wrong``, doubtful against the rules, is a total ``right`` corrects."""
    return wrong.status == "doubtful" and getattr(wrong.note, "code", None) == "ink_expected" \
        and wrong.expected is not None and right.status == "read" \
        and right.value == wrong.expected and right.deal == wrong.deal \
        and wrong.ink_share >= INK_CARRIED_ON \
        and not short_of(wrong.value, wrong.expected) \
        and not sign_turned(wrong.value, wrong.expected)
