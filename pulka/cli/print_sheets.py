"""``pulka print``: printable pulka sheets as PDF (blank, a tournament batch, or filled).

Examples::

    pulka print --players 3 -o sheet.pdf
    pulka print --players 4 --variant leningrad --pool 30 --stake 0.5 --lang uk -o s.pdf
    pulka print --players 3 --tournament "Kyiv Open" --rounds 3 --tables 8 -o batch.pdf
    pulka print --players 3 --tournament "Kyiv Open" --draw draw.csv -o batch.pdf
    pulka print --record game.json -o reference.pdf
    pulka print --players 3 --tournament "Kyiv Open" --draw draw.csv --round 2 --table 3 -o t.pdf
    pulka print --players 3 --tournament "Kyiv Open" --db pulka.sqlite --round 2 --table 3 \
        --continuation 1 -o t3-continued.pdf

Every option is checked before any page is drawn; each bad one gives one line and exit 2.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

from forms.identity import SheetIdentity, make_sheet_id
from forms.labels import LANGUAGES
from forms.layout import PAPERS, build_layout
from forms.render.batch import Draw, Seating, batch_requests, blank_seatings, load_draw
from forms.render.fill import FillError, fill_from_record
from forms.render.sheet import FontMissingError, SheetRequest, render_pdf
from pulka.cli.checks import positive_options
from pulka.cli.store_options import open_store
from pulka.errors import PulkaCommandError
from pulka.i18n import N_, _, current_language, ngettext
from pulka.records import load_record
from pulka.store.errors import StoreError
from scoring.errors import RuleSetError
from scoring.exitcode import ExitCode
from scoring.limits import MAX_NAME_CHARS
from scoring.record import text_problem
from scoring.rules import SETTING_NAMES, VARIANTS, RuleSet

NAME = "print"
HELP = N_("print pulka sheets as PDF: blank, a tournament batch, or filled from a record")

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka print``."""
    parser.add_argument("--players", type=int, choices=(3, 4),
                        help=_("3 or 4 players (not needed with --record or --draw)"))
    parser.add_argument("--variant", default="sochi",
                        help=_("rules preset: {list} (default sochi)").format(
                            list=", ".join(VARIANTS)))
    parser.add_argument("--pool", default="20",
                        help=_("pool size, a positive whole number, or 'none' for a game by "
                             "time (default 20)"))
    parser.add_argument("--stake", help=_("money per whist, e.g. 0.5"))
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help=_("any other setting of RULES.md, e.g. --set talon_prize=true "
                             "--set allpass_progression='1, 2, 3, …' (repeatable)"))
    parser.add_argument("--lang", choices=LANGUAGES,
                        help=_("label language (default: the language pulka speaks: the "
                               "global --lang, else $LANG, else en)"))
    parser.add_argument("--paper", choices=PAPERS, default="A4", help=_("paper size (default A4)"))
    parser.add_argument("-o", "--output", type=Path, required=True, help=_("the PDF to write"))
    parser.add_argument("--tournament", default="",
                        help=_("tournament name, printed and in the QR"))
    parser.add_argument("--date", default="", help=_("date printed in the header"))
    parser.add_argument("--tables", type=int, help=_("tables per round (tournament batch)"))
    parser.add_argument("--rounds", type=int, help=_("rounds (tournament batch)"))
    parser.add_argument("--draw", type=Path,
                        help=_("CSV of the draw: round,table,A,B,C[,D] (one sheet per line)"))
    parser.add_argument("--names", help=_("names by seat for a single sheet, comma-separated"))
    parser.add_argument("--record", type=Path,
                        help=_("a pulka-record/1 game: print its sheet filled in a clean hand"))
    parser.add_argument("--continuation", type=int, default=0, metavar="N",
                        help=_("print continuation sheet N of each game: the first sheet's id "
                             "with -CN, its rows and entries continuing (not with --record)"))
    parser.add_argument("--round", type=int, metavar="R",
                        help=_("with --table: only that table's sheet of round R, the same "
                             "identity as the batch's (a replacement or, with --continuation, "
                             "a continuation sheet)"))
    parser.add_argument("--table", type=int, metavar="T", help=_("the table, with --round"))
    parser.add_argument("--db", type=Path, metavar="FILE",
                        help=_("with --round and --table: take the draw from this tournament "
                             "store instead of --draw"))


def run(args: argparse.Namespace) -> ExitCode:
    """Check every option, then draw the PDF."""
    args.lang = args.lang or current_language()
    draw = _read_draw(args)
    requests = _requests(args, draw)
    try:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        pages = render_pdf(requests, args.output)
    except FontMissingError as error:
        raise PulkaCommandError(str(error), ExitCode.MISSING_DEPENDENCY) from None
    except OSError as error:
        raise PulkaCommandError(_("{file}: cannot write ({reason})").format(
            file=args.output, reason=error.strerror), ExitCode.BAD_ARGS) from None
    print(f"{args.output}: "
          + ngettext("{n} sheet", "{n} sheets", len(requests)).format(n=len(requests)) + ", "
          + ngettext("{n} page", "{n} pages", pages).format(n=pages))
    if draw is not None:
        print(f"pulka print: {args.draw}: {draw.describe()}", file=sys.stderr)
    return ExitCode.OK


