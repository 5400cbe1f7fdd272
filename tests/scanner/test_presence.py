"""No field lost (scanner.decode.presence): every deal row and running total the sheet holds
comes out of the decoding read or doubtful, never silently empty (issue 13, classes 4 and 7)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from scanner.decode.deals import RowEvidence
from scanner.decode.entries import EntryCells, EntryDecision, EntryInk, EntryPinned
from scanner.decode.faint import LOST_INK_GAP
from scanner.decode.presence import (
    entries_present,
    entry_holds_ink,
    no_deal_read,
    row_holds_ink,
    row_notes,
    rules_value_shown,
)
from scanner.decode.sheet import DecodedSheet, RowDecision, SheetEvidence, decode_sheet
from scanner.words import said, value_said
from scoring.columns import Column
from tests.scanner.evidence import digit_probabilities, game, row_evidence, sheet_evidence


def _longest_column(doc: dict[str, object]) -> tuple[Column, list[int]]:
    """The sheet's column with the most entries, and its values."""
    written = doc["written"]
    assert isinstance(written, dict)
    best: tuple[Column, list[int]] | None = None
    for seat, columns in written.items():
        candidates = [(Column(seat, "pool"), columns["pool"]),
                      (Column(seat, "mountain"), columns["mountain"])]
        candidates += [(Column(seat, "whists", on), v) for on, v in columns["whists"].items()]
        for column, values in candidates:
            if best is None or len(values) > len(best[1]):
                best = column, values
    assert best is not None
    return best


def _faint(value: int | None, cells: int, empty: float) -> EntryCells:
    """An entry whose strokes a thresholded scan broke into dots: every cell read blank at
    ``empty``, whatever was written."""
    del value
    return EntryCells(tuple(digit_probabilities(None, empty) for _ in range(cells)))


def _entries(decoded: DecodedSheet, column: Column) -> list[tuple[str, int | None]]:
    return [(d.status, d.value) for d in decoded.entries[column]]


def test_a_column_of_faint_entries_the_deal_log_writes_is_doubtful_not_empty() -> None:
    """A seat's pencil lost by a black-and-white scan: its column's boxes read blank, one of
    them with a speck of doubt (so the column seems written up to there). The deal log
    writes a total in each box: every one is doubtful with the total the rules expect in
    its note, none silently empty (the training sheet 010's B pool, 4 entries lost)."""
    doc = game(seed=11)
    evidence = sheet_evidence(doc, sure=0.999)
    column, values = _longest_column(doc)
    cells = list(evidence.columns[column])
    for index, value in enumerate(values):
        cells[index] = _faint(value, 3, 0.999)
    cells[len(values) - 1] = _faint(values[-1], 3, 0.7)
    decoded = decode_sheet(replace(evidence, columns={**evidence.columns,
                                                       column: tuple(cells)}))
    got = decoded.entries[column][:len(values)]
    assert [d.status for d in got] == ["doubtful"] * len(values)
    assert [d.expected for d in got] == values
    assert all(f"the rules expected {v}" in d.note for d, v in zip(got, values, strict=True))


@pytest.mark.parametrize("lost", ["a trace of ink", "the seat's ink"])
def test_a_blank_entry_the_deal_log_writes_holds_the_rules_total_doubtful(lost: str) -> None:
    """A column's last box where the deal log writes a total, read blank where the image
    may have lost its ink (its boxes keep a trace of ink, or the seat's strip is lost): its
    likeliest value is that total (TRAINING part, seven sets: 77 of 86 such boxes held it,
    none was left out by the writer), so the field holds it, *doubtful*, nothing the next
    candidate, and the sheet's record has it (main: nothing, which blamed the writer for a
    missing total once a person pressed Enter on the first candidate)."""
    doc = game(seed=11)
    evidence = sheet_evidence(doc, sure=0.999)
    column, values = _longest_column(doc)
    cells = list(evidence.columns[column])
    last = len(values) - 1
    cells[last] = replace(_faint(values[last], 3, 0.999), traced=lost == "a trace of ink")
    faint = (column.seat,) if lost == "the seat's ink" else ()
    decoded = decode_sheet(replace(evidence, faint=faint,
                                   columns={**evidence.columns, column: tuple(cells)}))
    shown = decoded.entries[column][last]
    assert (shown.status, shown.value, shown.expected) == ("doubtful", values[last], values[last])
    assert [value for value, _ in shown.candidates] == [values[last], None]
    assert shown.ink == ((None, 1.0),)
    assert "the rules expected" in shown.note
    written = decoded.record()["written"][column.seat]
    assert (written["whists"][column.on] if column.on else written[column.kind]) == values


