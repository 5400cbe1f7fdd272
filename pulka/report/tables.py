"""The report's tables as plain rows of text, shared by the HTML and the PDF writer."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pulka.i18n import _, decimal_text, ngettext
from pulka.report.model import DoubtView, FindingView, SheetReport
from pulka.report.text import number, remainder_text


@dataclass(frozen=True)
class Table:
    """A titled table: a header row, rows of cells, and a line under it."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""


def finding_fields(view: FindingView) -> list[tuple[str, str]]:
    """``(label, text)`` lines of one finding, in the order a judge reads them."""
    lines = [(_("Written"), view.written),
             (_("Rules expect"), view.expected),
             (_("Deal"), view.deal_text)]
    why = "; ".join(view.reasons)
    if view.note and why and why in view.note:
        lines.append((_("Why (the rules' entry)"), view.note))  # "amount 10: help: ..."
    else:
        if why:
            lines.append((_("Why (the rules' entry)"), why))
        if view.note:
            lines.append((_("Note"), view.note))
    lines.append((_("Codex rule"), view.rule))
    lines.append((penalty_label(), view.penalty or (
        _("none yet: it rests on a doubtful reading and waits for review") if view.waits
        else _("none: the error does not favour its writer"))))
    if view.ruling:
        lines.append((_("Ruling"), view.ruling))
    if view.reading_doubtful:
        lines.append((_("Scan"), _("the reading of this cell is itself doubtful: look at the "
                                   "ink before proposing any penalty")))
    return lines


def penalty_label() -> str:
    """The label of a finding's penalty line, which the writers show in red."""
    return _("Penalty (4.2.7)")


def finding_heading(view: FindingView) -> str:
    """``F1 · wrong amount · B (Петренко): pool, entry 4``."""
    entry = "" if view.finding.entry is None else \
        _(", entry {n}").format(n=view.finding.entry)
    waits = _("waits for review") + " · " if view.waits else ""
    return f"{view.label} · {waits}{view.title} · {view.column}{entry}"


def doubt_row(view: DoubtView) -> tuple[str, ...]:
    """One row of the scan doubts table (the crop is added by the writer)."""
    return (view.label, view.where, view.value, view.candidates or "-",
            view.ink_alone or "-", view.expected or "-", view.note or "-")


def doubt_header() -> tuple[str, ...]:
    """The doubts table's header (label, cell, ink, read as, ...), the ink's column included."""
    return ("", _("cell"), _("ink"), _("read as"), _("candidates"), _("the ink alone"),
            _("rules expect"), _("note"))


def columns_table(report: SheetReport) -> Table:
    """Running totals as written and as the rules write them (Codex 4.2.1)."""
    rows = []
    for view in report.columns:
        written = " · ".join(f"[{v}]" if i in view.flagged else v
                             for i, v in enumerate(view.written, 1)) or "-"
        rows.append((view.column, written, " · ".join(view.expected) or "-"))
    return Table(_("Running totals: written, and as the rules write them (Codex 4.2.1)"),
                 (_("column"), _("written (entries named by a finding in [ ])"), _("rules")),
                 tuple(rows), _("The end-of-game corrections are left out, as on the sheet."))


def deals_table(report: SheetReport) -> Table:
    """The deal log with each deal's Codex 4.2.11 result."""
    return Table(_("Deal log (Codex 4.2.11)"),
                 (_("deal"), _("dealer"), _("what happened"), _("result")),
                 tuple((str(d.number), d.dealer, d.text, d.notation) for d in report.deals))


