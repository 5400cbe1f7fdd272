"""Settle a pulka in whists: Codex 4.2.14 Variants 1 and 2, 4.2.12 remainders, 4.2.13 money.

Both variants work on mountains alone, so pools are first brought level: each pool point is
``r_p / 10`` mountain points (RULES.md §8, note 72), taken off the mountain of every player
above the lowest pool. With all pools equal (a finished Sochi pulka) this step changes nothing.

* Variant 1 (amnesty): the smallest mountain is written off everyone's mountain; each mountain
  x 10 / players is written as whists on its owner by every other player; the whists each pair
  wrote on each other are then compared.
* Variant 2 (mean): each player gains (mean mountain - own mountain) x 10, plus the whists he
  wrote, minus the whists written on him.

They agree exactly (checked on every settlement); the results sum to zero (4.2.14).

RECORD.md's example: C's pool 14, mountains 3 / 2 / 5, C wrote 4 on A and 8 on B.

>>> from scoring.columns import Column
>>> totals = {Column("A", "pool"): 2, Column("B", "pool"): 2, Column("C", "pool"): 14,
...           Column("A", "mountain"): 3, Column("B", "mountain"): 2,
...           Column("C", "mountain"): 5, Column("C", "whists", "A"): 4,
...           Column("C", "whists", "B"): 8}
>>> s = settle(("A", "B", "C"), {c: Fraction(v) for c, v in totals.items()}, pool_point_whists=10)
>>> [str(s.result[p]) for p in "ABC"], [s.rounded[p] for p in "ABC"]
(['-122/3', '-104/3', '226/3'], [-40, -35, 75])
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from scoring.columns import Column

MOUNTAIN_POINT_WHISTS = 10
"""One mountain point is worth 10 whists (RULES.md §2)."""


@dataclass(frozen=True)
class Variant1:
    """Codex 4.2.14 Variant 1, step by step."""

    mountains: dict[str, Fraction]
    """Mountains with the pools brought level (the start of the calculation)."""
    amnesty: Fraction
    """The smallest mountain, written off everyone's."""
    per_opponent: dict[str, Fraction]
    """Whists every other player writes on the mountain's owner: mountain x 10 / players."""
    whists: dict[tuple[str, str], Fraction]
    """(writer, on) → whists, after the mountains were added."""
    result: dict[str, Fraction]


@dataclass(frozen=True)
class Variant2:
    """Codex 4.2.14 Variant 2, step by step."""

    mountains: dict[str, Fraction]
    mean: Fraction
    from_mountain: dict[str, Fraction]
    """(mean - own mountain) x 10."""
    from_whists: dict[str, Fraction]
    """Whists written on others minus whists written on the player."""
    result: dict[str, Fraction]


@dataclass(frozen=True)
class CodexRemainder:
    """Codex 4.2.12: one point added to or written off one mountain so that it divides by the
    number of players; the others compensate with whists (10 / players, rounded)."""

    seat: str
    mountain_change: int
    """+1 added to the mountain, -1 written off it."""
    compensation: int
    """Whists each other player writes on ``seat`` (negative: ``seat`` writes on each)."""


@dataclass(frozen=True)
class Settlement:
    """The settlement of one pulka (RECORD.md ``pulka-settlement/1``)."""

    seats: tuple[str, ...]
    columns: dict[Column, Fraction]
    result: dict[str, Fraction]
    rounded: dict[str, int]
    variant1: Variant1
    variant2: Variant2
    codex_integer: dict[str, int]
    remainders: tuple[CodexRemainder, ...]
    money: dict[str, Fraction] | None = None


def settle(seats: tuple[str, ...], columns: Mapping[Column, Fraction], pool_point_whists: int,
           stake: Fraction | None = None) -> Settlement:
    """Settle from the columns' totals; both variants must agree (4.2.14)."""
    pools = {s: Fraction(columns.get(Column(s, "pool"), 0)) for s in seats}
    factor = Fraction(pool_point_whists, MOUNTAIN_POINT_WHISTS)
    lowest_pool = min(pools.values())
    mountains = {s: Fraction(columns.get(Column(s, "mountain"), 0))
                 - (pools[s] - lowest_pool) * factor for s in seats}
    whists = {(w, o): Fraction(columns.get(Column(w, "whists", o), 0))
              for w in seats for o in seats if w != o}
    first = variant1(seats, mountains, whists)
    second = variant2(seats, mountains, whists)
    if first.result != second.result or sum(first.result.values()) != 0:
        raise ArithmeticError(f"settlement variants disagree: {first.result} {second.result}")
    integer, remainders = codex_integer_form(seats, mountains, whists)
    money = None if stake is None else {s: first.result[s] * stake for s in seats}
    return Settlement(seats, dict(columns), first.result, round_to_zero_sum(seats, first.result),
                      first, second, integer, remainders, money)