def test_a_clean_blank_box_of_a_legible_seat_keeps_nothing() -> None:
    """Where the seat's ink reached the image and the blank box keeps no trace of ink, the
    writer left the total out more often than the image lost it (TRAINING part: 12 of 19):
    the doubtful entry keeps nothing as its value; a faint seat's shows the rules' total."""
    asked = EntryDecision("doubtful", None, 0.0, ((None, 1.0),), 8, 3,
                          said("expected_unread", value=8), ((None, 1.0),))
    column = Column("A", "pool")
    clean = {column: (EntryCells((digit_probabilities(None, 0.999),)),)}
    assert rules_value_shown({column: (asked,)}, clean, ())[column] == (asked,)
    assert rules_value_shown({column: (asked,)}, clean, ("A",))[column][0].value == 8


def test_an_entry_with_ink_past_what_the_deal_log_writes_is_doubtful() -> None:
    """Ink that reads as a digit in a box after the column's last expected total, decided
    empty against the rules, comes out doubtful: a person sees the ink."""
    doc = game(seed=11)
    evidence = sheet_evidence(doc, sure=0.999)
    column, values = _longest_column(doc)
    cells = list(evidence.columns[column])
    stray = [1e-3] * 11
    stray[7], stray[10] = 0.55, 0.45 - 9e-3
    cells[len(values)] = EntryCells((digit_probabilities(None, 0.999),
                                     digit_probabilities(None, 0.999), tuple(stray)))
    decoded = decode_sheet(replace(evidence, columns={**evidence.columns,
                                                       column: tuple(cells)}))
    extra = decoded.entries[column][len(values)]
    assert extra.status != "empty"
    assert _entries(decoded, column)[len(values) + 1:] == \
        [("empty", None)] * (len(cells) - len(values) - 1)


def test_deal_rows_whose_ink_was_lost_are_doubtful_where_the_totals_hold_them() -> None:
    """The deal log's last rows read blank (the scorer's pencil lost) while the running
    totals of their deals are written: the rows the totals require come out doubtful, the
    rows after them stay empty (evaluation flatbed-bw pencil: rows 21-27 missing)."""
    doc = game(seed=11)
    evidence = sheet_evidence(doc, sure=0.999)
    deals = len(doc["deals"])
    rows = list(evidence.rows)
    for k in (deals - 2, deals - 1):
        rows[k] = row_evidence(None, k, evidence.seats, 0.999)
    decoded = decode_sheet(replace(evidence, rows=tuple(rows)))
    statuses = [row.status for row in decoded.rows]
    assert statuses[:deals - 2] == ["read"] * (deals - 2)
    assert statuses[deals - 2:deals] == ["doubtful", "doubtful"]
    assert "running totals hold" in decoded.rows[deals - 1].note
    assert decoded.problems == (
        f"deal rows {deals - 1}-{deals} read blank, but the running totals hold their deals: "
        "if they were written, the ink is too faint for this capture; scan the sheet again in "
        "grey or colour, or check them",)
    assert set(statuses[deals + 2:]) == {"empty"}


def test_a_lost_deal_log_beside_a_faint_seat_asks_every_printed_row() -> None:
    """Every deal row reads blank and a seat's calibration strip is lost (its columns lost
    entries too, so they undercount the deals): every printed row is doubtful, none missing
    (training flatbed-threshold pencil: rows 7-27 missing)."""
    doc = game(seed=11)
    evidence = sheet_evidence(doc, sure=0.999)
    blank = tuple(row_evidence(None, k, evidence.seats, 0.999)
                  for k in range(len(evidence.rows)))
    decoded = decode_sheet(replace(evidence, rows=blank, faint=(evidence.seats[0],)))
    assert {row.status for row in decoded.rows} == {"doubtful"}
    assert "running totals hold more deals" in decoded.rows[-1].note


