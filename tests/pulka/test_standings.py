"""pulka.report.standings: totals against the rules engine, rounds, tie-breaks, exports, the CLI."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from day_sheets import two_rounds_stored

from pulka.cli.main import main
from pulka.report.standings import check_tiebreaks, standings, whists_text
from pulka.store.database import Store
from pulka.store.refresh import seat_stats
from scoring import expected_sheet, parse_record, settle_record


@pytest.fixture()
def store(tmp_path: Path):  # type: ignore[no-untyped-def]
    with two_rounds_stored(tmp_path / "t.sqlite") as opened:
        yield opened


def truth(sheets, round_=None):  # type: ignore[no-untyped-def]
    totals: Counter[str] = Counter()
    remises: Counter[str] = Counter()
    for sheet in sheets:
        if round_ is not None and sheet.scan.identity["round"] != round_:
            continue
        record = parse_record(sheet.record)
        settlement = settle_record(record)
        for seat, name in zip(record.seats, sheet.scan.identity["names"], strict=True):
            totals[name] += settlement.result[seat]
            remises[name] += sum(1 for d in record.deals if d.declarer == seat
                                 and (d.tricks_over() or 0) < 0)
    return totals, remises


def test_standings_equal_the_rules_engine(store: Store) -> None:
    totals, remises = truth(store.sheets)  # type: ignore[attr-defined]
    result = standings(store)
    assert {r.player: r.total for r in result.rows} == totals
    assert {r.player: r.remises for r in result.rows} == remises
    assert sum(r.total for r in result.rows) == 0
    ranked = [r.total for r in result.rows]
    assert ranked == sorted(ranked, reverse=True)
    assert result.rounds == (1, 2)
    for round_ in (1, 2):
        per_round = standings(store, round_=round_)
        assert {r.player: r.total for r in per_round.rows} == truth(
            store.sheets, round_)[0]  # type: ignore[attr-defined]
        for row in result.rows:
            assert row.by_round[round_] == next(
                r.total for r in per_round.rows if r.player == row.player)


def test_allpass_whists_are_zero_sum_and_remises_count_downs(store: Store) -> None:
    for sheet in store.sheets:  # type: ignore[attr-defined]
        record = parse_record(sheet.record)
        stats = seat_stats(record, expected_sheet(record))
        assert sum(s.allpass for s in stats.values()) == 0
        if not any(d.kind == "allpass" for d in record.deals):
            assert all(s.allpass == 0 for s in stats.values())


def test_tiebreaks_order_players_level_on_whists(store: Store) -> None:
    # make everybody level on whists: only the tie-breaks decide
    store.conn.execute("UPDATE settlements SET result = '0', codex_integer = 0")
    plain = standings(store)
    assert {r.rank for r in plain.rows} == {1}
    by_remises = standings(store, tiebreaks=["remises"])
    keys = [r.remises for r in by_remises.rows]
    assert keys == sorted(keys)
    assert by_remises.rows[0].rank == 1
    for a, b in zip(by_remises.rows, by_remises.rows[1:], strict=False):
        assert (a.rank == b.rank) == (a.remises == b.remises)
    both = standings(store, tiebreaks=["allpass", "remises"])
    keys2 = [(-r.allpass, r.remises) for r in both.rows]
    assert keys2 == sorted(keys2)


def test_check_tiebreaks() -> None:
    assert check_tiebreaks(["allpass", "remises"]) == ("allpass", "remises")
    with pytest.raises(ValueError, match="unknown tie-break 'money'"):
        check_tiebreaks(["money"])
    with pytest.raises(ValueError, match="repeat"):
        check_tiebreaks(["remises", "remises"])
    assert whists_text(Fraction(-1, 200)) == "-0.01"


def test_exports(store: Store) -> None:
    result = standings(store, tiebreaks=["remises"])
    rows = list(csv.DictReader(io.StringIO(result.to_csv())))
    assert [int(r["rank"]) for r in rows] == [r.rank for r in result.rows]
    assert [Fraction(r["exact"]) for r in rows] == [r.total for r in result.rows]
    assert rows[0].keys() >= {"round 1", "round 2", "remises", "allpass", "whists"}
    doc = result.to_json()
    assert doc["format"] == "pulka-standings/1" and doc["tiebreaks"] == ["remises"]
    assert sum(doc["sheets"].values()) == 8
    assert [Fraction(r["total"]) for r in doc["standings"]] == [r.total for r in result.rows]


def test_standings_command(store: Store, tmp_path: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:
    db = str(store.path)
    out = tmp_path / "s.csv"
    assert main(["standings", "--db", db, "--tiebreak", "remises,allpass",
                 "--csv", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Open, overall") and "remises" in text and "R2" in text
    assert out.read_text().startswith("rank,player,whists")
    assert main(["standings", "--db", db, "--round", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["round"] == 2 and len(doc["standings"]) == 12
    assert main(["standings", "--db", db, "--tiebreak", "luck"]) == 2
    assert "unknown tie-break" in capsys.readouterr().err
    assert main(["standings", "--db", str(tmp_path / "none.sqlite")]) == 2
    assert main(["standings", "--db", db, "--tournament", "Other"]) == 2
    assert "no tournament 'Other'" in capsys.readouterr().err


def test_show_and_tournament_commands(store: Store, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    db = str(store.path)
    audited = next(s for s in store.sheets if s.errors)  # type: ignore[attr-defined]
    assert main(["show", audited.scan.sheet_id, "--db", db]) == 1
    text = capsys.readouterr().out
    assert "audited" in text and "findings:" in text and "settlement (whists)" in text
    assert main(["show", audited.scan.sheet_id, "--db", db, "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["findings_count"] == len(doc["findings"]) > 0
    assert main(["show", "R9-T99-XXXXXX", "--db", db]) == 2
    assert main(["tournament", "list", "--db", db]) == 0
    assert "Open: 8 sheets" in capsys.readouterr().out
    draw = tmp_path / "draw.csv"
    draw.write_text("round,table,A,B,C,D\n1,1,W,X,Y,Z\n2,1,Z,Y,X,W\n")
    assert main(["tournament", "new", "Four", "--draw", str(draw), "--db", db]) == 0
    assert "1 table, 4 players" in capsys.readouterr().out
    assert main(["tournament", "new", "Four", "--db", db]) == 2
    assert main(["standings", "--db", db]) == 2  # two tournaments: name one
    assert main(["standings", "--db", db, "--tournament", "Four"]) == 0
