"""The layout as data: sizes, no overlaps, lines clear of every writing box, ids, JSON."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from forms.geometry import constants as g
from forms.layout import (
    PAPERS,
    box_rect_px,
    build_layout,
    calibration_cells,
    deal_row_boxes,
    entry_cells,
    layout_by_id,
    layout_to_json,
)
from forms.model import CalibrationCell, DealCell, EntryCell

ALL = [(players, paper, talon) for players in (3, 4) for paper in PAPERS
       for talon in (False, True)]


def _rects(boxes):
    return np.array([[b.x_mm, b.y_mm, b.x_mm + b.w_mm, b.y_mm + b.h_mm] for b in boxes])


def _distance_to_rects(points: np.ndarray, rects: np.ndarray) -> np.ndarray:
    """Distance from each point to the nearest rectangle (0 inside)."""
    px, py = points[:, 0:1], points[:, 1:2]
    dx = np.maximum(np.maximum(rects[:, 0] - px, 0), px - rects[:, 2])
    dy = np.maximum(np.maximum(rects[:, 1] - py, 0), py - rects[:, 3])
    return np.hypot(dx, dy).min(axis=1)


@pytest.mark.parametrize(("players", "paper"), [(3, "A4"), (3, "Letter"), (4, "A4"),
                                                (4, "Letter")])
def test_no_printed_line_within_1_mm_of_a_writing_box(players, paper) -> None:
    layout = build_layout(players, paper, True)  # with the talon cell: a superset of boxes
    for page in layout.pages:
        rects = _rects(layout.boxes_for(page.index))
        for line in layout.lines:
            if line.page != page.index:
                continue
            n = max(2, int(math.hypot(line.x2_mm - line.x1_mm, line.y2_mm - line.y1_mm) / 0.2))
            t = np.linspace(0, 1, n)[:, None]
            points = np.hstack([line.x1_mm + t * (line.x2_mm - line.x1_mm),
                                line.y1_mm + t * (line.y2_mm - line.y1_mm)])
            lo, hi = points.min(axis=0) - 3, points.max(axis=0) + 3
            near = rects[(rects[:, 2] > lo[0]) & (rects[:, 0] < hi[0])
                         & (rects[:, 3] > lo[1]) & (rects[:, 1] < hi[1])]
            if len(near):
                assert _distance_to_rects(points, near).min() >= 1.0 + line.width_mm / 2, line
        for circle in layout.circles:
            if circle.page == page.index:
                a = np.linspace(0, 2 * math.pi, 2000)[:, None]
                points = np.hstack([circle.cx_mm + circle.r_mm * np.cos(a),
                                    circle.cy_mm + circle.r_mm * np.sin(a)])
                assert _distance_to_rects(points, rects).min() >= 1.0


@pytest.mark.parametrize(("players", "paper", "talon"), ALL)
def test_boxes_are_big_enough_inside_the_page_and_do_not_overlap(players, paper, talon) -> None:
    layout = build_layout(players, paper, talon)
    for page in layout.pages:
        boxes = layout.boxes_for(page.index)
        for b in boxes:
            assert b.x_mm >= 0 and b.y_mm >= 0
            assert b.x_mm + b.w_mm <= page.w_mm and b.y_mm + b.h_mm <= page.h_mm
            if b.kind != "mark":
                w, h = (b.w_mm, b.h_mm) if b.rotation_deg in (0, 180) else (b.h_mm, b.w_mm)
                assert w >= g.CELL_MIN_W_MM and h >= g.CELL_MIN_H_MM
        r = _rects(boxes)
        # overlap of interiors (shared borders are fine)
        ox = np.minimum(r[:, None, 2], r[None, :, 2]) - np.maximum(r[:, None, 0], r[None, :, 0])
        oy = np.minimum(r[:, None, 3], r[None, :, 3]) - np.maximum(r[:, None, 1], r[None, :, 1])
        overlap = (ox > 0.01) & (oy > 0.01)
        np.fill_diagonal(overlap, False)
        assert not overlap.any()
        furniture = [m for m in layout.markers if m.page == page.index]
        regions = [q for q in layout.qr + layout.sheet_id_text if q.page == page.index]
        others = np.array([[m.x_mm - 1, m.y_mm - 1, m.x_mm + m.size_mm + 1,
                            m.y_mm + m.size_mm + 1] for m in furniture]
                          + [[q.x_mm, q.y_mm, q.x_mm + q.w_mm, q.y_mm + q.h_mm] for q in regions])
        ox = np.minimum(r[:, None, 2], others[None, :, 2]) - np.maximum(r[:, None, 0],
                                                                         others[None, :, 0])
        oy = np.minimum(r[:, None, 3], others[None, :, 3]) - np.maximum(r[:, None, 1],
                                                                         others[None, :, 1])
        assert not ((ox > 0) & (oy > 0)).any()


@pytest.mark.parametrize("players", [3, 4])
def test_every_column_has_its_entries_and_digits(players: int) -> None:
    layout = build_layout(players)
    columns = entry_cells(layout)
    seats = layout.seats
    assert len(columns) == players * (2 + players - 1)
    for (seat, column, on), entries in columns.items():
        assert seat in seats and (on is None) == (column != "whists")
        assert len(entries) == layout.counts[f"{column}_entries"]
        for entry in entries:
            kinds = [b.kind for b in entry]
            digits = layout.counts[f"{column}_digits"]
            assert kinds == (["sign"] if column == "mountain" else []) + ["digit"] * digits
            assert len({b.rotation_deg for b in entry}) == 1
    for seat in seats:
        cells = calibration_cells(layout, seat)
        assert [c.meaning.digit for c in cells] == list(range(10))
    rotations = {b.meaning.seat: b.rotation_deg for b in layout.boxes
                 if isinstance(b.meaning, EntryCell)}
    assert len(set(rotations.values())) == players


@pytest.mark.parametrize("players", [3, 4])
def test_deal_rows(players: int) -> None:
    layout = build_layout(players, talon=True)
    rows = {b.meaning.row for b in layout.boxes if isinstance(b.meaning, DealCell)}
    assert len(rows) >= g.DEAL_ROWS_MIN == 40
    fields = {(b.meaning.field, b.meaning.option) for b in deal_row_boxes(layout, 0)}
    assert ("level", "misere") in fields and ("suit", "NT") in fields
    assert ("declarer", "allpass") in fields and ("talon", "0") in fields
    assert all(("call", f"{s}:{c}") in fields for s in layout.seats
               for c in ("whist", "pass", "halfwhist"))
    assert ("talon", "0") not in {(b.meaning.field, b.meaning.option)
                                  for b in deal_row_boxes(build_layout(players, talon=False), 0)}


def test_ids_are_stable_distinct_and_found_again() -> None:
    ids = {build_layout(*case).id for case in ALL}
    assert len(ids) == len(ALL)
    for case in ALL:
        layout = build_layout(*case)
        assert layout_by_id(layout.id) is layout
        assert len(layout.id) == 10
    with pytest.raises(KeyError, match="print the sheet again"):
        layout_by_id("0000000000")


def test_json_is_complete_and_serialisable() -> None:
    layout = build_layout(4)
    doc = json.loads(json.dumps(layout_to_json(layout)))
    assert doc["format"] == "pulka-layout/1" and doc["id"] == layout.id
    assert len(doc["boxes"]) == len(layout.boxes)
    kinds = {b["meaning"]["type"] for b in doc["boxes"]}
    assert kinds == {"entry", "calibration", "deal"}
    assert {m["aruco_id"] for m in doc["markers"]} == set(range(4 * len(layout.pages)))


def test_pixel_helpers() -> None:
    box = build_layout(3).boxes[0]
    x0, y0, x1, y1 = box_rect_px(box, 254)
    assert x0 == round(box.x_mm * 10) and y1 == round((box.y_mm + box.h_mm) * 10)
    assert isinstance(box.meaning, EntryCell | CalibrationCell)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="3 or 4"):
        build_layout(5)
    with pytest.raises(ValueError, match="A4, Letter"):
        build_layout(3, "A3")
