"""Stage 5c, lines: the printed box borders divided out of a page's raster.

Each box border is a thin straight line where the layout puts it; its light transmittance
across it is measured (a high percentile along it, so ink lying on the line does not count as
line, and never far below the page's typical border), and every pixel of its band is divided
by it, so ink that crosses or lies on a line keeps its darkness. A line that lets almost no
light through (a black-and-white print) is bridged where ink meets it from both sides. On a
page coarser than a fine one each line is first settled on its own place within
:data:`~scanner.constants.LINE_SETTLE_MM` of where the layout puts it (its darkest row across
it, as the lines in line with it over :data:`~scanner.constants.LINE_SETTLE_SPAN_MM` agree):
a coarse photo's registration leaves a border a pixel or two off, a little more at one end of
the page than at the other, and a band laid beside the line would leave half of it as a
stroke.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from scanner import constants as k
from scanner.arrays import Doubles, Floats, GreyImage, Ints
from scanner.image.raster import BoxGeometry


def border_lines(geometry: BoxGeometry, x0: float, y0: float, px_per_mm: float,
                 shifts: Doubles, chosen: Ints) -> tuple[Ints, Ints]:
    """The printed borders of the ``chosen`` boxes in raster pixels (``x0, y0`` its origin,
    ``shifts`` each box's ``dx, dy`` in pixels): horizontal lines as rows ``(row, c0,
    length)``, vertical as ``(column, r0, length)``, each line once."""
    p = geometry.places[chosen]
    xs = (p[:, 0] - x0) * px_per_mm + shifts[chosen, 0]
    ys = (p[:, 1] - y0) * px_per_mm + shifts[chosen, 1]
    ws, hs = p[:, 2] * px_per_mm, p[:, 3] * px_per_mm
    horizontal = np.concatenate([np.stack([np.floor(ys), np.round(xs), np.round(ws)], 1),
                                 np.stack([np.floor(ys + hs), np.round(xs), np.round(ws)], 1)])
    vertical = np.concatenate([np.stack([np.floor(xs), np.round(ys), np.round(hs)], 1),
                               np.stack([np.floor(xs + ws), np.round(ys), np.round(hs)], 1)])
    return (np.unique(horizontal.astype(np.int64), axis=0),
            np.unique(vertical.astype(np.int64), axis=0))


def settle_reach(px_per_mm: float, fine: bool) -> int:
    """How far (raster pixels at ``px_per_mm``) each border is looked for around its place:
    :data:`~scanner.constants.LINE_SETTLE_MM` on a page coarser than a ``fine`` one
    (:data:`~scanner.constants.INK_FINE_PAGE_PX_PER_MM`: distant and steep photos, whose
    registration is a pixel of their own off); none on a fine page, whose borders lie in
    their bands."""
    return 0 if fine else max(1, round(k.LINE_SETTLE_MM * px_per_mm))


class Cleared(NamedTuple):
    """A raster with its printed lines divided out (:func:`clear_lines`)."""

    image: GreyImage
    bands: GreyImage | None
    """1 in each line's band; None where the lines were left as they are."""
    inside: bool
    """Whether the lines lay inside their bands (no remnant of them is left beside a band:
    :func:`_inside_bands`)."""
    faint: bool
    """Whether the lines were faint (:data:`~scanner.constants.LINE_DROPOUT_TRANSMITTANCE`:
    the drop-out print's red channel), so nothing left of them passes for writing on them;
    on a coarse page (its borders settled) only where they were left as they are: there they
    blur into the darker column lines beside the boxes (far photos: phantom 1s along them)."""


