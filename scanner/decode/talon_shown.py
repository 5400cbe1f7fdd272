"""The talon a *doubtful* row shows where the running totals overturned its ink's talon.

Within a row nothing checks the talon cell: the talon prize's whists are its only witness,
and they mislead (a prize the writer left out of the dealer's whists, a slip there, the
dealer's ink lost with a faint capture). A doubtful row whose pick differs from its ink's
own likeliest reading only in the talon's quick tricks, where the ink finds its reading
more than :data:`~scanner.decode.row_odds.INK_DISAGREES_LOG` likelier (1,000 to 1), shows
the ink's talon. It stays *doubtful*, its note unchanged: this decides only the deal a
person is shown first, and the audit's findings that rest on the row wait for that person
(:func:`scoring.rulings.rests_on`).

TRAINING part, 32 fresh sets (seeds 354-385, 512 sheets): 9 such rows, on six sheets, each
showing no prize (or 1 for a 3) against the writer's 2 or 3; shown so, all 9 are the
writer's, and no other field changes. Where the totals overturn the ink's talon less
strongly, the ink is no better than they are: of 27 such doubtful rows (14 of the sets),
showing the ink's reading put 12 right and 11 wrong. Those are left to the totals. So are
the tricks: their sum of 10 and the result cell check them within the row, and the ink
reads a misread that keeps the sum surely (issue 13, class 3: C7 A0 B3 read C1 A0 B9 at
1.0), where the totals are the only check (`tests/scanner/test_decode.py`). On the same
sets, showing the ink's tricks where the totals overturned them as strongly put 6 right
and 1 wrong (an all-pass's 10 tricks given to another player), and would show every such
misread.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from scanner.decode.deals import RowCandidate
from scanner.decode.row_decision import RowDecision
from scanner.decode.row_odds import INK_DISAGREES_LOG
from scanner.decode.talons import without_talon


def talon_ink_shown(rows: Sequence[RowDecision], candidates: Sequence[Sequence[RowCandidate]],
                    picks: Sequence[int], posterior: Sequence[Sequence[float]]
                    ) -> tuple[RowDecision, ...]:
    """``rows`` with each doubtful row whose totals overturned its ink's talon alone, far
    against the ink, showing the ink's reading first (module doc). ``candidates``: each
    row's readings, the ink's likeliest first; ``picks``: the deal log's choice among them;
    ``posterior``: their shares."""
    shown = list(rows)
    for index, row in enumerate(rows):
        options = candidates[index]
        if row.status != "doubtful" or not options or picks[index] == 0:
            continue
        pick, ink = options[picks[index]], options[0]
        if pick.deal is None or ink.deal is None or row.deal != pick.deal or \
                without_talon(pick.deal) != without_talon(ink.deal) or \
                ink.log_score - pick.log_score <= INK_DISAGREES_LOG:
            continue
        share = posterior[index][0]
        others = tuple(pair for pair in row.candidates if pair[0] != ink.deal)
        shown[index] = replace(row, deal=ink.deal, confidence=share,
                               candidates=((ink.deal, share), *others)[:len(row.candidates)])
    return tuple(shown)
