"""Stage 5d, strips: an entry's digit boxes read as one strip of ink, for digits that do not
keep to their boxes.

Writers cram two digits into one box, write one across the border between two, or spread a
number over its boxes (issue 13, class 1): a box then holds a digit and a half, and no reading
of the boxes one by one spells the number. The boxes' own strokes (:mod:`scanner.image.ink`:
the printed lines taken out, each stroke given to one box) are laid side by side as the writer
sees them, and the strip's ink is cut into glyphs by where it lies, not by the boxes: strokes
that touch are one glyph, strokes one above another are joined (a 5's flag, a 4 in two
strokes), a glyph whose strokes' cores stand apart, touching only by their soft edges, is
one glyph a core (a "1" written close beside the next digit), and a glyph wider than tall
is split at its thinnest column (two digits run together). Each glyph is read by the digit
model on its own; :mod:`scanner.decode.numbers` weighs the strip's reading beside the
boxes'.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from scanner import constants as k
from scanner.arrays import GreyImage

STRIP_INK_LEVEL = 230
"""A strip pixel darker than this is ink: a crop holds only its box's own strokes (and a
pixel around them) on paper white (255), so a faint stroke is kept whole."""
JOIN_OVERLAP = 0.5
"""Strokes whose columns overlap by this share of the narrower one are one glyph (a 5's
flag above its body, a 4 written in two strokes)."""
SPLIT_ASPECT = 1.0
"""A glyph at least as wide as tall is two digits run together, split at its thinnest
column between :data:`SPLIT_SPAN` of its width. TRAINING part, seeds 7 and 51: digits that
touch ("20", "36", "48", 1.1-1.25 times wider than tall) read as their first digit at 1.3;
at 1.0 the rules' value reads sure on them (doubtful 5.2 -> 5.0 %, 3.8 -> 3.6 %), at 0.85
single wide digits split too (5.4 %, the legacy profile 2.4 -> 2.6 %), and read both whole
and split from 0.8 the second reading took so much of the ink's likelihood from the first
that clear slips and unsure entries lost their share (5.5 %)."""
SPLIT_SPAN = (0.3, 0.7)
GLYPH_PAD_PX = 2
CORE_INK_LEVEL = 140
"""A strip pixel darker than this is a stroke's core, not its soft edge: two digits written
close ("18", a "1" squeezed beside the next digit in one box) touch only by their edges'
light pixels at :data:`STRIP_INK_LEVEL`, and are one glyph there. 744 TRAINING sheets
(seeds 440-449, 474-494; with the lying strokes of :mod:`scanner.image.lying`, before
:func:`_joined_by_light_strokes` and with the parts split again by :func:`_split`): written
entries whose ink reads likeliest as written 34,434 at 170 (before: 34,406), 34,427 at 200,
34,444 at 140, 34,446 at 110; doubtful fields 1,103, 1,106, 1,103, 1,099 and sheets with no
person 364, 363, 363, 362 (the same within a few). A crop's darkest ink is stretched to
a pen's (:data:`~scanner.constants.INK_STRETCH_TARGET`, at most
:data:`~scanner.constants.INK_STRETCH_MAX` times): a pencil too light to reach this level
shows no two cores and stays one glyph, as before."""
SOFT_EDGE_MM = 0.25
"""How far from a stroke's core its soft edge reaches (a pixel or two of anti-aliasing and
blur at :data:`~scanner.constants.WORK_PX_PER_MM`)."""
CORE_TALL_SHARE = 0.6
"""A glyph is two digits touching by their soft edges where its cores fall into two or more
column-apart parts (:data:`JOIN_OVERLAP`) each at least this share of the glyph's height: a
5's flag or a 4's crossbar is shorter, and lies over its body's columns."""


