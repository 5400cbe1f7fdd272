"""Every size of the printed sheet, in millimetres unless the name says otherwise.

Coordinates on a page have their origin at the page's top-left corner, x to the right and y
*down*, in millimetres (the scanner's image convention, not PDF's).
"""

from __future__ import annotations

PAPER_SIZES_MM = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}

# --- writing cells (issue: at least 4.5 mm wide and 6 mm tall) -----------------------------
CELL_W_MM = 4.5
CELL_H_MM = 6.0
CELL_MIN_W_MM = 4.5
CELL_MIN_H_MM = 6.0
MARK_MM = 4.2
"""Side of a square mark box (a choice: cross or fill it)."""
MARK_PITCH_MM = 5.0
ENTRY_GAP_MM = 1.2
"""Gap between two entries (groups of digit cells) of one column, along the row."""
ROW_GAP_MM = 0.8
"""Gap between two rows of entries."""
CELL_BORDER_MM = 0.25
"""Line width of a cell border."""

# --- lines, clearances ----------------------------------------------------------------------
LINE_CLEARANCE_MM = 1.4
"""No printed line's centre comes closer than this to a writing box (tests check that the ink
stays >= 1 mm away, so a 0.6 mm frame line needs 1.3 mm): a line through a cell is misread
as a stroke."""
FRAME_LINE_MM = 0.6
ZONE_LINE_MM = 0.45
BAND_LINE_MM = 0.3

# --- page furniture ---------------------------------------------------------------------------
PAGE_MARGIN_MM = 5.0
"""Distance from the paper edge to the fiducial markers (printers lose about 4 mm)."""
MARKER_MM = 11.0
"""Side of an ArUco marker, its black border included (6 x 6 modules of DICT_4X4_50)."""
MARKER_QUIET_MM = 2.0
"""White space kept around each marker."""
QR_MM = 24.0
"""Side of the QR code including its 4-module quiet zone."""
SHEET_ID_TEXT_H_MM = 4.0
LABEL_STRIP_MM = 2.6
"""Depth of the strip that carries a band's label (висты / пуля / гора)."""
LABEL_FONT_PT = 6.5
SMALL_FONT_PT = 5.5
LABEL_MIN_PT = 7.0
"""Smallest printed label from layout 2 on (the terms in the centre circle excepted): legible
on an office laser print."""
NAMES_FONT_PT = 8.0
"""The players' names in a deal page's header (layout 2 on)."""

# --- the day's furniture (layout 2 on): result boxes, signatures, instruction -------------------
RESULT_BOX_W_MM = 17.0
RESULT_BOX_H_MM = 5.0
RESULT_TITLE_W_MM = 26.0
"""Room for the words before the result boxes ("Підсумок (суддя):")."""
RESULT_PITCH_MM = 24.0
"""From one seat's result box to the next: the seat letter, the box, a gap."""
JUDGE_LINE_MM = 36.0
SIGNATURE_LINE_W_MM = 0.2
SIGNATURE_TITLE_W_MM = 16.0
FOOTER_BASELINE_MM = 6.3
"""Height of the signature row's baseline above the page's bottom edge."""
INSTRUCTION_TOP_MM = 68.0
"""Baseline of the instruction's first line on a deal page, below the marks legend."""
NAMES_X_MM = 130.0
"""Left edge of the names in a deal page's header, right of the title."""

# --- triangle page -----------------------------------------------------------------------------
CENTRE_RADIUS_MM = 28.0
"""Radius of the centre circle, holding the QR code, the sheet id and the terms."""
THREE_PLAYER_CENTRE_Y_FRACTION = 0.55
"""Height of the centre of the 3-player drawing, as a fraction of the frame's height."""
BAND_GAP_MM = 0.9
"""Space between a band line and the nearest row of cells."""

# --- deal column page ---------------------------------------------------------------------------
DEAL_ROWS_MIN = 40
DEAL_ROW_PITCH_MM = 7.0
DEAL_HEADER_H_MM = 11.0
DEAL_GROUP_GAP_MM = 2.4
DEAL_NUMBER_W_MM = 7.0
DEAL_DEALER_W_MM = 5.0

# --- colours (RGB 0..1) --------------------------------------------------------------------------
DROPOUT_RGB = (0.96, 0.55, 0.55)
"""Cell borders: a light red. A colour scan's red channel sees it as nearly white (245 of
255) so the scanner removes it; its luminance (about 0.68) still prints as a visible grey
line on a black-and-white laser printer, which the scanner must handle by geometry."""
INK_RGB = (0.0, 0.0, 0.0)
LINE_RGB = (0.15, 0.15, 0.15)
LABEL_RGB = (0.3, 0.3, 0.3)
FILL_INK_RGB = (0.05, 0.1, 0.55)
"""The 'clean computer hand' of a filled reference sheet: a dark blue, like a ballpoint."""
SIGN_TINT_RGB = (1.0, 0.9, 0.9)
"""Background of a sign cell: red channel 255, so a colour scan drops it entirely."""
ROW_TINT_RGB = (1.0, 0.94, 0.94)
"""Background of every other block of five deal rows; red channel 255 like the sign tint."""
