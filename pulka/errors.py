"""The command line's own error: one line for the user and the exit code it means."""

from __future__ import annotations

from scoring.exitcode import ExitCode, PulkaError


class PulkaCommandError(PulkaError):
    """An error a command reports to the user as one line, with its exit code."""

    def __init__(self, message: str, exit_code: ExitCode = ExitCode.BAD_INPUT) -> None:
        super().__init__(message)
        self.exit_code = exit_code
