"""Writers whose ink the image lost: their empty fields made *doubtful*, the page named in the
sheet's problems with what to do, and a sheet whose every writer's ink is lost refused.

Each seat writes the ten digits of its calibration strip before the game
(:class:`forms.model.CalibrationCell`). A strip whose ink is thin and does not read as its own
digits says that seat's ink did not reach the image (faint pencil thresholded away by a
black-and-white scan, whose strokes break into dots), or that the seat skipped it where its
columns do not show otherwise (a blank strip beside columns written as heavily as a legible
strip is skipped, nothing lost): nothing read empty in that seat's columns may pass as
*empty* unseen, as far as the deal log says the column may reach. When every seat's strip
is lost from a black-and-white capture nothing on the sheet can be trusted (the deal rows'
writer is one of them): the sheet is refused, naming the page, with the advice to scan it in
grey or colour; so is a sheet whose deal rows' ink is lost, on any capture (a photo: take it
closer).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from scanner.decode.entries import EntryDecision
from scanner.errors import PoorQuality
from scanner.words import and_list, said
from scoring.columns import Column
from scoring.said import Param

FAINT_STRIP_INK = 0.1
"""A seat's calibration strip whose cells' median ink (their strokes' pixels over the box's
interior) is under this ... (TRAINING part: every strip of a grey, colour or
black-and-white capture of a pen, and of pencil in grey or colour, 0.16 or more; pencil and
blue ballpoint thresholded to black and white, 0.00-0.06) ..."""
FAINT_STRIP_READ = 9
"""... and fewer of whose ten digits than this read as themselves is *faint* (TRAINING part:
every strip under that ink was thresholded, and read 0 to 8 of its digits; pencil thresholded
at 175 read 8 and lost strokes elsewhere, a 15 read 18). A legible thin pen keeps its strip
read, so a thin stroke alone is not taken for lost ink."""


@dataclass(frozen=True)
class StripCell:
    """One cell of a seat's calibration strip as read: the digit printed above it, its ink
    (strokes' pixels over the box's interior) and the recognizer's 11 probabilities."""

    digit: int
    ink: float
    probabilities: Sequence[float]


SKIPPED_STRIP_INK = 0.02
"""A strip whose cells hold at the median less ink than this is blank, not thin: nothing
reached it. Where its seat's columns hold ink as a legible strip does, the player skipped
it (:func:`faint_seats`; TRAINING part: strips lost with their ink 0.00-0.01 only where the
seat's columns were as thin, 0.02-0.09 broken by a threshold, a pencil far photo's 0.046
beside columns at 0.18 whose deal rows' ink was lost)."""
WRITTEN_CELLS = 5
"""... where at least this many of the seat's digit boxes hold ink, as heavy at the median
as a legible strip's (:data:`FAINT_STRIP_INK`)."""


def faint_seats(strips: Mapping[str, Sequence[StripCell]],
                written: Mapping[str, Sequence[float]] | None = None) -> tuple[str, ...]:
    """The seats whose calibration strip is lost from the image (:data:`FAINT_STRIP_INK`,
    :data:`FAINT_STRIP_READ`), unless the strip is blank and what the seat ``written`` in
    its columns (the ink of each of its digit boxes with ink) is as heavy as a legible strip
    (:data:`SKIPPED_STRIP_INK`, :data:`WRITTEN_CELLS`): the player skipped the strip, or the
    image lost it alone, and the seat's writing reached the image. Before, a grey scan whose
    players all skipped their strips was read as if its ink were lost, 174 of its 211
    fields doubtful (65 and 2 with the strips written); a far pencil photo whose glare took
    one strip (TRAINING part, seed 183, sheet 010) had ten blank boxes of that seat asked.

    >>> blank = [StripCell(d, 0.0, [0.0] * 10 + [1.0]) for d in range(10)]
    >>> faint_seats({"A": blank}), faint_seats({"A": blank}, {"A": [0.2] * 5})
    (('A',), ())
    """
    written = written or {}
    return tuple(seat for seat, cells in strips.items() if cells
                 and statistics.median(c.ink for c in cells) < FAINT_STRIP_INK
                 and sum(_reads_as_itself(c) for c in cells) < FAINT_STRIP_READ
                 and not _skipped(cells, written.get(seat, ())))


