"""The mark groups of a deal row: each group's scores, the likeliest choices, and the deal
shape (kind, declarer, contract, calls) that choices which go together describe.

A row's marks are weighed as one choice per group (declarer, level, suit, each seat's call,
the result sign): the chosen box crossed and every other box of the group clear.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping
from typing import Any

from forms.geometry.deal_column import CALLS
from scanner.decode.numbers import PROBABILITY_FLOOR

OPTIONS_KEPT = 3
"""Options of a mark group tried per row (the most likely ones)."""
OPTION_MARGIN_LOG = 12.0
"""Options less likely than the best by more than this (natural log) are not tried."""


def log_p(p: float) -> float:
    """The log of a probability, floored (:data:`~scanner.decode.numbers.PROBABILITY_FLOOR`)."""
    return math.log(max(p, PROBABILITY_FLOOR))


class Marks(dict[tuple[str, str], float]):
    """A row's marks with the group and result scores already worked out (a row asks for
    the same few hundreds of times while its candidates are built)."""

    def __init__(self, marks: Mapping[tuple[str, str], float]) -> None:
        super().__init__(marks)
        self.groups: dict[tuple[str, tuple[str, ...]], dict[str | None, float]] = {}
        """Each mark group's scores: :func:`group_scores`."""
        self.calls: dict[tuple[str, ...], list[tuple[dict[str, str | None], float]]] = {}
        self.results: dict[tuple[str | None, int | None], float] = {}
        """The result cells' score per (sign, number)
        (:func:`scanner.decode.deals._result_score`)."""
        self.talons: dict[str, list[tuple[int, float]]] = {}
        """The talon prizes per kind of deal: :func:`scanner.decode.row_digits.talon_options`."""
        self.best_talon: dict[str, float] = {}
        """The best of :attr:`talons`' scores per kind of deal."""


def group_scores(marks: Marks, field: str, options: tuple[str, ...]
                  ) -> dict[str | None, float]:
    """Log-likelihood that exactly each of ``options`` (``None``: none of them) is crossed in
    a mark group, in the group's order: each box's crossed and clear logs are taken once,
    and each choice sums them over the group's boxes in order."""
    key = (field, options)
    scores = marks.groups.get(key)
    if scores is None:
        seen = [marks.get((field, o), 0.0) for o in options]
        crossed = [log_p(p) for p in seen]
        clear = [log_p(1 - p) for p in seen]
        scores = marks.groups[key] = {
            chosen: sum([*clear[:i], crossed[i], *clear[i + 1:]])
            for i, chosen in enumerate(options)}
        scores[None] = sum(clear)
    return scores


def best_options(marks: Marks, field: str, options: tuple[str, ...]) -> list[str | None]:
    """The likeliest choices of a mark group: :data:`OPTIONS_KEPT` at most, none more than
    :data:`OPTION_MARGIN_LOG` below the best."""
    scored = sorted(((score, o) for o, score in group_scores(marks, field, options).items()),
                    key=lambda item: -item[0])
    best = scored[0][0]
    return [o for score, o in scored[:OPTIONS_KEPT] if best - score <= OPTION_MARGIN_LOG]


def callers(declarer: str | None, level: str | None, players: list[str]) -> tuple[str, ...]:
    """The seats that call on a contract (its defenders); no seat calls otherwise."""
    if declarer not in players or level in (None, "misere"):
        return ()
    return tuple(p for p in players if p != declarer)


def call_choices(marks: Marks, seats: tuple[str, ...],
                  callers: tuple[str, ...]) -> list[tuple[dict[str, str | None], float]]:
    """Each caller's likely calls, combined, every other seat calling nothing, with the
    log-likelihood of each combination; combinations far below the best are dropped."""
    cached = marks.calls.get(callers)
    if cached is not None:
        return cached
    per_seat = []
    for seat in seats:
        options = call_options(seat)
        if seat in callers:
            likely: list[str | None] = [o for o in best_options(marks, "call", options) if o]
        else:
            likely = [None]
        scores = group_scores(marks, "call", options)
        per_seat.append([(o, scores[o]) for o in likely])
    choices = []
    for combo in itertools.product(*per_seat):
        calls = {s: (o.split(":")[1] if o else None)
                 for s, (o, _) in zip(seats, combo, strict=True)}
        choices.append((calls, sum(score for _, score in combo)))
    best = max((score for _, score in choices), default=0.0)
    kept = [c for c in choices if best - c[1] <= OPTION_MARGIN_LOG]
    marks.calls[callers] = kept
    return kept


