"""Number readings from digit cells (scanner.numbers)."""

from __future__ import annotations

import random

import pytest

from scanner.numbers import spelled_probabilities, spelled_probability


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