def _lone_cross(deals_after: int) -> tuple[SheetEvidence, int]:
    """A game's evidence (seed 11) with one cross alone (level 7) in the row ``deals_after``
    rows past the first row after the last deal, and how many deals the game holds."""
    doc = game(seed=11)
    evidence = sheet_evidence(doc, sure=0.999)
    deals = len(doc["deals"])
    rows = list(evidence.rows)
    lone = row_evidence(None, deals + deals_after, evidence.seats, 0.999)
    rows[deals + deals_after] = replace(lone, marks={**lone.marks, ("level", "7"): 0.95})
    return replace(evidence, rows=tuple(rows)), deals


def test_a_row_with_ink_that_reads_as_no_deal_is_doubtful() -> None:
    """A row one blank row after the last deal with a cross in one box only (a deal the
    scorer began, or a deal the reader lost): no legal deal reads from it, and it comes out
    doubtful, as does the blank row between it and the last deal."""
    evidence, deals = _lone_cross(deals_after=1)
    decoded = decode_sheet(evidence)
    assert [row.status for row in decoded.rows[deals:deals + 2]] == ["doubtful"] * 2
    assert decoded.rows[deals].note == "nothing read here, but a later row holds ink"
    assert decoded.rows[deals + 1].note == "ink here, but it reads as no deal"
    assert decoded.rows[deals + 2].status == "empty"


@pytest.mark.parametrize("rows", ["inked, no deal", "inked, one deal", "blank"])
def test_a_sheet_whose_inked_rows_read_no_deal_is_told_from_one_whose_rows_are_blank(
        rows: str) -> None:
    """Rows that hold ink while not one reads as a deal, beside columns that read totals:
    the capture kept the scorer's writing but not legibly (the sheet is refused,
    ``scanner.read.refuse_if_no_deal_read``). One deal read, or rows the scorer left blank,
    are not that."""
    evidence, deals = _lone_cross(deals_after=1)
    inked = rows != "blank"
    deals_read: list[dict[str, object] | None] = [None] * len(evidence.rows)
    if rows == "inked, one deal":
        deals_read[0] = {"type": "allpass"}
    blank = row_evidence(None, 0, evidence.seats, 0.999)
    row_inks = evidence.rows if inked else tuple(blank for _ in evidence.rows)
    written = {Column("A", "pool"): (EntryDecision("read", 4, 0.99, ((4, 0.99),)),)}
    assert no_deal_read(row_inks, deals_read, written) == (rows == "inked, no deal")
    assert not no_deal_read(row_inks, deals_read, {Column("A", "pool"): (
        EntryDecision("empty", None, 1.0, ((None, 1.0),)),)})


def test_stray_ink_far_below_the_last_deal_or_total_is_not_asked() -> None:
    """Ink the decoding turns down (read as nothing, or as a 0 no total can be), far below
    the last deal row and the last total of two columns (a printed border's remnant on a
    low-resolution photo: TRAINING part, up to 13 boxes down, read 0 under an 8 of whists):
    the blank rows and boxes before it are not taken for writing the reader lost, nor the
    running totals for holding more deals than the log (before: every blank row and box
    above it doubtful, the sheet's 10 rows after the last deal with them). The row's lone
    cross, six rows past the last deal where the running totals hold no deal more, is stray
    and *empty* (before: doubtful, on far photos a column's rule beside the mark boxes asked
    about up to 7 blank rows a sheet), and so is the column's ink five boxes past its last
    total, where the deal log writes none (before: doubtful; TRAINING part, 29 sets: 77
    such boxes asked, every one blank)."""
    evidence, deals = _lone_cross(deals_after=5)
    columns = dict(evidence.columns)
    no_digit = (0.06,) * 10 + (0.4,)  # likelier ink than blank, no digit likelier than blank
    zero = (0.55,) + (1e-3,) * 9 + (0.441,)  # a remnant of the box's border read as a 0
    blank = digit_probabilities(None, 0.999)
    stray_at = {}
    for column, speck in ((Column("A", "pool"), zero), (Column("A", "mountain"), no_digit)):
        cells = columns[column]
        written = len([d for d in decode_sheet(evidence).entries[column] if d.value is not None])
        stray_at[column] = written + 4
        changed = list(cells)
        changed[written + 4] = EntryCells((blank,) * (len(cells[0].cells) - 1) + (speck,))
        columns[column] = tuple(changed)
    decoded = decode_sheet(replace(evidence, columns=columns))
    assert [row.status for row in decoded.rows[deals:deals + 6]] == ["empty"] * 6
    assert decoded.problems == ()
    for column, at in stray_at.items():
        statuses = [d.status for d in decoded.entries[column]]
        assert statuses[at - 4:at + 1] == ["empty"] * 5


