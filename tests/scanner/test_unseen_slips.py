"""A total read as carried on, short of a digit, from a slip its ink does not show is
doubtful (scanner.decode.unseen_slips; issue 13, class 7: a far photo of pencil loses every
leading 1 of a pool, and the rules' path reads what is left as a slip carried on)."""

from __future__ import annotations

from fractions import Fraction

from scanner.decode.entries import EntryDecision, EntryInk
from scanner.decode.presence import present_column
from scanner.decode.unseen_slips import carried_on_unseen
from scanner.words import said
from scoring.columns import Column
from scoring.sheet import SheetEntry

POOL = Column("D", "pool")


def _right_totals(*deals_and_totals: tuple[int, int]) -> list[SheetEntry]:
    entries, before = [], 0
    for deal, total in deals_and_totals:
        entries.append(SheetEntry(POOL, deal, Fraction(total - before), Fraction(total)))
        before = total
    return entries


def test_a_pool_whose_leading_1s_a_far_photo_lost_is_not_read_as_a_slip_carried_on() -> None:
    """The ink a scan kept of a pool written 10, 16, 18, 24 on a far pencil photo (TRAINING
    part, seed 355 sheet 004): the 10 reads as nothing, the 16 and 18 as 6 and 8. The
    rules' path makes the first a slip, 2, and carries it on: 6 and 8 were read at 0.9992
    and 0.9994, silently. Now they are doubtful, shown as read."""
    expected = _right_totals((5, 10), (6, 14), (7, 16), (18, 22))
    inks: list[dict[int | None, float]] = [
        {None: 1.0, 1: 0.965, 0: 0.01, 2: 0.01, 3: 0.01, 4: 0.01, 5: 0.01, 6: 0.01,
         10: 0.0001, 14: 0.0001},
        {6: 0.831, 8: 0.0592, 0: 0.0423, 7: 0.0188, 4: 0.0159, 5: 0.0138, 16: 0.00831,
         3: 0.00742, 9: 0.0043, 2: 0.00272, 10: 0.000423, 20: 0.000423, None: 0.000212,
         14: 0.000159, 12: 2.72e-05, 22: 2.72e-05},
        {8: 0.948, 6: 0.025, 0: 0.0142, 7: 0.00985, 848: 0.00812, 548: 0.00485, 5: 0.00194,
         898: 0.00188, 3: 0.000557, 16: 0.00025, 9: 0.000216, None: 0.000214, 10: 0.000142,
         20: 0.000142, 4: 0.000134, 845: 8.44e-05, 13: 5.57e-06, 14: 1.34e-06,
         12: 1.05e-06, 22: 1.05e-06, 11: 1e-06},
        {24: 0.383, 74: 0.229, 34: 0.037, 26: 0.0262, 64: 0.0232, 54: 0.0202, 27: 0.0181,
         76: 0.0156, 14: 0.00368, 7: 0.00153, 22: 0.000299, 16: 0.000252, 11: 1.28e-05,
         None: 7.92e-06, 12: 2.88e-06, 13: 1.6e-06},
        {None: 1.0},
    ]
    decided = present_column([EntryInk(ink) for ink in inks], expected, None, True)
    assert decided[0].value == 2 and decided[0].status == "doubtful"
    assert [(d.status, d.value) for d in decided[1:3]] == [("doubtful", 6), ("doubtful", 8)]
    assert all(getattr(d.note, "code", "") == "carried_on_unseen" for d in decided[1:3])


def _decision(status: str, value: int, deal: int, ink: int | None) -> EntryDecision:
    return EntryDecision(status, value, 0.99, ((value, 0.99),), value, deal, "",
                         ((ink, 0.9), (value, 0.05)))


def test_a_slip_carried_on_with_the_right_totals_digits_stays_read() -> None:
    """A slip of 11 for 4 whose ink reads 1 likeliest, carried on as 12, 18, 38 for 5, 11,
    31 (the writer's, as many digits as the right totals), stays read; so does a total
    after the right one again, and one carried from a slip its ink shows."""
    expected = _right_totals((1, 4), (2, 5), (3, 11), (4, 31))
    column = [_decision("doubtful", 11, 1, 1), _decision("read", 12, 2, 12),
              _decision("read", 18, 3, 18), _decision("read", 38, 4, 38)]
    assert carried_on_unseen(column, expected) == column
    short = [_decision("doubtful", 2, 1, None), _decision("read", 3, 2, 3),
             _decision("read", 11, 3, 11), _decision("read", 7, 4, 7)]
    marked = carried_on_unseen(short, _right_totals((1, 10), (2, 11), (3, 11), (4, 17)))
    assert [d.status for d in marked] == ["doubtful", "doubtful", "read", "read"]
    assert marked[1].note == said("carried_on_unseen", value="3", slip="2")
    shown = [_decision("doubtful", 2, 1, 2), _decision("read", 3, 2, 3)]
    assert carried_on_unseen(shown, _right_totals((1, 10), (2, 11))) == shown