def clear_lines(content: GreyImage, horizontal: Ints, vertical: Ints, band_px: int,
                settle_px: int = 0) -> Cleared:
    """``content`` with the printed lines divided out; where they are all but invisible
    (:data:`~scanner.constants.LINE_SHOWS_UNDER`) ``content`` itself. Horizontal lines
    first, then vertical ones on the result (their crossings are cleared by both), each
    settled within ``settle_px`` of its place (:func:`profiles`). Every eighth horizontal
    line tells first whether the lines show at all; whether they lie inside their bands is
    told where the layout puts them."""
    if _typical(profiles(content, horizontal[::8], band_px)) >= k.LINE_SHOWS_UNDER:
        return Cleared(content, None, True, True)
    across = profiles(content, horizontal, band_px)
    nominal = across + profiles(content.T, vertical, band_px)
    typical = _typical(nominal)
    if typical >= k.LINE_SHOWS_UNDER:
        return Cleared(content, None, True, True)
    out = content.copy()
    bands = np.zeros(content.shape, np.uint8)
    _divide(out, bands, profiles(content, horizontal, band_px, settle_px) if settle_px
            else across, typical)
    _divide(out.T, bands.T, profiles(out.T, vertical, band_px, settle_px), typical)
    return Cleared(out, bands, _inside_bands(nominal),
                   not settle_px and typical >= k.LINE_DROPOUT_TRANSMITTANCE)


def _inside_bands(profiles: list[Profile]) -> bool:
    """Whether the page's lines lie inside their bands: the paper rows beside the bands let
    through :data:`~scanner.constants.LINE_EDGE_CLEAN_TRANSMITTANCE` of the light at the
    page's :data:`~scanner.constants.LINE_EDGE_PERCENTILE` (a page registered a pixel off
    leaves its lines half outside, where they are taken for ink)."""
    if not profiles:
        return True
    edges = np.concatenate([np.minimum(t[:, 0], t[:, -1]) for *_, t in profiles])
    return float(np.percentile(edges, k.LINE_EDGE_PERCENTILE)) >= k.LINE_EDGE_CLEAN_TRANSMITTANCE


Profile = tuple[Ints, Ints, Floats, Floats]
"""Lines of one length: their first rows and columns (of the band and a paper row on each
side), their pixels (lines, rows, length) and their transmittance at each row."""


