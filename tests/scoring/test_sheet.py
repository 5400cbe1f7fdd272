"""Closing the pool and the expected sheet (RULES.md §6, Codex 4.1.1, 4.2.3)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import RuleSet, expected_sheet, parse_record
from scoring.columns import Column
from scoring.random_games import random_record
from scoring.sheet import SheetWriter


def record(variant: str, pool: int | None, deals: list[dict[str, Any]], players: int = 3,
           **extra: Any) -> Any:
    return parse_record({"format": "pulka-record/1", "seats": ["A", "B", "C", "D"][:players],
                         "rules": {"variant": variant, "players": players, "pool": pool},
                         "deals": deals, **extra})


def passed(declarer: str, contract: str, seats: str = "ABC") -> dict[str, Any]:
    return {"type": "contract", "declarer": declarer, "contract": contract,
            "defence": {s: "pass" for s in seats if s != declarer}}


def test_help_goes_to_the_largest_open_pool_ties_to_the_left() -> None:
    sheet = expected_sheet(record("sochi", 4, [passed("A", "6S"), passed("A", "7S")]))
    # A: 2 + 4 = 6 > 4; 2 points over, B and C both at 0: B is left of A
    assert sheet.totals[Column("A", "pool")] == 4
    assert sheet.totals[Column("B", "pool")] == 2
    assert sheet.totals[Column("A", "whists", "B")] == 20


def test_surplus_comes_off_the_own_mountain_when_nobody_can_be_helped() -> None:
    deals = [passed("A", "6S"), passed("B", "6S"), passed("C", "6S"), passed("A", "8S")]
    sheet = expected_sheet(record("sochi", 2, deals))
    assert sheet.totals[Column("A", "mountain")] == -6  # below zero (4.1.1)
    assert sheet.finished and sheet.ended_with == 3
    assert any("after the game ended" in w for w in sheet.warnings)


def test_a_pool_entry_is_one_per_column_per_deal_in_order() -> None:
    sheet = expected_sheet(record("sochi", 4, [passed("A", "6S"), passed("A", "7S")]))
    entries = [str(e) for e in sheet.entries]
    assert entries == ["A pool +2 = 2 (deal 1)", "A pool +2 = 4 (deal 2)",
                       "A whists on B +20 = 20 (deal 2)", "B pool +2 = 2 (deal 2)"]


def test_game_by_time_never_closes() -> None:
    sheet = expected_sheet(record("sochi", None, [passed("A", "10S")] * 5))
    assert not sheet.finished and sheet.totals[Column("A", "pool")] == 50


def test_stopped_by_consent_writes_what_is_lacking_onto_the_mountain() -> None:
    sheet = expected_sheet(record("sochi", 10, [passed("A", "6S")], end="consent"))
    closing = {str(e.column): e.amount for e in sheet.entries if e.deal is None}
    assert closing == {"A mountain": 8, "B mountain": 10, "C mountain": 10}
    assert sheet.finished


def test_allpass_progression_resets_after_a_contract() -> None:
    allpass = {"type": "allpass", "tricks": {"A": 4, "B": 3, "C": 3}}
    sheet = expected_sheet(record("sochi", None, [allpass, allpass, allpass,
                                                  passed("A", "6S"), allpass]))
    mountain = [e.amount for e in sheet.column(Column("A", "mountain"))]
    assert mountain == [4, 8, 8, 4]  # prices 1, 2, 2, then 1 again


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(("sochi", "leningrad", "rostov")), st.sampled_from((3, 4)),
       st.sampled_from((None, 6, 10)), st.integers(0, 2**32), st.data())
def test_a_writer_resumed_from_a_copy_writes_the_whole_sheet(
        variant: str, players: int, pool: int | None, seed: int, data: st.DataObject) -> None:
    game = parse_record(random_record(RuleSet.preset(variant, players, pool),
                                      random.Random(seed)))
    split = data.draw(st.integers(0, len(game.deals)))
    writer = SheetWriter(game.rules, game.seats)
    for deal in game.deals[:split]:
        writer.add(deal)
    before = writer.sheet()
    resumed = writer.copy()
    for deal in game.deals[split:]:
        written_before = resumed.entries
        assert written_before + resumed.add(deal) == resumed.entries  # add's own entries
    assert resumed.sheet(game.ended_by_consent) == expected_sheet(game)
    assert writer.sheet() == before  # the copy went on alone
