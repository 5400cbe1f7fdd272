"""The scanner's words in the reader's language, as a person meets them: ``pulka scan`` on the
samples with bad files beside them, then ``pulka import`` and ``pulka show``, run as programs
with ``--lang ru`` and ``--lang uk``, say no English warning, problem, note or refusal."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pulka import i18n
from pulka.cli.main import main
from pulka.report.said_text import TEMPLATES

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "samples" / "scans"
PLACEHOLDER = re.compile(r"\{\w+\}")
ENGLISH_PIECES = sorted({piece.strip(" ,;:.()") for template in TEMPLATES.values()
                         for piece in PLACEHOLDER.split(template)
                         if len(re.findall(r"[a-z]{2,}", piece)) >= 2}, key=len)
"""The English words of every template (the scanner's, the engine's reasons, pulka's own),
between its placeholders (two words at least)."""


def pulka(*args: str, cwd: Path) -> str:
    """``python -m pulka ARGS`` in ``cwd``: its stderr and stdout."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "pulka", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert "Traceback" not in done.stderr, done.stderr
    return done.stderr + done.stdout


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder as a judge might bring it: a photographed sheet, two pages of a scanned
    one (its third missing), a note that is no image, a JPEG cut short."""
    folder = tmp_path_factory.mktemp("i18n") / "in"
    shutil.copytree(SAMPLES / "leningrad-4-photo", folder / "photo",
                    ignore=shutil.ignore_patterns("*.json"))
    (folder / "scan").mkdir()
    for page in ("page-0.jpg", "page-1.jpg"):
        shutil.copy(SAMPLES / "sochi-3-scan" / page, folder / "scan" / page)
    (folder / "notes.jpg").write_text("not an image at all", encoding="utf-8")
    jpeg = (SAMPLES / "sochi-3-scan" / "page-2.jpg").read_bytes()
    (folder / "cut.jpg").write_bytes(jpeg[: len(jpeg) // 2])
    return folder


def english_left(text: str) -> list[str]:
    """The English pieces of the templates that ``text`` still holds."""
    return [piece for piece in ENGLISH_PIECES if piece in text]


def test_the_english_pieces_find_english() -> None:
    assert "is not a JPEG, PNG, TIFF or PDF file" in ENGLISH_PIECES
    assert english_left("a.jpg, page 1 is only 149 dpi: check its readings")
    assert not english_left("a.jpg, страница 1: всего 149 dpi, проверьте прочитанное")


def test_in_english_the_scanner_says_what_it_always_said(batch: Path) -> None:
    said = pulka("--lang", "en", "scan", "in", "--out", "out-en", cwd=batch.parent)
    assert "in/notes.jpg: is not a JPEG, PNG, TIFF or PDF file; give a JPEG" in said
    assert "the JPEG file is truncated (no end-of-image marker)" in said
    assert "page 3 of 3 is missing; scan it too" in said
    assert "dpi: check its readings" in said


@pytest.mark.parametrize(("language", "words"), [
    ("ru", ("не файл JPEG", "отсканируйте и её", "проверьте прочитанное",
            "читают эту строку иначе")),
    ("uk", ("не файл JPEG", "відскануйте й її", "перевірте прочитане", "читає цей рядок інакше")),
])
def test_scan_import_and_show_speak_the_language(batch: Path, language: str,
                                                 words: tuple[str, ...]) -> None:
    work = batch.parent
    scanned = pulka("--lang", language, "scan", "in", "--out", f"out-{language}", cwd=work)
    db = f"{language}.sqlite"
    imported = pulka("--lang", language, "import", f"out-{language}", "--db", db, cwd=work)
    sheets = sorted(p.parent.name for p in (work / f"out-{language}").glob("*/scan.json"))
    assert len(sheets) == 2
    shown = "\n".join(pulka("--lang", language, "show", sheet, "--db", db, cwd=work)
                      for sheet in sheets)
    from_images = pulka("--lang", language, "import", "in", "--db", f"images-{language}.sqlite",
                        "--out", f"imported-{language}", "--jobs", "2", cwd=work)
    assert "pulka import: " in from_images and "WARNING" not in from_images, from_images
    everything = "\n".join((scanned, imported, shown, from_images))
    assert english_left(everything) == []
    for word in words:
        assert word in everything, word


def test_a_broken_scan_document_is_refused_in_the_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "in" / "S-1"
    folder.mkdir(parents=True)
    (folder / "scan.json").write_text("{", encoding="utf-8")
    try:
        main(["--lang", "uk", "import", str(tmp_path / "in"), "--db", str(tmp_path / "t.db")])
    finally:
        i18n.use_language("en")
    err = capsys.readouterr().err
    assert f"{folder / 'scan.json'}: не читабельний документ pulka-scan/1 (" in err
    assert "відскануйте зображення аркуша знову (pulka import --rescan)" in err
    assert english_left(err) == [] and "Traceback" not in err
