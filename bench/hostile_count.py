"""Count how pulka's input boundaries answer a corpus of damaged and hostile inputs.

Run: ``python -m bench.hostile_count [--seed N] [--records N] [--draws N] [--images N]``.
The corpus is made at run time: the bad files of :mod:`tests.hostile.images` and damaged
copies (truncated, bits flipped, a block zeroed) of a sample scan's pages through
:func:`scanner.pipeline.scan_paths`; mutations of RECORD.md's example record (a field
replaced by a random JSON value) and random texts through
:func:`scoring.record.load_json` and :func:`scoring.record.parse_record`; random draw files
(encodings, separators, cells) through :func:`forms.render.batch.load_draw`. It prints, per
boundary, the inputs tried, those read, the clean refusals (the project's own errors, one
line) and the crashes (any other exception).
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import tempfile
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from forms.render.batch import DrawError, load_draw
from scanner.errors import ScanFailure
from scanner.pipeline import scan_paths
from scoring import ScoringError, parse_record
from scoring.record import load_json
from tests.hostile.images import BAD_FILES

ROOT = Path(__file__).parents[1]
EXAMPLE = ROOT / "samples" / "records" / "record_md_example.json"
PAGES = sorted((ROOT / "samples" / "scans" / "sochi-3-scan").glob("page-*.jpg"))
CELLS = ["1", "2", "-", "x", "тур", "стол", "А", "Б", "В", "round", "table", "A", "B", "C",
         "D", "", '"', "Иванов", "\x00", "9" * 30, "Я" * 100]


def _random_json(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(9 if depth < 3 else 6)
    simple: list[Any] = [None, rng.random() < 0.5, rng.randrange(-10**6, 10**6),
                         rng.uniform(-1e9, 1e9), "".join(rng.choice("AБ x7\x00é") for _ in
                                                         range(rng.randrange(6))),
                         "9" * rng.randrange(1, 60)]
    if kind < 6:
        return simple[kind]
    if kind < 8:
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice("ABCNx"): _random_json(rng, depth + 1) for _ in range(rng.randrange(4))}


def _mutated(rng: random.Random, base: dict[str, Any]) -> str:
    doc = copy.deepcopy(base)
    for _ in range(rng.randrange(1, 4)):
        parent: Any = doc
        while isinstance(parent, dict | list) and parent and rng.random() < 0.7:
            key = rng.choice(list(parent) if isinstance(parent, dict) else range(len(parent)))
            if not isinstance(parent[key], dict | list) or not parent[key]:
                parent[key] = _random_json(rng)
                break
            parent = parent[key]
    text = json.dumps(doc, ensure_ascii=False)
    if rng.random() < 0.2:
        cut = rng.randrange(len(text))
        text = text[:cut] + rng.choice(["[" * 5000, "9" * 5000, "\ud800", "", "}"]) + text[cut:]
    return text


def _tally(results: Counter[str], attempt: Callable[[], object],
           clean: tuple[type[BaseException], ...]) -> None:
    try:
        attempt()
        results["read"] += 1
    except clean as error:
        results["refused" if "\n" not in str(error) else "crashed"] += 1
    except Exception:  # noqa: BLE001 - a crash is what is counted
        results["crashed"] += 1


def _parse_text(text: str) -> object:
    return parse_record(load_json(text))


def count_records(rng: random.Random, count: int) -> Counter[str]:
    """Mutated and random record texts through the JSON and record parsers."""
    base = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    results: Counter[str] = Counter()
    for index in range(count):
        text = _mutated(rng, base) if index % 4 else \
            "".join(chr(rng.randrange(1, 0x500)) for _ in range(rng.randrange(50)))
        _tally(results, partial(_parse_text, text), (ScoringError,))
    return results


def count_draws(rng: random.Random, count: int, folder: Path) -> Counter[str]:
    """Random draw files (UTF-8, UTF-16, Windows-1251; three separators)."""
    results: Counter[str] = Counter()
    for index in range(count):
        separator = rng.choice(",;\t")
        if index % 2:
            rows = [[rng.choice(CELLS) for _ in range(rng.randrange(7))]
                    for _ in range(rng.randrange(6))]
        else:  # a good draw with a cell or two changed
            rows = [["тур", "стол", "А", "Б", "В"], *([str(r), str(t), "Ann", "Bob", "Cid"]
                                                    for r in (1, 2) for t in (1, 2))]
            for _ in range(rng.randrange(3)):
                row = rng.choice(rows)
                row[rng.randrange(len(row))] = rng.choice(CELLS)
        text = "\n".join(separator.join(row) for row in rows)
        path = folder / f"draw-{index}.csv"
        path.write_bytes(text.encode(rng.choice(["utf-8", "utf-16", "cp1251"]), "replace"))
        _tally(results, partial(load_draw, path), (DrawError,))
        path.unlink()
    return results


def count_images(rng: random.Random, count: int, folder: Path) -> Counter[str]:
    """Every bad file kind and damaged copies of sample pages through the scan pipeline
    (each outcome counted: a sheet read, or a file or page refused)."""
    folder.mkdir()
    for make in BAD_FILES.values():
        make(folder)
    for index in range(count):
        data = bytearray(rng.choice(PAGES).read_bytes())
        kind = index % 3
        if kind == 0:
            data = data[:rng.randrange(1, len(data))]
        for _ in range(rng.randrange(1, 40) if kind == 1 else 0):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        if kind == 2:
            start = rng.randrange(len(data))
            data[start:start + 4096] = bytes(len(data[start:start + 4096]))
        (folder / f"damaged-{index:03d}.jpg").write_bytes(bytes(data))
    results: Counter[str] = Counter(tried=len(BAD_FILES) + count)
    try:
        for outcome in scan_paths([folder], folder / "out"):
            results["refused" if isinstance(outcome, ScanFailure) else "read"] += 1
    except Exception:  # noqa: BLE001 - a crash is what is counted
        results["crashed"] += 1
    return results


def main(argv: list[str] | None = None) -> int:
    """Print the counts per boundary; exit 1 if anything crashed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--records", type=int, default=3000)
    parser.add_argument("--draws", type=int, default=3000)
    parser.add_argument("--images", type=int, default=30)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    crashed = 0
    with tempfile.TemporaryDirectory() as work:
        for name, results in [
                ("records", count_records(rng, args.records)),
                ("draws", count_draws(rng, args.draws, Path(work))),
                ("images", count_images(rng, args.images, Path(work) / "images"))]:
            tried = results.pop("tried", sum(results.values()))
            print(f"{name}: {tried} inputs, {results['read']} read, {results['refused']} "
                  f"refused cleanly, {results['crashed']} crashed")
            crashed += results["crashed"]
    return 1 if crashed else 0


if __name__ == "__main__":
    raise SystemExit(main())
