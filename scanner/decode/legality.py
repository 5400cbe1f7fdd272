"""Whether the rules engine (:func:`scoring.deals.make_deal`) accepts the deal shapes a row
of the contract/result column may say (:mod:`scanner.decode.deals`).

A verdict depends only on a shape's :func:`verdict_key` (its kind, contract and calls), on
whether it has tricks and on its talon prize, and on the rule set's
:func:`~scoring.deals.legality_rules`, so the rows of every sheet of a batch share one set of
verdicts (:func:`verdicts`) and each key is put to the rules engine once.
"""

from __future__ import annotations

import functools
from typing import Any

from scoring.deals import legality_rules, make_deal
from scoring.errors import RecordError
from scoring.rules import RuleSet

VerdictKey = tuple[str, ...] | None
"""All of a deal shape the rules engine's verdict depends on (:func:`verdict_key`)."""
Legality = dict[tuple[VerdictKey, bool, int], bool]
"""The rules engine's verdicts on deal shapes (:func:`verdict_key`), asked with tricks or
without and with a talon prize: :func:`scanner.decode.deals.decode_row` asks once per such
    key."""
VERDICT_SETS = 16
"""Rule sets (as far as legality goes) and seatings whose :func:`verdicts` a process keeps
(under two thousand verdicts each: 25 contracts, 9 pairs of calls, played or not, 4 talon
prizes)."""


def verdicts(rules: RuleSet, seats: tuple[str, ...]) -> Legality:
    """The verdicts (:data:`Legality`) for ``rules`` and ``seats``, one set per process and
    per :func:`~scoring.deals.legality_rules` of ``rules``: a verdict depends on nothing else,
    and the sheets of a batch share their seats and mostly their rules, so each verdict key
    (:func:`verdict_key`) is put to the rules engine once, not once a sheet (nor once a rule
    set)."""
    return _shared_verdicts(legality_rules(rules), seats)


@functools.lru_cache(maxsize=VERDICT_SETS)
def _shared_verdicts(legality: tuple[bool, bool], seats: tuple[str, ...]) -> Legality:
    """The verdicts shared by every rule set whose :func:`~scoring.deals.legality_rules` are
    ``legality``, with ``seats``."""
    return {}


def verdict_key(shape: dict[str, Any] | None, players: list[str]) -> VerdictKey:
    """All of a deal shape (as :mod:`scanner.decode.deals` makes them) that
    :func:`scoring.deals.make_deal`'s verdict depends on (with its tricks or none, and its
    talon prize): its kind, and for a contract the contract and the defenders' calls
    clockwise from the declarer. Not the dealer nor the declarer: a shape names only seats
    that play and its defence only the defenders, which is all make_deal checks of them (a
    test checks every shape of 3 and 4 seats under every rule set's legality), so the rows
    of every dealer share a verdict."""
    if shape is None:
        return None
    if shape["type"] != "contract":
        return (shape["type"],)
    declarer = players.index(shape["declarer"])
    defence = shape["defence"]
    return ("contract", shape["contract"],
            *(defence[seat] for seat in players[declarer + 1:] + players[:declarer]))


def is_legal(deal: dict[str, Any] | None, rules: RuleSet, seats: tuple[str, ...]) -> bool:
    """Whether the rules engine accepts the deal (an empty row always stands)."""
    if deal is None:
        return True
    try:
        make_deal(rules, seats, number=1, dealer=deal["dealer"], kind=deal["type"],
                  declarer=deal.get("declarer"), contract=deal.get("contract"),
                  defence=deal.get("defence"), tricks=deal.get("tricks"),
                  talon_quick_tricks=deal.get("talon", {}).get("quick_tricks", 0))
    except RecordError:
        return False
    return True