def rules_from_args(args: argparse.Namespace) -> RuleSet:
    """The rule set the options describe; a bad option is one line naming it."""
    if args.players is None:
        raise PulkaCommandError(_("--players is required (3 or 4), unless --record or --draw "
                                  "is given"),
                                ExitCode.BAD_ARGS)
    settings: dict[str, Any] = {"variant": args.variant, "players": args.players,
                                "pool": _pool(args.pool)}
    if args.stake is not None:
        settings["stake"] = args.stake
    for item in args.set:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or name not in SETTING_NAMES:
            raise PulkaCommandError(f"--set {item!r}: expected NAME=VALUE with NAME one of "
                                    f"{', '.join(SETTING_NAMES[3:])}", ExitCode.BAD_ARGS)
        if name in ("variant", "players", "pool", "stake"):
            raise PulkaCommandError(f"--set {name}: use --{name} instead", ExitCode.BAD_ARGS)
        try:
            settings[name] = json.loads(value)
        except json.JSONDecodeError:
            settings[name] = value
    try:
        return RuleSet.from_settings(settings)
    except RuleSetError as error:
        option = {"variant": "--variant", "pool": "--pool", "stake": "--stake"}.get(
            error.where.removeprefix("rules."), f"--set {error.where.removeprefix('rules.')}")
        raise PulkaCommandError(f"{option}: {error.reason}", ExitCode.BAD_ARGS) from None


def _pool(text: str) -> int | None:
    if text.strip().lower() in ("none", "null", "time", "by-time"):
        return None
    try:
        pool = int(text)
    except ValueError:
        raise PulkaCommandError(_("--pool: expected a positive whole number or 'none', got "
                                  "{value!r}").format(value=text), ExitCode.BAD_ARGS) from None
    if pool < 1:
        raise PulkaCommandError(_("--pool: must be a positive whole number (or 'none' for a "
                                  "game by time), got {n}").format(n=pool), ExitCode.BAD_ARGS)
    return pool


def _check_texts(args: argparse.Namespace) -> None:
    """The texts printed and put into the QR code, within :data:`MAX_NAME_CHARS` each."""
    names = args.names.split(",") if args.names else []
    for option, value in [("tournament", args.tournament), ("date", args.date),
                          *(("names", name.strip()) for name in names)]:
        problem = text_problem(value, MAX_NAME_CHARS)
        if problem:
            raise PulkaCommandError(f"--{option}: {value[:20]!r}... {problem}",
                                    ExitCode.BAD_ARGS)


def _read_draw(args: argparse.Namespace) -> Draw | None:
    """The ``--draw`` file read (its table size becomes ``--players`` when not given)."""
    if args.draw is None or args.record is not None:
        return None
    draw = load_draw(args.draw, args.players)
    args.players = draw.players
    return draw


def _requests(args: argparse.Namespace, draw: Draw | None = None) -> list[SheetRequest]:
    """The sheets the options ask for (``draw``: the ``--draw`` file, read when not given)."""
    draw = draw or _read_draw(args)
    _check_texts(args)
    if args.record is not None:
        return _record_requests(args)
    if args.continuation < 0:
        raise PulkaCommandError("--continuation: must be 0 or more", ExitCode.BAD_ARGS)
    rules = rules_from_args(args)
    if args.round is not None or args.table is not None:
        return _table_requests(args, rules, draw)
    if args.db is not None:
        raise PulkaCommandError(_("--db gives the draw of one table: add --round and --table"),
                                ExitCode.BAD_ARGS)
    if args.tables is not None or args.rounds is not None or draw is not None:
        return _batch_requests(args, rules, draw)
    names = tuple(n.strip() for n in args.names.split(",")) if args.names else ()
    if names and len(names) != rules.players:
        raise PulkaCommandError(_("--names: {names} for {players}").format(
            names=ngettext("{n} name", "{n} names", len(names)).format(n=len(names)),
            players=ngettext("{n} player", "{n} players", rules.players).format(
                n=rules.players)),
                                ExitCode.BAD_ARGS)
    layout = build_layout(rules.players, args.paper, rules.talon_prize)
    # named players: the same id every time, so a continuation printed later joins its game
    salt = f"{args.tournament}|{args.date}" if names else None
    identity = SheetIdentity(
        sheet_id=make_sheet_id(args.tournament, None, None, rules.id, names, salt=salt),
        tournament=args.tournament, round=None, table=None, page=0, continuation=0,
        layout_id=layout.id, rules_id=rules.id, rules=rules.settings(), seats=layout.seats,
        names=names or ("",) * rules.players, date=args.date)
    return [SheetRequest(layout, identity.continued(args.continuation), args.lang)]


