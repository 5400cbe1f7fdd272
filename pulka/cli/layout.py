"""``pulka layout``: the sheet geometry as data (schema: ``forms/LAYOUT.md``)."""

from __future__ import annotations

import argparse
import json
from collections import Counter

from forms.layout import PAPERS, build_layout, default_talon, layout_to_json
from scoring.exitcode import ExitCode

NAME = "layout"
HELP = "print the sheet layout (every cell, mark box, marker and QR region, in mm)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka layout``."""
    parser.add_argument("--players", type=int, choices=(3, 4), required=True,
                        help="3 or 4 players")
    parser.add_argument("--paper", choices=PAPERS, default="A4", help="paper size (default A4)")
    talon = parser.add_mutually_exclusive_group()
    talon.add_argument("--talon", dest="talon", action="store_true", default=None,
                       help="deal rows with a talon quick-tricks cell (default: 4 players)")
    talon.add_argument("--no-talon", dest="talon", action="store_false")
    parser.add_argument("--json", action="store_true", help="the whole layout as JSON")


def run(args: argparse.Namespace) -> ExitCode:
    """Print the layout as JSON, or a summary for people."""
    talon = default_talon(args.players) if args.talon is None else args.talon
    layout = build_layout(args.players, args.paper, talon)
    if args.json:
        print(json.dumps(layout_to_json(layout), ensure_ascii=False))
        return ExitCode.OK
    print(f"layout {layout.id}: {layout.players} players, {layout.paper}, "
          f"talon cell {'yes' if layout.talon else 'no'}")
    kinds = Counter((b.page, b.kind) for b in layout.boxes)
    for page in layout.pages:
        boxes = ", ".join(f"{kinds[(page.index, k)]} {k}" for k in ("digit", "sign", "mark")
                          if kinds[(page.index, k)])
        print(f"  page {page.index + 1}: {page.kind}, {page.w_mm:g} x {page.h_mm:g} mm, {boxes}")
    counts = layout.counts
    print("  entries per column: " + ", ".join(
        f"{col} {counts[f'{col}_entries']} x {counts[f'{col}_digits']} digits"
        + (" + sign" if col == "mountain" else "") for col in ("whists", "pool", "mountain")))
    print(f"  deal rows: {counts['deal_rows']}")
    return ExitCode.OK
