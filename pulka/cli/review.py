"""``pulka review``: the review page, a local web server where a person settles doubtful cells.

Examples::

    pulka review                       # pulka.sqlite here, http://127.0.0.1:8765/
    pulka review --db kyiv.sqlite --port 0 --user anna

Keys on the page: digits type a value and Enter saves it (Enter alone accepts the first
candidate), ``a``-``i`` accept that candidate, ``x`` illegible, ``s`` or Space skip, ``u`` or
Ctrl+Z undo, ``v`` the sheet view; keys pressed while a save is under way are refused.
Every decision is saved at once, with who and when. The server and its API:
:mod:`pulka.review.server`.
"""

from __future__ import annotations

import argparse
import getpass
import logging

from pulka.cli.store_options import add_db_argument, open_store
from pulka.errors import PulkaCommandError
from pulka.i18n import N_, _
from scoring.exitcode import ExitCode

NAME = "review"
HELP = N_("the review page: settle every doubtful cell in the browser, by keyboard")
DEFAULT_PORT = 8765

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka review``."""
    add_db_argument(parser)
    parser.add_argument("--host", default="127.0.0.1",
                        help=_("address to listen on (default 127.0.0.1: this computer only)"))
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, metavar="N",
                        help=f"port (default {DEFAULT_PORT}; 0: any free port)")
    parser.add_argument("--user", metavar="NAME",
                        help=_("who decides, saved with every decision (default: the login name)"))


def run(args: argparse.Namespace) -> ExitCode:
    """Serve until Ctrl+C; exit 0."""
    from pulka.review.server import ReviewServer

    if not 0 <= args.port <= 65535:
        raise PulkaCommandError(_("--port: {n} is not a port (0-65535)").format(n=args.port),
                                ExitCode.BAD_ARGS)
    who = args.user or _login()
    if not who.strip():
        raise PulkaCommandError(_("--user: give a name"), ExitCode.BAD_ARGS)
    with open_store(args.db):
        pass
    try:
        server = ReviewServer((args.host, args.port), args.db, who.strip())
    except OSError as error:
        raise PulkaCommandError(_("cannot listen on {address} ({reason}); try another --port, "
                                  "or --port 0").format(address=f"{args.host}:{args.port}",
                                                        reason=error.strerror),
                                ExitCode.BAD_ARGS) from None
    print("pulka review: " + _("{url} (store {db}, decisions as {who}); Ctrl+C stops").format(
        url=server.url, db=args.db, who=server.who), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("pulka review: " + _("stopped"), flush=True)
    finally:
        server.server_close()
    return ExitCode.OK


def _login() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "reviewer"
