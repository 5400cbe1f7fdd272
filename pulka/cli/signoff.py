"""``pulka signoff SHEET --judge NAME``: the judge signs a sheet off.

Refused, saying what is left, while a cell is doubtful, a page is missing, or a finding has
no ruling (``pulka rule``). Any later change to the sheet drops the sign-off. A player's
results are final when all his sheets are signed off.

Example::

    pulka signoff R2-T07-3F9A1C --judge "I. Petrenko"
"""

from __future__ import annotations

import argparse
import json
import sys

from pulka.cli.rule import add_judge_argument, judge_of
from pulka.cli.store_options import add_db_argument, open_store
from pulka.i18n import N_, _
from pulka.store.rulings import sign_off
from scoring.exitcode import ExitCode

NAME = "signoff"
HELP = N_("sign a sheet off once no cell is doubtful and every finding has a ruling")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka signoff``."""
    parser.add_argument("sheet", metavar="SHEET", help=_("the sheet id printed beside its QR code"))
    add_judge_argument(parser)
    add_db_argument(parser)
    parser.add_argument("--json", action="store_true", help=_("print who signed off and when"))


def run(args: argparse.Namespace) -> ExitCode:
    """Sign the sheet off and say so in one line."""
    judge = judge_of(args)
    sheet = args.sheet.strip().upper()
    with open_store(args.db, create=False) as store:
        signed = sign_off(store, sheet, judge)
    if args.json:
        json.dump({"sheet_id": sheet, "signed_off": {"by": signed.who, "at": signed.at}},
                  sys.stdout, ensure_ascii=False)
        print()
    else:
        print(_("sheet {id} signed off by {who} at {when}").format(id=sheet, who=signed.who,
                                                                    when=signed.at))
    return ExitCode.OK
