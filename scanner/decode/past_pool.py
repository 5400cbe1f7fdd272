"""A pool column's ceiling (Sochi and Rostov: its total never passes the agreed pool), and
its entries whose ink reads past it: a digit misread, or a writer's slip past the pool,
weighed apart from the column's paths, which do not go past it (issue 13, class 5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from scanner.decode.column_paths import OTHER_VALUE_PRIOR, PRIOR_RIGHT_STEP
from scanner.decode.entries import (
    INK_OUTWEIGHED,
    READ_POSTERIOR,
    ColumnEntry,
    EntryDecision,
    EntryPinned,
    likelihoods,
    under_half,
)
from scanner.decode.numbers import PROBABILITY_FLOOR
from scanner.words import said, value_said
from scoring.columns import Column
from scoring.notation import PRICES
from scoring.rules import RuleSet
from scoring.sheet import SheetEntry


def column_ceiling(column: Column, rules: RuleSet) -> int | None:
    """The largest running total ``column`` can hold (``None``: no bound): a pool never
    exceeds the agreed pool where the points past it help the other pools or come off the
    player's own mountain (Sochi and Rostov, RULES.md §6); in Leningrad a pool may pass it.

    >>> column_ceiling(Column("A", "pool"), RuleSet.preset("sochi", 3, 50))
    50
    >>> column_ceiling(Column("A", "pool"), RuleSet.preset("leningrad", 3, 50)) is None
    True
    """
    if column.kind != "pool" or rules.pool is None or not rules.helps_on_close:
        return None
    return rules.pool


PAST_POOL_MOST = max(PRICES.values())
"""The most a written pool total passes the pool by as a writer's own slip (one who forgot
the pool was closed adds one deal's price, at most a ten's); ink reading further past it is
a misread digit (issue 13, class 5: written 24, 23 and 26 read 74, 73 and 76)."""


SHOWN_PAST_POOL = 0.95
"""The least share of its likelihood the ink gives a value past the pool by at most
:data:`PAST_POOL_MOST` for an entry left doubtful above the pool to show that value, not the
rules' value under the pool that the ink hardly gives: what a person is shown to check is
what the writer wrote. The entry stays doubtful below :data:`PAST_POOL_SLIP_CLEAR`
(:func:`above_ceiling`). Chosen on the
TRAINING part (29 sets, 464 sheets): a writer's slip past the pool carried on (a pool of
10 written 11, 12, 14, 16, 17 where the rules make 1, 2, 4, 6, 7) reads 0.95-0.997, and
was shown as the rules' values below :data:`~scanner.decode.confirmed.INK_SLIP_CLEAR` (22
entries, now shown as written);
every entry whose ink gave its likeliest share to another value within a deal's price past
the pool held it at 0.90 or less."""


PAST_POOL_SLIP_CLEAR = 0.99
"""The least share of its likelihood the ink gives a value past the pool by at most
:data:`PAST_POOL_MOST` for the value to be *read* as written, where the rules expect an
entry there: the writer's slip of one who forgot the pool was closed, for the audit
(:func:`above_ceiling`). Lower than :data:`~scanner.decode.confirmed.INK_SLIP_CLEAR`, the
bar of a slip no later entry confirms: the rules' value there is the pool itself, and no
misread of it reaches this share. Chosen on the TRAINING part (54 sets of seeds 271-347,
seeds 348-351, legacy sets L310-L311): the 51 entries doubtful above the pool showing a
value within a deal's price past it were each the writer's; every pool total written as
the pool whose ink gave a value past it a share (2,179) held it at 0.93 or less. Read
again: 23 entries read so, each right; on the 54 sets doubtful fields 2,418 -> 2,398,
sheets needing no person 354 -> 358."""


def above_ceiling(entry: ColumnEntry, decision: EntryDecision, ceiling: int) -> EntryDecision:
    """``decision`` with the ink's values above ``ceiling`` kept in its :attr:`~EntryDecision.ink`
    (a stored sheet decodes again from them), and *doubtful* where they would take the decided value
    under :data:`~scanner.decode.entries.READ_POSTERIOR` weighed as a player's slip
    (:func:`_share_under_ceiling`): the ceiling bounds what the rules expect, not what a writer may
    write (the old generator's sample, `bench.scan_bench`: a written 22 whose units digit reads 9,
    2, 8 or 4, the 0 at 0.01, was read 20 sure). Only values a slip writes are so weighed: past the
    pool by :data:`PAST_POOL_MOST` at most, or the total the rules expect; ink further past it reads
    a digit wrong, and makes the entry doubtful only where it outweighs the decided value's as ink
    the rules overrule does (:data:`~scanner.decode.entries.INK_OUTWEIGHED`; TRAINING part, 29 sets:
    21 entries read right whose ink gave its likeliest share to such as 38, 60 or 88 in a pool of 20
    were doubtful, alone on six sheets, four of them without a recording error). Also *doubtful*
    where the rules expect a total above the pool (the writer's earlier totals, a slip carried on,
    passed it): no value the ceiling allows is then the one written (TRAINING part, phone-distant: a
    written 21 in a pool of 20 read 20 at 0.99997). Where the ink reads that very total likeliest of
    the values above the pool, the entry shows it, still doubtful (TRAINING part, 18 sets: the
    written value 9 times of 9; before, the ceiling's value was shown, such as 4 for a written 24
    the rules expected); so it does where the ink gives a value past the pool by no more than
    :data:`PAST_POOL_MOST` :data:`SHOWN_PAST_POOL` of its likelihood, a slip written clearly
    (TRAINING part, the 28 of 73 sets where it applies, read again: 39 entries doubtful above the
    pool that showed another value than the one written, such as a written 12 in a pool of 10 whose
    ink reads 12 at 0.998 shown 10, show the written one; no other field of the 31,676 changed).
    Such a value is *read* as written (the writer's slip, for the audit) where the ink gives it
    :data:`PAST_POOL_SLIP_CLEAR` of its likelihood and the rules expect an entry there, its
    confidence that share, as any slip read so (TRAINING part, 35 sets: 26 entries read so at 0.997,
    every one right, four sheets more with no person; they were doubtful however clear their ink).
    Those shares are taken over the values a writer may have written: ink further past the pool is a
    digit misread, not a value the writer might have meant (TRAINING part, seed 366 sheet 014: a 22
    in a pool of 20, its ink 22 at 0.997 and 72 at
    0.012, asked alone on its sheet)."""
    if isinstance(entry, EntryPinned):
        return decision
    if decision.expected is not None and decision.expected > ceiling and \
            decision.value != decision.expected:
        decision = replace(decision, status="doubtful", note=said(
            "expected_above_pool", expected=decision.expected, pool=ceiling,
            value=value_said(decision.value)))
    above = {v: p for v, p in likelihoods(entry, []).items() if v is not None and v > ceiling}
    if not above:
        return decision
    ink = dict(decision.ink) | above
    changes: dict[str, Any] = {"ink": tuple(sorted(ink.items(), key=lambda item: -item[1]))}
    ink_value = max(above, key=above.__getitem__)
    reach = ceiling + PAST_POOL_MOST  # the furthest past the pool a writer's slip goes
    slips = {v: p for v, p in above.items() if v <= reach or v == decision.expected}
    under = _share_under_ceiling(decision, ink.get(decision.value, 0.0), sum(slips.values()))
    misread = max((p for v, p in above.items() if v not in slips), default=0.0)
    if _taken_under(decision, under) or misread >= INK_OUTWEIGHED * ink.get(decision.value, 0.0) \
            or slips and _ink_past_ceiling(ink, decision.value,
                                           max(slips, key=slips.__getitem__), ceiling):
        changes |= {"status": "doubtful",
                    "note": said("above_pool", ink=ink_value, pool=ceiling,
                                 value=value_said(decision.value))}
    share = ink[ink_value] / sum(p for v, p in ink.items()
                                 if v is None or v <= reach or v == ink_value)
    slip_sized = ink_value <= reach
    clear = share >= SHOWN_PAST_POOL and slip_sized and \
        changes.get("status", decision.status) == "doubtful"
    if ink_value == decision.expected or clear:  # doubtful: the ceiling's value is not it
        changes |= {"value": ink_value, "confidence": 1.0 - under,
                    "candidates": ((ink_value, 1.0 - under), *decision.candidates)}
        if share >= PAST_POOL_SLIP_CLEAR and slip_sized \
                and decision.expected is not None:  # the writer's slip, for the audit
            changes |= {"status": "read", "confidence": share, "note": said(
                "ink_clearly", ink=value_said(ink_value),
                expected=value_said(decision.expected))}
    return replace(decision, **changes)


def _taken_under(decision: EntryDecision, under: float) -> bool:
    """Whether the values past the pool, weighed too, leave the decided value (``under``:
    its posterior then, :func:`_share_under_ceiling`) short of what it was decided at:
    :data:`~scanner.decode.entries.READ_POSTERIOR`, or, for a value decided below it, that share of
    its own confidence. A value read below the bar (a slip read on its ink, carried on by the
    entries after it) was asked for the faintest ink past the pool (TRAINING part, a grey scan, seed
    397 sheet 014: a pool of 20 whose 17, a slip carried on, was read at 0.986 of its ink; the 77
    and 27 its ink gave 0.0008 and 0.0003 left it at 0.98618, and it was asked, alone on its sheet);
    a value doubtful for its own reason was said to be doubtful for ink past the pool, and the
    entries beside it asked for it (seed 474 sheet 005: a 19 at
    0.9949, its ink 79 at 0.0003)."""
    if decision.confidence < READ_POSTERIOR:
        return under < READ_POSTERIOR * decision.confidence
    return under < READ_POSTERIOR


def _ink_past_ceiling(ink: Mapping[int | None, float], value: int | None, above: int,
                      ceiling: int) -> bool:
    """Whether the decided ``value`` is the ``ceiling`` itself and the ink reads ``above`` (a
    value past it) likelier and gives the ceiling under half its likelihood: the rules'
    value then stands on the ceiling alone, and a writer who forgot it writes past it
    (TRAINING part, legacy profile, seed 192: a pool of 20 whose last entry, a slip, was
    written 27; its ink 29 at 0.44, 20 at 0.26, 27 at 0.17; the rules' 20 read at 0.99999,
    silently). Below the ceiling the rules' value does not stand on it, and ink past the
    pool is a misread digit the column's paths weigh as any other (TRAINING part, five
    sets: 7 right entries, such as a 12 whose 1 reads 7, made doubtful by this check when
    it asked for no value at the ceiling, and none wrong)."""
    return value == ceiling and ink[above] > ink.get(value, 0.0) and under_half(ink, value)


def around_above_ceiling(decisions: list[EntryDecision], ceiling: int) -> list[EntryDecision]:
    """``decisions`` with each entry read against its own ink (the rules and the entries
    around it make it a value its ink does not read likeliest) *doubtful* where another
    entry of the column is doubtful for ink above the pool, or read above ``ceiling``
    (:func:`above_ceiling`): the column was weighed without the values above the pool, so
    a writer's slip carried on past it had no say, before that entry (TRAINING part, a
    fresh far photo set, seed 43:
    a written 8, then 12 in a pool of 10, a slip of 2 carried on; the 8 read 6, the rules'
    value, at 0.9995 against ink reading 8 at 0.94, the 12 doubtful) or after it (seed 64,
    a grey scan: a pool of 10 written 10, 12, 13 by a writer's slip carried on; the 13,
    its ink 13 at 0.91, read 3 at 0.9999)."""
    above = [i for i, d in enumerate(decisions) if getattr(d.note, "code", None) == "above_pool"
             or d.value is not None and d.value > ceiling]
    if not above:
        return decisions
    return [replace(d, status="doubtful", note=said(
                "before_above_pool" if i < above[-1] else "after_above_pool",
                ink=value_said(d.ink[0][0]), value=value_said(d.value)))
            if d.status == "read" and d.ink and d.ink[0][0] != d.value else d
            for i, d in enumerate(decisions)]


def below_above_ceiling(decisions: list[EntryDecision], expected: Sequence[SheetEntry]
                         ) -> list[EntryDecision]:
    """``decisions`` with each entry read after one doubtful for ink above the pool
    (:func:`above_ceiling`), below that entry's value and not the rules' total at its deal,
    *doubtful*: the column was weighed without the values above the pool, so a slip the
    writer carried on past it reads as the lower value its ink keeps where a digit is lost
    (TRAINING part, a distant pencil photo, seed 427 sheet 011: a pool of 10 written 4, 8,
    10, 11, 12 by a slip of 2 carried on; the 11 doubtful, the 12, its 1 lost, read 2 at
    0.9999 as the step after a reading of the 11 as 1). The rules' total after it is the
    writer's correction (4.2.7), read as before."""
    above = [(i, d.value) for i, d in enumerate(decisions)
             if getattr(d.note, "code", None) == "above_pool" and d.value is not None]
    if not above:
        return decisions
    totals = {e.deal: e.total for e in expected if e.deal is not None}
    out = list(decisions)
    for i, d in enumerate(decisions):
        passed = max((value for j, value in above if j < i), default=None)
        if d.status == "read" and d.value is not None and passed is not None and \
                d.value < passed and (d.deal is None or totals.get(d.deal) != d.value):
            out[i] = replace(d, status="doubtful", note=said(
                "below_above_pool", value=value_said(d.value), before=value_said(passed)))
    return out


