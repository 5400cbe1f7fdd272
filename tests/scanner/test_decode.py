"""Rule decoding: the rules as evidence, not a mould (issue 4, step 7)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from scanner.decode.columns import decode_column
from scanner.decode.deal_logs import DealLogs
from scanner.decode.deals import RowCandidate, decode_row
from scanner.decode.entries import EntryCells, EntryInk
from scanner.decode.legality import Legality
from scanner.decode.past_pool import column_ceiling
from scanner.decode.redecode import EntryEvidence, redecode_columns
from scanner.decode.row_decision import RowDecision, _row_decision, _witnessed
from scanner.decode.row_odds import ROW_READ, UNCHECKED_READ
from scanner.decode.sheet import (
    DecodedSheet,
    SheetEvidence,
    _between_deals,
    _read_as_overturned,
    _runner_up_sheets,
    decode_sheet,
)
from scanner.decode.talons import other_talons, talon_against_entries, talon_unwitnessed
from scoring import RuleSet, audit, expected_sheet, parse_record
from scoring.columns import Column
from scoring.random_games import written_columns
from scoring.sheet import SheetEntry
from tests.scanner.evidence import (
    digit_probabilities,
    entry_cells,
    game,
    row_evidence,
    sheet_evidence,
)


def _pool_column(entries: int) -> tuple[list[SheetEntry], list[int]]:
    """A pool column of a game (seed 0) holding at least ``entries`` running totals: the
    totals the rules expect there, and the values written."""
    sheet = expected_sheet(parse_record(game()))
    column = next(c for c in sheet.totals if c.kind == "pool" and len(sheet.column(c)) >= entries)
    return list(sheet.column(column)), [int(e.total) for e in sheet.column(column)
                                        if e.deal is not None]


@pytest.mark.parametrize(("variant", "players"), [("sochi", 3), ("leningrad", 4),
                                                  ("rostov", 3)])
def test_clear_ink_decodes_exactly(variant: str, players: int) -> None:
    doc = game(variant, players)
    decoded = decode_sheet(sheet_evidence(doc, talon=players == 4, sure=0.99))
    assert decoded.deals == doc["deals"]
    assert decoded.record()["written"] == doc["written"]
    assert decoded.doubtful() == 0


def test_an_ambiguous_digit_is_settled_by_the_rules() -> None:
    expected, values = _pool_column(2)
    truth = values[1]
    wrong_digit = (truth % 10 + 2) % 10
    cells = [entry_cells(v, 3) for v in values]
    cells[1] = entry_cells(truth, 3, confuse={2: wrong_digit})  # the ink leans 60:40 wrong
    decisions = decode_column(cells, expected)
    assert decisions[1].value == truth
    assert decisions[1].status == "read"
    assert "ink unsure" in decisions[1].note


@pytest.mark.parametrize("unexplained", [False, True])
@pytest.mark.parametrize("ink", ["leans wrong", "unsure"])
def test_a_digit_the_rules_settle_is_doubtful_beside_ink_no_deal_explains(
        unexplained: bool, ink: str) -> None:
    """An entry whose ink leans 60:40 to a wrong digit, or reads its value at only 0.5, is
    read as the rules' value; but where another entry of the column holds clear ink that no
    deal of the log writes, the log is short of a deal (its row lost) or misread, and its
    totals are no check on the ink: the entry is doubtful (TRAINING part, pencil far
    photos, seed 78: a written 12 read 2 at 0.9996, the ink reading 12 likeliest, the next
    entry's 22 unexplained; a steep photo, seed 86: 64 read 68, its ink 68 at 0.50)."""
    expected, values = _pool_column(2)
    truth = values[1]
    cells = [entry_cells(v, 3) for v in values]
    cells[1] = entry_cells(truth, 3, confuse={2: (truth % 10 + 2) % 10}) \
        if ink == "leans wrong" else entry_cells(truth, 3, sure=0.8)
    if unexplained:
        cells.append(entry_cells(values[-1] + 7, 3, sure=0.99))
    decisions = decode_column(cells, expected)
    assert decisions[1].value == truth
    if unexplained:
        assert decisions[1].status == "doubtful"
        assert "no deal of the log explains" in decisions[1].note
    else:
        assert decisions[1].status == "read"


@pytest.mark.parametrize("first_ink_finds_slip", [False, True])
def test_an_entry_where_a_slip_carried_on_may_start_is_doubtful(first_ink_finds_slip: bool
                                                                ) -> None:
    """A pool written with a slip of 1 carried on: the first entry's ink reads the rules'
    value at 0.68 (a misread of the written slip) and the slip at 0.23, the next entry's
    clear ink reads its right total plus 1. The next entry is doubtful against its ink;
    the first, read as the rules' value, is doubtful too where its ink finds the slip's
    value at all (TRAINING part, a pencil far photo, seed 75: 9, 13 written, the 9 read 8
    at 0.998)."""
    expected, values = _pool_column(2)
    first = entry_cells(values[0], 3, sure=0.999)
    if first_ink_finds_slip:
        units = [0.01] * 11
        units[values[0] % 10], units[(values[0] + 1) % 10] = 0.68, 0.23
        first = EntryCells((*first.cells[:2], tuple(units)))
    cells = [first, entry_cells(values[1] + 1, 3, sure=0.9)]  # the column's last entries
    decisions = decode_column(cells, expected)
    assert decisions[0].value == values[0]
    if first_ink_finds_slip:
        assert decisions[0].status == "doubtful"
        assert "a slip the writer carried on may start here" in decisions[0].note
    else:
        assert decisions[0].status == "read"


def test_a_clear_recording_error_is_kept_for_the_audit() -> None:
    """A player who added wrong and wrote it clearly, then carried on from it: read as
    written, for the audit. Where the next total goes on from the rules' total instead,
    the wrong one is shown as its ink reads but asked
    (:mod:`scanner.decode.slips_not_carried`)."""
    expected, values = _pool_column(2)
    carried = [*values[:1], *(v + 3 for v in values[1:])]
    decisions = decode_column([entry_cells(v, 3, sure=0.999) for v in carried], expected)
    assert decisions[1].value == carried[1]
    assert decisions[1].status == "read"
    assert "the rules expected" in decisions[1].note
    assert [d.value for d in decisions[2:]] == carried[2:]
    values[1] += 1  # the next total goes on from the rules' total
    decisions = decode_column([entry_cells(v, 3, sure=0.999) for v in values], expected)
    assert (decisions[1].value, decisions[1].status) == (values[1], "doubtful")
    assert decisions[1].note.code == "next_from_rules"
    assert [d.value for d in decisions[2:]] == values[2:]


def test_an_unclear_value_the_rules_do_not_expect_is_doubtful() -> None:
    expected, values = _pool_column(2)
    wrong = values[1] + 1
    decisions = decode_column([entry_cells(values[0], 3),
                               entry_cells(wrong, 3, sure=0.9)], expected)
    assert decisions[1].status == "doubtful"
    assert {value for value, _ in decisions[1].candidates} >= {wrong}


def test_the_totals_decide_an_unsure_deal_row() -> None:
    doc = game(seed=3)
    deal_index = next(i for i, d in enumerate(doc["deals"]) if d["type"] == "contract"
                      and "tricks" in d and d["tricks"][d["declarer"]] >= 6)
    evidence = sheet_evidence(doc, sure=0.99)
    deal = doc["deals"][deal_index]
    declarer = deal["declarer"]
    # the declarer's tricks cell is now a toss-up between its digit and another one
    taken = deal["tricks"][declarer]
    row = row_evidence(deal, deal_index, tuple(doc["seats"]), sure=0.99)
    key = ("tricks", f"{declarer}:1")
    blurred = list(row.digits[key])
    other = (taken + 3) % 10
    blurred[other], blurred[taken % 10] = 0.5, 0.5
    row.digits[key] = blurred  # type: ignore[index]
    rows = list(evidence.rows)
    rows[deal_index] = row
    decoded = decode_sheet(type(evidence)(evidence.rules, evidence.seats, tuple(rows),
                                          evidence.columns))
    assert decoded.deals == doc["deals"]


def test_the_totals_overturn_a_row_the_ink_reads_at_0_9985() -> None:
    """A talon's quick tricks read one less at 0.9985 (as a 2 read 1 at 0.99898 on a sample
    sheet): sure enough to pass :data:`~scanner.decode.row_odds.ROW_READ`, so it is re-ranked
    only because :data:`~scanner.decode.row_ranking.RERANK_BELOW` is stricter, and the whists
    the talon prize wrote put it right; doubtful, as those whists alone overrule the talon's ink."""
    def one_less(quick: int) -> list[float]:
        misread = [0.0] * 11
        misread[quick - 1], misread[quick] = 0.9985, 0.0015
        return misread

    doc, evidence, deal_index = talon_misread(one_less)
    row = evidence.rows[deal_index]
    ink = decode_row(row, evidence.rules, evidence.seats)
    assert ink[0].deal != doc["deals"][deal_index] and 0.995 < ink[0].probability < 0.999
    decoded = decode_sheet(evidence)
    assert decoded.deals == doc["deals"]
    assert decoded.rows[deal_index].status == "doubtful"


def talon_misread(talon_cell: Callable[[int], list[float]], deals: int | None = None
                  ) -> tuple[dict[str, Any], SheetEvidence, int]:
    """A 4-player Leningrad game (its first ``deals``, if given) read clearly but for the
    talon cell of its first deal with a talon prize, whose probabilities ``talon_cell`` gives
    for the true quick tricks: the game, its evidence and that deal's index."""
    doc = game("leningrad", 4, seed=0)
    if deals is not None:
        doc = dict(doc, deals=doc["deals"][:deals])
        doc["written"] = written_columns(expected_sheet(parse_record(doc)))
    seats = tuple(doc["seats"])
    evidence = sheet_evidence(doc, talon=True, sure=0.99)
    deal_index = next(i for i, d in enumerate(doc["deals"]) if "talon" in d)
    deal = doc["deals"][deal_index]
    row = row_evidence(deal, deal_index, seats, sure=0.99, talon=True)
    row.digits[("talon", "0")] = talon_cell(  # type: ignore[index]
        deal["talon"]["quick_tricks"])
    rows = list(evidence.rows)
    rows[deal_index] = row
    return doc, replace(evidence, rows=tuple(rows)), deal_index


def _talon_read_blank(quick: int) -> list[float]:
    """A talon cell read blank at 0.9999, whatever its ``quick`` tricks (a thin digit lost)."""
    cell = [1e-6] * 11
    cell[10] = 0.9999
    return cell


@pytest.mark.parametrize("seed", [1, 3])
def test_a_reading_that_ends_the_game_is_not_held_against_it(seed: int) -> None:
    """The end-of-game correction is not in the written columns, so the totals fit leaves it
    out: counted, it turned a right 9NT into 6NT (seed 1) and a right 7S into 6S (seed 3),
    read at 0.99999998, because the right reading ended the game."""
    doc = game("leningrad", 4, seed=seed)
    decoded = decode_sheet(sheet_evidence(doc, talon=True, sure=0.99))
    assert decoded.deals == doc["deals"]


@pytest.mark.parametrize(("overturned", "confirmed", "status"),
                         [(0.9998, True, "doubtful"), (0.99999, True, "read"),
                          (1.0, False, "doubtful")])
def test_a_row_the_totals_overturned_is_read_only_when_they_are_sure(
        overturned: float, confirmed: bool, status: str) -> None:
    """The ink's own best reading is option 0; the totals chose option 1. Read only where
    they are sure of it and the totals right after the row confirm it: a posterior of 1.0
    among readings none of which fits is no evidence (TRAINING part, pencil far photo: an
    all-pass read "0 4 6" at 1.0 for "9 0 1" written)."""
    ink_best = {"dealer": "A", "type": "contract", "declarer": "B", "contract": "6S"}
    options = [RowCandidate(ink_best, -0.4, 0.7), RowCandidate({**ink_best, "contract": "7S"},
                                                                -1.2, 0.3)]
    row = _row_decision(5, options, [1.0 - overturned, overturned], 1, confirmed=confirmed)
    assert row.deal == options[1].deal and row.status == status
    assert ("running totals" in row.note) == (status == "doubtful")


@pytest.mark.parametrize(("confirmed", "witnessed", "status"),
                         [(False, False, "doubtful"), (True, False, "read"),
                          (False, True, "read")])
def test_a_row_the_totals_carried_that_no_total_reads_as_it_writes_is_doubtful(
        confirmed: bool, witnessed: bool, status: str) -> None:
    """The ink's own best reading, chosen at 0.99998 where the ink alone is unsure of it:
    the running totals carried it, so they must confirm it, or one of them at least read
    as it writes it (TRAINING part, a thresholded scan, seed 134: an all-pass C0 A5 B5 read
    C0 A3 B7: the totals that checked it were lost with a faint seat but one, a writer's
    slip one digit from the misread's total)."""
    deal = {"dealer": "B", "type": "allpass", "tricks": {"C": 0, "A": 3, "B": 7}}
    options = [RowCandidate(deal, -6.1, 0.9),
               RowCandidate({**deal, "tricks": {"C": 0, "A": 5, "B": 5}}, -9.0, 0.1)]
    row = _row_decision(1, options, [0.99998, 0.00002], 0, confirmed=confirmed,
                        witnessed=witnessed)
    assert row.deal == deal and row.status == status
    assert ("running totals it writes" in row.note) == (status == "doubtful")


@pytest.mark.parametrize(("rival", "talon_only", "witnessed"),
                         [(0.1, False, False), (0.001, False, True), (0.1, True, True)])
def test_the_ink_alone_or_a_total_must_tell_a_row_from_its_likeliest_rival(
        rival: float, talon_only: bool, witnessed: bool) -> None:
    """:func:`~scanner.decode.row_decision._witnessed`: a rival the ink leaves at 0.001
    against the pick is told apart by the ink alone; one that differs only in the talon is
    the talon rules' to weigh (TRAINING part, 49 rows of nine sets read right whose rival
    was a talon at 0.003);
    else a total the two write apart must read as the pick writes it: here none does."""
    doc, k = _allpasses(1)[0]
    deal = doc["deals"][k]
    tricks = deal["tricks"]
    low, high = sorted(tricks, key=tricks.__getitem__)[::2]
    other = {**deal, "talon": {"quick_tricks": 1}} if talon_only else \
        {**deal, "tricks": {**tricks, low: tricks[high], high: tricks[low]}}
    evidence = sheet_evidence(doc)
    candidates = [[RowCandidate(d, 0.0, 1.0)] for d in doc["deals"]]
    candidates[k] = [RowCandidate(deal, 0.0, 1.0 - rival), RowCandidate(other, -3.0, rival)]
    unread = {column: tuple(entry_cells(None, len(cells.cells)) for cells in entries)
              for column, entries in evidence.columns.items()}
    logs = DealLogs(evidence.rules, evidence.seats, unread, candidates)
    picks = (0,) * len(candidates)
    assert _witnessed(logs, candidates[k], picks, k, logs.same_totals(picks, k)) == witnessed


def test_a_rival_in_another_suit_alone_needs_no_witness() -> None:
    """:func:`~scanner.decode.row_decision._witnessed`: a contract whose rival reading (0.1
    of the ink) is the same contract in another suit writes every total as the pick does,
    so no total could witness either: the rival is :data:`UNCHECKED_READ`'s to weigh, not a
    reason to doubt the totals that carried the row (TRAINING part, 18 sets: ten rows read
    right at 0.98-0.998 doubtful as "unconfirmed" for such a rival alone)."""
    doc = game("sochi", 3, seed=11)
    k, deal = next((k, deal) for k, deal in enumerate(doc["deals"])
                   if deal["type"] == "contract")
    suit = deal["contract"].lstrip("0123456789")
    other = next(s for s in ("S", "C", "D", "H", "NT") if s != suit)
    rival = {**deal, "contract": deal["contract"][:-len(suit)] + other}
    evidence = sheet_evidence(doc)
    candidates = [[RowCandidate(d, 0.0, 1.0)] for d in doc["deals"]]
    candidates[k] = [RowCandidate(deal, 0.0, 0.9), RowCandidate(rival, -2.2, 0.1)]
    unread = {column: tuple(entry_cells(None, len(cells.cells)) for cells in entries)
              for column, entries in evidence.columns.items()}
    logs = DealLogs(evidence.rules, evidence.seats, unread, candidates)
    picks = (0,) * len(candidates)
    assert logs.same_totals(picks, k) == [0, 1]
    assert _witnessed(logs, candidates[k], picks, k, logs.same_totals(picks, k))


def test_decoded_errors_reach_the_audit() -> None:
    doc = game()
    seat = doc["seats"][0]
    pool = doc["written"][seat]["pool"]
    if len(pool) < 2:
        pytest.skip("this game has fewer than two pool entries for the first seat")
    pool[1] += 2
    for later in range(2, len(pool)):
        pool[later] += 2
    decoded = decode_sheet(sheet_evidence(doc, sure=0.999))
    findings = audit(parse_record(decoded.record()))
    assert any(f.column == Column(seat, "pool") for f in findings)


@pytest.mark.parametrize("sure", [0.6, 0.9, 0.97])
def test_the_kept_ink_decodes_as_the_cells_did(sure: float) -> None:
    doc = game(seed=5)
    evidence = sheet_evidence(doc, sure=sure)
    decoded = decode_sheet(evidence)
    sheet = expected_sheet(parse_record(decoded.record()))
    for column, cells in evidence.columns.items():
        ceiling = column_ceiling(column, evidence.rules)
        decisions = decode_column(cells, sheet.column(column), ceiling)
        assert decisions == list(decoded.entries[column])
        again = decode_column([EntryInk(dict(d.ink)) for d in decisions], sheet.column(column),
                              ceiling)
        for was, now in zip(decisions, again, strict=True):
            assert (now.status, now.value, now.expected, now.deal, now.note) == \
                (was.status, was.value, was.expected, was.deal, was.note)
            assert now.confidence == pytest.approx(was.confidence)


def test_redecoding_against_a_corrected_deal_log_pins_verified_entries() -> None:
    doc = game()
    sheet = expected_sheet(parse_record(doc))
    column = next(c for c in sheet.totals if c.kind == "pool" and len(sheet.column(c)) >= 3)
    values = [int(e.total) for e in sheet.column(column) if e.deal is not None]
    truth = values[1]
    cells = [entry_cells(v, 3) for v in values]
    cells[1] = entry_cells(truth, 3, confuse={2: (truth % 10 + 2) % 10})
    # the scan decoded the column against no deals at all (a deal log the rules refused)
    scanned = decode_column(cells, ())
    assert scanned[1].status == "doubtful"
    evidence = [EntryEvidence(dict(d.ink), d.value) for d in scanned]
    decided = redecode_columns(doc["deals"], RuleSet.from_settings(doc["rules"]),
                               doc["seats"], {column: evidence})[column]
    assert [d.value for d in decided] == values and decided[1].status == "read"
    # a person verified the first entry as one more: pinned, the next expected from it
    evidence[0] = EntryEvidence(None, values[0] + 1, verified=True)
    decided = redecode_columns(doc["deals"], RuleSet.from_settings(doc["rules"]),
                               doc["seats"], {column: evidence})[column]
    assert (decided[0].value, decided[0].status, decided[0].confidence) == \
        (values[0] + 1, "read", 1.0)
    assert decided[1].expected == values[0] + 1 + sheet.column(column)[1].amount
    assert redecode_columns([{"type": "nonsense"}], RuleSet.from_settings(doc["rules"]),
                            doc["seats"], {column: evidence}) == {}


def test_rows_sharing_the_legality_verdicts_read_as_alone() -> None:
    doc = game("leningrad", 4, seed=9)
    evidence = sheet_evidence(doc, talon=True, sure=0.7)
    legality: Legality = {}
    for row in evidence.rows:
        alone = decode_row(row, evidence.rules, evidence.seats)
        assert decode_row(row, evidence.rules, evidence.seats, legality) == alone
    assert legality and not all(legality.values())  # verdicts of both kinds were shared


def _sochi_six(defence: dict[str, str], reads: dict[str, dict[int, float]]
               ) -> tuple[dict[str, Any], SheetEvidence]:
    """A's Sochi six with B and C defending as ``defence`` says and tricks 6-3-1, its totals
    written right and read sure; the tricks cells in ``reads`` (``"B:1"``: the units of B's
    tricks) read with the probabilities given there."""
    deal = {"dealer": "A", "type": "contract", "declarer": "A", "contract": "6S",
            "defence": defence, "tricks": {"A": 6, "B": 3, "C": 1}}
    doc: dict[str, Any] = {"format": "pulka-record/1", "seats": ["A", "B", "C"],
                           "rules": {"variant": "sochi", "players": 3, "pool": 20},
                           "deals": [deal]}
    doc["written"] = written_columns(expected_sheet(parse_record(doc)))
    evidence = sheet_evidence(doc, sure=0.9999)
    for cell, probabilities in reads.items():
        read = [0.0] * 11
        for value, p in probabilities.items():
            read[value] = p
        evidence.rows[0].digits[("tricks", cell)] = read  # type: ignore[index]
    return deal, evidence


@pytest.mark.parametrize(("calls", "sure", "status"), [(("whist", "pass"), 0.8, "doubtful"),
                                                       (("whist", "pass"), 0.87, "read"),
                                                       (("whist", "pass"), 0.95, "read"),
                                                       (("whist", "whist"), 0.95, "read")])
def test_digits_no_total_checks_are_left_to_the_ink(calls: tuple[str, str], sure: float,
                                                    status: str) -> None:
    """A Sochi six with B's and C's tricks each read at 0.8 (a 2 at 0.2): the split 3-1
    holds about 0.94 of the row, 2-2 the rest. A lone whister writes whists for the pair's
    tricks (greedy, RULES.md §3), so the totals are the same either way and only the ink
    decides: below :data:`UNCHECKED_READ`, doubtful, with a note that says so, its totals as
    sure as a read row's (``totals_sure``). At 0.87 a digit (the split at about 0.978) and
    at 0.95 (0.997, under :data:`ROW_READ`) the row is read: the doubt left changes no
    total. Two whisters each write their own tricks, so the totals check the split and the
    row is read."""
    other = round(1 - sure, 2)
    deal, evidence = _sochi_six(dict(zip("BC", calls, strict=True)),
                                {"B:1": {3: sure, 2: other}, "C:1": {1: sure, 2: other}})
    decoded = decode_sheet(evidence)
    assert decoded.deals == [deal]
    assert decoded.rows[0].status == status
    assert decoded.rows[0].totals_sure == (status == "doubtful")
    if status == "doubtful":
        assert 0.9 < decoded.rows[0].confidence < UNCHECKED_READ
        assert "no running total checks B's and C's tricks (3 and 1, or 2 and 2)" in \
            decoded.rows[0].note
    elif calls[1] == "pass":
        assert UNCHECKED_READ <= decoded.rows[0].confidence < ROW_READ
    else:
        assert decoded.rows[0].confidence >= ROW_READ


def test_a_split_no_total_checks_is_weighed_though_the_ink_ranks_it_low() -> None:
    """A Sochi six with one whister (greedy, RULES.md §3): B's and C's split of the defence's
    4 tricks writes the same totals either way. The ink reads the declarer's 6 as 8 or 7 as
    readily, and B's 3 as a 1, so the splits 8-1-1, 6-1-3 and 7-1-2 outrank the true 6-3-1
    (share 0.07 of the two the totals allow). The totals reject the 8 and the 7 and keep
    6-1-3; the true split, never tried by the ink's first readings, must still be weighed:
    the row is doubtful, not read sure."""
    _, evidence = _sochi_six({"B": "whist", "C": "pass"},
                             {"A:1": {6: 0.4, 8: 0.3, 7: 0.3}, "B:1": {1: 0.9, 3: 0.05, 7: 0.05},
                              "C:1": {1: 0.4, 3: 0.3, 2: 0.3}})
    decoded = decode_sheet(evidence)
    assert decoded.rows[0].status == "doubtful"
    assert decoded.rows[0].confidence < 0.95
    assert {"A": 6, "B": 3, "C": 1} in [(c or {}).get("tricks")
                                        for c, _ in decoded.rows[0].candidates]


@pytest.mark.parametrize("ink_reads", [9, "one less"])
def test_a_talon_the_totals_alone_put_right_is_doubtful(ink_reads: int | str) -> None:
    """The talon cell read as a 9 at 0.98 (no talon prize holds 9 quick tricks), or as one
    quick trick less, its true value at 0.01: the totals put the row right, yet one written
    total (the dealer's whists) is all that witnesses the talon, and a slip there looks the
    same, so the row is doubtful (:data:`~scanner.decode.sheet.TALON_OVERRULED_LOG`)."""
    def misread(quick: int) -> list[float]:
        cell = [0.001] * 11
        cell[quick] = 0.01
        cell[9 if ink_reads == 9 else quick - 1] = 0.98
        return cell

    doc, evidence, deal_index = talon_misread(misread)
    decoded = decode_sheet(evidence)
    assert decoded.deals == doc["deals"]
    assert decoded.rows[deal_index].status == "doubtful"
    assert "the ink reads the talon's quick tricks otherwise" in decoded.rows[deal_index].note


@pytest.mark.parametrize("sure", [0.99, 0.72])
def test_a_talon_read_clearly_is_not_overruled_by_a_slip_in_the_dealers_whists(sure: float
                                                                              ) -> None:
    """The talon cell reads the deal's quick tricks at 0.99, or at 0.72 with none at 0.08,
    but the dealer wrote no prize (a slip in the one total that witnesses it): the totals
    fit no prize far better. A misread talon and a slip look the same there, so the row is
    doubtful, never read sure without the prize, the slip hidden (TRAINING part,
    phone-distant seed 41: read sure, the talon's 1 at 0.992 overruled; a grey scan, seed
    64: a 3 read 2 at 0.72, none at 0.09, the prize's whists left out, read none sure)."""
    def clear(quick: int) -> list[float]:
        cell = [0.001] * 11
        cell[quick] = sure
        cell[0] = max(cell[0], 0.08 if sure < 0.9 else 0.0)
        return cell

    doc, evidence, deal_index = talon_misread(clear)
    _, decoded = _decoded_without_prize(doc, evidence, deal_index)
    assert decoded.rows[deal_index].status == "doubtful"


@pytest.mark.parametrize(("sure", "rest", "ink_shown"),
                         [(0.999, 0.0001, True), (0.99, 0.001, False)])
def test_a_talon_the_totals_overturn_shows_the_inks_quick_tricks(
        sure: float, rest: float, ink_shown: bool) -> None:
    """The talon cell reads the deal's quick tricks at 0.999 (none at 0.0002), the dealer
    wrote no prize: the totals overturn the talon alone, far against its ink (odds of 5,000
    to 1). The row stays doubtful with its note, and shows the talon as its ink reads it,
    not as the misleading whists make it (scanner.decode.talon_shown; main showed no
    prize). At 0.99 (odds of 500) it shows no prize, as before."""
    def read(quick: int) -> list[float]:
        cell = [rest] * 11
        cell[quick] = sure
        return cell

    doc, evidence, deal_index = talon_misread(read)
    bare, decoded = _decoded_without_prize(doc, evidence, deal_index)
    row = decoded.rows[deal_index]
    assert (row.status, row.deal) == ("doubtful", doc["deals"][deal_index] if ink_shown else bare)
    assert row.candidates[0][0] == row.deal
    if ink_shown:
        assert "the running totals make it this" in row.note


def _decoded_without_prize(doc: dict[str, Any], evidence: SheetEvidence, deal_index: int
                           ) -> tuple[dict[str, Any], DecodedSheet]:
    """Deal ``deal_index`` of ``doc`` without its talon prize, and the sheet decoded with
    the totals written so (no prize) but that row's ink as in ``evidence``."""
    written, evidence = _without_prize(doc, evidence, deal_index)
    return written["deals"][deal_index], decode_sheet(evidence)


def _without_prize(doc: dict[str, Any], evidence: SheetEvidence, deal_index: int
                   ) -> tuple[dict[str, Any], SheetEvidence]:
    """``doc`` with deal ``deal_index`` without its talon prize and its totals written so,
    and its evidence with that row's ink as in ``evidence``."""
    bare = {k: v for k, v in doc["deals"][deal_index].items() if k != "talon"}
    written = dict(doc, deals=[*doc["deals"][:deal_index], bare, *doc["deals"][deal_index + 1:]])
    written["written"] = written_columns(expected_sheet(parse_record(written)))
    clean = sheet_evidence(written, talon=True, sure=0.99)
    rows = list(clean.rows)
    rows[deal_index] = evidence.rows[deal_index]
    return written, replace(clean, rows=tuple(rows))


def test_a_talon_prize_lost_from_the_ink_is_doubtful_where_the_totals_hold_it() -> None:
    """The talon cell of a deal with a talon prize read blank at 0.9999 (a digit lost from a
    far photo; TRAINING part, phone-distant): its two likeliest values, none and 0, hide the
    prize, and the row read sure as a deal without it. The dealer's whists the prize wrote
    fit another talon far better, so the row is doubtful; the same row whose prize the
    totals do not hold (nothing was written for it) stays read."""
    doc, evidence, deal_index = talon_misread(_talon_read_blank)
    decoded = decode_sheet(evidence)
    row = decoded.rows[deal_index]
    assert "talon" not in (row.deal or {})
    assert row.status == "doubtful"
    assert "the running totals fit another reading" in row.note
    bare, decoded = _decoded_without_prize(doc, evidence, deal_index)
    assert decoded.rows[deal_index].deal == bare
    assert decoded.rows[deal_index].status == "read"


@pytest.mark.parametrize("entry_ink", ["another talon", "no talon"])
def test_a_talon_whose_witness_reads_as_another_talon_makes_it_is_doubtful(entry_ink: str
                                                                           ) -> None:
    """A fresh TRAINING set, a near photo (seed 213): a talon's 2, its ink ranking it third,
    read 1 at 1.0; the dealer's whists on the declarer, written 8 for the prize of 2, left
    doubtful against the rules' 4 (taken for a misread of the writer's). The talon is what
    that entry checks: where the doubtful entry's ink reads the total another talon makes
    there, the row is doubtful too; ink that no talon explains says nothing against it."""
    doc, evidence, deal_index = talon_misread(lambda quick: [0.001] * quick + [0.99] +
                                              [0.001] * (10 - quick))
    decoded = decode_sheet(evidence)
    assert decoded.rows[deal_index].status == "read"
    deal = doc["deals"][deal_index]
    candidates = [[RowCandidate(row.deal, 0.0, 1.0)] if row.deal else [] for row in
                  decoded.rows]
    candidates[deal_index] += [RowCandidate(other, -math.inf, 0.0)
                               for other in other_talons(deal)]
    logs = DealLogs(evidence.rules, evidence.seats, evidence.columns, candidates)
    picks = tuple(0 for _ in candidates)
    column = Column(deal["dealer"], "whists", deal["declarer"])
    number = sum(1 for row in decoded.rows[:deal_index + 1] if row.deal is not None)
    entries = dict(decoded.entries)
    k, witness = next((k, e) for k, e in enumerate(entries[column]) if e.deal == number)
    others = [logs.sheet(picks[:deal_index] + (option,) + picks[deal_index + 1:], deal_index)
              for option in range(1, len(candidates[deal_index]))]
    other_total = next(int(total) for sheet in others if sheet is not None
                       and (total := sheet.totals_by_deal(column).get(number)) is not None
                       and total != witness.value)
    ink_value = other_total if entry_ink == "another talon" else witness.value + 1
    entries[column] = tuple(replace(e, status="doubtful", ink=((ink_value, 0.99),))
                            if i == k else e for i, e in enumerate(entries[column]))
    rows = talon_against_entries(evidence, logs, candidates, picks, decoded.rows, entries)
    if entry_ink == "another talon":
        assert rows[deal_index].status == "doubtful"
        assert "checked only by the whists on the declarer" in rows[deal_index].note
    else:
        assert rows == decoded.rows


@pytest.mark.parametrize(("ink_left", "note"), [
    (True, "hold ink the deal log does not explain"), (False, "none of them read")])
def test_a_lost_talon_whose_prize_went_to_a_faint_seat_is_doubtful(ink_left: bool, note: str
                                                                   ) -> None:
    """The talon cell of a deal with a talon prize read blank at 0.9999 (a thin 1 lost to a
    black-and-white scan) and the dealer's seat faint: the whists the prize wrote read as
    nothing clear (7 a little likelier than 4 or blank), so the totals cannot tell the
    prize from none. Ink there past the entries the deal log writes is a total no reading
    explains (TRAINING part, ballpoint thresholded, seed 77: read sure); where the column
    holds no such ink, none of the totals a prize would change is read, and the talon cell
    alone says "none" (TRAINING part, seeds 150 and 151: the dealer's whists all lost, or
    read doubtful and tied by the log to another deal; read sure). Doubtful either way.
    With the ink past the log's entries, the row's own reading is already unsure of the
    talon (its blank keeps :data:`~scanner.decode.numbers.MISSED_DIGIT` for a lost 1), so
    :func:`talon_unwitnessed` is asked about the row as if read sure."""
    doc, evidence, deal_index = talon_misread(_talon_read_blank, deals=5)
    deal = doc["deals"][deal_index]
    if not ink_left:
        doc, evidence = _without_prize(doc, evidence, deal_index)
    column = Column(deal["dealer"], "whists", deal["declarer"])
    assert len(doc["written"][deal["dealer"]]["whists"][deal["declarer"]]) == int(ink_left)
    tens, units = [0.03] * 11, [0.05] * 11
    tens[10], units[7], units[10] = 0.7, 0.4, 0.2
    faint_cells = tuple(EntryCells((entry.cells[0], tuple(tens), tuple(units)))
                        if entry.cells[2][10] < 0.5 else entry
                        for entry in evidence.columns[column])
    faint = replace(evidence, faint=(deal["dealer"],),
                    columns={**evidence.columns, column: faint_cells})
    decoded = decode_sheet(faint)
    row = decoded.rows[deal_index]
    assert "talon" not in (row.deal or {})
    assert row.status == "doubtful"
    if ink_left:
        assert "the talon's quick tricks (0, or 1)" in row.note
        row = _unwitnessed_as_read(faint, decoded, deal_index)
        assert row.status == "doubtful"
    assert note in row.note


def _unwitnessed_as_read(evidence: SheetEvidence, decoded: DecodedSheet, deal_index: int
                         ) -> RowDecision:
    """Row ``deal_index`` of ``decoded`` as :func:`talon_unwitnessed` leaves it when read
    sure without a talon, the same deal with a talon of one quick trick its other reading."""
    rows = tuple(replace(row, status="read", note="") if i == deal_index else row
                 for i, row in enumerate(decoded.rows))
    candidates = [[RowCandidate(row.deal, 0.0, 1.0)] if row.deal else [] for row in rows]
    prize = {**rows[deal_index].deal, "talon": {"quick_tricks": 1}}
    candidates[deal_index].append(RowCandidate(prize, -math.inf, 0.0))
    logs = DealLogs(evidence.rules, evidence.seats, evidence.columns, candidates)
    picks = tuple(0 for _ in candidates)
    return talon_unwitnessed(evidence, logs, candidates, picks, rows, decoded.entries,
                             logs.sheet(picks, len(picks)))[deal_index]


def test_a_row_without_a_talon_whose_faint_dealer_wrote_a_later_total_read_is_read() -> None:
    """No talon prize written, the dealer's seat faint, the talon cell read blank: a later
    total of the dealer's whists on the declarer, read clearly, is written from the sum
    without a prize and witnesses that none was there (:func:`talon_unwitnessed`)."""
    doc, evidence, deal_index = talon_misread(_talon_read_blank)
    doc, evidence = _without_prize(doc, evidence, deal_index)
    deal = doc["deals"][deal_index]
    column = Column(deal["dealer"], "whists", deal["declarer"])
    later = [e for e in expected_sheet(parse_record(doc)).column(column)
             if e.deal is not None and e.deal > deal_index + 1]
    assert later, "the game must write the dealer's whists on the declarer after the deal"
    decoded = decode_sheet(replace(evidence, faint=(deal["dealer"],)))
    assert decoded.rows[deal_index].status == "read"
    assert decoded.deals == doc["deals"]


@pytest.mark.parametrize(("lost_tens", "status"), [(3, "doubtful"), (2, "read")])
def test_a_lost_talon_whose_prize_went_to_a_seat_losing_strokes_is_doubtful(
        lost_tens: int, status: str) -> None:
    """A fresh TRAINING set, a far pencil photo (seed 343 sheet 004): a talon's 1 read as
    none at 0.9989 and the dealer's whists total for the prize lost from the image too,
    left out of ``scan.json``; the dealer's calibration strip reached the image, but the
    image lost digits of the seat's other totals (52, 20, 30 and 10 read 5, 0, 3 and
    nothing). Here the dealer's other totals lose their tens digits, and the talon cell
    reads blank: where three do, the seat loses strokes as a faint one does
    (:func:`~scanner.decode.faint.losing_seats`), and the row is doubtful as for a faint
    dealer; where two do, it is read."""
    doc, evidence, deal_index = talon_misread(_talon_read_blank, deals=8)
    deal = doc["deals"][deal_index]
    doc, evidence = _without_prize(doc, evidence, deal_index)
    assert not doc["written"][deal["dealer"]]["whists"][deal["declarer"]]
    columns = dict(evidence.columns)
    left = lost_tens
    for column, cells in evidence.columns.items():
        if column.seat != deal["dealer"]:
            continue
        changed = []
        for entry in cells:
            digits = list(entry.cells)
            if left and digits[1][10] < 0.5:
                digits[1], left = tuple(digit_probabilities(None, 0.999)), left - 1
            changed.append(EntryCells(tuple(digits), entry.minus))
        columns[column] = tuple(changed)
    assert left == 0
    assert decode_sheet(evidence).rows[deal_index].status == "read"
    row = decode_sheet(replace(evidence, columns=columns)).rows[deal_index]
    assert "talon" not in (row.deal or {})
    assert row.status == status


@pytest.mark.parametrize("seed", [7, 9])
def test_a_talon_the_totals_put_on_another_row_against_its_ink_is_doubtful(seed: int) -> None:
    """The talon cell of a deal with a prize read blank at 0.99999 (a 1 written over its
    box's border), and that of an earlier row with the same dealer and declarer, whose
    prize would write the same whists, at 0.9999. The totals need a prize, and the log puts
    it on another row against its ink (seed 7 the earlier row, seed 9 a later one; 1 quick
    trick there for 2 here, the same whists at a higher contract). The row that holds the
    prize is doubtful (TRAINING part, pencil colour scans, seeds 86 and 90: read without its
    talon at 1.0000); with the talons read clearly it is read."""
    doc = game("leningrad", 4, seed=seed)
    deals = doc["deals"]
    prized, earlier = next((r, e) for r, deal in enumerate(deals) if "talon" in deal
                           for e in range(r) if deals[e]["type"] == "contract"
                           and "talon" not in deals[e]
                           and (deals[e]["dealer"], deals[e]["declarer"])
                           == (deal["dealer"], deal["declarer"]))
    evidence = sheet_evidence(doc, talon=True, sure=0.99)
    assert decode_sheet(evidence).rows[prized].status == "read"
    rows = list(evidence.rows)
    for k, blank in ((earlier, 0.9999), (prized, 0.99999)):
        rows[k] = row_evidence(deals[k], k, evidence.seats, sure=0.99, talon=True)
        rows[k].digits[("talon", "0")] = [(1 - blank) / 10] * 10 + [blank]  # type: ignore[index]
    decoded = decode_sheet(replace(evidence, rows=tuple(rows)))
    assert [k for k, row in enumerate(decoded.rows[:len(deals)])
            if "talon" in (row.deal or {}) and "talon" not in deals[k]] != []
    row = decoded.rows[prized]
    assert "talon" not in (row.deal or {})
    assert (row.status, getattr(row.note, "code", None)) == ("doubtful", "talon_moved")


@pytest.mark.parametrize("seed", [0, 3])
def test_a_talon_the_ink_reads_and_the_totals_weigh_against_together_is_doubtful(
        seed: int) -> None:
    """The last deal of a game, a contract without a talon prize, its talon cell reading 1
    at 0.999 (a border's remnant on a far photo); a prize there would write one more total
    where the dealer's column is blank. The ink is sure enough not to be weighed again and
    the totals are against it by less than :data:`INK_DISAGREES_LOG`: together they make
    the prize less sure than a read row must be (TRAINING part, phone-distant seed 93: read
    with a talon 1 at 1.0000). Doubtful, naming the talon."""
    doc = game("leningrad", 4, seed=seed)
    last = next(k for k, deal in enumerate(doc["deals"]) if k >= 3
                and deal["type"] == "contract" and "talon" not in deal and "tricks" in deal)
    doc = dict(doc, deals=doc["deals"][:last + 1])
    doc["written"] = written_columns(expected_sheet(parse_record(doc)))
    evidence = sheet_evidence(doc, talon=True, sure=0.99)
    rows = list(evidence.rows)
    rows[last] = row_evidence(doc["deals"][last], last, evidence.seats, sure=0.9999, talon=True)
    rows[last].digits[("talon", "0")] = [1e-4] + [0.999] + [1e-4] * 9  # type: ignore[index]
    row = decode_sheet(replace(evidence, rows=tuple(rows))).rows[last]
    assert row.status == "doubtful"
    assert "the talon's quick tricks (1, or 0)" in row.note


def _a_contract_and_another_suit() -> tuple[SheetEvidence, int, dict[str, Any], str, str]:
    """A Sochi game's evidence, every cell read at 0.9999, with its first contract's row,
    deal and suit, and another suit."""
    doc = game("sochi", 3, seed=11)
    evidence = sheet_evidence(doc, sure=0.9999)
    k, deal = next((k, deal) for k, deal in enumerate(doc["deals"])
                   if deal["type"] == "contract")
    suit = deal["contract"].lstrip("0123456789")
    other = next(s for s in ("S", "C", "D", "H", "NT") if s != suit)
    return evidence, k, deal, suit, other


@pytest.mark.parametrize(("rival", "status"), [(0.92, "doubtful"), (0.08, "read")])
def test_a_suit_read_where_another_suit_box_reads_as_crossed_too_is_doubtful(
        rival: float, status: str) -> None:
    """No total checks the suit (RULES.md §2), so the marks alone choose it. Where a second
    suit box reads as crossed (0.92 beside the chosen box's 0.9999), the choice rests on how
    much surer the reader is of one box than of the other (TRAINING part, phone-distant seed
    96, felt-tip ticks: 6D read 6S at 0.9985): doubtful, naming both. A second box read
    clear leaves the row read."""
    evidence, k, deal, suit, other = _a_contract_and_another_suit()
    evidence.rows[k].marks[("suit", other)] = rival  # type: ignore[index]
    row = decode_sheet(evidence).rows[k]
    assert (row.status, row.deal) == (status, deal)
    if status == "doubtful":
        assert row.note == f"two suit boxes read as crossed ({suit} and {other}), and no " \
            "running total checks the suit: check it"


@pytest.mark.parametrize(("rival", "status"), [(0.2, "read"), (0.45, "doubtful")])
def test_a_row_unsure_of_its_suit_alone_is_read_at_the_suits_own_bar(
        rival: float, status: str) -> None:
    """A contract whose suit box reads crossed at 0.95 and another suit box at 0.2 (a mark
    spilling over): the row holds about 0.987, under :data:`ROW_READ`, and its only rival
    reading is the same contract in the other suit, which no total checks. It is read at
    :data:`UNCHECKED_READ` (TRAINING part, 26 sets: 60 rows doubtful for their suit alone at
    0.906-0.998, every one right). At 0.45 (about 0.96) it stays doubtful."""
    evidence, k, deal, suit, other = _a_contract_and_another_suit()
    evidence.rows[k].marks[("suit", suit)] = 0.95  # type: ignore[index]
    evidence.rows[k].marks[("suit", other)] = rival  # type: ignore[index]
    row = decode_sheet(evidence).rows[k]
    assert ROW_READ > row.confidence > 0.9
    assert (row.status, row.deal) == (status, deal)
    assert (row.confidence >= UNCHECKED_READ) == (status == "read")
    if status == "doubtful":
        assert getattr(row.note, "code", None) == "row_unsure"


def test_a_row_whose_ink_reads_as_no_legal_deal_at_all_is_doubtful_not_a_crash() -> None:
    """A far photo's row with boxes read as crossed in every group (all-pass and three
    calls, two result signs, three suits; TRAINING part, seed 104): no legal deal reads from
    it, and decoding the sheet stopped with an IndexError. The row comes out doubtful, as
    no deal, naming the ink; the other rows are read as before."""
    doc = game("rostov", 3, seed=11)
    evidence = sheet_evidence(doc, sure=0.999)
    garbage = row_evidence(None, 1, evidence.seats, 0.999)
    crossed = {("call", "A:whist"), ("call", "B:halfwhist"), ("call", "C:pass"),
               ("call", "C:whist"), ("declarer", "allpass"), ("result", "-"), ("result", "="),
               ("suit", "D"), ("suit", "H"), ("suit", "NT")}
    marks = {key: 0.998 if key in crossed else p for key, p in garbage.marks.items()}
    rows = list(evidence.rows)
    rows[1] = replace(garbage, marks=marks)
    evidence = replace(evidence, rows=tuple(rows))
    assert [(c.deal, c.ink_gap) for c in decode_row(rows[1], evidence.rules,
                                                    evidence.seats)] == [(None, math.inf)]
    decoded = decode_sheet(evidence)
    assert (decoded.rows[1].status, decoded.rows[1].deal) == ("doubtful", None)
    assert decoded.rows[1].note == "the ink does not read as a legal deal; this is the " \
        "nearest one"
    assert decoded.rows[0].deal == doc["deals"][0]


def _misread_row(doc: dict[str, Any], k: int, read: dict[str, Any],
                 sure: float = 0.9999) -> SheetEvidence:
    """The sheet with row ``k``'s ink reading ``read`` at ``sure`` (a misread its own cells
    cannot show), every other cell as written."""
    evidence = sheet_evidence(doc, sure=0.999)
    rows = list(evidence.rows)
    rows[k] = row_evidence(read, k, evidence.seats, sure=sure)
    return replace(evidence, rows=tuple(rows))


def _allpasses(count: int) -> list[tuple[dict[str, Any], int]]:
    """The first ``count`` games (by seed) with an all-pass whose three tricks differ, and
    that all-pass's row."""
    found = []
    for seed in range(100):
        doc = game(seed=seed)
        k = next((k for k, d in enumerate(doc["deals"]) if d["type"] == "allpass"
                  and len(set(d["tricks"].values())) == 3), None)
        if k is not None:
            found.append((doc, k))
        if len(found) == count:
            return found
    raise AssertionError("too few games with an all-pass")


@pytest.mark.parametrize("which", range(4))
def test_trick_digits_misread_keeping_the_sum_of_ten_are_never_read_silently(which: int) -> None:
    """Issue 13 class 3: an all-pass whose tricks (C7 A0 B3) the ink reads C1 A0 B9 at
    0.9999 a cell, a reading the tricks' sum of 10 cannot catch. The running totals the
    all-pass writes say otherwise: the row is checked against them however sure its ink,
    the true split is weighed although the ink's likeliest readings do not hold it, and
    the row is doubtful, never read."""
    doc, k = _allpasses(4)[which]
    deal = doc["deals"][k]
    tricks = dict(deal["tricks"])
    low, high = sorted(tricks, key=tricks.__getitem__)[::2]
    moved = tricks[high] - tricks[low]
    read = {**deal, "tricks": {**tricks, low: tricks[high], high: tricks[low]}}
    assert moved and sum(read["tricks"].values()) == 10
    decoded = decode_sheet(_misread_row(doc, k, read))
    row = decoded.rows[k]
    assert row.status == "doubtful"
    assert row.deal == deal
    assert "the ink reads this row otherwise" in row.note
    assert decoded.deals == doc["deals"]


@pytest.mark.parametrize("defence", ["pass", "halfwhist"])
def test_a_contract_not_played_whose_marks_the_reader_missed_never_vanishes(
        defence: str) -> None:
    """Issue 13 class 4: a contract not played (marks, no digits: both defenders passed, or
    a half-whist) whose crosses the mark reader took for empty boxes at 0.9 each. Nothing
    in its digit cells says the row is filled, so its ink reads it empty at once: the row
    must still come out (doubtful, never empty and missing from the scan), and the running
    totals it wrote bring back its deal."""
    for seed in range(100):
        doc = game(seed=seed)
        k = next((k for k, d in enumerate(doc["deals"][:-1]) if "tricks" not in d
                  and defence in d["defence"].values()), None)
        if k is not None:
            break
    else:
        raise AssertionError("no game with such a contract")
    evidence = sheet_evidence(doc, sure=0.99)
    rows = list(evidence.rows)
    rows[k] = replace(rows[k], marks={key: 0.1 if p > 0.5 else p
                                      for key, p in rows[k].marks.items()})
    decoded = decode_sheet(replace(evidence, rows=tuple(rows)))
    assert decoded.rows[k].status == "doubtful"
    assert decoded.rows[k].deal == doc["deals"][k]
    assert decoded.deals == doc["deals"]
    assert all(row.status == "read" for row in decoded.rows[k + 1:len(doc["deals"])])


@pytest.mark.parametrize("read_as", [0.03, 0.1])
def test_a_row_read_empty_between_deals_is_doubtful(read_as: float) -> None:
    """A deal row is never left empty between deals: whether or not the totals find its
    deal, a row that reads empty before a row that holds a deal is doubtful. Where it reads
    no deal at all, the capture loses whole rows: the row after the last deal is asked too
    (a deal lost there would show nowhere else), the rows after it stay empty."""
    doc = game(seed=3)
    k = len(doc["deals"]) // 2
    evidence = sheet_evidence(doc, sure=0.99)
    rows = list(evidence.rows)
    rows[k] = replace(rows[k], marks={key: read_as if p > 0.5 else p
                                      for key, p in rows[k].marks.items()},
                      digits={key: [0.0] * 10 + [1.0] for key in rows[k].digits})
    decoded = decode_sheet(replace(evidence, rows=tuple(rows)))
    assert (decoded.rows[k].status, decoded.rows[k].deal) == ("doubtful", None)
    after = len(doc["deals"])
    assert decoded.rows[after].status == "doubtful"
    assert [row.status for row in decoded.rows[after + 1:]] == \
        ["empty"] * (len(decoded.rows) - after - 1)


@pytest.mark.parametrize("deal", [{"dealer": "A", "type": "allpass",
                                   "tricks": {"A": 3, "B": 3, "C": 4}}, None])
def test_rows_read_empty_among_doubtful_rows_are_doubtful(deal: dict[str, Any] | None
                                                          ) -> None:
    """A far photo of pencil ticks at 76-109 dpi (TRAINING part, seed 211): rows 0, 3-6, 8
    and 10 doubtful (as no deal: their ink lost), rows 1, 2 and 7 read empty between them.
    Only rows read as a deal counted as written, and row 3 lies more than
    :data:`~scanner.decode.presence.STRAY_INK_GAP` rows past row 0, which would have made it
    stray ink anyway: the empty rows were left out of the sheet's fields, three deals lost
    silently. Every empty row before the last doubtful one is doubtful, whether the
    doubtful rows read as a deal or as none."""
    held = [0, 3, 4, 5, 6, 8, 10]
    rows = [_row_decision(k, [RowCandidate(deal, 0.0, 0.9)], [0.9], 0) if k in held else
            RowDecision(k, "empty", None, 1.0, ()) for k in range(14)]
    assert {row.status for row in rows[:11] if row.row in held} == {"doubtful"}
    statuses = [row.status for row in _between_deals(rows)]
    assert [k for k, status in enumerate(statuses) if status == "empty"] == [11, 12, 13]


def test_a_row_read_as_another_rows_overturned_ink_reads_it_is_doubtful() -> None:
    """A fresh TRAINING set, a thresholded scan (seed 220): two all-passes of dealer A,
    B8 C0 D2 in row 5 and B1 C7 D2 in row 9, swapped by the running totals (the whists
    columns between them misread). Row 5, its ink sure of B8 C0 D2, came out doubtful as
    overturned; row 9, its ink unsure, was read B8 C0 D2 at 1.0: a deal lost silently.
    A row read as an overturned row's ink reads that row is doubtful, naming it; a row
    read otherwise, or where the totals did not overturn the other row's ink or read it
    sure, stays as it was."""
    first = {"dealer": "A", "type": "allpass", "tricks": {"B": 8, "C": 0, "D": 2}}
    later = {"dealer": "A", "type": "allpass", "tricks": {"B": 1, "C": 7, "D": 2}}
    other = {"dealer": "B", "type": "allpass", "tricks": {"A": 4, "C": 4, "D": 2}}
    candidates = [[RowCandidate(first, -0.1, 0.9), RowCandidate(later, -5.0, 0.05)],
                  [RowCandidate(other, -0.1, 0.99)],
                  [RowCandidate(first, -1.0, 0.4), RowCandidate(later, -1.2, 0.3)]]
    picks = (1, 0, 0)
    rows = (RowDecision(4, "doubtful", later, 1.0, (), "overturned"),
            RowDecision(5, "read", other, 1.0, ()), RowDecision(8, "read", first, 1.0, ()))
    marked = _read_as_overturned(rows, candidates, picks)
    assert [row.status for row in marked] == ["doubtful", "read", "doubtful"]
    assert marked[2].note == "this is how the ink reads deal row 5, which the running " \
        "totals read otherwise: the two rows may be swapped, check both"
    assert _read_as_overturned(rows, candidates, (0, 0, 0)) == rows
    sure = (replace(rows[0], status="read"), *rows[1:])
    assert _read_as_overturned(sure, candidates, picks) == sure


@pytest.mark.parametrize(("variant", "players"), [("sochi", 3), ("leningrad", 4)])
def test_two_whisters_tricks_swapped_by_the_ink_are_never_read_silently(
        variant: str, players: int) -> None:
    """Issue 13 class 3 on a contract: both defenders whist and the ink swaps their tricks
    at 0.9999 a cell (the declarer's tricks and the result cells stay right, the sum stays
    10). Each whister writes whists for his own tricks, so the running totals tell the two
    splits apart: the row is doubtful with the split the totals fit."""
    for seed in range(200):
        doc = game(variant, players, seed)
        k = next((k for k, d in enumerate(doc["deals"]) if d["type"] == "contract"
                  and "tricks" in d and set(d["defence"].values()) == {"whist"}
                  and len({d["tricks"][s] for s in d["defence"]}) == 2), None)
        if k is not None:
            break
    else:
        raise AssertionError("no game with such a contract")
    deal = doc["deals"][k]
    first, second = deal["defence"]
    tricks = {**deal["tricks"], first: deal["tricks"][second], second: deal["tricks"][first]}
    evidence = sheet_evidence(doc, sure=0.999, talon=players == 4)
    rows = list(evidence.rows)
    rows[k] = row_evidence({**deal, "tricks": tricks}, k, evidence.seats, sure=0.9999,
                           talon=players == 4)
    decoded = decode_sheet(replace(evidence, rows=tuple(rows)))
    assert decoded.rows[k].status == "doubtful"
    assert decoded.rows[k].deal == deal


def test_a_row_read_below_the_threshold_says_how_sure_and_what_else() -> None:
    """A row doubtful for its confidence alone says how sure it is and, where the next
    reading differs only in digits, which (one in five doubtful fields of the TRAINING part
    said nothing before)."""
    deal = {"dealer": "A", "type": "contract", "declarer": "B", "contract": "6S",
            "defence": {"C": "whist"}, "tricks": {"B": 6, "C": 4}}
    options = [RowCandidate(deal, -0.1, 0.9),
               RowCandidate({**deal, "tricks": {"B": 7, "C": 3}}, -2.0, 0.1)]
    row = _row_decision(5, options, [0.99, 0.01], 0)
    assert row.status == "doubtful"
    assert getattr(row.note, "code", None) == "row_unsure_on"
    assert "0.9900" in str(row.note) and "B's and C's tricks (6 and 4, or 7 and 3)" in str(row.note)
    other_shape = [options[0], RowCandidate({**deal, "contract": "7S"}, -2.0, 0.1)]
    row = _row_decision(5, other_shape, [0.99, 0.01], 0)
    assert getattr(row.note, "code", None) == "row_unsure"


@pytest.mark.parametrize(("variant", "players", "seed", "first", "second", "whister", "partner"),
                         [("sochi", 3, 5, 0, 7, "B", "C"), ("rostov", 3, 5, 0, 7, "B", "C")])
def test_two_misreads_that_cancel_in_the_totals_are_not_held_in_place_by_each_other(
        variant: str, players: int, seed: int, first: int, second: int, whister: str,
        partner: str) -> None:
    """Two rows whose trick digits the ink leans the wrong way (a whister's tricks one too
    many in one deal, one too few in a later one; the partner's the other way): after both,
    every column is right again, so setting either row right alone breaks every later total
    the other still breaks. One row at a time, the totals kept both misreads, read at 1.0
    (TRAINING part, a far photo: a talon and a whister's tricks). Tried as a pair, the
    written totals between them put both right; each rests on the other, and a person
    checks both (a pair moved on poor ink can be wrong: TRAINING part, a pencil far photo)."""
    doc = game(variant, players, seed)
    decoded = decode_sheet(_misread_pair(doc, first, second, whister, partner, (0.6, 0.39),
                                         (0.6, 0.39)))
    assert decoded.rows[first].deal == doc["deals"][first]
    assert decoded.rows[second].deal == doc["deals"][second]
    for row, other in ((first, second), (second, first)):
        assert decoded.rows[row].status == "doubtful"
        assert decoded.rows[row].paired_with == other
        assert f"another reading of row {other + 1}" in decoded.rows[row].note


def _misread_pair(doc: dict[str, Any], first: int, second: int, whister: str, partner: str,
                  first_ink: tuple[float, float], second_ink: tuple[float, float]
                  ) -> SheetEvidence:
    """``doc``'s evidence with rows ``first`` and ``second`` misread: the whister's tricks
    one too many in the first, one too few in the second (the partner's the other way),
    each trick cell giving the misread and the true digit the shares of its ``*_ink``."""
    evidence = sheet_evidence(doc, sure=0.99, talon=len(doc["seats"]) == 4)
    rows = list(evidence.rows)
    for k, step, (misread, truth) in ((first, 1, first_ink), (second, -1, second_ink)):
        tricks = doc["deals"][k]["tricks"]
        row = rows[k]
        for seat, moved in ((whister, step), (partner, -step)):
            true, read = tricks[seat], tricks[seat] + moved
            assert 0 <= read <= 9 and true <= 9  # one digit: the units cell alone
            cell = [0.001] * 11
            cell[read], cell[true] = misread, truth
            row.digits[("tricks", f"{seat}:1")] = cell  # type: ignore[index]
        rows[k] = row
    return replace(evidence, rows=tuple(rows))


def test_a_pair_of_misreads_is_tried_where_the_later_one_is_read_almost_sure() -> None:
    """The same pair of misreads, the later row's ink sure of its misread (each trick cell
    0.95 against 0.045 for the true digit: the true reading 0.0022 as likely, as a talon's
    2 read 1 at 0.986, TRAINING part, legacy seed 210: read at 1.0, silently, its misread
    and an earlier doubtful row's cancelling in the totals). Tried as a pair, both are put
    right and doubtful (main: under PAIR_LIKELY 0.01, the later row read wrong and sure)."""
    doc = game("sochi", 3, 5)
    decoded = decode_sheet(_misread_pair(doc, 0, 7, "B", "C", (0.6, 0.39), (0.95, 0.045)))
    for row, other in ((0, 7), (7, 0)):
        assert decoded.rows[row].deal == doc["deals"][row]
        assert decoded.rows[row].status == "doubtful"
        assert decoded.rows[row].paired_with == other


@pytest.mark.parametrize("totals", ["as written", "one misread"])
def test_a_row_whose_ink_says_what_cannot_happen_is_read_where_its_totals_read_as_written(
        totals: str) -> None:
    """A contract row whose declarer's own call box reads crossed at 0.9999 (a mark of the
    next box spilling over, or the reader's speck): no legal deal holds that ink, and the
    row was doubtful ("the ink does not read as a legal deal") however sure its nearest
    legal reading and whatever the columns said (TRAINING part, 29 sets: 95 such rows, 66
    read right; every one of the wrong ones below :data:`ROW_READ` or with a total it
    writes read otherwise). Where every running total the deal writes is read as the
    columns' ink reads it likeliest, that ink says what the row says: the row is read. One
    of those totals read as another value (the writer's slip or the reader's) leaves it
    doubtful."""
    doc = game("sochi", 3, seed=11)
    k, deal = next((k, d) for k, d in enumerate(doc["deals"]) if d["type"] == "contract")
    evidence = sheet_evidence(doc, sure=0.999)
    rows = list(evidence.rows)
    marks = dict(rows[k].marks)
    marks[("call", f"{deal['declarer']}:whist")] = 0.9999
    rows[k] = replace(rows[k], marks=marks)
    columns = dict(evidence.columns)
    if totals == "one misread":
        entry = next(e for e in expected_sheet(parse_record(doc)).entries
                     if e.deal == k + 1 and e.column.kind != "mountain")
        index = [e.deal for e in expected_sheet(parse_record(doc)).column(entry.column)
                 ].index(k + 1)
        columns[entry.column] = tuple(
            entry_cells(int(entry.total) + 1, 3, 0.999) if i == index else cells
            for i, cells in enumerate(columns[entry.column]))
    decoded = decode_sheet(replace(evidence, rows=tuple(rows), columns=columns))
    row = decoded.rows[k]
    assert row.deal == deal
    if totals == "as written":
        assert (row.status, row.note) == ("read", "")
    else:
        assert (row.status, getattr(row.note, "code", None)) == ("doubtful", "not_legal")


def test_a_row_read_against_a_defenders_call_crossed_surely_is_doubtful() -> None:
    """A contract row whose passing defender's whist box reads crossed at 0.99 and pass box
    blank, its trick digits blank: the ink's reading (a whist with no tricks) is no legal
    deal, and the nearest legal one, the defender passing, writes its totals as the columns
    read them. Those totals say nothing of the defender's whists: the ink says the defender
    whisted, and the row is doubtful (TRAINING part, a fresh far pencil photo, seed 342
    sheet 008: such a row read as both passing at 0.9998, the whister's totals left
    unexplained, silently). The declarer's own call box crossed so stays a speck (the test
    above)."""
    doc = game("sochi", 3, seed=11)
    k, deal = next((k, d) for k, d in enumerate(doc["deals"]) if d["type"] == "contract"
                   and list(d["defence"].values()) == ["pass", "pass"])
    passer = next(iter(deal["defence"]))
    evidence = sheet_evidence(doc, sure=0.999)
    rows = list(evidence.rows)
    marks = dict(rows[k].marks)
    marks[("call", f"{passer}:whist")], marks[("call", f"{passer}:pass")] = 0.99, 0.03
    rows[k] = replace(rows[k], marks=marks)
    row = decode_sheet(replace(evidence, rows=tuple(rows))).rows[k]
    assert row.deal == deal
    assert (row.status, getattr(row.note, "code", None)) == ("doubtful", "not_legal")


def test_a_reading_that_makes_a_call_crossed_surely_is_weighed_beside_the_runner_up() -> None:
    """A row read as both defenders passing where one's whist box reads crossed at 0.99: the
    entries resting on its doubt are found with its runner-up (the same passes in another
    suit) and with its likeliest reading that makes the crossed whist, whose whists total
    the passes never write (a fresh TRAINING set, a far pencil photo, seed 342 sheet 008:
    that total, its pencil lost, was left out of ``scan.json``)."""
    doc = game("sochi", 3, seed=11)
    k, deal = next((k, d) for k, d in enumerate(doc["deals"]) if d["type"] == "contract"
                   and list(d["defence"].values()) == ["pass", "pass"])
    passer, other = deal["defence"]
    evidence = sheet_evidence(doc, sure=0.999)
    rows_ink = list(evidence.rows)
    marks = dict(rows_ink[k].marks)
    marks[("call", f"{passer}:whist")], marks[("call", f"{passer}:pass")] = 0.99, 0.03
    evidence = replace(evidence, rows=(*rows_ink[:k], replace(rows_ink[k], marks=marks),
                                       *rows_ink[k + 1:]))
    level = deal["contract"][0]
    suit = "S" if deal["contract"][1:] != "S" else "C"
    runner_up = {**deal, "contract": level + suit}
    whist = {**deal, "defence": {passer: "whist", other: "pass"},
             "tricks": {deal["declarer"]: 6, passer: 2, other: 2}}
    candidates = [[RowCandidate(d, 0.0, 1.0)] for d in doc["deals"]]
    candidates[k] = [RowCandidate(deal, 0.0, 0.9), RowCandidate(runner_up, -2.0, 0.09),
                     RowCandidate(whist, -5.0, 0.01)]
    picks = (0,) * len(candidates)
    rows = [RowDecision(i, "read", d, 1.0, ()) for i, d in enumerate(doc["deals"])]
    rows[k] = RowDecision(k, "doubtful", deal, 0.9, ((deal, 0.9), (runner_up, 0.09)))
    logs = DealLogs(evidence.rules, evidence.seats, evidence.columns, candidates)

    def sheet_with(option: int) -> Any:
        return logs.sheet(tuple(option if i == k else 0 for i in range(len(picks))), k)

    assert _runner_up_sheets(logs, candidates, picks, rows, evidence) == [
        (k, sheet_with(1)), (k, sheet_with(2))]


@pytest.mark.parametrize("overturned", [True, False])
def test_a_row_the_totals_overturned_is_weighed_with_the_inks_own_reading_too(
        overturned: bool) -> None:
    """A fresh TRAINING set, a pencil far photo (seed 313): a misere's tricks read 0 and 2
    by the ink, 1 and 1 by the running totals (a seat's pencil lost), the row doubtful.
    The entries that rest on the row's doubt were found with its next likeliest reading
    after the pick alone, which wrote the same columns as the pick; the ink's own reading
    writes a whists total the picked log does not, and that total, its ink lost too, was
    left out of ``scan.json``. A row the totals overturned is now weighed with the ink's
    reading as well; a row read as its ink reads it, with its runner-up alone."""
    doc = game("sochi", 3, seed=11)
    evidence = sheet_evidence(doc, sure=0.999)
    k, deal = next((k, d) for k, d in enumerate(doc["deals"]) if d["type"] == "allpass"
                   and len(set(d["tricks"].values())) == 3)
    seats = list(deal["tricks"])
    values = [deal["tricks"][seat] for seat in seats]
    ink_reading, runner_up = (
        {**deal, "tricks": dict(zip(seats, values[shift:] + values[:shift], strict=True))}
        for shift in (1, 2))
    candidates = [[RowCandidate(d, 0.0, 1.0)] for d in doc["deals"]]
    candidates[k] = [RowCandidate(ink_reading, 0.0, 0.5), RowCandidate(deal, -1.0, 0.3),
                     RowCandidate(runner_up, -2.0, 0.2)]
    if not overturned:
        candidates[k][:2] = candidates[k][1::-1]
    picks = tuple(1 if i == k and overturned else 0 for i in range(len(candidates)))
    rows = [RowDecision(i, "read", d, 1.0, ()) for i, d in enumerate(doc["deals"])]
    rows[k] = RowDecision(k, "doubtful", deal, 0.6,
                          ((deal, 0.6), (runner_up, 0.3), (ink_reading, 0.1)))
    logs = DealLogs(evidence.rules, evidence.seats, evidence.columns, candidates)
    weighed = _runner_up_sheets(logs, candidates, picks, rows, evidence)
    with_pick = list(picks)

    def sheet_with(option: int) -> Any:
        with_pick[k] = option
        return logs.sheet(tuple(with_pick), k)

    runner = 2
    expected = [(k, sheet_with(runner))] + ([(k, sheet_with(0))] if overturned else [])
    assert weighed == expected
