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
from pulka.i18n import N_, _, ngettext
from pulka.report.finding_text import stored_finding_text
from pulka.report.said_text import said_doc_text
from pulka.report.standings import whists_text
from pulka.report.text import rules_text, state_text
from pulka.store.joins import pages_text
from pulka.store.rebuild import parse_key
from scoring.errors import RuleSetError
from scoring.exitcode import ExitCode
from scoring.rules import RuleSet

NAME = "show"
HELP = N_("show one stored sheet: state, columns, findings, settlement, doubtful cells")

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``pulka show``."""
    parser.add_argument("sheet", metavar="SHEET", help=_("the sheet id printed beside its QR code"))
    add_db_argument(parser)
    parser.add_argument("--json", action="store_true", help=_("print {format} JSON").format(
        format="pulka-sheet-summary/1"))


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
    where = [s["tournament"] or _("no tournament")]
    where += [_("round {n}").format(n=s["round"])] if s["round"] is not None else []
    where += [_("table {n}").format(n=s["table"])] if s["table"] is not None else []
    state = state_text(s["state"])
    if s["findings_count"]:
        state += ", " + ngettext("{n} finding", "{n} findings",
                                 s["findings_count"]).format(n=s["findings_count"])
    if s["doubtful_count"]:
        state += ", " + ngettext("{n} doubtful cell", "{n} doubtful cells",
                                 s["doubtful_count"]).format(n=s["doubtful_count"])
    try:
        rules = rules_text(RuleSet.from_settings(s["rules"]))
    except RuleSetError:
        rules = _("rules not readable")
    lines = [_("sheet {id} ({where}): {state}").format(id=s["sheet_id"], where=", ".join(where),
                                                       state=state),
             _("layout {layout}, rules {id} ({rules}), {deals}").format(
                 layout=s["layout_id"], id=s["rules_id"], rules=rules,
                 deals=ngettext("{n} deal", "{n} deals", s["deals"]).format(n=s["deals"])),
             _("players: {list}").format(list=", ".join(
                 f"{seat} {s['players'].get(seat, '?')}" for seat in s["seats"]))]
    lines += _pages(s)
    lines += [_("problem: {text}").format(text=said_doc_text(p)) for p in s["problems"]]
    if s["record_error"]:
        lines.append(_("the rules engine refuses the record: {error}").format(
            error=s["record_error"]))
    lines += _columns(s["columns"])
    if s["findings"]:
        lines.append(_("findings: (rule on each with `pulka rule SHEET N apply|waive|misread`)"))
        lines += [f"  {finding_line(f, s['columns'])}" for f in s["findings"]]
    if s["settlement"]:
        lines.append(_("settlement (whists): {list}").format(list=", ".join(
            f"{seat} {whists_text(Fraction(v['result']))}" for seat, v in s["settlement"].items())))
    lines += _doubtful(s["doubtful"])
    if s["verified"]:
        lines.append(ngettext("verified by a person: {n} cell", "verified by a person: {n} cells",
                              len(s["verified"])).format(n=len(s["verified"])))
    signed = s["signed_off"]
    lines.append(_("signed off by {who} at {when}").format(who=signed["by"], when=signed["at"])
                 if signed else _("not signed off"))
    return "\n".join(lines)


def finding_line(f: dict[str, Any], columns: dict[str, Any]) -> str:
    """One finding for people: its number, whether it waits for review, its ruling."""
    mark = _("waits for review: ") if f["status"] == "waits_for_review" else ""
    ruling = f["ruling"]
    ruled = ""
    if ruling:
        ruled = " [" + (_("penalty applied by {who} at {when}") if ruling["action"] == "apply"
                        else _("penalty waived by {who} at {when}")).format(
            who=ruling["by"], when=ruling["at"]) + "]"
    return f"{f['number']}. {mark}{stored_finding_text(f, columns)}{ruled}"


def _pages(s: dict[str, Any]) -> list[str]:
    """The scanned pages, the missing ones, the sheets of one game, and why it is held."""
    lines = []
    for page in s["pages"]:
        warn = "".join(f"; {said_doc_text(w)}" for w in page["warnings"])
        lines.append(_("page {n}: {source} (fit {fit} mm{warnings})").format(
            n=page["page"] + 1, source=page["source"], fit=page["fit_error_mm"], warnings=warn))
    if s["missing_pages"]:
        lines.append(_("missing {pages}: scan them and import again").format(
            pages=pages_text(s["missing_pages"])))
    if len(s["game"]) > 1:
        lines.append(_("one game on sheets {ids} (joined, settled on the first)").format(
            ids=", ".join(s["game"])))
    if s["held"]:
        lines.append(_("held, not scored: {what}, then import again").format(what=s["held"]))
    return lines


def _columns(columns: dict[str, Any]) -> list[str]:
    """The columns as read, one line per column."""
    if not columns:
        return []
    lines = [_("columns as read:")]
    for seat, cols in columns.items():
        lines.append("  " + _("{seat} pool: {numbers}").format(
            seat=seat, numbers=_numbers(cols["pool"])))
        lines.append("  " + _("{seat} mountain: {numbers}").format(
            seat=seat, numbers=_numbers(cols["mountain"])))
        lines += ["  " + _("{seat} whists on {on}: {numbers}").format(
            seat=seat, on=on, numbers=_numbers(v)) for on, v in cols["whists"].items()]
    return lines


def _doubtful(cells: list[dict[str, Any]]) -> list[str]:
    """The doubtful cells with what was read and the other candidates."""
    if not cells:
        return []
    lines = [_("doubtful cells (check them on the review page):")]
    for cell in cells:
        options = ", ".join(f"{json.dumps(v, ensure_ascii=False)} {p:.2f}"
                            for v, p in cell["candidates"])
        read = _("{cell} (page {page}): read {value} {confidence}").format(
            cell=cell_label(cell["key"]), page=cell["page"] + 1,
            value=json.dumps(cell["value"], ensure_ascii=False),
            confidence=f"{cell['confidence']:.2f}")
        lines.append("  " + read + (_("; or {options}").format(options=options)
                                    if options else "")
                     + (f" — {said_doc_text(cell['note'])}" if cell["note"] else ""))
    return lines


def cell_label(key: str) -> str:
    """A cell key as people count: deal rows and entries from 1 (stored keys count from 0).

    >>> cell_label("row:0"), cell_label("entry:A:pool:0"), cell_label("entry:B:whists:C:2")
    ('deal row 1', 'A pool entry 1', 'B whists on C entry 3')
    """
    where = parse_key(key)
    if isinstance(where, int):
        return _("deal row {n}").format(n=where + 1)
    seat, kind, on, n = where
    if on:
        return _("{seat} whists on {on} entry {n}").format(seat=seat, on=on, n=n + 1)
    column = _("pool") if kind == "pool" else _("mountain") if kind == "mountain" else kind
    return _("{seat} {column} entry {n}").format(seat=seat, column=column, n=n + 1)


def _numbers(values: list[Any]) -> str:
    return " ".join(str(v) for v in values) or "-"
