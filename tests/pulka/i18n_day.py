"""A judge's day through the command line in one language, every output kept: the help and an
error, import, show, standings, tournament list, audit (text, HTML and PDF report) and settle
of the review fixture's store (``review_fixture.build_store``: a real scan on two tables, the
first sheet's doubtful cells confirmed as read, so its findings stand, the second's left
doubtful) and of a game with recording errors. Used by ``test_i18n_cli.py``; as a script it
writes the outputs under ``samples/i18n/<lang>/``::

    PYTHONPATH=. python tests/pulka/i18n_day.py samples/i18n ru uk
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys
from pathlib import Path

from pulka import i18n
from pulka.cli.main import main
from pulka.store.database import Store
from scoring.random_games import inject_errors, random_record, written_columns
from scoring.record import parse_record
from scoring.rules import RuleSet
from scoring.sheet import expected_sheet

sys.path.insert(0, str(Path(__file__).parent))
from review_fixture import DOUBTS1, SHEET1, SHEET2, build_store  # noqa: E402 - beside this file

NAMES = {"A": "Иваненко", "B": "Сидоров", "C": "Lindqvist"}


def faulty_record(folder: Path) -> Path:
    """A Sochi game with three recording errors, as ``pulka-record/1``."""
    rng = random.Random(7)
    rules = RuleSet.from_settings({"variant": "sochi", "players": 3, "pool": 20, "stake": "0.5"})
    doc = random_record(rules, rng)
    doc["names"] = NAMES
    doc["written"] = written_columns(expected_sheet(parse_record(doc)))
    path = folder / "game.json"
    path.write_text(json.dumps(inject_errors(doc, 3, rng)[0], ensure_ascii=False),
                    encoding="utf-8")
    return path


def commands(folder: Path, db: Path, record: Path) -> list[tuple[str, list[str]]]:
    """``(name, arguments)`` of each command the day runs, in order."""
    scan = folder / "scans" / SHEET1 / "scan.json"
    return [
        ("help", ["show", "--help"]),
        ("error-round", ["standings", "--db", str(db), "--round", "9"]),
        ("error-missing-argument", ["show", "--db", str(db)]),
        ("show", ["show", SHEET1, "--db", str(db)]),
        ("show-doubtful", ["show", SHEET2, "--db", str(db)]),
        ("standings", ["standings", "--db", str(db), "--csv", str(folder / "standings.csv")]),
        ("tournament-list", ["tournament", "list", "--db", str(db)]),
        ("tournament-seat", ["tournament", "seat", "--db", str(db), "--round", "1", "--table",
                             "2", "--seat", "C", "--player", "Mercier"]),
        ("import-again", ["import", str(scan), "--db", str(db)]),
        ("audit-record", ["audit", str(record), "--report", str(folder / "reports")]),
        ("settle", ["settle", str(record)]),
    ]


def run_day(folder: Path, language: str) -> dict[str, str]:
    """Run the day with ``--lang language`` in ``folder``; each command's name -> what it
    printed (stdout, then stderr, then its exit status). Reports go to ``folder/reports``."""
    db = build_store(folder)
    with Store(db) as store:  # sheet 1's doubts confirmed as read: its findings stand
        for key, (value, *_rest) in DOUBTS1.items():
            store.verify_cell(SHEET1, key, value, "anna")
    record = faulty_record(folder)
    outputs = {}
    for name, argv in commands(folder, db, record):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(["--lang", language, *argv])
            except SystemExit as stop:  # argparse's --help and its errors
                code = int(stop.code or 0)
        outputs[name] = f"$ pulka --lang {language} {' '.join(argv)}\n{out.getvalue()}" \
                        f"{err.getvalue()}[exit {code}]\n"
    i18n.use_language("en")
    return outputs


def write_samples(root: Path, language: str) -> None:
    """The day's CLI outputs (``cli.txt``, paths made relative), reports (HTML, PDF and its
    first page as PNG) and standings CSV under ``root/language``."""
    import shutil
    import tempfile

    target = root / language
    shutil.rmtree(target, ignore_errors=True)
    (target / "reports").mkdir(parents=True)
    with tempfile.TemporaryDirectory() as work:
        outputs = run_day(Path(work), language)
        text = "\n".join(outputs.values()).replace(work + "/", "").replace(work, ".")
        (target / "cli.txt").write_text(text, encoding="utf-8")
        for report in sorted((Path(work) / "reports").iterdir()):
            shutil.copy(report, target / "reports" / report.name)
        shutil.copy(Path(work) / "standings.csv", target / "standings.csv")
    _first_page_png(target / "reports" / "game.pdf", target / "reports" / "game.pdf-page1.png")


def _first_page_png(pdf: Path, png: Path) -> None:
    """The PDF's first page as a PNG at 100 dpi, to look at without a PDF reader."""
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(pdf)[0]
    page.render(scale=100 / 72).to_pil().save(png)


if __name__ == "__main__":
    for lang in sys.argv[2:]:
        write_samples(Path(sys.argv[1]), lang)
