"""What the store refuses, each as one line naming the store file, sheet, cell or field.

SQLite's own failures are turned into these at the store's edge (:func:`sqlite_errors`): a
lock another writer holds past the wait becomes :class:`StoreBusy`, a file that is no SQLite
database (or a damaged one) :class:`DamagedStore`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from scoring.exitcode import ExitCode, PulkaError

SQLITE_INTEGER_MAX = 2**63 - 1
"""Largest whole number an SQLite INTEGER column holds."""


class StoreError(PulkaError, ValueError):
    """A request the store cannot do: the message names the sheet, cell or tournament."""

    exit_code = ExitCode.BAD_ARGS


class StoreBusy(StoreError):
    """Another program held the store's write lock for longer than the store waits."""

    exit_code = ExitCode.BAD_INPUT


class DamagedStore(StoreError):
    """The store file is no SQLite database, or a damaged one."""

    exit_code = ExitCode.BAD_INPUT


@contextmanager
def sqlite_errors(path: Path, wait_s: float) -> Iterator[None]:
    """Turn SQLite's lock and damage errors into :class:`StoreBusy` and :class:`DamagedStore`."""
    try:
        yield
    except sqlite3.OperationalError as error:
        if "locked" not in str(error) and "busy" not in str(error):
            raise
        raise StoreBusy(f"{path}: another program (an import, the review page) is writing to "
                        f"the store and did not finish within {wait_s:g} s; try again when "
                        f"it has finished") from None
    except sqlite3.DatabaseError as error:
        if isinstance(error, sqlite3.IntegrityError | sqlite3.ProgrammingError):
            raise
        raise DamagedStore(f"{path}: not a pulka store, or a damaged one ({error}); name "
                           f"another file with --db, or restore this one from a copy") from None


def whole_number(field: str, value: int | None, high: int = SQLITE_INTEGER_MAX) -> int | None:
    """A whole number the store can hold, from 1 to ``high``; :class:`StoreError` naming
    the field otherwise."""
    if value is not None and not 1 <= value <= high:
        raise StoreError(f"{field}: {str(value)[:30]} is outside 1 to {high}")
    return value


class GuardedConnection(sqlite3.Connection):
    """A connection whose statements raise :class:`StoreBusy` and :class:`DamagedStore`
    instead of SQLite's own errors (``sqlite3.connect(..., factory=GuardedConnection)``)."""

    store_path = Path()
    wait_s = 0.0

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        """As :meth:`sqlite3.Connection.execute`."""
        with sqlite_errors(self.store_path, self.wait_s):
            return super().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> sqlite3.Cursor:
        """As :meth:`sqlite3.Connection.executemany`."""
        with sqlite_errors(self.store_path, self.wait_s):
            return super().executemany(sql, parameters)

    def executescript(self, script: str, /) -> sqlite3.Cursor:
        """As :meth:`sqlite3.Connection.executescript`."""
        with sqlite_errors(self.store_path, self.wait_s):
            return super().executescript(script)