def test_a_lone_cross_far_below_the_deals_is_asked_where_the_totals_hold_a_deal_more() -> None:
    """The same lone cross six rows past the last deal, the last two deals' rows read blank
    (an all-pass and a misere: three columns hold entries the log lacks): the running totals
    hold deals the log lacks, and the cross may be what is left of one: doubtful, as are the
    rows the totals say lost. The totals fit the lost deals there better than the ink's
    "no deal" (a blank keeps :data:`~scanner.decode.numbers.MISSED_DIGIT` for a digit the
    reader missed)."""
    evidence, deals = _lone_cross(deals_after=5)
    rows = list(evidence.rows)
    for lost in (deals - 2, deals - 1):
        rows[lost] = row_evidence(None, lost, evidence.seats, 0.999)
    decoded = decode_sheet(replace(evidence, rows=tuple(rows)))
    assert [row.status for row in decoded.rows[deals - 2:deals]] == ["doubtful"] * 2
    assert decoded.rows[deals + 5].status == "doubtful"
    assert decoded.rows[deals + 5].note == \
        "the running totals fit another reading of this row far better than the ink's"


def test_what_holds_ink() -> None:
    """A cell likelier a digit than blank, a minus, or kept ink that reads a number is ink;
    a verified entry and blank cells are not."""
    blank = digit_probabilities(None, 0.999)
    assert not entry_holds_ink(EntryCells((blank, blank)))
    assert entry_holds_ink(EntryCells((blank, digit_probabilities("4", 0.6))))
    assert entry_holds_ink(EntryCells((blank,), minus=0.9))
    assert entry_holds_ink(EntryInk({None: 0.01, 24: 0.5}))
    assert not entry_holds_ink(EntryInk({None: 0.9, 24: 0.01}))
    assert not entry_holds_ink(EntryPinned(None))
    row = row_evidence(None, 3, ("A", "B", "C"), 0.999)
    assert not row_holds_ink(row)
    assert row_holds_ink(replace(row, marks={**row.marks, ("declarer", "A"): 0.7}))


def test_a_blank_entry_before_a_written_one_is_doubtful() -> None:
    """A column is written box after box: an entry read blank between a 6 and a later
    entry of the same column, which the deal log (misread) does not write, is a total the
    reader missed or one the writer skipped, never silently empty (TRAINING part, a
    black-and-white scan of ballpoint: an 8 between a 6 and a 13 above the pool, left out of
    scan.json). The later entry may be a value, or ink the rules turned down; blank boxes
    after the column's last written entry stay empty."""
    blank = EntryCells(tuple(digit_probabilities(None, 0.999) for _ in range(2)))
    written = EntryCells((digit_probabilities(None, 0.999), digit_probabilities(6, 0.999)))
    empty = EntryDecision("empty", None, 0.999, ((None, 0.999),), None, None)
    six = EntryDecision("read", 6, 0.999, ((6, 0.999),), None, None)
    later = [EntryDecision("read", 10, 0.999, ((10, 0.999),), None, None),
             EntryDecision("doubtful", None, 0.97, ((None, 0.97),), None, None, "",
                           ((13, 0.9), (None, 0.1)))]
    for last in later:
        present = entries_present([written, blank, blank, blank], [six, empty, last, empty],
                                  [])
        assert [d.status for d in present] == ["read", "doubtful", last.status, "empty"]
        assert present[1].note == "nothing read, but a later entry of the column is written: " \
            "a total the reader missed, or one the writer skipped"


