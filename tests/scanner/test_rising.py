"""A doubtful total whose reading would make a pool or whists column fall shows the likeliest
of its candidates that keeps the column rising (scanner.decode.rising; issue 13, class 1: a
leading 1 on the border or too faint for the capture lost, "14" read 4 after an 8)."""

from __future__ import annotations

from dataclasses import replace

from scanner.decode.entries import EntryDecision
from scanner.decode.rising import rising_value_shown
from scanner.decode.sheet import decode_sheet
from scanner.words import said
from scoring.columns import Column
from tests.scanner.evidence import EMPTY, entry_cells, game, sheet_evidence

POOL = Column("A", "pool")


def _read(value: int) -> EntryDecision:
    return EntryDecision("read", value, 1.0, ((value, 1.0),))


def _doubtful(*candidates: tuple[int | None, float]) -> EntryDecision:
    value, share = candidates[0]
    return EntryDecision("doubtful", value, share, candidates, 14, 3,
                         said("digit_may_be_lost", ink=4, expected=14, value=14), ((4, 0.9),))


def test_a_doubtful_total_below_the_columns_last_total_shows_the_rising_candidate() -> None:
    """Read 8, then a doubtful 4 whose candidates hold 14: the 14 is shown first, the 4
    kept among the candidates, the entry still doubtful with its note and ink."""
    doubtful = _doubtful((4, 0.7), (14, 0.2), (None, 0.1))
    (_, shown, _) = rising_value_shown({POOL: (_read(8), doubtful, _read(16))})[POOL]
    assert (shown.status, shown.value, shown.confidence) == ("doubtful", 14, 0.2)
    assert shown.candidates == ((14, 0.2), (4, 0.7), (None, 0.1))
    assert (shown.note, shown.ink) == (doubtful.note, doubtful.ink)


def test_the_rising_candidate_stays_within_the_next_total_read() -> None:
    """A candidate past the column's next total read (24 before a 16) would make the column
    fall after it: the likeliest one between the two totals is shown."""
    doubtful = _doubtful((4, 0.7), (24, 0.2), (14, 0.05))
    (_, shown, _) = rising_value_shown({POOL: (_read(8), doubtful, _read(16))})[POOL]
    assert shown.value == 14


def test_a_falling_total_is_left_as_read_where_nothing_keeps_the_column_rising() -> None:
    """No candidate keeps the column rising, the total is read surely (a writer's total
    written lower), or the column is a mountain (it may fall): the entries stay as they
    were."""
    lone = _doubtful((4, 0.7), (5, 0.2))
    column = (_read(8), lone, _read(16))
    assert rising_value_shown({POOL: column})[POOL] == column
    fell = (_read(8), _read(4))
    assert rising_value_shown({POOL: fell})[POOL] == fell
    mountain = Column("A", "mountain")
    rising = (_read(8), _doubtful((4, 0.7), (14, 0.2)))
    assert rising_value_shown({mountain: rising})[mountain] == rising


def test_a_slip_carried_on_whose_1s_the_ink_lost_shows_the_totals_written() -> None:
    """A writer's pool carries a slip (every total from the second on 2 too high: 14, 15,
    17 after an 8) and the ink loses the 1 of the first two (each reads 4 and 5 likelier
    than 14 and 15): the decoding leaves them doubtful, and shows the totals written, not
    the 4 and 5 that would make the pool fall (main: 4, 5 and 7 after the 8)."""
    doc = game(seed=13)
    column = Column("A", "pool")
    values = doc["written"]["A"]["pool"]
    wrote = values[:1] + [v + 2 for v in values[1:-1]] + values[-1:]
    assert wrote[:4] == [8, 14, 15, 17]
    evidence = sheet_evidence(doc)
    cells = [entry_cells(wrote[j] if j < len(wrote) else None, 3)
             for j in range(len(evidence.columns[column]))]
    cells[1], cells[2] = (entry_cells(v, 3, confuse={1: EMPTY}) for v in wrote[1:3])
    evidence = replace(evidence, columns={**evidence.columns, column: tuple(cells)})
    shown = decode_sheet(evidence).entries[column][1:4]
    assert [(d.status, d.value) for d in shown] == [("doubtful", v) for v in wrote[1:4]]
