"""The sheet geometry as data: frozen dataclasses, one per thing printed on a page.

Conventions (the scanner relies on them):

* A position is in millimetres from the page's **top-left** corner, x to the right, **y down**.
* A :class:`Box` is the page-axis-aligned rectangle ``(x_mm, y_mm, w_mm, h_mm)`` of one writing
  cell or mark box, as printed (the scanner crops exactly this).
* ``rotation_deg`` (0, 90, 180, 270) is the clockwise angle from the page's "up" to the writer's
  "up" (Codex 4.2.5: digits stand on their base toward the writer). To read a cell upright,
  rotate its crop by ``rotation_deg`` counter-clockwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Literal

Kind = Literal["digit", "sign", "mark"]
ColumnKind = Literal["pool", "mountain", "whists"]


@dataclass(frozen=True)
class EntryCell:
    """One digit (or the sign) of a running total in a player's column (Codex 4.2.1).

    ``on`` is the opponent for a whists column, else ``None``; ``entry`` counts from 0 in the
    order written; ``position`` counts the entry's cells from the left as the writer sees them
    (a mountain's sign cell is position 0).
    """

    seat: str
    column: ColumnKind
    on: str | None
    entry: int
    position: int


@dataclass(frozen=True)
class CalibrationCell:
    """A cell where the player writes ``digit`` once before the game.

    The scanner learns that hand from these ten cells.
    """

    seat: str
    digit: int


@dataclass(frozen=True)
class DealCell:
    """One box of the contract/result column (Codex 4.2.11).

    ``row`` counts deals from 0; ``field`` is one of ``declarer`` (option: a seat or
    ``allpass``), ``level`` (``6``..``10``, ``misere``), ``suit`` (``S C D H NT``), ``call``
    (option ``"<seat>:whist|pass|halfwhist"``), ``tricks`` (option ``"<seat>:<position>"``),
    ``talon`` (option ``"0"``: the single digit), ``result`` (``=``, ``-``, ``+``) and
    ``result_tricks`` (option: the digit position).
    """

    row: int
    field: str
    option: str


Meaning = EntryCell | CalibrationCell | DealCell


@dataclass(frozen=True)
class Box:
    """A printed writing box: a digit cell, a sign cell or a mark box."""

    page: int
    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float
    rotation_deg: int
    kind: Kind
    meaning: Meaning

    def __post_init__(self) -> None:
        # boxes are looked up in sets and dicts thousands of times a sheet; the generated
        # hash would rebuild a tuple of every field (and hash the meaning) each time
        object.__setattr__(self, "_hash", hash((self.page, self.x_mm, self.y_mm, self.w_mm,
                                                self.h_mm, self.rotation_deg, self.kind,
                                                self.meaning)))

    def __hash__(self) -> int:
        """The hash of the fields, computed once (a frozen box never changes)."""
        return self._hash  # type: ignore[attr-defined,no-any-return]

    def __reduce__(self) -> tuple[type[Box], tuple[object, ...]]:
        """Pickled as its fields, so the hash is made again in the process that loads it
        (string hashes differ between processes)."""
        return (Box, tuple(getattr(self, f.name) for f in fields(self)))


@dataclass(frozen=True)
class Marker:
    """An ArUco marker (DICT_4X4_50) at one corner of a page.

    ``aruco_id = 4 * page + corner``, corners 0..3 = top-left, top-right, bottom-right,
    bottom-left, so an id tells page and orientation.
    """

    page: int
    aruco_id: int
    corner: int
    x_mm: float
    y_mm: float
    size_mm: float


@dataclass(frozen=True)
class Region:
    """A rectangle on a page that is not a writing box (QR code, sheet id text, a label)."""

    page: int
    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float
    rotation_deg: int = 0


@dataclass(frozen=True)
class Line:
    """A printed line (frame, zone or band line), in page millimetres."""

    page: int
    x1_mm: float
    y1_mm: float
    x2_mm: float
    y2_mm: float
    width_mm: float


@dataclass(frozen=True)
class Circle:
    """A printed circle (the centre circle of the triangle page)."""

    page: int
    cx_mm: float
    cy_mm: float
    r_mm: float
    width_mm: float


@dataclass(frozen=True)
class Label:
    """A printed text; ``key`` is looked up in :mod:`forms.labels` unless ``literal``."""

    page: int
    x_mm: float
    y_mm: float
    rotation_deg: int
    key: str
    size_pt: float
    literal: bool = False
    anchor: Literal["start", "middle", "end"] = "start"
    width_mm: float = 0.0
    """The width the text is wrapped to (0: one line, never wrapped)."""


@dataclass(frozen=True)
class ResultBox:
    """A box where the judge writes a player's final result (layout 2 on): printed for the
    judge, not a field the scanner reads."""

    page: int
    seat: str
    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float


@dataclass(frozen=True)
class Page:
    """One page: its size and what it is."""

    index: int
    kind: Literal["triangle", "deals"]
    w_mm: float
    h_mm: float
    first_row: int = 0
    """For a deal page: the index of its first deal row."""


@dataclass(frozen=True)
class Layout:
    """Everything printed on a sheet, as data; ``id`` is a short hash of the geometry."""

    players: int
    paper: str
    talon: bool
    seats: tuple[str, ...]
    pages: tuple[Page, ...]
    boxes: tuple[Box, ...]
    markers: tuple[Marker, ...]
    qr: tuple[Region, ...]
    sheet_id_text: tuple[Region, ...]
    lines: tuple[Line, ...]
    circles: tuple[Circle, ...]
    labels: tuple[Label, ...]
    counts: dict[str, int] = field(hash=False, compare=False)
    """Entries per column and digits per entry, e.g. ``{"pool_entries": 12, ...}``."""
    version: int = 1
    """The layout version (:data:`forms.layout.LAYOUT_VERSIONS`); older ones still read."""
    result_boxes: tuple[ResultBox, ...] = ()
    id: str = ""

    def boxes_for(self, page: int) -> tuple[Box, ...]:
        """Return the writing boxes of one page."""
        return tuple(b for b in self.boxes if b.page == page)

    def page_of(self, index: int) -> Page:
        """Return the page with this index; raises ``IndexError`` naming the pages there are."""
        for page in self.pages:
            if page.index == index:
                return page
        raise IndexError(f"layout {self.id} has pages 0..{len(self.pages) - 1}, not {index}")
