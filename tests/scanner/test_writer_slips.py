"""One writer's entries read as slips, weighed together (scanner.decode.writer_slips)."""

from __future__ import annotations

from scanner.decode.columns import EntryDecision
from scanner.decode.writer_slips import slips_alike
from scoring.columns import Column


def entry(value: int, expected: int, status: str = "read") -> EntryDecision:
    return EntryDecision(status, value, 0.997, ((value, 0.997),), expected, 1,
                         "the ink clearly says so" if value != expected else "")


def test_one_writers_digit_read_as_another_in_several_entries_is_no_slip() -> None:
    """Issue 13, class 2 across columns (TRAINING part, legacy profile: B's 24 read 34, 2 read
    3 and 42 read 43, each at 0.996-0.997, three slips blamed on the player): every entry of
    one seat read against the rules by the same digits read as others is doubtful, naming
    them; another seat's single slip by the same digits, and a slip of the same seat by other
    digits, stay read, and so do the entries the rules expect."""
    b_on_a, b_on_c, b_pool = Column("B", "whists", "A"), Column("B", "whists", "C"), \
        Column("B", "pool")
    a_pool = Column("A", "pool")
    entries = {b_on_a: (entry(12, 12), entry(34, 24)),
               b_on_c: (entry(3, 2), entry(20, 20), entry(43, 42)),
               b_pool: (entry(6, 4),),
               a_pool: (entry(3, 2),)}
    decided = slips_alike(entries)
    assert [d.status for d in decided[b_on_a]] == ["read", "doubtful"]
    assert [d.status for d in decided[b_on_c]] == ["doubtful", "read", "doubtful"]
    assert decided[b_on_c][0].note == "read against the rules as another entry of this " \
        "writer is, by the same digits (2 read as 3): one misread repeated rather than two " \
        "slips"
    assert decided[b_pool][0].status == "read"
    assert decided[a_pool][0].status == "read"
    assert [d.value for d in decided[b_on_c]] == [3, 20, 43]


def test_a_slip_read_is_doubtful_beside_a_doubtful_entry_misread_by_the_same_digits() -> None:
    """The legacy sheet again, its 24 read 34 and 2 read 3 left doubtful (their ink under the
    bar a slip is read at) and its 42 read 43 read as a slip: that one is doubtful too. An
    entry the rules overruled, its ink reading a 2 as 3, counts as well."""
    b_on_a, b_on_c = Column("B", "whists", "A"), Column("B", "whists", "C")
    doubtful_34 = EntryDecision("doubtful", 34, 0.6, ((34, 0.6),), 24, 1, "",
                                ((34, 0.996), (24, 0.004)))
    entries = {b_on_a: (doubtful_34,), b_on_c: (entry(43, 42),)}
    assert slips_alike(entries)[b_on_c][0].status == "doubtful"
    overruled_2 = EntryDecision("doubtful", 2, 0.6, ((2, 0.6),), 2, 1, "",
                                ((3, 0.996), (2, 0.004)))
    entries = {b_on_a: (overruled_2,), b_on_c: (entry(43, 42),)}
    decided = slips_alike(entries)
    assert decided[b_on_c][0].status == "doubtful"
    assert decided[b_on_a][0] == overruled_2
