"""Read a game record file: every problem (the file, its text, its JSON, the record) is one
line naming the file and the field."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

from pulka.errors import PulkaCommandError
from scoring import GameRecord, RecordError, parse_record
from scoring.exitcode import ExitCode
from scoring.limits import MAX_TEXT_FILE_BYTES
from scoring.record import load_json


def read_text_file(path: Path, what: str) -> bytes:
    """The bytes of a regular file of at most :data:`~scoring.limits.MAX_TEXT_FILE_BYTES`;
    a pipe, a folder or a missing file is one line naming it (``what``: "record", "draw")."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise PulkaCommandError(f"{path}: no such file") from None
    except OSError as error:
        raise PulkaCommandError(f"{path}: cannot read the {what} ({error.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise PulkaCommandError(f"{path}: not a regular file; give the {what} file itself")
    if info.st_size > MAX_TEXT_FILE_BYTES:
        raise PulkaCommandError(f"{path}: {info.st_size} bytes, more than a {what} can be "
                                f"({MAX_TEXT_FILE_BYTES}); check that it is the right file")
    try:
        return path.read_bytes()
    except OSError as error:
        raise PulkaCommandError(f"{path}: cannot read the {what} ({error.strerror})") from None


def load_json_file(path: Path, what: str = "record") -> Any:
    """A UTF-8 JSON file decoded within :mod:`scoring.limits`; a problem is one line."""
    data = read_text_file(path, what)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise PulkaCommandError(f"{path}: cannot be read as UTF-8 text (byte "
                                f"{data[error.start]:#04x} at offset {error.start}); save it "
                                f"as UTF-8") from None
    try:
        return load_json(text)
    except RecordError as error:
        raise PulkaCommandError(f"{path}: {error}") from None


def load_record(path: Path) -> GameRecord:
    """Parse a ``pulka-record/1`` file; every problem is one line naming the file."""
    doc = load_json_file(path)
    try:
        return parse_record(doc)
    except RecordError as error:
        raise PulkaCommandError(f"{path}: {error}", ExitCode.BAD_INPUT) from None
