"""Decode the contract/result column: the legal deal each row's ink most likely says.

Each row's marks and digits are evidence; the candidates are legal deals only (checked by the
rules engine, :func:`scoring.deals.make_deal`: tricks sum to 10, calls that can stand together,
a half-whist only on 6 and 7, ...). A candidate's score is the log-likelihood of the whole row's
ink under it: every mark box it wants crossed is crossed and every other box is empty, the
tricks cells read its tricks, the result cells its Codex 4.2.11 result. The probabilities of
the candidates, normalised, say how sure the decoding is; :mod:`scanner.decode.sheet` lets the
running totals of the triangle re-rank rows that stay unsure.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from forms.geometry.deal_column import LEVELS, SUITS
from forms.geometry.deal_column import RESULTS as RESULT_SIGNS
from scanner.decode.legality import Legality, VerdictKey, is_legal, verdict_key
from scanner.decode.numbers import EMPTY, MISSED_DIGIT
from scanner.decode.row_digits import (
    NO_CELL,
    RESULT_CELLS,
    Spelled,
    p_value,
    shape_result,
    spelled_values,
    talon_options,
    trick_cells,
    trick_options,
    trick_splits,
)
from scanner.decode.row_marks import (
    Marks,
    best_options,
    call_choices,
    call_options,
    callers,
    deal_kind,
    deal_shape,
    fitting_calls,
    group_scores,
    log_p,
)
from scanner.decode.rows import Queued, Reading, ShapeKey, best_first, shape_key
from scoring.deals import TALON_QUICK_TRICKS_MAX
from scoring.rules import RuleSet

CANDIDATES_KEPT = 6


@dataclass(frozen=True)
class RowEvidence:
    """What the scanner saw in one row: P(crossed) per mark box and digit probabilities."""

    row: int
    marks: Mapping[tuple[str, str], float]
    """(field, option) → probability that the box holds a valid (not cancelled) cross."""
    digits: Mapping[tuple[str, str], Sequence[float]]
    """(field, option) → the recognizer's 11 probabilities (digits, then empty)."""


@dataclass(frozen=True)
class RowCandidate:
    """One reading of a row: a record deal (JSON object), or ``None`` for an empty row."""

    deal: dict[str, Any] | None
    log_score: float
    probability: float = 0.0
    ink_gap: float = 0.0
    """How much less likely (natural log) this reading is than what the ink says with no rule
    at all: large when the ink reads as something that cannot happen."""
    talon_gap: float = 0.0
    """How much less likely (natural log) the talon cell's ink finds this reading's quick
    tricks than its own likeliest reading of the cell (:func:`talon_gap`); 0 without a talon
    cell."""



def decode_row(evidence: RowEvidence, rules: RuleSet, seats: tuple[str, ...],
               legality: Legality | None = None) -> list[RowCandidate]:
    """Legal readings of one row, most likely first, with normalised probabilities.

    ``legality`` remembers the rules engine's verdicts for the other rows read with the same
    ``rules`` and ``seats`` (:func:`~scanner.decode.legality.verdicts`: every sheet of a
    batch): the rows of every dealer ask about the same kinds of deal
    (:func:`~scanner.decode.legality.verdict_key`). The readings are weighed best first
    (:func:`best_first`), until :data:`CANDIDATES_KEPT` legal ones are found. Where none is
    (boxes crossed in every group: TRAINING part, a far photo, seed 104, whose decoding
    stopped on such a row), the one reading is the empty row, infinitely far below the
    ink (:attr:`RowCandidate.ink_gap`): *doubtful*, never dropped.
    """
    if _clearly_empty(evidence):
        return [RowCandidate(None, 0.0, 1.0)]
    ink = _row_ink(evidence, rules, seats)
    shapes, queue = _shapes(ink)
    legal = _legal_readings(ink, shapes, queue, rules, {} if legality is None else legality)
    unconstrained = _ink_best(ink.marks, ink.tricks, ink.result_number, ink.talon, seats)
    candidates = _normalised(legal, unconstrained)
    if not candidates:  # the ink reads as no legal deal at all: the row as empty, far off it
        return [RowCandidate(None, 0.0, 1.0, math.inf)]
    talon_cell = evidence.digits.get(("talon", "0")) if ink.talon is not None else None
    if talon_cell is None:
        return candidates
    return [replace(c, talon_gap=talon_gap(talon_cell, c.deal)) for c in candidates]


