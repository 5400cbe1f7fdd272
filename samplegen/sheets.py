"""Sample sheets for the scanner's benchmark: a printed sheet filled by simulated players.

:func:`make_sample` prints the sheet of a game record (:mod:`forms.render.sheet`, rasterised with
:mod:`forms.render.raster`), writes every running total, calibration digit and deal row into it with
real handwritten digit images (:mod:`samplegen.handwriting`; what goes where:
:mod:`samplegen.fill`), optionally commits recording errors
(:func:`scoring.random_games.inject_errors`) and degrades the pages as a phone photo or a scan
(:mod:`samplegen.degrade`). It writes ``page-<n>.png`` (``.jpg`` for a photo or a JPEG scan) and
``truth.json`` (schema in :func:`SampleTruth.to_json`).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import logging
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from forms.identity import SheetIdentity, make_sheet_id
from forms.layout import build_layout, calibration_cells
from forms.model import Box, CalibrationCell, DealCell, EntryCell, Layout
from forms.render.fill import FillError
from forms.render.raster import render_pages
from forms.render.sheet import SheetRequest, render_pdf_bytes
from samplegen import degrade
from samplegen.capture import capture
from samplegen.fill import (
    MARK,
    columns_fit,
    deal_values,
    entry_values,
    mark_groups,
    whole_written,
)
from samplegen.profiles import SheetPlan, legacy_hands, open_hands
from samplegen.writers import Hand
from scanner.arrays import Floats, GreyImage, Image
from scoring.random_games import InjectedError, inject_errors, written_columns
from scoring.record import parse_record
from scoring.sheet import expected_sheet

log = logging.getLogger(__name__)

TRUTH_FORMAT = "pulka-sample-truth/1"
DEFAULT_DPI = 200
INJECT_TRIES = 20
"""Draws of a sheet's recording errors tried until its columns fit (:func:`_fitting_errors`)."""
CANCEL_PROBABILITY = 0.04
"""Chance that a writer first crosses a wrong box of a deal row's choice, then cancels it."""
TOURNAMENT = "pulka samples"

__all__ = ["FillError", "SampleTruth", "make_sample"]


@dataclass(frozen=True)
class SampleTruth:
    """What was written on a sample sheet, and how its images were made."""

    sheet_id: str
    layout_id: str
    dpi: int
    pages: tuple[dict[str, Any], ...]
    record: dict[str, Any]
    errors: tuple[dict[str, Any], ...]
    rounded: tuple[dict[str, Any], ...]
    writers: dict[str, Any]
    cells: tuple[dict[str, Any], ...]
    marks: tuple[dict[str, Any], ...]
    seconds: float = 0.0
    images: tuple[Image, ...] = field(default=(), repr=False, compare=False)
    """The clean filled pages (RGB uint8), in memory only."""
    blank: tuple[Image, ...] = field(default=(), repr=False, compare=False)
    """The same pages as printed, before anyone wrote on them (in memory only)."""

    def to_json(self) -> dict[str, Any]:
        """``pulka-sample-truth/1``.

        ``pages``: ``{page, file, width_px, height_px, degradations: [{name, ...params}],
        page_to_image}`` (the 3x3 homography from clean page pixels at ``dpi`` to the image's
        pixels; the identity for a clean page). ``record``: the pulka-record/1 as filled
        (``written`` after the injected errors and rounding). ``errors``: ``{kind, column,
        entry, deal, detail}`` per injected error (``entry`` 1-based in the written column).
        ``rounded``: totals that were not whole numbers. ``writers``: each seat's hand, and
        ``deals``: the seat that kept the contract/result column. ``cells``: every digit and
        sign box, ``{page, box: [x, y, w, h] mm, rotation, kind, meaning, char}`` (``char``
        ``""`` when empty). ``marks``: every mark box, the same with ``state``: ``marked``,
        ``cancelled`` or ``empty``.
        """
        return {"format": TRUTH_FORMAT, "sheet_id": self.sheet_id, "layout_id": self.layout_id,
                "dpi": self.dpi, "seconds": round(self.seconds, 3), "pages": list(self.pages),
                "record": self.record, "errors": list(self.errors),
                "rounded": list(self.rounded), "writers": self.writers,
                "cells": list(self.cells), "marks": list(self.marks)}


