"""What an audit report says, as one frozen :class:`SheetReport` per sheet.

The report keeps two things apart: *findings* are the players' recording errors (the rules
engine's :class:`scoring.Finding`, Codex 4.2.7), *doubts* are cells the scanner could not read
with confidence (a person has to look at the ink; nobody made a mistake yet). Both are
outlined on the page images: the scanned sheet when there is a scan, otherwise the sheet as
written, filled by the computer from the record's ``written`` columns. Beside each page stands
the reference copy: the same sheet filled from the deal log as the rules write it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from forms.layout import build_layout, layout_by_id
from forms.model import Layout
from pulka.i18n import N_, _, ngettext
from pulka.report.finding_text import note_text, penalty_text
from pulka.report.judged import Judged, applied_penalty, ruling_text
from pulka.report.pages import (
    Mark,
    PageImages,
    Rect,
    crop_png,
    entry_rect,
    page_images,
    scan_images,
)
from pulka.report.said_text import said_text
from pulka.report.text import number, rules_text
from pulka.store.doubts import scan_doubts
from scanner.results import FieldReading, SheetScan, entry_key, ink_shares
from scoring import (
    Column,
    Deal,
    ExpectedSheet,
    Finding,
    GameRecord,
    Settlement,
    audit,
    expected_sheet,
    parse_record,
)
from scoring.columns import sheet_columns
from scoring.errors import RecordError
from scoring.notation import parse_contract
from scoring.rulings import Doubts, penalised, rests_on
from scoring.settlement import settle

log = logging.getLogger(__name__)

KIND_TITLES = {
    "slip": N_("arithmetic slip in a running total"),
    "wrong_amount": N_("wrong amount"),
    "missing": N_("entry missing"),
    "extra": N_("entry no deal caused"),
    "correction": N_("corrected entry (a wrong value, then the right one)"),
    "wrong_help": N_("pool help written to the wrong player"),
}


@dataclass(frozen=True)
class FindingView:
    """A finding with everything a judge needs beside it."""

    label: str
    finding: Finding
    title: str
    column: str
    written: str
    expected: str
    deal: int | None
    deal_text: str
    """The deal that explains it, in words and in Codex 4.2.11 notation."""
    reasons: tuple[str, ...]
    """What the rules wrote into this column for that deal (the expected entry's reasons)."""
    rule: str
    penalty: str | None
    note: str
    crop_png: bytes | None
    reading_doubtful: bool = False
    """The scanner was itself unsure of this cell: check the ink before any penalty."""
    waits: bool = False
    """It rests on a doubtful field nobody verified: not a player's error yet, no penalty."""
    ruling: str = ""
    """The judge's ruling on it, in words (``penalty applied by ... at ...``), if any."""


@dataclass(frozen=True)
class DoubtView:
    """A cell the scanner could not read with confidence (not a player error)."""

    label: str
    where: str
    value: str
    candidates: str
    ink_alone: str
    """What the ink alone says (its likelihoods shared out over the values the decoding
    weighed, most likely first), the counterweight to ``candidates``, which the rules shape:
    a cell read as 8 at 100 % is doubtful when its ink says 9. Empty for a deal row."""
    expected: str
    note: str
    crop_png: bytes | None


@dataclass(frozen=True)
class ColumnView:
    """One column's running totals as written and as the rules write them."""

    column: str
    written: tuple[str, ...]
    expected: tuple[str, ...]
    flagged: tuple[int, ...]
    """Written entries (1-based) named by a finding."""


@dataclass(frozen=True)
class DealView:
    """One deal of the log."""

    number: int
    dealer: str
    text: str
    notation: str


@dataclass(frozen=True)
class SheetReport:
    """The whole audit report of one sheet."""

    name: str
    sheet_id: str
    source: str
    seats: tuple[str, ...]
    names: Mapping[str, str]
    rules: str
    rules_id: str
    stake: Fraction | None
    finished: bool
    scanned: bool
    pages: tuple[PageImages, ...]
    findings: tuple[FindingView, ...]
    doubts: tuple[DoubtView, ...]
    columns: tuple[ColumnView, ...]
    deals: tuple[DealView, ...]
    settlement: Settlement
    warnings: tuple[str, ...] = ()
    scan_problems: tuple[str, ...] = ()
    signed_off: str = ""
    """Who signed the sheet off and when, in words; empty when nobody has."""

    def player(self, seat: str) -> str:
        """``A · Иванова`` (or just ``A``)."""
        name = self.names.get(seat)
        return f"{seat} · {name}" if name else seat


def build_report(record_doc: dict[str, Any], scan: SheetScan | None = None,
                 scan_dir: Path | None = None, name: str | None = None,
                 source: str = "", judged: Judged | None = None) -> SheetReport:
    """Audit and settle a record (and its scan, if any) and gather the report; ``judged``
    (from the store; by default the scan's doubtful fields) marks the findings that wait for
    review and puts the applied penalties into the settlement."""
    if judged is None:
        judged = Judged(scan_doubts(scan.fields) if scan is not None else Doubts())
    if scan is not None and not _printed_here(scan):
        scan = None
    record = parse_record(record_doc)
    sheet = expected_sheet(record)
    findings = audit(record, sheet)
    applied = [f for f in findings if applied_penalty(judged, f)]
    rules = record.rules
    settlement = settle(record.seats, penalised(sheet.totals, applied),
                        rules.pool_point_whists, rules.stake)
    layout = layout_by_id(scan.layout_id) if scan is not None else build_layout(
        record.rules.players, "A4", record.rules.talon_prize)
    fields = {f.key: f for f in scan.fields} if scan is not None else {}
    images = scan_images(scan, scan_dir)
    deals = {d.number: d for d in record.deals}
    views = tuple(_judged(_finding_view(f"F{i}", f, sheet, deals, record, fields, images,
                                        layout, scan_dir), judged)
                  for i, f in enumerate(findings, 1))
    doubt_fields = scan.doubtful if scan is not None else ()
    doubts = tuple(_doubt_view(f"D{i}", f, record, images, layout, scan_dir)
                   for i, f in enumerate(doubt_fields, 1))
    finding_rects = ((v.label, _finding_rect(v.finding, layout, fields)) for v in views)
    marks = [Mark(label, "finding", *rect) for label, rect in finding_rects if rect is not None]
    marks += [Mark(d.label, "doubt", f.page, tuple(f.rect_mm))  # type: ignore[arg-type]
              for d, f in zip(doubts, doubt_fields, strict=True)]
    reference_marks = [Mark(v.label, "finding", *rect) for v in views
                       if (rect := _expected_rect(v.finding, sheet, layout)) is not None]
    pages = page_images(record, sheet, layout, scan, images, marks, reference_marks)
    sheet_id = scan.sheet_id if scan is not None else ""
    return SheetReport(
        name=name or sheet_id or "report", sheet_id=sheet_id, source=source,
        seats=record.seats, names=dict(record.names), rules=rules_text(record.rules),
        rules_id=record.rules.id, stake=record.rules.stake, finished=sheet.finished,
        scanned=scan is not None, pages=pages, findings=views, doubts=doubts,
        columns=_columns(record, sheet, findings), deals=tuple(_deal_view(d)
                                                               for d in record.deals),
        settlement=settlement, warnings=tuple(map(said_text, sheet.warnings)),
        scan_problems=tuple(map(said_text, scan.problems)) if scan is not None else (),
        signed_off=judged.signed_off)


def _printed_here(scan: SheetScan) -> bool:
    """Whether this pulka knows the scan's layout; a sheet it does not is drawn as written."""
    try:
        layout_by_id(scan.layout_id)
    except KeyError:
        log.warning("sheet %s: layout %s is not one this pulka prints; the report draws the "
                    "sheet as written", scan.sheet_id, scan.layout_id)
        return False
    return True


def _judged(view: FindingView, judged: Judged) -> FindingView:
    """A finding as the store has it: waiting for review (no penalty), or with its ruling."""
    if rests_on(view.finding, judged.doubts):
        return replace(view, waits=True, penalty=None)
    ruling = ruling_text(judged, view.finding)
    return replace(view, ruling=ruling) if ruling else view


# --- findings and doubts -----------------------------------------------------------------


def _finding_view(label: str, finding: Finding, sheet: ExpectedSheet, deals: dict[int, Deal],
                  record: GameRecord, fields: dict[str, FieldReading],
                  scan_images: dict[int, Any], layout: Layout,
                  scan_dir: Path | None) -> FindingView:
    deal = deals.get(finding.deal) if finding.deal is not None else None
    reasons: tuple[str, ...] = ()
    for entry in sheet.column(finding.column):
        if entry.deal == finding.deal and finding.deal is not None:
            reasons = tuple(map(said_text, entry.reasons))
    field = fields.get(_field_key(finding)) if finding.entry is not None else None
    crop = None
    if field is not None:
        crop = crop_png(field, scan_images, layout, scan_dir)
    return FindingView(
        label=label, finding=finding, title=_(KIND_TITLES.get(finding.kind, finding.kind)),
        column=_column_text(finding.column, record),
        written=_("nothing") if finding.written is None else number(finding.written),
        expected=_("no entry") if finding.expected is None else number(finding.expected),
        deal=finding.deal, deal_text=_deal_text(deal) if deal is not None else
        (_("end of game") if finding.deal is None else _("deal {n}").format(n=finding.deal)),
        reasons=reasons, rule=finding.rule, penalty=penalty_text(finding),
        note=note_text(finding),
        crop_png=crop, reading_doubtful=field is not None and field.status == "doubtful")


def _field_key(finding: Finding) -> str:
    column = finding.column
    return entry_key(column.seat, column.kind, column.on, (finding.entry or 1) - 1)


def _doubt_view(label: str, field: FieldReading, record: GameRecord,
                scan_images: dict[int, Any], layout: Layout,
                scan_dir: Path | None) -> DoubtView:
    candidates = ", ".join(f"{_value_text(v)} ({p:.0%})" for v, p in field.candidates[:4])
    return DoubtView(
        label=label, where=_field_where(field, record), value=_value_text(field.value),
        candidates=candidates, ink_alone=_ink_alone(field),
        expected="" if field.expected is None else _value_text(field.expected),
        note=said_text(field.note), crop_png=crop_png(field, scan_images, layout, scan_dir))


def _ink_alone(field: FieldReading) -> str:
    """``9 (97 %), 8 (3 %)``: what the ink alone says (:func:`scanner.results.ink_shares`)."""
    return ", ".join(f"{_value_text(v)} ({p:.0%})" for v, p in ink_shares(field.ink))


def _field_where(field: FieldReading, record: GameRecord) -> str:
    parts = field.key.split(":")
    if parts[0] == "row":
        return _("deal row {n}").format(n=int(parts[1]) + 1)
    if parts[0] == "entry" and len(parts) in (4, 5):
        on = parts[3] if len(parts) == 5 else None
        column = Column(parts[1], parts[2], on)  # type: ignore[arg-type]
        return _column_text(column, record) + _(", entry {n}").format(n=int(parts[-1]) + 1)
    return field.key


def _value_text(value: Any) -> str:
    if value is None:
        return _("empty")
    if isinstance(value, dict):
        return _raw_deal_text(value)
    if isinstance(value, float | Fraction):
        return number(Fraction(value).limit_denominator(1000))
    return str(value)


def _raw_deal_text(deal: dict[str, Any]) -> str:
    """A deal as a scan reads it (RECORD.md form) in the words of :func:`_deal_text`, every
    part shown (candidates of a doubtful row may differ in any one of them):
    ``B plays 7♦, A passes, C whists; tricks A 0, B 8, C 2; talon 1 quick trick``."""
    kind = deal.get("type", "")
    try:
        bid = _("misère") if kind == "misere" else str(parse_contract(deal.get("contract", "")))
    except RecordError:
        bid = str(deal.get("contract", "?"))
    tricks = deal.get("tricks")
    body = _play_text(kind, deal.get("declarer", "?"), bid,
                      sorted(deal.get("defence", {}).items()),
                      sorted(tricks.items()) if tricks else None)
    quick = deal.get("talon", {}).get("quick_tricks", 0)
    if quick:
        body += "; " + ngettext("talon {n} quick trick", "talon {n} quick tricks",
                                quick).format(n=quick)
    return body


def _column_text(column: Column, record: GameRecord) -> str:
    name = record.names.get(column.seat)
    who = f"{column.seat} ({name})" if name else column.seat
    if column.kind == "whists":
        return _("{who}: whists on {seat}").format(who=who, seat=column.on)
    kinds = {"pool": _("pool"), "mountain": _("mountain")}
    return f"{who}: {kinds.get(column.kind, column.kind)}"


def _deal_text(deal: Deal) -> str:
    """``deal 5 (dealt by A): B plays 6♠, C whists, A passes; tricks B 6, C 3, A 1 → 6♠/=``."""
    head = _("deal {n} (dealt by {dealer})").format(n=deal.number, dealer=deal.dealer)
    bid = _("misère") if deal.kind == "misere" else str(deal.bid)
    body = _play_text(deal.kind, deal.declarer, bid, deal.defence, deal.tricks)
    if deal.tricks is None and deal.kind != "allpass":
        body += "; " + _("not played")
    return f"{head}: {body} → {deal.result_notation()}"


_CALLS = {"whist": N_("{seat} whists"), "pass": N_("{seat} passes"),
          "halfwhist": N_("{seat} half-whists")}


def _play_text(kind: str, declarer: str | None, bid: str,
               defence: Iterable[tuple[str, str]],
               tricks: Iterable[tuple[str, int]] | None) -> str:
    """``B plays 6♠, C whists, A passes; tricks B 6, C 3, A 1`` (``all-pass; tricks ...``)."""
    body = _("all-pass") if kind == "allpass" else _("{seat} plays {bid}").format(
        seat=declarer, bid=bid) + "".join(
        ", " + _(_CALLS.get(call, "{seat} " + call)).format(seat=seat) for seat, call in defence)
    if tricks is not None:
        body += "; " + _("tricks {list}").format(list=", ".join(f"{s} {n}" for s, n in tricks))
    return body


def _deal_view(deal: Deal) -> DealView:
    text = _deal_text(deal)
    return DealView(deal.number, deal.dealer, text.split(": ", 1)[1].rsplit(" → ", 1)[0],
                    deal.result_notation())


def _columns(record: GameRecord, sheet: ExpectedSheet, findings: list[Finding]
             ) -> tuple[ColumnView, ...]:
    written = record.written or {}
    views = []
    for column in sheet_columns(record.seats):
        if column not in written and not sheet.column(column):
            continue
        flagged = tuple(sorted(f.entry for f in findings
                               if f.column == column and f.entry is not None))
        views.append(ColumnView(
            _column_text(column, record), tuple(number(v) for v in written.get(column, ())),
            tuple(number(e.total) for e in sheet.column(column)
                  if e.deal is not None), flagged))
    return tuple(views)


# --- where things are on the pages ---------------------------------------------------------


def _finding_rect(finding: Finding, layout: Layout, fields: dict[str, FieldReading]
                  ) -> tuple[int, Rect] | None:
    """Where the written entry of a finding stands on the scanned (or as-written) page."""
    if finding.entry is None:
        return None
    field = fields.get(_field_key(finding))
    if field is not None:
        return field.page, tuple(field.rect_mm)  # type: ignore[return-value]
    return entry_rect(layout, finding.column, finding.entry - 1)


def _expected_rect(finding: Finding, sheet: ExpectedSheet, layout: Layout
                   ) -> tuple[int, Rect] | None:
    """Where the rules write the entry of a finding's deal on the reference copy."""
    for index, entry in enumerate(sheet.column(finding.column)):
        if finding.deal is not None and entry.deal == finding.deal:
            return entry_rect(layout, finding.column, index)
    return None