@dataclass(frozen=True)
class _RowInk:
    """One row's ink as :func:`decode_row` weighs it: the marks, and every value each group of
    digit cells may spell (the tricks per seat, the result's number, the talon's quick tricks;
    ``None``: no talon cell, or no talon prize), with the likeliest trick splits."""

    seats: tuple[str, ...]
    dealer: str
    players: list[str]
    marks: Marks
    tricks: dict[str, Spelled]
    result_number: Spelled
    talon: Spelled | None
    trick_options: list[tuple[float, dict[str, int] | None]]


def _row_ink(evidence: RowEvidence, rules: RuleSet, seats: tuple[str, ...]) -> _RowInk:
    """The row's ink (:class:`_RowInk`); the row's dealer follows from its place (RECORD.md:
    play rotates clockwise), and the three seats after the dealer play."""
    dealer = seats[evidence.row % len(seats)]
    start = seats.index(dealer)
    players = [seats[(start + i) % len(seats)] for i in range(1, len(seats) + 1)][:3]
    digits = evidence.digits
    tricks = {seat: spelled_values([digits.get(key, NO_CELL) for key in keys], 10)
              for seat, keys in trick_cells(seats)}
    result_number = spelled_values([digits.get(key, NO_CELL) for key in RESULT_CELLS], 10)
    talon = spelled_values([digits.get(("talon", "0"), NO_CELL)], TALON_QUICK_TRICKS_MAX) \
        if rules.talon_prize and any(k[0] == "talon" for k in digits) else None
    return _RowInk(seats, dealer, players, Marks(evidence.marks), tricks, result_number, talon,
                   trick_options(tricks, players, seats))


def _shapes(ink: _RowInk) -> tuple[list[tuple[dict[str, Any], float]], list[Queued]]:
    """Every deal shape the row's likeliest marks make, with its marks' score, and the queue
    :func:`best_first` takes them from: each shape bounded by its score plus the best that
    tricks, result and talon can add (the empty row is completed at once)."""
    marks, seats, players, talon = ink.marks, ink.seats, ink.players, ink.talon
    best_tricks = max(trick_score for trick_score, _ in ink.trick_options)
    best_result = max(group_scores(marks, "result", RESULT_SIGNS).values()) + max(
        ink.result_number.logs.values())
    shapes: list[tuple[dict[str, Any], float]] = []
    queue: list[Queued] = []
    declarer_options = (*seats, "allpass")
    levels, suits = best_options(marks, "level", LEVELS), best_options(marks, "suit", SUITS)
    declarer_scores = group_scores(marks, "declarer", declarer_options)
    level_scores = group_scores(marks, "level", LEVELS)
    suit_scores = group_scores(marks, "suit", SUITS)
    for declarer in best_options(marks, "declarer", declarer_options):
        base = declarer_scores[declarer]
        defenders = [p for p in players if p != declarer]
        for level in levels:
            kind = deal_kind(declarer, level, players)
            if kind is None:
                continue  # no suit nor calls make a deal of these marks
            level_score = base + level_scores[level]
            choices = call_choices(marks, seats, callers(declarer, level, players))
            fitting = fitting_calls(kind, choices, defenders)
            best_talon = 0.0 if kind == "empty" else _best_talon(marks, talon, kind)
            for suit in suits:
                if (suit is None) != (kind != "contract"):
                    continue  # a contract has a suit; nothing else has one
                score = level_score + suit_scores[suit]
                for calls, call_score in fitting:
                    shape = deal_shape(kind, declarer, level, suit, calls, defenders, ink.dealer)
                    shape_score = score + call_score
                    if shape:
                        bound = shape_score + best_tricks + best_result + best_talon
                        queue.append((-bound, len(shapes), -1, None))
                    else:  # the empty row: its one reading at once
                        empty, = _with_tricks(-1, shape, shape_score, ink.trick_options,
                                              ink.result_number, marks, talon)
                        queue.append((-empty.log_score, len(shapes), 0, empty))
                    shapes.append((shape, shape_score))
    return shapes, queue