def _skipped(cells: Sequence[StripCell], inks: Sequence[float]) -> bool:
    """Whether a seat left its strip (``cells``) blank while its writing (``inks``, its digit
    boxes with ink) reached the image."""
    return statistics.median(c.ink for c in cells) < SKIPPED_STRIP_INK \
        and len(inks) >= WRITTEN_CELLS and statistics.median(inks) >= FAINT_STRIP_INK


def _reads_as_itself(cell: StripCell) -> bool:
    p = cell.probabilities
    return max(range(len(p)), key=p.__getitem__) == cell.digit


LOSING_ENTRIES = 3
"""How many of a seat's entries decided a value, their ink reading it likeliest with digits
left out or as nothing, show the image losing that seat's strokes in places ..."""
LOSING_SHARE = 0.3
"""... where they are at least this share of its entries decided a value
(:func:`losing_seats`). TRAINING part, 54 sets (seeds 271-347): with three such entries
alone, 17 seats, their dealt rows read without a talon, made 23 right rows doubtful for the
one caught (a seat losing 4 of its 10 totals' digits); the share keeps two seats, 4 of 10
and 15 of 23, every other seat of the 17 losing at most a quarter. Read again with both:
silent fields 9 -> 7 (that talon and the whists total it wrote, left out of ``scan.json``),
doubtful 2,505 -> 2,516, blank boxes asked 893 -> 901, sheets with no person as before."""


def losing_seats(entries: Mapping[Column, Sequence[EntryDecision]]) -> tuple[str, ...]:
    """The seats whose ink the image loses in places though their calibration strip reached
    it: :data:`LOSING_ENTRIES` or more of their entries, and :data:`LOSING_SHARE` of those
    decided a value, hold a value whose ink reads it likeliest with digits left out (a 52
    read 5, a 20 read 0) or as nothing (TRAINING part, a fresh far pencil photo, seed 343
    sheet 004: seat C's 52, 20, 30 and 10 read 5, 0, 3 and nothing; a talon's 1 read as
    none and that seat's whists total for it, lost too, left out of ``scan.json``)."""
    lost: dict[str, int] = {}
    valued: dict[str, int] = {}
    for column, decisions in entries.items():
        lost[column.seat] = lost.get(column.seat, 0) + sum(_digits_lost(d) for d in decisions)
        valued[column.seat] = valued.get(column.seat, 0) + sum(
            d.value is not None for d in decisions)
    return tuple(seat for seat, count in lost.items()
                 if count >= LOSING_ENTRIES and count >= LOSING_SHARE * valued[seat])


def _digits_lost(decision: EntryDecision) -> bool:
    """Whether ``decision`` holds a value its ink reads likeliest with digits left out."""
    if decision.value is None or decision.value < 0 or not decision.ink:
        return False
    ink = decision.ink[0][0]
    if ink is None:
        return True
    read, value = str(ink), str(decision.value)
    return ink >= 0 and len(read) < len(value) and _in_order(read, value)


def _in_order(part: str, whole: str) -> bool:
    """Whether the characters of ``part`` appear in ``whole`` in the same order."""
    rest = iter(whole)
    return all(ch in rest for ch in part)


def all_lost(faint: Sequence[str], seats: Sequence[str]) -> bool:
    """Whether every seat's calibration strip is lost."""
    return bool(faint) and set(faint) >= set(seats)


