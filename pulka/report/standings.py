"""Tournament standings: players ranked by total whists (Codex 4.1.3), optional tie-breaks.

A player's total is the sum of his settlement results (whists, exact fractions) over the sheets
he played, overall or in one round; it is shown rounded to 2 decimals. The whist difference
decides (RULES.md §8); the organiser may name tie-breaks from 4.1.3, applied in the order given
to players level on whists:

* ``remises``: fewest remises, the contracts the player declared, played and went down on (a
  caught misère counted too), summed over his sheets;
* ``allpass``: most all-pass whists, the whists the all-pass deals alone are worth to him: each
  all-pass deal's entries settled by RULES.md §8's general formula
  S_i = r_p(P_i - P̄) - 10(M_i - M̄) + Σ_j (W_ij - W_ji), summed over his deals and sheets
  (see :func:`pulka.store.refresh.seat_stats`).

Players still level share a rank (1, 2, 2, 4). Only sheets with a settlement count: a sheet
whose record the rules engine refused (``needs_review`` with a record error) adds nothing,
and each row says how many of its sheets are neither ``settled`` nor signed off by a judge
(``provisional``): a player's result is final when none is.
"""

from __future__ import annotations

import csv
import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from pulka.store.database import Store
from pulka.store.schema import SheetState
from pulka.store.standings import StandingsRows
from scoring.jsonio import fraction_json

log = logging.getLogger(__name__)

STANDINGS_FORMAT = "pulka-standings/1"
TIEBREAKS = ("remises", "allpass")


def whists_text(value: Fraction) -> str:
    """Whists rounded half away from zero to 2 decimals.

    >>> whists_text(Fraction(-122, 3)), whists_text(Fraction(1, 8)), whists_text(Fraction(5))
    ('-40.67', '0.13', '5.00')
    """
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


@dataclass(frozen=True)
class Standing:
    """One player's line."""

    rank: int
    player: str
    total: Fraction
    by_round: dict[int, Fraction]
    sheets: int
    provisional: int
    """Sheets counted that are not ``settled`` yet (findings or cells to check)."""
    remises: int
    allpass: Fraction

    def to_json(self) -> dict[str, Any]:
        """The line as JSON: exact whists as ``p/q`` strings, rounded ones beside them."""
        return {"rank": self.rank, "player": self.player, "total": fraction_json(self.total),
                "rounded": whists_text(self.total),
                "by_round": {str(r): fraction_json(v) for r, v in sorted(self.by_round.items())},
                "sheets": self.sheets, "provisional": self.provisional,
                "remises": self.remises, "allpass": fraction_json(self.allpass)}


@dataclass(frozen=True)
class Standings:
    """The ranking of one tournament, overall or for one round."""

    tournament: str
    round: int | None
    tiebreaks: tuple[str, ...]
    rounds: tuple[int, ...]
    rows: tuple[Standing, ...]
    states: dict[str, int] = field(default_factory=dict)
    """Sheets counted per state."""

    def to_json(self) -> dict[str, Any]:
        """The ``pulka-standings/1`` document."""
        return {"format": STANDINGS_FORMAT, "tournament": self.tournament, "round": self.round,
                "tiebreaks": list(self.tiebreaks), "rounds": list(self.rounds),
                "sheets": dict(sorted(self.states.items())),
                "standings": [row.to_json() for row in self.rows]}

    def to_csv(self) -> str:
        """One line per player: rank, player, total (rounded), each round, the rest exact."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["rank", "player", "whists", *(f"round {r}" for r in self.rounds),
                         "exact", "sheets", "provisional", "remises", "allpass"])
        for row in self.rows:
            writer.writerow([row.rank, row.player, whists_text(row.total),
                             *(whists_text(row.by_round.get(r, Fraction(0)))
                               for r in self.rounds),
                             fraction_json(row.total), row.sheets, row.provisional,
                             row.remises, whists_text(row.allpass)])
        return out.getvalue()


def check_tiebreaks(names: Sequence[str]) -> tuple[str, ...]:
    """The tie-breaks, checked; raises ValueError naming an unknown or repeated one."""
    for name in names:
        if name not in TIEBREAKS:
            raise ValueError(f"unknown tie-break {name!r}; use {', '.join(TIEBREAKS)}")
    if len(set(names)) != len(names):
        raise ValueError(f"tie-breaks repeat: {', '.join(names)}")
    return tuple(names)


def standings(store: Store, tournament: str | None = None, round_: int | None = None,
              tiebreaks: Sequence[str] = ()) -> Standings:
    """Rank the players of a tournament (one round when ``round_`` is given)."""
    return rank(store.standings_rows(tournament, round_), round_, tiebreaks)


def rank(data: StandingsRows, round_: int | None = None,
         tiebreaks: Sequence[str] = ()) -> Standings:
    """Rank players by total whists, then the tie-breaks in order; level players share a rank."""
    order = check_tiebreaks(tiebreaks)
    players = data.players
    totals = {p: Fraction(0) for p in players}
    by_round: dict[str, dict[int, Fraction]] = {p: {} for p in players}
    sheets = dict.fromkeys(players, 0)
    provisional = dict.fromkeys(players, 0)
    remises = dict.fromkeys(players, 0)
    allpass = {p: Fraction(0) for p in players}
    for seat in data.results:
        player, number = seat.player, seat.round or 0
        totals[player] += seat.result
        by_round[player][number] = by_round[player].get(number, Fraction(0)) + seat.result
        sheets[player] += 1
        provisional[player] += seat.state is not SheetState.SETTLED and not seat.signed_off
        remises[player] += seat.remises
        allpass[player] += seat.allpass

    def key(player: str) -> tuple[Any, ...]:
        parts: list[Any] = [-totals[player]]
        for tiebreak in order:
            parts.append(remises[player] if tiebreak == "remises" else -allpass[player])
        return tuple(parts)

    ranked = sorted(players, key=lambda p: (key(p), p))
    lines: list[Standing] = []
    for index, player in enumerate(ranked):
        place = lines[-1].rank if lines and key(ranked[index - 1]) == key(player) else index + 1
        lines.append(Standing(place, player, totals[player], by_round[player], sheets[player],
                              provisional[player], remises[player], allpass[player]))
    numbers = set(data.rounds) if round_ is not None else \
        {r for p in by_round.values() for r in p} | data.rounds
    return Standings(data.tournament, round_, order, tuple(sorted(numbers)), tuple(lines),
                     data.states)
