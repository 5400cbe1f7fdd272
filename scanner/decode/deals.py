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

import functools
import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from forms.geometry.deal_column import CALLS, LEVELS, RESULT_DIGITS, SUITS, TRICK_DIGITS
from forms.geometry.deal_column import RESULTS as RESULT_SIGNS
from scanner.decode.legality import Legality, VerdictKey, is_legal, verdict_key
from scanner.decode.numbers import CACHED_INPUTS, EMPTY, PROBABILITY_FLOOR, spelled_probabilities
from scanner.decode.rows import Queued, Reading, ShapeKey, best_first, shape_key
from scoring.deals import TALON_QUICK_TRICKS_MAX
from scoring.notation import Contract, parse_contract
from scoring.rules import RuleSet

OPTIONS_KEPT = 3
"""Options of a mark group tried per row (the most likely ones)."""
OPTION_MARGIN_LOG = 12.0
"""Options less likely than the best by more than this (natural log) are not tried."""
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
    tricks than the digit it reads there, when that digit is none a talon prize holds
    (:func:`talon_gap`); 0 otherwise."""


def _log(p: float) -> float:
    return math.log(max(p, PROBABILITY_FLOOR))


class _Marks(dict[tuple[str, str], float]):
    """A row's marks with the group and result scores already worked out (a row asks for
    the same few hundreds of times while its candidates are built)."""

    def __init__(self, marks: Mapping[tuple[str, str], float]) -> None:
        super().__init__(marks)
        self.groups: dict[tuple[str, tuple[str, ...]], dict[str | None, float]] = {}
        """Each mark group's scores: :func:`_group_scores`."""
        self.calls: dict[tuple[str, ...], list[tuple[dict[str, str | None], float]]] = {}
        self.results: dict[tuple[str | None, int | None], float] = {}
        """The result cells' score per (sign, number): :func:`_result_score`."""
        self.talons: dict[str, list[tuple[int, float]]] = {}
        """The talon prizes per kind of deal: :func:`_talon_options`."""
        self.best_talon: dict[str, float] = {}
        """The best of :attr:`talons`' scores per kind of deal."""


def _group_scores(marks: _Marks, field: str, options: tuple[str, ...]
                  ) -> dict[str | None, float]:
    """Log-likelihood that exactly each of ``options`` (``None``: none of them) is crossed in
    a mark group, in the group's order: each box's crossed and clear logs are taken once,
    and each choice sums them over the group's boxes in order."""
    key = (field, options)
    scores = marks.groups.get(key)
    if scores is None:
        seen = [marks.get((field, o), 0.0) for o in options]
        crossed = [_log(p) for p in seen]
        clear = [_log(1 - p) for p in seen]
        scores = marks.groups[key] = {
            chosen: sum([*clear[:i], crossed[i], *clear[i + 1:]])
            for i, chosen in enumerate(options)}
        scores[None] = sum(clear)
    return scores


def _best_options(marks: _Marks, field: str, options: tuple[str, ...]) -> list[str | None]:
    """The likeliest choices of a mark group: :data:`OPTIONS_KEPT` at most, none more than
    :data:`OPTION_MARGIN_LOG` below the best."""
    scored = sorted(((score, o) for o, score in _group_scores(marks, field, options).items()),
                    key=lambda item: -item[0])
    best = scored[0][0]
    return [o for score, o in scored[:OPTIONS_KEPT] if best - score <= OPTION_MARGIN_LOG]


