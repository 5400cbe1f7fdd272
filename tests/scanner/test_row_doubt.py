"""An entry the rules read over its ink is no surer than its deal's row
(scanner.decode.row_doubt)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from samplegen.profiles import SheetPlan
from samplegen.split import Part
from scanner.decode.entries import EntryCells, EntryDecision, EntryInk
from scanner.decode.presence import present_column
from scanner.decode.row_decision import RowDecision
from scanner.decode.row_doubt import (
    correction_room_asked,
    doubted_with_rows,
    unsettled_otherwise,
)
from scanner.decode.sheet import SheetEvidence
from scoring.columns import Column
from scoring.rules import RuleSet
from scoring.sheet import ExpectedSheet, SheetEntry
from tests.scanner.training_sheets import read_field, read_sheet

DEAL = {"dealer": "A", "type": "allpass", "tricks": {"A": 4, "B": 3, "C": 3}}
COLUMN = Column("B", "whists", "C")


def _entry(value: int, deal: int, ink: tuple[tuple[int | None, float], ...]) -> EntryDecision:
    return EntryDecision("read", value, 0.9993, ((value, 0.9993),), value, deal, "", ink)


def test_the_rules_value_over_the_ink_is_doubtful_where_its_deal_row_is() -> None:
    """TRAINING part, a black-and-white scan of blue ballpoint: a written 10, its 0 lost
    (the ink says 1), read as the 12 that a doubtful deal row made the rules expect, sure at
    0.9993. Doubtful now, naming the row. The same entry from a row read stays read, and so
    does an entry whose ink alone reads the rules' value."""
    rows = (RowDecision(0, "read", DEAL, 1.0, ()), RowDecision(1, "empty", None, 1.0, ()),
            RowDecision(2, "doubtful", DEAL, 0.6, ()))
    overruled = ((1, 0.972), (None, 0.024), (12, 0.003))
    entries = {COLUMN: (_entry(12, 2, overruled), _entry(12, 1, overruled),
                        _entry(14, 2, ((14, 0.99), (4, 0.01))))}
    judged = doubted_with_rows(entries, rows)[COLUMN]
    assert [e.status for e in judged] == ["doubtful", "read", "read"]
    assert "the ink says 1; the rules make it 12 from deal row 3, itself doubtful" in \
        judged[0].note


def test_a_row_doubtful_only_in_digits_no_total_checks_vouches_as_a_read_row() -> None:
    """The defenders' split under one whister writes the same totals whichever way it reads
    (RULES.md §3): a row doubtful only in it (``totals_sure``) makes its entries' values as
    sure as a read row does, so an entry the rules read over its ink stays read."""
    rows = (RowDecision(0, "doubtful", DEAL, 0.997, (), totals_sure=True),
            RowDecision(1, "doubtful", DEAL, 0.997, ()))
    overruled = ((1, 0.972), (None, 0.024), (12, 0.003))
    entries = {COLUMN: (_entry(12, 1, overruled), _entry(12, 2, overruled))}
    assert [e.status for e in doubted_with_rows(entries, rows)[COLUMN]] == ["read", "doubtful"]


def test_an_entry_whose_ink_cannot_tell_the_doubtful_rows_other_total_is_doubtful() -> None:
    """A row doubtful in its talon (a prize of 1 quick trick, or none): the dealer's whists
    entry it writes reads 22 at 0.65 of its ink, 20 (the total without the prize, the one
    written) at 0.27, and was read 22 on the row's word (TRAINING part, a thresholded scan,
    seed 64). The row's other reading makes it 20 (``resting``), which the ink does not rule
    out: doubtful, naming the row. An entry whose ink rules the other total out, and one no
    doubtful row bears on, stay read."""
    rows = (RowDecision(0, "read", DEAL, 1.0, ()), RowDecision(1, "doubtful", DEAL, 0.97, ()))
    unsure = ((22, 0.65), (20, 0.27), (24, 0.02))
    clear = ((32, 0.99), (30, 0.002))
    entries = {COLUMN: (_entry(22, 2, unsure), _entry(32, 2, clear), _entry(22, 1, unsure))}
    resting = {COLUMN: {2: ((1, 20),)}}
    judged = doubted_with_rows(entries, rows, resting=resting)[COLUMN]
    assert [e.status for e in judged] == ["doubtful", "read", "read"]
    assert judged[0].note == "the ink is unsure of 22, and deal row 2 that makes it so is " \
        "itself doubtful"
    assert [e.status for e in doubted_with_rows(entries, rows)[COLUMN]] == ["read"] * 3