def entry_strip(crops: Sequence[GreyImage], offsets_px: Sequence[int]) -> GreyImage:
    """The crops of an entry's digit boxes (upright for the writer, dark ink on paper white)
    laid along the writer's line at ``offsets_px`` (the first at 0), top-aligned, the darker
    pixel where their windows overlap: the entry's ink, each stroke once."""
    height = max(crop.shape[0] for crop in crops)
    width = max(x + crop.shape[1] for crop, x in zip(crops, offsets_px, strict=True))
    strip = np.full((height, width), 255, np.uint8)
    for crop, x in zip(crops, offsets_px, strict=True):
        h, w = crop.shape[:2]
        np.minimum(strip[:h, x:x + w], crop, out=strip[:h, x:x + w])
    return strip


def strip_glyphs(strip: GreyImage, px_per_mm: float) -> list[GreyImage]:
    """The glyphs of a strip, left to right, each its own ink on paper white (specks under
    :data:`~scanner.constants.INK_SPECK_MM2` left out)."""
    mask = (strip < STRIP_INK_LEVEL).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    glyphs: list[GreyImage] = []
    for group in _grouped(stats, count, px_per_mm):
        # the group's ink and a margin the glyph's cut reaches into (its edge, its pad): the
        # rest of the strip holds none of it
        left, right = _columns(stats, group)
        top = min(int(stats[i, cv2.CC_STAT_TOP]) for i in group)
        bottom = max(int(stats[i, cv2.CC_STAT_TOP] + stats[i, cv2.CC_STAT_HEIGHT])
                     for i in group)
        margin = GLYPH_PAD_PX + 1
        rows = slice(max(0, top - margin), bottom + margin)
        cols = slice(max(0, left - margin), right + margin)
        near = labels[rows, cols]
        ink = near == group[0] if len(group) == 1 else np.isin(near, group)
        cores = _split_cores(ink, strip[rows, cols], px_per_mm)
        glyphs += [_cut(strip[rows, cols], part)
                   for part in (cores if len(cores) > 1 else _split(ink))]
    return glyphs


def _grouped(stats: np.ndarray, count: int,  # type: ignore[type-arg]
             px_per_mm: float) -> list[list[int]]:
    """The components of a labelling (``stats``, ``count`` labels, 0 the background) that
    are no speck, left to right, those whose columns overlap by :data:`JOIN_OVERLAP` in one
    group (a 5's flag above its body, a 4 written in two strokes)."""
    speck = k.INK_SPECK_MM2 * px_per_mm ** 2
    strokes = sorted((i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= speck),
                     key=lambda i: int(stats[i, cv2.CC_STAT_LEFT]))
    groups: list[list[int]] = []
    for stroke in strokes:
        if groups and _overlap(stats, groups[-1], stroke) >= JOIN_OVERLAP:
            groups[-1].append(stroke)
        else:
            groups.append([stroke])
    return groups


def _columns(stats: np.ndarray, strokes: list[int]) -> tuple[int, int]:  # type: ignore[type-arg]
    left = min(int(stats[i, cv2.CC_STAT_LEFT]) for i in strokes)
    right = max(int(stats[i, cv2.CC_STAT_LEFT] + stats[i, cv2.CC_STAT_WIDTH]) for i in strokes)
    return left, right


def _overlap(stats: np.ndarray, group: list[int], stroke: int) -> float:  # type: ignore[type-arg]
    """How much of the narrower of a glyph and a stroke their columns share."""
    a0, a1 = _columns(stats, group)
    b0, b1 = _columns(stats, [stroke])
    shared = min(a1, b1) - max(a0, b0)
    return shared / max(1, min(a1 - a0, b1 - b0))


