"""The rules engine's reasons (pulka/report/reasons.py): every reason random games of every
variant and table size produce is one of the forms pulka says again in ru and uk, nested
help reasons too, and English comes back unchanged."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from pulka import i18n
from pulka.report.reasons import known, reason_text
from scoring.random_games import random_record
from scoring.record import parse_record
from scoring.rules import RuleSet
from scoring.sheet import expected_sheet

RULES = [{"variant": v, "players": p, "pool": 10, **extra}
         for v in ("sochi", "leningrad", "rostov") for p in (3, 4)
         for extra in ({}, {"talon_prize": True, "one_whister": "half",
                            "allpass_dealer_bonus": True, "misere_consolation": True})]


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use_language("en")


def engine_reasons() -> set[str]:
    """Every reason the expected sheets of random games hold."""
    reasons = set()
    for n, settings in enumerate(RULES):
        try:
            rules = RuleSet.from_settings(settings)
        except ValueError:
            rules = RuleSet.from_settings({k: settings[k] for k in ("variant", "players",
                                                                     "pool")})
        for seed in range(15):
            doc = random_record(rules, random.Random(100 * n + seed))
            for entry in expected_sheet(parse_record(doc)).entries:
                reasons.update(entry.reasons)
    return reasons


def test_every_reason_of_the_engine_is_a_known_form() -> None:
    reasons = engine_reasons()
    assert len(reasons) > 50
    assert sorted(r for r in reasons if not known(r)) == []
    assert any(r.startswith("help from") for r in reasons)
    for reason in reasons:
        assert reason_text(reason) == reason


@pytest.mark.parametrize(("language", "reason", "expected"), [
    ("ru", "help from B (6♣ not played, all passed)",
     "помощь от B (6♣ не сыграна, все спасовали)"),
    ("uk", "whists for 4 tricks x 2", "вісти за взятки: 4 x 2"),
    ("ru", "misère caught with 2", "мизер пойман с 2"),
    ("uk", "all-pass, 3 tricks x 2", "розпаси, взятки: 3 x 2"),
])
def test_reasons_in_russian_and_ukrainian(language: str, reason: str, expected: str) -> None:
    i18n.use_language(language)
    assert reason_text(reason) == expected


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_no_reason_is_left_in_english(language: str) -> None:
    reasons = engine_reasons()
    i18n.use_language(language)
    english = {r for r in reasons if reason_text(r) == r and any(c.isalpha() and c.isascii()
                                                                 for c in r.replace("x", ""))}
    assert english == set()
