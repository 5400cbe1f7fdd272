"""The sheet for the day (layout 2): result boxes, signatures, names, instruction, legible
labels; layout 1 still known, and found by the scanner where it always was."""

from __future__ import annotations

import pytest
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from forms.geometry import constants as g
from forms.geometry import deal_column
from forms.labels import LANGUAGES
from forms.layout import LAYOUT_VERSION, PAPERS, build_layout, layout_by_id
from forms.model import Label, Layout
from forms.render.labels import label_lines, wrap
from forms.render.sheet import register_fonts
from tests.forms.conftest import identity_for

ALL = [(players, paper, talon) for players in (3, 4) for paper in PAPERS
       for talon in (False, True)]


def test_layout_1_keeps_its_id_and_is_still_found() -> None:
    old = build_layout(3, "A4", False, version=1)
    assert old.id == "bf5dbd2061"  # the id printed on every sheet before layout 2
    assert layout_by_id("bf5dbd2061") is old and old.result_boxes == ()
    new = build_layout(3)
    assert new.version == LAYOUT_VERSION == 2 and new.id != old.id
    assert layout_by_id(new.id) is new


@pytest.mark.parametrize(("players", "paper", "talon"), ALL)
def test_old_and_new_sheets_have_their_fields_markers_and_qr_in_the_same_places(
        players: int, paper: str, talon: bool) -> None:
    old, new = (build_layout(players, paper, talon, version=v) for v in (1, 2))
    assert new.pages == old.pages and new.markers == old.markers
    assert new.qr == old.qr and new.sheet_id_text == old.sheet_id_text
    assert new.boxes == old.boxes  # the result boxes are not fields


@pytest.mark.parametrize(("players", "paper", "talon"), ALL)
def test_result_boxes_one_per_seat_under_the_frame_clear_of_the_markers(
        players: int, paper: str, talon: bool) -> None:
    layout = build_layout(players, paper, talon)
    boxes = layout.result_boxes
    assert [b.seat for b in boxes] == list(layout.seats) and {b.page for b in boxes} == {0}
    page = layout.page_of(0)
    frame_bottom = max(ln.y1_mm for ln in layout.lines if ln.page == 0
                       and ln.width_mm == g.FRAME_LINE_MM)
    for box in boxes:
        assert box.y_mm >= frame_bottom + g.FRAME_LINE_MM / 2 + 1.0
        assert box.y_mm + box.h_mm <= page.h_mm - g.PAGE_MARGIN_MM
        for m in (m for m in layout.markers if m.page == 0):
            apart_x = (box.x_mm >= m.x_mm + m.size_mm + g.MARKER_QUIET_MM
                       or box.x_mm + box.w_mm <= m.x_mm - g.MARKER_QUIET_MM)
            apart_y = box.y_mm + box.h_mm <= m.y_mm - g.MARKER_QUIET_MM
            assert apart_x or apart_y, (box, m)
    for a, b in zip(boxes, boxes[1:], strict=False):
        assert a.x_mm + a.w_mm < b.x_mm
    signature_lines = [ln for ln in layout.lines if ln.width_mm == g.SIGNATURE_LINE_W_MM]
    assert len(signature_lines) == players + 1  # each player's, and the judge's
    keys = {lb.key for lb in layout.labels if lb.page == 0}
    assert {"results_title", "judge", "signatures_title"} <= keys


@pytest.mark.parametrize(("players", "paper", "talon"), ALL)
def test_names_and_the_instruction_on_every_deal_page(players: int, paper: str,
                                                      talon: bool) -> None:
    register_fonts()
    layout = build_layout(players, paper, talon)
    rows_right = deal_column.right_mm(players, talon)
    for page in (p for p in layout.pages if p.kind == "deals"):
        labels = {lb.key: lb for lb in layout.labels if lb.page == page.index}
        names, instruction, legend = (labels[k] for k in ("seat_names", "instructions",
                                                          "legend"))
        qr = next(r for r in layout.qr if r.page == page.index)
        assert names.x_mm + names.width_mm < qr.x_mm
        assert instruction.x_mm > rows_right and legend.x_mm > rows_right
        assert instruction.x_mm + instruction.width_mm <= page.w_mm - g.PAGE_MARGIN_MM + 1e-6
        bottom_markers = page.h_mm - g.PAGE_MARGIN_MM - g.MARKER_MM - g.MARKER_QUIET_MM
        for lang in LANGUAGES:
            text = label_lines(instruction, lang, identity_for(players))[0]
            lines = wrap(text, "DejaVuSans", instruction.size_pt, instruction.width_mm)
            assert all(stringWidth(line, "DejaVuSans", 7.0) / mm <= instruction.width_mm
                       for line in lines)
            depth = len(lines) * instruction.size_pt * 1.15 / mm
            assert instruction.y_mm + depth < bottom_markers, (lang, len(lines))


@pytest.mark.parametrize(("players", "paper", "talon"), ALL)
def test_every_label_is_legible_but_the_terms(players: int, paper: str, talon: bool) -> None:
    sizes = {lb.size_pt for lb in build_layout(players, paper, talon).labels
             if lb.key != "terms"}
    assert min(sizes) >= g.LABEL_MIN_PT == 7.0
    assert min(lb.size_pt for lb in build_layout(players, paper, talon, 1).labels) == 5.5


def _extent_mm(label: Label, lang: str, layout: Layout) -> tuple[float, float]:
    """The x range a one-line label covers when printed."""
    line = label_lines(label, lang, identity_for(layout.players))[0]
    w = stringWidth(line, "DejaVuSans", label.size_pt) / mm
    start = {"start": 0.0, "middle": -w / 2, "end": -w}[label.anchor]
    return label.x_mm + start, label.x_mm + start + w


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("players", "talon"), [(3, False), (3, True), (4, False), (4, True)])
def test_column_titles_neither_touch_each_other_nor_cross_a_line(lang: str, players: int,
                                                                talon: bool) -> None:
    register_fonts()
    layout = build_layout(players, "A4", talon)
    top = deal_column.rows_top_mm()
    header = [lb for lb in layout.labels if lb.page == 1 and lb.y_mm < top - 1.0
              and lb.y_mm > 20.0]
    assert header
    separators = [ln.x1_mm for ln in layout.lines if ln.page == 1 and ln.x1_mm == ln.x2_mm]
    for y in {lb.y_mm for lb in header}:
        spans = sorted(_extent_mm(lb, lang, layout) for lb in header if lb.y_mm == y)
        for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
            assert end + 0.3 < start, (lang, y, spans)
        for a, b in spans:
            assert not any(a - 0.2 < x < b + 0.2 for x in separators), (lang, y, a, b)
