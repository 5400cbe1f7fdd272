"""Geometry of the contract/result pages: one row per deal (Codex 4.2.11).

The pages are landscape. Each row: the printed deal number and dealer (play rotates clockwise
from seat A, RECORD.md); the declarer (a mark per seat, or all-pass); the level (6..10 or
misère); the suit (♠ ♣ ♦ ♥ or no-trump, Codex order); each seat's call (whist, pass,
half-whist: the declarer and the 4-player dealer leave theirs empty); the tricks each seat took
(two digit cells); the talon's quick tricks (one digit cell, only when the rules have a talon
prize); the result in the Codex form: a mark for ``=``, ``-`` or ``+`` and two digit cells for
the number of tricks. Choices are marks (a cross; a filled box cancels a cross); numbers are
digits in cells. A printed specimen row, under the column titles, shows how to fill a row.

Every other block of five rows has a light tint of the drop-out colour, to guide the eye
without a line near the cells. Rows: as many as fit a page between the column titles and the
bottom markers (22 on A4 and on Letter), on as many pages as make at least ``DEAL_ROWS_MIN``
(40) rows: 44. Random games of ``scoring.random_games`` to a pool of 20 last 21 deals (median)
and 28 (95th percentile) with 3 players, 28 and 37 with 4 (at most 43 in 200 games); a game
with more deals goes on the continuation sheet, whose rows continue the numbering.
"""

from __future__ import annotations

from dataclasses import dataclass

from forms.geometry import constants as g
from forms.model import Box, DealCell, Label, Line

LEVELS = ("6", "7", "8", "9", "10", "misere")
SUITS = ("S", "C", "D", "H", "NT")
CALLS = ("whist", "pass", "halfwhist")
RESULTS = ("=", "-", "+")
TRICK_DIGITS = 2
RESULT_DIGITS = 2


@dataclass(frozen=True)
class Slot:
    """One box of a row, relative to the row: x offset, kind, field and option."""

    dx_mm: float
    kind: str
    field: str
    option: str
    group: str


@dataclass(frozen=True)
class Group:
    """A titled group of slots (declarer, level, ...): its x range and its title key."""

    key: str
    x0_mm: float
    x1_mm: float
    sub: str = ""
    """A seat for the per-seat groups (calls, tricks)."""


def row_slots(players: int, talon: bool) -> tuple[list[Slot], list[Group], float]:
    """Return the slots of one row, its groups, and the row's width, from the row's left edge."""
    seats = "ABCD"[:players]
    x = g.DEAL_NUMBER_W_MM + g.DEAL_DEALER_W_MM + g.DEAL_GROUP_GAP_MM
    slots: list[Slot] = []
    groups: list[Group] = []

    def marks(key: str, fld: str, options: tuple[str, ...], sub: str = "") -> None:
        nonlocal x
        start = x
        for opt in options:
            option = f"{sub}:{opt}" if sub else opt
            slots.append(Slot(x, "mark", fld, option, key))
            x += g.MARK_PITCH_MM
        groups.append(Group(key, start, x - (g.MARK_PITCH_MM - g.MARK_MM), sub))
        x += g.DEAL_GROUP_GAP_MM - (g.MARK_PITCH_MM - g.MARK_MM)

    def digits(key: str, fld: str, n: int, sub: str = "") -> None:
        nonlocal x
        start = x
        for pos in range(n):
            slots.append(Slot(x, "digit", fld, f"{sub}:{pos}" if sub else str(pos), key))
            x += g.CELL_W_MM
        groups.append(Group(key, start, x, sub))
        x += g.DEAL_GROUP_GAP_MM

    marks("declarer", "declarer", tuple(seats) + ("allpass",))
    marks("level", "level", LEVELS)
    marks("suit", "suit", SUITS)
    for seat in seats:
        marks("call", "call", CALLS, seat)
    for seat in seats:
        digits("tricks", "tricks", TRICK_DIGITS, seat)
    if talon:
        digits("talon", "talon", 1)
    marks("result", "result", RESULTS)
    x -= g.DEAL_GROUP_GAP_MM - 1.0
    digits("result_tricks", "result_tricks", RESULT_DIGITS)
    return slots, groups, x - g.DEAL_GROUP_GAP_MM


def rows_top_mm() -> float:
    """Y of the first deal row: below the markers, the column titles and the specimen row."""
    return (g.PAGE_MARGIN_MM + g.MARKER_MM + g.MARKER_QUIET_MM + g.DEAL_HEADER_H_MM
            + g.DEAL_ROW_PITCH_MM + 2.0)


