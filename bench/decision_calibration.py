"""How the reader's decisions separate right readings from misreads, on sets already read.

Run: ``python -m bench.decision_calibration DIR [DIR ...] [--fields]``, each ``DIR`` the
``--out`` of a :mod:`bench.reader_eval` run (its ``samples/`` and ``scans-0/``).

For the entries whose value is not the one the rules expected (a player's slip read right,
or a misread), and for every doubtful field by its note, it counts the readings right and
wrong by a measure of the decision's evidence: the ink's share of the value read (P(ink |
value) over the values weighed), the posterior (a row's confidence), and for an entry how
many times the entries after it raise its odds
(:meth:`~scanner.decode.column_paths.EntryStep.later_odds`, its column decoded again from the
kept ink). A threshold is safe where no misread lies beyond it; it pays where many right
readings do. Tune on the TRAINING part only.
"""

from __future__ import annotations

import argparse
import functools
import json
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from bench.reader_eval import note_cause, truth_fields
from pulka.store.rebuild import parse_key
from scanner.decode.column_paths import entry_posteriors
from scanner.decode.columns import _entry_ink
from scanner.decode.entries import ColumnEntry, EntryInk, EntryPinned
from scanner.decode.past_pool import column_ceiling
from scanner.decode.redecode import expected_for, ink_mapping
from scoring.columns import Column, ColumnKind
from scoring.rules import RuleSet

BINS = (0.0, 0.5, 0.9, 0.99, 0.995, 0.998, 0.999, 0.9995, 0.9999, 1.01)
"""Edges of the bins the ink share and the posterior are counted in."""
ODDS_BINS = (0.0, 2.0, 10.0, 100.0, 1000.0, float("inf"))
"""Edges of the bins the later entries' odds are counted in."""


@dataclass(frozen=True)
class Judged:
    """One field of a read sheet beside its truth."""

    sheet: str
    field: dict[str, Any]
    truth: Any
    later: float
    """How many times the entries after it raise the odds of its value (1 for a row)."""

    @property
    def right(self) -> bool:
        """The field's value is the truth's."""
        return bool(self.field["value"] == self.truth)

    @property
    def ink_share(self) -> float:
        """The ink's share of the value read among the values weighed (1 for a row)."""
        ink = {json.dumps(v): p for v, p in self.field.get("ink") or []}
        total = sum(ink.values())
        return ink.get(json.dumps(self.field["value"]), 0.0) / total if total else 1.0

    @property
    def note(self) -> str:
        """The field's note in English (``scan.json`` keeps a coded one as a dict)."""
        note = self.field["note"]
        return str(note["message"]) if isinstance(note, dict) else str(note)

    @property
    def cause(self) -> str:
        """The field's note as ``reader_eval --list`` counts it (:func:`note_cause`)."""
        return note_cause(self.field["key"].split(":")[0], self.note)


def later_odds(scan: dict[str, Any]) -> dict[str, float]:
    """Each written entry's later odds (by key), its column decoded again from the ink the
    scan kept against the scan's own deal log (one pass: no entry pinned empty)."""
    record = scan["record"]
    rules = RuleSet.from_settings(record["rules"])
    sheet = expected_for(record["deals"], rules, record["seats"])
    if sheet is None:
        return {}  # an illegal deal log: nothing to expect
    columns: dict[Column, list[dict[str, Any]]] = defaultdict(list)
    for field in scan["fields"]:
        where = parse_key(field["key"])
        if not isinstance(where, int):
            seat, kind, on, _ = where
            columns[Column(seat, cast(ColumnKind, kind), on)].append(field)
    odds: dict[str, float] = {}
    for column, fields in columns.items():
        written = [f for f in fields if f["ink"]]
        entries: list[ColumnEntry] = [EntryInk(ink_mapping(f["ink"])) for f in written]
        ink_of: Callable[..., dict[int | None, float]] = functools.partial(
            _entry_ink, ceiling=column_ceiling(column, rules))
        steps = entry_posteriors([*entries, EntryPinned(None)], sheet.column(column), ink_of)
        odds |= {f["key"]: step.later_odds(f["value"]) for f, step in zip(written, steps,
                                                                          strict=False)}
    return odds


