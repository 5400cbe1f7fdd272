"""Read sample sheets and measure the scanner against their ground truth.

Run: ``python -m bench.scan_bench [--sheets N] [--dpi N] [--samples DIR...]
[--tesseract-cells N] [--out DIR]``.
Sample sheets (random legal games of every variant, 3 and 4 players, clean, scanned and
photographed, some with recording errors) are made first with ``pulka samples`` unless
``--samples`` names folders made before. On one core (``cv2.setNumThreads(1)``) it prints:

* digit accuracy per written cell: the classifier, and Tesseract on a sample of the same cells;
* field accuracy before and after rule decoding: a field is a written entry (a running total)
  or a deal row; *before* is the ink's own best reading (the top number the cells spell; the
  most likely legal row from its marks and digits), *after* is the decoded value;
* marks accuracy (empty, crossed, cancelled);
* the share of sheets needing no person (no doubtful field);
* the silent error rate: fields decoded wrong but not marked doubtful, over all fields;
* time per sheet, against the time to just decode the same image files (the baseline), and
  where it goes: the ratio without writing the scan folder (stage 8, output: the page
  images, field sheets and ``scan.json`` for people to review), milliseconds per sheet in
  each stage of the pipeline (:data:`scanner.timing.STAGES`), wall time and this thread's
  CPU time (the CPU time is what other processes on a shared machine inflate least), and the
  CPU ratio too. Every sheet is read once beforehand: the process's start-up (layouts
  built, the digit model loaded) and the memory its largest sheet needs are what a batch
  pays once, and the baseline decodes in that same warm process. On a virtual machine,
  memory a process touches for the first time costs several times more than memory it
  reuses (the 12-sheet mix's first pass took 0.68 s a sheet against 0.59 s on the second,
  its load stage 186 against 130 ms, the decode alone); that first pass is printed too.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from pulka.cli.main import main as pulka_main
from pulka.cli.main import tune_process
from scanner.decode.deals import decode_row
from scanner.decode.numbers import number_candidates
from scanner.decode.sheet import decode_sheet
from scanner.digits.recognizer import DigitRecognizer
from scanner.errors import ScanError
from scanner.image.identify import IdentifiedPage, Identifier, assemble_sheets
from scanner.image.load import load_file
from scanner.image.register import register
from scanner.pipeline import ScanFailure, scan_paths
from scanner.read import read_sheet_pages, sheet_evidence
from scanner.tesseract import read_digits
from scanner.timing import STAGES, StageClock

MIXES = [("sochi", 3, "--scan"), ("leningrad", 4, "--photo"), ("rostov", 3, None),
         ("sochi", 4, "--photo"), ("leningrad", 3, "--scan"), ("rostov", 4, "--scan")]


def make_samples(count: int, folder: Path, dpi: int) -> list[Path]:
    """``count`` sample sheets of mixed variants, sizes and degradations, at ``dpi``."""
    made = []
    for index in range(count):
        variant, players, mode = MIXES[index % len(MIXES)]
        out = folder / f"{index:03d}-{variant}-{players}"
        args = ["samples", "--random", "1", "--variant", variant, "--players", str(players),
                "--seed", str(100 + index), "--errors", str(index % 3), "--out", str(out),
                "--dpi", str(dpi)]
        if mode:
            args.append(mode)
        pulka_main(args)
        made.append(out / "sample-001")
    return made


def decode_seconds(folder: Path) -> tuple[float, float]:
    """The baseline: decode the sheet's image files, nothing else (wall and CPU seconds)."""
    start, cpu = time.perf_counter(), time.thread_time()
    for path in sorted(folder.glob("page-*")):
        cv2.imdecode(np.frombuffer(path.read_bytes(), np.uint8), cv2.IMREAD_COLOR)
    return time.perf_counter() - start, time.thread_time() - cpu


def scan_seconds(folder: Path, out: Path, clock: StageClock,
                 recognizer: DigitRecognizer) -> tuple[float, list[str]]:
    """Seconds to read the sheet through the whole pipeline, and the failures' messages;
    ``clock`` gets the time of each stage."""
    start = time.perf_counter()
    outcomes = list(scan_paths([folder], out, clock=clock, recognizer=recognizer))
    seconds = time.perf_counter() - start
    return seconds, [o.message for o in outcomes if isinstance(o, ScanFailure)]


def _first_pass(folders: list[Path], out: Path, recognizer: DigitRecognizer) -> float:
    """Read the first sheet once (the process's start-up, printed), then every sheet once
    (the memory the largest needs, which a batch takes once); return the seconds of the
    latter, which the figures leave out."""
    start = time.perf_counter()
    scan_seconds(folders[0], out, StageClock(), recognizer)
    print(f"start-up (the first sheet read once, not counted): "
          f"{time.perf_counter() - start:.2f} s")
    return sum(scan_seconds(folder, out, StageClock(), recognizer)[0] for folder in folders)


