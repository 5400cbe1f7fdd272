"""Settle and audit 10,000 random full games; print games per second.

Run: ``python -m bench.scoring_bench [--games N]``. The baseline, measured in the same run, is
parsing the same records (``parse_record``) alone; the settle and audit figures are reported
as games per second and as a ratio to that baseline.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from scoring import RuleSet, audit, expected_sheet, parse_record, settle_record
from scoring.random_games import inject_errors, random_record, written_columns

VARIANTS = ("sochi", "leningrad", "rostov")


def make_games(count: int, seed: int = 1) -> list[dict[str, Any]]:
    """Random full games of every variant and both table sizes, written with some errors."""
    rng = random.Random(seed)
    games = []
    for index in range(count):
        rules = RuleSet.preset(VARIANTS[index % 3], 3 + index % 2, 20)
        doc = random_record(rules, rng)
        doc["written"] = written_columns(expected_sheet(parse_record(doc)))
        doc, _ = inject_errors(doc, index % 3, rng)
        games.append(doc)
    return games


def timed(label: str, games: list[dict[str, Any]], work: Callable[[dict[str, Any]], object]
          ) -> float:
    start = time.perf_counter()
    for doc in games:
        work(doc)
    seconds = time.perf_counter() - start
    print(f"{label:<28} {len(games) / seconds:10.0f} games/s  ({seconds:.2f} s)")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    args = parser.parse_args()
    start = time.perf_counter()
    games = make_games(args.games)
    deals = sum(len(g["deals"]) for g in games)
    print(f"generated {len(games)} games ({deals / len(games):.1f} deals each) in "
          f"{time.perf_counter() - start:.1f} s")
    baseline = timed("baseline: parse only", games, parse_record)
    settle = timed("parse + settle", games, lambda d: settle_record(parse_record(d)))

    def settle_and_audit(doc: dict[str, Any]) -> None:
        record = parse_record(doc)
        sheet = expected_sheet(record)
        settle_record(record, sheet)
        audit(record, sheet)

    both = timed("parse + settle + audit", games, settle_and_audit)
    print(f"settle costs {settle / baseline:.1f}x parsing; settle + audit "
          f"{both / baseline:.1f}x parsing")


if __name__ == "__main__":
    main()
