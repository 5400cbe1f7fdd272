"""The ``pulka`` command line: one sub-command per module of :mod:`pulka.cli`.

Each command module defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> ExitCode``. Errors become one line on stderr and an exit code here, and only
here; logging and the process's memory tuning (:func:`tune_process`) are set up here and
nowhere else.
"""

from __future__ import annotations

import argparse
import atexit
import ctypes
import ctypes.util
import gc
import importlib
import logging
import sys
from collections.abc import Sequence
from types import ModuleType

from pulka.cli.store_options import speak_tournament_language
from pulka.i18n import (
    ARGPARSE_DOMAIN,
    LanguageError,
    _,
    check_language,
    choose_language,
    current_language,
    translations,
    use_language,
)
from pulka.report.said_text import SaidFormatter, log_line, said_text
from scanner.errors import ScanError
from scoring.exitcode import ExitCode, PulkaError

COMMAND_MODULES = (
    "settle", "audit", "print_sheets", "layout", "samples", "scan",
    "tournament", "import_scans", "standings", "show", "review", "rule", "signoff", "report",
)

log = logging.getLogger("pulka")

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
"""``mallopt`` parameters (glibc ``malloc.h``)."""
KEPT_BLOCK_BYTES = 128 * 1024 * 1024
"""Freed blocks up to this size stay in the heap (a 12-megapixel colour photo is 36 MB)."""
KEPT_FREE_BYTES = 1024 * 1024 * 1024
"""Free memory at the top of the heap up to this size is not handed back to the system."""
GC_YOUNG_OBJECTS = 20_000
"""Container objects made (less those freed) between two collections of the youngest
generation: a sheet's decoding makes and drops some hundred thousand tuples and dicts, and
at Python's default of 700 it was collected some 20 times a sheet."""


def tune_process() -> None:
    """Keep the memory a scanned sheet frees for the next one: each sheet's large image
    arrays are made again for the next sheet, and memory handed back to the system must be
    faulted in and zeroed again. glibc's ``malloc`` is told to keep freed blocks (a process
    then holds the most one sheet needed until it exits); other C libraries are left as
    they are. The objects made so far (the modules imported) are left out of Python's
    cyclic garbage collection until the process exits (then they are freed as usual: an
    extension such as zxingcpp's checks that its objects were), and the collection runs
    every :data:`GC_YOUNG_OBJECTS` objects made."""
    gc.freeze()
    atexit.register(gc.unfreeze)
    gc.set_threshold(GC_YOUNG_OBJECTS, *gc.get_threshold()[1:])
    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c")).mallopt
    except (OSError, AttributeError, TypeError):
        return
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    if not (mallopt(M_MMAP_THRESHOLD, KEPT_BLOCK_BYTES)
            and mallopt(M_TRIM_THRESHOLD, KEPT_FREE_BYTES)):
        log.debug("mallopt refused the settings: freed memory goes back to the system")


def _load_commands() -> list[ModuleType]:
    return [importlib.import_module(f"pulka.cli.{name}") for name in COMMAND_MODULES]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command."""
    parser = argparse.ArgumentParser(
        prog="pulka", description=_("Preferans score sheets: print, scan, audit, settle."))
    parser.add_argument("-v", "--verbose", action="count", default=0,
                        help=_("more log output (-vv for debugging)"))
    parser.add_argument("--lang", dest="ui_lang", type=_language, metavar="LANG",
                        help=_("language of everything pulka says: en, ru or uk (default: the "
                               "locale, $LANGUAGE, $LC_ALL, $LC_MESSAGES or $LANG, else en)"))
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in _load_commands():
        sub = commands.add_parser(module.NAME, help=_(module.HELP), description=_(module.HELP))
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def _language(value: str) -> str:
    try:
        return check_language(value)
    except LanguageError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def speak_before_parsing(argv: Sequence[str] | None) -> bool:
    """Choose the language from ``--lang`` (read ahead of the parser, whose help is in it) or
    the environment, and make argparse's own words ("usage:", "error:") speak it too: the
    ``argparse`` gettext domain, ``pulka/locale/<lang>/LC_MESSAGES/argparse.po``. True when
    ``--lang`` was given."""
    ahead = argparse.ArgumentParser(add_help=False)
    ahead.add_argument("--lang", dest="ui_lang")
    option = ahead.parse_known_args(argv)[0].ui_lang
    try:
        use_language(choose_language(option))
    except LanguageError:
        use_language(choose_language(None))  # the full parser names the bad value
    words = translations(current_language(), ARGPARSE_DOMAIN)
    argparse._ = words.gettext  # type: ignore[attr-defined]  # argparse's own gettext names
    argparse.ngettext = words.ngettext  # type: ignore[attr-defined]
    return bool(option)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pulka`` console script; returns the exit status."""
    explicit = speak_before_parsing(argv)
    args = build_parser().parse_args(argv)
    level = (logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose, 2)]
    handler = logging.StreamHandler()
    handler.setFormatter(SaidFormatter(log_line(args.command, level)))
    logging.basicConfig(level=level, handlers=[handler])
    tune_process()
    try:
        if not explicit:
            speak_tournament_language(args)
        return int(args.run(args))
    except PulkaError as error:
        message = error.said() if isinstance(error, ScanError) else str(error)
        print(f"pulka {args.command}: {said_text(message)}", file=sys.stderr)
        return int(error.exit_code)
    except KeyboardInterrupt:
        print(f"pulka {args.command}: " + _("interrupted"), file=sys.stderr)
        return int(ExitCode.INTERRUPTED)
    except BrokenPipeError:
        return int(ExitCode.OK)
    except Exception:  # noqa: BLE001 - the one place where bugs become an exit code
        log.exception(_("internal error; please report it with the input file"))
        return int(ExitCode.INTERNAL)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
