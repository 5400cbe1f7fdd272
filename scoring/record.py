"""Read a ``pulka-record/1`` document (RECORD.md) into a checked, immutable :class:`GameRecord`.

Every malformed part raises one :class:`~scoring.errors.RecordError` naming the field, never a
traceback from deep inside. :func:`record_problems` collects *all* problems of a document
instead of stopping at the first (the lenient mode, as python-chess's ``status()``).

>>> doc = {"format": "pulka-record/1", "rules": {"variant": "sochi", "players": 3, "pool": 20},
...        "seats": ["A", "B", "C"], "deals": [
...        {"type": "allpass", "tricks": {"A": 3, "B": 2, "C": 5}}]}
>>> record = parse_record(doc)
>>> record.deals[0].dealer, record.rules.describe()
('A', 'Sochi, 3 players, pool 20')
>>> for problem in record_problems({**doc, "seats": ["A", "A", "C"], "colour": 1}):
...     print(problem)
colour: unknown field; known: format, rules, seats, names, deals, written, end
seats: seat letters must be unique, got A, A, C
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from scoring.columns import Column, sheet_columns
from scoring.deals import Deal, make_deal
from scoring.errors import RecordError
from scoring.limits import (
    MAX_DEALS_PER_GAME,
    MAX_JSON_DEPTH,
    MAX_NAME_CHARS,
    MAX_NUMBER_DIGITS,
    MAX_SEAT_CHARS,
    MAX_TOTAL,
)
from scoring.rules import RuleSet

FORMAT = "pulka-record/1"
TOP_FIELDS = ("format", "rules", "seats", "names", "deals", "written", "end")
DEAL_FIELDS = ("dealer", "type", "declarer", "contract", "defence", "tricks", "talon")
END_BY_CONSENT = "consent"


@dataclass(frozen=True)
class GameRecord:
    """A whole game: rules, seats (clockwise), deal log and, optionally, what was written.

    ``written`` maps each column to its running totals in the order written (4.2.1), or is
    ``None`` when the record has no ``written`` part. ``ended_by_consent`` is the extension
    field ``"end": "consent"``: the players stopped early by common consent (4.2.3).
    """

    rules: RuleSet
    seats: tuple[str, ...]
    deals: tuple[Deal, ...]
    names: Mapping[str, str] = field(default_factory=dict)
    written: Mapping[Column, tuple[Fraction, ...]] | None = None
    ended_by_consent: bool = False


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_JSON_BRACKET = re.compile(r"[\[\]{}]")


def load_json(text: str) -> Any:
    """Decode JSON text within :mod:`scoring.limits` (nesting, digits of a number); a
    problem raises :class:`RecordError` saying where.

    >>> load_json('{"a": [1, 2.5]}')
    {'a': [1, 2.5]}
    >>> load_json("[" * 100 + "]" * 100)
    Traceback (most recent call last):
    scoring.errors.RecordError: JSON nested deeper than 32 levels; a record needs 5
    """
    depth = deepest = 0
    for bracket in _JSON_BRACKET.findall(_JSON_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    if deepest > MAX_JSON_DEPTH:
        raise RecordError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels; a record needs 5")
    try:
        return json.loads(text, parse_int=_json_int, parse_float=_json_float,
                          parse_constant=_json_constant)
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON: {error.msg} at line {error.lineno}, column "
                          f"{error.colno}") from None
    except _BadNumber as error:
        start = text.find(error.text)
        line = text.count("\n", 0, start) + 1
        column = start - text.rfind("\n", 0, start)
        raise RecordError(f"line {line}, column {column}: {error.reason}") from None


class _BadNumber(ValueError):
    """A JSON number beyond :mod:`scoring.limits` (found by its text to say where)."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(reason)
        self.text = text
        self.reason = reason


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _BadNumber(text, f"a number of {len(text.lstrip('-'))} digits (at most "
                               f"{MAX_NUMBER_DIGITS}): {text[:12]}...")
    return int(text)


def _json_float(text: str) -> float:
    value = float(text)
    if len(text) > MAX_NUMBER_DIGITS + 8 or not abs(value) < float(MAX_TOTAL) ** 2:
        raise _BadNumber(text, f"the number {text[:30]} is out of range")
    return value


def _json_constant(text: str) -> Any:
    raise _BadNumber(text, f"{text} is not a number JSON allows")


def text_problem(value: object, max_chars: int) -> str | None:
    r"""Why ``value`` cannot be a name (not text, too long, control characters), or None.

    >>> text_problem("Иванова", 60), text_problem("a\x00b", 60), text_problem(["x"], 60)
    (None, 'contains a control character', "must be text, got ['x']")
    """
    if not isinstance(value, str):
        return f"must be text, got {_short(value)}"
    if len(value) > max_chars:
        return f"is {len(value)} characters long, at most {max_chars}"
    if any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in value):
        return "contains a control character"
    return None


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def parse_record(doc: Any) -> GameRecord:
    """Check a decoded JSON document and build the record; raise on the first problem."""
    problems = _parse(doc, strict=True)
    assert isinstance(problems, GameRecord)
    return problems


