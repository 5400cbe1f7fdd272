"""The reader on sheets it was not built with: the open generator's evaluation part, per class,
beside the old generator's sheets, in one run.

Run: ``python -m bench.reader_eval [--sheets 24] [--legacy 12] [--dpi 300] [--seed 1]
[--out DIR [--reuse]] [--capture NAME] [--marks NAME] [--ink NAME] [--family NAME]
[--json FILE] [--model FILE ...]``.

It makes ``--sheets`` evaluation sheets (:mod:`samplegen.profiles`, part EVALUATION: fonts,
pen-stroke writers, the UCI digits, marks and captures the reader never trained or was tuned
on; 3 and 4 players, every variant, one or two recording errors on two sheets in three) and
``--legacy`` sheets of the old generator (clean, scanned, photographed), all seeded, reads each with
``pulka scan``'s pipeline as it is (:func:`scanner.pipeline.scan_paths`) and compares the
``scan.json`` fields with the truth. A field is a deal row or a written running total of the
truth, or a field the scan reports that the truth does not have. Per class (glyph source x
capture x marks x ink), per dimension of the class and overall it prints:

* fields right after rule decoding;
* silent errors: wrong and not doubtful (a field of the truth the scan does not report at
  all counts here: nobody is asked about it);
* doubtful fields;
* sheets needing no person (read, no doubtful field);
* sheets refused, with their messages (their fields are not counted above);
* overall, the blank boxes and rows a person is asked about: doubtful, read as nothing, and
  nothing written there (not fields above, but a person's work all the same), and the sheets
  needing no person among those the truth writes without a recording error (a sheet with
  one asks a person where its ink and the rules disagree: the reader cannot tell the
  writer's slip from its own misread, and never blames a misread on a player).

``--part training`` reads the TRAINING part's sheets instead (what tuning may look at);
``--part training --family blocks`` its coarse digits (held-out MNIST reduced to 8 x 8 blocks
as the UCI digits were), which no default run writes;
``--list`` prints every silent field with its class and cause (missing from ``scan.json``,
read empty where ink was written, a wrong entry or row read sure) and the doubtful fields
that were right, counted by the note that made them doubtful.
With ``--model`` given more than once, the same sheets are read with each digit model in turn.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2

from samplegen.games import fitting_game
from samplegen.glyphs import default_glyphs
from samplegen.profiles import ProfileError, SheetPlan, plan_sheets
from samplegen.sheets import make_sample
from samplegen.split import Part
from scanner.arrays import GreyImage
from scanner.digits.recognizer import MODEL_PATH, DigitRecognizer
from scanner.errors import ScanFailure
from scanner.pipeline import scan_paths
from scanner.results import FieldReading, SheetScan, entry_key, row_key
from scoring.rules import RuleSet

VARIANTS = ("sochi", "leningrad", "rostov")
POOLS = (20, 10)


@dataclass
class Tally:
    """Counts of one group of sheets."""

    sheets: int = 0
    refused: int = 0
    fields: int = 0
    right: int = 0
    silent: int = 0
    doubtful: int = 0
    no_person: int = 0
    asked_blank: int = 0
    """Doubtful fields read as nothing where nothing is written."""
    clean: int = 0
    """Sheets read whose truth holds no recording error ..."""
    clean_no_person: int = 0
    """... and of those, the sheets with no doubtful field."""
    messages: list[str] = field(default_factory=list)
    silent_fields: list[str] = field(default_factory=list)
    """Each silent field: its key and its cause."""
    needless: list[str] = field(default_factory=list)
    """Each doubtful field that was right: the note that made it doubtful."""
    held_by: list[str] = field(default_factory=list)
    """The one cause of every doubtful field of a sheet that has one cause alone: without
    it the sheet would need no person."""

    def add(self, other: Tally) -> None:
        """Add another group's counts."""
        for name in ("sheets", "refused", "fields", "right", "silent", "doubtful",
                     "no_person", "asked_blank", "clean", "clean_no_person"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.messages += other.messages
        self.silent_fields += other.silent_fields
        self.needless += other.needless
        self.held_by += other.held_by

    def row(self, label: str) -> str:
        """One line of the table."""
        read = self.sheets - self.refused
        return (f"| {label} | {self.sheets} | {self.refused} | {self.fields} | "
                f"{pct(self.right, self.fields)} | {self.silent} ({pct(self.silent, self.fields)})"
                f" | {pct(self.doubtful, self.fields)} | {pct(self.no_person, read)} |")


def pct(part: int, whole: int) -> str:
    """``part`` as a percentage of ``whole`` (``-`` when there is none)."""
    return f"{100 * part / whole:.1f} %" if whole else "-"


HEADER = ("| class | sheets | refused | fields | right | silent | doubtful | no person |\n"
          "|---|---|---|---|---|---|---|---|")


def truth_fields(record: dict[str, Any]) -> dict[str, Any]:
    """The fields the truth's record writes, by ``scan.json`` key."""
    fields: dict[str, Any] = {row_key(n): deal for n, deal in enumerate(record["deals"])}
    for seat, cols in record["written"].items():
        columns = [("pool", None, cols["pool"]), ("mountain", None, cols["mountain"])]
        columns += [("whists", on, values) for on, values in cols["whists"].items()]
        for kind, on, values in columns:
            fields.update({entry_key(seat, kind, on, n): v for n, v in enumerate(values)})
    return fields


def score_sheet(truth: dict[str, Any], scan: SheetScan) -> Tally:
    """The counts of one read sheet against its truth."""
    want = truth_fields(truth["record"])
    got = {f.key: f for f in scan.fields}
    tally = Tally(sheets=1)
    for key in [*want, *(k for k in got if k not in want)]:
        reading = got.get(key)
        value = None if reading is None else reading.value
        if key not in want and value is None:
            tally.asked_blank += reading is not None and reading.status == "doubtful"
            continue
        doubtful = reading is not None and reading.status == "doubtful"
        right = value == want.get(key)
        tally.fields += 1
        tally.right += right
        tally.doubtful += doubtful
        tally.silent += not right and not doubtful
        if not right and not doubtful:
            tally.silent_fields.append(f"{key}: {silent_cause(reading, want.get(key))}")
        if right and doubtful and reading is not None:
            tally.needless.append(doubt_cause(reading))
    tally.no_person = int(not scan.doubtful and not scan.missing_pages)
    causes = {doubt_cause(reading) for reading in scan.doubtful}
    if len(causes) == 1 and not scan.missing_pages:
        tally.held_by = list(causes)
    tally.clean = int(not truth.get("errors"))
    tally.clean_no_person = tally.clean * tally.no_person
    return tally


def silent_cause(reading: FieldReading | None, want: Any) -> str:
    """Why a field wrong and not doubtful is so, in words (for ``--list``)."""
    if reading is None:
        return "missing from scan.json"
    if reading.value is None:
        return f"read empty where {_short(want)} was written"
    if want is None:
        return f"read {_short(reading.value)} where nothing was written"
    if reading.kind == "entry":
        return f"{want} read {reading.value} sure ({reading.confidence:.4f})"
    differ = sorted(name for name in {*want, *reading.value}
                    if want.get(name) != reading.value.get(name))
    return f"row misread sure ({reading.confidence:.4f}) in {', '.join(differ)}"


def _short(value: Any) -> str:
    return "a deal" if isinstance(value, dict) else str(value)


def doubt_cause(reading: FieldReading) -> str:
    """The rule or threshold that made a right field doubtful (:func:`note_cause`)."""
    return note_cause(reading.kind, reading.note)


def note_cause(kind: str, note: str | None) -> str:
    """A field's note as a cause: numbers and seats left out so that like causes count
    together, ``kind`` (``entry`` or ``row``) before it."""
    text = re.sub(r"\d+(\.\d+)?", "N", note or "(no note: confidence below the threshold)")
    seatless = re.sub(r"\b[A-D]\b", "S", text)
    return f"{kind}: {seatless}"


def open_plans(part: Part, sheets: int, capture: str | None, marks: str | None = None,
               family: str | None = None, ink: str | None = None) -> list[SheetPlan]:
    """``sheets`` plans of the ``part``, only those of ``capture``, of ``marks``, of ``ink``
    and of the glyph ``family`` where they are named (a family the part cycles through only
    when asked, :data:`~samplegen.profiles.ASKED_FAMILIES`, is planned on its own)."""
    families = None if family is None else (family,)
    try:
        if capture is None and marks is None and ink is None:
            return plan_sheets("open", part, sheets, families)
        plans = [p for p in plan_sheets("open", part, sheets * 64, families)
                 if capture in (None, p.capture) and marks in (None, p.marks)
                 and ink in (None, p.ink)]
    except ProfileError as error:
        raise SystemExit(f"reader_eval: {error}") from None
    if not plans:
        raise SystemExit(f"reader_eval: the {part} part has no sheet of capture {capture!r}, "
                         f"marks {marks!r} and ink {ink!r}")
    return plans[:sheets]


def make_set(folder: Path, sheets: int, legacy: int, dpi: int, seed: int,
             part: Part = Part.EVALUATION, capture: str | None = None,
             reuse: bool = False, marks: str | None = None,
             family: str | None = None, ink: str | None = None
             ) -> list[tuple[SheetPlan, Path]]:
    """The ``part``'s open sheets and the legacy ones, seeded, under ``folder``; with
    ``reuse``, a sheet already made there (same arguments) is read again, not made anew."""
    plans = open_plans(part, sheets, capture, marks, family, ink) + plan_sheets(
        "legacy", Part.TRAINING, legacy)
    glyphs = default_glyphs()
    made = []
    for index, plan in enumerate(plans):
        rules = set_rules(index)
        out = folder / f"{index:03d}-{plan.profile}-{rules.variant}-{rules.players}"
        if not (reuse and (out / "truth.json").is_file()):
            make_sheet(out, plan, seed, index, dpi, glyphs)
        made.append((plan, out))
    return made


def make_sheet(out: Path, plan: SheetPlan, seed: int, index: int, dpi: int = 300,
               glyphs: dict[int, list[GreyImage]] | None = None) -> None:
    """Sheet ``index`` of the set of ``seed`` made in ``out`` as ``plan`` says: its variant,
    players, pool and recording errors follow from its place in the set (a test makes one
    sheet of a set again without the ones before it)."""
    rng = random.Random(seed * 100_000 + index)
    make_sample(fitting_game(set_rules(index), rng), out, glyphs or default_glyphs(), rng,
                errors=index % 3, dpi=dpi, plan=plan)


def set_rules(index: int) -> RuleSet:
    """The rules of sheet ``index`` of a set: the variants in turn, 3 then 4 players every
    three sheets, the pools every six."""
    return RuleSet.preset(VARIANTS[index % 3], 3 + (index // 3) % 2, POOLS[(index // 6) % 2])


def read_set(made: list[tuple[SheetPlan, Path]], out: Path, model: Path = MODEL_PATH
             ) -> dict[str, Tally]:
    """Each sheet read with digit model ``model`` and scored, by its full class label."""
    tallies: dict[str, Tally] = {}
    recognizer = DigitRecognizer(model)
    for number, (plan, folder) in enumerate(made):
        truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
        outcomes = list(scan_paths([folder], out / f"{number:03d}", recognizer=recognizer))
        scans = [o for o in outcomes if isinstance(o, SheetScan)]
        failures = [o.message for o in outcomes if isinstance(o, ScanFailure)]
        if len(scans) == 1 and not scans[0].missing_pages:
            tally = score_sheet(truth, scans[0])
        else:
            message = "; ".join(failures) or f"{len(scans)} sheets, pages missing"
            tally = Tally(sheets=1, refused=1, messages=[f"{folder.name}: {message}"])
        tally.silent_fields = [f"{folder.name} ({_label(plan)}) {f}"
                               for f in tally.silent_fields]
        tallies.setdefault(_label(plan), Tally()).add(tally)
    return tallies


def _label(plan: SheetPlan) -> str:
    return f"legacy x {plan.capture}" if plan.profile == "legacy" else plan.label()


def _group(tallies: dict[str, Tally], keep: Iterable[str], by: int | None) -> dict[str, Tally]:
    """Tallies summed over labels in ``keep``, by one dimension (``None``: all together)."""
    out: dict[str, Tally] = {}
    for label in keep:
        key = "all" if by is None else label.split(" x ")[by]
        out.setdefault(key, Tally()).add(tallies[label])
    return out


def report(tallies: dict[str, Tally], part: str = "evaluation") -> list[str]:
    """The tables: per class, per dimension, overall; the refusals' messages."""
    open_labels = sorted(k for k in tallies if not k.startswith("legacy"))
    legacy = sorted(k for k in tallies if k.startswith("legacy"))
    lines = [f"{part} part, per class (glyphs x capture x marks x ink):", HEADER]
    lines += [tallies[k].row(k) for k in open_labels]
    for by, name in enumerate(("glyph source", "capture", "marks", "ink")):
        lines += ["", f"{part} part, by {name}:", HEADER]
        lines += [t.row(k) for k, t in sorted(_group(tallies, open_labels, by).items())]
    lines += ["", "overall:", HEADER]
    for name, keep in ((f"{part} part", open_labels), ("legacy profile", legacy)):
        if keep:
            lines.append(_group(tallies, keep, None)["all"].row(name))
    lines += [tallies[k].row(k) for k in legacy]
    every = _group(tallies, tallies, None).get("all", Tally())
    read = every.sheets - every.refused
    lines += ["", f"blank boxes and rows asked about (doubtful, nothing written): "
              f"{every.asked_blank}, {every.asked_blank / read if read else 0:.1f} per read sheet",
              f"sheets needing no person among those without a recording error: "
              f"{every.clean_no_person} of {every.clean} "
              f"({pct(every.clean_no_person, every.clean)}); with one: "
              f"{every.no_person - every.clean_no_person} of {read - every.clean}"]
    refusals = [m for t in tallies.values() for m in t.messages]
    lines += ["", f"refused sheets ({len(refusals)}):", *(f"  {m}" for m in refusals)]
    return lines


def listing(tallies: dict[str, Tally]) -> list[str]:
    """Every silent field with its class and cause; the right doubtful fields by cause; the
    sheets whose doubt has one cause alone, by that cause (what stands between each and
    needing no person)."""
    silent = [f for t in tallies.values() for f in t.silent_fields]
    causes = Counter(c for t in tallies.values() for c in t.needless)
    held = Counter(c for t in tallies.values() for c in t.held_by)
    lines = ["", f"silent fields ({len(silent)}):", *(f"  {f}" for f in silent)]
    lines += ["", f"doubtful fields that were right ({causes.total()}), by cause:"]
    lines += [f"  {n:5d}  {cause}" for cause, n in causes.most_common()]
    lines += ["", f"sheets whose every doubtful field has one cause ({held.total()}), by cause:"]
    return lines + [f"  {n:5d}  {cause}" for cause, n in held.most_common()]


def main() -> None:
    """Make the set, read it, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sheets", type=int, default=24, help="evaluation-part sheets")
    parser.add_argument("--legacy", type=int, default=12, help="old-generator sheets")
    parser.add_argument("--dpi", type=int, default=300, help="resolution pages are made at")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="keep the sheets and scans here")
    parser.add_argument("--json", type=Path, help="write the tallies here")
    parser.add_argument("--part", choices=[p.value for p in Part], default=Part.EVALUATION,
                        help="the open generator's part to read (default: evaluation)")
    parser.add_argument("--capture", help="only sheets of this capture profile")
    parser.add_argument("--marks", help="only sheets of this mark style")
    parser.add_argument("--ink", help="only sheets written in this ink")
    parser.add_argument("--family", help="only sheets of this glyph family (font, strokes, "
                        "uci; blocks: the TRAINING part's coarse digits, only when asked)")
    parser.add_argument("--reuse", action="store_true",
                        help="read the sheets already made under --out again (same arguments)")
    parser.add_argument("--list", action="store_true",
                        help="list the silent fields and the right doubtful ones by cause")
    parser.add_argument("--model", type=Path, action="append",
                        help="digit model to read with (again: read the sheets with each)")
    args = parser.parse_args()
    models = args.model or [MODEL_PATH]
    missing = [m for m in models if not m.is_file()]
    if missing:
        parser.error(f"digit model {missing[0]} does not exist; name an .onnx file")
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as temp:
        work = args.out or Path(temp)
        start = time.perf_counter()
        made = make_set(work / "samples", args.sheets, args.legacy, args.dpi, args.seed,
                        Part(args.part), args.capture, args.reuse and args.out is not None,
                        args.marks, args.family, args.ink)
        made_s = time.perf_counter() - start
        print(f"{len(made)} sheets: {made_s:.0f} s to make")
        results = {}
        for number, model in enumerate(models):
            start = time.perf_counter()
            tallies = read_set(made, work / f"scans-{number}", model)
            read_s = time.perf_counter() - start
            print(f"\ndigit model {model}:\n" + "\n".join(
                report(tallies, args.part) + (listing(tallies) if args.list else [])))
            print(f"\n{read_s:.0f} s to read ({read_s / max(len(made), 1):.1f} s per sheet)")
            results[str(model)] = {k: vars(t) for k, t in tallies.items()}
    if args.json:
        data = results if len(models) > 1 else results[str(models[0])]
        args.json.write_text(json.dumps(data, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