def test_an_entry_the_rules_chose_over_unsure_ink_rests_on_the_doubtful_row() -> None:
    """A row doubtful in its talon (3 quick tricks written, read 2 at 0.9865) makes the
    dealer's whists 40 for the 48 written; the entry's ink reads 46 at 0.46, 44 at 0.28 and
    40 at only 0.06, and no 8 at all (TRAINING part, a thresholded scan, seed 500 sheet 022):
    the rules chose 40 among the ink's unsure values on the row's word, and it was read at
    0.997, though the row's other reading makes it 48. Doubtful now: the ink gives the value
    read less than half its likelihood. An entry whose ink reads its value likeliest still
    stands on its ink."""
    rows = (RowDecision(0, "read", DEAL, 1.0, ()), RowDecision(1, "doubtful", DEAL, 0.9865, ()))
    unsure = ((46, 0.464), (44, 0.285), (40, 0.062), (42, 0.049), (110, 0.000002))
    clear = ((40, 0.97), (46, 0.02), (44, 0.001))
    entries = {COLUMN: (_entry(40, 2, unsure), _entry(40, 2, clear))}
    resting = {COLUMN: {2: ((1, 48),)}}
    judged = doubted_with_rows(entries, rows, resting=resting)[COLUMN]
    assert [e.status for e in judged] == ["doubtful", "read"]
    assert judged[0].note == "the ink is unsure of 40, and deal row 2 that makes it so is " \
        "itself doubtful"


def test_an_entry_the_doubtful_rows_other_reading_writes_as_read_does_not_rest_on_it() -> None:
    """TRAINING part, a steep photo of felt-tip, seed 445 sheet 017: a writer's slip in a
    whists column (16 for 12) carried on, 18, 20, 24, 34, 41, 45, each read at 0.994 to 0.997 of
    its ink. An earlier doubtful row's other reading leaves that deal's 2 whists out, and
    makes those totals 18, 20, 24, ... too: whichever way the row reads, each entry holds
    the value read, so it does not rest on the row. They were asked all the same, as if the
    ink could not tell the value read from the other total (it is the same number). Read
    now; an entry whose other total differs still needs its odds against it."""
    rows = (RowDecision(0, "read", DEAL, 1.0, ()), RowDecision(1, "doubtful", DEAL, 0.99, ()))
    carried = ((18, 0.9937), (78, 0.0018), (8, 0.0014))
    entries = {COLUMN: (_entry(18, 2, carried), _entry(20, 2, ((20, 0.6), (18, 0.4))))}
    resting = {COLUMN: {2: ((1, 18),)}}
    judged = doubted_with_rows(entries, rows, resting=resting)[COLUMN]
    assert [e.status for e in judged] == ["read", "doubtful"]


@pytest.mark.parametrize("backed", [True, False])
def test_an_entry_resting_on_a_row_its_column_reads_otherwise_needs_clear_ink(backed: bool
                                                                             ) -> None:
    """A far photo of pencil (TRAINING part, seed 165): a doubtful row left 10 out of a
    whists column. The entry before read 57 on the log's word, its ink 67, the total the
    row's other reading makes; then 87 was written, its ink 77 at 0.77 (87 not among its
    readings), read 77 at 0.9999 on the row's word. The column's own ink backs the row's
    other reading, so an entry resting on it needs ink as clear as RESTING_INK_SHARE:
    doubtful; ink at 0.997 stays read. Where no entry's ink backs the other reading, the
    unsure entry stands on its odds against the other total (20 times) and is read."""
    rows = (RowDecision(0, "read", DEAL, 1.0, ()), RowDecision(1, "doubtful", DEAL, 0.97, ()))
    misread = ((77, 0.77), (97, 0.076), (7, 0.067), (47, 0.056), (79, 0.007), (37, 0.0066),
               (17, 0.0059), (42967, 0.003))
    before = ((67 if backed else 57, 0.93), (57 if backed else 67, 0.015))
    entries = {COLUMN: (_entry(57, 1, before), _entry(77, 2, misread),
                        _entry(77, 2, ((77, 0.995), (97, 0.002))))}
    resting = {COLUMN: {1: ((1, 67),), 2: ((1, 87),)}}
    judged = doubted_with_rows(entries, rows, resting=resting)[COLUMN]
    assert [e.status for e in judged[1:]] == (["doubtful", "read"] if backed else ["read"] * 2)
    if backed:
        assert judged[1].note == "the ink is unsure of 77, and deal row 2 that makes it so " \
            "is itself doubtful"