def test_the_box_after_a_last_entry_the_rules_overruled_is_asked() -> None:
    """A column ends on an entry whose ink the rules overruled (ink 1, the rules' 10): the deal
    log that made them may be misread, and the next box may hold a total it lacks, its
    pencil lost from the image (TRAINING part, a fresh far set, seed 50: B's pool 6, 16, 20
    read 6, 10 and nothing, the 20 left out of scan.json). That box is asked, the one after
    it stays empty; after a last entry read as its ink says, nothing is asked."""
    blank = EntryCells(tuple(digit_probabilities(None, 0.999) for _ in range(2)))
    written = EntryCells((digit_probabilities(None, 0.999), digit_probabilities(6, 0.999)))
    one = EntryCells((digit_probabilities(None, 0.999), digit_probabilities(1, 0.99)))
    empty = EntryDecision("empty", None, 0.999, ((None, 0.999),), None, None)
    six = EntryDecision("read", 6, 0.999, ((6, 0.999),), None, None)
    overruled = EntryDecision("doubtful", 10, 0.99, ((10, 0.99),), 10, 2,
                              said("ink_overruled", ink=1, value=10), ((1, 0.99), (10, 0.003)))
    present = entries_present([written, one, blank, blank], [six, overruled, empty, empty], [])
    assert [d.status for d in present] == ["read", "doubtful", "doubtful", "empty"]
    assert present[2].note == "nothing read here, but the rules overruled the ink of the " \
        "entry before it: if the deal log is misread, a total whose ink was lost may stand here"
    ten = EntryDecision("read", 10, 0.999, ((10, 0.999),), 10, 2)
    present = entries_present([written, written, blank, blank], [six, ten, empty, empty], [])
    assert [d.status for d in present] == ["read", "read", "empty", "empty"]


@pytest.mark.parametrize("code", ["entry_unsure", "ink_overruled"])
def test_unsure_ink_far_past_a_columns_last_total_is_not_asked(code: str) -> None:
    """A column's last total, a 6 in its first box, and specks in boxes 4 and 5 (on a far
    photo a shadow or a border's remnant) that the column's decoding leaves doubtful as
    nothing: unsure of it, or reading a 1 the rules turned down. The box five past the
    last total holds none (TRAINING part, 52 sets: 67 such boxes asked, every one blank,
    alone on five sheets): *empty*; the box four past it is asked still (a total the deal
    log lacks stood four past it once). A box past a total the deal log writes counts
    from that total."""
    blank = EntryCells(tuple(digit_probabilities(None, 0.999) for _ in range(2)))
    written = EntryCells((digit_probabilities(None, 0.999), digit_probabilities(6, 0.999)))
    speck = EntryCells((digit_probabilities(None, 0.999), (0.06,) * 10 + (0.4,)))
    empty = EntryDecision("empty", None, 0.999, ((None, 0.999),), None, None)
    six = EntryDecision("read", 6, 0.999, ((6, 0.999),), None, None)
    note = said("entry_unsure", value=value_said(None), share="0.9100", other=1) \
        if code == "entry_unsure" else said("ink_overruled", ink=1, value=value_said(None))
    unsure = EntryDecision("doubtful", None, 0.91, ((None, 0.91), (1, 0.05)), None, None,
                           note, ((1, 0.6), (None, 0.3)))
    cells = [written, blank, blank, blank, speck, speck, blank]
    decisions = [six, empty, empty, empty, unsure, unsure, empty]
    present = entries_present(cells, decisions, [])
    assert [d.status for d in present] == ["read"] + ["empty"] * 3 + ["doubtful"] + \
        ["empty"] * 2
    assert present[5].ink == unsure.ink
    moved = [six, empty, replace(six, value=8), empty, unsure, unsure, empty]
    assert [d.status for d in entries_present(cells, moved, [])][4:6] == ["doubtful"] * 2