CALL_CROSSED_SURE = 0.9
"""A call box crossed at this probability or more is the defender's own mark, not a speck:
a reading that gives that defender another call denies the ink (:func:`denied_calls`)."""


def denied_calls(marks: Mapping[tuple[str, str], float], deal: Mapping[str, Any] | None
                 ) -> tuple[str, ...]:
    """The call boxes (``seat:call``) of ``deal``'s defenders crossed at
    :data:`CALL_CROSSED_SURE` or more that the deal does not make: the ink says that
    defender called otherwise. A box of a seat that does not call (the declarer, a dealer
    sitting out, every seat of an all-pass or a misere) is left aside: a mark spilt from the
    next box, or a speck.

    >>> marks = {("call", "B:whist"): 0.99, ("call", "B:pass"): 0.04, ("call", "A:pass"): 0.99}
    >>> denied_calls(marks, {"type": "contract", "defence": {"A": "pass", "B": "pass"}})
    ('B:whist',)
    >>> denied_calls(marks, {"type": "contract", "defence": {"A": "pass", "B": "whist"}})
    ()
    """
    defence = (deal or {}).get("defence") or {}
    made = made_calls(deal)
    return tuple(option for (field, option), p in marks.items()
                 if field == "call" and p >= CALL_CROSSED_SURE
                 and option.split(":")[0] in defence and option not in made)


def made_calls(deal: Mapping[str, Any] | None) -> frozenset[str]:
    """The call boxes (``seat:call``) ``deal``'s defenders cross.

    >>> sorted(made_calls({"type": "contract", "defence": {"A": "pass", "B": "whist"}}))
    ['A:pass', 'B:whist']
    """
    return frozenset(f"{seat}:{call}"
                     for seat, call in ((deal or {}).get("defence") or {}).items())


@functools.cache
def call_options(seat: str) -> tuple[str, ...]:
    """The mark boxes of one seat's call, as :class:`RowEvidence` names them."""
    return tuple(f"{seat}:{c}" for c in CALLS)


def deal_kind(declarer: str | None, level: str | None, players: list[str]) -> str | None:
    """The kind of row the declarer and level marks describe: ``"empty"``, ``"allpass"``,
    ``"misere"`` or ``"contract"``; ``None`` if no suit nor calls make them a deal (a level
    on an empty row or an all-pass, a declarer who does not play, a declarer with no
    level)."""
    if declarer is None:
        return "empty" if level is None else None
    if declarer == "allpass":
        return None if level else "allpass"
    if declarer not in players or level is None:
        return None
    return "misere" if level == "misere" else "contract"


def fitting_calls(kind: str, choices: list[tuple[dict[str, str | None], float]],
                   defenders: list[str]) -> list[tuple[dict[str, str | None], float]]:
    """The call choices that go with a row of ``kind``, in their order: on a contract each
    defender calls and nobody else does; on anything else nobody calls."""
    if kind != "contract":
        return [(calls, score) for calls, score in choices if not any(calls.values())]
    return [(calls, score) for calls, score in choices
            if all(calls[d] for d in defenders)
            and not any(calls[s] for s in calls if s not in defenders)]


def deal_shape(kind: str, declarer: str | None, level: str | None, suit: str | None,
           calls: dict[str, str | None], defenders: list[str], dealer: str
           ) -> dict[str, Any]:
    """The deal these marks describe, without tricks (``{}`` for an empty row), from marks
    that go together (:func:`deal_kind`, :func:`fitting_calls`)."""
    if kind == "empty":
        return {}
    if kind == "allpass":
        return {"dealer": dealer, "type": "allpass"}
    if kind == "misere":
        return {"dealer": dealer, "type": "misere", "declarer": declarer}
    return {"dealer": dealer, "type": "contract", "declarer": declarer,
            "contract": f"{level}{suit}",
            "defence": {d: calls[d] for d in defenders}}