def _box_json(box: Box) -> dict[str, Any]:
    m = box.meaning
    kind = {EntryCell: "entry", CalibrationCell: "calibration", DealCell: "deal"}[type(m)]
    return {"page": box.page, "box": [box.x_mm, box.y_mm, box.w_mm, box.h_mm],
            "rotation": box.rotation_deg, "kind": box.kind,
            "meaning": {"type": kind, **dataclasses.asdict(m)}}


def prepare_record(record_doc: dict[str, Any], errors: int, rng: random.Random
                   ) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """The record as the players write it: ``written`` computed when absent, ``errors`` injected,
    totals rounded to whole numbers; also the errors and the roundings as JSON."""
    doc = copy.deepcopy(record_doc)
    record = parse_record(doc)
    if "written" not in doc:
        doc["written"] = written_columns(expected_sheet(record))
    injected = []
    if errors:
        doc, found = _fitting_errors(doc, errors, rng)
        injected = [{"kind": e.kind, "column": str(e.column), "seat": e.column.seat,
                     "column_kind": e.column.kind, "on": e.column.on, "entry": e.entry,
                     "deal": e.deal, "detail": e.detail} for e in found]
        if len(injected) < errors:
            log.warning("only %d of %d errors could be injected (columns with two entries)",
                        len(injected), errors)
    doc["written"], rounded = whole_written(doc["written"])
    return doc, injected, [vars(r) for r in rounded]


def _fitting_errors(doc: dict[str, Any], errors: int, rng: random.Random
                    ) -> tuple[dict[str, Any], list[InjectedError]]:
    """``doc`` with ``errors`` recording errors injected (:func:`inject_errors`) such that
    its columns still fit the sheet: a correction writes one entry more, which a full
    column has no room for (TRAINING part, seed 103: a whists column of ten entries given
    an eleventh). Drawn again at most :data:`INJECT_TRIES` times, then with one error
    fewer; a draw that fits at once uses the random numbers as before."""
    rules = parse_record(doc).rules
    layout = build_layout(rules.players, "A4", rules.talon_prize)
    for count in range(errors, 0, -1):
        for _ in range(INJECT_TRIES):
            injected, found = inject_errors(doc, count, rng)
            if columns_fit(layout, whole_written(injected["written"])[0]):
                return injected, found
    return doc, []


def _identity(layout: Layout, doc: dict[str, Any], rng: random.Random) -> SheetIdentity:
    """A sheet of its own (tournament :data:`TOURNAMENT`, no round or table, a random id)."""
    rules = parse_record(doc).rules
    names = tuple(doc.get("names", {}).get(s, "") for s in layout.seats)
    sheet_id = make_sheet_id(TOURNAMENT, None, None, rules.id, names,
                             salt=f"{rng.getrandbits(32):08x}")
    return SheetIdentity(sheet_id=sheet_id, tournament=TOURNAMENT, round=None, table=None,
                         page=0, continuation=0, layout_id=layout.id, rules_id=rules.id,
                         rules=rules.settings(), seats=layout.seats, names=names)


def _deal_marks(layout: Layout, values: dict[Box, str], rows: int, rng: random.Random
                ) -> dict[Box, str]:
    """Mark states of every mark box: the crosses, and now and then a cancelled wrong choice."""
    states = {b: "empty" for b in layout.boxes if b.kind == "mark"}
    for row in range(rows):
        for group in mark_groups(layout, row).values():
            chosen = [b for b in group if values.get(b) == MARK]
            for box in chosen:
                states[box] = "marked"
            others = [b for b in group if b not in chosen]
            if chosen and others and rng.random() < CANCEL_PROBABILITY:
                states[rng.choice(others)] = "cancelled"
    return states


