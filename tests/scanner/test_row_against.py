"""A deal row read surely is no surer than the boxes of the totals it writes
(scanner.decode.row_against)."""

from __future__ import annotations

from pathlib import Path

import pytest

from samplegen.profiles import SheetPlan
from samplegen.split import Part
from scanner.decode.entries import EntryDecision
from scanner.decode.row_against import rows_against_entries
from scanner.decode.row_decision import RowDecision
from scanner.words import said
from scoring.columns import Column
from tests.scanner.training_sheets import read_field

WHISTED = {"dealer": "B", "type": "contract", "declarer": "C", "contract": "6S",
           "defence": {"A": "whist", "B": "whist"}, "tricks": {"C": 6, "A": 2, "B": 2}}


def _asked(expected: int, deal: int, ink: tuple[tuple[int | None, float], ...]
           ) -> EntryDecision:
    """An entry asked against the rules' ``expected`` value, its ink reading ``ink``."""
    value = ink[0][0]
    return EntryDecision("doubtful", value, 0.5, ((value, 0.5),), expected, deal, "", ink)


def _rows() -> tuple[RowDecision, ...]:
    return (RowDecision(0, "read", WHISTED, 1.0, ()), RowDecision(1, "empty", None, 1.0, ()),
            RowDecision(2, "read", WHISTED, 1.0, ()), RowDecision(3, "read", WHISTED, 1.0, ()))


def test_a_row_whose_totals_read_otherwise_in_two_boxes_is_doubtful() -> None:
    """A far photo of pencil (TRAINING part, seed 245, sheet 007): a row's tricks read 2
    and 2 at 1.0000 for the 4 and 0 written. The first whister's 16 read 6 (8 at 0.32) and
    the other whister's box blank, both asked against the rules' 8; the row stood read, so
    the audit would have asked the players of entries they wrote right. Now the row is
    doubtful, naming how many of its totals read otherwise."""
    entries = {Column("A", "whists", "C"): (_asked(8, 1, ((6, 0.66), (8, 0.32))),),
               Column("B", "whists", "C"): (_asked(8, 1, ((None, 1.0),)),)}
    rows, _ = rows_against_entries(_rows(), entries)
    assert [row.status for row in rows] == ["doubtful", "empty", "read", "read"]
    assert rows[0].note == "2 of the running totals this row writes read otherwise, one of " \
        "them another number: check this row and those totals"
    assert rows[0].deal == WHISTED


def test_one_box_against_or_blank_boxes_only_leave_the_row_read() -> None:
    """One entry against a row is the commoner writer's slip or lost stroke; blank boxes
    alone are a seat whose ink the image lost (its whists blank against every row it
    whisted on), and an entry whose ink reads the rules' value is not against it."""
    entries = {Column("A", "whists", "C"): (_asked(8, 2, ((6, 0.9), (8, 0.1))),
                                            _asked(8, 3, ((None, 1.0),))),
               Column("B", "whists", "C"): (_asked(8, 3, ((None, 0.9), (8, 0.1))),
                                            _asked(8, 2, ((8, 0.6), (6, 0.4))))}
    assert [row.status for row in rows_against_entries(_rows(), entries)[0]] == \
        ["read", "empty", "read", "read"]


def test_a_value_the_ink_hardly_prefers_is_not_a_number_written_against() -> None:
    """The number written against the row must hold WRITTEN_AGAINST_SHARE of its ink's
    likelihood: ink that barely prefers another value beside a blank box leaves the row
    read."""
    entries = {Column("A", "whists", "C"): (_asked(8, 1, ((6, 0.4), (8, 0.35), (5, 0.25))),),
               Column("B", "whists", "C"): (_asked(8, 1, ((None, 1.0),)),)}
    assert rows_against_entries(_rows(), entries)[0][0].status == "read"


def _slip(value: int, expected: int, deal: int, share: float) -> EntryDecision:
    """An entry read as the writer's slip on its ink alone (``ink_clearly``)."""
    return EntryDecision("read", value, share, ((value, share),), expected, deal,
                         said("ink_clearly", ink=value, expected=expected),
                         ((value, share), (expected, 1 - share)))


def test_a_slip_read_on_its_ink_counts_against_its_row_and_is_asked_with_it() -> None:
    """TRAINING part, seed 419 sheet 018: a contract's 6 read 7 at 0.994. The declarer's
    mountain, 5 written where the 7 makes 3, was read as his slip on its ink, and the one
    other total against the row was not enough to doubt it: the row stood read, wrong. A
    slip read is a box against its row as much as an asked one: the row is doubtful, and
    the slip is asked with it. A slip alone leaves both read."""
    mountain, whists = Column("A", "mountain"), Column("B", "whists", "A")
    entries = {mountain: (_slip(5, 3, 1, 0.994),),
               whists: (_asked(8, 1, ((None, 0.9), (8, 0.1))),)}
    rows, decided = rows_against_entries(_rows(), entries)
    assert [row.status for row in rows] == ["doubtful", "empty", "read", "read"]
    assert (decided[mountain][0].status, decided[mountain][0].value) == ("doubtful", 5)
    assert decided[mountain][0].note == "the ink says 5; the rules expected 3"
    assert decided[whists] == entries[whists]
    alone = {mountain: (_slip(5, 3, 1, 0.994),)}
    rows, decided = rows_against_entries(_rows(), alone)
    assert rows[0].status == "read" and decided == alone


def test_a_slip_read_on_ink_no_misread_reaches_is_not_against_its_row() -> None:
    """A slip whose ink holds INK_SLIP_UNCONTESTED of its likelihood (0.998) is the
    writer's beyond the reader's own misreads: with one other total against the row, both
    stay as they were (the slip read, the row read)."""
    mountain, whists = Column("A", "mountain"), Column("B", "whists", "A")
    entries = {mountain: (_slip(5, 3, 1, 0.998),),
               whists: (_asked(8, 1, ((None, 0.9), (8, 0.1))),)}
    rows, decided = rows_against_entries(_rows(), entries)
    assert rows[0].status == "read" and decided == entries


@pytest.mark.slow
def test_a_distant_photos_misread_contract_is_asked_beside_a_slip_read(tmp_path: Path) -> None:
    """Issue 13, class 9: TRAINING part, seed 419 sheet 018 (``reader_eval --part training
    --capture phone-distant --marks scribble-zigzag``), pencil: a 6H's 6 read 7 at 0.994;
    the declarer's mountain, 5 written where the 7 makes 3 (the pool closed, its point over
    coming off the mountain), read as his slip at 0.99-0.997 of its ink, left one total
    against the row, which was read, silently. The row is asked."""
    row = read_field(tmp_path, SheetPlan("open", Part.TRAINING, "font", "phone-distant",
                                         "scribble-zigzag", "pencil"), 419, 18, "row:12")
    assert row.status == "doubtful" or row.value["contract"] == "6H", row
