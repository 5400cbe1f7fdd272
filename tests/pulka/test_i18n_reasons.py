"""The rules engine's reasons (scoring.reasons), said by pulka from their codes
(pulka/report/said_text.py): every reason random games of every variant and table size
produce knows its code, nested help reasons too; English comes back unchanged, and ru and uk
leave no English."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from pulka import i18n
from pulka import notes as pulka_words
from pulka.report.said_text import said_text
from pulka.report.text import totals_text
from scanner import words as scanner_words
from scoring import reasons as engine_words
from scoring.random_games import random_record
from scoring.reasons import said
from scoring.record import parse_record
from scoring.rules import RuleSet
from scoring.said import Said
from scoring.sheet import expected_sheet

RULES = [{"variant": v, "players": p, "pool": 10, **extra}
         for v in ("sochi", "leningrad", "rostov") for p in (3, 4)
         for extra in ({}, {"talon_prize": True, "one_whister": "half",
                            "allpass_dealer_bonus": True, "misere_consolation": True})]


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use_language("en")


def known(reason: str) -> bool:
    """Whether ``reason`` knows its code, an engine's one, and so do the reasons in it."""
    return isinstance(reason, Said) and reason.code in engine_words.WORDS and all(
        known(p) for p in reason.params.values() if isinstance(p, Said))


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


def test_every_reason_of_the_engine_knows_its_code() -> None:
    reasons = engine_reasons()
    assert len(reasons) > 50
    assert sorted(r for r in reasons if not known(r)) == []
    assert any(r.startswith("help from") for r in reasons)
    for reason in reasons:
        assert said_text(reason) == reason


def test_the_codes_of_the_engine_the_scanner_and_pulka_are_apart() -> None:
    codes = [*engine_words.WORDS, *scanner_words.WORDS, *pulka_words.WORDS]
    assert len(codes) == len(set(codes))


@pytest.mark.parametrize(("language", "reason", "expected"), [
    ("ru", said("help_from", helper="B", reason=said("not_played", contract="6♣")),
     "помощь от B (6♣ не сыграна, все спасовали)"),
    ("uk", said("whists_for", tricks=4, price="2"), "вісти за взятки: 4 x 2"),
    ("ru", said("misere_caught", taken=2), "мизер пойман с 2"),
    ("uk", said("allpass", tricks=3, price=2), "розпаси, взятки: 3 x 2"),
    ("uk", said("down", contract=said("misere"), down=1), "мізер: без 1"),
])
def test_reasons_in_russian_and_ukrainian(language: str, reason: str, expected: str) -> None:
    i18n.use_language(language)
    assert said_text(reason) == expected


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_no_reason_is_left_in_english(language: str) -> None:
    reasons = engine_reasons()
    i18n.use_language(language)
    english = {r for r in reasons if said_text(r) == r and any(c.isalpha() and c.isascii()
                                                                 for c in r.replace("x", ""))}
    assert english == set()


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "warning: deal 10 was recorded after the game ended with deal 9; it is scored anyway"),
    ("ru", "сдача 10 записана после того, как игра закончилась сдачей 9"),
    ("uk", "роздачу 10 записано після того, як гра закінчилася роздачею 9"),
])
def test_a_deal_after_the_end_is_warned_of_in_the_language(language: str, expected: str
                                                           ) -> None:
    doc = random_record(RuleSet.from_settings(RULES[0]), random.Random(1))
    doc["deals"].append(doc["deals"][-1])
    record = parse_record(doc)
    sheet = expected_sheet(record)
    assert [w.code for w in sheet.warnings] == ["after_end"]  # type: ignore[attr-defined]
    i18n.use_language(language)
    assert expected in totals_text(record, sheet)
