"""Random legal games, for property tests, benchmarks and sample sheets.

:func:`random_record` plays a whole pulka with plausible bidding (sixes and sevens most often,
a few misères and all-passes) until the pool closes; :func:`written_columns` writes the
expected sheet as a player would (RECORD.md ``written``); :func:`inject_errors` makes the
players' hand commit recording errors of the kinds the audit knows, and lists them.

>>> import random
>>> from scoring.record import parse_record
>>> doc = random_record(RuleSet.preset("sochi", 3, 10), random.Random(7))
>>> record = parse_record(doc)
>>> len(record.deals) > 3
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scoring.columns import Column
from scoring.record import FORMAT, parse_record
from scoring.rules import RuleSet
from scoring.sheet import ExpectedSheet, expected_sheet

SEATS = ("A", "B", "C", "D")
SUITS = ("S", "C", "D", "H", "NT")
LEVEL_WEIGHTS = {6: 50, 7: 28, 8: 12, 9: 6, 10: 4}
MAX_DEALS = 150
"""A game that has not closed after this many deals stops there (a game by time)."""
DEALS_PER_TRY = 30
"""Deals added at a time before checking whether the pool has closed."""


def random_record(rules: RuleSet, rng: random.Random, deals: int | None = None) -> dict[str, Any]:
    """A ``pulka-record/1`` document of a random legal game under ``rules``.

    It plays until the pool closes (or ``deals`` deals, or :data:`MAX_DEALS` for a game by
    time), so the last deal is the one that ends the game.
    """
    seats = SEATS[:rules.players]
    doc: dict[str, Any] = {"format": FORMAT, "rules": rules.settings(), "seats": list(seats),
                           "deals": []}
    if deals is not None:
        doc["deals"] = [random_deal(rules, seats, seats[n % len(seats)], rng)
                        for n in range(deals)]
        return doc
    ended_with = None
    while ended_with is None and len(doc["deals"]) < MAX_DEALS:
        for _ in range(DEALS_PER_TRY):
            dealer = seats[len(doc["deals"]) % len(seats)]
            doc["deals"].append(random_deal(rules, seats, dealer, rng))
        ended_with = expected_sheet(parse_record(doc)).ended_with
    del doc["deals"][ended_with or MAX_DEALS:]
    return doc


def random_deal(rules: RuleSet, seats: tuple[str, ...], dealer: str, rng: random.Random
                ) -> dict[str, Any]:
    """One legal deal as a record's JSON object."""
    start = seats.index(dealer)
    players = [seats[(start + i) % len(seats)] for i in range(1, len(seats) + 1)]
    if len(seats) == 4:
        players = players[:3]
    roll = rng.random()
    if roll < 0.12:
        return {"dealer": dealer, "type": "allpass", "tricks": _split(players, rng)}
    declarer = rng.choice(players)
    if roll < 0.18:
        tricks = _split(players, rng, {declarer: rng.choice([0, 0, 0, 1, 2])})
        return {"dealer": dealer, "type": "misere", "declarer": declarer, "tricks": tricks}
    level = rng.choices(list(LEVEL_WEIGHTS), weights=list(LEVEL_WEIGHTS.values()))[0]
    suit = rng.choice(SUITS)
    start = players.index(declarer)
    first, second = players[(start + 1) % 3], players[(start + 2) % 3]
    deal: dict[str, Any] = {"dealer": dealer, "type": "contract", "declarer": declarer,
                            "contract": f"{level}{suit}"}
    if rules.talon_prize and rng.random() < 0.3:
        deal["talon"] = {"quick_tricks": rng.randint(1, 3)}
    checked_ten = level == 10 and not rules.ten_whisted
    stalingrad = rules.stalingrad and level == 6 and suit == "S"
    calls = rng.choices([("whist", "whist"), ("whist", "pass"), ("pass", "whist"),
                         ("pass", "pass"), ("pass", "halfwhist")], weights=[3, 4, 2, 2, 1])[0]
    if stalingrad:
        calls = ("whist", "whist")
    elif checked_ten or calls[1] == "halfwhist" and level > 7:
        calls = ("pass", "pass")
    deal["defence"] = {first: calls[0], second: calls[1]}
    if "whist" in calls or checked_ten:
        taken = max(0, min(10, level + rng.choice([-2, -1, -1, 0, 0, 0, 0, 0, 1, 1, 2])))
        deal["tricks"] = _split(players, rng, {declarer: taken})
    return deal


