"""A running total the deal log writes but the writer left out (RULES.md's audit finds the
missing total): read as *empty*, not asked of a person, where the image leaves no doubt.

An entry left blank where the deal log writes a total is *doubtful* by default: its ink may
be lost from the image. It is taken as written blank (*empty*, the expected value kept, a
note saying the writer left it out) only when every sign says the image shows the writer's
hand well: the seat's calibration strip is not lost (:mod:`scanner.decode.faint`), the
entry's boxes hold no ink at all (not even a speck too small to read:
:attr:`~scanner.decode.entries.EntryCells.traced`), every earlier entry of the column was read
sure, and the deal row that writes the total was read sure (a misread row expects a total
nobody wrote), and the total is not written in 1s alone (:func:`thin_strokes`), nor, on a
page whose ink may vanish whole (:func:`lost_whole`: coarser than a fine page, or thresholded
to black and white), in one digit. Only the
first such entry of a column qualifies, and only where the entry after it is not asked for
the same reason: a writer who stopped for several deals is asked about, and so is a seat
whose ink the image lost from that entry on (TRAINING part, a fresh far pencil photo, seed
341 sheet 002: a written 22 read blank and settled as left out, the player blamed, the six
totals after it read blank or as no number; on 38 sets, 85 entries settled so, one more
asked, right).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from scanner.decode.entries import EntryCells, EntryDecision, is_blank
from scanner.decode.presence import DecidedRow
from scanner.words import said, value_said
from scoring.columns import Column

ASKED_CODE = "expected_unread"
"""The note of a blank entry where the deal log writes a total (what this module may settle)."""


def sure_deals(rows: Sequence[DecidedRow]) -> frozenset[int]:
    """The numbers (1-based, as :class:`scoring.sheet.SheetEntry` counts them) of the deals
    whose rows were read sure."""
    played = (row for row in rows if row.deal is not None)
    return frozenset(number for number, row in enumerate(played, start=1)
                     if row.status == "read")


def unwritten_totals(entries: Mapping[Column, Sequence[EntryDecision]],
                     cells: Mapping[Column, Sequence[EntryCells]], rows: Sequence[DecidedRow],
                     faint: Sequence[str], fine: bool = False
                     ) -> dict[Column, tuple[EntryDecision, ...]]:
    """``entries`` with each blank entry the module doc allows taken as left out by its
    writer; ``fine``: the columns' page is fine and in grey or colour, where a total of one
    digit leaves a trace (:func:`lost_whole`)."""
    sure = sure_deals(rows)
    return {column: tuple(_settled(decisions, cells.get(column, ()), sure, fine)
                          if column.seat not in faint else decisions)
            for column, decisions in entries.items()}


def _settled(decisions: Sequence[EntryDecision], cells: Sequence[EntryCells],
             sure: frozenset[int], fine: bool) -> tuple[EntryDecision, ...]:
    """A column's decisions with its first blank, asked entry settled where allowed."""
    out = list(decisions)
    for index, decision in enumerate(decisions):
        if decision.status == "read":
            continue
        after = decisions[index + 1] if index + 1 < len(decisions) else None
        if index > 0 and not _asked(after) and \
                _left_out(decision, cells[index] if index < len(cells) else None, sure, fine):
            out[index] = replace(decision, status="empty", confidence=1.0,
                                 note=said("unwritten", value=value_said(decision.expected)))
        break
    return tuple(out)


def _left_out(decision: EntryDecision, entry: EntryCells | None, sure: frozenset[int],
              fine: bool) -> bool:
    """Whether ``decision`` is a blank entry asked only because the deal log writes a total
    there, the deal read sure and the cells inkless (on a ``fine`` page, a total of one
    digit too)."""
    vanishes = thin_strokes if fine else lost_whole
    return (decision.value is None and decision.expected is not None and _asked(decision)
            and decision.deal in sure and not vanishes(decision.expected)
            and entry is not None and not entry.traced and is_blank(entry))


def _asked(decision: EntryDecision | None) -> bool:
    """Whether an entry is asked only because the deal log writes a total there."""
    return decision is not None and getattr(decision.note, "code", None) == ASKED_CODE


def lost_whole(value: int) -> bool:
    """Whether an image coarser than a fine page, or thresholded to black and white, can
    lose ``value`` without a trace: written in 1s alone (:func:`thin_strokes`), or in one
    digit, a single group of strokes that a pencil far photo loses whole where two digits
    leave some (TRAINING part, 52 sets, seeds 271-345: of the totals settled as left out,
    all 102 of two digits or more were right; of the 17 of one digit, two were wrong, an 8
    and a 7 in pools on pencil photos at 110-115 dpi, the players blamed; read again with
    one-digit totals asked: silent fields 11 -> 9, blank boxes asked 873 -> 888, sheets
    needing no person 324 -> 318). On a fine page in grey or colour a digit other than 1
    leaves a trace (TRAINING part, 434 sheets of seeds 440-449 and 474-482: every blank box
    asked for a one-digit total the deal log writes on such a page was left blank by its
    writer).

    >>> lost_whole(8), lost_whole(-3), lost_whole(11), lost_whole(20)
    (True, True, True, False)
    """
    return abs(value) < 10 or thin_strokes(value)


def thin_strokes(value: int) -> bool:
    """Whether every digit of ``value`` is a 1: each a single thin stroke, which a faint pen
    can leave without a trace in the image, where any other digit leaves some (TRAINING part,
    seventeen sets, nine of them new this round: of 50 totals settled as left out, the one
    wrong was a pencil 1 in a mountain on a steep photo, seed 49, its boxes read blank).

    >>> thin_strokes(1), thin_strokes(-11), thin_strokes(10), thin_strokes(7)
    (True, True, False, False)
    """
    return set(str(abs(value))) == {"1"}
