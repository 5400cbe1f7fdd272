"""``pulka tournament``: create a tournament in the store (its rounds, tables and draw), list them.

Examples::

    pulka tournament new "Kyiv Open" --rounds 3 --tables 8
    pulka tournament new "Kyiv Open" --draw draw.csv      # the CSV `pulka print --draw` reads
    pulka tournament list [--json]
    pulka tournament seat --round 2 --table 3 --seat B --player "Сидоров Олег"   # a substitute
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from forms.render.batch import load_draw
from pulka.cli.store_options import add_db_argument, open_store
from pulka.errors import PulkaCommandError
from pulka.store.missing import round_gaps
from scoring.exitcode import ExitCode

NAME = "tournament"
HELP = "create a tournament in the store (rounds, tables, the draw) or list them"
SEATS = "ABCD"
LIST_FORMAT = "pulka-tournaments/1"

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka tournament new|list``."""
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    new = actions.add_parser("new", help="create a tournament")
    new.add_argument("name", metavar="NAME", help="the tournament's name, as printed on its sheets")
    new.add_argument("--rounds", type=int, help="number of rounds")
    new.add_argument("--tables", type=int, help="tables per round")
    new.add_argument("--draw", type=Path, metavar="CSV",
                     help="the draw: round,table,A,B,C[,D] (one line per table and round)")
    add_db_argument(new)
    listing = actions.add_parser("list", help="list the tournaments and their sheets' states")
    add_db_argument(listing)
    listing.add_argument("--json", action="store_true", help="print pulka-tournaments/1 JSON")
    seat = actions.add_parser("seat", help="change who sat in one seat of one table (a "
                                           "substitute, a wrong table); its games settle again")
    seat.add_argument("--tournament", metavar="NAME",
                      help="which tournament (needed when the store has more than one)")
    seat.add_argument("--round", type=int, required=True, metavar="R")
    seat.add_argument("--table", type=int, required=True, metavar="T")
    seat.add_argument("--seat", required=True, metavar="S", help="the seat letter: A, B, C, D")
    seat.add_argument("--player", required=True, metavar="NAME", help="who sat there")
    add_db_argument(seat)


def run(args: argparse.Namespace) -> ExitCode:
    """Create or list."""
    if args.action == "list":
        return _list(args)
    if args.action == "seat":
        return _seat(args)
    if not args.name.strip():
        raise PulkaCommandError("NAME must not be empty", ExitCode.BAD_ARGS)
    for option in ("rounds", "tables"):
        value = getattr(args, option)
        if value is not None and value < 1:
            raise PulkaCommandError(f"--{option}: must be 1 or more, got {value}",
                                    ExitCode.BAD_ARGS)
    draw = load_draw(args.draw) if args.draw is not None else None
    seatings = [(s.round, s.table, SEATS[:draw.players], s.names)
                for s in draw.seatings] if draw else []
    rounds = max([args.rounds or 0, *(s[0] for s in seatings)]) or None
    tables = max([args.tables or 0, *(s[1] for s in seatings)]) or None
    with open_store(args.db) as store:
        store.new_tournament(args.name, rounds, tables, seatings)
    players = len({n for s in seatings for n in s[3] if n})
    print(f"{args.db}: tournament {args.name!r}, {rounds or 0} rounds x {tables or 0} tables"
          + (f", {players} players from {args.draw}" if draw else ""))
    if draw is not None:
        print(f"pulka tournament: {args.draw}: {draw.describe()}", file=sys.stderr)
    return ExitCode.OK


def _list(args: argparse.Namespace) -> ExitCode:
    """Each tournament: its sheets by state, and what its rounds still lack."""
    with open_store(args.db, create=False) as store:
        listed = [(name, store.state_counts(name),
                   round_gaps(store.conn, store.tournament_id(name)))
                  for name in store.tournament_names()]
    if args.json:
        json.dump({"format": LIST_FORMAT, "tournaments": [
            {"name": name, "sheets": sum(counts.values()), "states": counts,
             "missing": [gap.to_json() for gap in gaps]} for name, counts, gaps in listed]},
            sys.stdout, ensure_ascii=False, indent=1)
        print()
        return ExitCode.OK
    for name, counts, gaps in listed:
        states = ", ".join(f"{n} {s.replace('_', ' ')}" for s, n in sorted(counts.items()))
        print(f"{name or '(no tournament)'}: {sum(counts.values())} sheets"
              + (f" ({states})" if states else ""))
        print("\n".join(f"  missing: {gap.text()}" for gap in gaps) or "  missing: nothing")
    return ExitCode.OK


def _seat(args: argparse.Namespace) -> ExitCode:
    """Seat a player at one seat of one table; the table's games settle again."""
    seat, player = args.seat.strip().upper(), args.player.strip()
    if not player:
        raise PulkaCommandError("--player: name who sat there", ExitCode.BAD_ARGS)
    if len(seat) != 1 or seat not in SEATS:
        raise PulkaCommandError(f"--seat: one of {', '.join(SEATS)}, got {args.seat!r}",
                                ExitCode.BAD_ARGS)
    with open_store(args.db, create=False) as store:
        sheets = store.seat(args.tournament, args.round, args.table, seat, player)
    print(f"{args.db}: round {args.round} table {args.table} seat {seat}: {player}; "
          + (f"settled again: {', '.join(sheets)}" if sheets else "no sheet of that table yet"))
    return ExitCode.OK
