"""A finding in words, in the chosen language: the sentence the rules engine's
:class:`scoring.Finding` is read as, made here from its codes and parameters (``kind``,
``rule``, ``note_code`` and ``note_args``, ``overstated``); Codex 4.2.7 for the penalty.
In English it is the engine's own ``str(finding)``."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from pulka.i18n import N_, _, ngettext
from pulka.report.said_text import said_text
from pulka.report.text import column_words
from pulka.store.rows import sentences
from scoring import Column, Finding

KIND_NAMES = {"slip": N_("slip"), "wrong_amount": N_("wrong amount"), "missing": N_("missing"),
              "extra": N_("extra"), "correction": N_("correction"),
              "wrong_help": N_("wrong help")}
"""The finding kinds for people (the engine keeps the code: ``wrong_amount``)."""


def kind_text(kind: str) -> str:
    """A finding's kind in the chosen language."""
    name = KIND_NAMES.get(kind)
    return _(name) if name else kind.replace("_", " ")


def note_text(finding: Finding) -> str:
    """The finding's note (why the expected entry is what it is) from its code and the
    rules' reasons (:mod:`scoring.reasons`, said by :mod:`pulka.report.said_text`); a note
    without a code (a store's finding from before codes) as it is."""
    args = finding.note_args
    if finding.note_code == "amount":
        return _("amount {amount}: {reasons}").format(
            amount=args[0], reasons="; ".join(map(said_text, args[1:])))
    if finding.note_code == "reasons":
        return "; ".join(map(said_text, args))
    if finding.note_code == "no_deal":
        return _("no deal changed this column")
    if finding.note_code == "correction":
        return _("a wrong value followed by the right one")
    if finding.note_code == "mixed_amnesty":
        return _("this all-pass was written with amnesty by some players and in full by "
                 "others; all must write it the same way")
    if finding.note_code == "help_belongs":
        return _("help belongs to {right} (the largest open pool, ties to the left), not "
                 "{wrong}").format(right=args[0], wrong=args[1])
    return finding.note


def penalty_text(finding: Finding) -> str | None:
    """The penalty 4.2.7 would justify: the amount overstated, taken back."""
    amount, column = finding.overstated, finding.column
    if amount is None:
        return finding.penalty
    if column.kind == "whists":
        return _("take back {amount}; {on} may write {amount} on {seat}").format(
            amount=amount, on=column.on, seat=column.seat)
    if column.kind == "pool":
        return _("{amount} pool points moved, and {amount} onto {seat}'s mountain").format(
            amount=amount, seat=column.seat)
    return _("{amount} onto {seat}'s mountain").format(amount=amount, seat=column.seat)


def finding_text(finding: Finding) -> str:
    """The whole finding in one line: where, what was written and expected, kind and rule,
    note, penalty."""
    where = _("deal {n}, ").format(n=finding.deal) if finding.deal is not None else ""
    entry = _(" entry {n}").format(n=finding.entry) if finding.entry is not None else ""
    text = _("{where}{column}{entry}: wrote {written}, expected {expected} ({kind}, "
             "{rule})").format(where=where, column=column_words(finding.column), entry=entry,
                               written=_value(finding.written, _("nothing")),
                               expected=_value(finding.expected, _("no entry")),
                               kind=kind_text(finding.kind), rule=finding.rule)
    note = note_text(finding)
    if note:
        text += f"; {note}"
    penalty = penalty_text(finding)
    return text + (_("; penalty: {text}").format(text=penalty) if penalty else "")


def stored_finding_text(row: dict[str, Any], columns: dict[str, Any]) -> str:
    """A finding as the store keeps it (``pulka-sheet-summary/1``, beside the sheet's written
    ``columns``) in words, in the chosen language. The penalty's amount is the amount
    overstated (4.2.7): the written total less the right one, which is the expected total or,
    for an entry no deal called for, the column's previous total. The note is said from its
    stored code and arguments."""
    column = Column(row["seat"], row["column"], row["on"])
    written, expected = _fraction(row["written"]), _fraction(row["expected"])
    favour = None
    if row["penalty"] is not None and written is not None:
        right = expected if expected is not None else _previous(columns, column, row["entry"])
        if right is not None:
            favour = right - written if column.kind == "mountain" else written - right
    finding = Finding(row["kind"], column, row["deal"], row["entry"], written, expected,
                      row["rule"], row["penalty"], row["note"] or "", overstated=favour,
                      note_code=row.get("note_code") or "",
                      note_args=sentences(row.get("note_args") or ()))
    return finding_text(finding)


def _previous(columns: dict[str, Any], column: Column, entry: int | None) -> Fraction | None:
    """The written total before entry ``entry`` (1-based) of ``column``, 0 before the first."""
    seat = columns.get(column.seat, {})
    values = seat.get("whists", {}).get(column.on) if column.on else seat.get(column.kind)
    if entry is None or values is None or entry - 2 >= len(values):
        return None
    return Fraction(values[entry - 2]) if entry > 1 else Fraction(0)


def _fraction(text: str | None) -> Fraction | None:
    return None if text is None else Fraction(text)


def _value(value: Fraction | None, absent: str) -> str:
    return absent if value is None else str(value)


def findings_text(findings: list[Finding], waiting: Sequence[bool] = ()) -> str:
    """One line per finding, or a line saying there are none; a finding ``waiting`` (by
    position) rests on a doubtful reading and is marked so."""
    if not findings:
        return _("No findings: every written total agrees with the rules.")
    head = ngettext("{n} finding:", "{n} findings:", len(findings)).format(n=len(findings))
    marks = [_("waits for review: ") if waits else "" for waits in waiting] or [""] * len(findings)
    return "\n".join([head] + [f"  {mark}{finding_text(f)}"
                                for f, mark in zip(findings, marks, strict=True)])
