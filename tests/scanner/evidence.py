"""Synthetic scanner evidence for decoding tests: what a perfect or noisy reader would see."""

from __future__ import annotations

import random
from typing import Any

from forms.geometry.deal_column import CALLS, LEVELS, SUITS
from forms.geometry.deal_column import RESULTS as RESULT_SIGNS
from scanner.decode.deals import RowEvidence
from scanner.decode.entries import EntryCells
from scanner.decode.row_digits import expected_result
from scanner.decode.sheet import SheetEvidence
from scoring.columns import Column, sheet_columns
from scoring.random_games import random_record, written_columns
from scoring.record import parse_record
from scoring.rules import RuleSet
from scoring.sheet import expected_sheet

EMPTY = 10


def digit_probabilities(char: str | None, sure: float = 0.97,
                        confuse_with: int | None = None) -> list[float]:
    """A recognizer's output for one cell holding ``char`` (None = empty)."""
    index = EMPTY if char is None else int(char)
    rest = (1 - sure) / 10
    probabilities = [rest] * 11
    probabilities[index] = sure
    if confuse_with is not None:
        probabilities[confuse_with] += probabilities[index] * 0.6
        probabilities[index] *= 0.4
    return probabilities


def number_cells(value: int | None, cells: int) -> list[str | None]:
    """Digits written right-aligned in ``cells`` cells."""
    text = "" if value is None else str(value)
    return [None] * (cells - len(text)) + list(text)


def row_evidence(deal: dict[str, Any] | None, row: int, seats: tuple[str, ...],
                 sure: float = 0.97, rng: random.Random | None = None,
                 talon: bool = False) -> RowEvidence:
    """What a reader sees in a row filled with ``deal`` (None: an empty row)."""
    crossed: set[tuple[str, str]] = set()
    numbers: dict[tuple[str, str], str | None] = {}
    if deal is not None:
        if deal["type"] == "allpass":
            crossed.add(("declarer", "allpass"))
        else:
            crossed.add(("declarer", deal["declarer"]))
            if deal["type"] == "misere":
                crossed.add(("level", "misere"))
            else:
                crossed.add(("level", deal["contract"][:-1].rstrip("N")))
                suit = deal["contract"][len(deal["contract"][:-1].rstrip("N")):]
                crossed.add(("suit", suit))
                for seat, call in deal["defence"].items():
                    crossed.add(("call", f"{seat}:{call}"))
        for seat, value in deal.get("tricks", {}).items():
            for position, char in enumerate(number_cells(value, 2)):
                numbers[("tricks", f"{seat}:{position}")] = char
        sign, value = expected_result(deal)
        if sign:
            crossed.add(("result", sign))
        for position, char in enumerate(number_cells(value, 2)):
            numbers[("result_tricks", str(position))] = char
        quick = deal.get("talon", {}).get("quick_tricks")
        if talon and quick:
            numbers[("talon", "0")] = str(quick)
    marks = {}
    options = [("declarer", o) for o in [*seats, "allpass"]] + [("level", o) for o in LEVELS] \
        + [("suit", o) for o in SUITS] + [("call", f"{s}:{c}") for s in seats for c in CALLS] \
        + [("result", o) for o in RESULT_SIGNS]
    for key in options:
        marks[key] = sure if key in crossed else 1 - sure
    digits = {}
    keys = [("tricks", f"{s}:{p}") for s in seats for p in range(2)] + \
        [("result_tricks", str(p)) for p in range(2)] + ([("talon", "0")] if talon else [])
    for key in keys:
        digits[key] = digit_probabilities(numbers.get(key), sure)
    return RowEvidence(row, marks, digits)


def entry_cells(value: int | None, cells: int, sure: float = 0.97,
                confuse: dict[int, int] | None = None, sign: bool = False) -> EntryCells:
    """What a reader sees in an entry holding ``value`` right-aligned in ``cells`` cells;
    ``confuse`` maps a cell position to a digit it half resembles."""
    confuse = confuse or {}
    text = number_cells(None if value is None else abs(value), cells)
    probabilities = tuple(digit_probabilities(char, sure, confuse.get(i))
                          for i, char in enumerate(text))
    minus = None
    if sign:
        minus = sure if value is not None and value < 0 else 1 - sure
    return EntryCells(probabilities, minus)


def sheet_evidence(doc: dict[str, Any], rows: int = 40, entries: int = 24, digits: int = 3,
                   sure: float = 0.97, talon: bool = False) -> SheetEvidence:
    """Evidence of a whole sheet filled exactly as ``doc`` (with ``written``) says."""
    rules = RuleSet.from_settings(doc["rules"])
    seats = tuple(doc["seats"])
    deals = doc["deals"]
    row_list = tuple(row_evidence(deals[i] if i < len(deals) else None, i, seats, sure,
                                  talon=talon) for i in range(rows))
    columns: dict[Column, tuple[EntryCells, ...]] = {}
    for column in sheet_columns(seats):
        written = doc["written"][column.seat]
        values = written["whists"][column.on] if column.on else written[column.kind]
        sign = column.kind == "mountain"
        columns[column] = tuple(entry_cells(values[i] if i < len(values) else None, digits,
                                            sure, sign=sign) for i in range(entries))
    return SheetEvidence(rules, seats, row_list, columns)


def game(variant: str = "sochi", players: int = 3, seed: int = 11) -> dict[str, Any]:
    """A random game of 20 (``seed``) with its columns written right."""
    doc = random_record(RuleSet.preset(variant, players, 20), random.Random(seed))
    doc["written"] = written_columns(expected_sheet(parse_record(doc)))
    return doc