def decode_row(evidence: RowEvidence, rules: RuleSet, seats: tuple[str, ...],
               legality: Legality | None = None) -> list[RowCandidate]:
    """Legal readings of one row, most likely first, with normalised probabilities.

    ``legality`` remembers the rules engine's verdicts for the other rows read with the same
    ``rules`` and ``seats`` (:func:`~scanner.decode.legality.verdicts`: every sheet of a
    batch): the rows of every dealer ask about the same kinds of deal
    (:func:`~scanner.decode.legality.verdict_key`). The readings are weighed best first
    (:func:`best_first`), until :data:`CANDIDATES_KEPT` legal ones are found.
    """
    if _clearly_empty(evidence):
        return [RowCandidate(None, 0.0, 1.0)]
    dealer = seats[evidence.row % len(seats)]
    start = seats.index(dealer)
    players = [seats[(start + i) % len(seats)] for i in range(1, len(seats) + 1)]
    players = players[:3]
    marks, digits = _Marks(evidence.marks), evidence.digits
    tricks = {seat: _readings([digits.get(key, _EMPTY) for key in keys], 10)
              for seat, keys in _trick_cells(seats)}
    result_number = _readings([digits.get(key, _EMPTY) for key in _RESULT_CELLS], 10)
    talon = _readings([digits.get(("talon", "0"), _EMPTY)], TALON_QUICK_TRICKS_MAX) \
        if rules.talon_prize and any(k[0] == "talon" for k in digits) else None
    trick_options = _trick_options(tricks, players, seats)
    # no reading of a shape scores above the shape's score plus these (see best_first)
    best_tricks = max(trick_score for trick_score, _ in trick_options)
    best_result = max(_group_scores(marks, "result", RESULT_SIGNS).values()) + max(
        result_number.logs.values())
    shapes: list[tuple[dict[str, Any], float]] = []
    queue: list[Queued] = []
    declarer_options = (*seats, "allpass")
    levels, suits = _best_options(marks, "level", LEVELS), _best_options(marks, "suit", SUITS)
    declarer_scores = _group_scores(marks, "declarer", declarer_options)
    level_scores = _group_scores(marks, "level", LEVELS)
    suit_scores = _group_scores(marks, "suit", SUITS)
    for declarer in _best_options(marks, "declarer", declarer_options):
        base = declarer_scores[declarer]
        defenders = [p for p in players if p != declarer]
        for level in levels:
            kind = _kind(declarer, level, players)
            if kind is None:
                continue  # no suit nor calls make a deal of these marks
            level_score = base + level_scores[level]
            choices = _call_choices(marks, seats, _callers(declarer, level, players))
            fitting = _fitting_calls(kind, choices, defenders)
            best_talon = 0.0 if kind == "empty" else _best_talon(marks, talon, kind)
            for suit in suits:
                if (suit is None) != (kind != "contract"):
                    continue  # a contract has a suit; nothing else has one
                score = level_score + suit_scores[suit]
                for calls, call_score in fitting:
                    shape = _shape(kind, declarer, level, suit, calls, defenders, dealer)
                    shape_score = score + call_score
                    if shape:
                        bound = shape_score + best_tricks + best_result + best_talon
                        queue.append((-bound, len(shapes), -1, None))
                    else:  # the empty row: its one reading at once
                        empty, = _with_tricks(-1, shape, shape_score, trick_options,
                                              result_number, marks, talon)
                        queue.append((-empty.log_score, len(shapes), 0, empty))
                    shapes.append((shape, shape_score))
    legal: list[tuple[dict[str, Any] | None, float]] = []
    seen: set[tuple[ShapeKey, tuple[tuple[str, int], ...] | None, int]] = set()
    shape_keys: dict[int, tuple[ShapeKey, VerdictKey]] = {}
    legality = {} if legality is None else legality
    row_shapes = [shape for shape, _ in shapes]
    for reading in best_first(queue, lambda index: _with_tricks(
            index, shapes[index][0], shapes[index][1], trick_options, result_number, marks,
            talon)):
        if reading.shape not in shape_keys:
            read = row_shapes[reading.shape] if reading.shape >= 0 else None
            shape_keys[reading.shape] = shape_key(read), verdict_key(read, players)
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
            verdict = legality[legal_key] = is_legal(deal, rules, seats)
        if verdict:
            legal.append((deal, reading.log_score))
            if len(legal) == CANDIDATES_KEPT:
                break
    unconstrained = _ink_best(marks, tricks, result_number, talon, seats)
    candidates = _normalised(legal, unconstrained)
    talon_cell = digits.get(("talon", "0")) if talon is not None else None
    if talon_cell is None:
        return candidates
    return [replace(c, talon_gap=talon_gap(talon_cell, c.deal)) for c in candidates]


