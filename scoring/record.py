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

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from scoring.columns import Column, sheet_columns
from scoring.deals import Deal, make_deal
from scoring.errors import RecordError
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
        problem(RecordError(f"must be {FORMAT!r}, got {doc.get('format')!r}", "format"))
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
    deals: list[Deal] = []
    raw_deals = doc.get("deals")
    if not isinstance(raw_deals, list):
        problem(RecordError(f"must be a list of deals, got {raw_deals!r}", "deals"))
        raw_deals = []
    previous_dealer: str | None = None
    for index, raw in enumerate(raw_deals):
        try:
            deal = _deal(raw, index, rules, seats, previous_dealer)
        except RecordError as error:
            problem(error)
            break  # the dealers of later deals depend on this one
        deals.append(deal)
        previous_dealer = deal.dealer
    written = None
    if "written" in doc:
        try:
            written = _written(doc["written"], seats)
        except RecordError as error:
            problem(error)
    end = doc.get("end")
    if end not in (None, END_BY_CONSENT):
        problem(RecordError(f"must be {END_BY_CONSENT!r} (stopped by consent, 4.2.3) or "
                            f"absent, got {end!r}", "end"))
    if problems:
        return problems
    return GameRecord(rules, seats, tuple(deals), names, written, end == END_BY_CONSENT)


def _seats(value: object, rules: RuleSet | None) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(s, str) and s.strip() for s in value):
        raise RecordError(f"must be a list of seat letters, got {value!r}", "seats")
    if len(set(value)) != len(value):
        raise RecordError(f"seat letters must be unique, got {', '.join(value)}", "seats")
    if rules is not None and len(value) != rules.players:
        raise RecordError(f"{len(value)} seats for {rules.players} players", "seats")
    return tuple(value)


def _names(value: object, seats: tuple[str, ...]) -> dict[str, str]:
    if not isinstance(value, dict):
        raise RecordError(f"must be an object of seat: name, got {value!r}", "names")
    for seat, name in value.items():
        if seat not in seats:
            raise RecordError(f"{seat!r} is not a seat ({', '.join(seats)})", "names")
        if not isinstance(name, str):
            raise RecordError(f"name of {seat} must be text, got {name!r}", "names")
    return dict(value)


def _deal(raw: object, index: int, rules: RuleSet, seats: tuple[str, ...],
          previous_dealer: str | None) -> Deal:
    number = index + 1
    where = f"deals[{index}]"
    if not isinstance(raw, dict):
        raise RecordError(f"a deal is an object, got {raw!r}", where)
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
        raise RecordError(f"must be {{'quick_tricks': 0-3}}, got {talon!r}", f"{where}.talon")
    try:
        return make_deal(rules, seats, number=number, dealer=dealer, kind=kind,
                         declarer=raw.get("declarer"), contract=raw.get("contract"),
                         defence=raw.get("defence"), tricks=raw.get("tricks"),
                         talon_quick_tricks=talon.get("quick_tricks", 0))
    except RecordError as error:
        field_name = error.where.removeprefix(f"deal {number}")
        raise type(error)(error.reason, f"{where}{field_name} (deal {number})") from None


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
        raise RecordError(f"must be an object of seat: columns, got {value!r}", "written")
    written: dict[Column, tuple[Fraction, ...]] = {c: () for c in sheet_columns(seats)}
    for seat, columns in value.items():
        where = f"written.{seat}"
        if seat not in seats:
            raise RecordError(f"{seat!r} is not a seat ({', '.join(seats)})", where)
        if not isinstance(columns, dict):
            raise RecordError(f"must be an object with pool, mountain, whists, got {columns!r}",
                              where)
        for kind, entries in columns.items():
            if kind in ("pool", "mountain"):
                written[Column(seat, kind)] = _totals(entries, f"{where}.{kind}")
            elif kind == "whists":
                if not isinstance(entries, dict):
                    raise RecordError(f"must be an object of opponent: totals, got {entries!r}",
                                      f"{where}.whists")
                for other, totals in entries.items():
                    if other not in seats or other == seat:
                        raise RecordError(f"{other!r} is not an opponent of {seat}",
                                          f"{where}.whists")
                    written[Column(seat, "whists", other)] = _totals(
                        totals, f"{where}.whists.{other}")
            else:
                raise RecordError("unknown column; known: pool, mountain, whists",
                                  f"{where}.{kind}")
    return written


def _totals(value: object, where: str) -> tuple[Fraction, ...]:
    if not isinstance(value, list):
        raise RecordError(f"must be a list of running totals, got {value!r}", where)
    return tuple(parse_number(item, f"{where}[{i}]") for i, item in enumerate(value))


def parse_number(value: object, where: str) -> Fraction:
    """A JSON number or a ``"p/q"`` string as an exact fraction.

    >>> parse_number("7/2", "x"), parse_number(2.5, "x"), parse_number(4, "x")
    (Fraction(7, 2), Fraction(5, 2), Fraction(4, 1))
    """
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise RecordError(f"expected a number, got {value!r}", where)
    try:
        return Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise RecordError(f"expected a number, got {value!r}", where) from None
