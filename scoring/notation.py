"""Contract and result notation: ``6S``, ``6♠``, ``7БК``, ``мизер``, and Codex 4.2.11 ``6♠/=``.

>>> parse_contract("7БК")
Contract(level=7, suit=<Suit.NO_TRUMP: 'NT'>)
>>> str(parse_contract("6s")), str(parse_contract("мизер")), str(parse_contract("распасы"))
('6♠', 'misère', 'all-pass')
>>> parse_result("8♥/-1")
ResultNotation(contract=Contract(level=8, suit=<Suit.HEARTS: 'H'>), tricks_over=-1, level_only=None)
>>> str(parse_result("6/+1"))
'6/+1'
>>> parse_contract("6X")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
scoring.errors.InvalidNotationError: contract: '6X' is not a contract; write e.g. 6S, 7♥, ...
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from scoring.errors import InvalidNotationError

PRICES = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}
"""Contract prices in pool points (RULES.md §2; Codex 2.2.2). The suit does not matter."""
MISERE_PRICE = 10
WHISTERS_DUTY = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}
"""Tricks the pair of defenders must take against each level (RULES.md §3, обязательство)."""


class Suit(Enum):
    """Trump suit in the order of bidding; no-trump is the highest."""

    SPADES = "S"
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    NO_TRUMP = "NT"

    @property
    def symbol(self) -> str:
        """The printed sign: ♠ ♣ ♦ ♥, or ``NT``."""
        return {"S": "♠", "C": "♣", "D": "♦", "H": "♥", "NT": "NT"}[self.value]


_SUIT_WORDS = {
    "s": Suit.SPADES, "♠": Suit.SPADES, "п": Suit.SPADES, "пики": Suit.SPADES,
    "c": Suit.CLUBS, "♣": Suit.CLUBS, "т": Suit.CLUBS, "трефы": Suit.CLUBS,
    "d": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "б": Suit.DIAMONDS, "бубны": Suit.DIAMONDS,
    "h": Suit.HEARTS, "♥": Suit.HEARTS, "ч": Suit.HEARTS, "черви": Suit.HEARTS,
    "nt": Suit.NO_TRUMP, "бк": Suit.NO_TRUMP, "бп": Suit.NO_TRUMP, "n": Suit.NO_TRUMP,
}
_MISERE_WORDS = {"misere", "misère", "мизер", "мізер", "m"}
_ALLPASS_WORDS = {"allpass", "all-pass", "all pass", "распасы", "распас", "розпаси"}
_CONTRACT_RE = re.compile(r"^(10|[6-9])\s*(.*)$")


@dataclass(frozen=True)
class Contract:
    """A contract of ``level`` tricks (6-10) with ``suit`` as trumps."""

    level: int
    suit: Suit

    @property
    def price(self) -> int:
        """Pool points for making it (RULES.md §2)."""
        return PRICES[self.level]

    @property
    def duty(self) -> int:
        """Tricks the defenders must take together (RULES.md §3)."""
        return WHISTERS_DUTY[self.level]

    def __str__(self) -> str:
        return f"{self.level}{self.suit.symbol}"


@dataclass(frozen=True)
class Misere:
    """The declarer must take no trick (RULES.md §4)."""

    price = MISERE_PRICE

    def __str__(self) -> str:
        return "misère"


@dataclass(frozen=True)
class AllPass:
    """Everyone passed in the bidding and each plays for himself (RULES.md §5)."""

    def __str__(self) -> str:
        return "all-pass"


Bid = Contract | Misere | AllPass


def parse_contract(text: str, where: str = "contract") -> Bid:
    """Parse a contract as players and records write it."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"expected text like '6S', got {text!r}", where)
    word = text.strip().lower()
    if word in _MISERE_WORDS:
        return Misere()
    if word in _ALLPASS_WORDS:
        return AllPass()
    match = _CONTRACT_RE.match(word)
    if match and match.group(2).strip() in _SUIT_WORDS:
        return Contract(int(match.group(1)), _SUIT_WORDS[match.group(2).strip()])
    raise InvalidNotationError(
        f"{text!r} is not a contract; write e.g. 6S, 7♥, 8NT, 9БК, misere, allpass", where)


@dataclass(frozen=True)
class ResultNotation:
    """Codex 4.2.11 result: the contract and the tricks over (+) or under (-) it.

    ``contract`` is a :class:`Contract`, a :class:`Misere`, or ``None`` when only the level
    was written (``6/+1``); ``level_only`` then keeps the level.
    """

    contract: Contract | Misere | None
    tricks_over: int
    level_only: int | None = None

    def __str__(self) -> str:
        bid = str(self.contract) if self.contract is not None else str(self.level_only)
        return f"{bid}/{format_tricks_over(self.tricks_over)}"


def format_tricks_over(tricks_over: int) -> str:
    """``=`` for exactly made, ``-1`` one down, ``+1`` one over (Codex 4.2.11)."""
    return "=" if tricks_over == 0 else f"{tricks_over:+d}"