def record_problems(doc: Any) -> list[str]:
    """Every problem of a document, one message each; an empty list if it is valid."""
    result = _parse(doc, strict=False)
    return [] if isinstance(result, GameRecord) else result


def _parse(doc: Any, strict: bool) -> GameRecord | list[str]:
    problems: list[str] = []

    def problem(error: RecordError) -> None:
        if strict:
            raise error
        problems.append(str(error))

    if not isinstance(doc, dict):
        problem(RecordError(f"a record is a JSON object, got {type(doc).__name__}"))
        return problems
    for name in doc:
        if name not in TOP_FIELDS:
            problem(RecordError(f"unknown field; known: {', '.join(TOP_FIELDS)}", str(name)))
    if doc.get("format") != FORMAT:
        problem(RecordError(f"must be {FORMAT!r}, got {_short(doc.get('format'))}", "format"))
    rules = seats = None
    try:
        rules = RuleSet.from_settings(doc.get("rules"), "rules")
    except RecordError as error:
        problem(error)
    try:
        seats = _seats(doc.get("seats"), rules)
    except RecordError as error:
        problem(error)
    if rules is None or seats is None:
        return problems
    names: dict[str, str] = {}
    try:
        names = _names(doc.get("names", {}), seats)
    except RecordError as error:
        problem(error)
    deals = _deals(doc.get("deals"), rules, seats, problem)
    written = None
    if "written" in doc:
        try:
            written = _written(doc["written"], seats)
        except RecordError as error:
            problem(error)
    end = doc.get("end")
    if end not in (None, END_BY_CONSENT):
        problem(RecordError(f"must be {END_BY_CONSENT!r} (stopped by consent, 4.2.3) or "
                            f"absent, got {_short(end)}", "end"))
    if problems:
        return problems
    return GameRecord(rules, seats, tuple(deals), names, written, end == END_BY_CONSENT)


def _deals(raw_deals: object, rules: RuleSet, seats: tuple[str, ...],
           problem: Callable[[RecordError], None]) -> list[Deal]:
    """The record's deals in order, up to the first one refused (the dealers of later deals
    depend on it); each problem handed to ``problem``."""
    if not isinstance(raw_deals, list):
        problem(RecordError(f"must be a list of deals, got {_short(raw_deals)}", "deals"))
        return []
    if len(raw_deals) > MAX_DEALS_PER_GAME:
        problem(RecordError(f"{len(raw_deals)} deals, at most {MAX_DEALS_PER_GAME} in one "
                            f"game; split it into games", "deals"))
        return []
    deals: list[Deal] = []
    previous_dealer: str | None = None
    for index, raw in enumerate(raw_deals):
        try:
            deal = _deal(raw, index, rules, seats, previous_dealer)
        except RecordError as error:
            problem(error)
            break
        deals.append(deal)
        previous_dealer = deal.dealer
    return deals


def _seats(value: object, rules: RuleSet | None) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(
            isinstance(s, str) and s.strip() == s and s and text_problem(s, MAX_SEAT_CHARS)
            is None for s in value):
        raise RecordError(f"must be a list of seat letters (at most {MAX_SEAT_CHARS} "
                          f"characters each), got {_short(value)}", "seats")
    if len(set(value)) != len(value):
        raise RecordError(f"seat letters must be unique, got {', '.join(value)}", "seats")
    if rules is not None and len(value) != rules.players:
        raise RecordError(f"{len(value)} seats for {rules.players} players", "seats")
    return tuple(value)


def _names(value: object, seats: tuple[str, ...]) -> dict[str, str]:
    if not isinstance(value, dict):
        raise RecordError(f"must be an object of seat: name, got {_short(value)}", "names")
    for seat, name in value.items():
        if seat not in seats:
            raise RecordError(f"{_short(seat)} is not a seat ({', '.join(seats)})", "names")
        problem = text_problem(name, MAX_NAME_CHARS)
        if problem:
            raise RecordError(f"name of {seat} {problem}", f"names.{seat}")
    return dict(value)


def _deal(raw: object, index: int, rules: RuleSet, seats: tuple[str, ...],
          previous_dealer: str | None) -> Deal:
    number = index + 1
    where = f"deals[{index}]"
    if not isinstance(raw, dict):
        raise RecordError(f"a deal is an object, got {_short(raw)}", where)
    for name in raw:
        if name not in DEAL_FIELDS:
            raise RecordError(f"unknown field; known: {', '.join(DEAL_FIELDS)}",
                              f"{where}.{name}")
    kind = str(raw.get("type"))
    dealer = raw.get("dealer")
    if dealer is None:
        dealer = _implied_dealer(raw, seats, previous_dealer, where)
    talon = raw.get("talon", {})
    if not isinstance(talon, dict) or set(talon) - {"quick_tricks"}:
        raise RecordError(f"must be {{'quick_tricks': 0-3}}, got {_short(talon)}", f"{where}.talon")
    try:
        return make_deal(rules, seats, number=number, dealer=dealer, kind=kind,
                         declarer=raw.get("declarer"), contract=raw.get("contract"),
                         defence=raw.get("defence"), tricks=raw.get("tricks"),
                         talon_quick_tricks=talon.get("quick_tricks", 0))
    except RecordError as error:
        field_name = error.where.removeprefix(f"deal {number}")
        raise type(error)(error.reason, f"{where}{field_name} (deal {number})") from None