def evaluate(folder: Path, tesseract_cells: int, stats: Counter[str],
             recognizer: DigitRecognizer) -> None:
    """Add one sheet's counts to ``stats``."""
    truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    record = truth["record"]
    (sheet,), _ = assemble_sheets(_identified(folder))
    layout = sheet.layout
    readings, lost = read_sheet_pages(sheet, recognizer, keep_crops=True)
    _count_digits(truth, readings, tesseract_cells, stats)
    _count_marks(truth, readings, stats)
    evidence = sheet_evidence(sheet.identity, layout, readings, lost)
    rules, rows, columns = evidence.rules, evidence.rows, evidence.columns
    decoded = decode_sheet(evidence)
    doubtful = 0
    for index, row in enumerate(rows):
        want = record["deals"][index] if index < len(record["deals"]) else None
        before = decode_row(row, rules, sheet.identity.seats)
        _field(stats, before[0].deal if before else None, decoded.rows[index].deal, want,
               decoded.rows[index].status, f"{folder}: row {index + 1}")
        doubtful += decoded.rows[index].status == "doubtful"
    for column, entries in columns.items():
        written = record["written"][column.seat]
        want_values = written["whists"][column.on] if column.on else written[column.kind]
        for index, (cells, decision) in enumerate(zip(entries, decoded.entries[column],
                                                      strict=True)):
            want = want_values[index] if index < len(want_values) else None
            ink = number_candidates(cells.cells, 1, cells.minus)
            _field(stats, ink[0].value if ink else None, decision.value, want,
                   decision.status, f"{folder}: {column}, entry {index + 1}")
            doubtful += decision.status == "doubtful"
    stats["sheets"] += 1
    stats["sheets_no_person"] += doubtful == 0


def _identified(folder: Path) -> list[IdentifiedPage]:
    """The sheet's pages registered and identified as one run of ``pulka scan`` does: a
    page whose code will not decode joins the sheet whose modules it matches."""
    identifier = Identifier()
    pages: list[IdentifiedPage] = []
    for path in sorted(folder.glob("page-*")):
        for page in load_file(path):
            found = identifier.identify_or_hold(register(page))
            pages.extend(([found] if found else []) + identifier.claim_held())
    for late in identifier.finish_held():
        if isinstance(late, ScanError):
            raise late
        pages.append(late)
    return pages


def _field(stats: Counter[str], before: Any, after: Any, want: Any, status: str,
           where: str) -> None:
    """Count one field; a silent error (wrong, not doubtful) is also named on the output."""
    if want is None and before is None and after is None:
        return  # an empty cell read as empty: not a field
    stats["fields"] += 1
    stats["fields_before_right"] += before == want
    stats["fields_after_right"] += after == want
    stats["fields_doubtful"] += status == "doubtful"
    if after != want and status != "doubtful":
        stats["silent_errors"] += 1
        print(f"silent error: {where}: decoded {after}, written {want}")


def _count_digits(truth: dict[str, Any], readings: dict[int, Any], tesseract_cells: int,
                  stats: Counter[str]) -> None:
    by_place = {(c["page"], round(c["box"][0], 2), round(c["box"][1], 2)): c["char"]
                for c in truth["cells"]}
    crops, wanted = [], []
    for reading in readings.values():
        for cell in reading.cells:
            box = cell.box
            char = by_place.get((box.page, round(box.x_mm, 2), round(box.y_mm, 2)))
            if not char or not char.isdigit():
                continue
            stats["digits"] += 1
            stats["digits_right"] += int(np.argmax(cell.probabilities)) == int(char)
            if cell.crop is not None and len(crops) < tesseract_cells:
                crops.append(cell.crop)
                wanted.append(char)
    if crops:
        start = time.perf_counter()
        read = read_digits(crops)
        stats["tesseract_ms"] += int(1000 * (time.perf_counter() - start))
        stats["tesseract_digits"] += len(crops)
        stats["tesseract_right"] += sum(r == w for r, w in zip(read, wanted, strict=True))


def _count_marks(truth: dict[str, Any], readings: dict[int, Any], stats: Counter[str]) -> None:
    by_place = {(m["page"], round(m["box"][0], 2), round(m["box"][1], 2)): m["state"]
                for m in truth["marks"]}
    for reading in readings.values():
        for mark in reading.marks:
            box = mark.box
            state = by_place.get((box.page, round(box.x_mm, 2), round(box.y_mm, 2)), "empty")
            stats["marks"] += 1
            stats["marks_right"] += mark.state == state


