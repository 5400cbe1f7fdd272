"""Sizes and colours of the audit report, in one place (units in the names)."""

from __future__ import annotations

PAGE_DPI = 100
"""Resolution of the reference copy and the as-written copy (the scan keeps 100 dpi too)."""
PAGE_PNG_COLOURS = 48
"""Palette size of the computer-filled page images (line art; keeps the report small)."""
SCAN_JPEG_QUALITY = 82
"""Scanned pages are photographs of paper: JPEG at this quality."""
CROP_MARGIN_MM = 2.0
"""Paper kept around a cell when its ink is cut from the page."""
CROP_HEIGHT_PX = 72
"""Height an ink crop is shown at."""
WIDE_CROP_RATIO = 4.0
"""A crop this many times wider than tall (a deal row's) is shown across the whole doubts
table, on a row of its own under its cell's line, not squeezed into the ink column."""

FINDING_RGB = (0.80, 0.10, 0.10)
"""Outline of a player error (a finding)."""
DOUBT_RGB = (0.90, 0.55, 0.00)
"""Outline of a scan doubt."""
OUTLINE_MM = 0.6
"""Line width of the outlines, on the page."""
OUTLINE_PAD_MM = 0.8
"""Outlines stand this far outside the cells they mark."""


def css_rgb(rgb: tuple[float, float, float]) -> str:
    """``#cc1a1a`` from a ReportLab-style (0..1) colour."""
    return "#" + "".join(f"{round(c * 255):02x}" for c in rgb)
