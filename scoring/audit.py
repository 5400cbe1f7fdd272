"""Compare what the players wrote with the expected sheet, and say what was written wrong.

Each column's written running totals are aligned with the expected entries by the smallest
number of faults (a dynamic programme): an entry is right when its step from the previous
written total is the deal's amount (a slip earlier is then not counted again) or when it is the
right running total. What is left over becomes a :class:`Finding`:

* ``slip`` - an arithmetic slip in a running total (the step is not a multiple of the deal's
  unit, e.g. 14 + 6 written as 22);
* ``wrong_amount`` - the step is a whole number of the deal's units, but the wrong one;
* ``missing`` / ``extra`` - an entry the deal called for is not there, or one no deal caused;
* ``correction`` - a wrong value followed by the right one (4.2.7: nothing is crossed out);
* ``wrong_help`` - pool help written to the wrong player (4.2.3).

Each finding carries the Codex rule and, when the error favours its writer, the penalty 4.2.7
would justify: the amount overstated. Penalties are proposed, never applied silently (RULES.md
§9): a judge applies one (:func:`penalty_columns` gives what it adds to the columns) or waives it.
A finding that rests on a field read but not yet verified waits for review (:func:`rests_on`).
All-pass mountains may be written with amnesty (only tricks above the table's minimum, seed
000); both ways are accepted, as long as everyone in the deal wrote the same way.

>>> from scoring.record import parse_record
>>> doc = {"format": "pulka-record/1", "seats": ["A", "B", "C"],
...        "rules": {"variant": "sochi", "players": 3, "pool": 20},
...        "deals": [{"type": "contract", "declarer": "A", "contract": "6S",
...                   "defence": {"B": "whist", "C": "pass"}, "tricks": {"A": 6, "B": 4, "C": 0}},
...                  {"type": "contract", "declarer": "A", "contract": "7S",
...                   "defence": {"B": "pass", "C": "pass"}}],
...        "written": {"A": {"pool": [2, 8]}, "B": {"whists": {"A": [8]}}}}
>>> (finding,) = audit(parse_record(doc))
>>> finding.kind, finding.deal, str(finding.column), finding.written, finding.expected
('wrong_amount', 2, 'A pool', Fraction(8, 1), Fraction(6, 1))
>>> finding.penalty
"2 pool points moved, and 2 onto A's mountain"
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from scoring.columns import Column
from scoring.deals import Deal
from scoring.record import GameRecord
from scoring.sheet import ExpectedSheet, SheetEntry, expected_sheet

FindingKind = Literal["slip", "wrong_amount", "missing", "extra", "correction", "wrong_help"]
RULE_OF_KIND = {"slip": "4.2.1", "wrong_amount": "4.2.7", "missing": "4.2.10",
                "extra": "4.2.7", "correction": "4.2.7", "wrong_help": "4.2.3"}
_COST_WRONG, _COST_SKIP, _COST_CORRECTION = 2, 2, 1
_COST_AMNESTY_SKIP = 0.01
"""Leaving out an all-pass entry that amnesty makes zero: allowed, but a plain match of the
same ink is preferred (the end-of-game correction, which players may or may not write, is
free to leave out and costs a little to match)."""
_COST_CLOSING_MATCH = 0.001


@dataclass(frozen=True)
class Finding:
    """One thing written wrong: where, what was written, what the rules expect, and why."""

    kind: FindingKind
    column: Column
    deal: int | None
    entry: int | None
    """Position of the written entry in its column (1-based), if there is one."""
    written: Fraction | None
    expected: Fraction | None
    """The total the writer should have written here, from his own previous total."""
    rule: str
    penalty: str | None = None
    note: str = ""
    overstated: Fraction | None = None
    """The amount written in the writer's favour, which a 4.2.7 penalty takes (with ``penalty``)."""
    note_code: str = ""
    """What the note says, language-neutral: ``amount`` (args: the amount, then the rules'
    reasons), ``reasons``, ``no_deal``, ``correction``, ``mixed_amnesty``, ``help_belongs``
    (args: the right player, the wrong one)."""
    note_args: tuple[str, ...] = ()

    def __str__(self) -> str:
        where = f"deal {self.deal}, " if self.deal is not None else ""
        entry = f" entry {self.entry}" if self.entry is not None else ""
        wrote = "nothing" if self.written is None else str(self.written)
        expected = "no entry" if self.expected is None else str(self.expected)
        text = (f"{where}{self.column}{entry}: wrote {wrote}, expected {expected} "
                f"({self.kind.replace('_', ' ')}, {self.rule})")
        if self.note:
            text += f"; {self.note}"
        return text + (f"; penalty: {self.penalty}" if self.penalty else "")


