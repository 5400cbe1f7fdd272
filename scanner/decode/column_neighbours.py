"""A decoded column's entries checked against the entries beside them: one read on the
rules' word is asked where its neighbours show the rules' word may be wrong there (ink no
deal explains, a slip that may start here, an entry before it overruled or doubtful).
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from scanner.decode.entries import EntryDecision, under_half
from scanner.words import said, value_said

UNEXPLAINED_INK_SURE = 0.6
"""Beside ink no deal explains, an entry stays read only where its own ink reads its value
likeliest and at least this likely (:func:`beside_unexplained`; 0.9 cost 0.08 pt more
doubtful fields on thirteen fresh TRAINING sets and caught nothing more)."""


def beside_unexplained(decisions: list[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` with each entry read on the rules' word (its ink reads another value
    likeliest, or its value below :data:`UNEXPLAINED_INK_SURE`) *doubtful* where another
    entry of the column holds ink that reads a value and that no deal of the log writes:
    the log is short of a deal there, or misread, and the totals it makes are no check on
    the ink (TRAINING part, pencil far photos, seed 78: a written 12 read 2, the rules'
    value, at 0.9996 against ink reading 12 likeliest, the next entry's 22 unexplained,
    the row that wrote it lost; seed 74: 32 read 38 at 0.998 against ink 32, three boxes
    of ink after it unexplained; a steep photo of pencil, seed 86: 64 read 68 at 0.9998,
    its ink 68 at 0.50 and 69 at 0.29, the next entry's clear 88 unexplained)."""
    unexplained = {i for i, d in enumerate(decisions) if d.expected is None and
                   d.deal is None and d.ink and d.ink[0][0] is not None}
    if not unexplained:
        return decisions
    return [replace(d, status="doubtful", note=said(
                "beside_unexplained", ink=value_said(d.ink[0][0]), value=value_said(d.value)))
            if i not in unexplained and d.status == "read" and d.ink and (
                d.ink[0][0] != d.value or d.ink[0][1] < UNEXPLAINED_INK_SURE)
            else d for i, d in enumerate(decisions)]


SLIP_START_INK = 0.05
"""An entry read as the rules' value whose ink finds the value a slip carried on into the
next entry would make at least this likely is *doubtful* (:func:`slip_may_start`)."""


