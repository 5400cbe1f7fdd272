"""Geometry of the triangle page: the classic pulka drawing (Codex 4.2.1, 4.2.5).

3 players: a frame with a centre circle and three lines from it, to the two top corners and
down to the middle of the bottom edge: seat A writes along the left edge, B along the top, C
along the right (seats clockwise). 4 players: the frame's two diagonals make four triangles;
A at the bottom, then B left, C top, D right.

Each zone is built in its writer's own frame: ``u`` runs along the edge from the writer's left
to his right, ``v`` from the edge toward the centre, so every zone is the same problem turned by
its seat's rotation. From the edge inward a zone holds: the seat letter, the name and the
calibration strip (digits 0..9 written once), then the bands of Codex 4.2.1: whists (one
section per opponent, clockwise from the writer = left to right as he sees it), pool, mountain.
In each band, entries fill rows from left to right, the rows from the edge inward.

Entries per column: a pool to 20 takes at most 10 contracts (a six is worth 2) plus one-point
all-pass bonuses and help, so 12 pool entries of 2 digits; the mountain grows with every
all-pass (about one deal in four) as well as every contract down, so 20 entries (3 players) or
12 (4 players: the four triangles leave less room) of a sign and 3 digits; whists are written
on an opponent whenever he declares and this player defends (consolation, whists, talon prize,
help), so 16 entries (3 players) or 10 (4 players, three opponents share the room) of 3
digits. These are the most that fit Letter as well as A4 with cells of 4.5 x 6 mm. Checked
against 200 random games to 20 per variant and table size (``scoring.random_games``): a column
took 6-10 entries at the 95th percentile and 15 at most; totals reached 240 whists, 192
mountain (Leningrad) and 50 pool. A game that outgrows a column goes on a continuation sheet
(same layout; ``continuation`` 1 in the identity), where its entries continue.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from forms.geometry import constants as g
from forms.model import Box, CalibrationCell, Circle, EntryCell, Label, Line

ENTRIES = {
    3: {"whists": 16, "pool": 12, "mountain": 20},
    4: {"whists": 10, "pool": 12, "mountain": 12},
}
DIGITS = {"whists": 3, "pool": 2, "mountain": 3}
SIGNED = {"whists": False, "pool": False, "mountain": True}


class LayoutError(ValueError):
    """The constants do not let a zone hold its columns (a bug in the constants)."""


@dataclass(frozen=True)
class Edge:
    """A zone boundary ``u = a + b * v`` in the zone's own frame."""

    a: float
    b: float

    def at(self, v: float) -> float:
        """``u`` of the boundary at depth ``v``."""
        return self.a + self.b * v

    def clearance_u(self) -> float:
        """Offset along ``u`` that keeps a point LINE_CLEARANCE_MM away from the line."""
        return g.LINE_CLEARANCE_MM * math.sqrt(1 + self.b * self.b)


@dataclass(frozen=True)
class Zone:
    """One player's zone: seat, rotation, the frame, its left/right boundaries and depth."""

    page: int
    seat: str
    rotation: int
    frame: tuple[float, float, float, float]
    lo: Edge
    hi: Edge
    depth: float
    centre: tuple[float, float]

    def to_page(self, u: float, v: float) -> tuple[float, float]:
        """Page millimetres of the zone point (u, v)."""
        x0, y0, x1, y1 = self.frame
        return {0: (x0 + u, y1 - v), 180: (x1 - u, y0 + v),
                90: (x0 + v, y0 + u), 270: (x1 - v, y1 - u)}[self.rotation]

    def rect(self, u0: float, v0: float, u1: float, v1: float) -> tuple[float, ...]:
        """Return the page rectangle (x, y, w, h) of a zone rectangle."""
        (xa, ya), (xb, yb) = self.to_page(u0, v0), self.to_page(u1, v1)
        return (min(xa, xb), min(ya, yb), abs(xa - xb), abs(ya - yb))

    def span(self, v0: float, v1: float, f0: float = 0.0, f1: float = 1.0) -> tuple[float, float]:
        """Return the usable ``u`` interval of a row between depths v0 and v1.

        Only the part between the fractions f0 and f1 of the zone's width (the whist section
        dividers) counts, clear of every line.
        """
        lo, hi = _between(self.lo, self.hi, f0), _between(self.lo, self.hi, f1)
        umin = max(lo.at(v0), lo.at(v1)) + (lo.clearance_u() if f0 > 0 or lo.b else
                                            g.LINE_CLEARANCE_MM)
        umax = min(hi.at(v0), hi.at(v1)) - (hi.clearance_u() if f1 < 1 or hi.b else
                                            g.LINE_CLEARANCE_MM)
        return umin, umax


