"""Findings in words (pulka/report/finding_text.py): made from the rules engine's codes and
parameters, identical to the engine's English sentence in English, translated in ru and uk
with plural and glossary words; the audit command prints them in the chosen language."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from pulka import i18n
from pulka.cli.main import main
from pulka.report.finding_text import finding_text, findings_text
from scoring.audit import Finding, audit
from scoring.columns import Column
from scoring.random_games import inject_errors, random_record, written_columns
from scoring.record import parse_record
from scoring.rules import RuleSet
from scoring.sheet import expected_sheet


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use_language("en")


def faulty_games() -> list[dict]:
    """Random games of each variant with three recording errors each."""
    games = []
    for seed in range(12):
        rng = random.Random(seed)
        for variant, players in (("sochi", 3), ("leningrad", 4), ("rostov", 3)):
            rules = RuleSet.from_settings({"variant": variant, "players": players, "pool": 20})
            doc = random_record(rules, rng)
            doc["written"] = written_columns(expected_sheet(parse_record(doc)))
            games.append(inject_errors(doc, 3, rng)[0])
    return games


def all_findings() -> list[Finding]:
    return [f for doc in faulty_games() for f in audit(parse_record(doc))]


def test_english_is_the_engines_own_sentence() -> None:
    findings = all_findings()
    assert {f.note_code for f in findings} >= {"amount", "reasons", "correction"}
    assert any(f.overstated is not None for f in findings)
    for finding in findings:
        assert finding_text(finding) == str(finding)


def test_a_wrong_help_and_an_entry_no_deal_caused_in_words() -> None:
    help_finding = Finding("wrong_help", Column("A", "whists", "C"), 4, 2, None, None, "4.2.3",
                           note="help belongs to B (the largest open pool, ties to the left), "
                                "not C", note_code="help_belongs", note_args=("B", "C"))
    assert finding_text(help_finding) == str(help_finding)
    i18n.use_language("ru")
    assert finding_text(help_finding) == (
        "сдача 4, A висты на C, запись 2: записано ничего, ожидалось нет записи (помощь не тому "
        "игроку, 4.2.3); помощь положена B (самая большая незакрытая пуля, при равенстве — "
        "левому), а не C")


@pytest.mark.parametrize(("language", "words"), [
    ("ru", ("сдача", "записано", "ожидалось", "штраф: ")),
    ("uk", ("роздача", "записано", "очікувалося", "штраф: ")),
])
def test_findings_in_russian_and_ukrainian(language: str, words: tuple[str, ...]) -> None:
    findings = all_findings()
    i18n.use_language(language)
    text = findings_text(findings)
    for word in words:
        assert word in text
    for english in ("wrote", "expected", "penalty:", "take back", "wrong amount", "deal "):
        assert english not in text


def test_the_audit_command_speaks_the_chosen_language(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    record = tmp_path / "game.json"
    record.write_text(json.dumps(faulty_games()[0]), encoding="utf-8")
    assert main(["--lang", "uk", "audit", str(record)]) == 1
    out = capsys.readouterr().out
    assert "помилки запису:" in out and "записано" in out and "wrote" not in out
    assert main(["audit", str(record), "--json"]) == 1  # machine output: codes and the sentence
    doc = json.loads(capsys.readouterr().out)
    finding = doc["findings"][0]
    assert finding["kind"] and finding["rule"] and "wrote" in finding["message"]