def judged_fields(folder: Path) -> Iterator[Judged]:
    """Every field of every sheet read under ``folder`` with the truth it should have."""
    samples = sorted(p for p in (folder / "samples").iterdir() if p.is_dir())
    for number, sample in enumerate(samples):
        scans = list((folder / "scans-0" / f"{number:03d}").glob("*/scan.json"))
        if len(scans) != 1:
            continue
        truth = truth_fields(json.loads((sample / "truth.json").read_text())["record"])
        scan = json.loads(scans[0].read_text())
        if scan["missing_pages"]:
            continue  # refused: reader_eval counts none of its fields
        odds = later_odds(scan)
        for field in scan["fields"]:
            if field["key"] in truth or field["value"] is not None:
                yield Judged(f"{folder.name}/{sample.name}", field,
                             truth.get(field["key"]), odds.get(field["key"], 1.0))


def bin_of(value: float, edges: tuple[float, ...]) -> str:
    """The label of the bin ``value`` falls in."""
    for low, high in zip(edges, edges[1:], strict=False):
        if low <= value < high:
            return f"[{low:g}, {min(high, 1.0) if edges is BINS else high:g})"
    return "?"


MEASURES: dict[str, Callable[[Judged], float]] = {
    "ink share": lambda f: f.ink_share,
    "confidence": lambda f: float(f.field["confidence"]),
    "later odds": lambda f: f.later,
}


def table(title: str, fields: list[Judged], measure: str) -> list[str]:
    """Counts of ``fields`` right and wrong, read and doubtful, by bin of ``measure``."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    edges = ODDS_BINS if measure == "later odds" else BINS
    for f in fields:
        slot = (0 if f.right else 1) + (2 if f.field["status"] == "doubtful" else 0)
        counts[bin_of(MEASURES[measure](f), edges)][slot] += 1
    lines = [f"{title} ({len(fields)}), by {measure}:",
             "  bin                 right read  WRONG read  right doubt  wrong doubt"]
    return lines + [f"  {b:18s} {c[0]:10d} {c[1]:11d} {c[2]:12d} {c[3]:12d}"
                    for b, c in sorted(counts.items(), key=lambda i: float(i[0][1:].split(",")[0]))]


def listed(f: Judged) -> str:
    """One field on a line, for ``--fields``."""
    return (f"  {'ok ' if f.right else 'BAD'} {f.field['status']:8s} {f.sheet} "
            f"{f.field['key']}: {f.field['value']} (truth {f.truth}, expected "
            f"{f.field['expected']}) share {f.ink_share:.5f} conf {f.field['confidence']:.5f} "
            f"later {f.later:.4g} {f.note}")


def main() -> None:
    """Read the sets, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--fields", action="store_true",
                        help="list each off-expectation entry and each wrong entry")
    args = parser.parse_args()
    fields = [f for folder in args.folders for f in judged_fields(folder)]
    off = [f for f in fields if f.field["key"].startswith("entry")
           and None not in (f.field["value"], f.field["expected"])
           and f.field["value"] != f.field["expected"]]
    lines: list[str] = []
    for measure in MEASURES:
        lines += [*table("entries read otherwise than the rules expected", off, measure), ""]
    by_cause: dict[str, list[Judged]] = defaultdict(list)
    for f in fields:
        if f.field["status"] == "doubtful":
            by_cause[f.cause].append(f)
    for cause, group in sorted(by_cause.items(), key=lambda item: -len(item[1])):
        for measure in MEASURES if cause.startswith("entry") else ("confidence",):
            lines += [*table(cause, group, measure), ""]
    if args.fields:
        lines += ["off-expectation entries and wrong entries:"]
        lines += [listed(f) for f in fields if f in off
                  or (not f.right and f.field["key"].startswith("entry"))]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
