"""Decode the running totals of one column with the rules as evidence, not as a mould.

For each written entry the rules expect a value: the writer's own previous total plus the
amount of the deal that comes next in this column (or, after a slip, the right running total;
:mod:`scanner.decode.column_paths` has the writer's model). The reading chosen maximises
P(ink | value) x P(value | rules), weighed over the whole column: the prior gives the expected
values most of the weight (players mostly write right) and every other value a little. So an
ambiguous 16-or-18 becomes the 18 the rules expect, while a clear 16 stays 16: a recording
error, kept for the audit. A value that disagrees with the rules is *read* only when the ink
alone is clearly sure of it; otherwise it is *doubtful*, with its candidates.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from scanner.decode.column_neighbours import (
    beside_unexplained,
    leaning_on_overruled,
    slip_may_start,
    unsure_after_doubtful,
)
from scanner.decode.column_paths import (
    Edge,
    EntryStep,
    entry_posteriors,
)
from scanner.decode.confirmed import (
    digit_may_be_lost,
    lost_digit_confirmed,
    overruling_confirmed,
    short_of,
    sign_turned,
    slip_carried_on,
    slip_written_clearly,
    unspelled,
)
from scanner.decode.corrections import corrected_after, corrected_next
from scanner.decode.entries import (
    INK_OUTWEIGHED,
    READ_POSTERIOR,
    ColumnEntry,
    EntryDecision,
    EntryPinned,
    is_blank,
    likelihoods,
    under_half,
)
from scanner.decode.falling_slips import falling_slips_asked
from scanner.decode.past_pool import (
    above_ceiling,
    around_above_ceiling,
    below_above_ceiling,
    slips_before_above_pool,
)
from scanner.decode.repeats import written_twice
from scanner.decode.slips_not_carried import slips_not_carried
from scanner.decode.unseen_slips import carried_on_unseen
from scanner.words import comma_list, said, value_said
from scoring.columns import Column
from scoring.sheet import SheetEntry

CANDIDATES_SHOWN = 4


CANDIDATE_MIN = 1e-4
"""A value less likely than this is no candidate: its order among the other unlikely ones
is noise (a stored sheet's rounded ink can swap it)."""


EMPTY_PASSES = 3
"""Passes of :func:`decode_column` with the entries decided empty pinned, at most (one
almost always settles it)."""


def only_rises(column: Column) -> bool:
    """Whether ``column``'s running totals only rise: every deal adds to a pool or a whists
    column (a pool's points past the pool go to the others or come off the mountain, RULES.md
    §6); a mountain's may fall.

    >>> only_rises(Column("A", "pool")), only_rises(Column("A", "mountain"))
    (True, False)
    """
    return column.kind != "mountain"


def decode_column(entries: Sequence[ColumnEntry], expected: Sequence[SheetEntry],
                  ceiling: int | None = None, rising: bool = False,
                  witnessed: frozenset[str] = frozenset()) -> list[EntryDecision]:
    """Decode a column's written entries together, against its expected entries.

    An entry is its cells (a scan), the ink kept from them
    (:class:`~scanner.decode.entries.EntryInk`, decoding a stored sheet again) or a value a person
    verified (:class:`~scanner.decode.entries.EntryPinned`). Each entry's value is weighed over
    every way the writer may have got there (:func:`scanner.decode.column_paths.entry_posteriors`):
    a later entry that fits only if an earlier one was a slip, or a correction, has its say on the
    earlier one.

    An entry decided empty counts as empty for the others (decided again with it pinned): a
    stored sheet keeps no ink of its empty entries, and decoding it again must agree. An
    empty entry before a written one, or where the deal log writes a total, is *doubtful*.

    Values above ``ceiling`` (:func:`~scanner.decode.past_pool.column_ceiling`) get no weight; an
    entry whose ink insists on one is *doubtful* (:func:`~scanner.decode.past_pool.above_ceiling`),
    and so is a slip read on its ink whose next entry goes on from the rules' total
    (:func:`~scanner.decode.slips_not_carried.slips_not_carried`). In a ``rising`` column
    (:func:`only_rises`) a slip that drops the column as no writer's slip does is *doubtful*
    (:func:`~scanner.decode.falling_slips.falling_slips_asked`). Entries that differ from their
    right totals alike are asked as one misread repeated unless the writer's entries elsewhere read
    the digits it would have misread (``witnessed``: :func:`_slips_followed`).
    """
    written = max((i for i, e in enumerate(entries) if not is_blank(e)), default=-1) + 1
    column = list(entries[:written])
    decisions = _decisions(column, expected, ceiling, witnessed)
    for _ in range(EMPTY_PASSES):
        pinned: list[ColumnEntry] = [
            EntryPinned(None) if d.status == "empty" and not isinstance(e, EntryPinned) else e
            for e, d in zip(column, decisions, strict=True)]
        if all(p is e for p, e in zip(pinned, column, strict=True)):
            break
        again = _decisions(pinned, expected, ceiling, witnessed)
        decisions = [was if was.status == "empty" else now
                     for was, now in zip(decisions, again, strict=True)]
        column = pinned
    decisions = slips_not_carried(decisions, expected)
    if rising:
        decisions = falling_slips_asked(decisions)
    if ceiling is not None:
        decisions = slips_before_above_pool(decisions, ceiling)
    return _between_entries(decisions) + _column_end(entries[written:], expected, written)


def _between_entries(decisions: list[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` with each empty entry before one that holds a value *doubtful*: a column
    is written box after box, so it is ink the reader lost, or a box skipped."""
    last = max((i for i, d in enumerate(decisions) if d.value is not None), default=-1)
    return [replace(d, status="doubtful", note=said("later_entry"))
            if i < last and d.status == "empty" else d
            for i, d in enumerate(decisions)]


def _column_end(blank: Sequence[ColumnEntry], expected: Sequence[SheetEntry], at: int
                ) -> list[EntryDecision]:
    """The blank entries after the last written one (the ``at``-th on): *empty*, but
    *doubtful* where the deal log writes a whole running total (ink lost, or skipped)."""
    totals = [e for e in expected if e.deal is not None]
    return [_missing(totals[i]) if i < len(totals) and totals[i].total.denominator == 1
            and not isinstance(entry, EntryPinned)
            else EntryDecision("empty", None, 1.0, ((None, 1.0),))
            for i, entry in enumerate(blank, start=at)]


def _missing(want: SheetEntry) -> EntryDecision:
    """A blank entry where the deal log writes ``want``: *doubtful*; its ink kept as "nothing"
    alone, so that a store decodes it again, as blank, when the deal log is corrected."""
    value = int(want.total)
    return EntryDecision("doubtful", None, 0.0, ((None, 1.0),), value, want.deal,
                         said("expected_unread", value=value), ((None, 1.0),))


def _decisions(entries: list[ColumnEntry], expected: Sequence[SheetEntry],
               ceiling: int | None, witnessed: frozenset[str]) -> list[EntryDecision]:
    """One pass of :func:`decode_column` over the entries up to the last written one; after
    them the column ends (an empty entry: the writer has stopped)."""
    steps = entry_posteriors([*entries, EntryPinned(None)], expected,
                             functools.partial(_entry_ink, ceiling=ceiling))
    decisions = _slips_followed(entries, steps, expected, corrected_next([
        _decision(entry, step, expected, last=k == len(entries) - 1, ceiling=ceiling)
        for k, (entry, step) in enumerate(zip(entries, steps, strict=False))]), witnessed)
    if ceiling is not None:
        decisions = below_above_ceiling(around_above_ceiling([
            above_ceiling(entry, decision, ceiling)
            for entry, decision in zip(entries, decisions, strict=True)], ceiling), expected)
    return carried_on_unseen(unsure_after_doubtful(leaning_on_overruled(slip_may_start(
        beside_unexplained(corrected_after(written_twice(decisions)))))), expected)


def _slips_followed(entries: list[ColumnEntry], steps: list[EntryStep[ColumnEntry]],
                    expected: Sequence[SheetEntry], decisions: list[EntryDecision],
                    witnessed: frozenset[str]) -> list[EntryDecision]:
    """``decisions`` with a misread the rules cannot see made *doubtful*: an entry whose
    value is not the right running total (a slip, or a misread), followed by entries that
    differ from their right totals by the same digits read as the same others ("102, 112"
    written, "107, 117" read). As the writer carrying on from a slip they fit the rules;
    as one writer's digit misread again and again they fit the ink: a person looks at all
    of them. An entry that is the right total again, or differs otherwise (the writer
    carried on from a slip), ends the pattern; so does one a person verified. A pattern
    starts only where the column leaves its right totals (the entry before is right, or
    there is none): after a slip the writer carried on, every later total is off by the
    slip's amount, and two of them whose right totals share the digits it changes differ
    alike (TRAINING part, a far photo, seed 224: a mountain's slip of 3 carried on, written
    19, 23, 35, 55 for 16, 20, 32, 52; the 35 and 55, "2 read as 5", asked, alone on their
    sheet). Where the writer's own entries show the digits the pattern would have misread
    (``witnessed``, :func:`~scanner.decode.writer_slips.digits_read_right`) and each of its
    entries' ink reads its value clearly, the pattern is the writer's slip carried on
    (:func:`_carried_clearly`)."""
    followed = list(decisions)
    pattern: list[int] = []
    confusion: frozenset[tuple[str, str]] = frozenset()
    off_before = False
    for k, (entry, step, decision) in enumerate(zip(entries, steps, decisions, strict=False)):
        if isinstance(entry, EntryPinned) or decision.value is None:
            if isinstance(entry, EntryPinned):
                pattern, off_before = [], False
            continue
        right = _right_total(step.best_edge(decision.value), expected)
        misread = digit_confusion(right, decision.value)
        if pattern and misread and misread == confusion:
            pattern.append(k)
            carried = _carried_clearly([decisions[j] for j in pattern], confusion, witnessed)
            for j in pattern:
                followed[j] = decisions[j] if carried else \
                    _repeated(followed[j], right if j == k else None, confusion)
            continue
        pattern, confusion = ([k], misread) if misread and not off_before else ([], misread)
        off_before = bool(misread)
    return followed


REPEAT_INK_CLEAR = 0.99
"""The least share of its likelihood each entry's ink gives its value for a pattern of
entries that differ from their right totals alike to be the writer's slip carried on, where
the writer's other entries show the digits it would misread (:func:`_carried_clearly`)."""


def _carried_clearly(pattern: Sequence[EntryDecision], confusion: frozenset[tuple[str, str]],
                     witnessed: frozenset[str]) -> bool:
    """Whether entries that differ from their right totals by the same digits read as
    others (``confusion``) are the writer's slip carried on, not one misread repeated: every
    digit the misread would have taken for another is one the reader reads right elsewhere in
    this writer's entries (``witnessed``), and each entry's ink reads its value at
    :data:`REPEAT_INK_CLEAR` of its likelihood or more. TRAINING part (seeds 354-473): of
    the 244 entries asked as a misread repeated, every one was read right but 8, each a
    leading 1 the reader lost (13, 15, 17 read 3, 5, 7 at 0.91-0.96) or ink reading another
    value; 35 sheets asked about two such entries and nothing else, each a recording error
    the writer carried on (a whists column written 8, 28, 48 for 6, 26, 46, read at 1.0).
    Read again with this witness: 71 entries of 15 sheets read, each right."""
    return all(written in witnessed for written, _ in confusion) \
        and all(d.ink_share >= REPEAT_INK_CLEAR for d in pattern)


def digit_confusion(right: int | None, value: int) -> frozenset[tuple[str, str]]:
    """The digits of ``right`` read as others in ``value`` (right-aligned), as (written,
    read) pairs; empty when they are equal or ``right`` is unknown.

    >>> sorted(digit_confusion(112, 117))
    [('2', '7')]
    """
    if right is None or right == value:
        return frozenset()
    width = max(len(str(right)), len(str(value)))
    return frozenset((a, b) for a, b in zip(str(right).rjust(width), str(value).rjust(width),
                                             strict=True) if a != b)


def _repeated(decision: EntryDecision, right: int | None,
              confusion: frozenset[tuple[str, str]]) -> EntryDecision:
    """``decision`` made *doubtful* as one of a repeated misread's entries."""
    if decision.status == "doubtful" and right is None:
        return decision
    pairs = [said("read_as", ink=a, value=b) for a, b in sorted(confusion)]
    return replace(decision, status="doubtful",
                   note=said("misread_repeated", confusion=comma_list(pairs)))


def _entry_index(edge: Edge) -> int:
    """The index, among the column's expected entries, of the one ``edge`` writes."""
    return edge.option.index if edge.option is not None else edge.source.next


def _deal_of(edge: Edge, expected: Sequence[SheetEntry]) -> int | None:
    """The deal the entry ``edge`` writes is tied to (``None``: none)."""
    index = _entry_index(edge)
    return expected[index].deal if index < len(expected) else None


def _right_total(edge: Edge, expected: Sequence[SheetEntry]) -> int | None:
    """The right running total for the entry ``edge`` writes: the expected total of the
    deal it is tied to (``None``: none, or not whole)."""
    index = _entry_index(edge)
    if index >= len(expected) or expected[index].total.denominator != 1:
        return None
    return int(expected[index].total)


def _unsure(ranked: list[tuple[int | None, float]]) -> str:
    """The note of an entry read below :data:`~scanner.decode.entries.READ_POSTERIOR` that
    no rule explains: how sure the reading is, and the next likeliest value a person should
    weigh."""
    (value, share), *others = ranked
    other = others[0][0] if others else None
    return said("entry_unsure", value=value_said(value), share=f"{share:.4f}",
                other=value_said(other))


def _shown(ranked: list[tuple[int | None, float]]) -> tuple[tuple[int | None, float], ...]:
    """The candidates a person is shown: the likeliest few, none below
    :data:`CANDIDATE_MIN` but the first."""
    return tuple(ranked[:1] + [c for c in ranked[1:CANDIDATES_SHOWN] if c[1] >= CANDIDATE_MIN])


def _entry_ink(entry: ColumnEntry, values: Iterable[int | None], ceiling: int | None
               ) -> dict[int | None, float]:
    """P(ink | value) for the ink's likeliest values and for ``values`` (a verified entry:
    its value only), none above ``ceiling``."""
    if isinstance(entry, EntryPinned):
        return {entry.value: 1.0}
    ink = likelihoods(entry, list(values))
    if ceiling is None:
        return ink
    return {v: p for v, p in ink.items() if v is None or v <= ceiling}


def _ink_past(entry: ColumnEntry, ceiling: int | None) -> float:
    """P(ink | value) summed over the ink's likeliest values above ``ceiling``, which the
    column's paths do not weigh (:func:`_entry_ink`)."""
    if ceiling is None or isinstance(entry, EntryPinned):
        return 0.0
    return sum(p for v, p in likelihoods(entry, []).items() if v is not None and v > ceiling)


def _decision(entry: ColumnEntry, step: EntryStep[ColumnEntry], expected: Sequence[SheetEntry],
              last: bool, ceiling: int | None = None) -> EntryDecision:
    """One entry's decision from its posterior (see the module doc for the statuses);
    ``last``: the column's last written entry; ``ceiling``: the column's, whose values past
    it a slip's share of the ink counts too (:func:`_ink_past`)."""
    ranked = sorted(step.posterior.items(), key=lambda item: -item[1])
    best, confidence = ranked[0]
    edge = step.best_edge(best)
    expected_value = edge.expected_value
    deal = None if best is None else _deal_of(edge, expected)
    ink = _ranked_ink(step.ink)
    if isinstance(entry, EntryPinned):
        return EntryDecision("empty" if entry.value is None else "read", entry.value, 1.0,
                             ((entry.value, 1.0),), expected_value, deal)
    if step.ink_clear:  # the ink clearly says what the rules do not expect: kept, for the audit
        shares = _ink_shares(step.ink)
        values = {"ink": value_said(best), "expected": value_said(expected_value)}
        if short_of(best, expected_value):  # the reader's lost digit, not the writer's slip
            status, clearly = "doubtful", said("ink_clearly_short", **values)
        elif sign_turned(best, expected_value):  # the reader's sign, not the writer's slip
            status, clearly = "doubtful", said("ink_expected", **values)
        else:
            status, clearly = "empty" if best is None else "read", said("ink_clearly", **values)
        return EntryDecision(status, best, shares[0][1], _shown(shares), expected_value, deal,
                             clearly, ink)
    read = confidence >= READ_POSTERIOR
    note = ""
    ink_value, ink_p = max(step.ink.items(), key=lambda item: item[1])
    if ink_value != best and ink_p >= INK_OUTWEIGHED * step.ink[best]:
        if ink_value is not None and ink_value in step.posterior \
                and slip_written_clearly(step, ink_value, expected_value,
                                         _ink_past(entry, ceiling)):
            return _slip_read(step, ink_value, expected_value, expected)
        # the rules (through the entries around it) outweigh ink that says otherwise
        note = said("ink_overruled", ink=value_said(ink_value), value=value_said(best))
        confirmed = overruling_confirmed(step, best, ink_value, confidence, last)
        return EntryDecision("read" if confirmed else "doubtful", best, confidence,
                             _shown(ranked), expected_value, deal, note, ink)
    if best is None:
        if step.matched[None] < confidence / 2:
            note = said("empty_expected", expected=value_said(expected_value))
        elif not read:
            note = _unsure(ranked)
        return EntryDecision("empty" if read else "doubtful", None, confidence,
                             _shown(ranked), expected_value, None, note, ink)
    if step.matched[best] < confidence / 2:  # a value the rules do not expect here
        longer = digit_may_be_lost(step, best)
        if slip_carried_on(step, best) and longer is None:
            return EntryDecision("read", best, confidence, _shown(ranked), expected_value, deal,
                                 said("ink_clearly", ink=value_said(best),
                                      expected=value_said(expected_value)), ink)
        if slip_written_clearly(step, best, expected_value, _ink_past(entry, ceiling)):
            return _slip_read(step, best, expected_value, expected)
        read = False  # not clear enough from the ink alone to be kept against the rules
        note = said("ink_expected", ink=best, expected=value_said(expected_value)) \
            if longer is None else said("digit_may_be_lost", ink=best, value=longer,
                                        expected=value_said(expected_value))
    elif unspelled(step, best):
        read = False  # the rules' value, which no digits the ink shows spell
        note = said("ink_unspelled", value=best)
    elif under_half(step.ink, best):
        note = said("ink_unsure", value=best)
        read = read or lost_digit_confirmed(step, best, ink_value, confidence, last)
    elif not read:
        note = _unsure(ranked)
    return EntryDecision("read" if read else "doubtful", best, confidence, _shown(ranked),
                         expected_value, deal, note, ink)


def _slip_read(step: EntryStep[ColumnEntry], value: int, expected_value: int | None,
               expected: Sequence[SheetEntry]) -> EntryDecision:
    """``value``, which the rules do not expect (``expected_value``) but the ink says clearly
    (:func:`~scanner.decode.confirmed.slip_written_clearly`), *read* as written: a player's
    slip, for the audit, whatever the rules made of it. Its confidence is the ink's share."""
    shares = _ink_shares(step.ink)
    return EntryDecision("read", value, dict(shares)[value], _shown(shares), expected_value,
                         _deal_of(step.best_edge(value), expected),
                         said("ink_clearly", ink=value_said(value),
                              expected=value_said(expected_value)), _ranked_ink(step.ink))


def _ranked_ink(ink: Mapping[int | None, float]) -> tuple[tuple[int | None, float], ...]:
    """P(ink | value) for each value, most likely first."""
    return tuple(sorted(ink.items(), key=lambda item: -item[1]))


def _ink_shares(ink: Mapping[int | None, float]) -> list[tuple[int | None, float]]:
    """Each value's share of the ink's likelihood, most likely first."""
    total = sum(ink.values())
    return [(v, p / total) for v, p in _ranked_ink(ink)]
