"""The sheet for the day (layout 2 on): what a tournament sheet prints besides the fields.

On the triangle page, below the frame: a box per player for the final result (Codex 4.1.3:
tournaments rank by whists), written by the judge, the judge's signature line, and a
signature line per player. On each deal page: the players' names by seat in the header, and
a short instruction beside the rows (one digit per box, right-aligned; the mountain's minus in
its tinted sign box; a wrong total is followed by the right one, never crossed out, Codex
4.2.7-4.2.9; hand in every page). None of this is a field the scanner reads: the result boxes
are :class:`~forms.model.ResultBox`, not writing boxes.
"""

from __future__ import annotations

from forms.geometry import constants as g
from forms.geometry import deal_column
from forms.model import Label, Line, ResultBox


def _left_mm() -> float:
    """X where text starts beside the left markers."""
    return g.PAGE_MARGIN_MM + g.MARKER_MM + g.MARKER_QUIET_MM + 1.0


def triangle_footer(players: int, page: int, page_w: float,
                    page_h: float) -> tuple[list[ResultBox], list[Line], list[Label]]:
    """Result boxes, the judge's line and the players' signature lines under the frame."""
    seats = "ABCD"[:players]
    left, right = _left_mm(), page_w - _left_mm()
    frame_bottom = page_h - (g.PAGE_MARGIN_MM + g.MARKER_MM + g.MARKER_QUIET_MM)
    top = frame_bottom + g.FRAME_LINE_MM / 2 + g.LINE_CLEARANCE_MM
    text_y = top + g.RESULT_BOX_H_MM - 1.2
    boxes: list[ResultBox] = []
    labels = [Label(page, left, text_y, 0, "results_title", g.LABEL_MIN_PT)]
    for i, seat in enumerate(seats):
        x = left + g.RESULT_TITLE_W_MM + i * g.RESULT_PITCH_MM
        labels.append(Label(page, x, text_y, 0, seat, g.LABEL_MIN_PT, literal=True))
        boxes.append(ResultBox(page, seat, round(x + 3.5, 3), round(top, 3), g.RESULT_BOX_W_MM,
                               g.RESULT_BOX_H_MM))
    judge_x = right - g.JUDGE_LINE_MM
    line_y = top + g.RESULT_BOX_H_MM
    labels.append(Label(page, judge_x - 1.5, text_y, 0, "judge", g.LABEL_MIN_PT, anchor="end"))
    lines = [Line(page, judge_x, line_y, right, line_y, g.SIGNATURE_LINE_W_MM)]
    sign_y = page_h - g.FOOTER_BASELINE_MM
    labels.append(Label(page, left, sign_y, 0, "signatures_title", g.LABEL_MIN_PT))
    start = left + g.SIGNATURE_TITLE_W_MM
    pitch = (right - start) / players
    for i, seat in enumerate(seats):
        x = start + i * pitch
        labels.append(Label(page, x, sign_y, 0, seat, g.LABEL_MIN_PT, literal=True))
        lines.append(Line(page, x + 3.5, sign_y + 0.6, x + pitch - 3.0, sign_y + 0.6,
                          g.SIGNATURE_LINE_W_MM))
    return boxes, lines, labels


def deal_page_labels(players: int, talon: bool, page: int, page_w: float) -> list[Label]:
    """The names by seat in the header, and the instruction to the right of the rows."""
    x = deal_column.right_mm(players, talon) + 4.0
    qr_left = page_w - g.PAGE_MARGIN_MM - g.QR_MM
    names = Label(page, g.NAMES_X_MM, g.PAGE_MARGIN_MM + 4.2, 0, "seat_names", g.NAMES_FONT_PT,
                  width_mm=round(qr_left - 3.0 - g.NAMES_X_MM, 3))
    instruction = Label(page, round(x, 3), g.INSTRUCTION_TOP_MM, 0, "instructions",
                        g.LABEL_MIN_PT, width_mm=round(page_w - g.PAGE_MARGIN_MM - x, 3))
    return [names, instruction]
