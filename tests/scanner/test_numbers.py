"""Number readings from digit cells (scanner.decode.numbers)."""

from __future__ import annotations

import math
import random

import pytest

from scanner.decode.numbers import (
    BEAM_WIDTH,
    EMPTY,
    GAP_SHARE,
    PROBABILITY_FLOOR,
    CellSpelling,
    _first_grown,
    _grown,
    _likely_classes,
    likeliest_values,
    number_candidates,
    spelled_probabilities,
    spelled_probability,
)


def _cell(rng: random.Random) -> list[float]:
    """A recognizer's output for one cell: mostly sure of one class, sometimes torn."""
    weights = [rng.random() ** 8 for _ in range(11)]
    weights[rng.randrange(11)] += rng.choice([0.0, 1.0, 50.0])
    total = sum(weights)
    return [w / total for w in weights]


@pytest.mark.parametrize("seed", range(20))
def test_spelled_probabilities_are_spelled_probability_of_each_value(seed: int) -> None:
    rng = random.Random(seed)
    cells = [_cell(rng) for _ in range(rng.randint(1, 4))]
    minus = rng.choice([None, rng.random()])
    values = [None, *range(-12, 130)]
    assert spelled_probabilities(cells, values, minus) == [
        spelled_probability(cells, value, minus) for value in values]


def _grown_by_growing_all(beam: list[tuple[float, str, int]], probabilities: list[float]
                          ) -> list[tuple[float, str, int]]:
    """The beam step as first written: every state grown, then sorted (the reference)."""
    likely = [(str(digit), digit_log) for digit, digit_log in _likely_classes(probabilities)]
    empty_log = math.log(max(probabilities[EMPTY], PROBABILITY_FLOOR))
    best: dict[tuple[str, int], tuple[float, int]] = {}
    order = 0
    for score, text, phase in beam:
        grown = [((text, 0 if phase == 0 else 2), score + empty_log)]
        gap = math.log(GAP_SHARE) if phase == 2 else 0.0  # a digit after a gap
        grown += [((text + digit, 1), score + (digit_log + gap)) for digit, digit_log in likely]
        for key, value in grown:
            if key not in best or value > best[key][0]:
                best[key] = (value, order)
            order += 1
    ranked = sorted((-score, at, text, phase) for (text, phase), (score, at) in best.items())
    return [(-negative, text, phase) for negative, _, text, phase in ranked[:BEAM_WIDTH]]


@pytest.mark.parametrize("seed", range(30))
def test_the_merged_beam_keeps_what_growing_every_state_keeps(seed: int) -> None:
    rng = random.Random(seed)
    blank = [9.999999999998898e-06] * 10 + [0.9999]  # ties between all digits
    beam: list[tuple[float, str, int]] = [(0.0, "", 0)]
    reference = beam
    for _ in range(4):
        cell = blank if rng.random() < 0.3 else _cell(rng)
        beam, reference = _grown(beam, cell), _grown_by_growing_all(reference, cell)
        assert beam == reference


@pytest.mark.parametrize("seed", range(20))
def test_the_first_cell_grows_the_empty_beam_as_the_merge_does(seed: int) -> None:
    rng = random.Random(seed)
    blank = [9.999999999998898e-06] * 10 + [0.9999]  # ties between all digits
    cell = blank if seed % 4 == 0 else _cell(rng)
    assert _first_grown(cell) == _grown([(0.0, "", 0)], cell) == \
        _grown_by_growing_all([(0.0, "", 0)], cell)


def test_spelled_probabilities_are_the_single_ones_to_the_last_bit() -> None:
    rng = random.Random(4)
    for _ in range(300):
        cells = [[rng.choice((0.0, 1e-7, rng.random())) for _ in range(11)]
                 for _ in range(rng.randint(1, 4))]
        minus = rng.choice((None, rng.random()))
        values = [None, *rng.sample(range(-120, 12000), 40), 0, 7, -7]
        single = [spelled_probability(cells, value, minus) for value in values]
        assert spelled_probabilities(cells, values, minus) == single


@pytest.mark.parametrize("seed", range(10))
def test_a_cell_spelling_answers_as_spelled_probability_each_time(seed: int) -> None:
    rng = random.Random(seed)
    cells = [_cell(rng) for _ in range(rng.randint(1, 4))]
    minus = rng.choice([None, rng.random()])
    spelling = CellSpelling(cells, minus)
    for value in [None, *rng.sample(range(-50, 2000), 30)] * 2:  # asked again: remembered
        want = spelled_probability(cells, value, minus)
        assert spelling.probability(value) == want
        assert spelling.log_probability(value) == math.log(max(want, PROBABILITY_FLOOR))


@pytest.mark.parametrize("seed", range(10))
def test_the_likeliest_values_are_the_candidates_values(seed: int) -> None:
    rng = random.Random(seed)
    cells = [_cell(rng) for _ in range(rng.randint(1, 4))]
    minus = rng.choice([None, rng.random()])
    limit = rng.randint(1, 10)
    assert likeliest_values(cells, limit, minus) == [
        c.value for c in number_candidates(cells, limit, minus)]
