"""``pulka layout``: the sheet geometry as data (schema: ``forms/LAYOUT.md``)."""

from __future__ import annotations

import argparse
import json
from collections import Counter

from forms.layout import PAPERS, build_layout, default_talon, layout_to_json
from pulka.i18n import N_, _, ngettext
from scoring.exitcode import ExitCode

NAME = "layout"
HELP = N_("print the sheet layout (every cell, mark box, marker and QR region, in mm)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka layout``."""
    parser.add_argument("--players", type=int, choices=(3, 4), required=True,
                        help=_("3 or 4 players"))
    parser.add_argument("--paper", choices=PAPERS, default="A4", help=_("paper size (default A4)"))
    talon = parser.add_mutually_exclusive_group()
    talon.add_argument("--talon", dest="talon", action="store_true", default=None,
                       help=_("deal rows with a talon quick-tricks cell (default: 4 players)"))
    talon.add_argument("--no-talon", dest="talon", action="store_false")
    parser.add_argument("--json", action="store_true", help=_("the whole layout as JSON"))


def run(args: argparse.Namespace) -> ExitCode:
    """Print the layout as JSON, or a summary for people."""
    talon = default_talon(args.players) if args.talon is None else args.talon
    layout = build_layout(args.players, args.paper, talon)
    if args.json:
        print(json.dumps(layout_to_json(layout), ensure_ascii=False))
        return ExitCode.OK
    print(_("layout {id}: {players}, {paper}, talon cell {talon}").format(
        id=layout.id, paper=layout.paper, talon=_("yes") if layout.talon else _("no"),
        players=ngettext("{n} player", "{n} players", layout.players).format(n=layout.players)))
    kinds = Counter((b.page, b.kind) for b in layout.boxes)
    for page in layout.pages:
        boxes = ", ".join(f"{kinds[(page.index, k)]} {k}" for k in ("digit", "sign", "mark")
                          if kinds[(page.index, k)])
        print("  " + _("page {n}: {kind}, {w} x {h} mm, {boxes}").format(
            n=page.index + 1, kind=page.kind, w=f"{page.w_mm:g}", h=f"{page.h_mm:g}", boxes=boxes))
    counts = layout.counts
    print("  " + _("entries per column: {list}").format(list=", ".join(
        _("{column} {entries} x {digits} digits").format(
            column=col, entries=counts[f"{col}_entries"], digits=counts[f"{col}_digits"])
        + (_(" + sign") if col == "mountain" else "") for col in ("whists", "pool", "mountain"))))
    print("  " + _("deal rows: {n}").format(n=counts["deal_rows"]))
    return ExitCode.OK
