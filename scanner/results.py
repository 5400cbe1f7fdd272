"""What a scan hands on: one :class:`SheetScan` per sheet, JSON at the boundary.

A sheet scan carries the sheet's identity, its straightened page images, the decoded record
(``pulka-record/1``) and one :class:`FieldReading` per field a person may have to check: each
written entry of the triangle and each deal row of the contract/result column, with its
status (*read*, *doubtful*, *empty*), value, confidence, candidates, what the rules expected,
where it stands on its page (millimetres) and the crop of its ink.

A field's crop is a rectangle of its page's field sheet (:mod:`scanner.field_sheets`), named in
W3C Media Fragments syntax: ``S1/crops/page-1.jpg#xywh=0,144,200,72`` is the 200 x 72 pixels at
(0, 144) of that JPEG (:func:`crop_ref`, read back by :func:`split_crop`). A deal row read with
confidence is a rectangle of its straightened page (``S1/page-2.jpg#xywh=...``, 100 dpi, grey
levels; in colour in older scans) instead. Scans made before field sheets name a file of their
own, with no fragment: the whole file is the crop.

Its sentences for people (a page's warnings, the sheet's problems, a field's note) are written
as ``{"code", "params", "message"}`` (:class:`scoring.said.Said`, codes of
:mod:`scanner.words`), the English ``message`` beside the code; the plain strings of older
scans still load.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path, PurePosixPath
from typing import Any

from scanner.jsoncheck import (
    DocumentError,
    arr,
    integer,
    items,
    number,
    obj,
    optional,
    plain,
    sentence,
    text,
)
from scoring.said import said_json

SCAN_FORMAT = "pulka-scan/1"
SCAN_FILE = "scan.json"
"""A sheet's ``pulka-scan/1`` document, in its folder."""
RECORD_FILE = "record.json"
"""A sheet's decoded ``pulka-record/1``, in its folder."""
STRAIGHT_PAGE_DPI = 100
"""Resolution of the straightened page images a scan keeps (for reports and review); they
are grey JPEGs (older scans kept them in colour; both read the same)."""


class CellStatus(StrEnum):
    """How a field was read: its value sure, doubtful (a person decides), or nothing written."""

    READ = "read"
    DOUBTFUL = "doubtful"
    EMPTY = "empty"


