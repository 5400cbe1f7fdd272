"""Fields that must come out: no deal row or running total the sheet holds is left *empty*.

``scan.json`` lists the fields read or doubtful; a field decided *empty* is not listed, so a
field wrongly empty is lost without a word. A field may be *empty* only where nothing says
it holds something:

* a running-total entry where the deal log writes a whole total (RULES.md: each deal that
  writes to a column adds one entry to it) is never empty: its ink was lost or skipped;
* an entry or a deal row whose own ink reads as something (:data:`INKED_CELL`,
  :data:`INKED_MARK`) is never empty: the ink is there, a person reads it; but for a row
  that reads as no deal far past the last deal, where the running totals hold no deal more
  (:func:`row_notes`);
* an entry before a later written entry of its column (:func:`last_written`: a value, or ink
  next to one) is never empty: a column is written box after box, so a blank among
  its totals is ink the reader did not see or a box the writer skipped (TRAINING part, a
  black-and-white scan of ballpoint: an 8 between a 6 and a 13 above the pool, its deal
  row misread, left out unseen);
* the box right after a column's last entry is never empty where the rules overruled that
  entry's ink (:data:`OVERRULED_CODES`) and it stays doubtful: the deal log that made them
  may be misread, and a total it lacks whose ink was lost may stand there (an overruling
  read is one the entries after it confirm, or ink that lost one digit of the rules'
  value: it puts no doubt on the deal log);
* every deal row before the last row written is never empty (the deal log is written row
  after row), nor the rows the running totals require beyond the deal log: when at least
  two columns hold more entries than the deal log writes, deals are missing from it (every
  printed row, where a seat's ink is lost too: its columns undercount those deals); nor
  the row after the last row shown where rows among the deals read blank (the capture
  loses whole deal rows, and a deal lost there shows nowhere else).

Ink the decoding turns down (no value, no deal) counts as written only next to what is
written (:data:`STRAY_INK_GAP`): further on it is *stray* ink, a speck or a printed line's
remnant, itself doubtful but no sign of writing lost before it.

Each such field becomes *doubtful*, with a note saying why; its value stays nothing, but
for an entry where the deal log writes a total (:func:`rules_value_shown`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

from scanner.decode.columns import decode_column
from scanner.decode.deals import RowEvidence
from scanner.decode.entries import EntryCells, EntryDecision, EntryInk, EntryPinned
from scanner.decode.numbers import EMPTY
from scanner.words import said
from scoring.columns import Column
from scoring.sheet import ExpectedSheet, SheetEntry

INKED_CELL = 0.5
"""A digit cell less likely empty than this holds ink (the classifier finds a digit there
likelier than a blank box)."""
INKED_MARK = 0.5
"""A mark box at least this likely crossed holds ink."""
STRAY_INK_GAP = 2
"""Ink in a box (row) more than this many after the last one decided (a value, a deal) is
stray unless decided itself: it does not make the blank boxes (rows) before it doubtful,
nor count as a total the deal log lacks (TRAINING part, the six sets: of 34 columns whose
blanks were doubtful under a later entry the rules turned down, 33 had no total written
below their last one read, the ink that made them so being a printed border's remnant on a
low-resolution photo up to 13 boxes further down, read as nothing or as a stray digit; in
the one real case a single blank lay between; a deal row lost among rows that read as no
deal lies next to one of them). A row further past the last deal whose own ink reads as no
deal is stray itself, *empty*, where the running totals hold no deal more (TRAINING part,
eight sets: 56 such rows were asked, 48 on far photos and 8 on steep ones, every one blank:
a column's rule or a shadow beside its mark boxes; four sheets without a recording error
were asked about nothing else, and need no person now: 24 -> 28 of 52)."""
STRAY_BOX_GAP = 4
"""A box more than this many past its column's last total (a value decided, or a total the
deal log writes), where the deal log writes none, holds no total: a value its ink gives
there is a speck, a shadow or a printed line's remnant, and the box is *empty* however
unsure its ink (:func:`_stray_past_end`). TRAINING part, 52 sets (seeds 271-345, 832
sheets): of the boxes left doubtful as nothing so, unsure (``entry_unsure``) or read so by
the rules against ink that gives a value (``ink_overruled``), 67 lay five or more boxes past
the column's last total, every one blank; of the 40 three or four past it, 8 held a total
the deal log lacked, the furthest four past it. Read again with this rule: blank boxes
asked 930 -> 873, sheets needing no person 309 -> 316, every field as before."""
STRAY_BOX_CODES = frozenset({"entry_unsure", "ink_overruled"})
"""The notes of a box decided nothing but doubtful that :data:`STRAY_BOX_GAP` may leave
*empty*: its own ink is unsure, or the rules turned it down."""
OVERRULED_CODES = frozenset({"ink_overruled", "ink_unspelled"})
"""The notes of an entry whose ink the rules overruled (the rules' value over ink that reads
another, or spells none well): ended on one, a column's next box is asked (TRAINING part, a
fresh far photo set, seed 50: a pencil sheet whose deal log was misread, two totals the log
lacked in the boxes after such entries, their ink lost, left out of ``scan.json`` without a
word; seventeen sets, 334 sheets: those two found, 70 blank boxes more asked, all on sheets
a person looks at already; the other doubtful notes, whose ink is kept or unsure, would ask
about 200 more)."""
COLUMNS_FOR_A_DEAL = 2
"""Columns that must hold more entries than the deal log writes before rows beyond it are
taken as lost deals: every deal but a rare one writes to two columns or more (a pool and a
whist, a mountain and a consolation), while a writer's correction adds an entry to one."""


