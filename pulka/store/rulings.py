"""A judge's desk in the store: a ruling on each finding, a cell corrected as a misread, and
the sheet signed off (FSPR practice: the judge checks and rules).

A ruling is kept under the finding's key (:func:`scoring.rulings.finding_key`): it holds while
the audit says the same thing, and lapses when a correction changes the finding. An applied
4.2.7 penalty enters the settlement (:func:`pulka.store.refresh.score`). A finding that waits
for review (it rests on a doubtful field) takes no ruling until its fields are verified.

A sheet is signed off by an explicit act once no cell is doubtful, no page is missing, the
rules accept the record and every finding has a ruling; scoring the sheet again (a decision,
a ruling, a re-import) drops the sign-off, so a signed-off sheet is one nobody changed since.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from pulka.store.database import Store
from pulka.store.errors import StoreError
from pulka.store.rebuild import parse_key
from pulka.store.refresh import now, refresh
from pulka.store.rows import FindingRow, SignOff, sheet_cells, sheet_findings, sheet_signoff
from pulka.store.schema import FindingStatus, RulingAction, SheetState

log = logging.getLogger(__name__)

MISREAD = "misread"
"""The third answer to a finding: the cell was read wrong; the judge gives its value."""


@dataclass(frozen=True)
class Ruled:
    """What a ruling did: the finding it was on and the sheet's state after it."""

    finding: FindingRow
    action: str
    state: SheetState


def findings(store: Store, sheet_id: str) -> list[FindingRow]:
    """A sheet's findings, numbered as ``pulka show`` lists them, with their rulings; a sheet
    scored before findings had keys (schema version 3) is scored again first."""
    sheet_pk = store._sheet_pk(sheet_id)  # noqa: SLF001 - same package, same tables
    rows = sheet_findings(store.conn, sheet_pk)
    if any(not row.key for row in rows):
        with store.transaction() as conn:
            refresh(conn, sheet_pk)
        rows = sheet_findings(store.conn, sheet_pk)
    return rows


def signoff(store: Store, sheet_id: str) -> SignOff | None:
    """Who signed a sheet off and when, or ``None``."""
    return sheet_signoff(store.conn, store._sheet_pk(sheet_id))  # noqa: SLF001


def find(rows: list[FindingRow], sheet_id: str, which: str) -> FindingRow:
    """A finding by its number (as ``pulka show`` lists them) or its key."""
    for row in rows:
        if which in (str(row.number), row.key):
            return row
    known = f"1 to {len(rows)}" if rows else "none: the sheet has no findings"
    raise StoreError(f"sheet {sheet_id} has no finding {which!r}; its findings: {known} "
                     f"(`pulka show {sheet_id}` lists them)")


def rule(store: Store, sheet_id: str, which: str, action: str, judge: str,
         value: Any = None) -> Ruled:
    """Rule on one finding: ``apply`` or ``waive`` its penalty, or ``misread`` (the cell
    corrected to ``value``, logged as a person's decision); the sheet is scored again."""
    if not judge:
        raise StoreError("a ruling needs the judge's name (--judge NAME)")
    finding = find(findings(store, sheet_id), sheet_id, which)
    if action == MISREAD:
        if value is None:
            raise StoreError(f"sheet {sheet_id} finding {finding.number}: a misread needs the "
                             "value the cell holds (--value V)")
        key = finding_cell(store, sheet_id, finding)
        return Ruled(finding, action, store.verify_cell(sheet_id, key, value, judge))
    ruling = _action(action)
    if finding.status == FindingStatus.WAITS:
        raise StoreError(f"sheet {sheet_id} finding {finding.number} waits for review: verify "
                         "its doubtful cells first (`pulka review`)")
    with store.transaction() as conn:
        sheet_pk = store._sheet_pk(sheet_id)  # noqa: SLF001
        conn.execute("INSERT INTO rulings (sheet_id, finding_key, action, who, at) "
                     "VALUES (?, ?, ?, ?, ?) ON CONFLICT (sheet_id, finding_key) DO UPDATE "
                     "SET action = excluded.action, who = excluded.who, at = excluded.at",
                     (sheet_pk, finding.key, ruling, judge, now()))
        state = refresh(conn, sheet_pk)
    log.info("sheet %s finding %d: %s by %s", sheet_id, finding.number, ruling, judge)
    return Ruled(finding, str(ruling), state)


def _action(action: str) -> RulingAction:
    try:
        return RulingAction(action)
    except ValueError:
        raise StoreError(f"a ruling is apply, waive or {MISREAD}, not {action!r}") from None


def finding_cell(store: Store, sheet_id: str, finding: FindingRow) -> str:
    """The key of the cell a finding's written value was read from."""
    if finding.entry is not None:
        column = [(where[3], cell) for cell in sheet_cells(store.conn, store._sheet_pk(sheet_id))
                  if not isinstance(where := parse_key(cell.key), int)
                  and where[:3] == (finding.seat, finding.column, finding.on)]
        written = [cell.key for _, cell in sorted(column, key=lambda pair: pair[0])
                   if cell.value is not None]
        if finding.entry <= len(written):
            return written[finding.entry - 1]
    raise StoreError(f"sheet {sheet_id} finding {finding.number} has no written cell to "
                     "correct; correct its deal row or entries on the review page")


def sign_off(store: Store, sheet_id: str, judge: str) -> SignOff:
    """Sign a sheet off; refused, saying what is left, while anything waits."""
    if not judge:
        raise StoreError("a sign-off needs the judge's name (--judge NAME)")
    with store.transaction() as conn:
        sheet_pk = store._sheet_pk(sheet_id)  # noqa: SLF001
        state, doubtful, missing, error = conn.execute(
            "SELECT state, doubtful_count, missing_pages_json, record_error FROM sheets "
            "WHERE id = ?", (sheet_pk,)).fetchone()
        open_ = [f.number for f in sheet_findings(conn, sheet_pk) if f.ruling is None]
        left = ([f"{doubtful} doubtful cells"] if doubtful else []) \
            + ([f"pages {', '.join(map(str, json.loads(missing)))} missing"]
               if missing != "[]" else []) \
            + (["a record the rules refuse"] if error else []) \
            + ([f"findings {', '.join(map(str, open_))} without a ruling"] if open_ else [])
        if left or state == SheetState.READ:
            raise StoreError(f"sheet {sheet_id} cannot be signed off yet: "
                             f"{'; '.join(left) or 'not scored'}")
        stamp = now()
        conn.execute("INSERT OR REPLACE INTO signoffs (sheet_id, who, at) VALUES (?, ?, ?)",
                     (sheet_pk, judge, stamp))
    log.info("sheet %s signed off by %s", sheet_id, judge)
    return SignOff(judge, stamp)
