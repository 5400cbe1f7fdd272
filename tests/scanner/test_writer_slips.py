"""One writer's entries read as slips, weighed together (scanner.decode.writer_slips)."""

from __future__ import annotations

from scanner.decode.entries import EntryDecision
from scanner.decode.writer_slips import digits_read_right, slips_alike, with_writers_digits
from scanner.words import said
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


def confirmed(value: int, share: float = 0.999) -> EntryDecision:
    """An entry read as the rules expect, its ink reading that value at ``share``."""
    return EntryDecision("read", value, 0.9999, ((value, 0.9999),), value, 1, "",
                         ((value, share), (value + 1, 1 - share)))


def test_a_writers_digits_read_right_are_those_two_confirmed_entries_hold() -> None:
    """A digit is a seat's, read right, where two of its entries the rules confirm and whose
    ink reads them at 0.99 or more hold it (a 26 counts its 2 and 6 once each); an entry
    read on thin ink, a slip, or another seat's entry is no witness."""
    entries = {Column("A", "pool"): (confirmed(26), confirmed(32), confirmed(36, share=0.9)),
               Column("A", "whists", "B"): (confirmed(6), entry(15, 14)),
               Column("B", "pool"): (confirmed(55), confirmed(5))}
    assert digits_read_right(entries) == {"A": frozenset("26"), "B": frozenset("5")}


def test_a_column_asking_about_a_misread_repeated_is_decoded_again_with_its_writers_digits(
        ) -> None:
    """Only a column that asks about one misread repeated is decoded again, and with its own
    writer's digits."""
    repeated = EntryDecision("doubtful", 8, 0.9, ((8, 0.9),), 6, 1,
                             said("misread_repeated", confusion="6 read as 8"))
    a_on_b, a_pool, b_pool = Column("A", "whists", "B"), Column("A", "pool"), Column("B", "pool")
    entries = {a_on_b: (repeated,), a_pool: (confirmed(6), confirmed(16), confirmed(61)),
               b_pool: (confirmed(2), confirmed(12))}
    asked: list[tuple[Column, frozenset[str]]] = []

    def decode(column: Column, witnessed: frozenset[str]) -> tuple[EntryDecision, ...]:
        asked.append((column, witnessed))
        return (entry(8, 6),)

    decided = with_writers_digits(entries, decode)
    assert asked == [(a_on_b, frozenset("16"))]
    assert decided[a_on_b] == (entry(8, 6),)
    assert decided[a_pool] == entries[a_pool]
