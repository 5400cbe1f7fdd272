"""When the entries after an entry confirm a reading its ink alone does not.

A column is decoded as a whole (:mod:`scanner.decode.column_paths`): each entry's posterior
weighs the entries before and after it. Where the ink and the rules disagree, the entries
after it are the evidence that settles it: a writer carries on from the value written
(Codex 4.2.1), so a later entry written from a value confirms it, and one corrected next, or
a column's last entry, confirms nothing (:meth:`~scanner.decode.column_paths.EntryStep.later_odds`).
:mod:`scanner.decode.columns` reads such an entry only where they confirm it:

* a value the rules do not expect (a player's slip, for the audit), the ink clear enough
  of it (:func:`slip_carried_on`); with no entry after it to confirm it, the ink must be
  clearer (:func:`slip_written_clearly`);
* the rules' value over ink that reads another (:func:`overruling_confirmed`); where the ink
  reads it with one digit left out (8 for 18: a digit the reader lost), on less;
* the rules' value where the ink spells no value well (:func:`unspelled`): only where they
  confirm it is it read.
"""

from __future__ import annotations

from typing import TypeVar

from scanner.decode.column_paths import EntryStep
from scanner.decode.numbers import MISSED_DIGIT

Entry = TypeVar("Entry")

OVERRULED_READ = 0.999
"""The posterior at which the rules' value over ink that reads another (ink
:data:`~scanner.decode.entries.INK_OUTWEIGHED` times surer of its own) is *read*: stricter
than :data:`~scanner.decode.entries.READ_POSTERIOR`, since a misread deal row makes the rules
expect a wrong value that the later entries may fit as well (a fresh training set, seed 31:
a column's written 4 made the rules' 8 at 0.989, later odds 1434, the next entry 12 either
way). Chosen on the training part: the wrong ones 0.43-0.989; 22 of the 55 right ones
(tr7, tr11, trbw, trfar) at 0.9991-0.99999, the rest at 0.9963-0.9990 or under 0.995."""
LOST_DIGIT_READ = 0.95
"""The posterior at which the rules' value over ink that reads it with one digit left out
(:func:`one_digit_lost`) is *read*, where the entries after it raise its odds
:data:`LOST_DIGIT_CONFIRMS` times (they are written from the full value): the reader's
commonest misread (a 1 crammed against the next digit in one box, or written on a box's
border and taken away with it), and one a writer's slip does not make while the entries
after it carry on from the full value. TRAINING part (eight sets, 10,600 fields): 73 such
overrulings, every one right, 27 read under :data:`OVERRULED_READ` and
:data:`LATER_CONFIRMS`; 10 more are read (posteriors 0.968-0.9992, later odds 29 and up:
each under one bar or the other before; one clean sheet's only doubtful field); 34 stay
doubtful (19 a column's last entry)."""
LOST_DIGIT_LAST_READ = 0.9
"""The posterior at which the rules' value over ink that reads it with one digit left out
is *read* where it is its column's last entry: no entry after it can confirm it, and the
column's paths keep a writer's slip there at about 0.06 of the posterior (a last entry
with nothing else in doubt holds 0.93-0.95). TRAINING part (26 sets, 507 sheets): 61 such
last entries were doubtful, 52 at 0.907-0.949 every one right, the wrong ones 0.77 and 0.80
(a deal row misread: the rules' value itself wrong); 13 sheets had no other doubt."""
LOST_DIGIT_CONFIRMS = 25.0
"""How many times the entries after it must raise the odds of the rules' value over ink
that lost one of its digits (:data:`LOST_DIGIT_READ`): a later entry written from it
raises them about 110 times where its own ink is sure, 29-97 times where its own digits are
less so (TRAINING part); a last entry or one corrected next about 1 (a column's last
entries: 1.06-1.51)."""
INK_CARRIED_ON = 0.95
"""The least share of its likelihood the ink gives a value the rules do not expect, for the
value to be read (a slip) where the entries after it carry on from it, whatever its
posterior; below it the entry is *doubtful* (:data:`INK_SLIP_CLEAR` and
:data:`~scanner.decode.column_paths.INK_CLEAR` are the shares that need no later entry).
Chosen on the training part (bench.decision_calibration over tr7, tr11, trbw, trfar): of
the off-expectation entries the later entries confirm, the slips read right hold
0.956-0.9996 and every misread 0.47 or less; without that confirmation misreads reach
0.9925. First set at 0.99 with the posterior at :data:`~scanner.decode.columns.
READ_POSTERIOR` too, which left such slips doubtful; at 0.95 without the posterior bar, on
18 TRAINING sets (260 sheets): doubtful fields 843 -> 831, sheets with no person 78 -> 82,
no field wrong more (the misreads the later entries confirm there: 0.08-0.48); 8 fresh
sets and 44 legacy sheets: no silent field more."""
INK_SLIP_CLEAR = 0.99
"""The least share of its likelihood the ink gives a value the rules do not expect for the
value to be read as written (a slip, for the audit) where no entry after it carries on from
it: a column's last entry, or one the next entry corrects (4.2.7). Lower than
:data:`~scanner.decode.column_paths.INK_CLEAR` (0.999, which also stops the column's paths
weighing other values there), which left such slips doubtful on sheets with nothing else
in doubt. Chosen on the TRAINING part: on 18 open sets (260 sheets) every misread of this
kind (neither a digit the reader may have lost, :func:`digit_may_be_lost`, nor the rules'
value a digit longer) holds 0.958 or less, 54 slips read right 0.995-0.999; but the legacy
profile's writer had a 2 read 3 at 0.9960-0.9974 in four entries of two sheets (0.995 made
them silent). At 0.997 the single one (0.9960) is doubtful and the three of one seat are
caught as one writer's digit misread repeated (:mod:`scanner.decode.writer_slips`); 0.998
gave back two thirds of the gain (sheets with no person on 18 sets: 0.995 84, 0.996 81,
0.997 79, 0.998 70; before 66). Lowered from 0.997 to 0.99 in the forty-sixth round, once
the checks on what follows a slip read so were in place (a slip the next total does not
carry on from, :mod:`~scanner.decode.slips_not_carried`; one that drops a rising column,
:mod:`~scanner.decode.falling_slips`): the reader's misreads at 0.991-0.997 on the
TRAINING part (a 16 read 76, a 12 read 92, a 72 read 22) are each followed by the rules'
next total, and are asked. The share counts the ink of values past a pool's ceiling too
(:func:`slip_written_clearly`'s ``elsewhere``). 1,211 TRAINING sheets with a slip read or
an entry at 0.99-0.997 (seeds 354-467), read again: doubtful fields 4,318 -> 4,247,
sheets with no person 443 -> 466, the same 5 silent fields; the one new silent field at
0.99 alone (seed 419 sheet 018) is :data:`INK_SLIP_UNCONTESTED`'s case."""
INK_SLIP_UNCONTESTED = 0.997
"""The share of its likelihood under which a slip read on its ink (:data:`INK_SLIP_CLEAR`)
is no clearer than the reader's own misreads reach: it is a box against its deal's row
(:mod:`scanner.decode.row_against`), so that another total against the same row makes
both asked, and, asked because the next total goes on from the rules' total
(:mod:`scanner.decode.slips_not_carried`), it shows the rules' total."""
LATER_CONFIRMS = 100.0
"""How many times the entries after an entry must raise the odds of its value for them to
confirm it where the ink alone does not (a slip, or the rules' value over the ink). A later
entry written from the value raises them 100 to thousands of times, a last entry or one
corrected next ~1. Chosen on the training part (bench.decision_calibration): slips read right
hold 0.75-1, 5-35 or 128-55,000, the misreads whose ink holds :data:`INK_CARRIED_ON`
0.87-1.1; the rules' values over the ink, right, 0.3-1.6 or 68-17,500, wrong, 0.84-1.8, 10.7
and 346 (posterior 0.94)."""
INK_UNSPELLED = 0.005
"""P(ink | value) below which the ink does not spell the value: no better than half of what a
digit the reader missed keeps (:data:`~scanner.decode.numbers.MISSED_DIGIT`), a lost digit
beside cells read otherwise. The rules alone then make the value; where no later entry
confirms it, the ink and the rules disagree and a person looks. Chosen on the training
part (tr7, tr11, trbw, trfar): read entries at 0.0022-0.0036, six right and one wrong (a
writer's slip, 91, the rules' 84 read sure at 0.9999, the column's last entry)."""