def _table_requests(args: argparse.Namespace, rules: RuleSet,
                    draw: Draw | None) -> list[SheetRequest]:
    """The sheet of one table of one round, from the draw file or the store."""
    if args.round is None or args.table is None:
        raise PulkaCommandError(_("--round and --table go together: name the round and the "
                                  "table whose sheet to print"), ExitCode.BAD_ARGS)
    if draw is not None:
        source, tournament = str(args.draw), args.tournament
        seatings = [s for s in draw.seatings if (s.round, s.table) == (args.round, args.table)]
    elif args.db is not None:
        source = str(args.db)
        tournament, seatings = _store_seating(args, rules)
    else:
        raise PulkaCommandError(_("--round and --table need the draw: give --draw FILE or "
                                  "--db FILE"), ExitCode.BAD_ARGS)
    if not seatings:
        raise PulkaCommandError(_("{file}: the draw has no table {table} in round {round}; "
                                  "check --round and --table").format(
                                      file=source, table=args.table, round=args.round),
                                ExitCode.BAD_INPUT)
    return list(batch_requests(seatings, rules, tournament, args.lang, args.paper, args.date,
                               args.continuation))


def _store_seating(args: argparse.Namespace, rules: RuleSet) -> tuple[str, list[Seating]]:
    """The tournament's name and the chosen table's seating, read from the store."""
    with open_store(args.db, create=False) as store:
        try:
            found = store.table_seating(args.tournament or None, args.round, args.table)
        except StoreError as error:
            raise PulkaCommandError(str(error), ExitCode.BAD_ARGS) from None
    if found is None:
        return args.tournament, []
    tournament, by_seat = found
    names = tuple(by_seat.get(seat, "") for seat in "ABCD"[:rules.players])
    return tournament, [Seating(args.round, args.table, names)]


def _batch_requests(args: argparse.Namespace, rules: RuleSet,
                    draw: Draw | None) -> list[SheetRequest]:
    positive_options(args, "tables", "rounds")
    if draw is not None:
        seatings = draw.seatings
        if args.tables is not None and max(s.table for s in seatings) > args.tables:
            raise PulkaCommandError(f"{args.draw}: the draw has table "
                                    f"{max(s.table for s in seatings)}, --tables says "
                                    f"{args.tables}", ExitCode.BAD_ARGS)
        if args.rounds is not None and max(s.round for s in seatings) > args.rounds:
            raise PulkaCommandError(f"{args.draw}: the draw has round "
                                    f"{max(s.round for s in seatings)}, --rounds says "
                                    f"{args.rounds}", ExitCode.BAD_ARGS)
    else:
        if args.tables is None or args.rounds is None:
            raise PulkaCommandError("a tournament batch needs --tables and --rounds, or "
                                    "--draw", ExitCode.BAD_ARGS)
        seatings = blank_seatings(args.rounds, args.tables, rules.players)
    return list(batch_requests(seatings, rules, args.tournament, args.lang, args.paper,
                               args.date, args.continuation))


def _record_requests(args: argparse.Namespace) -> list[SheetRequest]:
    if any(v is not None for v in (args.tables, args.rounds, args.draw, args.round, args.table)):
        raise PulkaCommandError("--record prints one game; leave out --tables, --rounds, "
                                "--draw, --round and --table", ExitCode.BAD_ARGS)
    if args.continuation:
        raise PulkaCommandError("--record prints every sheet of the game, continuations "
                                "included; leave out --continuation", ExitCode.BAD_ARGS)
    record = load_record(args.record)
    rules = record.rules
    if args.players is not None and args.players != rules.players:
        raise PulkaCommandError(f"--players {args.players}: the record is for "
                                f"{rules.players} players", ExitCode.BAD_ARGS)
    layout = build_layout(rules.players, args.paper, rules.talon_prize)
    try:
        fills = fill_from_record(record, layout)
    except FillError as error:
        raise PulkaCommandError(f"{args.record}: {error}", ExitCode.BAD_INPUT) from None
    names = tuple(record.names.get(seat, "") for seat in record.seats)
    requests = []
    for continuation, fill in enumerate(fills):
        identity = SheetIdentity(
            sheet_id=make_sheet_id(args.tournament, None, None, rules.id, names, continuation,
                                   salt=str(args.record.name)),
            tournament=args.tournament, round=None, table=None, page=0,
            continuation=continuation, layout_id=layout.id, rules_id=rules.id,
            rules=rules.settings(), seats=layout.seats, names=names, date=args.date)
        requests.append(SheetRequest(layout, identity, args.lang, fill))
    return requests