def slip_may_start(decisions: list[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` with an entry read *doubtful* where the next entry is doubtful against
    its own ink (the ink reads another value than the one decided) and this entry's ink
    finds its value off by the same amount at least :data:`SLIP_START_INK` likely: a slip
    the writer made here and carried on reads so, and only the later total shows it
    (TRAINING part, a pencil far photo, seed 75: a pool written 9, 13 by a slip of 1
    carried on; the 9 read 8, the rules' value, at 0.998, its ink 8 at 0.68 and 9 at
    0.23, the 13 doubtful)."""
    marked = list(decisions)
    for k, (here, after) in enumerate(itertools.pairwise(decisions)):
        if here.status != "read" or here.value is None or after.status != "doubtful" or \
                after.value is None or not after.ink or after.ink[0][0] is None:
            continue
        slip = here.value + after.ink[0][0] - after.value
        if slip != here.value and dict(here.ink).get(slip, 0.0) >= SLIP_START_INK:
            marked[k] = replace(here, status="doubtful", note=said(
                "slip_may_start", ink=value_said(slip), value=value_said(here.value)))
    return marked


CHAINED_INK = 0.005
"""An entry read on the rules' word whose ink finds the value chained from the previous
entry's ink at least this likely is *doubtful* (:func:`leaning_on_overruled`)."""


def leaning_on_overruled(decisions: list[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` with an entry read *doubtful* where the entry before it is doubtful
    against its own ink and this entry leans on it: its ink finds, at least
    :data:`CHAINED_INK` likely, the value the rules' step makes from that ink, or gives its
    own value under half its weight (:func:`unsure_after_doubtful`). The deal log that
    overruled the entry before may be
    misread, and then this entry agrees with it by a misread of its own (TRAINING part, a far
    photo of blue ballpoint, seed 108: a mountain written 2, 6, 10; rows misread, the log
    made it 6, 66, 70, the first two doubtful, and the 10 read 70 at 0.997, its ink 70 at 0.98
    and 10, which 6 and the log's step of 4 make, at 0.007. Seed 171: a pool's first total
    lost with its ink, the next, a writer's wrong 8, read the rules' 6 at 0.998, its ink 8
    at 0.80 and 6 at 0.08; on 18 sets the second kind made 3 right entries doubtful). So
    is an entry read as the rules' value right after one read as a slip against them, where
    its ink finds the slip carried on (:func:`_carried_from_slip`): the same misread log
    makes the slip's value look wrong."""
    marked = list(decisions)
    for k, (before, here) in enumerate(itertools.pairwise(decisions), start=1):
        carried = _carried_from_slip(before, here) if here.status == "read" else None
        if carried is not None:
            marked[k] = replace(here, status="doubtful", note=said(
                "carried_from_slip", ink=value_said(carried), value=value_said(here.value)))
        if here.status != "read" or here.value is None or before.status != "doubtful" or \
                before.value is None or not _against_ink(before):
            continue
        ink = dict(here.ink)
        ink_before = before.ink[0][0]
        chained = None if ink_before is None else here.value - before.value + ink_before
        if chained is not None and ink.get(chained, 0.0) >= CHAINED_INK:
            marked[k] = replace(here, status="doubtful", note=said(
                "chained_from_overruled", ink=value_said(chained), value=value_said(here.value)))
    return marked


def unsure_after_doubtful(decisions: list[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` with an entry read on the rules' word, its ink giving the value under
    half its likelihood, made *doubtful* where the entry before it is doubtful: the rules
    expect this value from that one, so it is no surer than that one (TRAINING part, a far
    photo, seed 203: a pool written 15, 19 by a slip carried on, both 1s lost; the 5
    doubtful, the rules' 9 from it read at 0.9992 over ink at 0.28, silently). On 26 sets
    such entries were 6 right and that one wrong, each on a sheet a person already looks
    at. Where the rules overruled the entry before (its ink reads another value), the note
    says so: the deal log that did may be misread (:func:`leaning_on_overruled`)."""
    marked = list(decisions)
    for k, (before, here) in enumerate(itertools.pairwise(decisions), start=1):
        if before.status != "doubtful" or here.status != "read" or here.value is None \
                or not here.ink:
            continue
        if under_half(dict(here.ink), here.value):
            marked[k] = replace(here, status="doubtful", note=said(
                "unsure_after_overruled" if _against_ink(before) else "unsure_after_doubtful",
                value=value_said(here.value)))
    return marked


def _against_ink(decision: EntryDecision) -> bool:
    """Whether ``decision`` holds a value its ink does not read likeliest (the rules made it
    so against the ink)."""
    return decision.value is not None and bool(decision.ink) and \
        decision.ink[0][0] != decision.value


def _carried_from_slip(before: EntryDecision, here: EntryDecision) -> int | None:
    """The value the writer makes by carrying on the slip read in ``before`` (a value the
    rules do not expect, its ink clear) to the next deal, where ``here`` holds the rules'
    value instead and its ink finds that carried value at least :data:`CHAINED_INK`
    likely; else None. Which one the writer did, or whether the deal log that made the
    slip's value wrong is itself misread, only the ink tells, and it is not sure. Where
    ``here`` is the same deal's total, the slip corrected (4.2.7), nothing is carried on:
    the slip's own value again is no running total (TRAINING part, 434 sheets of seeds
    440-449 and 474-482: every such entry, such as an 8 written after a slip of 18, read
    right, its ink finding the 18 as a lost leading 1 and doubtful for it; five sheets were
    asked about nothing else)."""
    if here.value is None or here.value != here.expected or before.value is None \
            or before.expected is None or before.status != "read" \
            or before.value == before.expected \
            or (here.deal is not None and here.deal == before.deal):
        return None
    carried = here.value - before.expected + before.value
    return carried if dict(here.ink).get(carried, 0.0) >= CHAINED_INK else None