def audit(record: GameRecord, sheet: ExpectedSheet | None = None) -> list[Finding]:
    """Every finding of a record's ``written`` part against the expected sheet."""
    if record.written is None:
        return []
    sheet = sheet or expected_sheet(record)
    deals = {deal.number: deal for deal in record.deals}
    findings: list[Finding] = []
    amnesty_styles: list[tuple[int, str, bool]] = []
    for column, written in record.written.items():
        expected = sheet.column(column)
        steps = [_Step(entry, _alternatives(entry, deals.get(entry.deal or 0), record))
                 for entry in expected]
        column_findings, styles = _align(column, list(written), steps, record)
        findings += column_findings
        amnesty_styles += styles
    findings += _mixed_amnesty(amnesty_styles)
    return _pair_wrong_help(findings)


@dataclass(frozen=True)
class _Step:
    entry: SheetEntry
    alternatives: dict[Fraction, bool]
    """Accepted amounts → whether that amount is the amnesty way of writing it."""

    @property
    def optional(self) -> bool:
        return self.entry.deal is None or Fraction(0) in self.alternatives


def _alternatives(entry: SheetEntry, deal: Deal | None, record: GameRecord
                  ) -> dict[Fraction, bool]:
    """Amounts accepted for an entry: an all-pass mountain may be written with amnesty."""
    accepted = {entry.amount: False}
    if deal is not None and deal.kind == "allpass" and entry.column.kind == "mountain" \
            and not record.rules.allpass_in_whists and entry.column.seat in deal.players:
        tricks = deal.tricks_of(entry.column.seat)
        fewest = min(count for _, count in deal.tricks or ())
        if fewest and tricks:
            accepted[entry.amount - fewest * entry.amount / tricks] = True
    return accepted


def _align(column: Column, written: list[Fraction], steps: list[_Step], record: GameRecord
           ) -> tuple[list[Finding], list[tuple[int, str, bool]]]:
    """Least-cost alignment of written totals with expected entries (see module doc)."""
    n, m = len(written), len(steps)
    inf = float("inf")
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    move: dict[tuple[int, int], str] = {}
    cost[0][0] = 0

    def previous(i: int) -> Fraction:
        return written[i - 1] if i > 0 else Fraction(0)

    def fits(i: int, j: int, base: Fraction) -> bool:
        step = steps[j]
        return written[i] - base in step.alternatives or written[i] == step.entry.total

    def relax(i: int, j: int, c: float, how: str) -> None:
        if c < cost[i][j]:
            cost[i][j] = c
            move[(i, j)] = how

    for i in range(n + 1):
        for j in range(m + 1):
            here = cost[i][j]
            if here == inf:
                continue
            if i < n and j < m:
                right = fits(i, j, previous(i))
                closing = steps[j].entry.deal is None
                relax(i + 1, j + 1, here + (_COST_CLOSING_MATCH if closing and right else
                                            0 if right else _COST_WRONG),
                      "match" if right else "wrong")
                if i + 1 < n and not right and fits(i + 1, j, previous(i)):
                    relax(i + 2, j + 1, here + _COST_CORRECTION, "correction")
            if j < m:
                relax(i, j + 1, here + _skip_cost(steps[j]), "missing")
            if i < n:
                relax(i + 1, j, here + _COST_SKIP, "extra")
    return _trace(column, written, steps, move, record)


def _skip_cost(step: _Step) -> float:
    if step.entry.deal is None:
        return 0.0
    return _COST_AMNESTY_SKIP if step.optional else _COST_SKIP


def _trace(column: Column, written: list[Fraction], steps: list[_Step],
           move: dict[tuple[int, int], str], record: GameRecord
           ) -> tuple[list[Finding], list[tuple[int, str, bool]]]:
    path: list[tuple[str, int, int]] = []
    i, j = len(written), len(steps)
    while (i, j) != (0, 0):
        how = move[(i, j)]
        path.append((how, i, j))
        i, j = {"match": (i - 1, j - 1), "wrong": (i - 1, j - 1), "correction": (i - 2, j - 1),
                "missing": (i, j - 1), "extra": (i - 1, j)}[how]
    findings: list[Finding] = []
    styles: list[tuple[int, str, bool]] = []
    last_deal: int | None = None
    for how, i, j in reversed(path):
        step = steps[j - 1] if j > 0 else None
        deal = step.entry.deal if step is not None and how != "extra" else last_deal
        if how == "match" and step is not None:
            base = written[i - 2] if i > 1 else Fraction(0)
            amnesty = step.alternatives.get(written[i - 1] - base)
            if amnesty is not None and step.entry.deal is not None:
                styles.append((step.entry.deal, column.seat, amnesty))
        elif how == "missing" and step is not None and step.optional:
            if step.entry.deal is not None and step.alternatives.get(Fraction(0)):
                styles.append((step.entry.deal, column.seat, True))  # amnesty: nothing to write
        elif how == "missing" and step is not None:
            findings.append(Finding("missing", column, deal, None, None, step.entry.total,
                                    RULE_OF_KIND["missing"],
                                    note=f"amount {step.entry.amount}: "
                                    + "; ".join(step.entry.reasons), note_code="amount",
                                    note_args=(str(step.entry.amount), *step.entry.reasons)))
        elif how == "extra":
            base = written[i - 2] if i > 1 else Fraction(0)
            findings.append(_error("extra", column, last_deal, i, written[i - 1], base,
                                   None, record))
        elif how in ("wrong", "correction") and step is not None:
            entry_index = i - 1 if how == "wrong" else i - 2
            base = written[entry_index - 1] if entry_index > 0 else Fraction(0)
            kind = "correction" if how == "correction" else _wrong_kind(
                written[entry_index] - base, step.entry)
            findings.append(_error(kind, column, deal, entry_index + 1, written[entry_index],
                                   base, step.entry, record))
        if step is not None and how != "extra":
            last_deal = step.entry.deal
    return findings, styles


