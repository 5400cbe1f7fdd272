"""The sheet identity: what each page's QR code carries, so a scan knows its sheet and rules.

The QR holds one compact JSON array (UTF-8), the fields in this order::

    ["pulka-sheet/1", sheet_id, tournament, round, table, page, continuation, layout_id,
     rules_id, [settings], "ABC", [names], date]

e.g. ``["pulka-sheet/1","R2-T07-3F9A1C","Kyiv Open",2,7,1,0,"0fe7de077e","2f1ac3d878",
["sochi",3,20,1,[1,2],0,1,0,0,0,"responsible","greedy",0,null],"ABC",["Иванова","Petrenko",
"Sidorov"],"2026-11-29"]``. ``settings`` is every setting of the rule set, as values in the
order of :data:`scoring.rules.SETTING_NAMES`, true/false written 1/0 (an object with names
would double the QR's size and halve its modules); reading checks that they hash to
``rules_id``, so a payload from a pulka with other settings is refused, not misread. Field
names are kept short because every byte makes the QR's modules smaller (at 24 mm and about
250 bytes, version 11 with error correction M: 0.3 mm modules, 3.5 pixels at 300 dpi).

``page`` is the page of the sheet (0 = the triangle, then the contract/result pages) and
``continuation`` the sheet's number within its game (0 = the first sheet, 1 = the sheet that
continues it, ...). A continuation sheet's id is the first sheet's id with ``-C<n>``
(``R2-T07-3F9A1C-C1``), so every sheet keeps an id of its own while its QR names the game's
first sheet: the scanner joins the sheets whose :func:`first_sheet_id` agree, in the order of
``continuation``. The sheet id is also printed as text beside the QR: the fallback the scanner
reads with Tesseract when the QR is damaged. Its alphabet avoids letters Tesseract confuses
with digits (no O, I, L).
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from dataclasses import dataclass, replace
from typing import Any

from scoring.errors import RuleSetError
from scoring.rules import SETTING_NAMES, RuleSet

QR_FORMAT = "pulka-sheet/1"
SHEET_ID_PATTERN = re.compile(r"(?:S|R\d{1,6}-T\d{2,6})-[0-9A-F]{6}(?:-C\d{1,4})?")
"""Every id :func:`make_sheet_id` makes, and nothing else: what a sheet id read from a page
must match before it names a file or folder."""
_CONTINUATION_SUFFIX = re.compile(r"-C\d{1,4}$")
_FIELDS = ("format", "sheet_id", "tournament", "round", "table", "page", "continuation",
           "layout_id", "rules_id", "settings", "seats", "names", "date")


class IdentityError(ValueError):
    """A QR payload that is not a pulka sheet identity; the message names the field."""


@dataclass(frozen=True)
class SheetIdentity:
    """Who and what a printed sheet is for; the same on every page but ``page``."""

    sheet_id: str
    tournament: str
    round: int | None
    table: int | None
    page: int
    continuation: int
    layout_id: str
    rules_id: str
    rules: dict[str, Any]
    seats: tuple[str, ...]
    names: tuple[str, ...]
    date: str = ""

    def for_page(self, page: int) -> SheetIdentity:
        """Return the identity printed on page ``page``."""
        return replace(self, page=page)

    @property
    def first_sheet_id(self) -> str:
        """The id of the game's first sheet (this sheet's own id when it is the first)."""
        return first_sheet_id(self.sheet_id)

    def continued(self, continuation: int) -> SheetIdentity:
        """Return the identity of continuation sheet ``continuation`` of this sheet's game.

        >>> first = SheetIdentity("R2-T07-3F9A1C", "Open", 2, 7, 0, 0, "l", "r", {}, ("A",), ())
        >>> second = first.continued(1)
        >>> second.sheet_id, second.continuation, second.first_sheet_id
        ('R2-T07-3F9A1C-C1', 1, 'R2-T07-3F9A1C')
        """
        sheet_id = self.first_sheet_id + (f"-C{continuation}" if continuation else "")
        return replace(self, sheet_id=sheet_id, continuation=continuation)

    def rule_set(self) -> RuleSet:
        """Return the rules the players agreed on, rebuilt from the QR's settings."""
        return RuleSet.from_settings(dict(self.rules))


