"""Process exit codes, mapped in one place (:func:`pulka.cli.main.main`), as OCRmyPDF does."""

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


class PulkaCommandError(Exception):
    """An error a command reports to the user as one line, with its exit code."""

    def __init__(self, message: str, exit_code: ExitCode = ExitCode.BAD_INPUT) -> None:
        super().__init__(message)
        self.exit_code = exit_code
