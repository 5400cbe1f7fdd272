"""Benchmark ``pulka import``: sample sheets scanned into a fresh store, on all cores and on one.

    .venv/bin/python -m bench.import_bench                  # 300 sheets, all cores
    .venv/bin/python -m bench.import_bench --sheets 40 --baseline 8 --keep /tmp/bench

The sample sheets (``pulka samples``: random games in handwriting, a third with recording
errors, a third photographed) are made first, on all cores, outside the timed part. Then the
timed part: :func:`pulka.store.importer.import_paths` over all of them with every core, and, as the
baseline in the same run, over the first ``--baseline`` of them with one core (a whole 1-core
import of 300 sheets would take most of an hour). Prints sheets per second of each and the
ratio; ``--json`` writes the figures. With ``--keep DIR`` the samples stay in ``DIR/samples``
and a later run with the same ``--keep`` times the import again without making them again.

Making the samples takes longer than importing them (2 cores: 150 sheets in 14 min, 5.6 s
a sheet), so 300 sheets is about 40 minutes of a 2-core machine in all. Measured
on 2 shared cores (load ~4.5 from other work), ``--sheets 150 --baseline 20``: all cores
0.745 and 0.795 sheets/s (201 s, 189 s), one core 0.705 and 0.801 sheets/s, ratio 1.06 and
0.99: with the cores already busy, the second worker buys nothing; an idle many-core machine
is where the ratio means something.

The all-cores import is then run again on the same store (``rerun``): every image is already
imported, so it costs only the hashing; ``rerun_share`` is its time over the first run's.

``--store-only`` times the store alone (no images): synthetic scans of random games
(:mod:`samplegen.scans`) imported one transaction each, the figure for the store's share.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from pulka.report.standings import standings
from pulka.store.database import Store
from pulka.store.hashes import file_hash_cache_clear
from pulka.store.importer import import_paths
from samplegen.scans import synthetic_tournament

ROOT = Path(__file__).resolve().parents[1]


def make_batch(args: tuple[Path, int, int, str]) -> Path:
    """One folder of sample sheets (run in a worker)."""
    out, count, seed, kind = args
    extra = {"clean": [], "errors": ["--errors", "2"], "photo": ["--photo"]}[kind]
    command = [sys.executable, "-m", "pulka", "samples", "--random", str(count), "--seed",
               str(seed), "--out", str(out), *extra]
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
    return out


def make_samples(folder: Path, sheets: int, jobs: int) -> float:
    """``sheets`` sample sheets under ``folder``, in batches of 5 over ``jobs`` processes."""
    start = time.perf_counter()
    batches = []
    kinds = ("clean", "errors", "photo")
    for index, first in enumerate(range(0, sheets, 5)):
        batches.append((folder / f"b{index:03d}", min(5, sheets - first), 1000 + index,
                        kinds[index % 3]))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(make_batch, batches))
    return time.perf_counter() - start


def timed_import(db: Path, paths: list[Path], out: Path, jobs: int) -> dict[str, float]:
    """Import ``paths`` into a new store; sheets, seconds and sheets per second."""
    with Store(db) as store:
        start = time.perf_counter()
        report = import_paths(store, paths, out, jobs)
        seconds = time.perf_counter() - start
    return {"sheets": report.sheets, "skipped_files": report.skipped,
            "failed_files": len(report.failures), "jobs": jobs,
            "seconds": round(seconds, 3), "sheets_per_s": round(report.sheets / seconds, 3),
            **{f"state_{k}": v for k, v in sorted(report.states.items())}}


def store_only(folder: Path, sheets: int) -> dict[str, float]:
    """The store's own speed: synthetic scans, one transaction each."""
    tables = max(1, sheets // 2)
    _, made = synthetic_tournament(random.Random(1), "Bench", 2, tables, folder=folder / "in",
                                   errors=2)
    with Store(folder / "store.sqlite") as store:
        start = time.perf_counter()
        for sheet in made:
            store.import_scan(sheet.scan)
        seconds = time.perf_counter() - start
        standings_start = time.perf_counter()
        standings(store, "Bench", tiebreaks=["remises", "allpass"])
        standings_s = time.perf_counter() - standings_start
    return {"sheets": len(made), "seconds": round(seconds, 3),
            "sheets_per_s": round(len(made) / seconds, 1), "standings_s": round(standings_s, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.import_bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sheets", type=int, default=300,
                        help="sample sheets to make and import on all cores (default 300; "
                             "with --keep holding samples: the first this many of them)")
    parser.add_argument("--baseline", type=int, default=20,
                        help="sheets of the 1-core baseline, the first of the same samples "
                             "(default 20)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help=f"processes of the all-cores import and of making the samples "
                             f"(default: the cores, {os.cpu_count()})")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="work folder to keep, samples included (default: a temp one, "
                             "removed)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures here")
    parser.add_argument("--store-only", action="store_true",
                        help="time the store alone: synthetic scans, no images")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="pulka-import-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    figures: dict[str, object] = {"cores": os.cpu_count(), "jobs": args.jobs}
    try:
        if args.store_only:
            figures["store_only"] = store_only(work, args.sheets)
        else:
            samples = work / "samples"
            if not samples.is_dir():
                figures["samples_s"] = round(make_samples(samples, args.sheets, args.jobs), 1)
            folders = sorted(p for p in samples.glob("b*/sample-*")
                             if (p / "truth.json").is_file())[:args.sheets]
            for name in ("all.sqlite", "one.sqlite"):
                (work / name).unlink(missing_ok=True)
            shutil.rmtree(work / "out-all", ignore_errors=True)
            shutil.rmtree(work / "out-one", ignore_errors=True)
            every = timed_import(work / "all.sqlite", folders, work / "out-all", args.jobs)
            file_hash_cache_clear()  # a re-run is a new process: it hashes every file again
            again = timed_import(work / "all.sqlite", folders, work / "out-all", args.jobs)
            one = timed_import(work / "one.sqlite", folders[:args.baseline], work / "out-one", 1)
            figures.update(all_cores=every, rerun=again, one_core=one,
                           ratio=round(every["sheets_per_s"] / one["sheets_per_s"], 2)
                           if one["sheets_per_s"] else None,
                           rerun_share=round(again["seconds"] / every["seconds"], 4))
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