def _legal_readings(ink: _RowInk, shapes: list[tuple[dict[str, Any], float]],
                    queue: list[Queued], rules: RuleSet, legality: Legality
                    ) -> list[tuple[dict[str, Any] | None, float]]:
    """The row's likeliest legal readings (deal and score), best first, each deal once:
    :data:`CANDIDATES_KEPT` at most. ``legality`` keeps the rules engine's verdicts."""
    legal: list[tuple[dict[str, Any] | None, float]] = []
    seen: set[tuple[ShapeKey, tuple[tuple[str, int], ...] | None, int]] = set()
    shape_keys: dict[int, tuple[ShapeKey, VerdictKey]] = {}
    row_shapes = [shape for shape, _ in shapes]
    for reading in best_first(queue, lambda index: _with_tricks(
            index, shapes[index][0], shapes[index][1], ink.trick_options, ink.result_number,
            ink.marks, ink.talon)):
        if reading.shape not in shape_keys:
            read = row_shapes[reading.shape] if reading.shape >= 0 else None
            shape_keys[reading.shape] = shape_key(read), verdict_key(read, ink.players)
        key, read_verdict_key = shape_keys[reading.shape]
        tricks_key = None if reading.tricks is None else tuple(sorted(reading.tricks.items()))
        if (key, tricks_key, reading.quick) in seen:
            continue  # the same deal again
        seen.add((key, tricks_key, reading.quick))
        # make_deal's verdict does not depend on the tricks' values (every trick option
        # names the players and sums to 10), only on whether there are tricks: asked once
        legal_key = (read_verdict_key, tricks_key is not None, reading.quick)
        verdict = legality.get(legal_key)
        if verdict is False:
            continue
        deal = reading.deal(row_shapes)
        if verdict is None:
            verdict = legality[legal_key] = is_legal(deal, rules, ink.seats)
        if verdict:
            legal.append((deal, reading.log_score))
            if len(legal) == CANDIDATES_KEPT:
                break
    return legal


def other_splits(evidence: RowEvidence, best: RowCandidate, rules: RuleSet,
                 seats: tuple[str, ...]) -> list[RowCandidate]:
    """Every other split of the 10 tricks for the row's reading ``best`` (its marks and
    talon kept), scored by the row's ink as :func:`decode_row` scores ``best``: the readings
    :func:`decode_row` does not try (:data:`~scanner.decode.row_digits.SPLITS_TRIED`), for
    the running totals to weigh (the tricks' sum of 10 keeps a misread that moves tricks from
    one seat to another legal). None for a reading not played; each is as legal as ``best``
    (the rules engine's verdict does not depend on the tricks' values)."""
    deal = best.deal
    if deal is None or "tricks" not in deal:
        return []
    ink = _row_ink(evidence, rules, seats)
    splits = trick_splits(ink.tricks, ink.players, seats)
    own = tuple(deal["tricks"][p] for p in ink.players)
    own_score = next((score for score, values in splits if values == own), None)
    if own_score is None:
        return []
    base = best.log_score - own_score - _result_score(
        *shape_result(deal, deal["tricks"]), ink.result_number, ink.marks)
    others = []
    for score, values in splits:
        if values == own:
            continue
        tricks = dict(zip(ink.players, values, strict=True))
        log_score = base + score + _result_score(*shape_result(deal, tricks),
                                                 ink.result_number, ink.marks)
        others.append(RowCandidate({**deal, "tricks": tricks}, log_score,
                                   best.probability * math.exp(log_score - best.log_score),
                                   max(0.0, best.ink_gap + best.log_score - log_score),
                                   best.talon_gap))
    return others


def talon_readings(cell: Sequence[float]) -> list[float]:
    """The talon cell's probability of each number of quick tricks it may read: none (the
    cell empty, or a 0) first, then 1-9 (a digit no talon prize holds included)."""
    return [cell[0] + cell[EMPTY], *cell[1:EMPTY]]


def talon_gap(cell: Sequence[float], deal: dict[str, Any] | None, missed: bool = False
              ) -> float:
    """:attr:`RowCandidate.talon_gap` of ``deal`` for the talon cell's probabilities
    (``cell``: digits 0-9, then empty; no quick tricks reads as empty or 0): how much less
    likely the cell's ink finds the deal's quick tricks than its likeliest reading, a digit
    no talon prize holds (a 9) included. ``missed``: a digit the reader finds blank keeps
    :data:`~scanner.decode.numbers.MISSED_DIGIT` of the blank's likelihood, as a written
    total's digit does (a faint digit is sometimes not seen at all, however sure the reader
    says it is).

    >>> cell = [0.001] * 11; cell[9] = 0.98; cell[3] = 0.01
    >>> round(talon_gap(cell, {"type": "contract", "talon": {"quick_tricks": 3}}), 2)
    4.58
    >>> cell[9], cell[1] = 0.01, 0.98  # a 1, which the totals would make a 3
    >>> round(talon_gap(cell, {"type": "contract", "talon": {"quick_tricks": 3}}), 2)
    4.58
    >>> talon_gap(cell, {"type": "contract", "talon": {"quick_tricks": 1}})
    0.0
    >>> blank = [0.0] * 10 + [1.0]
    >>> [round(talon_gap(blank, {"type": "contract", "talon": {"quick_tricks": 2}}, missed), 2)
    ...  for missed in (False, True)]
    [13.82, 4.61]
    """
    quick = (deal or {}).get("talon", {}).get("quick_tricks", 0)
    readings = talon_readings(cell)
    if missed:
        readings = [readings[0], *(max(p, MISSED_DIGIT * cell[EMPTY]) for p in readings[1:])]
    return max(0.0, log_p(max(readings)) - log_p(readings[quick]))