class DecidedRow(Protocol):
    """A row's decision as :func:`row_notes` (and :mod:`scanner.decode.unwritten`) need it."""

    @property
    def status(self) -> str:
        """``read``, ``doubtful`` or ``empty``."""

    @property
    def deal(self) -> object:
        """The deal the row holds, ``None`` for none."""

    @property
    def note(self) -> object:
        """Why the row is doubtful (a said sentence), or ``""``."""


def entry_holds_ink(entry: EntryCells | EntryInk | EntryPinned) -> bool:
    """Whether an entry's own ink reads as something: a cell likelier a digit than blank, a
    sign cell likelier a minus, or (ink kept from a scan) a value likelier than nothing.

    >>> entry_holds_ink(EntryCells(((0.0,) * 10 + (1.0,), (0.6,) + (0.0,) * 9 + (0.4,))))
    True
    """
    if isinstance(entry, EntryPinned):
        return False
    if isinstance(entry, EntryInk):
        return bool(entry.likelihood) and \
            max(entry.likelihood, key=entry.likelihood.__getitem__) is not None
    return any(cell[EMPTY] < INKED_CELL for cell in entry.cells) or \
        (entry.minus is not None and entry.minus >= 1 - INKED_CELL)


def written_totals(expected: Sequence[SheetEntry]) -> list[SheetEntry | None]:
    """The entries the deal log writes in a column, one per box from its first: each deal's
    running total, or ``None`` where it is not whole (a half-whist's share of a point is
    not written)."""
    return [entry if entry.total.denominator == 1 else None
            for entry in expected if entry.deal is not None]


def present_column(entries: Sequence[EntryCells | EntryInk | EntryPinned],
                   expected: Sequence[SheetEntry], ceiling: int | None = None,
                   rising: bool = False, witnessed: frozenset[str] = frozenset()
                   ) -> list[EntryDecision]:
    """A column decoded (:func:`~scanner.decode.columns.decode_column`) with no entry lost
    (:func:`entries_present`)."""
    return entries_present(entries, decode_column(entries, expected, ceiling, rising,
                                                  witnessed), expected)


