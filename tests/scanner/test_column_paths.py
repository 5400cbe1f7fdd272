"""The writer's model of one column (scanner.decode.column_paths)."""

from __future__ import annotations

from fractions import Fraction

from scanner.decode.column_paths import (
    PRIOR_RIGHT_STEP,
    PRIOR_RIGHT_TOTAL,
    PRIOR_SKIPPED,
    Expectation,
    ExpectedColumn,
    expectations,
)
from scoring.columns import Column
from scoring.sheet import SheetEntry

WHISTS = Column("A", "whists", "B")
ENTRIES = [SheetEntry(WHISTS, 1, Fraction(4), Fraction(4)),
           SheetEntry(WHISTS, 2, Fraction(5, 2), Fraction(13, 2)),  # a half whist
           SheetEntry(WHISTS, 3, Fraction(3, 2), Fraction(8)),
           SheetEntry(WHISTS, None, Fraction(2), Fraction(10))]  # end-of-game correction


def test_the_next_step_and_the_right_total_are_expected() -> None:
    assert expectations(3, ExpectedColumn.of(ENTRIES), 0) == [
        Expectation(7, 0, PRIOR_RIGHT_STEP), Expectation(4, 0, PRIOR_RIGHT_TOTAL)]


def test_a_half_whist_is_never_expected_in_digit_cells() -> None:
    # entry 1 can be written neither as a step nor as a total; entry 2 only as its total
    assert expectations(4, ExpectedColumn.of(ENTRIES), 1) == [Expectation(8, 2, PRIOR_SKIPPED)]
    assert expectations(4, ExpectedColumn.of(ENTRIES), 2) == [
        Expectation(8, 2, PRIOR_RIGHT_TOTAL)]


def test_nothing_is_expected_after_the_last_deal_but_the_end() -> None:
    column = ExpectedColumn.of(ENTRIES)
    assert column.ended_from == (False, False, False, True, True)
    assert expectations(8, column, 3) == [Expectation(None, 3, PRIOR_RIGHT_STEP)]
