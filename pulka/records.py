"""Read a game record file: JSON errors and record errors name the file."""

from __future__ import annotations

import json
from pathlib import Path

from pulka.errors import PulkaCommandError
from scoring import GameRecord, RecordError, parse_record
from scoring.exitcode import ExitCode


def load_record(path: Path) -> GameRecord:
    """Parse a ``pulka-record/1`` file; every problem is one line naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PulkaCommandError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise PulkaCommandError(f"{path}: cannot be read as UTF-8 text ({error})") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        raise PulkaCommandError(f"{path}: not JSON: {error.msg} at line {error.lineno}, "
                                f"column {error.colno}") from None
    try:
        return parse_record(doc)
    except RecordError as error:
        raise PulkaCommandError(f"{path}: {error}", ExitCode.BAD_INPUT) from None
