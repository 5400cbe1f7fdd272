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
from pulka.cli.checks import positive_options
from pulka.cli.store_options import add_db_argument, open_store
from pulka.errors import PulkaCommandError
from pulka.i18n import LANGUAGES, N_, _, ngettext
from pulka.report.text import states_text
from pulka.store.missing import round_gaps
from scoring.exitcode import ExitCode
from scoring.limits import MAX_NAME_CHARS
from scoring.record import text_problem

NAME = "tournament"
HELP = N_("create a tournament in the store (rounds, tables, the draw) or list them")
SEATS = "ABCD"
LIST_FORMAT = "pulka-tournaments/1"

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka tournament new|list``."""
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    new = actions.add_parser("new", help=_("create a tournament"))
    new.add_argument("name", metavar="NAME",
                     help=_("the tournament's name, as printed on its sheets"))
    new.add_argument("--rounds", type=int, help=_("number of rounds"))
    new.add_argument("--tables", type=int, help=_("tables per round"))
    new.add_argument("--draw", type=Path, metavar="CSV",
                     help=_("the draw: round,table,A,B,C[,D] (one line per table and round)"))
    new.add_argument("--lang", dest="language", choices=LANGUAGES,
                     help=_("the tournament's language: every command on it speaks it unless "
                            "--lang says otherwise, and its sheets are printed in it"))
    add_db_argument(new)
    listing = actions.add_parser("list", help=_("list the tournaments and their sheets' states"))
    add_db_argument(listing)
    listing.add_argument("--json", action="store_true", help=_("print {format} JSON").format(
        format=LIST_FORMAT))
    seat = actions.add_parser("seat", help=_("change who sat in one seat of one table (a "
                                           "substitute, a wrong table); its games settle again"))
    seat.add_argument("--tournament", metavar="NAME",
                      help=_("which tournament (needed when the store has more than one)"))
    seat.add_argument("--round", type=int, required=True, metavar="R")
    seat.add_argument("--table", type=int, required=True, metavar="T")
    seat.add_argument("--seat", required=True, metavar="S", help=_("the seat letter: A, B, C, D"))
    seat.add_argument("--player", required=True, metavar="NAME", help=_("who sat there"))
    add_db_argument(seat)


def run(args: argparse.Namespace) -> ExitCode:
    """Create or list."""
    if args.action == "list":
        return _list(args)
    if args.action == "seat":
        return _seat(args)
    if not args.name.strip():
        raise PulkaCommandError(_("NAME must not be empty"), ExitCode.BAD_ARGS)
    problem = text_problem(args.name, MAX_NAME_CHARS)
    if problem:
        raise PulkaCommandError(f"NAME {args.name[:20]!r}... {problem}", ExitCode.BAD_ARGS)
    positive_options(args, "rounds", "tables")
    draw = load_draw(args.draw) if args.draw is not None else None
    seatings = [(s.round, s.table, SEATS[:draw.players], s.names)
                for s in draw.seatings] if draw else []
    rounds = max([args.rounds or 0, *(s[0] for s in seatings)]) or None
    tables = max([args.tables or 0, *(s[1] for s in seatings)]) or None
    with open_store(args.db) as store:
        store.new_tournament(args.name, rounds, tables, seatings, args.language)
    players = len({n for s in seatings for n in s[3] if n})
    print(_("{db}: tournament {name!r}, {rounds} x {tables}").format(
        db=args.db, name=args.name,
        rounds=ngettext("{n} round", "{n} rounds", rounds or 0).format(n=rounds or 0),
        tables=ngettext("{n} table", "{n} tables", tables or 0).format(n=tables or 0))
          + (", " + ngettext("{n} player from {file}", "{n} players from {file}", players).format(
              n=players, file=args.draw) if draw else ""))
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
        states, total = states_text(counts), sum(counts.values())
        print(f"{name or _('(no tournament)')}: "
              + ngettext("{n} sheet", "{n} sheets", total).format(n=total)
              + (f" ({states})" if states else ""))
        print("\n".join("  " + _("missing: {what}").format(what=gap.text()) for gap in gaps)
              or "  " + _("missing: nothing"))
    return ExitCode.OK


def _seat(args: argparse.Namespace) -> ExitCode:
    """Seat a player at one seat of one table; the table's games settle again."""
    seat, player = args.seat.strip().upper(), args.player.strip()
    if not player:
        raise PulkaCommandError(_("--player: name who sat there"), ExitCode.BAD_ARGS)
    if len(seat) != 1 or seat not in SEATS:
        raise PulkaCommandError(_("--seat: one of {list}, got {value!r}").format(
            list=", ".join(SEATS), value=args.seat),
                                ExitCode.BAD_ARGS)
    with open_store(args.db, create=False) as store:
        sheets = store.seat(args.tournament, args.round, args.table, seat, player)
    print(_("{db}: round {round} table {table} seat {seat}: {player}; ").format(
        db=args.db, round=args.round, table=args.table, seat=seat, player=player)
          + (_("settled again: {ids}").format(ids=", ".join(sheets)) if sheets
             else _("no sheet of that table yet")))
    return ExitCode.OK
