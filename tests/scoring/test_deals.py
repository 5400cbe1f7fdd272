"""make_deal's verdicts depend on the rules only through legality_rules (RULES.md §3)."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given, settings

from scoring.deals import legality_rules, make_deal
from scoring.errors import RecordError
from scoring.rules import RuleSet
from tests.scoring.strategies import rule_sets

SEATS = ("A", "B", "C")
CALL_PAIRS = list(itertools.product(("whist", "pass", "halfwhist"), repeat=2))


def deals() -> list[dict[str, Any]]:
    """Contracts on 6♠, 7♥ and 10 with every pair of calls, played and not, with and
    without a talon prize; misères and all-passes."""
    found: list[dict[str, Any]] = []
    for contract, (first, second), played, quick in itertools.product(
            ("6S", "7H", "10NT"), CALL_PAIRS, (False, True), (0, 1)):
        deal: dict[str, Any] = {"kind": "contract", "declarer": "A", "contract": contract,
                                "defence": {"B": first, "C": second},
                                "talon_quick_tricks": quick}
        if played:
            deal["tricks"] = {"A": 6, "B": 2, "C": 2}
        found.append(deal)
    found.append({"kind": "misere", "declarer": "B", "tricks": {"A": 5, "B": 0, "C": 5}})
    found.append({"kind": "allpass", "tricks": {"A": 3, "B": 3, "C": 4}})
    return found


def verdicts(rules: RuleSet) -> list[bool]:
    """Whether make_deal accepts each of :func:`deals` under ``rules``."""
    accepted = []
    for deal in deals():
        try:
            make_deal(rules, SEATS, number=1, dealer="C", **deal)
        except RecordError:
            accepted.append(False)
        else:
            accepted.append(True)
    return accepted


@settings(max_examples=40, deadline=None)
@given(rule_sets(players=(3,)), rule_sets(players=(3,)))
def test_rule_sets_with_the_same_legality_rules_accept_the_same_deals(
        first: RuleSet, second: RuleSet) -> None:
    same = legality_rules(first) == legality_rules(second)
    assert (verdicts(first) == verdicts(second)) == same


def test_every_legality_setting_changes_some_verdict() -> None:
    base = RuleSet.preset("sochi")
    accepted = verdicts(base)
    assert any(accepted) and not all(accepted)
    for name in ("ten_whisted", "stalingrad"):
        changed = base.with_settings(**{name: not getattr(base, name)})
        assert verdicts(changed) != accepted, name
