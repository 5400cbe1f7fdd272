"""The columns of the sheet: each player's pool, mountain, and whists on each opponent.

>>> Column("A", "whists", "B")
Column(seat='A', kind='whists', on='B')
>>> str(Column("A", "whists", "B")), str(Column("C", "mountain"))
('A whists on B', 'C mountain')
"""

from __future__ import annotations

from typing import Literal, NamedTuple

ColumnKind = Literal["pool", "mountain", "whists"]


class Column(NamedTuple):
    """One running-total column of the sheet (Codex 4.2.1): ``on`` is set for whists only.

    A named tuple rather than a dataclass: columns are dictionary keys on the hot path.
    """

    seat: str
    kind: ColumnKind
    on: str | None = None

    def __str__(self) -> str:
        return f"{self.seat} {self.kind}" + (f" on {self.on}" if self.on else "")


def sheet_columns(seats: tuple[str, ...]) -> tuple[Column, ...]:
    """Every column of a sheet, seat by seat: pool, mountain, then whists clockwise.

    >>> [str(c) for c in sheet_columns(("A", "B", "C"))][:4]
    ['A pool', 'A mountain', 'A whists on B', 'A whists on C']
    """
    columns: list[Column] = []
    for index, seat in enumerate(seats):
        columns += [Column(seat, "pool"), Column(seat, "mountain")]
        others = seats[index + 1:] + seats[:index]
        columns += [Column(seat, "whists", other) for other in others]
    return tuple(columns)
