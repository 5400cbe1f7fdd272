"""ArUco markers of OpenCV's DICT_4X4_50 as bit matrices, for drawing them as vector squares.

``aruco_id = 4 * page + corner`` (:class:`forms.model.Marker`): 50 ids cover 12 pages. The
dictionary's codes are data here (``tests/forms/test_form_aruco.py`` checks them against
``cv2.aruco``), so printing a sheet needs no OpenCV.

>>> [''.join('#' if black else '.' for black in row) for row in marker_bits(0)]
['######', '#.#..#', '##.#.#', '###..#', '###.##', '######']
"""

from __future__ import annotations

DICTIONARY_NAME = "DICT_4X4_50"
MODULES = 6
"""Modules per side: 4 data bits and a one-module black border on each side."""
DATA_SIDE = MODULES - 2

CODES = (
    0xB532, 0x0F9A, 0x332D, 0x9946, 0x549E, 0x79CD, 0x9E2E, 0xC4F2, 0xFEDA, 0xCF56, 0xF991,
    0x11A7, 0x0EB7, 0x2A0F, 0x24B1, 0x263E, 0x4665, 0x6600, 0x6C5E, 0x76AF, 0x868B, 0xB02B,
    0xCCD5, 0xDD82, 0xFE47, 0x9471, 0xACE4, 0xA554, 0x2123, 0x346F, 0x4415, 0x57B2, 0x9ECF,
    0xF0CB, 0x08AE, 0x0929, 0x1875, 0x04FF, 0x0DF6, 0x1C5A, 0x1718, 0x2A28, 0x328C, 0x38B2,
    0x24E8, 0x2EEB, 0x2D3F, 0x4B64, 0x502E, 0x5013,
)
"""The 16 data bits of each id (the index), row by row from the top left, the first bit the
highest; 1 = white, as OpenCV counts them."""


def marker_bits(aruco_id: int) -> tuple[tuple[bool, ...], ...]:
    """Rows of booleans, True = black, with the border; raises ValueError for a bad id."""
    if not 0 <= aruco_id < len(CODES):
        raise ValueError(f"ArUco id {aruco_id} outside {DICTIONARY_NAME} (0..{len(CODES) - 1});"
                         f" too many pages")
    code = CODES[aruco_id]
    inner = [[not code >> (DATA_SIDE * DATA_SIDE - 1 - DATA_SIDE * row - col) & 1
              for col in range(DATA_SIDE)] for row in range(DATA_SIDE)]
    border = (True,) * MODULES
    return (border, *((True, *row, True) for row in inner), border)