def test_a_total_another_reading_of_a_doubtful_row_adds_is_asked_past_the_columns_end() -> None:
    """TRAINING part, a far photo of pencil, seed 96: a row read 0.77 with a whister's 0
    tricks for the 1 written; the reading with 1 trick writes one more total in his column
    (deal 2, between the picked log's two). The box past the column's end where it would
    stand was blank (the seat's ink lost: its first total read blank) and left out of
    ``scan.json`` as empty: now it is asked, naming the row. Where the other reading only
    changes the picked totals, or the column's ink shows, the blanks past the end stay
    empty."""
    rows = (RowDecision(0, "read", DEAL, 1.0, ()), RowDecision(5, "doubtful", DEAL, 0.77, ()))
    blank = EntryDecision("empty", None, 1.0, ((None, 1.0),), ink=((None, 1.0),))
    lost = EntryDecision("doubtful", None, 0.0, ((None, 1.0),), 8, 1, "", ((None, 1.0),))
    entries = {COLUMN: (lost, _entry(16, 3, ((16, 0.99),)), blank, blank, blank)}
    resting = {COLUMN: {2: ((5, 10),), 3: ((5, 18),)}}
    judged = doubted_with_rows(entries, rows, resting=resting)
    assert [e.status for e in judged[COLUMN][2:]] == ["doubtful", "empty", "empty"]
    assert judged[COLUMN][2].note == "nothing read here, but another reading of deal row 6, " \
        "itself doubtful, writes one more total in this column"
    changed_only = doubted_with_rows(entries, rows, resting={COLUMN: {3: ((5, 18),)}})
    assert [e.status for e in changed_only[COLUMN][2:]] == ["empty"] * 3
    shown = {COLUMN: (_entry(8, 1, ((8, 0.99),)), *entries[COLUMN][1:])}
    assert [e.status for e in doubted_with_rows(shown, rows, resting=resting)[COLUMN][2:]] \
        == ["empty"] * 3


def test_a_box_past_the_end_holding_a_trace_of_ink_is_asked_where_a_doubtful_row_writes_there(
        ) -> None:
    """A fresh TRAINING set, a pencil far photo at 85 dpi (seed 219): every deal row doubtful
    without a deal, so the log wrote nothing in a pool whose only entry, 4, read as a trace
    (its units cell 0.74 blank, a 5 likeliest) and was decided empty on the log's word:
    left out of ``scan.json``. The row's other reading writes a total there: asked. A box
    blank beyond doubt is evidence enough and stays empty."""
    rows = (RowDecision(0, "doubtful", None, 1.0, ()),)
    blank = EntryDecision("empty", None, 1.0, ((None, 1.0),), ink=((None, 1.0),))
    column = Column("B", "pool", None)
    resting = {column: {1: ((0, 2),)}}
    trace = EntryCells(((0.0,) * 10 + (1.0,), (0.0,) * 5 + (0.26,) + (0.0,) * 4 + (0.74,)))
    empty_cells = EntryCells(((0.0,) * 10 + (1.0,),) * 2)
    entries = {column: (blank, blank)}
    judged = doubted_with_rows(entries, rows, resting, {column: (trace, empty_cells)})
    assert [e.status for e in judged[column]] == ["doubtful", "empty"]
    assert judged[column][0].note == "nothing read here, but another reading of deal row 1, " \
        "itself doubtful, writes one more total in this column"
    clean = doubted_with_rows(entries, rows, resting, {column: (empty_cells, empty_cells)})
    assert [e.status for e in clean[column]] == ["empty", "empty"]


def _whists(totals: list[tuple[int, int]]) -> ExpectedSheet:
    """A sheet holding one column, A's whists on C, with these (deal, total) entries."""
    column = Column("A", "whists", "C")
    entries, previous = [], 0
    for deal, total in totals:
        entries.append(SheetEntry(column, deal, Fraction(total - previous), Fraction(total)))
        previous = total
    return ExpectedSheet(("A", "B", "C", "D"), tuple(entries), {}, False)