def entries_present(entries: Sequence[EntryCells | EntryInk | EntryPinned],
                    decisions: Sequence[EntryDecision], expected: Sequence[SheetEntry]
                    ) -> list[EntryDecision]:
    """``decisions`` (one per entry of a column) with each entry decided empty that the deal
    log writes (:func:`written_totals`), whose ink reads as something up to the column's last
    writing (:func:`last_written`: a value, or ink near the last one), that a later written
    entry follows, or that follows the last one where the rules overruled its ink
    (:data:`OVERRULED_CODES`), left doubtful, made *doubtful*. An entry a person verified
    empty stays so. Ink that reads as no total more than :data:`STRAY_INK_GAP` boxes past
    the column's last writing, where the deal log writes none, is stray, as such a row's is
    (:func:`scanner.decode.sheet._stray_rows`): totals are written box after box, and a
    total there would leave the boxes before it blank (TRAINING part, 29 sets: 77 such boxes
    asked, 3 to 16 boxes past the column's last total, on far and steep photos: every one
    blank, a printed border's remnant or a shadow; two sheets asked about nothing else)."""
    writes = written_totals(expected)
    decisions = _stray_past_end(decisions, len(writes))
    last = last_written([_inked(entry, decision) for entry, decision in zip(entries, decisions,
                                                                           strict=True)],
                        [decision.value is not None for decision in decisions])
    out = []
    for index, (entry, decision) in enumerate(zip(entries, decisions, strict=True)):
        if decision.status != "empty" or isinstance(entry, EntryPinned):
            out.append(decision)
        elif index < len(writes) and (want := writes[index]) is not None:
            value = int(want.total)
            out.append(replace(decision, status="doubtful", confidence=0.0, expected=value,
                               deal=want.deal,
                               note=said("expected_unread", value=value)))
        elif entry_holds_ink(entry) and index <= last:
            out.append(replace(decision, status="doubtful", confidence=0.0,
                               note=said("ink_no_number")))
        elif index < last:
            out.append(replace(decision, status="doubtful", confidence=0.0,
                               note=said("blank_between")))
        elif index == last + 1 and last >= 0 and decisions[last].status == "doubtful" and \
                getattr(decisions[last].note, "code", None) in OVERRULED_CODES:
            out.append(replace(decision, status="doubtful", confidence=0.0,
                               note=said("after_overruled")))
        else:
            out.append(decision)
    return out


def _stray_past_end(decisions: Sequence[EntryDecision], writes: int) -> list[EntryDecision]:
    """``decisions`` with each one decided nothing but *doubtful* for its own ink
    (:data:`STRAY_BOX_CODES`) more than :data:`STRAY_BOX_GAP` boxes past the column's last
    total (its last value decided, or the last of the ``writes`` totals the deal log writes
    there) *empty*: no total stands there."""
    end = max([i for i, d in enumerate(decisions) if d.value is not None] + [writes - 1])
    return [replace(d, status="empty", note="")
            if i > end + STRAY_BOX_GAP and d.status == "doubtful" and d.value is None
            and getattr(d.note, "code", None) in STRAY_BOX_CODES else d
            for i, d in enumerate(decisions)]


SHOWN_CODES = frozenset({"expected_unread", "empty_expected"})
"""The notes of a *doubtful* entry read blank where the deal log writes a total."""
LOST_TOTAL_SHARE = 0.9
"""How often such an entry holds the rules' total where its seat's ink is lost from the
image or its boxes keep a trace of ink (TRAINING part, seven sets, 86 such entries: 77 the
rules' total, 9 another value, none nothing; where the seat's ink reached the image and the
boxes are clean, 12 were left out by the writer, 7 held the total: those keep nothing) ..."""
LEFT_OUT_SHARE = 0.01
"""... and how often nothing."""


def rules_value_shown(entries: Mapping[Column, Sequence[EntryDecision]],
                      cells: Mapping[Column, Sequence[EntryCells]], faint: Sequence[str]
                      ) -> dict[Column, tuple[EntryDecision, ...]]:
    """``entries`` with each blank, *doubtful* entry where the deal log writes a total and
    the image may have lost the ink (a ``faint`` seat's column, or boxes whose ``cells``
    keep a trace of ink) holding that total (:func:`with_rules_value`)."""
    return {column: tuple(with_rules_value(decision) if column.seat in faint
                          or _traced(cells.get(column, ()), index) else decision
                          for index, decision in enumerate(decisions))
            for column, decisions in entries.items()}


