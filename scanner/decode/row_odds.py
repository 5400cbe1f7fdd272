"""The odds a deal row is read by: how sure its reading must be to stand, how far below its
ink a reading may fall, and how far below the talon cell's ink its quick tricks may fall.
Shared by the sheet's decoding (:mod:`scanner.decode.sheet`) and its talon checks
(:mod:`scanner.decode.talons`).
"""

from __future__ import annotations

import math

ROW_READ = 0.998
"""A deal row whose best reading has this probability (after the totals had their say) is
*read*; below it, *doubtful*. (0.995 let a talon's 3 quick tricks for 2 pass at 0.9957 on a
sample sheet with a player's slip nearby; on the 72 sample sheets 0.998 costs 0.5-0.7 pt
more doubtful fields and no field right.)"""
UNCHECKED_READ = 0.97
"""A deal row whose best reading has at least this probability, and whose other readings
that make up :data:`ROW_READ` write every running total as it does, is *read*: another suit
(RULES.md §2: the suit sets no price) or another split of the tricks one whister writes for
the pair (§3, §9a) changes no total, no finding and no settlement, and the ink alone can
choose it; a second suit box read as crossed leaves the row doubtful anyway
(:func:`scanner.decode.sheet._suits_crossed`). TRAINING part, 18 sets (260 sheets): 40
rows doubtful for the suit alone, every one read right, at 0.906-0.998 (37 at 0.98 or
more; 8 more sets: 20, every one right, 0.974-0.998; no suit read wrong on those 26 sets,
doubtful or not), and 44 for a split of tricks no total checks, 41 right (30 at 0.98 or
more), the 3 wrong at 0.36-0.72. At 0.98: doubtful fields 853 -> 783, sheets with no
person 76 -> 91 (18 sets), 366 -> 337 and 36 -> 43 (8 sets), no field wrong more. Lowered
to 0.97 on 38 later TRAINING sets (seeds 271-322, 608 sheets): of the 62 rows doubtful for
digits no total checks, the 13 at 0.96-0.98 were all read right and the 16 wrong held
0.9553 or less; doubtful fields 1,680 -> 1,662, sheets with no person 237 -> 243, no field
wrong more (the rows read at 0.98-0.998 there: 184 right, two wrong at 0.995-0.996, a
split and a suit the ink misread surely, which no bar here catches)."""
INK_DISAGREES_LOG = 6.9
"""A row whose best legal reading is this much (natural log: 1000 times) less likely than the
ink's own reading is doubtful however sure the choice among legal readings is: the ink says
something that cannot happen (a player's slip, or a misread). The same odds mark a strong
disagreement between a row's ink and the running totals (the sheet's decoding), and the
most the totals right after a row may fall short of their ink for the row to count as
confirmed (:meth:`scanner.decode.deal_logs.DealLogs.confirmed`); not tuned for either."""
TOTALS_READ_IT_LOG = math.log(3)
"""A row read at :data:`ROW_READ` whose ink says something that cannot happen
(:data:`INK_DISAGREES_LOG`) is *read* all the same where the running totals it writes are
read, all together, within these odds (natural log: three to one) of their own ink's
likeliest values (:meth:`scanner.decode.deal_logs.DealLogs.read_as_written`): the ink of
the columns, read on its own, says what the row's nearest legal reading says, so the mark or
digit that made the row's ink illegal was misread (or slipped) without changing the deal.
TRAINING part, 29 sets: 95 rows were doubtful for ink no legal deal holds, 66 of them read
right; every wrong one was read below :data:`ROW_READ` or wrote totals read otherwise (2.2
or more together) or none. At this bar 35 of the right ones are read, no field wrong
more."""
TALON_OVERRULED_LOG = math.log(3)
"""A row read whose talon cell's ink finds the row's quick tricks this much less likely
(natural log: three to one) than its own reading of the cell is *doubtful*
(:attr:`~scanner.decode.deals.RowCandidate.talon_gap`). Within a row nothing checks the
talon (the tricks have their sum of 10 and the result cell, the talon no such partner), and
only the prize's whists witness it (the dealer's on the declarer; with 3 players each
defender's half, RULES.md §3): a slip there looks the same as a misread talon, so those
totals may not overrule its ink alone (TRAINING part, seeds 41 and 51: a slip in the
dealer's whists made a talon read 1 at 0.992 none, and a talon blank at 0.9999 a 1, both
read sure). Written first after a fresh set's silent error (a 2 read as 9 at 0.986, the 2
at 0.002: the totals made it 3 at 0.99959). Ten to one let a prize whose whists the writer
left out pass: the cell read 2 at 0.72 (a 3 written), none at 0.087, odds of 8; the row
read without the prize at 0.99992 (TRAINING part, a grey scan, seed 64)."""