@pytest.mark.parametrize("placed", [True, False])
def test_a_box_past_the_end_is_asked_where_a_total_of_the_log_stands_in_no_box(placed: bool
                                                                            ) -> None:
    """A fresh TRAINING set, a pencil far photo (seed 313): a pool's 14 read as an unsure
    blank, so the log's next total (deal 17's 20) went in no box; the 20 written after it,
    its pencil lost past the column's end in boxes blank beyond doubt, was left out of
    ``scan.json`` although a doubtful row's other reading writes one more total there.
    A column holding every total the log writes takes its blank boxes as evidence, as
    before."""
    column = Column("A", "whists", "C")
    rows = (RowDecision(0, "read", DEAL, 1.0, ()), RowDecision(13, "doubtful", DEAL, 0.47, ()))
    blank = EntryDecision("empty", None, 1.0, ((None, 1.0),), ink=((None, 1.0),))
    unsure = EntryDecision("doubtful", None, 0.46, ((None, 0.46), (4, 0.19)), None, None, "",
                           ((4, 0.37), (9, 0.17)))
    entries = {column: (_entry(4, 4, ((4, 0.99),)), _entry(8, 9, ((8, 0.99),)),
                        _entry(10, 11, ((10, 0.99),)), unsure, blank, blank)}
    picked = _whists([(4, 4), (9, 8), (11, 10)] + ([] if placed else [(17, 20)]))
    resting = {column: {14: ((13, 14),)}}
    empty_cells = EntryCells(((0.0,) * 10 + (1.0,),) * 2)
    judged = doubted_with_rows(entries, rows, resting, {column: (empty_cells,) * 6}, picked)
    statuses = [e.status for e in judged[column][4:]]
    if placed:
        assert statuses == ["empty", "empty"]
    else:
        assert statuses == ["doubtful", "empty"]
        assert judged[column][4].note == "nothing read here, but another reading of deal " \
            "row 14, itself doubtful, writes one more total in this column"


@pytest.mark.parametrize("pool", ["asked", "read over blank ink", "read"])
def test_a_box_past_the_end_is_asked_where_the_seats_ink_is_lost_in_another_column(
        pool: str) -> None:
    """A fresh TRAINING set, a far pencil photo (seed 342 sheet 008): a whist read as a pass,
    the row doubtful; the passer's whists total the whist writes, its pencil lost, stood
    past the end of a column the picked log leaves empty, in boxes blank beyond doubt, and
    was left out of ``scan.json``. The seat's pool has a total the log writes read blank,
    asked, or read as the rules' value over ink that reads it blank (the totals after it
    confirm it): its ink is lost in places, and the box is asked. With the pool's ink
    read, it stays empty."""
    column, pool_column = Column("A", "whists", "C"), Column("A", "pool", None)
    rows = (RowDecision(0, "read", DEAL, 1.0, ()), RowDecision(3, "doubtful", DEAL, 0.99, ()))
    blank = EntryDecision("empty", None, 1.0, ((None, 1.0),), ink=((None, 1.0),))
    pool_entry = {
        "asked": EntryDecision("doubtful", None, 0.0, ((None, 1.0),), 8, 1, "", ((None, 1.0),)),
        "read over blank ink": _entry(8, 1, ((None, 1.0), (8, 0.01))),
        "read": _entry(8, 1, ((8, 0.99),))}[pool]
    entries = {column: (blank, blank), pool_column: (pool_entry, blank)}
    resting = {column: {4: ((3, 12),)}}
    empty_cells = EntryCells(((0.0,) * 10 + (1.0,),) * 2)
    judged = doubted_with_rows(entries, rows, resting, {column: (empty_cells,) * 2})
    assert [e.status for e in judged[column]] == (
        ["empty", "empty"] if pool == "read" else ["doubtful", "empty"])


@pytest.mark.parametrize("last", ["shown over other ink", "read by its ink", "lost alone"])
def test_the_box_after_totals_the_log_placed_over_lost_ink_is_asked(last: str) -> None:
    """A fresh TRAINING set, a distant pencil photo (seed 407 sheet 002): a whists column's
    first boxes read blank, its last totals shown where the deal log put them over ink
    that reads them otherwise; the writer had corrected a total (4.2.7), so the column held
    one total more, and its last box, its pencil lost, was left out of ``scan.json``. The
    box after the column's end is asked. Where the last total's ink reads it, or only it
    stood on the rules while the rest of the column read, the blank box is evidence."""
    column = Column("A", "whists", "C")
    blank = EntryDecision("empty", None, 1.0, ((None, 1.0),), ink=((None, 1.0),))
    lost = EntryDecision("doubtful", None, 0.0, ((None, 1.0),), 12, 1, "", ((None, 0.99),))
    shown = EntryDecision("doubtful", 111, 0.9, ((111, 0.9),), 111, 3, "",
                          ((111, 0.9),) if last == "read by its ink" else ((1, 0.47),))
    first = _entry(12, 1, ((12, 0.99),)) if last == "lost alone" else lost
    entries = {column: (first, _entry(37, 2, ((37, 0.99),)), shown, blank, blank)}
    judged = correction_room_asked(entries, _whists([(1, 12), (2, 37), (3, 111)]))
    statuses = [e.status for e in judged[column][3:]]
    if last == "shown over other ink":
        assert statuses == ["doubtful", "empty"]
        assert "a correction may have written one total more" in str(judged[column][3].note)
    else:
        assert statuses == ["empty", "empty"]


