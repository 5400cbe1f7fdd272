"""Final standings to publish (issue 14, item 7): Codex 4.2.12 integer whists, players with no
sheet listed unranked, the provisional marker, the PDF for the wall (rendered to PNG and read
back), CSV and JSON, and a player's card.

``PULKA_STANDINGS_SAMPLES=samples/standings`` keeps the PDF and its PNG there.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from day_sheets import two_rounds_stored

from pulka.cli.main import main
from pulka.report.standings import standings
from pulka.store.database import Store
from scoring import parse_record, settle_record

ABSENT = "Player 05"


@pytest.fixture()
def store(tmp_path: Path):  # type: ignore[no-untyped-def]
    with two_rounds_stored(tmp_path / "t.sqlite") as opened:
        yield opened


def integer_truth(sheets, leave_out: str = "") -> Counter[str]:  # type: ignore[no-untyped-def]
    totals: Counter[str] = Counter()
    for sheet in sheets:
        names = sheet.scan.identity["names"]
        if leave_out in names:
            continue
        record = parse_record(sheet.record)
        settlement = settle_record(record)
        for seat, name in zip(record.seats, names, strict=True):
            totals[name] += settlement.codex_integer[seat]
    return totals


def drop_sheets_of(store: Store, player: str) -> None:
    """The sheets ``player`` played leave the store: he is in the draw only."""
    with store.transaction() as conn:
        conn.execute("DELETE FROM sheets WHERE id IN (SELECT sp.sheet_id FROM sheet_players sp "
                     "JOIN players p ON p.id = sp.player_id WHERE p.name = ?)", (player,))


def test_ranked_by_the_codex_integer_form(store: Store) -> None:
    result = standings(store)
    truth = integer_truth(store.sheets)  # type: ignore[attr-defined]
    assert {r.player: r.integer for r in result.rows} == truth
    assert sum(r.integer for r in result.rows) == 0
    assert [r.integer for r in result.rows] == sorted(truth.values(), reverse=True)
    assert any(r.total != r.integer for r in result.rows)  # the exact sums stay beside


def test_level_on_integer_whists_is_a_tie_whatever_the_fractions(store: Store) -> None:
    first, second = standings(store).rows[:2]
    assert first.sheets == second.sheets == 2
    with store.transaction() as conn:  # 201 2/3 and 201 exact a sheet, 201 both in 4.2.12 form
        for name, exact in ((first.player, "605/3"), (second.player, "201")):
            conn.execute("UPDATE settlements SET result = ?, codex_integer = 201 WHERE "
                         "(sheet_id, seat) IN (SELECT sp.sheet_id, sp.seat FROM sheet_players "
                         "sp JOIN players p ON p.id = sp.player_id WHERE p.name = ?)",
                         (exact, name))
    top = {r.player: r for r in standings(store).rows}
    one, two = top[first.player], top[second.player]
    assert (one.integer, two.integer) == (402, 402)
    assert (one.total, two.total) == (Fraction(1210, 3), 402)
    assert one.rank == two.rank == 1


def test_a_player_with_no_sheet_is_listed_not_ranked(store: Store,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    drop_sheets_of(store, ABSENT)
    result = standings(store)
    last = result.rows[-1]
    assert (last.player, last.rank, last.sheets) == (ABSENT, None, 0)
    assert all(r.rank is not None for r in result.rows[:-1])
    assert {r.player: r.integer for r in result.rows[:-1]} == integer_truth(
        store.sheets, ABSENT)  # type: ignore[attr-defined]
    doc = result.to_json()["standings"][-1]
    assert doc["rank"] is None and doc["no_sheet"] and not doc["final"]
    rows = list(csv.DictReader(io.StringIO(result.to_csv())))
    assert (rows[-1]["rank"], rows[-1]["whists"]) == ("", "no sheet yet")
    assert main(["standings", "--db", str(store.path)]) == 0
    text = capsys.readouterr().out
    line = next(line for line in text.splitlines() if ABSENT in line)
    assert line.split() == ["-", *ABSENT.split(), "no", "sheet", "yet"]
    assert "Codex 4.2.12 integer results" in text


def test_provisional_follows_the_sheet_state(store: Store) -> None:
    result = standings(store)
    states = dict(store.conn.execute(
        "SELECT p.name, sum(s.state != 'settled') FROM sheet_players sp JOIN sheets s ON "
        "s.id = sp.sheet_id JOIN players p ON p.id = sp.player_id GROUP BY p.name"))
    assert {r.player: r.provisional for r in result.rows} == states
    assert {r.player: r.final for r in result.rows} == {p: n == 0 for p, n in states.items()}
    assert 0 < sum(r.final for r in result.rows) < len(result.rows)


def test_the_pdf_for_the_wall_reads_back_the_integer_whists(store: Store, tmp_path: Path
                                                            ) -> None:
    pdfium = pytest.importorskip("pypdfium2")
    drop_sheets_of(store, ABSENT)
    pdf = tmp_path / "standings.pdf"
    assert main(["standings", "--db", str(store.path), "--pdf", str(pdf),
                 "--tiebreak", "remises"]) == 0
    document = pdfium.PdfDocument(str(pdf))
    page = document[0]
    text = page.get_textpage().get_text_range()
    result = standings(store, tiebreaks=["remises"])
    for row in result.rows:
        line = next(line for line in text.splitlines() if row.player in line)
        if row.rank is None:
            assert line.split()[0] == "–" and line.endswith("no sheet yet"), line
            continue
        assert line.split()[0] == str(row.rank), line
        assert f"{row.integer:+d}" in line.split(), line
        assert ("final" if row.final else "provisional") in line
    assert "Codex 4.2.12" in text
    png = tmp_path / "standings.png"
    page.render(scale=100 / 72).to_pil().save(png)
    assert png.stat().st_size > 10_000
    folder = os.environ.get("PULKA_STANDINGS_SAMPLES")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        for path in (pdf, png):
            shutil.copy(path, Path(folder) / path.name)


def test_a_players_card(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(store.path)
    row = next(r for r in standings(store).rows if r.player == "Player 10")
    assert main(["standings", "--db", db, "--player", "Player 10", "--json"]) == 0
    card = json.loads(capsys.readouterr().out)
    assert card["whists"] == row.integer and len(card["games"]) == row.sheets == 2
    game = card["games"][0]
    assert game["round"] == 1 and len(game["opponents"]) == 2
    assert sum(Fraction(g["exact"]) for g in card["games"]) == row.total
    assert main(["standings", "--db", db, "--player", "Player 10"]) == 0
    text = capsys.readouterr().out
    opponent = game["opponents"][0]["player"]
    assert f"round 1 · table {game['table']}" in text and opponent in text
    assert "exact 112 2/3, integer 113 (Codex 4.2.12: a point added to" in text
    assert main(["standings", "--db", db, "--player", "Nobody"]) == 2
    assert "no player 'Nobody' in tournament 'Open'" in capsys.readouterr().err
