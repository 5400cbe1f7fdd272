"""The reader bench's scoring: right, silent, doubtful, missing and extra fields; the tables."""

from __future__ import annotations

from typing import Any

from bench.reader_eval import Tally, listing, report, score_sheet, truth_fields
from scanner.results import FieldReading, SheetScan, entry_key, row_key

DEAL = {"contract": "pass", "tricks": {"A": 2, "B": 4, "C": 4}}
TRUTH: dict[str, Any] = {"record": {
    "deals": [DEAL, {**DEAL, "tricks": {"A": 5, "B": 3, "C": 2}}],
    "written": {s: {"pool": [2, 4], "mountain": [], "whists": {}} for s in "ABC"}}}


def _scan(values: dict[str, Any], doubtful: tuple[str, ...] = ()) -> SheetScan:
    fields = tuple(FieldReading(k, 0, (0.0, 0.0, 1.0, 1.0),
                                "doubtful" if k in doubtful else "read", v, 0.9)
                   for k, v in values.items())
    return SheetScan("S-1", {}, "L", (), fields, {})


def test_a_sheet_read_as_written_is_all_right_and_needs_no_person() -> None:
    tally = score_sheet(TRUTH, _scan(truth_fields(TRUTH["record"])))
    assert (tally.fields, tally.right, tally.silent, tally.doubtful, tally.no_person) == \
        (8, 8, 0, 0, 1)


def test_wrong_missing_doubtful_and_extra_fields() -> None:
    values = truth_fields(TRUTH["record"])
    values[entry_key("A", "pool", None, 1)] = 7          # wrong, read: silent
    values[entry_key("B", "pool", None, 0)] = 3          # wrong, doubtful
    del values[row_key(1)]                               # missing: silent
    values[entry_key("C", "mountain", None, 0)] = 5      # not written at all: silent
    values[entry_key("A", "mountain", None, 4)] = None   # blank, doubtful: asked, no field
    tally = score_sheet(TRUTH, _scan(values, doubtful=(entry_key("B", "pool", None, 0),
                                                       entry_key("A", "mountain", None, 4))))
    assert (tally.fields, tally.right, tally.silent, tally.doubtful, tally.no_person) == \
        (9, 5, 3, 1, 0)
    assert tally.asked_blank == 1


def test_the_report_gives_classes_dimensions_overall_and_refusals() -> None:
    read = score_sheet(TRUTH, _scan(truth_fields(TRUTH["record"])))
    refused = Tally(sheets=1, refused=1, messages=["007: take the photo closer"])
    lines = report({"font x phone-far x tick-long x pencil": refused,
                    "strokes x flatbed-bw x loop-oval x black": read,
                    "legacy x legacy-scan": read})
    text = "\n".join(lines)
    assert "| phone-far | 1 | 1 | 0 | - | 0 (-) | - | - |" in text
    assert "| evaluation part | 2 | 1 | 8 | 100.0 % | 0 (0.0 %) | 0.0 % | 100.0 % |" in text
    assert "| legacy profile | 1 | 0 | 8 |" in text
    assert "  007: take the photo closer" in text
    assert "blank boxes and rows asked about (doubtful, nothing written): 0, 0.0 per read " \
        "sheet" in text
    assert "sheets needing no person among those without a recording error: 2 of 2 " \
        "(100.0 %); with one: 0 of 0" in text


def test_sheets_with_a_recording_error_are_counted_apart() -> None:
    """A sheet whose truth holds a recording error is not among the clean ones, however read."""
    erred = {**TRUTH, "errors": [{"kind": "slip", "column": "A pool", "entry": 1}]}
    clean = score_sheet(TRUTH, _scan(truth_fields(TRUTH["record"])))
    slipped = score_sheet(erred, _scan(truth_fields(TRUTH["record"])))
    assert (clean.clean, clean.clean_no_person) == (1, 1)
    assert (slipped.clean, slipped.clean_no_person, slipped.no_person) == (0, 0, 1)


def test_a_sheet_whose_doubt_has_one_cause_is_listed_under_it() -> None:
    """Two fields doubtful for the same note (its numbers apart) hold the sheet for one
    cause: the listing names it, so a round knows which rule keeps which sheets from
    needing no person; a sheet doubtful for two causes is held by neither."""
    values = truth_fields(TRUTH["record"])
    keys = [entry_key("A", "pool", None, 0), entry_key("B", "pool", None, 1)]
    notes = {keys[0]: "ink unsure; the rules expect 2", keys[1]: "ink unsure; the rules expect 4"}

    def scan(notes: dict[str, str]) -> SheetScan:
        fields = tuple(FieldReading(k, 0, (0.0, 0.0, 1.0, 1.0),
                                    "doubtful" if k in notes else "read", v, 0.9,
                                    note=notes.get(k))
                       for k, v in values.items())
        return SheetScan("S-1", {}, "L", (), fields, {})

    one = score_sheet(TRUTH, scan(notes))
    assert one.held_by == ["entry: ink unsure; the rules expect N"]
    two = score_sheet(TRUTH, scan({**notes, keys[1]: "the ink says 7; the rules make it 4"}))
    assert two.held_by == []
    text = "\n".join(listing({"a": one, "b": two}))
    assert "sheets whose every doubtful field has one cause (1), by cause:\n" \
        "      1  entry: ink unsure; the rules expect N" in text
