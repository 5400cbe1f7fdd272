"""``pulka standings``: players ranked by total whists (Codex 4.1.3), per round or overall.

Examples::

    pulka standings
    pulka standings --round 2 --tiebreak remises,allpass
    pulka standings --csv standings.csv
    pulka standings --json > standings.json

The tie-breaks and how they are counted: :mod:`pulka.report.standings`.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from pulka.cli.store_options import add_db_argument, open_store
from pulka.errors import PulkaCommandError
from pulka.report.standings import (
    TIEBREAKS,
    Standings,
    check_tiebreaks,
    standings,
    whists_text,
)
from pulka.store.missing import round_gaps, round_numbers
from scoring.exitcode import ExitCode

NAME = "standings"
HELP = "rank the players by total whists (4.1.3), per round or overall; CSV and JSON"

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka standings``."""
    add_db_argument(parser)
    parser.add_argument("--tournament", help="which tournament (needed when the store has more "
                                             "than one)")
    parser.add_argument("--round", type=int, metavar="N", help="one round only")
    parser.add_argument("--tiebreak", default="", metavar="LIST",
                        help=f"tie-breaks in order, comma-separated: {', '.join(TIEBREAKS)}")
    parser.add_argument("--csv", type=Path, metavar="FILE", help="also write the table as CSV")
    parser.add_argument("--json", action="store_true", help="print pulka-standings/1 JSON")


def run(args: argparse.Namespace) -> ExitCode:
    """Rank and print, with what each round still lacks; exit 0, or 2 for a round the
    tournament does not have."""
    try:
        tiebreaks = check_tiebreaks([t.strip() for t in args.tiebreak.split(",") if t.strip()])
    except ValueError as error:
        raise PulkaCommandError(f"--tiebreak: {error}", ExitCode.BAD_ARGS) from None
    if args.round is not None and args.round < 1:
        raise PulkaCommandError(f"--round: rounds count from 1, got {args.round}",
                                ExitCode.BAD_ARGS)
    with open_store(args.db, create=False) as store:
        tid = store.tournament_id(args.tournament)
        rounds = round_numbers(store.conn, tid)
        if args.round is not None and args.round not in rounds:
            raise PulkaCommandError(
                f"--round {args.round}: the tournament has "
                + (f"rounds {', '.join(map(str, rounds))}" if rounds else "no rounds yet")
                + "; name one of them", ExitCode.BAD_ARGS)
        result = standings(store, args.tournament, args.round, tiebreaks)
        gaps = round_gaps(store.conn, tid, args.round)
    if args.csv is not None:
        try:
            args.csv.write_text(result.to_csv(), encoding="utf-8")
        except OSError as error:
            raise PulkaCommandError(f"{args.csv}: cannot write ({error.strerror})",
                                    ExitCode.BAD_ARGS) from None
    if args.json:
        json.dump(result.to_json(), sys.stdout, ensure_ascii=False, indent=1)
        print()
    else:
        print(table(result))
        print("\n".join(f"missing: {gap.text()}" for gap in gaps) or "missing: nothing")
    return ExitCode.OK


def table(result: Standings) -> str:
    """The standings as a plain-text table for people."""
    title = result.tournament or "(no tournament)"
    title += f", round {result.round}" if result.round is not None else ", overall"
    rounds = result.rounds if result.round is None and len(result.rounds) > 1 else ()
    head = ["#", "player", "whists", *(f"R{r}" for r in rounds), "sheets"]
    head += [{"remises": "remises", "allpass": "all-pass"}[t] for t in result.tiebreaks]
    lines = [head]
    for row in result.rows:
        line = [str(row.rank), row.player, whists_text(row.total)]
        line += [whists_text(row.by_round[r]) if r in row.by_round else "-" for r in rounds]
        line.append(f"{row.sheets}" + ("*" if row.provisional else ""))
        line += [str(row.remises) if t == "remises" else whists_text(row.allpass)
                 for t in result.tiebreaks]
        lines.append(line)
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    text = [title]
    for line in lines:
        text.append("  ".join(cell.ljust(w) if i == 1 else cell.rjust(w)
                              for i, (cell, w) in enumerate(zip(line, widths, strict=True))))
    states = ", ".join(f"{n} {s.replace('_', ' ')}" for s, n in sorted(result.states.items()))
    text.append(f"sheets: {states or 'none'}")
    if any(row.provisional for row in result.rows):
        text.append("* some of the player's sheets are not settled yet (findings or cells to "
                    "check): see `pulka show SHEET`")
    return "\n".join(text)
