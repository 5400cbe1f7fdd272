"""Pixel helpers shared by the stages: grey levels, the red "content" channel that drops the
light-red print out, the 2x2 halvings a page is registered on and straightened from, and
ranked values (percentiles) of many rows of grey levels at once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

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
