"""Checks of command-line values that argparse cannot make itself."""

from __future__ import annotations

import argparse

from pulka.errors import PulkaCommandError
from pulka.i18n import _
from scoring.exitcode import ExitCode


def positive_options(args: argparse.Namespace, *options: str) -> None:
    """Refuse any of ``options`` given with a value below 1 (rounds, tables)."""
    for option in options:
        value = getattr(args, option)
        if value is not None and value < 1:
            raise PulkaCommandError(_("--{option}: must be 1 or more, got {n}").format(
                option=option, n=value), ExitCode.BAD_ARGS)