def with_rules_value(decision: EntryDecision) -> EntryDecision:
    """A blank, *doubtful* entry where the deal log writes a total (:data:`SHOWN_CODES`)
    holding that total, its likeliest value (:data:`LOST_TOTAL_SHARE`), nothing the next
    candidate, its ink kept as nothing (it decodes again so): the first a person accepts,
    where a blank would blame the writer for ink the image lost."""
    if decision.status != "doubtful" or decision.value is not None \
            or decision.expected is None or getattr(decision.note, "code", None) not in SHOWN_CODES:
        return decision
    return replace(decision, value=decision.expected, confidence=LOST_TOTAL_SHARE,
                   candidates=((decision.expected, LOST_TOTAL_SHARE), (None, LEFT_OUT_SHARE)))


def holds_rules_value(value: object, expected: object, note: object) -> bool:
    """Whether a stored entry is one :func:`with_rules_value` made: its note one of
    :data:`SHOWN_CODES`, its value the rules' total."""
    return getattr(note, "code", None) in SHOWN_CODES and value is not None and value == expected


def _traced(cells: Sequence[EntryCells], index: int) -> bool:
    return index < len(cells) and cells[index].traced


def _inked(entry: EntryCells | EntryInk | EntryPinned, decision: EntryDecision) -> bool:
    """Whether an entry holds ink: its own (:func:`entry_holds_ink`), or ink likeliest a
    number (a value the rules turned down, above the pool, is still writing)."""
    return entry_holds_ink(entry) or bool(decision.ink) and decision.ink[0][0] is not None


def last_written(inked: Sequence[bool], reads: Sequence[bool], stray: bool = True) -> int:
    """The index of the last box (row) written, -1 for none: one decided as something
    (``reads``: a value, a deal), or ``inked`` within :data:`STRAY_INK_GAP` of the last
    written before it (any ink where not ``stray``: in a column whose seat's ink is lost,
    ink the decoding turns down is still writing).

    >>> last_written([True, False, False, True], [True, False, False, False])
    0
    >>> last_written([True, False, True, True], [True, False, False, False])
    3
    """
    last = -1
    for index, (ink, read) in enumerate(zip(inked, reads, strict=True)):
        if read or ink and (not stray or index - last <= STRAY_INK_GAP):
            last = index
    return last


def row_holds_ink(evidence: RowEvidence) -> bool:
    """Whether a deal row's own ink reads as something: a mark box likely crossed, or a
    digit cell likelier a digit than blank."""
    return any(p >= INKED_MARK for p in evidence.marks.values()) or \
        any(cell[EMPTY] < INKED_CELL for cell in evidence.digits.values())


def no_deal_read(evidence: Sequence[RowEvidence], deals: Sequence[dict[str, Any] | None],
                 entries: Mapping[Column, Sequence[EntryDecision]]) -> bool:
    """Whether the deal rows hold ink (:func:`row_holds_ink`) and the columns read totals,
    but not one row reads as a deal (``deals``: each row's, read or in doubt): the capture
    kept the scorer's writing but not legibly, no deal log checks a total, and the rows
    past the last one holding ink, whose deals the columns would count, are lost with it
    (TRAINING part, seed 416 sheet 023, a pencil photo at 76 dpi: eleven rows asked without
    a deal, the two deals after them and a mountain's total left out of ``scan.json``; the
    only such sheet of 1,435 TRAINING sheets read, seeds 354-427). A sheet whose scorer left
    the rows blank is not one: its rows hold no ink."""
    return not any(deal is not None for deal in deals) and \
        any(row_holds_ink(row) for row in evidence) and \
        any(decision.value is not None for column in entries.values() for decision in column)


