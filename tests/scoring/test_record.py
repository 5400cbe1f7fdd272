"""Malformed records: one clear message each, never a traceback (issue 2)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from scoring import RecordError, parse_record, record_problems
from scoring.errors import IllegalDealError, InvalidNotationError, RuleSetError

EXAMPLE = json.loads((Path(__file__).parents[2] / "samples" / "records" /
                      "record_md_example.json").read_text(encoding="utf-8"))


def changed(path: str, value: Any) -> dict[str, Any]:
    """The RECORD.md example with one field replaced (``a.b.0.c``); value ``...`` deletes."""
    doc = copy.deepcopy(EXAMPLE)
    *parents, last = path.split(".")
    target: Any = doc
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    key: Any = int(last) if isinstance(target, list) else last
    if value is ...:
        del target[key]
    else:
        target[key] = value
    return doc


MALFORMED = [
    (changed("format", "pulka-record/2"), RecordError, "format: must be 'pulka-record/1'"),
    (changed("rules.variant", "moscow"), RuleSetError, "rules.variant: unknown variant 'moscow'"),
    (changed("rules.players", 5), RuleSetError, "rules.players: must be 3 or 4, got 5"),
    (changed("rules.pool", -3), RuleSetError, "rules.pool: must be a positive whole number"),
    (changed("rules.pool", ...), RuleSetError, "rules.pool: required setting missing"),
    (changed("rules.colour", "red"), RuleSetError, "rules.colour: unknown setting"),
    (changed("rules.ten_whisted", "yes"), RuleSetError, "rules.ten_whisted: must be true or"),
    (changed("rules.allpass_progression", "1, two"), RuleSetError,
     "rules.allpass_progression: '1, two' is not a list of prices"),
    (changed("rules.stake", "lots"), RuleSetError, "rules.stake: must be a number"),
    (changed("seats", ["A", "B"]), RecordError, "seats: 2 seats for 3 players"),
    (changed("seats", "ABC"), RecordError, "seats: must be a list of seat letters"),
    (changed("names.Z", "Zoe"), RecordError, "names: 'Z' is not a seat"),
    (changed("deals", {}), RecordError, "deals: must be a list of deals"),
    (changed("deals.0", 7), RecordError, "deals[0]: a deal is an object, got 7"),
    (changed("deals.0.bid", "6S"), RecordError, "deals[0].bid: unknown field"),
    (changed("deals.0.tricks.B", 7), IllegalDealError,
     "deals[0] (deal 1): tricks sum to 11, not 10"),
    (changed("deals.0.tricks.B", "six"), RecordError, "tricks of B must be a whole number"),
    (changed("deals.0.tricks", {"B": 6, "C": 4}), IllegalDealError,
     "tricks must name exactly the players in the deal"),
    (changed("deals.0.contract", "6X"), InvalidNotationError,
     "deals[0].contract (deal 1): '6X' is not a contract"),
    (changed("deals.0.contract", "11S"), InvalidNotationError, "'11S' is not a contract"),
    (changed("deals.0.declarer", "Q"), IllegalDealError, "declarer 'Q': not a player"),
    (changed("deals.0.defence", {"C": "double", "A": "pass"}), RecordError,
     "call of C must be whist, pass or halfwhist, got 'double'"),
    (changed("deals.0.defence", {"C": "pass", "A": "pass"}), IllegalDealError,
     "both defenders passed, so the deal was not played"),
    (changed("deals.0.tricks", ...), IllegalDealError, "someone whisted, so the deal was played"),
    (changed("deals.3.defence", {"A": "whist", "B": "pass"}), IllegalDealError,
     "deal 4): a misère is not whisted"),
    (changed("deals.2.contract", "8H"), IllegalDealError,
     "a half-whist is only allowed on 6 and 7, not on 8"),
    (changed("deals.0.type", "bomb"), RecordError, "type 'bomb' is not contract, misere or"),
    (changed("deals.0.dealer", "Z"), RecordError, "dealer 'Z' is not a seat"),
    (changed("deals.0.talon", {"quick_tricks": 5}), RecordError, "talon quick tricks must be"),
    (changed("deals.4.declarer", "A"), IllegalDealError, "an all-pass has no declarer"),
    (changed("written.A.pool", [2, "x"]), RecordError, "written.A.pool[1]: expected a number"),
    (changed("written.A.whists.A", [1]), RecordError, "'A' is not an opponent of A"),
    (changed("written.A.bonus", []), RecordError, "written.A.bonus: unknown column"),
    (changed("end", "tired"), RecordError, "end: must be 'consent'"),
    ([1, 2], RecordError, "a record is a JSON object, got list"),
]


@pytest.mark.parametrize(("doc", "error", "message"), MALFORMED,
                         ids=[m[2][:40] for m in MALFORMED])
def test_one_clear_message(doc: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as raised:
        parse_record(doc)
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_lenient_mode_collects_every_problem() -> None:
    doc = changed("rules.variant", "moscow")
    doc["colour"] = "red"
    doc["format"] = "x"
    problems = record_problems(doc)
    assert len(problems) == 3
    assert record_problems(EXAMPLE) == []


def test_stalingrad_requires_both_whists() -> None:
    doc = changed("rules.stalingrad", True)
    with pytest.raises(IllegalDealError, match="Stalingrad: on 6♠ both defenders must whist"):
        parse_record(doc)


def test_four_player_dealer_cannot_play() -> None:
    doc = {"format": "pulka-record/1", "rules": {"variant": "sochi", "players": 4, "pool": 10},
           "seats": ["A", "B", "C", "D"],
           "deals": [{"dealer": "A", "type": "misere", "declarer": "A",
                      "tricks": {"B": 0, "C": 5, "D": 5}}]}
    with pytest.raises(IllegalDealError, match="the dealer sits out with 4 players"):
        parse_record(doc)


def test_dealer_rotates_when_absent() -> None:
    doc = {"format": "pulka-record/1", "rules": {"variant": "sochi", "players": 4, "pool": 10},
           "seats": ["A", "B", "C", "D"],
           "deals": [{"type": "allpass", "tricks": {"B": 3, "C": 3, "D": 4}},
                     {"type": "allpass", "tricks": {"C": 3, "D": 3, "A": 4}}]}
    assert [d.dealer for d in parse_record(doc).deals] == ["A", "B"]


@pytest.mark.parametrize("where", ["rules", "deal"])
def test_a_field_name_with_a_newline_is_refused_in_one_line(where: str) -> None:
    doc = copy.deepcopy(EXAMPLE)
    if where == "rules":
        doc["rules"]["bad\nname"] = 1
    else:
        doc["deals"][0]["bad\nname"] = 1
    with pytest.raises(RecordError) as raised:
        parse_record(doc)
    assert "\n" not in str(raised.value) and "bad\\nname" in str(raised.value)
