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