def _arguments() -> argparse.Namespace:
    """The command line's options."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sheets", type=int, default=12)
    parser.add_argument("--samples", type=Path, nargs="*",
                        help="sample folders (with truth.json) made before")
    parser.add_argument("--dpi", type=int, default=300,
                        help="resolution the sample sheets are made at (300: a flatbed "
                             "scan's usual; the photos come out near it too)")
    parser.add_argument("--tesseract-cells", type=int, default=40,
                        help="written cells per sheet also read by Tesseract")
    parser.add_argument("--out", type=Path,
                        help="folder the scans are written under (default: a temporary "
                             "folder; creating a file costs 0.05-1 ms, by file system)")
    parser.add_argument("--untuned", action="store_true",
                        help="leave out the memory tuning pulka's command line does at "
                             "start-up (pulka.cli.main.tune_process)")
    return parser.parse_args()


def main() -> None:
    args = _arguments()
    cv2.setNumThreads(1)
    if not args.untuned:
        tune_process()
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=args.out) as temp:
        folders = args.samples or make_samples(args.sheets, Path(temp) / "samples", args.dpi)
        stats: Counter[str] = Counter()
        decode = scan = decode_cpu = 0.0
        clock = StageClock()
        recognizer = DigitRecognizer()
        first_pass = _first_pass(folders, Path(temp) / "warm-up", recognizer)
        for folder in folders:
            sheet_clock = StageClock()
            seconds, failures = scan_seconds(folder, Path(temp) / "out", sheet_clock, recognizer)
            if failures:
                stats["sheets_failed"] += 1
                print(f"{folder}: not read: {failures[0]}")
                continue
            wall, cpu = decode_seconds(folder)
            decode += wall
            decode_cpu += cpu
            scan += seconds
            clock.add(sheet_clock)
            evaluate(folder, args.tesseract_cells, stats, recognizer)
    pct = lambda a, b: f"{100 * stats[a] / max(stats[b], 1):.2f} %"  # noqa: E731
    print(f"sheets: {stats['sheets']} read, {stats['sheets_failed']} not read; "
          f"written digits: {stats['digits']}, fields: {stats['fields']}, "
          f"marks: {stats['marks']}")
    print(f"digit accuracy, classifier:          {pct('digits_right', 'digits')}")
    print(f"digit accuracy, Tesseract:           {pct('tesseract_right', 'tesseract_digits')} "
          f"({stats['tesseract_digits']} cells, "
          f"{stats['tesseract_ms'] / max(stats['tesseract_digits'], 1):.0f} ms per cell)")
    print(f"fields right before rule decoding:   {pct('fields_before_right', 'fields')}")
    print(f"fields right after rule decoding:    {pct('fields_after_right', 'fields')}")
    print(f"fields marked doubtful:              {pct('fields_doubtful', 'fields')}")
    print(f"silent errors (wrong, not doubtful): {pct('silent_errors', 'fields')}")
    print(f"marks right:                         {pct('marks_right', 'marks')}")
    print(f"sheets needing no person:            {pct('sheets_no_person', 'sheets')}")
    sheets = max(stats["sheets"], 1)
    print(f"time per sheet: {scan / sheets:.2f} s to read, {decode / sheets:.3f} s to decode "
          f"its images: {scan / max(decode, 1e-9):.1f}x the decode time (one core)")
    written = clock.wall.get("output", 0.0)
    print(f"  without writing the scan folder ({written / sheets:.3f} s: page images, field "
          f"sheets, scan.json): {(scan - written) / max(decode, 1e-9):.1f}x")
    print(f"  the first pass, not counted (memory being taken): "
          f"{first_pass / len(folders):.2f} s a sheet, "
          f"{first_pass / len(folders) / max(decode / sheets, 1e-9):.1f}x")
    _print_stages(clock, scan, sheets)
    scan_cpu = sum(clock.cpu.values())
    print(f"CPU time per sheet: {scan_cpu / sheets:.2f} s in the stages, "
          f"{decode_cpu / sheets:.3f} s to decode its images: "
          f"{scan_cpu / max(decode_cpu, 1e-9):.1f}x (what other processes inflate least)")


def _print_stages(clock: StageClock, scan: float, sheets: int) -> None:
    """Milliseconds per sheet in each stage, wall and CPU; what no stage holds is "other"."""
    names = [*STAGES, *sorted(set(clock.wall) - set(STAGES))]
    wall = {name: 1000 * clock.wall[name] / sheets for name in names}
    cpu = {name: 1000 * clock.cpu[name] / sheets for name in names}
    other = max(0.0, 1000 * scan / sheets - sum(wall.values()))
    print("time per sheet by stage, ms (wall / CPU):")
    print("  " + "  ".join(f"{name} {wall[name]:.0f}/{cpu[name]:.0f}" for name in names)
          + f"  other {other:.0f}")


if __name__ == "__main__":
    main()