def test_a_faint_seats_blank_boxes_far_past_the_deal_logs_end_stay_empty() -> None:
    """A seat's ink lost from a black-and-white scan (its calibration strip faint): every
    box of its column reads blank. The deal log writes its totals: those boxes and
    :data:`LOST_INK_GAP` after them are asked about (a correction writes one entry more than
    the deal log), the boxes further down stay empty (before: every blank box of the column
    was asked, 20 to 90 a sheet on the training part's thresholded sheets); so where every
    seat's strip is lost but not the deal rows' ink (a sheet whose rows' ink is lost is
    refused)."""
    doc = game(seed=11)
    evidence = sheet_evidence(doc, sure=0.999)
    column, values = _longest_column(doc)
    blank = tuple(_faint(None, 3, 0.999) for _ in evidence.columns[column])
    faint = replace(evidence, faint=(column.seat,), columns={**evidence.columns, column: blank})
    end = len(values) + LOST_INK_GAP
    statuses = [d.status for d in decode_sheet(faint).entries[column]]
    assert statuses[:end] == ["doubtful"] * end
    assert statuses[end:] == ["empty"] * (len(blank) - end)
    every = decode_sheet(replace(faint, faint=evidence.seats)).entries[column]
    assert [d.status for d in every] == statuses


def test_a_blank_row_between_a_row_in_doubt_and_a_row_of_ink_is_doubtful() -> None:
    """Rows after the last deal: one with ink read as no deal, one the running totals put in
    doubt (its ink lost), a blank one, then one with ink three rows past the last ink. The
    row in doubt carries the writing on, so the blank row after it is asked, not left out of
    ``scan.json`` (TRAINING part, a pencil far photo, seed 78: a lost row between them was
    left out, its deal never asked)."""
    seats = ("A", "B", "C")
    deal = {"dealer": "A", "type": "allpass", "tricks": {"A": 4, "B": 3, "C": 3}}

    def inked(k: int) -> RowEvidence:
        row = row_evidence(None, k, seats, 0.999)
        return replace(row, marks={**row.marks, ("level", "7"): 0.95})

    evidence = [row_evidence(deal, 0, seats, 0.999), inked(1),
                row_evidence(None, 2, seats, 0.999), row_evidence(None, 3, seats, 0.999),
                inked(4), row_evidence(None, 5, seats, 0.999)]
    decisions = [RowDecision(0, "read", deal, 1.0, ()), RowDecision(1, "empty", None, 1.0, ()),
                 RowDecision(2, "doubtful", None, 0.96, ()),
                 *[RowDecision(k, "empty", None, 1.0, ()) for k in (3, 4, 5)]]
    notes = row_notes(evidence, decisions, required=0)
    assert [str(note) for note in notes[3:]] == [
        "nothing read here, but a later row holds ink"] * 2 + [""]


def test_no_blank_row_between_rows_asked_for_their_ink_is_left_out() -> None:
    """The running totals hold three deals more than the log; rows of ink three and four
    rows apart are asked (their ink reads as no deal). The blank rows between them, deals
    whose ink was lost, are asked too, not left out of ``scan.json`` (TRAINING part, a
    pencil far photo, seed 116: seven such rows came out nowhere). Ink ten rows further on
    is asked itself, but the blank run before it, longer than the deals the totals lack,
    is not (far photos, seeds 110, 119, 120: a border's remnant at the sheet's foot made
    17-26 blank rows asked)."""
    seats = ("A", "B", "C")
    deal = {"dealer": "A", "type": "allpass", "tricks": {"A": 4, "B": 3, "C": 3}}

    def inked(k: int) -> RowEvidence:
        row = row_evidence(None, k, seats, 0.999)
        return replace(row, marks={**row.marks, ("level", "7"): 0.95})

    ink_rows = (1, 5, 9, 20)
    evidence = [row_evidence(deal, 0, seats, 0.999)] + [
        inked(k) if k in ink_rows else row_evidence(None, k, seats, 0.999)
        for k in range(1, 22)]
    decisions = [RowDecision(0, "read", deal, 1.0, ()),
                 *[RowDecision(k, "empty", None, 1.0, ()) for k in range(1, 22)]]
    notes = [str(note) for note in row_notes(evidence, decisions, required=3)]
    assert all(notes[k] == "ink here, but it reads as no deal" for k in ink_rows)
    assert all(notes[k] for k in range(1, 10))
    assert notes[10:20] == [""] * 10
    assert notes[21] == ""


