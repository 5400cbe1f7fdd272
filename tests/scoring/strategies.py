"""Hypothesis strategies shared by the scoring tests."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from scoring import RuleSet

VARIANTS = ("sochi", "leningrad", "rostov")
SETTING_FLAGS = ("ten_whisted", "talon_prize", "dealer_consolation", "both_pay_on_high",
                 "stalingrad", "misere_consolation", "allpass_dealer_bonus")


@st.composite
def rule_sets(draw: st.DrawFn, players: tuple[int, ...] = (3, 4)) -> RuleSet:
    """Any variant, table size (one of ``players``) and pool, with every optional setting
    drawn (RULES.md §3)."""
    variant = draw(st.sampled_from(VARIANTS))
    pool = draw(st.sampled_from((None, 6, 10, 20)))
    changes: dict[str, Any] = {name: draw(st.booleans()) for name in SETTING_FLAGS}
    changes["whist_responsibility"] = draw(st.sampled_from(("responsible", "half")))
    changes["one_whister"] = draw(st.sampled_from(("greedy", "gentleman")))
    return RuleSet.preset(variant, draw(st.sampled_from(players)), pool).with_settings(**changes)
