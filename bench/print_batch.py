"""Benchmark: print a 300-sheet tournament batch (3 players, names from a generated draw) and
report sheets per second; the baseline, measured in the same run, renders one blank sheet into
its own PDF repeatedly (every page drawn from scratch), reported as a ratio.

Run: .venv/bin/python bench/print_batch.py [--sheets 300] [--players 3]
"""

from __future__ import annotations

import argparse
import io
import time

from forms.render.batch import Seating, batch_requests
from forms.render.sheet import render_pdf, render_pdf_bytes
from scoring.rules import RuleSet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sheets", type=int, default=300)
    parser.add_argument("--players", type=int, default=3, choices=(3, 4))
    parser.add_argument("--baseline", type=int, default=20, help="blank sheets for the baseline")
    args = parser.parse_args()
    rules = RuleSet.preset("sochi", args.players, 20)
    tables = 25
    seatings = [Seating(1 + i // tables, 1 + i % tables,
                        tuple(f"Игрок {i}-{s}" for s in "ABCD"[:args.players]))
                for i in range(args.sheets)]
    warm = list(batch_requests(seatings[:1], rules, "Bench Open", "ru"))
    render_pdf_bytes(warm)  # fonts, caches

    start = time.perf_counter()
    for _ in range(args.baseline):
        render_pdf_bytes(warm)
    baseline = args.baseline / (time.perf_counter() - start)

    start, cpu = time.perf_counter(), time.process_time()
    buffer = io.BytesIO()
    pages = render_pdf(batch_requests(seatings, rules, "Bench Open", "ru"), buffer)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    rate = args.sheets / elapsed
    print(f"batch: {args.sheets} sheets ({pages} pages, {len(buffer.getvalue()) / 1e6:.1f} MB) "
          f"in {elapsed:.2f} s = {rate:.1f} sheets/s (CPU {args.sheets / cpu:.1f} sheets/s)")
    print(f"baseline (one blank sheet per PDF): {baseline:.1f} sheets/s; "
          f"batch/baseline = {rate / baseline:.2f}")


if __name__ == "__main__":
    main()
