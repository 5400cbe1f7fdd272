"""Sample profiles: the old generator (``legacy``) and the open one, one part at a time.

A :class:`SheetPlan` is the class of one sheet: its profile and part, the family of its glyph
sources (``mnist`` for legacy, ``font``, ``strokes`` or, in the evaluation part, ``uci``; in
the training part, where a run asks for it, ``blocks``), its capture, the mark style of the
seat that keeps the deal rows, and the ink every seat writes with. :func:`plan_sheets` spreads
a run of sheets evenly over the classes of a part (each family meets every capture and every
ink, each capture every ink); :func:`open_hands` gives each seat a writer
of the plan: its own glyph source of the plan's family (no two seats share one where the part
has enough), its own slant, pen and size.

>>> [(p.family, p.capture) for p in plan_sheets("open", Part.EVALUATION, 4)][2:]
[('uci', 'phone-tilted'), ('font', 'phone-far')]
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from samplegen.fonts import available, font_glyphs
from samplegen.handwriting import make_writers
from samplegen.marks import MARK_SHAPES
from samplegen.split import DIGIT_SETS, Part, names
from samplegen.strokes import STYLES, stroke_glyphs
from samplegen.uci import BLOCKS_SOURCE, UCI_SOURCE, blocks_glyphs, uci_available, uci_glyphs
from samplegen.writers import HEIGHT_RANGE, INKS, Hand, LegacyHand, OpenHand
from scanner.arrays import GreyImage

PROFILES = ("legacy", "open")
LEGACY_CAPTURES = ("legacy-clean", "legacy-scan", "legacy-photo")
FAMILIES = ("font", "strokes", "uci")
"""The glyph families a part's plans cycle through (those it has sources of)."""
ASKED_FAMILIES = ("blocks",)
"""Families a run writes only when it asks for them (``families``): the TRAINING part's
coarse digits, kept out of the cycle so that every seed's sheets stay as they were."""
SPECIMENS = 4
"""Specimens of each digit one writer draws from."""
SPILL_SHARE = 0.5
"""Share of open writers who now and then go over a box's border."""


class ProfileError(ValueError):
    """A profile, part or source that cannot make a sheet here."""


@dataclass(frozen=True)
class SheetPlan:
    """The class of one sample sheet."""

    profile: str
    part: Part
    family: str
    capture: str
    marks: str
    ink: str

    def label(self) -> str:
        """``glyphs x capture x marks x ink``, as the bench prints a class."""
        return f"{self.family} x {self.capture} x {self.marks} x {self.ink}"


def family_sources(family: str, part: Part) -> tuple[str, ...]:
    """The glyph sources of ``family`` in ``part`` that can be drawn here (none for a name
    that is no family)."""
    sources = names("glyphs", part)
    if family == "font":
        return available(tuple(s for s in sources if s not in STYLES and s not in DIGIT_SETS))
    if family == "strokes":
        return tuple(s for s in sources if s in STYLES)
    if family == "uci":
        return (UCI_SOURCE,) if UCI_SOURCE in sources and uci_available() else ()
    if family == "blocks":
        return tuple(s for s in sources if s == BLOCKS_SOURCE)
    return ()


def plan_sheets(profile: str, part: Part, count: int,
                families: tuple[str, ...] | None = None) -> list[SheetPlan]:
    """``count`` plans spread over the part's families (only ``families`` where named),
    captures, mark styles and inks."""
    if profile == "legacy":
        if part != Part.TRAINING:
            raise ProfileError("the legacy profile is the training part's old generator; "
                               "use --profile open for the evaluation part")
        return [SheetPlan("legacy", part, "mnist", LEGACY_CAPTURES[i % 3], "x-legacy", "legacy")
                for i in range(count)]
    captures = [c for c in names("captures", part) if c not in LEGACY_CAPTURES]
    marks = [m for m in names("marks", part) if m in MARK_SHAPES]
    if families is not None:
        missing = [f for f in families if not family_sources(f, part)]
        if missing:
            raise ProfileError(f"the {part} part has no glyph source of the family "
                               f"{missing[0]!r} here (families: "
                               f"{', '.join(FAMILIES + ASKED_FAMILIES)})")
    cycled = list(families or [f for f in FAMILIES if family_sources(f, part)])
    if not cycled:
        raise ProfileError(f"no glyph source of the {part} part is here; run "
                           "python -m samplegen.fonts")
    inks = list(INKS)
    plans = []
    for i in range(count):
        family, turn = i % len(cycled), i // len(cycled)
        ink = turn + turn // len(captures) + family * len(inks) // len(cycled)
        plans.append(SheetPlan("open", part, cycled[family], captures[turn % len(captures)],
                               marks[i % len(marks)], inks[ink % len(inks)]))
    return plans


def _glyphs(source: str, rng: random.Random) -> dict[int, list[GreyImage]]:
    if source in STYLES:
        return stroke_glyphs(source, rng, SPECIMENS)
    if source == UCI_SOURCE:
        return uci_glyphs(rng, SPECIMENS)
    if source == BLOCKS_SOURCE:
        return blocks_glyphs(rng, SPECIMENS)
    return font_glyphs(source, rng, SPECIMENS)


def open_hands(seats: tuple[str, ...], plan: SheetPlan, rng: random.Random
               ) -> dict[str, Hand]:
    """A writer per seat for an open ``plan``."""
    sources = list(family_sources(plan.family, plan.part))
    if not sources:
        raise ProfileError(f"no {plan.family} source of the {plan.part} part is here; run "
                           "python -m samplegen.fonts")
    rng.shuffle(sources)
    cancel = next(m for m in names("marks", plan.part) if m.startswith("cancel-"))
    ink = INKS[plan.ink]
    hands: dict[str, Hand] = {}
    for k, seat in enumerate(seats):
        source = sources[k % len(sources)]
        low = rng.uniform(HEIGHT_RANGE[0], HEIGHT_RANGE[1] - 0.25)
        hands[seat] = OpenHand(
            seat=seat, source=source, glyphs=_glyphs(source, rng), ink=plan.ink,
            pen_mm=rng.uniform(*ink.pen_mm), pressure=rng.uniform(*ink.pressure),
            height=(low, min(HEIGHT_RANGE[1], low + rng.uniform(0.1, 0.3))),
            slant=rng.uniform(-0.15, 0.05), spills=rng.random() < SPILL_SHARE,
            mark_style=plan.marks, cancel_style=cancel)
    return hands


def legacy_hands(seats: tuple[str, ...], glyphs: dict[int, list[GreyImage]],
                 rng: random.Random) -> dict[str, Hand]:
    """The old generator's pens over ``glyphs``."""
    return {seat: LegacyHand(style, glyphs)
            for seat, style in make_writers(seats, glyphs, rng).items()}
