"""Errors of the rules engine, split by kind as python-chess splits its notation errors.

Every error is a :class:`ValueError` whose message quotes the input and where it stands
(the field of the record, the deal number), so that a person can fix the file.
"""

from __future__ import annotations

from scoring.exitcode import PulkaError


class ScoringError(PulkaError, ValueError):
    """Base class of every error raised by :mod:`scoring` (exit code ``BAD_INPUT``)."""


class RecordError(ScoringError):
    """A record, or a part of one, that does not follow ``pulka-record/1``.

    ``where`` names the field, e.g. ``deals[3].tricks``; it is prefixed to the message.
    """

    def __init__(self, message: str, where: str = "") -> None:
        self.where = one_line(where)
        self.reason = one_line(message)
        super().__init__(f"{self.where}: {self.reason}" if where else self.reason)


def one_line(text: str) -> str:
    r"""``text`` with its control characters escaped (a field name or value quoted from the
    input may hold a newline; a message stays one line).

    >>> one_line("deals[0].a\nb")
    'deals[0].a\\nb'
    """
    return "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in text)


class RuleSetError(RecordError):
    """An unknown setting, or a setting with an impossible value."""


class InvalidNotationError(RecordError):
    """Text that does not parse: ``"6X"``, ``"8♥/-z"``."""


class IllegalDealError(RecordError):
    """A deal that parses but cannot happen: tricks not summing to 10, a whist on a misère."""