def _ink_best(marks: Marks, tricks: dict[str, Spelled], result_number: Spelled,
              talon: Spelled | None,
              seats: tuple[str, ...]) -> float:
    """The log-likelihood of the ink's own best reading, each group on its own, legal or not."""
    groups = [("declarer", (*seats, "allpass")), ("level", LEVELS), ("suit", SUITS),
              ("result", RESULT_SIGNS)]
    groups += [("call", call_options(s)) for s in seats]
    score = sum(max(group_scores(marks, field, options).values()) for field, options in groups)
    numbers = [*tricks.values(), result_number] + ([talon] if talon else [])
    return score + sum(log_p(max(readings.values())) for readings in numbers)


EMPTY_ROW_MARK_MAX = 0.05
"""A row read as empty at once has no mark box more likely crossed than this ..."""
EMPTY_ROW_CELL_MIN = 0.99
"""... and no digit cell less likely empty than this (most rows of a sheet are empty)."""


def _clearly_empty(evidence: RowEvidence) -> bool:
    """Nothing crossed and nothing written, beyond doubt."""
    return all(p <= EMPTY_ROW_MARK_MAX for p in evidence.marks.values()) and \
        all(cell[-1] >= EMPTY_ROW_CELL_MIN for cell in evidence.digits.values())



def _with_tricks(index: int, shape: dict[str, Any], score: float,
                 trick_options: list[tuple[float, dict[str, int] | None]],
                 result_number: Spelled, marks: Marks, talon: Spelled | None
                 ) -> list[Reading]:
    """Complete shape ``index`` with the likeliest tricks, result and talon readings."""
    if not shape:
        not_played = trick_options[-1][0]
        empty = not_played + log_p(p_value(result_number, None)) + group_scores(
            marks, "result", RESULT_SIGNS)[None]
        return [Reading(score + empty, -1, None, 0)]
    results = []
    talon_options = _talons(marks, talon, shape["type"])
    for trick_score, values in trick_options:
        sign, number = shape_result(shape, values)
        total = score + trick_score + _result_score(sign, number, result_number, marks)
        for quick, talon_score in talon_options:
            results.append(Reading(total + talon_score, index, values, quick))
    return results


def _talons(marks: Marks, talon: Spelled | None, kind: str) -> list[tuple[int, float]]:
    """:func:`talon_options` of a row, worked out once per kind of deal."""
    options = marks.talons.get(kind)
    if options is None:
        options = marks.talons[kind] = talon_options(talon, kind)
    return options


def _best_talon(marks: Marks, talon: Spelled | None, kind: str) -> float:
    """The best score of :func:`_talons`, worked out once per kind of deal."""
    best = marks.best_talon.get(kind)
    if best is None:
        best = marks.best_talon[kind] = max(q for _, q in _talons(marks, talon, kind))
    return best



def _result_score(sign: str | None, value: int | None, number: Spelled, marks: Marks
                  ) -> float:
    """Log-likelihood of the result cells showing ``sign`` and ``value`` (asked of a row
    for every reading: worked out once per result)."""
    score = marks.results.get((sign, value))
    if score is None:
        score = group_scores(marks, "result", RESULT_SIGNS)[sign] + log_p(p_value(number, value))
        marks.results[(sign, value)] = score
    return score


def _normalised(legal: list[tuple[dict[str, Any] | None, float]], unconstrained: float
                ) -> list[RowCandidate]:
    """The legal readings (deal and score, best first) as candidates: their probabilities
    normalised, and how far each is below the ink's ``unconstrained`` best."""
    if not legal:
        return []
    top = legal[0][1]
    weights = [math.exp(score - top) for _, score in legal]
    total = sum(weights)
    return [RowCandidate(deal, score, w / total, max(0.0, unconstrained - score))
            for (deal, score), w in zip(legal, weights, strict=True)]