def variant1(seats: tuple[str, ...], mountains: Mapping[str, Fraction],
             whists: Mapping[tuple[str, str], Fraction]) -> Variant1:
    """Codex 4.2.14 Variant 1 (amnesty, then mountains as whists, then pairwise)."""
    amnesty = min(mountains.values())
    share = Fraction(MOUNTAIN_POINT_WHISTS, len(seats))
    per_opponent = {s: (mountains[s] - amnesty) * share for s in seats}
    total = {(w, o): whists[(w, o)] + per_opponent[o] for (w, o) in whists}
    result = {s: sum((total[(s, o)] - total[(o, s)] for o in seats if o != s), Fraction(0))
              for s in seats}
    return Variant1(dict(mountains), amnesty, per_opponent, total, result)


def variant2(seats: tuple[str, ...], mountains: Mapping[str, Fraction],
             whists: Mapping[tuple[str, str], Fraction]) -> Variant2:
    """Codex 4.2.14 Variant 2 (the mean mountain)."""
    mean = sum(mountains.values(), Fraction(0)) / len(seats)
    from_mountain = {s: (mean - mountains[s]) * MOUNTAIN_POINT_WHISTS for s in seats}
    from_whists = {s: sum((whists[(s, o)] - whists[(o, s)] for o in seats if o != s),
                          Fraction(0)) for s in seats}
    result = {s: from_mountain[s] + from_whists[s] for s in seats}
    return Variant2(dict(mountains), mean, from_mountain, from_whists, result)


def round_to_zero_sum(seats: tuple[str, ...], result: Mapping[str, Fraction]) -> dict[str, int]:
    """Integers summing to zero, each within 1 of the exact result (RECORD.md ``rounded``):
    floor every result, then +1 to the largest fractional parts, seat order breaking ties.

    >>> round_to_zero_sum(("A", "B", "C"), {"A": Fraction(1, 3), "B": Fraction(1, 3),
    ...                                     "C": Fraction(-2, 3)})
    {'A': 1, 'B': 0, 'C': -1}
    """
    floors = {s: math.floor(result[s]) for s in seats}
    missing = -sum(floors.values())
    by_fraction = sorted(seats, key=lambda s: (-(result[s] - floors[s]), seats.index(s)))
    for seat in by_fraction[:missing]:
        floors[seat] += 1
    return floors


def codex_integer_form(seats: tuple[str, ...], mountains: Mapping[str, Fraction],
                       whists: Mapping[tuple[str, str], Fraction]
                       ) -> tuple[dict[str, int], tuple[CodexRemainder, ...]]:
    """Codex 4.2.12 with Variant 1: make every amnestied mountain's share (mountain x 10 /
    players) whole by adding or writing off one point at a time (whichever is nearer; writing
    off on a tie), the others compensating with ``round(10 / players)`` whists each (3 with
    3 players, 2 with 4). Fractional whists and mountains (Rostov shares) are rounded to the
    nearest whole first. The integers sum to zero; each differs from the exact result by the
    compensation's rounding: 1/3 whist per other player and point moved with 3 players, 1/2
    with 4.

    Codex example: 3 players, a mountain of 7 after amnesty: one point written off (6), the two
    others write 3 whists each on its owner.

    >>> form, moves = codex_integer_form(("A", "B", "C"),
    ...     {"A": Fraction(0), "B": Fraction(7), "C": Fraction(3)}, {})
    >>> moves
    (CodexRemainder(seat='B', mountain_change=-1, compensation=3),)
    >>> form
    {'A': 33, 'B': -36, 'C': 3}
    """
    players = len(seats)
    modulus = players // math.gcd(MOUNTAIN_POINT_WHISTS, players)  # 3 players: 3; 4: 2
    compensation = round(Fraction(MOUNTAIN_POINT_WHISTS, players))
    amnesty = min(mountains.values())
    adjusted: dict[str, int] = {}
    moves: list[CodexRemainder] = []
    written = {pair: round(value) for pair, value in whists.items()}
    for seat in seats:
        mountain = round(mountains[seat] - amnesty)
        remainder = mountain % modulus
        step = -1 if remainder <= modulus - remainder else 1
        for _ in range(remainder if step < 0 else modulus - remainder):
            mountain += step
            moves.append(CodexRemainder(seat, step, -step * compensation))
            for other in seats:
                if other != seat:
                    pair = (other, seat) if step < 0 else (seat, other)
                    written[pair] = written.get(pair, 0) + compensation
        adjusted[seat] = mountain
    share = {s: adjusted[s] * MOUNTAIN_POINT_WHISTS // players for s in seats}
    form = {s: sum(written.get((s, o), 0) + share[o] - written.get((o, s), 0) - share[s]
                   for o in seats if o != s) for s in seats}
    return form, tuple(moves)