def unspelled(step: EntryStep[Entry], value: int) -> bool:
    """Whether the ink spells ``value`` under :data:`INK_UNSPELLED` and no later entry
    confirms it (:data:`LATER_CONFIRMS`)."""
    return step.ink[value] < INK_UNSPELLED and step.later_odds(value) < LATER_CONFIRMS


def slip_carried_on(step: EntryStep[Entry], value: int) -> bool:
    """A value the rules do not expect is a slip the writer carried on from, read as written,
    when the ink gives it :data:`INK_CARRIED_ON` of its likelihood and the entries after it
    raise its odds :data:`LATER_CONFIRMS` times (they are written from it)."""
    share = step.ink[value] / sum(step.ink.values())
    return share >= INK_CARRIED_ON and step.later_odds(value) >= LATER_CONFIRMS


def slip_written_clearly(step: EntryStep[Entry], value: int, expected: int | None,
                         elsewhere: float = 0.0) -> bool:
    """A value the rules do not expect is a slip read as written, no later entry needed,
    when the ink gives it :data:`INK_SLIP_CLEAR` of its likelihood (``elsewhere``: that
    of values the column's paths do not weigh, past a pool's ceiling) and it is not the
    rules' ``expected`` value with a digit left out (the reader's commonest misread), nor
    one digit short of another value the column's paths still weigh; never where the rules
    expect no entry at all (``expected`` None: the deal log may be short of a misread row).
    """
    if expected is None:  # no deal of the log writes here: its deal row may be misread
        return False
    share = step.ink[value] / (sum(step.ink.values()) + elsewhere)
    return share >= INK_SLIP_CLEAR and not short_of(value, expected) \
        and not sign_turned(value, expected) and digit_may_be_lost(step, value) is None


