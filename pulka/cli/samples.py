"""``pulka samples``: sample sheets filled in real handwriting, with their ground truth.

``--record FILE`` fills one sheet from a pulka-record/1 game (``written`` is computed when the
record has none); ``--random N`` plays N random games (``--variant``, ``--players``, ``--pool``,
``--seed``) into ``OUT/sample-001`` ... ; ``--draw CSV --tournament NAME`` fills the sheets of a
tournament batch, one random game per line of the draw (the CSV ``pulka print --draw`` reads, the
same sheet ids and names: :func:`forms.render.batch.batch_requests`) into ``OUT/r<round>-t<table>``.
``--photo`` or ``--scan`` degrade the pages (``--photo-every K``: every K-th sample a photo, the
others clean or ``--scan``); ``--errors N`` makes the players commit N recording errors (listed in
``truth.json``; ``--errors-every K``: on every K-th sample only).
``--profile open`` fills with the open generator instead of the old one (``legacy``, the
default): writers, inks, marks and captures drawn from one ``--part`` of the split
(``training``, the default, or ``evaluation``: :mod:`samplegen.split`), spread evenly over
its classes (:func:`samplegen.profiles.plan_sheets`).

Examples::

    pulka samples --random 5 --scan --errors 2 --out samples
    pulka print --players 3 --tournament Open --draw draw.csv -o batch.pdf
    pulka samples --draw draw.csv --tournament Open --scan --photo-every 4 --out filled
    pulka samples --random 8 --profile open --part evaluation --dpi 300 --out eval
"""

from __future__ import annotations

import argparse
import logging
import random
from pathlib import Path
from typing import Any

from forms.identity import SheetIdentity
from pulka.errors import PulkaCommandError
from pulka.i18n import N_, _
from scoring import RecordError
from scoring.exitcode import ExitCode
from scoring.rules import RuleSet