def refuse_if_unreadable(faint: Sequence[str], seats: Sequence[str], rows: bool,
                         black_and_white: bool, source: Path | None, page: int | None
                         ) -> None:
    """Raise :class:`~scanner.errors.PoorQuality` naming the calibration strips' page when
    a ``black_and_white`` capture lost every seat's strip (nothing written on the sheet
    reached the image), or any capture the deal rows' ink (``rows``, :func:`rows_lost`):
    with no deal log to check them against, the totals left cannot be trusted, nor the rows
    asked of a person one by one. The advice is to scan in grey or colour, or for a photo
    to take it closer. TRAINING part, pencil and blue ballpoint thresholded to black and
    white: five sheets that lost the rows and most strips read 4-30 of their 66-107 fields
    right, those that lost the rows and one seat's strip of three or four 13-71 of 23-100;
    of the three such sheets of seeds 182 and 184, 31 of 31, 84 of 99 and 32 of 38 fields
    were doubtful; a pencil far photo that lost its rows (phone-distant, seed 187, sheet
    007), 29 of 36."""
    advice = unreadable_advice(black_and_white)
    if black_and_white and all_lost(faint, seats):
        raise PoorQuality(said("all_strips_lost"), source, page, advice=advice)
    if rows:
        raise PoorQuality(said("rows_unreadable"), source, page, advice=advice)


def unreadable_advice(black_and_white: bool) -> str:
    """What to do with a sheet whose writing the capture lost: scan a black-and-white
    capture again in grey or colour, take a photo closer."""
    return said("rescan_grey") if black_and_white else said("closer")


ROW_DIGIT_SURE = 0.9
"""A deal row's digit cell with ink reads as a digit surely where one digit holds this
probability or more ..."""
ROWS_READ_SURE = 0.8
"""... and where this share of the deal rows' digit cells with ink reads so, their ink
reached the image, however thin (:func:`rows_lost`). TRAINING part: rows
the capture lost read so 0.05-0.38 (black-and-white pencil and ballpoint, seeds 198 and
187) and 0.58 (a far pencil photo, seed 201 sheet 010); a grey scan's pencil thinned to a
fine pen's stroke (seed 197 sheet 009, a 2x2 grey maximum filter on its images: its rows'
ink 0.089 at the median, two seats' strips faint) 0.95, its legible sheets 0.86-1.0."""


def share_read_surely(cells: Sequence[Sequence[float]]) -> float:
    """The share of digit cells (each its probabilities, digits 0-9 first) that read as a
    digit at :data:`ROW_DIGIT_SURE` or more; 0 for none.

    >>> share_read_surely([[0.95] + [0.0] * 10, [0.5] * 2 + [0.0] * 9])
    0.5
    """
    return sum(max(p[:10]) >= ROW_DIGIT_SURE for p in cells) / max(len(cells), 1)


def rows_lost(faint: Sequence[str], row_inks: Sequence[float],
              strips: Mapping[str, Sequence[StripCell]] | None = None,
              rows_read: float = 0.0, written: bool = False) -> bool:
    """Whether the deal rows' ink is lost from the image too: a seat's strip is lost
    (:func:`faint_seats`) and no deal row's digit cell holds ink while the columns of the
    seats whose strips read do (``written``: the game was played, and every deal writes its
    tricks in its row; TRAINING part, seed 389 sheet 003, pencil thresholded to black and
    white: every row blank, two strips of four lost, 31 of the lost seats' totals out of
    ``scan.json``), or the deal rows' digit cells with ink are, at the median, as thin
    as a lost strip (:data:`FAINT_STRIP_INK`; TRAINING part: 0.02-0.09 where the scorer's
    pencil or ballpoint was thresholded away, 0.13 or more elsewhere) and thinner than every
    strip of the page that reads as its digits (:func:`legible_strip_ink`): ink as heavy as a
    legible strip on the same image reached it (TRAINING part, ballpoint thresholded: rows at
    0.09 beside a strip at 0.06 reading all ten, every row read right); and under
    :data:`ROWS_READ_SURE` of those cells (``rows_read``, :func:`share_read_surely`) read as
    a digit surely: a fine pen covers as little of a box as ink a threshold took away, but
    reads.

    >>> rows_lost(["A"], [0.02, 0.05, 0.3]), rows_lost([], [0.02, 0.05])
    (True, False)
    >>> rows_lost(["A"], [0.02, 0.05, 0.3], rows_read=0.95)
    False
    >>> rows_lost(["A"], [], written=True), rows_lost(["A"], []), rows_lost([], [], written=True)
    (True, False, False)
    """
    if not faint or rows_read >= ROWS_READ_SURE:
        return False
    if not row_inks:
        return written
    ink = statistics.median(row_inks)
    return ink < FAINT_STRIP_INK and ink < legible_strip_ink(strips or {})


