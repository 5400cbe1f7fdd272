"""The running totals vouch for no illegible row where a row among the deals is lost
(scanner.decode.lost_rows; issue 13: a misread never passes silently)."""

from __future__ import annotations

from pathlib import Path

import pytest

from samplegen.profiles import SheetPlan
from samplegen.split import Part
from scanner.decode.deals import RowCandidate
from scanner.decode.lost_rows import illegible_unvouched, lost_among_deals
from scanner.decode.row_decision import RowDecision
from tests.scanner.training_sheets import read_field

WHISTED = {"dealer": "C", "type": "contract", "declarer": "A", "contract": "7S",
           "defence": {"B": "whist", "D": "whist"}, "tricks": {"A": 9, "B": 0, "D": 1}}
ILLEGIBLE = [RowCandidate(WHISTED, -30.0, 0.5, ink_gap=29.0)]
LEGIBLE = [RowCandidate(WHISTED, -1.0, 0.99, ink_gap=0.0)]


def _row(k: int, status: str, deal: dict[str, object] | None) -> RowDecision:
    return RowDecision(k, status, deal, 1.0, ())


def test_a_row_doubtful_without_a_deal_before_the_last_deal_is_lost() -> None:
    """Rows are written one after another: a row with no deal before a later deal is a
    deal the log lacks; one after the last deal, or read empty, is not."""
    rows = [_row(0, "read", WHISTED), _row(1, "doubtful", None), _row(2, "empty", None),
            _row(3, "read", WHISTED), _row(4, "doubtful", None)]
    assert lost_among_deals(rows) == [1]
    assert lost_among_deals(rows[:1] + rows[2:]) == []


def test_an_illegible_row_read_by_its_totals_is_asked_only_where_a_row_is_lost() -> None:
    """A row whose ink reads as no legal deal, read for its totals, is asked where a row
    among the deals is lost, before or after it; a row the ink reads legally is not."""
    candidates = [ILLEGIBLE, [], LEGIBLE, ILLEGIBLE]
    picks = (0, 0, 0, 0)
    lost = [_row(0, "read", WHISTED), _row(1, "doubtful", None), _row(2, "read", WHISTED),
            _row(3, "read", WHISTED)]
    asked = illegible_unvouched(lost, candidates, picks)
    assert [row.status for row in asked] == ["doubtful", "doubtful", "read", "doubtful"]
    assert asked[0].note.code == "not_legal" and asked[0].deal == WHISTED
    whole = [_row(0, "read", WHISTED), _row(1, "read", WHISTED), _row(2, "read", WHISTED),
             _row(3, "read", WHISTED)]
    assert illegible_unvouched(whole, [ILLEGIBLE, LEGIBLE, LEGIBLE, ILLEGIBLE], picks) == \
        tuple(whole)


@pytest.mark.slow
def test_an_illegible_row_fitting_a_log_that_lost_a_deal_is_asked(tmp_path: Path) -> None:
    """Issue 13, classes 3 and 4: TRAINING part, seed 430 sheet 010 (``reader_eval --part
    training --capture flatbed-threshold``), blue ballpoint scanned in black and white. The
    all-pass of row 10, B 2 tricks, read blank, so B's mountain 4, 8, 12, 36 fit a log
    with one deal more before it: row 6, a 7S whisted by B and D whose trick digits read as
    no legal split, was read with B 0 (a whister's penalty in B's mountain) at 1.0000 for
    the 2 written, silently. It is asked now."""
    row = read_field(tmp_path, SheetPlan("open", Part.TRAINING, "font", "flatbed-threshold",
                                         "loop-circle", "blue-ballpoint"), 430, 10, "row:6")
    assert row.status == "doubtful"
    assert "does not read as a legal deal" in str(row.note)
