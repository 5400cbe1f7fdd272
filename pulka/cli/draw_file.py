"""A draw CSV read for a command (``print --draw``, ``tournament new --draw``): what was
detected said on stderr, a problem one line."""

from __future__ import annotations

import sys
from pathlib import Path

from forms.render.batch import Draw, DrawError, load_draw
from pulka.exitcodes import ExitCode, PulkaCommandError


def read_draw_file(path: Path, players: int | None, command: str) -> Draw:
    """The draw file read (its table size checked against ``players`` when given), with its
    encoding, separator and size said on stderr."""
    try:
        draw = load_draw(path, players)
    except DrawError as error:
        raise PulkaCommandError(str(error), ExitCode.BAD_INPUT) from None
    rounds = len({s.round for s in draw.seatings})
    print(f"pulka {command}: {path}: {draw.describe()}; {draw.players} players, "
          f"{len(draw.seatings)} tables in {rounds} rounds", file=sys.stderr)
    return draw
