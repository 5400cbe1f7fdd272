"""``pulka show SHEET``: one stored sheet: identity, state, columns, findings, settlement, and
the cells a person should check.

Examples::

    pulka show R2-T07-3F9A1C
    pulka show R2-T07-3F9A1C --json
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from fractions import Fraction
from typing import Any

from pulka.cli.store_options import add_db_argument, open_store
from pulka.report.standings import whists_text
from pulka.store.joins import pages_text
from pulka.store.rebuild import parse_key
from scoring.errors import RuleSetError
from scoring.exitcode import ExitCode
from scoring.rules import RuleSet

NAME = "show"
HELP = "show one stored sheet: state, columns, findings, settlement, doubtful cells"

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka show``."""
    parser.add_argument("sheet", metavar="SHEET", help="the sheet id printed beside its QR code")
    add_db_argument(parser)
    parser.add_argument("--json", action="store_true", help="print pulka-sheet-summary/1 JSON")


def run(args: argparse.Namespace) -> ExitCode:
    """Print the sheet; exit 0 when settled, 1 (FINDINGS) when a person must look at it."""
    with open_store(args.db, create=False) as store:
        summary = store.sheet_summary(args.sheet.strip().upper())
    if args.json:
        json.dump(summary, sys.stdout, ensure_ascii=False, indent=1)
        print()
    else:
        print(text(summary))
    return ExitCode.OK if summary["state"] == "settled" else ExitCode.FINDINGS


def text(s: dict[str, Any]) -> str:
    """The summary for people."""
    where = [s["tournament"] or "no tournament"]
    where += [f"round {s['round']}"] if s["round"] is not None else []
    where += [f"table {s['table']}"] if s["table"] is not None else []
    state = s["state"].replace("_", " ")
    if s["findings_count"]:
        state += f", {s['findings_count']} findings"
    if s["doubtful_count"]:
        state += f", {s['doubtful_count']} doubtful cells"
    try:
        rules = RuleSet.from_settings(s["rules"]).describe()
    except RuleSetError:
        rules = "rules not readable"
    lines = [f"sheet {s['sheet_id']} ({', '.join(where)}): {state}",
             f"layout {s['layout_id']}, rules {s['rules_id']} ({rules}), {s['deals']} deals",
             "players: " + ", ".join(f"{seat} {s['players'].get(seat, '?')}"
                                     for seat in s["seats"])]
    for page in s["pages"]:
        warn = f"; {'; '.join(page['warnings'])}" if page["warnings"] else ""
        lines.append(f"page {page['page'] + 1}: {page['source']} (fit {page['fit_error_mm']} mm"
                     f"{warn})")
    if s["missing_pages"]:
        lines.append(f"missing {pages_text(s['missing_pages'])}: scan them and import again")
    if len(s["game"]) > 1:
        lines.append(f"one game on sheets {', '.join(s['game'])} (joined, settled on the first)")
    if s["held"]:
        lines.append(f"held, not scored: {s['held']}, then import again")
    lines += [f"problem: {p}" for p in s["problems"]]
    if s["record_error"]:
        lines.append(f"the rules engine refuses the record: {s['record_error']}")
    if s["columns"]:
        lines.append("columns as read:")
        for seat, cols in s["columns"].items():
            lines.append(f"  {seat} pool: {_numbers(cols['pool'])}")
            lines.append(f"  {seat} mountain: {_numbers(cols['mountain'])}")
            lines += [f"  {seat} whists on {on}: {_numbers(v)}"
                      for on, v in cols["whists"].items()]
    if s["findings"]:
        lines.append("findings: (rule on each with `pulka rule SHEET N apply|waive|misread`)")
        lines += [f"  {finding_line(f)}" for f in s["findings"]]
    if s["settlement"]:
        lines.append("settlement (whists): " + ", ".join(
            f"{seat} {whists_text(Fraction(v['result']))}" for seat, v in s["settlement"].items()))
    if s["doubtful"]:
        lines.append("doubtful cells (check them on the review page):")
        for cell in s["doubtful"]:
            options = ", ".join(f"{json.dumps(v, ensure_ascii=False)} {p:.2f}"
                                for v, p in cell["candidates"])
            lines.append(f"  {cell_label(cell['key'])} (page {cell['page'] + 1}): read "
                         f"{json.dumps(cell['value'], ensure_ascii=False)} "
                         f"{cell['confidence']:.2f}" + (f"; or {options}" if options else ""))
    if s["verified"]:
        lines.append(f"verified by a person: {len(s['verified'])} cells")
    signed = s["signed_off"]
    lines.append(f"signed off by {signed['by']} at {signed['at']}" if signed
                 else "not signed off")
    return "\n".join(lines)


def finding_line(f: dict[str, Any]) -> str:
    """One finding for people: its number, whether it waits for review, its ruling."""
    mark = "waits for review: " if f["status"] == "waits_for_review" else ""
    ruling = f["ruling"]
    ruled = (f" [{'penalty applied' if ruling['action'] == 'apply' else 'penalty waived'} by "
             f"{ruling['by']} at {ruling['at']}]") if ruling else ""
    return f"{f['number']}. {mark}{f['message']}{ruled}"


def cell_label(key: str) -> str:
    """A cell key as people count: deal rows and entries from 1 (stored keys count from 0).

    >>> cell_label("row:0"), cell_label("entry:A:pool:0"), cell_label("entry:B:whists:C:2")
    ('deal row 1', 'A pool entry 1', 'B whists on C entry 3')
    """
    where = parse_key(key)
    if isinstance(where, int):
        return f"deal row {where + 1}"
    seat, kind, on, n = where
    return f"{seat} {kind}{f' on {on}' if on else ''} entry {n + 1}"


def _numbers(values: list[Any]) -> str:
    return " ".join(str(v) for v in values) or "-"