@dataclass(frozen=True)
class FieldReading:
    """One field of a sheet as read and decoded.

    ``key`` names it: ``entry:<seat>:<column>[:<on>]:<n>`` for the n-th entry (from 0) of a
    column, ``row:<n>`` for the n-th deal row (from 0). ``value`` is an integer for an entry,
    a record deal (JSON object) for a row, ``None`` when empty.
    """

    key: str
    page: int
    rect_mm: tuple[float, float, float, float]
    status: CellStatus
    value: Any
    confidence: float
    candidates: tuple[tuple[Any, float], ...] = ()
    expected: Any = None
    deal: int | None = None
    note: str = ""
    crop: str | None = None
    """The ink crop: its image's path, relative to the scan's output folder, and (after a
    ``#``) its pixel rectangle there, ``xywh=x,y,w,h`` (:func:`split_crop`); None when the
    scan kept none."""
    ink: tuple[tuple[Any, float], ...] = ()
    """An entry's ink evidence: P(ink | value) for the values the decoding weighed, most
    likely first, before the rules had their say (``scanner.decode.columns``); what lets a
    store decode the entry again when a person corrects the sheet. Empty for a row."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", CellStatus(self.status))

    @property
    def kind(self) -> str:
        """``entry`` or ``row``."""
        return self.key.split(":", 1)[0]


@dataclass(frozen=True)
class ScannedPage:
    """One page image of a sheet: where it came from and how well it registered."""

    index: int
    source: str
    """The file (and page within a PDF or TIFF: ``file.pdf#2``) it was read from."""
    image: str
    """The straightened page image, relative to the output folder."""
    fit_error_mm: float
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class SheetScan:
    """Everything read from one sheet."""

    sheet_id: str
    identity: dict[str, Any]
    """The sheet identity as printed in the QR code (forms.identity)."""
    layout_id: str
    pages: tuple[ScannedPage, ...]
    fields: tuple[FieldReading, ...]
    record: dict[str, Any]
    missing_pages: tuple[int, ...] = ()
    problems: tuple[str, ...] = ()
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def doubtful(self) -> tuple[FieldReading, ...]:
        """Fields that need a person."""
        return tuple(f for f in self.fields if f.status is CellStatus.DOUBTFUL)

    def to_json(self) -> dict[str, Any]:
        """The ``pulka-scan/1`` document: what ``dataclasses.asdict`` gives, built one level
        deep without copying; it shares the scan's dicts (record, identity, values), so copy
        it before changing it."""
        doc = _fields_of(self)
        doc["pages"] = tuple(_fields_of(p) | {"warnings": tuple(map(said_json, p.warnings))}
                             for p in self.pages)
        doc["fields"] = tuple(_fields_of(f) | {"note": said_json(f.note)} for f in self.fields)
        doc["problems"] = tuple(map(said_json, self.problems))
        doc["format"] = SCAN_FORMAT
        return doc

    @classmethod
    def from_json(cls, doc: Any) -> SheetScan:
        """Read a ``pulka-scan/1`` document back, every value's type checked.

        Raises :class:`scanner.jsoncheck.DocumentError` naming the first field that is wrong.
        """
        doc = obj(doc, "(document)")
        if doc.get("format") != SCAN_FORMAT:
            raise DocumentError("format", f"not a {SCAN_FORMAT} document "
                                          f"(format {doc.get('format')!r})")
        return cls(text(doc.get("sheet_id"), "sheet_id"), _identity(doc.get("identity")),
                   text(doc.get("layout_id"), "layout_id"),
                   items(doc.get("pages"), "pages", _page),
                   items(doc.get("fields"), "fields", _field), _record(doc.get("record")),
                   items(doc.get("missing_pages", []), "missing_pages", _page_index),
                   items(doc.get("problems", []), "problems", sentence),
                   number(doc.get("seconds", 0.0), "seconds"),
                   obj(plain(doc.get("extra", {}), "extra"), "extra"))


MAX_PAGE_INDEX = 99
"""Largest page index a scan may name (pages of one sheet, counted from 0)."""
FIELD_KEY = re.compile(r"(entry:[^:\s]{1,8}:(pool|mountain|whists)(:[^:\s]{1,8})?|row):\d{1,4}")
"""What a field's key looks like (:func:`entry_key`, :func:`row_key`)."""


def _page_index(value: Any, where: str) -> int:
    return integer(value, where, 0, MAX_PAGE_INDEX)


def _identity(value: Any) -> dict[str, Any]:
    """The sheet's identity: its seats, names and place checked, the rest plain JSON."""
    identity = obj(plain(value, "identity"), "identity")
    for name in ("round", "table", "continuation", "page"):
        optional(_page_index if name == "page" else integer)(identity.get(name),
                                                            f"identity.{name}")
    for name in ("sheet_id", "tournament", "rules_id", "layout_id", "date"):
        optional(text)(identity.get(name), f"identity.{name}")
    items(identity.get("seats") or [], "identity.seats", text)
    items(identity.get("names") or [], "identity.names", optional(text))
    optional(obj)(identity.get("rules"), "identity.rules")
    return identity


def _record(value: Any) -> dict[str, Any]:
    """The record as decoded: plain JSON, its parts of the right kind (the rules engine
    checks the rest when the store scores it)."""
    record = obj(plain(value, "record"), "record")
    items(record.get("deals") or [], "record.deals", optional(obj))
    items(record.get("seats") or [], "record.seats", text)
    for name in ("rules", "written", "names"):
        optional(obj)(record.get(name), f"record.{name}")
    return record


def _page(value: Any, where: str) -> ScannedPage:
    page = obj(value, where)
    return ScannedPage(_page_index(page.get("index"), f"{where}.index"),
                       text(page.get("source"), f"{where}.source"),
                       text(page.get("image"), f"{where}.image"),
                       number(page.get("fit_error_mm"), f"{where}.fit_error_mm"),
                       items(page.get("warnings", []), f"{where}.warnings", sentence))


def _pair(value: Any, where: str) -> tuple[Any, float]:
    pair = arr(value, where)
    if len(pair) != 2:
        raise DocumentError(where, f"expected [value, probability], got {len(pair)} items")
    return plain(pair[0], f"{where}[0]"), number(pair[1], f"{where}[1]")


def _field(value: Any, where: str) -> FieldReading:
    f = obj(value, where)
    key = text(f.get("key"), f"{where}.key")
    if not FIELD_KEY.fullmatch(key):
        raise DocumentError(f"{where}.key", f"{key!r} is neither entry:SEAT:COLUMN[:ON]:N "
                                            f"nor row:N")
    status = text(f.get("status"), f"{where}.status")
    if status not in set(CellStatus):
        raise DocumentError(f"{where}.status", f"{status!r} is not one of "
                                               f"{', '.join(CellStatus)}")
    rect = tuple(items(f.get("rect_mm"), f"{where}.rect_mm", number))
    if len(rect) != 4:
        raise DocumentError(f"{where}.rect_mm", f"expected 4 numbers, got {len(rect)}")
    return FieldReading(
        key, _page_index(f.get("page"), f"{where}.page"), (rect[0], rect[1], rect[2], rect[3]),
        CellStatus(status), plain(f.get("value"), f"{where}.value"),
        number(f.get("confidence"), f"{where}.confidence"),
        items(f.get("candidates", []), f"{where}.candidates", _pair),
        plain(f.get("expected"), f"{where}.expected"),
        optional(integer)(f.get("deal"), f"{where}.deal"),
        sentence(f.get("note", ""), f"{where}.note"),
        optional(text)(f.get("crop"), f"{where}.crop"),
        items(f.get("ink", []), f"{where}.ink", _ink))


def _ink(value: Any, where: str) -> tuple[int | None, float]:
    written, p = _pair(value, where)
    return optional(integer)(written, f"{where}[0]"), p


def _fields_of(obj: Any) -> dict[str, Any]:
    """A dataclass's fields by name, its values as they are: a copy of its ``__dict__``,
    which for these dataclasses (no slots, no cached properties) holds exactly the fields,
    in their order."""
    return dict(vars(obj))


def entry_key(seat: str, column: str, on: str | None, entry: int) -> str:
    """The key of a triangle entry: ``entry:A:whists:B:3``, ``entry:A:pool:0``."""
    return f"entry:{seat}:{column}:{on}:{entry}" if on else f"entry:{seat}:{column}:{entry}"


def row_key(row: int) -> str:
    """The key of a deal row: ``row:12``."""
    return f"row:{row}"


def ink_shares(ink: Sequence[tuple[Any, float]], shown: int = 2) -> list[tuple[Any, float]]:
    """What an entry's ink alone says: its likelihoods of the values the decoding weighed
    (:attr:`FieldReading.ink`, most likely first) as shares of their sum, the first ``shown``;
    empty for a row (no ink kept). Shown beside the candidates, which the rules shape: a cell
    read as 8 at 100 % is doubtful when its ink says 9.

    >>> ink_shares([(9, 1.5), (8, 0.25), (3, 0.25)])
    [(9, 0.75), (8, 0.125)]
    """
    total = sum(p for _, p in ink)
    return [(value, p / total) for value, p in ink[:shown]] if total > 0 else []


def crop_ref(path: str, rect: tuple[int, int, int, int]) -> str:
    """A crop: the pixel rectangle ``(x, y, w, h)`` of the image at ``path``, as a W3C Media
    Fragment.

    >>> crop_ref("S1/crops/page-1.jpg", (0, 144, 200, 72))
    'S1/crops/page-1.jpg#xywh=0,144,200,72'
    """
    x, y, w, h = rect
    return f"{path}#xywh={x},{y},{w},{h}"


def split_crop(crop: str) -> tuple[str, tuple[int, int, int, int] | None]:
    """A crop's image path and its pixel rectangle ``(x, y, w, h)``; None for a crop without
    a fragment (a scan before field sheets: the whole image). Raises ``ValueError`` for a
    fragment that names no rectangle of pixels.

    >>> split_crop("S1/crops/page-1.jpg#xywh=0,144,200,72")
    ('S1/crops/page-1.jpg', (0, 144, 200, 72))
    >>> split_crop("S1/crops/row_3.jpg")
    ('S1/crops/row_3.jpg', None)
    >>> split_crop("S1/crops/page-1.jpg#xywh=percent:0,0,50,50")
    Traceback (most recent call last):
    ...
    ValueError: crop 'S1/crops/page-1.jpg#xywh=percent:0,0,50,50': no xywh=x,y,w,h in pixels
    """
    path, hashed, fragment = crop.partition("#")
    if not hashed:
        return path, None
    for part in fragment.split("&"):
        name, _, value = part.partition("=")
        if name != "xywh":
            continue
        numbers = value.removeprefix("pixel:").split(",")
        if len(numbers) == 4 and all(n.isdigit() for n in numbers):
            x, y, w, h = (int(n) for n in numbers)
            if w > 0 and h > 0:
                return path, (x, y, w, h)
    raise ValueError(f"crop {crop!r}: no xywh=x,y,w,h in pixels")


def scan_folder(scan: SheetScan) -> str:
    """The folder, under the output folder, a scan's files are in: that of its page images
    (the sheet id, or ``<sheet id>~<n>`` for a further copy, :mod:`scanner.output`)."""
    return PurePosixPath(scan.pages[0].image).parts[0]


def scan_json_path(out_dir: Path, scan: SheetScan) -> Path:
    """Where a sheet's ``pulka-scan/1`` document is written."""
    return out_dir / scan_folder(scan) / SCAN_FILE