def settlement_tables(report: SheetReport) -> list[Table]:
    """Codex 4.2.14 step by step in both variants, then the results (4.2.12, 4.2.13)."""
    s = report.settlement
    seats = s.seats
    one, two = s.variant1, s.variant2
    tables = [Table(
        _("Variant 1 (4.2.14): amnesty, then each mountain × 10 / players as whists"),
        (_("player"), _("mountain (pools level)"), _("after amnesty"),
         _("each other player writes on him")),
        tuple((report.player(p), number(one.mountains[p]),
               number(one.mountains[p] - one.amnesty), number(one.per_opponent[p]))
              for p in seats),
        _("Amnesty: {n} off every mountain.").format(n=number(one.amnesty)))]
    pairs = []
    for index, seat in enumerate(seats):
        for other in seats[index + 1:]:
            mine, theirs = one.whists[(seat, other)], one.whists[(other, seat)]
            pairs.append((f"{seat} – {other}", number(mine), number(theirs),
                          number(mine - theirs)))
    tables.append(Table(_("Variant 1: whists compared pair by pair"),
                        (_("pair"), _("first on second"), _("second on first"),
                         _("difference")),
                        tuple(pairs)))
    tables.append(Table(
        _("Variant 2 (4.2.14): the mean mountain"),
        (_("player"), _("mountain"), _("(mean − mountain) × 10"),
         _("whists written − received"), _("result")),
        tuple((report.player(p), number(two.mountains[p]), number(two.from_mountain[p]),
               number(two.from_whists[p]), number(two.result[p])) for p in seats),
        _("Mean mountain {n}.").format(n=number(two.mean))))
    header = [_("player"), _("exact"), _("rounded"), _("Codex integer form (4.2.12)")]
    if s.money is not None:
        header.append(_("money at {stake} a whist (4.2.13)").format(
            stake=stake_text(report.stake)))
    rows = []
    for seat in seats:
        row = [report.player(seat), signed_number(s.result[seat]), _signed(s.rounded[seat]),
               _signed(s.codex_integer[seat])]
        if s.money is not None:
            row.append(decimal_text(float(s.money[seat]), "+#,##0.00;-#,##0.00"))
        rows.append(tuple(row))
    notes = [remainder_text(m.seat, m.mountain_change, m.compensation) for m in s.remainders]
    notes.append(_("Variants 1 and 2 agree; the results sum to zero."))
    tables.append(Table(_("Result in whists"), tuple(header), tuple(rows), " ".join(notes)))
    return tables


def summary_line(report: SheetReport) -> str:
    """``3 player errors · 2 scan doubts · A +12, B -4, C -8``."""
    return " · ".join((errors_text(len(report.findings)), doubts_text(len(report.doubts)),
                       result_text(report)))


def result_text(report: SheetReport) -> str:
    """``A +12, B -4, C -8``: each seat's result in whists."""
    s = report.settlement
    return ", ".join(f"{p} {signed_number(s.result[p])}" for p in s.seats)


def errors_text(n: int) -> str:
    """``1 player error``, ``3 player errors`` (ru: 1 ошибка, 2 ошибки, 5 ошибок)."""
    return ngettext("{n} player error", "{n} player errors", n).format(n=n)


def doubts_text(n: int) -> str:
    """``1 scan doubt``, ``2 scan doubts``."""
    return ngettext("{n} scan doubt", "{n} scan doubts", n).format(n=n)


def signed_number(value: Fraction) -> str:
    """``+12 1/3``, ``-4``, ``0``."""
    return f"+{number(value)}" if value > 0 else number(value)


def stake_text(stake: Fraction | None) -> str:
    """``0.5`` rather than ``1/2``; an odd fraction stays a fraction."""
    if stake is None:
        return ""
    as_float = float(stake)
    return decimal_text(as_float, "#,##0.######") if Fraction(str(as_float)) == stake else \
        number(stake)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def findings_lead() -> str:
    """What the findings section shows, above it in both writers."""
    return _("What the players wrote against what the rules write. Each error is outlined in "
             "red on the sheet. The penalty is what Codex 4.2.7 would justify (the amount "
             "overstated); it is proposed, never applied.")


def doubts_lead() -> str:
    """What the scan doubts section shows: cells to look at, not errors."""
    return _("Cells the scanner could not read with confidence, outlined in amber. These are "
             "not player errors: look at the ink and confirm or correct the reading.")


def no_scan_text() -> str:
    """The doubts section of a report made from a record file."""
    return _("No scan: this report was made from a record file, so there is nothing to "
             "doubt.")


def settlement_title() -> str:
    """The settlement section's heading."""
    return _("Settlement (Codex 4.2.12–4.2.14)")


def settlement_lead() -> str:
    """The line under the settlement heading."""
    return _("Both Codex methods, step by step; they must agree.")
