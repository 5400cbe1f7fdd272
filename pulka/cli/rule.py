"""``pulka rule SHEET FINDING apply|waive|misread [--value V] --judge NAME``: a judge's ruling.

FINDING is a finding's number as ``pulka show SHEET`` lists it (or its key). ``apply`` puts
its Codex 4.2.7 penalty into the settlement, ``waive`` lets it go, ``misread`` corrects the
cell it was read from (``--value``: the number the cell holds, or a deal row as JSON). The
judge's name comes from ``--judge`` or the ``PULKA_JUDGE`` environment variable.

Examples::

    pulka rule R2-T07-3F9A1C 1 apply --judge "I. Petrenko"
    PULKA_JUDGE="I. Petrenko" pulka rule R2-T07-3F9A1C 2 misread --value 14
"""

from __future__ import annotations

import argparse
import json
import logging
import os
from typing import Any

from pulka.cli.store_options import add_db_argument, open_store
from pulka.errors import PulkaCommandError
from pulka.i18n import N_, _
from pulka.report.finding_text import stored_finding_text
from pulka.report.text import state_text
from pulka.store.rulings import MISREAD, rule
from pulka.store.schema import RulingAction
from scoring.exitcode import ExitCode

NAME = "rule"
HELP = N_("rule on a sheet's finding: apply or waive its 4.2.7 penalty, or correct a misread cell")
JUDGE_ENV = "PULKA_JUDGE"
ACTIONS = (*(str(a) for a in RulingAction), MISREAD)

log = logging.getLogger(__name__)


def add_judge_argument(parser: argparse.ArgumentParser) -> None:
    """``--judge NAME``: who rules (default: the ``PULKA_JUDGE`` environment variable)."""
    parser.add_argument("--judge", metavar="NAME", default=os.environ.get(JUDGE_ENV, ""),
                        help=_("the judge's name, recorded with the ruling (default: ${name})"
                               ).format(name=JUDGE_ENV))


def judge_of(args: argparse.Namespace) -> str:
    """The judge's name; one line saying how to give it when there is none."""
    judge = str(args.judge).strip()
    if not judge:
        raise PulkaCommandError(_("name the judge with --judge NAME (or set {name})").format(
            name=JUDGE_ENV),
                                ExitCode.BAD_ARGS)
    return judge


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka rule``."""
    parser.add_argument("sheet", metavar="SHEET", help=_("the sheet id printed beside its QR code"))
    parser.add_argument("finding", metavar="FINDING",
                        help=_("the finding's number as `pulka show SHEET` lists it"))
    parser.add_argument("action", choices=ACTIONS, help=_("what the judge rules"))
    parser.add_argument("--value", metavar="V",
                        help=_("with misread: the cell's true value (a number, or a deal row as "
                             "JSON)"))
    add_judge_argument(parser)
    add_db_argument(parser)


def run(args: argparse.Namespace) -> ExitCode:
    """Record the ruling and print one line: what was ruled and the sheet's state."""
    judge = judge_of(args)
    if args.action != MISREAD and args.value is not None:
        raise PulkaCommandError(_("--value goes with misread only"), ExitCode.BAD_ARGS)
    sheet = args.sheet.strip().upper()
    value = None if args.value is None else cell_value(args.value)
    with open_store(args.db, create=False) as store:
        ruled = rule(store, sheet, args.finding, args.action, judge, value)
        finding = stored_finding_text(ruled.finding.to_json(),
                                      store.sheet_summary(sheet)["columns"])
    print(_("sheet {id} finding {n} ({finding}): {action} by {judge}; the sheet is "
            "{state}").format(id=sheet, n=ruled.finding.number, finding=finding,
                              action=ruled.action, judge=judge, state=state_text(ruled.state)))
    return ExitCode.OK


def cell_value(text: str) -> Any:
    """A value typed for a cell: JSON (a number, a deal row), refused in one line if not."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise PulkaCommandError(_("--value {value!r} is neither a number nor JSON; give the "
                                  "number the cell holds").format(value=text),
                                ExitCode.BAD_ARGS) from None
