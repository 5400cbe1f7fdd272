"""How two readings of a deal row differ, in words: the fields of a note that asks a person
about a row (its digit cells' tricks and talon, apart from its marks).
"""

from __future__ import annotations

from typing import Any

from scanner.words import and_list, said

DIGIT_FIELDS = ("tricks", "talon")
"""The fields of a record deal that the row's digit cells say (the result cells follow
from the tricks); the rest come from its marks."""


def shape_of(deal: dict[str, Any]) -> dict[str, Any]:
    """A deal without what the row's digit cells say (:data:`DIGIT_FIELDS`): its marks."""
    return {name: value for name, value in deal.items() if name not in DIGIT_FIELDS}


def digits_apart(deal: dict[str, Any] | None, other: dict[str, Any] | None) -> str:
    """:func:`digit_fields` of two readings of a row that differ only in its digit cells;
    ``""`` where either is no deal or their marks differ too."""
    if deal and other and shape_of(deal) == shape_of(other):
        return digit_fields(deal, other)
    return ""


def digit_fields(deal: dict[str, Any] | None, other: dict[str, Any] | None) -> str:
    """What two readings of a row's digit cells disagree on, in words (for a note).

    >>> str(digit_fields({"tricks": {"A": 6, "B": 3, "C": 1}},
    ...                  {"tricks": {"A": 6, "B": 2, "C": 2}}))
    "B's and C's tricks (3 and 1, or 2 and 2)"
    >>> str(digit_fields({"talon": {"quick_tricks": 2}}, {}))
    "the talon's quick tricks (2, or 0)"
    """
    deal, other = deal or {}, other or {}
    parts = []
    tricks, other_tricks = deal.get("tricks") or {}, other.get("tricks") or {}
    seats = [seat for seat in {**tricks, **other_tricks}
             if tricks.get(seat) != other_tricks.get(seat)]
    if seats:
        these, those = (and_list([t.get(seat, said("none")) for seat in seats])
                        for t in (tricks, other_tricks))
        owners = and_list([said("owner", seat=seat) for seat in seats])
        parts.append(said("tricks_of", owners=owners, these=these, those=those))
    quick = [d.get("talon", {}).get("quick_tricks", 0) for d in (deal, other)]
    if quick[0] != quick[1]:
        parts.append(said("talon_quick", this=quick[0], that=quick[1]))
    if len(parts) == 2:
        return said("both", first=parts[0], second=parts[1])
    return parts[0] if parts else ""
