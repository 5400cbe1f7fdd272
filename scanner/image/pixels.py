"""Pixel helpers shared by the stages: grey levels, the red "content" channel that drops the
light-red print out, the 2x2 halvings a page is registered on and straightened from, and
ranked values (percentiles) of many rows of grey levels at once, and a grey closing by an
ellipse run as a few rectangles."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import cv2
import numpy as np

from scanner import constants as k
from scanner.arrays import GreyImage, Image, Ints


def to_gray(image: Image) -> GreyImage:
    """Grey levels of a BGR (or already grey) image."""
    return image if image.ndim == 2 else cast(GreyImage, cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))


def content_channel(image: Image) -> GreyImage:
    """The red channel of a BGR image (grey as is): ink and markers stay dark, the drop-out
    borders and tints turn nearly white, so they neither hide nor imitate markers or digits."""
    return image if image.ndim == 2 else cast(GreyImage, cv2.extractChannel(image, 2))


def paper_field(channel: GreyImage, side_px: int) -> GreyImage:
    """The paper's level at each pixel of ``channel``: the brightest within a square of
    ``side_px`` around it (ink and lines are narrower), smoothed over as much again."""
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (side_px, side_px))
    return cast(GreyImage, cv2.blur(cv2.dilate(channel, kernel), (side_px, side_px)))


def halve(image: Image) -> Image:
    """``image`` at half the size, each pixel the mean of a 2x2 block (an odd last row or
    column dropped): OpenCV's fast path of ``INTER_AREA``, a few milliseconds a page."""
    h, w = image.shape[0] // 2, image.shape[1] // 2
    return cast(Image, cv2.resize(image[:2 * h, :2 * w], (w, h), interpolation=cv2.INTER_AREA))


def halvings(image: Image, max_side_px: int = k.DETECT_MAX_SIDE_PX) -> tuple[Image, ...]:
    """``image`` halved again and again until its longer side is at most ``max_side_px``."""
    out: list[Image] = []
    last = image
    while max(last.shape[:2]) > max_side_px and min(last.shape[:2]) >= 2 * k.DETECT_MIN_SIDE_PX:
        last = halve(last)
        out.append(last)
    return tuple(out)


def rank_values(rows: GreyImage, ranks: Sequence[int]) -> list[Ints]:
    """For each rank ``r``, the ``r``-th smallest value (from 0) of each row of the ``uint8``
    array ``rows``: what :func:`numpy.partition` puts at ``r``, read off each row's histogram
    (one :func:`numpy.bincount` for all rows) instead of partitioning them."""
    count = len(rows)
    keys = rows.astype(np.intp)
    keys += (np.arange(count, dtype=np.intp) * 256)[:, None]
    at_most = np.bincount(keys.ravel(), minlength=256 * count).reshape(count, 256).cumsum(axis=1)
    return [np.argmax(at_most > rank, axis=1) for rank in ranks]


def close_ellipse(image: GreyImage, side: int) -> GreyImage:
    """``cv2.morphologyEx(image, cv2.MORPH_CLOSE, ellipse)`` with the ``side`` x ``side``
    ellipse of :func:`cv2.getStructuringElement` (``side`` odd), bit for bit, in a third of
    the time: the ellipse is the union of centred rectangles (its rows of each width), so
    its dilation is the most of their dilations, and those share their passes along the
    rows (:func:`_stair_filter`); the erosion likewise with the least."""
    if side % 2 == 0:
        raise ValueError(f"the ellipse's side must be odd, not {side}")
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))
    widths = [int(w) for w in kernel.sum(axis=1)]
    dilated = _stair_filter(image, widths, cv2.dilate, np.maximum)
    return _stair_filter(dilated, widths, cv2.erode, np.minimum)


def _stair_filter(image: GreyImage, widths: list[int], filter_rect: Callable[..., Any],
                  combine: np.ufunc) -> GreyImage:
    """``image`` filtered (``filter_rect``: :func:`cv2.dilate` or :func:`cv2.erode`, the
    pixels outside the image left out; ``combine`` their :func:`numpy.maximum` or
    :func:`numpy.minimum`) by the kernel whose row ``i`` is a run of ``widths[i]`` pixels
    centred on its column, the rows symmetric about the middle one (an ellipse): each
    width's pass along the rows is made once, from the next narrower one where the two
    halves of its reach overlap, and the rows of the kernel are then taken up and down."""
    half = len(widths) // 2
    along: dict[int, GreyImage] = {1: image}  # each width's filter along the rows
    narrower, last = 1, image
    for width in sorted(set(widths)):
        if width == 1:
            continue
        step = (width - narrower) // 2
        if narrower > 1 and 2 * step <= narrower:
            wider = last.copy()
            _combine_shifted(wider, last, step, 1, combine)
        else:
            wider = filter_rect(image, cv2.getStructuringElement(cv2.MORPH_RECT, (width, 1)))
        along[width], narrower, last = wider, width, wider
    full = widths.count(max(widths))  # the middle rows, all of the widest run
    out = cast(GreyImage, filter_rect(along[max(widths)],
                                      cv2.getStructuringElement(cv2.MORPH_RECT, (1, full))))
    for offset in range(full // 2 + 1, half + 1):
        _combine_shifted(out, along[widths[half - offset]], offset, 0, combine)
    return out


def _combine_shifted(out: GreyImage, source: GreyImage, shift: int, axis: int,
                     combine: np.ufunc) -> None:
    """``out`` combined in place with ``source`` moved ``shift`` pixels each way along
    ``axis`` (where the moved pixel lies inside the image)."""
    ahead = (slice(None),) * axis + (slice(shift, None),)
    behind = (slice(None),) * axis + (slice(None, -shift),)
    combine(out[ahead], source[behind], out=out[ahead])
    combine(out[behind], source[ahead], out=out[behind])
