"""An entry read as the same value the next entry holds, where the rules expect that value
only in the first: perhaps a corrected wrong value the reader misread.

A running total changes with every entry of its column, so the same value written twice in a
row is the writer's error. Which one? Codex 4.2.7 has a wrong value corrected by writing the
right one next, the wrong one left standing; where the reader loses a digit of the wrong
value (a 1 crammed against its neighbour, or on the box's border: "18" read "8") and the
rest reads as the right value, the correction reads as the right value written twice, and
the rules take the first as right (TRAINING part, far photo, seed 41: a written 18, then
the correction 8, read 8 at 1.0 and 8 doubtful). The rules cannot tell a misread wrong value
from the right value repeated: the first is *doubtful* too. The check runs on the values as
decided once a pool's ceiling is weighed: a slip past the pool (a written 22 in a pool of
20) stands as the ceiling's 20 until then, and its right 20 before it was asked as written
twice (TRAINING part, 20 such totals on seeds 383-467, every one right).
"""

from __future__ import annotations

from dataclasses import replace

from scanner.decode.entries import EntryDecision
from scanner.words import said, value_said


def written_twice(decisions: list[EntryDecision]) -> list[EntryDecision]:
    """``decisions`` with each entry read as the value the next entry holds, where the rules
    did not expect the next one to hold it, made *doubtful* (module doc)."""
    twice = list(decisions)
    for k, (decision, following) in enumerate(zip(decisions, decisions[1:], strict=False)):
        if decision.status == "read" and decision.value is not None \
                and following.value == decision.value and following.expected != decision.value:
            twice[k] = replace(decision, status="doubtful",
                               note=said("same_as_next", value=value_said(decision.value)))
    return twice
