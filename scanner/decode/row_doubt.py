"""An entry the rules read over its ink is no surer than the deal row its value comes from.

The rules' value for an entry is the running total its deal writes (:mod:`scanner.decode
.columns`); where the entry is read as that value although the ink reads another (a digit
lost, ink the rules overrule), the reading rests on the deal row. Where that row is itself
*doubtful* (its ink lost, not legal, unsure), the rules' value may be as wrong as the row:
the entry is *doubtful* too, never read on the row's word (TRAINING part, a black-and-white
scan of blue ballpoint: a written 10, its 0 lost, read as the 12 a doubtful row made the
rules expect, sure at 0.9993); a row doubtful only in digits no total checks (the
defenders' split under one whister) writes the same totals whichever way they read, and
vouches as a read row does. A doubtful row is asked about for its own reasons, and the
rules may still choose between the values an unsure ink leaves. (A sheet whose deal rows'
ink the image lost is refused: :func:`scanner.decode.faint.refuse_if_unreadable`.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from scanner.decode.columns import only_rises
from scanner.decode.entries import ColumnEntry, EntryDecision, is_blank, under_half
from scanner.decode.past_pool import column_ceiling
from scanner.decode.presence import present_column, written_totals
from scanner.decode.writer_slips import digits_read_right
from scanner.words import said, value_said
from scoring.columns import Column
from scoring.sheet import ExpectedSheet

if TYPE_CHECKING:  # the sheet's decoder imports this module
    from scanner.decode.row_decision import RowDecision
    from scanner.decode.sheet import SheetEvidence

INK_AGAINST = 10.0
"""How many times likelier the ink must find another value than the one read for the read
value to rest on the rules alone (below it the ink is merely unsure between them, and the
rules choose, as they may)."""
PAIRED_AGAINST = 1.0
""":data:`INK_AGAINST` for an entry of a row read together with another
(:func:`scanner.decode.sheet._paired_doubted`): that row's own posterior is weighed with the
other held at its new reading and is no measure of it, so any value the ink finds likelier
than the one read makes the entry doubtful (TRAINING part, pencil far photo, seed 7: a
mountain's 12, ink 12 at 0.41, read 17 at 0.9987 on such a row)."""
RESTING_INK_ODDS = 20.0
"""How many times likelier than the total another reading of a doubtful row would make
there an entry's ink must find the value read, for that entry to stand on its own ink
(:func:`doubted_with_rows`)."""
RESTING_INK_SHARE = 0.9
"""... and where another reading of a doubtful row would make its total otherwise and the
column's ink backs that reading (:func:`doubted_with_rows`). TRAINING part, eight fresh
sets (seeds 157-167): the one entry read wrong so held 0.77; without the column's ink
backing the other reading, 15 right ones held less than 0.9 (35 less than 0.99). With it,
on twenty-five sets (seeds 145-169, 27,673 fields) the rule makes 2 entries doubtful, the
wrong one among them."""


Resting = tuple[tuple[int, int | None], ...]
"""The doubtful rows an entry's total rests on: each row's number and the total its other
reading makes there (``None``: none, or not whole)."""


def doubted_with_rows(entries: Mapping[Column, tuple[EntryDecision, ...]],
                      rows: Sequence[RowDecision],
                      resting: Mapping[Column, Mapping[int, Resting]] | None = None,
                      cells: Mapping[Column, Sequence[ColumnEntry]] | None = None,
                      sheet: ExpectedSheet | None = None
                      ) -> dict[Column, tuple[EntryDecision, ...]]:
    """``entries`` with each entry whose deal's row is *doubtful* made *doubtful* where its
    ink finds another value :data:`INK_AGAINST` times likelier than the one read (module
    doc). So is an entry read whose total another reading of a doubtful
    row would make otherwise, and otherwise than the value read (``resting``: each column's
    deal numbers, with each such row's number and the other total; a writer's slip carried
    on may read as that reading's totals, and then stands whichever way the row reads:
    TRAINING part, seed 445 sheet 017), where its ink finds the value read less than
    :data:`RESTING_INK_ODDS` times likelier than the other total, or gives it under half
    its likelihood (:func:`~scanner.decode.entries.under_half`: the rules chose it among
    values the ink is unsure of; TRAINING part, a thresholded scan, seed 500 sheet 022: a
    whists 48, its 8 read 6, 4 or 0, the row's talon of 3 read 2 at 0.9865, read 40 at
    0.997 on the row's word, its ink 40 at 0.06 and 48 nowhere among its readings; on 16
    fresh sets, seeds 499-514, that one asked with 15 right ones, their ink 0.003-0.49,
    no sheet more asking a person: the row's doubt asks already), or, where another entry
    of the column resting on that row reads by its ink the total the row's other reading
    makes (:func:`_backed_otherwise`), gives it less than :data:`RESTING_INK_SHARE` of its
    likelihood: the row's doubt is this entry's (TRAINING part, a thresholded scan, seed
    64: a talon prize read on a row doubtful in just that talon made a whist entry 22, its
    ink 22 at 0.65 and 20, the written value, at 0.27; read sure; a far photo of pencil,
    seed 165: a doubtful row left 10 out of a whists column, the entry before read 57 over
    its ink's 67, the other reading's total, and 87 written next, its ink 77 at 0.77 and
    87 unlisted, was read 77 at 0.9999). Blank boxes past a column's end are asked where
    another reading of a doubtful row writes more totals there (:func:`_past_end_asked`,
    from the column's ``cells`` and the totals the picked deal log ``sheet`` writes)."""
    deal_rows = [row for row in rows if row.deal is not None]
    resting = resting or {}
    cells = cells or {}
    logged = {column: _logged(sheet, column) for column in entries}
    lost_seats = {column.seat for column, decisions in entries.items()
                  if _lost_in_places(decisions, logged[column])}
    judged: dict[Column, tuple[EntryDecision, ...]] = {}
    for column, decisions in entries.items():
        rests = resting.get(column, {})
        backed = _backed_otherwise(decisions, rests)
        judged[column] = _past_end_asked(tuple(
            _doubted(decision, deal_rows, rests.get(decision.deal or 0, ()), backed)
            for decision in decisions), rests, cells.get(column, ()),
            logged[column], column.seat in lost_seats)
    return judged


def correction_room_asked(entries: Mapping[Column, tuple[EntryDecision, ...]],
                          sheet: ExpectedSheet | None
                          ) -> dict[Column, tuple[EntryDecision, ...]]:
    """``entries`` with each column's first blank box past its end made *doubtful* where
    the column's ink is lost in places (:func:`_lost_in_places`, against the totals the
    picked deal log ``sheet`` writes) and its last entry shows a value its ink reads
    otherwise, *doubtful*: the deal log placed the totals, the ink did not, and a writer's
    correction (a wrong total, then the right one below it, 4.2.7) writes one total more
    than the log, so the last may stand one box on, its ink lost as the others' (a fresh
    TRAINING set, a distant pencil photo, seed 407 sheet 002: a whists column's first four
    boxes read blank, 51, 71 and 111 shown one box early over ink reading 4, 7 and 1, and
    the written 111 left out of ``scan.json``; on 54 TRAINING sets, seeds 354-407, nine
    boxes so asked, that one written). Runs on the entries as shown (after
    :func:`~scanner.decode.presence.rules_value_shown`)."""
    return {column: _correction_room(decisions, _logged(sheet, column))
            for column, decisions in entries.items()}


def _correction_room(decisions: tuple[EntryDecision, ...], logged: frozenset[int | None]
                     ) -> tuple[EntryDecision, ...]:
    """One column as :func:`correction_room_asked` leaves it."""
    end = _last_entry_shown(decisions)
    last = decisions[end] if end >= 0 else None
    if last is None or end + 1 >= len(decisions) or decisions[end + 1].status != "empty" or \
            last.status != "doubtful" or last.value is None or not last.ink or \
            last.ink[0][0] == last.value or not _lost_in_places(decisions, logged):
        return decisions
    room = replace(decisions[end + 1], status="doubtful", confidence=0.0,
                   note=said("room_for_correction"))
    return (*decisions[:end + 1], room, *decisions[end + 2:])


def _last_entry_shown(decisions: Sequence[EntryDecision]) -> int:
    """A column's last entry that the deal log writes or that is not empty; -1 for none."""
    return max((i for i, d in enumerate(decisions) if d.deal is not None or d.status != "empty"),
               default=-1)


def _lost_in_places(decisions: Sequence[EntryDecision], logged: frozenset[int | None]) -> bool:
    """Whether a column's ink is lost in places: a total the picked deal log writes
    (``logged``: its deals) stands in no box, or an entry it writes was read blank and
    asked, or read as the rules' value over ink that reads it blank (a fresh TRAINING set,
    a far pencil photo, seed 342 sheet 008: the seat's pool totals, their pencil lost, read
    on the totals after them, so its whists total that a whist read as a pass writes, lost
    too, went unasked)."""
    return not logged <= {decision.deal for decision in decisions} or any(
        (d.status == "doubtful" and d.value is None and d.expected is not None)
        or (d.value is not None and d.ink and d.ink[0][0] is None) for d in decisions)


def _logged(sheet: ExpectedSheet | None, column: Column) -> frozenset[int | None]:
    """The deals whose totals the picked deal log ``sheet`` writes in ``column``
    (:func:`~scanner.decode.presence.written_totals`)."""
    if sheet is None:
        return frozenset()
    return frozenset(entry.deal for entry in written_totals(sheet.column(column))
                     if entry is not None)


def _backed_otherwise(decisions: Sequence[EntryDecision],
                      rests_on: Mapping[int, Resting]) -> set[int]:
    """The doubtful rows (numbers) whose other reading the column's own ink backs: an entry
    resting on the row whose ink reads likeliest the total that reading would make."""
    backed = set()
    for decision in decisions:
        if decision.deal is None or not decision.ink:
            continue
        for row, other in rests_on.get(decision.deal, ()):
            if decision.ink[0][0] == other != decision.value:
                backed.add(row)
    return backed


def _past_end_asked(decisions: tuple[EntryDecision, ...],
                    rests_on: Mapping[int, Resting], cells: Sequence[ColumnEntry],
                    logged: frozenset[int | None] = frozenset(),
                    seat_lost: bool = False) -> tuple[EntryDecision, ...]:
    """A column's blank entries past its end made *doubtful*, as many as the totals another
    reading of a doubtful row would write at deals where the picked deal log writes none
    (``rests_on``: deal numbers, each with that row's number): those totals would stand in
    the boxes past the end, which no deal of the log explains, so they were left out of the
    scan as empty. Each such box is asked where its blank ink is no evidence: the column's
    ink is lost in places (an entry the deal log writes read blank and asked; TRAINING part,
    a far photo of pencil, seed 96: a seat's ink lost, a row read 0.77 with the whister's 0
    tricks for 1, his third whist total dropped from ``scan.json``), or the box's own
    ``cells`` are not blank beyond doubt (:func:`~scanner.decode.entries.is_blank`: ink the
    decoding took for nothing where the log writes nothing; a fresh TRAINING set, a pencil
    far photo at 85 dpi, seed 219: every deal row doubtful without a deal, a pool's only
    entry, its units cell 0.74 blank, dropped). So is a column where a total the picked log
    writes (``logged``: its deals) stands in no box (a fresh TRAINING set, a pencil
    far photo, seed 313: a pool's 14 read as an unsure blank, so the log's next total went
    in no box, and the 20 written after it, its pencil lost past the column's end, was left
    out of ``scan.json``). So is a column of a seat whose ink is lost in places in another
    of its columns (``seat_lost``; a fresh TRAINING set, a far pencil photo, seed 342 sheet
    008: a whist read as a pass, the passer's whists total that the whist writes, its pencil
    lost as in the seat's pool, left out of ``scan.json``). Elsewhere a blank box is
    evidence enough (asked in every column whose ink shows: 544 more blank boxes asked on
    twenty-four TRAINING sets, none written)."""
    picked = {decision.deal for decision in decisions}
    lost_in_places = seat_lost or _lost_in_places(decisions, logged)
    if not lost_in_places and all(is_blank(entry) for entry in cells):
        return decisions
    more = [rows[0][0] for deal, rows in sorted(rests_on.items()) if deal not in picked]
    if not more:
        return decisions
    end = _last_entry_shown(decisions)
    asked = list(decisions)
    for index, row in zip(range(end + 1, len(decisions)), more, strict=False):
        if decisions[index].status == "empty" and (
                lost_in_places or index < len(cells) and not is_blank(cells[index])):
            asked[index] = replace(decisions[index], status="doubtful", confidence=0.0,
                                   note=said("more_from_doubtful_row", row=row + 1))
    return tuple(asked)


def _doubted(decision: EntryDecision, deal_rows: Sequence[RowDecision], rests_on: Resting,
             backed: set[int]) -> EntryDecision:
    if decision.status != "read" or decision.deal is None or not decision.ink \
            or not 0 < decision.deal <= len(deal_rows):
        return decision
    ink = dict(decision.ink)
    read_p = ink.get(decision.value, 0.0)
    row = deal_rows[decision.deal - 1]
    for other_row, other in rests_on:
        if other == decision.value:
            continue  # that reading makes the value read too: the value does not rest on it
        if other_row in backed and read_p < RESTING_INK_SHARE * sum(ink.values()) \
                or read_p < RESTING_INK_ODDS * ink.get(other, min(ink.values())) \
                or under_half(ink, decision.value):
            return replace(decision, status="doubtful", note=said(
                "unsure_from_doubtful_row", value=value_said(decision.value), row=other_row + 1))
    if row.status != "doubtful" or row.totals_sure:
        return decision
    ink_value, ink_p = decision.ink[0]
    against = INK_AGAINST if row.paired_with is None else PAIRED_AGAINST
    if ink_p >= against * read_p and ink_value != decision.value:
        return replace(decision, status="doubtful", note=said(
            "from_doubtful_row", ink=value_said(ink_value), value=value_said(decision.value),
            row=row.row + 1))
    return decision


def unsettled_otherwise(entries: Mapping[Column, tuple[EntryDecision, ...]],
                        evidence: SheetEvidence, sheet: ExpectedSheet | None,
                        runner_ups: Sequence[tuple[int, ExpectedSheet | None]]
                        ) -> dict[Column, tuple[EntryDecision, ...]]:
    """``entries`` with each entry read *doubtful* where a column that another reading of a
    doubtful row changes (``runner_ups``: each row's number and the expected sheet with that
    reading; ``None``, no legal game, is left to :func:`doubted_with_rows`), decoded
    against that sheet, is not read so there, although its deal writes the same total
    either way (a total the reading changes rests on the row already:
    :func:`doubted_with_rows`): which entries the column holds rests on the row too
    (TRAINING part, a far photo, seed 132: a writer left deal 2's amount out and wrote 12,
    14, 20; a row misread in its talon dropped the column's deal-9 entry, so the log made
    it 2, 14, 20 and the 12, its ink 2 at 0.976 and 12 at 0.05, was read 2 at 1.0; with the
    row's other reading the log makes 2, 14, 16, 22 and the entry is 2 at only 0.95)."""
    if sheet is None or not runner_ups:
        return dict(entries)
    witnessed = digits_read_right(entries)
    unsettled: dict[Column, dict[int, int]] = {}
    for row, other in runner_ups:
        for column, decisions in entries.items():
            if other is None or other.column(column) == sheet.column(column):
                continue
            again = present_column(evidence.columns[column], other.column(column),
                                   column_ceiling(column, evidence.rules), only_rises(column),
                                   witnessed.get(column.seat, frozenset()))
            apart = sheet.deals_apart(other, column)
            for index, (was, now) in enumerate(zip(decisions, again, strict=True)):
                if was.status == "read" and was.deal is not None and was.deal not in apart and (
                        now.status != "read" or now.value != was.value):
                    unsettled.setdefault(column, {}).setdefault(index, row)
    return {column: tuple(
                replace(decision, status="doubtful", note=said(
                    "unsettled_otherwise", value=value_said(decision.value), row=doubted + 1))
                if (doubted := unsettled.get(column, {}).get(index)) is not None else decision
                for index, decision in enumerate(decisions))
            for column, decisions in entries.items()}

