"""Two reads of the same sample sets, field by field: what a change to the reader moved.

Run: ``python -m bench.scan_diff BEFORE AFTER [BEFORE AFTER ...] [--scans NAME]``, each
folder the ``--out`` of a :mod:`bench.reader_eval` run over the same sheets (``AFTER``
made with ``--reuse`` from a copy of ``BEFORE/samples``, or the same folder read again
into another ``scans-N``). Every field whose status or value differs between the two reads
is printed with its sheet, the truth and the note it has after, then the moves are counted
by their kind: ``right-read -> right-doubtful`` (a right field now asked), ``wrong-read ->
wrong-doubtful`` (a silent field now asked), ``missing`` (a field of the truth the scan
does not report), ``blank-doubtful`` (a box nothing was written in, asked). The
:mod:`bench.reader_eval` totals say how much a change moved; this says which fields.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.reader_eval import truth_fields

SCANS = "scans-0"
"""The folder of a :mod:`bench.reader_eval` run's reads (its first digit model's)."""


@dataclass(frozen=True)
class Move:
    """One field read otherwise after the change."""

    sheet: str
    key: str
    truth: Any
    before: str
    after: str
    note: str

    def line(self) -> str:
        """The move as one line of the listing."""
        truth = "a deal" if isinstance(self.truth, dict) else self.truth
        return (f"{self.sheet} {self.key} (truth {truth}): {self.before} -> {self.after}"
                + (f": {self.note}" if self.note else ""))


def state(reading: dict[str, Any] | None, want: Any, in_truth: bool) -> str:
    """A field's reading as one word pair: right or wrong against the truth (``blank``
    where the truth has no such field and nothing was read), then its status;
    ``missing`` where the scan does not report a field of the truth."""
    if reading is None:
        return "missing" if in_truth else "absent"
    value = reading.get("value")
    if not in_truth and value is None:
        return f"blank-{reading['status']}"
    return f"{'right' if value == want else 'wrong'}-{reading['status']}"


def sheet_scans(folder: Path, scans: str = SCANS) -> Iterator[tuple[str, Path, Path | None]]:
    """Each sample sheet of a run: its folder's name, its ``truth.json`` and its
    ``scan.json`` (``None`` where the sheet was refused)."""
    for truth in sorted((folder / "samples").glob("*/truth.json")):
        name = truth.parent.name
        found = sorted((folder / scans / name[:3]).glob("*/scan.json"))
        yield name, truth, found[0] if len(found) == 1 else None


def _fields(scan: Path | None) -> dict[str, dict[str, Any]] | None:
    if scan is None:
        return None
    return {f["key"]: f for f in json.loads(scan.read_text(encoding="utf-8"))["fields"]}


def moves(before: Path, after: Path, scans: str = SCANS) -> Iterator[Move]:
    """The fields read otherwise in ``after`` than in ``before`` (a sheet refused on one
    side and read on the other is one move, key ``sheet``)."""
    later = {name: scan for name, _, scan in sheet_scans(after, scans)}
    for name, truth_path, scan in sheet_scans(before, scans):
        sheet = f"{before.name}/{name}"
        if name not in later:
            raise SystemExit(f"scan_diff: {after} holds no sheet {name}")
        old, new = _fields(scan), _fields(later[name])
        if old is None or new is None:
            if (old is None) != (new is None):
                yield Move(sheet, "sheet", None, "refused" if old is None else "read",
                           "refused" if new is None else "read", "")
            continue
        want = truth_fields(json.loads(truth_path.read_text(encoding="utf-8"))["record"])
        for key in sorted(set(old) | set(new)):
            was, now = old.get(key), new.get(key)
            if _seen(was) == _seen(now):
                continue
            note = (now or {}).get("note") or {}
            yield Move(sheet, key, want.get(key), state(was, want.get(key), key in want),
                       state(now, want.get(key), key in want), note.get("message", ""))


def _seen(reading: dict[str, Any] | None) -> tuple[str, str] | None:
    """What a person sees of a field: its status and value (its value as JSON, so that
    a deal compares as a whole)."""
    if reading is None:
        return None
    return reading["status"], json.dumps(reading.get("value"), sort_keys=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path,
                        help="BEFORE AFTER pairs of bench.reader_eval --out folders")
    parser.add_argument("--scans", default=SCANS, help="the reads' folder in each (scans-N)")
    args = parser.parse_args()
    if len(args.folders) % 2:
        parser.error("give the folders in pairs: BEFORE AFTER [BEFORE AFTER ...]")
    counted: Counter[tuple[str, str]] = Counter()
    pairs = zip(args.folders[::2], args.folders[1::2], strict=True)
    for before, after in pairs:
        for move in moves(before, after, args.scans):
            print(move.line())
            counted[move.before, move.after] += 1
    print(f"\n{sum(counted.values())} fields moved:")
    for (was, now), count in counted.most_common():
        print(f"  {count:5d}  {was} -> {now}")


if __name__ == "__main__":
    main()
