"""``pulka samples``: sample sheets filled in real handwriting, with their ground truth.

``--record FILE`` fills one sheet from a pulka-record/1 game (``written`` is computed when the
record has none); ``--random N`` plays N random games (``--variant``, ``--players``, ``--pool``,
``--seed``) into ``OUT/sample-001`` ... . ``--photo`` or ``--scan`` degrade the pages;
``--errors N`` makes the players commit N recording errors (listed in ``truth.json``).
"""

from __future__ import annotations

import argparse
import json
import logging
import random
from pathlib import Path
from typing import Any

from pulka.exitcodes import ExitCode, PulkaCommandError
from scoring import RecordError
from scoring.rules import RuleSet

NAME = "samples"
HELP = "fill sample sheets with handwritten digits (clean, --photo or --scan) and their truth"
RANDOM_TRIES = 50
"""Random games tried per sample until one fits the sheet in whole numbers."""

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka samples``."""
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--record", type=Path, metavar="FILE", help="a pulka-record/1 JSON file")
    source.add_argument("--random", type=int, metavar="N", help="make N random games")
    parser.add_argument("--variant", default="sochi", help="variant of --random games")
    parser.add_argument("--players", type=int, default=3, help="3 or 4 (--random)")
    parser.add_argument("--pool", type=int, default=20, help="pool size (--random)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--glyphs", type=Path, metavar="DIR",
                        help="digit images in sub-folders 0/ ... 9/ (default: the shipped "
                             "held-out handwriting)")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="output folder")
    degradation = parser.add_mutually_exclusive_group()
    degradation.add_argument("--photo", action="store_true", help="as a phone photo")
    degradation.add_argument("--scan", action="store_true", help="as a flatbed scan")
    parser.add_argument("--errors", type=int, default=0, metavar="N",
                        help="recording errors the players commit (default 0)")
    parser.add_argument("--dpi", type=int, default=200, help="page resolution (default 200)")


def _check(args: argparse.Namespace) -> None:
    if args.random is not None and args.random < 1:
        raise PulkaCommandError("--random needs a positive number of games", ExitCode.BAD_ARGS)
    if args.errors < 0:
        raise PulkaCommandError("--errors cannot be negative", ExitCode.BAD_ARGS)
    if not 72 <= args.dpi <= 600:
        raise PulkaCommandError(f"--dpi {args.dpi}: use 72 to 600", ExitCode.BAD_ARGS)
    if args.players not in (3, 4):
        raise PulkaCommandError(f"--players {args.players}: use 3 or 4", ExitCode.BAD_ARGS)
    if args.out.exists() and not args.out.is_dir():
        raise PulkaCommandError(f"--out {args.out} is a file; name a folder", ExitCode.BAD_ARGS)


def _glyphs(path: Path | None) -> dict[int, list[Any]]:
    from scanner.glyphs import GlyphDirError, default_glyphs, load_glyph_dir

    if path is None:
        return default_glyphs()
    try:
        glyphs = load_glyph_dir(path)
    except GlyphDirError as error:
        raise PulkaCommandError(str(error), ExitCode.BAD_ARGS) from None
    missing = [d for d in range(10) if not glyphs.get(d)]
    if missing:
        raise PulkaCommandError(f"glyph folder {path} has no images for digit(s) "
                                f"{', '.join(map(str, missing))}; add sub-folders "
                                f"{', '.join(f'{d}/' for d in missing)}", ExitCode.BAD_ARGS)
    return glyphs


def _read_record(path: Path) -> dict[str, Any]:
    from scoring.record import parse_record

    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PulkaCommandError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise PulkaCommandError(f"{path}: cannot be read as UTF-8 text ({error})") from None
    except json.JSONDecodeError as error:
        raise PulkaCommandError(f"{path}: not JSON: {error.msg} at line {error.lineno}, "
                                f"column {error.colno}") from None
    try:
        parse_record(doc)
    except RecordError as error:
        raise PulkaCommandError(f"{path}: {error}") from None
    return doc  # type: ignore[no-any-return]


def _random_game(rules: RuleSet, rng: random.Random) -> dict[str, Any]:
    """A random game that fits the sheet in whole numbers (no Rostov half-shares)."""
    from forms.layout import build_layout
    from scanner.sample_fill import FillError, deal_values, entry_values
    from scoring.random_games import random_record, written_columns
    from scoring.record import parse_record
    from scoring.sheet import expected_sheet

    layout = build_layout(rules.players, "A4", rules.talon_prize)
    for _ in range(RANDOM_TRIES):
        doc = random_record(rules, rng)
        record = parse_record(doc)
        written = written_columns(expected_sheet(record))
        values = [v for cols in written.values() for v in
                  [*cols["pool"], *cols["mountain"], *sum(cols["whists"].values(), [])]]
        if any(isinstance(v, float) for v in values):
            continue
        try:
            entry_values(layout, written)
            deal_values(layout, record)
        except FillError:
            continue
        return doc
    raise PulkaCommandError(f"no random {rules.variant} game for {rules.players} fitted the "
                            f"sheet in {RANDOM_TRIES} tries; try a smaller --pool",
                            ExitCode.BAD_ARGS)


def run(args: argparse.Namespace) -> ExitCode:
    """Write the sample folder(s); exit 0, 2 for bad arguments, 3 for a bad record."""
    _check(args)
    from scanner.sample_fill import FillError
    from scanner.samples import make_sample
    from scoring.errors import RuleSetError

    glyphs = _glyphs(args.glyphs)
    rng = random.Random(args.seed)
    if args.record is not None:
        jobs = [(args.out, _read_record(args.record))]
    else:
        try:
            rules = RuleSet.preset(args.variant, args.players, args.pool)
        except RuleSetError as error:
            raise PulkaCommandError(str(error), ExitCode.BAD_ARGS) from None
        jobs = [(args.out / f"sample-{k + 1:03d}", _random_game(rules, rng))
                for k in range(args.random)]
    for out, doc in jobs:
        try:
            truth = make_sample(doc, out, glyphs, rng, photo=args.photo, scan=args.scan,
                                errors=args.errors, dpi=args.dpi)
        except FillError as error:
            source = args.record or "random game"
            raise PulkaCommandError(f"{source}: {error}") from None
        print(f"{out}: {len(truth.pages)} pages, {len(truth.errors)} errors, "
              f"{truth.seconds:.1f} s")
    return ExitCode.OK
