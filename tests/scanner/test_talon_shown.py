"""A doubtful row whose totals overturned its ink's talon alone, far against the ink, shows
the ink's talon (scanner.decode.talon_shown; issue 13: a talon prize the dealer left out of
his whists, or his ink lost, showed the row without the prize the writer wrote)."""

from __future__ import annotations

from typing import Any

from scanner.decode.deals import RowCandidate
from scanner.decode.row_decision import RowDecision
from scanner.decode.talon_shown import talon_ink_shown
from scanner.words import said

BARE: dict[str, Any] = {"dealer": "D", "type": "contract", "declarer": "A", "contract": "7S",
                        "defence": {"B": "whist", "C": "pass"},
                        "tricks": {"A": 7, "B": 3, "C": 0}}
PRIZE = {**BARE, "talon": {"quick_tricks": 2}}


def _shown(ink: dict[str, Any], odds_log: float, status: str = "doubtful") -> RowDecision:
    """The row shown where the ink reads ``ink`` ``odds_log`` likelier than the pick,
    ``BARE``, which the totals chose."""
    options = [RowCandidate(ink, -0.1), RowCandidate(BARE, -0.1 - odds_log)]
    row = RowDecision(4, status, BARE, 0.98, ((BARE, 0.98), (ink, 0.02)),
                      said("row_overturned"))
    (shown,) = talon_ink_shown([row], [options], [1], [[0.02, 0.98]])
    return shown


def test_the_inks_talon_is_shown_where_the_totals_overturned_it_alone() -> None:
    shown = _shown(PRIZE, 8.0)
    assert (shown.status, shown.deal, shown.confidence) == ("doubtful", PRIZE, 0.02)
    assert shown.candidates == ((PRIZE, 0.02), (BARE, 0.98))
    assert shown.note == said("row_overturned")


def test_the_pick_stays_where_the_ink_is_not_far_likelier_or_differs_beyond_the_talon(
        ) -> None:
    """Odds under 1,000 to 1 (the totals are right as often as the ink there), another
    trick split (the tricks have their sum and the result cell to check them), or a row
    read: the row is left as the totals made it."""
    assert _shown(PRIZE, 6.0).deal == BARE
    other_split = {**PRIZE, "tricks": {"A": 6, "B": 4, "C": 0}}
    assert _shown(other_split, 8.0).deal == BARE
    assert _shown(PRIZE, 8.0, status="read").deal == BARE
