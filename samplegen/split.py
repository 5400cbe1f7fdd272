"""The split of every sample source into a TRAINING and an EVALUATION part, in one place.

A figure is evidence only on sources the reader was never trained or tuned on (STYLE.md, "a
closed loop as evidence"). So every glyph source (a font, the MNIST digits, a pen-stroke writer
style), every mark style and every capture profile belongs to exactly one :class:`Part`: the
digit model trains and thresholds are tuned on TRAINING only; EVALUATION is what the bench
reports. The two parts share no font, no writer style and no mark or capture style.

:data:`FORBIDDEN_FONTS` are reserved for an evaluation this project does not see: they are
never fetched, drawn, trained or evaluated on here, nor any variant of them (a name that
contains one, such as ``patrick-hand-sc``). The UCI digits (scikit-learn) are evaluation only:
a glyph source of the EVALUATION part (:mod:`samplegen.uci`) and of :mod:`bench.digits_eval`,
never trained, calibrated or tuned on.

>>> part_of("glyphs", "handlee")
<Part.TRAINING: 'training'>
>>> is_forbidden("Patrick Hand SC")
True
"""

from __future__ import annotations

import re
from enum import StrEnum


class Part(StrEnum):
    """Which part of the split a source belongs to."""

    TRAINING = "training"
    EVALUATION = "evaluation"


FORBIDDEN_FONTS = (
    "caveat", "indie-flower", "kalam", "patrick-hand", "shadows-into-light", "reenie-beanie",
    "gochi-hand", "nanum-pen-script", "covered-by-your-grace", "gloria-hallelujah",
    "schoolbell", "sue-ellen-francisco",
)
"""Handwriting fonts reserved for an independent evaluation; with their variants, never used."""

T, E = Part.TRAINING, Part.EVALUATION

GLYPH_SOURCES: dict[str, Part] = {
    # the MNIST sample the model trains on (its held-out writers drive the legacy profile)
    "mnist": T,
    # those held-out writers reduced to 8 x 8 blocks as the UCI digits were (samplegen.uci),
    # the TRAINING part's coarse digits, written only where a run asks for them (--family)
    "mnist-blocks": T,
    # Debian handwriting fonts (training/train_digits.py trains on them)
    "humor-sans": T, "dkg-handwriting": T, "comic-neue": T, "breip": T, "femkeklaver": T,
    "klee": T, "kristi": T,
    # npm @fontsource handwriting families (fetched by samplegen.fonts)
    "architects-daughter": T, "handlee": T, "neucha": T, "short-stack": T, "gaegu": T,
    "itim": T, "delius": T, "sriracha": T,
    "rock-salt": E, "annie-use-your-telescope": E, "the-girl-next-door": E,
    "swanky-and-moo-moo": E, "permanent-marker": E, "homemade-apple": E,
    "nanum-brush-script": E,
    # the UCI digits (samplegen.uci; the independent evaluation writes sheets with them too)
    "uci": E,
    # pen-stroke writer styles (samplegen.strokes)
    "strokes-school": T, "strokes-continental": T, "strokes-quick": T,
    "strokes-engineer": E, "strokes-round": E, "strokes-hurried": E,
}
"""Every glyph source: a font, a digit set or a pen-stroke writer style."""

MARK_STYLES: dict[str, Part] = {
    "x-neat": T, "tick-short": T, "plus-upright": T, "loop-circle": T, "scribble-zigzag": T,
    "cancel-zigzag": T, "tick-sprawl": T, "loop-sprawl": T,
    "x-hasty": E, "tick-long": E, "plus-tilted": E, "loop-oval": E, "scribble-coil": E,
    "cancel-solid": E,
}
"""Every mark style (samplegen.marks); ``cancel-*`` cancel a crossed box."""

CAPTURES: dict[str, Part] = {
    "legacy-clean": T, "legacy-scan": T, "legacy-photo": T,
    "phone-near": T, "flatbed-colour": T,
    # the same physics as the evaluation's captures, drawn from other ranges (tuning sees these)
    "phone-steep": T, "phone-distant": T, "flatbed-mono": T, "flatbed-threshold": T,
    "phone-tilted": E, "phone-far": E, "flatbed-grey": E, "flatbed-bw": E,
}
"""Every capture profile (samplegen.capture; ``legacy-*``: samplegen.degrade)."""

DIGIT_SETS = ("mnist", "mnist-blocks", "uci")
"""The glyph sources that are sets of written digits, neither fonts nor pen-stroke styles."""

KINDS: dict[str, dict[str, Part]] = {
    "glyphs": GLYPH_SOURCES, "marks": MARK_STYLES, "captures": CAPTURES}


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def is_forbidden(name: str) -> bool:
    """Whether a font or source name is (a variant of) a reserved one."""
    slug = _slug(name)
    return any(f in slug or f.replace("-", "") in slug.replace("-", "")
               for f in FORBIDDEN_FONTS)


def part_of(kind: str, name: str) -> Part:
    """The part of source ``name`` of ``kind`` (``glyphs``, ``marks``, ``captures``)."""
    return KINDS[kind][name]


def names(kind: str, part: Part) -> tuple[str, ...]:
    """The sources of ``kind`` in ``part``, in a fixed order."""
    return tuple(n for n, p in KINDS[kind].items() if p == part)
