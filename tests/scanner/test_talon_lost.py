"""A talon prize whose digit the capture lost is asked where the running totals favour it
only moderately, not read as none with the dealer blamed for a slip
(scanner.decode.talons.talon_checked), nor as a prize where only an earlier slip of the
dealer's makes the totals favour it, and a prize the totals could hold on another row whose
ink reads it is asked (talon_taken; issue 13: a misread is never blamed on a
player, and never passes silently)."""

from __future__ import annotations

from pathlib import Path

import pytest

from samplegen.profiles import SheetPlan
from samplegen.split import Part
from scanner.decode.deals import talon_gap
from scanner.results import FieldReading
from tests.scanner.training_sheets import read_field

BLANK = [1e-6] * 10 + [0.9999]
PRIZE = {"type": "contract", "talon": {"quick_tricks": 2}}


def test_a_blank_talon_digit_weighed_as_missed_keeps_a_written_digits_hundredth() -> None:
    """Read blank at 0.9999, a talon digit is 10^6 times less likely than none by the
    reader's own word, but only 100 times weighed as a written total's digit is
    (:data:`~scanner.decode.numbers.MISSED_DIGIT`)."""
    assert talon_gap(BLANK, PRIZE) == pytest.approx(13.8, abs=0.1)
    assert talon_gap(BLANK, PRIZE, missed=True) == pytest.approx(4.6, abs=0.01)
    assert talon_gap(BLANK, {"type": "contract"}, missed=True) == 0.0


@pytest.mark.slow
def test_a_talon_prize_lost_from_a_far_photo_is_asked_not_blamed_on_the_dealer(
        tmp_path: Path) -> None:
    """TRAINING part, seed 396 sheet 004 (a steep phone photo in pencil, its deal page at
    112 dpi): row 1's talon 2 reads blank at 0.9999. The dealer's whists on the declarer, 8,
    32, 56, fit the prize (the 8) better than a slip of 8 where 24 was due, but by odds of
    about 80 only, under the 1,000 of a strong disagreement: the row was read without its
    prize at 0.9992, and the dealer's 8 read as his slip. Weighed as a lost digit, the
    prize left the row doubtful (the talon's quick tricks named), and the findings resting
    on it wait for a person. Since the forty-ninth round the page's borders are settled
    (:func:`scanner.image.lines.settle_reach`), more of the dealer's later totals are read,
    and the totals favour another reading of the row outright: it is asked all the same."""
    row = _row_read(tmp_path, "font", "scribble-zigzag", 396, 4, "row:0")
    assert "talon" not in row.value
    assert row.status == "doubtful"
    assert any(word in str(row.note) for word in ("the talon's quick tricks",
                                                   "fit another reading of this row"))


@pytest.mark.slow
def test_a_prize_the_totals_could_hold_on_another_row_whose_ink_reads_it_is_asked(
        tmp_path: Path) -> None:
    """TRAINING part, seed 404 sheet 021 (a steep pencil photo): row 1, a 9NT with a talon
    1 its ink reads at 0.83, was shown without it (doubtful for its marks), and the prize's
    8 in the dealer's whists went to row 5, a 7S of the same dealer and declarer, whose
    blank talon cell read 2 at 0.56 (a 2 on a 7 is worth 8 as well). Row 5 was read with
    that prize at 0.9998, silently: the totals say a prize was written, not on which row.
    It is doubtful now, naming row 1 (scanner.decode.talons.talon_taken)."""
    row = _row_read(tmp_path, "strokes", "loop-sprawl", 404, 21, "row:4")
    assert row.value["talon"] == {"quick_tricks": 2}
    assert row.status == "doubtful"
    assert "row 1's ink reads one the log does not show" in str(row.note)


@pytest.mark.slow
def test_a_prize_that_catches_up_an_earlier_slip_is_asked_where_the_step_says_none(
        tmp_path: Path) -> None:
    """TRAINING part, seed 407 sheet 023 (a distant pencil photo): the dealer C slipped at
    deal 15 in his whists on D (15 where 13 was due) and wrote on from it (19, 27, 29).
    Row 23's 6D, written without a prize, read its talon cell 1 at 0.57 against none at
    0.41; the prize's 2 whists catch the slip up at the last total, so the running totals
    favoured it by odds of 9,000, and the row was read with it at 0.9999, C's right 29
    taken for his slip. The step the column shows at that deal, 27 to 29, is the 2 of no
    prize: the row is doubtful (scanner.decode.talons.talon_checked, steps_fit_other).
    Since the forty-ninth round the page's borders are settled
    (:func:`scanner.image.lines.settle_reach`) and the talon cell reads blank likelier than
    1: the totals overturn the ink's reading, and the row is asked so."""
    row = _row_read(tmp_path, "strokes", "loop-sprawl", 407, 23, "row:22",
                    capture="phone-distant")
    assert row.status == "doubtful"
    assert any(words in str(row.note) for words in (
        "a total before it may hold the writer's slip", "the ink reads this row otherwise"))


def _row_read(tmp_path: Path, glyphs: str, marks: str, seed: int, index: int, key: str,
              capture: str = "phone-steep") -> FieldReading:
    """Field ``key`` of sheet ``index`` of the TRAINING set ``seed`` (a phone photo in
    pencil, of ``glyphs``, ``capture`` and ``marks``), made again and read."""
    return read_field(tmp_path, SheetPlan("open", Part.TRAINING, glyphs, capture, marks,
                                          "pencil"), seed, index, key)
