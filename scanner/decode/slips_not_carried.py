"""A slip read as written whose next total goes on from the rules' total is the reader's.

A writer adds each deal's amount to the total they wrote last (4.2.1): after a slip they
carry on from it, or write the right total of the same deal in the next box (a 4.2.7
correction). A value read as the writer's slip on its clear ink alone (note
``ink_clearly``: the rules do not overrule clear ink, so the entries after it do not weigh
it either) whose next entry, of a later deal, reads the rules' total there is no slip the
writer carried on: that writer went on from the rules' total, which is what the box holds,
its digit misread. Such a reading is *doubtful*: read, it blames the writer for the
reader's misread. Where its ink is no clearer than the reader's own misreads reach
(:data:`~scanner.decode.confirmed.INK_SLIP_UNCONTESTED`), it shows the rules' total, the
ink's value its other candidate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise

from scanner.decode.confirmed import INK_SLIP_UNCONTESTED
from scanner.decode.entries import EntryDecision
from scanner.words import said, value_said
from scoring.sheet import SheetEntry


def slips_not_carried(decisions: list[EntryDecision], expected: Sequence[SheetEntry]
                      ) -> list[EntryDecision]:
    """``decisions`` (one column's, against its ``expected`` entries) with each slip read on
    its ink alone *doubtful* where the next entry, of a later deal, is read as the rules'
    total at its deal (module doc). TRAINING part, a fresh set, a steep photo of felt-tip
    (seed 454 sheet 002): whists written 4, 16, 41, 49; the 41 read 44 at 0.998 as the
    writer's slip, the 49 after it the rules' total, silently. On the TRAINING sets of seeds
    354-459 (about 2,000 sheets) six slips read so are followed by the rules' next total:
    that misread and five read right, all on sheets that asked a person already; on the
    evaluation part, none."""
    totals = {e.deal: e.total for e in expected if e.deal is not None}
    out = list(decisions)
    for i, (slip, after) in enumerate(pairwise(decisions)):
        rules = totals.get(slip.deal) if slip.deal is not None else None
        if not slip.read_as_slip or rules is None or rules.denominator != 1 or slip.value == rules:
            continue
        if after.status == "read" and after.value is not None and after.deal is not None \
                and after.deal != slip.deal and totals.get(after.deal) == after.value:
            out[i] = replace(_shown(slip, int(rules)), status="doubtful", note=said(
                "next_from_rules", ink=value_said(slip.value), expected=value_said(int(rules)),
                next=value_said(after.value)))
    return out


def _shown(slip: EntryDecision, rules: int) -> EntryDecision:
    """``slip`` showing the ``rules`` total where its ink share is under
    :data:`~scanner.decode.confirmed.INK_SLIP_UNCONTESTED` (each value with its ink's share):
    the old generator's writer, whose 2 reads 9 or 8 at 0.990-0.997 (TRAINING part, seeds
    210 and 472: a pool's 12 read 19, a 2 read 8), went on from the rules' totals so."""
    if slip.ink_share >= INK_SLIP_UNCONTESTED:
        return slip
    rules_share = slip.share_of(rules)
    return replace(slip, value=rules, confidence=rules_share,
                   candidates=((rules, rules_share), (slip.value, slip.ink_share)))
