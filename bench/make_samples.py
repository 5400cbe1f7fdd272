"""Remake the sample PNGs under samples/sheets/: blank and filled sheets, 3 and 4 players.

Run: .venv/bin/python bench/make_samples.py  (110 dpi keeps each PNG well under 600 KB)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from forms.identity import SheetIdentity, make_sheet_id
from forms.layout import build_layout
from forms.render.fill import fill_from_record
from forms.render.raster import render_pages, save_png
from forms.render.sheet import SheetRequest, render_pdf_bytes
from scoring import parse_record
from scoring.rules import RuleSet

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "samples" / "sheets"
DPI = 110
PAGE_NAMES = ("triangle", "deals1", "deals2")


def main() -> None:
    """Remake the PNGs (arguments: only ``--help``, which says what is remade and where)."""
    argparse.ArgumentParser(description=__doc__).parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for players in (3, 4):
        rules = RuleSet.preset("sochi", players, 20)
        layout = build_layout(players, "A4", rules.talon_prize)
        blank = SheetIdentity(
            make_sheet_id("Kyiv Open", 1, 3, rules.id, (), salt="sample"), "Kyiv Open", 1, 3, 0,
            0, layout.id, rules.id, rules.settings(), layout.seats, ("",) * players,
            "2026-11-29")
        record = parse_record(json.loads(
            (ROOT / "tests" / "data" / "forms" / f"game{players}.json").read_text("utf-8")))
        names = tuple(record.names.get(s, "") for s in record.seats)
        filled = SheetIdentity(
            make_sheet_id("", None, None, rules.id, names, salt="sample"), "", None, None, 0, 0,
            layout.id, rules.id, rules.settings(), layout.seats, names, "")
        fill = fill_from_record(record, layout)[0]
        lang = "ru" if players == 3 else "uk"
        for kind, request in (("blank", SheetRequest(layout, blank, lang)),
                              ("filled", SheetRequest(layout, filled, lang, fill))):
            pdf = render_pdf_bytes([request])
            for index, image in enumerate(render_pages(pdf, DPI, pages=[0, 1])):
                path = OUT / f"{kind}_{players}p_{PAGE_NAMES[index]}.png"
                save_png(image, path)
                print(path.relative_to(ROOT), path.stat().st_size // 1024, "KB")


if __name__ == "__main__":
    main()
