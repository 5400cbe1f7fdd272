"""Sheet identity: QR payload round trip, sheet ids, refusing foreign payloads."""

from __future__ import annotations

import json

import pytest
from conftest import identity_for

from forms.identity import (
    IdentityError,
    from_qr_payload,
    is_sheet_id,
    make_sheet_id,
    to_qr_payload,
)


@pytest.mark.parametrize("players", [3, 4])
def test_payload_round_trip_and_size(players: int) -> None:
    identity = identity_for(players, variant="leningrad").for_page(2)
    payload = to_qr_payload(identity)
    assert from_qr_payload(payload) == identity
    assert len(payload.encode()) < 260  # keeps the QR at version 11, 0.3 mm modules


def test_changed_settings_survive() -> None:
    identity = identity_for(3)
    rules = dict(identity.rules, talon_prize=True, stake="1/2", allpass_progression="1, 2, 3, …")
    from scoring.rules import RuleSet
    rule_set = RuleSet.from_settings(rules)
    from dataclasses import replace
    changed = replace(identity, rules=rule_set.settings(), rules_id=rule_set.id)
    back = from_qr_payload(to_qr_payload(changed))
    assert back.rule_set() == rule_set


def test_sheet_ids() -> None:
    a = make_sheet_id("Open", 2, 7, "abc", ("X", "Y", "Z"), salt="")
    assert a.startswith("R2-T07-") and a == make_sheet_id("Open", 2, 7, "abc", ("X", "Y", "Z"),
                                                           salt="")
    assert make_sheet_id("Open", 2, 8, "abc", ("X", "Y", "Z"), salt="") != a
    assert make_sheet_id("", None, None, "abc", ()) != make_sheet_id("", None, None, "abc", ())
    assert make_sheet_id("", None, None, "abc", (), 1, salt="").endswith("-C1")
    assert not set(a.split("-")[-1]) & set("OIL")


@pytest.mark.parametrize(("round_", "table", "continuation"),
                         [(None, None, 0), (None, None, 2), (1, 1, 0), (12, 143, 1), (0, None, 0)])
def test_every_id_pulka_makes_is_a_sheet_id(round_: int | None, table: int | None,
                                            continuation: int) -> None:
    for salt in ("", "a", "b7", None):
        assert is_sheet_id(make_sheet_id("Open", round_, table, "abc", ("X",), continuation,
                                         salt=salt))


@pytest.mark.parametrize("text", ["../../x", "/tmp/x", "S-3F9A1C/..", "S-3F9A1C\\x", "S-3f9a1c",
                                  "S-3F9A1C~2", "", ".", "S-3F9A1C\n", "R1-T01-3F9A1"])
def test_a_path_or_a_near_miss_is_not_a_sheet_id(text: str) -> None:
    assert not is_sheet_id(text)


@pytest.mark.parametrize(("payload", "message"), [
    ("not json", "not JSON"),
    ('{"a": 1}', "not a pulka-sheet/1"),
    ('["pulka-sheet/1", "x"]', "has 2 fields"),
])
def test_foreign_payloads_are_refused(payload: str, message: str) -> None:
    with pytest.raises(IdentityError, match=message):
        from_qr_payload(payload)


def test_tampered_settings_are_refused() -> None:
    doc = json.loads(to_qr_payload(identity_for(3)))
    doc[9][2] = 30  # pool
    with pytest.raises(IdentityError, match="hash to"):
        from_qr_payload(json.dumps(doc))
    doc[9] = doc[9][:5]
    with pytest.raises(IdentityError, match="must list"):
        from_qr_payload(json.dumps(doc))
