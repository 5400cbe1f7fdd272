"""Decode a sheet's columns again, from the ink a scan kept, when the deal log has changed.

A scan decodes each written entry from its cells with the rules as a prior
(:mod:`scanner.decode.columns`): the value the rules expect there is the writer's previous
total plus the deal's amount. When a person later corrects a deal row (another contract, a
different result), the expected running totals change, and so does the prior of every entry
after it; when a person verifies an entry, its value is the writer's previous total for the
entries after it. :func:`redecode_columns` runs the same decision again with what is known now:

* an entry with its ink kept (``FieldReading.ink``, P(ink | value) for the values weighed) is
  decoded from it (:class:`~scanner.decode.entries.EntryInk`), so an entry the rules now
  expect differently may become *read*, or *doubtful*;
* a verified entry is pinned to its value (*read*, confidence 1);
* an entry without ink (a scan from before the ink was kept) keeps the value it has, as if
  pinned; the caller leaves such an entry as it stands.

The cells themselves are not needed: decoding from the kept ink gives the scan's own decisions
when the deals are the scan's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scanner.decode.columns import only_rises
from scanner.decode.entries import ColumnEntry, EntryDecision, EntryInk, EntryPinned
from scanner.decode.past_pool import column_ceiling
from scanner.decode.presence import present_column, with_rules_value
from scanner.decode.writer_slips import with_writers_digits
from scoring.columns import Column
from scoring.errors import ScoringError
from scoring.record import FORMAT, parse_record
from scoring.rules import RuleSet
from scoring.sheet import ExpectedSheet, expected_sheet


@dataclass(frozen=True)
class EntryEvidence:
    """What is known of one written entry: its kept ink, or a value a person verified."""

    ink: Mapping[int | None, float] | None = None
    """P(ink | value) for the values the scan weighed; ``None`` when not kept."""
    value: int | None = None
    """The entry's value as it stands (a verified one, or the last decoded)."""
    verified: bool = False
    rules_value: bool = False
    """Whether the scan showed the rules' total in this blank box, its ink perhaps lost
    (:func:`~scanner.decode.presence.rules_value_shown`): decoded again, it shows the total
    the rules then expect."""

    @property
    def decodable(self) -> bool:
        """Whether the entry is decoded again (it has ink and no person verified it)."""
        return not self.verified and bool(self.ink)

    def column_entry(self) -> ColumnEntry:
        """The entry as :func:`~scanner.decode.columns.decode_column` takes it."""
        if self.decodable:
            return EntryInk(dict(self.ink or {}))
        return EntryPinned(self.value)


def ink_mapping(pairs: Iterable[Sequence[Any]]) -> dict[int | None, float]:
    """``FieldReading.ink`` (or its JSON: ``[[value, p], ...]``) as a mapping."""
    return {None if value is None else int(value): float(p) for value, p in pairs}


def expected_for(deals: Sequence[Mapping[str, Any]], rules: RuleSet, seats: Sequence[str]
                 ) -> ExpectedSheet | None:
    """The expected sheet of a deal log; ``None`` if the deals do not make a legal game."""
    doc = {"format": FORMAT, "rules": rules.settings(), "seats": list(seats),
           "deals": [dict(d) for d in deals if d is not None]}
    try:
        return expected_sheet(parse_record(doc))
    except (ScoringError, ArithmeticError):
        return None


def redecode_columns(record_deals: Sequence[Mapping[str, Any]], rules: RuleSet,
                     seats: Sequence[str],
                     entries: Mapping[Column, Sequence[EntryEvidence]]
                     ) -> dict[Column, list[EntryDecision]]:
    """Each column's entries decoded again against the expected sheet of ``record_deals``.

    ``entries`` lists a column's entries in order, from its first (an entry the scan found
    empty, and did not keep, is ``EntryEvidence()``: empty, pinned). Returns one decision per
    entry; an empty mapping when the deals do not make a legal game (nothing to expect: the
    entries are best left as they stand until the deal log is legal again).
    """
    sheet = expected_for(record_deals, rules, seats)
    if sheet is None:
        return {}

    def decode(column: Column, witnessed: frozenset[str] = frozenset()
               ) -> list[EntryDecision]:
        return present_column([e.column_entry() for e in entries[column]],
                              sheet.column(column), column_ceiling(column, rules),
                              only_rises(column), witnessed)

    decided = with_writers_digits({column: decode(column) for column in entries}, decode)
    return {column: [with_rules_value(decision) if evidence.rules_value else decision
                     for evidence, decision in zip(column_entries, decided[column],
                                                   strict=True)]
            for column, column_entries in entries.items()}
