"""The report's tables as plain rows of text, shared by the HTML and the PDF writer."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pulka.report.model import DoubtView, FindingView, SheetReport
from pulka.report.text import number


@dataclass(frozen=True)
class Table:
    """A titled table: a header row, rows of cells, and a line under it."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""


def finding_fields(view: FindingView) -> list[tuple[str, str]]:
    """``(label, text)`` lines of one finding, in the order a judge reads them."""
    lines = [("Written", view.written),
             ("Rules expect", view.expected),
             ("Deal", view.deal_text)]
    why = "; ".join(view.reasons)
    if view.note and why and why in view.note:
        lines.append(("Why (the rules' entry)", view.note))  # "amount 10: help: ..."
    else:
        if why:
            lines.append(("Why (the rules' entry)", why))
        if view.note:
            lines.append(("Note", view.note))
    lines.append(("Codex rule", view.rule))
    lines.append(("Penalty (4.2.7)", view.penalty or (
        "none yet: it rests on a doubtful reading and waits for review" if view.waits
        else "none: the error does not favour its writer")))
    if view.ruling:
        lines.append(("Ruling", view.ruling))
    if view.reading_doubtful:
        lines.append(("Scan", "the reading of this cell is itself doubtful: look at the ink "
                              "before proposing any penalty"))
    return lines


def finding_heading(view: FindingView) -> str:
    """``F1 · wrong amount · B (Петренко): pool, entry 4``."""
    entry = f", entry {view.finding.entry}" if view.finding.entry is not None else ""
    waits = "waits for review · " if view.waits else ""
    return f"{view.label} · {waits}{view.title} · {view.column}{entry}"


def doubt_row(view: DoubtView) -> tuple[str, ...]:
    """One row of the scan doubts table (the crop is added by the writer)."""
    return (view.label, view.where, view.value, view.candidates or "-",
            view.ink_alone or "-", view.expected or "-", view.note or "-")


DOUBT_HEADER = ("", "cell", "read as", "candidates", "the ink alone", "rules expect", "note")


def columns_table(report: SheetReport) -> Table:
    """Running totals as written and as the rules write them (Codex 4.2.1)."""
    rows = []
    for view in report.columns:
        written = " · ".join(f"[{v}]" if i in view.flagged else v
                             for i, v in enumerate(view.written, 1)) or "-"
        rows.append((view.column, written, " · ".join(view.expected) or "-"))
    return Table("Running totals: written, and as the rules write them (Codex 4.2.1)",
                 ("column", "written (entries named by a finding in [ ])", "rules"),
                 tuple(rows), "The end-of-game corrections are left out, as on the sheet.")


def deals_table(report: SheetReport) -> Table:
    """The deal log with each deal's Codex 4.2.11 result."""
    return Table("Deal log (Codex 4.2.11)", ("deal", "dealer", "what happened", "result"),
                 tuple((str(d.number), d.dealer, d.text, d.notation) for d in report.deals))


def settlement_tables(report: SheetReport) -> list[Table]:
    """Codex 4.2.14 step by step in both variants, then the results (4.2.12, 4.2.13)."""
    s = report.settlement
    seats = s.seats
    one, two = s.variant1, s.variant2
    tables = [Table(
        "Variant 1 (4.2.14): amnesty, then each mountain × 10 / players as whists",
        ("player", "mountain (pools level)", "after amnesty", "each other player writes on him"),
        tuple((report.player(p), number(one.mountains[p]),
               number(one.mountains[p] - one.amnesty), number(one.per_opponent[p]))
              for p in seats),
        f"Amnesty: {number(one.amnesty)} off every mountain.")]
    pairs = []
    for index, seat in enumerate(seats):
        for other in seats[index + 1:]:
            mine, theirs = one.whists[(seat, other)], one.whists[(other, seat)]
            pairs.append((f"{seat} – {other}", number(mine), number(theirs),
                          number(mine - theirs)))
    tables.append(Table("Variant 1: whists compared pair by pair",
                        ("pair", "first on second", "second on first", "difference"),
                        tuple(pairs)))
    tables.append(Table(
        "Variant 2 (4.2.14): the mean mountain",
        ("player", "mountain", "(mean − mountain) × 10", "whists written − received",
         "result"),
        tuple((report.player(p), number(two.mountains[p]), number(two.from_mountain[p]),
               number(two.from_whists[p]), number(two.result[p])) for p in seats),
        f"Mean mountain {number(two.mean)}."))
    header = ["player", "exact", "rounded", "Codex integer form (4.2.12)"]
    if s.money is not None:
        header.append(f"money at {stake_text(report.stake)} a whist (4.2.13)")
    rows = []
    for seat in seats:
        row = [report.player(seat), signed_number(s.result[seat]), _signed(s.rounded[seat]),
               _signed(s.codex_integer[seat])]
        if s.money is not None:
            row.append(f"{float(s.money[seat]):+.2f}")
        rows.append(tuple(row))
    notes = [remainder_text(m.seat, m.mountain_change, m.compensation) for m in s.remainders]
    notes.append("Variants 1 and 2 agree; the results sum to zero.")
    tables.append(Table("Result in whists", tuple(header), tuple(rows), " ".join(notes)))
    return tables


def remainder_text(seat: str, mountain_change: int, compensation: int) -> str:
    """Codex 4.2.12 in words."""
    verb = "written off" if mountain_change < 0 else "added to"
    if compensation > 0:
        who = f"each other player writes {compensation} whists on {seat}"
    else:
        who = f"{seat} writes {-compensation} whists on each other player"
    return f"4.2.12 remainder: one point {verb} {seat}'s mountain; {who}."


def summary_line(report: SheetReport) -> str:
    """``3 player errors · 2 scan doubts · A +12, B -4, C -8``."""
    s = report.settlement
    result = ", ".join(f"{p} {signed_number(s.result[p])}" for p in s.seats)
    return (f"{len(report.findings)} player error(s) · {len(report.doubts)} scan doubt(s) · "
            f"{result}")


def signed_number(value: Fraction) -> str:
    """``+12 1/3``, ``-4``, ``0``."""
    return f"+{number(value)}" if value > 0 else number(value)


def stake_text(stake: Fraction | None) -> str:
    """``0.5`` rather than ``1/2``; an odd fraction stays a fraction."""
    if stake is None:
        return ""
    as_float = float(stake)
    return f"{as_float:g}" if Fraction(str(as_float)) == stake else number(stake)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)
