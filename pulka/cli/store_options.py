"""The ``--db`` option shared by the store's commands, and opening the store for them."""

from __future__ import annotations

import argparse
from pathlib import Path

from pulka.errors import PulkaCommandError
from pulka.store.database import DEFAULT_DB, Store
from scoring.exitcode import ExitCode


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    """``--db FILE``: the store file (default ``pulka.sqlite`` in the current folder)."""
    parser.add_argument("--db", type=Path, default=DEFAULT_DB, metavar="FILE",
                        help=f"the tournament store (default {DEFAULT_DB} here)")


def open_store(path: Path, create: bool = True) -> Store:
    """The store at ``path``; one clear line when it cannot be opened."""
    if not create and not path.is_file():
        raise PulkaCommandError(f"no store at {path}; create it with `pulka tournament new` or "
                                f"`pulka import`, or name it with --db", ExitCode.BAD_ARGS)
    if path.exists() and path.is_dir():
        raise PulkaCommandError(f"--db {path} is a folder; name a file", ExitCode.BAD_ARGS)
    return Store(path)