def test_before_any_deal_is_read_no_blank_run_between_rows_of_ink_is_left_out() -> None:
    """No row reads as a deal (the scorer's blue ballpoint thresholded away), the running
    totals hold seven deals: rows 0-6 are asked as deals the totals hold, rows 7-8 and
    17-18 for their ink. The eight blank rows between, longer than the deals the totals
    lack, are deals whose ink was lost too, not a run before a stray remnant: no deal was
    read before them (TRAINING part, seed 161: rows 10-17 left out of ``scan.json``)."""
    seats = ("A", "B", "C")

    def inked(k: int) -> RowEvidence:
        row = row_evidence(None, k, seats, 0.999)
        return replace(row, marks={**row.marks, ("level", "7"): 0.95})

    ink_rows = (7, 8, 17, 18)
    evidence = [inked(k) if k in ink_rows else row_evidence(None, k, seats, 0.999)
                for k in range(24)]
    decisions = [RowDecision(k, "empty", None, 1.0, ()) for k in range(24)]
    notes = [str(note) for note in row_notes(evidence, decisions, required=7)]
    assert all(notes[k] == "ink here, but it reads as no deal" for k in ink_rows)
    assert all(notes[k] for k in range(19))
    assert notes[19:] == [""] * 5


def test_a_doubtful_deal_far_past_the_last_deal_does_not_ask_the_blank_rows_before_it() -> None:
    """Eight blank rows after the last deal, then a row whose marks read a deal at only
    0.6 (TRAINING part, a far photo, seed 96: a border's remnant at the sheet's foot read as
    a deal at 0.20, and the thirty blank rows before it were asked, first as rows before a
    deal, then as rows the totals hold). A deal log is written row after row: the far row
    is asked itself, as stray ink is, and the blank rows stay empty. One blank row before
    it is still asked."""
    doc = game(seed=11)
    evidence = sheet_evidence(doc, sure=0.999)
    deals = len(doc["deals"])

    def decoded(gap: int) -> DecodedSheet:
        rows = list(evidence.rows)
        rows[deals + gap] = row_evidence(doc["deals"][0], deals + gap, evidence.seats, 0.6)
        return decode_sheet(replace(evidence, rows=tuple(rows)))

    far = decoded(gap=8).rows
    assert far[deals + 8].status == "doubtful"
    assert [row.status for row in far[deals:deals + 8]] == ["empty"] * 8
    near = decoded(gap=1).rows
    assert [row.status for row in near[deals:deals + 2]] == ["doubtful"] * 2


def test_the_row_after_the_last_deal_is_asked_where_rows_among_the_deals_read_blank() -> None:
    """A row read blank between two deals (``later_row``: the capture lost its ink) says
    this sheet loses whole deal rows; a deal lost after the last row shown writes nothing a
    later row would show, so the row after it is asked, and only that one (TRAINING part,
    a thresholded scan, seed 228: seven rows lost among the deals, the last deal, an
    all-pass, left out of ``scan.json``). Where no row among the deals read blank, the
    blank rows after the last deal stay empty."""
    seats = ("A", "B", "C")
    deal = {"dealer": "A", "type": "allpass", "tricks": {"A": 4, "B": 3, "C": 3}}
    evidence = [row_evidence(deal if k in (0, 2) else None, k, seats, 0.999) for k in range(6)]
    read = RowDecision(0, "read", deal, 1.0, ())
    lost = RowDecision(1, "doubtful", None, 1.0, (), note=said("later_row"))
    blank = [RowDecision(k, "empty", None, 1.0, ()) for k in range(3, 6)]
    notes = [str(note) for note in row_notes(
        evidence, [read, lost, replace(read, row=2), *blank], required=0)]
    assert notes[3:] == [
        "nothing read here, but rows before it among the deals read blank too: check that no "
        "deal was written here", "", ""]
    notes = row_notes(evidence, [read, replace(read, row=1), replace(read, row=2), *blank],
                      required=0)
    assert notes[3:] == ["", "", ""]