LOST_DIGIT_ALTERNATIVE = MISSED_DIGIT / 2
"""The least posterior of a value that is the read one with a digit more (one the reader
missed) for that value to stand beside it (:func:`digit_may_be_lost`): about what a digit
the reader missed altogether keeps (:data:`~scanner.decode.numbers.MISSED_DIGIT`)."""


def digit_may_be_lost(step: EntryStep[Entry], value: int) -> int | None:
    """The likeliest value that is ``value`` with one digit more and holds
    :data:`LOST_DIGIT_ALTERNATIVE` of the posterior, or None: where the entries after it
    confirm a value the rules do not expect but do not tell it from this one (a 4.2.7
    correction: whatever wrong value stood, the right one follows), only the ink does, and
    the ink's value may be a digit short (TRAINING part, a mono scan, seed 128: a wrong 10
    corrected by an 8, its 1 lost, read 0 at 0.9958, the 10 at 0.003)."""
    longer = [(p, v) for v, p in step.posterior.items() if v is not None and
              p >= LOST_DIGIT_ALTERNATIVE and one_digit_lost(value, v)]
    return max(longer)[1] if longer else None


def overruling_confirmed(step: EntryStep[Entry], value: int | None, ink_value: int | None,
                         confidence: float, last: bool) -> bool:
    """The rules' ``value`` over ink that reads ``ink_value`` is read when both are numbers,
    its posterior is :data:`OVERRULED_READ` and the entries after it raise its odds
    :data:`LATER_CONFIRMS` times (:data:`LOST_DIGIT_READ` and :data:`LOST_DIGIT_CONFIRMS`
    where the ink reads it with one digit left out): the ink's value was neither a slip
    carried on nor one corrected next. Ink that lost one digit of the column's ``last``
    entry, which nothing after it can confirm, is read at :data:`LOST_DIGIT_LAST_READ`.
    Ink read blank, or a value where the rules end the column, is left to a person."""
    if value is None or ink_value is None:
        return False
    if not one_digit_lost(ink_value, value):
        return confidence >= OVERRULED_READ and step.later_odds(value) >= LATER_CONFIRMS
    if _another_digit_lost(step, value, ink_value):
        return False
    if last:
        return confidence >= LOST_DIGIT_LAST_READ
    return confidence >= LOST_DIGIT_READ and step.later_odds(value) >= LOST_DIGIT_CONFIRMS