NAME = "samples"
HELP = N_("fill sample sheets with handwritten digits (clean, --photo or --scan) and their truth")
RANDOM_TRIES = 50
"""Random games tried per sample until one fits the sheet in whole numbers."""

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka samples``."""
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--record", type=Path, metavar="FILE", help=_("a pulka-record/1 JSON file"))
    source.add_argument("--random", type=int, metavar="N", help=_("make N random games"))
    source.add_argument("--draw", type=Path, metavar="CSV",
                        help=_("fill the sheets of this draw (round,table,A,B,C[,D], the CSV of "
                             "pulka print --draw), one random game each, into "
                             "OUT/r<round>-t<table>"))
    parser.add_argument("--tournament", metavar="NAME",
                        help=_("the tournament of the --draw batch (as given to pulka print)"))
    parser.add_argument("--variant", default="sochi", help=_("variant of --random games"))
    parser.add_argument("--players", type=int, default=3, help=_("3 or 4 (--random)"))
    parser.add_argument("--pool", type=int, default=20, help=_("pool size (--random)"))
    parser.add_argument("--seed", type=int, default=1, help=_("random seed (default 1)"))
    parser.add_argument("--glyphs", type=Path, metavar="DIR",
                        help=_("digit images in sub-folders 0/ ... 9/ (default: the shipped "
                             "held-out handwriting)"))
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help=_("output folder"))
    degradation = parser.add_mutually_exclusive_group()
    degradation.add_argument("--photo", action="store_true", help=_("as a phone photo"))
    degradation.add_argument("--scan", action="store_true", help=_("as a flatbed scan"))
    parser.add_argument("--photo-every", type=int, metavar="K",
                        help=_("photograph every K-th sample (the K-th, 2K-th, ...); the others "
                             "clean or --scan"))
    parser.add_argument("--errors", type=int, default=0, metavar="N",
                        help=_("recording errors the players commit (default 0)"))
    parser.add_argument("--errors-every", type=int, metavar="K",
                        help=_("--errors on every K-th sample only (default: on every one)"))
    parser.add_argument("--dpi", type=int, default=200, help=_("page resolution (default 200)"))
    parser.add_argument("--profile", choices=("legacy", "open"), default="legacy",
                        help=_("legacy: the old generator (MNIST digits in the box, neat "
                             "crosses); open: fonts, pen-stroke writers, inks, marks and "
                             "captures of one --part"))
    parser.add_argument("--part", choices=("training", "evaluation"), default="training",
                        help=_("the part of the split the open profile draws from (default "
                             "training; the evaluation part is for measuring only)"))


def _check(args: argparse.Namespace) -> None:
    if args.random is not None and args.random < 1:
        raise PulkaCommandError("--random needs a positive number of games", ExitCode.BAD_ARGS)
    if args.errors < 0:
        raise PulkaCommandError("--errors cannot be negative", ExitCode.BAD_ARGS)
    for option in ("photo_every", "errors_every"):
        value = getattr(args, option)
        if value is not None and value < 1:
            raise PulkaCommandError(f"--{option.replace('_', '-')} must be 1 or more, got "
                                    f"{value}", ExitCode.BAD_ARGS)
    if args.photo and args.photo_every is not None:
        raise PulkaCommandError("--photo photographs every sample; leave out --photo-every",
                                ExitCode.BAD_ARGS)
    if args.draw is not None and not args.tournament:
        raise PulkaCommandError("--draw needs --tournament NAME, the name the batch was "
                                "printed with (it is part of every sheet id)", ExitCode.BAD_ARGS)
    if args.draw is None and args.tournament is not None:
        raise PulkaCommandError("--tournament goes with --draw", ExitCode.BAD_ARGS)
    if args.profile == "open":
        given = [o for o, v in (("--photo", args.photo), ("--scan", args.scan),
                                ("--photo-every", args.photo_every), ("--glyphs", args.glyphs))
                 if v]
        if given:
            raise PulkaCommandError(f"--profile open draws its own glyphs and captures; leave "
                                    f"out {', '.join(given)}", ExitCode.BAD_ARGS)
    elif args.part != "training":
        raise PulkaCommandError("--part evaluation needs --profile open (the legacy profile "
                                "is the training part's old generator)", ExitCode.BAD_ARGS)
    if not 72 <= args.dpi <= 600:
        raise PulkaCommandError(f"--dpi {args.dpi}: use 72 to 600", ExitCode.BAD_ARGS)
    if args.players not in (3, 4):
        raise PulkaCommandError(f"--players {args.players}: use 3 or 4", ExitCode.BAD_ARGS)
    if args.out.exists() and not args.out.is_dir():
        raise PulkaCommandError(f"--out {args.out} is a file; name a folder", ExitCode.BAD_ARGS)


def _glyphs(path: Path | None) -> dict[int, list[Any]]:
    from samplegen.glyphs import default_glyphs, load_glyph_dir

    if path is None:
        return default_glyphs()
    glyphs = load_glyph_dir(path)
    missing = [d for d in range(10) if not glyphs.get(d)]
    if missing:
        raise PulkaCommandError(f"glyph folder {path} has no images for digit(s) "
                                f"{', '.join(map(str, missing))}; add sub-folders "
                                f"{', '.join(f'{d}/' for d in missing)}", ExitCode.BAD_ARGS)
    return glyphs


def _read_record(path: Path) -> dict[str, Any]:
    from forms.layout import build_layout
    from pulka.records import load_json_file
    from scoring.record import parse_record, relabel_seats

    doc = load_json_file(path)
    try:
        record = parse_record(doc)
    except RecordError as error:
        raise PulkaCommandError(f"{path}: {error}") from None
    return relabel_seats(doc, build_layout(record.rules.players).seats)


def _random_game(rules: RuleSet, rng: random.Random) -> dict[str, Any]:
    """A random game that fits the sheet in whole numbers (no Rostov half-shares)."""
    from forms.render.fill import FillError
    from samplegen.games import fitting_game

    try:
        return fitting_game(rules, rng, RANDOM_TRIES)
    except FillError as error:
        raise PulkaCommandError(f"{error} (--pool)", ExitCode.BAD_ARGS) from None


def run(args: argparse.Namespace) -> ExitCode:
    """Write the sample folder(s); exit 0, 2 for bad arguments, 3 for a bad record or draw."""
    _check(args)
    from forms.render.fill import FillError
    from samplegen.sheets import make_sample
    from scoring.errors import RuleSetError

    glyphs = _glyphs(args.glyphs) if args.profile == "legacy" else {}
    rng = random.Random(args.seed)
    jobs: list[tuple[Path, dict[str, Any], SheetIdentity | None]]
    if args.record is not None:
        jobs = [(args.out, _read_record(args.record), None)]
    else:
        try:
            rules = RuleSet.preset(args.variant, args.players, args.pool)
        except RuleSetError as error:
            raise PulkaCommandError(str(error), ExitCode.BAD_ARGS) from None
        if args.draw is not None:
            jobs = [(args.out / f"r{i.round}-t{i.table:02d}", _random_game(rules, rng), i)
                    for i in draw_identities(args.draw, rules, args.tournament)]
        else:
            jobs = [(args.out / f"sample-{k + 1:03d}", _random_game(rules, rng), None)
                    for k in range(args.random)]
    plans = _plans(args, len(jobs))
    for number, ((out, doc, identity), plan) in enumerate(zip(jobs, plans, strict=True),
                                                         start=1):
        photo = args.photo or (args.photo_every is not None and number % args.photo_every == 0)
        errors = args.errors if args.errors_every is None or number % args.errors_every == 0 \
            else 0
        try:
            truth = make_sample(doc, out, glyphs, rng, photo=photo, scan=args.scan and not photo,
                                errors=errors, dpi=args.dpi, identity=identity, plan=plan)
        except FillError as error:
            source = args.record or "random game"
            raise PulkaCommandError(f"{source}: {error}") from None
        kind = f", {plan.label()}" if plan else ", photo" if photo else \
            ", scan" if args.scan else ""
        print(f"{out}: {truth.sheet_id}, {len(truth.pages)} pages, {len(truth.errors)} errors"
              f"{kind}, {truth.seconds:.1f} s")
    return ExitCode.OK


def _plans(args: argparse.Namespace, count: int) -> list[Any]:
    """The open profile's sheet plans (``None`` each for the legacy profile)."""
    if args.profile == "legacy":
        return [None] * count
    from samplegen.profiles import ProfileError, plan_sheets
    from samplegen.split import Part

    try:
        return list(plan_sheets("open", Part(args.part), count))
    except ProfileError as error:
        raise PulkaCommandError(str(error), ExitCode.BAD_ARGS) from None


def draw_identities(path: Path, rules: RuleSet, tournament: str) -> list[SheetIdentity]:
    """The identities ``pulka print --draw`` prints for this draw, tournament and rules."""
    from forms.render.batch import batch_requests, read_draw

    seatings = read_draw(path, rules.players)
    return [request.identity for request in batch_requests(seatings, rules, tournament, "ru")]