def _between(lo: Edge, hi: Edge, f: float) -> Edge:
    return Edge(lo.a + f * (hi.a - lo.a), lo.b + f * (hi.b - lo.b))


def frame_mm(page_w: float, page_h: float) -> tuple[float, float, float, float]:
    """Return the drawing's frame (x0, y0, x1, y1), inside the markers' rows."""
    top = g.PAGE_MARGIN_MM + g.MARKER_MM + g.MARKER_QUIET_MM
    side = g.PAGE_MARGIN_MM + 1.0
    return (side, top, page_w - side, page_h - top)


def zones(players: int, page: int, page_w: float, page_h: float) -> list[Zone]:
    """Return the players' zones of one triangle page, seats clockwise from A."""
    x0, y0, x1, y1 = frame = frame_mm(page_w, page_h)
    w, h = x1 - x0, y1 - y0
    if players == 4:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        k_bt, k_lr = (w / 2) / (h / 2), (h / 2) / (w / 2)
        specs = [("A", 0, w, k_bt, h / 2), ("B", 90, h, k_lr, w / 2),
                 ("C", 180, w, k_bt, h / 2), ("D", 270, h, k_lr, w / 2)]
        return [Zone(page, seat, rot, frame, Edge(0, k), Edge(base, -k), depth, (cx, cy))
                for seat, rot, base, k, depth in specs]
    cx, cy = (x0 + x1) / 2, y0 + g.THREE_PLAYER_CENTRE_Y_FRACTION * h
    cyl = cy - y0
    k_side = cyl / (w / 2)
    return [
        Zone(page, "A", 90, frame, Edge(0, k_side), Edge(h, 0), w / 2, (cx, cy)),
        Zone(page, "B", 180, frame, Edge(0, (w / 2) / cyl), Edge(w, -(w / 2) / cyl), cyl,
             (cx, cy)),
        Zone(page, "C", 270, frame, Edge(0, 0), Edge(h, -k_side), w / 2, (cx, cy)),
    ]


def frame_lines(players: int, page: int, page_w: float, page_h: float) -> list[Line]:
    """Return the frame, the zone lines from the corners (and the bottom middle) to the circle."""
    x0, y0, x1, y1 = frame_mm(page_w, page_h)
    zs = zones(players, page, page_w, page_h)
    cx, cy = zs[0].centre
    r = g.CENTRE_RADIUS_MM
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    lines = [Line(page, *corners[i], *corners[(i + 1) % 4], g.FRAME_LINE_MM) for i in range(4)]
    ends = [(x0, y0), (x1, y0)] + ([(x1, y1), (x0, y1)] if players == 4 else [(cx, y1)])
    for ex, ey in ends:
        d = math.hypot(ex - cx, ey - cy)
        lines.append(Line(page, cx + (ex - cx) * r / d, cy + (ey - cy) * r / d, ex, ey,
                          g.ZONE_LINE_MM))
    return lines


def centre_circle(page: int, zs: list[Zone]) -> Circle:
    """Return the centre circle (QR code, sheet id, terms)."""
    return Circle(page, zs[0].centre[0], zs[0].centre[1], g.CENTRE_RADIUS_MM, g.ZONE_LINE_MM)