def legible_strip_ink(strips: Mapping[str, Sequence[StripCell]]) -> float:
    """The thinnest median ink of a strip that reads as its own digits
    (:data:`FAINT_STRIP_READ` of them or more); infinite where none does."""
    legible = [statistics.median(c.ink for c in cells) for cells in strips.values()
               if cells and sum(_reads_as_itself(c) for c in cells) >= FAINT_STRIP_READ]
    return min(legible, default=float("inf"))


def lost_ink_problem(faint: Sequence[str], seats: Sequence[str], where: str = ""
                     ) -> tuple[str, ...]:
    """The sheet's problem for the seats whose calibration strip is lost (none: none),
    naming ``where`` the strips are (file and page).

    >>> lost_ink_problem(["A"], ["A", "B", "C"])[0][:60]
    "seat A's calibration digits are nearly blank in the image: i"
    >>> lost_ink_problem(["A", "B", "C"], ["A", "B", "C", "D"], "p.png, page 1")[0][:50]
    "p.png, page 1: seat A's and seat B's and seat C's "
    """
    if not faint:
        return ()
    who = said("every_seat") if all_lost(faint, seats) else \
        and_list([said("seat_of", seat=s) for s in faint])
    problem = said("faint_seats", who=who)
    return (said("at", where=where, text=problem) if where else problem,)


LOST_INK_GAP = 1
"""Blank entries of a faint seat's column this far past the column's end are still asked
about: a writer's correction (a wrong total, then the right one below, 4.2.7) writes one
entry more than the deal log, as does a deal the log lost (a row read as blank). Both at
once, two more, is left to the person the row or the column's end already asks. TRAINING
part, seeds 7, 51 and 61 (five sheets whose strip is lost): blank boxes and rows asked over
each set 109 -> 35, 76 -> 45, 252 -> 224 at two past the end (seed 61's are mostly deal rows
whose ink is lost too), every field as before; 38 sets (seeds 271-322, 608 sheets): of the
145 blank boxes so asked, 69 one past the end and 76 two past it, none held writing."""


def faint_entries(entries: Mapping[Column, Sequence[EntryDecision]], faint: Sequence[str],
                  cut_faint: bool = False) -> dict[Column, tuple[EntryDecision, ...]]:
    """``entries`` with each entry of a column written by a ``faint`` seat *doubtful*: an
    empty one may have lost its ink, a read one may have lost strokes (a 15 broken into dots
    reads 18), unless the rules confirm it (:func:`confirmed`; its boxes ``cut_faint`` at the
    faint floors: at :data:`CONFIRMED_CUT_FAINT_SHARE`). A blank entry more than
    :data:`LOST_INK_GAP` past the column's end (its last entry read or written by the deal
    log) stays *empty*: the rules write nothing there, and the lost ink cannot say more."""
    share = CONFIRMED_CUT_FAINT_SHARE if cut_faint else CONFIRMED_INK_SHARE
    return {column: _faint_column(decisions, said("seat_of", seat=column.seat), share)
            if column.seat in faint else tuple(decisions)
            for column, decisions in entries.items()}