def rows_required(columns: Mapping[Column, Sequence[EntryCells]],
                  entries: Mapping[Column, Sequence[EntryDecision]], sheet: ExpectedSheet | None,
                  faint: Sequence[str] = ()) -> int:
    """How many deals the running totals hold beyond the deal log ``sheet`` writes: the
    largest surplus of a column's written entries (:func:`last_written`, from their ink and
    their ``entries`` decided; any ink in a ``faint`` seat's column; a writer's correction
    one entry, :func:`_corrections`) over the log's (:func:`written_totals`), when at least
    :data:`COLUMNS_FOR_A_DEAL` columns have one (0 otherwise)."""
    surplus = []
    for column, cells in columns.items():
        decisions = entries[column]
        last = last_written([_inked(entry, decision)
                             for entry, decision in zip(cells, decisions, strict=True)],
                            [decision.value is not None for decision in decisions],
                            column.seat not in faint)
        written = 1 + last - _corrections(decisions[:last + 1])
        writes = len(written_totals(sheet.column(column))) if sheet is not None else 0
        surplus.append(max(written - writes, 0))
    return max(surplus) if sum(n > 0 for n in surplus) >= COLUMNS_FOR_A_DEAL else 0


def _corrections(decisions: Sequence[EntryDecision]) -> int:
    """How many of a column's ``decisions`` are a wrong value the writer corrected by writing
    the right one next (4.2.7): an entry the decoder ties to the deal the next entry, read,
    is tied to. Both write one deal, so the column holds no deal more for it (TRAINING
    part, 29 sets: on 10 sheets whose writers corrected a total in two columns, blank rows
    past the deals were asked, as if a deal were lost: one a sheet, and every printed row
    of a sheet with a faint seat; seed 272 sheet 011)."""
    return sum(entry.deal is not None and entry.deal == corrected.deal
               and corrected.status == "read"
               for entry, corrected in itertools.pairwise(decisions))


def rows_asked(columns: Mapping[Column, Sequence[EntryCells]],
               entries: Mapping[Column, Sequence[EntryDecision]], sheet: ExpectedSheet | None,
               faint: Sequence[str], printed: int) -> tuple[int, int]:
    """How many deals the running totals hold beyond the log (:func:`rows_required`), and
    how many rows after the last deal to ask beyond those (:func:`row_notes`): all
    ``printed`` rows where a seat's ink is lost (``faint``), since its columns undercount
    the deals the log lost; none otherwise."""
    required = rows_required(columns, entries, sheet, faint)
    return required, printed if required and faint else 0


def row_notes(evidence: Sequence[RowEvidence], decisions: Sequence[DecidedRow],
              required: int, asked: int = 0) -> list[str]:
    """For each row that must not stand as decided, the note that makes it *doubtful*
    (``""`` for every other row): a row decided empty that holds ink (but for one more than
    :data:`STRAY_INK_GAP` rows past the last deal where the running totals hold no deal more:
    a deal it lost would have written its totals) or lies before the last row written
    (:func:`last_written`: a deal read, or a row in doubt or ink next to one; TRAINING
    part, a pencil far photo, seed 78: a row whose ink was lost, between a row the totals
    put in doubt and a row of ink three rows past the last deal, was left out; a row in
    doubt far past the others is stray, seed 96: a border's remnant at the sheet's foot
    read as a doubtful deal made thirty blank rows before it doubtful), or one of
    the ``required`` rows after the last row with a deal (:func:`rows_required`, less the
    rows without a deal already doubtful among the deals), or of the ``asked`` rows after it
    (:func:`rows_asked`), or a blank row before one asked for its ink
    (:func:`_before_ink_asked`), or the row after the last row shown on a sheet that lost
    whole deal rows (:func:`_after_lost_rows`). A sheet whose deal rows' ink is lost never
    gets here: it is refused (:func:`scanner.decode.faint.refuse_if_unreadable`)."""
    inked = [row_holds_ink(row) for row in evidence]
    last_ink = last_written([ink or d.status == "doubtful" for ink, d in zip(inked, decisions,
                                                                            strict=True)],
                            [d.status == "read" for d in decisions])
    last_deal = last_written([d.deal is not None for d in decisions],
                             [d.deal is not None and d.status == "read" for d in decisions])
    # a doubtful row without a deal among the deals stands for one of those required
    required -= sum(d.deal is None and d.status != "empty" for d in decisions[:last_deal])
    reach = last_deal + max(required, asked)
    notes: list[str] = []
    for k, decision in enumerate(decisions):
        note: str = ""
        if decision.status != "empty":
            pass
        elif inked[k] and (required > 0 or k - last_deal <= STRAY_INK_GAP):
            note = said("ink_no_deal")
        elif k <= last_ink:
            note = said("later_row_ink")
        elif k <= reach:
            note = said("totals_hold", n=max(required, 1))
        notes.append(note)
    return _after_lost_rows(_before_ink_asked(notes, decisions, required), decisions)


