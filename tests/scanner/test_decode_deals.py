"""Row readings weighed best first (scanner.row_readings)."""

from __future__ import annotations

import random

import pytest

from scanner.row_readings import Queued, Reading, best_first


def _shapes(rng: random.Random) -> list[list[Reading]]:
    """Shapes' readings, each shape's scores from a few values (ties within and between
    shapes), as _with_tricks makes them: in no order of score."""
    levels = [-0.5, -1.0, -2.25, -3.0, -7.5]
    return [[Reading(rng.choice(levels) + rng.choice([0.0, -0.5, -1.0]), index, None, k)
             for k in range(rng.randint(1, 6))] for index in range(rng.randint(1, 12))]


@pytest.mark.parametrize("seed", range(40))
def testbest_first_lists_what_a_stable_sort_of_every_reading_lists(seed: int) -> None:
    rng = random.Random(seed)
    shapes = _shapes(rng)
    everything = [reading for readings in shapes for reading in readings]
    want = sorted(everything, key=lambda r: -r.log_score)
    queue: list[Queued] = []
    for index, readings in enumerate(shapes):
        if rng.random() < 0.2 and len(readings) == 1:  # completed at once, as the empty row
            queue.append((-readings[0].log_score, index, 0, readings[0]))
        else:  # a bound: the best score, or above it
            bound = max(r.log_score for r in readings) + rng.choice([0.0, 0.0, 0.5, 3.0])
            queue.append((-bound, index, -1, None))
    completed: list[int] = []

    def complete(index: int) -> list[Reading]:
        completed.append(index)
        return shapes[index]

    got = list(best_first(queue, complete))
    assert got == want
    assert len(completed) == len(set(completed))


def test_a_shape_whose_bound_is_below_what_is_taken_is_not_completed() -> None:
    shapes = [[Reading(-1.0, 0, None, 0)], [Reading(-9.0, 1, None, 0)]]
    queue: list[Queued] = [(1.0, 0, -1, None), (8.5, 1, -1, None)]
    completed: list[int] = []

    def complete(index: int) -> list[Reading]:
        completed.append(index)
        return shapes[index]

    readings = best_first(queue, complete)
    assert next(readings) == shapes[0][0]
    assert completed == [0]
