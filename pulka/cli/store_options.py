"""The ``--db`` option shared by the store's commands, and opening the store for them."""

from __future__ import annotations

import argparse
from pathlib import Path

from pulka.errors import PulkaCommandError
from pulka.i18n import _, choose_language, use_language
from pulka.store.database import DEFAULT_DB, Store
from scoring.exitcode import ExitCode


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    """``--db FILE``: the store file (default ``pulka.sqlite`` in the current folder)."""
    parser.add_argument("--db", type=Path, default=DEFAULT_DB, metavar="FILE",
                        help=_("the tournament store (default {file} here)").format(
                            file=DEFAULT_DB))


def open_store(path: Path, create: bool = True) -> Store:
    """The store at ``path``; one clear line when it cannot be opened."""
    if not create and not path.is_file():
        raise PulkaCommandError(_("no store at {path}; create it with `pulka tournament new` or "
                                  "`pulka import`, or name it with --db").format(path=path),
                                ExitCode.BAD_ARGS)
    if path.exists() and path.is_dir():
        raise PulkaCommandError(_("--db {path} is a folder; name a file").format(path=path),
                                ExitCode.BAD_ARGS)
    return Store(path)


def speak_tournament_language(args: argparse.Namespace) -> None:
    """Speak the language stored with the tournament a command opens (``--db``, and
    ``--tournament``, the NAME of ``tournament new``, or the store's only one); a command
    without a store keeps its language. Called only when no ``--lang`` was given."""
    db = getattr(args, "db", None)
    if db is None or not Path(db).is_file():
        return
    name = getattr(args, "tournament", None) or getattr(args, "name", None) or None
    with Store(db) as store:
        stored = store.tournament_language(name)
    if stored:
        use_language(choose_language(None, stored))
