"""``pulka standings``: players ranked by total whists (Codex 4.1.3), per round or overall.

Examples::

    pulka standings
    pulka standings --round 2 --tiebreak remises,allpass
    pulka standings --csv standings.csv
    pulka standings --json > standings.json
    pulka standings --pdf standings.pdf
    pulka standings --player "Иванова"

Whists are the sheets' Codex 4.2.12 integer results; the tie-breaks and how they are counted:
:mod:`pulka.report.standings`; a player's card: :mod:`pulka.report.player_card`.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from pulka.cli.store_options import add_db_argument, open_store
from pulka.errors import PulkaCommandError
from pulka.i18n import N_, _
from pulka.report.player_card import mixed, player_card
from pulka.report.standings import (
    NO_SHEET,
    TIEBREAKS,
    Standings,
    check_tiebreaks,
    standings,
    whists_text,
)
from pulka.report.standings_pdf import write_pdf
from pulka.report.text import states_text
from pulka.store.missing import round_gaps, round_numbers
from scoring.exitcode import ExitCode

NAME = "standings"
HELP = N_("rank the players by total whists (4.1.3), per round or overall; CSV and JSON")

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka standings``."""
    add_db_argument(parser)
    parser.add_argument("--tournament", help=_("which tournament (needed when the store has more "
                                             "than one)"))
    parser.add_argument("--round", type=int, metavar="N", help=_("one round only"))
    parser.add_argument("--tiebreak", default="", metavar="LIST",
                        help=_("tie-breaks in order, comma-separated: {list}").format(
                            list=", ".join(TIEBREAKS)))
    parser.add_argument("--csv", type=Path, metavar="FILE", help=_("also write the table as CSV"))
    parser.add_argument("--json", action="store_true", help=_("print {format} JSON").format(
        format="pulka-standings/1"))
    parser.add_argument("--pdf", type=Path, metavar="FILE",
                        help=_("also write the standings as a printable PDF"))
    parser.add_argument("--player", metavar="NAME",
                        help=_("one player's card instead: tables, opponents, result per game"))


def run(args: argparse.Namespace) -> ExitCode:
    """Rank and print, with what each round still lacks; exit 0, or 2 for a round the
    tournament does not have."""
    try:
        tiebreaks = check_tiebreaks([t.strip() for t in args.tiebreak.split(",") if t.strip()])
    except ValueError as error:
        raise PulkaCommandError(f"--tiebreak: {error}", ExitCode.BAD_ARGS) from None
    if args.round is not None and args.round < 1:
        raise PulkaCommandError(_("--round: rounds count from 1, got {n}").format(n=args.round),
                                ExitCode.BAD_ARGS)
    with open_store(args.db, create=False) as store:
        if args.player is not None:
            card = player_card(store, args.tournament, args.player)
            if args.json:
                json.dump(card.to_json(), sys.stdout, ensure_ascii=False, indent=1)
                print()
            else:
                print(card.text())
            return ExitCode.OK
        tid = store.tournament_id(args.tournament)
        rounds = round_numbers(store.conn, tid)
        if args.round is not None and args.round not in rounds:
            raise PulkaCommandError(
                _("--round {n}: the tournament has rounds {list}; name one of them").format(
                    n=args.round, list=", ".join(map(str, rounds))) if rounds else
                _("--round {n}: the tournament has no rounds yet").format(n=args.round),
                ExitCode.BAD_ARGS)
        result = standings(store, args.tournament, args.round, tiebreaks)
        gaps = round_gaps(store.conn, tid, args.round)
    for path, write in ((args.csv, lambda p: p.write_text(result.to_csv(), encoding="utf-8")),
                        (args.pdf, lambda p: write_pdf(result, p))):
        if path is None:
            continue
        try:
            write(path)
        except OSError as error:
            raise PulkaCommandError(_("{file}: cannot write ({reason})").format(
                file=path, reason=error.strerror),
                                    ExitCode.BAD_ARGS) from None
    if args.json:
        json.dump(result.to_json(), sys.stdout, ensure_ascii=False, indent=1)
        print()
    else:
        print(table(result))
        print("\n".join(_("missing: {what}").format(what=gap.text()) for gap in gaps)
              or _("missing: nothing"))
    return ExitCode.OK


def table(result: Standings) -> str:
    """The standings as a plain-text table for people."""
    title = result.tournament or _("(no tournament)")
    title += ", " + (_("round {n}").format(n=result.round) if result.round is not None
                     else _("overall"))
    rounds = result.rounds if result.round is None and len(result.rounds) > 1 else ()
    head = ["#", _("player"), _("whists"), *(_("R{n}").format(n=r) for r in rounds),
            _("sheets")]
    head += [_("remises") if t == "remises" else _("all-pass") for t in result.tiebreaks]
    lines = [head]
    for row in result.rows:
        if row.rank is None:
            lines.append(["-", row.player, _(NO_SHEET), *("" for _cell in head[3:])])
            continue
        line = [str(row.rank), row.player, f"{row.integer:+d}"]
        line += [f"{row.by_round_integer[r]:+d}" if r in row.by_round_integer else "-"
                 for r in rounds]
        line.append(f"{row.sheets}" + ("*" if row.provisional else ""))
        line += [str(row.remises) if t == "remises" else whists_text(row.allpass)
                 for t in result.tiebreaks]
        lines.append(line)
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    text = [title]
    for line in lines:
        text.append("  ".join(cell.ljust(w) if i == 1 else cell.rjust(w)
                              for i, (cell, w) in enumerate(zip(line, widths, strict=True))))
    text.append(_("sheets: {states}").format(states=states_text(result.states) or _("none")))
    off = [f"{row.player} {mixed(row.total)}" for row in result.rows
           if row.rank is not None and row.total != row.integer]
    if off:
        text.append(_("whists are the sheets' Codex 4.2.12 integer results (mountain "
                      "remainders settled in whole whists); exact sums: {list}").format(
                          list=", ".join(off)))
    if any(row.provisional for row in result.rows):
        text.append(_("* some of the player's sheets are not settled yet (findings or cells to "
                      "check): see `pulka show SHEET`"))
    return "\n".join(text)