def talon_gap(cell: Sequence[float], deal: dict[str, Any] | None) -> float:
    """:attr:`RowCandidate.talon_gap` of ``deal`` for the talon cell's probabilities
    (``cell``: digits 0-9, then empty; no quick tricks reads as empty or 0): 0 unless the
    cell's likeliest class is a digit no talon prize holds (above
    :data:`~scoring.deals.TALON_QUICK_TRICKS_MAX`), a reading :func:`_talon_options` never
    weighs.

    >>> cell = [0.001] * 11; cell[9] = 0.98; cell[3] = 0.01
    >>> round(talon_gap(cell, {"type": "contract", "talon": {"quick_tricks": 3}}), 2)
    4.58
    >>> cell[9], cell[1] = 0.01, 0.98  # a 1, weighed against the 3 by the totals
    >>> talon_gap(cell, {"type": "contract", "talon": {"quick_tricks": 3}})
    0.0
    """
    likeliest = max(range(len(cell)), key=cell.__getitem__)
    if likeliest <= TALON_QUICK_TRICKS_MAX or likeliest == EMPTY:
        return 0.0
    quick = (deal or {}).get("talon", {}).get("quick_tricks", 0)
    shown = cell[quick] + (cell[EMPTY] if quick == 0 else 0.0)
    return max(0.0, _log(cell[likeliest]) - _log(shown))


def _ink_best(marks: _Marks, tricks: dict[str, _Spelled], result_number: _Spelled,
              talon: _Spelled | None,
              seats: tuple[str, ...]) -> float:
    """The log-likelihood of the ink's own best reading, each group on its own, legal or not."""
    groups = [("declarer", (*seats, "allpass")), ("level", LEVELS), ("suit", SUITS),
              ("result", RESULT_SIGNS)]
    groups += [("call", _call_options(s)) for s in seats]
    score = sum(max(_group_scores(marks, field, options).values()) for field, options in groups)
    numbers = [*tricks.values(), result_number] + ([talon] if talon else [])
    return score + sum(_log(max(readings.values())) for readings in numbers)


_EMPTY = tuple([0.0] * 10 + [1.0])


class _Spelled(dict[int | None, float]):
    """P(ink | value) of a group of cells for every value they may hold, empty (``None``)
    first (:func:`_readings`), and the log of each (:func:`_log`), in :attr:`logs`. Shared:
    not to be changed."""

    def __init__(self, values: Iterable[tuple[int | None, float]]) -> None:
        super().__init__(values)
        self.logs = {value: _log(p) for value, p in self.items()}


@functools.cache
def _trick_cells(seats: tuple[str, ...]) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """Each seat's tricks cells, as :class:`RowEvidence` names them."""
    return tuple((seat, tuple(("tricks", f"{seat}:{p}") for p in range(TRICK_DIGITS)))
                 for seat in seats)


_RESULT_CELLS = tuple(("result_tricks", str(p)) for p in range(RESULT_DIGITS))


def _readings(cells: Sequence[Sequence[float]], largest: int) -> _Spelled:
    """Every value 0..``largest`` (and empty) the cells could spell, with P(ink | value):
    all of them, so that the tricks' sum of 10 can pick one the ink finds unlikely."""
    return _spelled(tuple(map(tuple, cells)), largest)


@functools.lru_cache(maxsize=CACHED_INPUTS)
def _spelled(cells: tuple[tuple[float, ...], ...], largest: int) -> _Spelled:
    """:func:`_readings`, looked up: a sheet's empty and clear cells repeat (the dealer's
    tricks with 4 players, the result of a deal not played)."""
    values = [None, *range(largest + 1)]
    return _Spelled(zip(values, spelled_probabilities(cells, values), strict=True))
EMPTY_ROW_MARK_MAX = 0.05
"""A row read as empty at once has no mark box more likely crossed than this ..."""
EMPTY_ROW_CELL_MIN = 0.99
"""... and no digit cell less likely empty than this (most rows of a sheet are empty)."""


def _clearly_empty(evidence: RowEvidence) -> bool:
    """Nothing crossed and nothing written, beyond doubt."""
    return all(p <= EMPTY_ROW_MARK_MAX for p in evidence.marks.values()) and \
        all(cell[-1] >= EMPTY_ROW_CELL_MIN for cell in evidence.digits.values())


def _callers(declarer: str | None, level: str | None, players: list[str]) -> tuple[str, ...]:
    """The seats that call on a contract (its defenders); no seat calls otherwise."""
    if declarer not in players or level in (None, "misere"):
        return ()
    return tuple(p for p in players if p != declarer)


