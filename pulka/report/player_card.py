"""A player's card for the wall or the player: each game (round, table, opponents), its result
in whists, exact and in the Codex 4.2.12 integer form, and why the two differ.

Codex 4.2.12 makes each mountain (after the amnesty) divide by the number of players by adding
or writing off a point, the others compensating with whole whists (3 each with 3 players, 2
with 4): the integer result then differs from the exact one by a fraction of a whist per point
moved (:func:`scoring.settlement.codex_integer_form`). :func:`rounding_reason` says so in words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pulka.i18n import _, ngettext
from pulka.store.database import Store
from pulka.store.standings import PlayerGame, player_games, result_is_final
from scoring import parse_record, settle_record
from scoring.errors import ScoringError
from scoring.jsonio import fraction_json
from scoring.settlement import CodexRemainder


def mixed(value: Fraction) -> str:
    """A fraction as people write whists: ``-205 1/3``, ``14``, ``2/3``.

    >>> mixed(Fraction(-616, 3)), mixed(Fraction(14)), mixed(Fraction(2, 3))
    ('-205 1/3', '14', '2/3')
    """
    sign = "-" if value < 0 else ""
    whole, part = divmod(abs(value.numerator), value.denominator)
    if not part:
        return f"{sign}{whole}"
    return f"{sign}{whole} {part}/{value.denominator}" if whole else \
        f"{sign}{part}/{value.denominator}"


def rounding_reason(exact: Fraction, integer: int, moves: tuple[CodexRemainder, ...],
                    names: Mapping[str, str]) -> str:
    """Why a sheet's integer result is not its exact one (Codex 4.2.12); seats by name.

    >>> rounding_reason(Fraction(-616, 3), -206, (CodexRemainder("B", -1, 3),),
    ...                 {"B": "Петренко"})
    "exact -205 1/3, integer -206 (Codex 4.2.12: a point written off Петренко (B)'s \
mountain, the others writing 3 whists each on Петренко (B))"
    """
    if exact == integer:
        return ""

    def who(seat: str) -> str:
        return f"{names[seat]} ({seat})" if names.get(seat) else seat

    parts = []
    for move in moves:
        if move.mountain_change < 0:
            parts.append(ngettext(
                "a point written off {who}'s mountain, the others writing {n} whist each on "
                "{who}", "a point written off {who}'s mountain, the others writing {n} whists "
                "each on {who}", move.compensation).format(who=who(move.seat),
                                                          n=move.compensation))
        else:
            parts.append(ngettext(
                "a point added to {who}'s mountain, {who} writing {n} whist on each other",
                "a point added to {who}'s mountain, {who} writing {n} whists on each other",
                -move.compensation).format(who=who(move.seat), n=-move.compensation))
    why = "; ".join(parts) or _("fractional whists and mountains rounded to whole ones")
    return _("exact {exact}, integer {integer} (Codex 4.2.12: {why})").format(
        exact=mixed(exact), integer=integer, why=why)


@dataclass(frozen=True)
class CardGame:
    """One game on the card."""

    game: PlayerGame
    reason: str
    """Why the integer result differs from the exact one ("" when it does not)."""

    @property
    def final(self) -> bool:
        """Whether this game's result is final."""
        game = self.game
        return game.result is not None and result_is_final(game.state, game.signed_off)

    def to_json(self) -> dict[str, Any]:
        """The game as JSON."""
        g = self.game
        return {"sheet": g.sheet, "round": g.round, "table": g.table, "seat": g.seat,
                "opponents": [{"seat": s, "player": n} for s, n in g.opponents],
                "state": str(g.state), "final": self.final, "whists": g.codex_integer,
                "exact": None if g.result is None else fraction_json(g.result),
                "rounding": self.reason}


@dataclass(frozen=True)
class PlayerCard:
    """A player's games in one tournament."""

    tournament: str
    player: str
    games: tuple[CardGame, ...]

    @property
    def whists(self) -> int:
        """The integer whists of the games with a result."""
        return sum(g.game.codex_integer or 0 for g in self.games)

    def to_json(self) -> dict[str, Any]:
        """The card as JSON."""
        return {"format": "pulka-player-card/1", "tournament": self.tournament,
                "player": self.player, "whists": self.whists,
                "final": bool(self.games) and all(g.final for g in self.games),
                "games": [g.to_json() for g in self.games]}

    def text(self) -> str:
        """The card as plain text, in the language pulka speaks."""
        lines = [f"{self.player} · {self.tournament}"]
        if not self.games:
            return "\n".join([*lines, _("no sheet yet")])
        for item in self.games:
            g = item.game
            against = ", ".join(f"{n} ({s})" for s, n in g.opponents)
            result = _("no result (record refused)") if g.codex_integer is None \
                else f"{g.codex_integer:+d}"
            mark = "" if item.final else " · " + _("provisional")
            lines.append(_("round {round} · table {table} · seat {seat} · against {against}: "
                           "{result}").format(round=g.round or "-", table=g.table or "-",
                                              seat=g.seat, against=against, result=result)
                         + mark)
            if item.reason:
                lines.append(f"    {item.reason}")
        lines.append(ngettext("total {n} whist", "total {n} whists", abs(self.whists)).format(
            n=f"{self.whists:+d}"))
        return "\n".join(lines)


def player_card(store: Store, tournament: str | None, player: str) -> PlayerCard:
    """The card of ``player``; :class:`~pulka.store.errors.StoreError` when nobody of that
    name is in the tournament."""
    name, games = player_games(store.conn, store.tournament_id(tournament), player)
    return PlayerCard(name, player, tuple(CardGame(g, _reason(g, player)) for g in games))


def _reason(game: PlayerGame, player: str) -> str:
    if game.result is None or game.codex_integer is None or game.record is None:
        return ""
    try:
        moves = settle_record(parse_record(game.record)).remainders
    except (ScoringError, ArithmeticError):
        moves = ()
    names = {**dict(game.opponents), game.seat: player}
    return rounding_reason(game.result, game.codex_integer, moves, names)