def _clear_of_circle(zone: Zone, u0: float, v0: float, u1: float, v1: float) -> bool:
    x, y, w, h = zone.rect(u0, v0, u1, v1)
    cx, cy = zone.centre
    dx = max(x - cx, 0.0, cx - (x + w))
    dy = max(y - cy, 0.0, cy - (y + h))
    return math.hypot(dx, dy) >= g.CENTRE_RADIUS_MM + g.LINE_CLEARANCE_MM


class _ZoneBuilder:
    """Fills one zone from the edge inward; collects boxes, lines and labels."""

    def __init__(self, zone: Zone, players: int, seats: tuple[str, ...]) -> None:
        self.zone, self.players, self.seats = zone, players, seats
        self.v = 0.0
        self.boxes: list[Box] = []
        self.lines: list[Line] = []
        self.labels: list[Label] = []

    def label(self, u: float, v: float, key: str, size: float = g.LABEL_FONT_PT,
              literal: bool = False) -> None:
        x, y = self.zone.to_page(u, v)
        self.labels.append(Label(self.zone.page, x, y, self.zone.rotation, key, size, literal))

    def box(self, u0: float, v0: float, w: float, h: float, kind: str, meaning: object) -> None:
        x, y, bw, bh = self.zone.rect(u0, v0, u0 + w, v0 + h)
        self.boxes.append(Box(self.zone.page, round(x, 3), round(y, 3), round(bw, 3),
                              round(bh, 3), self.zone.rotation, kind, meaning))  # type: ignore[arg-type]

    def band_line(self, v: float, fractions: tuple[float, ...] = ()) -> None:
        z = self.zone
        u0 = z.lo.at(v) + z.lo.clearance_u() * 0.3
        u1 = z.hi.at(v) - z.hi.clearance_u() * 0.3
        if z.lo.b == 0:
            u0 = z.lo.at(v)
        if z.hi.b == 0:
            u1 = z.hi.at(v)
        (xa, ya), (xb, yb) = z.to_page(u0, v), z.to_page(u1, v)
        self.lines.append(Line(z.page, xa, ya, xb, yb, g.BAND_LINE_MM))

    def edge_row(self) -> None:
        """Seat letter and name, then the calibration strip (ten cells, 0..9)."""
        z = self.zone
        v0 = g.LINE_CLEARANCE_MM
        v1 = v0 + g.CELL_H_MM
        umin, umax = z.span(v0, v1 + g.LABEL_STRIP_MM)
        width = 10 * g.CELL_W_MM + 9 * 0.6
        start = umax - width
        self.label(umin + 1.0, v0 + 1.2, f"seat_name:{z.seat}", 9.0)
        x, y = z.to_page(start - 1.2, v0 + 2.0)
        self.labels.append(Label(z.page, x, y, z.rotation, "calibration_end", g.SMALL_FONT_PT,
                                 anchor="end"))
        for digit in range(10):
            u = start + digit * (g.CELL_W_MM + 0.6)
            self.box(u, v0, g.CELL_W_MM, g.CELL_H_MM, "digit", CalibrationCell(z.seat, digit))
            self.label(u + g.CELL_W_MM / 2 - 0.7, v1 + 0.9, str(digit), g.SMALL_FONT_PT,
                       literal=True)
        self.v = v1 + g.LABEL_STRIP_MM + g.BAND_GAP_MM
        self.band_line(self.v)

    def band(self, column: str, ons: tuple[str | None, ...]) -> None:
        """One band of Codex 4.2.1: label strip, then rows of entries, then its inner line."""
        z = self.zone
        n_entries = ENTRIES[self.players][column]
        cells = DIGITS[column] + (1 if SIGNED[column] else 0)
        entry_w = cells * g.CELL_W_MM
        pitch = entry_w + g.ENTRY_GAP_MM
        sections = len(ons)
        v_start = self.v
        placed = [0] * sections
        v = v_start + g.BAND_GAP_MM + g.LABEL_STRIP_MM
        for s, on in enumerate(ons):
            umin, _ = z.span(v_start, v, s / sections, (s + 1) / sections)
            key = f"whists_on:{on}" if on else column
            self.label(umin + 0.5, v_start + g.BAND_GAP_MM + 0.8, key)
        while min(placed) < n_entries:
            v0, v1 = v, v + g.CELL_H_MM
            if v1 > z.depth - g.LINE_CLEARANCE_MM:
                raise LayoutError(f"zone {z.seat}: no room for the {column} column "
                                  f"({min(placed)} of {n_entries} entries placed)")
            any_slot = False
            for s, on in enumerate(ons):
                umin, umax = z.span(v0, v1, s / sections, (s + 1) / sections)
                slots = int((umax - umin + g.ENTRY_GAP_MM) // pitch)
                slots = min(slots, n_entries - placed[s])
                if slots <= 0:
                    continue
                used = slots * pitch - g.ENTRY_GAP_MM
                u = umin + (umax - umin - used) / 2
                for _ in range(slots):
                    if _clear_of_circle(z, u, v0, u + entry_w, v1):
                        self._entry(u, v0, column, on, placed[s])
                        placed[s] += 1
                        any_slot = True
                    u += pitch
            if not any_slot and placed and min(placed) < n_entries and v1 > z.depth / 2:
                raise LayoutError(f"zone {z.seat}: no room for the {column} column")
            v = v1 + g.ROW_GAP_MM
        self.v = v - g.ROW_GAP_MM + g.LINE_CLEARANCE_MM
        fractions = tuple(s / sections for s in range(1, sections))
        for f in fractions:
            edge = _between(z.lo, z.hi, f)
            (xa, ya), (xb, yb) = z.to_page(edge.at(v_start), v_start), z.to_page(edge.at(self.v),
                                                                                   self.v)
            self.lines.append(Line(z.page, xa, ya, xb, yb, g.BAND_LINE_MM))
        if column != "mountain":
            self.band_line(self.v)

    def _entry(self, u: float, v0: float, column: str, on: str | None, entry: int) -> None:
        position = 0
        if SIGNED[column]:
            self.box(u, v0, g.CELL_W_MM, g.CELL_H_MM, "sign",
                     EntryCell(self.zone.seat, column, on, entry, 0))  # type: ignore[arg-type]
            u += g.CELL_W_MM
            position = 1
        for d in range(DIGITS[column]):
            self.box(u + d * g.CELL_W_MM, v0, g.CELL_W_MM, g.CELL_H_MM, "digit",
                     EntryCell(self.zone.seat, column, on, entry, position + d))  # type: ignore[arg-type]


def opponents_clockwise(seat: str, seats: tuple[str, ...]) -> tuple[str, ...]:
    """Return the other seats, clockwise from ``seat`` (= left to right as the writer sees them)."""
    i = seats.index(seat)
    return tuple(seats[(i + k) % len(seats)] for k in range(1, len(seats)))


def build_triangle_page(players: int, page: int, page_w: float,
                        page_h: float) -> tuple[list[Box], list[Line], list[Circle], list[Label]]:
    """Boxes, lines, the circle and the labels of one triangle page."""
    seats = tuple("ABCD"[:players])
    zs = zones(players, page, page_w, page_h)
    boxes: list[Box] = []
    lines = frame_lines(players, page, page_w, page_h)
    labels: list[Label] = []
    for zone in zs:
        builder = _ZoneBuilder(zone, players, seats)
        builder.edge_row()
        builder.band("whists", opponents_clockwise(zone.seat, seats))
        builder.band("pool", (None,))
        builder.band("mountain", (None,))
        boxes += builder.boxes
        lines += builder.lines
        labels += builder.labels
    return boxes, lines, [centre_circle(page, zs)], labels