def rows_per_page(page_h: float) -> int:
    """How many deal rows fit above the bottom markers."""
    bottom = page_h - (g.PAGE_MARGIN_MM + g.MARKER_MM + g.MARKER_QUIET_MM)
    return int((bottom - rows_top_mm()) // g.DEAL_ROW_PITCH_MM)


def left_mm() -> float:
    """X of the rows' left edge."""
    return g.PAGE_MARGIN_MM + 1.0


def right_mm(players: int, talon: bool) -> float:
    """X of the rows' right edge."""
    return left_mm() + row_slots(players, talon)[2]


TRICKS_GROUPS = ("tricks", "talon")
"""Groups that share one title from layout 2 on, with no separator line between them."""


def build_deal_page(players: int, talon: bool, page: int, first_row: int, rows: int,
                    page_w: float, tricks_once: bool = False
                    ) -> tuple[list[Box], list[Line], list[Label]]:
    """Boxes, ruling lines and labels of one deal page with ``rows`` rows (``tricks_once``: as
    :func:`header_labels`)."""
    slots, groups, width = row_slots(players, talon)
    x0 = left_mm()
    top = rows_top_mm()
    boxes: list[Box] = []
    lines: list[Line] = []
    labels: list[Label] = []
    pitch = g.DEAL_ROW_PITCH_MM
    for r in range(rows):
        y = top + r * pitch
        row = first_row + r
        labels.append(Label(page, x0 + g.DEAL_NUMBER_W_MM - 1.0, y + 4.4, 0, str(row + 1), 8.0,
                            literal=True, anchor="end"))
        labels.append(Label(page, x0 + g.DEAL_NUMBER_W_MM + g.DEAL_DEALER_W_MM / 2, y + 4.4, 0,
                            "ABCD"[row % players], 8.0, literal=True, anchor="middle"))
        for s in slots:
            if s.kind == "mark":
                off = (g.CELL_H_MM - g.MARK_MM) / 2
                boxes.append(Box(page, round(x0 + s.dx_mm, 3), round(y + off, 3), g.MARK_MM,
                                 g.MARK_MM, 0, "mark", DealCell(row, s.field, s.option)))
            else:
                boxes.append(Box(page, round(x0 + s.dx_mm, 3), round(y, 3), g.CELL_W_MM,
                                 g.CELL_H_MM, 0, "digit", DealCell(row, s.field, s.option)))
    # group separators: vertical lines in the gaps between groups
    y_a = top - g.DEAL_ROW_PITCH_MM - g.DEAL_HEADER_H_MM + 1.0
    y_b = top + rows * pitch - (pitch - g.CELL_H_MM) / 2
    seps = sorted({grp.x0_mm for grp in groups if grp.key != "result_tricks"})[1:]
    for sx in seps:
        prev = max(grp.x1_mm for grp in groups if grp.x1_mm <= sx)
        sides = {grp.key for grp in groups if grp.x0_mm == sx or grp.x1_mm == prev}
        if tricks_once and sides <= set(TRICKS_GROUPS):
            continue
        xm = x0 + (prev + sx) / 2
        lines.append(Line(page, xm, y_a, xm, y_b, 0.25))
    lines.append(Line(page, x0, top - 1.3, x0 + width, top - 1.3, 0.35))
    return boxes, lines, labels


def header_labels(players: int, talon: bool, page: int, tricks_once: bool = False) -> list[Label]:
    """Column titles (group key) and option labels above the boxes.

    ``tricks_once`` (layout 2 on) titles the tricks groups once, with each seat's letter
    above its two cells, so the titles stay apart at a legible size.
    """
    slots, groups, _ = row_slots(players, talon)
    x0 = left_mm()
    top = rows_top_mm()
    y_title = top - g.DEAL_ROW_PITCH_MM - g.DEAL_HEADER_H_MM + 4.0
    y_opt = top - g.DEAL_ROW_PITCH_MM - 1.6
    out = [Label(page, x0, y_title, 0, "deal_no", g.SMALL_FONT_PT),
           Label(page, x0, y_opt, 0, "dealer", g.SMALL_FONT_PT)]
    seen: set[tuple[str, str]] = set()
    for grp in groups:
        key = (grp.key, grp.sub)
        if grp.key == "tricks" and tricks_once:
            out.append(Label(page, x0 + (grp.x0_mm + grp.x1_mm) / 2, y_opt, 0, grp.sub,
                             g.SMALL_FONT_PT, literal=True, anchor="middle"))
            key = (grp.key, "")
            tricks = [t for t in groups if t.key == "tricks"]
            centre = (tricks[0].x0_mm + tricks[-1].x1_mm) / 2
        else:
            centre = (grp.x0_mm + grp.x1_mm) / 2
        text = f"{grp.key}_seat:{grp.sub}" if grp.key in ("call", "tricks") and key[1] else grp.key
        if key not in seen:
            seen.add(key)
            if grp.key == "talon" and tricks_once:  # wider than its cell: ends at its edge
                out.append(Label(page, x0 + grp.x1_mm + 0.5, y_title, 0, text,
                                 g.SMALL_FONT_PT, anchor="end"))
                continue
            out.append(Label(page, x0 + centre, y_title, 0, text, g.SMALL_FONT_PT,
                             anchor="middle"))
    for s in slots:
        if s.kind == "mark":
            opt = s.option.split(":")[-1]
            seat = s.field == "declarer" and opt in "ABCD"
            out.append(Label(page, x0 + s.dx_mm + g.MARK_MM / 2, y_opt, 0,
                             opt if seat else f"opt:{opt}", g.SMALL_FONT_PT, literal=seat,
                             anchor="middle"))
    return out


def specimen_values(players: int, talon: bool) -> dict[tuple[str, str], str]:
    """Return the values of the printed example row, by (field, option).

    B declares 6♠, C whists, A passes (3 players; with 4, A deals and sits out, C whists, D
    passes); B takes 6, C 3, the other 1: made exactly, ``=``.
    """
    values = {("declarer", "B"): "x", ("level", "6"): "x", ("suit", "S"): "x",
              ("call", "C:whist"): "x", ("result", "="): "x",
              ("tricks", "B:1"): "6", ("tricks", "C:1"): "3"}
    passer = "A" if players == 3 else "D"
    values[("call", f"{passer}:pass")] = "x"
    values[("tricks", f"{passer}:1")] = "1"
    if talon:
        values[("talon", "0")] = "0"
    return values