def _split_cores(ink: np.ndarray, strip: GreyImage,  # type: ignore[type-arg]
                 px_per_mm: float) -> list[np.ndarray]:  # type: ignore[type-arg]
    """A glyph's ink, or its parts where its cores (:data:`CORE_INK_LEVEL`) fall into two or
    more column-apart tall parts (:data:`CORE_TALL_SHARE`): each ink pixel goes to the part
    whose core is nearest. Each part is one digit (a wide one is not cut again by
    :func:`_split`: TRAINING seed 444 sheet 012, a bold "30" whose 0 is wider than tall
    read as 3, 4 and 0)."""
    rows = np.flatnonzero(ink.any(axis=1))
    height = rows[-1] - rows[0] + 1
    core = (ink & (strip < CORE_INK_LEVEL)).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=8)
    tall = [part for part in _grouped(stats, count, px_per_mm)
            if max(int(stats[i, cv2.CC_STAT_TOP] + stats[i, cv2.CC_STAT_HEIGHT]) for i in part)
            - min(int(stats[i, cv2.CC_STAT_TOP]) for i in part) >= CORE_TALL_SHARE * height]
    if len(tall) < 2:
        return [ink]
    owner = np.zeros(count, np.int32)
    for n, part in enumerate(tall, start=1):
        owner[part] = n
    seeds = owner[labels]
    _, nearest = cv2.distanceTransformWithLabels((seeds == 0).astype(np.uint8), cv2.DIST_L2,
                                                 3, labelType=cv2.DIST_LABEL_PIXEL)
    lut = np.zeros(int(nearest.max()) + 1, np.int32)
    lut[nearest[seeds > 0]] = seeds[seeds > 0]
    goes = lut[nearest]
    if _joined_by_light_strokes(ink, core, goes, px_per_mm):
        return [ink]
    return [ink & (goes == n) for n in range(1, len(tall) + 1)]


def _joined_by_light_strokes(ink: np.ndarray, core: np.ndarray,  # type: ignore[type-arg]
                             parts: np.ndarray, px_per_mm: float  # type: ignore[type-arg]
                             ) -> bool:
    """Whether ink farther than :data:`SOFT_EDGE_MM` from every core (a stroke drawn
    lighter, not a core's soft edge) runs from one of the ``parts`` (each pixel's nearest
    part) to another: the arcs of a "0" or the bar of an open "4" under the core level
    join its sides, where two digits written close touch only by their edges."""
    reach = 2 * max(1, round(SOFT_EDGE_MM * px_per_mm)) + 1
    edges = cv2.dilate(core, np.ones((reach, reach), np.uint8)) > 0
    light = (ink & ~edges).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(light, connectivity=8)
    speck = k.INK_SPECK_MM2 * px_per_mm ** 2
    return any(stats[i, cv2.CC_STAT_AREA] >= speck and len(np.unique(parts[labels == i])) > 1
               for i in range(1, count))


def _split(ink: np.ndarray) -> list[np.ndarray]:  # type: ignore[type-arg]
    """A glyph's ink, or its two halves where it is :data:`SPLIT_ASPECT` times as wide as
    tall, cut at the column holding least ink."""
    rows, cols = np.nonzero(ink)
    top, bottom, left, right = rows.min(), rows.max() + 1, cols.min(), cols.max() + 1
    width, height = right - left, bottom - top
    if width < SPLIT_ASPECT * height:
        return [ink]
    lo, hi = (left + max(1, int(share * width)) for share in SPLIT_SPAN)
    if hi <= lo:
        return [ink]
    counts = ink[:, lo:hi].sum(axis=0)
    at = lo + int(np.argmin(counts))
    first, second = ink.copy(), ink.copy()
    first[:, at:] = False
    second[:, :at] = False
    return [first, second]


def _cut(strip: GreyImage, ink: np.ndarray) -> GreyImage:  # type: ignore[type-arg]
    """The glyph's own pixels of ``strip`` and a pixel around them (a stroke's soft edge;
    the rest paper white) in its bounding box, :data:`GLYPH_PAD_PX` around."""
    rows, cols = np.nonzero(ink)
    top = max(0, int(rows.min()) - GLYPH_PAD_PX)
    bottom = min(strip.shape[0], int(rows.max()) + 1 + GLYPH_PAD_PX)
    left = max(0, int(cols.min()) - GLYPH_PAD_PX)
    right = min(strip.shape[1], int(cols.max()) + 1 + GLYPH_PAD_PX)
    edge = cv2.dilate(ink.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    own = np.where(edge, strip, 255)[top:bottom, left:right]
    return np.ascontiguousarray(own, dtype=np.uint8)