def _split(players: list[str], rng: random.Random, fixed: dict[str, int] | None = None
           ) -> dict[str, int]:
    """Ten tricks shared at random among the players, some counts fixed."""
    fixed = dict(fixed or {})
    free = [p for p in players if p not in fixed]
    left = 10 - sum(fixed.values())
    for player in free[:-1]:
        fixed[player] = rng.randint(0, left)
        left -= fixed[player]
    fixed[free[-1]] = left
    return {p: fixed[p] for p in players}


def written_columns(sheet: ExpectedSheet) -> dict[str, Any]:
    """The ``written`` part of a record, as a careful player writes the expected sheet.

    The end-of-game correction is left out: RECORD.md's ``written`` is what was written during
    play.
    """
    seats = sheet.seats
    written: dict[str, Any] = {s: {"pool": [], "mountain": [],
                                   "whists": {o: [] for o in seats if o != s}} for s in seats}
    for entry in sheet.entries:
        if entry.deal is None:
            continue
        column = entry.column
        target = written[column.seat]["whists"][column.on] if column.on else \
            written[column.seat][column.kind]
        target.append(_number(entry.total))
    return written


@dataclass(frozen=True)
class InjectedError:
    """A recording error put into a written column on purpose (the ground truth)."""

    kind: str
    column: Column
    entry: int
    """1-based position in the column after injection."""
    deal: int | None
    detail: str


def inject_errors(record_doc: dict[str, Any], count: int, rng: random.Random
                  ) -> tuple[dict[str, Any], list[InjectedError]]:
    """A copy of the record whose ``written`` part has ``count`` recording errors: a slip in
    a running total (carried on by later entries), a wrong amount, a missing entry, or a
    correction (a wrong value followed by the right one, 4.2.7). At most one per column, and
    none that takes a pool or whists total below zero (only the mountain has a minus sign)."""
    doc = {**record_doc, "written": _deep_copy(record_doc["written"])}
    columns = [(seat, kind, on) for seat, cols in doc["written"].items()
               for kind, on in [("pool", None), ("mountain", None)]
               + [("whists", o) for o in cols["whists"]]]
    targets = [c for c in columns if len(_entries(doc, c)) >= 2]
    rng.shuffle(targets)
    sheet = expected_sheet(parse_record(record_doc))
    injected: list[InjectedError] = []
    for seat, kind, on in targets:
        if len(injected) == count:
            break
        entries = _entries(doc, (seat, kind, on))
        column = Column(seat, kind, on)
        deals = [e.deal for e in sheet.column(column) if e.deal is not None]
        index = rng.randrange(len(entries))
        error = rng.choice(["slip", "wrong_amount", "missing", "correction"])
        changed = _committed(error, list(entries), index, rng)
        if kind != "mountain" and min(changed) < 0:
            continue  # only the mountain has a minus sign: no pen writes this total
        entries[:] = changed
        detail = f"{error} at entry {index + 1} of {column}"
        injected.append(InjectedError(error, column, index + 1, deals[index], detail))
    return doc, injected


def _committed(error: str, entries: list[Any], index: int, rng: random.Random) -> list[Any]:
    """``entries`` with one recording error of kind ``error`` made at ``index``."""
    step = entries[index] - (entries[index - 1] if index else 0)
    if error == "slip":
        delta = rng.choice([-3, -1, 1, 3, 7])
        for later in range(index, len(entries)):
            entries[later] += delta
    elif error == "wrong_amount":
        unit = 10 if step % 10 == 0 else 2
        delta = rng.choice([-unit, unit])
        if step + delta == 0:
            delta = unit
        for later in range(index, len(entries)):
            entries[later] += delta
    elif error == "missing":
        del entries[index]
        for later in range(index, len(entries)):
            entries[later] -= step
    else:
        wrong = entries[index] + rng.choice([-2, 2, 10])
        entries.insert(index, wrong)
    return entries


def _entries(doc: dict[str, Any], key: tuple[str, str, str | None]) -> list[Any]:
    """The written list of one column, to be changed in place."""
    seat, kind, on = key
    columns = doc["written"][seat]
    entries: list[Any] = columns["whists"][on] if on else columns[kind]
    return entries


def _deep_copy(written: dict[str, Any]) -> dict[str, Any]:
    return {seat: {"pool": list(cols["pool"]), "mountain": list(cols["mountain"]),
                   "whists": {o: list(v) for o, v in cols["whists"].items()}}
            for seat, cols in written.items()}


def _number(value: Fraction) -> int | float:
    return value.numerator if value.denominator == 1 else float(value)
