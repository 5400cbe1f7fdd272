"""Row readings weighed best first (scanner.decode.rows), and the rules engine's verdicts
shared between deal shapes (scanner.decode.deals)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from forms.geometry.deal_column import CALLS
from scanner.decode.legality import VerdictKey, is_legal, verdict_key
from scanner.decode.row_marks import deal_shape
from scanner.decode.rows import Queued, Reading, best_first
from scoring.rules import RuleSet


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


@pytest.mark.parametrize("players", [3, 4])
def test_deal_shapes_with_one_verdict_key_get_one_verdict_from_the_rules_engine(
        players: int) -> None:
    """Every shape decode_row can make (every dealer, declarer, contract level and calls,
    played or not, each talon prize) under the legality of every rule set: the shapes with
    the same verdict_key are all legal or all refused, so decode_row may ask once per key."""
    seats = ("A", "B", "C", "D")[:players]
    sochi = RuleSet.preset("sochi", players).settings()
    rule_sets = [RuleSet.from_settings({**sochi, "ten_whisted": ten, "stalingrad": stalingrad})
                 for ten, stalingrad in itertools.product((True, False), repeat=2)]
    assert {(r.ten_whisted, r.stalingrad) for r in rule_sets} == {
        (True, True), (True, False), (False, True), (False, False)}
    for rules in rule_sets:
        verdicts: dict[tuple[VerdictKey, bool, int], bool] = {}
        keys = 0
        for dealer in seats:
            start = seats.index(dealer)
            playing = [seats[(start + i) % players] for i in range(1, players + 1)][:3]
            for shape, played, quick in _everydeal_shape(dealer, playing):
                deal = dict(shape)
                if played:
                    deal["tricks"] = dict(zip(playing, (6, 4, 0), strict=True))
                if quick:
                    deal["talon"] = {"quick_tricks": quick}
                key = (verdict_key(shape, playing), played, quick)
                verdict = is_legal(deal, rules, seats)
                assert verdicts.setdefault(key, verdict) == verdict, (deal, key)
                keys += 1
        assert keys > 4 * len(verdicts)  # keys shared between dealers and declarers
        assert set(verdicts.values()) == {True, False}


def _everydeal_shape(dealer: str, playing: list[str]
                 ) -> list[tuple[dict[str, Any], bool, int]]:
    shapes = [deal_shape("allpass", "allpass", None, None, {}, [], dealer)]
    for declarer in playing:
        defenders = [p for p in playing if p != declarer]
        shapes.append(deal_shape("misere", declarer, "misere", None, {}, defenders, dealer))
        for level, suit in itertools.product(("6", "7", "8", "10"), ("S", "H", "NT")):
            for calls in itertools.product(CALLS, repeat=len(defenders)):
                shapes.append(deal_shape("contract", declarer, level, suit,
                                     dict(zip(defenders, calls, strict=True)), defenders,
                                     dealer))
    return [(shape, played, quick) for shape in shapes
            for played in (False, True) for quick in (0, 2)]
