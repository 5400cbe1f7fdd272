"""The digit cells of a deal row: every value each group of cells may spell (a seat's tricks,
the result's number, the talon's quick tricks), the trick splits that sum to 10, and the result
a deal shows (Codex 4.2.11).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from forms.geometry.deal_column import RESULT_DIGITS, TRICK_DIGITS
from scanner.decode.numbers import CACHED_INPUTS, PROBABILITY_FLOOR, spelled_probabilities
from scanner.decode.row_marks import log_p
from scoring.deals import TALON_QUICK_TRICKS_MAX
from scoring.notation import Contract, parse_contract

SPLITS_TRIED = 3
"""Trick splits a deal shape is completed with while a row's likeliest readings are sought
(:func:`trick_options`): a bound on work, not a threshold on evidence (the rest are weighed
by the running totals when they do not confirm the row,
:func:`scanner.decode.deals.other_splits`)."""

NO_CELL = tuple([0.0] * 10 + [1.0])


class Spelled(dict[int | None, float]):
    """P(ink | value) of a group of cells for every value they may hold, empty (``None``)
    first (:func:`readings`), and the log of each (:func:`log_p`), in :attr:`logs`. Shared:
    not to be changed."""

    def __init__(self, values: Iterable[tuple[int | None, float]]) -> None:
        super().__init__(values)
        self.logs = {value: log_p(p) for value, p in self.items()}


@functools.cache
def trick_cells(seats: tuple[str, ...]) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """Each seat's tricks cells, as :class:`RowEvidence` names them."""
    return tuple((seat, tuple(("tricks", f"{seat}:{p}") for p in range(TRICK_DIGITS)))
                 for seat in seats)


RESULT_CELLS = tuple(("result_tricks", str(p)) for p in range(RESULT_DIGITS))


def spelled_values(cells: Sequence[Sequence[float]], largest: int) -> Spelled:
    """Every value 0..``largest`` (and empty) the cells could spell, with P(ink | value):
    all of them, so that the tricks' sum of 10 can pick one the ink finds unlikely."""
    return _spelled(tuple(map(tuple, cells)), largest)


@functools.lru_cache(maxsize=CACHED_INPUTS)
def _spelled(cells: tuple[tuple[float, ...], ...], largest: int) -> Spelled:
    """:func:`readings`, looked up: a sheet's empty and clear cells repeat (the dealer's
    tricks with 4 players, the result of a deal not played)."""
    values = [None, *range(largest + 1)]
    return Spelled(zip(values, spelled_probabilities(cells, values), strict=True))


def trick_options(tricks: dict[str, Spelled], players: list[str], seats: tuple[str, ...]
                  ) -> list[tuple[float, dict[str, int] | None]]:
    """The likeliest readings of the tricks cells: a few that sum to 10
    (:data:`SPLITS_TRIED`), and "not played" (all empty)."""
    sitting_out = [s for s in seats if s not in players]
    out_score = sum(log_p(p_value(tricks[s], None)) for s in sitting_out)
    played = trick_splits(tricks, players, seats)
    not_played = out_score + sum(log_p(p_value(tricks[s], None)) for s in players)
    return [*((score, dict(zip(players, values, strict=True)))
              for score, values in played[:SPLITS_TRIED]), (not_played, None)]


def trick_splits(tricks: dict[str, Spelled], players: list[str], seats: tuple[str, ...]
                 ) -> list[tuple[float, tuple[int, ...]]]:
    """Every split of the 10 tricks among ``players`` (in their order), with the tricks
    cells' log-likelihood of it, likeliest first; the 4-player dealer's cells should be
    empty."""
    sitting_out = [s for s in seats if s not in players]
    out_score = sum(log_p(p_value(tricks[s], None)) for s in sitting_out)
    played: list[tuple[float, tuple[int, ...]]] = []
    if len(players) == 3:  # the third player's tricks follow from the first two's
        logs = [[(value, log) for value, log in tricks[s].logs.items() if value is not None]
                for s in players]
        third = dict(logs[2])
        for v0, l0 in logs[0]:
            for v1, l1 in logs[1]:
                l2 = third.get(10 - v0 - v1)
                if l2 is not None:  # summed as below, in the same order
                    played.append((out_score + (0 + l0 + l1 + l2), (v0, v1, 10 - v0 - v1)))
    else:
        for readings in itertools.product(*(tricks[s].items() for s in players)):
            values = [value for value, _ in readings if value is not None]
            if len(values) == len(readings) and sum(values) == 10:
                played.append((out_score + sum(log_p(p) for _, p in readings),
                               tuple(values)))
    played.sort(key=lambda option: -option[0])
    return played


def talon_options(talon: Spelled | None, kind: str) -> list[tuple[int, float]]:
    """The likeliest talon prizes a deal of ``kind`` may show, with their log-likelihoods."""
    if talon is None:
        return [(0, 0.0)]
    if kind != "contract":
        return [(0, log_p(p_value(talon, None)))]
    options = [(0, log_p(p_value(talon, None) + p_value(talon, 0)))]
    options += [(q, log_p(p_value(talon, q))) for q in range(1, TALON_QUICK_TRICKS_MAX + 1)]
    return sorted(options, key=lambda o: -o[1])[:2]


def p_value(readings: Spelled, value: int | None) -> float:
    """P(ink | value), floored (:data:`~scanner.decode.numbers.PROBABILITY_FLOOR`)."""
    return readings.get(value, 0.0) or PROBABILITY_FLOOR


def expected_result(deal: dict[str, Any]) -> tuple[str | None, int | None]:
    """The Codex 4.2.11 result a row shows: sign and number (``("-", 1)`` = one down).

    An all-pass shows none; a deal not played shows ``=`` (the declarer scores as made).

    >>> expected_result({"type": "contract", "declarer": "A", "contract": "7H",
    ...                  "tricks": {"A": 6, "B": 3, "C": 1}})
    ('-', 1)
    """
    return shape_result(deal, deal.get("tricks"))


def shape_result(shape: dict[str, Any], tricks: dict[str, int] | None
                  ) -> tuple[str | None, int | None]:
    """:func:`expected_result` of a deal shape played with ``tricks`` (``None``: not played)."""
    if shape["type"] == "allpass":
        return None, None
    if tricks is None:
        return "=", None
    taken = tricks[shape["declarer"]]
    over = -taken if shape["type"] == "misere" else taken - _contract_level(shape["contract"])
    if over == 0:
        return "=", None
    return ("+" if over > 0 else "-"), abs(over)


@functools.cache
def _contract_level(text: str) -> int:
    contract = parse_contract(text)
    assert isinstance(contract, Contract)
    return contract.level
