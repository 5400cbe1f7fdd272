"""``pulka print``: blank sheets, batches, filled sheets; one clear message per bad argument."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import pypdfium2 as pdfium
import pytest

from forms.identity import SheetIdentity, from_qr_payload
from forms.layout import build_layout
from forms.render.fill import fill_from_record
from forms.render.raster import page_count, render_pages, save_png
from forms.render.sheet import SheetRequest, render_pdf_bytes
from pulka.cli.main import main
from pulka.records import load_record
from scanner.image.identify import read_qr

DATA = Path(__file__).parents[1] / "data" / "forms"
OLD_SAMPLE = Path(__file__).parents[2] / "samples" / "scans" / "sochi-3-scan"


def _qr(pdf: Path, page: int = 0):
    gray = cv2.cvtColor(next(render_pages(pdf, 300, pages=[page])), cv2.COLOR_RGB2GRAY)
    return from_qr_payload(read_qr(gray))


def test_blank_sheet_with_settings(tmp_path: Path) -> None:
    out = tmp_path / "s.pdf"
    assert main(["print", "--players", "4", "--variant", "leningrad", "--pool", "30",
                 "--stake", "0.5", "--set", "stalingrad=true", "--lang", "en",
                 "--names", "Ann,Bob,Cid,Dan", "-o", str(out)]) == 0
    identity = _qr(out)
    assert identity.rules["variant"] == "leningrad" and identity.rules["pool"] == 30
    assert identity.rules["stalingrad"] is True and identity.rules["stake"] == "1/2"
    assert identity.names == ("Ann", "Bob", "Cid", "Dan")
    assert page_count(out) == 3


def test_batch_from_a_draw(tmp_path: Path) -> None:
    draw = tmp_path / "draw.csv"
    draw.write_text("round,table,A,B,C\n1,1,Ann,Bob,Cid\n1,2,Dan,Eve,Fay\n", "utf-8")
    out = tmp_path / "b.pdf"
    assert main(["print", "--players", "3", "--tournament", "Open", "--draw", str(draw),
                 "-o", str(out)]) == 0
    assert page_count(out) == 6
    second = _qr(out, 3)
    assert (second.round, second.table, second.names) == (1, 2, ("Dan", "Eve", "Fay"))


def test_blank_batch(tmp_path: Path) -> None:
    out = tmp_path / "b.pdf"
    assert main(["print", "--players", "3", "--rounds", "2", "--tables", "2", "-o",
                 str(out)]) == 0
    assert page_count(out) == 12


def test_filled_from_a_record(tmp_path: Path) -> None:
    out = tmp_path / "r.pdf"
    assert main(["print", "--record", str(DATA / "game3.json"), "-o", str(out)]) == 0
    assert _qr(out).names == ("Иванова", "Петренко", "Сидоров")


@pytest.mark.parametrize(("argv", "message"), [
    (["--players", "3", "--variant", "kiev"], "--variant: unknown variant 'kiev'"),
    (["--players", "3", "--pool", "-3"], "--pool: must be a positive whole number"),
    (["--players", "3", "--pool", "ten"], "--pool: expected a positive whole number"),
    (["--players", "3", "--set", "talon_prize=maybe"], "--set talon_prize: must be true"),
    (["--players", "3", "--set", "colour=red"], "--set 'colour=red': expected NAME=VALUE"),
    (["--players", "3", "--tables", "3"], "needs --tables and --rounds"),
    (["--players", "3", "--tables", "0", "--rounds", "1"], "--tables: must be 1 or more"),
    (["--variant", "sochi"], "--players is required"),
    (["--players", "3", "--names", "a,b"], "--names: 2 names for 3 players"),
])
def test_bad_arguments(tmp_path: Path, capsys, argv, message) -> None:
    assert main(["print", *argv, "-o", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "x.pdf").exists()


def test_draw_with_a_missing_name(tmp_path: Path, capsys) -> None:
    draw = tmp_path / "draw.csv"
    draw.write_text("round,table,A,B,C\n1,1,Ann,,Cid\n", "utf-8")
    assert main(["print", "--players", "3", "--draw", str(draw), "-o",
                 str(tmp_path / "x.pdf")]) == 3
    err = capsys.readouterr().err
    assert "draw.csv line 2: round 1, table 1 has no name for seat B" in err
    assert err.count("\n") == 1


def test_five_players_is_refused_by_a_real_subprocess(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "pulka", "print", "--players", "5", "-o",
                             str(tmp_path / "x.pdf")], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 2
    assert "argument --players: invalid choice: 5 (choose from 3, 4)" in result.stderr


DRAW = ("round,table,A,B,C\n" + "".join(
    f"{r},{t},P{r}{t}a,P{r}{t}b,P{r}{t}c\n" for r in (1, 2, 3) for t in (1, 2, 3)))
DRAW_ORDER = [(r, t) for r in (1, 2, 3) for t in (1, 2, 3)]


@pytest.fixture
def draw(tmp_path: Path) -> Path:
    path = tmp_path / "draw.csv"
    path.write_text(DRAW, "utf-8")
    return path


def _batch(draw: Path, tmp_path: Path) -> Path:
    out = tmp_path / "batch.pdf"
    assert main(["print", "--players", "3", "--tournament", "Open", "--draw", str(draw),
                 "-o", str(out)]) == 0
    return out


def _header_text(pdf: Path, page: int) -> str:
    return str(pdfium.PdfDocument(pdf)[page].get_textpage().get_text_range())


def test_print_says_what_it_wrote(draw: Path, tmp_path: Path, capsys) -> None:
    out = _batch(draw, tmp_path)
    assert capsys.readouterr().out == f"{out}: 9 sheets, 27 pages\n"
    assert main(["print", "--players", "4", "-o", str(tmp_path / "one.pdf")]) == 0
    assert capsys.readouterr().out == f"{tmp_path / 'one.pdf'}: 1 sheet, 3 pages\n"


def test_one_table_from_the_draw_has_the_batch_identity(draw: Path, tmp_path: Path,
                                                        capsys) -> None:
    batch = _batch(draw, tmp_path)
    original = _qr(batch, 3 * DRAW_ORDER.index((2, 3)))
    out = tmp_path / "r2t3.pdf"
    assert main(["print", "--players", "3", "--tournament", "Open", "--draw", str(draw),
                 "--round", "2", "--table", "3", "-o", str(out)]) == 0
    assert capsys.readouterr().out.endswith(": 1 sheet, 3 pages\n")
    assert _qr(out) == original
    assert (original.round, original.table, original.names) == (2, 3, ("P23a", "P23b", "P23c"))
    assert "P23a" in _header_text(out, 1)  # the names on the deal pages too


def test_a_continuation_of_a_draw_sheet_names_the_first_sheet(draw: Path,
                                                              tmp_path: Path) -> None:
    batch = _batch(draw, tmp_path)
    out = tmp_path / "continued.pdf"
    assert main(["--lang", "ru", "print", "--players", "3", "--tournament", "Open", "--draw",
                 str(draw), "--round", "2", "--table", "3", "--continuation", "1", "-o",
                 str(out)]) == 0
    first = _qr(batch, 3 * DRAW_ORDER.index((2, 3)))
    for page in (0, 2):
        continued = _qr(out, page)
        assert continued.continuation == 1 and continued.first_sheet_id == first.sheet_id
        assert continued.sheet_id == first.sheet_id + "-C1"
        assert continued.for_page(0).continued(0) == first
    assert "Лист: 1 · продолжение 1" in _header_text(out, 0)
    whole = tmp_path / "all-continued.pdf"
    assert main(["print", "--players", "3", "--tournament", "Open", "--draw", str(draw),
                 "--continuation", "2", "-o", str(whole)]) == 0
    assert _qr(whole, 3).sheet_id == _qr(batch, 3).sheet_id + "-C2"


def test_a_continuation_with_names_joins_the_first_sheet(tmp_path: Path) -> None:
    argv = ["print", "--players", "3", "--tournament", "Club", "--date", "2026-12-02",
            "--names", "Ann,Bob,Cid"]
    assert main([*argv, "-o", str(tmp_path / "first.pdf")]) == 0
    assert main([*argv, "--continuation", "1", "-o", str(tmp_path / "second.pdf")]) == 0
    first, second = _qr(tmp_path / "first.pdf"), _qr(tmp_path / "second.pdf")
    assert (first.continuation, second.continuation) == (0, 1)
    assert second.first_sheet_id == first.sheet_id and second.sheet_id != first.sheet_id


def test_one_table_from_the_store_has_the_batch_identity(draw: Path, tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    assert main(["tournament", "new", "Open", "--draw", str(draw), "--db", str(db)]) == 0
    batch = _batch(draw, tmp_path)
    out = tmp_path / "r3t1.pdf"
    assert main(["print", "--players", "3", "--db", str(db), "--round", "3", "--table", "1",
                 "-o", str(out)]) == 0
    assert _qr(out) == _qr(batch, 3 * DRAW_ORDER.index((3, 1)))


@pytest.mark.parametrize(("argv", "message", "code"), [
    (["--round", "2"], "--round and --table go together", 2),
    (["--round", "2", "--table", "1"], "--round and --table need the draw", 2),
    (["--round", "4", "--table", "1", "--draw", "{draw}"],
     "draw.csv: the draw has no table 1 in round 4; check --round and --table", 3),
    (["--continuation", "-1"], "--continuation: must be 0 or more", 2),
    (["--round", "1", "--table", "1", "--db", "{db}"], "no store at", 2),
    (["--db", "{db}"], "--db gives the draw of one table: add --round and --table", 2),
])
def test_bad_table_options(draw: Path, tmp_path: Path, capsys, argv, message, code) -> None:
    argv = [a.format(draw=draw, db=tmp_path / "none.sqlite") for a in argv]
    out = tmp_path / "x.pdf"
    assert main(["print", "--players", "3", *argv, "-o", str(out)]) == code
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not out.exists()


def _print_record(version: int, folder: Path) -> tuple[str, list[object]]:
    """Print game3.json filled in with layout ``version``, as page images; its layout id and
    deals."""
    record = load_record(DATA / "game3.json")
    layout = build_layout(3, version=version)
    rules = record.rules
    identity = SheetIdentity(
        sheet_id=f"S-ABCDE{version}", tournament="", round=None, table=None, page=0,
        continuation=0, layout_id=layout.id, rules_id=rules.id, rules=rules.settings(),
        seats=layout.seats, names=tuple(record.names[s] for s in record.seats))
    fill = fill_from_record(record, layout)[0]
    pdf = render_pdf_bytes([SheetRequest(layout, identity, "ru", fill)])
    folder.mkdir()
    for page, image in enumerate(render_pages(pdf, 200)):
        save_png(image, folder / f"page-{page + 1}.png")
    return layout.id, json.loads((DATA / "game3.json").read_text("utf-8"))["deals"]


@pytest.mark.slow
@pytest.mark.parametrize("version", [1, 2])
def test_sheets_printed_with_the_old_and_the_new_layout_scan(version: int,
                                                             tmp_path: Path) -> None:
    layout_id, deals = _print_record(version, tmp_path / "pages")
    out = tmp_path / "out"
    assert main(["scan", str(tmp_path / "pages"), "--out", str(out)]) == 0
    scan = json.loads((out / f"S-ABCDE{version}" / "scan.json").read_text("utf-8"))
    assert scan["layout_id"] == layout_id
    assert json.loads((out / f"S-ABCDE{version}" / "record.json").read_text("utf-8"))[
        "deals"] == deals
    truth = json.loads((OLD_SAMPLE / "truth.json").read_text("utf-8"))
    assert truth["layout_id"] == build_layout(3, version=1).id  # the handwritten sample is old