def make_sheet_id(tournament: str, round_: int | None, table: int | None, rules_id: str,
                  names: tuple[str, ...], continuation: int = 0, salt: str | None = None) -> str:
    """Return a short printable id: ``R2-T07-3F9A1C`` (``S-...`` for a sheet outside a tournament).

    The hash covers the tournament, round, table, rules and names, and ``salt`` (random when
    None, so two blank sheets never share an id). Continuation ``n`` of a game gets the first
    sheet's id (the same arguments with ``continuation`` 0) followed by ``-C<n>``.

    >>> make_sheet_id("Open", 2, 7, "abc", ("X", "Y", "Z"), salt="")  # doctest: +ELLIPSIS
    'R2-T07-...'
    """
    if salt is None:
        salt = secrets.token_hex(4)
    basis = json.dumps([tournament, round_, table, rules_id, list(names), 0, salt])
    digest = hashlib.sha256(basis.encode()).hexdigest()[:6].upper()
    prefix = "S" if round_ is None and table is None else f"R{round_ or 0}-T{table or 0:02d}"
    suffix = f"-C{continuation}" if continuation else ""
    return f"{prefix}-{digest}{suffix}"


def first_sheet_id(sheet_id: str) -> str:
    """The id of the first sheet of the game whose sheet is ``sheet_id`` (its ``-C<n>`` off).

    >>> first_sheet_id("R2-T07-3F9A1C-C2"), first_sheet_id("S-3F9A1C")
    ('R2-T07-3F9A1C', 'S-3F9A1C')
    """
    return _CONTINUATION_SUFFIX.sub("", sheet_id)


def is_sheet_id(text: str) -> bool:
    """Whether ``text`` is a sheet id :func:`make_sheet_id` could have made.

    >>> is_sheet_id("R2-T07-3F9A1C"), is_sheet_id("S-3F9A1C-C1"), is_sheet_id("../../x")
    (True, True, False)
    """
    return SHEET_ID_PATTERN.fullmatch(text) is not None


def to_qr_payload(identity: SheetIdentity) -> str:
    """Compact ASCII JSON for the QR code."""
    settings = [int(v) if isinstance(v, bool) else v
                for v in (identity.rules[name] for name in SETTING_NAMES)]
    doc = [QR_FORMAT, identity.sheet_id, identity.tournament, identity.round, identity.table,
           identity.page, identity.continuation, identity.layout_id, identity.rules_id, settings,
           "".join(identity.seats), list(identity.names), identity.date]
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def from_qr_payload(text: str) -> SheetIdentity:
    """Parse a decoded QR code back into a :class:`SheetIdentity`.

    Raises :class:`IdentityError` naming the missing or wrong field.
    """
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        raise IdentityError(f"QR code is not JSON ({error}); is this a pulka sheet?") from None
    if not isinstance(doc, list) or not doc or doc[0] != QR_FORMAT:
        raise IdentityError(f"QR code is not a {QR_FORMAT} identity; is this a pulka sheet?")
    if len(doc) != len(_FIELDS):
        raise IdentityError(f"QR identity has {len(doc)} fields, not {len(_FIELDS)}: "
                            f"{', '.join(_FIELDS)}; was it printed by another pulka version?")
    fields = dict(zip(_FIELDS, doc, strict=True))
    values = fields["settings"]
    if not isinstance(values, list) or len(values) != len(SETTING_NAMES):
        raise IdentityError(f"QR identity field 'settings' must list {len(SETTING_NAMES)} "
                            f"settings; was the sheet printed by another pulka version?")
    rules = dict(zip(SETTING_NAMES, values, strict=True))
    try:
        preset = RuleSet.preset(rules["variant"], rules["players"], rules["pool"]).settings()
    except RuleSetError as error:
        raise IdentityError(f"QR identity field 'settings': {error}") from None
    for name, value in rules.items():
        if isinstance(preset[name], bool) and value in (0, 1):
            rules[name] = bool(value)
    try:
        identity = SheetIdentity(
            sheet_id=str(fields["sheet_id"]), tournament=str(fields["tournament"]),
            round=fields["round"], table=fields["table"], page=int(fields["page"]),
            continuation=int(fields["continuation"]), layout_id=str(fields["layout_id"]),
            rules_id=str(fields["rules_id"]), rules=rules, seats=tuple(fields["seats"]),
            names=tuple(fields["names"]), date=str(fields["date"]))
    except (TypeError, ValueError) as error:
        raise IdentityError(f"QR identity has a field of the wrong type ({error})") from None
    try:
        rules_id = identity.rule_set().id
    except RuleSetError as error:
        raise IdentityError(f"QR identity field 'rs': {error}") from None
    if rules_id != identity.rules_id:
        raise IdentityError(f"QR identity: settings hash to {rules_id}, not the printed rules "
                            f"id {identity.rules_id}; was the sheet printed by another pulka "
                            f"version?")
    return identity
