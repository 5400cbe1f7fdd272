"""Plain-text tables for people: the columns, the settlement step by step, the findings."""

from __future__ import annotations

from fractions import Fraction

from scoring import Column, ExpectedSheet, Finding, GameRecord, Settlement
from scoring.columns import sheet_columns


def number(value: Fraction) -> str:
    """A whole number as is; a fraction as a mixed number: ``-40 2/3``."""
    if value.denominator == 1:
        return str(value.numerator)
    whole = int(value)
    rest = abs(value - whole)
    sign = "-" if value < 0 and whole == 0 else ""
    return f"{sign}{whole} {rest.numerator}/{rest.denominator}" if whole else \
        f"{sign}{rest.numerator}/{rest.denominator}"


def _table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    for row in rows:
        lines.append("  ".join(str(c).rjust(w) if i else str(c).ljust(w)
                               for i, (c, w) in enumerate(zip(row, widths, strict=True))))
    return "\n".join(lines)


def totals_text(record: GameRecord, sheet: ExpectedSheet) -> str:
    """Final totals of each column, and the running totals as they were written."""
    seats = record.seats
    header = ["player", "pool", "mountain"] + [f"whists on {s}" for s in seats]
    rows = []
    for seat in seats:
        name = record.names.get(seat)
        row = [f"{seat} {name}" if name else seat,
               number(sheet.totals[Column(seat, "pool")]),
               number(sheet.totals[Column(seat, "mountain")])]
        row += ["" if other == seat else number(sheet.totals[Column(seat, "whists", other)])
                for other in seats]
        rows.append(row)
    lines = [record.rules.describe() + f" (rules {record.rules.id}), {len(record.deals)} deals"
             + ("" if sheet.finished else ", not finished"), "", _table(header, rows), "",
             "Running totals (Codex 4.2.1):"]
    for column in sheet_columns(seats):
        entries = sheet.column(column)
        if entries:
            lines.append(f"  {str(column):<18} " + ".".join(number(e.total) for e in entries))
    return "\n".join(lines + [f"warning: {w}" for w in sheet.warnings])


def settlement_text(settlement: Settlement, money_unit: str = "") -> str:
    """Codex 4.2.14 step by step, both variants, then the results (4.2.12, 4.2.13)."""
    seats = settlement.seats
    one, two = settlement.variant1, settlement.variant2
    lines = ["Variant 1 (4.2.14): amnesty, then each mountain x 10 / players as whists",
             "  mountains (pools brought level): "
             + ", ".join(f"{s} {number(one.mountains[s])}" for s in seats),
             f"  amnesty: {number(one.amnesty)} off every mountain",
             "  each other player writes on: "
             + ", ".join(f"{s} {number(one.per_opponent[s])}" for s in seats),
             "  whists compared pairwise:"]
    for index, seat in enumerate(seats):
        for other in seats[index + 1:]:
            lines.append(f"    {seat}-{other}: {number(one.whists[(seat, other)])} - "
                         f"{number(one.whists[(other, seat)])} = "
                         f"{number(one.whists[(seat, other)] - one.whists[(other, seat)])}")
    lines += ["Variant 2 (4.2.14): the mean mountain",
              f"  mean mountain {number(two.mean)}",
              "  (mean - mountain) x 10: "
              + ", ".join(f"{s} {number(two.from_mountain[s])}" for s in seats),
              "  whists written - whists received: "
              + ", ".join(f"{s} {number(two.from_whists[s])}" for s in seats), ""]
    header = ["player", "exact", "rounded", "Codex 4.2.12"]
    if settlement.money is not None:
        header.append(f"money{(' ' + money_unit) if money_unit else ''}")
    rows = []
    for seat in seats:
        row = [seat, number(settlement.result[seat]), str(settlement.rounded[seat]),
               str(settlement.codex_integer[seat])]
        if settlement.money is not None:
            row.append(f"{float(settlement.money[seat]):.2f}")
        rows.append(row)
    lines.append(_table(header, rows))
    for move in settlement.remainders:
        verb = "written off" if move.mountain_change < 0 else "added to"
        who = "the others write" if move.compensation > 0 else f"{move.seat} writes"
        lines.append(f"4.2.12: one point {verb} {move.seat}'s mountain; {who} "
                     f"{abs(move.compensation)} whists each")
    lines.append("Variants 1 and 2 agree; the results sum to zero.")
    return "\n".join(lines)


def findings_text(findings: list[Finding]) -> str:
    """One line per finding, or a line saying there are none."""
    if not findings:
        return "No findings: every written total agrees with the rules."
    return "\n".join([f"{len(findings)} finding(s):"] + [f"  {f}" for f in findings])