def test_an_entry_the_other_reading_of_a_doubtful_row_leaves_unsettled_is_doubtful() -> None:
    """A writer left deal 2's amount out and wrote 12, 14, 20. A row misread (doubtful)
    dropped the column's deal-9 entry: the picked log makes it 2, 14, 20, and the 12, its
    ink 2 at 0.976 and 12 at 0.05, decodes as 2 at 1.0. With the row's other reading the log
    makes it 2, 14, 16, 22, and the same ink leaves the first entry unsure: it is doubtful,
    naming the row (TRAINING part, a far photo, seed 132: read 2, silently). The entries
    read the same either way stay read."""
    column = Column("A", "whists", "C")
    inks = (EntryInk({2: 0.976, 12: 0.05}), EntryInk({14: 0.99}), EntryInk({20: 0.99}))
    evidence = SheetEvidence(RuleSet.preset("rostov", 4, 10), ("A", "B", "C", "D"), (),
                             {column: inks})
    picked = _whists([(2, 2), (6, 14), (14, 20)])
    other = _whists([(2, 2), (6, 14), (9, 16), (14, 22)])
    read = {column: tuple(present_column(inks, picked.column(column)))}
    assert [(d.status, d.value) for d in read[column][:3]] == [("read", 2), ("read", 14),
                                                                ("read", 20)]
    checked = unsettled_otherwise(read, evidence, picked, [(8, other)])[column]
    assert (checked[0].status, checked[0].value) == ("doubtful", 2)
    assert checked[0].note == "read 2, but with the other reading of deal row 9, itself " \
        "doubtful, the rules do not settle it"
    assert [(d.status, d.value) for d in checked[1:3]] == [("read", 14), ("read", 20)]


@pytest.mark.slow
def test_a_total_two_doubtful_rows_make_otherwise_rests_on_both(tmp_path: Path) -> None:
    """Issue 13, classes 3 and 9: TRAINING part, seed 456 sheet 022 (``reader_eval --part
    training --capture phone-distant --marks plus-upright``). Row 16, a misere doubtful in
    its tricks (C 2 at 0.68, the written C 1 at 0.32), makes C's mountain 68 at deal 17
    for the 48 written; an earlier doubtful row's other reading made that total 78, and
    only that other total was weighed: the 68, its ink 48 at 0.64 and 68 at 0.16, was read
    at 0.9991. It is asked now."""
    entry = read_field(tmp_path, SheetPlan("open", Part.TRAINING, "font", "phone-distant",
                                           "plus-upright", "black"), 456, 22,
                       "entry:C:mountain:4")
    assert entry.status == "doubtful" or entry.value == 48, entry


@pytest.mark.slow
def test_a_total_the_rules_chose_over_unsure_ink_on_a_doubtful_row_is_asked(tmp_path: Path
                                                                           ) -> None:
    """Issue 13, classes 3 and 9: TRAINING part, seed 500 sheet 022 (``reader_eval --part
    training --seed 500``), a thresholded scan. Row 13's talon, 3 quick tricks written, read
    2 at 0.9865, made A's whists on C 40 for the 48 written, its ink 46, 44 or 40 (0.06),
    read at 0.997: the one wrong field not asked in that set. Asked now."""
    plan = SheetPlan("open", Part.TRAINING, "font", "flatbed-threshold", "tick-short", "black")
    entry = read_field(tmp_path, plan, 500, 22, "entry:A:whists:C:1")
    assert entry.status == "doubtful" or entry.value == 48, entry


@pytest.mark.slow
def test_a_slip_carried_on_as_a_doubtful_rows_other_reading_writes_is_read(tmp_path: Path
                                                                         ) -> None:
    """Issue 13, class 9: TRAINING part, seed 445 sheet 017 (``reader_eval --part training
    --seed 445``), a steep photo of felt-tip. D wrote 16 for 12 in his whists on B and carried
    on: 18, 20, 24, 34, 41, 45, each read at 0.994 or more of its ink. Row 4, doubtful in its
    talon, has another reading that leaves the 2 whists of deal 4 out, and so makes those
    totals 18, 20, 24, ... too: the six were asked as resting on that row. Read now."""
    plan = SheetPlan("open", Part.TRAINING, "strokes", "phone-steep", "loop-circle", "felt-tip")
    fields = {f.key: f for f in read_sheet(tmp_path, plan, 445, 17).fields}
    for index, value in zip(range(2, 8), (18, 20, 24, 34, 41, 45), strict=True):
        entry = fields[f"entry:D:whists:B:{index}"]
        assert (entry.status, entry.value) == ("read", value), entry