def _call_choices(marks: _Marks, seats: tuple[str, ...],
                  callers: tuple[str, ...]) -> list[tuple[dict[str, str | None], float]]:
    """Each caller's likely calls, combined, every other seat calling nothing, with the
    log-likelihood of each combination; combinations far below the best are dropped."""
    cached = marks.calls.get(callers)
    if cached is not None:
        return cached
    per_seat = []
    for seat in seats:
        options = _call_options(seat)
        if seat in callers:
            likely: list[str | None] = [o for o in _best_options(marks, "call", options) if o]
        else:
            likely = [None]
        scores = _group_scores(marks, "call", options)
        per_seat.append([(o, scores[o]) for o in likely])
    choices = []
    for combo in itertools.product(*per_seat):
        calls = {s: (o.split(":")[1] if o else None)
                 for s, (o, _) in zip(seats, combo, strict=True)}
        choices.append((calls, sum(score for _, score in combo)))
    best = max((score for _, score in choices), default=0.0)
    kept = [c for c in choices if best - c[1] <= OPTION_MARGIN_LOG]
    marks.calls[callers] = kept
    return kept


@functools.cache
def _call_options(seat: str) -> tuple[str, ...]:
    """The mark boxes of one seat's call, as :class:`RowEvidence` names them."""
    return tuple(f"{seat}:{c}" for c in CALLS)


def _kind(declarer: str | None, level: str | None, players: list[str]) -> str | None:
    """The kind of row the declarer and level marks describe: ``"empty"``, ``"allpass"``,
    ``"misere"`` or ``"contract"``; ``None`` if no suit nor calls make them a deal (a level
    on an empty row or an all-pass, a declarer who does not play, a declarer with no
    level)."""
    if declarer is None:
        return "empty" if level is None else None
    if declarer == "allpass":
        return None if level else "allpass"
    if declarer not in players or level is None:
        return None
    return "misere" if level == "misere" else "contract"


def _fitting_calls(kind: str, choices: list[tuple[dict[str, str | None], float]],
                   defenders: list[str]) -> list[tuple[dict[str, str | None], float]]:
    """The call choices that go with a row of ``kind``, in their order: on a contract each
    defender calls and nobody else does; on anything else nobody calls."""
    if kind != "contract":
        return [(calls, score) for calls, score in choices if not any(calls.values())]
    return [(calls, score) for calls, score in choices
            if all(calls[d] for d in defenders)
            and not any(calls[s] for s in calls if s not in defenders)]


def _shape(kind: str, declarer: str | None, level: str | None, suit: str | None,
           calls: dict[str, str | None], defenders: list[str], dealer: str
           ) -> dict[str, Any]:
    """The deal these marks describe, without tricks (``{}`` for an empty row), from marks
    that go together (:func:`_kind`, :func:`_fitting_calls`)."""
    if kind == "empty":
        return {}
    if kind == "allpass":
        return {"dealer": dealer, "type": "allpass"}
    if kind == "misere":
        return {"dealer": dealer, "type": "misere", "declarer": declarer}
    return {"dealer": dealer, "type": "contract", "declarer": declarer,
            "contract": f"{level}{suit}",
            "defence": {d: calls[d] for d in defenders}}


def _trick_options(tricks: dict[str, _Spelled], players: list[str], seats: tuple[str, ...]
                   ) -> list[tuple[float, dict[str, int] | None]]:
    """The likeliest readings of the tricks cells: a few that sum to 10, and "not played"
    (all empty); the 4-player dealer's cells should be empty."""
    sitting_out = [s for s in seats if s not in players]
    out_score = sum(_log(_p_value(tricks[s], None)) for s in sitting_out)
    played: list[tuple[float, tuple[int, ...]]] = []
    if len(players) == 3:  # the third player's tricks follow from the first two's
        logs = [[(value, log) for value, log in tricks[s].logs.items() if value is not None]
                for s in players]
        third = dict(logs[2])
        for v0, l0 in logs[0]:
            for v1, l1 in logs[1]:
                l2 = third.get(10 - v0 - v1)
                if l2 is not None:  # summed as below, in the same order
                    played.append((out_score + (0 + l0 + l1 + l2), (v0, v1, 10 - v0 - v1)))
    else:
        for readings in itertools.product(*(tricks[s].items() for s in players)):
            values = [value for value, _ in readings if value is not None]
            if len(values) == len(readings) and sum(values) == 10:
                played.append((out_score + sum(_log(p) for _, p in readings),
                               tuple(values)))
    played.sort(key=lambda option: -option[0])
    not_played = out_score + sum(_log(_p_value(tricks[s], None)) for s in players)
    return [*((score, dict(zip(players, values, strict=True))) for score, values in played[:3]),
            (not_played, None)]