def fill_pages(layout: Layout, doc: dict[str, Any], pages: list[Floats],
               hands: dict[str, Hand], rng: random.Random, dpi: int
               ) -> tuple[dict[Box, str], dict[Box, str], str]:
    """Write the record into the page images (changed in place, float RGB 0..1), each seat in
    its own hand.

    Returns the character per digit/sign box, the state per mark box and the seat that kept
    the deal column.
    """
    record = parse_record(doc)
    scorer = rng.choice(layout.seats)
    chars: dict[Box, str] = {b: "" for b in layout.boxes if b.kind != "mark"}
    for seat in layout.seats:
        for digit, box in enumerate(calibration_cells(layout, seat)):
            chars[box] = str(digit)
            hands[seat].digit(pages[box.page], box, str(digit), dpi, rng, calibration=True)
    for box, char in entry_values(layout, doc["written"]).items():
        chars[box] = char
        if char:
            seat = box.meaning.seat  # type: ignore[union-attr]
            hands[seat].digit(pages[box.page], box, char, dpi, rng)
    values = deal_values(layout, record)
    for box, char in values.items():
        if box.kind != "mark":
            chars[box] = char
            hands[scorer].digit(pages[box.page], box, char, dpi, rng)
    states = _deal_marks(layout, values, len(record.deals), rng)
    for box, state in states.items():
        if state != "empty":
            hands[scorer].mark(pages[box.page], box, state, dpi, rng)
    return chars, states, scorer


def render_blank(layout: Layout, identity: SheetIdentity, dpi: int) -> list[Image]:
    """The printed, empty pages as RGB uint8 arrays at ``dpi``."""
    pdf = render_pdf_bytes([SheetRequest(layout, identity, "ru")])
    return list(render_pages(pdf, dpi))


def make_sample(record_doc: dict[str, Any], out_dir: str | Path,
                glyphs: dict[int, list[GreyImage]], rng: random.Random, photo: bool = False,
                scan: bool = False, errors: int = 0, dpi: int = DEFAULT_DPI,
                identity: SheetIdentity | None = None,
                plan: SheetPlan | None = None) -> SampleTruth:
    """Fill a sheet with ``record_doc`` in handwriting and write its images and ``truth.json``.

    Without ``plan`` (or with a legacy one) the old generator writes ``glyphs`` and takes a
    ``photo`` or ``scan``; an open ``plan`` names the writers' sources, marks, ink and
    capture instead (:mod:`samplegen.profiles`).
    ``identity`` is the printed sheet to fill (e.g. one sheet of a tournament batch,
    :func:`forms.render.batch.batch_requests`): its QR, names and sheet id; the record gets its
    names.
    Without it the sheet is one of its own (tournament :data:`TOURNAMENT`, a random id).

    Raises :class:`FillError` when the game does not fit the sheet or was played under other
    rules than ``identity``'s, and :class:`scoring.RecordError` when the record does not parse.
    """
    if photo and scan:
        raise ValueError("a sample is either a photo or a scan, not both")
    start = time.perf_counter()
    out = Path(out_dir)
    doc, injected, rounded = prepare_record(record_doc, errors, rng)
    rules = parse_record(doc).rules
    layout = build_layout(rules.players, "A4", rules.talon_prize)
    identity = _sheet_identity(layout, doc, identity, rng)
    blank = render_blank(layout, identity, dpi)
    pages = [p.astype(np.float32) / 255.0 for p in blank]
    hands = _hands(layout.seats, glyphs, plan, rng)
    chars, states, scorer = fill_pages(layout, doc, pages, hands, rng, dpi)
    clean = [np.clip(p * 255.0 + 0.5, 0, 255).astype(np.uint8) for p in pages]
    out.mkdir(parents=True, exist_ok=True)
    if plan is not None and plan.profile == "legacy":
        photo, scan = plan.capture == "legacy-photo", plan.capture == "legacy-scan"
    page_docs = _capture_pages(clean, out, dpi, rng, photo, scan, plan)
    cells = tuple({**_box_json(b), "char": c} for b, c in chars.items())
    marks = tuple({**_box_json(b), "state": s} for b, s in states.items())
    writers = {"seats": {s: h.to_json() for s, h in hands.items()}, "deals": scorer,
               "plan": None if plan is None else dataclasses.asdict(plan)}
    truth = SampleTruth(
        sheet_id=identity.sheet_id, layout_id=layout.id, dpi=dpi, pages=tuple(page_docs),
        record=doc, errors=tuple(injected), rounded=tuple(rounded), writers=writers,
        cells=cells, marks=marks, seconds=time.perf_counter() - start, images=tuple(clean),
        blank=tuple(blank))
    write_truth(truth, out / "truth.json")
    log.info("sample %s: %d pages in %.1f s", out, len(clean), truth.seconds)
    return truth


