"""One deal of the deal log, and the checks that it could really have happened.

A :class:`Deal` is immutable and already checked against the seats and the rule set by
:func:`make_deal`: the players in the deal, the calls of the defence (whist, pass, half-whist),
the tricks (they sum to 10), Stalingrad and the checked ten.

>>> from scoring.rules import RuleSet
>>> rules = RuleSet.preset("sochi", 3, 20)
>>> deal = make_deal(rules, ("A", "B", "C"), number=1, dealer="A", kind="contract",
...                  declarer="B", contract="6S", defence={"C": "whist", "A": "pass"},
...                  tricks={"B": 6, "C": 3, "A": 1})
>>> deal.defenders, deal.whisters, deal.result_notation()
(('C', 'A'), ('C',), '6♠/=')
>>> make_deal(rules, ("A", "B", "C"), number=2, dealer="A", kind="misere", declarer="B",
...           defence={"C": "whist", "A": "pass"}, tricks={"B": 0, "C": 5, "A": 5})
Traceback (most recent call last):
...
scoring.errors.IllegalDealError: deal 2: a misère is not whisted; leave out 'defence'
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from scoring.errors import IllegalDealError, InvalidNotationError, RecordError
from scoring.notation import AllPass, Contract, Misere, Suit, format_tricks_over, parse_contract
from scoring.rules import RuleSet

DealKind = Literal["contract", "misere", "allpass"]
Call = Literal["whist", "pass", "halfwhist"]
CALLS: tuple[Call, ...] = ("whist", "pass", "halfwhist")
TRICKS_PER_DEAL = 10
TALON_QUICK_TRICKS_MAX = 3


@dataclass(frozen=True)
class Deal:
    """A deal as the contract/result column records it (Codex 4.2.11).

    ``players`` are the seats that play, clockwise from the seat after the dealer (with 4
    players the dealer sits out). ``defence`` and ``tricks`` are tuples of (seat, value) in
    that clockwise order; ``tricks`` is ``None`` when the deal was not played.
    """

    number: int
    dealer: str
    kind: DealKind
    players: tuple[str, ...]
    declarer: str | None = None
    contract: Contract | None = None
    defence: tuple[tuple[str, Call], ...] = ()
    tricks: tuple[tuple[str, int], ...] | None = None
    talon_quick_tricks: int = 0

    @property
    def defenders(self) -> tuple[str, ...]:
        """The declarer's opponents, clockwise from the declarer (first to speak first)."""
        if self.declarer is None:
            return ()
        return _after(self.players, self.declarer)

    @property
    def whisters(self) -> tuple[str, ...]:
        """Defenders who called ``whist``, clockwise from the declarer."""
        return tuple(seat for seat, call in self.defence if call == "whist")

    def call(self, seat: str) -> Call:
        """The call of one defender."""
        return dict(self.defence)[seat]

    def tricks_of(self, seat: str) -> int:
        """Tricks one player took; the deal must have been played."""
        assert self.tricks is not None, "deal was not played"
        return dict(self.tricks)[seat]

    @property
    def played(self) -> bool:
        """Whether the cards were played out (tricks are known)."""
        return self.tricks is not None

    @property
    def bid(self) -> Contract | Misere | AllPass:
        """The contract, misère or all-pass of this deal."""
        if self.kind == "contract":
            assert self.contract is not None
            return self.contract
        return Misere() if self.kind == "misere" else AllPass()

    def tricks_over(self) -> int | None:
        """Declarer's tricks above (+) or below (-) the contract; ``None`` if not played.

        For a misère it is minus the tricks taken (``мизер/-2``: caught with two).
        """
        if self.tricks is None or self.declarer is None:
            return None
        taken = self.tricks_of(self.declarer)
        if self.kind == "misere":
            return -taken
        assert self.contract is not None
        return taken - self.contract.level

    def result_notation(self) -> str:
        """Codex 4.2.11 form: ``6♠/=``, ``8♥/-1``; a deal not played reads ``/=``."""
        if self.kind == "allpass":
            return "all-pass"
        over = self.tricks_over()
        return f"{self.bid}/{format_tricks_over(over or 0)}"


