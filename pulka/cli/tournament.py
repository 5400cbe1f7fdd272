"""``pulka tournament``: create a tournament in the store (its rounds, tables and draw), list them.

Examples::

    pulka tournament new "Kyiv Open" --rounds 3 --tables 8
    pulka tournament new "Kyiv Open" --draw draw.csv      # the CSV `pulka print --draw` reads
    pulka tournament list
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from forms.render.batch import load_draw
from pulka.cli.store_options import add_db_argument, open_store
from pulka.errors import PulkaCommandError
from scoring.exitcode import ExitCode

NAME = "tournament"
HELP = "create a tournament in the store (rounds, tables, the draw) or list them"
SEATS = "ABCD"

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


def run(args: argparse.Namespace) -> ExitCode:
    """Create or list."""
    if args.action == "list":
        return _list(args)
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
    with open_store(args.db, create=False) as store:
        for name in store.tournament_names():
            counts = store.state_counts(name)
            states = ", ".join(f"{n} {s.replace('_', ' ')}" for s, n in sorted(counts.items()))
            print(f"{name or '(no tournament)'}: {sum(counts.values())} sheets"
                  + (f" ({states})" if states else ""))
    return ExitCode.OK