def _remnant_rows(past: Sequence[int], lost: int = 0) -> tuple[SheetEvidence, int]:
    """A game's evidence (seed 11) with the rows ``past`` rows after the last deal marked as
    the print's remnant marks a far photo's blank deal page (a declarer, a suit and a pass,
    no level: no legal deal), its last ``lost`` deals' rows read blank; and how many deals
    it holds."""
    doc = game(seed=11)
    evidence = sheet_evidence(doc, sure=0.999)
    deals = len(doc["deals"])
    rows = list(evidence.rows)
    for k in past:
        blank = row_evidence(None, deals + k, evidence.seats, 0.999)
        rows[deals + k] = replace(blank, marks={**blank.marks, ("declarer", "A"): 0.95,
                                                ("suit", "S"): 0.95, ("call", "B:pass"): 0.95})
    for k in range(deals - lost, deals):
        rows[k] = row_evidence(None, k, evidence.seats, 0.999)
    return replace(evidence, rows=tuple(rows)), deals


def test_rows_of_remnant_far_past_the_deals_are_stray_where_the_totals_hold_no_deal_more(
        ) -> None:
    """Issue 13, classes 4 and 8: rows whose marks read as no legal deal, six rows and more
    past the last deal (a far photo's deal page the game never reached, its printed squares
    read as marks: TRAINING seed 271 sheet 001, rows 25-43), where the running totals hold
    no deal the log lacks, are stray ink and *empty*, and the blank rows before them are not
    asked (before: each doubtful, and every blank row from the last deal on with them)."""
    evidence, deals = _remnant_rows((6, 9, 11))
    decoded = decode_sheet(evidence)
    assert [row.status for row in decoded.rows[deals:]] == ["empty"] * (len(decoded.rows)
                                                                        - deals)


def test_rows_of_remnant_are_asked_where_the_totals_hold_deals_the_log_lacks() -> None:
    """The same rows where the last two deals' rows read blank (the running totals hold
    deals the log lacks, whose ink the capture lost): each is doubtful, and so are the blank
    rows before them."""
    evidence, deals = _remnant_rows((6, 9, 11), lost=2)
    decoded = decode_sheet(evidence)
    assert all(decoded.rows[deals + k].status == "doubtful" for k in (6, 9, 11))
    assert [row.status for row in decoded.rows[deals - 2:deals + 12]] == ["doubtful"] * 14


def test_two_columns_each_with_a_writers_correction_ask_no_row_past_the_deals() -> None:
    """Two writers each corrected a total (4.2.7: a wrong value, the right one written next):
    two columns hold one entry more than the deal log writes, which is how a lost deal
    shows. But the decoder ties each correction's two entries to one deal: no deal more is
    written, and no blank row past the deals is asked (TRAINING part, 29 sets: 10 sheets
    with two corrections asked about 44 blank rows; seed 272 sheet 011)."""
    doc = game(seed=11)
    written = doc["written"]
    corrected = []
    for seat in doc["seats"]:
        column = written[seat]["mountain"]
        if len(column) >= 2 and len(corrected) < 2:
            column.insert(1, column[1] + 10)  # a wrong value, then the right one
            corrected.append(seat)
    assert len(corrected) == 2
    decoded = decode_sheet(sheet_evidence(doc, sure=0.9999))
    deals = len(doc["deals"])
    assert [row.status for row in decoded.rows[:deals]] == ["read"] * deals
    assert {row.status for row in decoded.rows[deals:]} == {"empty"}
    for seat in corrected:
        entries = _entries(decoded, Column(seat, "mountain"))
        assert entries[:3] == [("read", v) for v in written[seat]["mountain"][:3]]
