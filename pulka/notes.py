"""pulka's own sentences by code (:class:`scoring.said.Said`), beside the scanner's
(:mod:`scanner.words`): what a person's decision adds to a cell's note, and why the import
refuses a scan document."""

from __future__ import annotations

from pulka.i18n import N_
from scoring.said import Param, Said, say

WORDS: dict[str, str] = {
    "illegible": N_("illegible"),
    "illegible_note": N_("illegible · {note}"),
    "document_too_big": N_("larger than {limit} bytes, not a scan document"),
    "document_unread": N_("cannot be read ({error})"),
    "document_invalid": N_("not a readable {format} document ({problem})"),
    "nested_too_deep": N_("nested too deep"),
    "refused_before": N_("{text} (refused by an earlier import: not scanned again until the "
                         "file or its folder changes; pulka import --rescan reads it anyway)"),
    "rescan_or_restore": N_("scan the sheet's images again (pulka import --rescan) or restore "
                            "the file"),
}
"""Each code's English template (``N_`` marks it for the catalogues)."""


def said(code: str, /, **params: Param) -> Said:
    """The sentence of ``code`` with ``params``, in English, knowing its code."""
    return say(WORDS, code, **params)


def illegible_note(note: str) -> Said:
    """The note of a cell a person marked illegible, keeping the scanner's note after it."""
    return said("illegible_note", note=note) if note else said("illegible")


def without_illegible(note: str) -> str:
    """The scanner's note of a cell, a person's ``illegible`` taken off.

    >>> without_illegible(illegible_note("ink unsure")), without_illegible("illegible")
    ('ink unsure', '')
    """
    if isinstance(note, Said) and note.code == "illegible_note":
        inner = note.params["note"]
        return inner if isinstance(inner, str) else str(inner)
    if note == WORDS["illegible"]:
        return ""
    prefix = WORDS["illegible_note"].format(note="")
    return note[len(prefix):] if note.startswith(prefix) else note
