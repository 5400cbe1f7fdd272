"""How often the sheet's QR code is read, and how fast: this tree's reader, and another's.

Run: ``python -m bench.qr_bench [--old TREE] [--set NAME=DIR ...] [--dpi 80 100 120]
[--independent DIR]``.

The images: the bundled samples (``samples/scans/*``), every ``--set`` (folders of
``*/page-*`` images, e.g. made by ``pulka samples --random 6 --photo``), and the photos (of
every group whose name says ``photo``) downscaled (area average, then JPEG quality 90) so
that the page is at each ``--dpi``. They are written to one temporary folder; then each
reader runs in its own process (``PYTHONPATH`` set to its tree) over the same files, one
page after another as a scan run reads them. A page is registered by its tree's
``register``; a downscaled photo that registration refuses (too coarse) is placed with its
full-size photo's registration scaled down, so the QR reading is measured apart from the
quality gate. A page is read when its QR text is a pulka identity of the page the markers
name. Times are of the QR reading alone (the first page is read once untimed beforehand, so
the layouts' regions are built). The ``--independent`` pages are read, never tuned on.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
JPEG_QUALITY = 90


def _pages(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*/page-*") if p.suffix in (".jpg", ".png"))


def _downscaled(photos: list[Path], dpis: list[int], out: Path) -> list[dict[str, Any]]:
    """Each photo at each resolution, written to ``out``; the entries of the manifest."""
    from scanner.image.load import load_file
    from scanner.image.register import register

    entries: list[dict[str, Any]] = []
    for number, path in enumerate(photos):
        page = load_file(path)[0]
        ppm = register(page).px_per_mm
        for dpi in dpis:
            scale = dpi / 25.4 / ppm
            small = cv2.resize(page.image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            target = out / f"{number:03d}-{dpi}.jpg"
            cv2.imwrite(str(target), small, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            entries.append({"group": f"photos at {dpi} dpi", "image": str(target),
                            "full": str(path), "scale": scale})
    return entries


def manifest(sets: dict[str, Path], dpis: list[int], independent: Path | None,
             out: Path) -> list[dict[str, Any]]:
    """Every image of the run with its group (and, for a downscaled one, its original)."""
    groups: dict[str, list[Path]] = {}
    for folder in sorted((ROOT / "samples" / "scans").iterdir()):
        if folder.is_dir():
            kind = "photos" if "photo" in folder.name else "scans"
            groups.setdefault(f"bundled {kind}", []).extend(sorted(folder.glob("page-*")))
    for name, folder in sets.items():
        groups[name] = _pages(folder)
    if independent is not None:
        groups["independent (read only)"] = _pages(independent)
    entries = [{"group": g, "image": str(p)} for g, paths in groups.items() for p in paths]
    photos = [p for g, paths in groups.items() if "photo" in g and "independent" not in g
              for p in paths]
    return entries + _downscaled(photos, dpis, out)


def _registered(entry: dict[str, Any]) -> tuple[Any, bool]:
    """The entry's registered page, and whether ``register`` took the image itself."""
    from scanner.errors import ScanError
    from scanner.image.load import load_file
    from scanner.image.pixels import halvings
    from scanner.image.register import flat_affine, register

    page = load_file(Path(entry["image"]))[0]
    try:
        return register(page), True
    except ScanError:
        if "full" not in entry:
            return None, False
    full = register(load_file(Path(entry["full"]))[0])
    s = page.image.shape[1] / full.image.shape[1]
    scaled = full.rebased(np.diag([s, s, 1.0]), page.image)  # through its lens, if any
    affine = None if scaled.lens else flat_affine(scaled.homography, full.page_w_mm,
                                                  full.page_h_mm)
    return replace(scaled, px_per_mm=full.px_per_mm * s, halvings=halvings(page.image),
                   affine=affine), False


def worker(manifest_path: Path) -> None:
    """Read every page of the manifest with the tree on ``PYTHONPATH``; print JSON lines."""
    from forms.identity import IdentityError, from_qr_payload
    from scanner.image import identify

    cv2.setNumThreads(1)
    identifier = getattr(identify, "Identifier", None)
    decode = identifier().decode_qr if identifier else identify.decode_qr
    entries = json.loads(manifest_path.read_text())
    warm_up = _registered(entries[0])[0]  # the layouts' regions built, before any timing
    if warm_up is not None:
        (identifier().decode_qr if identifier else identify.decode_qr)(warm_up)
    for entry in entries:
        page, by_itself = _registered(entry)
        result = {"image": entry["image"], "registered": by_itself, "read": False,
                  "seconds": None, "sheet_id": None}
        if page is not None:
            start = time.perf_counter()
            text = decode(page)
            result["seconds"] = time.perf_counter() - start
            try:
                identity = from_qr_payload(text) if text else None
            except IdentityError:
                identity = None
            if identity is not None and identity.page == page.page_index:
                result.update(read=True, sheet_id=identity.sheet_id)
        print(json.dumps(result), flush=True)


def _run(tree: Path, manifest_path: Path) -> dict[str, dict[str, Any]]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker",
                           str(manifest_path)], env=env, cwd=tree, check=True,
                          capture_output=True, text=True)
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return {row["image"]: row for row in rows}


def _table(entries: list[dict[str, Any]], runs: dict[str, dict[str, dict[str, Any]]]) -> str:
    names = list(runs)
    head = ["images", "pages", "registered"] + [f"{n} read" for n in names] + \
        [f"{n} ms/page" for n in names]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    groups = list(dict.fromkeys(e["group"] for e in entries))
    for group in groups + ["all"]:
        images = [e["image"] for e in entries if group in ("all", e["group"])]
        first = runs[names[0]]
        cells = [group, str(len(images)),
                 str(sum(first[i]["registered"] for i in images))]
        for name in names:
            cells.append(str(sum(runs[name][i]["read"] for i in images)))
        for name in names:
            times = [runs[name][i]["seconds"] for i in images
                     if runs[name][i]["seconds"] is not None]
            cells.append(f"{1000 * float(np.mean(times)):.1f}" if times else "-")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, help="the other tree (a git worktree) to compare")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=DIR",
                        help="a folder of sample sheets (*/page-*.jpg)")
    parser.add_argument("--dpi", type=int, nargs="*", default=[80, 100, 120])
    parser.add_argument("--independent", type=Path, help="sheets only to read, never tune on")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    sets = {name: Path(folder) for name, _, folder in (s.partition("=") for s in args.set)}
    with tempfile.TemporaryDirectory(prefix="qr-bench-") as tmp:
        entries = manifest(sets, args.dpi, args.independent, Path(tmp))
        manifest_path = Path(tmp) / "manifest.json"
        manifest_path.write_text(json.dumps(entries))
        trees = {"new": ROOT, **({"old": args.old.resolve()} if args.old else {})}
        runs = {name: _run(tree, manifest_path) for name, tree in trees.items()}
    print(_table(entries, runs))
    if args.old:
        both = [i for i in runs["new"] if runs["new"][i]["read"] and runs["old"][i]["read"]]
        differ = sum(runs["new"][i]["sheet_id"] != runs["old"][i]["sheet_id"] for i in both)
        print(f"pages both read: {len(both)}, of which read differently: {differ}")


if __name__ == "__main__":
    main()
