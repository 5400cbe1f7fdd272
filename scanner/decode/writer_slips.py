"""The entries one writer's columns read as slips, weighed together.

A writer slips now and then (Codex 4.2.7 has the correction for it); a reader that takes one
of this writer's digits for another does so wherever the digit stands. So where two entries
of one seat's columns are read against the rules by the same digits read as others (a 2 read
3 in "24" and in "42", TRAINING part, legacy profile: three such entries on one sheet, each
read at 0.996-0.997 of its ink), they are one misread repeated, not two slips: the one read
as a slip is *doubtful*, never blamed on the player, whether the others were read so or
left doubtful.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from scanner.decode.columns import digit_confusion
from scanner.decode.entries import EntryDecision
from scanner.words import comma_list, said
from scoring.columns import Column


def slips_alike(entries: Mapping[Column, tuple[EntryDecision, ...]]
                ) -> dict[Column, tuple[EntryDecision, ...]]:
    """``entries`` with each entry read as a slip (a value the rules did not expect there)
    made *doubtful* where another entry of the same seat's columns whose ink reads otherwise
    than the rules expect (read so, or doubtful) differs from their value by a digit read as
    the same other one (module doc)."""
    off: dict[str, list[tuple[Column, int, frozenset[tuple[str, str]]]]] = defaultdict(list)
    for column, decisions in entries.items():
        for index, decision in enumerate(decisions):
            ink = decision.ink[0][0] if decision.ink else decision.value
            if decision.status != "empty" and ink is not None \
                    and decision.expected is not None and ink != decision.expected:
                off[column.seat].append((column, index, digit_confusion(decision.expected, ink)))
    marked = {column: list(decisions) for column, decisions in entries.items()}
    for seat_off in off.values():
        for column, index, confusion in seat_off:
            decision = entries[column][index]
            if decision.status != "read" or decision.value == decision.expected:
                continue
            shared = set().union(*(confusion & other for c, i, other in seat_off
                                   if (c, i) != (column, index)))
            if shared:
                pairs = [said("read_as", ink=a, value=b) for a, b in sorted(shared)]
                marked[column][index] = replace(
                    marked[column][index], status="doubtful",
                    note=said("slips_alike", confusion=comma_list(pairs)))
    return {column: tuple(decisions) for column, decisions in marked.items()}


WITNESS_INK_CLEAR = 0.99
"""An entry shows its writer's digits (:func:`digits_read_right`) where its ink reads the
value the rules expect at least this share of its likelihood ..."""
WITNESS_ENTRIES = 2
"""... and a digit is the writer's, read right, where this many such entries hold it."""


def digits_read_right(entries: Mapping[Column, Sequence[EntryDecision]]
                      ) -> dict[str, frozenset[str]]:
    """Each seat's digits that :data:`WITNESS_ENTRIES` of its entries hold where they are
    read as the rules expect and their ink reads that value likeliest, at
    :data:`WITNESS_INK_CLEAR` of its likelihood or more: the reader reads that writer's
    digit right (a witness against one misread repeated, :func:`with_writers_digits`)."""
    held: dict[str, Counter[str]] = defaultdict(Counter)
    for column, decisions in entries.items():
        for d in decisions:
            if d.confirmed_at(WITNESS_INK_CLEAR) and d.value is not None:
                held[column.seat].update(set(str(abs(d.value))))
    return {seat: frozenset(digit for digit, count in counts.items()
                            if count >= WITNESS_ENTRIES) for seat, counts in held.items()}


ColumnDecoder = Callable[[Column, frozenset[str]], Sequence[EntryDecision]]


def with_writers_digits(entries: Mapping[Column, Sequence[EntryDecision]],
                        decode: ColumnDecoder) -> dict[Column, tuple[EntryDecision, ...]]:
    """``entries`` with each column that asks about entries as one misread repeated decoded
    again (``decode``) knowing the digits its writer's entries read right
    (:func:`digits_read_right`): entries that differ from their right totals alike by digits
    the reader reads right in that writer's hand are the writer's slip carried on
    (:func:`~scanner.decode.columns._carried_clearly`)."""
    witnessed = digits_read_right(entries)
    return {column: tuple(decode(column, witnessed[column.seat]))
            if column.seat in witnessed and any(
                getattr(d.note, "code", None) == "misread_repeated" for d in decisions)
            else tuple(decisions)
            for column, decisions in entries.items()}
