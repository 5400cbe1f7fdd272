"""The talon prize checks of a decoded deal log. Within a row nothing checks the talon cell
(the tricks have their sum of 10 and the result cell, the talon no such partner): only the
prize's whists witness it, and those totals mislead as well (a slip in the dealer's whists
looks the same as a misread talon). So a row read with or without a prize is made
*doubtful* wherever the totals, or the steps between them, fit another talon far better
(:func:`talon_checked`), the ink and the totals together leave it unsure, the log moved a
prize from this row to another (:func:`talon_moved`), the one total that would witness it
belongs to a seat whose ink is lost (:func:`talon_unwitnessed`), or the ink reads that
total otherwise (:func:`talon_against_entries`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from scanner.decode.deal_logs import DealLogs
from scanner.decode.deals import RowCandidate, talon_gap, talon_readings
from scanner.decode.entries import EntryDecision
from scanner.decode.faint import holds_ink, losing_seats
from scanner.decode.row_odds import INK_DISAGREES_LOG, ROW_READ, TALON_OVERRULED_LOG
from scanner.decode.row_words import digit_fields
from scanner.words import said
from scoring.columns import Column
from scoring.deals import TALON_QUICK_TRICKS_MAX
from scoring.sheet import ExpectedSheet

if TYPE_CHECKING:  # the sheet's decoder imports this module
    from scanner.decode.row_decision import RowDecision
    from scanner.decode.sheet import SheetEvidence


def talon_checked(evidence: SheetEvidence, logs: DealLogs,
                  candidates: list[list[RowCandidate]], picks: tuple[int, ...],
                  rows: tuple[RowDecision, ...]) -> tuple[RowDecision, ...]:
    """``rows`` with each contract read whose talon's other quick tricks (every value a talon
    prize holds, not only those the ink's readings kept) the running totals fit
    :data:`INK_DISAGREES_LOG` better made *doubtful*: a talon digit lost from a far photo
    reads as none at 0.999 and more, and the dealer's whists it wrote are the only witness
    (TRAINING part, phone-distant seed 41: three talon prizes read as none, sure). A check,
    not a choice: the totals mislead as well, when a column near the deal holds a slip
    (choosing among all four values made a sure misread of another row). So is a row whose
    talon the talon cell's ink and the totals together make less sure than
    :data:`ROW_READ` (TRAINING part, phone-distant seed 93: a blank talon read 1 at 0.93
    from a border's remnant, the totals for none by 5.8, read at 1.0000: the readings the
    ink left out were not weighed). Where the totals fit a prize better than the row's
    reading, the prize's digit is weighed as a written total's is where the reader finds
    it blank (``talon_gap(..., missed=True)``): reading none there leaves the prize's
    whists to a slip the audit would blame on the dealer (TRAINING part, seed 396 sheet
    004, a steep pencil photo: a talon 2 read as none at 0.9999, the dealer's whists 8, 32,
    56 read as his slip of 8 where 24 was due, the row read at 0.9992; on 44 fresh sets
    seven rows whose blank talon cell the totals outweigh so, six of them the writer's
    slip, all asked now). So is a row whose other talon the steps of the columns it writes
    (:meth:`DealLogs.step_odds`: each total less the one before it) fit
    :data:`INK_DISAGREES_LOG` better: a slip the writer carried on puts every later total
    off by its amount, and a prize that catches it up fits the totals themselves (TRAINING
    part, seed 407 sheet 023, a distant pencil photo: the dealer wrote 15 where 13 was due
    and wrote on from it, 19, 27, 29; a 6D's blank talon cell read 1 at 0.57, that prize's
    2 whists met the slip at the last total, and the row was read with it at 0.9999, the
    dealer's right 29 taken for his slip; the step 27 to 29 is no prize's). Each reading
    tried is added to the row's ``candidates`` (the deal logs weigh a reading by its place
    there)."""
    checked = list(rows)
    for index, row in enumerate(rows):
        deal = candidates[index][picks[index]].deal if candidates[index] else None
        if row.status != "read" or deal is None or deal.get("type") != "contract" or \
                not evidence.rules.talon_prize or \
                ("talon", "0") not in evidence.rows[index].digits:
            continue
        cell = evidence.rows[index].digits[("talon", "0")]
        own = logs.fit(picks, index)
        known = [option.deal for option in candidates[index]]
        weighed: list[tuple[float, dict[str, Any]]] = []
        for other in other_talons(deal):
            if other not in known:
                candidates[index].append(RowCandidate(other, -math.inf, 0.0))
                known.append(other)
            fit = logs.fit(picks[:index] + (known.index(other),) + picks[index + 1:], index)
            if fit - own > INK_DISAGREES_LOG:
                checked[index] = replace(row, status="doubtful", note=said("totals_fit_other"))
                break
            if logs.step_odds(picks, index, known.index(other)) > INK_DISAGREES_LOG:
                checked[index] = replace(row, status="doubtful", totals_sure=False,
                                         note=said("steps_fit_other"))
                break
            weighed.append((fit - talon_gap(cell, other, missed=fit > own) - own
                            + talon_gap(cell, deal), other))
        else:
            share = 1 / (1 + sum(math.exp(odds) for odds, _ in weighed))
            if share < ROW_READ:
                rival = max(weighed, key=lambda pair: pair[0])[1]
                checked[index] = replace(row, status="doubtful", confidence=share, note=said(
                    "row_unsure_on", share=f"{share:.4f}", fields=digit_fields(deal, rival)))
    return tuple(checked)


def talon_moved(evidence: SheetEvidence, logs: DealLogs,
                candidates: list[list[RowCandidate]], picks: tuple[int, ...],
                rows: tuple[RowDecision, ...]) -> tuple[RowDecision, ...]:
    """``rows`` with each contract read without a talon prize made *doubtful* where the deal
    log gives another row a talon prize against its ink (the talon overruled:
    :data:`TALON_OVERRULED_LOG`) and the running totals fit a prize on this row (any number
    of quick tricks: a prize is worth the contract's price), taken off the other, no worse
    than :data:`INK_DISAGREES_LOG`: the totals witness that a prize was written in the
    column, not on which row. TRAINING part, pencil colour scans, seeds 86 and 90: a talon
    1 written over its box's border read as none at 1.0000, and the log moved its prize to
    an earlier row with the same dealer and declarer. Runs after :func:`talon_checked`,
    which adds each read row's other talons to its candidates."""
    moved = {index: bare for index in range(len(rows))
             if (bare := _overruled_talon_dropped(candidates[index], picks[index])) is not None}

    def prizes(index: int, deal: dict[str, Any]) -> list[int]:
        if deal.get("type") != "contract" or "talon" in deal or \
                ("talon", "0") not in evidence.rows[index].digits:
            return []
        talons = other_talons(deal)
        return [k for k, c in enumerate(candidates[index]) if c.deal in talons]

    return _doubted_where_swap_fits(logs, picks, rows, moved, prizes, "talon_moved")


def talon_taken(evidence: SheetEvidence, logs: DealLogs,
                candidates: list[list[RowCandidate]], picks: tuple[int, ...],
                rows: tuple[RowDecision, ...]) -> tuple[RowDecision, ...]:
    """``rows`` with each contract read with a talon prize made *doubtful* where another row
    shows none while its talon cell's ink reads a prize likeliest, and the running totals
    fit that prize there, taken off this row, no worse than :data:`INK_DISAGREES_LOG`: the
    mirror of :func:`talon_moved` (the totals witness that a prize was written in the
    column, not on which row). TRAINING part, seed 404 sheet 021, a steep pencil photo:
    row 1's talon 1 (its ink 0.83), on a row doubtful for its marks, was shown none, and its
    8 in the dealer's whists went to row 5, the same dealer and declarer, whose blank talon
    cell read 2 at 0.56: row 5 was read with that prize at 0.9998. Runs after
    :func:`talon_checked`, which adds each read row's other talons to its candidates."""
    inked = {index: option for index, row in enumerate(rows)
             if (option := _inks_prize_shown_none(evidence, candidates, index, row)) is not None}

    def bare(index: int, deal: dict[str, Any]) -> list[int]:
        return [k for k, c in enumerate(candidates[index])
                if "talon" in deal and c.deal == without_talon(deal)][:1]

    return _doubted_where_swap_fits(logs, picks, rows, inked, bare, "talon_taken")


def _doubted_where_swap_fits(logs: DealLogs, picks: tuple[int, ...],
                             rows: tuple[RowDecision, ...], others: dict[int, int],
                             options: Callable[[int, dict[str, Any]], list[int]], code: str
                             ) -> tuple[RowDecision, ...]:
    """``rows`` with each row read made *doubtful* (note ``code``, naming the other row)
    where one of its ``options`` (places among its candidates, for its deal) with one of
    the ``others`` (row -> place) fits the running totals as well (:func:`_swap_fits`)."""
    if not others:
        return rows
    own = logs.fit(picks, 0)
    checked = list(rows)
    for index, row in enumerate(rows):
        if row.status != "read" or row.deal is None:
            continue
        mine = options(index, row.deal)
        fitting = next((other for other, theirs in others.items() for option in mine
                        if _swap_fits(logs, picks, own, (index, option), (other, theirs))), None)
        if fitting is not None:
            checked[index] = replace(row, status="doubtful", totals_sure=False,
                                     note=said(code, row=rows[fitting].row + 1))
    return tuple(checked)


def _inks_prize_shown_none(evidence: SheetEvidence, candidates: list[list[RowCandidate]],
                           index: int, row: RowDecision) -> int | None:
    """Where row ``index`` shows a contract without a talon prize whose talon cell's ink
    reads a prize likeliest: the place among its ``candidates`` of the row with that prize
    (added where missing, for the deal logs to weigh); ``None`` elsewhere."""
    deal = row.deal
    cell = evidence.rows[index].digits.get(("talon", "0"))
    if deal is None or deal.get("type") != "contract" or "talon" in deal or cell is None:
        return None
    readings = talon_readings(cell)[:TALON_QUICK_TRICKS_MAX + 1]
    quick = max(range(len(readings)), key=readings.__getitem__)
    if quick == 0:
        return None
    prize = {**deal, "talon": {"quick_tricks": quick}}
    known = [option.deal for option in candidates[index]]
    if prize not in known:
        candidates[index].append(RowCandidate(prize, -math.inf, 0.0))
        return len(known)
    return known.index(prize)


def _swap_fits(logs: DealLogs, picks: tuple[int, ...], own: float,
               *changes: tuple[int, int]) -> bool:
    """Whether the deal log ``picks`` with each ``(row, option)`` of ``changes`` fits the
    running totals no worse than :data:`INK_DISAGREES_LOG` below ``own``, the fit of
    ``picks`` itself (:meth:`DealLogs.fit`, the same from whichever row it is weighed)."""
    swapped = list(picks)
    for index, option in changes:
        swapped[index] = option
    start = min(index for index, _ in changes)
    return logs.fit(tuple(swapped), start) >= own - INK_DISAGREES_LOG


def _overruled_talon_dropped(options: Sequence[RowCandidate], pick: int) -> int | None:
    """Where the picked reading of a row holds a talon prize its talon cell's ink finds
    unlikely (:data:`TALON_OVERRULED_LOG`): the place among ``options`` of the same reading
    without the prize (``None``: no such pick, or no such reading)."""
    deal = options[pick].deal if options else None
    if deal is None or "talon" not in deal or options[pick].talon_gap <= TALON_OVERRULED_LOG:
        return None
    bare = without_talon(deal)
    return next((k for k, option in enumerate(options) if option.deal == bare), None)


def talon_unwitnessed(evidence: SheetEvidence, logs: DealLogs,
                      candidates: list[list[RowCandidate]], picks: tuple[int, ...],
                      rows: tuple[RowDecision, ...],
                      entries: Mapping[Column, Sequence[EntryDecision]],
                      sheet: ExpectedSheet | None) -> tuple[RowDecision, ...]:
    """``rows`` with each contract read without a talon prize made *doubtful* where a column
    the prize would write belongs to a faint seat (its calibration strip lost, or its ink
    lost in places: :func:`~scanner.decode.faint.losing_seats`) and either holds ink past the
    deal log writes there or reads none of the totals the prize would change: a talon's
    thin 1 is the first stroke a black-and-white scan loses (and the talon cell's ink never
    reads "none" surer than a digit the reader missed leaves), and the one total that would
    witness it is lost with the faint seat's ink, so neither the ink nor the totals check
    the talon (TRAINING part, ballpoint thresholded, seed 77: a talon 1 read as none at
    0.9991, the dealer's whists on the declarer reading 7 at 0.41; seeds 150 and 151, a
    thresholded scan and a far photo of pencil: the dealer's whists all lost, or their one
    entry read doubtful and tied by the log to another deal, talon 1s read as none at
    0.9992 and 1.0). Runs after :func:`talon_checked`, which adds the row's other
    talons."""
    if not evidence.rules.talon_prize or sheet is None:
        return rows
    weak = (*evidence.faint, *losing_seats(entries))
    if not weak:
        return rows
    checked = list(rows)
    for index, row in enumerate(rows):
        deal = row.deal
        if row.status != "read" or deal is None or deal.get("type") != "contract" or \
                "talon" in deal:
            continue
        prize = {**deal, "talon": {"quick_tricks": 1}}
        option = next((k for k, c in enumerate(candidates[index]) if c.deal == prize), None)
        if option is None:
            continue
        columns = logs.changed_columns(picks, index, option) or ()
        faint = [column for column in columns if column.seat in weak]
        if any(holds_ink(entry) for column in faint
               for entry in entries[column][_written_by_deals(sheet, column):]):
            note = said("talon_unwitnessed")
        elif faint and not _prize_witnessed(
                entries, sheet, logs.sheet(picks[:index] + (option,) + picks[index + 1:], index),
                faint):
            note = said("talon_witness_faint")
        else:
            continue
        checked[index] = replace(row, status="doubtful", totals_sure=False, note=note)
    return tuple(checked)


def talon_against_entries(evidence: SheetEvidence, logs: DealLogs,
                          candidates: list[list[RowCandidate]], picks: tuple[int, ...],
                          rows: tuple[RowDecision, ...],
                          entries: Mapping[Column, Sequence[EntryDecision]]
                          ) -> tuple[RowDecision, ...]:
    """``rows`` with each contract read where a talon prize is played made *doubtful* where
    an entry its deal writes in a whists column on its declarer (the only totals that check
    the talon) is *doubtful*, its ink reading likeliest the total another talon of the row
    writes there: the talon may be misread rather than that entry, and a person who took
    the entry's ink for the writer's slip would blame the writer for the reader's misread
    (a fresh TRAINING set, a near photo, seed 213: a talon's 2, its ink ranking it third,
    read 1 at 1.0; the dealer's whists on the declarer, written 8, the total of a prize of
    2, left doubtful against the rules' 4 as a misread of the writer's). Runs after
    :func:`talon_checked`, which adds each read row's other talons to its candidates."""
    if not evidence.rules.talon_prize:
        return rows
    deal_rows = [index for index, row in enumerate(rows) if row.deal is not None]
    inked: dict[int, list[tuple[Column, int, int]]] = {}
    for column, decisions in entries.items():
        for decision in decisions:
            ink = decision.ink[0][0] if decision.ink else None
            if column.kind == "whists" and decision.status == "doubtful" and \
                    ink is not None and ink != decision.expected and \
                    decision.deal is not None and 0 < decision.deal <= len(deal_rows):
                index = deal_rows[decision.deal - 1]
                if (rows[index].deal or {}).get("declarer") == column.on:
                    inked.setdefault(index, []).append((column, decision.deal, ink))
    checked = list(rows)
    for index, found in inked.items():
        row = rows[index]
        if row.status != "read" or (row.deal or {}).get("type") != "contract" or \
                ("talon", "0") not in evidence.rows[index].digits:
            continue
        others = other_talons(row.deal or {})
        for option, candidate in enumerate(candidates[index]):
            if candidate.deal not in others:
                continue
            sheet = logs.sheet(picks[:index] + (option,) + picks[index + 1:], index)
            if sheet is not None and any(sheet.totals_by_deal(column).get(deal) == ink
                                         for column, deal, ink in found):
                checked[index] = replace(row, status="doubtful", totals_sure=False,
                                         note=said("talon_entry_against"))
                break
    return tuple(checked)


def _prize_witnessed(entries: Mapping[Column, Sequence[EntryDecision]], sheet: ExpectedSheet,
                     with_prize: ExpectedSheet | None, columns: Sequence[Column]) -> bool:
    """Whether an entry of ``columns`` is read where its deal writes a total that the
    expected sheet ``with_prize`` (a talon prize added) would make otherwise; ``True`` where
    the prize makes no legal game (``None``): nothing is left to witness."""
    if with_prize is None:
        return True
    for column in columns:
        apart = sheet.deals_apart(with_prize, column)
        if any(entry.status == "read" and entry.deal in apart for entry in entries[column]):
            return True
    return False


def _written_by_deals(sheet: ExpectedSheet, column: Column) -> int:
    """How many entries of ``column`` the deals of ``sheet`` write (an end-of-game
    correction is not written in the columns)."""
    return sum(entry.deal is not None for entry in sheet.column(column))


def other_talons(deal: dict[str, Any]) -> list[dict[str, Any]]:
    """``deal`` with each other number of quick tricks a talon prize holds (0: none)."""
    own = deal.get("talon", {}).get("quick_tricks", 0)
    bare = without_talon(deal)
    return [bare if quick == 0 else {**bare, "talon": {"quick_tricks": quick}}
            for quick in range(TALON_QUICK_TRICKS_MAX + 1) if quick != own]


def without_talon(deal: dict[str, Any]) -> dict[str, Any]:
    """``deal`` without its talon's quick tricks."""
    return {name: value for name, value in deal.items() if name != "talon"}