def lost_digit_confirmed(step: EntryStep[Entry], value: int, ink_value: int | None,
                         confidence: float, last: bool) -> bool:
    """Whether the rules' ``value``, where the ink reads it likeliest with one digit left out
    but not :data:`~scanner.decode.entries.INK_OUTWEIGHED` times surer of that, is *read* on
    the bars that read it over ink that is (:func:`overruling_confirmed`): ink that gives the
    full value more of its likelihood is no reason to ask more. TRAINING part, 52 sets
    (seeds 271-345): 20 such entries doubtful at 0.95 or more, every one right (a 46 read 6
    at 0.93 and 46 at 0.03, a column's last entry at 0.9935); read again: doubtful fields
    2,465 -> 2,449, sheets needing no person 321 -> 324, no field wrong more."""
    return short_of(ink_value, value) \
        and overruling_confirmed(step, value, ink_value, confidence, last)


def _another_digit_lost(step: EntryStep[Entry], value: int, ink_value: int) -> bool:
    """Whether a value other than ``value`` that the column's paths still weigh
    (:data:`LOST_DIGIT_ALTERNATIVE`) is ``ink_value`` with one digit more too: the ink
    cannot tell which of them lost the digit (TRAINING part, a fresh set, seed 371 sheet
    002: a whists 41, its 1 lost, read 45 at 0.92 as the column's last entry, the writer
    taken to have left the 41 out; the 41 held 0.07)."""
    return any(v not in (None, value) and p >= LOST_DIGIT_ALTERNATIVE and
               one_digit_lost(ink_value, v) for v, p in step.posterior.items())


def short_of(value: int | None, expected: int | None) -> bool:
    """Whether ``value``, read clearly against the rules, is their ``expected`` value with one
    digit left out: the reader's commonest misread (two digits crammed into one box read as
    one, or a 1 taken away with a border), not a slip a writer makes, so it is not kept as
    the writer's error unseen (TRAINING part, a mono scan, seed 149: a 46 written in the
    units box alone, the 6 over the 4's stem, read 4 at 0.9991 and blamed on the writer)."""
    return value is not None and expected is not None and value >= 0 and expected >= 0 \
        and one_digit_lost(value, expected)


def sign_turned(value: int | None, expected: int | None) -> bool:
    """Whether ``value``, read clearly against the rules, is their ``expected`` value with
    its sign turned: a sign box's speck (a border's end, a stroke of the digit beside it)
    read as a minus, or a written minus lost, is the reader's misread; a writer who adds or
    drops a minus by mistake is not kept unseen either (TRAINING part, a 101 dpi far photo,
    seed 308 sheet 003: a mountain's 6 read -6 at 0.9988, kept as the writer's slip).

    >>> sign_turned(-6, 6), sign_turned(6, -6), sign_turned(-6, -6), sign_turned(0, 0)
    (True, True, False, False)
    """
    return value is not None and expected is not None and value != 0 and value == -expected


def one_digit_lost(ink_value: int, value: int) -> bool:
    """Whether ``ink_value`` is ``value`` with one of its digits left out.

    >>> one_digit_lost(8, 18), one_digit_lost(0, 10), one_digit_lost(4, 48), one_digit_lost(4, 8)
    (True, True, True, False)
    """
    ink, full = str(ink_value), str(value)
    return len(full) == len(ink) + 1 and any(full[:i] + full[i + 1:] == ink
                                             for i in range(len(full)))