def _wrong_kind(step: Fraction, entry: SheetEntry) -> FindingKind:
    """A wrong step that is a whole number of the deal's units is a wrong amount, else a slip.

    The unit is the greatest common divisor of the reasons' amounts, read as the entry's
    amount: for 12 (6 tricks x 2) it is 2, so 10 is a wrong amount and 11 a slip.
    """
    unit = _unit(entry.amount)
    return "wrong_amount" if unit and step % unit == 0 else "slip"


def _unit(amount: Fraction) -> Fraction:
    """The price unit an amount is built from: the largest of 10, 2, 1 dividing it."""
    for unit in (Fraction(10), Fraction(2), Fraction(1)):
        if amount % unit == 0:
            return unit
    return amount


def _error(kind: FindingKind, column: Column, deal: int | None, entry: int,
           written: Fraction, base: Fraction, expected: SheetEntry | None,
           record: GameRecord) -> Finding:
    right = base + expected.amount if expected is not None else base
    note = "; ".join(expected.reasons) if expected is not None else "no deal changed this column"
    code, args = ("reasons", expected.reasons) if expected is not None else ("no_deal", ())
    if kind == "correction":
        note, code, args = "a wrong value followed by the right one", "correction", ()
    penalty = _penalty(column, written - right, record) if kind != "correction" else None
    return Finding(kind, column, deal, entry, written, right if expected else None,
                   RULE_OF_KIND[kind], penalty, note,
                   _favour(column, written - right) if penalty else None, code, tuple(args))


def _penalty(column: Column, excess: Fraction, record: GameRecord) -> str | None:
    """4.2.7: the penalty for writing more than one's due equals the amount overstated."""
    favour = _favour(column, excess)
    if favour <= 0:
        return None
    amount = str(favour)
    if column.kind == "whists":
        return f"take back {amount}; {column.on} may write {amount} on {column.seat}"
    if column.kind == "pool":
        return f"{amount} pool points moved, and {amount} onto {column.seat}'s mountain"
    return f"{amount} onto {column.seat}'s mountain"


def _mixed_amnesty(styles: list[tuple[int, str, bool]]) -> list[Finding]:
    """An all-pass must be written the same way by all: with amnesty or without (seed 000)."""
    findings = []
    by_deal: dict[int, list[tuple[str, bool]]] = {}
    for deal, seat, amnesty in styles:
        by_deal.setdefault(deal, []).append((seat, amnesty))
    for deal, seats in sorted(by_deal.items()):
        counts = Counter(amnesty for _, amnesty in seats)
        if len(counts) > 1:
            minority = min(counts, key=lambda style: (counts[style], style))
            for seat, amnesty in seats:
                if amnesty == minority:
                    findings.append(Finding(
                        "wrong_amount", Column(seat, "mountain"), deal, None, None, None,
                        "4.2.7", note="this all-pass was written with amnesty by some players "
                        "and in full by others; all must write it the same way",
                        note_code="mixed_amnesty"))
    return findings


def _pair_wrong_help(findings: list[Finding]) -> list[Finding]:
    """A missing help entry on one player and an extra one of the same amount on another,
    by the same helper in the same deal, are one finding: help to the wrong player (4.2.3)."""
    result = list(findings)
    for missing in findings:
        if missing.kind != "missing" or missing.column.kind != "whists" \
                or "help" not in missing.note:
            continue
        for extra in findings:
            if extra.kind == "extra" and extra.column.kind == "whists" and \
                    extra.column.seat == missing.column.seat and extra.deal == missing.deal \
                    and extra in result and missing in result:
                result.remove(missing)
                result[result.index(extra)] = Finding(
                    "wrong_help", extra.column, extra.deal, extra.entry, extra.written,
                    None, RULE_OF_KIND["wrong_help"],
                    note=f"help belongs to {missing.column.on} (the largest open pool, ties to "
                    f"the left), not {extra.column.on}", note_code="help_belongs",
                    note_args=(str(missing.column.on), str(extra.column.on)))
                break
    return sorted(result, key=lambda f: (f.deal or 0, f.column, f.entry or 0))


def _favour(column: Column, excess: Fraction) -> Fraction:
    """How much a written excess favours its writer: a mountain written low favours him."""
    return -excess if column.kind == "mountain" else excess
