"""Exit codes and the error base that carries one, for every package (as OCRmyPDF does).

A library raises a :class:`PulkaError` subclass whose ``exit_code`` says what the failure
means; the command line turns it into the process's exit status in one place
(:func:`pulka.cli.main.main`). It lives in ``scoring``, the base package, so that every
package can raise with it (imports run scoring <- forms <- scanner <- pulka).
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """What a ``pulka`` command's exit status means."""

    OK = 0
    FINDINGS = 1
    """The command worked and found something a person must look at (audit findings,
    doubtful cells)."""
    BAD_ARGS = 2
    """Command-line arguments that make no sense (argparse uses 2 as well)."""
    BAD_INPUT = 3
    """An input file that cannot be read or does not follow its format."""
    MISSING_DEPENDENCY = 4
    """An external program (tesseract, chromium) is not installed."""
    PARTIAL = 5
    """A batch finished, but some of its files could not be read (each was reported)."""
    INTERNAL = 15
    """A bug in pulka; the traceback is logged."""
    INTERRUPTED = 130
    """Stopped by Ctrl+C (128 + SIGINT, as shells report it)."""


class PulkaError(Exception):
    """Base of every error reported as one line: ``str(error)`` is that line."""

    exit_code: ExitCode = ExitCode.BAD_INPUT