def slips_before_above_pool(decisions: list[EntryDecision], ceiling: int
                             ) -> list[EntryDecision]:
    """``decisions`` with each writer's slip read as its ink says (a value up to
    ``ceiling`` the rules do not expect there) *doubtful* where a later entry is doubtful
    for ink above the pool (:func:`above_ceiling`): the column was weighed without the
    values above the pool, so the totals the slip was carried on to had no say on it, and
    a digit the reader lost reads as another slip (TRAINING part, seed 483 sheet 017: a
    pool of 20 written 6, 15, 23, a slip of 7 carried on; the 1 of 15 lost, the 5 read as
    the slip at 0.9997, silently; the 23 asked). Where no later entry is asked so, the
    slip stands as read."""
    last_asked = max((i for i, d in enumerate(decisions) if d.status == "doubtful"
                      and getattr(d.note, "code", None) == "above_pool"), default=-1)
    if last_asked < 0:
        return decisions
    return [replace(d, status="doubtful", note=said(
                "slip_before_above_pool", value=value_said(d.value),
                expected=value_said(d.expected)))
            if i < last_asked and d.status == "read" and d.value is not None
            and d.value <= ceiling and d.expected is not None and d.value != d.expected
            and d.ink and d.ink[0][0] == d.value else d
            for i, d in enumerate(decisions)]


def _share_under_ceiling(decision: EntryDecision, ink_decided: float, ink_above: float
                         ) -> float:
    """The decided value's posterior once the values above the ceiling, whose ink adds up to
    ``ink_above``, are weighed too, each with the prior of a value the rules do not expect
    (:data:`~scanner.decode.column_paths.OTHER_VALUE_PRIOR`); the decided value has the
    prior of the rules' step where it is the value they expect, else the same as those."""
    prior = PRIOR_RIGHT_STEP if decision.value == decision.expected else OTHER_VALUE_PRIOR
    decided = ink_decided * prior
    return decision.confidence * decided / max(decided + ink_above * OTHER_VALUE_PRIOR,
                                               PROBABILITY_FLOOR)
