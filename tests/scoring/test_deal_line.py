"""The one-line form of a deal row (scoring.notation.parse_deal_line, line_record)."""

from __future__ import annotations

import pytest

from scoring.errors import InvalidNotationError
from scoring.notation import line_record, parse_deal_line, record_line

SEATS3 = ("A", "B", "C")
SEATS4 = ("A", "B", "C", "D")
B_7NT = {"type": "contract", "declarer": "B", "contract": "7NT",
         "defence": {"C": "whist", "A": "pass"}, "tricks": {"B": 6, "C": 3, "A": 1}}

SPELLINGS = [  # (typed, seats, dealer, the record deal)
    ("B 7NT whist pass 6 3 1", SEATS3, "A", B_7NT),
    ("b 7nt w p 6 3 1", SEATS3, "A", B_7NT),
    ("B 7 NT whist, pass, 6, 3, 1", SEATS3, "A", B_7NT),
    ("Б 7БК вист пас 6 3 1", SEATS3, "A", B_7NT),
    ("б 7бк в п 6 3 1", SEATS3, "A", B_7NT),
    ("Б 7 бк вист пас 6 3 1", SEATS3, "A", B_7NT),
    ("  B   7NT  whist  pass  6  3  1  ", SEATS3, "A", B_7NT),
    ("C 6♠ halfwhist pass", SEATS3, "A",
     {"type": "contract", "declarer": "C", "contract": "6S",
      "defence": {"A": "halfwhist", "B": "pass"}}),
    ("В 6п полвиста пас", SEATS3, "A",
     {"type": "contract", "declarer": "C", "contract": "6S",
      "defence": {"A": "halfwhist", "B": "pass"}}),
    ("B 8♥ pass pass", SEATS3, "C",
     {"type": "contract", "declarer": "B", "contract": "8H",
      "defence": {"C": "pass", "A": "pass"}}),
    ("C misere 0 6 4", SEATS3, "A",
     {"type": "misere", "declarer": "C", "tricks": {"C": 0, "A": 6, "B": 4}}),
    ("В мизер 0 6 4", SEATS3, "A",
     {"type": "misere", "declarer": "C", "tricks": {"C": 0, "A": 6, "B": 4}}),
    ("c misère 0 6 4", SEATS3, "A",
     {"type": "misere", "declarer": "C", "tricks": {"C": 0, "A": 6, "B": 4}}),
    ("allpass 3 2 5", SEATS3, "A", {"type": "allpass", "tricks": {"B": 3, "C": 2, "A": 5}}),
    ("распасы 3 2 5", SEATS3, "A", {"type": "allpass", "tricks": {"B": 3, "C": 2, "A": 5}}),
    ("D 10D whist whist 10 0 0", SEATS4, "A",
     {"type": "contract", "declarer": "D", "contract": "10D",
      "defence": {"B": "whist", "C": "whist"}, "tricks": {"D": 10, "B": 0, "C": 0}}),
    ("Г 10Б вист вист 10 0 0", SEATS4, "A",
     {"type": "contract", "declarer": "D", "contract": "10D",
      "defence": {"B": "whist", "C": "whist"}, "tricks": {"D": 10, "B": 0, "C": 0}}),
    ("A 6C whist pass 6 2 2", SEATS4, "C",
     {"type": "contract", "declarer": "A", "contract": "6C",
      "defence": {"B": "whist", "D": "pass"}, "tricks": {"A": 6, "B": 2, "D": 2}}),
]


@pytest.mark.parametrize(("typed", "seats", "dealer", "deal"), SPELLINGS)
def test_spellings_give_the_deal_and_read_back(typed: str, seats: tuple[str, ...],
                                               dealer: str, deal: dict[str, object]) -> None:
    line = parse_deal_line(typed)
    assert line_record(line, seats, dealer) == deal
    again = record_line(deal, seats, dealer)
    assert again == line
    assert parse_deal_line(str(again)) == line


REFUSED = [  # (typed, seats, dealer, words the message must contain)
    ("", SEATS3, "A", "is not a deal"),
    ("X 7NT whist pass 6 3 1", SEATS3, "A", "declarer's seat"),
    ("B", SEATS3, "A", "contract is missing"),
    ("B 7X whist pass", SEATS3, "A", "'7x' is not a contract"),
    ("B 7NT whist 6 pass 3 1", SEATS3, "A", "calls before the tricks"),
    ("B 7NT whist pass 6 3 11", SEATS3, "A", "'11'"),
    ("B 7NT whist pass 6 3 y", SEATS3, "A", "neither a call"),
    ("B misere whist 0 6 4", SEATS3, "A", "only a contract is whisted"),
    ("B 7NT whist 6 3 1", SEATS3, "A", "give 2 calls"),
    ("B 7NT whist pass 6 4", SEATS3, "A", "give 3 numbers of tricks, for B, C, A"),
    ("A 7NT whist pass 6 3 1", SEATS4, "A", "does not play this deal"),
]


@pytest.mark.parametrize(("typed", "seats", "dealer", "words"), REFUSED)
def test_bad_lines_are_refused_with_the_reason(typed: str, seats: tuple[str, ...],
                                               dealer: str, words: str) -> None:
    with pytest.raises(InvalidNotationError, match=words.replace("(", r"\(")) as caught:
        line_record(parse_deal_line(typed), seats, dealer)
    assert caught.value.where == "deal row"