def legality_rules(rules: RuleSet) -> tuple[bool, bool]:
    """All that :func:`make_deal`'s verdict takes from ``rules``: whether a ten is whisted
    and whether Stalingrad is played (RULES.md §3; the other settings change what a deal
    scores, not whether it can happen). Two rule sets with the same answer accept and refuse
    the same deals: a caller checking many deals under several rule sets (the scanner, a
    batch of sheets) can share its verdicts between them.

    >>> from scoring.rules import RuleSet
    >>> legality_rules(RuleSet.preset("sochi")) == legality_rules(RuleSet.preset("rostov"))
    True
    """
    return rules.ten_whisted, rules.stalingrad


def make_deal(rules: RuleSet, seats: tuple[str, ...], *, number: int, dealer: str,
              kind: str, declarer: str | None = None, contract: str | None = None,
              defence: Mapping[str, str] | None = None,
              tricks: Mapping[str, int] | None = None,
              talon_quick_tricks: int = 0) -> Deal:
    """Check one deal against the seats and the rules, and build it.

    Raises :class:`~scoring.errors.IllegalDealError` for what cannot happen (the rules
    cited in each message) and :class:`~scoring.errors.RecordError` for malformed values.
    """
    where = f"deal {number}"
    seats = tuple(seats)
    if dealer not in seats:
        raise RecordError(f"dealer {dealer!r} is not a seat ({', '.join(seats)})", where)
    clockwise = _after(seats, dealer) + (dealer,)
    players = clockwise[:-1] if len(seats) == 4 else clockwise
    if kind not in ("contract", "misere", "allpass"):
        raise RecordError(f"type {kind!r} is not contract, misere or allpass", where)
    if not isinstance(talon_quick_tricks, int) or isinstance(talon_quick_tricks, bool) or \
            not 0 <= talon_quick_tricks <= TALON_QUICK_TRICKS_MAX:
        raise RecordError(f"talon quick tricks must be 0-{TALON_QUICK_TRICKS_MAX}, "
                          f"got {talon_quick_tricks!r}", where)
    checked_tricks = _check_tricks(tricks, players, where) if tricks is not None else None
    if kind == "allpass":
        if declarer is not None or contract is not None or defence:
            raise IllegalDealError("an all-pass has no declarer, contract or defence", where)
        if checked_tricks is None:
            raise IllegalDealError("an all-pass is played: give 'tricks'", where)
        if talon_quick_tricks:
            raise IllegalDealError("no talon prize on an all-pass", where)
        return Deal(number, dealer, "allpass", players, tricks=checked_tricks)
    if declarer not in players:
        who = "the dealer sits out with 4 players" if declarer == dealer else "not a player"
        raise IllegalDealError(f"declarer {declarer!r}: {who} (players: {', '.join(players)})",
                               where)
    if kind == "misere":
        if defence:
            raise IllegalDealError("a misère is not whisted; leave out 'defence'", where)
        if contract is not None:
            raise IllegalDealError("a misère has no contract; leave out 'contract'", where)
        if checked_tricks is None:
            raise IllegalDealError("a misère is always played: give 'tricks'", where)
        return Deal(number, dealer, "misere", players, declarer, tricks=checked_tricks,
                    talon_quick_tricks=talon_quick_tricks)  # recorded, never paid (§3)
    bid = _parsed_contract(contract if contract is not None else "", f"{where}.contract")
    if not isinstance(bid, Contract):
        kind_needed = "misere" if isinstance(bid, Misere) else "allpass"
        raise IllegalDealError(f"contract {contract!r}: use type {kind_needed!r}", where)
    calls = _check_defence(defence, _after(players, declarer), where)
    deal = Deal(number, dealer, "contract", players, declarer, bid, calls, checked_tricks,
                talon_quick_tricks)
    _check_calls_and_play(deal, rules, where)
    return deal


def _after(seats: tuple[str, ...], seat: str) -> tuple[str, ...]:
    """The other seats clockwise from the one after ``seat`` (the seats listed clockwise)."""
    start = seats.index(seat)
    return seats[start + 1:] + seats[:start]


