"""The whole sheet as data: :func:`build_layout` and what the scanner looks up in it.

A sheet is one portrait triangle page (page 0, :mod:`forms.geometry.triangle`) followed by landscape
contract/result pages (:mod:`forms.geometry.deal_column`). Every page carries four ArUco markers
(DICT_4X4_50, ``id = 4 * page + corner``, corners clockwise from top-left), a QR code with the
sheet identity (:mod:`forms.identity`) and the sheet id as text beside it. The layout id is the
first 10 hex digits of SHA-256 over the geometry (pages, boxes and their meanings, markers, QR
and text regions, lines), so a scan always finds the exact layout that printed it (as SDAPS
does). Units are millimetres from the page's top-left corner, y down (:mod:`forms.model`).

>>> layout = build_layout(3)
>>> [p.kind for p in layout.pages]
['triangle', 'deals', 'deals']
>>> layout.id == build_layout(3, "A4").id != build_layout(4).id
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from forms.geometry import constants as g
from forms.geometry import deal_column, furniture, triangle
from forms.model import (
    Box,
    CalibrationCell,
    Circle,
    ColumnKind,
    DealCell,
    EntryCell,
    Label,
    Layout,
    Line,
    Marker,
    Page,
    Region,
    ResultBox,
)

LAYOUT_FORMAT = "pulka-layout/1"
LAYOUT_VERSIONS = (1, 2)
"""Every layout this pulka prints or reads; a scan finds its own by id (:func:`layout_by_id`)."""
LAYOUT_VERSION = 2
"""The layout new sheets are printed with."""
PAPERS = tuple(g.PAPER_SIZES_MM)


def default_talon(players: int) -> bool:
    """Whether the preset rules have a talon prize (RULES.md §3: on for 4 players)."""
    return players == 4


def _markers(page: int, w: float, h: float) -> list[Marker]:
    m, s = g.PAGE_MARGIN_MM, g.MARKER_MM
    corners = [(m, m), (w - m - s, m), (w - m - s, h - m - s), (m, h - m - s)]
    return [Marker(page, 4 * page + c, c, x, y, s) for c, (x, y) in enumerate(corners)]


def _header_labels(page: int, w: float, kind: str) -> list[Label]:
    left = g.PAGE_MARGIN_MM + g.MARKER_MM + g.MARKER_QUIET_MM + 1.0
    y = g.PAGE_MARGIN_MM + 4.2
    return [Label(page, left, y, 0, f"title_{kind}", 9.0),
            Label(page, left, y + 5.0, 0, "header_fields", 7.0)]


def build_layout(players: int, paper: str = "A4", talon: bool | None = None,
                 version: int = LAYOUT_VERSION) -> Layout:
    """Return the layout of a sheet for 3 or 4 players on A4 or Letter paper (one object per
    combination).

    ``talon`` adds the talon quick-tricks cell to each deal row (the rules' ``talon_prize``);
    by default it follows the preset (on for 4 players). ``version`` 1 is the sheet before the
    day's furniture (:mod:`forms.geometry.furniture`); its sheets still read.
    """
    if players not in (3, 4):
        raise ValueError(f"players must be 3 or 4, not {players!r}")
    if paper not in g.PAPER_SIZES_MM:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}, not {paper!r}")
    if version not in LAYOUT_VERSIONS:
        raise ValueError(f"layout version must be one of {LAYOUT_VERSIONS}, not {version!r}")
    return _build(players, paper, default_talon(players) if talon is None else talon, version)


@lru_cache(maxsize=32)
def _build(players: int, paper: str, talon: bool, version: int) -> Layout:
    pw, ph = g.PAPER_SIZES_MM[paper]
    parts = _Parts()
    _triangle(parts, players, pw, ph, version)
    per_page = deal_column.rows_per_page(pw)  # the deal pages are landscape
    n_pages = -(-g.DEAL_ROWS_MIN // per_page)
    for k in range(n_pages):
        _deal_page(parts, players, talon, 1 + k, k * per_page, per_page, version)
    labels = parts.labels
    if version >= 2:
        labels = [lb if lb.key == "terms" else
                  dataclasses.replace(lb, size_pt=max(lb.size_pt, g.LABEL_MIN_PT))
                  for lb in labels]
    layout = Layout(
        players=players, paper=paper, talon=talon, seats=tuple("ABCD"[:players]),
        pages=tuple(parts.pages), boxes=tuple(parts.boxes), markers=tuple(parts.markers),
        qr=tuple(parts.qr), sheet_id_text=tuple(parts.id_text), lines=tuple(parts.lines),
        circles=tuple(parts.circles), labels=tuple(labels),
        counts=_counts(players, per_page * n_pages), version=version,
        result_boxes=tuple(parts.result_boxes))
    return dataclasses.replace(layout, id=_geometry_hash(layout))


@dataclasses.dataclass
class _Parts:
    """What :func:`build_layout` collects, page by page."""

    pages: list[Page] = dataclasses.field(default_factory=list)
    boxes: list[Box] = dataclasses.field(default_factory=list)
    markers: list[Marker] = dataclasses.field(default_factory=list)
    qr: list[Region] = dataclasses.field(default_factory=list)
    id_text: list[Region] = dataclasses.field(default_factory=list)
    lines: list[Line] = dataclasses.field(default_factory=list)
    circles: list[Circle] = dataclasses.field(default_factory=list)
    labels: list[Label] = dataclasses.field(default_factory=list)
    result_boxes: list[ResultBox] = dataclasses.field(default_factory=list)


def _triangle(parts: _Parts, players: int, pw: float, ph: float, version: int) -> None:
    """Page 0: the drawing, the QR and sheet id in the centre circle, header and footer."""
    parts.pages.append(Page(0, "triangle", pw, ph))
    boxes, lines, circles, labels = triangle.build_triangle_page(players, 0, pw, ph)
    parts.boxes += boxes
    parts.lines += lines
    parts.circles += circles
    parts.markers += _markers(0, pw, ph)
    cx, cy = circles[0].cx_mm, circles[0].cy_mm
    q = g.QR_MM
    parts.qr.append(Region(0, round(cx - q / 2, 3), round(cy - q / 2 + 2.0, 3), q, q))
    parts.id_text.append(Region(0, round(cx - 16.0, 3), round(cy + q / 2 + 2.6, 3), 32.0,
                                g.SHEET_ID_TEXT_H_MM))
    labels += _header_labels(0, pw, "triangle")
    labels.append(Label(0, cx, cy - q / 2 - 1.4, 0, "terms", 5.6, anchor="middle"))
    if version >= 2:
        result_boxes, footer_lines, footer_labels = furniture.triangle_footer(players, 0, pw, ph)
        parts.result_boxes += result_boxes
        parts.lines += footer_lines
        labels += footer_labels
    else:
        foot_y = ph - g.PAGE_MARGIN_MM - 3.0
        labels.append(Label(0, g.PAGE_MARGIN_MM + g.MARKER_MM + g.MARKER_QUIET_MM + 1.0,
                            foot_y, 0, "signatures", 7.0))
    parts.labels += labels


def _deal_page(parts: _Parts, players: int, talon: bool, index: int, first: int, rows: int,
               version: int) -> None:
    """A contract/result page (landscape): rows, column titles, QR, sheet id, legend."""
    dw, dh = parts.pages[0].h_mm, parts.pages[0].w_mm
    parts.pages.append(Page(index, "deals", dw, dh, first))
    boxes, lines, labels = deal_column.build_deal_page(players, talon, index, first, rows, dw,
                                                       tricks_once=version >= 2)
    parts.boxes += boxes
    parts.lines += lines
    labels += deal_column.header_labels(players, talon, index, tricks_once=version >= 2)
    labels += _header_labels(index, dw, "deals")
    parts.markers += _markers(index, dw, dh)
    q = g.QR_MM
    top = g.PAGE_MARGIN_MM + g.MARKER_MM + g.MARKER_QUIET_MM
    qx = dw - g.PAGE_MARGIN_MM - q
    parts.qr.append(Region(index, round(qx, 3), top, q, q))
    parts.id_text.append(Region(index, round(qx, 3), top + q + 0.8, q, g.SHEET_ID_TEXT_H_MM))
    legend_x = qx - 4.0
    if version >= 2:  # on Letter with 4 players the rows reach under the QR code
        legend_x = max(legend_x, deal_column.right_mm(players, talon) + 2.0)
    labels.append(Label(index, legend_x, top + q + 8.0, 0, "legend", 6.0))
    if version >= 2:
        labels += furniture.deal_page_labels(players, talon, index, dw)
    parts.labels += labels


def _counts(players: int, deal_rows: int) -> dict[str, int]:
    counts = {f"{col}_entries": n for col, n in triangle.ENTRIES[players].items()}
    counts.update({f"{col}_digits": n for col, n in triangle.DIGITS.items()})
    counts["deal_rows"] = deal_rows
    return counts


def _geometry_hash(layout: Layout) -> str:
    doc = layout_to_json(layout, with_labels=False)
    doc.pop("id")
    canonical = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:10]


def layout_by_id(layout_id: str) -> Layout:
    """Return the layout with this id, among every players/paper/talon combination.

    Raises ``KeyError`` saying which ids this version of pulka knows.
    """
    known = []
    for layout in _every_layout():
        if layout.id == layout_id:
            return layout
        known.append(layout.id)
    raise KeyError(f"layout id {layout_id!r} is not one this version of pulka prints "
                   f"(known: {', '.join(sorted(known))}); print the sheet again or use "
                   f"the pulka version that printed it")


def _every_layout() -> Iterator[Layout]:
    """Every players/paper/talon/version combination's layout, built as it is reached (the
    current version and A4 first: a sheet's layout is found without building the rest)."""
    for version in sorted(LAYOUT_VERSIONS, reverse=True):
        for paper in PAPERS:
            for players in (3, 4):
                for talon in (default_talon(players), not default_talon(players)):
                    yield build_layout(players, paper, talon, version)


# --- JSON ---------------------------------------------------------------------------------------


def _meaning_json(meaning: EntryCell | CalibrationCell | DealCell) -> dict[str, Any]:
    kind = {EntryCell: "entry", CalibrationCell: "calibration", DealCell: "deal"}[type(meaning)]
    return {"type": kind, **{f.name: getattr(meaning, f.name) for f in dataclasses.fields(meaning)}}


def layout_to_json(layout: Layout, with_labels: bool = True) -> dict[str, Any]:
    """Return the layout as a JSON document (schema in ``forms/LAYOUT.md``)."""
    def rnd(d: dict[str, Any]) -> dict[str, Any]:
        return {k: round(v, 3) if isinstance(v, float) else v for k, v in d.items()}

    doc: dict[str, Any] = {
        "format": LAYOUT_FORMAT,
        "id": layout.id,
        "players": layout.players,
        "paper": layout.paper,
        "talon": layout.talon,
        "seats": list(layout.seats),
        "units": "mm, origin top-left of the page, y down",
        "counts": dict(layout.counts),
        "pages": [rnd(dataclasses.asdict(p)) for p in layout.pages],
        "markers": [rnd(dataclasses.asdict(m)) for m in layout.markers],
        "aruco_dictionary": "DICT_4X4_50",
        "qr": [rnd(dataclasses.asdict(r)) for r in layout.qr],
        "sheet_id_text": [rnd(dataclasses.asdict(r)) for r in layout.sheet_id_text],
        "boxes": [
            {"page": b.page, "x_mm": b.x_mm, "y_mm": b.y_mm, "w_mm": b.w_mm, "h_mm": b.h_mm,
             "rotation_deg": b.rotation_deg, "kind": b.kind,
             "meaning": _meaning_json(b.meaning)}
            for b in layout.boxes
        ],
        "lines": [rnd(dataclasses.asdict(ln)) for ln in layout.lines],
        "circles": [rnd(dataclasses.asdict(c)) for c in layout.circles],
    }
    if layout.version >= 2:  # layout 1's document (and so its id) stays as it was printed
        doc["version"] = layout.version
        doc["result_boxes"] = [rnd(dataclasses.asdict(b)) for b in layout.result_boxes]
    if with_labels:
        doc["labels"] = [rnd(dataclasses.asdict(lb)) for lb in layout.labels]
    return doc


# --- lookups the scanner needs -------------------------------------------------------------------

ColumnKey = tuple[str, ColumnKind, str | None]


_GROUPED_MAX = 64
"""Layouts whose entry cells :func:`entry_cells` keeps grouped (the layouts built are cached
too, :func:`_build`; past this many the groupings are made again)."""
_grouped: dict[int, tuple[Layout, dict[ColumnKey, tuple[tuple[Box, ...], ...]]]] = {}


def entry_cells(layout: Layout) -> dict[ColumnKey, list[tuple[Box, ...]]]:
    """Group the entry cells by column ``(seat, column, on)``.

    Each column is a list of entries in the order written, each the tuple of its boxes from
    the writer's left (the sign cell first). The grouping is worked out once per layout
    object; each call returns new lists of it.
    """
    known = _grouped.get(id(layout))
    if known is None or known[0] is not layout:
        grouped: dict[ColumnKey, dict[int, list[Box]]] = {}
        for box in layout.boxes:
            m = box.meaning
            if isinstance(m, EntryCell):
                grouped.setdefault((m.seat, m.column, m.on), {}).setdefault(m.entry,
                                                                            []).append(box)
        if len(_grouped) >= _GROUPED_MAX:
            _grouped.clear()
        known = _grouped[id(layout)] = (layout, {
            key: tuple(tuple(sorted(entries[e],
                                    key=lambda b: b.meaning.position))  # type: ignore[union-attr]
                       for e in sorted(entries))
            for key, entries in grouped.items()})
    return {key: list(column) for key, column in known[1].items()}


def calibration_cells(layout: Layout, seat: str) -> tuple[Box, ...]:
    """Return the ten calibration cells of a seat, digit 0 first."""
    cells = [b for b in layout.boxes
             if isinstance(b.meaning, CalibrationCell) and b.meaning.seat == seat]
    return tuple(sorted(cells, key=lambda b: b.meaning.digit))  # type: ignore[union-attr]


def deal_row_boxes(layout: Layout, row: int) -> tuple[Box, ...]:
    """Every box of one deal row."""
    return tuple(b for b in layout.boxes
                 if isinstance(b.meaning, DealCell) and b.meaning.row == row)


# --- millimetres to pixels ------------------------------------------------------------


def mm_to_px(mm: float, dpi: float) -> float:
    """Millimetres on paper to pixels of an image rendered at ``dpi``.

    >>> mm_to_px(25.4, 300)
    300.0
    """
    return mm * dpi / 25.4


def box_rect_px(box: Box | Region | Marker, dpi: float) -> tuple[int, int, int, int]:
    """Return a box's rectangle ``(x0, y0, x1, y1)`` in page pixels (x1, y1 exclusive)."""
    if isinstance(box, Marker):
        x, y, w, h = box.x_mm, box.y_mm, box.size_mm, box.size_mm
    else:
        x, y, w, h = box.x_mm, box.y_mm, box.w_mm, box.h_mm
    return (round(mm_to_px(x, dpi)), round(mm_to_px(y, dpi)),
            round(mm_to_px(x + w, dpi)), round(mm_to_px(y + h, dpi)))