def _column_end(decisions: Sequence[EntryDecision]) -> int:
    """The column's last entry read, written by the deal log or holding ink
    (:func:`holds_ink`); -1 where none is."""
    return max((i for i, d in enumerate(decisions)
                if holds_ink(d) or d.expected is not None or d.deal is not None),
               default=-1)


def _faint_column(decisions: Sequence[EntryDecision], who: Param, share: float
                  ) -> tuple[EntryDecision, ...]:
    """One faint seat's column (``who``) as :func:`faint_entries` leaves it, its entries
    confirmed at ``share``."""
    end = _column_end(decisions)
    return tuple(d if d.status == "empty" and i > end + LOST_INK_GAP
                 else _doubtful(d, who, share) for i, d in enumerate(decisions))


def holds_ink(decision: EntryDecision) -> bool:
    """Whether an entry holds a value, or is *doubtful* where its ink reads one likeliest
    (the rules made it nothing): a writer may have written there, and so in the boxes
    before it, whose ink a faint seat may have lost (TRAINING part, a pencil far photo, seed
    59: a faint seat's box read blank three boxes before one whose ink read 10 was left
    *empty*, out of ``scan.json``, its written 8 lost without a word)."""
    return decision.value is not None or (
        decision.status == "doubtful" and bool(decision.ink) and decision.ink[0][0] is not None)


CONFIRMED_INK_SHARE = 0.5
"""A faint seat's entry is confirmed (:func:`confirmed`) only where its ink gives the value
it reads at least this share of its likelihood (over the values weighed): ink that gives it
only the largest of several small shares is no second reading. TRAINING part, faint seats'
entries the rules expected and their ink read likeliest: thresholded sheets of seeds 287,
321 and 330-335 (the dots grown, :data:`~scanner.constants.DOTS_GROW_MM`), 94 entries, one
wrong, at 0.29 (seed 335 sheet 008: a ballpoint 3 broken into dots, its ink 4 at 0.29 and 5
at 0.27, read 4 as a misread deal log expected, silently), 7 right ones under 0.5; seeds
274-293 and 314-322 (far pencil photos and the like), 37 entries, none wrong, 7 under 0.5.
Those 14 are asked now: doubtful where they stood read."""

CONFIRMED_CUT_FAINT_SHARE = 0.9
"""... and at this share where its boxes were cut at the faint floors
(:data:`~scanner.constants.INK_FAINT_SEAT_FLOORS`): ink read out of the paper's grain
misreads a faint digit more often, and a writer's slip that such ink reads as the rules'
value would pass unseen (TRAINING part, 37 photos with a faint seat, first read at other
floors: at 0.5 and at 0.75 a pool's 7 written where the rules make 8 read 8, silently, on
seeds 425 and 456; at 0.9 none, and with these floors on fine pages right fields 2,480 ->
2,516, wrong 133 -> 97, doubtful 835 -> 758, blank boxes asked 278 -> 294)."""


def confirmed(decision: EntryDecision, share: float = CONFIRMED_INK_SHARE) -> bool:
    """Whether an entry read is what the rules expect there and what its ink alone reads
    likeliest, at :data:`CONFIRMED_INK_SHARE` of its likelihood or more: two readings that
    agree (the deal log's and the entry's own strokes), which lost strokes would not make
    agree (TRAINING part, ballpoint thresholded: every entry of a faint seat read so was
    right, but for one whose ink gave it 0.29)."""
    return decision.confirmed_at(share)


def _doubtful(decision: EntryDecision, who: Param, share: float) -> EntryDecision:
    if decision.status == "doubtful" or confirmed(decision, share):
        return decision
    if decision.status == "read":
        return replace(decision, status="doubtful", note=said("read_lost", who=who))
    return replace(decision, status="doubtful", confidence=0.0,
                   note=said("lost_ink", who=who))
