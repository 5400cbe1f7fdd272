"""Settlement: Codex 4.2.14 both variants, 4.2.12 remainders, 4.2.13 money."""

from __future__ import annotations

from fractions import Fraction

from scoring import RuleSet, parse_record, settle_record
from scoring.columns import Column
from scoring.settlement import round_to_zero_sum, settle


def test_unequal_pools_enter_the_settlement_at_the_pool_rate() -> None:
    columns = {Column("A", "pool"): Fraction(6)}
    sochi = settle(("A", "B", "C"), columns, pool_point_whists=10)
    leningrad = settle(("A", "B", "C"), columns, pool_point_whists=20)
    assert sochi.result == {"A": 40, "B": -20, "C": -20}
    assert leningrad.result == {"A": 80, "B": -40, "C": -40}
    assert sochi.variant1.result == sochi.variant2.result


def test_four_players_six_points_off_a_mountain_are_worth_fifteen_each() -> None:
    """Codex 4.1.1: 6 surplus points written off a mountain, 4 players: 15 whists each."""
    columns = {Column("A", "mountain"): Fraction(-6)}
    result = settle(("A", "B", "C", "D"), columns, pool_point_whists=10).result
    assert result == {"A": 45, "B": -15, "C": -15, "D": -15}


def test_money_is_whists_times_the_stake() -> None:
    doc = {"format": "pulka-record/1", "seats": ["A", "B", "C"],
           "rules": {"variant": "sochi", "players": 3, "pool": None, "stake": 0.5},
           "deals": [{"type": "contract", "declarer": "A", "contract": "6S",
                      "defence": {"B": "pass", "C": "pass"}}]}
    settlement = settle_record(parse_record(doc))
    assert settlement.money == {"A": Fraction(20, 3), "B": Fraction(-10, 3),
                                "C": Fraction(-10, 3)}


def test_rounding_keeps_the_zero_sum_and_stays_within_one() -> None:
    result = {"A": Fraction(-122, 3), "B": Fraction(-104, 3), "C": Fraction(226, 3)}
    rounded = round_to_zero_sum(("A", "B", "C"), result)
    assert rounded == {"A": -40, "B": -35, "C": 75}
    assert sum(rounded.values()) == 0


def test_codex_remainder_with_four_players() -> None:
    columns = {Column("A", "mountain"): Fraction(3), Column("B", "mountain"): Fraction(2)}
    settlement = settle(("A", "B", "C", "D"), columns, pool_point_whists=10)
    assert sum(settlement.codex_integer.values()) == 0
    assert [m.seat for m in settlement.remainders] == ["A"]  # 3 is odd: one point moved
    for seat, exact in settlement.result.items():  # 2 whists for 2.5: 1/2 per other player
        assert abs(settlement.codex_integer[seat] - exact) <= Fraction(3, 2)


def test_a_preset_rule_set_is_settled_with_its_pool_rate() -> None:
    assert RuleSet.preset("leningrad").pool_point_whists == 20