def _after_lost_rows(notes: list[str], decisions: Sequence[DecidedRow]) -> list[str]:
    """``notes`` with the first row after the last row shown (decided a deal or doubtful, or
    noted) noted too where it is blank and rows among the deals read blank
    (``later_row``): the capture loses whole deal rows, and a deal lost after the last one
    shown writes nothing a later row or the column counts would show (TRAINING part, a
    thresholded scan, seed 228: seven rows blank among the deals, rows 20-22 asked, the
    last deal, row 23, left out; on 42 TRAINING sets, 9 sheets that lost rows so, each with
    other doubtful rows, got one blank row more asked)."""
    if not any(getattr(d.note, "code", None) == "later_row" for d in decisions):
        return notes
    shown = [k for k, (note, d) in enumerate(zip(notes, decisions, strict=True))
             if note or d.status != "empty"]
    after = shown[-1] + 1
    if after >= len(notes) or notes[after]:
        return notes
    return [said("after_lost_rows") if k == after else note for k, note in enumerate(notes)]


def _before_ink_asked(notes: list[str], decisions: Sequence[DecidedRow], required: int
                      ) -> list[str]:
    """``notes`` with each row decided empty, and not noted, before the last row asked for
    its ink (``ink_no_deal``) noted too, as far as the rows written or asked follow one
    another with blank runs no longer than the deals the running totals lack (``required``,
    at least :data:`STRAY_INK_GAP`): the deal log is written row after row, so a person asked
    about that ink is asked about the blank rows before it, and no row between rows asked
    is left out of the scan (TRAINING part, a pencil far photo, seed 116: the totals held
    five deals more than the log, ink in rows 5, 8, 9, 13 and 16 was asked, and the blank
    rows between them, deals whose ink was lost, came out nowhere). Ink past a longer blank
    run after a deal read is stray: it does not make the run asked (far photos, seeds 110,
    119, 120: a border's remnant at the sheet's foot, 17-23 rows past the last deal); before
    any deal is read the deal rows' ink is lost, and the run is deals whose ink went with it
    (TRAINING part, blue ballpoint thresholded, seed 161: no row read, the totals holding
    seven deals, ink in rows 8-9 and 18-19, and the eight blank rows between left out)."""
    reach = max(required, STRAY_INK_GAP)
    chained, last_ink, any_read = -1, -1, False
    for k, (note, decision) in enumerate(zip(notes, decisions, strict=True)):
        if decision.status == "empty" and not note:
            continue
        if k - chained - 1 > reach and any_read:
            break
        chained = k
        any_read = any_read or (decision.status == "read" and decision.deal is not None)
        if getattr(note, "code", None) == "ink_no_deal":
            last_ink = k
    return [said("later_row_ink") if k < last_ink and not note and decision.status == "empty"
            else note for k, (note, decision) in enumerate(zip(notes, decisions, strict=True))]


def missing_rows_problem(evidence: Sequence[RowEvidence], notes: Sequence[str]
                         ) -> tuple[str, ...]:
    """The sheet's problem for the deal rows the running totals require but that read blank
    (:func:`row_notes`), naming them as people count rows (from 1); none: none.

    >>> rows = [RowEvidence(k, {}, {}) for k in range(3)]
    >>> hold = said("totals_hold", n=2)
    >>> str(missing_rows_problem(rows, ["", hold, hold])[0])[:36]
    'deal rows 2-3 read blank, but the ru'
    """
    missing = [row.row + 1 for row, note in zip(evidence, notes, strict=True)
               if getattr(note, "code", None) == "totals_hold"]
    if not missing:
        return ()
    which = said("rows_span", first=missing[0], last=missing[-1]) if len(missing) > 1 else \
        said("row_one", row=missing[0])
    return (said("rows_blank", which=which),)