_RESULT_RE = re.compile(r"^(.+?)\s*/\s*(=|[+-]\s*\d+)$")


def parse_result(text: str, where: str = "result") -> ResultNotation:
    """Parse ``6♠/=``, ``8♥/-1``, ``6/+1``, ``мизер/-2`` (Codex 4.2.11)."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"expected text like '6♠/=', got {text!r}", where)
    match = _RESULT_RE.match(text.strip())
    if not match:
        raise InvalidNotationError(
            f"{text!r} is not a result; write e.g. 6♠/=, 8♥/-1, 6/+1 (Codex 4.2.11)", where)
    bid_text, outcome = match.group(1), match.group(2).replace(" ", "")
    tricks_over = 0 if outcome == "=" else int(outcome)
    if bid_text.strip() in {"6", "7", "8", "9", "10"}:
        return ResultNotation(None, tricks_over, level_only=int(bid_text))
    bid = parse_contract(bid_text, where)
    if isinstance(bid, AllPass):
        raise InvalidNotationError(f"{text!r}: an all-pass has no result of its own", where)
    return ResultNotation(bid, tricks_over)


# -- the one-line form of a deal row ------------------------------------------------------

SEAT_LETTERS = {"a": "A", "b": "B", "c": "C", "d": "D", "а": "A", "б": "B", "в": "C", "г": "D"}
"""Seat letters as typed: Latin A-D, or Cyrillic А Б В Г (the Russian sheet's order)."""
_CALL_WORDS = {
    "whist": "whist", "w": "whist", "вист": "whist", "віст": "whist", "в": "whist",
    "pass": "pass", "p": "pass", "пас": "pass", "п": "pass",
    "halfwhist": "halfwhist", "half": "halfwhist", "hw": "halfwhist", "½": "halfwhist",
    "полвиста": "halfwhist", "полвист": "halfwhist", "пв": "halfwhist",
    "піввіста": "halfwhist", "піввіст": "halfwhist",
}
_ALLPASS_TOKENS = {"allpass", "ap", "распасы", "распас", "розпаси"}
_LINE_SPLIT_RE = re.compile(r"[\s,;]+")


@dataclass(frozen=True)
class DealLine:
    """A deal row typed on one line: ``B 7NT whist pass 6 3 1``, ``Б 7БК вист пас 6 3 1``.

    The declarer (a seat letter), the bid (a contract, ``misere``, or ``allpass`` with no
    declarer), the defenders' calls clockwise from the declarer, and the tricks in the order
    of play: the declarer first, then the defenders clockwise (an all-pass: clockwise from
    the seat after the dealer). No tricks: the deal was not played.
    """

    bid: Bid
    declarer: str | None = None
    calls: tuple[str, ...] = ()
    tricks: tuple[int, ...] = ()

    def __str__(self) -> str:
        words = [] if self.declarer is None else [self.declarer]
        words.append("allpass" if isinstance(self.bid, AllPass) else
                     "misere" if isinstance(self.bid, Misere) else
                     f"{self.bid.level}{self.bid.suit.value}")
        return " ".join([*words, *self.calls, *map(str, self.tricks)])


def parse_deal_line(text: str, where: str = "deal row") -> DealLine:
    """Parse the one-line form of a deal row (see :class:`DealLine`).

    >>> str(parse_deal_line("Б 7БК вист пас 6 3 1"))
    'B 7NT whist pass 6 3 1'
    >>> str(parse_deal_line("Б 7БК віст піввіста 6 3 1"))
    'B 7NT whist halfwhist 6 3 1'
    >>> str(parse_deal_line("распасы 3 2 5")), str(parse_deal_line("c misère 0, 6, 4"))
    ('allpass 3 2 5', 'C misere 0 6 4')
    """
    tokens = [t for t in _LINE_SPLIT_RE.split(text.strip().lower()) if t] \
        if isinstance(text, str) else []
    if not tokens:
        raise InvalidNotationError(
            f"{text!r} is not a deal; write e.g. 'B 7NT whist pass 6 3 1' or 'allpass 3 2 5'",
            where)
    declarer = None
    if tokens[0] in _ALLPASS_TOKENS:
        bid: Bid = AllPass()
        rest = tokens[1:]
    else:
        declarer = SEAT_LETTERS.get(tokens[0])
        if declarer is None:
            raise InvalidNotationError(
                f"{text!r}: start with the declarer's seat (A-D or А-Г) or 'allpass'", where)
        bid, rest = _line_bid(tokens[1:], text, where)
    calls = tuple(_CALL_WORDS[t] for t in rest if t in _CALL_WORDS)
    numbers = [t for t in rest if t not in _CALL_WORDS]
    if rest[:len(calls)] != [t for t in rest if t in _CALL_WORDS]:
        raise InvalidNotationError(f"{text!r}: write the calls before the tricks", where)
    if any(not t.isdigit() or int(t) > 10 for t in numbers):
        bad = next(t for t in numbers if not t.isdigit() or int(t) > 10)
        raise InvalidNotationError(f"{text!r}: {bad!r} is neither a call (whist, pass, "
                                   f"halfwhist) nor a number of tricks (0-10)", where)
    if calls and not isinstance(bid, Contract):
        raise InvalidNotationError(f"{text!r}: only a contract is whisted or passed", where)
    return DealLine(bid, declarer, calls, tuple(int(t) for t in numbers))


def _line_bid(tokens: list[str], text: str, where: str) -> tuple[Bid, list[str]]:
    """The bid after the declarer (``7NT`` or ``7 NT``, ``misere``) and the tokens left."""
    if not tokens:
        raise InvalidNotationError(f"{text!r}: the contract is missing after the declarer",
                                   where)
    for width in (2, 1):
        if len(tokens) >= width:
            try:
                bid = parse_contract("".join(tokens[:width]), where)
            except InvalidNotationError:
                continue
            if not isinstance(bid, AllPass):
                return bid, tokens[width:]
    raise InvalidNotationError(f"{text!r}: {tokens[0]!r} is not a contract; write e.g. 6S, "
                               f"7NT, 7БК, misere", where)


def play_order(seats: tuple[str, ...], dealer: str) -> tuple[str, ...]:
    """The seats in a deal, clockwise from the seat after the dealer (with 4 the dealer sits
    out; RULES.md §1).

    >>> play_order(("A", "B", "C"), "A"), play_order(("A", "B", "C", "D"), "B")
    (('B', 'C', 'A'), ('C', 'D', 'A'))
    """
    i = seats.index(dealer)
    order = seats[i + 1:] + seats[:i + 1]
    return order[:-1] if len(seats) == 4 else order


def line_record(line: DealLine, seats: tuple[str, ...], dealer: str,
                where: str = "deal row") -> dict[str, object]:
    """The ``pulka-record/1`` deal of a typed line, its calls and tricks given to the seats.

    >>> line_record(parse_deal_line("B 7NT whist pass 6 3 1"), ("A", "B", "C"), "A")
    {'type': 'contract', 'declarer': 'B', 'contract': '7NT', 'defence': {'C': 'whist', \
'A': 'pass'}, 'tricks': {'B': 6, 'C': 3, 'A': 1}}
    """
    players = play_order(seats, dealer)
    if isinstance(line.bid, AllPass):
        order = players
        doc: dict[str, object] = {"type": "allpass"}
    else:
        if line.declarer not in players:
            raise InvalidNotationError(f"declarer {line.declarer} does not play this deal "
                                       f"(players: {', '.join(players)})", where)
        i = players.index(line.declarer)
        order = players[i:] + players[:i]
        kind = "misere" if isinstance(line.bid, Misere) else "contract"
        doc = {"type": kind, "declarer": line.declarer}
        if isinstance(line.bid, Contract):
            doc["contract"] = f"{line.bid.level}{line.bid.suit.value}"
            if len(line.calls) != len(order) - 1:
                raise InvalidNotationError(f"give {len(order) - 1} calls, one per defender "
                                           f"({', '.join(order[1:])}), not "
                                           f"{len(line.calls)}", where)
            doc["defence"] = dict(zip(order[1:], line.calls, strict=True))
    if line.tricks:
        if len(line.tricks) != len(order):
            raise InvalidNotationError(f"give {len(order)} numbers of tricks, for "
                                       f"{', '.join(order)} in that order, not "
                                       f"{len(line.tricks)}", where)
        doc["tricks"] = dict(zip(order, line.tricks, strict=True))
    return doc


def record_line(deal: dict[str, object], seats: tuple[str, ...], dealer: str) -> DealLine:
    """The one-line form of a ``pulka-record/1`` deal (the inverse of :func:`line_record`).

    >>> str(record_line({"type": "misere", "declarer": "C", "tricks": {"A": 6, "B": 4,
    ...                  "C": 0}}, ("A", "B", "C"), "A"))
    'C misere 0 6 4'
    """
    players = play_order(seats, dealer)
    declarer = deal.get("declarer")
    kind = deal.get("type")
    order = players
    if isinstance(declarer, str) and declarer in players:
        i = players.index(declarer)
        order = players[i:] + players[:i]
    bid = AllPass() if kind == "allpass" else Misere() if kind == "misere" else \
        parse_contract(str(deal.get("contract")), "contract")
    defence = deal.get("defence")
    calls = tuple(str(defence[s]) for s in order[1:] if s in defence) \
        if isinstance(defence, dict) else ()
    tricks = deal.get("tricks")
    counts = tuple(int(tricks[s]) for s in order if s in tricks) \
        if isinstance(tricks, dict) else ()
    return DealLine(bid, declarer if isinstance(declarer, str) else None, calls, counts)
