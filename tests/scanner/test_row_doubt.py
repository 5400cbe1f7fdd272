"""An entry the rules read over its ink is no surer than its deal's row
(scanner.decode.row_doubt)."""

from __future__ import annotations

from scanner.decode.columns import EntryDecision
from scanner.decode.row_doubt import doubted_with_rows
from scanner.decode.sheet import RowDecision
from scoring.columns import Column

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


def test_an_unsure_ink_is_not_made_sure_by_a_doubtful_row() -> None:
    """TRAINING part, pencil thresholded: a 4 whose stem lay on the box's border read 14 at
    0.86 of its ink, and the doubtful deal row made the rules expect 14: read sure at 0.9999,
    a silent error. The deal rows' ink lost from the image, the row cannot vouch for the ink
    it may have been read to fit: doubtful; so is an ink unsure between two values (18 or 16)
    the rules choose between. From a row read, or where the rows' ink is not lost, both stay
    read."""
    rows = (RowDecision(0, "read", DEAL, 1.0, ()), RowDecision(1, "doubtful", DEAL, 0.6, ()))
    stem_on_border = ((14, 0.74), (1, 0.067), (44, 0.05))
    between = ((18, 0.5), (16, 0.3))
    entries = {COLUMN: (_entry(14, 2, stem_on_border), _entry(16, 2, between),
                        _entry(14, 1, stem_on_border), _entry(16, 1, between))}
    judged = doubted_with_rows(entries, rows, rows_lost=True)[COLUMN]
    assert [e.status for e in judged] == ["doubtful", "doubtful", "read", "read"]
    assert [e.status for e in doubted_with_rows(entries, rows)[COLUMN]] == ["read"] * 4
    assert judged[0].note == "the ink is unsure of 14, and deal row 2 that makes it so is " \
        "itself doubtful"


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
    resting = {COLUMN: {2: (1, 20)}}
    judged = doubted_with_rows(entries, rows, resting=resting)[COLUMN]
    assert [e.status for e in judged] == ["doubtful", "read", "read"]
    assert judged[0].note == "the ink is unsure of 22, and deal row 2 that makes it so is " \
        "itself doubtful"
    assert [e.status for e in doubted_with_rows(entries, rows)[COLUMN]] == ["read"] * 3


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
    resting = {COLUMN: {2: (5, 10), 3: (5, 18)}}
    judged = doubted_with_rows(entries, rows, resting=resting)
    assert [e.status for e in judged[COLUMN][2:]] == ["doubtful", "empty", "empty"]
    assert judged[COLUMN][2].note == "nothing read here, but another reading of deal row 6, " \
        "itself doubtful, writes one more total in this column"
    changed_only = doubted_with_rows(entries, rows, resting={COLUMN: {3: (5, 18)}})
    assert [e.status for e in changed_only[COLUMN][2:]] == ["empty"] * 3
    shown = {COLUMN: (_entry(8, 1, ((8, 0.99),)), *entries[COLUMN][1:])}
    assert [e.status for e in doubted_with_rows(shown, rows, resting=resting)[COLUMN][2:]] \
        == ["empty"] * 3
