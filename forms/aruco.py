"""ArUco markers (OpenCV's DICT_4X4_50) as bit matrices, for drawing them as vector squares.

``aruco_id = 4 * page + corner`` (:class:`forms.model.Marker`): 50 ids cover 12 pages.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

DICTIONARY_NAME = "DICT_4X4_50"
MODULES = 6
"""Modules per side: 4 data bits and a one-module black border on each side."""


@lru_cache(maxsize=64)
def marker_bits(aruco_id: int) -> tuple[tuple[bool, ...], ...]:
    """Rows of booleans, True = black, with the border; raises ValueError for a bad id."""
    import cv2

    if not 0 <= aruco_id < 50:
        raise ValueError(f"ArUco id {aruco_id} outside DICT_4X4_50 (0..49); too many pages")
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    image = np.asarray(dictionary.generateImageMarker(aruco_id, MODULES))
    return tuple(tuple(bool(v < 128) for v in row) for row in image)