def profiles(image: GreyImage, lines: Ints, band_px: int, settle_px: int = 0) -> list[Profile]:
    """The :data:`Profile` of the horizontal ``lines`` (rows ``row, c0, length``) of
    ``image`` (a transposed view: the vertical ones), by length; with ``settle_px``, each
    line's band centred on the darkest row within that many of its place that the lines in
    line with it agree on (:func:`_settled`, :func:`_in_line`)."""
    h, w = image.shape
    rows = 2 * band_px + 3  # the band and one row of paper beyond it on each side
    wide = rows + 2 * settle_px
    r0s, c0s = lines[:, 0] - band_px - 1 - settle_px, lines[:, 1]
    inside = (r0s >= 0) & (r0s + wide <= h) & (c0s >= 0) & (c0s + lines[:, 2] <= w) & (
        lines[:, 2] > 2)
    r0s, c0s, lengths = r0s[inside], c0s[inside], lines[inside, 2]
    by_length = []
    for length in np.unique(lengths).tolist():
        at = np.flatnonzero(lengths == length)
        starts = np.stack([r0s[at], c0s[at]], 1)
        blocks = windows(image, starts, (wide, length)).astype(np.float32)
        # the line's level at each row across it: its light parts (ink covers the rest)
        rank = int(k.LINE_LEVEL_PERCENTILE / 100 * (length - 1))
        by_length.append((at, blocks, np.partition(blocks, rank, axis=2)[:, :, rank]))
    moved: Ints = np.zeros(len(r0s), np.int64)
    if settle_px and by_length:
        for at, _, level in by_length:
            moved[at] = _settled(level, band_px, settle_px)
        span = round(settle_px * k.LINE_SETTLE_SPAN_MM / k.LINE_SETTLE_MM)
        moved = _in_line(r0s, c0s + lengths // 2, moved, span)
    out = []
    for at, blocks, level in by_length:
        first = r0s[at] + moved[at]
        if settle_px:
            pick = moved[at, None] + np.arange(rows)[None, :]
            blocks = np.take_along_axis(blocks, pick[:, :, None], axis=1)
            level = np.take_along_axis(level, pick, axis=1)
        paper = np.maximum(np.maximum(level[:, :1], level[:, -1:]), 1.0)
        out.append((first, c0s[at], blocks, np.minimum(level / paper, 1.0)))
    return out


def _in_line(r0s: Ints, middles: Ints, moved: Ints, span_px: int) -> Ints:
    """Each line's move (``moved``: rows from its window's first row ``r0s``) made the
    median move of the lines in line with it: those at the same place across
    (``r0s``) whose middles along them fall in the same stretch of ``span_px``. A border
    printed straight is off its place by the registration's error, alike along a stretch
    of it; a mark's stroke hugging one box's border (a felt-tip ring around it) is darker
    than the border, and settled on alone it was divided out as line (seen on the EVALUATION
    part, a distant photo's deal page of 102-140 dpi: three rows' rings lost, the rows read
    blank; chosen on the TRAINING part, :data:`~scanner.constants.LINE_SETTLE_MM`)."""
    keys = r0s.astype(np.int64) * (int(middles.max(initial=0)) // span_px + 1) + \
        middles // span_px
    order = np.lexsort((moved, keys))
    sorted_keys = keys[order]
    starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
    counts = np.diff(np.r_[starts, len(keys)])
    medians = moved[order][starts + (counts - 1) // 2]  # the lower median of each stretch
    out = np.empty_like(moved)
    out[order] = np.repeat(medians, counts)
    return out


def _settled(level: Floats, band_px: int, settle_px: int) -> Ints:
    """Where each line's band starts in its window of ``level`` rows (``settle_px`` more on
    each side than its band and paper rows): centred on the darkest three rows within
    ``settle_px`` of its place, a grey level darker per row it moves (ties stay put)."""
    centre = band_px + 1 + settle_px
    offsets = np.arange(-settle_px, settle_px + 1)
    at = centre + offsets
    dark = level[:, at - 1] + level[:, at] + level[:, at + 1] + np.abs(offsets)[None, :]
    moved: Ints = dark.argmin(axis=1)  # the band's first row: the offset's index
    return moved


def _typical(profiles: list[Profile]) -> float:
    """The page's typical line: the median of its lines' least transmittance (1: none)."""
    if not profiles:
        return 1.0
    return float(np.median(np.concatenate([t.min(axis=1) for *_, t in profiles])))


def _divide(image: GreyImage, bands: GreyImage, profiles: list[Profile],
            typical: float) -> None:
    """Divide the lines of ``profiles`` out of ``image`` in place (a transposed view: the
    vertical ones) and mark their bands in ``bands``."""
    floor = k.LINE_MIN_TRANSMITTANCE_SHARE * typical
    for r0s, c0s, blocks, transmit in profiles:
        if typical >= k.LINE_OPAQUE_TRANSMITTANCE:
            cleared = blocks / np.maximum(transmit, floor)[:, :, None]
        else:  # opaque: a band pixel is ink where both sides of the band are
            beyond = np.maximum(blocks[:, :1], blocks[:, -1:])
            cleared = np.where(transmit[:, :, None] < 0.5, beyond, blocks)
        levels = np.minimum(cleared[:, 1:-1], 255.0).astype(np.uint8)
        rows, length = levels.shape[1:]
        for r0, c0, level in zip((r0s + 1).tolist(), c0s.tolist(), levels, strict=True):
            image[r0:r0 + rows, c0:c0 + length] = level  # a line's band, each in turn
            bands[r0:r0 + rows, c0:c0 + length] = 1


def windows(image: np.ndarray, origins: Ints, size: tuple[int, int]) -> np.ndarray:  # type: ignore[type-arg]
    """The ``size`` windows of ``image`` at ``origins`` (rows of row, column), stacked."""
    view = np.lib.stride_tricks.sliding_window_view(image, size)
    return view[origins[:, 0], origins[:, 1]]
