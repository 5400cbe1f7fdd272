"""Sentences that know their code (:class:`scoring.said.Said`: the scanner's warnings,
problems, notes and refusals, :mod:`scanner.words`; the rules engine's reasons for an
amount, :mod:`scoring.reasons`) said in the chosen language.

The catalogue entry of a code is its English template itself (``pulka/locale/update.sh``
extracts the templates from ``scanner/words.py`` and ``scoring/reasons.py``), so in English
the sentence comes back as the scanner or the engine wrote it. A sentence without a code (an
older scan's, a store's from before codes) is shown as it is.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from pulka import notes
from pulka.i18n import _
from scanner import words
from scoring import reasons
from scoring.said import Param, Said

TEMPLATES: Mapping[str, str] = {**words.WORDS, **reasons.WORDS, **notes.WORDS}
"""Each code pulka can say, and its English template (the catalogue's message id)."""


def said_text(sentence: str) -> str:
    """``sentence`` in the chosen language, its nested sentences too."""
    if not isinstance(sentence, Said) or sentence.code not in TEMPLATES:
        return str(sentence)
    return _(TEMPLATES[sentence.code]).format(
        **{name: _param(value) for name, value in sentence.params.items()})


def said_doc_text(value: Any) -> str:
    """A sentence as a JSON document holds it (``{"code", "params", "message"}`` or a
    string: :func:`scoring.said.said_json`) in the chosen language."""
    return said_text(Said.from_json(value) if isinstance(value, Mapping) else str(value))


def _param(value: Param) -> str:
    if isinstance(value, str):
        return said_text(value)
    return "" if value is None else str(value)


class SaidFormatter(logging.Formatter):
    """Log lines whose arguments are sentences by code (the scanner's warnings and problems)
    in the language pulka speaks."""

    def format(self, record: logging.LogRecord) -> str:
        """The line, each :class:`~scoring.said.Said` argument said again."""
        if isinstance(record.args, tuple) and any(isinstance(a, Said) for a in record.args):
            record = logging.makeLogRecord({**record.__dict__, "args": tuple(
                said_text(a) if isinstance(a, Said) else a for a in record.args)})
        return super().format(record)


def log_line(command: str, level: int) -> str:
    """A log line's format: ``pulka COMMAND: message`` for people; with ``-v`` (``level``
    under WARNING) the level and the logger's name too."""
    if level < logging.WARNING:
        return "%(levelname)s %(name)s: %(message)s"
    return f"pulka {command}: %(message)s"
