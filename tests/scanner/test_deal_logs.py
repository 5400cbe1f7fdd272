"""The expected sheets of candidate deal logs and their fit to the written columns
(scanner.decode.deal_logs)."""

from __future__ import annotations

import random

from scanner.decode.deal_logs import ILLEGAL_FIT, DealLogs, column_log_likelihood
from scanner.decode.deals import RowCandidate, decode_row
from scanner.decode.steps import step_log_likelihood
from scoring import expected_sheet, parse_record
from scoring.errors import RecordError
from tests.scanner.evidence import game, sheet_evidence


def test_deal_logs_write_each_pick_as_its_record_would() -> None:
    doc = game(seed=5)
    illegal = {"dealer": doc["seats"][0], "type": "misere", "declarer": doc["seats"][1],
               "defence": {doc["seats"][2]: "whist"}}
    other_deals = doc["deals"][1:] + doc["deals"][:1]
    candidates = [[RowCandidate(deal, 0.0), RowCandidate(other, 0.0), RowCandidate(None, 0.0),
                   RowCandidate(illegal, 0.0)]
                  for deal, other in zip(doc["deals"], other_deals, strict=True)]
    evidence = sheet_evidence(doc)
    logs = DealLogs(evidence.rules, evidence.seats, evidence.columns, candidates)
    rng = random.Random(7)
    outcomes = []
    for attempt in range(60):
        picks = tuple(rng.choice((0, 0, 0, 1, 2)) for _ in candidates)
        if attempt % 3 == 0:  # one row's reading the rules refuse
            picks = tuple(3 if row == attempt % len(picks) else k for row, k in enumerate(picks))
        chosen = [candidates[row][k].deal for row, k in enumerate(picks)]
        try:
            want = expected_sheet(parse_record({**doc, "deals": [d for d in chosen if d]}))
        except RecordError:
            want = None
        assert logs.sheet(picks, rng.randrange(len(picks) + 1)) == want
        outcomes.append(want is None)
    assert outcomes.count(True) == 20


def test_deal_log_fits_are_their_sheets_column_likelihoods() -> None:
    """:meth:`DealLogs.fit` weighs the rows before the weighed one once and writes each later
    row's deal once per course: the same floats as each reading's own sheet."""
    doc = game("leningrad", 4, seed=2)
    evidence = sheet_evidence(doc, talon=True, sure=0.7)
    candidates = [decode_row(row, evidence.rules, evidence.seats) for row in evidence.rows]
    logs = DealLogs(evidence.rules, evidence.seats, evidence.columns, candidates)
    rng = random.Random(3)
    walked = 0
    for _ in range(4):
        base = [rng.randrange(min(2, len(options))) if options else 0 for options in candidates]
        for index, options in enumerate(candidates):
            for option in range(len(options)):
                picks = tuple(option if i == index else k for i, k in enumerate(base))
                sheet = logs.sheet(picks, 0)
                want = ILLEGAL_FIT if sheet is None else sum(
                    column_log_likelihood(cells, sheet.column(column))
                    for column, cells in evidence.columns.items())
                assert logs.fit(picks, index) == want
                walked += len(picks) - index
    assert len(logs._steps) < walked / 4  # most rows' deals were on a course already written


def test_an_entry_whose_ink_reads_no_value_is_weighed_as_blank() -> None:
    """Ink that spells no total at all (every reading a written "07"-like number, which is
    not how totals are written) must not stop the sheet's decoding (an evaluation sheet's
    crash): the entry counts as blank against the totals each row writes."""
    from dataclasses import replace

    from scanner.decode.sheet import decode_sheet

    doc = game()
    evidence = sheet_evidence(doc, sure=0.99)
    column = next(c for c, entries in evidence.columns.items() if c.kind == "pool")
    odd = evidence.columns[column][0]
    vars(odd)["likeliest"] = []  # what likeliest_values gives when no reading is a total
    decoded = decode_sheet(replace(evidence, columns={**evidence.columns}))
    assert len(decoded.rows) == len(evidence.rows)


def test_the_steps_after_a_slip_carried_on_still_find_each_rows_reading() -> None:
    """A writer's slip carried on (4.2.7: every later total of the column written on from
    the slipped one) puts the later totals off the rules' by its amount, so the running
    totals themselves favour any reading that catches it up. The steps between totals
    (:meth:`DealLogs.step_odds`) find no other reading of a later row likelier than the
    one written, and read the slip where it was made."""
    doc = game("rostov", 3, seed=4)
    sheet = expected_sheet(parse_record(doc))
    column = max((c for c in sheet_evidence(doc).columns if c.kind == "whists"),
                 key=lambda c: len(doc["written"][c.seat]["whists"][c.on]))
    totals = doc["written"][column.seat]["whists"][column.on]
    assert len(totals) >= 4
    doc["written"][column.seat]["whists"][column.on] = totals[:2] + [t + 2 for t in totals[2:]]
    evidence = sheet_evidence(doc, sure=0.9)
    candidates = [decode_row(row, evidence.rules, evidence.seats) for row in evidence.rows]
    deals = doc["deals"] + [None] * (len(candidates) - len(doc["deals"]))
    picks = tuple(next((k for k, c in enumerate(options) if c.deal == deal), 0)
                  for options, deal in zip(candidates, deals, strict=True))
    slipped_at = [e.deal for e in sheet.column(column) if e.deal is not None][2] - 1
    logs = DealLogs(evidence.rules, evidence.seats, evidence.columns, candidates)
    later = [logs.step_odds(picks, index, option)
             for index in range(slipped_at + 1, len(doc["deals"]))
             for option in range(len(candidates[index]))]
    assert max(later) <= 0.0
    amount = totals[2] - totals[1]
    written = evidence.columns[column]
    assert step_log_likelihood(written, 2, amount + 2) > step_log_likelihood(written, 2,
                                                                             amount) + 3
