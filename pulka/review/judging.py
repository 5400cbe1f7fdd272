"""The review page's judge routes: a ruling on a finding, a sheet's sign-off, and the sheet's
audit report as the store has it now (request handling only; the store does the work,
:mod:`pulka.store.rulings`, :mod:`pulka.report.stored`).

* ``POST /api/rule`` ``{"sheet", "finding", "action", "value"?}``: ``finding`` is the
  finding's key (``finding_key`` in the panel), ``action`` ``apply``, ``waive`` or
  ``misread`` (with the cell's true ``value``, typed as on the card);
* ``POST /api/signoff`` ``{"sheet"}``;
* ``GET /report/<sheet id>``: the HTML report, its styles and images inline.

Rulings are made in the name the server was started with (``pulka review --user``).
"""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any

from pulka.report.html import render_html
from pulka.report.stored import stored_report
from pulka.review.checks import RequestError, typed_value
from pulka.review.files import scan_root
from pulka.store.database import Store
from pulka.store.rulings import MISREAD, find, finding_cell, findings, rule, sign_off
from pulka.store.schema import RulingAction
from pulka.store.stored_sheet import stored_sheet

RULINGS = (*(str(a) for a in RulingAction), MISREAD)
REPORT_CSP = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
              "frame-ancestors 'none'")
"""The report page is self-contained: inline styles, images as data URIs, no script."""
MAX_FIELD = 200
"""Longest sheet id or finding key accepted, in characters."""


@dataclass(frozen=True)
class RulingRequest:
    """A ruling as the page sends it."""

    sheet: str
    finding: str
    action: str
    value: Any

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> RulingRequest:
        """The request, every field checked (400 naming the field otherwise)."""
        action = doc.get("action")
        if action not in RULINGS:
            raise RequestError(HTTPStatus.BAD_REQUEST,
                               f"action {action!r:.40}: use one of {', '.join(RULINGS)}")
        value = doc.get("value")
        if action == MISREAD and (isinstance(value, bool) or not isinstance(value, str | int)):
            raise RequestError(HTTPStatus.BAD_REQUEST, "a misread needs the cell's value")
        return cls(text_field(doc, "sheet"), text_field(doc, "finding"), str(action), value)


def text_field(doc: dict[str, Any], name: str) -> str:
    """A short text field of a request."""
    value = doc.get(name)
    if not isinstance(value, str) or not value or len(value) > MAX_FIELD:
        raise RequestError(HTTPStatus.BAD_REQUEST,
                           f"field {name}: expected a string, got {value!r:.60}")
    return value


def rule_request(store: Store, doc: dict[str, Any], judge: str) -> dict[str, Any]:
    """Record a ruling the page sent; what the page shows about it."""
    request = RulingRequest.from_json(doc)
    value = None
    if request.action == MISREAD:
        finding = find(findings(store, request.sheet), request.sheet, request.finding)
        value = typed_value(finding_cell(store, request.sheet, finding), str(request.value))
    ruled = rule(store, request.sheet, request.finding, request.action, judge, value)
    return {"sheet": request.sheet, "finding": ruled.finding.number,
            "message": ruled.finding.message, "action": ruled.action, "by": judge,
            "state": str(ruled.state)}


def signoff_request(store: Store, doc: dict[str, Any], judge: str) -> dict[str, Any]:
    """Sign off the sheet the page names."""
    sheet = text_field(doc, "sheet")
    signed = sign_off(store, sheet, judge)
    return {"sheet": sheet, "by": signed.who, "at": signed.at}


def report_page(store: Store, sheet_id: str, db: Path) -> bytes:
    """A sheet's HTML report as the store has it now."""
    stored = stored_sheet(store, sheet_id)
    return render_html(stored_report(stored, scan_root(stored.scan_path, db))).encode()
