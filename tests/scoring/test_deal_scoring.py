"""Scoring one deal under each setting (RULES.md §§3-5, 9a)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from scoring.deal_scoring import score_deal
from scoring.deals import make_deal
from scoring.rules import RuleSet


def amounts(rules: RuleSet, price: int = 1, **deal: Any) -> dict[str, Fraction]:
    """Postings of one deal summed per column, keyed like ``"B whists on A"``."""
    seats = ("A", "B", "C", "D")[:rules.players]
    deal.setdefault("dealer", "D" if rules.players == 4 else "C")
    built = make_deal(rules, seats, number=1, **deal)
    totals: dict[str, Fraction] = {}
    for posting in score_deal(built, rules, price):
        totals[str(posting.column)] = totals.get(str(posting.column), Fraction(0)) \
            + posting.amount
    return totals


SOCHI = RuleSet.preset("sochi", 3, 20)
LENINGRAD = RuleSet.preset("leningrad", 3, 20)
ROSTOV = RuleSet.preset("rostov", 3, 20)


def test_gentleman_splits_the_pair_tricks_when_the_declarer_goes_down() -> None:
    got = amounts(LENINGRAD, kind="contract", declarer="A", contract="6S",
                  defence={"B": "whist", "C": "pass"}, tricks={"A": 5, "B": 3, "C": 2})
    # 5 tricks x 2p=4 = 20, split 10/10; consolation 2p x 1 = 4 each
    assert got == {"A mountain": 4, "B whists on A": 14, "C whists on A": 14}


def test_greedy_whister_takes_all_the_pair_tricks() -> None:
    got = amounts(SOCHI, kind="contract", declarer="A", contract="6S",
                  defence={"B": "whist", "C": "pass"}, tricks={"A": 5, "B": 3, "C": 2})
    assert got == {"A mountain": 2, "B whists on A": 12, "C whists on A": 2}


def test_gentleman_on_a_made_contract_is_greedy() -> None:
    got = amounts(LENINGRAD, kind="contract", declarer="A", contract="7S",
                  defence={"B": "whist", "C": "pass"}, tricks={"A": 7, "B": 2, "C": 1})
    assert got == {"A pool": 4, "B whists on A": 24}


@pytest.mark.parametrize(("tricks", "mountains"), [
    ({"A": 7, "B": 3, "C": 0}, {"C mountain": 2}),          # pair 3 < 4: C short 2, pays 1
    ({"A": 8, "B": 1, "C": 1}, {"B mountain": 2, "C mountain": 2}),  # each short 1
    ({"A": 6, "B": 2, "C": 2}, {}),                          # duty met
])
def test_two_whisters_on_a_six_each_answer_for_half(tricks: dict[str, int],
                                                   mountains: dict[str, int]) -> None:
    got = amounts(SOCHI, kind="contract", declarer="A", contract="6S",
                  defence={"B": "whist", "C": "whist"}, tricks=tricks)
    assert {k: v for k, v in got.items() if "mountain" in k} == mountains


def test_on_an_eight_the_second_whister_pays_unless_both_pay() -> None:
    deal = {"kind": "contract", "declarer": "A", "contract": "8S",
            "defence": {"B": "whist", "C": "whist"}, "tricks": {"A": 10, "B": 0, "C": 0}}
    assert {k for k in amounts(SOCHI, **deal) if "mountain" in k} == {"C mountain"}
    both = amounts(SOCHI.with_settings(both_pay_on_high=True), **deal)
    assert both["B mountain"] == both["C mountain"] == 6


def test_half_responsibility_rates() -> None:
    deal = {"kind": "contract", "declarer": "A", "contract": "7S",
            "defence": {"B": "whist", "C": "pass"}, "tricks": {"A": 9, "B": 1, "C": 0}}
    assert amounts(ROSTOV, **deal)["B mountain"] == 2          # p/2, one short
    assert amounts(LENINGRAD, **deal)["B mountain"] == 4       # half of 2p
    assert amounts(SOCHI, **deal)["B mountain"] == 4           # responsible: p


def test_a_checked_ten_has_no_whists_but_still_costs_when_down() -> None:
    rules = SOCHI.with_settings(ten_whisted=False)
    got = amounts(rules, kind="contract", declarer="A", contract="10NT",
                  defence={"B": "pass", "C": "pass"}, tricks={"A": 9, "B": 1, "C": 0})
    assert got == {"A mountain": 10, "B whists on A": 10, "C whists on A": 10}


def test_half_whist_writes_half_the_duty() -> None:
    six = amounts(SOCHI, kind="contract", declarer="A", contract="6H",
                  defence={"B": "pass", "C": "halfwhist"})
    seven = amounts(LENINGRAD, kind="contract", declarer="A", contract="7H",
                    defence={"B": "pass", "C": "halfwhist"})
    assert six == {"A pool": 2, "C whists on A": 4}
    assert seven == {"A pool": 4, "C whists on A": 8}


def test_talon_prize_three_players_half_each_and_four_players_by_the_dealer() -> None:
    three = amounts(SOCHI.with_settings(talon_prize=True), kind="contract", declarer="A",
                    contract="6S", defence={"B": "pass", "C": "pass"}, talon_quick_tricks=3)
    assert three == {"A pool": 2, "B whists on A": 3, "C whists on A": 3}
    four = amounts(RuleSet.preset("sochi", 4, 20), kind="contract", declarer="A",
                   contract="6S", defence={"B": "pass", "C": "pass"}, talon_quick_tricks=2)
    assert four == {"A pool": 2, "D whists on A": 4}


def test_dealer_consolation_with_four_players() -> None:
    rules = RuleSet.preset("sochi", 4, 20)
    deal = {"kind": "contract", "declarer": "A", "contract": "6S",
            "defence": {"B": "whist", "C": "pass"}, "tricks": {"A": 5, "B": 5, "C": 0}}
    assert amounts(rules, **deal)["D whists on A"] == 2
    assert "D whists on A" not in amounts(rules.with_settings(dealer_consolation=False), **deal)


def test_misere() -> None:
    made = amounts(SOCHI, kind="misere", declarer="A", tricks={"A": 0, "B": 5, "C": 5})
    caught = amounts(LENINGRAD, kind="misere", declarer="A", tricks={"A": 2, "B": 4, "C": 4})
    consoled = amounts(SOCHI.with_settings(misere_consolation=True), kind="misere",
                       declarer="A", tricks={"A": 1, "B": 4, "C": 5})
    assert made == {"A pool": 10}
    assert caught == {"A mountain": 40}
    assert consoled == {"A mountain": 10, "B whists on A": 10, "C whists on A": 10}


def test_allpass_mountain_and_zero_trick_bonus() -> None:
    got = amounts(SOCHI, price=2, kind="allpass", tricks={"A": 6, "B": 4, "C": 0})
    assert got == {"A mountain": 12, "B mountain": 8, "C pool": 2}


def test_allpass_dealer_bonus_with_four_players() -> None:
    rules = RuleSet.preset("sochi", 4, 20).with_settings(allpass_dealer_bonus=True)
    got = amounts(rules, price=1, kind="allpass", tricks={"A": 6, "B": 4, "C": 0})
    assert got["D pool"] == 1 and got["C pool"] == 1


def test_rostov_allpass_whists_and_tied_minimum() -> None:
    sole = amounts(ROSTOV, kind="allpass", tricks={"A": 5, "B": 3, "C": 2})
    assert sole == {"C whists on A": 25, "C whists on B": 15}
    tied = amounts(ROSTOV, kind="allpass", tricks={"A": 4, "B": 3, "C": 3})
    assert tied == {"B whists on A": 10, "C whists on A": 10}
    zero = amounts(ROSTOV, kind="allpass", tricks={"A": 6, "B": 4, "C": 0})
    assert zero == {"C whists on A": 30, "C whists on B": 20, "C pool": 1}


def test_stalingrad_is_legal_with_both_whists() -> None:
    rules = SOCHI.with_settings(stalingrad=True)
    got = amounts(rules, kind="contract", declarer="A", contract="6S",
                  defence={"B": "whist", "C": "whist"}, tricks={"A": 6, "B": 2, "C": 2})
    assert got["A pool"] == 2