def _sheet_identity(layout: Layout, doc: dict[str, Any], identity: SheetIdentity | None,
                    rng: random.Random) -> SheetIdentity:
    """``identity`` checked against the game's rules (the record takes its names), or a sheet
    of its own."""
    if identity is None:
        return _identity(layout, doc, rng)
    rules = parse_record(doc).rules
    if (identity.rules_id, identity.layout_id) != (rules.id, layout.id):
        raise FillError(f"sheet {identity.sheet_id} is printed for rules "
                        f"{identity.rules_id} (layout {identity.layout_id}); the game "
                        f"was played under {rules.id} (layout {layout.id})")
    doc["names"] = {seat: name for seat, name in zip(identity.seats, identity.names,
                                                     strict=True) if name}
    return identity


def _hands(seats: tuple[str, ...], glyphs: dict[int, list[GreyImage]],
           plan: SheetPlan | None, rng: random.Random) -> dict[str, Hand]:
    if plan is not None and plan.profile == "open":
        return open_hands(seats, plan, rng)
    missing = [d for d in range(10) if not glyphs.get(d)]
    if missing:
        raise FillError(f"the glyph set has no images of digit(s) {missing}")
    return legacy_hands(seats, glyphs, rng)


def _capture_pages(clean: list[Image], out: Path, dpi: int, rng: random.Random, photo: bool,
                   scan: bool, plan: SheetPlan | None) -> list[dict[str, Any]]:
    """Capture each clean page, save it under ``out``; the pages' truth."""
    page_docs = []
    scanner = degrade.ScanSettings.random(rng) if scan else None
    sheet_seed = rng.getrandbits(32) if plan is not None and plan.profile == "open" else 0
    for index, image in enumerate(clean):
        if plan is not None and plan.profile == "open":
            result = capture(plan.capture, image, dpi, rng, sheet_seed)
        elif photo:
            result = degrade.photo(image, dpi, rng)
        elif scan:
            result = degrade.scan(image, dpi, rng, scanner)
        else:
            result = degrade.Degraded(image, [], np.eye(3), "png", None)
        name = f"page-{index}.{result.format}"
        _save(result, out / name)
        page_docs.append({"page": index, "file": name, "width_px": int(result.image.shape[1]),
                          "height_px": int(result.image.shape[0]),
                          "degradations": result.steps,
                          "page_to_image": np.round(result.page_to_image, 6).tolist()})
    return page_docs


def _save(result: degrade.Degraded, path: Path) -> None:
    image = result.image
    bgr = cv2.cvtColor(image, cv2.COLOR_RGB2BGR) if image.ndim == 3 else image
    params = [cv2.IMWRITE_JPEG_QUALITY, int(result.jpeg_quality or 90)] \
        if result.format == "jpg" else [cv2.IMWRITE_PNG_COMPRESSION, 6]
    if not cv2.imwrite(str(path), bgr, params):
        raise OSError(f"cannot write {path}; is the folder writable?")


def write_truth(truth: SampleTruth, path: Path) -> None:
    """Write ``truth.json``: one line per cell and per mark, so diffs stay readable."""
    doc = truth.to_json()
    parts = []
    for key, value in doc.items():
        if key in ("cells", "marks"):
            body = ",\n  ".join(json.dumps(v, ensure_ascii=False) for v in value)
            parts.append(f'"{key}": [\n  {body}\n ]')
        else:
            parts.append(f'"{key}": {json.dumps(value, ensure_ascii=False)}')
    path.write_text("{\n " + ",\n ".join(parts) + "\n}\n", encoding="utf-8")