def relabel_seats(doc: dict[str, Any], seats: tuple[str, ...]) -> dict[str, Any]:
    """A copy of a valid record document with its seat letters replaced, in clockwise order,
    by ``seats`` (RECORD.md allows any letters; a printed sheet has A, B, C, D).

    >>> doc = {"seats": ["N", "E", "S"], "names": {"N": "Ivanova"}, "deals": [
    ...     {"dealer": "N", "type": "allpass", "tricks": {"N": 3, "E": 2, "S": 5}}]}
    >>> relabel_seats(doc, ("A", "B", "C"))["deals"][0]["tricks"]
    {'A': 3, 'B': 2, 'C': 5}
    """
    new = dict(zip(doc["seats"], seats, strict=True))

    def keys(mapping: dict[str, Any]) -> dict[str, Any]:
        return {new.get(k, k): v for k, v in mapping.items()}

    out = {**doc, "seats": list(seats), "names": keys(doc.get("names", {}))}
    out["deals"] = [{**deal, **{name: new.get(deal[name], deal[name])
                                for name in ("dealer", "declarer") if name in deal},
                     **{name: keys(deal[name]) for name in ("defence", "tricks")
                        if isinstance(deal.get(name), dict)}}
                    for deal in doc.get("deals", [])]
    if "written" in doc:
        out["written"] = {new[seat]: {**cols, "whists": keys(cols.get("whists", {}))}
                          for seat, cols in doc["written"].items()}
    return out


def _implied_dealer(raw: dict[str, Any], seats: tuple[str, ...], previous: str | None,
                    where: str) -> str:
    """RECORD.md: the next seat clockwise; the first deal's dealer is implied by who plays."""
    if previous is not None:
        return seats[(seats.index(previous) + 1) % len(seats)]
    if len(seats) == 3:
        return seats[0]
    playing = set(raw.get("tricks") or {}) | set(raw.get("defence") or {})
    if raw.get("declarer") is not None:
        playing.add(raw["declarer"])
    sitting_out = [seat for seat in seats if seat not in playing]
    if len(sitting_out) != 1:
        raise RecordError("with 4 players the first deal needs 'dealer' (the seat that sits "
                          "out cannot be told from this deal)", where)
    return sitting_out[0]


def _written(value: object, seats: tuple[str, ...]) -> dict[Column, tuple[Fraction, ...]]:
    if not isinstance(value, dict):
        raise RecordError(f"must be an object of seat: columns, got {_short(value)}", "written")
    written: dict[Column, tuple[Fraction, ...]] = {c: () for c in sheet_columns(seats)}
    for seat, columns in value.items():
        where = f"written.{seat}"
        if seat not in seats:
            raise RecordError(f"{_short(seat)} is not a seat ({', '.join(seats)})", where)
        if not isinstance(columns, dict):
            raise RecordError(f"must be an object with pool, mountain, whists, got "
                              f"{_short(columns)}", where)
        for kind, entries in columns.items():
            if kind in ("pool", "mountain"):
                written[Column(seat, kind)] = _totals(entries, f"{where}.{kind}")
            elif kind == "whists":
                if not isinstance(entries, dict):
                    raise RecordError(f"must be an object of opponent: totals, got "
                                      f"{_short(entries)}", f"{where}.whists")
                for other, totals in entries.items():
                    if other not in seats or other == seat:
                        raise RecordError(f"{_short(other)} is not an opponent of {seat}",
                                          f"{where}.whists")
                    written[Column(seat, "whists", other)] = _totals(
                        totals, f"{where}.whists.{other}")
            else:
                raise RecordError("unknown column; known: pool, mountain, whists",
                                  f"{where}.{kind}")
    return written


def _totals(value: object, where: str) -> tuple[Fraction, ...]:
    if not isinstance(value, list):
        raise RecordError(f"must be a list of running totals, got {_short(value)}", where)
    return tuple(parse_number(item, f"{where}[{i}]") for i, item in enumerate(value))


def parse_number(value: object, where: str) -> Fraction:
    """A JSON number or a ``"p/q"`` string as an exact fraction.

    >>> parse_number("7/2", "x"), parse_number(2.5, "x"), parse_number(4, "x")
    (Fraction(7, 2), Fraction(5, 2), Fraction(4, 1))
    """
    if isinstance(value, bool) or not isinstance(value, int | float | str) or \
            (isinstance(value, str) and len(value) > 2 * MAX_NUMBER_DIGITS):
        raise RecordError(f"expected a number, got {_short(value)}", where)
    try:
        number = Fraction(str(value))
    except (ValueError, ZeroDivisionError, OverflowError):
        raise RecordError(f"expected a number, got {_short(value)}", where) from None
    if abs(number) > MAX_TOTAL or number.denominator > MAX_TOTAL:
        raise RecordError(f"{_short(value)} is out of range (at most {MAX_TOTAL})", where)
    return number
