"""Benchmark a judge's ruling on the review page: the server's time per ``POST /api/rule``.

    .venv/bin/python -m bench.ruling_bench                   # 40 rulings
    .venv/bin/python -m bench.ruling_bench --rulings 100 --json figures.json

A store of one synthetic sheet with recording errors (:mod:`samplegen.scans`, no images) is
served by the review server on a free port; its findings are ruled on in turn, penalty
applied and waived alternately, each ruling answered with the sheet's panel, the queue and
the standings, as the page gets it. Prints the median and the largest round trip on this
computer (the server scores the sheet again each time, with the penalty in the settlement).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from pulka.review.checks import TOKEN_HEADER
from pulka.review.server import make_server
from pulka.store.database import Store
from pulka.store.rulings import findings
from samplegen.scans import synthetic_sheet
from scoring import RuleSet

SEED = 1
ERRORS = 3


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print (and with ``--json`` write) the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulings", type=int, default=40)
    parser.add_argument("--json", type=Path, metavar="FILE")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.sqlite"
        sheet = synthetic_sheet(random.Random(SEED), RuleSet.preset("sochi", 3, 10), "Bench",
                                1, 1, ("Ann", "Bob", "Cy"), errors=ERRORS)
        with Store(db) as store:
            store.import_scan(sheet.scan)
            keys = [f.key for f in findings(store, sheet.scan.sheet_id)]
        server = make_server(db, who="bench")
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        try:
            trips = [_ruling(server.url, server.token, sheet.scan.sheet_id,
                             keys[i % len(keys)], ("apply", "waive")[i // len(keys) % 2])
                     for i in range(args.rulings)]
        finally:
            server.shutdown()
            server.server_close()
    figures = {"rulings": args.rulings, "findings": len(keys),
               "median_ms": round(statistics.median(trips), 1), "max_ms": round(max(trips), 1)}
    print(f"{args.rulings} rulings on {len(keys)} findings: median {figures['median_ms']} ms, "
          f"largest {figures['max_ms']} ms a ruling (round trip)")
    if args.json:
        args.json.write_text(json.dumps(figures), encoding="utf-8")
    return 0


def _ruling(url: str, token: str, sheet: str, finding: str, action: str) -> float:
    """One ruling's round trip, in milliseconds."""
    body = json.dumps({"sheet": sheet, "finding": finding, "action": action}).encode()
    request = urllib.request.Request(url + "api/rule", data=body, headers={
        "Content-Type": "application/json", TOKEN_HEADER: token})
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=30) as response:
        response.read()
    return (time.perf_counter() - start) * 1e3


if __name__ == "__main__":
    sys.exit(main())
