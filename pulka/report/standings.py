"""Tournament standings: players ranked by total whists (Codex 4.1.3), optional tie-breaks.

A player's total is the sum of his sheets' results in the Codex 4.2.12 integer form (each
sheet's mountain remainders settled in whole whists, RULES.md §8), overall or in one round;
the exact sum of fractions stays beside it. The whist difference decides; the organiser may
name tie-breaks from 4.1.3, applied in the order given to players level on whists:

* ``remises``: fewest remises, the contracts the player declared, played and went down on (a
  caught misère counted too), summed over his sheets;
* ``allpass``: most all-pass whists, the whists the all-pass deals alone are worth to him: each
  all-pass deal's entries settled by RULES.md §8's general formula
  S_i = r_p(P_i - P̄) - 10(M_i - M̄) + Σ_j (W_ij - W_ji), summed over his deals and sheets
  (see :func:`pulka.store.refresh.seat_stats`).

Players still level share a rank (1, 2, 2, 4). A player with no sheet yet (in the draw only)
has no rank. Only sheets with a settlement count: a sheet whose record the rules engine refused
(``needs_review`` with a record error) adds nothing, and each row says how many of its sheets
are not final yet (``provisional``: neither settled nor signed off by a judge,
:func:`pulka.store.standings.result_is_final`).
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

from pulka.i18n import N_, _
from pulka.store.database import Store
from pulka.store.standings import SeatResult, StandingsRows, result_is_final
from scoring.jsonio import fraction_json

log = logging.getLogger(__name__)

STANDINGS_FORMAT = "pulka-standings/1"
TIEBREAKS = ("remises", "allpass")
NO_SHEET = N_("no sheet yet")


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

    rank: int | None
    """``None``: no sheet yet."""
    player: str
    total: Fraction
    by_round: dict[int, Fraction]
    sheets: int
    provisional: int
    """Sheets counted whose results are not final yet (findings or cells to check)."""
    remises: int
    allpass: Fraction
    integer: int = 0
    """The sum of the sheets' Codex 4.2.12 integer results: what ranks."""
    by_round_integer: dict[int, int] = field(default_factory=dict)

    @property
    def final(self) -> bool:
        """Every sheet counted is final, and there is one."""
        return self.sheets > 0 and not self.provisional

    def to_json(self) -> dict[str, Any]:
        """The line as JSON: the integer whists, the exact ones as ``p/q`` beside them."""
        return {"rank": self.rank, "player": self.player, "whists": self.integer,
                "total": fraction_json(self.total), "rounded": whists_text(self.total),
                "by_round": {str(r): fraction_json(v) for r, v in sorted(self.by_round.items())},
                "by_round_whists": {str(r): v for r, v in sorted(self.by_round_integer.items())},
                "sheets": self.sheets, "provisional": self.provisional, "final": self.final,
                "no_sheet": self.sheets == 0,
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
            if row.rank is None:
                writer.writerow(["", row.player, NO_SHEET, *("" for _ in self.rounds), "", 0,
                                 0, "", ""])
                continue
            writer.writerow([row.rank, row.player, row.integer,
                             *(row.by_round_integer.get(r, "") for r in self.rounds),
                             fraction_json(row.total), row.sheets, row.provisional,
                             row.remises, whists_text(row.allpass)])
        return out.getvalue()


def check_tiebreaks(names: Sequence[str]) -> tuple[str, ...]:
    """The tie-breaks, checked; raises ValueError naming an unknown or repeated one."""
    for name in names:
        if name not in TIEBREAKS:
            raise ValueError(_("unknown tie-break {name}; use {choices}").format(
                name=repr(name), choices=", ".join(TIEBREAKS)))
    if len(set(names)) != len(names):
        raise ValueError(_("tie-breaks repeat: {names}").format(names=", ".join(names)))
    return tuple(names)


def standings(store: Store, tournament: str | None = None, round_: int | None = None,
              tiebreaks: Sequence[str] = ()) -> Standings:
    """Rank the players of a tournament (one round when ``round_`` is given)."""
    return rank(store.standings_rows(tournament, round_), round_, tiebreaks)


def rank(data: StandingsRows, round_: int | None = None,
         tiebreaks: Sequence[str] = ()) -> Standings:
    """Rank players by integer whists, then the tie-breaks in order; level players share a
    rank; players with no sheet follow, unranked, by name."""
    order = check_tiebreaks(tiebreaks)
    lines = {p: _Line() for p in data.players}
    for seat in data.results:
        lines[seat.player].add(seat)

    def key(player: str) -> tuple[Any, ...]:
        line = lines[player]
        parts: list[Any] = [-line.integer]
        for tiebreak in order:
            parts.append(line.remises if tiebreak == "remises" else -line.allpass)
        return tuple(parts)

    played = sorted((p for p in lines if lines[p].sheets), key=lambda p: (key(p), p))
    out: list[Standing] = []
    for index, player in enumerate(played):
        place = out[-1].rank if out and key(played[index - 1]) == key(player) else index + 1
        out.append(lines[player].standing(place, player))
    out += [lines[p].standing(None, p) for p in sorted(p for p in lines if not lines[p].sheets)]
    numbers = set(data.rounds) if round_ is not None else \
        {r for line in lines.values() for r in line.by_round} | data.rounds
    return Standings(data.tournament, round_, order, tuple(sorted(numbers)), tuple(out),
                     data.states)


@dataclass
class _Line:
    """A player's sums while the seats are counted."""

    total: Fraction = Fraction(0)
    integer: int = 0
    by_round: dict[int, Fraction] = field(default_factory=dict)
    by_round_integer: dict[int, int] = field(default_factory=dict)
    sheets: int = 0
    provisional: int = 0
    remises: int = 0
    allpass: Fraction = Fraction(0)

    def add(self, seat: SeatResult) -> None:
        number = seat.round or 0
        self.total += seat.result
        self.integer += seat.codex_integer
        self.by_round[number] = self.by_round.get(number, Fraction(0)) + seat.result
        self.by_round_integer[number] = self.by_round_integer.get(number, 0) + seat.codex_integer
        self.sheets += 1
        self.provisional += not result_is_final(seat.state, seat.signed_off)
        self.remises += seat.remises
        self.allpass += seat.allpass

    def standing(self, place: int | None, player: str) -> Standing:
        return Standing(place, player, self.total, self.by_round, self.sheets,
                        self.provisional, self.remises, self.allpass, self.integer,
                        self.by_round_integer)