def _parsed_contract(text: object, where: str) -> Contract | Misere | AllPass:
    """:func:`~scoring.notation.parse_contract` of ``text``, a text parsed once
    (:func:`_contract_of`: a scanner checks thousands of deals with a few dozen contracts);
    an error names ``where``."""
    if isinstance(text, str):
        try:
            return _contract_of(text)
        except InvalidNotationError:
            pass
    return parse_contract(text, where)  # type: ignore[arg-type]


@functools.lru_cache(maxsize=256)
def _contract_of(text: str) -> Contract | Misere | AllPass:
    """A contract's text parsed (the values are immutable: shared by every deal)."""
    return parse_contract(text)


def _check_tricks(tricks: object, players: tuple[str, ...], where: str) -> tuple[
        tuple[str, int], ...]:
    if not isinstance(tricks, dict | Mapping):
        raise RecordError(f"tricks must be an object of seat: tricks, got {tricks!r}", where)
    if set(tricks) != set(players):
        raise IllegalDealError(
            f"tricks must name exactly the players in the deal ({', '.join(players)}), "
            f"got {', '.join(map(str, tricks)) or 'none'}", where)
    for seat, count in tricks.items():
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 10:
            raise RecordError(f"tricks of {seat} must be a whole number 0-10, got {count!r}",
                              where)
    if sum(tricks.values()) != TRICKS_PER_DEAL:
        raise IllegalDealError(
            f"tricks sum to {sum(tricks.values())}, not {TRICKS_PER_DEAL}: "
            + ", ".join(f"{s} {tricks[s]}" for s in players), where)
    return tuple((seat, tricks[seat]) for seat in players)


def _check_defence(defence: object, defenders: tuple[str, ...], where: str) -> tuple[
        tuple[str, Call], ...]:
    if not isinstance(defence, dict | Mapping):
        raise RecordError(f"defence must name each defender's call, got {defence!r}", where)
    if set(defence) != set(defenders):
        raise IllegalDealError(f"defence must name exactly the defenders "
                               f"({', '.join(defenders)}), got {', '.join(map(str, defence))}",
                               where)
    for seat, call in defence.items():
        if call not in CALLS:
            raise RecordError(f"call of {seat} must be whist, pass or halfwhist, got {call!r}",
                              where)
    return tuple((seat, defence[seat]) for seat in defenders)


def _check_calls_and_play(deal: Deal, rules: RuleSet, where: str) -> None:
    """Which calls can stand together, and when the cards are played (RULES.md §3)."""
    assert deal.contract is not None
    level = deal.contract.level
    calls = [call for _, call in deal.defence]
    checked_ten = level == 10 and not rules.ten_whisted
    if "halfwhist" in calls:
        if level not in (6, 7):
            raise IllegalDealError(f"a half-whist is only allowed on 6 and 7, not on {level}",
                                   where)
        if calls != ["pass", "halfwhist"]:
            raise IllegalDealError("a half-whist follows the first defender's pass: the first "
                                   "defender passes, the second half-whists", where)
        if deal.played:
            raise IllegalDealError("a half-whist that stood is not played: leave out 'tricks' "
                                   "(a half-whist taken back is an ordinary whist/pass deal)",
                                   where)
        return
    if checked_ten and "whist" in calls:
        raise IllegalDealError("a ten is only checked under these rules (ten_whisted off): "
                               "both defenders pass, with tricks", where)
    if rules.stalingrad and deal.contract == Contract(6, Suit.SPADES) and \
            calls != ["whist", "whist"]:
        raise IllegalDealError("Stalingrad: on 6♠ both defenders must whist", where)
    if "whist" in calls and not deal.played:
        raise IllegalDealError("someone whisted, so the deal was played: give 'tricks'", where)
    if "whist" not in calls and deal.played and not checked_ten:
        raise IllegalDealError("both defenders passed, so the deal was not played: leave out "
                               "'tricks'", where)
    if checked_ten and not deal.played:
        raise IllegalDealError("a checked ten is played: give 'tricks'", where)
