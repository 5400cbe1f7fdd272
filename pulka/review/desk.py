"""The review page's routes for the sheet list and the deal-row grid.

:mod:`pulka.review.server` registers them:

* ``GET /api/sheets``: every sheet with its round, table, state, doubts and findings
  (:func:`pulka.store.sheet_list.sheet_list`), to open any sheet at any time;
* ``GET /api/row/<sheet id>/<row key>``: a deal row's columns as the sheet prints them
  (:func:`forms.geometry.deal_column.row_slots`: declarer, level, suit, calls, tricks,
  result), each with its options and its place on the row's crop (shares of its width),
  the seats in the order of play, the value read and its one-line form; headings and
  options in the sheet's own labels (:mod:`forms.labels`) of the language pulka speaks;
* ``POST /api/row-check`` ``{"sheet", "key", "text" | "deal"}``: the one-line form
  (:func:`scoring.notation.parse_deal_line`) or a deal object checked by the rules engine
  (:func:`scoring.deals.make_deal`): ``{"legal": true, "deal", "line", "result"}`` or
  ``{"legal": false, "reason"}``; nothing is saved (``/api/decide`` saves).
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from forms.geometry import deal_column
from forms.labels import text as label_text
from pulka.i18n import N_, _, current_language
from pulka.review.checks import RequestError
from pulka.store.database import Store
from pulka.store.sheet_list import RowContext, row_context, sheet_list
from scoring.deals import make_deal
from scoring.errors import RecordError
from scoring.notation import (
    AllPass,
    DealLine,
    Misere,
    line_record,
    parse_deal_line,
    play_order,
    record_line,
)
from scoring.rules import RuleSet

POST_PATHS = ("/api/row-check",)
CALL_WORDS = {"whist": N_("whist"), "pass": N_("pass"), "halfwhist": N_("half-whist")}
"""A defender's call in the one-line form, in the reader's words (parsed back as typed)."""


def get(store: Store, segments: list[str]) -> dict[str, Any] | None:
    """The answer to a GET this module serves, ``None`` when the path is not one of its."""
    if segments == ["api", "sheets"]:
        return {"sheets": [row.to_json() for row in sheet_list(store)]}
    if len(segments) == 4 and segments[:2] == ["api", "row"]:
        return row_columns(_context(store, segments[2], segments[3]))
    return None


def post(store: Store, doc: dict[str, Any]) -> dict[str, Any]:
    """The answer to ``POST /api/row-check``."""
    sheet, key = doc.get("sheet"), doc.get("key")
    if not isinstance(sheet, str) or not isinstance(key, str):
        raise RequestError(HTTPStatus.BAD_REQUEST, _("a row check needs \"sheet\" and \"key\""))
    context = _context(store, sheet, key)
    if isinstance(doc.get("text"), str):
        return check_text(context, doc["text"])
    if isinstance(doc.get("deal"), dict):
        return check_deal(context, doc["deal"])
    raise RequestError(HTTPStatus.BAD_REQUEST, _("a row check needs \"text\" (e.g. "
                                                 "\"B 7NT whist pass 6 3 1\") or \"deal\""))


def _context(store: Store, sheet: str, key: str) -> RowContext:
    if sheet not in store.sheet_ids():
        raise RequestError(HTTPStatus.NOT_FOUND,
                           _("no sheet {sheet} in the store").format(sheet=repr(sheet[:200])))
    return row_context(store, sheet, key)


def row_columns(context: RowContext) -> dict[str, Any]:
    """A row's printed columns, in the order of the sheet, placed on the row's crop."""
    rules = RuleSet.from_settings(context.rules)
    _, groups, _ = deal_column.row_slots(len(context.seats), rules.talon_prize)
    x, _, w, _ = context.rect_mm
    left = deal_column.left_mm()

    def share(mm: float) -> float:
        return round(min(max((left + mm - x) / w, 0.0), 1.0), 4)

    options = {"declarer": [*context.seats, "allpass"], "level": list(deal_column.LEVELS),
               "suit": list(deal_column.SUITS), "call": list(deal_column.CALLS),
               "result": list(deal_column.RESULTS)}
    columns = []
    for group in groups:
        heading = label_text(current_language(), f"{group.key}_seat:{group.sub}" if group.sub
                             else group.key)
        short = group.sub if group.key == "tricks" else heading
        columns.append({"group": group.key, "seat": group.sub or None, "heading": heading,
                        "short": short,
                        "options": [{"value": o, "label": _option_label(o)}
                                    for o in options.get(group.key, [])],
                        "x0": share(group.x0_mm), "x1": share(group.x1_mm)})
    doc = {"sheet": context.sheet, "key": f"row:{context.row}", "seats": list(context.seats),
           "dealer": context.dealer, "players": list(play_order(context.seats, context.dealer)),
           "talon": rules.talon_prize, "columns": columns, "deal": context.value, "line": ""}
    if isinstance(context.value, dict):
        try:
            doc["line"] = line_text(record_line(context.value, context.seats, context.dealer))
        except (RecordError, KeyError, TypeError, ValueError):
            doc["line"] = ""
    return doc


def line_text(line: DealLine) -> str:
    """A deal row's one-line form in the reader's words (``В 7БК вист пас 6 3 1`` in ru), which
    :func:`scoring.notation.parse_deal_line` reads back; English as the engine writes it."""
    language = current_language()
    if language == "en":
        return str(line)
    words = [] if line.declarer is None else [line.declarer]
    if isinstance(line.bid, AllPass | Misere):
        words.append(_("all-pass") if isinstance(line.bid, AllPass) else _("misère"))
    else:
        words.append(f"{line.bid.level}{_option_label(line.bid.suit.value)}")
    words += [_(CALL_WORDS[call]) for call in line.calls]
    return " ".join([*words, *map(str, line.tricks)])


def _option_label(option: str) -> str:
    if option in ("A", "B", "C", "D"):
        return option
    return label_text(current_language(), f"opt:{option}")


def check_text(context: RowContext, typed: str) -> dict[str, Any]:
    """The verdict on a typed line: parsed, given to the seats, checked by the rules."""
    try:
        deal = line_record(parse_deal_line(typed), context.seats, context.dealer)
    except RecordError as error:
        return {"legal": False, "reason": str(error)}
    return check_deal(context, deal)


def check_deal(context: RowContext, deal: dict[str, Any]) -> dict[str, Any]:
    """The rules engine's verdict on a deal object for this row (its dealer the row's)."""
    talon = deal.get("talon")
    talon = talon if isinstance(talon, dict) else {}
    try:
        checked = make_deal(RuleSet.from_settings(context.rules), context.seats,
                            number=context.row + 1, dealer=context.dealer,
                            kind=str(deal.get("type")), declarer=deal.get("declarer"),
                            contract=deal.get("contract"), defence=deal.get("defence"),
                            tricks=deal.get("tricks"),
                            talon_quick_tricks=talon.get("quick_tricks", 0))
    except RecordError as error:
        return {"legal": False, "reason": str(error)}
    record = {"dealer": context.dealer, **{k: v for k, v in deal.items() if k != "dealer"}}
    return {"legal": True, "deal": record,
            "line": line_text(record_line(record, context.seats, context.dealer)),
            "result": checked.result_notation()}
