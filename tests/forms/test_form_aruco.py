"""The ArUco codes printed on the sheets are OpenCV's DICT_4X4_50, module for module, and
printing needs no OpenCV."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from forms.aruco import CODES, MODULES, marker_bits


@pytest.mark.parametrize("aruco_id", range(len(CODES)))
def test_codes_are_opencvs_dictionary(aruco_id: int) -> None:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    image = np.asarray(dictionary.generateImageMarker(aruco_id, MODULES))
    assert marker_bits(aruco_id) == tuple(tuple(bool(v < 128) for v in row) for row in image)


def test_the_dictionary_is_whole_and_ids_past_it_are_refused() -> None:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    assert len(CODES) == dictionary.bytesList.shape[0]
    with pytest.raises(ValueError, match="ArUco id 50 outside DICT_4X4_50"):
        marker_bits(50)


def test_printing_a_sheet_loads_no_opencv() -> None:
    code = ("import sys\n"
            "from forms.identity import SheetIdentity\n"
            "from forms.layout import build_layout\n"
            "from forms.render.sheet import SheetRequest, render_pdf_bytes\n"
            "from scoring.rules import RuleSet\n"
            "layout, rules = build_layout(4), RuleSet.preset('sochi', 4, 20)\n"
            "identity = SheetIdentity('S-ABC', '', None, None, 0, 0, layout.id, rules.id,\n"
            "                         rules.settings(), layout.seats, ('Иванова',) * 4, '')\n"
            "pdf = render_pdf_bytes([SheetRequest(layout, identity, 'ru')])\n"
            "assert pdf.startswith(b'%PDF')\n"
            "print('cv2' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).parents[2])
    assert done.stdout.strip() == "False", done.stderr