def _with_tricks(index: int, shape: dict[str, Any], score: float,
                 trick_options: list[tuple[float, dict[str, int] | None]],
                 result_number: _Spelled, marks: _Marks, talon: _Spelled | None
                 ) -> list[Reading]:
    """Complete shape ``index`` with the likeliest tricks, result and talon readings."""
    if not shape:
        not_played = trick_options[-1][0]
        empty = not_played + _log(_p_value(result_number, None)) + _group_scores(
            marks, "result", RESULT_SIGNS)[None]
        return [Reading(score + empty, -1, None, 0)]
    results = []
    talon_options = _talons(marks, talon, shape["type"])
    for trick_score, values in trick_options:
        sign, number = _shape_result(shape, values)
        total = score + trick_score + _result_score(sign, number, result_number, marks)
        for quick, talon_score in talon_options:
            results.append(Reading(total + talon_score, index, values, quick))
    return results


def _talons(marks: _Marks, talon: _Spelled | None, kind: str) -> list[tuple[int, float]]:
    """:func:`_talon_options` of a row, worked out once per kind of deal."""
    options = marks.talons.get(kind)
    if options is None:
        options = marks.talons[kind] = _talon_options(talon, kind)
    return options


def _best_talon(marks: _Marks, talon: _Spelled | None, kind: str) -> float:
    """The best score of :func:`_talons`, worked out once per kind of deal."""
    best = marks.best_talon.get(kind)
    if best is None:
        best = marks.best_talon[kind] = max(q for _, q in _talons(marks, talon, kind))
    return best


def _talon_options(talon: _Spelled | None, kind: str) -> list[tuple[int, float]]:
    """The likeliest talon prizes a deal of ``kind`` may show, with their log-likelihoods."""
    if talon is None:
        return [(0, 0.0)]
    if kind != "contract":
        return [(0, _log(_p_value(talon, None)))]
    options = [(0, _log(_p_value(talon, None) + _p_value(talon, 0)))]
    options += [(q, _log(_p_value(talon, q))) for q in range(1, TALON_QUICK_TRICKS_MAX + 1)]
    return sorted(options, key=lambda o: -o[1])[:2]


def _p_value(readings: _Spelled, value: int | None) -> float:
    return readings.get(value, 0.0) or PROBABILITY_FLOOR


def expected_result(deal: dict[str, Any]) -> tuple[str | None, int | None]:
    """The Codex 4.2.11 result a row shows: sign and number (``("-", 1)`` = one down).

    An all-pass shows none; a deal not played shows ``=`` (the declarer scores as made).

    >>> expected_result({"type": "contract", "declarer": "A", "contract": "7H",
    ...                  "tricks": {"A": 6, "B": 3, "C": 1}})
    ('-', 1)
    """
    return _shape_result(deal, deal.get("tricks"))


def _shape_result(shape: dict[str, Any], tricks: dict[str, int] | None
                  ) -> tuple[str | None, int | None]:
    """:func:`expected_result` of a deal shape played with ``tricks`` (``None``: not played)."""
    if shape["type"] == "allpass":
        return None, None
    if tricks is None:
        return "=", None
    taken = tricks[shape["declarer"]]
    over = -taken if shape["type"] == "misere" else taken - _contract_level(shape["contract"])
    if over == 0:
        return "=", None
    return ("+" if over > 0 else "-"), abs(over)


@functools.cache
def _contract_level(text: str) -> int:
    contract = parse_contract(text)
    assert isinstance(contract, Contract)
    return contract.level


def _result_score(sign: str | None, value: int | None, number: _Spelled, marks: _Marks
                  ) -> float:
    """Log-likelihood of the result cells showing ``sign`` and ``value`` (asked of a row
    for every reading: worked out once per result)."""
    score = marks.results.get((sign, value))
    if score is None:
        score = _group_scores(marks, "result", RESULT_SIGNS)[sign] + _log(_p_value(number, value))
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
