"""A slip read as written in a column whose totals only rise, asked where it drops the
column as no writer's slip does.

A pool or whists column's running totals only rise (RULES.md §6: every deal adds to them).
A value the rules do not expect, its ink clear, is read as the writer's slip, for the audit
(:mod:`scanner.decode.confirmed`). A writer who slips adds a wrong amount, subtracts the
deal's amount for adding it, or swaps a digit: the total may fall below the one before it,
but not by a digit, nor by more than the deal adds. The reader does both, losing a 1 in
pencil or on a border. Such a reading is *doubtful*: a digit the reader lost, shown as the
writer's slip, would blame the writer; and so is every total read after it as that slip
carried on, which the same lost digit would make.
"""

from __future__ import annotations

from dataclasses import replace

from scanner.decode.entries import EntryDecision
from scanner.words import said, value_said


def falling_slips_asked(decisions: list[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` (a column whose totals only rise) with each slip read as written that
    has fewer digits than the total before it (:func:`_digit_short_of_before`), or falls
    below it by more than its deal adds (:func:`_falls_past_its_deal`), *doubtful*, and the
    totals read after it as that slip carried on (:func:`_carried_from_asked`)."""
    asked = _falls_past_its_deal(_digit_short_of_before(decisions))
    return _carried_from_asked(decisions, asked)


def _digit_short_of_before(decisions: list[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` (a column whose totals only rise) with each value read as the writer's
    slip (the rules expected another) made *doubtful* where it has fewer digits than the
    entry before it: a writer who slips adds a wrong amount or swaps a digit, and does not
    drop a running total by a digit; the reader does, losing a 1 in pencil or on a border
    (TRAINING part, a flatbed pencil scan, seed 316 sheet 002: whists written 44, then 61
    where the rules made 51, corrected next; the 61 read 6 at 0.998 and kept as the
    writer's slip, silently). On the TRAINING sets of 35 seeds (560 sheets) one slip read
    right falls so (a pool's 4 after 14)."""
    out, before = list(decisions), None
    for i, d in enumerate(decisions):
        if d.status == "read" and d.value is not None and d.expected is not None \
                and d.value != d.expected and before is not None \
                and len(str(abs(d.value))) < len(str(abs(before))):
            out[i] = replace(d, status="doubtful", note=said(
                "ink_short_of_before", ink=value_said(d.value),
                expected=value_said(d.expected), before=value_said(before)))
        if d.value is not None:
            before = d.value
    return out


def _falls_past_its_deal(decisions: list[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` with each value read as the writer's slip (the rules expected another)
    made *doubtful* where it lies below the total before it by more than its deal adds (the
    rules' total there less the rules' total at the entry before it): a writer who
    subtracts the deal's amount for adding it falls by that much, and a smaller slip by
    less (TRAINING part, a distant photo, seed 453 sheet 020: a pool's 6, then 10 where the
    rules made 7; the 10, its 1 lost, read 0 at 0.998 and kept as the writer's slip,
    silently). On the TRAINING sets of seeds 354-455 (1,900 sheets read) 24 slips read right
    fall below the total before them: each by 1, where its deal adds 1 or more, or to the
    rules' total (a correction, 4.2.7)."""
    out = list(decisions)
    for i, d in enumerate(decisions[1:], 1):
        before = decisions[i - 1]
        if d.status != "read" or d.value is None or d.expected is None \
                or d.value == d.expected or before.value is None:
            continue
        adds = d.expected - (before.expected if before.expected is not None else before.value)
        if before.value - d.value > max(adds, 0):
            out[i] = replace(d, status="doubtful", note=said(
                "falls_past_deal", ink=value_said(d.value), before=value_said(before.value),
                expected=value_said(d.expected)))
    return out


def _carried_from_asked(decisions: list[EntryDecision], asked: list[EntryDecision]
                        ) -> list[EntryDecision]:
    """``asked`` (``decisions`` with the falling slips made doubtful) with each total read
    after such a slip below the rules' total at the slip *doubtful*, up to the first total
    at or above it: the column only rises, so such a total is the slip carried on, and where
    the slip is a digit the reader lost, the reader lost it here too (TRAINING part, a
    flatbed colour scan, seed 475 sheet 002: a pool written 10, 14, 16, the 1s of 14 and 16
    on the boxes' border and lost; the 4 asked as a digit short of the 10 before it, the 6
    read sure as that slip carried on, silently)."""
    out = list(asked)
    for i, (was, now) in enumerate(zip(decisions, asked, strict=True)):
        if was.status != "read" or now.status != "doubtful" or now.expected is None:
            continue
        for j in range(i + 1, len(out)):
            after = out[j]
            if after.value is None:
                continue
            if after.value >= now.expected:
                break
            if after.status == "read":
                out[j] = replace(after, status="doubtful", note=said(
                    "carried_from_short", value=value_said(after.value),
                    slip=value_said(now.value), expected=value_said(now.expected)))
    return out
