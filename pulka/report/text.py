"""Plain-text tables for people: the columns, the settlement step by step, the findings."""

from __future__ import annotations

from fractions import Fraction

from pulka.i18n import N_, _, decimal_text, ngettext
from pulka.report.said_text import said_text
from scoring import Column, ExpectedSheet, GameRecord, Settlement
from scoring.columns import sheet_columns
from scoring.rules import RuleSet

VARIANT_NAMES = {"sochi": N_("Sochi"), "leningrad": N_("Leningrad"), "rostov": N_("Rostov")}
"""The variants' names for people (the rules keep the code: ``sochi``)."""


def rules_text(rules: RuleSet) -> str:
    """One line for people, in the chosen language: ``Sochi, 3 players, pool 20``."""
    variant = VARIANT_NAMES.get(rules.variant)
    players = ngettext("{n} player", "{n} players", rules.players).format(n=rules.players)
    pool = _("pool by time") if rules.pool is None else _("pool {n}").format(n=rules.pool)
    return ", ".join([_(variant) if variant else rules.variant, players, pool])


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
    header = [_("player"), _("pool"), _("mountain")] + [
        _("whists on {seat}").format(seat=s) for s in seats]
    rows = []
    for seat in seats:
        name = record.names.get(seat)
        row = [f"{seat} {name}" if name else seat,
               number(sheet.totals[Column(seat, "pool")]),
               number(sheet.totals[Column(seat, "mountain")])]
        row += ["" if other == seat else number(sheet.totals[Column(seat, "whists", other)])
                for other in seats]
        rows.append(row)
    deals = ngettext("{n} deal", "{n} deals", len(record.deals)).format(n=len(record.deals))
    lines = [rules_text(record.rules) + " " + _("(rules {id}), {deals}").format(
                 id=record.rules.id, deals=deals)
             + ("" if sheet.finished else ", " + _("not finished")), "", _table(header, rows),
             "", _("Running totals (Codex 4.2.1):")]
    for column in sheet_columns(seats):
        entries = sheet.column(column)
        if entries:
            lines.append(f"  {column_words(column):<18} "
                         + ".".join(number(e.total) for e in entries))
    return "\n".join(lines + [_("warning: {text}").format(text=said_text(w))
                              for w in sheet.warnings])


def column_words(column: Column) -> str:
    """``A pool``, ``A whists on B``: a column of the sheet in the chosen language."""
    if column.kind == "whists":
        return f"{column.seat} " + _("whists on {seat}").format(seat=column.on)
    kinds = {"pool": _("pool"), "mountain": _("mountain")}
    return f"{column.seat} {kinds.get(column.kind, column.kind)}"


def settlement_text(settlement: Settlement, money_unit: str = "") -> str:
    """Codex 4.2.14 step by step, both variants, then the results (4.2.12, 4.2.13)."""
    seats = settlement.seats
    one, two = settlement.variant1, settlement.variant2
    lines = [_("Variant 1 (4.2.14): amnesty, then each mountain × 10 / players as whists"),
             "  " + _("mountains (pools brought level):") + " "
             + ", ".join(f"{s} {number(one.mountains[s])}" for s in seats),
             "  " + _("Amnesty: {n} off every mountain.").format(n=number(one.amnesty)),
             "  " + _("each other player writes on:") + " "
             + ", ".join(f"{s} {number(one.per_opponent[s])}" for s in seats),
             "  " + _("whists compared pairwise:")]
    for index, seat in enumerate(seats):
        for other in seats[index + 1:]:
            lines.append(f"    {seat}-{other}: {number(one.whists[(seat, other)])} - "
                         f"{number(one.whists[(other, seat)])} = "
                         f"{number(one.whists[(seat, other)] - one.whists[(other, seat)])}")
    lines += [_("Variant 2 (4.2.14): the mean mountain"),
              "  " + _("Mean mountain {n}.").format(n=number(two.mean)),
              "  " + _("(mean − mountain) × 10") + ": "
              + ", ".join(f"{s} {number(two.from_mountain[s])}" for s in seats),
              "  " + _("whists written − received") + ": "
              + ", ".join(f"{s} {number(two.from_whists[s])}" for s in seats), ""]
    header = [_("player"), _("exact"), _("rounded"), _("Codex integer form (4.2.12)")]
    if settlement.money is not None:
        header.append(_("money") + (f" {money_unit}" if money_unit else ""))
    rows = []
    for seat in seats:
        row = [seat, number(settlement.result[seat]), str(settlement.rounded[seat]),
               str(settlement.codex_integer[seat])]
        if settlement.money is not None:
            row.append(decimal_text(float(settlement.money[seat]), "0.00"))
        rows.append(row)
    lines.append(_table(header, rows))
    lines += [remainder_text(m.seat, m.mountain_change, m.compensation)
              for m in settlement.remainders]
    lines.append(_("Variants 1 and 2 agree; the results sum to zero."))
    return "\n".join(lines)


def remainder_text(seat: str, mountain_change: int, compensation: int) -> str:
    """Codex 4.2.12 in words."""
    if mountain_change < 0:
        point = _("4.2.12 remainder: one point written off {seat}'s mountain;")
    else:
        point = _("4.2.12 remainder: one point added to {seat}'s mountain;")
    if compensation > 0:
        who = ngettext("each other player writes {n} whist on {seat}.",
                       "each other player writes {n} whists on {seat}.", compensation)
    else:
        who = ngettext("{seat} writes {n} whist on each other player.",
                       "{seat} writes {n} whists on each other player.", -compensation)
    return f"{point.format(seat=seat)} {who.format(seat=seat, n=abs(compensation))}"


STATE_NAMES = {"read": N_("read"), "needs_review": N_("needs review"),
               "audited": N_("audited"), "settled": N_("settled")}
"""A stored sheet's state for people (the store keeps the code: ``needs_review``)."""


def state_text(state: str) -> str:
    """A sheet state in the chosen language: ``needs_review`` -> ``needs review``."""
    name = STATE_NAMES.get(state)
    return _(name) if name else state.replace("_", " ")


def states_text(counts: dict[str, int]) -> str:
    """Sheets counted by state: ``2 settled, 1 needs review`` (empty when there are none)."""
    return ", ".join(f"{n} {state_text(s)}" for s, n in sorted(counts.items()))
