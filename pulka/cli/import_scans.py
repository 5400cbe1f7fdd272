"""``pulka import``: scan folders of sheet images into the tournament store.

Examples::

    pulka import photos/round-1 photos/round-2
    pulka import photos --db kyiv.sqlite --out kyiv-scans --jobs 8
    pulka import kyiv-scans          # the scans already made (their scan.json), read back
    pulka import other-cup --tournament "Other Cup"   # a second tournament, on purpose
    pulka import photos --json       # what was done, as pulka-import/1

Images are scanned on all cores (``--jobs``); a page already imported is recognised by its
content and skipped; a re-scan never overwrites a cell a person verified. Each file that
cannot be read gives one line; the rest is imported, and the exit status is then 5 (PARTIAL);
otherwise 1 (FINDINGS) when a sheet needs review or was refused (blank, of another
tournament, an id stored with another identity: :mod:`pulka.store.gate`), else 0.
What a folder may hold: :mod:`pulka.store.importer`.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from pulka.cli.progress import ProgressBar
from pulka.cli.store_options import add_db_argument, open_store
from pulka.errors import PulkaCommandError
from pulka.i18n import N_, _, ngettext
from pulka.report.said_text import said_text
from pulka.report.text import states_text
from pulka.store.importer import (
    Admission,
    ImportReport,
    collect,
    import_paths,
    pipeline_available,
)
from scoring.exitcode import ExitCode

NAME = "import"
HELP = N_("scan folders of sheet images into the tournament store (all cores)")

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka import``."""
    parser.add_argument("folders", nargs="+", type=Path, metavar="FOLDER",
                        help=_("folders (walked) or files: images, or scan.json documents"))
    add_db_argument(parser)
    parser.add_argument("--out", type=Path, metavar="DIR",
                        help=_("where each sheet's scan goes (straightened pages, crops, "
                             "scan.json); default: <db name>-scans beside the store"))
    parser.add_argument("--jobs", type=int, default=0, metavar="N",
                        help=_("worker processes (default: all cores)"))
    parser.add_argument("--rescan", action="store_true",
                        help=_("scan images again even when already imported (verified cells "
                             "still keep their values)"))
    parser.add_argument("--tournament", metavar="NAME",
                        help=_("import sheets of tournament NAME even when the store does not "
                             "hold it yet (starts a second tournament)"))
    parser.add_argument("--replace", action="store_true",
                        help=_("store a sheet whose id is stored with another identity in "
                             "place of the stored one"))
    parser.add_argument("--json", action="store_true", help=_("print {format} JSON").format(
        format="pulka-import/1"))


def run(args: argparse.Namespace) -> ExitCode:
    """Import; exit 0, 1 (FINDINGS) when a sheet needs review or was refused, 5 (PARTIAL)
    when some files failed."""
    if args.jobs < 0:
        raise PulkaCommandError(_("--jobs: must be 1 or more (0: all cores), got {n}").format(
            n=args.jobs),
                                ExitCode.BAD_ARGS)
    out_dir = args.out or args.db.with_name(f"{args.db.stem}-scans")
    if out_dir.exists() and not out_dir.is_dir():
        raise PulkaCommandError(_("--out {path} is a file; name a folder").format(path=out_dir),
                                ExitCode.BAD_ARGS)
    try:
        inputs = collect(args.folders, out_dir)
    except FileNotFoundError as error:
        raise PulkaCommandError(str(error), ExitCode.BAD_ARGS) from None
    if not inputs.images and not inputs.documents:
        raise PulkaCommandError(_("no images or scan.json documents in {paths}").format(
            paths=", ".join(map(str, args.folders))), ExitCode.BAD_ARGS)
    if inputs.images and not pipeline_available():
        raise PulkaCommandError(ngettext(
            "{n} image to scan, but this pulka has no scan pipeline (scanner.pipeline); import "
            "scan.json documents only, or update pulka",
            "{n} images to scan, but this pulka has no scan pipeline (scanner.pipeline); "
            "import scan.json documents only, or update pulka", len(inputs.images)).format(
                n=len(inputs.images)), ExitCode.MISSING_DEPENDENCY)
    bar = ProgressBar("import")
    with open_store(args.db) as store:
        try:
            report = import_paths(store, args.folders, out_dir, args.jobs, args.rescan,
                                  bar.update, Admission(args.tournament, args.replace))
        finally:
            bar.close()
    if args.json:
        json.dump({**report.to_json(), "db": str(args.db)}, sys.stdout, ensure_ascii=False,
                  indent=1)
        print()
    else:
        _print(args.db, report)
    if report.failures:
        return ExitCode.PARTIAL
    return ExitCode.FINDINGS if report.needs_review else ExitCode.OK


def _print(db: Path, report: ImportReport) -> None:
    """What the import did, for people: one line per thing to look at, then the summary."""
    for line in [*report.changed, *report.refused, *report.notes]:
        print(f"pulka import: {line}", file=sys.stderr)
    for sheet_id, held in report.held.items():
        print("pulka import: " + _("sheet {id} is held, not scored: {what}, then import "
                                   "again").format(id=sheet_id, what=held), file=sys.stderr)
    for failure in report.failures:
        message, source = said_text(failure.message), said_text(failure.source)
        if not message.startswith(source.partition("#")[0]):
            message = f"{source}: {message}"
        print(f"pulka import: {message}", file=sys.stderr)
    states = states_text(report.states)
    rate = report.sheets / report.seconds if report.seconds else 0.0
    line = f"{db}: " + ngettext(
        "imported {n} sheet in {seconds} s ({rate} sheets/s)",
        "imported {n} sheets in {seconds} s ({rate} sheets/s)", report.sheets).format(
            n=report.sheets, seconds=f"{report.seconds:.1f}", rate=f"{rate:.1f}")
    line += f": {states}" if states else ""
    n = report.skipped
    if n:
        line += "; " + ngettext("skipped {n} image already imported",
                                "skipped {n} images already imported", n).format(n=n)
    if n := len(report.refused):
        line += "; " + ngettext("{n} sheet refused", "{n} sheets refused", n).format(n=n)
    if n := len(report.held):
        line += "; " + ngettext("{n} sheet held for missing pages or sheets",
                                "{n} sheets held for missing pages or sheets", n).format(n=n)
    if n := len(report.failures):
        line += "; " + ngettext("{n} file failed", "{n} files failed", n).format(n=n)
    print(line)
